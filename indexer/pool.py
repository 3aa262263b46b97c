"""Parsing across processes. Work is cut into tasks by bytes, not by file count, a
bounded number of tasks is in flight (memory stays proportional to the task size,
never to the repository), and results stream back as tasks finish.

Any `concurrent.futures`-style executor works: our process pool by default, or a
Dask `distributed` client's executor to go past one machine (docs/scale-out.md).
"""

from __future__ import annotations

import gc
import os
import queue
import signal
import sys
import threading
import time

from grammars import Registry

from .boundary import read_regular
from .digest import sha256
from .extract import Extractor
from .parse import FileRecord, parse
from .walk import WalkedFile

TASK_BYTES = 1 << 20  # ~1 MiB of source per task: big enough to amortise, small enough to balance
PARENT_POLL_SECONDS = 0.5  # how soon a worker notices its parent is gone
# Parsers run below the writer's priority: where the writer bounds the pass (a first
# index answering meanwhile), cores shared three ways left it behind and the parsers
# waiting for room; and a host's answers come before parsing [parsers-niced].
WORKER_NICENESS = 10
SAME = "same"  # the bytes hash to the digest already indexed: nothing to parse

_local = threading.local()  # one registry and parser set per worker thread (tree-sitter parsers are not shared)
_collect_per_task = False  # set in our parsing processes: see worker_init


def worker_init(parent: int) -> None:
    """Run first in each parsing process. A task allocates hundreds of thousands of
    small objects (nodes, terms, uses) that all live until it returns, so the cyclic
    collector's passes meanwhile find nothing to free: off, with one young-generation
    pass after each task instead (measured: 3-5% of a worker's time, the most on
    macro-heavy C headers). Ctrl-C is the parent's to handle, and a worker ends with
    its parent, however the parent ends (shutdown, SIGTERM, SIGKILL)."""
    global _collect_per_task
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    gc.disable()
    _collect_per_task = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def end_with_parent():  # `parent` comes from the parent: it may be gone before this runs
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(0)  # orphaned: nobody will read what this worker would send

    threading.Thread(target=end_with_parent, name="repo-graph-orphan-check", daemon=True).start()


# Held while a pool's workers start: a process that exits meanwhile (a host's
# shutdown) waits for it, so no worker is left reading its start-up data half written.
STARTING = threading.Lock()


def start(jobs: int, *, fork: bool):
    """A process pool of `jobs` workers, every one of them started before this returns."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, wait

    with STARTING:
        if not fork:
            quiet_tracker()
        executor = ProcessPoolExecutor(
            jobs,
            mp_context=multiprocessing.get_context("fork" if fork else "spawn"),
            initializer=worker_init,
            initargs=(os.getpid(),),
        )
        # fork starts them all at the first task; spawn one per task no idle worker takes.
        wait([executor.submit(int) for _ in range(1 if fork else jobs)])
    return executor


_TRACKER_LEAK_WARNING = "ignore::UserWarning:multiprocessing.resource_tracker"


def quiet_tracker() -> None:
    """A spawned pool starts multiprocessing's resource tracker, which warns at its
    exit of the pool's semaphores when we stopped without closing the pool (SIGTERM,
    a host's shutdown): nothing leaks (the kernel frees them with us), so the warning
    is noise on a host's stderr. The tracker takes its -W options from ours."""
    if _TRACKER_LEAK_WARNING not in sys.warnoptions:
        sys.warnoptions.append(_TRACKER_LEAK_WARNING)


def _tools() -> tuple[Registry, Extractor]:
    if not hasattr(_local, "tools"):
        _local.tools = (Registry(), Extractor())
    return _local.tools


def parse_task(root: str, items: list[tuple[WalkedFile, str | None]], max_file_bytes: int, tools=None):
    """Read, hash and (when the bytes changed) parse each file of one task.
    Returns [(walked, FileRecord | SAME | None)]; None means unreadable now."""
    registry, extractor = tools or _tools()
    out = []
    for walked, old_digest in items:
        try:
            data = read_regular(os.path.join(root, walked.path), max_file_bytes + 1)
        except OSError:  # gone, unreadable, or no longer a regular file (a FIFO swapped in)
            out.append((walked, None))
            continue
        digest = sha256(data)
        if old_digest is not None and digest == old_digest:
            out.append((walked, SAME))
            continue
        try:
            out.append((walked, parse(walked.path, data, registry, extractor, digest)))
        except Exception as exc:  # one bad file must not sink the batch: keep it, say why
            out.append(
                (
                    walked,
                    FileRecord(
                        walked.path, digest, None, "error", warnings=[f"not indexed: {type(exc).__name__}: {exc}"]
                    ),
                )
            )
    if _collect_per_task:
        gc.collect(1)
    return out


def tasks(items: list[tuple[WalkedFile, str | None]], task_bytes: int = TASK_BYTES):
    """Consecutive runs of files of about task_bytes each."""
    batch, size = [], 0
    for item in items:
        batch.append(item)
        size += item[0].size
        if size >= task_bytes:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


BACKLOG_TASKS = 16  # finished tasks waiting for the writer, at most


def run(
    executor,
    root: str,
    items,
    max_file_bytes: int,
    in_flight: int,
    tools=None,
    task_bytes: int = TASK_BYTES,
    backlog: int = BACKLOG_TASKS,
):
    """Yield (walked, result) for every item. Serial in this thread when executor is None.

    A feeder thread keeps `in_flight` tasks running while the caller writes what came
    back, so the workers never wait for the writer's commit; at most `backlog`
    finished tasks wait for the caller, so memory stays bounded by the task size. (A
    first index whose order changes as questions come keeps both small: what is
    queued is what a question waits behind.)"""
    if executor is None:
        for task in tasks(items, task_bytes):
            yield from parse_task(root, task, max_file_bytes, tools)
        return
    running = threading.Semaphore(in_flight)
    unread = threading.Semaphore(in_flight + backlog)
    done: queue.Queue = queue.Queue()
    stop = threading.Event()

    def finished(future):
        running.release()
        done.put(future)

    def feed():
        submitted = 0
        try:
            for task in tasks(items, task_bytes):
                unread.acquire()
                running.acquire()
                if stop.is_set():
                    break
                executor.submit(parse_task, root, task, max_file_bytes).add_done_callback(finished)
                submitted += 1
        except BaseException as exc:  # a broken executor: the caller hears of it
            done.put(exc)
        done.put(("submitted", submitted))

    feeder = threading.Thread(target=feed, name="repo-graph-feed", daemon=True)
    feeder.start()
    received, expected = 0, None
    try:
        while expected is None or received < expected:
            got = done.get()
            if isinstance(got, tuple):
                expected = got[1]
                continue
            if isinstance(got, BaseException):
                raise got
            received += 1
            unread.release()
            yield from got.result()
    finally:
        stop.set()
        unread.release()  # a feeder waiting for room wakes, sees stop, and ends
        running.release()
        feeder.join()


__all__ = ["run", "parse_task", "tasks", "SAME", "FileRecord"]
