"""The one scoring function: BM25 over precomputed postings (per node, and summed per
file) and over each file's past commit messages, closeness to the anchors through the
graph (G3), and a structural prior (PageRank, precomputed), fused into a score in
[0, 1] (F1). Frames within one hop of an anchor form the upper tier (G4); below it,
the order hedges against an open file that has little to do with the question. Knows
nothing of the wire."""

from __future__ import annotations

import math
import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

import numpy as np

from indexer.names import dotted
from indexer.parse import MODULE_FRAGMENT, speaks_for_file
from indexer.resolve import is_release_notes
from indexer.sections import doc_format, translated_from
from indexer.store import NodeRow
from indexer.terms import terms
from indexer.walk import is_vendored
from repo_graph.scope import scoped_files

# BM25 constants: the usual ones; code bodies vary in length as much as prose does.
K1 = 1.2
B = 0.75
# Fusion weights, chosen on benchmarks/quality.py (ablation in benchmarks/README.md:
# flask, gin, ripgrep at 60 cases, then those and fastapi at 40). Closeness to the
# anchors multiplies the match: a node near the open file that also matches the
# question is what the developer needs next; one that matches nothing gets only a
# nudge. The PageRank prior is computed and orders the overview for a question that
# matches nothing, but in the fused score every weight tried (0.10, 0.03) lost recall
# (it favours hubs and documented nodes over the specific file), so it weighs 0 here.
W_LEXICAL = 0.60
W_CLOSENESS_BOOST = 2.0  # G3: a match at closeness 1 counts three times
W_PROXIMITY = 0.05  # closeness alone, without a match
W_PRIOR = 0.0
# Inside the lexical signal: a node's own match, and how well its file matches as a
# whole (a commit message describes a change to files more than to one function).
W_NODE_MATCH = 0.55
W_FILE_MATCH = 0.45
FILE_MATCH_TOP = 3  # a file's match is the sum of its best few nodes, not of all of them
PROXIMITY_BY_HOP = {0: 1.0, 1: 0.8, 2: 0.35}
IN_ANCHORED_FILE = 0.95  # inside an open file: closer than the most related other file (0.9)
RELATED_FILE_SHARE = 0.9  # a symbol in the most related file is nearly one hop away
PPR_SHARE = 0.8  # the node the anchors' PageRank reaches most is as close as one hop
PPR_LEXICAL_SEEDS = 10  # the best matches also seed the walk, more weakly
PPR_LEXICAL_WEIGHT = 0.3
PPR_MAX_NODES = 600  # the walk runs on the nearest nodes only: a query budget, not a whole-graph job
HUB_LINKS = 200  # the walk to the anchors' neighbours does not spread to the users of a node with more links in
# How strongly two files are joined, per kind of link between them.
FILE_LINK_WEIGHTS = {
    "code.imports": 3.0,
    "code.calls": 1.0,
    "code.references": 0.7,
    "doc.documents": 1.5,
}
W_SAME_TEST = 4.0  # test_config.py for config.py and the other way round
MIN_TEST_SUBJECT = 3  # a test of `io` or `a`: too short a name to look for
W_CO_CHANGE = 6.0  # per log(1 + commits that changed both files), from git history (0.75 to 6 tried)
W_SAME_DIRECTORY = 0.8
W_SIBLING_TEST = 1.0  # tests beside a test file tend to change with it
# A file of the same name in another directory: the same concern on another side
# (binding/yaml.go and render/yaml.go, foo.c and include/foo.h). Not when the name is
# everywhere (index.js, __init__.py, mod.rs): past MAX_NAMESAKES files, it says nothing.
W_NAMESAKE = 4.0
MAX_NAMESAKES = 3
MAX_RELATED_FILES = 40
# Without anchors, the best-matching files stand in for them, more weakly: what they
# import, test and were committed with is likelier the rest of the change than a file
# that merely shares words with the question (pseudo-relevance feedback).
W_FEEDBACK = 0.5
FEEDBACK_FILES = 3
FEEDBACK_MIN_MATCH = 0.5  # of the best match: a weak match is no stand-in for an anchor
# A doc naming a best match gets this share of the feedback: a README names the best
# match because it names everything (sinatra's README.md was in 26 of 40 unanchored
# top fives). At 0, over the ten benchmark repositories no R@5 fell and four rose
# (cobra +0.031, sinatra +0.025, ripgrep and httpx +0.008).
FEEDBACK_DOCS = 0.0
SYMBOLS_PER_RELATED_FILE = 6
ANCHOR_FILE_FRAMES = 2  # the host has an anchored file open: a glimpse of it, then its neighbours
# A frame one hop from an anchor in another file (a symbol the open file imports, a
# doc naming it) outranks every frame outside the anchored tier (G4), so when the
# question matches anything such a neighbour must earn its place to be sent. For a
# change to make, the fused score alone (before the tiers) must put it at least
# NEIGHBOUR_BAR of the best frame outside the tier: a weaker one would take a place a
# better frame deserves (fastapi's routing.py open, the `openapi/constants.py` it
# imports came first; sinatra's Gemfile open, the README and its translations naming
# it). Twelve tuning repositories, as ranked, anchored R@5 / MRR: a neighbour's match of
# 0.3 as the only bar (the rule before) 0.7689 / 0.6626; this bar 0.7704 / 0.6802
# (twelve cases' first hit higher, one lower), with the match bar beside it the same to
# the digit; a share of 0.7, 0.6699; 1.5 to 3, 0.6786. A question (asks_how) keeps the
# match bar alone: the guide naming the open file is its answer, and matches less than
# the code it describes ("how do I configure the retry policy?" lost README's "Retry
# policy" to `fetch`).
NEIGHBOUR_BAR = 1.0
ANCHORED_NEIGHBOUR_MATCH = 0.3
JOINED_HEADER_MATCH = 0.6  # the match a header joined to an anchor needs to be sent (0.3 cost flask 0.2 R@5)
RELEASE_NOTES_FACTOR = 0.5  # a changelog repeats every change's words; it documents no code
# A file a tool generated ("Code generated ... DO NOT EDIT", `@generated`; indexer/parse.py)
# is what the rest calls, not what a developer edits: its matches count half, as a
# changelog's do. Chosen, not measured: of the benchmark repositories only gin keeps one
# such file (in testdata/), and its figures did not move.
GENERATED_FACTOR = 0.5
# README.de.md beside README.md says what it says, to a reader of another language: a
# question in one language needs one copy, and the translations' code blocks and names
# match it as well as the original does (sinatra's README in 11 languages).
TRANSLATION_FACTOR = 0.3
# Code copied in from elsewhere (indexer/walk.py: vendor/, third_party/, bundled/, deps/)
# answers the project's questions as well as its own code does, or better: spdlog's
# bundled fmtlib took its logger's place once its `.h` files were read as C++. As ranked,
# R@5 unanchored / anchored, 1 -> 0.5: spdlog 0.617 / 0.450 -> 0.768 / 0.543 (a
# held-out repository, looked at for this); jq (tuning) 0.817 / 0.632 both, MRR -0.002 /
# +0.002; no other benchmark repository has such a folder. 0.3 the same as 0.5.
VENDORED_FACTOR = 0.5
# A doc section naming none of the repository's code (a code of conduct, a list of
# users) is rarely the context a change needs, and prose shares more words with a
# question than code does. Measured on seven repositories: 1.0 -> 0.4 lifted mean R@5
# anchored 0.680 -> 0.719, unanchored 0.673 -> 0.690, no repository lower; 0.1-0.4 alike.
UNLINKED_DOC_FACTOR = 0.4
# A change to make ("Add a config option for ...", not a question: asks_how) is made in
# code: a doc section's match counts half. flask's reStructuredText docs took 56 of its
# top-five slots at 1.0 (13 of them docs the commit did change); measured, 1.0 / 0.5 /
# 0.25, R@5 unanchored and anchored: flask 0.577/0.557, 0.602/0.765, 0.635/0.765;
# fastapi 0.516/0.491, 0.579/0.519, 0.616/0.519; gin 0.790, 0.807, 0.832 unanchored;
# httpx 0.758/0.703, 0.765/0.741, 0.785/0.741; cobra and ripgrep alike or better. The
# benchmark counts no doc as gold, so it cannot see what a lower factor costs: 0.5.
CHANGE_DOC_FACTOR = 0.5
# Without anchors, a match in a file the history shows alive (indexer/history.py: its
# changes in the last 3,000 commits, each counting half per 100 commits back) counts in
# full; one in a file with no recent change counts 1 / (1 + W_RECENT); between, in
# proportion up to RECENT_CHANGES_FULL changes. Measured on seven repositories,
# unanchored, mean R@5 / MRR (0.690 / 0.594 without): full at 2 changes 0.695 / 0.632;
# at 3, 0.709 / 0.621, at 1, 0.694 / 0.613, at 0.3, 0.683; scaled against the most
# changed file instead (log), 0.705 / 0.613. Past 2, a question about stable code lost
# its answer to the file every commit touches (this repository's "how are frames packed
# under the budget" put benchmarks/quality.py above repo_graph/packing.py). Not with
# anchors: there it cost R@5 on five of seven (the anchor's neighbours say more). Since
# the commit messages weigh in (W_SAID), which say much of what recency said, half as
# much: twelve tuning repositories, as ranked, unanchored R@5 / MRR 0.7775 / 0.7109 at
# 1.0, 0.7817 / 0.7144 at 0.5, 0.7832 / 0.7218 at 0 (kept at half: a tie between two
# matches still goes to the file alive today).
W_RECENT = 0.5
RECENT_CHANGES_FULL = 2.0
# A how-to question without anchors wants the guide as well as the API: its best doc
# section (not a changelog entry) that matches at least QUESTION_DOC_MIN of the best
# match is placed no lower than QUESTION_DOC_PLACE (0-based). The best code files' own
# closeness (_feedback) otherwise buries the guide under every method of one class:
# cobra's "Persistent Flags" ranked 343rd for "how do I add a persistent flag to a
# command?", gin's binding guide 328th, okhttp's "Timeouts" recipe 209th. No benchmark
# case is a question (they are commit messages), so this moves none of its figures.
QUESTION_DOC_PLACE = 2
QUESTION_DOC_MIN = 0.5
MAX_CANDIDATES = 400
# A symbol the question names as `Type.member` (Data.Render, config.load) can match
# best of all, when few symbols bear the name, the words around it then weighing at
# most MENTION_LEAD of that. Measured (benchmarks/quality.py, ablations
# `repo-graph:no-mention`, `mention-code`, `mention-all`): the qualified form alone
# moved gin +0.05 anchored R@5 and nothing elsewhere; adding backticked names cost
# ripgrep 0.05 anchored (backticks hold flags and shell text as often as a symbol),
# and any snake_case or CamelCase word as a mention cost it more.
MENTION_MATCH = 1.0
MENTION_LEAD = 0.9
MAX_MENTION_DEFS = 5
MENTION_FORMS = ("qualified",)  # of: backticks, qualified, underscored, humped
# What the past changes to a file were about: BM25 of the question over the terms of each
# file's commit messages (indexer/history.py), scaled to [0, 1] by the best file, weighs
# this share of the lexical match (the node's and its file's words the rest).
W_SAID = 0.3
# A how-to question (asks_how) asks how the code is used, which the messages, about
# changes, say less of: they weigh a third as much. Eight questions asked of the mirrors'
# newest commits (benchmarks/README, session 19): at 0.3, okhttp's "how do I set a
# connection timeout?" put ConnectPlan.kt (whose commits speak of connections and
# timeouts) above OkHttpClient.Builder.connectTimeout and httpx's timeout guide fell from
# the top three; at 0.1 both came back and fastapi's CORS guide still rose.
W_SAID_QUESTION = 0.1
# The files whose messages match best but whose code matches none of the question's words
# join the candidates (their most central nodes), on their messages' share alone.
SAID_FILES = 3
COMMON_POSTINGS = 20_000  # past this many nodes, a term scores only files rarer terms matched
# A change's scope (`printer: ...`, `fix(binding): ...`, repo_graph/scope.py) makes the
# files it names as close as a file related to an anchor, by the share of its names
# they hold; a name on more than SCOPE_MAX_FILES files is too broad to say anything.
SCOPE_WEIGHT = 1.0
SCOPE_MAX_FILES = 200
# An open file is sometimes incidental to the change ("Update docs.rs links", either.rs
# open): below the anchored tier, the order is a reciprocal-rank fusion (1 / (HEDGE_K +
# place)) of the anchored order with the order the question gets without anchors and
# with the anchors' related files by strength. Chosen on the tuning twelve, as ranked,
# then measured on the held-out nine: benchmarks/README.md (session 24).
HEDGE_K = 1
W_HEDGE_PLAIN = 0.2
W_HEDGE_RELATED = 0.3


