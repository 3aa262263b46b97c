"""The index on disk: one SQLite database (WAL) per repository, outside the tree.

Each file's rows are replaced in one transaction, so a reader never sees half a
file. A database written by another schema version is rebuilt, never misread.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import sqlite3
import stat
import threading
import time
import weakref
from collections import Counter
from contextlib import contextmanager
from functools import partial
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from .names import named_in_part
from .postings import records as posting_records
from .postings import unpack as unpack_postings
from .uses import unpack as unpack_uses

SCHEMA_VERSION = 13
# Lookup indexes that a bulk load drops and rebuilds once at the end (sorted builds
# are far cheaper than millions of random inserts).
_BULK_INDEXES = {
    "postings_term": "CREATE INDEX IF NOT EXISTS postings_term ON postings(term, file, size)",  # covers term_stats
    "postings_file": "CREATE INDEX IF NOT EXISTS postings_file ON postings(file)",
    "used_name": "CREATE INDEX IF NOT EXISTS used_name ON used(name)",
    "links_src": "CREATE INDEX IF NOT EXISTS links_src ON links(src)",
    "nodes_name": "CREATE INDEX IF NOT EXISTS nodes_name ON nodes(name)",
    "links_dst": "CREATE INDEX IF NOT EXISTS links_dst ON links(dst)",
    "nodes_parent": "CREATE INDEX IF NOT EXISTS nodes_parent ON nodes(parent)",
}
CACHE_ENV = "REPO_GRAPH_CACHE_DIR"
_PRIOR = "coalesce((SELECT prior FROM priors WHERE priors.id = nodes.id), 0)"  # a node row's prior, in SQL
WAL_CHECKPOINT_PAGES = 8192
OVERVIEW_POOL = 20  # prior_nodes looks among this many times its limit first

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE files(
  path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, inode INTEGER,
  digest TEXT, language TEXT, status TEXT, indexed_at TEXT, valid_from TEXT, warnings TEXT,
  stem TEXT,  -- the file name to its first dot, lowercased: a file's tests and namesakes by index
  ctime_ns INTEGER);
CREATE INDEX files_stem ON files(stem);
CREATE TABLE nodes(
  rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, path TEXT NOT NULL,
  kind TEXT NOT NULL, sym_kind TEXT, name TEXT, title TEXT,
  start_line INTEGER, end_line INTEGER, digest TEXT, content_digest TEXT,
  parent TEXT, signature TEXT, doc TEXT, length REAL, bytes INTEGER, head_end INTEGER);
-- PageRank of the nodes above zero (indexer/graph.py), by id: a table of its own, so a
-- recomputation writes these few bytes a node instead of rewriting every node row.
CREATE TABLE priors(id TEXT PRIMARY KEY, prior REAL NOT NULL) WITHOUT ROWID;
CREATE INDEX priors_prior ON priors(prior);  -- the overview walks the best first
CREATE INDEX nodes_path ON nodes(path);
-- A file defines each of its nodes, and a node contains those whose parent it is: read
-- from the nodes through their indexes (path, parent, id), never stored twice.
CREATE VIEW edges(path, src, dst, rel) AS
  SELECT path, path, id, 'code.defines' FROM nodes WHERE kind!='file'
  UNION ALL SELECT path, parent, id, 'repo-graph:contains' FROM nodes WHERE kind!='file' AND parent!=path;
CREATE TABLE postings(term TEXT NOT NULL, file INTEGER NOT NULL, size INTEGER NOT NULL, data BLOB NOT NULL);  -- indexer/postings.py
CREATE TABLE corpus(id INTEGER PRIMARY KEY CHECK (id = 1), nodes INTEGER NOT NULL, length REAL NOT NULL);
INSERT INTO corpus VALUES(1, 0, 0.0);
-- A file's uses of names, keyed like postings by its file node's rowid: one packed row
-- per file (indexer/uses.py), and one row per name it uses, for "who uses this name".
CREATE TABLE uses(file INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE used(name TEXT NOT NULL, file INTEGER NOT NULL);
CREATE INDEX used_file ON used(file);
CREATE TABLE imports(path TEXT NOT NULL, target TEXT NOT NULL, line INTEGER, names TEXT);
CREATE INDEX imports_path ON imports(path);
CREATE TABLE links(path TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL, rel TEXT NOT NULL);
CREATE INDEX links_path ON links(path);
CREATE TABLE recent(path TEXT PRIMARY KEY, n REAL NOT NULL);  -- indexer/history.py: changes, the older counting less
"""
# What git history says (indexer/history.py) of pairs, both ways, and of each file: the
# terms of its commits' messages (`said`: term, the file's row in `said_files`, count;
# keyed by term, a third of the size with paths in it) and how many terms in all. Made
# anew each time it is read, so an index from before co-changes were weighed by age
# (INTEGER), or before messages were read, takes the new form.
_HISTORY_SCHEMA = """
DROP TABLE IF EXISTS cochange;
CREATE TABLE cochange(a TEXT NOT NULL, b TEXT NOT NULL, n REAL NOT NULL);
CREATE INDEX cochange_a ON cochange(a);
DROP TABLE IF EXISTS said;
DROP TABLE IF EXISTS said_files;
CREATE TABLE said_files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, n REAL NOT NULL);
CREATE TABLE said(term TEXT NOT NULL, file INTEGER NOT NULL, n REAL NOT NULL, PRIMARY KEY (term, file)) WITHOUT ROWID;
"""
# Every directory that has held an indexed file, by its own name lowercased: "the files
# under a directory called `printer`" without scanning every path. A directory emptied
# since stays (it then holds nothing). Created on open when an index predates it.
_DIRS_SCHEMA = """
CREATE TABLE IF NOT EXISTS dirs(path TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dirs_name ON dirs(name);
"""


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


