"""Ranking: what a question matches (terms, names, a scope), what it leads to (the
prior, related files, the anchors' walk), and the adjustments that hold back docs,
translations, release notes and copied-in code. G4, the anchored tier: test_anchored.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from indexer.index import RepoIndex

from .conftest import indexed, make_repo


def test_a_very_common_term_only_reweighs_files_rarer_terms_found(tmp_path):
    """Ranking at kernel scale: past `common_postings` nodes a term scores only the files
    the query's rarer terms matched, and the rare match still leads."""
    from repo_graph import ranking

    files = {f"m{i}.py": f"def handler_{i}():\n    return data\n" for i in range(30)}
    files["target.py"] = "def retry_budget():\n    return data\n"
    index = indexed(tmp_path, files)
    everything = ranking.lexical(index, "retry data")
    pruned = ranking.lexical(
        index, "retry data", weights=replace(ranking.DEFAULT, common_postings=5)
    )  # `data`: 31 nodes
    assert {path for _, path in everything.values()} > {"target.py"}  # `data` alone reaches every file
    assert {path for _, path in pruned.values()} == {"target.py"}
    best = max(pruned.items(), key=lambda kv: kv[1][0])
    assert index.store.ids_of_rowids([best[0]])[best[0]] == "target.py#retry_budget"
    index.close()


def test_a_common_term_reweighs_only_the_nodes_rarer_terms_found_in_their_best_files(tmp_path):
    """Ranking at kernel scale [common-files]: a term past `common_postings` (`0` in the
    kernel: 1.9 million nodes) adds its weight only to nodes a rarer term found, and
    only in the `common_files` files those terms match best; reading it over every file
    they found cost 0.4 s and 150 MB a question."""
    from repo_graph import ranking

    files = {f"d{i}.py": f"def handler_{i}():\n    return data\n" for i in range(8)}
    files["best.py"] = "def retry_budget_data():\n    return data\n\n\ndef helper():\n    return data\n"
    files["next.py"] = "def retry_data():\n    return data\n\n\ndef other():\n    return data\n"
    index = indexed(tmp_path, files)
    rowids = lambda found: {index.store.ids_of_rowids([r])[r] for r in found}  # noqa: E731
    plain = ranking.lexical(index, "retry budget data", weights=replace(ranking.DEFAULT, common_postings=5))
    assert rowids(plain) == {"best.py#retry_budget_data", "next.py#retry_data"}  # not helper(), not d0.py
    one = ranking.lexical(
        index, "retry budget data", weights=replace(ranking.DEFAULT, common_postings=5, common_files=1)
    )
    assert rowids(one) == {"best.py#retry_budget_data", "next.py#retry_data"}
    boosted = {path: match for match, path in one.values()}
    unboosted = {path: match for match, path in plain.values()}
    assert boosted["best.py"] == unboosted["best.py"]  # `data` still weighs in the best file
    assert boosted["next.py"] < unboosted["next.py"]  # and no longer in the next one
    index.close()


def test_when_every_term_is_common_the_files_with_most_of_them_are_read(tmp_path):
    """Ranking at kernel scale [common-files]: when even the rarest term is past
    `common_postings`, only the `common_files` files holding the most of the terms
    (then the most nodes having them) are scored, not every file of the rarest."""
    from repo_graph import ranking

    files = {f"d{i}.py": f"def handler_{i}():\n    return data\n" for i in range(8)}
    files.update({f"r{i}.py": f"def retry_{i}():\n    return 1\n" for i in range(8)})
    files["both.py"] = "def retry_data():\n    return data\n"
    files["most.py"] = "def retry_data():\n    return data\n\n\ndef retry_more():\n    return data\n"
    index = indexed(tmp_path, files)
    everything = ranking.lexical(index, "retry data", weights=replace(ranking.DEFAULT, common_postings=5))
    assert {path for _, path in everything.values()} > {"both.py", "most.py", "d0.py", "r0.py"}
    densest = ranking.lexical(
        index, "retry data", weights=replace(ranking.DEFAULT, common_postings=5, common_files=1)
    )  # `retry`: 11 nodes, `data`: 11
    assert {path for _, path in densest.values()} == {"most.py"}
    two = ranking.lexical(index, "retry data", weights=replace(ranking.DEFAULT, common_postings=5, common_files=2))
    assert {path for _, path in two.values()} == {"both.py", "most.py"}
    index.close()


