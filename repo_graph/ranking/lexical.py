"""The lexical signal: BM25 of the question over the packed postings (per node, and
summed per file) and over each file's past commit messages, mixed into one match in
[0, 1] per node."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .adjustments import about_tests, asks_how, file_factors
from .explain import Trace
from .fusion import fuse
from .reads import IndexReads
from .weights import DEFAULT, Weights

Matched = dict[int, tuple[float, str]]  # node rowid -> (match, path)


@dataclass(frozen=True)
class Matches:
    """BM25 of one question over the postings, before closeness picks what to look at:
    per matched node its rowid, its file's rowid and its combined match; computed once
    a query, however many rankings read it (`rank`'s hedge reads it twice)."""

    nodes: np.ndarray
    file_of_node: np.ndarray
    files: np.ndarray  # distinct, sorted
    file_index: np.ndarray  # per node, its file's place in `files`
    match: np.ndarray
    said: dict[str, float]
    said_rowid: dict[str, int]
    share: float
    terms: tuple[tuple[np.ndarray, np.ndarray, int], ...] = ()  # each term read: (file rowids, tf, files having it)


def matches(reads: IndexReads, text: str, *, messages: bool = True, w: Weights = DEFAULT) -> Matches:
    """The question's BM25 over the packed postings, as arrays (empty when no term of
    it is indexed). The combined match mixes the node's own score with its file's (its
    best few nodes) and, unless `messages` is false, its file's commit messages'
    (w_said, w_said_question), each scaled to [0, 1]."""
    n_docs, avg_len = reads.corpus_stats()
    none = np.zeros(0, dtype=np.int64)
    if n_docs == 0:
        return Matches(none, none, none, none, np.zeros(0), {}, {}, 0.0)
    wanted = list(dict.fromkeys(reads.query_terms(text)))
    share = (w.w_said_question if asks_how(text) else w.w_said) if messages else 0.0
    said = said_match(reads, wanted, w=w) if share else {}
    said_rowid = reads.rowids_of_ids(said) if said else {}
    found = _postings(reads, wanted, n_docs, avg_len, w)
    if not found:
        return Matches(none, none, none, none, np.zeros(0), said, said_rowid, share)
    nodes, score, file_of_node, files, file_index = _by_node(found)
    match = _with_file_match(score, files, file_index, w)
    if said:
        by_rowid = {said_rowid[p]: v for p, v in said.items() if p in said_rowid}
        match = (1 - share) * match + share * np.array([by_rowid.get(int(f), 0.0) for f in files])[file_index]
    terms = tuple((f[1], f[3], f[4]) for f in found)
    return Matches(nodes, file_of_node, files, file_index, match, said, said_rowid, share, terms)


def whole_files(reads: IndexReads, found: Matches, paths: list[str], w: Weights = DEFAULT) -> list[str]:
    """[whole-file] `paths` best first by BM25 over each whole file (a term's count over
    the file's nodes, the file's length against the mean, idf over files), those matching
    nothing left out: file BM25's view, which finds the file a change touches all over
    where the node match finds where it touches most."""
    rowid_of = reads.rowids_of_ids(paths)
    if not rowid_of or not found.terms:
        return []
    rowids = np.array(sorted(rowid_of.values()), dtype=np.int64)
    path_of = {rowid: path for path, rowid in rowid_of.items()}
    n_files, avg_len = reads.file_corpus()
    lengths = reads.file_lengths(path_of.values())
    length = np.array([lengths.get(path_of[int(r)], avg_len) for r in rowids])
    score = np.zeros(len(rowids))
    for files, tf, df in found.terms:
        inside = np.isin(files, rowids)
        if inside.any():
            tf_file = np.bincount(np.searchsorted(rowids, files[inside]), weights=tf[inside], minlength=len(rowids))
            has = tf_file > 0
            score[has] += _idf(n_files, df) * _saturated(tf_file[has], length[has], avg_len, w)
    return [path_of[int(rowids[i])] for i in np.lexsort((rowids, -score)) if score[i] > 0]


def _postings(reads: IndexReads, wanted: list[str], n_docs: int, avg_len: float, w: Weights) -> list:
    """(node rowids, file rowids, BM25 per posting) of each indexed term, rarest first.
    A term in more than w.common_postings nodes (`0`, `dev` in the kernel) only
    re-weighs what the rarer terms found: its long tail would cost more than it says,
    so only those files' rows are read (or all of them, when that is fewer, then cut),
    and only those nodes kept. [common-files]: at most w.common_files files, those the
    rarer terms match best."""
    stats = reads.term_stats(wanted)  # term -> (files, nodes)
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]] = []
    order = sorted((t for t in wanted if t in stats), key=lambda t: stats[t][1])  # rarest first
    all_common = bool(order) and stats[order[0]][1] > w.common_postings
    matched_files = _densest_files(reads, order, w) if all_common else None
    known = None  # by node rowid, whether a rarer term found it
    for term in order:
        n_files, df = stats[term]
        idf = _idf(n_docs, df)
        common = matched_files if matched_files is not None and df > w.common_postings else None
        if common is not None and known is None and not all_common:
            matched_files, found_nodes = _best_files(found, w.common_files)
            common = matched_files
            known = np.zeros(int(found_nodes[-1]) + 1, dtype=np.bool_)
            known[found_nodes] = True
        if common is not None and len(common) < n_files:
            nodes, files, tf, length = reads.term_postings(term, common.tolist())
        else:
            nodes, files, tf, length = reads.term_postings(term)
            if common is not None:
                inside = np.isin(files, common)
                nodes, files, tf, length = nodes[inside], files[inside], tf[inside], length[inside]
        if known is not None:
            inside = nodes < len(known)
            inside[inside] = known[nodes[inside]]
            nodes, files, tf, length = nodes[inside], files[inside], tf[inside], length[inside]
        tf = tf.astype(np.float64)
        found.append((nodes, files, idf * _saturated(tf, length, avg_len, w), tf, n_files))
        matched_files = _unique(files if matched_files is None else np.concatenate((matched_files, files)))
    return found


