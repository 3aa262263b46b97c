"""The indexer on real bytes: walking, sections, extraction, digests, the store."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import replace

import pytest

from grammars import Registry
from indexer import upgrades
from indexer.digest import line_span, line_starts, sha256
from indexer.extract import Extractor
from indexer.index import RepoIndex
from indexer.sections import split_sections
from indexer.store import SCHEMA_VERSION
from indexer.walk import walk

from .conftest import make_repo


def test_f5_line_spans_keep_every_byte():
    data = b"a\r\nb\n\nc"  # CRLF kept, blank line kept, no final newline
    starts = line_starts(data)
    assert len(starts) == 4
    assert line_span(data, starts, 1, 1) == b"a\r\n"
    assert line_span(data, starts, 2, 4) == b"b\n\nc"
    assert sha256(b"x") == "sha256:" + hashlib.sha256(b"x").hexdigest()


def test_f5_line_starts_at_the_edges():
    for data in (b"", b"a", b"a\n", b"\n", b"\n\n", b"a\n\nb\n", b"a\rb\x0bc\n"):
        expected = [0] + [i + 1 for i, byte in enumerate(data) if byte == 10 and i + 1 < len(data)]
        assert line_starts(data) == expected, data


def test_f5_spans_cut_from_a_partial_split_are_the_spans_of_the_whole():
    """An answer splits a file only as far as the span it sends (`upto`)."""
    import itertools

    for n in range(7):
        for pieces in itertools.product((b"a", b"\n", b"bc\r\n", b""), repeat=n):
            data = b"".join(pieces)
            whole = line_starts(data)
            for upto in range(len(whole) + 2):
                part = line_starts(data, upto)
                assert part == whole[: upto + 1], (data, upto)
                for first, last in itertools.combinations_with_replacement(range(1, upto + 1), 2):
                    if last <= len(whole):
                        assert line_span(data, part, first, last) == line_span(data, whole, first, last)


def test_walk_honours_nested_gitignore_and_negation(tmp_path):
    make_repo(
        tmp_path,
        {
            ".gitignore": "*.log\nout/\n",
            "a/.gitignore": "!keep.log\nsecret.py\n",
            "a/keep.log": "x",
            "a/drop.log": "x",
            "a/secret.py": "x",
            "a/ok.py": "x",
            "out/x.py": "x",
            ".git/config": "x",
            "b/c/d.py": "x",
        },
    )
    (tmp_path / "link").symlink_to(tmp_path / "a")  # a loop-prone symlink is never followed
    paths = sorted(f.path for f in walk(tmp_path))
    assert paths == [".gitignore", "a/.gitignore", "a/keep.log", "a/ok.py", "b/c/d.py"]


def test_walk_sees_the_tree_as_git_does_info_exclude_nested_rules_and_negations(tmp_path):
    """The walker against git itself: the files `git ls-files --others --exclude-standard`
    lists (every .gitignore, `.git/info/exclude`, negations, directory rules) are the
    files walked, symlinks aside."""
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("needs git, the oracle")
    make_repo(
        tmp_path,
        {
            ".gitignore": "*.log\nout/\n/rooted.py\n",
            "a/.gitignore": "!keep.log\nsecret.py\n*.tmp\n!b/\n",
            "a/keep.log": "x",
            "a/drop.log": "x",
            "a/secret.py": "x",
            "a/ok.py": "x",
            "a/x.tmp": "x",
            "a/b/deep.py": "x",
            "a/b/deep.tmp": "x",
            "a/c/rooted.py": "x",
            "rooted.py": "x",
            "local/notes.md": "x",
            "local/keep/also.md": "x",
            "scratch.py": "x",
            "src/main.py": "x",
            "src/out/gen.py": "x",
            "b/c/d.py": "x",
        },
    )
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("# a clone's own ignores\nscratch.py\nlocal/*\n!local/keep/\n")
    git_sees = subprocess.run(
        ["git", "-C", str(tmp_path), "ls-files", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "scratch.py" not in git_sees and "a/keep.log" in git_sees  # the oracle reads the rules as meant
    assert sorted(f.path for f in walk(tmp_path)) == sorted(git_sees)


def test_markdown_sections_nest_and_skip_fenced_code():
    doc = b"# A\ntext\n## B\n```\n# not a heading\n```\n## C\nc\n# D\n"
    secs = split_sections(doc, "x.md")
    assert [(s.title, s.start_line, s.end_line) for s in secs] == [("A", 1, 8), ("B", 3, 6), ("C", 7, 8), ("D", 9, 9)]
    assert secs[1].parent == 0 and secs[3].parent is None


RST = b"""\
=======
 Guide
