"""The command line as a person uses it: real processes, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import REPO_ROOT, host_env


def run(args, home, cwd=None, **kw):
    return subprocess.run(
        [sys.executable, "-m", "repo_graph", *args],
        capture_output=True,
        text=True,
        env=host_env(home),
        cwd=cwd or REPO_ROOT,
        timeout=300,
        **kw,
    )


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


def test_an_ignore_line_no_pattern_can_mean_is_skipped_as_git_skips_it(repo, home):
    """psf/black keeps a `.gitignore` holding only `!` among its test data: git skips
    such a line and reads the rest of the file; the index must not fail on it (it did:
    "indexing failed: GitIgnorePatternError"), and one line says what was skipped."""
    (repo / ".gitignore").write_text("!\nbuild/\n*.log\n")
    nested = repo / "tests" / "data" / "invalid"
    nested.mkdir(parents=True)
    (nested / ".gitignore").write_text("!\n")
    (nested / "kept.py").write_text("def kept_function():\n    return 1\n")
    out = run(["index", str(repo), "--json"], home)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["ignored"] >= 2  # build/ and debug.log: the other lines still hold
    warning = next(line for line in out.stderr.splitlines() if "no pattern can mean" in line)
    assert warning.endswith("in 2 ignore files: .gitignore, tests/data/invalid/.gitignore"), warning
    found = run(["query", str(repo), "kept_function", "--json"], home).stdout
    assert "tests/data/invalid/kept.py" in found and "build/generated.py" not in found


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


def test_a_binary_file_under_a_claimed_extension_is_skipped(repo, home):
    """A tar archive saved as `backup.py` (NUL bytes in its headers) holds Python
    source verbatim; the Python grammar would find its function, but a binary file is
    never parsed, whatever its name claims."""
    import io
    import tarfile

    source = b"def leaked_from_an_archive():\n    return 'archived'\n"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        member = tarfile.TarInfo("leaked.py")
        member.size = len(source)
        tar.addfile(member, io.BytesIO(source))
    (repo / "src" / "backup.py").write_bytes(buffer.getvalue())
    assert b"\x00" in buffer.getvalue() and source in buffer.getvalue()
    data = json.loads(run(["index", str(repo), "--json", "--stats"], home).stdout)
    assert data["files"] == 5 and data["languages"]["python"] == 3  # the fixture's own; not backup.py
    assert data["stats"]["files_skipped"].get("binary", 0) >= 1
    out = run(["query", str(repo), "leaked from an archive", "--json"], home)
    assert not [f["id"] for f in json.loads(out.stdout)["result"]["frames"] if f["id"].startswith("src/backup.py")]


def test_max_file_bytes_moves_the_size_cap(repo, home, tmp_path):
    """Files over 1 MiB are skipped by default; `--max-file-bytes N` moves the cap."""
    body = "def capped_function_{}():\n    return 1\n"
    (repo / "src" / "medium.py").write_text(body.format("medium") + "#\n" * 1500)  # about 3 KB
    (repo / "src" / "over.py").write_text(body.format("over") + "#\n" * (1 << 19))  # 1 MiB and a bit
    data = json.loads(run(["index", str(repo), "--json"], home).stdout)
    assert (data["files"], data["too_large"]) == (6, 1)  # 1 MiB: medium.py in, over.py out
    capped = tmp_path / "capped"
    data = json.loads(
        run(["index", str(repo), "--json", "--max-file-bytes", "2000", "--cache-dir", str(capped)], home).stdout
    )
    assert data["too_large"] == 2 and data["files"] == 5  # medium.py over 2,000 bytes too
    out = run(
        [
            "query",
            str(repo),
            "capped function medium",
            "--json",
            "--max-file-bytes",
            "2000",
            "--cache-dir",
            str(capped),
        ],
        home,
    )
    assert "src/medium.py" not in out.stdout
    out = run(["query", str(repo), "capped function medium", "--json"], home)
    assert "src/medium.py#capped_function_medium" in out.stdout


def test_index_phases_account_for_the_whole_wall_time(repo, home):
    """Issue 40 item 5: the phases of `index --json` sum to the process's wall time, from
    the interpreter's start to the index closed (its WAL checkpoint included), and what
    no phase names (`other`) is a sliver; a cold run and a warm no-op alike."""
    import time

    for _ in range(2):
        started = time.monotonic()
        out = run(["index", str(repo), "--json"], home)
        outside = time.monotonic() - started
        assert out.returncode == 0, out.stderr
        phases = json.loads(out.stdout)["phases"]
        wall = phases.pop("wall")
        assert {"imports", "open", "state", "walk", "plan", "history", "finish", "close", "other"} <= set(phases)
        if sys.platform == "linux":
            assert phases["start-up"] > 0  # the interpreter's own start, read from /proc
        assert abs(sum(phases.values()) - wall) <= 0.002 * len(phases), phases
        assert phases["other"] <= max(0.05, 0.05 * wall), phases
        assert wall <= outside, (wall, outside)  # within the child's life as the parent saw it


def test_stats_prints_seconds_per_phase_and_counts_per_language_node_kind_and_edge_kind(tmp_path, home):
    """A first index large enough to load rows before building its lookup indexes
    (600 files): every phase the README names, and counts as the fixture was written:
    one function per Python file, each calling the previous file's through an import."""
    from .conftest import make_repo

    n = 600
    files = {"pkg/__init__.py": ""}
    for i in range(n):
        call = (
            f"from pkg.m{i - 1} import step_{i - 1}\n\n\ndef step_{i}():\n    return step_{i - 1}()\n"
            if i
            else "def step_0():\n    return 0\n"
        )
        files[f"pkg/m{i}.py"] = call
    files.update({f"docs/page{i}.md": f"# Page {i}\n\nAbout `step_{i}`.\n" for i in range(5)})
    repo = make_repo(tmp_path / "repo", files)
    out = run(["index", str(repo), "--stats"], home)
    assert out.returncode == 0, out.stderr
    phases = next(line for line in out.stdout.splitlines() if line.strip().startswith("phases"))
    named = [part.split()[0] for part in phases.split(None, 1)[1].split(", ")]
    assert [p for p in named if p in {"walk", "parse", "resolve", "prior", "indexes"}] == [
        "walk",
        "parse",
        "resolve",
        "prior",
        "indexes",
    ], phases
    assert all(part.endswith(" s") for part in phases.split(None, 1)[1].split(", "))

    data = json.loads(run(["index", str(repo), "--json", "--stats"], home).stdout)
    stats = data["stats"]
    assert stats["files_by_language"] == {"python": n + 1, "markdown": 5}
    assert stats["nodes_by_kind"]["symbol:function"] == n
    assert stats["nodes_by_kind"]["file"] == n + 1 + 5
    assert stats["edges_by_kind"]["code.calls"] == n - 1
    assert stats["edges_by_kind"]["code.imports"] == n - 1
    assert stats["symbols_by_language"]["python"] == sum(
        v for k, v in stats["nodes_by_kind"].items() if k.startswith("symbol:")
    )
    for title, table in stats.items():  # the text shows the same tables
        assert f"{title.replace('_', ' ')}:" in out.stdout
        for key, count in table.items():
            assert any(line.split() == [key, str(count)] for line in out.stdout.splitlines()), (title, key)


def test_the_cache_follows_xdg_cache_home_unless_told_otherwise(repo, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    xdg = tmp_path / "xdg"

    def index(env):
        out = subprocess.run(
            [sys.executable, "-m", "repo_graph", "index", str(repo), "--json"],
            capture_output=True,
            text=True,
            env=host_env(home, env),
            cwd=REPO_ROOT,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)["database"]

    assert index({"XDG_CACHE_HOME": str(xdg)}).startswith(str(xdg / "repo-graph") + "/")
    assert list((xdg / "repo-graph").glob("*.sqlite3")) and not (home / ".cache").exists()
    moved = tmp_path / "moved"
    assert index({"XDG_CACHE_HOME": str(xdg), "REPO_GRAPH_CACHE_DIR": str(moved)}).startswith(str(moved) + "/")
    assert index({}).startswith(str(home / ".cache" / "repo-graph") + "/")