@dataclass(frozen=True)
class Candidate:
    node: NodeRow
    score: float
    hop: int | None  # hops from the nearest anchor, None when far or unanchored


def fuse(match: float, close: float, prior: float) -> float:
    """The one scoring function: three signals in [0, 1] to a score in [0, 1]."""
    top = W_LEXICAL * (1 + W_CLOSENESS_BOOST) + W_PROXIMITY + W_PRIOR
    return (W_LEXICAL * match * (1 + W_CLOSENESS_BOOST * close) + W_PROXIMITY * close + W_PRIOR * prior) / top


def _prior(centrality: float, node: NodeRow) -> float:
    """What much of the repository leans on (PageRank, precomputed), and whether
    someone took the trouble to document it."""
    documented = 1.0 if node.doc or node.kind == "section" else 0.0
    return 0.6 * centrality + 0.4 * documented


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


def matches(index, text: str, *, messages: bool = True) -> Matches:
    """The question's BM25 over the packed postings, as arrays (empty when no term of
    it is indexed). The combined match mixes the node's own score with its file's (its
    best few nodes) and, unless `messages` is false, its file's commit messages'
    (W_SAID, W_SAID_QUESTION), each scaled to [0, 1]."""
    n_docs, avg_len = index.store.corpus_stats()
    none = np.zeros(0, dtype=np.int64)
    if n_docs == 0:
        return Matches(none, none, none, none, np.zeros(0), {}, {}, 0.0)
    wanted = list(dict.fromkeys(terms(text)))
    share = (W_SAID_QUESTION if asks_how(text) else W_SAID) if messages else 0.0
    said = said_match(index, wanted) if share else {}
    said_rowid = index.store.rowids_of_ids(said) if said else {}
    stats = index.store.term_stats(wanted)  # term -> (files, nodes)
    found = []
    matched_files = None
    for term in sorted((t for t in wanted if t in stats), key=lambda t: stats[t][1]):  # rarest first
        n_files, df = stats[term]
        idf = _idf(n_docs, df)
        # A term in this many nodes (`0`, `dev` in the kernel) only re-weighs the files
        # the rarer terms found; its long tail would cost more than it says, so only
        # those files' rows are read (or all of them, when that is fewer, then cut).
        common = matched_files is not None and df > COMMON_POSTINGS
        if common and len(matched_files) < n_files:
            nodes, files, tf, length = index.store.term_postings(term, matched_files.tolist())
        else:
            nodes, files, tf, length = index.store.term_postings(term)
            if common:
                inside = np.isin(files, matched_files)
                nodes, files, tf, length = nodes[inside], files[inside], tf[inside], length[inside]
        tf = tf.astype(np.float64)
        found.append((nodes, files, idf * _saturated(tf, length, avg_len)))
        matched_files = _unique(files if matched_files is None else np.concatenate((matched_files, files)))
    if not found:
        return Matches(none, none, none, none, np.zeros(0), said, said_rowid, share)
    nodes, node_of = np.unique(np.concatenate([f[0] for f in found]), return_inverse=True)
    score = np.bincount(node_of, weights=np.concatenate([f[2] for f in found]))
    file_of_node = np.empty(len(nodes), dtype=np.int64)
    file_of_node[node_of] = np.concatenate([f[1] for f in found])
    files, file_index = np.unique(file_of_node, return_inverse=True)
    by_file = np.lexsort((-score, file_index))  # each file's nodes together, best first
    grouped = file_index[by_file]
    first_of_group = np.r_[0, np.flatnonzero(np.diff(grouped)) + 1]
    place = np.arange(len(grouped)) - np.repeat(first_of_group, np.diff(np.r_[first_of_group, len(grouped)]))
    best = place < FILE_MATCH_TOP
    file_score = np.bincount(grouped[best], weights=score[by_file][best], minlength=len(files))
    match = W_NODE_MATCH * score / score.max() + W_FILE_MATCH * file_score[file_index] / file_score.max()
    if said:
        by_rowid = {said_rowid[p]: w for p, w in said.items() if p in said_rowid}
        match = (1 - share) * match + share * np.array([by_rowid.get(int(f), 0.0) for f in files])[file_index]
    return Matches(nodes, file_of_node, files, file_index, match, said, said_rowid, share)


