"""Validate a developers'-questions file (one JSON object a line) before anyone runs a ranking on it.

Usage:
    python3 benchmarks/cases/check_questions.py [FILE ...] [--mirrors DIR] [--min-plain 0.5]

FILE defaults to benchmarks/cases/questions-tuning.jsonl. A repository `owner/name`
is read from the git directory DIR/owner+name (or DIR/owner+name/repo, the layout the
fetch tool leaves). Checked, line by line: the fields and their types, the id
(`<short>-q<N>`, unique), the kind, the ref (40 hex digits, present in the mirror),
1-3 gold paths that exist at the ref and are not tests, docs or examples; and that a
question marked plain carries no identifier-looking token (a heuristic: CamelCase,
snake_case, dotted.names, `code`, call()s, --options, file names). Over the whole file:
the share of plain questions is at least --min-plain. Prints the problems and the counts
per repository, kind and plain; exits 1 if there is a problem.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

FIELDS = {
    "id": str,
    "repo": str,
    "ref": str,
    "kind": str,
    "plain": bool,
    "question": str,
    "gold": list,
    "why_gold": str,
}
KINDS = ("how", "where", "why")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*-q[1-9][0-9]*$")
REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
REF_RE = re.compile(r"^[0-9a-f]{40}$")

# Tokens a plain-words question must not hold (each pattern names what it catches).
IDENTIFIER_PATTERNS = (
    ("CamelCase", re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*\b|\b[A-Z]{2,}[a-z]+[A-Z]\w*\b")),
    ("snake_case", re.compile(r"\b\w*[A-Za-z0-9]_\w*[A-Za-z0-9]\w*\b|\b_+[A-Za-z]\w*\b")),
    ("dotted.name", re.compile(r"\b[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+\b")),
    ("`code`", re.compile(r"`")),
    ("call()", re.compile(r"\b\w+\(\)")),
    ("--option", re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")),
    ("path/name", re.compile(r"\b\w+/\w+\.\w+\b|\b\w+\.(?:py|go|rs|js|ts|java|rb|php|c|h|toml|json|ya?ml)\b")),
    ("::path", re.compile(r"\w::\w|->\w|\$\w")),
)

# Gold must be source: these path shapes are tests, docs, examples or benchmarks.
NOT_SOURCE = re.compile(
    r"(^|/)(tests?|testing|testdata|spec|specs|docs?|doc_src|docs_src|examples?|benches|benchmarks?|fixtures?)/"
    r"|(^|/)test_[^/]*\.py$|_test\.(go|py|rb)$|\.(test|spec)\.[jt]sx?$|Test\.java$|_spec\.rb$"
    r"|\.(md|rst|txt|adoc|html)$",
    re.IGNORECASE,
)


def identifier_tokens(text: str) -> list[str]:
    """What in `text` looks like an identifier: (pattern name: token) strings, empty if none."""
    found = []
    for name, pattern in IDENTIFIER_PATTERNS:
        for match in pattern.finditer(text):
            found.append(f"{name}: {match.group(0)!r}")
    return found


def git_args(mirrors: Path, repo: str) -> list[str] | None:
    """How to point git at `owner/name` under `mirrors` (a bare git dir or a work tree), None if absent."""
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return [f"--git-dir={candidate}"]
        if (candidate / ".git").exists():
            return ["-C", str(candidate)]
    return None


class Trees:
    """The file lists of (repo, ref) pairs, read once each from the mirrors."""

    def __init__(self, mirrors: Path) -> None:
        self.mirrors = mirrors
        self.cache: dict[tuple[str, str], set[str] | str] = {}

    def files(self, repo: str, ref: str) -> set[str] | str:
        """The paths at `ref`, or a sentence saying why they cannot be read."""
        key = (repo, ref)
        if key not in self.cache:
            where = git_args(self.mirrors, repo)
            if where is None:
                self.cache[key] = f"no mirror of {repo} under {self.mirrors}"
            else:
                out = subprocess.run(
                    ["git", *where, "ls-tree", "-r", "--name-only", "-z", f"{ref}^{{commit}}"],
                    capture_output=True,
                )
                if out.returncode != 0:
                    self.cache[key] = f"{ref} is not a commit of {repo} ({where[-1]})"
                else:
                    self.cache[key] = set(out.stdout.decode("utf-8", "surrogateescape").split("\0")) - {""}
        return self.cache[key]


def check_case(case: object, trees: Trees) -> list[str]:
    """The problems of one parsed line."""
    if not isinstance(case, dict):
        return ["not a JSON object"]
    problems = []
    missing = [k for k in FIELDS if k not in case]
    extra = sorted(set(case) - set(FIELDS))
    if missing:
        problems.append(f"missing fields: {', '.join(missing)}")
    if extra:
        problems.append(f"unknown fields: {', '.join(extra)}")
    for key, kind in FIELDS.items():
        if key in case and not isinstance(case[key], kind):
            problems.append(f"{key} must be a {kind.__name__}")
    if problems:
        return problems
    if not ID_RE.match(case["id"]):
        problems.append(f"id {case['id']!r} is not <repo-short>-q<N>")
    if not REPO_RE.match(case["repo"]):
        problems.append(f"repo {case['repo']!r} is not owner/name")
    if case["kind"] not in KINDS:
        problems.append(f"kind {case['kind']!r} is not one of {', '.join(KINDS)}")
    if not case["question"].strip() or not case["why_gold"].strip():
        problems.append("question and why_gold must not be empty")
    if case["plain"]:
        problems.extend(f"plain question holds an identifier ({t})" for t in identifier_tokens(case["question"]))
    gold = case["gold"]
    if not 1 <= len(gold) <= 3 or not all(isinstance(p, str) and p for p in gold) or len(set(gold)) != len(gold):
        problems.append("gold must be 1-3 distinct non-empty paths")
        return problems
    problems.extend(f"gold {p!r} is a test, doc or example, not source" for p in gold if NOT_SOURCE.search(p))
    if not REF_RE.match(case["ref"]):
        problems.append(f"ref {case['ref']!r} is not 40 hex digits")
        return problems
    files = trees.files(case["repo"], case["ref"])
    if isinstance(files, str):
        problems.append(files)
    else:
        problems.extend(f"gold {p!r} does not exist at {case['ref'][:12]}" for p in gold if p not in files)
    return problems


def check_file(path: Path, trees: Trees) -> tuple[list[str], list[dict]]:
    """(problems as `file:line: text`, the valid cases)."""
    problems: list[str] = []
    cases: list[dict] = []
    ids: dict[str, int] = {}
    questions: dict[str, int] = {}
    refs: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f"{path}:{n}: not JSON: {e}")
            continue
        found = check_case(case, trees)
        if isinstance(case, dict) and isinstance(case.get("id"), str):
            if case["id"] in ids:
                found.append(f"id {case['id']} repeats line {ids[case['id']]}")
            ids.setdefault(case["id"], n)
        if isinstance(case, dict) and isinstance(case.get("question"), str):
            key = " ".join(case["question"].lower().split())
            if key in questions:
                found.append(f"question repeats line {questions[key]}")
            questions.setdefault(key, n)
        if not found:
            if refs.setdefault(case["repo"], case["ref"]) != case["ref"]:
                found.append(f"{case['repo']} is pinned to {refs[case['repo']][:12]} on an earlier line")
        problems.extend(f"{path}:{n}: {p}" for p in found)
        if not found:
            cases.append(case)
    return problems, cases


def summary(cases: list[dict]) -> str:
    """Counts per repository (with its ref), per kind, per plain."""
    lines = [f"{len(cases)} questions, {len({c['repo'] for c in cases})} repositories"]
    by_repo = Counter(c["repo"] for c in cases)
    for repo in sorted(by_repo, key=str.lower):
        mine = [c for c in cases if c["repo"] == repo]
        kinds = Counter(c["kind"] for c in mine)
        plain = sum(c["plain"] for c in mine)
        lines.append(
            f"  {repo:22} {mine[0]['ref']}  {by_repo[repo]:3}  "
            + " ".join(f"{k} {kinds[k]}" for k in KINDS)
            + f"  plain {plain}"
        )
    kinds = Counter(c["kind"] for c in cases)
    plain = sum(c["plain"] for c in cases)
    lines.append("  kind: " + ", ".join(f"{k} {kinds[k]}" for k in KINDS))
    lines.append(f"  plain: {plain}, with identifiers allowed: {len(cases) - plain}")
    for kind in KINDS:
        lines.append(
            f"  {kind}: plain {sum(c['plain'] for c in cases if c['kind'] == kind)}, "
            f"not {sum(not c['plain'] for c in cases if c['kind'] == kind)}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=[here / "questions-tuning.jsonl"])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="where owner+name git dirs live")
    parser.add_argument("--min-plain", type=float, default=0.5, help="least share of plain questions (default 0.5)")
    args = parser.parse_args(argv)
    trees = Trees(args.mirrors)
    problems: list[str] = []
    cases: list[dict] = []
    for path in args.files:
        found, valid = check_file(path, trees)
        problems.extend(found)
        cases.extend(valid)
    if cases and sum(c["plain"] for c in cases) < args.min_plain * len(cases):
        problems.append(f"{sum(c['plain'] for c in cases)} of {len(cases)} questions plain, under {args.min_plain:.0%}")
    for p in problems:
        print(p)
    print(summary(cases) if cases else "no valid questions")
    print(f"{len(problems)} problems" if problems else "ok")
    return 1 if problems or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
