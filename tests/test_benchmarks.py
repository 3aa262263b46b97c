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


def _history(repo: Path, first: dict[str, str] | None = None) -> Path:
    """A small repository whose commits each change one helper, with a message saying how
    (`first`: more files for its first commit)."""
    import subprocess

    repo.mkdir()

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    steps = [
        (
            {"a.py": "def retry():\n    return 1\n", "b.py": "def cache():\n    return 1\n", **(first or {})},
            "Start the service",
        ),
        ({"a.py": "def retry(timeout):\n    return timeout\n"}, "Make the retry helper handle timeouts properly"),
        ({"b.py": "def cache(ttl):\n    return ttl\n"}, "Make the cache helper expire entries on time"),
        ({"a.py": "def retry(timeout, jitter):\n    return timeout + jitter\n"}, "Teach the retry helper about jitter"),
    ]
    for files, message in steps:
        for name, text in files.items():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
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


def test_quality_makes_a_snapshot_without_a_data_file_the_mirror_lacks_and_says_so(tmp_path):
    """The session's `fetch` leaves the largest files out of a mirror: a missing blob that
    no system reads (test data) must not cost every case of the repository; the
    snapshots are made without it and the report names it."""
    import json
    import subprocess

    repo = _history(tmp_path / "repo", {"fixtures/big.csv": "a,b\n1,2\n"})
    blob = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD:fixtures/big.csv"], check=True, capture_output=True, text=True
    ).stdout.strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    out = tmp_path / "q.json"
    for history in ("with", "without"):
        proc = subprocess.run(
            [sys.executable, str(Path(quality.__file__)), str(repo), "--systems", "repo-graph,bm25-files"]
            + ["--history", history, "--tmp", str(tmp_path), "--save", str(out)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        report = json.loads(out.read_text())["repositories"][0]
        assert report["checkout_failures"] == [] and len(report["cases"]) == 3, (history, report["checkout_failures"])
        assert all(paths == ["fixtures/big.csv"] for paths in report["left_out"].values()), report["left_out"]
        assert "made without files the mirror lacks" in proc.stdout


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


def _two_file_history(repo: Path) -> Path:
    """_history and one more commit that changes both helpers: a case with an anchor."""
    import subprocess

    repo.parent.mkdir(parents=True, exist_ok=True)
    _history(repo)
    (repo / "a.py").write_text("TIMEOUT = 3\n\ndef retry(timeout=TIMEOUT, jitter=0):\n    return timeout + jitter\n")
    (repo / "b.py").write_text("from a import TIMEOUT\n\ndef cache(ttl=TIMEOUT):\n    return ttl\n")
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "Share one timeout between retry and cache"], check=True)
    return repo


