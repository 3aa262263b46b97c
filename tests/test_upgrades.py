"""Upgrades in place: each rule of indexer/upgrades.py forces what its row says, and
nothing more, on an index made under another version."""

from __future__ import annotations

import subprocess

from grammars import Registry
from indexer import upgrades
from indexer.index import RepoIndex
from indexer.sections import DOC_EXTENSIONS

from .conftest import make_repo

CODE = set(Registry().languages)
DOCS = set(DOC_EXTENSIONS.values())


def _as_next_release(index: RepoIndex) -> RepoIndex:
    """The index as the next release opens it: one that extracts otherwise."""
    index.rules_table = upgrades.bumped("extract", "next")
    index._rules_by_language = None
    return index


def _next_release(repo, cache_dir) -> RepoIndex:
    return _as_next_release(RepoIndex(repo, cache_dir=cache_dir))


def test_a_reparse_rule_changes_the_digests_of_the_languages_it_reads_only():
    registry = Registry()
    before = upgrades.extraction_digests(registry)
    assert set(before) == CODE | DOCS
    for name, rule in upgrades.RULES.items():
        after = upgrades.extraction_digests(registry, upgrades.bumped(name, "next"))
        changed = {lang for lang in before if after[lang] != before[lang]}
        expected = (CODE if upgrades.CODE in rule.reads else set()) | (DOCS if upgrades.DOCS in rule.reads else set())
        assert changed == (expected if rule.forces == upgrades.REPARSE else set()), name


def _repo(tmp_path):
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/retry.py": "class RetryPolicy:\n    def delay(self):\n        return 1\n",
            "pkg/client.py": "from pkg.retry import RetryPolicy\n\ndef call():\n    return RetryPolicy().delay()\n",
            "README.md": "# Retries\n\nSee `RetryPolicy`.\n",
        },
    )
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"],
    ):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    return repo


def test_a_resolve_rules_bump_links_again_and_parses_nothing(tmp_path):
    repo = _repo(tmp_path)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    links = sorted(index.store.all_edges())
    index.close()
    again = RepoIndex(repo, cache_dir=tmp_path / "cache")
    again.rules_table = upgrades.bumped("resolve", "next")
    summary = again.refresh()
    assert summary.parsed == 0
    assert again.store.get_meta("resolve_rules") == "next"
    assert sorted(again.store.all_edges()) == links
    again.close()


def test_a_history_rules_bump_reads_the_history_again_and_parses_nothing(tmp_path):
    repo = _repo(tmp_path)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    assert index.store.get_meta("history_rules") == upgrades.RULES["history"].version
    index.rules_table = upgrades.bumped("history", "next")
    assert index.refresh().parsed == 0
    assert index.store.get_meta("history_rules") == "next"
    index.close()


def test_an_index_kept_under_the_same_rules_is_not_parsed_again(tmp_path):
    repo = _repo(tmp_path)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    assert index.refresh().parsed == 3
    index.close()
    again = RepoIndex(repo, cache_dir=tmp_path / "cache")
    assert again.refresh().parsed == 0
    _as_next_release(again)
    assert again.refresh().parsed == 2  # the Python files; the README stays
    again.close()


def test_a_bm25f_field_weight_is_in_every_digest():
    """The index holds term frequencies the field weights weighed: a change to one
    parses every file again, code and docs (issue 36: it left a stale index)."""
    from indexer.parse import FIELD_WEIGHTS

    registry = Registry()
    before = upgrades.extraction_digests(registry)
    heavier = tuple((name, weight * 2 if name == "name" else weight) for name, weight in FIELD_WEIGHTS)
    after = upgrades.extraction_digests(registry, fields=heavier)
    assert {lang for lang in before if after[lang] != before[lang]} == CODE | DOCS


