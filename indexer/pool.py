"""Parsing across processes. Work is cut into tasks by bytes, not by file count, a
bounded number of tasks is in flight (memory stays proportional to the task size,
never to the repository), and results stream back as tasks finish.

Any `concurrent.futures`-style executor works: our process pool by default, or a
Dask `distributed` client's executor to go past one machine (docs/scale-out.md).
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, wait
from pathlib import Path

from grammars import Registry

from .digest import sha256
from .extract import Extractor
from .parse import FileRecord, parse
from .walk import WalkedFile

TASK_BYTES = 1 << 20  # ~1 MiB of source per task: big enough to amortise, small enough to balance
SAME = "same"  # the bytes hash to the digest already indexed: nothing to parse

_local = threading.local()  # one registry and parser set per worker thread (tree-sitter parsers are not shared)


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
            with open(Path(root) / walked.path, "rb") as fh:
                data = fh.read(max_file_bytes + 1)
        except OSError:
            out.append((walked, None))
            continue
        digest = sha256(data)
        if old_digest is not None and digest == old_digest:
            out.append((walked, SAME))
            continue
        try:
            out.append((walked, parse(walked.path, data, registry, extractor)))
        except Exception as exc:  # one bad file must not sink the batch: keep it, say why
            out.append((walked, FileRecord(walked.path, digest, None, "error",
                                           warnings=[f"not indexed: {type(exc).__name__}: {exc}"])))
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


def run(executor, root: str, items, max_file_bytes: int, in_flight: int, tools=None):
    """Yield (walked, result) for every item. Serial in this thread when executor is None."""
    if executor is None:
        for task in tasks(items):
            yield from parse_task(root, task, max_file_bytes, tools)
        return
    queue = iter(tasks(items))
    running = set()
    for task in queue:
        running.add(executor.submit(parse_task, root, task, max_file_bytes))
        if len(running) >= in_flight:
            break
    while running:
        done, running = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            yield from future.result()
            nxt = next(queue, None)
            if nxt is not None:
                running.add(executor.submit(parse_task, root, nxt, max_file_bytes))


__all__ = ["run", "parse_task", "tasks", "SAME", "FileRecord"]