def _count_file(delta: Counter, status: str, language: str | None, n: int) -> None:
    if status == "ok":
        delta["files"] += n
        if language is not None:
            delta["lang:" + language] += n


def _prefix_range(prefix: str) -> tuple[str, str]:
    """The bounds of the strings starting with `prefix`, for an indexed range scan."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _ancestors(path: str):
    """`a/b/c.py` -> `a/b`, `a`."""
    directory = posixpath.dirname(path)
    while directory:
        yield directory
        directory = posixpath.dirname(directory)


def file_stem(path: str) -> str:
    """`pkg/Test_Config.spec.ts` -> `test_config`."""
    return posixpath.basename(path).split(".", 1)[0].lower()


def default_cache_dir() -> Path:
    """`$REPO_GRAPH_CACHE_DIR`, else the platform cache dir; works with only HOME set."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "repo-graph"
    home = Path(os.environ.get("HOME") or Path.home())
    if os.uname().sysname == "Darwin":
        return home / "Library" / "Caches" / "repo-graph"
    return home / ".cache" / "repo-graph"


def db_path_for(root: Path, cache_dir: Path | None = None) -> Path:
    """One database per repository, keyed by its real path."""
    real = str(Path(root).resolve())
    key = hashlib.sha256(real.encode()).hexdigest()[:16]
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(real).name)[:40]
    return (cache_dir or default_cache_dir()) / f"{name}-{key}.sqlite3"


class _Held:
    """A thread's connection. Only its thread's locals hold it, so when the thread
    ends, the connection is closed with it; the store keeps a weak reference."""

    __slots__ = ("db", "generation", "__weakref__")

    def __init__(self, db: sqlite3.Connection, generation: int):
        self.db = db
        self.generation = generation


_SQLITE_HEADER = b"SQLite format 3\x00"
_DAMAGED_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
_SIDE_FILES = ("", "-wal", "-shm")


class NotADatabase(sqlite3.DatabaseError):
    """The file's first bytes are not SQLite's header."""


