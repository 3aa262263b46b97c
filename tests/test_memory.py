"""Memory stays bounded by the work in flight and the graph, not by the source:
5,000 files four times larger (same symbols, same graph) cost no more memory."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO_ROOT, host_env, make_repo

FILLER = "# " + "lorem ipsum dolor sit amet " * 3 + "\n"


def shaped_repo(root, n_files: int, filler_lines: int):
    body = FILLER * filler_lines  # comment: source bytes grow, symbols and graph stay the same
    return make_repo(root, {f"d{i % 50}/f{i}.py": f"{body}def func_{i}(x):\n    return x\n" for i in range(n_files)})


def peak_rss_kib(repo, cache, tmp_path) -> int:
    """Peak RSS of a `repo-graph index --jobs 1` run, measured by a wrapper process
    whose only child it is."""
    probe = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            probe,
            sys.executable,
            "-m",
            "repo_graph",
            "index",
            str(repo),
            "--cache-dir",
            str(cache),
            "--jobs",
            "1",
            "-q",
        ],
        capture_output=True,
        text=True,
        env=host_env(tmp_path),
        cwd=REPO_ROOT,
        check=True,
        timeout=600,
    )
    return int(out.stdout.strip())


def test_peak_memory_does_not_grow_with_the_source(tmp_path):
    small = peak_rss_kib(shaped_repo(tmp_path / "small", 5000, 16), tmp_path / "c1", tmp_path)
    large = peak_rss_kib(shaped_repo(tmp_path / "large", 5000, 96), tmp_path / "c2", tmp_path)
    extra_source_mib = 5000 * len(FILLER) * 80 / 2**20
    growth_mib = (large - small) / 1024
    # ~33 MiB more source; the largest file is ~8 KiB. Memory may grow by buffers
    # of a few files, never by the source as a whole.
    print(f"peak RSS {small / 1024:.0f} -> {large / 1024:.0f} MiB")
    assert growth_mib < 0.1 * extra_source_mib, (
        f"peak RSS grew {growth_mib:.0f} MiB for {extra_source_mib:.0f} MiB more source"
    )
    assert large / 1024 < 250, f"peak RSS {large / 1024:.0f} MiB"


def test_a_thread_that_answers_keeps_a_smaller_page_cache(tmp_path):
    """[answer-cache] `limit_cache` bounds this thread's SQLite page cache, and the
    next connection it opens (after the file is replaced); other threads keep theirs."""
    import threading

    from indexer.store import Store

    store = Store(tmp_path / "index.sqlite3")

    def cache_kib() -> int:
        return -store.db.execute("PRAGMA cache_size").fetchone()[0]

    full = cache_kib()
    store.limit_cache(1024)
    assert cache_kib() == 1024 < full
    other: list[int] = []
    thread = threading.Thread(target=lambda: other.append(cache_kib()))
    thread.start()
    thread.join()
    assert other == [full]
    store.replace_damaged()  # every thread reconnects
    assert cache_kib() == 1024
    store.close()