def test_a_name_spelled_with_its_namespace_finds_its_definition(tmp_path):
    """PHP, Java and Python name a symbol through the directories it lives in; Ruby
    names nest modules a question may leave out."""
    from repo_graph import ranking

    files = {
        "Slim/Http/Headers.php": "<?php\nnamespace Slim\\Http;\nclass Headers {\n  public function all() { return []; }\n}\n",
        "Slim/Http/Cookies.php": "<?php\nnamespace Slim\\Http;\nclass Cookies {\n}\n",
        "lib/rack/protection/encrypted_cookie.rb": "module Rack\n  module Protection\n    class EncryptedCookie\n"
        "      def call(env)\n      end\n    end\n  end\nend\n",
        "pkg/packing.py": "def pack(frames):\n    return frames\n",
        "other/pack.py": "def pack(x):\n    return x\n",
    }
    index = indexed(tmp_path, files)
    ids = lambda name: [n.id for n in index.store.find_by_name(name)]  # noqa: E731
    assert ranking.code_names("Update docblocks in \\Slim\\Http\\Headers") == ["Slim\\Http\\Headers"]
    assert ids("Slim.Http.Headers") == ["Slim/Http/Headers.php#Headers"]
    assert ids("Http.Headers.all") == ["Slim/Http/Headers.php#Headers.all"]
    assert ids("Protection.EncryptedCookie") == [
        "lib/rack/protection/encrypted_cookie.rb#Rack.Protection.EncryptedCookie"
    ]
    assert ids("packing.pack") == ["pkg/packing.py#pack"]
    assert ids("Cookies.Headers") == [] and ids("Other.Http.Headers") == []  # every part must name something
    top = ranking.rank(index, "Update docblocks in \\Slim\\Http\\Headers", set())[0]
    assert top.node.path == "Slim/Http/Headers.php"


def test_a_symbol_named_in_code_form_leads_a_change_mention_forms(tmp_path):
    """`Parser.parse_header_line` names one method: it leads files that share more of the
    words. In a change to make, a backticked, snake_case or CamelCase name leads too; in a
    question only the qualified form does, as a question names what it uses as often as
    what holds its answer [mention-forms]."""
    from repo_graph import ranking

    distractor = (
        'def edge_case_fix_{n}():\n    """Fix the edge case in the header line parse."""\n'
        '    return "fix edge case header line parse"\n'
    )
    files = {f"{c}.py": distractor.format(n=c) for c in "bcd"}
    files["z.py"] = "class Parser:\n    def parse_header_line(self, x):\n        return x\n"
    index = indexed(tmp_path, files)
    target = "z.py#Parser.parse_header_line"
    first = lambda text, **kw: ranking.rank(index, text, set(), **kw)[0].node.id  # noqa: E731
    qualified = "fix the edge case in Parser.parse_header_line"
    assert ranking.code_names(qualified) == ["Parser.parse_header_line"]
    assert first(qualified) == target
    backticked = "fix the edge case in `parse_header_line`"
    assert ranking.code_names(backticked) == ["parse_header_line"]
    assert first(backticked) == target
    asked = "how do I fix the edge case in `parse_header_line`?"
    assert ranking.code_names(asked, ranking.DEFAULT.question_mention_forms) == []
    assert first(asked) != target
    unnamed = replace(ranking.DEFAULT, mention_match=0.0)
    assert first(qualified, weights=unnamed) != target
    qualified_only = replace(ranking.DEFAULT, mention_forms=("qualified",))
    assert first(backticked, weights=qualified_only) != target
    index.close()


