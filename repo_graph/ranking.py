"""The one scoring function: BM25 over precomputed postings, hop proximity to
the anchors (G3), and a small structural prior, fused into a score in [0, 1] (F1).
Frames within one hop of an anchor form the upper tier (G4). Knows nothing of the wire."""

from __future__ import annotations

import math
from dataclasses import dataclass

from indexer.store import NodeRow
from indexer.terms import terms

# BM25 constants: the usual ones; code bodies vary in length as much as prose does.
K1 = 1.2
B = 0.75
# Fusion weights (sum to 1).
W_LEXICAL = 0.65  # what the question asks for decides most
W_PROXIMITY = 0.25  # G3: closeness to the files the user has open
W_PRIOR = 0.10  # breaks ties toward documented, well-connected nodes
PROXIMITY_BY_HOP = {0: 1.0, 1: 0.8, 2: 0.35}
MAX_CANDIDATES = 400
MAX_POSTINGS_PER_TERM = 20_000  # a term in that many nodes says little; skip its tail


@dataclass(frozen=True)
class Candidate:
    node: NodeRow
    score: float
    hop: int | None  # hops from the nearest anchor, None when far or unanchored


def _prior(centrality: float, node: NodeRow) -> float:
    """What much of the repository leans on (PageRank, precomputed), and whether
    someone took the trouble to document it."""
    documented = 1.0 if node.doc or node.kind == "section" else 0.0
    return 0.6 * centrality + 0.4 * documented


def lexical(index, text: str) -> dict[int, float]:
    """BM25 over the postings table: node rowid -> raw score."""
    n_docs, avg_len = index.store.corpus_stats()
    if n_docs == 0:
        return {}
    scores: dict[int, float] = {}
    for term in dict.fromkeys(terms(text)):
        rows = index.store.postings_with_length(term, MAX_POSTINGS_PER_TERM)
        if not rows:
            continue
        df = len(rows)
        idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
        for rowid, tf, length in rows:
            norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * (length or 0) / avg_len))
            scores[rowid] = scores.get(rowid, 0.0) + idf * norm
    return scores


def rank(index, text: str, seeds: set[str], *, keep=lambda node: True) -> list[Candidate]:
    """Candidates best first. With anchors, every node within one hop of one ranks
    above every node that is not (G4); inside each tier the fused score decides."""
    raw = lexical(index, text)
    top = sorted(raw.items(), key=lambda kv: -kv[1])[:MAX_CANDIDATES]
    best = top[0][1] if top else 1.0
    lex_by_rowid = {rowid: s / best for rowid, s in top}
    nodes = index.store.nodes_by_rowid(lex_by_rowid)
    lex = {nodes[r].id: s for r, s in lex_by_rowid.items() if r in nodes}
    by_id = {n.id: n for n in nodes.values()}

    hops = index.graph.hops(seeds, max_hops=2) if seeds else {}
    near = [node_id for node_id, h in hops.items() if h <= 1 or node_id in lex]
    missing = [node_id for node_id in near if node_id not in by_id]
    by_id.update(index.store.nodes_by_id(missing))
    if not lex and not seeds:
        by_id.update((n.id, n) for n in index.store.prior_nodes(MAX_CANDIDATES))

    centrality = index.store.priors(by_id)
    out = []
    for node_id, node in by_id.items():
        if node.kind == "file" or not keep(node):
            continue
        hop = hops.get(node_id)
        proximity = PROXIMITY_BY_HOP.get(hop, 0.0) if hop is not None else 0.0
        fused = W_LEXICAL * lex.get(node_id, 0.0) + W_PROXIMITY * proximity + W_PRIOR * _prior(centrality.get(node_id, 0.0), node)
        if seeds:
            # G4: two tiers, both inside [0, 1]: anchored in [0.5, 1], the rest below.
            fused = 0.5 + 0.5 * fused if hop is not None and hop <= 1 else 0.5 * fused
        out.append(Candidate(node, round(min(1.0, max(0.0, fused)), 6), hop))
    out.sort(key=lambda c: (-c.score, c.node.id))
    return out
