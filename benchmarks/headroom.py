"""Is there a better order in the signals repo-graph already has? A check before the
next weight is tuned by hand.

    /tmp/venv/bin/python benchmarks/headroom.py REPO REPO [REPO...] [--cases 40] [--top 40]

The cases are benchmarks/quality.py's (same selection, same seed, each evaluated on its
parent snapshot). For each case and task, the first --top distinct files of
repo-graph's ranking (repo_graph.ranking.rank: the order before packing, which
quality.py sees through the provider) are the candidates, each described by the
signals the ranking reads: its fused score and rank, whether it is in the anchored tier (G4), its BM25F
match alone, its commit messages' match, its closeness to the open file (all relations together, links either way
alone, co-changes alone, the same directory), how much the history changed it lately,
and how many files link into it (a hub). A logistic model over these is fitted
leave-one-repository-out (each repository's order comes from a model that never saw
it), and R@5 is computed on the candidates as ranked and as reordered.

Reordered no better than ranked: the fusion in repo_graph/ranking/ already uses these
signals about as well as a linear model can, and a better ranking needs a new signal,
not a new weight. Reordered ahead on most repositories: the model's weights (printed,
on standardised signals) say which signal the fusion undervalues.
"""

from __future__ import annotations

import argparse
import math
import posixpath
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.quality import Snapshots, fit_to_snapshot, git_dir_of, history_cases, repo_name  # noqa: E402
from grammars import Registry  # noqa: E402
from indexer.terms import terms  # noqa: E402
from repo_graph import ranking  # noqa: E402

SIGNALS = (
    "score",
    "log_rank",
    "tier",
    "lexical",
    "said",
    "related",
    "links",
    "co_change",
    "same_dir",
    "recent",
    "in_degree",
)
L2 = 1.0  # ridge on the standardised signals: a handful of repositories, a dozen weights


def candidates(index, query: str, anchor: str | None, gold: set[str], top: int) -> list[dict]:
    """The first `top` files of the ranking with their signals, gold marked."""
    seeds = {anchor} if anchor else set()
    ranked: dict[str, dict] = {}
    for c in ranking.rank(index, query, seeds):
        if c.node.path != anchor and c.node.path not in ranked:
            ranked[c.node.path] = {"score": c.score, "tier": float(c.hop is not None and c.hop <= 1)}
            if len(ranked) == top:
                break
    lexical: dict[str, float] = defaultdict(float)
    for match, path in ranking.lexical(index, query, messages=False).values():
        lexical[path] = max(lexical[path], match)
    said = ranking.said_match(index, list(dict.fromkeys(terms(query))))
    store = index.store
    related = ranking.related_files(index, seeds) if anchor else {}
    links: dict[str, int] = defaultdict(int)
    co_change: dict[str, float] = {}
    if anchor:
        for path, _, n in store.links_from_file(anchor) + store.links_into_file(anchor):
            links[path] += n
        co_change = dict(store.co_changed(anchor))
    recent = store.recent_changes(set(ranked))
    out = []
    for rank, (path, row) in enumerate(ranked.items(), 1):
        row.update(
            path=path,
            gold=path in gold,
            log_rank=math.log(rank),
            lexical=lexical.get(path, 0.0),
            said=said.get(path, 0.0),
            related=related.get(path, 0.0),
            links=math.log1p(links.get(path, 0)),
            co_change=math.log1p(co_change.get(path, 0.0)),
            same_dir=float(bool(anchor) and posixpath.dirname(path) == posixpath.dirname(anchor)),
            recent=math.log1p(recent.get(path, 0.0)),
            in_degree=math.log1p(len({p for p, _, _ in store.links_into_file(path)})),
        )
        out.append(row)
    return out