def lexical(index, text: str, related: dict[str, float] | None = None, *,
            messages: bool = True, found: Matches | None = None) -> dict[int, tuple[float, str]]:
    """node rowid -> (combined match, path) for the nodes worth a closer look: the best
    by what the fused score will make of them, the anchors' related files counting.
    `found`: the question's `matches`, when a caller has them already."""
    found = matches(index, text, messages=messages) if found is None else found
    if not len(found.nodes):
        return _said_only(index, found.said, found.said_rowid, set(), found.share)
    nodes, file_of_node, files, file_index, match = (found.nodes, found.file_of_node, found.files,
                                                     found.file_index, found.match)
    close = np.zeros(len(files))
    if related:
        rowid_of = index.store.rowids_of_ids(related)
        boost = {rowid_of[p]: w for p, w in related.items() if p in rowid_of}
        close = RELATED_FILE_SHARE * np.array([boost.get(int(f), 0.0) for f in files])
    key = fuse(match, close[file_index], 0.0)
    keep = _unique(np.concatenate((_top(key, MAX_CANDIDATES), _top(match, PPR_LEXICAL_SEEDS))))
    paths = index.store.ids_of_rowids(int(f) for f in _unique(file_of_node[keep]))
    factor = {f: RELEASE_NOTES_FACTOR if is_release_notes(p) else 1.0 for f, p in paths.items()}
    if GENERATED_FACTOR != 1.0:
        for f in index.store.generated_files(paths):
            factor[f] *= GENERATED_FACTOR
    if VENDORED_FACTOR != 1.0:
        for f, p in paths.items():
            if is_vendored(p):
                factor[f] *= VENDORED_FACTOR
    if TRANSLATION_FACTOR != 1.0:
        originals = {f: translated_from(p) for f, p in paths.items()}
        present = index.store.nodes_by_id(o for o in originals.values() if o)
        for f, original in originals.items():
            if original in present:
                factor[f] *= TRANSLATION_FACTOR
    out = {}
    for i in keep:
        f = int(file_of_node[i])
        if f in paths:
            out[int(nodes[i])] = (float(match[i]) * factor[f], paths[f])
    out.update(_said_only(index, found.said, found.said_rowid, set(files.tolist()), found.share))
    return out


