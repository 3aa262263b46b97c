"""Retrieval quality on real history: does repo-graph find the files a developer
went on to change, and how much of what it returns under a budget is from them?

Run it on any local git repository with history (a work tree or a bare mirror):

    /tmp/venv/bin/python benchmarks/quality.py REPO [REPO...]
    /tmp/venv/bin/python benchmarks/quality.py REPO --cases 40 --seed 0 --history both \\
        --systems repo-graph,bm25-files,bm25-symbols,aider --json
    /tmp/venv/bin/python benchmarks/quality.py --questions Q.jsonl --history both

Cases. From the first-parent history of HEAD (merges skipped) come the commits that
touch 1 to 8 source files (a file of a language `grammars.Registry().for_path()`
knows, outside doc folders: doc/, docs/, docs_src/, documentation/) and whose
message, cleaned, has at least 4 words and does not look automated (bots, "Bump x
from", "Merge", "Release 1.2", version-only, "[pre-commit.ci]", ...). The query is
the subject and body with trailers (Signed-off-by:, Co-authored-by:, ...), PR
references ("(#1234)") and URLs removed. Gold: the source files the commit modified
(status M: they exist in the parent). The newest `--pool` (default 4 x --cases)
such commits are cut into --cases equal buckets and one is drawn per bucket
(random.Random(--seed)), so cases spread evenly over recent history.

Other cases. `--cases-file F.jsonl`: change cases frozen elsewhere, one a line,
{"repo": "owner/name", "ref", "commit", "parent", "query", "gold": [paths], ...}
(optional "anchor", "subject", "changed_source"), evaluated exactly as mined ones.
`--questions F.jsonl`: developers' questions, {"id", "repo": "owner/name", "ref":
<40 hex>, "kind": "how"|"where"|"why", "plain": bool, "question", "gold": [paths]},
each asked of the snapshot at its ref; the anchor is chosen as for a change. A repo
owner/name is the git dir at --mirrors/owner+name (or its `repo` inside, as the
fetch tool lays it out).

Snapshots. Each change case is evaluated on its PARENT snapshot (a question on its
ref). One work directory per repository moves from snapshot to snapshot, oldest
first, so only the files that differ between consecutive snapshots are parsed again.
--history with (default): a linked `git worktree`, `git checkout -f --detach` (HEAD
is the parent, so the history repo-graph reads ends there). --history without: a
plain directory no git can see (a tarball, a fresh download), filled by `git
read-tree --reset -u` through an index file outside it. --history both: every
figure both ways; the baselines read no git, so their answers are computed once
and reported in both. Gold files the index does not hold (ignored, too large) are
dropped; a case left with none is.

Tasks.
  unanchored   the query alone.
  anchored     cases with >= 2 gold files: one of them (seeded choice) is the file
               the developer has open; it is sent as an anchor to the systems that
               take one (repo-graph: `anchors`, aider: the chat file), removed from
               every ranking and every packed output, and no longer gold.

Metrics (per system and task, averaged over cases). Each system's ranked output
becomes a ranked list of distinct files (order of first appearance).
  R@5, R@10    |gold & top-k files| / |gold|
  MRR          1 / rank of the first gold file (0 when none is ranked)
  budget recall      |gold & files of the answer packed under 4,096 tokens| / |gold|
  budget precision   of the tokens of that answer, the share from gold files.
               Tokens, for every system alike: ceil(utf-8 bytes / 4) of each
               returned item (the protocol's B3 unit, = a frame's token_cost).
               A case with an empty output counts 0.
  tokens       mean tokens returned under that budget (how full the budget is).
  best baseline      per figure, the best of bm25-files, bm25-symbols and aider
               (the letter says which), and repo-graph's margin over it.

Systems (all run in the same command, on the same snapshots and file set).
  repo-graph   as a host receives it (benchmarks/served.py): one `repo-graph serve`
               per snapshot over real pipes, its own cache directory per
               repository, queried once "index ready" is on its stderr:
               {goal, query_text: the query, anchors}, ranking from max_tokens 16384,
               max_frames 50, budget from max_tokens 4096, max_frames 50; each
               answer read whole. Items are the frames.
  repo-graph:inprocess   the same defaults through RepoProvider in this process
               (its own index and cache), as the ablation variants run.
  repo-graph:code   in process, kinds=["symbol"]: code frames only, as a host
               asks when it wants the code to change (gold files are code, so a
               doc section never counts).
  bm25-files   BM25 Okapi (k1 1.2, b 0.75, idf ln(1 + (N - n + .5)/(n + .5)), never
               negative) over each whole file's path and text, in words of its own
               (benchmarks/bm25_okapi.py: identifiers split, lower-cased, plurals
               folded, English and keyword stop words), not repo-graph's. The files
               are the source files repo-graph indexed (a language the Registry
               knows, as gold files are: markdown, a README or a changelog, would only
               crowd them out). Budget: whole files in rank order, skipping any that
               does not fit.
  bm25-symbols the same BM25 and words over the symbol nodes repo-graph extracted
               (text = the symbol's lines on disk); files in order of their best
               symbol; budget: symbol bodies in rank order, skipping any that does
               not fit.
  repo-graph:mcp   the same question through the MCP tool get_context (the SDK's client on
               repo-graph's MCP server, in process): its text and structured copy fit the
               budget, so fewer frames; ranking as repo-graph's. Each case checks that the
               frames it sends are a prefix of the CGP answer for the budget it names.
  aider        aider-chat's RepoMap (aider.repomap), offline: get_ranked_tags for the
               file ranking, get_ranked_tags_map_uncached(max_map_tokens=4096) for the
               budget (its map text, split per file). Mentions as aider's coder
               computes them: idents = re.split(r"\\W+", msg), file mentions and
               ident/file-stem matches; chat_fnames = [anchor] when anchored.
               Token counter: ceil(bytes / 4), no model. Each file's tags are taken
               once each, sorted (its capture order varies between processes, see
               get_tags_raw below), so its ranks repeat. aider-chat pins versions
               (tree-sitter, networkx, ...) that differ from repo-graph's, so it runs
               in its own virtual environment as a child process: --aider-python, else
               $AIDER_PYTHON, else this interpreter if it has aider, else
               /tmp/aider-venv/bin/python. The child blocks every socket connect and
               name lookup (and counts attempts), with AIDER_CHECK_UPDATE=false and
               LITELLM_LOCAL_MODEL_COST_MAP=True. When it can't run, the output says
               "aider: not run (reason)".

Ablation (on request: --systems repo-graph:inprocess,repo-graph:lexical,...): the
variants run in process (a serve takes no weights); compare them with
repo-graph:inprocess, which gives the served answers (tests/test_benchmarks.py).
  repo-graph:lexical   the same provider with only BM25F weighing (closeness weights
               0); plain repo-graph adds closeness to the anchors. The G4 tiers stay.

Output: a Markdown table per repository and history (system x task; cases, R@5,
R@10, MRR, budget recall, budget precision, tokens; best baseline and repo-graph's
margin) with wall times, then the same pooled over every case of every repository
(and, for questions, per kind and plain/identifier), and the exact command; --json
prints everything, per case too, as JSON instead. --combine SAVED... prints the
pooled tables of runs saved apart (one repository per process, say).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUDGET = 4096
RANK_TOKENS, RANK_FRAMES = 16384, 50  # what a host asks for (issue #37)
BUDGET_FRAMES = 50
MAX_SOURCE_FILES = 8
MIN_WORDS = 4
ALL_SYSTEMS = (
    "repo-graph",
    "bm25-files",
    "bm25-symbols",
    "aider",
    "repo-graph:inprocess",
    "repo-graph:code",
    "repo-graph:lexical",
    "repo-graph:no-history",
    "repo-graph:no-said",
    "repo-graph:co-change-3",
    "repo-graph:co-change-12",
    "repo-graph:no-mention",
    "repo-graph:mention-qualified",
    "repo-graph:question-mention-all",
    "repo-graph:mcp",
)
# The ablation (not run by default): repo-graph with its signals weighed otherwise.
# "lexical" is BM25F alone (no closeness to the anchors, nor the files' commit
# messages); plain repo-graph adds the graph; "no-mention" stops a name in code form from
# leading, "mention-qualified" lets only a change's `Type.member` lead (the default before
# session 35) and "question-mention-all" a question's every code form (backticks, any
# snake_case or CamelCase word); "no-test-twin" leaves a change's best file's test where it
# ranks. The G4 tiers stay: the protocol
# requires them. (The PageRank prior in the fused score, "prior", went with its weight:
# benchmarks/DECISIONS.md [prior].)
ABLATIONS = {
    "repo-graph:inprocess": {},  # the defaults, through RepoProvider in this process instead of serve
    "repo-graph:lexical": {
        "w_closeness_boost": 0.0,
        "w_proximity": 0.0,
        "w_recent": 0.0,
        "w_said": 0.0,
        "w_said_question": 0.0,
    },
    "repo-graph:no-history": {"w_co_change": 0.0, "w_recent": 0.0, "w_said": 0.0, "w_said_question": 0.0},  # no git
    "repo-graph:no-said": {"w_said": 0.0, "w_said_question": 0.0},  # the files' commit messages weigh nothing
    "repo-graph:no-recent": {"w_recent": 0.0},  # unanchored: recent changes weigh nothing
    "repo-graph:co-change-3": {"w_co_change": 3.0},  # co-change weights beside the default (6)
    "repo-graph:co-change-12": {"w_co_change": 12.0},
    "repo-graph:no-namesake": {"w_namesake": 0.0},  # anchored: a file of the same name elsewhere weighs nothing
    "repo-graph:no-mention": {"mention_match": 0.0},  # no name in code form leads
    "repo-graph:mention-qualified": {"mention_forms": ("qualified",)},  # a change's `Type.member` only
    "repo-graph:mention-code": {"mention_forms": ("backticks", "qualified")},  # and backticked names
    "repo-graph:mention-humped": {"mention_forms": ("qualified", "humped")},  # and CamelCase or camelCase words
    "repo-graph:no-test-twin": {"change_test_place": 0},  # a change's best file's test stays where it ranks
    "repo-graph:question-mention-all": {  # a question's every code form leads too, as a change's
        "question_mention_forms": ("backticks", "qualified", "underscored", "humped")
    },
}
DEFAULT_SYSTEMS = ALL_SYSTEMS[:4]
BASELINES = ("bm25-files", "bm25-symbols", "aider")  # they read neither git nor repo-graph's ranking


def variant(system: str) -> tuple[dict, tuple[str, ...]] | None:
    """(fields of repo_graph.ranking.Weights to replace, query kinds) of a repo-graph
    variant: a named ablation above, `repo-graph:code` (code frames only), or weights
    spelled out for a sweep, code only or not, in either case
    (`repo-graph:w_proximity=0.1+W_FEEDBACK=1`, `repo-graph:code+w_same_directory=0`);
    None for a system that is not a variant."""
    if system in ABLATIONS:
        return ABLATIONS[system], ()
    name, _, spec = system.partition(":")
    if name != "repo-graph" or not spec:
        return None
    from repo_graph.ranking.weights import numeric_fields

    numeric = numeric_fields()
    weights, kinds = {}, ()
    for part in spec.split("+"):
        key, eq, value = part.partition("=")
        if part == "code":
            kinds = ("symbol",)
        elif not eq:
            return None
        elif key.lower() not in numeric:
            raise ValueError(f"{system}: {key} is not a numeric field of repo_graph.ranking.Weights")
        else:
            weights[key.lower()] = numeric[key.lower()](float(value))
    return weights, kinds


DOC_DIRS = frozenset({"doc", "docs", "docs_src", "documentation"})
DEFAULT_AIDER_VENV = Path("/tmp/aider-venv/bin/python")

# ---------------------------------------------------------------------------
# The aider child: runs in aider's own environment, imports nothing of ours.
# ---------------------------------------------------------------------------


def aider_worker() -> int:
    """JSON lines in on stdin, out on the original stdout; everything else aider
    prints goes to stderr. No network: every connect and lookup raises."""
    import socket

    attempts: list[str] = []

    def refuse(*args, **kwargs):
        attempts.append(repr(args[1:3] if len(args) > 1 else args)[:200])
        raise OSError("network disabled by benchmarks/quality.py")

    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.getaddrinfo = refuse
    socket.create_connection = refuse

    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    try:
        import aider
        from aider.repomap import RepoMap
    except Exception as exc:  # report, don't crash: the parent prints the reason
        out.write(json.dumps({"ready": False, "error": f"import aider failed: {exc!r}"}) + "\n")
        return 0

    class Model:
        def token_count(self, text):
            if not isinstance(text, str):
                text = json.dumps(text)
            return math.ceil(len(text.encode("utf-8")) / 4)

    class IO:
        def read_text(self, fname, silent=False):
            try:
                with open(fname, encoding="utf-8", errors="replace") as fh:
                    return fh.read()
            except OSError:
                return None

        def tool_output(self, *a, **k):
            pass

        def tool_warning(self, *a, **k):
            pass

        def tool_error(self, *a, **k):
            pass

    class Ranked(RepoMap):
        last_ranked = None

        def get_tags_raw(self, fname, rel_fname):
            # The order of tree-sitter's QueryCursor.captures() differs from one process to
            # the next, and aider 0.86 appends each capture name's last node twice, so both
            # which tag is doubled and the order of float sums vary from run to run. Each
            # tag once, in a fixed order, makes its ranks repeatable.
            return sorted(set(super().get_tags_raw(fname, rel_fname) or ()), key=lambda t: (t.line, t.kind, t.name))

        def get_ranked_tags(self, *args, **kwargs):
            self.last_ranked = super().get_ranked_tags(*args, **kwargs)
            return self.last_ranked

    def file_mentions(text, rel_fnames):  # aider Coder.get_file_mentions, nothing in chat
        words = {w.rstrip(",.!;:?").strip("\"'`*_") for w in text.split()}
        found, by_base = set(), {}
        for rel in rel_fnames:
            if rel in words:
                found.add(rel)
            base = os.path.basename(rel)
            if "/" in base or "." in base or "_" in base or "-" in base:
                by_base.setdefault(base, []).append(rel)
        for base, rels in by_base.items():
            if len(rels) == 1 and base in words:
                found.add(rels[0])
        return found

    def ident_file_matches(idents, rel_fnames):  # aider Coder.get_ident_filename_matches
        stems = {}
        for rel in rel_fnames:
            stem = Path(rel).stem.lower()
            if len(stem) >= 5:
                stems.setdefault(stem, set()).add(rel)
        out_ = set()
        for ident in idents:
            if len(ident) >= 5:
                out_ |= stems.get(ident.lower(), set())
        return out_

    out.write(json.dumps({"ready": True, "version": getattr(aider, "__version__", "?")}) + "\n")
    maps: dict[tuple[str, str], Ranked] = {}
    for line in sys.stdin:
        req = json.loads(line)
        try:
            root = req["root"]
            key = (root, req["cache"])
            if key not in maps:
                Ranked.TAGS_CACHE_DIR = req["cache"]  # absolute: outside the tree
                maps[key] = Ranked(map_tokens=req["budget"], root=root, main_model=Model(), io=IO(), refresh="always")
            rm = maps[key]
            rels = req["files"]
            chat = req.get("chat")
            text = req["text"]
            idents = set(re.split(r"\W+", text))
            others = [r for r in rels if r != chat]
            mentioned = file_mentions(text, others) | ident_file_matches(idents, others)
            started = time.perf_counter()
            tree = rm.get_ranked_tags_map_uncached(
                [os.path.join(root, chat)] if chat else [],
                [os.path.join(root, r) for r in others],
                req["budget"],
                mentioned,
                idents,
            )
            ranked = []
            for tag in rm.last_ranked or []:
                if tag and tag[0] not in ranked:
                    ranked.append(tag[0])
            out.write(
                json.dumps(
                    {
                        "ranked": ranked,
                        "map": tree or "",
                        "seconds": time.perf_counter() - started,
                        "network_attempts": list(attempts),
                    }
                )
                + "\n"
            )
        except Exception as exc:
            import traceback

            traceback.print_exc()
            out.write(json.dumps({"error": repr(exc), "network_attempts": list(attempts)}) + "\n")
    return 0


if len(sys.argv) > 1 and sys.argv[1] == "--aider-worker":
    sys.exit(aider_worker())

# ---------------------------------------------------------------------------
# Everything below runs in repo-graph's environment.
# ---------------------------------------------------------------------------

sys.path.insert(0, str(REPO))

from grammars import Registry  # noqa: E402
from indexer.digest import line_span, line_starts  # noqa: E402
from indexer.index import RepoIndex  # noqa: E402
from indexer.sections import DOC_EXTENSIONS  # noqa: E402
from indexer.store import db_path_for  # noqa: E402
from repo_graph.protocol.messages import ContextQuery  # noqa: E402
from repo_graph.provider import RepoProvider  # noqa: E402
from repo_graph.tokenizer import Tokenizer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bm25_okapi import Okapi, file_terms, words  # noqa: E402
from served import Served, ServeError  # noqa: E402


def tokens_of(data: bytes | str) -> int:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return math.ceil(len(data) / 4)


def run_git(gitdir: Path, *args: str, env=None, check=True) -> str:
    proc = subprocess.run(
        ["git", f"--git-dir={gitdir}", "-c", "core.quotePath=false", *args], capture_output=True, env=env
    )
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode("utf-8", "replace")


def git_dir_of(path: str) -> Path:
    proc = subprocess.run(["git", "-C", path, "rev-parse", "--absolute-git-dir"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{path}: not a git repository ({proc.stderr.strip()})")
    return Path(proc.stdout.strip())


# ---------------------------------------------------------------------------
# Cases from history
# ---------------------------------------------------------------------------

TRAILER = re.compile(
    r"^\s*[A-Za-z][A-Za-z0-9-]*(-by|-By|-BY)\s*:.*$|^\s*(Co-authored-by|Signed-off-by|Change-Id|"
    r"Cc|Closes|Fixes|Resolves|Refs|See-also|Bug|Issue|PR-URL|Release-note)\s*:.*$",
    re.IGNORECASE | re.MULTILINE,
)
_ISSUE = r"(?:[\w.-]+/[\w.-]+)?#\d+"
REF_PHRASE = re.compile(  # "Fixes #12, closes #34", "PR #56", "Ref: #7" (the number says nothing)
    rf"\b(?:PR|Refs?|Fix(?:es|ed)?|Clos(?:es|ed)?|Resolv(?:es|ed)?|See(?: also)?|cf\.?)\s*:?\s*"
    rf"{_ISSUE}(?:\s*(?:,|and|&)\s*{_ISSUE})*",
    re.IGNORECASE,
)
PR_REF = re.compile(rf"\(\s*{_ISSUE}\s*\)|(?<![\w/])(?:gh-|GH-)?{_ISSUE}\b")
URL = re.compile(r"https?://\S+")
AUTOMATED = re.compile(
    r"^(?:bump\b|build\(deps|chore\(deps|\[pre-commit\.ci\]|pre-commit autoupdate|\[pre-commit|"
    r"merge\b|auto-?merge|update release notes|update changelog|changelog\b|"
    r"(?:prepare |start |bump )?(?:release|version)\s*v?\s*\d|v?\d+(?:\.\d+)+\s*$|"
    r"(?:release|tag)\s+v?\d|(?:🔖\s*)?release version)",
    re.IGNORECASE,
)
BOT_AUTHORS = re.compile(r"\[bot\]|^github-actions|^dependabot|^renovate|^pre-commit-ci", re.IGNORECASE)


def clean_message(message: str) -> str:
    text = TRAILER.sub("", message)
    text = URL.sub("", text)
    text = REF_PHRASE.sub("", text)
    text = PR_REF.sub("", text)
    lines = [ln.rstrip() if re.search(r"\w", ln) else "" for ln in text.strip().splitlines()]
    out, blank = [], False
    for ln in lines:
        if not ln.strip():
            blank = bool(out)
            continue
        if blank:
            out.append("")
        out.append(ln)
        blank = False
    return "\n".join(out).strip()


def looks_automated(subject: str, author: str) -> bool:
    if BOT_AUTHORS.search(author):
        return True
    bare = re.sub(r"^[^\w\[(]+", "", subject.strip())  # leading emoji and marks (gitmoji)
    return bool(AUTOMATED.match(bare))


def is_doc_path(path: str) -> bool:
    return any(part.lower() in DOC_DIRS for part in path.split("/")[:-1])


@dataclass
class Case:
    sha: str
    parent: str
    subject: str
    query: str
    gold: list[str]
    changed_source: int
    anchor: str | None = None
    dropped_gold: list[str] = field(default_factory=list)
    qid: str | None = None  # a question's id (--questions)
    kind: str | None = None  # how | where | why
    plain: bool | None = None  # a question in plain words, no identifier in it


def history_cases(gitdir: Path, ref: str, n_cases: int, pool: int, seed: int, max_history: int, registry: Registry):
    """(cases oldest parent first, how many first-parent commits were scanned, eligible)."""
    fmt = "%x1e%H%x00%P%x00%an <%ae>%x00%B%x00"
    log = run_git(
        gitdir,
        "log",
        "--first-parent",
        "--no-merges",
        "--no-renames",
        f"-n{max_history}",
        f"--format={fmt}",
        "--name-status",
        ref,
    )
    eligible: list[Case] = []
    scanned = 0
    for record in log.split("\x1e")[1:]:
        scanned += 1
        parts = record.split("\x00")
        if len(parts) < 5:
            continue
        sha, parents, author, message, status = parts[0], parts[1].split(), parts[2], parts[3], parts[4]
        if len(parents) != 1:
            continue
        subject = message.strip().splitlines()[0] if message.strip() else ""
        if looks_automated(subject, author):
            continue
        query = clean_message(message)
        if len(re.findall(r"[A-Za-z0-9_]+", query)) < MIN_WORDS:
            continue
        changed = []
        for line in status.strip().splitlines():
            kind, _, path = line.partition("\t")
            if path and registry.for_path(path) is not None and not is_doc_path(path):
                changed.append((kind[:1], path))
        if not 1 <= len(changed) <= MAX_SOURCE_FILES:
            continue
        gold = sorted(p for k, p in changed if k == "M")
        if not gold:
            continue
        eligible.append(Case(sha, parents[0], subject, query, gold, len(changed)))
        if len(eligible) >= pool:
            break
    rng = random.Random(seed)
    chosen = []
    if eligible:
        n = min(n_cases, len(eligible))
        for i in range(n):
            lo, hi = i * len(eligible) // n, (i + 1) * len(eligible) // n
            chosen.append(eligible[rng.randrange(lo, max(hi, lo + 1))])
    for case in chosen:
        if len(case.gold) >= 2:
            case.anchor = random.Random(f"{seed}:{case.sha}").choice(case.gold)
    chosen.reverse()  # oldest first: each snapshot is a small step from the one before
    return chosen, scanned, len(eligible)


# ---------------------------------------------------------------------------
# Snapshots, indexed incrementally
# ---------------------------------------------------------------------------


class Snapshots:
    """The work directory that moves from snapshot to snapshot, and the indexes of it.

    With history: a linked work tree of the repository under test, each snapshot a
    checkout whose HEAD is the case's parent, so repo-graph reads the history that
    commit can reach (co-changes, commit messages) and nothing after it. Without: a
    plain directory with no `.git` anywhere above it (a tarball, a fresh download),
    filled by `git read-tree -u` through an index file kept outside it.

    `serve`: every snapshot is answered by its own `repo-graph serve` (one cache per
    repository, so a new snapshot re-parses only what changed). `inprocess`: a
    RepoIndex in this process too, with a cache of its own (the ablation variants).
    The baselines' corpus (the files repo-graph indexed, its symbols) is read from the
    serve's database when there is a serve, else from the in-process one."""

    def __init__(self, gitdir: Path, base: Path, *, history: bool = True, serve: bool = True, inprocess: bool = False):
        self.gitdir = gitdir
        self.base = base
        self.history = history
        self.tree = base / "tree"
        self.git_index = base / "plain.index"
        if history:
            run_git(gitdir, "worktree", "add", "--detach", "--no-checkout", str(self.tree))
        else:
            self.tree.mkdir()
            inside = subprocess.run(["git", "-C", str(self.tree), "rev-parse", "--git-dir"], capture_output=True)
            if inside.returncode == 0:  # a snapshot "without history" that git can see would be a lie
                raise SystemExit(f"{self.tree} is inside a git repository: pass a --tmp outside any")
        self.serve = serve
        self.cache = base / "rg-cache"
        self.index = None
        self.provider = None
        if inprocess or not serve:
            self.index = RepoIndex(self.tree, cache_dir=base / ("rg-inproc-cache" if serve else "rg-cache"), jobs=1)
            self.provider = RepoProvider(self.index, Tokenizer().start())
        self.served: Served | None = None
        self.current: str | None = None
        self.index_seconds: list[float] = []
        self.parsed: list[int] = []
        self.serve_seconds: list[float] = []  # spawn -> handshake -> "index ready", per snapshot
        self.error: str | None = None  # why repo-graph could not index the current snapshot
        self.missing: str | None = None  # why git could not check it out (a clone without some blobs)
        self.left_out: list[str] = []  # files of the snapshot git lacks that no system reads (see _place)
        self._registry: Registry | None = None

    def _place(self, commit: str) -> subprocess.CompletedProcess:
        """Check `commit` out. A mirror may lack some blobs (the session's `fetch` leaves out
        the largest files): when every one it lacks is a file no system reads (not a
        language the grammars know, not a doc), the snapshot is made without them and
        `left_out` names them; else git's failure stands and the case is skipped."""
        self.left_out = []
        proc = self._git_place(commit)
        if proc.returncode == 0:
            return proc
        absent = self._absent_blobs(commit)
        if not absent or any(self._read_by_some_system(p) for p in absent):
            return proc
        self.left_out = absent
        return self._place_without(commit, absent)

    def _read_by_some_system(self, path: str) -> bool:
        if self._registry is None:
            self._registry = Registry()
        doc = os.path.splitext(path)[1].lower() in DOC_EXTENSIONS or is_doc_path(path)
        return doc or self._registry.for_path(path) is not None

    def _absent_blobs(self, commit: str) -> list[str]:
        listing = subprocess.run(
            ["git", f"--git-dir={self.gitdir}", "ls-tree", "-r", "-z", "--full-tree", commit], capture_output=True
        )
        entries = [line.split(b"\t", 1) for line in listing.stdout.split(b"\0") if line]
        blobs = {meta.split()[2].decode(): path.decode(errors="replace") for meta, path in entries if b" blob " in meta}
        if not blobs:
            return []
        check = subprocess.run(
            ["git", f"--git-dir={self.gitdir}", "cat-file", "--batch-check"],
            input="\n".join(blobs).encode() + b"\n",
            capture_output=True,
        )
        return sorted(
            blobs[line.split()[0]] for line in check.stdout.decode().splitlines() if line.endswith(" missing")
        )

    def _place_without(self, commit: str, absent: list[str]) -> subprocess.CompletedProcess:
        """The snapshot from git's index of `commit` less `absent`, written into an emptied tree."""
        for child in self.tree.iterdir():
            if child.name == ".git":  # a linked work tree's pointer to its repository
                continue
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
        if self.history:
            git, env = ["git", "-C", str(self.tree)], None
        else:
            git = ["git", f"--git-dir={self.gitdir}", f"--work-tree={self.tree}"]
            env = {**os.environ, "GIT_INDEX_FILE": str(self.git_index)}
        steps = [["read-tree", "--reset", commit], ["update-index", "--force-remove", "--", *absent]]
        if self.history:
            steps.insert(0, ["update-ref", "--no-deref", "HEAD", commit])
        steps.append(["checkout-index", "--all", "--force"])
        for step in steps:
            proc = subprocess.run([*git, *step], capture_output=True, env=env)
            if proc.returncode != 0:
                return proc
        return proc

    def _git_place(self, commit: str) -> subprocess.CompletedProcess:
        if self.history:
            return subprocess.run(
                ["git", "-C", str(self.tree), "checkout", "-q", "-f", "--detach", commit], capture_output=True
            )
        env = {**os.environ, "GIT_INDEX_FILE": str(self.git_index)}
        return subprocess.run(
            ["git", f"--git-dir={self.gitdir}", f"--work-tree={self.tree}", "read-tree", "--reset", "-u", commit],
            capture_output=True,
            env=env,
        )

    def checkout(self, commit: str) -> None:
        if commit == self.current:
            return
        self._stop_serve()  # a host's session ends before the tree moves on
        proc = self._place(commit)
        if proc.returncode != 0:
            self.current = None  # the tree is whatever git left: the next checkout starts over
            self.missing = (proc.stderr.decode(errors="replace").strip().splitlines() or ["git failed"])[0]
            return
        self.missing = None
        self.error = None
        self.current = commit
        if self.index is not None:
            started = time.perf_counter()
            try:
                summary = self.index.refresh()
            except Exception as exc:  # measured, not hidden: the case is skipped and the output says why
                self.error = f"{type(exc).__name__}: {exc}"
                return
            self.index_seconds.append(time.perf_counter() - started)
            self.parsed.append(summary.parsed)
        if self.serve:
            try:
                self.served = Served(self.tree, self.cache, self.base / "home")
            except ServeError as exc:
                self.error = f"serve: {exc}"
                return
            self.serve_seconds.append(self.served.seconds_to_ready)
            parsed = re.search(r"(\d+) parsed", self.served.index_line)
            if self.index is None:
                self.index_seconds.append(self.served.seconds_to_ready)
                self.parsed.append(int(parsed.group(1)) if parsed else -1)

    def _stop_serve(self) -> None:
        if self.served is not None:
            self.served.close()
            self.served = None

    def _read(self, sql: str) -> list[tuple]:
        """Rows of the index the baselines share with repo-graph, read-only (WAL: the
        serve may be running)."""
        cache = self.cache if self.serve or self.index is None else self.index.store.path.parent
        path = db_path_for(self.tree, cache)
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()

    def files(self) -> list[str]:
        return sorted(row[0] for row in self._read("SELECT path FROM files WHERE status='ok'"))

    def symbol_rows(self) -> list[tuple]:
        return self._read(
            "SELECT id, path, start_line, end_line FROM nodes WHERE kind='symbol' ORDER BY path, start_line, id"
        )

    def close(self) -> None:
        self._stop_serve()
        if self.index is not None:
            self.index.close()
        if self.history:
            run_git(self.gitdir, "worktree", "remove", "--force", str(self.tree), check=False)
            run_git(self.gitdir, "worktree", "prune", check=False)


