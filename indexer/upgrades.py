"""Upgrades in place, as data: the version of each set of indexing rules and what an
index made under another version must do again. Bump a version with the change to
its rules; what each version changed is in benchmarks/DECISIONS.md (the entry in
brackets). indexer/index.py compares these with what the index kept."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from grammars import Registry

from .parse import FIELD_WEIGHTS
from .sections import DOC_EXTENSIONS

# What a version change forces.
REPARSE = "re-parse"  # the files of the languages (`reads`) whose extraction it is part of
RELINK = "re-link"  # every file's links resolved again; no file parsed
REREAD_HISTORY = "re-read history"  # the git history read again
CODE, DOCS = "code", "docs"  # the files a re-parse reaches: every grammar's, every doc format's


@dataclass(frozen=True)
class Rule:
    version: str
    forces: str
    reads: tuple[str, ...] = ()  # for REPARSE: CODE, DOCS or both
    where: str = ""  # the module whose rules these are


# In this order in the extraction digests (an index keeps them: reordering re-parses everything).
RULES: Mapping[str, Rule] = MappingProxyType(
    {
        "extract": Rule("3", REPARSE, (CODE,), "indexer/extract.py"),  # matches into symbols [rules-extract]
        "generated": Rule("3", REPARSE, (CODE,), "indexer/parse.py"),  # how generated code is told [rules-generated]
        "sections": Rule("1", REPARSE, (DOCS,), "indexer/sections.py"),  # docs into sections [rules-sections]
        "terms": Rule("2", REPARSE, (CODE, DOCS), "indexer/terms.py"),  # how words are cut and stemmed [rules-terms]
        "resolve": Rule("17", RELINK, (), "indexer/resolve.py"),  # what names resolve to [rules-resolve]
        "history": Rule("4", REREAD_HISTORY, (), "indexer/history.py"),  # how the history is read [rules-history]
    }
)


def bumped(name: str, version: str, rules: Mapping[str, Rule] = RULES) -> Mapping[str, Rule]:
    """The table with one rule at another version: what a next release would hold (tests)."""
    return MappingProxyType({**rules, name: replace(rules[name], version=version)})


def extraction_digests(
    registry: Registry, rules: Mapping[str, Rule] = RULES, fields: tuple[tuple[str, float], ...] = FIELD_WEIGHTS
) -> dict[str, str]:
    """Per language and doc format, what its extraction is made of: the versions of the
    rules that re-parse it, the BM25F field weights its term counts were weighed by
    (parse.FIELD_WEIGHTS) and, for a language, its queries and language.toml. A file
    indexed under another is parsed again (index.py)."""
    weights = ",".join(f"{name}={weight!r}" for name, weight in fields)
    code = [r.version for r in rules.values() if r.forces == REPARSE and CODE in r.reads]
    docs = [r.version for r in rules.values() if r.forces == REPARSE and DOCS in r.reads]
    found = {fmt: _digest(*docs, weights) for fmt in set(DOC_EXTENSIONS.values())}
    for spec in registry.languages.values():
        found[spec.name] = _digest(
            *code,
            weights,
            spec.query_text("tags"),
            spec.query_text("imports"),
            (spec.folder / "language.toml").read_text(encoding="utf-8"),
        )
    return found


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
