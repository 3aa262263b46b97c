"""Mine the held-out change-localization cases (issue #37 item 2) into
benchmarks/cases/heldout/changes.jsonl, with benchmarks/quality.py's own
`history_cases` and the settings its defaults give for `--cases 40 --seed 0`
(pool 4 x 40 = 160, --max-history 5000), at each repository's pinned commit.

The repositories and pinned commits are in benchmarks/cases/heldout/repos.json.
To re-create the file, bring each repository as a git directory (a bare mirror or a
clone with full history holding the pinned commit) and run, from the checkout root:

    .venv/bin/python benchmarks/cases/mine_changes.py --git-dir OWNER/NAME=PATH ... \\
        > benchmarks/cases/heldout/changes.jsonl

(default PATH: /work/.mirror/OWNER+NAME/repo). Output: one JSON object per case, in
repos.json order, each repository's cases oldest parent first, every field of
quality.py's Case kept (anchor: the seeded open file of the anchored task).
It reads git only; repo-graph never runs on these repositories here.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # benchmarks/: quality.py adds the checkout root itself

import quality  # noqa: E402

CASES, SEED = 40, 0
POOL, MAX_HISTORY = 4 * CASES, 5000  # quality.py's defaults for --pool 0 and --max-history


def mine(repo: str, ref: str, gitdir: Path) -> list[dict]:
    cases, _, _ = quality.history_cases(gitdir, ref, CASES, POOL, SEED, MAX_HISTORY, quality.Registry())
    rows = []
    for case in cases:
        fields = asdict(case)
        rows.append(
            {
                "repo": repo,
                "ref": ref,
                "commit": fields.pop("sha"),
                "parent": fields.pop("parent"),
                "query": fields.pop("query"),
                "gold": fields.pop("gold"),
                **fields,  # subject, changed_source, anchor, dropped_gold
            }
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default=str(HERE / "heldout" / "repos.json"))
    parser.add_argument("--git-dir", action="append", default=[], metavar="OWNER/NAME=PATH")
    args = parser.parse_args()
    paths = dict(item.split("=", 1) for item in args.git_dir)
    for entry in json.loads(Path(args.repos).read_text(encoding="utf-8")):
        repo, ref = entry["repo"], entry["ref"]
        gitdir = Path(paths.get(repo, f"/work/.mirror/{repo.replace('/', '+')}/repo"))
        rows = mine(repo, ref, gitdir)
        print(f"{repo}: {len(rows)} cases", file=sys.stderr)
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