=======

Intro text, then a simple table whose rules are no titles:

=====  =====
Key    Value
=====  =====
a      b
=====  =====

Install
-------

A literal block::

    Not a title
    -----------

----

After the transition above.

Configure
---------
Deep
~~~~
Deeper text.

Reference
=========
"""


def test_restructuredtext_sections_take_levels_in_the_order_styles_appear():
    secs = split_sections(RST, "docs/guide.rst")
    got = [(s.title, s.level, s.start_line, s.end_line) for s in secs]
    # `=` underlined is a style of its own, after `=` over- and underlined: a fourth level
    assert got == [
        ("Guide", 1, 1, 32),
        ("Install", 2, 13, 24),
        ("Configure", 2, 25, 32),
        ("Deep", 3, 27, 32),
        ("Reference", 4, 31, 32),
    ]
    assert [secs[i].parent for i in range(5)] == [None, 0, 0, 2, 3]
    dashed = b"Guide\n-----\n\nText.\n"
    assert split_sections(dashed, "x.rst")[0].level == 1 and split_sections(dashed, "x.md")[0].level == 2  # setext


def test_python_symbols_have_ranges_docstrings_and_parents():
    src = b'import os\n\nclass A:\n    """Doc of A."""\n\n    @property\n    def m(self):\n        "m doc"\n        return helper()\n\ndef helper():\n    pass\n'
    registry = Registry()
    out = Extractor().extract(registry.for_path("x.py"), src)
    got = [(s.qualname, s.kind, s.start_line, s.end_line, s.doc) for s in out.symbols]
    assert got == [
        ("A", "class", 3, 9, "Doc of A."),
        ("A.m", "method", 6, 9, "m doc"),
        ("helper", "function", 11, 12, ""),
    ]
    assert ("helper", "call") in {(r.name, r.kind) for r in out.references}
    assert [i.path for i in out.imports] == ["os"]


def test_broken_source_gives_partial_symbols_and_a_warning(tmp_path):
    make_repo(tmp_path, {"ok.py": "def good():\n    return 1\n", "bad.py": "def fine():\n    pass\n\ndef broken(:\n"})
    index = RepoIndex(tmp_path, cache_dir=tmp_path / "cache")
    summary = index.refresh()
    assert summary.warnings >= 1
    assert index.store.node("bad.py#fine") is not None and index.store.node("ok.py#good") is not None


def test_index_of_another_schema_version_is_rebuilt(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.py": "def f():\n    pass\n"})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    db = index.store.path
    index.close()
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 99),))
    con.commit()
    con.close()
    again = RepoIndex(repo, cache_dir=tmp_path / "cache")
    assert again.store.rebuilt and again.store.node("a.py#f") is None
    again.refresh()
    assert again.store.node("a.py#f") is not None


def test_unchanged_files_are_not_parsed_again_and_edits_are(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.py": "def f():\n    pass\n", "b.py": "def g():\n    pass\n"})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    assert index.refresh().parsed == 2
    assert index.refresh().parsed == 0
    (repo / "a.py").write_text("def f2():\n    pass\n")
    (repo / "b.py").unlink()
    s = index.refresh()
    assert (s.parsed, s.removed) == (1, 1)
    assert index.store.node("a.py#f") is None and index.store.node("a.py#f2") is not None
    assert "b.py#g" not in index.graph


def test_repeated_and_numbered_headings_get_distinct_ids(tmp_path):
    # fastapi's translated docs: "APIRouter" twice, then a heading whose own slug is "apirouter-1"
    doc = b"# A\n## APIRouter\n## APIRouter\n## APIRouter 1\n"
    slugs = [s.slug for s in split_sections(doc, "x.md")]
    assert len(slugs) == len(set(slugs))
    # a preamble is named after the file: features.md's "# Features" must not clash with it
    slugs = [s.slug for s in split_sections(b"intro\n# Features\n", "features.md")]
    assert len(slugs) == 2 and len(set(slugs)) == 2
    repo = make_repo(tmp_path / "r", {"x.md": doc.decode(), "ok.py": "def fine():\n    pass\n"})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    assert index.store.node("ok.py#fine") is not None
    assert len([n for n in index.store.nodes_in_file("x.md") if n.kind == "section"]) == 4


def test_a_file_that_cannot_be_indexed_is_reported_and_the_rest_is_indexed(tmp_path, monkeypatch):
    import indexer.parse as parse_mod

    repo = make_repo(tmp_path / "r", {"good.py": "def good():\n    pass\n", "bad.py": "def bad():\n    pass\n"})
    real = parse_mod._check_unique

    def clash_on_bad(record):  # stands in for any extraction bug in one file
        if record.path == "bad.py":
            raise ValueError("two nodes share an id")
        real(record)

    monkeypatch.setattr(parse_mod, "_check_unique", clash_on_bad)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    summary = index.refresh()
    assert index.store.node("good.py#good") is not None
    assert index.store.file_state("bad.py").status == "error" and summary.warnings == 1


def test_terms_split_identifiers_the_same_from_text_or_bytes():
    """The tokenizer cuts at separators in C and splits what is left the way the word
    pattern does: a token like `0x1fRetry`, `café` or invalid UTF-8 gives the terms of
    each word in it, and a body read as bytes counts as its decoded text."""
    import random
    from itertools import chain

    from indexer.terms import _WORD, expand, terms, weighted_counts

    assert terms("RetryPolicy HTTPServer max_attempts") == [
        "retrypolicy",
        "retry",
        "policy",
        "httpserver",
        "http",
        "server",
        "max",
        "attempt",
    ]
    rnd = random.Random(7)
    alphabet = list("aZq09_-.: \t\n\x1c\x85\xa0é€/") + ["\u2028", "\x00", "HTTP", "Server", "\ud800"]
    for _ in range(3000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 24)))
        assert terms(text) == list(chain.from_iterable(map(expand, _WORD.findall(text)))), text
        raw = bytes(rnd.choice(b"aZ09_ .\n\xc3\xa9\xff\xe2\x82") for _ in range(rnd.randint(0, 24)))
        assert weighted_counts([(1.0, raw), (3.0, text)]) == weighted_counts(
            [(1.0, raw.decode("utf-8", "replace")), (3.0, text)]
        ), raw


@pytest.mark.parametrize(
    "words, stem",
    [
        ("configure configured configuring configuration configurations", "configur"),
        ("generate generated generating generation", "gener"),
        ("allocate allocated allocation", "alloc"),
        ("validate validated validation", "valid"),
        ("create created creating creation", "creat"),
        ("repeat repeated repeating", "repeat"),
        ("format formatted formatting", "format"),
        ("relate related relation", "relat"),
    ],
)
def test_a_words_forms_meet_at_one_stem(words, stem):
    """A question says "generation" where the code says `generate`: both must give one term."""
    from indexer.terms import terms

    assert {t for w in words.split() for t in terms(w)} == {stem}


def test_a_terms_counts_come_from_the_index_and_its_rows_can_be_read_for_some_files(tmp_path):
    """A query orders its terms by how many nodes have them and reads a common term
    only for the files its rarer terms found: both without reading every row."""
    make_repo(
        tmp_path,
        {
            "a.py": "def one():\n    return backoff\n\ndef two():\n    return backoff\n",
            "b.py": "def three():\n    return backoff\n",
            "c.py": "def four():\n    return 1\n",
        },
    )
    index = RepoIndex(tmp_path, cache_dir=tmp_path / ".cache")
    index.refresh()
    store = index.store
    assert store.term_stats(["backoff", "absent"]) == {"backoff": (2, 3)}
    b_file = store.rowids_of_ids(["b.py"])["b.py"]
    nodes, files, _, _ = store.term_postings("backoff", [b_file])
    assert set(store.ids_of_rowids(int(n) for n in nodes).values()) == {"b.py#three"}
    assert set(files.tolist()) == {b_file}
    assert len(store.term_postings("backoff")[0]) == 3
    index.close()


def test_postings_are_exact_per_node_and_leave_with_their_file(tmp_path):
    """BM25F postings, packed per (term, file): every node's weighted tf comes back for
    its own rowid, and deleting or editing a file takes its postings along."""
    from collections import Counter

    from indexer.terms import terms

    # BM25F field weights (indexer/parse.py): a name counts 3, a signature 1.5, a body 1.
    w_name, w_signature, w_body = 3.0, 1.5, 1.0

    make_repo(
        tmp_path,
        {
            "a.py": "def retry_policy():\n    return backoff + backoff\n",
            "b.py": "def other():\n    return backoff\n",
        },
    )
    index = RepoIndex(tmp_path, cache_dir=tmp_path / ".cache")
    index.refresh()
    nodes, files, tf, _length = index.store.term_postings("backoff")
    ids = index.store.ids_of_rowids(int(n) for n in nodes)
    got = {ids[int(n)]: float(t) for n, t in zip(nodes, tf)}
    assert got["a.py#retry_policy"] == w_body * 2 and got["b.py#other"] == w_body * 1
    assert {ids[int(n)].partition("#")[0] for n in nodes} == set(
        index.store.ids_of_rowids(int(f) for f in files).values()
    )
    nodes, _, tf, _ = index.store.term_postings("retry")
    assert [index.store.ids_of_rowids([int(nodes[0])])[int(nodes[0])]] == ["a.py#retry_policy"]
    # "retry" in the name, in the signature line and in the body (its own lines)
    assert float(tf[0]) == (w_name + w_signature + w_body) * Counter(terms("retry_policy"))["retry"]

    (tmp_path / "a.py").unlink()
    (tmp_path / "b.py").write_text("def other():\n    return 1\n")
    index.refresh()
    assert len(index.store.term_postings("backoff")[0]) == 0
    assert len(index.store.term_postings("retry")[0]) == 0
    index.close()


def test_uses_are_kept_once_per_file_and_leave_with_it(tmp_path):
    """A file's uses are one packed row: each (user, name, kind) once, read back with
    the user's full id, and the name index finds the file until the file goes."""
    make_repo(
        tmp_path,
        {
            "a.py": "def helper():\n    return 1\n\ndef caller():\n    helper()\n    helper()\n    return helper()\n",
            "b.py": "from a import helper\n\nhelper()\n",
        },
    )
    index = RepoIndex(tmp_path, cache_dir=tmp_path / ".cache")
    index.refresh()
    uses = index.store.uses_of(["a.py"])
    assert uses.count(("a.py", "a.py#caller", "helper", "call")) == 1
    assert all(path == "a.py" and (src == "a.py" or src.startswith("a.py#")) for path, src, _, _ in uses)
    assert index.store.paths_referring_to(["helper"]) == {"a.py", "b.py"}
    assert ("a.py#caller", "a.py#helper", "code.calls") in {(s, d, r) for s, d, r in index.store.all_edges()}
    (tmp_path / "b.py").unlink()
    index.refresh()
    assert index.store.paths_referring_to(["helper"]) == {"a.py"}
    assert index.store.uses_of(["b.py"]) == []
    assert index.store.db.execute("SELECT count(*) FROM uses").fetchone()[0] == 1
    index.close()


