"""Adjustments: named factors on the lexical match, each for a kind of text that
matches a question better than it answers it. File factors apply where the match is
made (lexical.py); node factors after the candidates are chosen (pipeline.py), on
those few nodes alone."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .explain import Trace
from .reads import IndexReads
from .weights import Weights

if TYPE_CHECKING:
    from indexer.graph import NodeRow

_TESTING = frozenset({"test", "tests", "testing", "spec", "specs", "fixture", "fixtures"})
_ASKING = frozenset({"how", "what", "where", "why", "when", "which", "who", "can", "could", "should"})


def asks_how(text: str) -> bool:
    """A question ("how do I configure retries?") rather than a change to make ("Fix
    retries when ..."): docs answer questions, so the factors that hold prose back
    (unlinked_doc_factor, change_doc_factor, w_recent), chosen on commit messages,
    stay off for them."""
    words = text.split(maxsplit=1)
    return bool(words) and (text.rstrip().endswith("?") or words[0].lower().strip(",:") in _ASKING)


def about_tests(text: str) -> bool:
    """A question that asks about the tests themselves keeps them at full weight."""
    return not _TESTING.isdisjoint(w.lower() for w in re.findall(r"[A-Za-z]+", text))


def file_factors(
    reads: IndexReads, paths: Mapping[int, str], w: Weights, trace: Trace | None = None, *, question: bool = False
) -> dict[int, float]:
    """file rowid -> the product of its file's factors, applied in this order.
    `question`: a question not about tests, whose test files count less."""
    factor = {f: w.release_notes_factor if reads.is_release_notes(p) else 1.0 for f, p in paths.items()}
    if trace is not None:
        for f, p in paths.items():
            if factor[f] != 1.0:
                trace.factor(p, "release notes", factor[f], file=True)
    tests = w.question_test_factor if question else 1.0
    for name, value, which in (
        ("generated", w.generated_factor, _generated),
        ("vendored", w.vendored_factor, _vendored),
        ("translation", w.translation_factor, _translations),
        ("a test, for a question", tests, _tests),
    ):
        if value != 1.0:
            for f in which(reads, paths):
                factor[f] *= value
                if trace is not None:
                    trace.factor(paths[f], name, value, file=True)
    return factor


def _generated(reads: IndexReads, paths: Mapping[int, str]):
    """[generated]: a tool wrote it ("DO NOT EDIT", `@generated`; indexer/parse.py)."""
    return reads.generated_files(paths)


def _vendored(reads: IndexReads, paths: Mapping[int, str]):
    """[vendored]: copied in from elsewhere (vendor/, third_party/; indexer/walk.py)."""
    return [f for f, p in paths.items() if reads.is_vendored(p)]


def _tests(reads: IndexReads, paths: Mapping[int, str]):
    """[question-tests]: test files (indexer/subjects.py), which name behaviour in English."""
    return [f for f, p in paths.items() if reads.is_test(p)]


def _translations(reads: IndexReads, paths: Mapping[int, str]):
    """[translations]: README.de.md beside README.md (indexer/sections.py)."""
    return reads.translations(paths)


def unlinked_docs(reads: IndexReads, lex: dict[str, float], w: Weights, trace: Trace | None = None) -> None:
    """[unlinked-doc]: a doc section naming none of the repository's code (a code of
    conduct, a list of users) is rarely the context a change needs."""
    for node_id in reads.sections_naming_no_code(lex):
        lex[node_id] *= w.unlinked_doc_factor
        if trace is not None:
            trace.factor(node_id, "doc naming no code", w.unlinked_doc_factor)


def docs(
    nodes: Mapping[int, NodeRow], lex: dict[str, float], factor: float, asked: bool, trace: Trace | None = None
) -> None:
    """[change-doc] a change to make is made in code; [question-doc] a question is
    answered by code and one guide (tiers.lift_best_guide): a doc section's match
    counts `factor` of itself."""
    for node in nodes.values():
        if node.kind == "section":
            lex[node.id] *= factor
            if trace is not None:
                trace.factor(node.id, "doc, for a question" if asked else "doc, for a change", factor)


def recent(
    reads: IndexReads,
    nodes: Mapping[int, NodeRow],
    lex: dict[str, float],
    asked: bool,
    w: Weights,
    trace: Trace | None = None,
) -> None:
    """[recent]: unanchored, a match in a file the history shows alive counts in full,
    one in a file untouched lately 1 / (1 + w_recent), between in proportion. A guide
    answers a how-to question however long ago it was written."""
    changes = reads.recent_changes({node.path for node in nodes.values()})
    for node in nodes.values():
        if asked and node.kind == "section":
            continue
        lately = min(1.0, changes.get(node.path, 0.0) / w.recent_changes_full)
        factor = (1 + w.w_recent * lately) / (1 + w.w_recent)
        lex[node.id] *= factor
        if trace is not None and factor != 1.0:
            trace.factor(node.id, "not changed lately", factor)