@pytest.mark.parametrize(
    "text, parts",
    [
        ("printer: fix color parsing", ["printer"]),
        ("fix(binding): accept a pointer", ["binding"]),
        ("feat(jsx)!: drop the old runtime", ["jsx"]),
        ("net: ipv4: fix a leak", ["net", "ipv4"]),
        ("ignore/walk: follow symlinks", ["ignore", "walk"]),
        ("refac(axum-extra, axum-core): move rejections", ["axum-extra", "axum-core"]),
        ("fix: a typo", []),  # what was done, not where
        ("error: cannot find value `x` in this scope", []),  # pasted compiler output
        ("Update jq_fuzz_load_file.c: Add missing include", []),  # a sentence, not a scope
        ("how do I configure retries?", []),
        ("see http://example.com: down", []),
    ],
)
def test_a_scope_is_read_before_the_colon(text, parts):
    from repo_graph.ranking.scope import scope_parts

    assert scope_parts(text) == parts


def test_a_scope_names_where_the_change_lives(tmp_path):
    """`printer: ...` names the directory the change is in: its file comes first though
    the other file matches the message's words a little better, with or without an
    anchor; a scope naming nothing here (`docs:`) or a broad one changes nothing."""
    from repo_graph import ranking

    body = 'def parse_color(spec):\n    """Parse a color {extra}spec."""\n    return spec\n'
    files = {
        "crates/printer/src/color.py": body.format(extra=""),
        "crates/searcher/src/color.py": body.format(
            extra="parsing spec: fix the color spec parsing; parse the color spec "
        ),
        "crates/cli/src/args.py": "def args(argv):\n    return argv\n",
    }
    index = indexed(tmp_path, files)
    top = lambda text, seeds=(): ranking.rank(index, text, set(seeds))[0].node.path  # noqa: E731
    assert top("printer: fix color spec parsing") == "crates/printer/src/color.py"
    assert top("fix color spec parsing") == "crates/searcher/src/color.py"
    assert top("docs: fix color spec parsing") == "crates/searcher/src/color.py"
    first_far = lambda text: next(
        c.node.path
        for c in ranking.rank(index, text, {"crates/cli/src/args.py"})  # noqa: E731
        if c.node.path != "crates/cli/src/args.py"
    )
    assert first_far("printer: fix color spec parsing") == "crates/printer/src/color.py"
    assert first_far("fix color spec parsing") == "crates/searcher/src/color.py"
    assert index.store.paths_named("Printer", 10) == ["crates/printer/src/color.py"]
    assert len(index.store.paths_named("src", 1)) == 1 and len(index.store.paths_named("src", 10)) == 3
    from repo_graph.ranking.scope import scoped_files

    assert scoped_files(index.store, "src: printer: fix it", 2) == {"crates/printer/src/color.py": 1.0}  # src: broad
    assert scoped_files(index.store, "printer/color: fix it", 10) == {
        "crates/printer/src/color.py": 1.0,
        "crates/searcher/src/color.py": 0.5,
    }
    broad = replace(ranking.DEFAULT, scope_max_files=0)  # too broad: nothing changes
    assert (
        ranking.rank(index, "printer: fix color spec parsing", set(), weights=broad)[0].node.path
        == "crates/searcher/src/color.py"
    )
    index.close()


@pytest.mark.parametrize(
    "source,test",
    [
        ("httpx/_auth.py", "tests/test_auth.py"),  # a private module and its test elsewhere
        ("pkg/config.py", "pkg/config_test.py"),
        ("web/format.ts", "web/format.test.ts"),
        ("src/Store.java", "test/StoreTest.java"),
    ],
)
def test_g3_a_file_and_its_test_are_related_both_ways(tmp_path, source, test):
    from repo_graph.ranking import related_files

    files = {source: "x = 1\n", test: "y = 2\n", "other/unrelated.py": "z = 3\n", "other/auth_notes.py": "w = 4\n"}
    index = indexed(tmp_path, files)
    assert max(related_files(index, {source}).items(), key=lambda kv: kv[1])[0] == test
    assert max(related_files(index, {test}).items(), key=lambda kv: kv[1])[0] == source
    index.close()


