"""The benchmark scripts import the indexer's internals; keep them running when those move."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import freshness  # noqa: E402
import headroom  # noqa: E402
import index_speed  # noqa: E402
import pytest  # noqa: E402
import quality  # noqa: E402

from grammars import Registry  # noqa: E402


def _corpus(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "pkg" / "broken.py").write_text("def (:\n")
    (tmp_path / "tool").write_text("#!/usr/bin/env python3\nprint(1)\n")
    (tmp_path / "notes.txt").write_text("nothing to parse\n")
    return tmp_path


def test_index_speed_selects_files_by_language(tmp_path):
    walked, with_lang = index_speed.select_files(_corpus(tmp_path), Registry())
    assert len(walked) == 4
    assert sorted((rel, lang) for rel, lang, _ in with_lang) == [
        ("pkg/a.py", "python"),
        ("pkg/broken.py", "python"),
        ("tool", "python"),
    ]


def test_freshness_python_files(tmp_path):
    every, clean = freshness.python_files(_corpus(tmp_path))
    assert every == ["pkg/a.py", "pkg/broken.py", "tool"]
    assert clean == ["pkg/a.py", "tool"]


def test_quality_variants_name_real_weights():
    assert quality.variant("repo-graph:code") == ({}, ("symbol",))
    assert quality.variant("repo-graph:code+W_PROXIMITY=0.1") == ({"w_proximity": 0.1}, ("symbol",))
    assert quality.variant("repo-graph:hedge_k=2") == ({"hedge_k": 2}, ())
    assert quality.variant("repo-graph:lexical") == (quality.ABLATIONS["repo-graph:lexical"], ())
    assert quality.variant("repo-graph") is None and quality.variant("bm25-files") is None
    with pytest.raises(ValueError, match="W_NOPE"):
        quality.variant("repo-graph:W_NOPE=1")


def _history(repo: Path) -> Path:
    """A small repository whose commits each change one helper, with a message saying how."""
    import subprocess

    repo.mkdir()

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    steps = [
        ({"a.py": "def retry():\n    return 1\n", "b.py": "def cache():\n    return 1\n"}, "Start the service"),
        ({"a.py": "def retry(timeout):\n    return timeout\n"}, "Make the retry helper handle timeouts properly"),
        ({"b.py": "def cache(ttl):\n    return ttl\n"}, "Make the cache helper expire entries on time"),
        ({"a.py": "def retry(timeout, jitter):\n    return timeout + jitter\n"}, "Teach the retry helper about jitter"),
    ]
    for files, message in steps:
        for name, text in files.items():
            (repo / name).write_text(text)
        git("add", "-A")
        git("commit", "-q", "-m", message)
    return repo


def test_quality_skips_a_case_git_cannot_check_out_and_says_so(tmp_path):
    """A clone missing some blobs (a partial mirror) fails `git checkout` of some
    parents: those cases are skipped and counted, the rest are measured."""
    import json
    import subprocess

    repo = _history(tmp_path / "repo")

    def git(*args):
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout

    blob = git("rev-parse", "HEAD~1:b.py").strip()  # b.py as the third commit left it: the last case's parent
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    out = tmp_path / "q.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(Path(quality.__file__)),
            str(repo),
            "--systems",
            "repo-graph",
            "--tmp",
            str(tmp_path),
            "--save",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())["repositories"][0]
    assert [f["sha"] for f in report["checkout_failures"]] == [git("rev-parse", "HEAD").strip()]
    assert len(report["cases"]) == 2 and "git could not check out" in proc.stdout + proc.stderr


def test_headroom_finds_the_signal_the_ranking_missed():
    """Gold files ranked below others, but the only ones the BM25F match prefers: a
    model fitted on another repository's cases puts them first."""

    def case(repo, shift):
        rows = []
        for rank in range(1, 9):
            gold = rank in (3 + shift, 4 + shift)
            rows.append(
                {s: 0.0 for s in headroom.SIGNALS}
                | {
                    "path": f"f{rank}.py",
                    "gold": gold,
                    "score": 1 - rank / 10,
                    "log_rank": rank**0.5,
                    "lexical": 0.9 if gold else 0.1 * (rank % 3),
                }
            )
        return {"repo": repo, "task": "anchored", "n_gold": 2, "rows": rows}

    model = headroom.fit([case("a", 0), case("a", 1)])
    assert model[0][1 + headroom.SIGNALS.index("lexical")] == max(model[0][1:])
    test = case("b", 3)
    assert headroom.recall_at_5(test, test["rows"]) == 0.0
    assert headroom.recall_at_5(test, headroom.reorder(test["rows"], model)) == 1.0


def test_headroom_runs_over_real_history(tmp_path):
    """Two repositories, their cases replayed on parent snapshots, a row per repository."""
    import subprocess

    repos = [_history(tmp_path / "one"), _history(tmp_path / "two")]
    proc = subprocess.run(
        [sys.executable, str(Path(headroom.__file__)), *map(str, repos)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| unanchored |")]
    assert [r.split("|")[2].strip() for r in rows] == ["one", "two", "mean of 2"]