# ---------------------------------------------------------------------------
# BM25 baselines (benchmarks/bm25_okapi.py: their own words, not repo-graph's)
# ---------------------------------------------------------------------------


class Corpora:
    """Whole files and symbol bodies of the current snapshot, term counts cached by
    (path, size, mtime) so a new snapshot only re-reads what changed."""

    def __init__(self, snaps: Snapshots):
        self.snaps = snaps
        self.registry = Registry()
        self.file_cache: dict[str, tuple[tuple, bytes, Counter]] = {}
        self.sym_cache: dict[tuple, Counter] = {}
        self.generation = None
        self.files: Okapi | None = None
        self.symbols: Okapi | None = None
        self.file_tokens: dict[str, int] = {}
        self.sym_info: dict[str, tuple[str, int]] = {}  # symbol id -> (path, tokens)

    def _file(self, path: str):
        full = self.snaps.tree / path
        st = full.stat()
        stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
        hit = self.file_cache.get(path)
        if hit is None or hit[0] != stamp:
            data = full.read_bytes()
            hit = (stamp, data, file_terms(path, data.decode("utf-8", "replace")))
            self.file_cache[path] = hit
        return hit

    def refresh(self, files: list[str], need_files: bool, need_symbols: bool) -> None:
        key = self.snaps.current
        if key == self.generation:
            return
        self.generation = key
        live = set(files)
        for gone in [p for p in self.file_cache if p not in live]:
            del self.file_cache[gone]
        docs = []
        self.file_tokens = {}
        for path in files:
            if self.registry.for_path(path) is None:
                continue  # source files only: a doc is never gold, and a README or changelog matches everything
            stamp, data, counts = self._file(path)
            docs.append((path, counts))
            self.file_tokens[path] = tokens_of(data)
        self.files = Okapi(docs) if need_files else None
        if not need_symbols:
            return
        sym_docs, self.sym_info, used = [], {}, set()
        starts_of: dict[str, list[int]] = {}
        for node_id, path, first, last in self.snaps.symbol_rows():
            if path not in live:
                continue
            stamp, data, _ = self._file(path)
            ck = (path, stamp, first, last)
            if path not in starts_of:
                starts_of[path] = line_starts(data)
            starts = starts_of[path]
            if first < 1 or last > len(starts):
                continue
            span = line_span(data, starts, first, last)
            counts = self.sym_cache.get(ck)
            if counts is None:
                counts = Counter(words(span.decode("utf-8", "replace")))
                self.sym_cache[ck] = counts
            used.add(ck)
            sym_docs.append((node_id, counts))
            self.sym_info[node_id] = (path, tokens_of(span))
        self.sym_cache = {k: v for k, v in self.sym_cache.items() if k in used}
        self.symbols = Okapi(sym_docs)


