"""The order a first index parses files in, so a host asking meanwhile is answered
from the files it needs (issue 40): the files its questions anchor, what they
include or import, their directories, the sources of the headers they include, then
the files git says changed lately, then files whose paths hold the words of its
questions, then the rest, smallest first (the most files soonest). The order changes
while the pass runs: each question re-ranks what is left.
"""

from __future__ import annotations

import posixpath
import re
import threading
from collections import defaultdict
from typing import NamedTuple

from .terms import terms
from .walk import WalkedFile

# Tiers, best first.
ANCHORED, INCLUDED, FURTHER, BESIDE, NAMESAKE, RECENT, NAMED, REST = range(8)
MAX_PER_TARGET = 4  # an include or import names at most this many files by its ending
HEADERS = frozenset((".h", ".hh", ".hpp", ".hxx"))
SOURCES = frozenset((".c", ".cc", ".cpp", ".cxx", ".m", ".mm"))
PACKAGE_FILES = ("__init__", "mod", "index")  # the file a package's import names, extension-less
MAX_WORDS = 32  # the words of pending questions a path is matched against
MAX_QUESTIONS = 8  # the latest questions whose terms a first index built beside looks for in files
_WORD = re.compile(r"[a-z0-9]+")
_HUMPS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_STOP = frozenset("the and for with from that this what where when which how does into are was not".split())


def words_of(text: str) -> set[str]:
    """The words of a question a file's path may hold (`RetryPolicy` -> retry, policy)."""
    return {w for w in _WORD.findall(_HUMPS.sub(" ", text).lower()) if len(w) >= 3 and w not in _STOP}


def _path_words(path: str) -> set[str]:
    return set(_WORD.findall(_HUMPS.sub(" ", path).lower()))


class Wants:
    """What hosts asked while a first index runs: the paths their anchors name and the
    words of their questions. Written by answers' threads, read by the indexer's."""

    def __init__(self):
        self._lock = threading.Lock()
        self.version = 0
        self.paths: set[str] = set()
        self.words: set[str] = set()
        self.targets: set[str] = set()  # import or include texts of anchored files
        self.further: set[str] = set()  # ... and of the files those name: one level, not all
        self.questions: list[frozenset[str]] = []  # each question's index terms (indexer/terms.py)

    def ask(self, paths=(), words=(), targets=(), further=()) -> None:
        with self._lock:
            before = (len(self.paths), len(self.words), len(self.targets), len(self.further))
            self.paths.update(p for p in paths if p)
            self.targets.update(targets)
            self.further.update(further)
            for w in words:
                if len(self.words) < MAX_WORDS:
                    self.words.add(w)
            asked = frozenset(terms(" ".join(sorted(words))))
            if asked and asked not in self.questions:
                self.questions = [*self.questions, asked][-MAX_QUESTIONS:]
            if (len(self.paths), len(self.words), len(self.targets), len(self.further)) != before:
                self.version += 1

    def snapshot(self) -> WantsSnapshot:
        with self._lock:
            return WantsSnapshot(
                self.version,
                frozenset(self.paths),
                frozenset(self.words),
                frozenset(self.targets),
                frozenset(self.further),
            )


class WantsSnapshot(NamedTuple):
    """What hosts want, at one version: read by field, so a new kind of want adds a field."""

    version: int
    paths: frozenset[str]
    words: frozenset[str]
    targets: frozenset[str]
    further: frozenset[str]


def _target_files(targets, by_ending: dict[str, list[str]]) -> set[str]:
    """Files an include or import text names by its ending (`linux/sched.h`,
    `pkg.mod` as `pkg/mod`): a guess, good enough to parse them early."""
    found: set[str] = set()
    for target in targets:
        text = target.strip().strip("\"'<>").lstrip("./")
        if not text:
            continue
        for ending in {text, text.replace(".", "/"), text.replace("::", "/")}:
            found.update(by_ending.get(ending, ())[:MAX_PER_TARGET])
            for package in PACKAGE_FILES:  # `import re` is re/__init__.py
                found.update(by_ending.get(f"{ending}/{package}", ())[:MAX_PER_TARGET])
            base = ending.rsplit("/", 1)[-1]
            if "/" in ending:
                continue
            found.update(by_ending.get(base, ())[:MAX_PER_TARGET])
    return found


def _namesakes(files, by_ending: dict[str, list[str]]) -> set[str]:
    """The sources named like the headers among `files` (`include/linux/rmap.h` ->
    `mm/rmap.c`): where what a header declares is usually defined, so an asked file's
    calls find their definitions early. The shortest paths first: the core before the
    drivers and the tools that reuse a name."""
    found: set[str] = set()
    for path in files:
        stem, ext = posixpath.splitext(posixpath.basename(path))
        if ext not in HEADERS:
            continue
        sources = [p for p in by_ending.get(stem, ()) if posixpath.splitext(p)[1] in SOURCES]
        found.update(sorted(sources, key=lambda p: (p.count("/"), len(p), p))[:MAX_PER_TARGET])
    return found


