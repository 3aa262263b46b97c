"""Upgrades: a release that parses every file again, against a cold index (issue 40).

Run it (no network):

    .venv/bin/python benchmarks/upgrade.py                          # a copy of this Python's stdlib
    .venv/bin/python benchmarks/upgrade.py PATH --anchor REL        # any tree, in place
    .venv/bin/python benchmarks/upgrade.py ... --json               # figures as JSON on stdout

First `repo-graph index PATH` cold on an empty --cache-dir (wall clock around the
child). Then the next release on that index: `repo-graph serve PATH --no-watch` in a
child whose extraction rule is one version on (indexer/upgrades.py `bumped`, as
tests/test_upgrades.py makes it), so every file is parsed again, beside the old index
while it answers. One anchored question is asked every `--interval` seconds over the
child's pipes until its stderr says `index ready`, and once after. Reports, in seconds:
  cold index         the reference
  upgrade            from the spawn to `index ready` (the new index swapped in and caught up)
  upgrade / cold     target <= 1.05
  answers            asked during the upgrade, answered with frames, answered with the
                     anchored file's frames, and their latency (p50, max)
The 1-minute load average is printed with each step: other work on the machine shows
in every figure.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.cold_start import Served, env, load, tree_arguments, tree_root  # noqa: E402
from benchmarks.index_speed import percentile  # noqa: E402

TARGET = 1.05  # upgrade / cold, kernel, 2 cores
# The next release: this one with its extraction rule a version on (every file parses again).
NEXT_RELEASE = (
    "-c",
    "import sys; from indexer import upgrades; from indexer.index import RepoIndex; "
    "RepoIndex.rules_table = upgrades.bumped('extract', 'next'); "
    "from repo_graph.cli import main; sys.exit(main())",
)


def run(root: Path, anchor: str, interval: float, goal: str, cache: Path) -> dict:
    print(f"cold index of {root} (load {load():.2f})", file=sys.stderr, flush=True)
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "repo_graph", "index", str(root), "--cache-dir", str(cache), "-q"],
        env=env(),
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    cold = time.monotonic() - started
    print(f"cold {cold:.2f} s; the next release (load {load():.2f})", file=sys.stderr, flush=True)
    load_upgrade = load()
    served = Served(root, cache, NEXT_RELEASE)
    ack = served.ask({"type": "handshake", "protocol_version": "contextgraph/1.0"})
    assert ack["type"] == "handshake_ack", ack
    samples = []
    after_ready = 0
    while after_ready < 1:
        ready_before = served.ready_at is not None
        asked = served.since()
        reply = served.ask(
            {
                "type": "query",
                "id": f"q{len(samples)}",
                "query": {"goal": goal, "anchors": [anchor], "max_frames": 12, "max_tokens": 6000},
            }
        )
        frames = [f["id"] for f in reply["result"]["frames"]] if reply.get("type") == "frames" else None
        samples.append(
            {
                "asked": round(asked, 2),
                "seconds": round(served.since() - asked, 3),
                "frames": len(frames) if frames is not None else None,
                "anchored": sum(1 for f in frames or () if f == anchor or f.startswith(anchor + "#")),
                "error": None if frames is not None else reply.get("code"),
                "during": not ready_before,
            }
        )
        print(f"tick {asked:.1f}s {samples[-1]} load={load():.2f}", file=sys.stderr, flush=True)
        after_ready += ready_before
        time.sleep(max(0.0, asked + interval - served.since()))
    served.close()
    upgrade = served.ready_at
    during = [s for s in samples if s["during"]]
    waits = [s["seconds"] for s in during]
    return {
        "corpus": str(root),
        "anchor": anchor,
        "cold_index_s": round(cold, 2),
        "upgrade_s": round(upgrade, 2) if upgrade is not None else None,
        "upgrade_over_cold": round(upgrade / cold, 3) if upgrade else None,
        "asked_during": len(during),
        "answered_during": sum(1 for s in during if s["frames"]),
        "anchored_during": sum(1 for s in during if s["anchored"]),
        "answer_p50_s": round(percentile(waits, 50), 3) if waits else None,
        "answer_max_s": round(max(waits), 3) if waits else None,
        "beside": any("building a new index beside" in line for line in served.lines),
        "errors": served.errors[:5],
        "load_cold_start": round(load_upgrade, 2),
        "load_end": round(load(), 2),
        "samples": samples,
    }


def main() -> int:
    parser = tree_arguments(__doc__, 2.0)
    parser.add_argument("--cache-dir", help="where both indexes go (default: a temporary folder, removed)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="upgrade-")
    try:
        root = tree_root(args.path, tmp)
        out = run(root, args.anchor, args.interval, args.goal, Path(args.cache_dir or Path(tmp) / "cache"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    rows = [
        ("cold index", f"{out['cold_index_s']} s"),
        ("upgrade (spawn -> index ready)", f"{out['upgrade_s']} s"),
        ("upgrade / cold", f"{out['upgrade_over_cold']} (target {TARGET})"),
        ("built beside the old index", str(out["beside"])),
        (
            "answers during the upgrade",
            f"{out['answered_during']} of {out['asked_during']} with frames, "
            f"{out['anchored_during']} with the anchored file's; p50 {out['answer_p50_s']} s, max {out['answer_max_s']} s",
        ),
        ("load: at the upgrade's start / end", f"{out['load_cold_start']} / {out['load_end']}"),
    ]
    print("| | |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
