"""Terms for lexical retrieval: identifiers split at case and underscores
(`RetryPolicy` -> retry, policy; `HTTPServer` -> http, server; `max_attempts` ->
max, attempts), lowercased, lightly stemmed, code-aware stop words dropped.

The same function serves the index and the query, so both sides agree.
"""

from __future__ import annotations

import re
from collections import _count_elements  # Counter's C counting loop, without its per-call overhead
from functools import lru_cache
from itertools import chain

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*|[0-9]+")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# English glue words and the keywords every language repeats, which say nothing
# about what a piece of code is for.
STOP_WORDS = frozenset(
    """a an and are as at be by do does for from has have how i if in into is it its
    me my of on or so that the their then there these this to was we what when where
    which who why will with you your can should would could not no yes
    def self cls return pass none true false null nil var let const fn func function
    public private protected static void int str string bool else elif end new
    import include use using package module class struct impl try except catch
    finally raise throw throws while break continue lambda async await yield
    """.split()
)

_SUFFIXES = (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))


# How `stem` cuts words: a change bumps upgrades.RULES["terms"] [rules-terms].


def stem(word: str) -> str:
    """A light stemmer: plurals, -ing/-ed, -ation/-ion, -ate and a final e, never
    below three letters, so "configure" and "configuration" meet at "configur", and
    "generate", "generated" and "generation" at "gener"."""
    if len(word) <= 3:
        return word
    if not word.endswith("ss"):
        for suffix, repl in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) + len(repl) >= 3:
                stemmed = word[: -len(suffix)] + repl
                if suffix in ("ing", "ed") and len(stemmed) > 3:
                    if stemmed[-1] == stemmed[-2]:
                        stemmed = stemmed[:-1]  # running -> run
                    elif len(stemmed) >= 6 and stemmed.endswith("at") and stemmed[-3] not in "aeiou":
                        stemmed = stemmed[:-2]  # generated -> gener, as generation; created, repeated keep theirs
                if suffix == "es" and not stemmed.endswith(("s", "x", "z", "ch", "sh")):
                    stemmed = word[:-1]  # "types" -> "type", not "typ"
                word = stemmed
                break
    for suffix in ("ation", "ate", "ion"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def split_identifier(word: str) -> list[str]:
    return [p.lower() for p in _PARTS.findall(word)]


@lru_cache(maxsize=1 << 16)  # a pure function of one word: identifiers repeat a lot
def expand(word: str) -> tuple[str, ...]:
    """The terms one word contributes: the whole identifier and its stemmed parts."""
    parts = split_identifier(word)
    out = []
    if len(parts) > 1:
        whole = word.lower()
        if whole not in STOP_WORDS:
            out.append(whole)  # the whole identifier matches too: "retrypolicy"
    for part in parts:
        if part not in STOP_WORDS and (len(part) > 1 or part.isdigit()):
            out.append(stem(part))
    return tuple(out)


# Every ASCII byte that cannot be part of a word becomes a space, so `split()` cuts
# the text into tokens in C: about half the cost of `_WORD.findall` on the same
# text. A token can still hold more than one word (`0x1f`, `café`, bytes above
# ASCII): its expansion splits it the way `_WORD` would, once per distinct token.
_SEPARATORS = bytes(c if c >= 128 or chr(c).isalnum() else 32 for c in range(256))


def _tokens(text: str | bytes) -> list[bytes]:
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")  # a path may carry undecodable bytes as surrogates
    return text.translate(_SEPARATORS).split()


class _Expansions(dict):
    """token -> its terms, filled on first sight; lookups stay in C."""

    def __missing__(self, token: bytes) -> tuple[str, ...]:
        if len(self) >= _MAX_EXPANSIONS:
            self.clear()  # a kernel has millions of distinct identifiers: bound the cache
        words = _WORD.findall(token.decode("utf-8", "replace"))
        found = self[token] = expand(words[0]) if len(words) == 1 else tuple(chain.from_iterable(map(expand, words)))
        return found


_MAX_EXPANSIONS = 1 << 18
_expansions = _Expansions()


def terms(text: str | bytes) -> list[str]:
    """Every term in `text`, in order, with repeats."""
    return list(chain.from_iterable(map(_expansions.__getitem__, _tokens(text))))


def weighted_counts(fields) -> tuple[dict[str, float], float]:
    """BM25F in one pass: [(weight, text)] -> (term -> weighted frequency, weighted
    length). The indexer's hot loop (every byte of the repository goes through it),
    so the tokens of fields of one weight are expanded and counted in C; only the few
    terms of the other weights are merged in Python. A text is str or UTF-8 bytes
    (a body straight from the file, never decoded). Put the large field (the body) first."""
    by_weight: dict[float, list[list[bytes]]] = {}
    for weight, text in fields:
        if text:
            by_weight.setdefault(weight, []).append(_tokens(text))
    total: dict[str, float] = {}
    length = 0.0
    for weight, tokens in by_weight.items():
        found: dict[str, int] = {}
        _count_elements(found, chain.from_iterable(map(_expansions.__getitem__, chain.from_iterable(tokens))))
        length += weight * sum(found.values())
        if not total and weight == 1.0:
            total = found
        else:
            for term, n in found.items():
                total[term] = total.get(term, 0) + weight * n
    return total, length