# ---------------------------------------------------------------------------
# The systems: each returns (ranked items as paths, packed items as (path, tokens))
# ---------------------------------------------------------------------------


def pack_greedy(items, budget: int, skip: str | None):
    used, out = 0, []
    for path, tokens in items:
        if path == skip:
            continue
        if used + tokens <= budget:
            out.append((path, tokens))
            used += tokens
    return out


def frame_path(frame) -> str:
    return frame.id.partition("#")[0]


def run_variant(system: str, snaps: Snapshots, case: Case, anchor: str | None):
    from repo_graph.ranking import DEFAULT

    weights, kinds = variant(system)
    return run_repo_graph(snaps, case, anchor, kinds, replace(DEFAULT, **weights))


def run_repo_graph(snaps: Snapshots, case: Case, anchor: str | None, kinds: tuple[str, ...] = (), weights=None):
    anchors = (anchor,) if anchor else ()
    provider = (
        snaps.provider if weights is None else RepoProvider(snaps.index, snaps.provider.tokenizer, weights=weights)
    )
    big, small = (
        provider.query(
            ContextQuery(
                goal=case.query,
                query_text=case.query,
                max_frames=frames,
                max_tokens=tokens,
                anchors=anchors,
                kinds=kinds,
            )
        )
        for frames, tokens in ((RANK_FRAMES, RANK_TOKENS), (BUDGET_FRAMES, BUDGET))
    )
    ranked = [frame_path(f) for f in big.frames]
    packed = [(frame_path(f), tokens_of(f.content)) for f in small.frames]
    return ranked, packed


