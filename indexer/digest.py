"""sha256 digests and line spans over exact bytes (F5, D1: no normalisation)."""

from __future__ import annotations

import hashlib
from itertools import accumulate, repeat
from operator import add

PREFIX = "sha256:"


def sha256(data: bytes) -> str:
    return PREFIX + hashlib.sha256(data).hexdigest()


def line_starts(data: bytes, upto: int | None = None) -> list[int]:
    """Byte offset of the start of each line; a trailing newline opens no extra line.
    Split and accumulate run in C: half the time of a find() loop, on every file.
    With `upto`, only as far as cutting lines 1..upto needs (a frame's span read at
    answer time): the rest of the file is not split."""
    lines = data.split(b"\n") if upto is None else data.split(b"\n", upto)
    starts = [0]
    starts += accumulate(map(add, map(len, lines), repeat(1, len(lines) - 1)))
    if len(starts) > 1 and starts[-1] == len(data):
        starts.pop()
    return starts


def line_span(data: bytes, starts: list[int], first: int, last: int) -> bytes:
    """Lines first..last (1-based, inclusive), each with its own newline, as on disk."""
    begin = starts[first - 1]
    end = starts[last] if last < len(starts) else len(data)
    return data[begin:end]