def test_g3_a_namesake_in_another_directory_is_related_unless_the_name_is_everywhere(tmp_path):
    """binding/yaml.go and render/yaml.go: the same concern on two sides, with no edge
    between them. index.js in every example folder says nothing of the kind."""
    from repo_graph.ranking import DEFAULT, related_files

    files = {
        "binding/yaml.go": "package binding\n",
        "render/yaml.go": "package render\n",
        "render/json.go": "package render\n",
        "lib/app.js": "x = 1\n",
        "src/queue.c": "int push(void) { return 0; }\n",
        "include/queue.h": "int push(void);\n",
    }
    files.update({f"examples/e{i}/index.js": "y = 2\n" for i in range(DEFAULT.max_namesakes + 2)})
    index = indexed(tmp_path, files)
    related = related_files(index, {"binding/yaml.go"})
    assert related["render/yaml.go"] == 1.0
    assert "render/json.go" not in related
    assert max(related_files(index, {"src/queue.c"}).items(), key=lambda kv: kv[1])[0] == "include/queue.h"
    generic = related_files(index, {"examples/e0/index.js"})
    assert not any(path.endswith("index.js") for path in generic)
    index.close()


def test_the_prior_is_pagerank_over_the_links_scaled_to_0_1(tmp_path):
    """CodeGraph.prior against networkx's PageRank over the same links (a reference
    implementation, not ours), log-scaled the same way: what many files import and call leads."""
    import math

    import networkx as nx

    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def helper():\n    return 1\n\ndef unused():\n    return 2\n",
        "pkg/mid.py": "from .core import helper\n\ndef wrap():\n    return helper()\n",
        "pkg/direct.py": "from .core import helper\n\ndef direct():\n    return helper()\n",
    }
    for i in range(4):  # three levels, so the scaled values depend on the damping, not only on the order
        files[f"pkg/user{i}.py"] = f"from .mid import wrap\n\ndef use{i}():\n    return wrap() + {i}\n"
    index = indexed(tmp_path, files)
    prior = index.graph.prior()
    edges = index.store.db.execute(
        "SELECT src, dst FROM links WHERE rel IN ('code.calls','code.references','code.imports','doc.documents')"
    ).fetchall()
    reference = nx.pagerank(nx.DiGraph(edges), alpha=0.85, tol=1e-12, max_iter=500)
    low, high = min(reference.values()), max(reference.values())
    expected = {node: math.log(r / low) / math.log(high / low) for node, r in reference.items()}
    assert prior.keys() == expected.keys()
    assert all(abs(prior[node] - expected[node]) < 1e-6 for node in prior)
    top_two = sorted(prior, key=prior.get, reverse=True)[:2]
    assert set(top_two) == {"pkg/core.py", "pkg/core.py#helper"}  # what the files in between lean on
    index.close()


def test_g3_the_anchors_walk_is_personalized_pagerank_over_their_neighbourhood(tmp_path):
    """CodeGraph.neighbourhood against networkx's own PageRank on the same subgraph,
    restarting at the same seeds: the same ranks, scaled so the best non-seed is 1."""
    import networkx as nx

    files = {
        "pkg/core.py": "def helper():\n    return 1\n",
        "pkg/mid.py": "from .core import helper\n\ndef wrap():\n    return helper()\n",
        "pkg/use.py": "from .mid import wrap\n\ndef use():\n    return wrap()\n",
        "pkg/far.py": "from .use import use\n\ndef far():\n    return use()\n",
        # helper, wrap and both call round a triangle: a walk on a graph with no odd
        # cycle would swing between its two sides and not settle in 50 steps
        "pkg/both.py": "from .core import helper\nfrom .mid import wrap\n\ndef both():\n    return helper() + wrap()\n",
    }
    index = indexed(tmp_path, files)
    seeds = {"pkg/mid.py": 1.0, "pkg/use.py#use": 0.3}
    around = index.graph.hops(seeds, max_hops=2)
    walked = index.graph.neighbourhood(seeds, around)
    nodes = set(around) | set(seeds)
    g = nx.Graph()
    g.add_nodes_from(nodes)
    for node in nodes:
        g.add_edges_from((node, other) for _, other in index.graph.out_edges(node) if other in nodes and other != node)
    reference = nx.pagerank(g, alpha=0.85, personalization=seeds, tol=1e-12, max_iter=500)
    best = max(r for n, r in reference.items() if n not in seeds)
    assert walked.keys() == reference.keys() - seeds.keys()
    assert all(abs(walked[n] - reference[n] / best) < 1e-4 for n in walked)
    assert max(walked.values()) == 1.0
    index.close()