def run_served(snaps: Snapshots, case: Case, anchor: str | None):
    """repo-graph as a host receives it: two queries to the snapshot's `serve` over its
    pipes, the ranking at RANK_TOKENS / RANK_FRAMES, the budget at BUDGET."""
    if snaps.served is None:
        raise ServeError(snaps.error or "no serve for this snapshot")
    query = {"goal": case.query, "query_text": case.query, "anchors": [anchor] if anchor else []}
    big = snaps.served.query({**query, "max_frames": RANK_FRAMES, "max_tokens": RANK_TOKENS})
    small = snaps.served.query({**query, "max_frames": BUDGET_FRAMES, "max_tokens": BUDGET})
    # B3: token_cost is ceil(utf-8 bytes / 4) of the content, the count every system gets here
    ranked = [f["id"].partition("#")[0] for f in big]
    return ranked, [(f["id"].partition("#")[0], tokens_of(f["content"])) for f in small]


def in_process(system: str) -> bool:
    """Systems that need a RepoIndex in this process (weights a serve cannot take)."""
    return system == "repo-graph:mcp" or variant(system) is not None


def run_mcp(snaps: Snapshots, case: Case, anchor: str | None):
    """repo-graph through MCP's get_context under BUDGET: the files of the frames it
    sends, which must be a prefix of the CGP answer for the budget it names."""
    import anyio
    from mcp import Client

    from repo_graph.transports.mcp import build_server

    args = {
        "goal": case.query,
        "max_tokens": BUDGET,
        "max_frames": BUDGET_FRAMES,
        "anchors": [anchor] if anchor else [],
    }

    async def call():
        async with Client(build_server(snaps.provider), mode="legacy") as client:
            return await client.call_tool("get_context", args)

    result = anyio.run(call)
    if result.is_error:
        raise RuntimeError(f"get_context failed: {result.content[0].text}")
    sent = result.structured_content
    cgp = snaps.provider.query(
        ContextQuery(
            goal=case.query,
            query_text=case.query,
            max_frames=BUDGET_FRAMES,
            max_tokens=sent["query_max_tokens"],
            anchors=tuple(args["anchors"]),
        )
    )
    ids = [f["frame_id"] for f in sent["frames"]]
    if ids != [f.id for f in cgp.frames][: len(ids)]:
        raise AssertionError(f"get_context sent {ids}, not a prefix of CGP's {[f.id for f in cgp.frames]}")
    ranked, _ = run_repo_graph(snaps, case, anchor)
    return ranked, [(f["frame_id"].partition("#")[0], tokens_of(f["content"])) for f in sent["frames"]]


