"""The protocol's own conformance suite (../shared/cgp-conformance) against
`repo-graph serve`, on a fixture repository and on a clone of this repository.
Its first run builds the suite with cargo (about two minutes, offline)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import REPO_ROOT, SHARED

RUN_SH = SHARED / "cgp-conformance" / "run.sh"


def conformance(repo, cache_dir):
    command = ["env", f"REPO_GRAPH_CACHE_DIR={cache_dir}", sys.executable, "-m", "repo_graph", "serve", str(repo)]
    out = subprocess.run(["bash", str(RUN_SH), "--", *command], capture_output=True, text=True, timeout=1200)
    return out.returncode, out.stdout + out.stderr


def assert_conformant(rc, report):
    assert rc == 0, report[-4000:]
    assert "0 failed" in report, report[-4000:]
    for line in report.splitlines():
        line = line.strip()
        if line.startswith("SKIP"):
            # Only the embedding check may be skipped: we declare no embeddings.
            assert line.startswith("SKIP embedding-fingerprint"), line


@pytest.mark.conformance
def test_conformance_suite_passes_on_a_fixture_repository(repo, tmp_path):
    rc, report = conformance(repo, tmp_path / "cache")
    assert_conformant(rc, report)
    assert "anchored on" in report and "ranked it first" in report


@pytest.mark.conformance
def test_conformance_suite_passes_on_a_clone_of_this_repository(tmp_path):
    clone = tmp_path / "clone"
    if (REPO_ROOT / ".git").exists():
        subprocess.run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], check=True)
    else:
        shutil.copytree(REPO_ROOT, clone, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    rc, report = conformance(clone, tmp_path / "cache")
    assert_conformant(rc, report)