def test_uses_pack_round_trip_drops_what_it_cannot_hold():
    from indexer.uses import pack, unpack

    refs = [
        ("p.go", "fmt", "call", 3),
        ("p.go#T.m", "x", None, 4),
        ("p.go#T.m", "x", None, 9),
        ("p.go#f", "bad\x1fname", "call", 5),
    ]
    packed, names = pack("p.go", refs)
    assert unpack("p.go", packed) == [("p.go", "p.go", "fmt", "call"), ("p.go", "p.go#T.m", "x", None)]
    assert names == ["fmt", "x"]
    assert pack("p.go", []) == (b"", []) and unpack("p.go", b"") == []


def test_a_parsed_file_crosses_to_the_writer_whole():
    """Workers send FileRecords pickled, their nodes as plain tuples; the writer gets
    NodeRows again, every field in place."""
    import pickle

    from indexer.parse import parse
    from indexer.store import NodeRow

    source = b'"""Retries."""\nimport os\n\nclass Policy:\n    def backoff(self, n):\n        """Delay."""\n        return os.sep * n\n'
    record = parse("pkg/retry.py", source, Registry(), Extractor())
    back = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
    assert len(record.nodes) == 4
    assert all(type(n) is NodeRow for n in back.nodes)
    assert [n._asdict() for n in back.nodes] == [n._asdict() for n in record.nodes]
    assert back.nodes[2].id == "pkg/retry.py#Policy.backoff" and back.nodes[2].doc == "Delay."
    assert (back.postings, back.uses, back.used, back.imports) == (
        record.postings,
        record.uses,
        record.used,
        record.imports,
    )


