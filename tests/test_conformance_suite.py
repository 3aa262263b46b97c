"""The protocol's own conformance suite (../shared/cgp-conformance) against
`repo-graph serve`, on a fixture repository and on a clone of this repository.
Its first run builds the suite with cargo (about two minutes, offline).

A checkout without `../shared` beside it skips these saying which path is missing;
under `CI=true` that is a failure instead, so CI can never pass without having run
them (conftest.shared_file, as for every test that reads ../shared)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO_ROOT, shared_file


def _build_lock() -> Path:
    """run.sh builds the suite in one shared folder; two test runs on one machine
    building it at once break each other's build, so they take turns."""
    home = Path(os.environ.get("CGP_CONFORMANCE_HOME") or Path.home() / ".cache" / "cgp-conformance")
    home.parent.mkdir(parents=True, exist_ok=True)
    return home.parent / f"{home.name}.lock"


def conformance(repo, cache_dir):
    run_sh = shared_file("cgp-conformance", "run.sh")  # skipped (failed under CI=true) when ../shared is absent
    command = ["env", f"REPO_GRAPH_CACHE_DIR={cache_dir}", sys.executable, "-m", "repo_graph", "serve", str(repo)]
    with open(_build_lock(), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        out = subprocess.run(["bash", str(run_sh), "--", *command], capture_output=True, text=True, timeout=1200)
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


@pytest.mark.parametrize("ci", ["", "true"])
def test_without_shared_the_suite_is_skipped_with_the_reason_but_fails_under_ci(tmp_path, ci):
    """This file and the conftest in a checkout with no `shared` folder beside it."""
    checkout = tmp_path / "checkout"
    (checkout / "tests").mkdir(parents=True)
    for name in ("__init__.py", "conftest.py", "test_conformance_suite.py"):
        shutil.copy(REPO_ROOT / "tests" / name, checkout / "tests" / name)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    if ci:
        env["CI"] = ci
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rsf",
            "-p",
            "no:cacheprovider",
            "tests/test_conformance_suite.py",
            "-m",
            "conformance",
        ],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    missing = tmp_path / "shared" / "cgp-conformance" / "run.sh"
    assert f"{missing} is missing" in out.stdout and "../shared" in out.stdout, out.stdout[-2000:]
    if ci:
        assert out.returncode == 1 and "2 failed" in out.stdout, out.stdout[-2000:]
    else:
        assert out.returncode == 0 and "2 skipped" in out.stdout, out.stdout[-2000:]
