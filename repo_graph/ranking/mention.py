"""The mention signal: a symbol the question names in code form (`Data.Render`,
`config.load`) can match best of all, when few symbols bear the name [mention]."""

from __future__ import annotations

import re

from .adjustments import asks_how
from .reads import IndexReads
from .weights import DEFAULT, Weights

_BACKTICKED = re.compile(r"`([^`\n]{2,120})`")
_QUALIFIED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|\\)[A-Za-z_][A-Za-z0-9_]*)*")  # `\`: PHP's namespaces
_CAMEL_HUMP = re.compile(r"[a-z0-9][A-Z]")


def code_names(text: str, forms: tuple[str, ...] = DEFAULT.mention_forms) -> list[str]:
    """Names the text writes in the code `forms` counted [mention-forms]: backticked
    spans, words with a dot, `::` or `\\` between parts, an underscore, or a hump
    (`BindPlain`); never plain capitalised words (`Render` starts a sentence as often
    as it names a method). As written: the index spells them its own way (`spelled`)."""
    named = []
    if "backticks" in forms:
        for span in _BACKTICKED.findall(text):
            found = _QUALIFIED_NAME.search(span)  # `require_git(false)` names require_git
            if found:
                named.append(found.group())
    for word in _QUALIFIED_NAME.findall(text):
        inner = word.strip("_")
        if (
            ("qualified" in forms and ("." in word or "::" in word or "\\" in word))
            or ("underscored" in forms and "_" in inner)
            or ("humped" in forms and _CAMEL_HUMP.search(word))
        ):
            named.append(word)
    return [n for n in dict.fromkeys(named) if len(n) >= 3]


def mentioned(reads: IndexReads, text: str, *, w: Weights = DEFAULT) -> dict[int, tuple[float, str]]:
    """Definitions of the symbols the question names in code form: rowid -> (match, path)."""
    forms = w.question_mention_forms if asks_how(text) else w.mention_forms
    out: dict[int, tuple[float, str]] = {}
    for name in map(reads.spelled, code_names(text, forms)):
        nodes = reads.find_by_name(name, limit=w.max_mention_defs + 1)
        if not nodes or len(nodes) > w.max_mention_defs:
            continue  # unknown, or too common to point anywhere
        rowid_of = reads.rowids_of_ids(n.id for n in nodes)
        out.update((rowid_of[n.id], (w.mention_match, n.path)) for n in nodes if n.id in rowid_of)
    return out
