"""The one scoring function (F1): signals in [0, 1] to a score in [0, 1]. The
PageRank prior is not one of them: it lost recall at every weight tried [prior]."""

from __future__ import annotations

from .weights import Weights


def fuse(match, close, w: Weights):
    """Closeness multiplies the match (G3): a node near the anchors that also matches
    the question is what the developer needs next; closeness alone is a nudge.
    Scalars or numpy arrays."""
    top = w.w_lexical * (1 + w.w_closeness_boost) + w.w_proximity
    return (w.w_lexical * match * (1 + w.w_closeness_boost * close) + w.w_proximity * close) / top
