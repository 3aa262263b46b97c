"""The command line as a person uses it: real processes, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import REPO_ROOT, host_env


def run(args, home, cwd=None, **kw):
    return subprocess.run([sys.executable, "-m", "repo_graph", *args], capture_output=True, text=True,
                          env=host_env(home), cwd=cwd or REPO_ROOT, timeout=300, **kw)


def test_version_and_help(home):
    out = run(["--version"], home)
    assert out.returncode == 0 and out.stdout.startswith("repo-graph ")
    for sub in ("index", "serve", "query"):
        assert run([sub, "--help"], home).returncode == 0


def test_index_prints_a_summary_and_json(repo, home):
    out = run(["index", str(repo)], home)
    assert out.returncode == 0, out.stderr
    for word in ("files", "symbols", "sections", "edges", "languages", "seconds"):
        assert word in out.stdout
    data = json.loads(run(["index", str(repo), "--json"], home).stdout)
    assert data["files"] == 5  # README, docs/deploy.md and three .py files; not build/, *.log, data.bin
    assert data["symbols"] >= 5 and data["sections"] >= 4
    assert data["parsed"] == 0 and data["unchanged"] >= 5  # the second run re-parses nothing
    assert data["languages"]["python"] == 3 and data["languages"]["markdown"] == 2
    assert data["history_commits"] == 0 and "history   none (not a git work tree" in out.stdout  # a plain tree


def test_index_says_how_much_history_it_read(tmp_path, home):
    from .test_history import history_repo

    repo = history_repo(tmp_path)  # five commits, four files
    out = run(["index", str(repo)], home)
    assert out.returncode == 0, out.stderr
    assert "history   5 commits read from git (4 files changed in them)" in out.stdout
    data = json.loads(run(["index", str(repo), "--json"], home).stdout)
    assert (data["history_commits"], data["history_files"]) == (5, 4)


def test_index_names_the_files_it_could_only_partly_parse(tmp_path, home):
    for i in range(7):
        (tmp_path / f"broken{i}.py").write_text(f"def ok{i}():\n    return 1\n\ndef broken(:\n    pass\n")
    (tmp_path / "fine.py").write_text("def fine():\n    return 2\n")
    out = run(["index", str(tmp_path), "--quiet"], home)
    assert out.returncode == 0, out.stderr
    warning = next(line for line in out.stderr.splitlines() if "syntax errors" in line)
    assert warning.startswith("repo-graph: warning: 7 file(s) have syntax errors")
    assert warning.endswith(": broken0.py, broken1.py, broken2.py, broken3.py, broken4.py and 2 more")
    assert "fine.py" not in out.stderr and "ok6" in run(["query", str(tmp_path), "ok6"], home).stdout


def test_index_defaults_to_the_current_directory(repo, home):
    out = run(["index", "--json"], home, cwd=repo)
    assert out.returncode == 0 and json.loads(out.stdout)["files"] == 5


def test_index_respects_gitignore_binary_and_size_cap(repo, home):
    (repo / "big.py").write_text("x = 1\n" * 400_000)
    data = json.loads(run(["index", str(repo), "--json"], home).stdout)
    assert data["too_large"] == 1 and data["ignored"] >= 2  # build/ and debug.log
    out = run(["query", str(repo), "generated_function", "--json"], home)
    assert "build/generated.py" not in out.stdout


def test_query_prints_frames_for_a_person(repo, home):
    out = run(["query", str(repo), "retry policy", "--max-tokens", "400"], home)
    assert out.returncode == 0, out.stderr
    assert "RetryPolicy" in out.stdout and "config.py L" in out.stdout and "score" in out.stdout
    assert "of 400 tokens" in out.stdout


def test_query_json_with_anchor_and_kinds(repo, home):
    out = run(["query", str(repo), "deploy", "--anchor", "src/config.py", "--kinds", "symbol", "--json"], home)
    reply = json.loads(out.stdout)
    frames = reply["result"]["frames"]
    assert frames and {f["kind"] for f in frames} == {"symbol"}
    assert "config.py" in frames[0]["uri"]


def test_missing_path_is_a_one_line_failure(home, tmp_path):
    out = run(["index", str(tmp_path / "nope")], home)
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0 and "no such directory" in out.stderr
    (tmp_path / "file.txt").write_text("x")
    out = run(["serve", str(tmp_path / "file.txt")], home)
    assert out.returncode == 1 and "not a directory" in out.stderr and "Traceback" not in out.stderr


def test_usage_errors_exit_two(home):
    assert run(["index", "--no-such-flag"], home).returncode == 2
    assert run(["query"], home).returncode == 2
    assert run(["frobnicate"], home).returncode == 2


def test_cache_lives_outside_the_tree_and_can_be_moved(repo, home, tmp_path):
    run(["index", str(repo)], home)
    assert list((home / ".cache" / "repo-graph").glob("*.sqlite3"))
    assert not list(repo.rglob("*.sqlite3"))
    other = tmp_path / "elsewhere"
    out = run(["index", str(repo), "--cache-dir", str(other), "--json"], home)
    assert json.loads(out.stdout)["database"].startswith(str(other))