def test_g3_the_anchors_walk_reaches_a_hub_but_not_everyone_who_uses_it(tmp_path):
    """A module every file imports (the kernel's kernel.h) is one hop from the open
    file; the files that import it too are not made two hops away through it."""
    from repo_graph.ranking import DEFAULT

    users = {
        f"pkg/user_{i}.py": f"from .common import shared\n\ndef use_{i}():\n    return shared()\n" for i in range(5)
    }
    files = {
        "pkg/common.py": "def shared():\n    return 1\n",
        "pkg/open.py": "from .common import shared\nfrom .rare import once\n\ndef mine():\n    return shared() + once()\n",
        "pkg/rare.py": "def once():\n    return 2\n",
        "pkg/other.py": "from .rare import once\n\ndef also():\n    return once()\n",
        **users,
    }
    index = indexed(tmp_path, files)
    every = index.graph.hops({"pkg/open.py"}, max_hops=2)
    capped = index.graph.hops({"pkg/open.py"}, max_hops=2, hub_links=3)
    assert every["pkg/common.py"] == capped["pkg/common.py"] == 1
    assert every["pkg/user_0.py"] == 2 and "pkg/user_0.py" not in capped
    assert capped["pkg/other.py"] == every["pkg/other.py"] == 2  # through a module few import
    assert index.graph.hops({"pkg/open.py"}, max_hops=2, hub_links=DEFAULT.hub_links) == every  # 6 importers: no hub
    index.close()


def test_a_first_anchored_answer_imports_no_scipy(tmp_path):
    """scipy costs a serve's first anchored answer 0.3-0.5 s of imports; the anchors'
    walk does without it (a fresh interpreter, as a host's first query meets it)."""
    import subprocess
    import sys

    repo = make_repo(
        tmp_path / "repo", {"a.py": "from b import g\n\ndef f():\n    return g()\n", "b.py": "def g():\n    return 1\n"}
    )
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from indexer.index import RepoIndex\n"
        "from repo_graph.ranking import rank\n"
        f"index = RepoIndex(Path({str(repo)!r}), cache_dir=Path({str(tmp_path / 'cache')!r}))\n"
        "index.refresh()\n"
        "found = rank(index, 'what does f call', {'a.py'})\n"
        "assert any(c.node.path == 'b.py' for c in found), found\n"
        "print('scipy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_question_lets_the_guide_answer_and_a_change_leads_to_the_code(tmp_path):
    """ "How do I enable compression?" is answered by the guide's section too, though
    it names no code; "Enable compression for small bodies" describes a change to make,
    which the code takes (UNLINKED_DOC_FACTOR holds the prose back there)."""
    from repo_graph import ranking

    index = RepoIndex(
        make_repo(
            tmp_path / "ask",
            {
                "server/encoding.py": 'def compress_body(body, level=6):\n    """Gzip a response body."""\n'
                "    return body\n\n\ndef small_bodies(limit):\n    return limit\n",
                "docs/guide.md": "# Compression\n\nTo enable compression, set the level in the settings file; "
                "small bodies are sent as they are.\n",
            },
        ),
        cache_dir=tmp_path / "cache",
    )
    index.refresh()
    assert ranking.asks_how("how do I enable compression?") and ranking.asks_how("Where is compression enabled")
    assert not ranking.asks_how("Enable compression for small bodies") and not ranking.asks_how("Do not compress")
    asked = [c.node.id for c in ranking.rank(index, "how do I enable compression for small bodies?", set())]
    assert "docs/guide.md#compression" in asked[:3]  # [guide]: lifted among the first, beside the code
    told = ranking.rank(index, "Enable compression for small bodies", set())
    assert told[0].node.path == "server/encoding.py"
    index.close()


