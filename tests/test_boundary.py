"""The repository is the boundary (issue 35, items 1, 2 and 4): every path, URI or
id a host sends is resolved, symlinks included, and names nothing unless it lands
inside the repository and outside its ignored files; only regular files are read,
never in a way that blocks; every UTF-8 file name round-trips through id, uri,
anchor and verify. All through `repo-graph serve` over real pipes."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from .conftest import run_cli

LEAK = "def leak_marker_fn():\n    return 'outside'\n"


def _git_init(repo: Path) -> None:
    subprocess.run(["git", "init", "-q", str(repo)], check=True)


def _outside_and_repo(tmp_path: Path) -> tuple[Path, Path]:
    """x/out/s.py beside x/repo (the issue's repro), and a file in the parent tree."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "s.py").write_text(LEAK)
    (tmp_path / "parent_file.py").write_text("def parent_marker_fn():\n    return 1\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git_init(repo)
    (repo / "a.py").write_text("def f():\n    pass\n")
    return out, repo


def _cache_files(home: Path) -> list[Path]:
    return [p for p in (home / ".cache" / "repo-graph").rglob("*") if p.is_file()]


def _indexed_paths(home: Path) -> set[str]:
    (db,) = [p for p in _cache_files(home) if p.name.endswith(".sqlite3")]
    con = sqlite3.connect(db)
    try:
        return {row[0] for row in con.execute("SELECT path FROM files")}
    finally:
        con.close()


def _contents(reply: dict) -> str:
    assert reply["type"] == "frames", reply
    return "\n".join(f["content"] for f in reply["result"]["frames"])


def test_boundary_anchors_outside_the_repository_name_nothing(tmp_path, provider_factory, home):
    out, repo = _outside_and_repo(tmp_path)
    p = provider_factory(repo)
    anchors = [
        "../out/s.py",
        "../out/s.py#leak_marker_fn",
        str(out / "s.py"),
        (out / "s.py").as_uri(),
        "..",
        "../",
        "../out",
        "a.py/../../out/s.py",
        "./../out/s.py",
        str(tmp_path),
        tmp_path.as_uri(),
    ]
    for anchor in anchors:
        reply = p.query(goal="leak_marker_fn parent_marker_fn", anchors=[anchor], max_frames=5, max_tokens=999)
        assert "outside" not in _contents(reply) and "parent_marker_fn" not in _contents(reply), anchor
    later = p.query(goal="leak_marker_fn parent_marker_fn outside", max_frames=20, max_tokens=9999)
    assert "leak_marker_fn" not in _contents(later) and "parent_marker_fn" not in _contents(later)
    assert p.close() == 0
    assert _indexed_paths(home) == {"a.py"}  # the parent tree was never walked, nothing outside kept


def test_boundary_a_directory_symlink_to_outside_is_not_followed(tmp_path, provider_factory, home):
    out, repo = _outside_and_repo(tmp_path)
    (repo / "ext").symlink_to(out, target_is_directory=True)
    p = provider_factory(repo)
    for anchor in [
        "ext/s.py",
        "ext",
        str(repo / "ext" / "s.py"),
        (repo / "ext" / "s.py").as_uri(),
        (repo / "ext" / "s.py").as_uri() + "#leak_marker_fn",
        "ext/s.py#leak_marker_fn",
    ]:
        reply = p.query(goal="leak_marker_fn", anchors=[anchor], max_frames=5, max_tokens=999)
        assert "outside" not in _contents(reply), anchor
    digest = "sha256:" + hashlib.sha256(LEAK.encode()).hexdigest()
    assert p.verify(("ext/s.py#leak_marker_fn", digest)) == ["gone"]
    assert p.close() == 0
    assert _indexed_paths(home) == {"a.py"}


def test_boundary_verify_of_a_file_outside_is_gone_and_leaves_no_trace_in_the_cache(tmp_path, provider_factory, home):
    out, repo = _outside_and_repo(tmp_path)
    p = provider_factory(repo)
    p.query(goal="f")  # the index exists
    file_digest = hashlib.sha256(LEAK.encode()).hexdigest()
    ids = [
        "../out/s.py#leak_marker_fn",
        "../out/s.py",
        "../../../etc/shadow#x",
        "/etc/passwd#root",
        str(out / "s.py") + "#leak_marker_fn",
        "a.py/../../out/s.py#x",
    ]
    assert p.verify(*((i, "sha256:" + file_digest) for i in ids)) == ["gone"] * len(ids)
    assert p.close() == 0
    # No digest oracle: neither the file's sha256 nor its path is written anywhere in the cache.
    for path in _cache_files(home):
        data = path.read_bytes()
        assert file_digest.encode() not in data, path
        assert b"out/s.py" not in data and b"etc/shadow" not in data, path


def test_boundary_an_ignored_directory_is_not_served_through_a_symlink_to_it(tmp_path, provider_factory):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git_init(repo)
    (repo / ".gitignore").write_text("secrets/\n")
    (repo / "secrets").mkdir()
    (repo / "secrets" / "key.py").write_text("def secret_token_fn():\n    return 'hunter2'\n")
    (repo / "s2").symlink_to("secrets", target_is_directory=True)
    (repo / "a.py").write_text("def f():\n    pass\n")
    p = provider_factory(repo)
    for anchors in (["s2/key.py"], ["s2"], ["secrets/key.py"], ["secrets"], [(repo / "s2" / "key.py").as_uri()], []):
        reply = p.query(goal="secret_token_fn hunter2", anchors=anchors, max_frames=5, max_tokens=999)
        assert "hunter2" not in _contents(reply), anchors
    zeros = "sha256:" + "0" * 64
    assert p.verify(("s2/key.py#secret_token_fn", zeros), ("secrets/key.py#secret_token_fn", zeros)) == ["gone", "gone"]


def test_boundary_a_symlink_inside_to_a_file_inside_names_that_file(tmp_path, provider_factory):
    """Resolved, a link that lands inside (and not ignored) names its target."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git_init(repo)
    (repo / "real.py").write_text("def target_fn():\n    return 1\n")
    (repo / "alias.py").symlink_to("real.py")
    p = provider_factory(repo)
    reply = p.query(goal="anything", anchors=["alias.py"], max_frames=3, max_tokens=999)
    assert any(f["id"].startswith("real.py") for f in reply["result"]["frames"])


def test_boundary_cache_is_private_and_an_existing_one_is_made_private(tmp_path, provider_factory, home):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def f():\n    pass\n")
    cache = home / ".cache" / "repo-graph"
    cache.mkdir(parents=True)
    cache.chmod(0o755)  # an earlier release's cache, readable by everyone
    p = provider_factory(repo)
    p.query(goal="f")
    assert p.close() == 0
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    files = _cache_files(home)
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files), [
        (f.name, oct(f.stat().st_mode)) for f in files
    ]
    for f in files:
        f.chmod(0o644)
    p = provider_factory(repo)
    p.query(goal="f")
    assert p.close() == 0
    db = [f for f in files if f.name.endswith(".sqlite3")]
    assert db and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in db)


def test_boundary_an_anchor_to_a_blocking_file_gets_an_answer_and_shutdown_still_works(tmp_path, provider_factory):
    """/proc/kmsg blocks a reader (as root); a FIFO blocks until a writer comes."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def f():\n    pass\n")
    os.mkfifo(repo / "pipe.py")
    depth = len(repo.parts) - 1
    p = provider_factory(repo)
    for anchor in ["../" * depth + "proc/kmsg", "/proc/kmsg", "pipe.py", "/dev/zero", "../" * depth + "dev/stdin"]:
        reply = p.query(goal="f", anchors=[anchor], max_frames=3, max_tokens=999)
        assert reply["type"] == "frames", anchor
    p.send({"type": "shutdown"})
    assert p.close() == 0


def test_boundary_reads_refuse_a_fifo_without_blocking(tmp_path):
    """Opened without blocking and checked after opening: a file swapped for a FIFO
    between the walk and the read is refused at once (parse and frame reads alike)."""
    from indexer.index import RepoIndex
    from indexer.pool import parse_task
    from indexer.walk import WalkedFile

    repo = tmp_path / "repo"
    repo.mkdir()
    os.mkfifo(repo / "swapped.py")
    results: list = []

    def read():
        results.append(parse_task(str(repo), [(WalkedFile("swapped.py", 10, 0, 0), None)], 1 << 20))
        index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
        results.append(index.read_spans("swapped.py", [(1, 1)]))
        index.close()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)  # a generous bound: a blocked open never returns at all
    assert not reader.is_alive(), "a read of a FIFO blocked"
    assert results == [[(WalkedFile("swapped.py", 10, 0, 0), None)], None]