def _said_only(index, said: dict[str, float], said_rowid: dict[str, int], matched: set[int], share: float):
    """The most central nodes of the SAID_FILES files whose commit messages match best
    and whose code matched nothing (`matched`: file rowids), on the messages' share."""
    if not SAID_FILES:
        return {}
    unmatched = [p for p in sorted(said, key=lambda p: (-said[p], p)) if said_rowid.get(p) not in matched]
    out = {}
    for rowid, node in index.store.top_rows_in_files(unmatched[:SAID_FILES], SYMBOLS_PER_RELATED_FILE):
        factor = RELEASE_NOTES_FACTOR if is_release_notes(node.path) else 1.0
        out[rowid] = (share * said[node.path] * factor, node.path)
    return out


def _idf(n_docs: int, df: int) -> float:
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def _saturated(tf, length, avg_len: float):
    """BM25's term frequency, saturating (K1) and against the document's length (B);
    scalars or numpy arrays."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg_len))


def said_match(index, wanted: list[str]) -> dict[str, float]:
    """BM25 of the question's terms over each file's commit messages: path -> [0, 1]."""
    n_docs, avg_len = index.store.said_stats()
    rows = index.store.said_postings(wanted) if n_docs else []
    df: dict[str, int] = defaultdict(int)
    for term, *_ in rows:
        df[term] += 1
    out: dict[str, float] = defaultdict(float)
    for term, path, tf, length in rows:
        out[path] += _idf(n_docs, df[term]) * _saturated(tf, length, avg_len)
    if not out:
        return {}
    best = max(out.values())
    top = sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_CANDIDATES]  # the rest would weigh little
    return {path: score / best for path, score in top}


def _unique(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values. np.unique's plain form imports numpy.ma (~15 ms of a
    restarted serve's first answer); sorting does the same job here."""
    ordered = np.sort(values)
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


