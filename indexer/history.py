"""Which files change together, and which change lately, from the repository's own
git history.

Files that were committed together before tend to be changed together again: the
strongest hint of what else a change to the open file will touch that neither
imports nor names show. And a file changed in the last few dozen commits is likelier
what a question is about than one untouched for years. Read with the local `git`
(never the network), only what HEAD can reach, so a checkout of an old commit knows
nothing of later ones.

And each file's past commit messages, as words: what the changes to it were about. A
question ("Fix the session cookie's SameSite default") shares words with the messages of
the commits that touched the same code before, often more than with the code itself.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from .terms import terms

HISTORY_COMMITS = 3000  # the most recent commits read
MAX_FILES_PER_COMMIT = 30  # a sweeping commit (a rename, a reformat) says nothing about pairs
MAX_PAIRS = 400_000  # past this, the lightest pairs (seen once, long ago) are dropped: the store keeps what repeats
GIT_SECONDS = 60
RECENT_HALF_LIFE = 100  # commits: a change this many commits back counts half
# A pair committed together this many commits back counts half: with renames followed, a
# project's early layout (flask before `src/`) otherwise speaks as loudly as today's.
# Twelve tuning repositories, none -> 1,000: mean R@5 0.7222 / 0.7109 -> 0.7241 / 0.7162.
PAIR_HALF_LIFE = 1000
# A message speaks for each of a commit's k files at k ** -SAID_SPREAD: a commit of twenty
# files is about each of them less than a commit of one. Twelve tuning repositories, as
# ranked, R@5 unanchored / anchored: 0 -> 0.5, 0.7758 / 0.7588 -> 0.7778 / 0.7672; 1.0,
# 0.7741 / 0.7690. Ageing the messages (half-lives 300, 1,000 commits) moved nothing.
SAID_SPREAD = 0.5
MAX_SAID_ROWS = 1_000_000  # (term, file) rows kept, the heaviest: bounds a monorepo of sweeping commits
# How the history is read: a change bumps upgrades.RULES["history"] [rules-history].
# What a message says beside its subject and body: trailers (Signed-off-by:, Co-authored-by:
# and their names), links; neither tells what the change was about.
_TRAILER = re.compile(r"^[A-Za-z][\w-]*-by:.*$|https?://\S+", re.MULTILINE)


def _git(root: Path, *args: str) -> str | None:
    try:
        # Read-only: no optional lock files, no fsmonitor hook a repository's config could name.
        proc = subprocess.run(
            ["git", "-C", str(root), "-c", "core.quotePath=false", "-c", "core.fsmonitor=false", *args],
            capture_output=True,
            timeout=GIT_SECONDS,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None  # no git, or a history too slow to read: no co-change signal
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else None


def head(root: Path) -> str | None:
    """The commit the working tree is on, or None outside a git work tree."""
    out = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    return (out or "").strip() or None


@dataclass(frozen=True)
class History:
    """What the history says; empty outside a git work tree."""

    pairs: Counter = field(
        default_factory=Counter
    )  # (a, b) with a < b -> the commits that changed both, each 0.5 ** (commits since / PAIR_HALF_LIFE)
    recent: dict[str, float] = field(
        default_factory=dict
    )  # path -> its commits, each 0.5 ** (commits since / RECENT_HALF_LIFE)
    words: dict[str, Counter] = field(
        default_factory=dict
    )  # path -> the terms of its commits' messages, each k ** -SAID_SPREAD
    commits: int = 0  # how many were read


def message_terms(message: str) -> list[str]:
    """The terms (indexer/terms.py, as the lexical index has them) a commit message
    gives each file it changed."""
    return terms(_TRAILER.sub(" ", message))


def _commits(out: str):
    """Each commit's message and files, newest commit first, the files under the names
    they have at HEAD: a file moved (requests' `requests/` to `src/requests/`, okhttp's
    Java to Kotlin source sets) keeps the history it had under its old name."""
    now: dict[str, str] = {}  # a name in older commits -> the file's name at HEAD
    for commit in out.split("\0")[1:]:
        message, _, changes = commit.rpartition("\x01")  # the last: a message may hold one, a file list not
        files = set()
        for line in changes.splitlines():
            status, _, paths = line.partition("\t")
            if not paths:
                continue
            if status.startswith("R"):  # R<similarity>, old name, new name (-M; copies are not asked for)
                old, _, new = paths.partition("\t")
                current = now.get(new, new)
                now[old] = current
            else:
                current = now.get(paths, paths)
            files.add(current)
        yield message, sorted(files)


def read(root: Path, commits: int = HISTORY_COMMITS) -> History:
    """What the recent commits say: which files change together, which change lately,
    and what their changes were about; paths relative to `root` (which may sit inside
    a larger repository)."""
    out = _git(
        root,
        "log",
        "--no-merges",
        "-M",
        "--relative",
        "--name-status",
        "--format=%x00%B%x01",
        "-n",
        str(commits),
        "HEAD",
        "--",
        ".",
    )
    pairs: Counter = Counter()
    recent: dict[str, float] = defaultdict(float)
    words: dict[str, Counter] = defaultdict(Counter)
    age = 0  # commits since, newest first
    for message, files in _commits(out or ""):
        if not files:
            continue
        if len(files) <= MAX_FILES_PER_COMMIT:
            weight = 0.5 ** (age / RECENT_HALF_LIFE)
            share = len(files) ** -SAID_SPREAD
            said = {term: n * share for term, n in Counter(message_terms(message)).items()}
            for path in files:
                recent[path] += weight
                words[path].update(said)
            if len(files) >= 2:
                together = 0.5 ** (age / PAIR_HALF_LIFE)
                for pair in combinations(files, 2):
                    pairs[pair] += together
        age += 1
    if len(pairs) > MAX_PAIRS:
        pairs = Counter(dict(pairs.most_common(MAX_PAIRS)))
    return History(pairs, dict(recent), _heaviest(words, MAX_SAID_ROWS), age)


def _heaviest(words: dict[str, Counter], most: int) -> dict[str, Counter]:
    """The `most` heaviest (file, term) counts, ties by path and term; the rest dropped."""
    if sum(len(said) for said in words.values()) <= most:
        return dict(words)
    rows = sorted(
        ((path, term, n) for path, said in words.items() for term, n in said.items()),
        key=lambda row: (-row[2], row[0], row[1]),
    )
    kept: dict[str, Counter] = defaultdict(Counter)
    for path, term, n in rows[:most]:
        kept[path][term] = n
    return dict(kept)


RECENT_FIRST_COMMITS = 200  # what a first index parses early: the files of this many latest commits


def recently_changed(root: Path, commits: int = RECENT_FIRST_COMMITS) -> dict[str, float]:
    """Files the latest commits changed, each weighed as `read` weighs them (newer
    counts more): a first index parses these early (indexer/order.py). Quick: names
    only, no renames followed. Empty outside a git work tree."""
    out = _git(root, "log", "--no-merges", "--relative", "--name-only", "--format=%x00", "-n", str(commits), "HEAD")
    recent: dict[str, float] = defaultdict(float)
    for age, chunk in enumerate((out or "").split("\0")[1:]):
        for path in chunk.splitlines():
            if path:
                recent[path] += 0.5 ** (age / RECENT_HALF_LIFE)
    return dict(recent)