def test_a_how_to_question_gets_the_guide_among_the_first_frames(provider_factory, tmp_path):
    """Every method of the client matches "timeout", and the best-matching files' own
    closeness lifts them all; the recipe that answers the question still comes third at
    the latest, and a changelog entry repeating the words does not take its place."""
    methods = "".join(
        f'    def {kind}_timeout(self, seconds):\n        """Set the {kind} timeout of a connection."""\n'
        f"        self.{kind}_timeout_seconds = seconds\n\n"
        for kind in ("connect", "read", "write", "call", "pool", "idle", "close", "tls")
    )
    repo = make_repo(
        tmp_path / "howto",
        {
            "client.py": f"class Client:\n{methods}",
            "docs/recipes.md": "# Recipes\n\n## Caching\n\nKeep responses on disk.\n\n## Timeouts\n\n"
            "Use timeouts to fail a call when its peer is unreachable: set a connection timeout "
            "with `Client.connect_timeout`.\n",
            "docs/changelogs/changelog_2x.md": "# Changes\n\n## Version 2.1\n\n"
            "New: set a connection timeout, read timeout and write timeout.\n",
        },
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="how do I set a connection timeout?", max_frames=8)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids[0].startswith("client.py#Client.")
    assert "docs/recipes.md#timeouts" in ids[:3]
    assert not any(i.startswith("docs/changelogs/") for i in ids[:3])
    scores = [f["score"] for f in frames]
    assert scores == sorted(scores, reverse=True)
    told = p.query(goal="Set a connection timeout", max_frames=3)["result"]["frames"]  # a change: code leads
    assert [f["id"].partition("#")[0] for f in told] == ["client.py", "client.py", "docs/recipes.md"]  # a file's share


def test_a_doc_section_naming_code_ranks_above_one_naming_none(provider_factory, tmp_path):
    """Of two sections matching the question, the one naming the repository's code
    leads, though the other repeats the question's words more (UNLINKED_DOC_FACTOR:
    a code of conduct or a list of users is rarely the context a change needs)."""
    repo = make_repo(
        tmp_path / "docs",
        {
            "retry.py": 'class RetryPolicy:\n    """How often to try again."""\n    max_attempts = 3\n',
            "aa_notes.md": "# Backoff\n\nBackoff, backoff: wait longer between attempts, with jitter. Backoff with jitter.\n",
            "zz_guide.md": "# Backoff\n\nSet `RetryPolicy` for a backoff between attempts, with jitter.\n",
        },
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="backoff with jitter", kinds=["doc"], max_frames=10)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids.index("zz_guide.md#backoff") < ids.index("aa_notes.md#backoff")
    guide = frames[ids.index("zz_guide.md#backoff")]
    assert any(r["rel"] == "doc.documents" for r in guide["relations"])


def test_release_notes_are_known_by_name_version_and_folder():
    """They document nothing (no doc.documents edges, half weight in ranking): a
    changelog however it is spelled, never a code file that happens to be named so."""
    from indexer.resolve import is_release_notes

    for notes in (
        "CHANGELOG.md",
        "HISTORY.rst",
        "NEWS",
        "CHANGES.txt",
        "changes-3.0.rst",
        "CHANGELOG-v2.md",
        "docs/changelogs/changelog_3x.md",
        "docs/release-notes/1.0.md",
    ):
        assert is_release_notes(notes), notes
    for other in (
        "history.py",
        "src/changes.go",
        "app/news/models.py",
        "docs/news/intro.md",
        "newsletter.md",
        "changelog_helper.py",
        "docs/changelogs/render.py",
    ):
        assert not is_release_notes(other), other


@pytest.mark.parametrize(
    "path,original",
    [
        ("README.de.md", "README.md"),
        ("README_zh-CN.md", "README.md"),
        ("docs/guide.pt-BR.md", "docs/guide.md"),
        ("docs/zh/docs/tutorial/first.md", "docs/en/docs/tutorial/first.md"),
        ("docs/zh-hant/index.md", "docs/en/index.md"),
        ("README.md", None),
        ("docs/en/index.md", None),
        ("docs/build-go.md", None),
        ("docs/api.md", None),
        ("src/main.de.py", None),
        ("CHANGELOG.v2.md", None),
    ],
)
def test_a_translated_doc_names_its_original_by_its_path(path, original):
    from indexer.sections import translated_from

    assert translated_from(path) == original


