"""sha256 digests and line spans over exact bytes (F5, D1: no normalisation)."""

from __future__ import annotations

import hashlib

PREFIX = "sha256:"


def sha256(data: bytes) -> str:
    return PREFIX + hashlib.sha256(data).hexdigest()


def line_starts(data: bytes) -> list[int]:
    """Byte offset of the start of each line; a trailing newline opens no extra line."""
    starts = [0]
    find = data.find
    i = find(b"\n")
    while i != -1:
        starts.append(i + 1)
        i = find(b"\n", i + 1)
    if len(starts) > 1 and starts[-1] == len(data):
        starts.pop()
    return starts


def line_span(data: bytes, starts: list[int], first: int, last: int) -> bytes:
    """Lines first..last (1-based, inclusive), each with its own newline, as on disk."""
    begin = starts[first - 1]
    end = starts[last] if last < len(starts) else len(data)
    return data[begin:end]
