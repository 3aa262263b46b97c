"""What a host may ask of the index itself: how far the first index (or a catch-up)
has come, how many files and of which languages it holds, when it was last
refreshed, whether the watcher is live and what it still has queued. Read-only;
knows nothing of the wire."""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field

OPENING, BUILDING, READY, FAILED = "opening", "building", "ready", "failed"


class Progress:
    """The indexer's progress callback (`RepoIndex.refresh(progress=...)`): files done
    of files to parse in the pass under way. Written by the indexer's thread, read by
    an answer's, so one lock keeps the pair consistent."""

    def __init__(self):
        self._lock = threading.Lock()
        self._done = 0
        self._total = 0
        self._bytes = (0, 0)
        self._since = time.monotonic()  # when the pass under way parsed its first file
        self.partial_answers = 0  # answers given from a first index under way

    def __call__(self, done_bytes: int, total_bytes: int, done_files: int, total_files: int) -> None:
        with self._lock:
            if done_files <= 1:
                self._since = time.monotonic()
            self._done, self._total = done_files, total_files
            self._bytes = (done_bytes, total_bytes)

    def answered_partially(self) -> int:
        """Count an answer given from a first index under way; returns how many so far."""
        with self._lock:
            self.partial_answers += 1
            return self.partial_answers

    def seconds_left(self) -> float | None:
        """How long parsing the rest of the pass under way should take at the pace so
        far, or None before anything is parsed."""
        with self._lock:
            done, total = self._bytes
            if not done:
                return None
            return (time.monotonic() - self._since) * (total - done) / done

    def files(self) -> tuple[int, int]:
        """(parsed, to parse) in the pass under way or the last one."""
        with self._lock:
            return self._done, self._total


@dataclass(frozen=True)
class IndexStatus:
    root: str
    state: str  # opening | building | ready | failed
    files: int = 0  # indexed (parsed, code or docs)
    languages: dict[str, int] = field(default_factory=dict)
    parsed: int = 0  # of the pass under way: files parsed so far ...
    to_parse: int = 0  # ... of this many
    last_refresh: str | None = None  # when the last whole pass over the tree ended (UTC)
    watcher: str = "off"  # events | rescan | starting | off
    watcher_batches: int = 0  # batches of changes applied since the server started
    pending: int = 0  # changed paths the watcher has queued and not yet applied
    error: str | None = None
    partial_answers: int = 0  # answers given from the first index while it was being built

    @property
    def ready(self) -> bool:
        return self.state == READY

    def progress_line(self) -> str:
        """One sentence on how far a first index is, for an answer given meanwhile."""
        if self.state == OPENING:
            return "The index of this repository is being opened; nothing is indexed yet."
        if self.state == FAILED and self.root:  # opened (it has a root), then a pass stopped
            return (
                f"The first index stopped before its end ({self.error}): answers cover the {self.files:,} files "
                "indexed before it did; the provider's next start indexes the rest."
            )
        if self.state == FAILED:
            return f"The index could not be opened: {self.error}"
        if self.state == BUILDING:
            return (
                f"The first index of this repository is still being built ({self.how_far()}; {self.files:,} "
                f"files indexed so far): answers cover what is indexed and improve as it fills; "
                f"{self.partial_answers} partial answer(s) given so far."
            )
        return ""

    def how_far(self) -> str:
        return f"{self.parsed:,} of {self.to_parse:,} files parsed" if self.to_parse else "walking the tree"

    def to_json(self) -> dict:
        return {
            "root": self.root,
            "state": self.state,
            "files": self.files,
            "languages": dict(self.languages),
            "parsed": self.parsed,
            "to_parse": self.to_parse,
            "last_refresh": self.last_refresh,
            "watcher": self.watcher,
            "watcher_batches": self.watcher_batches,
            "pending": self.pending,
            "error": self.error,
            "partial_answers": self.partial_answers,
        }


def status(provider, *, languages: bool = True) -> IndexStatus:
    """The provider's index as it stands now; never waits for the indexer's writes
    (reads go to the last committed state), only for a swap of its file, a moment.
    `languages=False` skips the per-language count, a scan of the file table, for a
    quick look inside another answer."""
    index = provider.index
    parsed, to_parse = provider.progress.files()
    root = str(index.root) if index is not None else ""
    if index is None:
        state = FAILED if provider.open_error else OPENING
        return IndexStatus(root, state, parsed=parsed, to_parse=to_parse, error=provider.open_error)
    with index.priority.answering():  # not while a swap closes the connections under it
        store = index.store
        indexed = store.indexed_files() if languages else None
        langs = Counter(lang for lang in indexed.values() if lang) if indexed is not None else Counter()
        watcher = provider.watcher
        # A pass that stopped before the index was whole (a full disk) leaves one that answers
        # from part of the tree: not `ready`, and the error says why.
        stopped = provider.index_error is not None and store.get_meta("complete") != "1"
        return IndexStatus(
            root=root,
            state=FAILED if stopped else READY if index.ready.is_set() else BUILDING,
            files=len(indexed) if indexed is not None else store.file_count(),
            languages=dict(langs.most_common()),
            parsed=parsed,
            to_parse=to_parse,
            last_refresh=store.get_meta("indexed_at"),
            watcher=(
                watcher.mode
                if watcher is not None and watcher.mode != "stopped"
                else "starting"
                if provider.watching
                else "off"
            ),
            watcher_batches=watcher.batches if watcher is not None else 0,
            pending=watcher.pending() if watcher is not None else 0,
            error=provider.index_error,
            partial_answers=provider.progress.partial_answers,
        )