def run_bm25_files(corpora: Corpora, case: Case, anchor: str | None):
    ranked = corpora.files.rank(case.query)
    packed = pack_greedy(((p, corpora.file_tokens[p]) for p in ranked), BUDGET, anchor)
    return ranked, packed


def run_bm25_symbols(corpora: Corpora, case: Case, anchor: str | None):
    ranked_ids = corpora.symbols.rank(case.query)
    ranked = [corpora.sym_info[i][0] for i in ranked_ids]
    packed = pack_greedy((corpora.sym_info[i] for i in ranked_ids), BUDGET, anchor)
    return ranked, packed


class Aider:
    """The aider child process; `reason` says why it is not running."""

    def __init__(self, python: str | None):
        self.reason = None
        self.proc = None
        self.version = None
        self.network_attempts: list[str] = []
        python = python or os.environ.get("AIDER_PYTHON")
        if not python:
            try:
                import aider  # noqa: F401

                python = sys.executable
            except ImportError:
                python = str(DEFAULT_AIDER_VENV) if DEFAULT_AIDER_VENV.exists() else None
        if not python:
            self.reason = (
                "aider-chat is not installed (install it in its own venv, e.g. "
                "`python -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install aider-chat`, "
                "or pass --aider-python)"
            )
            return
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "ANTHROPIC", "AIDER_"))}
        env.update(
            AIDER_CHECK_UPDATE="false",
            AIDER_ANALYTICS="false",
            LITELLM_LOCAL_MODEL_COST_MAP="True",
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            PYTHONNOUSERSITE="1",
            PYTHONHASHSEED="0",  # aider iterates sets of identifiers: fix the order, fix the ranks
            NO_PROXY="*",
            no_proxy="*",
        )
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [python, str(Path(__file__).resolve()), "--aider-worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
            bufsize=1,
        )
        hello = self.proc.stdout.readline()
        try:
            hello = json.loads(hello)
        except ValueError:
            hello = {"ready": False, "error": f"the aider child said {hello!r} ({self._log_tail()})"}
        if not hello.get("ready"):
            self.reason = hello.get("error", "no answer")
            self.close()
        else:
            self.version = hello.get("version")

    def _log_tail(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-400:].strip()

    def run(self, root: Path, cache: Path, files: list[str], case: Case, anchor: str | None):
        if self.proc is None:
            raise RuntimeError(self.reason)
        req = {
            "root": str(root),
            "cache": str(cache),
            "files": files,
            "chat": anchor,
            "text": case.query,
            "budget": BUDGET,
        }
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.reason = f"the aider child exited ({self._log_tail()})"
            self.close()
            raise RuntimeError(self.reason)
        answer = json.loads(line)
        self.network_attempts = answer.get("network_attempts", [])
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["ranked"], split_map(answer["map"], set(files))

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(10)
            except Exception:
                self.proc.kill()
            self.proc = None


