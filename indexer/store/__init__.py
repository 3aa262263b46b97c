"""The index on disk: one SQLite database (WAL) per repository, outside the tree.

Each file's rows are replaced in one transaction, so a reader never sees half a
file. A database written by another schema version is rebuilt, never misread.

`Store` is one object over one connection per thread; its methods come by table
family, each in its own module over `Connection` (the file, its connections, its
transactions, the meta table):

    schema.py      every table and index, in one place
    rows.py        FileState, NodeRow: the rows it keeps and hands out
    location.py    where the file lives, kept the user's alone
    connection.py  open, check, set aside when damaged, connections, transactions, meta
    counts.py      the counts kept in meta, moved by every write; `index --stats`
    files.py       files and dirs; putting and deleting a file's rows of every family
    nodes.py       nodes, priors, term postings and corpus figures
    links.py       links, and the imports and uses they are resolved from
    history.py     co-changes, recent changes, commit-message terms
"""

from __future__ import annotations

from .connection import WAL_CHECKPOINT_PAGES, Connection, NotADatabase, is_damage
from .files import Files
from .history import History
from .links import Links
from .location import CACHE_ENV, db_path_for, default_cache_dir
from .nodes import OVERVIEW_POOL, Nodes
from .rows import (
    GENERATED,
    MODULE_FRAGMENT,
    NODE_COLUMNS,
    NODE_KIND,
    NODE_LENGTH,
    NODE_PARENT,
    NODE_PATH,
    FileState,
    NodeRow,
    file_state,
    file_stem,
    node_row,
)
from .schema import SCHEMA_VERSION


class Store(Files, Nodes, Links, History):
    """Every table family over one connection per thread, behind the same `lock`
    and `transaction()`."""


__all__ = [
    "CACHE_ENV",
    "GENERATED",
    "MODULE_FRAGMENT",
    "NODE_COLUMNS",
    "NODE_KIND",
    "NODE_LENGTH",
    "NODE_PARENT",
    "NODE_PATH",
    "OVERVIEW_POOL",
    "SCHEMA_VERSION",
    "WAL_CHECKPOINT_PAGES",
    "Connection",
    "FileState",
    "NodeRow",
    "NotADatabase",
    "Store",
    "db_path_for",
    "default_cache_dir",
    "file_state",
    "file_stem",
    "is_damage",
    "node_row",
]