def test_a_node_row_reads_back_as_written_whatever_its_columns_repeat(tmp_path):
    """Titles equal to names and content digests equal to span digests are stored NULL
    (store._ELIDED); every NodeRow must read back field for field, the rows where
    they differ and a file node without a content digest included."""
    from indexer.parse import parse
    from indexer.store import FileState, Store

    source = b'"""M."""\nclass Policy:\n    def backoff(self):\n        return "\xff"\n\n\ndef top():\n    return 1\n'
    record = parse("pkg/retry.py", source, Registry(), Extractor())
    by_id = {n.id: n for n in record.nodes}
    assert by_id["pkg/retry.py"].content_digest is None  # a file is no frame
    assert by_id["pkg/retry.py#top"].title != by_id["pkg/retry.py#top"].name  # pkg.retry.top
    assert (
        by_id["pkg/retry.py#Policy.backoff"].content_digest != by_id["pkg/retry.py#Policy.backoff"].digest
    )  # not UTF-8
    odd = record.nodes[-1]._replace(id="pkg/retry.py#same", title=record.nodes[-1].name)
    store = Store(tmp_path / "index.sqlite3")
    state = FileState("pkg/retry.py", len(source), 0, 0, record.digest, "python", "ok", "", "")
    with store.transaction():
        store.put_files(
            [(state, record.nodes + [odd], record.postings, (record.uses, record.used), record.imports, "")]
        )
    assert [n._asdict() for n in store.nodes_in_file("pkg/retry.py")] == [
        n._asdict() for n in sorted(record.nodes + [odd], key=lambda n: n.start_line)
    ]
    elided = store.db.execute("SELECT count(*) FROM nodes WHERE title IS NULL OR content_digest IS NULL").fetchone()[0]
    assert elided >= 2  # the space is saved where the columns repeat
    store.close()