_BACKTICKED = re.compile(r"`([^`\n]{2,120})`")
_QUALIFIED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|\\)[A-Za-z_][A-Za-z0-9_]*)*")  # `\`: PHP's namespaces
_CAMEL_HUMP = re.compile(r"[a-z0-9][A-Z]")


def _code_names(text: str) -> list[str]:
    """Names the text writes in the code forms MENTION_FORMS counts: backticked spans,
    words with a dot, `::` or `\\` between parts, an underscore, or a hump (`BindPlain`);
    never plain capitalised words (`Render` starts a sentence as often as it names a
    method)."""
    named = []
    if "backticks" in MENTION_FORMS:
        for span in _BACKTICKED.findall(text):
            found = _QUALIFIED_NAME.search(span)  # `require_git(false)` names require_git
            if found:
                named.append(found.group())
    for word in _QUALIFIED_NAME.findall(text):
        inner = word.strip("_")
        if (("qualified" in MENTION_FORMS and ("." in word or "::" in word or "\\" in word))
                or ("underscored" in MENTION_FORMS and "_" in inner)
                or ("humped" in MENTION_FORMS and _CAMEL_HUMP.search(word))):
            named.append(word)
    return [dotted(n) for n in dict.fromkeys(named) if len(n) >= 3]


def mentioned(index, text: str) -> dict[int, tuple[float, str]]:
    """Definitions of the symbols the question names in code form: rowid -> (match, path)."""
    out: dict[int, tuple[float, str]] = {}
    for name in _code_names(text):
        nodes = index.store.find_by_name(name, limit=MAX_MENTION_DEFS + 1)
        if not nodes or len(nodes) > MAX_MENTION_DEFS:
            continue  # unknown, or too common to point anywhere
        rowid_of = index.store.rowids_of_ids(n.id for n in nodes)
        out.update((rowid_of[n.id], (MENTION_MATCH, n.path)) for n in nodes if n.id in rowid_of)
    return out


def _top(values: np.ndarray, n: int) -> np.ndarray:
    """Indexes of the n largest values (any order)."""
    return np.argpartition(-values, n)[:n] if len(values) > n else np.arange(len(values))


_TEST_PREFIXES = ("test_", "tests_")
_TEST_SUFFIXES = ("_test", "_tests", "_spec", "Test", "Tests", "Spec")
_TEST_INFIXES = frozenset({"test", "spec"})  # x.test.ts, x.spec.js


def _test_subject(path: str) -> tuple[str, bool]:
    """(what the file is about, whether it is a test) by its name: test_x.py,
    x_test.go, x.test.ts, x_spec.rb, XTest.java and x.py are all about x. A private
    module's underscore goes too, so _auth.py pairs with test_auth.py."""
    base, *rest = PurePosixPath(path).name.split(".")
    is_test = bool(_TEST_INFIXES.intersection(rest[:-1]))
    for prefix in _TEST_PREFIXES:
        if base.startswith(prefix) and len(base) > len(prefix):
            base, is_test = base[len(prefix):], True
            break
    for suffix in _TEST_SUFFIXES:
        if base.endswith(suffix) and len(base) > len(suffix):
            base, is_test = base[: -len(suffix)], True
            break
    return base.lstrip("_").lower(), is_test


def _stems_about(subject: str) -> list[str]:
    """Every file stem (`indexer.store.file_stem`) `_test_subject` can read as
    `subject`: one prefix, one suffix, up to two leading underscores. A superset:
    the caller checks each path found with `_test_subject` itself."""
    cores = [subject, "_" + subject, "__" + subject]
    prefixes = ("",) + _TEST_PREFIXES
    suffixes = ("",) + tuple(dict.fromkeys(s.lower() for s in _TEST_SUFFIXES))
    return [p + c + s for p in prefixes for c in cores for s in suffixes]


def _is_test(path: str) -> bool:
    return _test_subject(path)[1] or "/tests/" in f"/{path}"


