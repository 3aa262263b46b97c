"""A repository's index: walk, parse what changed (in parallel), persist each batch
in one transaction, resolve the links a change can reach. Readers and the writer
share one lock, so a query sees either all of a file's update or none of it.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import posixpath
import shutil
import sqlite3
import stat as stat_mod
import sys
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path, PurePosixPath

from grammars import Registry

try:
    import fcntl
except ImportError:  # not POSIX (Windows): one builder at a time is not enforced there
    fcntl = None  # type: ignore[assignment]

from . import boundary, history, pool, upgrades
from .digest import line_span, line_starts
from .extract import PARTIAL_WARNING, Extractor
from .graph import CodeGraph
from .order import ANCHORED, BESIDE, INCLUDED, NAMESAKE, REST, FirstOrder, Wants
from .parse import FileRecord
from .priority import Priority
from .resolve import MAX_GLOBAL_MATCHES, Resolver
from .sections import DOC_EXTENSIONS
from .store import FileState, NodeRow, Store, db_path_for
from .walk import DEFAULT_MAX_FILE_BYTES, IgnoreRules, WalkedFile, WalkReport, walk

BATCH_FILES = 256
BATCH_SECONDS = 1.0
# While the index is live (not a first load), a batch is a transaction a query's
# freshness check may wait behind: keep it short.
LIVE_BATCH_FILES = 48
BULK_FILES = 500  # a first index this large loads rows first and builds lookup indexes after
PARALLEL_MIN_BYTES = 4 << 20  # below this, starting worker processes costs more than it saves
FULL_RESOLVE_SHARE = 0.2  # past this share of files changed, re-resolve everything
TRACK_IDS_FILES = 2000  # changes to more files than this resolve everything again
PRIOR_DRIFT_SHARE = 0.05  # recompute PageRank after this share of files changed
# An upgrade that re-parses more than this share of an index (past BULK_FILES files) builds
# a fresh index beside it, cold and in bulk, while the old one answers (issue 40).
REBUILD_SHARE = 0.5
REBUILD_ROOM = 1.25  # the free space a rebuild beside needs, in sizes of the index it replaces
# A progressive first index queues less parsed work ahead of its writer (tasks of a quarter
# of pool.TASK_BYTES, this many finished ones waiting): a question's files wait behind it.
PROGRESSIVE_BACKLOG = 8
PROGRESSIVE_IN_FLIGHT = 4  # tasks per parser running or queued: the bytes of a cold index's 2 full ones
# Its writer, maintaining the lookup indexes row by row, is what bounds the pass: it
# writes in batches this big (fewer pages written again per file), except that a batch
# holding a file a host waits for is written at once [first-pass-batches].
PROGRESSIVE_BATCH_FILES = 256
PROGRESSIVE_BATCH_SECONDS = 5.0
PROVISIONAL_FILES = 400  # a first index under way resolves at most this many asked-about files at a time
# It resolves them again as files come in that define names they use, spending at most
# this share of its time on it: after each resolution it waits for its cost over this.
PROVISIONAL_SHARE = 0.1
# A first index built beside sends the answering index the files holding two of a pending
# question's terms that are rare so far: in at most this share of the files parsed, once
# RARE_MIN_FILES are (before, every term looks rare) [first-index-beside].
RARE_SHARE = 0.01
RARE_MIN_FILES = 1000


def _unchanged(old: FileState | None, walked: WalkedFile | None) -> bool:
    """Same size, mtime, inode and change time as when indexed: the file is not read
    again. The change time catches a write that put the old size and mtime back
    (`cp -p`, `tar x`); when only it moved, the bytes are hashed and, the same, kept."""
    return (
        old is not None
        and walked is not None
        and (old.size, old.mtime_ns, old.inode, old.ctime_ns)
        == (walked.size, walked.mtime_ns, walked.inode, walked.ctime_ns)
    )


def _restat(old: FileState, walked: WalkedFile) -> FileState:
    """What the index knew, with the stat of the same bytes seen now."""
    return old._replace(size=walked.size, mtime_ns=walked.mtime_ns, inode=walked.inode, ctime_ns=walked.ctime_ns)


class _Laps:
    """Wall time per phase of a refresh, for `index --stats`."""

    def __init__(self, into: dict[str, float]):
        self.into, self.last = into, time.monotonic()

    def __call__(self, phase: str) -> None:
        now = time.monotonic()
        self.into[phase] = round(self.into.get(phase, 0.0) + now - self.last, 3)
        self.last = now


NAMED_PARTIAL = 5  # the files a partial-parse warning names; the rest it counts


def _some(paths: list[str]) -> str:
    """A few of `paths`, sorted, and how many more: enough for a person to open one."""
    shown = sorted(paths)[:NAMED_PARTIAL]
    more = len(paths) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


class _InThread:
    """`work()` in a thread of its own (SQLite gives it its own connection) once
    started; result() waits for it, or does it here when it never started, and
    raises what it raised."""

    def __init__(self, work, name: str):
        self.work, self.name = work, name
        self.thread: threading.Thread | None = None
        self.value: object = None
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            self.value = self.work()
        except BaseException as exc:  # raised again in the thread that waits for it
            self.error = exc

    def start(self) -> _InThread:
        self.thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self.thread.start()
        return self

    def result(self):
        if self.thread is None:
            self._run()
        else:
            self.thread.join()
        if self.error is not None:
            raise self.error
        return self.value


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def utc_stamp(epoch: float | None = None) -> str:
    """F4: YYYY-MM-DDTHH:MM:SSZ, UTC."""
    moment = datetime.fromtimestamp(time.time() if epoch is None else epoch, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Summary:
    files: int = 0
    symbols: int = 0
    sections: int = 0
    edges: int = 0
    languages: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    parsed: int = 0
    unchanged: int = 0
    removed: int = 0
    ignored: int = 0
    too_large: int = 0
    skipped: int = 0  # binary, generated, or no grammar
    unreadable: int = 0  # could not be read (permissions, no longer a regular file)
    vanished: int = 0  # deleted while the index was being built
    generated: int = 0  # of those: minified bundles and build output (parse.looks_generated)
    warnings: int = 0
    database: str = ""
    # Wall seconds per phase of refresh(): state (what the index knows), walk, plan, parse,
    # resolve, prior, indexes, history, finish (meta, counts); `repo-graph index` adds the
    # process's own (start-up, open, close...) so that they sum to its wall time.
    phases: dict[str, float] = field(default_factory=dict)
    history_commits: int = 0  # commits read from git (indexer/history.py); 0 outside a git work tree
    history_files: int = 0  # files those commits changed, as named at HEAD


RECENT_NS = 2_000_000_000  # a file written this close to its reading may have changed since
MAX_RECENT = 512  # a checkout's thousands of fresh files: the watcher's to take up


def _give_memory_back() -> None:
    """Hand what a build freed back to the system: glibc keeps freed heap for reuse, and
    a provider that built the kernel's index held 410-428 MB once ready, against about
    200 MB for one started on that index [first-index-beside]."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # not glibc (macOS, musl; Windows has no CDLL(None))
        pass