def split_map(text: str, files: set[str]) -> list[tuple[str, int]]:
    """aider's map text, per file: a line `path:` or `path` opens a file's part."""
    parts: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines(keepends=True):
        name = line.rstrip("\n")
        name = name[:-1] if name.endswith(":") else name
        if name in files:
            parts.append((name, [line]))
        else:
            parts[-1][1].append(line)
    return [
        (p if p is not None else "(map preamble)", tokens_of("".join(lines)))
        for p, lines in parts
        if p is not None or "".join(lines).strip()
    ]


# ---------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------


def score(ranked: list[str], packed: list[tuple[str, int]], gold: set[str], anchor: str | None) -> dict:
    files = [f for f in dict.fromkeys(ranked) if f != anchor]
    first = next((i + 1 for i, f in enumerate(files) if f in gold), None)
    anchor_tokens = sum(t for p, t in packed if p == anchor)
    packed = [(p, t) for p, t in packed if p != anchor]
    total = sum(t for _, t in packed)
    from_gold = sum(t for p, t in packed if p in gold)
    return {
        "r5": len(gold & set(files[:5])) / len(gold),
        "r10": len(gold & set(files[:10])) / len(gold),
        "rr": 1.0 / first if first else 0.0,
        "recall": len(gold & {p for p, _ in packed}) / len(gold),  # gold files the budget answer touches
        "precision": from_gold / total if total else 0.0,
        "tokens": total,
        "anchor_tokens": anchor_tokens,  # spent on the open file itself, not counted above
        "first_gold_rank": first,
        "top5": files[:5],
    }


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


# ---------------------------------------------------------------------------
# One repository
# ---------------------------------------------------------------------------


def repo_name(path: str) -> str:
    """owner+name/repo (a mirror), name.git or name: the repository's name."""
    name = Path(path.rstrip("/")).name
    if name in ("repo", ".git"):
        return Path(path.rstrip("/")).parent.name
    return name[:-4] if name.endswith(".git") else name


def fit_to_snapshot(case: Case, indexed: set[str]) -> bool:
    """Drop the gold files the snapshot's index does not hold, and the anchor when it
    is not indexed or would leave no other gold; False when no gold is left."""
    case.dropped_gold = [g for g in case.gold if g not in indexed]
    case.gold = [g for g in case.gold if g in indexed]
    if case.anchor is not None and (case.anchor not in indexed or len(case.gold) < 2):
        case.anchor = None
    return bool(case.gold)


def case_order(gitdir: Path, cases: list[Case]) -> list[Case]:
    """Oldest snapshot first: each a small step from the one before."""
    when: dict[str, int] = {}
    for case in cases:
        if case.parent not in when:
            out = run_git(gitdir, "log", "-1", "--format=%ct", case.parent, check=False).strip()
            when[case.parent] = int(out) if out.isdigit() else 0
    return sorted(cases, key=lambda c: when[c.parent])  # stable: ties keep the file's order


def mirror_of(repo: str, mirrors: str) -> Path:
    """owner/name -> the git dir of its mirror: DIR/owner+name (bare), or the `repo`
    git dir the fetch tool puts inside it."""
    root = Path(mirrors) / repo.replace("/", "+")
    return git_dir_of(str(root / "repo" if (root / "repo").exists() else root))


def read_jsonl(path: str) -> list[dict]:
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{n}: not JSON ({exc})") from None
    return rows


def question_case(row: dict, seed: int) -> Case:
    """A developer's question, asked of the snapshot at its `ref`."""
    gold = sorted(dict.fromkeys(row["gold"]))
    qid = str(row["id"])
    if row.get("kind") not in ("how", "where", "why"):
        raise SystemExit(f"question {qid}: kind must be how, where or why, not {row.get('kind')!r}")
    case = Case(qid, row["ref"], row["question"].splitlines()[0], row["question"], gold, len(gold))
    case.qid, case.kind, case.plain = qid, row["kind"], bool(row.get("plain"))
    if len(gold) >= 2:
        case.anchor = random.Random(f"{seed}:{qid}").choice(gold)
    return case


def frozen_case(row: dict, seed: int) -> Case:
    """A change case frozen by another session: evaluated exactly as a mined one."""
    gold = sorted(dict.fromkeys(row["gold"]))
    query = row["query"]
    subject = row.get("subject") or (query.splitlines()[0] if query else "")
    case = Case(row["commit"], row["parent"], subject, query, gold, int(row.get("changed_source", len(gold))))
    if row.get("anchor") in gold and len(gold) >= 2:
        case.anchor = row["anchor"]
    elif len(gold) >= 2:
        case.anchor = random.Random(f"{seed}:{case.sha}").choice(gold)
    return case


def jobs_from_file(path: str, task: str, args) -> list[dict]:
    """One job per repository named in a JSONL file of questions or frozen cases."""
    make = question_case if task == "questions" else frozen_case
    by_repo: dict[str, list[Case]] = {}
    refs: dict[str, set[str]] = {}
    for row in read_jsonl(path):
        by_repo.setdefault(row["repo"], []).append(make(row, args.seed))
        refs.setdefault(row["repo"], set()).add(row.get("ref") or row.get("parent"))
    jobs = []
    for repo, cases in by_repo.items():
        gitdir = mirror_of(repo, args.mirrors)
        jobs.append(
            {
                "name": repo,
                "repository": str(gitdir),
                "task": task,
                "head": ",".join(sorted(r for r in refs[repo] if r))[:81],
                "cases": case_order(gitdir, cases),
                "source": path,
            }
        )
    return jobs


def job_from_history(path: str, args) -> dict:
    gitdir = git_dir_of(path)
    cases, scanned, eligible = history_cases(
        gitdir, args.ref, args.cases, args.pool or 4 * args.cases, args.seed, args.max_history, Registry()
    )
    return {
        "name": repo_name(path),
        "repository": path,
        "task": "changes",
        "head": run_git(gitdir, "rev-parse", args.ref).strip(),
        "cases": cases,
        "scanned_commits": scanned,
        "eligible_commits": eligible,
    }


def run_system(system: str, snaps: Snapshots, corpora: Corpora, aider, base: Path, files, case, anchor):
    if system == "repo-graph":
        return run_served(snaps, case, anchor)
    if system == "repo-graph:mcp":
        return run_mcp(snaps, case, anchor)
    if variant(system) is not None:
        return run_variant(system, snaps, case, anchor)
    if system == "bm25-files":
        return run_bm25_files(corpora, case, anchor)
    if system == "bm25-symbols":
        return run_bm25_symbols(corpora, case, anchor)
    return aider.run(snaps.tree, base / "aider-tags", files, case, anchor)