def related_files(index, anchor_files: set[str], *, by_place: bool = True) -> dict[str, float]:
    """Files joined to the anchored ones: imports either way, calls and references
    between their symbols, docs naming them, their tests, the files committed with
    them before (git history) and, unless told not to, their directory and
    namesakes. In [0, 1]."""
    weight: dict[str, float] = defaultdict(float)
    store = index.store
    for anchor in anchor_files:
        joined: dict[tuple[str, str], int] = defaultdict(int)
        for path, rel, n in store.links_from_file(anchor) + store.links_into_file(anchor):
            joined[(path, rel)] += n
        for (path, rel), n in joined.items():
            weight[path] += FILE_LINK_WEIGHTS.get(rel, 0.5) * (1 + math.log(n))
        if W_CO_CHANGE:
            for path, n in store.co_changed(anchor):
                weight[path] += W_CO_CHANGE * math.log1p(n)
        subject, named_as_test = _test_subject(anchor)
        namesakes = []
        if len(subject) >= MIN_TEST_SUBJECT:
            for path in store.paths_with_stems(_stems_about(subject)):
                if path == anchor:
                    continue
                found = _test_subject(path)
                if found == (subject, not named_as_test):
                    weight[path] += W_SAME_TEST
                elif found == (subject, named_as_test):
                    namesakes.append(path)
        if not by_place:
            continue
        if len(namesakes) <= MAX_NAMESAKES:
            for path in namesakes:
                weight[path] += W_NAMESAKE
        directory = posixpath.dirname(anchor)
        siblings = store.paths_under(directory + "/") if directory else store.paths_in_root()
        anchor_is_test = _is_test(anchor)
        for path in siblings:
            if "/" not in path[len(directory) + 1 if directory else 0 :]:
                weight[path] += W_SAME_DIRECTORY if directory else W_SAME_DIRECTORY / 2
                if anchor_is_test and _is_test(path):
                    weight[path] += W_SIBLING_TEST
    for anchor in anchor_files:
        weight.pop(anchor, None)
    if not weight:
        return {}
    top = sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_RELATED_FILES]  # ties by path, not by row order
    best = top[0][1]
    return {path: w / best for path, w in top}


def _speaking_for_anchored_files(index, seeds: set[str], by_id: dict[str, NodeRow]) -> set[str]:
    """Ids of the candidates whose frames speak for a file joined to an anchor (a
    file importing it or imported by it, a doc naming it): their relations show that
    edge, which makes them anchored frames (G4)."""
    joined = index.store.files_joined_to(seeds) - {s for s in seeds if "#" not in s}
    near = [n for n in by_id.values() if n.path in joined and n.kind == "symbol"]
    if not near:
        return set()
    top_level = {n.path for n in near if n.parent == n.path and n.sym_kind != "module"}
    with_module = {n.path for n in index.store.nodes_by_id(f"{p}#{MODULE_FRAGMENT}" for p in top_level).values()}
    return {n.id for n in near if speaks_for_file(n, n.path in with_module)}


def _feedback(index, matched: dict[int, tuple[float, str]], named: list[str]) -> dict[str, float]:
    """Closeness for an unanchored question: the files of the symbols it names, the
    best-matching files, and the files related to them, at W_FEEDBACK of an anchor's
    strength."""
    best: dict[str, float] = {}
    for score, path in matched.values():
        if score > best.get(path, 0.0):
            best[path] = score
    floor = FEEDBACK_MIN_MATCH * max(best.values())
    top = named + sorted((p for p in best if best[p] >= floor), key=lambda p: (-best[p], p))[:FEEDBACK_FILES]
    # Not their directories or namesakes: those share a best match's folder or name, not the question;
    # docs at FEEDBACK_DOCS.
    near = {path: W_FEEDBACK * w * (FEEDBACK_DOCS if doc_format(path) else 1.0)
            for path, w in related_files(index, set(top), by_place=False).items()}
    near.update((path, W_FEEDBACK) for path in top)  # as close as what they lead to
    return near


def _with_scope(related: dict[str, float], scope: dict[str, float]) -> dict[str, float]:
    if not scope:
        return related
    out = dict(related)
    for path, share in scope.items():
        out[path] = max(out.get(path, 0.0), SCOPE_WEIGHT * share)
    return out


_ASKING = frozenset({"how", "what", "where", "why", "when", "which", "who", "can", "could", "should"})


def asks_how(text: str) -> bool:
    """A question ("how do I configure retries?") rather than a change to make ("Fix
    retries when ..."): docs answer questions, so the factors that hold prose back
    (UNLINKED_DOC_FACTOR, W_RECENT), chosen on commit messages, stay off for them."""
    words = text.split(maxsplit=1)
    return bool(words) and (text.rstrip().endswith("?") or words[0].lower().strip(",:") in _ASKING)


def _lift_best_guide(out: list[Candidate], lex: dict[str, float]) -> None:
    """Move the best-matching guide section up to QUESTION_DOC_PLACE, at the score of
    the frame it then follows, so scores still read best first."""
    if not lex:
        return
    floor = QUESTION_DOC_MIN * max(lex.values())
    guides = [i for i, c in enumerate(out) if c.node.kind == "section" and lex.get(c.node.id, 0.0) >= floor
              and not is_release_notes(c.node.path)]
    if not guides:
        return
    best = max(guides, key=lambda i: (lex[out[i].node.id], -i))
    if best <= QUESTION_DOC_PLACE:
        return
    guide = out.pop(best)
    out.insert(QUESTION_DOC_PLACE, replace(guide, score=out[QUESTION_DOC_PLACE - 1].score))


def _worth_sending(scored: list[tuple[Candidate, float]], lex: dict[str, float], anchor_files: set[str],
                   question: bool) -> list[Candidate]:
    """The candidates but the anchors' neighbours in other files below the bar (a
    question's: ANCHORED_NEIGHBOUR_MATCH; a change's: NEIGHBOUR_BAR): G4 would rank them
    above better frames. One is kept when no other anchored frame is left (G4: at
    least one, when one exists)."""
    best_outside = max((fused for c, fused in scored if c.hop is None or c.hop > 1), default=0.0)
    out: list[Candidate] = []
    unsent: list[Candidate] = []
    for c, fused in scored:
        weak = (lex.get(c.node.id, 0.0) < ANCHORED_NEIGHBOUR_MATCH if question
                else fused < NEIGHBOUR_BAR * best_outside)
        (unsent if c.hop == 1 and c.node.path not in anchor_files and weak else out).append(c)
    if unsent and not any(c.hop is not None and c.hop <= 1 for c in out):
        out.append(min(unsent, key=lambda c: (-c.score, c.node.id)))
    return out


