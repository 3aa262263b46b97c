"""The closeness signal (G3): how near a node is to the anchors, by hops through the
graph, by being in an open file or a related one, and by how much of the anchors'
personalized PageRank reaches it. In [0, 1]."""

from __future__ import annotations

from dataclasses import dataclass

from .reads import IndexReads
from .weights import Weights


@dataclass(frozen=True)
class Closeness:
    hops: dict[str, int]  # node id -> hops from the nearest anchor (up to 2)
    anchor_files: set[str]
    related: dict[str, float]  # path -> its relation to the anchors
    spread: dict[str, float]  # node id -> the anchors' PageRank reaching it, the best 1
    w: Weights

    def of(self, node_id: str, path: str) -> float:
        """The nearest of the ways a node can be close: [closeness], [anchor-pagerank]."""
        w = self.w
        hop = self.hops.get(node_id)
        by_hop = w.proximity_by_hop.get(hop, 0.0) if hop is not None else 0.0
        inside = w.in_anchored_file if path in self.anchor_files else 0.0
        return max(
            by_hop,
            inside,
            w.related_file_share * self.related.get(path, 0.0),
            w.ppr_share * self.spread.get(node_id, 0.0),
        )

    def parts(self, node_id: str, path: str) -> dict[str, float]:
        """The ways, by name, those that count only (for explain)."""
        w = self.w
        hop = self.hops.get(node_id)
        found = {
            "by hops": w.proximity_by_hop.get(hop, 0.0) if hop is not None else 0.0,
            "in an open file": w.in_anchored_file if path in self.anchor_files else 0.0,
            "related file": w.related_file_share * self.related.get(path, 0.0),
            "anchors' pagerank": w.ppr_share * self.spread.get(node_id, 0.0),
        }
        return {k: v for k, v in found.items() if v}


def anchor_walk(
    reads: IndexReads, seeds: set[str], matched: dict[int, tuple[float, str]], hops: dict[str, int], w: Weights
) -> dict[str, float]:
    """[anchor-pagerank] Personalized PageRank from the anchors (and, more weakly, the
    best matches) over their nearest nodes: how much of the anchors' attention
    reaches a node."""
    best_matches = sorted(matched.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))[: w.ppr_lexical_seeds]
    ids = reads.ids_of_rowids([r for r, _ in best_matches])
    personal = {s: 1.0 for s in seeds}
    for rowid, (score, _) in best_matches:
        if rowid in ids:
            personal.setdefault(ids[rowid], w.ppr_lexical_weight * score)
    nearest = dict(sorted(hops.items(), key=lambda kv: (kv[1], kv[0]))[: w.ppr_max_nodes])
    return reads.neighbourhood(personal, nearest)