def test_priors_are_replaced_whole_and_kept_by_a_reindexed_node(tmp_path):
    """The PageRank prior lives in its own table by node id: a recomputation replaces
    it, a file indexed again keeps its nodes' priors, and SQL orders by it."""
    make_repo(
        tmp_path,
        {
            "core.py": "def base():\n    return 1\n\n\ndef unused():\n    return 0\n",
            "a.py": "from core import base\n\n\ndef one():\n    return base()\n",
            "b.py": "from core import base\n\n\ndef two():\n    return base() + base()\n",
        },
    )
    index = RepoIndex(tmp_path, cache_dir=tmp_path / ".cache")
    index.refresh()
    store = index.store
    computed = index.graph.prior()
    kept = store.priors(computed)
    assert kept and kept == {k: v for k, v in computed.items() if v > 0}
    assert kept["core.py#base"] == max(kept.values())  # what the others call ranks first
    assert [n.id for n in store.top_nodes_in_files(["core.py"], 3)] == ["core.py#base", "core.py#unused"]
    (tmp_path / "core.py").write_text("def base():\n    return 2\n\n\ndef unused():\n    return 0\n")
    index.update(["core.py"])
    assert store.priors(["core.py#base"]) == {"core.py#base": kept["core.py#base"]}
    with store.transaction():
        store.set_priors({"core.py#unused": 0.5})
    assert store.priors(["core.py#base", "core.py#unused"]) == {"core.py#unused": 0.5}
    assert [n.id for n in store.top_nodes_in_files(["core.py"], 3)] == ["core.py#unused", "core.py#base"]
    index.close()