def _by_node(found: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The postings read so far summed per node: (distinct node rowids, their scores,
    each one's file rowid, the distinct files, each node's place in them)."""
    nodes, node_of = _distinct(np.concatenate([f[0] for f in found]))
    score = np.bincount(node_of, weights=np.concatenate([f[2] for f in found]))
    file_of_node = np.empty(len(nodes), dtype=np.int64)
    file_of_node[node_of] = np.concatenate([f[1] for f in found])
    files, file_index = _distinct(file_of_node)
    return nodes, score, file_of_node, files, file_index


def _best_files(found: list, n: int) -> tuple[np.ndarray, np.ndarray]:
    """[common-files] (the n files whose best node the terms read so far match best,
    ties: the lower rowid; the nodes they found), both sorted: a common term's few
    points cannot lift a file from further down into the candidates, and re-weighing
    every file they found read a million postings of `0` (kernel questions of 0.4 s
    and 150 MB)."""
    nodes, score, _, files, file_index = _by_node(found)
    best = np.zeros(len(files))
    np.maximum.at(best, file_index, score)
    return np.sort(files[np.lexsort((files, -best))[:n]]), nodes


def _densest_files(reads: IndexReads, terms: list[str], w: Weights) -> np.ndarray:
    """[common-files] When even the rarest term is common (`reg cpu handle` in the
    kernel), no rarer term says which files to look at, and reading every file of the
    rarest cost seconds and hundreds of megabytes. The files with the most of the
    terms, then the most nodes having them, stand in: w.common_files of them, picked
    from the term index alone (no postings read). Sorted, as `_unique` gives them."""
    files, nodes = zip(*(reads.term_files(term) for term in terms))
    each = np.concatenate(files)
    every = _unique(each)
    if len(every) <= w.common_files:
        return every
    where = np.searchsorted(every, each)
    terms_in = np.bincount(where, minlength=len(every))
    nodes_in = np.bincount(where, weights=np.concatenate(nodes), minlength=len(every))
    best = np.lexsort((every, -nodes_in, -terms_in))[: w.common_files]  # ties: the lower rowid
    return np.sort(every[best])


def _with_file_match(score: np.ndarray, files: np.ndarray, file_index: np.ndarray, w: Weights) -> np.ndarray:
    """A node's own score mixed with its file's: the sum of the file's best
    w.file_match_top nodes (a commit message describes a change to files more than
    to one function), each scaled by its best."""
    file_score = _best_sums(score, file_index, len(files), w.file_match_top)
    return w.w_node_match * score / score.max() + w.w_file_match * file_score[file_index] / file_score.max()


def _best_sums(score: np.ndarray, file_index: np.ndarray, n_files: int, top: int) -> np.ndarray:
    """Per file, the sum of its `top` best scores, added best first. A file's nodes
    have consecutive rowids, so they lie together in `score` (nodes in rowid order):
    each of the `top` rounds takes every file's best left in one pass over the
    nodes, instead of sorting them all by file and score (100+ ms of a kernel
    question matching 500,000 nodes)."""
    if len(file_index) > 1 and bool(np.any(file_index[1:] < file_index[:-1])):  # not together: sort
        by_file = np.lexsort((-score, file_index))  # each file's nodes together, best first
        grouped = file_index[by_file]
        first_of_group = np.r_[0, np.flatnonzero(np.diff(grouped)) + 1]
        place = np.arange(len(grouped)) - np.repeat(first_of_group, np.diff(np.r_[first_of_group, len(grouped)]))
        best = place < top
        return np.bincount(grouped[best], weights=score[by_file][best], minlength=n_files)
    starts = np.flatnonzero(np.r_[True, file_index[1:] != file_index[:-1]])
    left = score.astype(np.float64)  # a copy: each round takes its best out
    total = np.zeros(n_files)
    for _ in range(top):
        best = np.maximum.reduceat(left, starts)
        total += np.where(best > -np.inf, best, 0.0)
        at = np.flatnonzero(left == best[file_index])
        left[at[np.r_[True, file_index[at][1:] != file_index[at][:-1]]]] = -np.inf  # one of each file's best
    return total


def lexical(
    reads: IndexReads,
    text: str,
    related: dict[str, float] | None = None,
    *,
    messages: bool = True,
    found: Matches | None = None,
    w: Weights = DEFAULT,
    trace: Trace | None = None,
) -> Matched:
    """node rowid -> (combined match, path) for the nodes worth a closer look: the best
    by what the fused score will make of them, the anchors' related files counting,
    each file's adjustments applied (adjustments.file_factors). `found`: the
    question's `matches`, when a caller has them already."""
    found = matches(reads, text, messages=messages, w=w) if found is None else found
    if not len(found.nodes):
        return _said_only(reads, found, set(), w, trace)
    nodes, file_of_node, files, file_index, match = (
        found.nodes,
        found.file_of_node,
        found.files,
        found.file_index,
        found.match,
    )
    close = np.zeros(len(files))
    if related:
        rowid_of = reads.rowids_of_ids(related)
        boost = {rowid_of[p]: v for p, v in related.items() if p in rowid_of}
        close = w.related_file_share * np.array([boost.get(int(f), 0.0) for f in files])
    key = fuse(match, close[file_index], w)
    keep = _unique(np.concatenate((_top(key, w.max_candidates), _top(match, w.ppr_lexical_seeds))))
    paths = reads.ids_of_rowids(int(f) for f in _unique(file_of_node[keep]))
    factor = file_factors(reads, paths, w, trace, question=asks_how(text) and not about_tests(text))
    out = {}
    for i in keep:
        f = int(file_of_node[i])
        if f in paths:
            out[int(nodes[i])] = (float(match[i]) * factor[f], paths[f])
            if trace is not None:
                trace.raw_match[int(nodes[i])] = float(match[i])
    out.update(_said_only(reads, found, set(files.tolist()), w, trace))
    return out


def _said_only(reads: IndexReads, found: Matches, matched: set[int], w: Weights, trace: Trace | None) -> Matched:
    """The most central nodes of the w.said_files files whose commit messages match
    best and whose code matched nothing (`matched`: file rowids), on the messages' share."""
    said, said_rowid = found.said, found.said_rowid
    if not w.said_files:
        return {}
    unmatched = [p for p in sorted(said, key=lambda p: (-said[p], p)) if said_rowid.get(p) not in matched]
    out = {}
    for rowid, node in reads.top_rows_in_files(unmatched[: w.said_files], w.symbols_per_related_file):
        factor = w.release_notes_factor if reads.is_release_notes(node.path) else 1.0
        out[rowid] = (found.share * said[node.path] * factor, node.path)
        if trace is not None:
            trace.by_rowid[rowid].append(("commit messages only", found.share))
            if factor != 1.0:
                trace.factor(rowid, "release notes", factor)
    return out


def _idf(n_docs: int, df: int) -> float:
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def _saturated(tf, length, avg_len: float, w: Weights):
    """BM25's term frequency, saturating (k1) and against the document's length (b);
    scalars or numpy arrays."""
    return tf * (w.k1 + 1) / (tf + w.k1 * (1 - w.b + w.b * length / avg_len))


def said_match(reads: IndexReads, wanted: list[str], *, w: Weights = DEFAULT) -> dict[str, float]:
    """BM25 of the question's terms over each file's commit messages: path -> [0, 1]."""
    n_docs, avg_len = reads.said_stats()
    rows = reads.said_postings(wanted) if n_docs else []
    df: dict[str, int] = defaultdict(int)
    for term, *_ in rows:
        df[term] += 1
    out: dict[str, float] = defaultdict(float)
    for term, path, tf, length in rows:
        out[path] += _idf(n_docs, df[term]) * _saturated(tf, length, avg_len, w)
    if not out:
        return {}
    best = max(out.values())
    top = sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))[: w.max_candidates]  # the rest would weigh little
    return {path: score / best for path, score in top}


def _distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(values, return_inverse=True), by a stable sort: `values` are a few
    runs already in order (each term's nodes by rowid), which a merge sort takes in
    one pass where np.unique's quicksort starts over."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]] if len(ordered) else np.zeros(0, dtype=bool)
    inverse = np.empty(len(values), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _unique(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values. np.unique's plain form imports numpy.ma (~15 ms of a
    restarted serve's first answer); sorting does the same job here."""
    ordered = np.sort(values)
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


def _top(values: np.ndarray, n: int) -> np.ndarray:
    """Indexes of the n largest values (any order)."""
    return np.argpartition(-values, n)[:n] if len(values) > n else np.arange(len(values))
