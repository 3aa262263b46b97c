"""The tiers: with anchors, every frame within one hop of one ranks above every frame
that is not (G4); what may enter the upper tier, how the lower one hedges against an
open file that has little to do with the question, and where a how-to question's
guide and a change's test go."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from .candidate import Candidate
from .explain import Trace
from .reads import IndexReads
from .weights import Weights


def anchored(hop: int | None) -> bool:
    """G4: within one hop of an anchor."""
    return hop is not None and hop <= 1


def tiered(fused: float, hop: int | None, w: Weights) -> float:
    """[g4-tiers] G4: two tiers, both inside [0, 1] (F1): anchored in [split, 1], the rest below."""
    return w.tier_split + (1 - w.tier_split) * fused if anchored(hop) else w.tier_split * fused


def answers(c: Candidate, lex: dict[str, float], w: Weights) -> float:
    """How well a candidate matches a question, its doc section's factor
    ([question-doc]) undone: the factor orders the frames, and the bars of what a
    question is sent (its anchored neighbours, its guide) read the match itself."""
    match = lex.get(c.node.id, 0.0)
    return match / w.question_doc_factor if c.node.kind == "section" and w.question_doc_factor else match


def worth_sending(
    scored: list[tuple[Candidate, float]],
    lex: dict[str, float],
    anchor_files: set[str],
    question: bool,
    w: Weights,
    trace: Trace | None = None,
) -> list[Candidate]:
    """[neighbour-bar] The candidates but the anchors' neighbours in other files below
    the bar (a question's: anchored_neighbour_match; a change's: neighbour_bar): G4
    would rank them above better frames. One is kept when no other anchored frame is
    left (G4: at least one, when one exists)."""
    best_outside = max((fused for c, fused in scored if not anchored(c.hop)), default=0.0)
    out: list[Candidate] = []
    unsent: list[Candidate] = []
    for c, fused in scored:
        weak = answers(c, lex, w) < w.anchored_neighbour_match if question else fused < w.neighbour_bar * best_outside
        (unsent if c.hop == 1 and c.node.path not in anchor_files and weak else out).append(c)
    if unsent and not any(anchored(c.hop) for c in out):
        kept = min(unsent, key=lambda c: (-c.score, c.node.id))
        out.append(kept)
        if trace is not None:
            trace.note(kept.node.id, "below the neighbour bar, kept as the one anchored frame (G4)")
    return out


def cap_open_files(out: list[Candidate], open_files: set[str], w: Weights) -> list[Candidate]:
    """[anchor-file-frames] The host has the anchored files open: a glimpse of each
    (the anchors themselves, then w.anchor_file_frames more), then their neighbours."""
    shown: dict[str, int] = defaultdict(int)
    kept = []
    for c in out:
        if c.node.path in open_files and c.hop != 0:
            shown[c.node.path] += 1
            if shown[c.node.path] > w.anchor_file_frames:
                continue
        kept.append(c)
    return kept


def lift_best_guide(
    out: list[Candidate], lex: dict[str, float], reads: IndexReads, w: Weights, trace: Trace | None = None
) -> None:
    """[guide] A how-to question without anchors wants the guide as well as the API:
    move the best-matching guide section (not release notes) up to
    w.question_doc_place, at the score of the frame it then follows, so scores still
    read best first."""
    if not lex:
        return
    floor = w.question_doc_min * max(lex.values())
    guides = [
        i
        for i, c in enumerate(out)
        if c.node.kind == "section" and answers(c, lex, w) >= floor and not reads.is_release_notes(c.node.path)
    ]
    if not guides:
        return
    best = max(guides, key=lambda i: (answers(out[i], lex, w), -i))
    _lift(out, best, w.question_doc_place, "the guide", trace)


def lift_tested_twin(out: list[Candidate], reads: IndexReads, w: Weights, trace: Trace | None = None) -> None:
    """[change-test-twin] A change to the best-matching code file is often made with its
    test (a third of commits edit one): move the best frame of that file's test up to
    w.change_test_place, at the score of the frame it then follows."""
    place = w.change_test_place
    best = next((c for c in out if c.node.kind != "section" and not reads.is_test(c.node.path)), None)
    if best is None:
        return
    twins = {t for t in reads.same_subject(best.node.path, w.min_test_subject)[0] if reads.is_test(t)}
    at = next((i for i, c in enumerate(out) if c.node.path in twins), None)
    if at is not None:
        _lift(out, at, place, "the best file's test", trace)


def place_best_whole_file(out: list[Candidate], whole: list[str], w: Weights, trace: Trace | None = None) -> None:
    """[whole-file] An unanchored change's file at place w.whole_file_place (0-based), in
    an index without history, is the best by whole-file BM25 (`whole`, best first) of
    those not shown above it: its best frame moves up to where that place's file began."""
    first = _first_places(out)
    shown = list(first)
    if len(shown) <= w.whole_file_place:
        return
    above = set(shown[: w.whole_file_place])
    best = next((path for path in whole if path not in above), None)
    if best is not None:
        _lift(out, first[best], first[shown[w.whole_file_place]], "the best whole-file match", trace)