def test_a_translation_ranks_below_its_original(tmp_path):
    """README.de.md repeats README.md's code blocks and names, so it matches as well:
    one copy is what a question needs. Without an original beside it, a translation
    is the only copy and keeps its weight."""
    from repo_graph import ranking

    text = "# Sessions\n\nEnable sessions with `enable :sessions`; the session secret signs the cookie.\n"
    index = RepoIndex(
        make_repo(tmp_path / "tr", {"README.md": text, "README.de.md": text, "docs/fr/intro.md": text}),
        cache_dir=tmp_path / "cache",
    )
    index.refresh()

    def scores(weights=ranking.DEFAULT):
        return {c.node.path: c.score for c in ranking.rank(index, "enable the session secret", set(), weights=weights)}

    ranked = scores()
    assert max(ranked, key=ranked.get) == "README.md"
    assert ranked["README.de.md"] < 0.5 * ranked["docs/fr/intro.md"]  # docs/en/intro.md is not there
    ranked = scores(replace(ranking.DEFAULT, translation_factor=1.0))
    assert ranked["README.de.md"] >= ranked["docs/fr/intro.md"]
    index.close()


def test_code_copied_in_from_elsewhere_ranks_below_the_projects_own(provider_factory, tmp_path):
    """A vendored library (spdlog's fmt/bundled, jq's vendor/decNumber) matches a
    project's questions as well as its own code does, often better: its matches count
    half (VENDORED_FACTOR), and it stays indexed for a question about it."""
    from indexer.walk import is_vendored

    repo = make_repo(
        tmp_path / "vendored",
        {
            "src/log.py": 'def format_record(record):\n    """Format a log record as one line: its time, its level, '
            'then what it says; every handler writes this."""\n    return str(record)\n',
            "third_party/logfmt/log.py": 'def format_record(record):\n    """Format a log record as one line.'
            '"""\n    return repr(record)\n',
        },
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="format a log record as one line", max_frames=5)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids[0] == "src/log.py#format_record" and "third_party/logfmt/log.py#format_record" in ids
    for vendored in (
        "vendor/decNumber/decNumber.c",
        "include/spdlog/fmt/bundled/core.h",
        "src/pip/_vendor/x.py",
        "deps/lua/src/lapi.c",
        "External/zlib/inflate.c",
    ):
        assert is_vendored(vendored), vendored
    for own in ("vendor.go", "src/vendors_api.py", "app/models/vendor.rb", "docs/deps.md"):
        assert not is_vendored(own), own


def test_a_question_about_behaviour_gets_the_code_before_the_tests_that_name_it(tmp_path):
    """Tests name behaviour in English (`describe("when trust proxy is enabled")`), so
    a plain question matches them better than the code it asks about: a question's
    matches in test files (test/, tests/, spec/, x_test.go ...) count
    question_test_factor of themselves, unless it asks about the tests; a change to
    make keeps them whole (a change often edits its tests)."""
    from indexer.subjects import is_test
    from repo_graph import ranking

    index = indexed(
        tmp_path,
        {
            "lib/request.js": "// The protocol of the request: https when a trusted proxy says so.\n"
            "function protocol(req) {\n  return req.proxy ? req.forwarded : req.scheme;\n}\n",
            "test/req.protocol.js": 'describe("req.protocol when behind a trusted proxy", function () {\n'
            '  it("should return the protocol the proxy forwarded when trust proxy is enabled", function () {\n'
            '    request(app).get("/").set("X-Forwarded-Proto", "https").expect("https");\n  });\n});\n',
        },
    )

    def first(text, weights=ranking.DEFAULT):
        return ranking.rank(index, text, set(), weights=weights)[0].node.path

    asked = "How do I get the protocol the proxy forwarded when it is trusted?"
    assert first(asked) == "lib/request.js"
    assert first(asked, replace(ranking.DEFAULT, question_test_factor=1.0)) == "test/req.protocol.js"
    assert first("How do the tests check the protocol the proxy forwarded when it is trusted?") == (
        "test/req.protocol.js"
    )
    assert first("Return the protocol the proxy forwarded when trust proxy is enabled") == "test/req.protocol.js"
    for test in ("test/req.ip.js", "tests/x.py", "spec/app_spec.rb", "src/__tests__/a.ts", "pkg/x_test.go"):
        assert is_test(test), test
    for code in ("lib/request.js", "src/testing.py", "attest/x.go", "latest/notes.py"):
        assert not is_test(code), code
    index.close()