def rank(index, text: str, seeds: set[str], *, keep=lambda node: True) -> list[Candidate]:
    """Candidates best first. With anchors, every node within one hop of one ranks
    above every node that is not (G4); inside the upper tier the fused score decides,
    inside the lower one the fused score hedged by the order the question gets
    without anchors and by the anchors' related files (`_hedged`)."""
    anchor_files = {s.partition("#")[0] for s in seeds}
    related = related_files(index, anchor_files) if seeds else {}
    found = matches(index, text)
    out = _ranked(index, text, seeds, related, keep, found)
    if seeds and out and (W_HEDGE_PLAIN or W_HEDGE_RELATED):
        plain = _ranked(index, text, set(), {}, keep, found) if W_HEDGE_PLAIN else []
        out = _hedged(out, plain, related, anchor_files)
    return out


def _hedged(out: list[Candidate], plain: list[Candidate], related: dict[str, float],
            anchor_files: set[str]) -> list[Candidate]:
    """The lower tier in the order a reciprocal-rank fusion of three file orders gives
    it: the anchored one, the one without anchors (`plain`, at W_HEDGE_PLAIN) and the
    anchors' related files (at W_HEDGE_RELATED). A file moves by where its first frame
    goes; its other frames stay where they were, or follow that first one. The scores,
    as a set, stay the tier's, re-dealt best first. Only the anchored candidates are
    placed: a file the anchored ranking left out may be one it held back (G4)."""
    def places(paths) -> dict[str, int]:
        found: dict[str, int] = {}
        for path in paths:
            if path not in anchor_files:
                found.setdefault(path, len(found))
        return found

    votes: dict[str, float] = defaultdict(float)
    for weight, order in ((1.0, places(c.node.path for c in out)),
                          (W_HEDGE_PLAIN, places(c.node.path for c in plain)),
                          (W_HEDGE_RELATED, places(sorted(related, key=lambda p: (-related[p], p))))):
        for path, place in order.items():
            votes[path] += weight / (HEDGE_K + place)
    upper = [c for c in out if c.hop is not None and c.hop <= 1]  # G4: the anchored tier stays first, as it is
    lower = [c for c in out if c.hop is None or c.hop > 1]
    first_at: dict[str, int] = {}
    for i, c in enumerate(lower):
        first_at.setdefault(c.node.path, i)
    # A file the anchored tier shows already keeps its place: its votes are for the
    # frame shown there, not for the weaker ones left to this tier.
    shown = {c.node.path for c in upper}
    slot_of = {path: at for path, at in first_at.items() if path in shown}
    free = [path for path in first_at if path not in shown]
    slots = sorted(first_at[path] for path in free)
    moved = sorted(free, key=lambda path: (-votes[path], first_at[path]))
    slot_of.update((path, slots[i]) for i, path in enumerate(moved))
    keyed = []
    nth: dict[str, int] = defaultdict(int)
    for i, c in enumerate(lower):
        at, n = slot_of[c.node.path], nth[c.node.path]
        nth[c.node.path] += 1
        keyed.append(((at, 0) if n == 0 else (i, 0) if i > at else (at, n), c))
    keyed.sort(key=lambda kc: kc[0])
    scores = sorted((c.score for c in lower), reverse=True)
    return upper + [replace(c, score=score) for (_, c), score in zip(keyed, scores)]