@pytest.mark.parametrize("root", ["/", "/proc", "/proc/self", "/sys", "/dev"])
def test_boundary_index_refuses_the_file_system_root_and_kernel_trees(root, home):
    done = run_cli(home, "index", root, timeout=120)
    assert done.returncode == 1
    assert "refusing to index" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# -- file names -------------------------------------------------------------------------

ODD_NAMES = {
    "h#a.py": "hash_name_fn",
    "p%41.py": "percent_name_fn",
    "sp ace.py": "space_name_fn",
    "-lead.py": "dash_name_fn",
    "new\nline.py": "newline_name_fn",
    "q?x.py": "question_name_fn",
    "ünï.py": "unicode_name_fn",
}


def test_boundary_every_utf8_file_name_round_trips_through_id_uri_anchor_and_verify(tmp_path, provider_factory):
    from urllib.parse import unquote, urlsplit

    repo = tmp_path / "repo"
    repo.mkdir()
    for name, fn in ODD_NAMES.items():
        (repo / name).write_text(f"def {fn}():\n    return {len(fn)}\n")
    p = provider_factory(repo)
    for name, fn in ODD_NAMES.items():
        frames = p.query(goal=fn, max_frames=3, max_tokens=2000)["result"]["frames"]
        frame = next(f for f in frames if fn in f["content"])
        assert frame["id"] == f"{name}#{fn}"
        uri = urlsplit(frame["uri"])
        assert unquote(uri.path) == str(repo / name) and unquote(uri.fragment) == fn
        provenance = frame["provenance"][0]
        on_disk = Path(unquote(urlsplit(provenance["uri"]).path))
        assert on_disk == repo / name
        assert provenance["digest"] == "sha256:" + hashlib.sha256(on_disk.read_bytes()).hexdigest()
        for anchor in (frame["uri"], frame["id"], name, str(repo / name)):
            anchored = p.query(goal="unrelated words", anchors=[anchor], max_frames=2, max_tokens=2000)
            assert anchored["result"]["frames"][0]["id"].startswith(name), (name, anchor)
        assert p.verify((frame["id"], frame["content_digest"])) == ["valid"], name


