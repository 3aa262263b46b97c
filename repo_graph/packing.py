"""The one budget rule. `token_cost` is the protocol's unit (B3); `charge` is what a
frame costs against the budget: the larger of that and its real tokenizer count
(DESIGN.md decision 2, counted by tokenizer.py); `pack` fills the budget greedily in
rank order (B1, B4). No other module divides by 4 or decides what fits."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable


def token_cost(content: str) -> int:
    """B3: token_cost is ceil(utf8 bytes / 4), exactly."""
    return (len(content.encode("utf-8")) + 3) // 4


def charge(frame) -> int:
    """What a frame costs against max_tokens: max(B3 unit, real tokens)."""
    return max(frame.token_cost, frame.canonical_token_cost or 0)


# A frame that would take more than this share of the budget is sent as its header
# (signature, docstring, member heads) when it has one [big-frame].
BIG_FRAME_SHARE = 0.5
# No file takes more than this share of the budget, in tokens or in frames, while
# frames from other files still fit; what it was refused is offered again once the
# others are placed [file-share].
FILE_SHARE = 0.5


@dataclass(frozen=True)
class Placed:
    """A built frame and where its lines sit, so nested duplicates can be refused."""

    frame: object
    path: str
    first: int
    last: int
    header: Callable[[], "Placed | None"] | None = None  # the smaller stand-in, if any


@dataclass(frozen=True)
class Packed:
    frames: list
    truncated: bool
    dropped: int


def pack(
    candidates: Iterable[tuple[str, Callable[[], Placed | None]]],
    total: int,
    max_tokens: int,
    max_frames: int,
    files: int = 2,
) -> Packed:
    """Greedy by rank: take each candidate that fits what is left of both budgets
    (B1 in the protocol's unit and in real tokens, B4), a header instead of a body
    too big for the budget, never a frame nested in (or around) one already taken
    from the same file, and no more than FILE_SHARE of either budget for one file
    while others compete. A candidate is its file's path and how to build its frame,
    so a file over its share of frames is passed over unbuilt. `total` is the
    candidate count, for `dropped`; `files` how many distinct files the candidates
    come from (one: nothing to share with)."""
    chosen: list[tuple[int, Placed]] = []
    deferred: list[tuple[int, Callable[[], Placed | None] | Placed]] = []
    spent = 0
    tokens_of: dict[str, int] = {}
    frames_of: dict[str, int] = {}
    share = files > 1
    frame_share = math.ceil(FILE_SHARE * max_frames)  # of 3 frames, 2

    def overlaps(placed: Placed) -> bool:
        return any(p.path == placed.path and p.first <= placed.last and placed.first <= p.last for _, p in chosen)

    def fitted(placed: Placed) -> tuple[Placed, int] | None:
        """The frame, or its header when the body is too big; None when neither fits."""
        cost = charge(placed.frame)
        if (spent + cost > max_tokens or cost > BIG_FRAME_SHARE * max_tokens) and placed.header is not None:
            header = placed.header()
            if header is not None and charge(header.frame) < cost:
                placed, cost = header, charge(header.frame)
        return None if spent + cost > max_tokens else (placed, cost)

    def take(rank: int, placed: Placed, cost: int) -> None:
        nonlocal spent
        chosen.append((rank, placed))
        spent += cost
        tokens_of[placed.path] = tokens_of.get(placed.path, 0) + cost
        frames_of[placed.path] = frames_of.get(placed.path, 0) + 1

    for rank, (path, build) in enumerate(candidates):
        if len(chosen) >= max_frames or spent >= max_tokens:
            break
        if share and frames_of.get(path, 0) + 1 > frame_share:
            deferred.append((rank, build))
            continue
        placed = build()
        if placed is None:
            total -= 1  # vanished from disk since it was ranked
            continue
        if overlaps(placed):
            total -= 1  # nested in, or containing, a frame already taken: not a loss
            continue
        fit = fitted(placed)
        if fit is None:
            continue
        if share and tokens_of.get(placed.path, 0) + fit[1] > FILE_SHARE * max_tokens:
            deferred.append((rank, fit[0]))
            continue
        take(rank, *fit)
    for rank, waiting in deferred:  # no other file wanted the room: give it back, in rank order
        if len(chosen) >= max_frames or spent >= max_tokens:
            break
        placed = waiting if isinstance(waiting, Placed) else waiting()
        if placed is None or overlaps(placed):
            total -= 1  # as above: gone, or nested in a frame taken meanwhile
            continue
        fit = fitted(placed)
        if fit is not None:
            take(rank, *fit)
    chosen.sort(key=lambda rp: rp[0])  # rank order, so anchored frames stay first (G4)
    dropped = max(0, total - len(chosen))
    return Packed([p.frame for _, p in chosen], dropped > 0, dropped)


def largest_prefix(n: int, cost: Callable[[int], int], budget: int) -> int:
    """How many leading items of `n` to send when what costs is the whole they make
    once rendered together (a tool result: frames, their structured copy, a footer
    counting them), never any one part: the most `k` with cost(k) within `budget`, 0
    when not even one fits. Binary search, as adding an item never makes the whole
    cheaper; every `k` returned was itself measured to fit."""
    lo, hi = 0, n  # cost(lo) is taken to fit: the caller's footer alone must
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if cost(mid) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo
