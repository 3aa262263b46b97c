"""Ranking: turns the question, the anchors and the index into candidates best first,
each scored in [0, 1] (F1), anchored ones first (G4). A pipeline of signals
(lexical.py, mention.py, related.py, closeness.py, scope.py), adjustments
(adjustments.py) and tiers (tiers.py), run by pipeline.py; every number in one
frozen `Weights` (weights.py). Reads the index only through reads.IndexReads; knows
nothing of the wire. docs/ranking.md walks through it."""

from __future__ import annotations

from . import lexical as _lexical
from . import mention as _mention
from . import related as _related
from .adjustments import asks_how
from .candidate import Candidate, Why
from .fusion import fuse
from .lexical import Matches
from .mention import code_names
from .pipeline import rank
from .reads import Index, IndexReads
from .weights import DEFAULT, Weights

__all__ = [
    "DEFAULT",
    "Candidate",
    "Index",
    "IndexReads",
    "Matches",
    "Weights",
    "Why",
    "asks_how",
    "code_names",
    "fuse",
    "lexical",
    "matches",
    "mentioned",
    "rank",
    "related_files",
    "said_match",
]


# The signals on their own, for tests and benchmarks/headroom.py: the index in, its graph read.
def matches(index: Index, text: str, *, messages: bool = True, weights: Weights = DEFAULT) -> Matches:
    return _lexical.matches(index.graph, text, messages=messages, w=weights)


def lexical(
    index: Index,
    text: str,
    related: dict[str, float] | None = None,
    *,
    messages: bool = True,
    weights: Weights = DEFAULT,
) -> dict[int, tuple[float, str]]:
    return _lexical.lexical(index.graph, text, related, messages=messages, w=weights)


def said_match(index: Index, wanted: list[str], *, weights: Weights = DEFAULT) -> dict[str, float]:
    return _lexical.said_match(index.graph, wanted, w=weights)


def related_files(index: Index, anchor_files: set[str], *, weights: Weights = DEFAULT) -> dict[str, float]:
    return _related.related_files(index.graph, anchor_files, w=weights)


def mentioned(index: Index, text: str, *, weights: Weights = DEFAULT) -> dict[int, tuple[float, str]]:
    return _mention.mentioned(index.graph, text, w=weights)