def test_boundary_a_file_name_that_is_not_utf8_is_skipped_with_one_warning(tmp_path, home):
    repo = tmp_path / "repo"
    repo.mkdir()
    for i in range(7):
        (repo / f"m{i}.py").write_text(f"def fn_{i}():\n    return {i}\n")
    os.close(os.open(os.path.join(os.fsencode(repo), b"a\xff.py"), os.O_CREAT | os.O_WRONLY, 0o644))
    done = run_cli(home, "index", "--json", str(repo))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    warnings = [line for line in done.stderr.splitlines() if "not UTF-8" in line]
    assert len(warnings) == 1 and "a\\xff.py" in warnings[0]
    import json

    assert json.loads(done.stdout)["files"] == 7


def test_boundary_a_non_utf8_name_created_while_serving_never_stops_the_watcher(tmp_path, provider_factory):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def f():\n    pass\n")
    p = provider_factory(repo)
    assert p.query(goal="f")["type"] == "frames"  # the first index is done and the watcher runs
    with open(os.path.join(os.fsencode(repo), b"bad\xfe.py"), "wb") as fh:
        fh.write(b"def bad_fn():\n    pass\n")
    (repo / "later.py").write_text("def later_watched_fn():\n    return 'seen by the watcher'\n")
    # Not anchored and not read before: only the watcher can bring it in.
    for _ in range(120):
        reply = p.query(goal="later_watched_fn", max_frames=3, max_tokens=999)
        if "seen by the watcher" in _contents(reply):
            break
        threading.Event().wait(0.5)
    else:
        pytest.fail("the watcher stopped indexing after a non-UTF-8 name appeared")
    p.send({"type": "shutdown"})
    assert p.proc.wait(60) == 0
    stderr = p.proc.stderr.read().decode(errors="replace")
    assert "Traceback" not in stderr
    assert len([line for line in stderr.splitlines() if "not UTF-8" in line]) == 1, stderr
