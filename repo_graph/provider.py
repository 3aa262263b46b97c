"""The provider behind the protocol: answers queries and verifies from one
repository's index. Transport-free; the session calls it."""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator

from . import anchors as anchors_mod
from . import frames as frames_mod
from . import ranking, verify
from .packing import Packed, Placed, pack, token_cost
from .protocol import messages as m
from .protocol.errors import UNAVAILABLE, ProtocolError
from .status import Progress
from .tokenizer import Tokenizer

if TYPE_CHECKING:  # the index loads off the protocol's thread
    from indexer.index import RepoIndex
    from indexer.store import NodeRow

SERVED_KINDS = ("doc", "symbol")
OPEN_WAIT = 25.0  # opening the index (another process may hold its lock): a host allows 30 s per answer
# A query during a first index waits this long for it, so a small repository (and the
# conformance suite) is answered in full; then from what is indexed (issue 40) ...
FIRST_ANSWER_WAIT = 2.0
# ... unless the pass, at its pace so far, is due to end within this much more, or the
# repository is small (fewer files walked so far, fewer bytes to read): then up to OPEN_WAIT.
FIRST_ANSWER_EXTRA = 2.0
SMALL_FILES = 2000
SMALL_BYTES = 4 << 20
ANSWER_CACHE_KIB = 16384  # SQLite's page cache of a thread that answers [answer-cache]
NODE_KIND = {"doc": "section", "symbol": "symbol"}


