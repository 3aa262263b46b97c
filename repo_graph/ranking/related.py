"""The relatedness signal: files joined to the anchors (links either way, tests,
co-changes, directory, namesakes). Path -> strength in [0, 1]."""

from __future__ import annotations

import math
import posixpath
from collections import defaultdict

from .reads import IndexReads
from .weights import DEFAULT, Weights


def related_files(reads: IndexReads, anchor_files: set[str], *, w: Weights = DEFAULT) -> dict[str, float]:
    """Files joined to the anchored ones: imports either way, calls and references
    between their symbols, docs naming them, their tests, the files committed with
    them before (git history), their directory and namesakes. In [0, 1], the
    strongest w.max_related_files."""
    weight: dict[str, float] = defaultdict(float)
    for anchor in anchor_files:
        _by_links(reads, anchor, weight, w)
        twins, namesakes = reads.same_subject(anchor, w.min_test_subject)
        for path in twins:
            weight[path] += w.w_same_test
        _by_place(reads, anchor, namesakes, weight, w)
    for anchor in anchor_files:
        weight.pop(anchor, None)
    if not weight:
        return {}
    top = sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[
        : w.max_related_files
    ]  # ties by path, not by row order
    best = top[0][1]
    return {path: v / best for path, v in top}


def _by_links(reads: IndexReads, anchor: str, weight: dict[str, float], w: Weights) -> None:
    """[file-links] links between the files, either way, by kind and number; [co-change]
    the commits that changed both."""
    joined: dict[tuple[str, str], int] = defaultdict(int)
    for path, rel, n in reads.links_from_file(anchor) + reads.links_into_file(anchor):
        joined[(path, rel)] += n
    for (path, rel), n in joined.items():
        weight[path] += w.file_link_weights.get(rel, w.other_link_weight) * (1 + math.log(n))
    if w.w_co_change:
        for path, commits in reads.co_changed(anchor):
            weight[path] += w.w_co_change * math.log1p(commits)


def _by_place(reads: IndexReads, anchor: str, namesakes: list[str], weight: dict[str, float], w: Weights) -> None:
    """[namesake] a file of the same name elsewhere, unless the name is everywhere;
    [same-directory] its siblings, and a test file's sibling tests."""
    if len(namesakes) <= w.max_namesakes:
        for path in namesakes:
            weight[path] += w.w_namesake
    directory = posixpath.dirname(anchor)
    anchor_is_test = reads.is_test(anchor)
    sibling = w.w_same_directory if directory else w.w_same_directory * w.root_directory_share
    for path in reads.files_in_directory(directory):
        weight[path] += sibling
        if anchor_is_test and reads.is_test(path):
            weight[path] += w.w_sibling_test


def with_scope(related: dict[str, float], scope: dict[str, float], w: Weights) -> dict[str, float]:
    """[scope] The files a change's scope names, as close as an anchor's related file
    by the share of the scope's names they hold."""
    if not scope:
        return related
    out = dict(related)
    for path, share in scope.items():
        out[path] = max(out.get(path, 0.0), w.scope_weight * share)
    return out