def _first_places(frames: list[Candidate]) -> dict[str, int]:
    """path -> the place of its first frame, files in the order they first show."""
    first: dict[str, int] = {}
    for i, c in enumerate(frames):
        first.setdefault(c.node.path, i)
    return first


def _lift(out: list[Candidate], at: int, place: int, what: str, trace: Trace | None) -> None:
    """Move out[at] up to `place` (not down), at the score of the frame it then follows,
    so scores still read best first."""
    if at <= place:
        return
    lifted = out.pop(at)
    out.insert(place, replace(lifted, score=out[place - 1].score))
    if trace is not None:
        trace.note(lifted.node.id, f"{what}, lifted from place {at} to {place}")


def hedged(
    out: list[Candidate],
    plain: list[Candidate],
    related: dict[str, float],
    anchor_files: set[str],
    w: Weights,
    trace: Trace | None = None,
) -> list[Candidate]:
    """[hedge] The lower tier in the order a reciprocal-rank fusion of three file orders
    gives it: the anchored one, the one without anchors (`plain`, at w_hedge_plain) and
    the anchors' related files (at w_hedge_related). A file moves by where its first
    frame goes; its other frames stay where they were, or follow that first one. The
    scores, as a set, stay the tier's, re-dealt best first. Only the anchored
    candidates are placed: a file the anchored ranking left out may be one it held
    back (G4)."""
    votes = _votes(out, plain, related, anchor_files, w)
    upper = [c for c in out if anchored(c.hop)]  # G4: the anchored tier stays first, as it is
    lower = [c for c in out if not anchored(c.hop)]
    slot_of = _file_slots(lower, {c.node.path for c in upper}, votes)
    keyed = []
    nth: dict[str, int] = defaultdict(int)
    for i, c in enumerate(lower):
        at, n = slot_of[c.node.path], nth[c.node.path]
        nth[c.node.path] += 1
        keyed.append(((at, 0) if n == 0 else (i, 0) if i > at else (at, n), c))
    keyed.sort(key=lambda kc: kc[0])
    if trace is not None:
        for place, (_, c) in enumerate(keyed):
            if c is not lower[place]:
                trace.note(c.node.id, f"placed {len(upper) + place} by the hedge (was {len(upper) + lower.index(c)})")
    scores = sorted((c.score for c in lower), reverse=True)
    return upper + [replace(c, score=score) for (_, c), score in zip(keyed, scores)]


def _votes(
    out: list[Candidate], plain: list[Candidate], related: dict[str, float], anchor_files: set[str], w: Weights
) -> dict[str, float]:
    """Each file's reciprocal-rank votes, 1 / (hedge_k + place), from the three orders."""

    def places(paths) -> dict[str, int]:
        found: dict[str, int] = {}
        for path in paths:
            if path not in anchor_files:
                found.setdefault(path, len(found))
        return found

    votes: dict[str, float] = defaultdict(float)
    for weight, order in (
        (1.0, places(c.node.path for c in out)),
        (w.w_hedge_plain, places(c.node.path for c in plain)),
        (w.w_hedge_related, places(sorted(related, key=lambda p: (-related[p], p)))),
    ):
        for path, place in order.items():
            votes[path] += weight / (w.hedge_k + place)
    return votes


def _file_slots(lower: list[Candidate], shown: set[str], votes: dict[str, float]) -> dict[str, int]:
    """path -> the place its first frame takes: the files' first places, re-dealt by
    votes. A file the anchored tier shows already keeps its place: its votes are for
    the frame shown there, not for the weaker ones left to this tier."""
    first_at = _first_places(lower)
    slot_of = {path: at for path, at in first_at.items() if path in shown}
    free = [path for path in first_at if path not in shown]
    slots = sorted(first_at[path] for path in free)
    moved = sorted(free, key=lambda path: (-votes[path], first_at[path]))
    slot_of.update((path, slots[i]) for i, path in enumerate(moved))
    return slot_of
