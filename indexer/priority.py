"""Queries before background work. One interpreter runs both, and a catch-up pass
or a burst of saves competing for it would make a host's question wait: while a
query is being answered, the indexer stops at its next pause point (never while
holding the store's lock) until the answer is out or GIVE_WAY_SECONDS pass."""

from __future__ import annotations

import threading
from contextlib import contextmanager

GIVE_WAY_SECONDS = 0.5  # the longest one pause lasts, so back-to-back queries cannot starve the indexer


class Stopped(Exception):
    """Raised at background work's next pause point once stop() was called: the work
    unwinds from a safe place (no lock held, no pool half-fed), what it committed kept."""


class Priority:
    def __init__(self):
        self._stopped = False
        self._lock = threading.Lock()
        self._answering = 0
        self._idle = threading.Event()
        self._idle.set()
        self._local = threading.local()
        self._gate = threading.Lock()

    @contextmanager
    def alone(self):
        """No answer under way meanwhile: answers started wait for the end of this, and
        this waits for those under way (a swap of the database file closes every
        thread's connection, which must not be in use)."""
        with self._gate:
            self._idle.wait()
            yield

    @contextmanager
    def answering(self):
        if getattr(self._local, "depth", 0):  # within this thread's own answer
            with self._lock:
                self._answering += 1
        else:
            with self._gate:  # not while the index is being swapped (alone)
                with self._lock:
                    self._answering += 1
                    self._idle.clear()
        self._local.depth = getattr(self._local, "depth", 0) + 1
        try:
            yield
        finally:
            self._local.depth -= 1
            with self._lock:
                self._answering -= 1
                if not self._answering:
                    self._idle.set()

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        """Ask the work to end at its next pause point (a signal handler may call it)."""
        self._stopped = True

    def give_way(self) -> None:
        """Background work calls this between units of work. A query's own thread
        (which may index an anchored file itself) never waits for itself."""
        if self._stopped:
            raise Stopped("stopped on request")
        if not self._idle.is_set() and not getattr(self._local, "depth", 0):
            self._idle.wait(GIVE_WAY_SECONDS)