def _quality(tmp_path: Path, *args: str) -> dict:
    import json
    import subprocess

    out = tmp_path / f"q{len(list(tmp_path.glob('q*.json')))}.json"
    proc = subprocess.run(
        [sys.executable, str(Path(quality.__file__)), *args, "--tmp", str(tmp_path), "--save", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())


def test_bm25_okapi_words_split_identifiers_and_plurals():
    import bm25_okapi

    assert bm25_okapi.words("getJSONResponse") == ["getjsonresponse", "get", "json", "response"]
    assert bm25_okapi.words("max_retries entries boxes files status") == [
        "max_retry",
        "max",
        "retry",
        "entry",
        "box",
        "file",
        "status",
    ]
    assert bm25_okapi.words("def return func self the if") == []  # keywords and English stop words
    ranking = bm25_okapi.Okapi(
        [
            ("src/cache.py", bm25_okapi.file_terms("src/cache.py", "def get(key): pass")),
            ("src/json_response.py", bm25_okapi.file_terms("src/json_response.py", "def render(): pass")),
            ("README.md", bm25_okapi.file_terms("README.md", "nothing here")),
        ]
    )
    assert ranking.rank("JSON responses") == ["src/json_response.py"]  # from the path alone, plural folded


def test_quality_budget_recall_is_the_share_of_gold_files_the_budget_answer_touches():
    packed = [("a.py", 100), ("c.py", 300), ("b.py", 50), ("open.py", 999)]
    got = quality.score(["c.py", "a.py"], packed, {"a.py", "b.py", "d.py"}, "open.py")
    assert got["recall"] == pytest.approx(2 / 3)
    assert got["precision"] == pytest.approx(150 / 450)  # the open file's tokens count for nothing
    assert quality.score(["a.py"], [], {"a.py"}, None)["recall"] == 0.0


def test_quality_snapshot_without_history_is_a_plain_directory(tmp_path):
    """--history without: each snapshot is the commit's files in a directory git cannot
    see, and files the next snapshot lacks are gone from it."""
    import subprocess

    repo = _history(tmp_path / "repo")
    (repo / "gone.py").write_text("def gone():\n    pass\n")
    subprocess.run(["git", "-C", str(repo), "add", "gone.py"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "Add a file to remove"], check=True)
    subprocess.run(["git", "-C", str(repo), "rm", "-q", "gone.py"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "Remove it"], check=True)
    base = tmp_path / "base"
    base.mkdir()
    snaps = quality.Snapshots(quality.git_dir_of(str(repo)), base, history=False, serve=False)
    try:
        snaps.checkout("HEAD~1")
        assert (snaps.tree / "gone.py").exists() and not (snaps.tree / ".git").exists()
        assert subprocess.run(["git", "-C", str(snaps.tree), "rev-parse"], capture_output=True).returncode != 0
        snaps.checkout("HEAD~2")
        assert not (snaps.tree / "gone.py").exists()
        assert (snaps.tree / "a.py").read_text() == "def retry(timeout, jitter):\n    return timeout + jitter\n"
        assert snaps.files() == ["a.py", "b.py"]
    finally:
        snaps.close()


def test_quality_through_serve_matches_in_process_with_and_without_history(tmp_path):
    """repo-graph answered by `repo-graph serve` over pipes gives the in-process
    provider's answers, every figure comes in both histories, and budget recall is
    reported for every system."""
    repo = _two_file_history(tmp_path / "repo")
    results = _quality(
        tmp_path, str(repo), "--systems", "repo-graph,repo-graph:inprocess,bm25-files,bm25-symbols", "--history", "both"
    )
    reports = results["repositories"]
    assert [r["history"] for r in reports] == ["with history", "without history"]
    assert results["ranking"] == {"max_tokens": 16384, "max_frames": 50}
    for report in reports:
        assert report["seconds"]["serve_to_ready_mean"] is not None  # one serve per snapshot
        assert len(report["cases"]) == 4 and sum(1 for c in report["cases"] if c["anchor"]) == 1
        for case in report["cases"]:
            served, local = case["results"]["repo-graph"], case["results"]["repo-graph:inprocess"]
            assert served == local
            for system in ("repo-graph", "bm25-files", "bm25-symbols"):
                assert 0.0 <= case["results"][system]["unanchored"]["recall"] <= 1.0
        rows = {(r["system"], r["task"]) for r in report["summary"]}
        assert {("best baseline", "anchored"), ("repo-graph - best", "unanchored")} <= rows
    assert [(b["task"], b["history"]) for b in results["pooled"]] == [
        ("changes", "with history"),
        ("changes", "without history"),
    ]


def test_quality_cases_file_is_evaluated_as_mined_cases_are(tmp_path):
    import json

    repo = _two_file_history(tmp_path / "mirrors" / "dev+tiny")
    mined = _quality(tmp_path, str(repo), "--systems", "repo-graph,bm25-files")["repositories"][0]
    frozen = tmp_path / "cases.jsonl"
    frozen.write_text(
        "".join(
            json.dumps({"repo": "dev/tiny", "ref": mined["head"], "commit": c["sha"], "parent": c["parent"]} | c) + "\n"
            for c in mined["cases"]
        )
    )
    again = _quality(
        tmp_path,
        "--cases-file",
        str(frozen),
        "--mirrors",
        str(tmp_path / "mirrors"),
        "--systems",
        "repo-graph,bm25-files",
    )["repositories"][0]
    assert again["name"] == "dev/tiny"
    assert len(again["cases"]) == len(mined["cases"]) == 4
    assert {c["sha"]: c["results"] for c in again["cases"]} == {c["sha"]: c["results"] for c in mined["cases"]}


def test_quality_questions_report_per_kind_and_plainness(tmp_path):
    import json
    import subprocess

    repo = _two_file_history(tmp_path / "mirrors" / "dev+tiny")
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    questions = [
        ("q1", "where", True, "Where is a failed call tried again?", ["a.py"]),
        ("q2", "how", False, "How do I set the ttl of cache?", ["b.py"]),
        ("q3", "why", True, "Why do both helpers wait as long by default?", ["a.py", "b.py"]),
    ]
    path = tmp_path / "questions.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": i, "repo": "dev/tiny", "ref": head, "kind": k, "plain": p, "question": q, "gold": g})
            + "\n"
            for i, k, p, q, g in questions
        )
    )
    results = _quality(
        tmp_path,
        "--questions",
        str(path),
        "--mirrors",
        str(tmp_path / "mirrors"),
        "--systems",
        "repo-graph,bm25-files",
        "--history",
        "without",
    )
    (block,) = results["pooled"]
    assert block["task"] == "questions" and block["history"] == "without history"
    cases = {(r["group"], r["system"], r["task"]): r["cases"] for r in block["summary"]}
    assert cases[("all", "repo-graph", "unanchored")] == 3 and cases[("all", "repo-graph", "anchored")] == 1
    assert cases[("where", "repo-graph", "unanchored")] == 1 and cases[("plain", "bm25-files", "unanchored")] == 2
    assert cases[("identifier", "repo-graph", "unanchored")] == 1
    by_id = {c["qid"]: c for c in results["repositories"][0]["cases"]}
    assert by_id["q2"]["results"]["bm25-files"]["unanchored"]["top5"][0] == "b.py"
