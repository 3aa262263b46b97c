"""Every language folder's example file goes through the real extractor: its
grammar loads offline, its queries compile, and it yields definitions with
nesting, doc comments and references."""

from __future__ import annotations

import pytest

from grammars import Registry
from indexer.extract import Extractor
from indexer.index import RepoIndex

from .conftest import make_repo

REGISTRY = Registry()
SPECS = sorted(REGISTRY.languages.values(), key=lambda s: s.name)


# The README's "22 languages", as it names them; OCaml's `.mli` interfaces have a
# grammar of their own (ocaml_interface).
README_LANGUAGES = {
    "python",
    "javascript",
    "typescript",
    "tsx",
    "go",
    "rust",
    "java",
    "c",
    "cpp",
    "csharp",
    "ruby",
    "php",
    "bash",
    "lua",
    "kotlin",
    "swift",
    "scala",
    "elixir",
    "zig",
    "haskell",
    "ocaml",
    "dart",
}


def test_the_twenty_two_languages_the_readme_names_are_registered():
    assert len(README_LANGUAGES) == 22
    assert {spec.name for spec in SPECS} == README_LANGUAGES | {"ocaml_interface"}


def test_every_grammar_is_a_dependency():
    """A language folder whose wheel the project does not install is skipped on a fresh
    machine (with a warning), and its example would fail only there."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {d.split(">")[0].split("=")[0].split("<")[0].strip() for d in project["project"]["dependencies"]}
    assert {spec.distribution for spec in SPECS} <= declared


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_example_file_yields_symbols(spec):
    (example,) = [p for p in spec.folder.glob("example.*") if p.suffix != ".tags"]
    assert REGISTRY.for_path(example.name) == spec
    out = Extractor().extract(spec, example.read_bytes())
    assert out is not None, f"grammar {spec.distribution} did not load"
    assert out.warnings == []
    assert len(out.symbols) >= 3
    assert out.references
    for sym in out.symbols:
        assert 1 <= sym.start_line <= sym.end_line and sym.signature
    if spec.name != "bash":
        assert any(s.doc for s in out.symbols), "no doc comment attached to any symbol"
    if spec.name not in ("bash", "c"):
        # Class.method by nesting, or Type.Method by receiver (Go, Lua, C++ out-of-class)
        assert any("." in s.qualname and s.kind == "method" for s in out.symbols), "no qualified method"


def test_invalid_utf8_source_keeps_its_symbols_and_is_a_warning_where_it_breaks_the_code():
    spec = REGISTRY.languages["go"]
    in_a_comment = Extractor().extract(spec, b"package main\n// \xff\xfe\nfunc main() {}\n")
    assert in_a_comment.warnings == []  # a comment's bytes are nobody's syntax
    assert [s.qualname for s in in_a_comment.symbols] == ["main"]
    in_the_code = Extractor().extract(spec, b"package main\nvar x \xff\xfeT\nfunc main() {}\n")
    assert in_the_code.warnings == ["syntax errors: symbols are partial"]
    assert [s.qualname for s in in_the_code.symbols] == ["x", "main"]  # what tree-sitter recovers around them


def test_a_receiver_that_is_not_utf8_keeps_the_files_symbols():
    """Whether a call's receiver is spelled as a class (`Config.load()`) is read in
    indexer/extract.py, not by a query predicate, which would fail the whole file's
    query on a receiver that is a Latin-1 string."""
    spec = REGISTRY.languages["python"]
    out = Extractor().extract(
        spec,
        b'class Config:\n    def load(self):\n        return "\xff".join([])\n\n\n'
        b"def run():\n    return Config.load()\n",
    )
    assert not out.warnings
    assert {s.qualname for s in out.symbols} >= {"Config", "Config.load", "run"}
    assert {r.name for r in out.references} >= {"join", "Config.load"}


def test_a_file_without_a_last_newline_parses_whole():
    """A directive that ends a file (`#pragma warning restore 618`, no newline after)
    is a syntax error to a grammar that ends directives with a newline: a file
    Newtonsoft.Json has by the dozen was reported partial for it."""
    source = (
        b"#pragma warning disable 618\nnamespace App\n{\n    public class Store\n    {\n"
        b"        public int Count() { return 0; }\n    }\n}\n#pragma warning restore 618"
    )
    out = Extractor().extract(REGISTRY.languages["csharp"], source)
    assert not out.warnings
    count = next(s for s in out.symbols if s.qualname.endswith("Store.Count"))
    assert source[count.start_byte : count.end_byte] == b"public int Count() { return 0; }"
    python = Extractor().extract(REGISTRY.languages["python"], b"def f():\n    return 1")
    assert not python.warnings and [(s.name, s.start_line, s.end_line) for s in python.symbols] == [("f", 1, 2)]


@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_typescripts_export_type_star_is_a_re_export_the_grammar_reads(language):
    """`export type * from './types'` (TypeScript 5.0) is newer than the grammar: its
    `type` is parsed as space, so the file parses whole and the re-export is an import."""
    source = b"export type * from './types'\nexport type * as jsx from './jsx'\n\nexport function render(): void {}\n"
    out = Extractor().extract(REGISTRY.languages[language], source)
    assert not out.warnings
    assert [i.path for i in out.imports] == ["./types", "./jsx"]
    assert [s.qualname for s in out.symbols if s.kind == "function"] == ["render"]


def test_a_cs_file_whose_ifs_split_a_statement_keeps_its_methods_in_their_class():
    """`}` then `#if X` then `else if`: a syntax error to the grammar, which read the
    branch as a method `Write.if` and lost its class's methods after it; parsed again
    without the directive lines, every branch is read."""
    source = b"""namespace App
{
    public class Converter
    {
        public void Write(object value)
        {
            if (value is int i)
            {
                Emit(i);
            }
#if HAVE_DATE
            else if (value is System.DateTimeOffset d)
            {
                Emit(d);
            }
#endif
            else
            {
                Emit(value);
            }
        }

        public void Emit(object value) { }
    }
}
"""
    out = Extractor().extract(REGISTRY.languages["csharp"], source)
    assert not out.warnings
    assert {s.qualname for s in out.symbols} == {"App", "App.Converter", "App.Converter.Write", "App.Converter.Emit"}
    write = next(s for s in out.symbols if s.name == "Write")
    assert (write.start_line, write.end_line) == (5, 21)
    assert sum(r.name == "Emit" for r in out.references) == 3


def test_a_zig_block_with_no_name_is_a_symbol_its_words_are_found_in(tmp_path):
    """`test { ... }`, `test name { ... }` and `comptime { ... }` after a function were in
    no symbol, so what they call could not be searched for."""
    from repo_graph import ranking

    index = RepoIndex(
        make_repo(
            tmp_path / "zig",
            {
                "src/lib.zig": 'const std = @import("std");\n\npub fn parse() void {}\n\n'
                "test parse {\n    parse();\n}\n\ntest {\n    std.testing.refAllDeclsRecursive(@This());\n}\n\n"
                "comptime {\n    std.debug.assert(checkLayout());\n}\n",
                "src/other.zig": "pub fn refresh() void {}\n",
            },
        ),
        cache_dir=tmp_path / "cache",
    )
    index.refresh()
    assert ranking.rank(index, "refAllDeclsRecursive", set())[0].node.id == "src/lib.zig#test"
    assert ranking.rank(index, "checkLayout", set())[0].node.id == "src/lib.zig#comptime"
    assert index.store.node("src/lib.zig#test(parse)") is not None
    index.close()
