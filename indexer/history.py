"""Which files change together, from the repository's own git history.

Files that were committed together before tend to be changed together again: the
strongest hint of what else a change to the open file will touch that neither
imports nor names show. Read with the local `git` (never the network), only what
HEAD can reach, so a checkout of an old commit knows nothing of later ones.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from itertools import combinations
from pathlib import Path

HISTORY_COMMITS = 3000  # the most recent commits read
MAX_FILES_PER_COMMIT = 30  # a sweeping commit (a rename, a reformat) says nothing about pairs
MAX_PAIRS = 400_000  # past this, pairs seen once are dropped: the store keeps what repeats
GIT_SECONDS = 60


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


def co_changes(root: Path, commits: int = HISTORY_COMMITS) -> Counter:
    """(a, b) with a < b -> how many of the recent commits changed both; paths
    relative to `root` (which may sit inside a larger repository)."""
    out = _git(root, "log", "--no-merges", "--no-renames", "--relative", "--name-only", "--format=%x00",
               "-n", str(commits), "HEAD", "--", ".")
    pairs: Counter = Counter()
    if not out:
        return pairs
    for commit in out.split("\0"):
        files = sorted({line for line in commit.splitlines() if line})
        if 2 <= len(files) <= MAX_FILES_PER_COMMIT:
            pairs.update(combinations(files, 2))
    if len(pairs) > MAX_PAIRS:
        pairs = Counter(dict(pairs.most_common(MAX_PAIRS)))
    return pairs
