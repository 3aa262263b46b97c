"""Which files change together, and which change lately, from the repository's own
git history.

Files that were committed together before tend to be changed together again: the
strongest hint of what else a change to the open file will touch that neither
imports nor names show. And a file changed in the last few dozen commits is likelier
what a question is about than one untouched for years. Read with the local `git`
(never the network), only what HEAD can reach, so a checkout of an old commit knows
nothing of later ones.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

HISTORY_COMMITS = 3000  # the most recent commits read
MAX_FILES_PER_COMMIT = 30  # a sweeping commit (a rename, a reformat) says nothing about pairs
MAX_PAIRS = 400_000  # past this, pairs seen once are dropped: the store keeps what repeats
GIT_SECONDS = 60
RECENT_HALF_LIFE = 100  # commits: a change this many commits back counts half


def _git(root: Path, *args: str) -> str | None:
    try:
        # Read-only: no optional lock files, no fsmonitor hook a repository's config could name.
        proc = subprocess.run(["git", "-C", str(root), "-c", "core.quotePath=false", "-c", "core.fsmonitor=false", *args],
                              capture_output=True, timeout=GIT_SECONDS, env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
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

    pairs: Counter = field(default_factory=Counter)  # (a, b) with a < b -> how many of the recent commits changed both
    recent: dict[str, float] = field(default_factory=dict)  # path -> its commits, each 0.5 ** (commits since / RECENT_HALF_LIFE)


def read(root: Path, commits: int = HISTORY_COMMITS) -> History:
    """What the recent commits say: which files change together, and which change
    lately; paths relative to `root` (which may sit inside a larger repository)."""
    out = _git(root, "log", "--no-merges", "--no-renames", "--relative", "--name-only", "--format=%x00",
               "-n", str(commits), "HEAD", "--", ".")
    pairs: Counter = Counter()
    recent: dict[str, float] = defaultdict(float)
    age = 0  # commits since, newest first
    for commit in (out or "").split("\0"):
        files = sorted({line for line in commit.splitlines() if line})
        if not files:
            continue
        if len(files) <= MAX_FILES_PER_COMMIT:
            weight = 0.5 ** (age / RECENT_HALF_LIFE)
            for path in files:
                recent[path] += weight
            if len(files) >= 2:
                pairs.update(combinations(files, 2))
        age += 1
    if len(pairs) > MAX_PAIRS:
        pairs = Counter(dict(pairs.most_common(MAX_PAIRS)))
    return History(pairs, dict(recent))