def test_the_overview_from_the_best_by_prior_is_the_overview_of_every_node(tmp_path, monkeypatch):
    """A question that matches nothing gets an overview: top-level docs, then
    documented symbols by prior. It is looked for among the best by prior first, and
    that page must be the one a sort of every node gives, whatever the page size."""
    from indexer.store import nodes as store_mod  # where prior_nodes reads it

    lib = "".join(f'def util_{i}():\n    """Helper {i}."""\n    return {i}\n\n\n' for i in range(6))
    make_repo(
        tmp_path,
        {
            "README.md": "# Project\n\nWhat it is.\n\n## Usage\n\nCall `util_1`.\n",
            "docs/guide.md": "# Guide\n\nSee `util_2` and `util_3`.\n",
            "pkg/lib.py": lib + "def bare():\n    return 0\n",
            "pkg/app.py": "from pkg.lib import util_1, util_2\n\n\ndef main():\n    return util_1() + util_2() + util_2()\n",
        },
    )
    index = RepoIndex(tmp_path, cache_dir=tmp_path / ".cache")
    index.refresh()
    store = index.store
    monkeypatch.setattr(store_mod, "OVERVIEW_POOL", 10_000)  # no pool: every node sorted
    every = [n.id for n in store.prior_nodes(100)]
    assert every[:2] == ["README.md#project", "README.md#usage"] and "pkg/lib.py#bare" in every
    for pool in (1, 2, 3):
        monkeypatch.setattr(store_mod, "OVERVIEW_POOL", pool)
        for limit in range(1, len(every) + 2):
            assert [n.id for n in store.prior_nodes(limit)] == every[:limit], (pool, limit)
    index.close()