def collect(path: str, args, log) -> list[dict]:
    """One record per case and task: the candidates and how many gold files there are."""
    gitdir = git_dir_of(path)
    cases, _, _ = history_cases(gitdir, "HEAD", args.cases, 4 * args.cases, args.seed, 5000, Registry())
    base = Path(tempfile.mkdtemp(prefix="rg-headroom-"))
    snaps = Snapshots(gitdir, base, serve=False)  # the ranking read in this process
    records = []
    try:
        for case in cases:
            snaps.checkout(case.parent)
            if snaps.missing or snaps.error or not fit_to_snapshot(case, set(snaps.files())):
                continue
            for task, anchor in [("unanchored", None)] + ([("anchored", case.anchor)] if case.anchor else []):
                gold = set(case.gold) - {anchor}
                records.append(
                    {
                        "repo": repo_name(path),
                        "task": task,
                        "n_gold": len(gold),
                        "rows": candidates(snaps.index, case.query, anchor, gold, args.top),
                    }
                )
        log(f"{repo_name(path)}: {len(cases)} cases")
    finally:
        snaps.close()
        shutil.rmtree(base, ignore_errors=True)
    return records


def fit(records: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Logistic regression (Newton's method, ridge L2) of gold on the signals."""
    x = np.array([[r[s] for s in SIGNALS] for rec in records for r in rec["rows"]], dtype=float)
    y = np.array([r["gold"] for rec in records for r in rec["rows"]], dtype=float)
    mu, sd = x.mean(0), x.std(0) + 1e-9
    x = np.c_[np.ones(len(x)), (x - mu) / sd]
    w = np.zeros(x.shape[1])
    ridge = L2 * np.eye(len(w))
    ridge[0, 0] = 1e-3  # the intercept barely held, and the system never singular (a saturated fit)
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        step = np.linalg.solve((x.T * (p * (1 - p))) @ x + ridge, x.T @ (p - y) + ridge @ w)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w, mu, sd


def reorder(rows: list[dict], model) -> list[dict]:
    """The candidates by the fitted model's odds, best first (ties as ranked)."""
    w, mu, sd = model
    odds = ((np.array([[r[s] for s in SIGNALS] for r in rows]) - mu) / sd) @ w[1:]
    return [rows[i] for i in np.argsort(-odds, kind="stable")]


def recall_at_5(record: dict, order: list[dict]) -> float:
    return sum(r["gold"] for r in order[:5]) / record["n_gold"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+", metavar="REPO", help="a git repository (work tree or bare)")
    parser.add_argument("--cases", type=int, default=40, help="cases per repository (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=40, help="candidate files per case (default 40)")
    args = parser.parse_args(argv)
    if len(args.repos) < 2:
        parser.error("leave-one-repository-out needs two repositories or more")
    records = [rec for path in args.repos for rec in collect(path, args, lambda m: sys.stderr.write(m + "\n"))]
    repos = list(dict.fromkeys(rec["repo"] for rec in records))
    print("| task | repository | cases | R@5 as ranked | R@5 reordered (leave-one-out) |\n|---|---|---:|---:|---:|")
    weights = []
    for task in ("unanchored", "anchored"):
        mine = [rec for rec in records if rec["task"] == task]
        means = []
        for repo in repos:
            test = [rec for rec in mine if rec["repo"] == repo]
            train = [rec for rec in mine if rec["repo"] != repo]
            if not test or not train:
                continue
            model = fit(train)
            ranked = np.mean([recall_at_5(rec, rec["rows"]) for rec in test])
            reordered = np.mean([recall_at_5(rec, reorder(rec["rows"], model)) for rec in test])
            means.append((ranked, reordered))
            print(f"| {task} | {repo} | {len(test)} | {ranked:.3f} | {reordered:.3f} |")
        if means:
            ranked, reordered = np.mean(means, axis=0)
            print(f"| {task} | mean of {len(means)} | | {ranked:.4f} | {reordered:.4f} |")
            w, _, _ = fit(mine)
            weights.append(
                f"{task}, fitted on all (standardised): " + ", ".join(f"{s} {v:+.2f}" for s, v in zip(SIGNALS, w[1:]))
            )
    print("\n" + "\n".join(weights))
    return 0


if __name__ == "__main__":
    sys.exit(main())
