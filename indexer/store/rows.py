"""The rows the index stores and hands out: one file's state, one node. Shared by the
parser (which makes them), the store (which keeps them) and the provider."""

from __future__ import annotations

import posixpath
from functools import partial
from typing import NamedTuple


class FileState(NamedTuple):
    """What the index knows of one file on disk. A tuple: every refresh reads one back
    for each file (55,000 on the kernel), built in C (`file_state`)."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    digest: str
    language: str | None
    status: str
    indexed_at: str
    valid_from: str
    # Every write moves a file's change time, also one that keeps size and mtime
    # (`cp -p`, `tar x`, `rsync -t`); None in rows from before it was kept.
    ctime_ns: int | None = None


class NodeRow(NamedTuple):
    """One file, symbol or section: ids and small attributes, never source text.
    A tuple: millions cross from the parsing processes and back out of SQLite, and a
    tuple is built and unpickled in C (a frozen dataclass runs Python per field)."""

    id: str
    path: str
    kind: str  # file | symbol | section
    sym_kind: str | None
    name: str
    title: str
    start_line: int
    end_line: int
    digest: str | None  # sha256 of the exact line span on disk
    content_digest: str | None  # sha256 of the frame content (UTF-8)
    parent: str | None
    signature: str
    doc: str
    length: float
    bytes: int
    head_end: int | None = None  # symbols: last line of signature + docstring (header frames)


GENERATED = "generated"  # a file node's sym_kind when a tool generated the file (indexer/parse.py)
MODULE_FRAGMENT = "__module__"  # a code file's header symbol: `path#__module__` (indexer/parse.py)
NODE_COLUMNS = NodeRow._fields  # the nodes table's columns, in this order
NODE_KIND = 1 + NODE_COLUMNS.index("kind")  # in put_files' rows, after the rowid
NODE_LENGTH = 1 + NODE_COLUMNS.index("length")
NODE_PATH = 1 + NODE_COLUMNS.index("path")
NODE_PARENT = 1 + NODE_COLUMNS.index("parent")
# Columns that usually repeat another are stored NULL when they do, and read back
# whole: a title is mostly the name (C has no module prefix), a frame's content digest
# the span's (valid UTF-8; a file node has none). drivers/net's index: 626 -> 590 MB.
_ELIDED = {  # column: (stored, read), over the row's parameters and columns
    "title": ("nullif({title}, {name})", "coalesce(title, name)"),
    "content_digest": (
        "CASE WHEN {kind} = 'file' THEN {content_digest} ELSE nullif({content_digest}, {digest}) END",
        "CASE WHEN kind = 'file' THEN content_digest ELSE coalesce(content_digest, digest) END",
    ),
}


def _node_sql() -> tuple[str, str]:
    """(the nodes columns to SELECT, the VALUES of an INSERT of (rowid, *NodeRow))."""
    place = {c: f"?{i + 2}" for i, c in enumerate(NODE_COLUMNS)}
    select = [_ELIDED[c][1] if c in _ELIDED else c for c in NODE_COLUMNS]
    values = [_ELIDED[c][0].format(**place) if c in _ELIDED else place[c] for c in NODE_COLUMNS]
    return ",".join(select), "?1," + ",".join(values)


_NODE_SELECT, _NODE_VALUES = _node_sql()
node_row = partial(tuple.__new__, NodeRow)  # its values, as a tuple, to a NodeRow: in C, no Python per row
file_state = partial(tuple.__new__, FileState)


def file_stem(path: str) -> str:
    """`pkg/Test_Config.spec.ts` -> `test_config`."""
    return posixpath.basename(path).split(".", 1)[0].lower()
