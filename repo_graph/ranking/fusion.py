"""The one scoring function (F1): signals in [0, 1] to a score in [0, 1]."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .weights import Weights

if TYPE_CHECKING:
    from indexer.graph import NodeRow


def fuse(match, close, prior, w: Weights):
    """Closeness multiplies the match (G3): a node near the anchors that also matches
    the question is what the developer needs next; closeness alone is a nudge.
    Scalars or numpy arrays."""
    top = w.w_lexical * (1 + w.w_closeness_boost) + w.w_proximity + w.w_prior
    return (w.w_lexical * match * (1 + w.w_closeness_boost * close) + w.w_proximity * close + w.w_prior * prior) / top


def prior(centrality: float, node: NodeRow, w: Weights) -> float:
    """What much of the repository leans on (PageRank, precomputed), and whether
    someone took the trouble to document it."""
    documented = 1.0 if node.doc or node.kind == "section" else 0.0
    return w.prior_centrality * centrality + w.prior_documented * documented
