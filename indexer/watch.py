"""Keep an index in step with the tree while a host is connected.

The watchdog handler only queues paths; our own thread does the work (watchdog
issues #793, #427: an exception in a handler kills the observer). Events are
debounced until the tree is quiet, coalesced per path, and applied as one batch;
a burst (a branch switch) becomes one incremental refresh. When the OS refuses
more watches, we say so on stderr and rescan periodically instead.
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import time
from pathlib import Path

from .boundary import utf8
from .walk import ALWAYS_SKIPPED

DEBOUNCE_SECONDS = 0.15  # quiet time before a batch is applied
MAX_WAIT_SECONDS = 1.0  # a steady trickle of events still gets applied this often
# Past this many paths in one batch, an incremental refresh: it parses in the process
# pool, commits every few dozen files and gives way to queries, where an update parses
# in this process holding the store's lock (a query's freshness check waited 12 s
# behind a 400-path update in a burst).
BURST_PATHS = 64
RESCAN_SECONDS = 30.0  # the fallback when the OS watch limit is reached
MAX_RETRIES = 3  # a path whose update keeps failing is left to the next query or rescan


def _default_observer():
    from watchdog.observers import Observer

    return Observer()


class Watcher:
    def __init__(self, index, *, observer_factory=_default_observer, rescan_seconds: float = RESCAN_SECONDS):
        self.index = index
        self.root = str(index.root)
        self._own_files = str(index.store.path.parent) + os.sep  # a cache dir inside the tree must not feed back
        self._observer_factory = observer_factory
        self._rescan_seconds = rescan_seconds
        self._pending: set[str] = set()
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._observer = None
        self.mode = "stopped"  # "events" | "rescan" | "stopped"
        self._failures: dict[str, int] = {}  # path -> updates that failed in a row
        self._said_not_utf8: set[str] = set()
        self.batches = 0

    # -- the handler side: queue only ------------------------------------------
    def _queue(self, *abs_paths: str) -> None:
        rels = []
        for p in abs_paths:
            if not p or not p.startswith(self.root) or p.startswith(self._own_files):
                continue
            rel = p[len(self.root) :].strip(os.sep).replace(os.sep, "/")
            if not rel or any(part in ALWAYS_SKIPPED for part in rel.split("/")):
                continue  # .git churn costs nothing
            if not rel.isascii() and not utf8(rel):
                self._skip_not_utf8(rel)
                continue
            rels.append(rel)
        if rels:
            with self._cond:
                self._pending.update(rels)
                self._cond.notify()

    def _skip_not_utf8(self, rel: str) -> None:
        shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        if shown not in self._said_not_utf8:
            self._said_not_utf8.add(shown)
            sys.stderr.write(f"repo-graph: warning: skipped {shown}: its name is not UTF-8 (no id or URI can carry it)\n")

    def dispatch(self, event) -> None:
        """watchdog's entry point (we are our own handler)."""
        if event.event_type in ("opened", "closed_no_write"):
            return
        self._queue(os.fsdecode(event.src_path), os.fsdecode(getattr(event, "dest_path", "") or ""))

    # -- lifecycle ----------------------------------------------------------------
    def start(self) -> "Watcher":
        try:
            observer = self._observer_factory()
            observer.schedule(self, self.root, recursive=True)
            observer.start()
            self._observer = observer
            self.mode = "events"
        except OSError as exc:
            limit = _watch_limit()
            why = "the inotify watch limit is reached" if exc.errno in (errno.ENOSPC, errno.EMFILE) else str(exc)
            sys.stderr.write(
                f"repo-graph: warning: cannot watch {self.root}: {why}"
                + (f" (fs.inotify.max_user_watches = {limit})" if limit else "")
                + f"; rescanning every {self._rescan_seconds:g} s instead. Raise the limit with "
                "`sysctl fs.inotify.max_user_watches=524288` to get live updates.\n"
            )
            self.mode = "rescan"
        threading.Thread(target=self._run, name="watcher", daemon=True).start()
        return self

    def pending(self) -> int:
        """Changed paths queued and not yet applied (a host asks how current answers are)."""
        with self._cond:
            return len(self._pending)

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify()
        if self._observer is not None:
            self._observer.stop()

    # -- the worker side ------------------------------------------------------------
    def _take_batch(self) -> set[str]:
        with self._cond:
            while not self._pending and not self._stop.is_set():
                if self.mode == "rescan":
                    self._cond.wait(self._rescan_seconds)
                    if not self._pending:
                        return {""}  # the whole tree
                else:
                    self._cond.wait()
            first = time.monotonic()
            while not self._stop.is_set():
                size = len(self._pending)
                self._cond.wait(DEBOUNCE_SECONDS)
                if len(self._pending) == size or time.monotonic() - first > MAX_WAIT_SECONDS:
                    break
            batch, self._pending = self._pending, set()
            return batch

    def _run(self) -> None:
        self.index.ready.wait()  # events queue up meanwhile; the first index sees the rest
        while not self._stop.is_set():
            batch = self._take_batch()
            if not batch or self._stop.is_set():
                continue
            self.index.priority.give_way()
            try:
                self._apply(batch)
                self.batches += 1
            except Exception as exc:  # keep watching; the next batch or query repairs it
                if self.index.recover(exc):
                    self._retry_later({""})  # the damaged cache was set aside: index the whole tree again
                    continue
                retry = {p for p in batch if p and self._failures.get(p, 0) < MAX_RETRIES}
                for p in batch:
                    self._failures[p] = self._failures.get(p, 0) + 1
                dropped = len(batch) - len(retry)
                sys.stderr.write(f"repo-graph: warning: update failed ({exc!r}); "
                                 + (f"will retry {len(retry)} path(s)" if retry else "")
                                 + (f"{'; ' if retry else ''}left {dropped} path(s) to the next query or rescan"
                                    if dropped else "") + "\n")
                self._retry_later(retry)

    def _apply(self, batch: set[str]) -> None:
        if "" in batch or len(batch) > BURST_PATHS or any(p.endswith(".gitignore") for p in batch):
            self.index.refresh_recovering(count=False)
        else:
            self.index.update(batch)
            self.index.update_history()
        for p in batch:
            self._failures.pop(p, None)

    def _retry_later(self, paths: set[str]) -> None:
        """Queue again after a pause. A path that keeps failing is retried MAX_RETRIES
        times, then left to a query's own disk check: it never stalls the others."""
        if not paths:
            return
        time.sleep(1.0)
        with self._cond:
            self._pending.update(paths)


def _watch_limit() -> str:
    try:
        return Path("/proc/sys/fs/inotify/max_user_watches").read_text().strip()
    except OSError:
        return ""