def evaluate_repo(job: dict, history: bool, args, systems: list[str], aider: Aider | None, log, memo=None) -> dict:
    """Every system on every case of one repository, each on its snapshot, with or
    without git history. `memo` carries the baselines' results from the other history
    pass: they read no git, so the same snapshot gives them the same answers."""
    started = time.perf_counter()
    gitdir = git_dir_of(job["repository"])
    cases = [replace(c, gold=list(c.gold), dropped_gold=[]) for c in job["cases"]]
    memo = {} if memo is None else memo
    label = "with history" if history else "without history"
    report = {
        **{k: v for k, v in job.items() if k != "cases"},
        "history": label,
        "systems": systems,
        "cases": [],
        "not_run": {},
        "index_failures": [],
        "checkout_failures": [],
    }
    log(f"{job['name']} ({label}): {len(cases)} {job['task']} cases")
    base = Path(tempfile.mkdtemp(prefix="rg-quality-", dir=args.tmp))
    snaps = Snapshots(
        gitdir,
        base,
        history=history,
        serve="repo-graph" in systems,
        inprocess=any(in_process(s) for s in systems),
    )
    corpora = Corpora(snaps)
    seconds = {s: 0.0 for s in systems}
    try:
        for n, case in enumerate(cases, 1):
            snaps.checkout(case.parent)
            if snaps.missing:  # not repo-graph's doing: the case is skipped, and the output says so
                report["checkout_failures"].append({"sha": case.sha, "parent": case.parent, "error": snaps.missing})
                log(f"  [{n}/{len(cases)}] {case.sha[:10]} skipped: git could not check out {snaps.missing}")
                continue
            if snaps.left_out:
                report.setdefault("left_out", {})[case.parent] = snaps.left_out
            if snaps.error:
                report["index_failures"].append({"sha": case.sha, "parent": case.parent, "error": snaps.error})
                log(f"  [{n}/{len(cases)}] {case.sha[:10]} skipped: repo-graph failed on the snapshot: {snaps.error}")
                continue
            files = snaps.files()
            if not fit_to_snapshot(case, set(files)):
                log(f"  [{n}/{len(cases)}] {case.sha[:10]} skipped: no gold file is indexed")
                continue
            corpora.refresh(files, "bm25-files" in systems, "bm25-symbols" in systems)
            tasks = [("unanchored", None)] + ([("anchored", case.anchor)] if case.anchor else [])
            row = {**asdict(case), "results": {}}
            for system in systems:
                if system in report["not_run"]:
                    continue
                for task, anchor in tasks:
                    gold = set(case.gold) - ({anchor} if anchor else set())
                    key = (job["name"], case.sha, case.parent, task, system)
                    if system in BASELINES and key in memo:
                        row["results"].setdefault(system, {})[task] = memo[key]
                        continue
                    t0 = time.perf_counter()
                    try:
                        ranked, packed = run_system(system, snaps, corpora, aider, base, files, case, anchor)
                    except Exception as exc:
                        if system == "aider":
                            report["not_run"]["aider"] = str(exc) or repr(exc)
                            log(f"  aider: not run ({report['not_run']['aider']})")
                            break
                        raise
                    seconds[system] += time.perf_counter() - t0
                    row["results"].setdefault(system, {})[task] = memo[key] = score(ranked, packed, gold, anchor)
            report["cases"].append(row)
            rg = row["results"].get("repo-graph", {}).get("unanchored")
            log(
                f"  [{n}/{len(cases)}] {case.sha[:10]} gold={len(case.gold)} "
                f"index {snaps.index_seconds[-1] if snaps.index_seconds else 0:.1f}s "
                + (f"repo-graph rank={rg['first_gold_rank']}" if rg else "")
                + f"  {case.subject[:60]}"
            )
    finally:
        snaps.close()
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if aider is not None and "aider" in systems:
        report["aider_version"] = aider.version
        report["aider_network_attempts"] = aider.network_attempts
    report["summary"] = summarise(report["cases"], systems)
    report["seconds"] = {
        "wall": round(time.perf_counter() - started, 1),
        "index_first": round(snaps.index_seconds[0], 1) if snaps.index_seconds else None,
        "index_incremental_mean": round(mean(snaps.index_seconds[1:]), 2) if len(snaps.index_seconds) > 1 else None,
        "serve_to_ready_mean": round(mean(snaps.serve_seconds), 2) if snaps.serve_seconds else None,
        "snapshots": len(snaps.index_seconds),
        "systems": {s: round(v, 1) for s, v in seconds.items()},
    }
    return report


METRICS = ("r5", "r10", "mrr", "recall", "precision")


def groups_of(case: dict) -> list[str]:
    """The rows a case counts in: all, and for a question its kind and plainness."""
    if case.get("kind") is None:
        return ["all"]
    return ["all", case["kind"], "plain" if case.get("plain") else "identifier"]


def summarise(cases: list[dict], systems: list[str]) -> list[dict]:
    """Means per (group, task, system), then per (group, task) the best baseline on each
    figure and repo-graph's margin over it."""
    rows = []
    names = list(dict.fromkeys(g for c in cases for g in groups_of(c)))
    for group in names:
        for task in ("unanchored", "anchored"):
            at = []
            for system in systems:
                got = [
                    c["results"][system][task]
                    for c in cases
                    if group in groups_of(c) and task in c["results"].get(system, {})
                ]
                if not got:
                    continue
                at.append(
                    {
                        "group": group,
                        "system": system,
                        "task": task,
                        "cases": len(got),
                        "r5": mean(g["r5"] for g in got),
                        "r10": mean(g["r10"] for g in got),
                        "mrr": mean(g["rr"] for g in got),
                        "recall": mean(g["recall"] for g in got),
                        "precision": mean(g["precision"] for g in got),
                        "tokens": mean(g["tokens"] for g in got),
                        "anchor_tokens": mean(g["anchor_tokens"] for g in got),
                    }
                )
            base = [r for r in at if r["system"] in BASELINES]
            ours = next((r for r in at if r["system"] == "repo-graph"), None)
            if base:
                best = {"group": group, "system": "best baseline", "task": task, "cases": base[0]["cases"]}
                for m in METRICS:
                    winner = max(base, key=lambda r: r[m])
                    best[m], best[f"{m}_by"] = winner[m], winner["system"]
                at.append(best)
                if ours is not None:
                    at.append(
                        {"group": group, "system": "repo-graph - best", "task": task, "cases": ours["cases"]}
                        | {m: ours[m] - best[m] for m in METRICS}
                    )
            rows += at
    return rows


