"""The benchmark scripts import the indexer's internals; keep them running when those move."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import freshness  # noqa: E402
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
        ("pkg/a.py", "python"), ("pkg/broken.py", "python"), ("tool", "python")]


def test_freshness_python_files(tmp_path):
    every, clean = freshness.python_files(_corpus(tmp_path))
    assert every == ["pkg/a.py", "pkg/broken.py", "tool"]
    assert clean == ["pkg/a.py", "tool"]


def test_quality_variants_name_real_weights():
    assert quality.variant("repo-graph:code") == ({}, ("symbol",))
    assert quality.variant("repo-graph:code+W_PROXIMITY=0.1") == ({"W_PROXIMITY": 0.1}, ("symbol",))
    assert quality.variant("repo-graph:lexical") == (quality.ABLATIONS["repo-graph:lexical"], ())
    assert quality.variant("repo-graph") is None and quality.variant("bm25-files") is None
    with pytest.raises(ValueError, match="W_NOPE"):
        quality.variant("repo-graph:W_NOPE=1")
