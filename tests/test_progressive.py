"""A first index that answers while it runs (issue 40): files asked about come first,
a query during it is answered from what is indexed (its anchors indexed on the spot),
and the finished index is the one a one-pass cold index makes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from indexer.index import RepoIndex
from indexer.order import ANCHORED, BESIDE, INCLUDED, NAMED, NAMESAKE, REST, FirstOrder, Wants
from indexer.priority import GIVE_WAY_SECONDS
from indexer.store import db_path_for
from indexer.walk import WalkedFile, walk

from .conftest import make_repo


def module(i: int, functions: int = 20) -> str:
    """A module calling into the one before it, through an import."""
    head = f"from pkg{(i - 1) // 50} import m{i - 1}\n\n" if i else ""
    body = "".join(
        f'def fn_{i}_{j}(value):\n    """Step {j} of module {i}."""\n'
        + (f"    return m{i - 1}.fn_{i - 1}_{j}(value) + {j}\n\n" if i else f"    return value + {j}\n\n")
        for j in range(functions)
    )
    return head + body


def generated(root: Path, n: int, functions: int = 20) -> Path:
    files = {f"pkg{i // 50}/m{i}.py": module(i, functions) for i in range(n)}
    files.update({f"pkg{k}/__init__.py": "" for k in range((n + 49) // 50)})
    files["docs/guide.md"] = "# Guide\n\nThe chain starts at `fn_0_0` in `pkg0/m0.py`.\n"
    return make_repo(root, files)


def dump(db: Path) -> dict[str, list]:
    """Everything an index holds, row ids replaced by the ids they stand for and the
    time a file was indexed left out (a clock reading, not the tree's)."""
    con = sqlite3.connect(db)
    ids = dict(con.execute("SELECT rowid, id FROM nodes"))
    out = {
        "files": con.execute(
            "SELECT path, size, mtime_ns, inode, digest, language, status, valid_from, warnings, stem, ctime_ns "
            "FROM files ORDER BY path"
        ).fetchall(),
        "nodes": con.execute(
            "SELECT id, path, kind, sym_kind, name, title, start_line, end_line, digest, content_digest, parent, "
            "signature, doc, length, bytes, head_end FROM nodes ORDER BY id"
        ).fetchall(),
        "postings": sorted((t, ids[f], s, d) for t, f, s, d in con.execute("SELECT * FROM postings")),
        "uses": sorted((ids[f], d) for f, d in con.execute("SELECT file, data FROM uses")),
        "used": sorted((n, ids[f]) for n, f in con.execute("SELECT name, file FROM used")),
        "imports": sorted(con.execute("SELECT * FROM imports")),
        "links": sorted(con.execute("SELECT * FROM links")),
        "priors": sorted(con.execute("SELECT * FROM priors")),
        "corpus": con.execute("SELECT * FROM corpus").fetchall(),
        "dirs": sorted(con.execute("SELECT * FROM dirs")),
        "meta": sorted(con.execute("SELECT * FROM meta WHERE key NOT IN ('indexed_at')")),
        "indexes": sorted(con.execute("SELECT name FROM sqlite_master WHERE type='index'")),
    }
    con.close()
    return out


@pytest.mark.parametrize("n", [300, 600], ids=["in-place", "beside"])
def test_a_progressive_first_index_ends_as_a_cold_one_pass_index(tmp_path, n):
    """Indexed in another order (asked-about files first, one of them by a query's
    thread on the spot, links of those resolved as they came), in place or, as big as a
    cold index loads in bulk (its lookup indexes dropped and rebuilt), beside: the
    finished index holds the same nodes, postings, links, priors and digests as a
    one-pass cold index of the same tree."""
    repo = generated(tmp_path / "repo", n, functions=6)
    cold = RepoIndex(repo, cache_dir=tmp_path / "cold")
    cold.refresh()
    cold.close()

    index = RepoIndex(repo, cache_dir=tmp_path / "progressive")
    index.want([f"pkg{(n - 10) // 50}/m{n - 10}.py"], [f"fn_{n // 2}_1"])
    on_the_spot = threading.Thread(target=lambda: index.update([f"pkg{(n // 2 - 1) // 50}/m{n // 2 - 1}.py"]))
    original = index._resolve_wanted

    def resolve_and_index_one_meanwhile(**kwargs):
        original(**kwargs)
        if not on_the_spot.is_alive() and not on_the_spot.ident:
            on_the_spot.start()
            on_the_spot.join()

    index._resolve_wanted = resolve_and_index_one_meanwhile
    index.refresh(progressive=True)
    assert on_the_spot.ident, "no query indexed a file during the first index"
    index.close()
    first, second = dump(db_path_for(repo, tmp_path / "cold")), dump(db_path_for(repo, tmp_path / "progressive"))
    assert first["links"] and first["priors"] and first["postings"]
    for table in first:
        assert first[table] == second[table], table


def test_the_first_order_puts_asked_files_their_includes_and_directories_before_the_rest(tmp_path):
    repo = make_repo(
        tmp_path / "repo",
        {
            "a/asked.c": '#include "lib/util.h"\nint main(void) { return 0; }\n',
            "a/beside.c": "int beside;\n",
            "lib/util.h": "int util(void);\n",
            "src/util.c": "int util(void) { return 1; }\n",
            "lib/other.c": "int other;\n" * 50,
            "tiny.c": "int t;\n",
            "retry/policy.py": "x = 1\n" * 40,
            "pkg/__init__.py": "y = 2\n" * 30,
        },
    )
    todo = [(w, None) for w in walk(repo)]
    wants = Wants()
    order = FirstOrder(todo, wants, recent={})
    items = iter(order)
    assert next(items)[0].path == "tiny.c"  # nothing asked yet: the smallest first
    wants.ask(["a/asked.c"], ["retry"], targets=["lib/util.h", "pkg"])
    rest = [w.path for w, _ in items]
    assert rest == [
        "a/asked.c",
        "lib/util.h",
        "pkg/__init__.py",
        "a/beside.c",
        "src/util.c",  # where what the included header declares is defined
        "retry/policy.py",
        "lib/other.c",
    ]
    assert [order.tier(p) for p in rest] == [ANCHORED, INCLUDED, INCLUDED, BESIDE, NAMESAKE, NAMED, REST]


def calling_far(root: Path, files: dict[str, str]) -> Path:
    """`files`, 150 small C files, and `z/far.c` defining `far_helper`: the biggest, parsed last."""
    files = dict(files)
    files.update({f"fill/f{i:03}.c": f"int fill_{i}(void) {{ return {i}; }}\n" for i in range(150)})
    files["z/far.c"] = "int far_helper(int x) { return x; }\n" + "".join(
        f"int pad_{i}(void) {{ return {i}; }}\n" for i in range(40)
    )
    return make_repo(root, files)


def test_an_asked_file_is_linked_to_a_definition_that_comes_in_late_before_the_first_index_ends(tmp_path, monkeypatch):
    """Issue 40: the links of an asked-about file improve as the first index fills, not
    only at its end: a file that comes in late defining a name it calls is linked to
    before the final resolution starts."""
    repo = calling_far(tmp_path / "repo", {"a/asked.c": "int asked(void) { return far_helper(1) + 1; }\n"})
    monkeypatch.setattr("indexer.index.PROVISIONAL_SHARE", 1e9)  # no wait between resolutions here
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    index.want(["a/asked.c"])
    seen = {}
    final = index._link

    def before_the_final_resolution(*args, **kwargs):
        seen["links"] = {target for target, _, _ in index.store.links_from_file("a/asked.c")}
        return final(*args, **kwargs)

    index._link = before_the_final_resolution
    index.refresh(progressive=True)
    index.close()
    assert "z/far.c" in seen["links"], seen


def test_a_definition_coming_in_late_resolves_the_anchored_file_again_alone_and_the_anchor_is_never_cut(
    tmp_path, monkeypatch
):
    """Issue 40: a file defining what the anchor calls changes the anchor's links, not
    its directory's: resolving the whole directory again each time was most of the cost
    the answering index added to a first index of the kernel. However many files sit
    beside it, the anchored file itself is always among those resolved."""
    files = {"a/zz_asked.c": "int asked(void) { return far_helper(1) + 1; }\n"}
    files.update({f"a/s{i:02}.c": f"int sibling_{i}(void) {{ return {i}; }}\n" for i in range(10)})
    repo = calling_far(tmp_path / "repo", files)
    monkeypatch.setattr("indexer.index.PROVISIONAL_SHARE", 1e9)  # no wait between resolutions here
    monkeypatch.setattr("indexer.index.PROVISIONAL_FILES", 4)  # fewer than the directory holds
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    index.want(["a/zz_asked.c"])
    calls: list[list[str]] = []
    resolve = index._resolve_provisionally

    def recorded(paths):
        calls.append(list(paths))
        return resolve(paths)

    index._resolve_provisionally = recorded
    index.refresh(progressive=True)
    index.close()
    assert calls and all("a/zz_asked.c" in paths for paths in calls), calls
    assert any(len(paths) == 4 for paths in calls), calls  # the directory, up to the cap
    assert calls[-1] == ["a/zz_asked.c"], calls  # z/far.c came in: the anchor alone


def _serve(repo: Path, cache: Path, home: Path) -> subprocess.Popen:
    from .conftest import REPO_ROOT, host_env

    return subprocess.Popen(
        [sys.executable, "-m", "repo_graph", "serve", str(repo), "--no-watch", "--cache-dir", str(cache)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=host_env(home),
        cwd=REPO_ROOT,
    )


def test_an_anchored_query_during_a_long_first_index_gets_the_anchored_file_and_its_import(provider_factory, tmp_path):
    """A repository whose first index takes many seconds: a query anchored on a file
    the walk order would reach last is answered within seconds, while the index is
    still being built, with frames of that file and of the file it imports; stderr
    says the answer was partial. (That the finished index is whole: the test above.)"""
    repo = generated(tmp_path / "repo", 4000, functions=60)
    anchored = "pkg79/m3999.py"  # the last directory, as big as any
    neighbour = "pkg79/m3998.py"
    p = provider_factory(repo, args=["--no-watch", "--cache-dir", str(tmp_path / "cache")])
    spawned = time.monotonic()
    p.handshake()
    reply = p.query("early", goal="what does step 3 call", anchors=[anchored], max_frames=12, max_tokens=4000)
    answered = time.monotonic() - spawned
    ids = [f["id"] for f in reply["result"]["frames"]]
    assert any(i.startswith(anchored + "#") for i in ids), ids
    assert answered < 20, answered  # not held until the whole index is done (25 s, then `unavailable`)
    seen = set(ids)
    for _ in range(60):  # what it imports is parsed next and linked as it arrives (slow under load)
        if any(i.startswith(neighbour + "#") for i in seen):
            break
        time.sleep(1)
        again = p.query(goal="what does step 3 call", anchors=[anchored], max_frames=12, max_tokens=4000)
        seen |= {f["id"] for f in again["result"]["frames"]}
    assert any(i.startswith(neighbour + "#") for i in seen), seen
    p.proc.stdin.close()
    p.proc.wait(timeout=60)
    stderr = p.proc.stderr.read().decode()
    assert "partial answer 1: the first index is still being built" in stderr, stderr[-2000:]


def test_a_file_a_host_waits_for_is_written_at_once_and_the_rest_in_big_batches(tmp_path):
    """[first-pass-batches]: the pass writes the rest in big batches (its writer bounds
    it), but a batch holding an asked-about file is written as soon as the asked files
    stop coming, not once 256 files or 5 s have gathered behind it."""
    files = {"a/asked.c": "int asked(void) { return 1; }\n"}
    files.update({f"fill/f{i:03}.c": f"int fill_{i}(void) {{ return {i}; }}\n" for i in range(400)})
    repo = make_repo(tmp_path / "repo", files)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    index.want(["a/asked.c"])
    batches = []
    apply = index._apply

    def written(items):
        batches.append([walked.path for walked, _, _ in items])
        return apply(items)

    index._apply = written
    index.refresh(progressive=True)
    index.close()
    first = next(batch for batch in batches if "a/asked.c" in batch)
    assert len(first) <= 2, first  # the asked file, and the one that showed the asked ones were in
    assert max(len(batch) for batch in batches) > 48, [len(b) for b in batches]  # the rest: beyond a live batch


def first_index_writes(index: RepoIndex, monkeypatch) -> dict[str, set[str]]:
    """Run a progressive first index; the files written into each database, by its name."""
    written: dict[str, set[str]] = {}
    apply = RepoIndex._apply

    def recorded(self, items):
        written.setdefault(self.store.path.name, set()).update(walked.path for walked, _, _ in items)
        return apply(self, items)

    monkeypatch.setattr(RepoIndex, "_apply", recorded)
    index.refresh(progressive=True)
    return written


def test_a_first_index_a_cold_one_would_load_in_bulk_is_built_beside_and_only_asked_files_go_live(
    tmp_path, monkeypatch
):
    """[first-index-beside]: the index answering meanwhile gets the files hosts asked
    about (the anchor, its directory, what it imports) as they are parsed; the rest
    only goes into the one built beside in bulk, swapped in at the end. Writing every
    file into the answering index, its lookup indexes in place, is what made a first
    index slower than a cold one."""
    repo = generated(tmp_path / "repo", 600, functions=6)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    live_path = index.store.path
    index.want(["pkg11/m590.py"])
    written = first_index_writes(index, monkeypatch)
    live = written[live_path.name]
    beside = written[live_path.name + ".next"]
    assert {"pkg11/m590.py", "pkg11/m589.py", "pkg11/m550.py"} <= live  # asked, imported, beside it
    assert "pkg0/m3.py" not in live and "pkg0/m3.py" in beside
    assert len(live) < 100 and len(beside) == 600 + 12 + 1
    assert index.store.file_count() == 613 and index.ready.is_set()
    assert not list((tmp_path / "cache").glob("*.next*"))
    index.close()


def test_a_first_index_built_beside_gives_the_answering_index_the_definers_of_the_anchors_names_not_of_their_neighbours(
    tmp_path, monkeypatch
):
    """[first-index-beside]: a file defining a name the anchored file uses goes live as
    it is parsed (the anchor's one-hop neighbours fill in before the swap); one defining
    a name only a file beside the anchor uses waits for the swap. Feeding the definers
    of the whole directory's names sent three times the files, each written twice."""
    repo = generated(tmp_path / "repo", 600, functions=6)
    padding = "".join(f"def filler_{k}(value):\n    return value + {k}\n\n" for k in range(200))  # parsed last
    (repo / "pkg2/far.py").write_text("def far_helper(value):\n    return value\n\n" + padding)
    (repo / "pkg5/sib.py").write_text("def sibling_helper(value):\n    return value\n\n" + padding)
    anchor = repo / "pkg11/m590.py"
    anchor.write_text(anchor.read_text() + "def uses_far(value):\n    return far_helper(value)\n")
    sibling = repo / "pkg11/m560.py"
    sibling.write_text(sibling.read_text() + "def uses_sibling(value):\n    return sibling_helper(value)\n")
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    live_name = index.store.path.name
    index.want(["pkg11/m590.py"])
    live = first_index_writes(index, monkeypatch)[live_name]
    assert "pkg11/m560.py" in live  # beside the anchor: asked
    assert "pkg2/far.py" in live  # defines what the anchor calls
    assert "pkg5/sib.py" not in live  # defines only what a file beside it calls
    index.close()


def test_a_first_index_gives_the_headers_the_anchors_headers_include_early_and_no_deeper(tmp_path, monkeypatch):
    """Issue 40: a C file's macros, inlines and types come from its headers' headers
    (half of the kernel's fork.c's one-hop neighbours): they are parsed with its own
    headers and go into the answering index before the swap. One level further only: the
    kernel's includes reach a thousand headers two levels down."""
    body = "".join(f"int part_{j}(int x) {{ return x + {j}; }}\n" for j in range(60))  # 2 KB
    files = {f"fill/f{i:03}.c": f"int fill_{i}(void) {{ return {i}; }}\n" + body for i in range(600)}
    decls = "".join(f"int decl_{j}(int x);\n" for j in range(800))  # the biggest: last, unless asked for
    files["src/main.c"] = '#include "a.h"\nint main(void) { return 0; }\n'
    files["inc/a.h"] = '#include "b.h"\nint a_fn(void);\n' + decls
    files["inc/b.h"] = '#include "c.h"\nint b_fn(void);\n' + decls
    files["inc/c.h"] = "int c_fn(void);\n" + decls
    repo = make_repo(tmp_path / "repo", files)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    live_name = index.store.path.name
    index.want(["src/main.c"])
    live = first_index_writes(index, monkeypatch)[live_name]
    assert {"src/main.c", "inc/a.h", "inc/b.h"} <= live
    assert "inc/c.h" not in live
    assert index.store.file_count() == 604
    index.close()


def started_behind_a_build(work, capfd) -> threading.Thread:
    """`work` in a thread, once it said on stderr that it waits for another build."""
    worker = threading.Thread(target=work)
    worker.start()
    for _ in range(200):
        if "another process is building this index" in capfd.readouterr().err:
            return worker
        time.sleep(0.05)
    raise AssertionError("it did not say it waits for the other build")


def test_a_second_process_finding_a_build_under_way_waits_and_then_builds_nothing_over_it(tmp_path, capfd):
    """Two windows' providers launched on one never-indexed tree share the cache: the
    second waits for the first's build beside, instead of writing the same file."""
    from indexer.index import _Builder

    repo = generated(tmp_path / "repo", 600, functions=2)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    fresh = index.store.path.with_name(index.store.path.name + ".next")
    with _Builder(index.store.path):  # the other process's build
        fresh.write_bytes(b"being built by the other process")
        worker = started_behind_a_build(lambda: index.refresh(progressive=True), capfd)
        time.sleep(0.3)
        assert fresh.read_bytes() == b"being built by the other process"
        assert worker.is_alive()
        fresh.unlink()  # the other stopped without swapping anything in: this one builds now
    worker.join(timeout=120)
    assert not worker.is_alive()
    assert index.store.file_count() == 613 and index.ready.is_set()
    index.close()


def test_a_file_asked_about_after_the_first_index_built_beside_went_by_is_given_again_for_the_answering_index(tmp_path):
    """[first-index-beside]: a question that comes late (the host opened, the user asked
    minutes after) still gets its anchor's directory and includes into the answering
    index: the files already parsed for the index built beside are parsed again for it
    (`again`), except those it holds already."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "a/asked.c": '#include "lib/util.h"\nint main(void) { return 0; }\n',
            "a/beside.c": "int beside;\n",
            "a/held.c": "int held;\n",
            "lib/util.h": "int util(void);\n",
            "z/other.c": "int other;\n",
        },
    )
    wants = Wants()
    order = FirstOrder([(w, None) for w in walk(repo)], wants, recent={}, live=set())
    items = iter(order)
    first = [next(items)[0].path for _ in range(5)]  # all went by, none asked about
    assert sorted(first) == ["a/asked.c", "a/beside.c", "a/held.c", "lib/util.h", "z/other.c"]
    for path in first:
        if path != "lib/util.h":  # still being parsed
            order.passed(path, taken=False)
    order.went_live(["a/held.c"])  # indexed on the spot by a query: held by the answering index
    wants.ask(["a/asked.c"], targets=["lib/util.h"])
    again = [w.path for w, _ in items]
    assert again == ["a/asked.c", "a/beside.c"]
    assert order.tier("lib/util.h") == INCLUDED  # taken as it comes back, not parsed twice
    assert all(order.again(p) for p in again) and not order.again("z/other.c")
    assert not order.again("a/asked.c")  # once taken off, a later yield would be a first one's


def test_reading_the_index_another_process_swapped_in_waits_for_the_answers_under_way(tmp_path):
    """After waiting for another process's build, the provider reopens the database: not
    under an answer still reading it (its connection closed under it failed the answer,
    which then took the closed connection for a damaged file and rebuilt the index)."""
    repo = make_repo(tmp_path / "repo", {f"m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(30)})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    index.refresh()
    reading, done, out = threading.Event(), threading.Event(), {}

    def answer():
        with index.priority.answering():
            rows = index.store.db.execute("SELECT id FROM nodes")
            rows.fetchone()
            reading.set()
            done.wait(10)
            out["rows"] = len(rows.fetchall())

    answering = threading.Thread(target=answer)
    answering.start()
    reading.wait(10)
    reopening = threading.Thread(target=index._reopen)
    reopening.start()
    reopening.join(3 * GIVE_WAY_SECONDS)  # longer than background work ever gives way
    assert reopening.is_alive()  # waits for the answer
    done.set()
    answering.join(10)
    reopening.join(10)
    assert out["rows"] > 0 and not reopening.is_alive()
    assert index.store.file_count() == 30
    index.close()


def test_a_file_given_again_for_the_answering_index_is_given_once_however_often_hosts_ask_meanwhile():
    """[first-index-beside]: a second question (or the includes the first one's resolution
    asks for) while a file given again is still being parsed must not give it a third
    time: that copy came back as a first parse, went into the index built beside twice
    and, in the same batch, failed the whole build on the files table's key."""
    todo = [(WalkedFile(f"a/f{i}.c", 10 + i, 0, i, 0), None) for i in range(3)]
    todo.append((WalkedFile("z/other.c", 99, 0, 9, 0), None))
    wants = Wants()
    order = FirstOrder(todo, wants, recent={}, live=set())
    queue = iter(order)
    for _ in range(4):
        walked, _ = next(queue)
        order.passed(walked.path, taken=False)
    wants.ask(["a/f0.c"])  # asked about after the pass went by a/: a/ again, for the answering index
    in_flight = next(queue)[0].path
    wants.ask(targets=["lib/x.h"])  # asked again before it came back
    rest = [walked.path for walked, _ in queue]
    assert in_flight not in rest and sorted([in_flight, *rest]) == ["a/f0.c", "a/f1.c", "a/f2.c"]
    assert order.again(in_flight) and not order.again(in_flight)
    wants.ask(["a/f1.c"])  # once it is on its way in, a later question does not give it again either
    assert in_flight not in [walked.path for walked, _ in order]


def test_a_cold_index_finding_a_provider_building_beside_waits_for_it_instead_of_loading_in_place(tmp_path, capfd):
    """`repo-graph index` run in a terminal while a host's provider builds the first
    index beside: it waits for that index instead of loading the same files in place,
    its lookup indexes dropped under the provider's answers."""
    from indexer.index import _Builder

    repo = generated(tmp_path / "repo", 600, functions=2)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    loads = []
    real = index.store.bulk_load
    index.store.bulk_load = lambda on: (loads.append(on), real(on))
    cut_short = index.store.path.with_name(index.store.path.name + ".next")
    with _Builder(index.store.path):  # the provider's build
        cut_short.write_bytes(b"a provider's build, about to be stopped")
        worker = started_behind_a_build(index.refresh, capfd)
        assert worker.is_alive() and not loads
    worker.join(timeout=120)  # the provider stopped without an index: this one loads it
    assert loads and index.store.file_count() == 613
    assert not cut_short.exists()  # what the stopped build left beside is not left for good
    index.close()


def test_a_question_asked_late_in_a_first_index_built_beside_counts_its_rare_words_from_when_it_came(tmp_path):
    """[first-index-beside]: whether a question's words are rare is counted over the files
    parsed since it came. Counted against every file since the first question, a late
    question's words each in 30% of files looked rare, and sent the answering index the
    files holding them."""
    from indexer.index import _Feed
    from indexer.parse import FileRecord
    from indexer.terms import terms

    index = RepoIndex(make_repo(tmp_path / "repo", {"a.py": "x = 1\n"}), cache_dir=tmp_path / "cache", jobs=1)
    feed = _Feed(index, None)

    def files(n: int, every: int, words=("memory", "alloc")):  # one in `every` holds both words
        for i in range(n):
            held = dict.fromkeys(terms(" ".join(words)), b"") if i % every == 0 else {"other": b""}
            yield FileRecord(f"f{i}.c", "", "c", "ok", postings=held)

    index.want(words=["quokka marsupial"])
    assert not any(map(feed._answers, files(3000, 3)))
    index.want(words=["memory alloc"])  # late, and common
    assert not any(map(feed._answers, files(3000, 3)))
    index.want(words=["spinlock irqsave"])  # late, and rare
    assert sum(map(feed._answers, files(3000, 500, ("spinlock", "irqsave")))) == 4  # past the first 1,000
    index.close()


def test_a_provider_arriving_while_a_cold_index_loads_in_place_waits_for_it_and_reads_it(tmp_path, capfd):
    """The other way round: `repo-graph index` in a terminal loads a cold index in place and
    a host's provider starts meanwhile. The provider waits for it and reads it, instead of
    building its own beside and renaming it over the file the terminal still writes (whose
    writes then went to a file nobody reads)."""
    repo = generated(tmp_path / "repo", 600, functions=2)
    cold = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    linking, go_on = threading.Event(), threading.Event()
    link = cold._link

    def held_before_linking(*args, **kwargs):
        linking.set()
        go_on.wait(60)
        return link(*args, **kwargs)

    cold._link = held_before_linking
    terminal = threading.Thread(target=cold.refresh)
    terminal.start()
    assert linking.wait(60)
    provider = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    fresh = provider.store.path.with_name(provider.store.path.name + ".next")
    worker = started_behind_a_build(lambda: provider.refresh(progressive=True), capfd)
    time.sleep(0.3)
    assert worker.is_alive() and not fresh.exists()
    go_on.set()
    terminal.join(timeout=120)
    worker.join(timeout=120)
    assert not worker.is_alive() and not fresh.exists()
    assert provider.store.file_count() == 613 and provider.ready.is_set()
    assert provider.store.get_meta("complete") == "1"
    cold.close()
    provider.close()


def test_a_question_without_anchors_during_a_first_index_built_beside_gets_the_files_holding_its_rare_words(
    tmp_path, monkeypatch
):
    """[first-index-beside]: a file nobody anchored, whose path holds none of the
    question's words, goes into the answering index when it holds two of the question's
    rare terms; one holding a single one of them, or only common ones, does not."""
    repo = generated(tmp_path / "repo", 600, functions=2)
    (repo / "zz").mkdir()
    pad = "x = 1  # padding, so these come after the modules (smallest first)\n" * 40
    (repo / "zz" / "notes.py").write_text('"""The quokka is a marsupial."""\n' + pad)
    (repo / "zz" / "other.py").write_text('"""A quokka alone."""\n' + pad)
    (repo / "zz" / "common.py").write_text('"""Step value, the marsupial."""\n' + pad)  # step, value: every module's
    monkeypatch.setattr("indexer.index.RARE_MIN_FILES", 100)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    index.want(words=["quokka", "marsupial", "step", "value"])
    live = first_index_writes(index, monkeypatch)[index.store.path.name]
    assert "zz/notes.py" in live
    assert "zz/other.py" not in live and "zz/common.py" not in live
    assert len(live) < 20, sorted(live)
    index.close()
