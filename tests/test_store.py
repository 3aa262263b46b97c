"""The store's kept figures: counts kept in meta and moved by every write, and the
structural edges (a view over the nodes) counted as the view lists them."""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import threading
import time

import pytest

from indexer.index import RepoIndex

from .conftest import make_repo


def test_structural_edges_are_counted_as_the_view_lists_them(mixed):
    """defines/contains are a view over the nodes; the summary counts them off the
    indexes instead of scanning it, and must count what the view lists."""
    index, summary = mixed
    edges = index.store.all_edges()
    assert summary.edges == index.store.counts()["edges"] == len(edges)
    assert {r for _, _, r in edges} >= {"code.defines", "repo-graph:contains", "code.imports", "code.calls"}


def test_counts_are_kept_and_each_write_moves_them(mixed):
    """Counting scans every node row (seconds on the kernel): counts() is counted once
    and kept, and every write (a file added, edited, emptied, removed, its links
    re-resolved) moves the kept figures to what a fresh count says."""
    index, _ = mixed
    store = index.store
    before = store.counts()
    assert json.loads(store.get_meta("counts")) == before == store._count()
    assert index.refresh().symbols == before["symbol"]  # nothing changed: read back
    quiet = index.refresh(count=False)  # the watcher's pass: files only, no node scan
    assert (quiet.files, quiet.symbols) == (before["files"], 0)
    target = index.root / "pkg" / "b.py"
    steps = [
        lambda: target.write_text(
            target.read_text() + "\n\nclass Extra:\n    def one_more(self):\n        return helper()\n"
        ),
        lambda: (index.root / "pkg" / "new.py").write_text(
            "from .b import helper\n\ndef uses():\n    return helper()\n"
        ),
        lambda: target.write_text(""),  # a file with no symbols left
        lambda: (index.root / "notes.md").write_text("# Notes\n\nSee `pkg/a.py`.\n"),
        lambda: target.unlink(),
        lambda: (index.root / "pkg" / "new.py").rename(index.root / "pkg" / "renamed.py"),
    ]
    for step in steps:
        step()
        index.refresh(count=False)
        kept = json.loads(store.get_meta("counts"))
        assert kept == store._count() == store.counts()
        assert kept["edges"] == len(store.all_edges())
    assert (
        kept["files"] == before["files"] + 1
        and kept["languages"]["markdown"] == before["languages"].get("markdown", 0) + 1
    )


def test_edge_count_holds_for_a_file_whose_name_has_a_hash(tmp_path):
    files = {
        "odd#name.py": "class A:\n    def m(self):\n        return 1\n\n\ndef f():\n    return 2\n",
        "plain.py": "def g():\n    return 3\n",
    }
    index = RepoIndex(make_repo(tmp_path / "hash", files), cache_dir=tmp_path / "cache")
    summary = index.refresh()
    assert summary.edges == len(index.store.all_edges())
    index.close()


def _open_files(prefix: str) -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(prefix):
            found.append(target)
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to list open files")
def test_a_thread_that_ended_leaves_its_connection_closed_with_the_collector_off(tmp_path):
    """A connection is in a cycle with its statement cache: left to itself it outlives
    the thread that opened it until the cyclic collector runs, which a first index
    turns off. Its file then stays open, and a rebuild renamed over it (an upgrade
    beside) made every later open of the index fail with a disk I/O error."""
    from indexer.store import Store

    path = tmp_path / "index.sqlite3"
    store = Store(path)
    gc.disable()
    try:
        for _ in range(3):
            reader = threading.Thread(target=store.file_count)
            reader.start()
            reader.join()
        store.close()
        assert _open_files(str(path)) == []
    finally:
        gc.enable()


def test_a_second_process_opening_a_new_index_keeps_what_the_first_created(tmp_path):
    """Two windows started at once on one new cache: both find no schema, and the one
    that waited for the other's write lock must look again once it has it, not drop
    the tables the first created and has begun filling (which broke the first's open
    and every answer after)."""
    from indexer.store import Store
    from indexer.store.schema import _HISTORY_SCHEMA, _SCHEMA, SCHEMA_VERSION

    path = tmp_path / "index.sqlite3"
    first = sqlite3.connect(str(path), isolation_level=None)
    first.execute("PRAGMA journal_mode=WAL")
    first.execute("BEGIN IMMEDIATE")  # the first window, creating the schema
    opened: list = []
    second = threading.Thread(target=lambda: opened.append(Store(path)))
    second.start()
    time.sleep(0.5)  # the second has found no schema and waits for the write lock
    for statement in (_SCHEMA + _HISTORY_SCHEMA).split(";"):
        if statement.strip():
            first.execute(statement)
    first.execute("INSERT INTO meta VALUES('schema_version', ?)", (str(SCHEMA_VERSION),))
    first.execute("INSERT INTO meta VALUES('first', 'was here')")
    first.execute("COMMIT")
    second.join(30)
    assert opened, "the second window opened the index"
    assert first.execute("SELECT value FROM meta WHERE key='first'").fetchone() == ("was here",)
    opened[0].close()
    first.close()


def test_an_index_a_newer_release_made_is_left_whole_and_this_release_keeps_its_own_beside(tmp_path):
    """Two releases on one cache (a host's pinned one, a newer CLI): the older one must
    not drop the newer one's tables on every open (nor the newer the older's on its
    next), so it keeps its own index beside, and opens that one again next time."""
    from indexer.store import Store
    from indexer.store.schema import SCHEMA_VERSION

    path = tmp_path / "index.sqlite3"
    made = Store(path)
    made.close()
    newer = sqlite3.connect(str(path), isolation_level=None)
    newer.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    newer.execute("CREATE TABLE newer_only(x)")
    newer.execute("INSERT INTO newer_only VALUES('kept')")
    newer.close()
    for _ in range(2):
        ours = Store(path)
        assert ours.newer_left == (path, SCHEMA_VERSION + 1)
        assert ours.path != path and ours.path.parent == path.parent
        assert ours.file_count() == 0  # a working index of its own
        ours.close()
    beside = ours.path
    beside.write_bytes(b"not an index at all")  # damaged: set aside and started afresh, like the main file
    mended = Store(path)
    assert mended.path == beside and mended.set_aside_to is not None and mended.file_count() == 0
    mended.close()
    again = sqlite3.connect(str(path))
    assert again.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION + 1),)
    assert again.execute("SELECT x FROM newer_only").fetchall() == [("kept",)]
    again.close()


def test_few_checkpoints_holds_the_wal_for_its_writes_and_gives_the_default_back(tmp_path):
    """[first-pass-checkpoints] A progressive first index checkpoints rarely; the writes
    after it (the watcher's, a question's freshness check) checkpoint as usual, or the
    WAL of a long-served index would grow to 512 MiB between checkpoints."""
    from indexer.store import WAL_CHECKPOINT_PAGES, Store

    store = Store(tmp_path / "index.sqlite3")
    pragma = lambda name: store.db.execute(f"PRAGMA {name}").fetchone()[0]  # noqa: E731
    with store.few_checkpoints():
        assert pragma("wal_autocheckpoint") > WAL_CHECKPOINT_PAGES
    assert pragma("wal_autocheckpoint") == WAL_CHECKPOINT_PAGES
    assert pragma("journal_size_limit") == WAL_CHECKPOINT_PAGES * 4096
    store.close()
