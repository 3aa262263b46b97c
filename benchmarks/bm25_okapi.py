"""File-level BM25 Okapi, the baseline of issue #37: as strong as the simplest method
a host could run instead of repo-graph, and independent of repo-graph's own terms
(indexer/terms.py), so a change there cannot move the bar it is measured against.

Words: runs of letters, digits and `_`. Each word gives itself, lower-cased, and the
parts its identifier spelling joins (`getJSONResponse` -> getjsonresponse, get, json,
response; `max_retries` -> max_retries, max, retries). Every term then loses a plural
ending (a plural-only stemmer: `responses` -> response, `entries` -> entry) and stop
words (English and the languages' keywords; not Ruby's `retry` and `redo`, words a
question about retries means) are dropped. Standard library only.
"""

from __future__ import annotations

import math
import re
from collections import Counter

K1, B = 1.2, 0.75

WORD = re.compile(r"[A-Za-z0-9_]+")
# Identifier parts: an upper-case run not followed by a lower-case letter (JSON in
# getJSONResponse), a capitalised or lower-case word, or digits.
PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")

ENGLISH = """a about above after again all also am an and any are as at be because been
before being below between both but by can could did do does doing down during each
few for from further had has have having he her here hers him his how i if in into is
it its itself just me more most my no nor not of off on once only or other our out over
own same she should so some such than that the their them then there these they this
those through to too under until up very was we were what when where which while who
whom why will with would you your""".split()
KEYWORDS = """abstract alias and as assert async await begin bool boolean break byte case
catch char chan class const constructor continue crate def default defer del delete
do double dyn elif else elsif end ensure enum except export extends extern false final
finally float fn for foreach from func function global go goto if impl implements
import in instanceof int interface is lambda let long loop map match mod module move
mut namespace native new next nil none nonlocal not null object or package pass private
protected pub public raise ref rescue return self select short static
struct super switch synchronized then this throw throws trait transient true try type
typeof undef unless unsafe until use var void volatile when where while with yield
elseif endif echo require include fun val nullptr auto register signed unsigned
sizeof typedef union inline""".split()
STOP = frozenset(ENGLISH) | frozenset(KEYWORDS)


def singular(term: str) -> str:
    """Plural endings only: entries -> entry, boxes/classes -> box/class, files -> file;
    never `ss`, `us`, `is` (class, status, this)."""
    if len(term) > 4 and term.endswith("ies"):
        return term[:-3] + "y"
    if len(term) > 4 and term.endswith("es") and term[-3] in "sxz":
        return term[:-2]
    if len(term) > 4 and term.endswith(("ches", "shes")):
        return term[:-2]
    if len(term) > 3 and term.endswith("s") and not term.endswith(("ss", "us", "is")):
        return term[:-1]
    return term


def words(text: str) -> list[str]:
    """The terms of `text` (a path, a question, a file's text), in order, repeated."""
    out = []
    for word in WORD.findall(text):
        forms = [word.lower()]
        parts = [p.lower() for chunk in word.split("_") for p in PART.findall(chunk)]
        if len(parts) > 1:
            forms += parts
        for form in forms:
            form = singular(form)
            if len(form) > 1 and form not in STOP:
                out.append(form)
    return out


class Okapi:
    """BM25 Okapi over documents given as term counts; idf = ln(1 + (N - n + 0.5) /
    (n + 0.5)), never negative (a term in most documents still counts a little)."""

    def __init__(self, docs: list[tuple[object, Counter]]):
        self.keys = [k for k, _ in docs]
        self.lengths = [sum(c.values()) for _, c in docs]
        self.n = len(docs)
        self.avg = (sum(self.lengths) / self.n) if self.n else 1.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, (_, counts) in enumerate(docs):
            for term, tf in counts.items():
                self.postings.setdefault(term, []).append((i, tf))

    def rank(self, question: str) -> list[object]:
        """Keys of the documents that share a term with `question`, best first."""
        scores: dict[int, float] = {}
        for term in dict.fromkeys(words(question)):
            rows = self.postings.get(term)
            if not rows:
                continue
            idf = math.log(1 + (self.n - len(rows) + 0.5) / (len(rows) + 0.5))
            for i, tf in rows:
                norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[i] / (self.avg or 1.0)))
                scores[i] = scores.get(i, 0.0) + idf * norm
        return [self.keys[i] for i in sorted(scores, key=lambda i: (-scores[i], i))]


def file_terms(path: str, text: str) -> Counter:
    """A file as the baseline sees it: its path's words and its text's."""
    return Counter(words(path.replace("/", " ").replace(".", " ").replace("-", " ")) + words(text))
