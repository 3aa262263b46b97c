"""The database file and its connections: opening it (header and schema checked, a
damaged file set aside), one connection per thread, transactions, the meta table.
The table families (files.py, nodes.py, links.py, history.py) are mixins over this
class and run inside the same transactions."""

from __future__ import annotations

import os
import posixpath
import sqlite3
import threading
import time
import weakref
from contextlib import contextmanager
from pathlib import Path

from .location import _private
from .schema import _BULK_INDEXES, _DIRS_SCHEMA, _HISTORY_SCHEMA, _SCHEMA, SCHEMA_VERSION

WAL_CHECKPOINT_PAGES = 8192
# A progressive first index writes with the lookup indexes in place, so each batch dirties
# pages all over them; checkpointing every 32 MiB copied the same pages again and again.
FEW_CHECKPOINT_PAGES = 1 << 17  # 512 MiB of WAL [first-pass-checkpoints]
CACHE_KIB = 65536  # a connection's page cache: writers rewrite the same index pages batch after batch


class _Held:
    """A thread's connection. Only its thread's locals hold it, so when the thread
    ends, it closes the connection; the store keeps a weak reference."""

    __slots__ = ("db", "generation", "__weakref__")

    def __init__(self, db: sqlite3.Connection, generation: int):
        self.db = db
        self.generation = generation

    def __del__(self) -> None:
        # Closed here, not left to the connection's own end: a connection is in a cycle
        # with its statement cache, so it outlives its thread until the cyclic collector
        # runs (off during a first index), its file still open. A rebuild's file renamed
        # over the index while such a connection held it made every later open fail.
        try:
            self.db.close()
        except sqlite3.Error:
            pass


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


def _prefix_range(prefix: str) -> tuple[str, str]:
    """The bounds of the strings starting with `prefix`, for an indexed range scan."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _ancestors(path: str):
    """`a/b/c.py` -> `a/b`, `a`."""
    directory = posixpath.dirname(path)
    while directory:
        yield directory
        directory = posixpath.dirname(directory)


class NewerIndex(Exception):
    """The file holds the index of a newer release (a schema version above ours)."""

    def __init__(self, version: int):
        super().__init__(f"made by a newer release (schema {version}; this one reads {SCHEMA_VERSION})")
        self.version = version


class Connection:
    """The file, this thread's connection to it (`db`), the writers' `lock`."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lock = threading.RLock()  # this process's writers, one at a time
        self._local = threading.local()
        self._held: weakref.WeakSet[_Held] = weakref.WeakSet()  # every live thread's connection
        self._generation = 0  # bumped when the file is replaced: every thread reconnects
        self._closed = False
        self.set_aside_to: Path | None = None  # where a damaged file went, for the one line that says so
        self.newer_left: tuple[Path, int] | None = None  # a newer release's index, left whole: (its file, schema)
        self._make_private()
        try:
            try:
                self._open()
            except NewerIndex as exc:
                # Two releases on one cache (a host's pinned one, a newer CLI) must not drop
                # each other's index on every open: the newer keeps the file, this one its own beside.
                self.newer_left = (self.path, exc.version)
                self._disconnect()
                self.path = self.path.with_name(f"{self.path.stem}.schema{SCHEMA_VERSION}{self.path.suffix}")
                self._make_private()
                self._open()
        except sqlite3.DatabaseError as exc:  # the file opened last, whichever it is
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

    def replace_with(self, fresh: Path) -> None:
        """Swap in a database built beside this one (a rebuild after an upgrade), in one
        rename: a reader sees the old index or the new one, never a mix. Every thread's
        next use reconnects to the new file. `fresh` must be closed (its WAL folded in)."""
        with self.lock:
            self._disconnect()
            for suffix in _SIDE_FILES[1:]:  # the old file's journal: nothing of it belongs to the new one
                try:
                    os.unlink(f"{self.path}{suffix}")
                except FileNotFoundError:
                    pass
            os.replace(fresh, self.path)
            self._make_private()
            self._open()

    def reopen(self) -> None:
        """Every thread's next use reconnects: another process swapped a new file in
        under this path, and the connections held still read the old one."""
        with self.lock:
            self._disconnect()
            self._open()

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
            db.execute(f"PRAGMA cache_size=-{getattr(self._local, 'cache_kib', CACHE_KIB)}")
            # Checkpoint every 32 MiB of WAL, not 4: a burst of saves rewrites the same
            # index pages batch after batch, and each checkpoint copies them again.
            db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit={WAL_CHECKPOINT_PAGES * 4096}")
            held = self._local.held = _Held(db, self._generation)
            with self.lock:
                self._held.add(held)
        return held.db

    def limit_cache(self, kib: int) -> None:
        """Keep at most `kib` of pages in this thread's connection (and in the next one
        it makes): a thread that only answers reads scattered pages, which the
        operating system keeps cached anyway, and 64 MiB more per connection is most
        of a kernel-sized serve's resident memory."""
        if getattr(self._local, "cache_kib", None) != kib:
            self._local.cache_kib = kib
            self.db.execute(f"PRAGMA cache_size=-{kib}")

    @contextmanager
    def few_checkpoints(self):
        """This thread's commits inside checkpoint the WAL only every 512 MiB: for a long
        run of writes into indexed tables (a progressive first index), whose pages each
        checkpoint would otherwise copy to the file many times over."""
        db = self.db
        db.execute(f"PRAGMA wal_autocheckpoint={FEW_CHECKPOINT_PAGES}")
        db.execute(f"PRAGMA journal_size_limit={FEW_CHECKPOINT_PAGES * 4096}")
        try:
            yield
        finally:
            if self.db is db:  # not replaced meanwhile (a damaged file set aside): the new one has the default
                db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
                db.execute(f"PRAGMA journal_size_limit={WAL_CHECKPOINT_PAGES * 4096}")

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

    def _schema_version(self) -> int | None:
        """The schema version the file says it holds; None for a new file or a garbled one."""
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.OperationalError:  # no meta table: a new file (damage is raised on)
            return None
        try:
            return int(row[0]) if row is not None else None
        except (TypeError, ValueError):
            return None

    def _schema_current(self) -> bool:
        return self._schema_version() == SCHEMA_VERSION

    def _ensure_schema(self) -> bool:
        with self.lock:
            if self._schema_current():
                return False
            self.db.execute("BEGIN IMMEDIATE")
            try:
                version = self._schema_version()
                if version == SCHEMA_VERSION:  # another process created it while this one waited for the lock
                    self.db.execute("COMMIT")
                    return False
                if version is not None and version > SCHEMA_VERSION:
                    raise NewerIndex(version)  # rolled back below: nothing of it is touched
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

        def missing() -> bool:
            return "ctime_ns" not in {row[1] for row in self.db.execute("PRAGMA table_info(files)")}

        with self.lock:
            if missing():
                with self.transaction():
                    if missing():  # looked at again under the write lock: another process may have added it
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

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES(?,?)", (key, value))

    def _in(self, sql: str, values, before=(), after=()) -> list:
        """`sql` with its `IN ({})` filled by `values`, 900 at a time; `before` and
        `after`: the parameters on either side of the list."""
        values = list(values)
        out = []
        for i in range(0, len(values), 900):
            chunk = values[i : i + 900]
            out += self.db.execute(sql.format(",".join("?" * len(chunk))), (*before, *chunk, *after)).fetchall()
        return out
