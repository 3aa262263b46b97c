"""The ranking as a pipeline: gather the signals (lexical, mentions, relatedness,
closeness), choose the candidates and adjust their match, fuse (F1), place in tiers
(G4), order. `rank` runs it, twice when anchored (the hedge's plain order)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from . import adjustments, tiers
from .candidate import Candidate
from .closeness import Closeness, anchor_walk
from .explain import Trace
from .fusion import fuse
from .lexical import Matched, Matches, lexical, matches, whole_files
from .mention import mentioned
from .reads import Index, IndexReads
from .related import related_files, with_scope
from .scope import scoped_files
from .weights import DEFAULT, Weights

if TYPE_CHECKING:
    from indexer.graph import NodeRow

Keep = Callable[["NodeRow"], bool]


def rank(
    index: Index,
    text: str,
    seeds: set[str],
    *,
    keep: Keep = lambda node: True,
    weights: Weights = DEFAULT,
    explain: bool = False,
) -> list[Candidate]:
    """Candidates best first. With anchors, every node within one hop of one ranks
    above every node that is not (G4); inside the upper tier the fused score decides,
    inside the lower one the fused score hedged by the order the question gets
    without anchors and by the anchors' related files (tiers.hedged). With `explain`,
    each candidate carries its `why`: signals, factors, tier."""
    reads, w = index.graph, weights
    trace = Trace() if explain else None
    anchor_files = {s.partition("#")[0] for s in seeds}
    related = related_files(reads, anchor_files, w=w) if seeds else {}
    found = matches(reads, text, w=w)
    out = _ranked(reads, text, seeds, related, keep, found, w, trace)
    if seeds and out and (w.w_hedge_plain or w.w_hedge_related):
        plain = _ranked(reads, text, set(), {}, keep, found, w, None) if w.w_hedge_plain else []
        out = tiers.hedged(out, plain, related, anchor_files, w, trace)
    if trace is not None:
        out = [replace(c, why=trace.why(c.node, *trace.scored[c.node.id])) for c in out]
    return out


@dataclass(frozen=True)
class _Ask:
    """What one ranking is asked, and how to read and weigh it."""

    reads: IndexReads
    text: str
    seeds: set[str]
    w: Weights
    trace: Trace | None


@dataclass(frozen=True)
class _Query(_Ask):
    """One ranking's signals, once gathered."""

    asked: bool  # a question, not a change to make (adjustments.asks_how)
    anchor_files: frozenset[str]
    matched: Matched
    neighbours: dict[str, float]  # files related to the anchors, before the scope
    close: Closeness


def _ranked(
    reads: IndexReads,
    text: str,
    seeds: set[str],
    related: dict[str, float],
    keep: Keep,
    found: Matches,
    w: Weights,
    trace: Trace | None,
) -> list[Candidate]:
    """`rank` before the hedge: `related`, the anchors' related files (none without);
    `found`, the question's BM25."""
    ask = _Ask(reads, text, seeds, w, trace)
    anchor_files = frozenset(s.partition("#")[0] for s in seeds)
    hops = reads.hops(seeds, max_hops=2, hub_links=w.hub_links) if seeds else {}
    neighbours = related
    matched, related = _signals(ask, related, found)
    spread = anchor_walk(reads, seeds, matched, hops, w) if seeds else {}
    q = _Query(
        reads,
        text,
        seeds,
        w,
        trace,
        adjustments.asks_how(text),
        anchor_files,
        matched,
        neighbours,
        Closeness(hops, set(anchor_files), related, spread, w),
    )
    by_id, lex = _candidates(q, related)
    _widen(q, by_id, hops)
    return _ordered(q, _scored(q, by_id, lex, keep), lex, found)


def _signals(ask: _Ask, related: dict[str, float], found: Matches) -> tuple[Matched, dict[str, float]]:
    """(the lexical match with the mentions leading it; the related files with the
    scope's files)."""
    reads, w, trace = ask.reads, ask.w, ask.trace
    scope = scoped_files(reads, ask.text, w.scope_max_files, w.max_scopes) if w.scope_weight else {}
    related = with_scope(related, scope, w)
    matched = lexical(reads, ask.text, related, found=found, w=w, trace=trace)
    named = mentioned(reads, ask.text, w=w) if w.mention_match else {}
    if named:
        matched = {rowid: (w.mention_lead * match, path) for rowid, (match, path) in matched.items()}
        matched.update(named)
        if trace is not None:
            for rowid in matched:
                if rowid in named:
                    trace.note_rowid(rowid, "named in the question")
                else:
                    trace.factor(rowid, "a mention leads", w.mention_lead)
    return matched, related