def _ranked(index, text: str, seeds: set[str], related: dict[str, float], keep, found: Matches) -> list[Candidate]:
    """`rank` before the hedge: `related`, the anchors' related files (none without);
    `found`, the question's BM25."""
    hops = index.graph.hops(seeds, max_hops=2, hub_links=HUB_LINKS) if seeds else {}
    anchor_files = {s.partition("#")[0] for s in seeds}
    scope = scoped_files(index.store, text, SCOPE_MAX_FILES) if SCOPE_WEIGHT else {}
    matched = lexical(index, text, _with_scope(related, scope), found=found)
    named = mentioned(index, text) if MENTION_MATCH else {}
    if named:
        matched = {rowid: (MENTION_LEAD * match, path) for rowid, (match, path) in matched.items()}
        matched.update(named)
    if not seeds and W_FEEDBACK and matched:
        related = _feedback(index, matched, [path for _, path in named.values()])
    neighbours = related
    related = _with_scope(related, scope)

    # Personalized PageRank from the anchors (and, more weakly, the best matches)
    # over their neighbourhood: how much of the anchors' attention reaches a node.
    spread: dict[str, float] = {}
    if seeds:
        best_matches = sorted(matched.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))[:PPR_LEXICAL_SEEDS]
        ids = index.store.ids_of_rowids([r for r, _ in best_matches])
        personal = {s: 1.0 for s in seeds}
        for rowid, (score, _) in best_matches:
            if rowid in ids:
                personal.setdefault(ids[rowid], PPR_LEXICAL_WEIGHT * score)
        nearest = dict(sorted(hops.items(), key=lambda kv: (kv[1], kv[0]))[:PPR_MAX_NODES])
        spread = index.graph.neighbourhood(personal, nearest)

    def closeness(node_id: str, path: str) -> float:
        hop = hops.get(node_id)
        by_hop = PROXIMITY_BY_HOP.get(hop, 0.0) if hop is not None else 0.0
        inside = IN_ANCHORED_FILE if path in anchor_files else 0.0
        return max(by_hop, inside, RELATED_FILE_SHARE * related.get(path, 0.0), PPR_SHARE * spread.get(node_id, 0.0))

    # Candidates: the best matches by what the score will make of them, then the
    # anchors' neighbourhood, then (for a question that matches nothing) an overview.
    pre = sorted(
        matched.items(),
        key=lambda kv: (-fuse(kv[1][0], RELATED_FILE_SHARE * related.get(kv[1][1], 0.0), 0.0), kv[1][1], kv[0]),
    )[:MAX_CANDIDATES]  # ties by path, then by place in the file: the same however the index was built
    pre_nodes = index.store.nodes_by_rowid(r for r, _ in pre)
    by_id = {n.id: n for n in pre_nodes.values()}
    lex = {node.id: matched[rowid][0] for rowid, node in pre_nodes.items()}
    asked = asks_how(text)
    if UNLINKED_DOC_FACTOR != 1.0 and not asked:
        # Here, not in lexical(): the best matches an unanchored question leans on
        # (_feedback) stay the best matches (measured: there it cost gin 0.05 R@5).
        for node_id in index.store.sections_naming_no_code(lex):
            lex[node_id] *= UNLINKED_DOC_FACTOR
    if CHANGE_DOC_FACTOR != 1.0 and not asked:
        for node in pre_nodes.values():
            if node.kind == "section":
                lex[node.id] *= CHANGE_DOC_FACTOR
    if W_RECENT and not seeds and index.store.get_meta("history_head"):  # a checkout, not a tarball
        changes = index.store.recent_changes({node.path for node in pre_nodes.values()})
        for node in pre_nodes.values():
            if asked and node.kind == "section":
                continue  # a guide answers how-to questions however long ago it was written
            lately = min(1.0, changes.get(node.path, 0.0) / RECENT_CHANGES_FULL)
            lex[node.id] *= (1 + W_RECENT * lately) / (1 + W_RECENT)
    near = [node_id for node_id, h in hops.items() if h <= 1 and node_id not in by_id]
    by_id.update(index.store.nodes_by_id(near))
    if neighbours and seeds:  # an anchor's neighbours are worth showing unmatched; the feedback's are not
        for node in index.store.top_nodes_in_files(list(neighbours), SYMBOLS_PER_RELATED_FILE):
            by_id.setdefault(node.id, node)
    if not matched and not seeds:
        by_id.update((n.id, n) for n in index.store.prior_nodes(MAX_CANDIDATES))

    speaks_for = _speaking_for_anchored_files(index, seeds, by_id) if seeds else set()

    centrality = index.store.priors(by_id) if W_PRIOR else {}  # weighed 0: no lookup per query
    scored: list[tuple[Candidate, float]] = []  # each with its fused score before the tiers
    for node_id, node in by_id.items():
        if node.kind == "file" or not keep(node):
            continue
        fused = fuse(lex.get(node_id, 0.0), closeness(node_id, node.path), _prior(centrality.get(node_id, 0.0), node))
        hop = hops.get(node_id)
        if node_id in speaks_for and (hop is None or hop > 1):
            # It carries its file's edge to an anchor among its relations, so it is an
            # anchored frame (G4) however far its node is. A header (imports, module
            # docstring) of a file importing or imported by the anchor is sent only when
            # it matches the question well: in the anchored tier it outranks everything
            # unanchored (measured: the best two by score cost 0.09-0.18 MRR anchored).
            # A header-less file's top-level symbol is the file's substance: it joins
            # the anchored tier.
            if node.sym_kind == "module" and lex.get(node_id, 0.0) < JOINED_HEADER_MATCH:
                continue
            hop = 1
        tiered = fused
        if seeds:
            # G4: two tiers, both inside [0, 1]: anchored in [0.5, 1], the rest below.
            tiered = 0.5 + 0.5 * fused if hop is not None and hop <= 1 else 0.5 * fused
        scored.append((Candidate(node, round(min(1.0, max(0.0, tiered)), 6), hop), fused))
    out = _worth_sending(scored, lex, anchor_files, asked) if seeds and matched else [c for c, _ in scored]
    out.sort(key=lambda c: (-c.score, c.node.id))
    if asked and not seeds:
        _lift_best_guide(out, lex)
    open_files = {s for s in seeds if "#" not in s}
    if open_files:
        shown: dict[str, int] = defaultdict(int)
        kept = []
        for c in out:
            if c.node.path in open_files and c.hop != 0:
                shown[c.node.path] += 1
                if shown[c.node.path] > ANCHOR_FILE_FRAMES:
                    continue
            kept.append(c)
        out = kept
    return out