def test_an_unanchored_change_places_the_best_whole_file_match_whole_file(tmp_path):
    """A commit touches a file all over as often as in one place: without history, the
    file whole-file BM25 ranks first among those not shown above takes file place
    `whole_file_place`, though none of its functions matches as well as the files'
    above; a question, which asks where one thing is, keeps the node order, and so does
    a checkout, whose commit messages tell the files apart [whole-file]."""
    from repo_graph import ranking

    from .test_history import commit, git

    files = {f"mod_{i}.py": f"def retry_upload_connection_{i}():\n    pass\n" for i in range(5)}
    files["transfer.py"] = "".join(  # each function says one of the words; the file says them all
        f"def step_{i}(chunk):\n    # {word} here\n    return chunk\n\n\n"
        for i, word in enumerate(["retry", "upload", "connection", "drops"] * 8)
    )
    index = indexed(tmp_path, files)

    def file_order(text, **kw):
        return list(dict.fromkeys(c.node.path for c in ranking.rank(index, text, set(), **kw)))

    change = "Retry the upload when the connection drops"
    place = ranking.DEFAULT.whole_file_place
    assert place > 0
    told = ranking.rank(index, change, set())
    assert file_order(change).index("transfer.py") == place
    assert [c.score for c in told] == sorted((c.score for c in told), reverse=True)
    off = replace(ranking.DEFAULT, whole_file_place=0)
    assert file_order(change, weights=off).index("transfer.py") > place
    assert file_order("Where is the upload retried when the connection drops?").index("transfer.py") > place
    git(tmp_path / "repo", "init", "-q")
    commit(tmp_path / "repo", "start", {})
    index.refresh()
    assert index.graph.has_history()
    assert file_order(change).index("transfer.py") > place
    index.close()


def test_an_unanchored_change_brings_its_best_files_test_up_change_test_twin(tmp_path):
    """A change to the code that matches best is often made with that file's test (a
    third of commits edit one): its test comes up to `change_test_place` from below the
    files that share the words; a question asks about the code and leaves the test where
    it was [change-test-twin]."""
    from repo_graph import ranking

    files = {
        f"wait_{i}.py": f'def wait_delay_{i}(attempts):\n    """Cap the backoff wait delay between attempts."""\n    return attempts\n'
        for i in range(6)
    }
    files["retry.py"] = (
        'def backoff_delay(attempt):\n    """Cap the backoff delay between attempts."""\n'
        "    return min(2 ** attempt, 60)\n"
    )
    files["tests/test_retry.py"] = (
        "from retry import backoff_delay\n\n\ndef test_doubles():\n    assert backoff_delay(1) == 2\n"
    )
    index = indexed(tmp_path, files)

    def paths(text, **kw):
        return [c.node.path for c in ranking.rank(index, text, set(), **kw)]

    change = "Cap the backoff delay between attempts"
    told = ranking.rank(index, change, set())
    assert told[0].node.path == "retry.py"
    place = ranking.DEFAULT.change_test_place
    assert [c.node.path for c in told].index("tests/test_retry.py") == place
    assert [c.score for c in told] == sorted((c.score for c in told), reverse=True)
    off = replace(ranking.DEFAULT, change_test_place=0)
    assert paths(change, weights=off).index("tests/test_retry.py") > place
    asked = paths("how is the backoff delay between attempts capped?")
    assert asked.index("tests/test_retry.py") > place
    index.close()
