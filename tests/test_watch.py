"""A live index: a real watcher on a real temporary tree, driven through the stdio
server while files change under it. Waits are bounded polls, never timed asserts."""

from __future__ import annotations

import errno
import os
import time

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
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.1)


def ids(provider, goal, **kw):
    return {f["id"]: f for f in provider.query(goal=goal, max_frames=30, **kw)["result"]["frames"]}


def test_edit_shows_the_new_body_and_the_old_identity_goes_stale(provider, repo):
    before = ids(provider, "delay attempt")["src/config.py#RetryPolicy.delay"]
    config = repo / "src" / "config.py"
    config.write_text(config.read_text().replace("2 ** attempt", "3 ** attempt"))
    after = eventually(lambda: ids(provider, "delay attempt").get("src/config.py#RetryPolicy.delay")
                       if "3 ** attempt" in ids(provider, "delay attempt")["src/config.py#RetryPolicy.delay"]["content"]
                       else None, "the edited body is served")
    assert after["content_digest"] != before["content_digest"]
    verdict = provider.ask({"type": "verify", "request": {"frames": [
        {"provider_id": "repo-graph", "frame_id": before["id"], "content_digest": before["content_digest"]}]}})
    assert verdict["response"]["verdicts"][0]["status"] == "stale"


def test_deleted_file_is_gone_and_absent(provider, repo):
    frame = ids(provider, "deploying region")["docs/deploy.md#deploying"]
    (repo / "docs" / "deploy.md").unlink()
    eventually(lambda: "docs/deploy.md#deploying" not in ids(provider, "deploying region"), "deleted file leaves answers")
    verdict = provider.ask({"type": "verify", "request": {"frames": [
        {"provider_id": "repo-graph", "frame_id": frame["id"], "content_digest": frame["content_digest"]}]}})
    assert verdict["response"]["verdicts"][0]["status"] == "gone"


def test_renamed_file_serves_frames_under_the_new_path(provider, repo):
    assert "src/client.py#fetch" in ids(provider, "fetch url")
    os.rename(repo / "src" / "client.py", repo / "src" / "http_client.py")
    eventually(lambda: "src/http_client.py#fetch" in ids(provider, "fetch url"), "frames under the new name")
    assert "src/client.py#fetch" not in ids(provider, "fetch url")


def test_new_file_in_a_new_directory_is_found(provider, repo):
    (repo / "plugins" / "audit").mkdir(parents=True)
    (repo / "plugins" / "audit" / "trail.py").write_text("def record_audit_trail():\n    return []\n")
    eventually(lambda: "plugins/audit/trail.py#record_audit_trail" in ids(provider, "audit trail"), "new file found")


def test_atomic_save_is_found_once(provider, repo):
    target = repo / "src" / "atomic.py"
    tmp = repo / "src" / ".atomic.py.swp~"
    tmp.write_text("def saved_atomically():\n    return 1\n")
    os.replace(tmp, target)
    found = eventually(lambda: ids(provider, "saved atomically"), "atomic save found")
    assert [i for i in found if "saved_atomically" in i] == ["src/atomic.py#saved_atomically"]


def test_gitignore_addition_removes_its_frames(provider, repo):
    assert "docs/deploy.md#deploying" in ids(provider, "deploying region")
    with open(repo / ".gitignore", "a") as fh:
        fh.write("docs/\n")
    eventually(lambda: "docs/deploy.md#deploying" not in ids(provider, "deploying region"), "ignored docs leave")


def test_directory_move_and_delete_are_followed(provider, repo):
    os.rename(repo / "src", repo / "lib")
    eventually(lambda: "lib/config.py#RetryPolicy" in ids(provider, "retry policy"), "moved tree indexed")
    assert not any(i.startswith("src/") for i in ids(provider, "retry policy"))


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
