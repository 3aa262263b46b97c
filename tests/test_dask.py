"""Scale-out: indexing through a Dask `distributed` executor on a local cluster
gives the same index as the default process pool (same nodes, edges, digests)."""

from __future__ import annotations

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
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        dasked = RepoIndex(repo, cache_dir=tmp_path / "dask")
        summary = dasked.refresh(executor=client.get_executor())
    assert summary.parsed == 301
    nodes, edges, files = snapshot(dasked)
    assert (nodes, edges, files) == snapshot(default)
    assert len(nodes) > 9000 and len(edges) > 9000