def table(summary: list[dict], group: str = "all") -> list[str]:
    lines = [
        "| system | task | cases | R@5 | R@10 | MRR | budget recall | budget precision | tokens |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in summary:
        if r["group"] != group:
            continue
        if r["system"] == "repo-graph - best":
            cells = [f"{r[m]:+.3f}" for m in METRICS] + [""]
            name = "**repo-graph − best**"
        elif r["system"] == "best baseline":
            short = {"bm25-files": "F", "bm25-symbols": "S", "aider": "A"}
            cells = [f"{r[m]:.3f} ({short.get(r[m + '_by'], '?')})" for m in METRICS] + [""]
            name = "best baseline"
        else:
            cells = [f"{r[m]:.3f}" for m in METRICS] + [f"{r['tokens']:.0f}"]
            name = r["system"]
        lines.append(f"| {name} | {r['task']} | {r['cases']} | " + " | ".join(cells) + " |")
    return lines


def render(report: dict) -> str:
    s = report["seconds"]
    origin = (
        f"from {report['eligible_commits']} eligible of {report['scanned_commits']} first-parent commits"
        if "eligible_commits" in report
        else f"from {report.get('source')}"
    )
    lines = [
        f"### {report['name']} ({report['head'][:10]}), {report['task']}, {report['history']}",
        "",
        f"{len(report['cases'])} cases ({sum(1 for c in report['cases'] if c['anchor'])} anchored) {origin}; "
        f"wall {s['wall']:.0f}s (first index {s['index_first']}s, {s['snapshots']} snapshots, "
        f"incremental index mean {s['index_incremental_mean']}s, serve spawn to ready mean "
        f"{s['serve_to_ready_mean']}s; systems " + ", ".join(f"{k} {v:.0f}s" for k, v in s["systems"].items()) + ")",
        "",
        *table(report["summary"]),
    ]
    for r in report["summary"]:
        if r["group"] == "all" and r["task"] == "anchored" and r.get("anchor_tokens", 0) >= 1:
            lines.append("")
            lines.append(
                f"{r['system']} anchored: besides the tokens above, a mean {r['anchor_tokens']:.0f} of its "
                f"{BUDGET} went to the open (anchor) file itself, not counted."
            )
    failures = report.get("index_failures") or []
    if failures:
        errors = Counter(f["error"] for f in failures)
        lines.append("")
        lines.append(
            f"{len(failures)} of {len(failures) + len(report['cases'])} cases skipped for every system: "
            "repo-graph failed on their snapshot (" + "; ".join(f"{n}x {e}" for e, n in errors.items()) + ")"
        )
    missing = report.get("checkout_failures") or []
    if missing:
        lines.append("")
        lines.append(
            f"{len(missing)} cases skipped for every system: git could not check out their snapshot "
            f"(first: {missing[0]['error']})"
        )
    left_out = report.get("left_out") or {}
    if left_out:
        first = next(iter(left_out.values()))
        lines.append("")
        lines.append(
            f"{len(left_out)} snapshots made without files the mirror lacks, which no system reads "
            f"(first: {', '.join(first[:3])})"
        )
    for system, reason in report["not_run"].items():
        lines.append("")
        lines.append(f"{system}: not run ({reason})")
    if report.get("aider_version") and "aider" not in report["not_run"]:
        attempts = report.get("aider_network_attempts") or []
        lines.append("")
        lines.append(f"aider-chat {report['aider_version']}, offline; network attempts blocked: {len(attempts)}")
    return "\n".join(lines)


def pooled(reports: list[dict], systems: list[str]) -> list[dict]:
    """One summary per (task, history) over every case of every repository."""
    out = []
    for task in dict.fromkeys(r["task"] for r in reports):
        for history in dict.fromkeys(r["history"] for r in reports):
            chosen = [r for r in reports if r["task"] == task and r["history"] == history]
            cases = [c for r in chosen for c in r["cases"]]
            out.append(
                {
                    "task": task,
                    "history": history,
                    "repositories": [r["name"] for r in chosen],
                    "summary": summarise(cases, systems),
                }
            )
    return out


def render_pooled(block: dict) -> str:
    lines = [
        f"### All repositories, {block['task']}, {block['history']} ({len(block['repositories'])}: "
        f"{', '.join(block['repositories'])}; means over cases)",
        "",
        *table(block["summary"]),
    ]
    for group in dict.fromkeys(r["group"] for r in block["summary"]):
        if group != "all":
            lines += ["", f"{group} questions:", "", *table(block["summary"], group)]
    return "\n".join(lines)


def measured_code() -> str:
    """Which repo-graph this run measures: the commit of the tree this file sits in."""
    proc = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"{REPO} (not a git checkout)"
    dirty = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    ).stdout.strip()
    return f"{REPO} at {proc.stdout.strip()}" + (" with uncommitted changes" if dirty else "")


def per_repository(reports: list[dict]) -> str:
    """R@5 and budget recall of repo-graph and the best baseline, one row per repository
    and history: the spread the pooled means hide."""
    lines = [
        "| repository | history | cases | repo-graph R@5 blind / anchored | best baseline R@5 | "
        "repo-graph budget recall | best baseline budget recall |",
        "|---|---|---:|---|---|---|---|",
    ]
    for r in reports:
        got = {(x["system"], x["task"]): x for x in r["summary"] if x["group"] == "all"}

        def pair(system, metric, got=got):
            cells = [got.get((system, t)) for t in ("unanchored", "anchored")]
            return " / ".join(f"{c[metric]:.3f}" if c else "-" for c in cells)

        lines.append(
            f"| {r['name']} | {r['history'].split()[0]} | {len(r['cases'])} | {pair('repo-graph', 'r5')} | "
            f"{pair('best baseline', 'r5')} | {pair('repo-graph', 'recall')} | {pair('best baseline', 'recall')} |"
        )
    return "\n".join(lines)


def combine(paths: list[str]) -> int:
    """The pooled tables of runs saved with --save (one repository each, say), as if
    they had been one run."""
    runs = [json.loads(Path(p).read_text(encoding="utf-8")) for p in paths]
    reports = [r for run in runs for r in run["repositories"]]
    systems = list(dict.fromkeys(s for r in reports for s in r["systems"]))
    for report in reports:
        report["summary"] = summarise(report["cases"], systems)
    print(per_repository(reports) + "\n")
    for block in pooled(reports, systems):
        print(render_pooled(block) + "\n")
    print("commands:\n" + "\n".join(f"  {run['command']}  ({run['measured']})" for run in runs))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("repos", nargs="*", metavar="REPO", help="a git repository (work tree or bare)")
    parser.add_argument("--cases", type=int, default=40, help="cases per repository (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--pool", type=int, default=0, help="draw cases from the newest N eligible commits (default 4 x --cases)"
    )
    parser.add_argument(
        "--max-history", type=int, default=5000, help="scan at most this many first-parent commits (default 5000)"
    )
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument(
        "--history",
        choices=("with", "without", "both"),
        default="with",
        help="snapshots as git checkouts (with), as plain directories with no .git (without), or both",
    )
    parser.add_argument("--questions", metavar="FILE.jsonl", help="developers' questions (see the docstring)")
    parser.add_argument("--cases-file", metavar="FILE.jsonl", help="change cases frozen elsewhere")
    parser.add_argument(
        "--mirrors", default="/work/.mirror", help="where owner/name lives as owner+name (default /work/.mirror)"
    )
    parser.add_argument(
        "--systems",
        default=",".join(DEFAULT_SYSTEMS),
        help=f"comma-separated, from {','.join(ALL_SYSTEMS)}, or repo-graph with weights "
        "of repo_graph.ranking.Weights set for a sweep, code frames only or not: "
        "repo-graph:w_proximity=0.1+w_co_change=3, repo-graph:code+w_proximity=0.1",
    )
    parser.add_argument("--aider-python", help="the python of an environment with aider-chat")
    parser.add_argument("--tmp", help="where the temporary work trees and caches go (default: $TMPDIR)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary work trees and caches")
    parser.add_argument("--json", action="store_true", help="print the results, per case too, as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--save", metavar="FILE", help="also write the JSON results to FILE")
    parser.add_argument(
        "--combine", nargs="+", metavar="SAVED", help="print the pooled tables of runs saved with --save, and stop"
    )
    args = parser.parse_args(argv)
    if args.combine:
        return combine(args.combine)
    if not (args.repos or args.questions or args.cases_file):
        parser.error("give a REPO, --questions FILE or --cases-file FILE")
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    try:
        unknown = [s for s in systems if s not in ALL_SYSTEMS and variant(s) is None]
    except ValueError as exc:
        parser.error(str(exc))
    if unknown:
        parser.error(f"unknown systems {unknown}; choose from {list(ALL_SYSTEMS)}")

    def log(msg):
        if not args.quiet:
            sys.stderr.write(msg + "\n")
            sys.stderr.flush()

    command = "python benchmarks/quality.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    histories = {"with": (True,), "without": (False,), "both": (True, False)}[args.history]
    jobs = [job_from_history(p, args) for p in args.repos]
    if args.cases_file:
        jobs += jobs_from_file(args.cases_file, "changes", args)
    if args.questions:
        jobs += jobs_from_file(args.questions, "questions", args)
    aider = Aider(args.aider_python) if "aider" in systems else None
    if aider is not None and aider.reason:
        log(f"aider: not run ({aider.reason})")
    reports = []
    try:
        for job in jobs:
            memo: dict = {}
            for history in histories:
                report = evaluate_repo(job, history, args, systems, aider, log, memo)
                if aider is not None and aider.reason and "aider" not in report["not_run"]:
                    report["not_run"]["aider"] = aider.reason
                reports.append(report)
                if not args.json:
                    print(render(report) + "\n", flush=True)
    finally:
        if aider is not None:
            aider.close()
    blocks = pooled(reports, systems)
    if not args.json:
        if len(reports) > 1:
            print(per_repository(reports) + "\n")
        for block in blocks:
            print(render_pooled(block) + "\n")
    results = {
        "command": command,
        "measured": measured_code(),
        "budget": BUDGET,
        "ranking": {"max_tokens": RANK_TOKENS, "max_frames": RANK_FRAMES},
        "repositories": reports,
        "pooled": blocks,
    }
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(f"command: {command}\nmeasured: {results['measured']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