def test_feeder_yields_every_file_once_and_stops_cleanly(tmp_path):
    """pool.run through an executor: every item comes back once, in any order, and a
    caller that stops early does not leave the feeder blocked."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from indexer import pool
    from indexer.walk import WalkedFile

    for i in range(40):
        (tmp_path / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n" * 50)
    items = [(WalkedFile(f"m{i}.py", (tmp_path / f"m{i}.py").stat().st_size, 0, 0), None) for i in range(40)]
    with ThreadPoolExecutor(2) as executor:
        got = [w.path for w, record in pool.run(executor, str(tmp_path), items, 1 << 20, in_flight=2)]
        assert sorted(got) == sorted(w.path for w, _ in items)
        # One file per task: more tasks than in flight and backlog, so stopping early
        # leaves the feeder waiting for room; close() must wake and end it.
        stream = pool.run(executor, str(tmp_path), items, 1 << 20, in_flight=2, task_bytes=1)
        next(stream)
        closing = threading.Thread(target=stream.close)
        closing.start()
        closing.join(20)
        assert not closing.is_alive(), "the feeder did not stop"


def test_corpus_stats_follow_every_write(tmp_path):
    """BM25's document count and average length are kept by each write, not counted
    per query; they must equal a full count after adds, edits and deletes."""
    make_repo(tmp_path, {"a.py": "def f():\n    return 1\n", "b.md": "# T\n\ntext here\n", "c.py": "X = 1\n"})
    index = RepoIndex(tmp_path, cache_dir=tmp_path / ".cache")

    def counted():
        n, total = index.store.db.execute("SELECT count(*), sum(length) FROM nodes WHERE kind!='file'").fetchone()
        return n, total / n

    index.refresh()
    assert index.store.corpus_stats() == pytest.approx(counted())
    (tmp_path / "a.py").write_text("def f():\n    return 1\n\ndef g(x):\n    return x * 2 + f()\n")
    (tmp_path / "c.py").unlink()
    index.update(["a.py", "c.py"])
    assert index.store.corpus_stats() == pytest.approx(counted())
    index.close()


def test_a_thread_that_ends_takes_its_store_connection_with_it(tmp_path):
    import threading

    from indexer.store import Store

    store = Store(tmp_path / "s.sqlite3")
    for _ in range(20):
        t = threading.Thread(target=lambda: store.get_meta("schema_version"))
        t.start()
        t.join()
    assert len(store._held) == 1  # this thread's; the twenty others closed as their threads ended
    store.close()


def test_minified_bundles_and_source_mapped_build_output_are_not_indexed(tmp_path):
    """They copy code whose source is elsewhere (or is unreadable): skipped as generated,
    so no frame sends them. A source map named mid-file, or by a Python file, is not a
    build's last line."""
    minified = "var a=function(){return 1};" * 1000 + "\n"
    files = {
        "assets/js/socket.js": "export class Socket {\n  connect() { return 1; }\n}\n",
        "priv/static/app.mjs": "class Socket {\n  connect() { return 1; }\n}\n//# sourceMappingURL=app.mjs.map\n",
        "priv/static/app.cjs.js": "class Socket {}\n/*# sourceMappingURL=app.cjs.js.map */",
        "priv/static/app.min.js": minified,
        "priv/static/app.js": "var App = (() => {\n  var __defProp = Object.defineProperty;\n"
        "  class Socket {}\n  return Socket;\n})();\n",  # esbuild's bundle, no map
        "dist/main.js": "/******/ (() => { // webpackBootstrap\n/******/ \tvar __webpack_modules__ = ({});\n})();\n",
        "notes.js": "// a build ends with //# sourceMappingURL=x.map\nexport const n = 1;\n",
        "tool.py": "def f():\n    return 1\n# sourceMappingURL=f.map\n",
    }
    index = RepoIndex(make_repo(tmp_path / "gen", files), cache_dir=tmp_path / "cache")
    assert index.refresh().generated == 5
    status = {path: index.store.file_state(path).status for path in files}
    assert status == {
        "assets/js/socket.js": "ok",
        "priv/static/app.mjs": "generated",
        "priv/static/app.cjs.js": "generated",
        "priv/static/app.min.js": "generated",
        "priv/static/app.js": "generated",
        "dist/main.js": "generated",
        "notes.js": "ok",
        "tool.py": "ok",
    }
    assert [n.path for n in index.store.find_by_name("Socket")] == ["assets/js/socket.js"]
    before = index._extraction()
    index.rules_table = upgrades.bumped("generated", "next")
    index._rules_by_language = None
    after = index._extraction()  # a release that tells generated code otherwise re-reads the code, not the docs
    assert {lang for lang in after if after[lang] != before[lang]} == set(index.registry.languages)
    index.close()