def _beside(path: Path) -> Path:
    """Where an index is built beside the one at `path`, to be swapped in for it."""
    return path.with_name(path.name + ".next")


def _remove_beside(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(f"{_beside(path)}{suffix}")
        except FileNotFoundError:
            pass


class _Builder:
    """The right to build the index at `path` (from nothing, in bulk, or beside it), one
    process at a time: a second (another window's provider, a terminal's `repo-graph
    index`) waits for the first to finish, and then reads what it built (`waited`),
    instead of writing over the same file. Held again by the thread holding it, it is
    already held. The lock file stays (removing it would let a third process lock a new
    one while a second waits)."""

    _local = threading.local()  # the lock files this thread holds

    def __init__(self, path: Path):
        self.lock_path = f"{path}.lock"
        self.waited = False
        self._fd = -1

    def __enter__(self) -> _Builder:
        held = self._local.__dict__.setdefault("held", set())
        if fcntl is None or self.lock_path in held:
            return self
        self._fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        held.add(self.lock_path)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.stderr.write("repo-graph: another process is building this index; waiting for it\n")
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX)
            except BaseException:  # Ctrl-C while waiting: the descriptor goes with it
                self.__exit__()
                raise
            self.waited = True
        except OSError:  # a file system without locks (some network mounts): build unguarded, as before
            self.__exit__()
        return self

    def __exit__(self, *exc) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # the lock goes with it
            self._fd = -1
            self._local.held.discard(self.lock_path)


class _Feed:
    """Parsed files on their way into the index that answers during a first index: in
    place, all of them; built beside, the files hosts need (indexer/order.py's tiers
    before the rest), those defining a name the anchored files use and those holding a
    pending question's rare terms [first-index-beside]. A batch holding a file a host
    waits for is written as soon as the asked files stop coming, the rest in big batches
    [first-pass-batches]; after a batch, the asked files' links are resolved again when due."""

    def __init__(self, index: RepoIndex, order: FirstOrder):
        self.index, self.order = index, order
        self.pending: list[tuple[WalkedFile, FileRecord | None, FileState | None]] = []
        self.waiting = False  # the batch holds a file a host waits for
        self.last = time.monotonic()
        self.seen = 0  # files parsed while questions were pending
        self.since: dict[frozenset[str], int] = {}  # a question -> `seen` when it came
        self.df: dict[str, int] = {}  # how many of the files parsed since held each of its terms

    def needs(self, walked: WalkedFile, record: FileRecord | None) -> str | None:
        """Why the answering index needs the file, if it does."""
        if self.order.tier(walked.path) < REST:
            return "asked"
        if record is None:
            return None
        names = self.index._wanted_names
        if names and any(node.name in names for node in record.nodes):
            return "defining"
        return "matching" if self._answers(record) else None

    def _answers(self, record: FileRecord) -> bool:
        """Whether the file holds a pending question's rare terms (two, or its one): a
        match an answer would rank high, so a question without anchors is answered from
        its content, not only from its path's words, before the swap. Rare among the
        files parsed since the question came (at most RARE_SHARE of them, counted once
        RARE_MIN_FILES were):
        common words would send most of the repository (the cost the pass built beside
        avoids)."""
        questions = self.index.wants.questions
        if not questions:
            return False
        self.seen += 1
        held = record.postings.keys()
        df = self.df
        present = set().union(*questions) & held
        for term in present:
            df[term] = df.get(term, 0) + 1
        for question in questions:
            counted = self.seen - self.since.setdefault(question, self.seen - 1)  # a late one's own count
            if counted < RARE_MIN_FILES:
                continue
            rare = RARE_SHARE * counted
            hits = sum(1 for term in question & present if df[term] <= rare)
            if hits >= min(2, len(question)):
                return True
        return False

    def offer(self, item, take: str | None) -> None:
        """Every parsed file passes here, taken (`take` says why) or not: one the order
        did not ask for says the asked ones are all in."""
        asked = self.order.tier(item[0].path) <= NAMESAKE
        if take:
            self.pending.append(item)
            self.waiting = self.waiting or asked
        if self.order.live is not None:  # built beside: what went by, and what was taken and why
            self.order.passed(item[0].path, bool(take))
            if take:
                self.index.fed[take] = self.index.fed.get(take, 0) + 1
        if self.pending and (
            len(self.pending) >= (LIVE_BATCH_FILES if self.waiting else PROGRESSIVE_BATCH_FILES)
            or time.monotonic() - self.last > (BATCH_SECONDS if self.waiting else PROGRESSIVE_BATCH_SECONDS)
            or (self.waiting and not asked)  # the files asked for are all in: written now
        ):
            self.flush()

    def flush(self, final: bool = False) -> None:
        """Write the batch; on the way out of an error (`final`) with no pause and no
        resolution after."""
        index, pending = self.index, self.pending
        if not pending:
            return
        if not final:
            index.priority.give_way()
        index._wait_for_other_writers()
        with index.store.transaction():
            for walked, record, old in pending:
                if record is None and old is not None:  # same bytes: new stat only
                    index.store.touch_file(_restat(old, walked))
            index._apply([(w, r, o) for w, r, o in pending if r is not None])
        # Files asked about just came in, or a host asked about others (perhaps indexed
        # already): their neighbourhood is resolved again. Or files came in defining what
        # the anchored ones use (their headers' headers among them): those are resolved
        # again, alone.
        asked = index.wants.version != index._wanted_version or any(
            self.order.tier(w.path) in (ANCHORED, INCLUDED, BESIDE) for w, _, _ in pending
        )
        came = not asked and index._definers_came(pending)
        pending.clear()
        self.waiting = False
        if (asked or came) and not final:
            index._resolve_wanted(anchored_only=came)
        self.last = time.monotonic()