class RepoProvider:
    """Answers from one repository's index. Given no index, it opens one in the
    background (start_indexing), so a host's handshake never waits for disk."""

    def __init__(
        self,
        index: RepoIndex | None = None,
        tokenizer: Tokenizer | None = None,
        *,
        weights: ranking.Weights = ranking.DEFAULT,
    ):
        self.index = index
        self.tokenizer = tokenizer or Tokenizer().start()
        self.weights = weights  # the ranking's numbers: a benchmark's sweep passes others
        self.kinds = SERVED_KINDS
        self.watcher = None
        self.watching = False  # asked to watch the tree (the watcher starts once the index is open)
        self.progress = Progress()  # how far the indexer's pass is, for index_status
        self._opened = threading.Event()
        self._open_error: str | None = None
        self.index_error: str | None = None  # why the last pass over the tree stopped, if it did
        self._rebuild_lock = threading.Lock()
        self._rebuilder: threading.Thread | None = None
        self._open_index: Callable[[], RepoIndex] | None = None
        if index is not None:
            self._opened.set()

    def start_indexing(
        self, open_index: Callable[[], RepoIndex] | None = None, *, watch: bool = True
    ) -> threading.Thread:
        """Open and load what is persisted, catch up with the tree, then keep up with
        it (watchdog) unless told not to. All of it off the protocol's thread."""
        self.watching = watch
        if open_index is not None:
            self._open_index = open_index  # kept: an open that failed is tried again by the next question

        def run():
            if self.index is None:
                try:
                    assert self._open_index is not None
                    self.index = self._open_index()
                except Exception as exc:  # an unwritable cache, a corrupt file: say so, answer `unavailable`
                    self._open_error = f"cannot open the index: {exc}"
                    sys.stderr.write(f"repo-graph: error: {self._open_error}\n")
                    return
                finally:
                    self._opened.set()
            try:
                loaded = self.index.load()
            except Exception as exc:  # a cache that fails even to be read: say so; answers say it too
                sys.stderr.write(f"repo-graph: error: cannot load the index: {_cause(exc, self.index)}\n")
                self.index.ready.set()
                return
            if loaded:
                sys.stderr.write("repo-graph: loaded the persisted index; checking for changes\n")
            if self.index.ready.is_set():
                # Answer from the loaded index first: the tokenizer loads and a query
                # under way is answered before the watcher (watchdog's imports and one
                # watch per directory: 0.1 s on the stdlib, 1.2 s on the kernel) and the
                # catch-up pass compete with them for the interpreter. Whatever changes
                # meanwhile, the catch-up finds, and an answer checks its files on disk.
                self.tokenizer.wait_loaded()
                self.index.priority.give_way()
            if watch:  # watch before catching up, so nothing that changes meanwhile is missed
                from indexer.watch import Watcher

                self.watcher = Watcher(self.index).start()
            try:
                summary = self.index.refresh_recovering(count=False, progress=self.progress, progressive=True)
                self.index_error = None
                sys.stderr.write(
                    f"repo-graph: index ready: {summary.files} files, {summary.parsed} parsed, "
                    f"{summary.unchanged} unchanged, {summary.removed} removed in {summary.seconds:.2f}s\n"
                )
            except Exception as exc:  # keep serving what is loaded; say why on stderr and in index_status
                self.index_error = f"indexing failed: {_cause(exc, self.index)}"
                sys.stderr.write(f"repo-graph: error: {self.index_error}\n")
                self.index.ready.set()
            # The anchors' walk needs networkx (0.06-0.2 s of imports): load it now, while
            # the host is idle, not inside its first anchored answer.
            import networkx  # noqa: F401

        thread = threading.Thread(target=run, name="indexer", daemon=True)
        thread.start()
        return thread

    def _rebuild(self) -> None:
        """One background rebuild at a time, however many answers met the damage."""
        with self._rebuild_lock:
            if self._rebuilder is None or not self._rebuilder.is_alive():
                self._rebuilder = self.start_indexing(watch=False)

    @property
    def open_error(self) -> str | None:
        """Why the index could not be opened, if it could not."""
        return self._open_error

    def _reopen(self) -> None:
        """After an open that failed (a cache directory in the way, a lock held past
        its timeout, a full disk), each question tries again, one attempt at a time:
        a cause the user has mended needs no restart of the host."""
        with self._rebuild_lock:
            if self.index is None and self._open_error and (self._rebuilder is None or not self._rebuilder.is_alive()):
                self._opened.clear()
                self._open_error = None
                self._rebuilder = self.start_indexing(watch=self.watching)

    def _wait_open(self) -> None:
        if self.index is None and self._open_error:
            self._reopen()
        if not self._opened.wait(OPEN_WAIT) or self.index is None:
            raise ProtocolError(UNAVAILABLE, self._open_error or "the index is still being opened; retry shortly")
        self.index.store.limit_cache(ANSWER_CACHE_KIB)  # this thread answers: it reads, scattered

    def _wait_ready(self, q: m.ContextQuery | None = None) -> None:
        """Once the index is open: a first index under way is told what `q` asks
        about (it parses that first), and given a moment to finish; then the answer
        comes from what it holds, and says so on stderr (the CGP answer has no field
        for it; MCP's answers and index_status carry it)."""
        self._wait_open()
        index = self.index
        assert index is not None  # _wait_open raised otherwise
        if index.ready.is_set():
            return
        if q is not None:
            from indexer.order import words_of

            index.want(
                [p for p in (anchors_mod.path_of(index, a) for a in q.anchors) if p],
                words_of(" ".join(t for t in (q.goal, q.query_text or "") if t)),
            )
        started = time.monotonic()
        if index.ready.wait(FIRST_ANSWER_WAIT):
            return
        while time.monotonic() - started < OPEN_WAIT and self._small(index, time.monotonic() - started):
            if index.ready.wait(0.1):
                return
        n = self.progress.answered_partially()
        parsed, to_parse = self.progress.files()
        how_far = f"{parsed:,} of {to_parse:,} files parsed" if to_parse else "walking the tree"
        sys.stderr.write(
            f"repo-graph: partial answer {n}: the first index is still being built ({how_far}); "
            "this answer covers what is indexed, and the files it anchors\n"
        )

    def _small(self, index: RepoIndex, waited: float) -> bool:
        """Whether a first index under way is small enough to wait for (a small
        repository gets a whole answer however loaded the machine), or about to end:
        its walk has found few files so far (a slow start), or it has little to read,
        or at its pace it ends within FIRST_ANSWER_EXTRA more."""
        if index.todo_bytes is None:
            return len(index.walked) < SMALL_FILES
        if 0 < index.todo_bytes <= SMALL_BYTES:
            return True
        left = 0.0 if not index.todo_bytes else self.progress.seconds_left()  # nothing to parse: ending
        return left is not None and left <= FIRST_ANSWER_WAIT + FIRST_ANSWER_EXTRA - waited

    def query(self, q: m.ContextQuery) -> m.QueryResult:
        self._wait_ready(q)
        with self._store_errors(), self.index.priority.answering():  # the indexer pauses meanwhile
            return self._query(self.index, q)

    @contextmanager
    def _store_errors(self):
        """A database error is the cache's, not the question's: a damaged file is set
        aside and rebuilt in the background, anything else (a full disk) is named with
        the file it concerns. Either way the host is told to retry."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if self.index.recover(exc):
                self._rebuild()
                raise ProtocolError(
                    UNAVAILABLE,
                    "the index cache was damaged: it was set aside and the index is being rebuilt; retry shortly",
                ) from None
            sys.stderr.write(f"repo-graph: error: {_cause(exc, self.index)}\n")
            raise ProtocolError(UNAVAILABLE, f"the index cache failed: {exc}; retry later") from None

    @contextmanager
    def answering(self) -> Iterator[RepoIndex]:
        """The index, once it can answer, the indexer pausing meanwhile, as for a query:
        for answers that pick their nodes otherwise (a symbol by name, its callers)."""
        self._wait_ready()
        with self._store_errors(), self.index.priority.answering():
            yield self.index

    def pack_nodes(
        self,
        index: RepoIndex,
        scored: list[tuple[NodeRow, float]],
        prefer: frozenset[str],
        max_tokens: int,
        max_frames: int,
    ) -> m.QueryResult:
        """Frames for `scored` nodes, in that order, packed as a query's are (B1, B4,
        headers for big bodies, one file's share); call inside `answering`."""
        packed = self._pack(index, scored, set(NODE_KIND.values()), prefer, max_tokens, max_frames)
        return m.QueryResult(tuple(packed.frames), packed.truncated, packed.dropped if packed.truncated else None)

    def explain(self, q: m.ContextQuery) -> dict[str, ranking.Why]:
        """Frame id -> what made its score (`repo-graph query --explain`): the same
        ranking `query` packs, with each candidate's signals and factors."""
        self._wait_ready()
        with self._store_errors(), self.index.priority.answering():
            ranked = self._ranked(self.index, q, explain=True)
        return {c.node.id: c.why for c in (ranked[0] if ranked else ()) if c.why is not None}

    def _ranked(self, index: RepoIndex, q: m.ContextQuery, *, explain: bool = False):
        """(candidates, the kinds wanted, the anchors' node ids, a file-state lookup), or
        None when only kinds never served were asked for (Q1)."""
        wanted = {NODE_KIND[k] for k in q.kinds if k in NODE_KIND} if q.kinds else set(NODE_KIND.values())
        if not wanted:
            return None
        index.recheck_recent()  # files read as they were being written
        resolved = [anchors_mod.resolve(index, a) for a in q.anchors]
        for r in resolved:
            for node_id in r.node_ids:
                index.ensure_fresh(index.split_id(node_id)[0])  # anchored files are checked against disk now
        seeds = {node_id for r in resolved for node_id in r.node_ids}
        states = {}

        def state(path):
            if path not in states:
                states[path] = index.store.file_state(path)
            return states[path]

        def keep(node) -> bool:
            if node.kind not in wanted:
                return False
            if q.as_of is not None:
                st = state(node.path)
                if st is None or st.valid_from > q.as_of:
                    return False  # not yet true at the pinned instant
            return True

        text = " ".join(t for t in (q.goal, q.query_text or "") if t)
        with index.store.snapshot():  # one committed state, however the indexer writes meanwhile
            candidates = ranking.rank(index, text, seeds, keep=keep, weights=self.weights, explain=explain)
        return candidates, wanted, frozenset(seeds), state

    def _query(self, index: RepoIndex, q: m.ContextQuery) -> m.QueryResult:
        ranked = self._ranked(index, q)
        if ranked is None:
            return m.QueryResult((), False)  # Q1: only kinds we never serve were asked for
        candidates, wanted, prefer, state = ranked

        packed = self._pack(
            index, [(c.node, c.score) for c in candidates], wanted, prefer, q.max_tokens, q.max_frames, state
        )
        return m.QueryResult(tuple(packed.frames), packed.truncated, packed.dropped if packed.truncated else None)

    def _pack(
        self,
        index: RepoIndex,
        scored,
        wanted: set[str],
        prefer: frozenset[str],
        max_tokens: int,
        max_frames: int,
        state=None,
    ) -> Packed:
        """Build and pack frames for (node, score) pairs in rank order; each file is
        checked against disk as its frame is built. `state(path)`: the file's stamps."""
        state = state or index.store.file_state
        self._count_ahead(index, scored, max_tokens, max_frames)

        def builder(ranked: NodeRow, score: float):
            def build():
                if not index.ensure_fresh(ranked.path):
                    return None
                node = index.store.node(ranked.id)
                if node is None or node.kind not in wanted:
                    return None
                st = state(node.path)
                stamps = (st.indexed_at, st.valid_from) if st else (None, None)
                frame = frames_mod.build(index, node, score, self.tokenizer, prefer, *stamps)
                if frame is None:
                    return None

                def header():
                    small = frames_mod.build_header(index, node, score, self.tokenizer, prefer, *stamps)
                    return None if small is None else Placed(small, node.path, node.start_line, node.end_line)

                return Placed(frame, node.path, node.start_line, node.end_line, header)

            return build

        return pack(
            ((node.path, builder(node, score)) for node, score in scored),
            len(scored),
            max_tokens,
            max_frames,
            files=len({node.path for node, _ in scored}),
        )

    def _count_ahead(self, index: RepoIndex, scored, max_tokens: int, max_frames: int) -> None:
        """Token counts of the bodies packing will most likely build (rank order, until
        max_frames or, at B3's estimate, max_tokens), in one exchange with the
        tokenizer's helper rather than one per frame."""
        ahead: list[tuple[str, str]] = []
        estimate = 0
        for node, _ in scored:
            if len(ahead) >= max_frames or estimate >= max_tokens:
                break
            read = frames_mod.body(index, node)
            if read is not None:
                ahead.append(read[1:])
                estimate += token_cost(read[1])
        self.tokenizer.count_ahead(ahead)

    def verify(self, identities) -> list[m.Verdict]:
        self._wait_open()  # verdicts come from disk: no need to wait for a first index
        with self._store_errors(), self.index.priority.answering():
            return verify.verdicts(self.index, identities)


def _cause(exc: BaseException, index) -> str:
    """One line a person can act on: what failed and which file it concerns."""
    if isinstance(exc, sqlite3.Error):
        return f"{exc} (index cache {index.store.path})"
    return f"{type(exc).__name__}: {exc}"
