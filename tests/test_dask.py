"""Scale-out: indexing through a Dask `distributed` executor on a local cluster
gives the same index as the default process pool (same nodes, edges, digests)."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from concurrent.futures import ProcessPoolExecutor

import pytest

from indexer.index import RepoIndex

from .test_persistence import generated_repo

distributed = pytest.importorskip("distributed", reason="the optional extra repo-graph[dask] is not installed")


def snapshot(index: RepoIndex):
    con = sqlite3.connect(index.store.path)
    nodes = sorted(con.execute("SELECT id, kind, start_line, end_line, digest, content_digest FROM nodes"))
    edges = sorted(con.execute("SELECT src, dst, rel FROM edges UNION ALL SELECT src, dst, rel FROM links"))
    files = sorted(con.execute("SELECT path, digest, status FROM files"))
    con.close()
    return nodes, edges, files


def test_dask_executor_builds_the_same_index_as_the_default(tmp_path):
    repo = generated_repo(tmp_path / "repo", 300)
    default = RepoIndex(repo, cache_dir=tmp_path / "default", jobs=2)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        default.refresh(executor=pool)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        dasked = RepoIndex(repo, cache_dir=tmp_path / "dask")
        summary = dasked.refresh(executor=client.get_executor())
    assert summary.parsed == 301
    nodes, edges, files = snapshot(dasked)
    assert (nodes, edges, files) == snapshot(default)
    assert len(nodes) > 9000 and len(edges) > 9000


def _tasks_by_prefix(dask_scheduler) -> dict[str, int]:
    """Runs on the scheduler: how many tasks of each name finished (reached memory)."""
    return {name: prefix.state_counts["memory"] for name, prefix in dask_scheduler.task_prefixes.items()}


def test_index_dask_flag_parses_on_the_cluster_it_names(tmp_path):
    """`repo-graph index --dask ADDRESS`, the command line the README shows: the parse
    tasks run on that scheduler's workers, and the index is the default one's."""
    import subprocess
    import sys

    from .conftest import REPO_ROOT, host_env

    repo = generated_repo(tmp_path / "repo", 60)
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "repo_graph",
                "index",
                str(repo),
                "--dask",
                cluster.scheduler_address,
                "--json",
                "--cache-dir",
                str(tmp_path / "dask"),
            ],
            capture_output=True,
            text=True,
            env=host_env(tmp_path),
            cwd=REPO_ROOT,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr
        ran = client.run_on_scheduler(_tasks_by_prefix)
    assert ran.get("parse_task", 0) >= 1, f"no parse task ran on the cluster: {ran}"
    assert json.loads(out.stdout)["parsed"] == 61
    dasked = RepoIndex(repo, cache_dir=tmp_path / "dask")
    default = RepoIndex(repo, cache_dir=tmp_path / "default", jobs=1)
    default.refresh()
    assert snapshot(dasked) == snapshot(default)
