"""Every capture name of every grammar query is one indexer/extract.py understands
(as nvim-treesitter lints its queries): a misspelt capture would match and be
ignored without a word."""

from __future__ import annotations

import pytest
import tree_sitter

from grammars import GrammarUnavailable, Registry
from indexer.extract import unknown_captures

REGISTRY = Registry()


def capture_names(spec) -> list[str]:
    query = tree_sitter.Query(spec.load(), spec.query_text("tags") + "\n" + spec.query_text("imports"))
    return [query.capture_name(i) for i in range(query.capture_count)]


@pytest.mark.parametrize("name", sorted(REGISTRY.languages))
def test_every_capture_of_every_query_is_one_extract_understands(name):
    spec = REGISTRY.languages[name]
    try:
        names = capture_names(spec)
    except GrammarUnavailable as exc:
        pytest.skip(f"{name}: {exc}")
    assert names, f"{name}: its queries capture nothing"
    assert unknown_captures(names) == [], f"{name}: captures extract.py ignores"


def test_the_lint_names_a_misspelt_capture():
    assert unknown_captures(["name", "definiton.function", "reference.cal", "_helper", "definition.class"]) == [
        "definiton.function", "reference.cal"]