class RepoIndex:
    rules_table = upgrades.RULES  # the rule versions this release indexes by (indexer/upgrades.py); immutable

    def __init__(
        self,
        root: Path,
        *,
        cache_dir: Path | None = None,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        jobs: int | None = None,
        db_path: Path | None = None,
    ):
        self.root = Path(root).resolve()
        self.cache_dir = cache_dir
        self.max_file_bytes = max_file_bytes
        self.jobs = jobs if jobs is not None else (os.cpu_count() or 1)
        self.store = Store(db_path or db_path_for(self.root, cache_dir))
        if self.store.set_aside_to is not None:
            self._say_damaged()
        if self.store.newer_left is not None:
            newer, version = self.store.newer_left
            sys.stderr.write(
                f"repo-graph: {newer} holds a newer release's index (schema {version}), left as it is; "
                f"this release keeps its own in {self.store.path}\n"
            )
        self.lock = self.store.lock
        self.registry = Registry()
        self.extractor = Extractor()
        self._rules_by_language: dict[str, str] | None = None  # _extraction(), worked out once
        self.graph = CodeGraph(self.store)
        self.rules = IgnoreRules(self.root)
        self.ready = threading.Event()
        self.priority = Priority()  # queries first: background work gives way
        self.wants = Wants()  # what hosts asked during a first index: it parses that first (indexer/order.py)
        self.building = False  # a progressive first index is under way: answers come from what it holds
        self._wanted_version = 0  # the wants whose files' links were last resolved
        self._wanted_names: frozenset[str] = frozenset()  # the names the anchored files use
        self._wanted_again = (False, 0.0)  # (a definer of one came in since, not before this monotonic time)
        self._order: FirstOrder | None = None  # the progressive first index's queue, while it runs
        self._replaces = False  # built beside another index, to be swapped in for it
        self.fed: dict[str, int] = {}  # during a first index built beside: the files it gave this one, by why
        self.fed_seconds = 0.0  # and the time their links took to resolve, as they came
        self.walked: list[WalkedFile] = []  # the files the refresh under way has walked so far
        self.todo_bytes: int | None = None  # what it has to read, once walked
        self._partial: list[str] | None = None  # the files parsed partially during a refresh
        self._touched_paths: set[str] = set()  # changed since the last resolution
        self._old_ids: dict[str, set[str]] = {}
        self._new_ids: dict[str, set[str]] = {}
        self._wrote = False  # this instance has written files (so a pending resolution may be its own)
        self._recent: dict[str, int] = {}  # path -> mtime_ns, of files read within RECENT_NS of a write
        self._said: dict[str, list[str]] = {}  # warnings given, so a rescan does not repeat them

    def _say_damaged(self) -> None:
        sys.stderr.write(
            f"repo-graph: the index cache {self.store.path} was damaged; moved it to "
            f"{self.store.set_aside_to} and rebuilding the index\n"
        )

    def recover(self, exc: BaseException) -> bool:
        """After an operation raised `exc`: when it means the database file is damaged,
        set the file aside and start over with an empty index (the caller refreshes).
        False: the error is another (locked, full disk), and the caller raises it."""
        if not isinstance(exc, sqlite3.DatabaseError):
            return False
        with self.lock:  # two threads that met the same damage: the first sets the file aside
            if self.store.replaced_since_used():
                return True
            if not self.store.damaged(exc):
                return False
            self.ready.clear()
            self.store.replace_damaged()
            self._touched_paths, self._old_ids, self._new_ids = set(), {}, {}
            self._recent.clear()
            self._wrote = False
        self._say_damaged()
        return True

    def refresh_recovering(self, **kwargs) -> Summary:
        """refresh(), rebuilt once from nothing when the database file proves damaged."""
        try:
            return self.refresh(**kwargs)
        except sqlite3.DatabaseError as exc:
            if not self.recover(exc):
                raise
        return self.refresh(**kwargs)

    def _say_once(self, topic: str, names: list[str], template: str) -> None:
        """One warning line per topic and set of names for the life of this index: a
        watcher's rescans must not repeat it."""
        if not names or self._said.get(topic) == names:
            return
        self._said[topic] = list(names)
        n = len(names)
        sys.stderr.write(
            "repo-graph: warning: "
            + template.format(n=n, s="" if n == 1 else "s", ies="y" if n == 1 else "ies", some=_some(names))
            + "\n"
        )

    # -- loading ------------------------------------------------------------
    def load(self) -> bool:
        """Open what is persisted; ready at once when a complete index was there."""
        with self.lock:
            complete = self.store.get_meta("complete") == "1"
        if complete:
            self.ready.set()
        return complete

    # -- writing ------------------------------------------------------------
    def _state(self, walked: WalkedFile, record: FileRecord, old: FileState | None) -> FileState:
        now = utc_stamp()
        same = old is not None and old.digest == record.digest
        return FileState(
            walked.path,
            walked.size,
            walked.mtime_ns,
            walked.inode,
            record.digest,
            record.language,
            record.status,
            old.indexed_at if same else now,
            old.valid_from if same else utc_stamp(walked.mtime_ns / 1e9),
            walked.ctime_ns,
        )

    def _apply(self, items: list[tuple[WalkedFile, FileRecord, FileState | None]]) -> None:
        """Write parsed files, replacing what they had. Caller holds begin()."""
        if items:
            self._pending_resolution()
        batch = []
        now = time.time_ns()
        for walked, record, old in items:
            if now - walked.mtime_ns < RECENT_NS and len(self._recent) < MAX_RECENT:
                self._recent[walked.path] = walked.mtime_ns
            # A file new to this pass may still have rows: another thread (a query's
            # freshness check, the watcher) can have indexed it meanwhile. The files
            # table is the cheap way to know; deleting by path without rows is not.
            present = old is not None or self.store.file_state(walked.path) is not None
            removed = self.store.delete_file(walked.path) if present else []
            self._touch(walked.path, removed, [n.id for n in record.nodes])
            batch.append(
                (
                    self._state(walked, record, old),
                    record.nodes,
                    record.postings,
                    (record.uses, record.used),
                    record.imports,
                    "\n".join(record.warnings),
                )
            )
            for warning in record.warnings:
                if self._partial is not None and warning.startswith(PARTIAL_WARNING):
                    self._partial.append(walked.path)  # a whole pass says it once, at the end
                else:
                    sys.stderr.write(f"repo-graph: warning: {walked.path}: {warning}\n")
        self.store.put_files(batch)

    def _remove(self, path: str) -> None:
        self._pending_resolution()
        removed = self.store.delete_file(path)
        self._touch(path, removed)

    def _pending_resolution(self) -> None:
        """Say, in the transaction that writes a file, that links wait for resolution
        (and which process owes it); `_resolve` clears it once nothing is left. A
        process stopped in between (kill, crash, power) leaves it set, and the next
        refresh resolves everything again."""
        self._wrote = True
        self.store.set_meta("resolve_pending", str(os.getpid()))

    def _recover_resolution(self) -> None:
        """A previous process wrote files and stopped before resolving their links: the
        files look unchanged now, so without this their links would never come. While
        the process that wrote them is alive (a second window on the same cache), the
        resolution is its to finish."""
        if self._wrote:
            return
        owner = self.store.get_meta("resolve_pending") or "0"
        if owner == "0" or (owner.isdigit() and int(owner) != os.getpid() and _alive(int(owner))):
            return
        sys.stderr.write("repo-graph: the last run stopped before resolving links; resolving them all again\n")
        for path in self.store.indexed_files():
            self._touch(path, ())

    def _resolve_again_if_rules_changed(self) -> None:
        """An index resolved by a release with other rules (upgrades.RULES["resolve"]) has
        links this one would not make, or lacks some it would: unchanged files keep
        their links otherwise, until they change."""
        if self.store.get_meta("resolve_rules") == self.rules_table["resolve"].version:
            return
        if not self.store.file_count():  # a new index: these rules from its first link
            self.store.set_meta("resolve_rules", self.rules_table["resolve"].version)
            return
        sys.stderr.write("repo-graph: this release resolves names differently; resolving the links again\n")
        for path in self.store.indexed_files():
            self._touch(path, ())

    def _touch(self, path: str, old_ids, new_ids=()) -> None:
        """Remember what a change did to a file, for _resolve: the ids it had before
        the first change since the last resolution, and the ids it has now. Past
        TRACK_IDS_FILES changed files the resolution will be a full one anyway: stop
        keeping ids (a first index of the kernel would hold millions)."""
        if len(self._touched_paths) >= TRACK_IDS_FILES:
            self._old_ids.clear()
            self._new_ids.clear()
            self._touched_paths.add(path)
            return
        if path not in self._touched_paths:
            self._touched_paths.add(path)
            self._old_ids[path] = set(old_ids)
        self._new_ids[path] = set(new_ids)

    def _update_prior(self) -> None:
        """The structural prior (PageRank) of every node, after a refresh changed the graph."""
        prior = self.graph.prior()
        with self.store.transaction():
            self.store.set_priors(prior)

    def update_history(self) -> None:
        """Co-change counts and recent changes from git, read again only when HEAD
        moved (a commit, a checkout); outside a git work tree there are none. Every
        refresh calls it, and the watcher after each batch (a checkout changes files;
        a commit is seen with the next change)."""
        head = history.head(self.root) or ""
        rules = self.rules_table["history"].version
        if head == (self.store.get_meta("history_head") or "") and self.store.get_meta("history_rules") == rules:
            return
        found = history.read(self.root) if head else history.History()
        with self.store.transaction():
            self.store.set_history(found.pairs, found.recent, found.words)
            self.store.set_meta("history_commits", str(found.commits))
            self.store.set_meta("history_files", str(len(found.recent)))
            self.store.set_meta("history_head", head)
            self.store.set_meta("history_rules", rules)

    def _reach(self, changed: set[str], old_ids, new_ids, resolver: Resolver) -> set[str]:
        """Files whose links a change can alter. A body edit that keeps every name
        reaches no one; a removed symbol reaches whoever linked to it; a name that
        came or went reaches the files that use it through an import of the changed
        file or, failing that, while the name is rare repository-wide (`get` or
        `__init__` changing in one file re-resolves no one else); a new file reaches
        the files whose imports may now find it; a manifest or a module root, the
        files whose resolution reads it (Resolver.reading)."""
        gone, delta_names, new_files = set(), set(), []
        for path in changed:
            old, new = old_ids.get(path, set()), new_ids.get(path, set())
            gone |= old - new
            for node_id in old ^ new:
                fragment = node_id.partition("#")[2]
                if fragment:
                    delta_names.add(fragment.rsplit(".", 1)[-1].split("~")[0])
            if path in old and path not in new:
                gone.add(path)
            if path in new and path not in old:
                new_files.append(path)
        reach = self.store.owners_of_links_to(gone)
        if delta_names:
            using = self.store.paths_referring_to(delta_names)
            reach |= using & self.store.importers_of(changed)
            reach |= self.store.paths_referring_to(self.store.rare_names(delta_names, MAX_GLOBAL_MATCHES + 1))
        for path in new_files:
            reach |= self.store.paths_importing_like(PurePosixPath(path).stem)
        reach |= resolver.reading(changed)
        if gone & changed or new_files:  # a README documents its directory's file list
            dirs = {posixpath.dirname(c) for c in changed}
            reach |= {
                p for p in resolver.files if PurePosixPath(p).stem.lower() == "readme" and posixpath.dirname(p) in dirs
            }
        return reach

    def _resolve(self, only: set[str] | None = None, pause=lambda: None) -> None:
        """Re-resolve the links of changed files and of every file their change can
        reach. The links are worked out without holding the lock (reads only; queries
        go on meanwhile) and written in one transaction per chunk. `only`: resolve
        just these changed files (a query's own freshness check must not take on the
        hundreds a running refresh has written so far). `pause` runs between chunks:
        the priority's give_way when the caller holds no lock."""
        with self.lock:
            # Past TRACK_IDS_FILES the ids were dropped: then only a resolution of all will do.
            if only is None or not all(p in self._new_ids for p in self._touched_paths):
                changed, self._touched_paths = self._touched_paths, set()
                old_ids, new_ids = self._old_ids, self._new_ids
                self._old_ids, self._new_ids = {}, {}
            else:
                changed = self._touched_paths & only
                self._touched_paths -= changed
                old_ids = {p: self._old_ids.pop(p) for p in changed}
                new_ids = {p: self._new_ids.pop(p) for p in changed}
            if not changed:
                return
        files = self.store.file_count()
        full = len(changed) >= TRACK_IDS_FILES or len(changed) > FULL_RESOLVE_SHARE * max(files, 1)
        resolver = Resolver(self.store, self.registry, every_symbol=full, root=self.root)
        if full:
            affected = set(resolver.files) | changed
        else:
            affected = set(changed) | self._reach(changed, old_ids, new_ids, resolver)
        for paths, links in resolver.links_in_chunks(affected):
            pause()
            with self.store.transaction():
                self.store.replace_links(paths, links)
        with self.lock:
            if not self._touched_paths:
                self.store.set_meta("resolve_pending", "0")

    def _executor(self, todo, given):
        """(executor, whether we own it): a process pool when the work is worth one."""
        if given is not None:
            return given, False
        work_bytes = sum(w.size for w, _ in todo)
        if self.jobs <= 1 or work_bytes < PARALLEL_MIN_BYTES:
            return None, False
        # fork starts a worker in milliseconds where spawn takes a third of a second
        # (a fresh interpreter importing tree-sitter), but only a single-threaded
        # process may fork: serve's threads would leave their locks copied, held.
        # Linux only (macOS's system libraries do not survive a fork).
        alone = sys.platform == "linux" and threading.active_count() == 1
        return pool.start(self.jobs, fork=alone), True

    def _readable(self) -> str:
        """The file names and extensions this release parses: when a new one reads more
        (reStructuredText, a grammar), files indexed as unsupported are read again."""
        return " ".join(
            sorted(DOC_EXTENSIONS)
            + sorted({n for spec in self.registry.languages.values() for n in spec.extensions + spec.filenames})
        )

    def _extraction(self) -> dict[str, str]:
        """Per language, what its extraction is made of (upgrades.extraction_digests). A
        file indexed under another is parsed again."""
        if self._rules_by_language is None:
            self._rules_by_language = upgrades.extraction_digests(self.registry, self.rules_table)
        return self._rules_by_language

    def _extracted_otherwise(self, current: dict[str, str]) -> frozenset[str]:
        """The languages whose files this index holds as another release extracted them.
        An index that kept no record (from before records were kept, or unreadable) had
        every language extracted otherwise: the stemmer, the rules and the queries have
        all changed since, so every file is parsed again, which is always right."""
        try:
            kept = json.loads(self.store.get_meta("extraction") or "{}")
        except ValueError:
            kept = {}
        if not isinstance(kept, dict):
            kept = {}
        return frozenset(lang for lang, made_of in current.items() if kept.get(lang) != made_of)

    def refresh(self, progress=None, executor=None, **kwargs) -> Summary:
        """Bring the index in line with the tree (_refresh). An index not yet whole is being
        built: by this process, or another one (a terminal's `repo-graph index`, another
        window's provider), which this one waits for and then reads, instead of building
        the same index over it."""
        if self._replaces or self.store.get_meta("complete") == "1":
            return self._refresh(progress, executor, **kwargs)
        with _Builder(self.store.path) as builder:
            if builder.waited:
                self._reopen()  # what the other one built or swapped in
            _remove_beside(self.store.path)  # a build a stop cut short: nobody else is building
            return self._refresh(progress, executor, **kwargs)

    def _refresh(
        self,
        progress=None,
        executor=None,
        *,
        count: bool = True,
        progressive: bool = False,
        live: RepoIndex | None = None,
    ) -> Summary:
        """Bring the index in line with the tree: parse new and changed files, drop gone ones.
        count=False: the summary's node and edge counts stay 0 (after a write they take a
        scan of every node row, seconds on the kernel; the watcher has no use for them).
        progressive: a first index answers while it runs (serve): files are parsed in the
        order hosts need them (indexer/order.py) and those files are written at once, their
        links resolved as they arrive. One a cold index would load in bulk is built beside
        as one, the files hosts need also written into this one meanwhile; a smaller one is
        written in place [first-index-beside]. The finished index is the same.
        live: this is that index built beside, and `live` the one answering meanwhile."""
        started = time.monotonic()
        summary = Summary(database=str(self.store.path))
        lap = _Laps(summary.phases)
        report = WalkReport()
        self._partial = []
        self.rules.invalidate()  # a .gitignore may have changed while nobody watched
        self._recover_resolution()
        self._resolve_again_if_rules_changed()
        # What the index knows is read beside the walk: both wait on the disk when its
        # pages are cold (the first run after a kernel's cold index: seconds each) [noop-state].
        reading = _InThread(self.store.file_stats, "repo-graph-state").start()
        give_way = self.priority.give_way
        files = self.walked = []  # how far the walk is, for an answer deciding how long to wait
        self.todo_bytes = None
        for walked in walk(self.root, max_file_bytes=self.max_file_bytes, report=report, rules=self.rules):
            give_way()
            files.append(walked)
        lap("walk")
        stats = reading.result()
        lap("state")
        self._say_once("unreadable-dirs", report.unreadable_dirs, "cannot list {n} director{ies}: {some}")
        self._say_once(
            "ignore-lines",
            sorted(self.rules.skipped),
            "skipped lines no pattern can mean (git skips them too) in {n} ignore file{s}: {some}",
        )
        self._say_once(
            "not-utf8",
            report.not_utf8,
            "skipped {n} file name{s} that are not UTF-8 (no id or URI can carry them): {some}",
        )
        summary.unreadable = report.unreadable - len(report.unreadable_dirs)
        seen = {f.path for f in files}
        readable = self._readable()
        reread = self.store.get_meta("readable") != readable  # a release that reads more: take up what it skipped
        extraction = self._extraction()
        if not stats:  # a new index: a start after a stop halfway through must not take it for an old release's
            self.store.set_meta("extraction", json.dumps(extraction, sort_keys=True))
        reextract = self._extracted_otherwise(extraction)  # a release that extracts otherwise: parse again
        todo, known = self._plan(files, stats, reread, reextract, summary)
        self.todo_bytes = sum(walked.size for walked, _ in todo)
        reparse = sum(1 for walked, digest in todo if digest is None and walked.path in known)
        if reparse > BULK_FILES and reparse > REBUILD_SHARE * len(stats) and self._room_beside():
            return self._build_beside(progress, executor, count)
        # A first index (mostly new files) loads rows with the lookup indexes dropped, and
        # builds them once the links are in too: sorted builds beat millions of random inserts.
        bulk = len(todo) > BULK_FILES and len(todo) > len(stats)
        first = progressive and not self.ready.is_set()
        if first and bulk:
            return self._build_beside(progress, executor, count, first=True)
        feed = None
        if first or live is not None:
            answering = live or self
            recent = history.recently_changed(self.root) if todo else {}
            feed = _Feed(answering, FirstOrder(todo, answering.wants, recent, live=None if live is None else set()))
            answering._order = feed.order
            if live is None:  # in place: answers read the lookup indexes meanwhile
                bulk = False
                self.building = True
        in_place = feed is not None and feed.index is self
        lap("plan")
        indexes = _InThread(partial(self.store.bulk_load, False), "repo-graph-indexes") if bulk else None
        collecting = gc.isenabled()
        try:
            if bulk:
                self.store.bulk_load(True)
                # A first index makes millions of objects that live until written, and
                # cycles it does not make: the collector's passes over them found nothing
                # and cost the writer 10-15% of its time [cold-index-gc].
                gc.disable()
            with self.store.few_checkpoints() if in_place else nullcontext():
                self._parse(todo, known, summary, bulk, progress, executor, feed)
                lap("parse")
                if in_place:
                    self._wait_for_other_writers()
                gone = [row[0] for row in stats if row[0] not in seen]
                if gone:
                    give_way()
                    with self.store.transaction():
                        for path in gone:
                            self._remove(path)
                summary.removed = len(gone)
                if self._partial:
                    sys.stderr.write(
                        f"repo-graph: warning: {len(self._partial)} file(s) have syntax errors tree-sitter "
                        f"could not parse around; their symbols are partial: {_some(self._partial)}\n"
                    )
                self._partial = None
                self._link(lap, indexes)
                self.store.set_meta("resolve_rules", self.rules_table["resolve"].version)
        finally:
            self.building, self._order = False, None
            try:
                if indexes is not None:
                    indexes.result()
            finally:
                if collecting:
                    gc.enable()
        if bulk:
            lap("indexes")
        give_way()
        self.update_history()
        lap("history")
        self.store.set_meta("complete", "1")
        self.store.set_meta("readable", readable)
        self.store.set_meta("extraction", json.dumps(extraction, sort_keys=True))
        self.store.set_meta("indexed_at", utc_stamp())
        self.ready.set()
        counts = self.store.counts() if count else {"files": self.store.file_count(), "edges": 0, "languages": {}}
        summary.files = counts["files"]
        summary.symbols = counts.get("symbol", 0)
        summary.sections = counts.get("section", 0)
        summary.edges = counts["edges"]
        summary.languages = counts["languages"]
        summary.ignored = report.ignored
        summary.too_large = report.too_large
        summary.skipped = max(0, len(files) - summary.files - summary.unreadable - summary.vanished)
        if count:
            summary.generated = self.store.file_count("generated")
        summary.history_commits = int(self.store.get_meta("history_commits") or 0)
        summary.history_files = int(self.store.get_meta("history_files") or 0)
        del files, stats, seen  # freed here, timed: the kernel's are 150,000 objects
        lap("finish")
        summary.seconds = round(time.monotonic() - started, 3)
        return summary

    def _plan(self, files: list[WalkedFile], stats, reread: bool, reextract: frozenset[str], summary: Summary):
        """(todo, the states of its files the index has): the walked files not unchanged
        (_unchanged: same path, size, mtime, inode and change time, told by set membership
        in C), each with the digest its bytes had (same bytes are not parsed again, a
        branch switch), unless this release reads or extracts its kind otherwise."""
        if reread or reextract:  # a release that reads more or extracts otherwise: every state is needed
            known = self.store.file_states()
            todo = []
            for walked in files:
                old = known.get(walked.path)
                again = old is not None and ((reread and old.status == "unsupported") or old.language in reextract)
                if _unchanged(old, walked) and not again:
                    summary.unchanged += 1
                else:
                    todo.append((walked, old.digest if old is not None and not again else None))
            return todo, known
        same = set(stats)
        fresh = [walked for walked in files if walked not in same]
        summary.unchanged += len(files) - len(fresh)
        known = self.store.file_states_of([w.path for w in fresh]) if fresh and stats else {}
        return [(w, known[w.path].digest if w.path in known else None) for w in fresh], known

    def _parse(self, todo, known: dict[str, FileState], summary: Summary, bulk: bool, progress, executor, feed=None):
        """Parse `todo` (in worker processes when it is worth it) and write what comes back,
        a batch per transaction; what was parsed is committed even on the way out of an
        error, so a stop loses nothing it has done. `feed`: a first index answering
        meanwhile; its order is the parse's, and the files it takes go to its index."""
        give_way = self.priority.give_way
        pending: list[tuple[WalkedFile, FileRecord | None, FileState | None]] = []
        last_commit = time.monotonic()
        in_place = feed is not None and feed.index is self

        def flush(final: bool = False):
            nonlocal last_commit
            if not pending:
                return
            if not final:  # on the way out (a stop, an error) what was parsed is written, no pause
                give_way()
            with self.store.transaction():
                for walked, record, old in pending:
                    if record is None:
                        self.store.touch_file(_restat(old, walked))
                self._apply([(w, r, o) for w, r, o in pending if r is not None])
            pending.clear()
            last_commit = time.monotonic()

        total_bytes = sum(w.size for w, _ in todo) or 1
        done_bytes = done_files = 0
        executor, owned = self._executor(todo, executor)
        batch_files = BATCH_FILES if bulk else LIVE_BATCH_FILES
        ordered = {}
        if feed is not None:
            ordered = {"task_bytes": pool.TASK_BYTES // 4, "backlog": PROGRESSIVE_BACKLOG}
        try:
            for walked, record in pool.run(
                executor,
                str(self.root),
                todo if feed is None else feed.order,
                self.max_file_bytes,
                in_flight=(2 if feed is None else PROGRESSIVE_IN_FLIGHT) * max(1, self.jobs),
                tools=(self.registry, self.extractor),
                **ordered,
            ):
                if not in_place and feed is not None and feed.order.again(walked.path):
                    if record is not None and record != pool.SAME:  # for the answering index alone
                        feed.offer((walked, record, None), "again")
                    continue
                done_bytes += walked.size
                done_files += 1
                old = known.get(walked.path)
                if record is None:  # gone since the walk, or refused on opening
                    if os.path.lexists(os.path.join(self.root, walked.path)):
                        summary.unreadable += 1
                    else:
                        summary.vanished += 1
                    continue
                if record == pool.SAME:  # a string, so it survives pickling across processes
                    item = (walked, None, old)  # same bytes: new stat only
                    summary.unchanged += 1
                else:
                    item = (walked, record, old)
                    summary.parsed += 1
                    summary.warnings += len(record.warnings)
                if in_place:
                    feed.offer(item, "in place")
                else:
                    pending.append(item)
                    if feed is not None:
                        feed.offer(item, feed.needs(walked, record))
                    if len(pending) >= batch_files or time.monotonic() - last_commit > BATCH_SECONDS:
                        flush()
                give_way()
                if progress is not None:
                    progress(done_bytes, total_bytes, done_files, len(todo))
        except BaseException:
            if feed is not None:
                feed.flush(final=True)
            raise
        finally:
            if owned:
                executor.shutdown(cancel_futures=True)
            if bulk:
                flush(final=True)
        flush()
        if feed is not None:
            feed.flush()

    def _link(self, lap, indexes: _InThread | None = None) -> None:
        """Resolve what the changes reach, and recompute the prior once enough changed.
        `indexes`: a first index's lookup indexes, built once the links are in, beside
        the prior's computation (SQLite builds them without the GIL; the prior only reads)
        [indexes-beside-prior]."""
        if not self._touched_paths:
            return
        give_way = self.priority.give_way
        changed = len(self._touched_paths)
        give_way()
        self._resolve(pause=give_way)
        lap("resolve")
        if indexes is not None:
            indexes.start()
        # The prior is a slow-moving, whole-graph signal: recompute it once enough
        # of the repository has changed since the last time, not on every save.
        drift = int(self.store.get_meta("prior_drift") or 0) + changed
        if self.store.get_meta("prior_drift") is None or drift > PRIOR_DRIFT_SHARE * max(self.store.file_count(), 1):
            give_way()
            self._update_prior()
            lap("prior")
            drift = 0
        self.store.set_meta("prior_drift", str(drift))

    def want(self, paths=(), words=()) -> None:
        """A host asked about `paths` (repository-relative) in words: a first index under
        way parses those files, their directories and the files named like the words
        before the rest (indexer/order.py)."""
        self.wants.ask(paths, words)

    def _resolve_wanted(self, anchored_only: bool = False) -> None:
        """During a progressive first index: the links of the files hosts asked about and
        of their directories (`anchored_only`: of the asked files alone), among the files
        indexed so far, and what the asked files include or import, to be parsed next.
        The final resolution makes them all anew."""
        started = time.monotonic()
        wanted = self.wants.snapshot()
        self._wanted_version, paths = wanted.version, wanted.paths
        if not paths:
            return
        dirs = {posixpath.dirname(p) for p in paths}
        with self.lock:
            indexed = self.store.indexed_files()
        anchored = sorted(p for p in paths if p in indexed)[:PROVISIONAL_FILES]
        beside = [] if anchored_only else sorted(p for p in indexed if posixpath.dirname(p) in dirs and p not in paths)
        resolved = anchored + beside[: PROVISIONAL_FILES - len(anchored)]
        self._resolve_provisionally(resolved)
        with self.lock:  # the anchored files' own: their definers are the anchors' neighbours
            self._wanted_names = frozenset(self.store.names_used_in(anchored))
            order = self._order
            if order is not None and not anchored_only:  # what the included files include, parsed early too
                included = [p for p in order.included if p in indexed]
                self.wants.ask(further=[target for _, target, _, _ in self.store.imports_of(included)])
        now = time.monotonic()
        spent = now - started
        self.fed_seconds += spent
        # What comes next is the anchored files alone: due once their share of this cost
        # has passed, over PROVISIONAL_SHARE (not the whole directory's, ten seconds on the kernel).
        self._wanted_again = (False, now + spent * len(anchored) / max(len(resolved), 1) / PROVISIONAL_SHARE)

    def _definers_came(self, pending) -> bool:
        """Whether the asked files are due for resolving again: files came in (now or
        since the last time) that define a name they use, and the wait after the last
        resolution is over."""
        came, due = self._wanted_again
        if not came and self._wanted_names:
            names = self._wanted_names
            came = any(node.name in names for _, record, _ in pending if record is not None for node in record.nodes)
        self._wanted_again = (came, due)
        return came and time.monotonic() >= due

    def _resolve_provisionally(self, paths) -> None:
        """The links `paths` own, resolved among the files indexed so far (a first index
        under way), without taking them off the final resolution's list."""
        resolver = Resolver(self.store, self.registry, every_symbol=False, root=self.root)
        for chunk, links in resolver.links_in_chunks(paths):
            with self.store.transaction():
                self.store.replace_links(chunk, links)
        asked = self.wants.snapshot().paths
        targets = [target for _, target, _, _ in self.store.imports_of([p for p in paths if p in asked])]
        self.wants.ask(targets=targets)

    def recheck_recent(self) -> None:
        """A file read within RECENT_NS of a write may have been read mid-write (an
        editor saving, a checkout under way), and the watcher hears of the rest only
        later (watchdog holds events ~0.5 s to pair moves). A query checks those files
        against disk first, so an answer never misses an edit whose file it does not
        return. Cheap: a stat per such file, and they settle once their write is old."""
        with self.lock:
            recent = list(self._recent.items())
        if not recent:
            return
        self.update([path for path, _ in recent])
        settled = time.time_ns() - RECENT_NS
        with self.lock:
            for path, mtime in recent:
                if mtime < settled and self._recent.get(path) == mtime:
                    del self._recent[path]

    def admit(self, path: str) -> str | None:
        """A path from outside (a host's anchor or frame id), as the repository-relative
        path it leads to once symlinks are followed, or None when that lies outside
        the root or in its ignored set: then it names nothing and nothing is read."""
        rel = boundary.resolve(str(self.root), path)
        if rel is None or (rel and self.rules.ignored(rel, is_dir=os.path.isdir(os.path.join(self.root, rel)))):
            return None
        return rel

    def split_id(self, node_id: str) -> tuple[str, str]:
        """(path, fragment) of a node id `path#fragment`, where the path itself may hold
        a `#` (`h#a.py#f`): the longest prefix that is an indexed file, else the text
        before the first `#`."""
        if "#" not in node_id:
            return node_id, ""
        cuts = [i for i, c in enumerate(node_id) if c == "#"]
        if len(cuts) > 1 or self.store.file_state(node_id[: cuts[0]]) is None:
            for cut in [len(node_id), *reversed(cuts)]:
                if self.store.file_state(node_id[:cut]) is not None:
                    return node_id[:cut], node_id[cut + 1 :]
        return node_id[: cuts[0]], node_id[cuts[0] + 1 :]

    def ensure_fresh(self, path: str) -> bool:
        """Check one file against disk now and re-index it if it changed.
        Returns whether the file exists and is indexed."""
        return self.update([path]).get(path, False)

    def update(self, paths) -> dict[str, bool]:
        """Bring the named paths in line with disk, in one transaction: files that
        changed are parsed, gone or newly ignored ones removed; a directory stands for
        every file under it (created, moved or deleted trees). Returns, per file,
        whether it is indexed now."""
        paths = list(paths)
        root = str(self.root)
        known = self._all_unchanged(paths)
        if known is not None:
            return known
        with self.lock:
            files: set[str] = set()
            spelled: dict[str, str] = {}  # canonical path -> the spelling a caller gave
            for given in paths:
                rel = boundary.inside(root, given)
                if rel is None:
                    continue  # outside the root or through a symlink: names nothing, is never read
                if rel != given:
                    spelled[rel] = given
                if rel.rsplit("/", 1)[-1] == ".gitignore":
                    self.rules.invalidate()
                full = os.path.join(root, rel)  # strings: a query checks each file it sends
                if rel and os.path.isdir(full) and not os.path.islink(full):
                    files.update(
                        w.path for w in walk(self.root, max_file_bytes=self.max_file_bytes, rules=self.rules, under=rel)
                    )
                    files.update(self.store.paths_under(rel + "/"))
                elif rel:
                    files.add(rel)
                    if not os.path.exists(full):
                        files.update(self.store.paths_under(rel + "/"))  # a deleted directory
            status: dict[str, bool] = {given: False for given in paths}
            work: list[tuple[str, WalkedFile | None, FileRecord | None, FileState | None]] = []
            touched: list[FileState] = []
            for rel in sorted(files):
                old = self.store.file_state(rel)
                walked = self._stat(rel)
                if walked is None:
                    status[rel] = False
                    if old is not None:
                        work.append((rel, None, None, old))
                    continue
                if _unchanged(old, walked):
                    status[rel] = old.status == "ok"
                    continue
                record = pool.parse_task(
                    str(self.root),
                    [(walked, old.digest if old else None)],
                    self.max_file_bytes,
                    (self.registry, self.extractor),
                )[0][1]
                if record is None:
                    status[rel] = False
                elif record == pool.SAME:  # same bytes (a touch, a checkout that rewrote nothing)
                    status[rel] = old.status == "ok"
                    touched.append(_restat(old, walked))
                else:
                    status[rel] = record.status == "ok"
                    work.append((rel, walked, record, old))
            if touched:
                with self.store.transaction():
                    for state in touched:
                        self.store.touch_file(state)
            if work:
                with self.store.transaction():
                    for rel, walked, _, _ in work:
                        if walked is None:
                            self._remove(rel)
                    self._apply([(walked, record, old) for _, walked, record, old in work if walked is not None])
                if self.building:
                    order = self._order
                    if order is not None:  # indexed here: the first index need not give it again
                        order.went_live([rel for rel, *_ in work])
                    self._resolve_provisionally({rel for rel, *_ in work})
                else:
                    self._resolve(only={rel for rel, *_ in work})
            for rel, given in spelled.items():
                status[given] = status.get(rel, False)
            return status

    def _room_beside(self) -> bool:
        """Whether the cache's disk has room for a second index as big as this one (and
        some): when not, say so; the upgrade then re-parses in place, slower."""
        path = self.store.path
        size = sum(os.path.getsize(f"{path}{s}") for s in ("", "-wal") if os.path.exists(f"{path}{s}"))
        free = shutil.disk_usage(path.parent).free
        if free >= REBUILD_ROOM * size:
            return True
        sys.stderr.write(
            f"repo-graph: this release indexes differently; rebuilding beside the old index needs about "
            f"{REBUILD_ROOM * size / 1e9:.1f} GB free in {path.parent}, and {free / 1e9:.1f} GB are: "
            "re-parsing in place instead (slower)\n"
        )
        return False

    def _build_beside(self, progress, executor, count: bool, *, first: bool = False) -> Summary:
        """Build the index anew in a file beside this one, in bulk as a cold index does,
        while this one answers: an upgrade's rebuild (this one the old index), or a first
        index too big to write in place at a cold one's speed (this one meanwhile holds the
        files hosts ask about) [first-index-beside]. Swap it in with one rename, then catch
        up with whatever changed meanwhile. One process builds at a time."""
        path = self.store.path
        with _Builder(path) as builder:
            if not builder.waited:
                built = self._build_and_swap(progress, executor, count, first)
        if builder.waited:  # another process built it meanwhile: read that one
            self._reopen()
            return self.refresh(progress, executor, count=count, progressive=first)
        self.ready.set()  # whole once swapped in: answers need not wait for the catch-up
        fed = ", ".join(f"{n} {why}" for why, n in sorted(self.fed.items()))
        held = ""
        if first:
            held = " (nobody asked meanwhile)"
            if self.fed:
                held = (
                    f" (the index answering meanwhile held {sum(self.fed.values())} files: {fed}; "
                    f"their links took {self.fed_seconds:.1f} s)"
                )
        sys.stderr.write(f"repo-graph: swapped in the {'first' if first else 'new'} index{held}\n")
        self.fed, self.fed_seconds = {}, 0.0
        caught_up = self.refresh(progress, executor, count=count)
        built.database = caught_up.database  # the index's own name, not the file it was built in
        built.seconds = round(built.seconds + caught_up.seconds, 3)
        built.parsed += caught_up.parsed
        built.removed += caught_up.removed
        _give_memory_back()
        return built

    def _reopen(self) -> None:
        """Read the index another process swapped in, no answer reading meanwhile (the
        connections they hold are closed under them)."""
        self.priority.give_way()
        with self.priority.alone(), self.lock:
            self.store.reopen()

    def _build_and_swap(self, progress, executor, count: bool, first: bool) -> Summary:
        fresh_path = _beside(self.store.path)
        _remove_beside(self.store.path)  # a build a stop cut short
        if not first:
            sys.stderr.write("repo-graph: this release indexes differently; building a new index beside the old one\n")
        fresh = RepoIndex(self.root, max_file_bytes=self.max_file_bytes, jobs=self.jobs, db_path=fresh_path)
        fresh.priority = self.priority  # queries on this index come first, as ever
        fresh.rules_table = self.rules_table
        fresh._replaces = True
        self.building = first
        try:
            try:
                built = fresh.refresh(progress, executor, count=count, live=self if first else None)
            finally:
                fresh.close()
            self.priority.give_way()
            with self.priority.alone(), self.lock:
                self.store.replace_with(fresh_path)
                self._touched_paths, self._old_ids, self._new_ids = set(), {}, {}
                self._recent.clear()
                self._wrote = False
        except BaseException:
            _remove_beside(self.store.path)  # half a build holds disk (a full one, perhaps) for nothing
            raise
        finally:
            self.building, self._order = False, None
        return built

    def _wait_for_other_writers(self) -> None:
        """Wait until no other process writes the database (a second window's provider)
        without holding this process's lock, which answers need to read: a first index
        held up that way still lets queries be answered from what it holds."""
        probe = sqlite3.connect(str(self.store.path), timeout=30, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
        finally:
            probe.close()

    def _all_unchanged(self, paths: list[str]) -> dict[str, bool] | None:
        """Per path, whether it is indexed, when every one is a file the index holds as
        it is on disk; else None. Read without the lock: a query checking its files
        does not wait behind a writer's transaction (a first index blocked by another
        process's write lock) for files that need no writing."""
        status = {}
        for given in paths:
            if boundary.inside(str(self.root), given) != given or given.rsplit("/", 1)[-1] == ".gitignore":
                return None
            old, walked = self.store.file_state(given), self._stat(given)
            if old is None or not _unchanged(old, walked):
                return None
            status[given] = old.status == "ok"
        return status

    def _stat(self, rel: str) -> WalkedFile | None:
        """The file as the walker would take it, or None (gone, ignored, too large, not regular)."""
        if boundary.inside(str(self.root), rel) != rel:
            return None
        try:
            st = os.stat(os.path.join(self.root, rel), follow_symlinks=False)
        except (OSError, ValueError):
            return None
        if not stat_mod.S_ISREG(st.st_mode) or st.st_size > self.max_file_bytes or self.rules.ignored(rel):
            return None
        return WalkedFile(rel, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)

    # -- reading ------------------------------------------------------------
    def read_lines(self, node: NodeRow) -> bytes | None:
        """The exact bytes of a node's line span, read from disk now."""
        spans = self.read_spans(node.path, [(node.start_line, node.end_line)])
        return spans[0] if spans else None

    def read_spans(self, path: str, spans: list[tuple[int, int]]) -> list[bytes] | None:
        """The exact bytes of several line spans of one file, read once, now."""
        if boundary.inside(str(self.root), path) != path:
            return None
        try:
            data = boundary.read_regular(os.path.join(self.root, path), self.max_file_bytes + 1)
        except OSError:
            return None
        starts = line_starts(data, upto=max((last for _, last in spans), default=0))
        if any(last > len(starts) or first < 1 for first, last in spans):
            return None
        return [line_span(data, starts, first, last) for first, last in spans]

    def close(self) -> None:
        self.store.close()