class FirstOrder:
    """The files of a first index, yielded best first; `tier(path)` says where a file
    stood. Iterated by the parser's feeder thread; re-ranks when `wants` changed.
    `live`: the paths written into the index that answers meanwhile, when that is not
    the one being built (a first index built beside): a file asked about after it was
    parsed, and not among them, is yielded again for that index alone (`again`)."""

    def __init__(
        self,
        todo: list[tuple[WalkedFile, str | None]],
        wants: Wants,
        recent: dict[str, float],
        live: set[str] | None = None,
    ):
        self._all = {w.path: (w, d) for w, d in todo}
        self._left = dict(self._all)
        self.live = live
        self._again: set[str] = set()
        self._passed: set[str] = set()  # parsed and offered to the answering index (built beside)
        self._wants = wants
        self._recent = recent
        self._seen_version = -1
        self.included: set[str] = set()  # the files the anchored ones include, as last ranked
        self._queue: list[str] = []
        self._tiers: dict[str, int] = {}
        self._by_ending: dict[str, list[str]] | None = None
        self._lock = threading.Lock()

    def _endings(self) -> dict[str, list[str]]:
        """Every file under each of its path's endings and extension-less endings."""
        if self._by_ending is None:
            by_ending: dict[str, list[str]] = defaultdict(list)
            for path in self._all:
                parts = path.split("/")
                for i in range(len(parts)):
                    ending = "/".join(parts[i:])
                    by_ending[ending].append(path)
                    stem = posixpath.splitext(ending)[0]
                    if stem != ending:
                        by_ending[stem].append(path)
            self._by_ending = by_ending
        return self._by_ending

    def _rank(self) -> None:
        version, paths, words, targets, further = self._wants.snapshot()
        self._seen_version = version
        dirs = {posixpath.dirname(p.rstrip("/")) for p in paths} | {p.rstrip("/") for p in paths}
        included = self.included = _target_files(targets, self._endings()) if targets else set()
        namesakes = _namesakes(included, self._endings())
        # What the included files include: a C file's macros, inlines and types come from
        # its headers' headers (about half the kernel's fork.c links to no tier otherwise).
        further_files = _target_files(further, self._endings()) - included - set(paths) if further else set()
        if self.live is not None:  # asked about since it was parsed: again, for the answering index
            near = set(paths | included | namesakes) & self._passed
            near.update(p for p in self._passed if posixpath.dirname(p) in dirs)
            for path in near - self.live - self._again:  # not twice: one already given again may be in flight
                self._left[path] = self._all[path]
                self._again.add(path)
        tiers = {}
        for path in self._all:  # a file being parsed now is taken for what it is now
            if path in paths:
                tier = ANCHORED
            elif path in included:
                tier = INCLUDED
            elif path in further_files:
                tier = FURTHER
            elif posixpath.dirname(path) in dirs or any(path.startswith(p.rstrip("/") + "/") for p in paths):
                tier = BESIDE
            elif path in namesakes:
                tier = NAMESAKE
            elif path in self._recent:
                tier = RECENT
            elif words and words & _path_words(path):
                tier = NAMED
            else:
                tier = REST
            tiers[path] = tier
        self._tiers = tiers
        recent, left = self._recent, self._left

        def key(path: str):
            tier = tiers[path]
            if tier == RECENT:
                return (tier, -recent[path], path)
            if tier == NAMED:
                return (tier, -len(words & _path_words(path)), path)
            return (tier, left[path][0].size, path)

        self._queue = sorted(left, key=key, reverse=True)  # popped from the end

    def tier(self, path: str) -> int:
        with self._lock:
            return self._tiers.get(path, REST)

    def __iter__(self):
        while True:
            with self._lock:
                if self._wants.version != self._seen_version:
                    self._rank()
                while self._queue and self._queue[-1] not in self._left:
                    self._queue.pop()
                if not self._queue:
                    return
                item = self._left.pop(self._queue.pop())
            yield item

    def again(self, path: str) -> bool:
        """Whether `path` was yielded again, for the answering index alone (taken off the
        list: its next yield, if any, is a first one's)."""
        with self._lock:
            if path in self._again:
                self._again.discard(path)
                if self.live is not None:
                    self.live.add(path)  # on its way in: a question asked meanwhile gives it no third time
                return True
            return False

    def passed(self, path: str, taken: bool) -> None:
        """A file parsed for the index built beside went by the answering one, `taken`
        into it or not: one asked about later is parsed again for it."""
        with self._lock:
            self._passed.add(path)
            if taken and self.live is not None:
                self.live.add(path)

    def went_live(self, paths) -> None:
        """Files written into the answering index (a query's anchors, indexed on the spot;
        a first index's feed): built in place, not to be parsed again; built beside, not
        to be yielded again for it."""
        with self._lock:
            for path in paths:
                if self.live is None:
                    self._left.pop(path, None)
                else:
                    self.live.add(path)

    def __len__(self) -> int:
        with self._lock:
            return len(self._left)