def test_an_upgrade_that_reparses_most_files_builds_beside_while_the_old_index_answers(tmp_path, capfd):
    """Issue 40: a release whose extraction differs for most files builds a fresh index
    beside the old one, in bulk as a cold index does, while the old one keeps
    answering (a reader meanwhile always finds every file and its symbols), then swaps
    it in with one rename. The result is what a cold index under the new rules makes."""
    import threading

    from indexer.store import db_path_for

    from .test_progressive import dump, generated

    repo = generated(tmp_path / "repo", 700, functions=4)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    index.close()

    again = _next_release(repo, tmp_path / "cache")
    again.ready.set()  # it was loaded complete: answering meanwhile
    seen, done = [], threading.Event()

    def reader():
        while not done.is_set():
            with again.priority.answering():  # as a query reads
                seen.append((again.store.file_count(), again.store.node("pkg3/m150.py#fn_150_2") is not None))

    watcher = threading.Thread(target=reader)
    watcher.start()
    try:
        summary = again.refresh()
    finally:
        done.set()
        watcher.join()
    assert summary.parsed >= 700
    assert seen and all(files == seen[0][0] and found for files, found in seen), seen[:3]  # never a half index
    assert not list((tmp_path / "cache").glob("*.next*"))  # swapped in, nothing left beside
    again.close()
    err = capfd.readouterr().err
    assert "building a new index beside the old one" in err and "swapped in the new index" in err

    cold = _next_release(repo, tmp_path / "cold")
    cold.refresh()
    cold.close()
    upgraded, fresh = dump(db_path_for(repo, tmp_path / "cache")), dump(db_path_for(repo, tmp_path / "cold"))
    for table in fresh:
        assert upgraded[table] == fresh[table], table


def test_an_upgrade_without_room_beside_says_so_and_reparses_in_place(tmp_path, capfd, monkeypatch):
    """Two indexes need twice the space: when the disk is short, a person is told how
    much is needed and free, and the upgrade re-parses in place (slower), still whole."""
    import shutil

    from .test_progressive import generated

    repo = generated(tmp_path / "repo", 700, functions=2)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    index.close()
    again = _next_release(repo, tmp_path / "cache")
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda p: real(p)._replace(free=1000))  # a nearly full disk
    summary = again.refresh()
    again.close()
    err = capfd.readouterr().err
    assert "re-parsing in place instead (slower)" in err and "0.0 GB are" in err
    assert "building a new index beside" not in err
    assert summary.parsed >= 700


def test_an_index_from_before_the_directory_table_gets_one_on_open(tmp_path):
    import sqlite3

    index = RepoIndex(
        make_repo(tmp_path / "dirs", {"a/b/c.py": "x = 1\n", "a/d.py": "y = 2\n"}), cache_dir=tmp_path / "cache"
    )
    index.refresh()
    path = index.store.path
    index.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE dirs")
    again = RepoIndex(tmp_path / "dirs", cache_dir=tmp_path / "cache")
    assert sorted(again.store.paths_named("a", 10)) == ["a/b/c.py", "a/d.py"]
    assert again.store.paths_named("b", 10) == ["a/b/c.py"]
    again.close()


def test_an_upgrade_under_serve_answers_every_question_throughout_and_swaps_in(tmp_path, home, envelope_validator):
    """Issue 40, as a host meets it: the next release's serve, over real pipes, on an
    index the last release made. Every question asked while it parses everything
    again beside the old index is answered whole (the anchored file's frames), the
    new index is swapped in, and serve keeps answering from it."""
    import json
    import sys
    import threading
    import time

    from benchmarks.upgrade import NEXT_RELEASE  # the next release's serve, as the benchmark launches it

    from .conftest import REPO_ROOT, assert_schema_valid, host_env, run_cli
    from .test_progressive import generated

    repo = generated(tmp_path / "repo", 700, functions=4)
    assert run_cli(home, "index", str(repo), "-q").returncode == 0
    proc = subprocess.Popen(
        [sys.executable, *NEXT_RELEASE, "serve", str(repo), "--no-watch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=host_env(home),
        cwd=str(REPO_ROOT),
    )
    err: list[str] = []
    threading.Thread(target=lambda: err.extend(line.decode() for line in proc.stderr), daemon=True).start()

    def ask(envelope: dict) -> dict:
        proc.stdin.write(json.dumps(envelope).encode() + b"\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert_schema_valid(envelope_validator, reply)
        return reply

    try:
        assert ask({"type": "handshake", "protocol_version": "contextgraph/1.0"})["type"] == "handshake_ack"
        question = {"goal": "what does fn_150_2 call", "anchors": ["pkg3/m150.py"], "max_frames": 8, "max_tokens": 3000}
        replies, after, deadline = [], 0, time.monotonic() + 240
        while after < 2 and time.monotonic() < deadline:
            after += any("index ready" in line for line in err)
            replies.append(ask({"type": "query", "id": f"q{len(replies)}", "query": question}))
            time.sleep(0.2)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    text = "".join(err)
    assert "building a new index beside the old one" in text and "swapped in the new index" in text, text
    assert "error" not in text, text
    assert len(replies) > 2, "no question was asked while the upgrade ran"
    for reply in replies:
        assert reply["type"] == "frames", reply
        assert any(f["id"].startswith("pkg3/m150.py#") for f in reply["result"]["frames"]), reply
