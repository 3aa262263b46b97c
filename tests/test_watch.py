"""A live index: a real watcher on a real temporary tree, driven through the stdio
server while files change under it. The `live` tests change the tree after the first
answer, in files no answer's own disk check looks at, so only the watcher finds them.
Waits are bounded polls, never timed asserts."""

from __future__ import annotations

import errno
import os
import time

import pytest

from indexer.index import RepoIndex
from indexer.watch import Watcher

from .conftest import make_repo

DEADLINE = 30.0


def eventually(probe, what: str):
    """Poll until `probe()` returns a truthy value (the watcher is asynchronous)."""
    end = time.monotonic() + DEADLINE
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"never happened in {DEADLINE:.0f} s: {what}")
        time.sleep(0.1)


def ids(provider, goal, **kw):
    return {f["id"]: f for f in provider.query(goal=goal, max_frames=30, **kw)["result"]["frames"]}


def aged(repo):
    """Every file last written an hour ago, as in a checkout opened the next morning:
    none was read so close to its write that each answer checks it again on disk
    (RECENT_NS), so only the watcher can tell the index of what changes next."""
    an_hour_ago = time.time() - 3600
    for path in repo.rglob("*"):
        os.utime(path, (an_hour_ago, an_hour_ago), follow_symlinks=False)
    return repo


@pytest.fixture
def live(repo, provider_factory):
    """A provider with its first answer out (the first index done, the watcher running);
    every test changes the tree only after it."""
    (repo / "src" / "extras.py").write_text("def placeholder_value():\n    return 0\n")
    p = provider_factory(aged(repo))
    p.handshake()
    assert "src/config.py#RetryPolicy" in ids(p, "retry policy")
    return p


def test_an_edit_is_served_though_no_answer_drew_from_the_edited_file(live, repo):
    """The per-query disk check covers the files an answer draws from and the anchored
    ones; a function added to any other file is found only because the watcher re-read it."""
    before = ids(live, "placeholder value")["src/extras.py#placeholder_value"]
    (repo / "src" / "extras.py").write_text("def compute_jitter_window(attempt):\n    return attempt * 7\n")
    found = eventually(
        lambda: ids(live, "retry jitter window").get("src/extras.py#compute_jitter_window"),
        "the function the edit added is served",
    )
    assert "attempt * 7" in found["content"]
    assert live.verify((before["id"], before["content_digest"])) == ["gone"]


def test_a_deleted_file_leaves_the_relations_of_the_frames_that_named_it(live, repo):
    """The README's retry section documents src/config.py: once the file is deleted,
    that section's frame (from a file that did not change) no longer leads to it."""

    def section():
        frames = ids(live, "retry policy", kinds=["doc"])
        return frames["README.md#retry-policy"]

    config = (repo / "src" / "config.py").as_uri()
    assert any(r["target_uri"].startswith(config) for r in section()["relations"])
    frame = ids(live, "retry policy", kinds=["symbol"])["src/config.py#RetryPolicy"]
    (repo / "src" / "config.py").unlink()
    eventually(
        lambda: not any(r["target_uri"].startswith(config) for r in section()["relations"]),
        "the relations to the deleted file go with it",
    )
    assert live.verify((frame["id"], frame["content_digest"])) == ["gone"]


def test_renamed_file_serves_frames_under_the_new_path(live, repo):
    assert "src/client.py#fetch" in ids(live, "fetch url")
    os.rename(repo / "src" / "client.py", repo / "src" / "http_client.py")
    eventually(lambda: "src/http_client.py#fetch" in ids(live, "fetch url"), "frames under the new name")
    assert "src/client.py#fetch" not in ids(live, "fetch url")


def test_new_file_in_a_new_directory_is_found(live, repo):
    assert not [i for i in ids(live, "audit trail") if "audit" in i]
    (repo / "plugins" / "audit").mkdir(parents=True)
    (repo / "plugins" / "audit" / "trail.py").write_text("def record_audit_trail():\n    return []\n")
    eventually(lambda: "plugins/audit/trail.py#record_audit_trail" in ids(live, "audit trail"), "new file found")


def test_atomic_save_is_found_once(live, repo):
    target = repo / "src" / "atomic.py"
    tmp = repo / "src" / ".atomic.py.swp~"
    tmp.write_text("def saved_atomically():\n    return 1\n")
    os.replace(tmp, target)
    found = eventually(
        lambda: [i for i in ids(live, "saved atomically") if "saved_atomically" in i], "atomic save found"
    )
    assert found == ["src/atomic.py#saved_atomically"]


def test_gitignore_addition_removes_its_frames(live, repo):
    assert "docs/deploy.md#deploying" in ids(live, "deploying region")
    with open(repo / ".gitignore", "a") as fh:
        fh.write("docs/\n")
    eventually(lambda: "docs/deploy.md#deploying" not in ids(live, "deploying region"), "ignored docs leave")


def test_gitignore_edit_that_stops_ignoring_a_directory_brings_its_files_in(live, repo):
    """The fixture ignores build/: once the rule goes, its files are found (a walk; no
    check of one file could find them)."""
    assert "build/generated.py#generated_function" not in ids(live, "generated function")
    (repo / ".gitignore").write_text((repo / ".gitignore").read_text().replace("build/\n", ""))
    eventually(
        lambda: "build/generated.py#generated_function" in ids(live, "generated function"),
        "the directory no longer ignored is indexed",
    )


def test_directory_move_and_delete_are_followed(live, repo):
    os.rename(repo / "src", repo / "lib")
    eventually(lambda: "lib/config.py#RetryPolicy" in ids(live, "retry policy"), "moved tree indexed")
    assert not any(i.startswith("src/") for i in ids(live, "retry policy"))


def test_watch_limit_falls_back_to_rescans_and_says_so(tmp_path, capfd):
    repo = make_repo(tmp_path / "r", {"a.py": "def first():\n    pass\n"})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()

    class RefusingObserver:  # watchdog's inotify observer when the watch limit is reached
        def schedule(self, *args, **kwargs):
            raise OSError(errno.ENOSPC, "inotify watch limit reached")

    watcher = Watcher(index, observer_factory=RefusingObserver, rescan_seconds=0.2).start()
    try:
        assert watcher.mode == "rescan"
        assert "watch limit" in capfd.readouterr().err
        (repo / "b.py").write_text("def second():\n    pass\n")
        eventually(lambda: index.store.node("b.py#second") is not None, "the periodic rescan finds the new file")
    finally:
        watcher.stop()


def test_a_file_read_mid_write_is_read_again_before_the_next_answer(provider_factory, repo):
    """An editor's save truncates, then writes: a file read in between is indexed
    empty, and the watcher hears of the rest only later. No watcher here (--no-watch):
    the next query itself checks the files read so close to a write, and finds the
    function the finished save added."""
    needle = repo / "src" / "needle.py"
    needle.write_text("def old_needle_helper():\n    return 0\n")
    p = provider_factory(repo, args=["--no-watch"])
    p.handshake()
    assert ids(p, "old needle helper")
    needle.write_text("")  # the moment a save has truncated the file ...
    assert "src/needle.py#old_needle_helper" not in ids(p, "old needle helper")  # ... is what a check reads
    needle.write_text("def unique_needle_function():\n    return 1\n")  # the save finishes; nobody hears of it
    assert "src/needle.py#unique_needle_function" in ids(p, "unique needle function")