def test_code_a_tool_generated_is_indexed_and_weighs_less_than_the_code_people_write(tmp_path):
    """`Code generated ... DO NOT EDIT.` (Go), protoc's, `@generated`: the definitions stay
    (the rest of the code calls them), marked on the file node; a question matching
    both the generated client and the hand-written one gets the hand-written one first
    though the generated one matches a little better."""
    from repo_graph import ranking

    written = "package api\n\n// RetryPolicy says how often a call is tried again.\ntype RetryPolicy struct{}\n"
    files = {
        "api/zz_client.pb.go": "// Code generated by protoc-gen-go. DO NOT EDIT.\n// source: api.proto\n\n"
        "package api\n\n// RetryPolicyConfig: the retry policy of a call, how often a call is tried; "
        "a retry policy says how often it is tried.\n"
        "type RetryPolicyConfig struct{}\n",
        "api/policy.go": written,
        "gen/model.py": "# @generated by a tool\nclass Model:\n    pass\n",
        "docs/how.md": "# Notes\n\nDocs that say DO NOT EDIT code generated by hand are docs.\n",
    }
    index = RepoIndex(make_repo(tmp_path / "gen", files), cache_dir=tmp_path / "cache")
    index.refresh()
    kinds = {p: index.store.node(p).sym_kind for p in files}
    assert kinds == {
        "api/zz_client.pb.go": "generated",
        "api/policy.go": None,
        "gen/model.py": "generated",
        "docs/how.md": None,
    }
    assert [n.id for n in index.store.find_by_name("RetryPolicyConfig")] == ["api/zz_client.pb.go#RetryPolicyConfig"]
    question = "retry policy how often a call is tried"
    assert ranking.rank(index, question, set())[0].node.path == "api/policy.go"
    as_written = replace(ranking.DEFAULT, generated_factor=1.0)
    assert ranking.rank(index, question, set(), weights=as_written)[0].node.path == "api/zz_client.pb.go"
    index.close()


def test_a_cpp_header_named_dot_h_is_read_as_cpp_and_a_c_header_stays_c(tmp_path):
    """Most C++ projects name their headers `.h`: read with C's grammar, a class and its
    methods are syntax errors and no symbols. And most mark their API with a macro the
    grammar cannot expand (`class LOG_API logger`), which hid the class from it."""
    repo = make_repo(
        tmp_path / "r",
        {
            "include/log/logger.h": """\
            #pragma once
            #include <string>

            namespace log {
            // Writes records to its sinks.
            class LOG_API logger {
            public:
                void flush() { sinks_.clear(); }
                int level() const LOG_NOEXCEPT { return level_; }
            private:
                int level_;
                std::string sinks_;
            };
            LOG_INLINE void set_default(logger *l) { l->flush(); }
            }
            """,
            "src/list.h": """\
            #ifdef __cplusplus
            extern "C" {
            #endif
            /* A node of the list. */
            struct node { struct node *next; };
            int list_length(const struct node *head);
            #ifdef __cplusplus
            }
            #endif
            """,
        },
    )
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    languages = index.store.indexed_files()
    assert languages["include/log/logger.h"] == "cpp" and languages["src/list.h"] == "c"
    ids = {n.id.partition("#")[2] for n in index.store.nodes_in_file("include/log/logger.h")}
    assert {"log.logger", "log.logger.flush", "log.logger.level", "log.set_default"} <= ids
    assert index.store.node("include/log/logger.h#log.logger").start_line == 6  # the file's own text, unblanked
    (repo / "include/log/logger.h").write_text("/* now plain C */\nint log_level(void);\n")
    index.refresh()
    assert index.store.indexed_files()["include/log/logger.h"] == "c"


def test_a_first_index_loaded_in_bulk_ends_with_every_lookup_index_and_the_prior(tmp_path):
    """A first index past BULK_FILES drops the lookup indexes for the load and builds them
    again beside the prior's computation [indexes-beside-prior]: both must be there at the end."""
    from indexer.index import BULK_FILES
    from indexer.store.schema import _BULK_INDEXES

    n = BULK_FILES + 20
    files = {
        f"pkg/m{i}.py": f"from pkg.m{i - 1} import f{i - 1}\n\n\ndef f{i}():\n    return f{i - 1}()\n"
        for i in range(1, n)
    }
    files["pkg/m0.py"] = "def f0():\n    return 0\n"
    repo = make_repo(tmp_path / "repo", files)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache", jobs=1)
    summary = index.refresh()
    assert summary.parsed == n and "indexes" in summary.phases
    db = sqlite3.connect(index.store.path)
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert set(_BULK_INDEXES) <= have
    assert db.execute("SELECT count(*) FROM priors").fetchone()[0] > 0
    assert db.execute("SELECT count(*) FROM links WHERE rel='code.calls'").fetchone()[0] == n - 1
    db.close()
    index.close()
