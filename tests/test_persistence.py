"""Crash safety and sharing: a SIGKILL mid-index loses nothing committed and the
next start repairs the rest; two providers on one repository share the cache."""

from __future__ import annotations

import hashlib
import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from .conftest import REPO_ROOT, host_env, make_repo, query_when_ready, run_cli
from .test_watch import eventually


def generated_repo(root: Path, n: int) -> Path:
    files = {
        f"mod{i // 100}/m{i}.py": "".join(
            f'def fn_{i}_{j}(value):\n    """Return value plus {j}."""\n    return value + {j}\n\n' for j in range(30)
        )
        for i in range(n)
    }
    files["mod0/needle.py"] = "def unique_needle_function():\n    return 'found'\n"
    return make_repo(root, files)


def rehash_ok(frame) -> bool:
    (prov,) = frame["provenance"]
    data = Path(unquote(urlsplit(prov["uri"]).path)).read_bytes().splitlines(keepends=True)
    a, _, b = prov["range"][1:].partition("-")
    return prov["digest"] == "sha256:" + hashlib.sha256(b"".join(data[int(a) - 1 : int(b or a)])).hexdigest()


def test_sigkill_mid_index_then_restart_answers_correctly(tmp_path, provider_factory):
    repo = generated_repo(tmp_path / "repo", 1500)
    cache = tmp_path / "cache"
    proc = subprocess.Popen(
        [sys.executable, "-m", "repo_graph", "index", str(repo), "--cache-dir", str(cache), "-q"],
        env=host_env(tmp_path),
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def some_files_committed():
        dbs = list(cache.glob("*.sqlite3"))
        if not dbs:
            return False
        try:
            with sqlite3.connect(dbs[0], timeout=1) as con:
                return con.execute("SELECT count(*) FROM files").fetchone()[0] > 0
        except sqlite3.Error:
            return False

    eventually(some_files_committed, "the indexer committed a first batch")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(next(cache.glob("*.sqlite3"))) as con:
        partial = con.execute("SELECT count(*) FROM files").fetchone()[0]
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert 0 < partial < 1501, "the kill did not land mid-index; make the repository larger"

    p = provider_factory(repo, args=["--cache-dir", str(cache)])
    p.handshake()
    # The restart indexes what the kill left undone, progressively: an answer meanwhile
    # comes from what is indexed so far (issue 40), so a host asks again as it fills.
    for _ in range(120):
        frames = query_when_ready(p, goal="unique needle function")["result"]["frames"]
        if frames and frames[0]["id"] == "mod0/needle.py#unique_needle_function":
            break
        time.sleep(0.5)
    assert frames[0]["id"] == "mod0/needle.py#unique_needle_function"
    assert all(rehash_ok(f) for f in frames)
    for _ in range(240):
        frames = p.query(goal="fn 1499 29 value")["result"]["frames"]
        if any(f["id"] == "mod14/m1499.py#fn_1499_29" for f in frames):
            break
        time.sleep(0.5)
    assert any(f["id"] == "mod14/m1499.py#fn_1499_29" for f in frames), "the restart completed the index"


def test_serve_on_an_indexed_repository_loads_instead_of_parsing(tmp_path, provider_factory):
    repo = generated_repo(tmp_path / "repo", 50)
    cache = tmp_path / "cache"
    done = run_cli(tmp_path, "index", str(repo), "--cache-dir", str(cache), "-q")
    assert done.returncode == 0, done.stderr
    p = provider_factory(repo, args=["--cache-dir", str(cache)])
    p.handshake()
    assert p.query(goal="unique needle")["result"]["frames"]
    err = bytearray()

    def index_ready_line():
        ready, _, _ = select.select([p.proc.stderr], [], [], 0.5)
        if ready:  # raw reads: a buffered readline could strand a line in its buffer
            err.extend(os.read(p.proc.stderr.fileno(), 65536))
        return next((line for line in err.decode().splitlines() if "index ready" in line), None)

    ready_line = eventually(index_ready_line, "the catch-up pass reports")
    assert "loaded the persisted index" in err.decode()
    assert " 0 parsed" in ready_line, ready_line


def test_two_providers_share_one_repository_while_files_change(tmp_path, provider_factory):
    repo = generated_repo(tmp_path / "repo", 100)
    cache = tmp_path / "cache"
    a = provider_factory(repo, args=["--cache-dir", str(cache)])
    b = provider_factory(repo, args=["--cache-dir", str(cache)])
    a.handshake()
    b.handshake()
    for p in (a, b):  # two first indexes at once: wait them out as a host would
        assert query_when_ready(p, goal="unique needle function")["type"] == "frames"
    for round_ in range(5):
        (repo / "mod0" / f"live{round_}.py").write_text(f"def live_function_{round_}():\n    return {round_}\n")
        (repo / "mod0" / "needle.py").write_text(f"def unique_needle_function():\n    return {round_}\n")
        for p in (a, b):
            frames = p.query(goal="unique needle function")["result"]["frames"]
            assert frames[0]["id"] == "mod0/needle.py#unique_needle_function"
            assert f"return {round_}" in frames[0]["content"] and rehash_ok(frames[0])
    for p in (a, b):
        eventually(
            lambda p=p: any(
                f["id"] == "mod0/live4.py#live_function_4" for f in p.query(goal="live function 4")["result"]["frames"]
            ),
            "new file seen",
        )
    with sqlite3.connect(next(cache.glob("*.sqlite3"))) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_stop_between_writing_files_and_resolving_their_links_is_repaired_next_start(tmp_path, monkeypatch):
    """Files are committed batch by batch and their links resolved after: a process
    stopped in between (here the resolver fails, as a kill would stop it) leaves files
    that look unchanged and links that never came. The next start resolves them, unless
    the process that owes the resolution is still alive (another window on the cache)."""
    from indexer.index import RepoIndex
    from indexer.resolve import Resolver

    repo = make_repo(
        tmp_path / "repo",
        {
            "a.py": "def helper():\n    return 1\n",
            "b.py": "from a import helper\n\n\ndef caller():\n    return helper()\n",
        },
    )
    call = ("b.py#caller", "a.py#helper", "code.calls")

    def stop(*args, **kwargs):
        raise KeyboardInterrupt("stopped mid-resolution")

    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    with monkeypatch.context() as patched:
        patched.setattr(Resolver, "links_in_chunks", stop)
        try:
            index.refresh()
        except KeyboardInterrupt:
            pass
    assert index.store.file_count() == 2 and call not in index.store.all_edges()
    assert index.store.get_meta("resolve_pending") == str(os.getpid())  # who owes the resolution
    index.close()

    # While the process that wrote the files lives (a second window), finishing is its job.
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        shared = RepoIndex(repo, cache_dir=tmp_path / "cache")
        shared.store.set_meta("resolve_pending", str(owner.pid))
        shared.refresh()
        assert call not in shared.store.all_edges()
        shared.close()
    finally:
        owner.kill()
        owner.wait()

    index = RepoIndex(repo, cache_dir=tmp_path / "cache")  # the owner is gone now: resolve
    summary = index.refresh()
    assert summary.parsed == 0  # nothing to parse again, only links to resolve
    assert call in index.store.all_edges()
    assert index.store.get_meta("resolve_pending") == "0"
    index.close()
    again = RepoIndex(repo, cache_dir=tmp_path / "cache")
    again.refresh()
    assert again.store.get_meta("resolve_pending") == "0" and call in again.store.all_edges()
    again.close()


def linked_repo(root: Path, n: int, per_file: int = 10) -> Path:
    """n modules in a chain: each imports the one before it and each of its functions
    calls its namesake there, so a complete index holds (n - 1) * per_file calls and
    n - 1 imports between files, and resolving them takes a while."""
    files = {f"pkg{k}/__init__.py": "" for k in range((n + 99) // 100)}
    for i in range(n):
        prev = i - 1
        head = (
            f"from pkg{prev // 100}.m{prev} import {', '.join(f'fn_{prev}_{j}' for j in range(per_file))}\n"
            if i
            else ""
        )
        body = "".join(
            f'\n\ndef fn_{i}_{j}(value):\n    """Step {j} of module {i}."""\n'
            + (f"    return fn_{prev}_{j}(value) + {j}\n" if i else f"    return value + {j}\n")
            for j in range(per_file)
        )
        files[f"pkg{i // 100}/m{i}.py"] = head + body
    return make_repo(root, files)


def _meta_and_counts(db: Path) -> tuple[str | None, int, dict[str, int]] | None:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            pending = con.execute("SELECT value FROM meta WHERE key='resolve_pending'").fetchone()
            files = con.execute("SELECT count(*) FROM files").fetchone()[0]
            links = dict(con.execute("SELECT rel, count(*) FROM links GROUP BY rel"))
        return (pending[0] if pending else None), files, links
    except sqlite3.Error:
        return None


def test_a_sigkill_while_links_are_resolved_is_repaired_by_the_next_run(tmp_path):
    """A real `repo-graph index` killed (SIGKILL) once every file is committed and its
    links are being resolved: the files look unchanged to the next run, which must still
    resolve the links the killed one owed, and says so."""
    n = 1500
    repo = linked_repo(tmp_path / "repo", n)
    total = sum(1 for p in repo.rglob("*.py"))
    cache = tmp_path / "cache"
    command = [sys.executable, "-m", "repo_graph", "index", str(repo), "--cache-dir", str(cache), "-q"]
    proc = subprocess.Popen(
        command, env=host_env(tmp_path), cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )

    def resolving():
        dbs = list(cache.glob("*.sqlite3"))
        state = _meta_and_counts(dbs[0]) if dbs else None
        if proc.poll() is not None:
            pytest.fail("the index finished before the kill; make the repository larger")
        return state is not None and state[0] not in (None, "0") and state[1] == total

    end = time.monotonic() + 120
    while not resolving():  # a tight poll: the resolution lasts about a second
        if time.monotonic() > end:
            pytest.fail("the index never reached its resolution phase")
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    db = next(cache.glob("*.sqlite3"))
    pending, files, links = _meta_and_counts(db)
    assert files == total
    assert pending == str(proc.pid), "the kill did not land before the resolution was done"
    assert links.get("code.calls", 0) < (n - 1) * 10  # links were owed

    again = subprocess.run(command, env=host_env(tmp_path), cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "stopped before resolving links" in again.stderr
    pending, files, links = _meta_and_counts(db)
    assert (pending, files) == ("0", total)
    assert links.get("code.calls") == (n - 1) * 10 and links.get("code.imports") == n - 1
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        last = con.execute(
            "SELECT count(*) FROM links WHERE src=? AND dst=? AND rel='code.calls'",
            (f"pkg14/m{n - 1}.py#fn_{n - 1}_9", f"pkg14/m{n - 2}.py#fn_{n - 2}_9"),
        ).fetchone()[0]
    assert last == 1


def test_files_extracted_under_other_rules_are_parsed_again(tmp_path):
    """A release whose queries or extraction rules for a language differ (a new
    tags.scm pattern, upgrades.RULES["extract"]) parses that language's files again on its
    first refresh, though none changed; other languages' files are left as they are. One
    that stems terms otherwise (upgrades.RULES["terms"]) parses every language's; so does an
    index that kept no record of how it was extracted."""
    import json

    from indexer import upgrades
    from indexer.index import RepoIndex

    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/retry.py": "class RetryPolicy:\n    def delay(self):\n        return 1\n",
            "docs/guide.md": "# Retries\n\nSee `RetryPolicy`.\n",
        },
    )
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    index.close()
    con = sqlite3.connect(index.store.path)  # as a release extracting Python otherwise left it
    with con:
        kept = json.loads(con.execute("SELECT value FROM meta WHERE key='extraction'").fetchone()[0])
        assert set(kept) >= {"python", "markdown", "go"}
        kept["python"] = "another release"
        con.execute("UPDATE meta SET value=? WHERE key='extraction'", (json.dumps(kept),))
        con.execute("DELETE FROM nodes WHERE id='pkg/retry.py#RetryPolicy.delay'")
    con.close()
    again = RepoIndex(repo, cache_dir=tmp_path / "cache")
    summary = again.refresh()
    assert summary.parsed == 2 and summary.unchanged == 1  # the two .py files; the doc stays
    assert again.store.nodes_by_id(["pkg/retry.py#RetryPolicy.delay"])
    assert again.refresh().parsed == 0  # and once only
    before = again._extraction()
    again.rules_table = upgrades.bumped("terms", "next")
    again._rules_by_language = None
    after = again._extraction()  # a release that cuts terms otherwise: code and docs alike hold its terms
    del again.rules_table
    again._rules_by_language = None
    assert {lang for lang in after if after[lang] != before[lang]} == set(before)
    again.close()
    con = sqlite3.connect(index.store.path)  # an index from before the rules were kept
    with con:
        con.execute("DELETE FROM meta WHERE key='extraction'")
    con.close()
    older = RepoIndex(repo, cache_dir=tmp_path / "cache")
    assert older.refresh().parsed == 3  # extracted by a release older than every rule since: all again
    assert older.store.get_meta("extraction")
    assert older.refresh().parsed == 0
    older.store.set_meta("extraction", "[1, 2]")  # damaged: everything is parsed again, nothing fails
    assert older.refresh().parsed == 3
    older.close()


def test_an_index_from_an_older_release_takes_up_what_this_one_reads_and_resolves(tmp_path, capfd):
    """Upgrading keeps the index: files it skipped as unsupported are read if this
    release reads them (reStructuredText came late), and links made under older
    resolution rules are made again, though no file changed."""
    from indexer.index import RepoIndex

    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/retry.py": "class RetryPolicy:\n    pass\n",
            "docs/guide.rst": "Retries\n=======\n\nSee :class:`pkg.retry.RetryPolicy`.\n",
        },
    )
    documents = ("docs/guide.rst#retries", "pkg/retry.py#RetryPolicy", "doc.documents")
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    assert documents in index.store.all_edges()
    index.close()
    con = sqlite3.connect(index.store.path)  # as the older release left it
    with con:
        rst = con.execute("SELECT rowid FROM nodes WHERE id='docs/guide.rst'").fetchone()[0]
        for table in ("postings", "uses", "used"):
            con.execute(f"DELETE FROM {table} WHERE file=?", (rst,))
        for table in ("nodes", "links"):
            con.execute(f"DELETE FROM {table} WHERE path='docs/guide.rst'")
        con.execute("UPDATE files SET status='unsupported', language=NULL WHERE path='docs/guide.rst'")
        con.execute("UPDATE meta SET value='.md .py' WHERE key='readable'")
        con.execute("UPDATE meta SET value='1' WHERE key='resolve_rules'")
        con.execute('UPDATE meta SET value=\'{"generation": "3", "counts": {}}\' WHERE key=\'counts\'')  # its form
        con.execute(
            "INSERT INTO links VALUES('pkg/retry.py', 'pkg/retry.py#RetryPolicy', 'pkg/retry.py', 'code.calls')"
        )
    con.close()
    again = RepoIndex(repo, cache_dir=tmp_path / "cache")
    summary = again.refresh()
    assert summary.parsed == 1 and summary.languages.get("restructuredtext") == 1
    edges = again.store.all_edges()
    assert documents in edges and ("pkg/retry.py#RetryPolicy", "pkg/retry.py", "code.calls") not in edges
    assert "resolving the links again" in capfd.readouterr().err
    assert again.store.counts() == again.store._count()
    assert again.refresh().parsed == 0  # and once only
    again.close()