def is_damage(exc: BaseException) -> bool:
    """Whether a database error says the file itself is damaged (not locked, not full)."""
    return isinstance(exc, NotADatabase) or (
        isinstance(exc, sqlite3.DatabaseError) and (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _DAMAGED_CODES
    )


def _private(path: Path, mode: int) -> None:
    """Bring a file or folder of ours to `mode` (0700/0600): the index holds the
    repository's code and its digests, for the user alone."""
    try:
        st = path.stat()
        shared = st.st_mode & stat.S_ISVTX or path == Path.home()  # /tmp, a home named as --cache-dir: not ours
        if st.st_uid == os.geteuid() and st.st_mode & 0o777 != mode and not shared:
            path.chmod(mode)
    except (OSError, RuntimeError):
        pass


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.lock = threading.RLock()  # this process's writers, one at a time
        self._local = threading.local()
        self._held: weakref.WeakSet[_Held] = weakref.WeakSet()  # every live thread's connection
        self._generation = 0  # bumped when the file is replaced: every thread reconnects
        self._closed = False
        self.set_aside_to: Path | None = None  # where a damaged file went, for the one line that says so
        self._make_private()
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            self._replace_damaged()

    def _make_private(self) -> None:
        folder = self.path.parent
        if not folder.exists():
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _private(folder, 0o700)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))  # SQLite gives -wal and -shm its mode
        for suffix in _SIDE_FILES:
            _private(Path(f"{self.path}{suffix}"), 0o600)

    def _open(self) -> None:
        """Open, and check cheaply that the file is a database of ours: its header and
        its schema (SQLite's full check runs only once an operation fails)."""
        with open(self.path, "rb") as f:
            head = f.read(len(_SQLITE_HEADER))
        if head and head != _SQLITE_HEADER:
            raise NotADatabase("file is not a database (its header is not SQLite's)")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.rebuilt = self._ensure_schema()
        self._ensure_columns()
        self._ensure_dirs()
        self.bulk_load(False)  # after a crash mid-bulk-load, the indexes come back here

    def damaged(self, exc: BaseException) -> bool:
        """Whether `exc`, raised by an operation, means the file is damaged: its code
        says so, or SQLite's own check of the file, run now, fails."""
        if is_damage(exc):
            return True
        if not isinstance(exc, sqlite3.DatabaseError) or isinstance(exc, sqlite3.OperationalError):
            return False  # locked, busy, full, read-only: the file is fine
        try:
            return self.db.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok"
        except sqlite3.DatabaseError:
            return True

    def _replace_damaged(self) -> None:
        """Move the damaged file aside (kept for a person to look at) and start an
        empty index in its place; the caller rebuilds it."""
        with self.lock:
            self._disconnect()
            stamp = time.strftime("%Y%m%dT%H%M%S")
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
            for suffix in _SIDE_FILES:
                try:
                    os.replace(f"{self.path}{suffix}", f"{aside}{suffix}")
                except FileNotFoundError:
                    pass
            self.set_aside_to = aside
            self._make_private()
            self._open()

    def replaced_since_used(self) -> bool:
        """Whether the file was replaced after this thread's connection was opened: an
        error this thread saw may be the old file's, already set aside by another."""
        held = getattr(self._local, "held", None)
        return held is not None and held.generation != self._generation

    def replace_damaged(self) -> Path:
        """After an operation found the file damaged: set it aside, open a fresh one.
        Every thread's next use reconnects to the new file."""
        self._replace_damaged()
        assert self.set_aside_to is not None
        return self.set_aside_to

    def _disconnect(self) -> None:
        for held in list(self._held):
            try:
                held.db.close()
            except sqlite3.Error:
                pass
        self._held.clear()
        self._generation += 1

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection. Each thread has its own, so a query reads the
        last committed state (WAL) while the indexer writes, instead of waiting for
        its transaction; writers still take `lock`."""
        held = getattr(self._local, "held", None)
        if held is None or held.generation != self._generation:
            if self._closed:
                raise sqlite3.ProgrammingError("the index store is closed")
            db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=30)
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA cache_size=-65536")  # 64 MiB of page cache
            # Checkpoint every 32 MiB of WAL, not 4: a burst of saves rewrites the same
            # index pages batch after batch, and each checkpoint copies them again.
            db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit={WAL_CHECKPOINT_PAGES * 4096}")
            held = self._local.held = _Held(db, self._generation)
            with self.lock:
                self._held.add(held)
        return held.db

    @contextmanager
    def snapshot(self):
        """Reads inside see one committed state, whatever commits meanwhile (a read
        transaction); inside a write transaction, that transaction's state."""
        db = self.db
        if db.in_transaction:
            yield
            return
        db.execute("BEGIN")
        try:
            yield
        finally:
            db.execute("COMMIT")

    def _ensure_schema(self) -> bool:
        with self.lock:
            try:
                row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            except sqlite3.OperationalError:  # no meta table: a new file (damage is raised on)
                row = None
            if row is not None and row[0] == str(SCHEMA_VERSION):
                return False
            self.db.execute("BEGIN IMMEDIATE")
            try:
                found = self.db.execute("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')")
                for kind, name in list(found):
                    self.db.execute(f'DROP {kind.upper()} IF EXISTS "{name}"')
                self._execute_script(_SCHEMA)
                self._execute_script(_HISTORY_SCHEMA)
                for statement in _BULK_INDEXES.values():
                    self.db.execute(statement)
                self.db.execute("INSERT INTO meta VALUES('schema_version', ?)", (str(SCHEMA_VERSION),))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return True

    def _ensure_columns(self) -> None:
        """Columns added since a schema version: added in place, no re-index (their
        rows read NULL until the file is next seen)."""
        with self.lock:
            have = {row[1] for row in self.db.execute("PRAGMA table_info(files)")}
            if "ctime_ns" not in have:
                self.db.execute("ALTER TABLE files ADD COLUMN ctime_ns INTEGER")

    def _ensure_dirs(self) -> None:
        with self.lock:
            if self.db.execute("SELECT 1 FROM sqlite_master WHERE name='dirs'").fetchone():
                return
            with self.transaction():
                self._execute_script(_DIRS_SCHEMA)
                self._add_dirs(r[0] for r in self.db.execute("SELECT path FROM files"))

    def _execute_script(self, script: str) -> None:
        """Each statement of `script` inside the caller's transaction (executescript would commit it)."""
        for statement in script.strip().split(";"):
            if statement.strip():
                self.db.execute(statement)

    def _add_dirs(self, paths) -> None:
        dirs = {d for path in paths for d in _ancestors(path)}
        self.db.executemany(
            "INSERT OR IGNORE INTO dirs VALUES(?, ?)", ((d, posixpath.basename(d).lower()) for d in sorted(dirs))
        )

    def bulk_load(self, on: bool) -> None:
        """Drop (on) or rebuild (off) the lookup indexes around a large load. A crash
        in between leaves them missing, which `_ensure_indexes` repairs on open."""
        with self.lock:
            for name, statement in _BULK_INDEXES.items():
                self.db.execute(f"DROP INDEX IF EXISTS {name}" if on else statement)
            if on:
                self.db.execute("DELETE FROM meta WHERE key='counts'")  # counted once at the end, not per batch

    def close(self) -> None:
        with self.lock:
            for held in list(self._held):
                held.db.close()
            self._closed = True

    # -- meta ---------------------------------------------------------------
    def stats(self) -> dict[str, dict[str, int]]:
        """Counts per language, node kind and edge kind, for `index --stats`."""
        q = self.db.execute
        return {
            "files_by_language": dict(
                q("SELECT coalesce(language,'?'), count(*) FROM files WHERE status='ok' GROUP BY 1")
            ),
            "files_skipped": dict(q("SELECT status, count(*) FROM files WHERE status!='ok' GROUP BY 1")),
            "nodes_by_kind": dict(
                q(
                    "SELECT CASE kind WHEN 'symbol' THEN 'symbol:' || sym_kind ELSE kind END, count(*) "
                    "FROM nodes GROUP BY 1"
                )
            ),
            "symbols_by_language": dict(
                q(
                    "SELECT f.language, count(*) FROM nodes n JOIN files f ON f.path=n.path "
                    "WHERE n.kind='symbol' GROUP BY 1"
                )
            ),
            "edges_by_kind": dict(
                q("SELECT rel, count(*) FROM (SELECT rel FROM edges UNION ALL SELECT rel FROM links) GROUP BY 1")
            ),
            "unresolved_names": {"names_used_per_file": q("SELECT count(*) FROM used").fetchone()[0]},
        }

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES(?,?)", (key, value))

    # -- files --------------------------------------------------------------
    def file_states(self) -> dict[str, FileState]:
        rows = self.db.execute(
            "SELECT path,size,mtime_ns,inode,digest,language,status,indexed_at,valid_from,ctime_ns FROM files"
        ).fetchall()
        return dict(zip(map(itemgetter(0), rows), map(file_state, rows)))

    def file_state(self, path: str) -> FileState | None:
        r = self.db.execute(
            "SELECT path,size,mtime_ns,inode,digest,language,status,indexed_at,valid_from,ctime_ns FROM files WHERE path=?",
            (path,),
        ).fetchone()
        return file_state(r) if r else None

    @contextmanager
    def transaction(self):
        """One write, whole or not at all. A failed COMMIT (a full disk) is rolled back
        and raised as itself: the lock is released exactly once."""
        with self.lock:
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    try:
                        db.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass  # the error being raised is the one that says what happened
                raise

    def touch_file(self, state: FileState) -> None:
        """Same bytes, new stat (a `touch`, a checkout that rewrote nothing)."""
        self.db.execute(
            "UPDATE files SET size=?, mtime_ns=?, inode=?, ctime_ns=? WHERE path=?",
            (state.size, state.mtime_ns, state.inode, state.ctime_ns, state.path),
        )

    def _tally(self, counts: dict | None, delta: Counter) -> None:
        """Move the kept counts() by what one write added (or, negative, removed), inside
        its transaction: counting afresh scans every node row (seconds on the kernel).
        Without kept counts (a first index loads in bulk) there is nothing to move."""
        if counts is None or not delta:
            return
        for key, n in delta.items():
            into, key = (counts["languages"], key[5:]) if key.startswith("lang:") else (counts, key)
            into[key] = into.get(key, 0) + n
            if not into[key] and key not in ("files", "edges"):
                del into[key]  # as a fresh count has it: no row, no key
        self.set_meta("counts", json.dumps(counts))

    def _kept_counts(self) -> dict | None:
        kept = json.loads(self.get_meta("counts") or "null")
        return None if kept is None or "generation" in kept else kept  # that: counted by an older release

    def delete_file(self, path: str) -> list[str]:
        """Remove a file's rows; returns the ids of the nodes that went."""
        delta, kept = Counter(), self._kept_counts()
        if kept is not None:
            for status, language in self.db.execute("SELECT status, language FROM files WHERE path=?", (path,)):
                _count_file(delta, status, language, -1)
            for kind, n, contained in self.db.execute(
                "SELECT kind, count(*), total(instr(parent, '#') > 0 AND parent != path) FROM nodes WHERE path=? "
                "GROUP BY kind",
                (path,),
            ):
                delta[kind] -= n
                delta["edges"] -= int(contained) + (n if kind != "file" else 0)
        ids = [r[0] for r in self.db.execute("SELECT id FROM nodes WHERE path=?", (path,))]
        self.db.execute(
            "UPDATE corpus SET (nodes, length) = (SELECT corpus.nodes - count(*), corpus.length - coalesce(sum(nodes.length), 0) "
            "FROM nodes WHERE path=? AND kind!='file')",
            (path,),
        )
        row = self.db.execute("SELECT rowid FROM nodes WHERE id=?", (path,)).fetchone()
        if row is not None:
            for table in ("postings", "uses", "used"):  # keyed by the file node's rowid
                self.db.execute(f"DELETE FROM {table} WHERE file=?", row)
        for table in ("nodes", "imports", "links", "files"):
            gone = self.db.execute(f"DELETE FROM {table} WHERE path=?", (path,)).rowcount
            if table == "links":
                delta["edges"] -= gone
        self._tally(kept, delta)
        return ids

    def put_file(self, state: FileState, nodes, postings, uses, imports, warnings: str = "") -> None:
        """Write everything one file contributes; the caller has deleted its old rows.
        `uses`: (packed, names used), as indexer/uses.py makes them. Call between
        begin() and commit()."""
        self.put_files([(state, nodes, postings, uses, imports, warnings)])

    def put_files(self, batch) -> None:
        """put_file for many files at once: one statement per table, rowids assigned
        here (no round trip per node). Call between begin() and commit()."""
        next_rowid = (self.db.execute("SELECT max(rowid) FROM nodes").fetchone()[0] or 0) + 1
        files, node_rows, posting_rows, use_rows, used_rows, import_rows = [], [], [], [], [], []
        for state, nodes, postings, (uses, used), imports, warnings in batch:
            files.append(
                (
                    state.path,
                    state.size,
                    state.mtime_ns,
                    state.inode,
                    state.digest,
                    state.language,
                    state.status,
                    state.indexed_at,
                    state.valid_from,
                    warnings,
                    file_stem(state.path),
                    state.ctime_ns,
                )
            )
            first = next_rowid
            for node in nodes:
                node_rows.append((next_rowid, *node))
                next_rowid += 1
            # first: the file node; rows built in C
            posting_rows += zip(postings.keys(), repeat(first), map(len, postings.values()), postings.values())
            if uses:
                use_rows.append((first, uses))
                used_rows += zip(used, repeat(first))
            import_rows += [(state.path, *i) for i in imports]
        # Term order (stable: files stay in rowid order within a term): the term index grows at its
        # right edge, not at random, and a term's rows of one batch share pages.
        posting_rows.sort(key=itemgetter(0))
        scored = [row[NODE_LENGTH] for row in node_rows if row[NODE_KIND] != "file"]
        self.db.execute("UPDATE corpus SET nodes = nodes + ?, length = length + ?", (len(scored), sum(scored)))
        ex = self.db.executemany
        ex("INSERT INTO files VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", files)
        ex(f"INSERT INTO nodes(rowid,{','.join(NODE_COLUMNS)}) VALUES({_NODE_VALUES})", node_rows)
        ex("INSERT INTO postings VALUES(?,?,?,?)", posting_rows)
        ex("INSERT INTO uses VALUES(?,?)", use_rows)
        ex("INSERT INTO used VALUES(?,?)", used_rows)
        ex("INSERT INTO imports VALUES(?,?,?,?)", import_rows)
        self._add_dirs(f[0] for f in files)
        kept = self._kept_counts()
        if kept is not None:
            delta = Counter(row[NODE_KIND] for row in node_rows)
            for state, *_ in batch:
                _count_file(delta, state.status, state.language, 1)
            delta["edges"] += (
                len(node_rows)
                - delta["file"]
                + sum(
                    1
                    for row in node_rows
                    if row[NODE_PARENT] and "#" in row[NODE_PARENT] and row[NODE_PARENT] != row[NODE_PATH]
                )
            )
            self._tally(kept, delta)

    # -- nodes and edges ----------------------------------------------------
    def _nodes(self, where: str, args=()) -> list[tuple[int, NodeRow]]:
        rows = self.db.execute(f"SELECT rowid,{_NODE_SELECT} FROM nodes {where}", args).fetchall()
        return [(r[0], node_row(r[1:])) for r in rows]

    def set_priors(self, prior: dict[str, float]) -> None:
        """Replace every node's prior. A node re-indexed since keeps its id, so its prior
        stands until the next recomputation. Inside begin()/commit()."""
        self.db.execute("DROP INDEX IF EXISTS priors_prior")  # one sorted build, not a random insert per node
        self.db.execute("DELETE FROM priors")
        self.db.executemany("INSERT INTO priors VALUES(?,?)", sorted((k, v) for k, v in prior.items() if v > 0))
        self.db.execute("CREATE INDEX priors_prior ON priors(prior)")

    def priors(self, ids) -> dict[str, float]:
        """{id: prior} of those of `ids` with a prior above zero."""
        return dict(self._in("SELECT id, prior FROM priors WHERE id IN ({})", ids))

    def node(self, node_id: str) -> NodeRow | None:
        found = self._nodes("WHERE id=?", (node_id,))
        return found[0][1] if found else None

    def nodes_by_rowid(self, rowids) -> dict[int, NodeRow]:
        rowids = list(rowids)
        out: dict[int, NodeRow] = {}
        for i in range(0, len(rowids), 900):
            chunk = rowids[i : i + 900]
            out.update(self._nodes(f"WHERE rowid IN ({','.join('?' * len(chunk))})", chunk))
        return out

    def nodes_by_id(self, ids) -> dict[str, NodeRow]:
        ids = list(ids)
        out: dict[str, NodeRow] = {}
        for i in range(0, len(ids), 900):
            chunk = ids[i : i + 900]
            for _, node in self._nodes(f"WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                out[node.id] = node
        return out

    def nodes_in_file(self, path: str) -> list[NodeRow]:
        return [n for _, n in self._nodes("WHERE path=? ORDER BY start_line", (path,))]

    def find_by_name(self, name: str, limit: int = 50) -> list[NodeRow]:
        """Symbols whose name, qualified name or title is `name` (bare-name anchors,
        names a question writes). Failing that, for a dotted name, symbols it names in
        part: the tail of a qualified name (`Protection.EncryptedCookie`), or a qualified
        name behind the directories and file it lives in, as namespaces spell them out
        (`Slim.Http.Headers`, `com.google.gson.Gson`, `packing.pack`). Looked up by the
        indexed name (the whole text, or its last dotted part), so a kernel-sized index
        answers as fast as a small one."""
        last = name.rsplit(".", 1)[-1]
        rows = [n for _, n in self._nodes("WHERE name IN (?, ?) AND kind!='file' ORDER BY rowid", (name, last))]
        exact = [n for n in rows if name in (n.name, n.title, n.id.partition("#")[2])]
        if exact or last == name:
            return exact[:limit]
        parts = name.split(".")
        return [n for n in rows if named_in_part(parts, n.path, n.id.partition("#")[2].split("."))][:limit]

    def paths_under(self, prefix: str) -> list[str]:
        """Indexed files whose path starts with `prefix` (a directory and a slash)."""
        return [
            r[0] for r in self.db.execute("SELECT path FROM files WHERE path >= ? AND path < ?", _prefix_range(prefix))
        ]

    def paths_in_root(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT path FROM files WHERE status='ok' AND instr(path, '/')=0")]

    def all_files_under(self, prefix: str, limit: int):
        return self.db.execute(
            "SELECT id, kind, path FROM nodes WHERE kind='file' AND path >= ? AND path < ? LIMIT ?",
            (*_prefix_range(prefix), limit),
        ).fetchall()

    def all_edges(self):
        """Structural edges and resolved links alike."""
        return self.db.execute("SELECT src, dst, rel FROM edges UNION ALL SELECT src, dst, rel FROM links").fetchall()

    # -- resolution inputs and outputs ---------------------------------------
    def indexed_files(self) -> dict[str, str | None]:
        return dict(self.db.execute("SELECT path, language FROM files WHERE status='ok'"))

    def symbol_names(self, name: str | None = None, modules_in: tuple[str, ...] = ()):
        """(name, path, qualified name) of every symbol but modules and test blocks (a
        test titled "parse" defines no `parse`), or of those called `name` (through the
        name index): what references resolve against. `modules_in`: the languages whose
        module definitions are targets too (not a file's header). Rows stream from the
        cursor: all of them at once would be millions of tuples on the kernel."""
        where, args = ("name=? AND ", [name]) if name is not None else ("", [])
        modules = ""
        if modules_in:
            modules = (
                " OR (sym_kind='module' AND substr(id, length(path) + 2) != ? AND path IN "
                f"(SELECT path FROM files WHERE language IN ({','.join('?' * len(modules_in))})))"
            )
            args += [MODULE_FRAGMENT, *modules_in]
        return self.db.execute(
            f"SELECT name, path, substr(id, length(path) + 2) FROM nodes WHERE {where}kind='symbol' "
            f"AND (sym_kind NOT IN ('module', 'test'){modules}) ORDER BY rowid",
            args,
        )

    def imports_of(self, paths) -> list[tuple[str, str, int, str]]:
        return self._in("SELECT path, target, line, names FROM imports WHERE path IN ({})", paths)

    def uses_of(self, paths) -> list[tuple[str, str, str, str | None]]:
        """(path, user id, name, kind) of every use of a name in `paths`, each once."""
        rows = self._in("SELECT n.path, u.data FROM nodes n JOIN uses u ON u.file=n.rowid WHERE n.id IN ({})", paths)
        return [use for path, data in rows for use in unpack_uses(path, data)]

    def links_from_file(self, path: str) -> list[tuple[str, str, int]]:
        """(target file, rel, how many) of the resolved links one file owns, counted
        here: a hub's thousands of rows need not become Python tuples."""
        return self.db.execute(
            "SELECT CASE WHEN instr(dst, '#') THEN substr(dst, 1, instr(dst, '#') - 1) ELSE dst END, rel, count(*) "
            "FROM links WHERE path=? GROUP BY 1, 2",
            (path,),
        ).fetchall()

    def links_into_file(self, path: str) -> list[tuple[str, str, int]]:
        """(owner file, rel, how many) of the resolved links into one file or its symbols."""
        return self.db.execute(
            "SELECT path, rel, count(*) FROM links WHERE dst=? OR (dst >= ? AND dst < ?) GROUP BY 1, 2",
            (path, path + "#", path + "$"),
        ).fetchall()

    def sections_naming_no_code(self, ids) -> set[str]:
        """Those of `ids` that are doc sections without a `doc.documents` link."""
        return {
            r[0]
            for r in self._in(
                "SELECT id FROM nodes n WHERE id IN ({}) AND kind='section' AND NOT EXISTS "
                "(SELECT 1 FROM links l WHERE l.src=n.id AND l.rel='doc.documents')",
                ids,
            )
        }

    def files_joined_to(self, ids) -> set[str]:
        """Files whose own node a link joins to one of `ids` the way a frame speaking
        for the file shows it: any link from one of them to the file (an import, a
        doc naming it), or the file's import of one."""
        ids = list(ids)
        into = self._in("SELECT dst FROM links WHERE src IN ({}) AND instr(dst, '#') = 0", ids)
        out = self._in("SELECT src FROM links WHERE dst IN ({}) AND rel = 'code.imports'", ids)
        return {r[0] for r in into + out}

    def paths_with_stems(self, stems) -> list[str]:
        """Indexed files whose `file_stem` is one of `stems`: looked up, not scanned
        (a scan of the kernel's 55,000 paths took ~25 ms a query)."""
        return [r[0] for r in self._in("SELECT path FROM files WHERE stem IN ({}) AND status='ok'", stems)]

    def files_called(self, filename: str) -> list[str]:
        """Every file of that name, indexed or not (a Cargo.toml beside the code)."""
        rows = self.db.execute("SELECT path FROM files WHERE stem=?", (file_stem(filename),)).fetchall()
        return [path for (path,) in rows if posixpath.basename(path) == filename]

    def paths_named(self, name: str, limit: int) -> list[str]:
        """Indexed files called `name` (by `file_stem`) or under a directory called
        `name` anywhere, at most `limit`; case-insensitive, looked up (a scan of the
        kernel's paths took 20-55 ms)."""
        found = dict.fromkeys(self.paths_with_stems([file_stem(name)])[:limit])
        for (directory,) in self.db.execute("SELECT path FROM dirs WHERE name=?", (name.lower(),)).fetchall():
            if len(found) >= limit:
                break
            found.update(
                (r[0], None)
                for r in self.db.execute(
                    "SELECT path FROM files WHERE path >= ? AND path < ? AND status='ok' LIMIT ?",
                    (*_prefix_range(directory + "/"), limit - len(found)),
                )
            )
        return list(found)[:limit]

    def generated_files(self, rowids) -> list[int]:
        """Those of the file nodes `rowids` that a tool generated (indexer/parse.py)."""
        return [
            r[0]
            for r in self._in("SELECT rowid FROM nodes WHERE rowid IN ({}) AND sym_kind=?", rowids, after=(GENERATED,))
        ]

    def ids_of_rowids(self, rowids) -> dict[int, str]:
        return dict(self._in("SELECT rowid, id FROM nodes WHERE rowid IN ({})", rowids))

    def rowids_of_ids(self, ids) -> dict[str, int]:
        return dict(self._in("SELECT id, rowid FROM nodes WHERE id IN ({})", ids))

    def children(self, node_id: str) -> list[NodeRow]:
        return [n for _, n in self._nodes("WHERE parent=? ORDER BY start_line", (node_id,))]

    def top_nodes_in_files(self, paths, per_file: int) -> list[NodeRow]:
        """The most central served nodes of each file (module headers first)."""
        return [n for _, n in self.top_rows_in_files(paths, per_file)]

    def top_rows_in_files(self, paths, per_file: int) -> list[tuple[int, NodeRow]]:
        """(rowid, node) of each file's most central served nodes (module headers first)."""
        out = []
        for path in paths:
            out += self._nodes(
                f"WHERE path=? AND kind!='file' ORDER BY sym_kind='module' DESC, {_PRIOR} DESC, start_line LIMIT ?",
                (path, per_file),
            )
        return out

    def rare_names(self, names, at_most: int) -> set[str]:
        """Those of `names` defined at most `at_most` times (absent ones included)."""
        counts = dict(
            self._in("SELECT name, count(*) FROM nodes WHERE kind='symbol' AND name IN ({}) GROUP BY name", names)
        )
        return {n for n in names if counts.get(n, 0) <= at_most}

    def owners_of_links_to(self, ids) -> set[str]:
        return {r[0] for r in self._in("SELECT DISTINCT path FROM links WHERE dst IN ({})", ids)}

    def importers_of(self, paths) -> set[str]:
        return {
            r[0] for r in self._in("SELECT DISTINCT path FROM links WHERE rel='code.imports' AND dst IN ({})", paths)
        }

    def paths_importing_like(self, stem: str) -> set[str]:
        """Files with an import whose text mentions `stem` (it may resolve to a new file)."""
        return {r[0] for r in self.db.execute("SELECT DISTINCT path FROM imports WHERE instr(target, ?) > 0", (stem,))}

    def paths_referring_to(self, names) -> set[str]:
        return {
            r[0]
            for r in self._in(
                "SELECT DISTINCT n.path FROM used u JOIN nodes n ON n.rowid=u.file WHERE u.name IN ({})", names
            )
        }

    def replace_links(self, paths, links) -> None:
        """Links owned by `paths` become `links` [(path, src, dst, rel)]. Inside begin()/commit()."""
        paths = list(paths)
        edges = 0
        for i in range(0, len(paths), 900):
            chunk = paths[i : i + 900]
            edges -= self.db.execute(f"DELETE FROM links WHERE path IN ({','.join('?' * len(chunk))})", chunk).rowcount
        edges += self.db.executemany("INSERT INTO links VALUES(?,?,?,?)", links).rowcount
        self._tally(self._kept_counts(), Counter(edges=edges))

    def set_history(self, pairs, recent, words) -> None:
        """What git history says (indexer/history.py), replacing what it said before:
        co-change counts {(a, b): n}, recent changes {path: n} and the terms of each
        file's commit messages {path: Counter}. Inside begin()/commit()."""
        self._execute_script(_HISTORY_SCHEMA)
        self.db.executemany(
            "INSERT INTO cochange VALUES(?,?,?)",
            ((x, y, n) for (a, b), n in pairs.items() for x, y in ((a, b), (b, a))),
        )
        self.db.execute("DELETE FROM recent")
        self.db.executemany("INSERT INTO recent VALUES(?,?)", recent.items())
        files = list(words.items())
        lengths = [sum(said.values()) for _, said in files]
        self.db.executemany(
            "INSERT INTO said_files VALUES(?,?,?)",
            ((i, path, n) for i, ((path, _), n) in enumerate(zip(files, lengths))),
        )
        self.db.executemany(
            "INSERT INTO said VALUES(?,?,?)",
            ((term, i, n) for i, (_, said) in enumerate(files) for term, n in said.items()),
        )
        self.set_meta("said_stats", f"{len(files)} {sum(lengths) / len(files) if files else 1.0}")

    def said_stats(self) -> tuple[int, float]:
        """(files with a commit message, their messages' average length in terms), kept
        when the history is read: every query asks (a count over its rows would cost
        milliseconds on a long history)."""
        n, mean = (self.get_meta("said_stats") or "0 1.0").split()
        return int(n), float(mean)

    def said_postings(self, terms) -> list[tuple[str, str, float, float]]:
        """(term, path, weight, length of the path's messages) for the files indexed now
        whose commit messages hold one of `terms`."""
        return self._in(
            "SELECT s.term, d.path, s.n, d.n FROM said s JOIN said_files d ON d.id=s.file "
            "JOIN files f ON f.path=d.path WHERE s.term IN ({}) AND f.status='ok'",
            terms,
        )

    def recent_changes(self, paths) -> dict[str, float]:
        """{path: its recent changes} for those of `paths` that have any."""
        return dict(self._in("SELECT path, n FROM recent WHERE path IN ({})", paths))

    def co_changed(self, path: str) -> list[tuple[str, float]]:
        """(other path, commits that changed both, weighed by age) for one file, the other indexed now."""
        return self.db.execute(
            "SELECT c.b, c.n FROM cochange c JOIN files f ON f.path=c.b WHERE c.a=? AND f.status='ok'", (path,)
        ).fetchall()

    def _in(self, sql: str, values, before=(), after=()) -> list:
        """`sql` with its `IN ({})` filled by `values`, 900 at a time; `before` and
        `after`: the parameters on either side of the list."""
        values = list(values)
        out = []
        for i in range(0, len(values), 900):
            chunk = values[i : i + 900]
            out += self.db.execute(sql.format(",".join("?" * len(chunk))), (*before, *chunk, *after)).fetchall()
        return out

    def hubs(self, ids, most: int) -> set[str]:
        """Those of `ids` that more than `most` links lead into, counted in the index."""
        return {
            r[0]
            for r in self._in(
                "SELECT dst FROM links WHERE dst IN ({}) GROUP BY dst HAVING count(*) > ?", ids, after=(most,)
            )
        }

    # -- lexical ------------------------------------------------------------
    def term_stats(self, terms) -> dict[str, tuple[int, int]]:
        """term -> (files, nodes) that have it, from the term index alone: what a query
        needs to order its terms and to decide how much of a common one to read."""
        return {
            term: (files, posting_records(size))
            for term, files, size in self._in(
                "SELECT term, count(*), sum(size) FROM postings WHERE term IN ({}) GROUP BY term", terms
            )
        }

    def term_postings(self, term: str, files=None):
        """(node rowids, file rowids, tf, length) arrays of every node with `term`, or
        of those in `files` (file node rowids) only."""
        if files is None:
            rows = self.db.execute("SELECT file, data FROM postings WHERE term=?", (term,)).fetchall()
        else:
            rows = self._in("SELECT file, data FROM postings WHERE term=? AND file IN ({})", files, (term,))
        return unpack_postings(rows)

    def prior_nodes(self, limit: int) -> list[NodeRow]:
        """A repository overview when a question matches nothing: top-level docs
        first, then documented, shallow symbols, by prior. Sorting every node takes
        seconds on the kernel (12-25 s), so the documented among the best
        `OVERVIEW_POOL` x `limit` by prior are tried first: when they fill the page,
        no node outside them could have made it."""
        order = (
            "ORDER BY (kind='section' AND path NOT LIKE '%/%') DESC, (doc!='' OR kind='section') DESC, "
            f"{_PRIOR} DESC, length(path)-length(replace(path,'/','')) ASC, parent LIKE '%#%' ASC, path, start_line LIMIT ?"
        )
        floor = self.db.execute(
            "SELECT prior FROM priors ORDER BY prior DESC LIMIT 1 OFFSET ?", (limit * OVERVIEW_POOL - 1,)
        ).fetchone()
        if floor is not None:
            found = self._nodes(
                "WHERE kind!='file' AND ((doc!='' OR kind='section') AND id IN (SELECT id FROM priors WHERE prior >= ?) "
                f"OR kind='section' AND path IN (SELECT path FROM files WHERE instr(path, '/')=0)) {order}",
                (floor[0], limit),
            )
            if len(found) == limit:
                return [n for _, n in found]
        return [n for _, n in self._nodes(f"WHERE kind!='file' {order}", (limit,))]

    def corpus_stats(self) -> tuple[int, float]:
        """(number of scored nodes, their average length), kept up to date by every
        write (a count over millions of nodes per query would cost a second)."""
        n, total = self.db.execute("SELECT nodes, length FROM corpus").fetchone()
        return int(n), (total / n if n else 1.0)

    def file_count(self, status: str = "ok") -> int:
        return self.db.execute("SELECT count(*) FROM files WHERE status=?", (status,)).fetchone()[0]

    def counts(self) -> dict[str, int]:
        """Files, nodes per kind, edges, languages. Counting scans every node row (~4 s
        on the kernel), so the answer is counted once and kept, each write moving it
        (`_tally`); a first index, loaded in bulk, counts once at the end."""
        with self.lock:
            kept = self._kept_counts()
            if kept is not None:
                return kept
            out = self._count()
            self.set_meta("counts", json.dumps(out))
        return out

    def _count(self) -> dict[str, int]:
        out = {"files": self.db.execute("SELECT count(*) FROM files WHERE status='ok'").fetchone()[0]}
        for kind, n in self.db.execute("SELECT kind, count(*) FROM nodes GROUP BY kind"):
            out[kind] = n
        # The structural edges without scanning the view (two passes over every node row:
        # seconds on the kernel): one `defines` per node, and one `contains` per node
        # whose parent is a symbol (an id with a fragment), read off the parent index,
        # less the top-level nodes of the rare files whose own name has a '#'.
        contains = self.db.execute(
            "SELECT (SELECT count(*) FROM nodes WHERE instr(parent, '#') > 0) - (SELECT count(*) FROM nodes "
            "WHERE parent = path AND path IN (SELECT path FROM files WHERE instr(path, '#') > 0))"
        ).fetchone()[0]
        defines = sum(n for kind, n in out.items() if kind not in ("files", "file"))
        out["edges"] = defines + contains + self.db.execute("SELECT count(*) FROM links").fetchone()[0]
        out["languages"] = {
            lang: n
            for lang, n in self.db.execute(
                "SELECT language, count(*) FROM files WHERE status='ok' AND language IS NOT NULL GROUP BY language"
            )
        }
        return out