def _candidates(q: _Query, related: dict[str, float]) -> tuple[dict[str, NodeRow], dict[str, float]]:
    """The best matches by what the fused score will make of them, with their match
    adjusted (adjustments.py): (id -> node, id -> match)."""
    reads, w, matched = q.reads, q.w, q.matched
    pre = sorted(
        matched.items(),
        key=lambda kv: (-fuse(kv[1][0], w.related_file_share * related.get(kv[1][1], 0.0), w), kv[1][1], kv[0]),
    )[: w.max_candidates]  # ties by path, then by place in the file: the same however the index was built
    pre_nodes = reads.nodes_by_rowid(r for r, _ in pre)
    lex = {node.id: matched[rowid][0] for rowid, node in pre_nodes.items()}
    if q.trace is not None:
        q.trace.rowid_of.update((node.id, rowid) for rowid, node in pre_nodes.items())
    if w.unlinked_doc_factor != 1.0 and not q.asked:
        adjustments.unlinked_docs(reads, lex, w, q.trace)
    doc_factor = w.question_doc_factor if q.asked else w.change_doc_factor
    if doc_factor != 1.0:
        adjustments.docs(pre_nodes, lex, doc_factor, q.asked, q.trace)
    if w.w_recent and not q.seeds and reads.has_history():  # a checkout, not a tarball
        adjustments.recent(reads, pre_nodes, lex, q.asked, w, q.trace)
    return {n.id: n for n in pre_nodes.values()}, lex


def _widen(q: _Query, by_id: dict[str, NodeRow], hops: dict[str, int]) -> None:
    """The anchors' neighbourhood joins the candidates, matched or not: the nodes one
    hop away and the most central of each related file; a question that matches
    nothing gets an overview."""
    reads, w = q.reads, q.w
    near = [node_id for node_id, h in hops.items() if h <= 1 and node_id not in by_id]
    by_id.update(reads.nodes_by_id(near))
    if q.neighbours and q.seeds:
        for node in reads.top_nodes_in_files(list(q.neighbours), w.symbols_per_related_file):
            by_id.setdefault(node.id, node)
    if not q.matched and not q.seeds:
        by_id.update((n.id, n) for n in reads.prior_nodes(w.max_candidates))


def _scored(q: _Query, by_id: dict[str, NodeRow], lex: dict[str, float], keep: Keep) -> list[tuple[Candidate, float]]:
    """Each candidate `keep` allows with its score in its tier (G4) and its fused
    score before the tiers."""
    reads, w, close = q.reads, q.w, q.close
    speaks_for = _speaking_for_anchored_files(reads, q.seeds, by_id) if q.seeds else set()
    scored: list[tuple[Candidate, float]] = []
    for node_id, node in by_id.items():
        if node.kind == "file" or not keep(node):
            continue
        fused = fuse(lex.get(node_id, 0.0), close.of(node_id, node.path), w)
        hop = close.hops.get(node_id)
        if node_id in speaks_for and not tiers.anchored(hop):
            if node.sym_kind == "module" and lex.get(node_id, 0.0) < w.joined_header_match:
                continue  # [joined-header]
            hop = 1  # it carries its file's edge to an anchor among its relations: an anchored frame (G4)
        tiered = tiers.tiered(fused, hop, w) if q.seeds else fused
        scored.append((Candidate(node, round(min(1.0, max(0.0, tiered)), 6), hop), fused))
        if q.trace is not None:
            _record(q, q.trace, node, lex.get(node_id, 0.0), fused, hop, node_id in speaks_for)
    return scored


def _record(q: _Query, trace: Trace, node: NodeRow, match: float, fused: float, hop: int | None, speaks: bool) -> None:
    """explain: the signals and tier of one scored candidate."""
    signals = {
        "match": match,
        "closeness": q.close.of(node.id, node.path),
        **q.close.parts(node.id, node.path),
        "fused": fused,
    }
    tier = ("anchored (G4)" if tiers.anchored(hop) else "below the anchored tier") if q.seeds else "unanchored"
    if speaks and tiers.anchored(hop) and q.close.hops.get(node.id, 9) > 1:
        trace.note(node.id, "speaks for a file joined to an anchor (G4)")
    trace.scored[node.id] = (signals, tier)


def _speaking_for_anchored_files(reads: IndexReads, seeds: set[str], by_id: dict[str, NodeRow]) -> set[str]:
    """Ids of the candidates whose frames speak for a file joined to an anchor (a
    file importing it or imported by it, a doc naming it): their relations show that
    edge, which makes them anchored frames (G4)."""
    joined = reads.files_joined_to(seeds) - {s for s in seeds if "#" not in s}
    near = [n for n in by_id.values() if n.path in joined and n.kind == "symbol"]
    return reads.speaking_for_files(near) if near else set()


def _ordered(
    q: _Query, scored: list[tuple[Candidate, float]], lex: dict[str, float], found: Matches
) -> list[Candidate]:
    """Best first, but the anchored neighbours below the bar (G4), a how-to question's
    guide lifted, a change's test and whole-file matches placed, and no more than a
    glimpse of each open file."""
    if q.seeds and q.matched:
        out = tiers.worth_sending(scored, lex, set(q.anchor_files), q.asked, q.w, q.trace)
    else:
        out = [c for c, _ in scored]
    out.sort(key=lambda c: (-c.score, c.node.id))
    if q.asked and not q.seeds:
        tiers.lift_best_guide(out, lex, q.reads, q.w, q.trace)
    elif not q.seeds:
        if q.w.whole_file_place > 0 and not q.reads.has_history():  # with it, the messages tell files apart
            code = [p for p in dict.fromkeys(c.node.path for c in out) if not q.reads.is_doc(p)]
            tiers.place_best_whole_file(out, whole_files(q.reads, found, code, q.w), q.w, q.trace)
        if q.w.change_test_place > 0:
            tiers.lift_tested_twin(out, q.reads, q.w, q.trace)
    open_files = {s for s in q.seeds if "#" not in s}
    return tiers.cap_open_files(out, open_files, q.w) if open_files else out
