"""Walk a repository as git would see it: `.gitignore` rules (nested, negations,
`.git/info/exclude`), no `.git`, no symlinks (so no loops), nothing over the size cap.

Directories matched by an ignore rule are pruned, never entered.
"""

from __future__ import annotations

import os
import stat as stat_mod
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .boundary import read_regular, utf8

if TYPE_CHECKING:  # imported where rules are read: a parse worker unpickles WalkedFile, nothing more
    import pathspec

IGNORE_FILE_BYTES = 1 << 20  # a .gitignore is read up to this much
ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn", ".jj"})
DEFAULT_MAX_FILE_BYTES = 1 << 20
# Folders that hold someone else's code copied in: jq's vendor/decNumber, spdlog's
# fmt/bundled, pip's _vendor, redis's deps. Indexed (a question may be about them), but
# not what a project's own questions and changes are about (repo_graph/ranking/adjustments.py).
VENDORED_FOLDERS = frozenset(
    {
        "vendor",
        "vendors",
        "_vendor",
        "vendored",
        "third_party",
        "third-party",
        "thirdparty",
        "3rdparty",
        "3rd_party",
        "3rd-party",
        "bundled",
        "_bundled",
        "extern",
        "external",
        "deps",
    }
)


class WalkedFile(NamedTuple):
    """A tuple, built in C (`_walked`), and in the order of Files.file_stats' rows, so a
    refresh tells the unchanged files by set membership (the kernel: 55,000 a no-op)."""

    path: str  # repo-relative, "/"-separated
    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int = 0


_walked = partial(tuple.__new__, WalkedFile)


@dataclass
class WalkReport:
    """What the walk left out, so a summary can say so."""

    ignored: int = 0
    too_large: int = 0
    symlinks: int = 0
    unreadable: int = 0
    unreadable_dirs: list[str] = field(default_factory=list)  # named once on stderr by the caller
    not_utf8: list[str] = field(default_factory=list)  # names no id or URI can carry, as escaped text


def is_vendored(path: str) -> bool:
    """Whether a repository-relative path lies in a folder of copied-in code."""
    return not VENDORED_FOLDERS.isdisjoint(path.lower().split("/")[:-1])


def _ignored(rules: list[tuple[str, pathspec.GitIgnoreSpec]], rel: str, is_dir: bool) -> bool:
    """Deeper .gitignore files win over shallower ones; within a file, the last match."""
    for base, spec in reversed(rules):
        sub = rel[len(base) + 1 :] if base else rel
        result = spec.check_file(sub + "/" if is_dir else sub)
        if result.include is not None:
            return result.include
    return False


_UNREAD = object()


class IgnoreRules:
    """The ignore rules of one tree: `.git/info/exclude` and every `.gitignore`,
    read once per directory and cached until told a `.gitignore` changed."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._specs: dict[str, pathspec.GitIgnoreSpec | None] = {}
        self.skipped: dict[str, list[str]] = {}  # ignore file -> the lines git skips too ("!", a lone "\\")

    def _read(self, *parts: str) -> pathspec.GitIgnoreSpec | None:
        try:
            lines = (
                read_regular(os.path.join(self.root, *parts), IGNORE_FILE_BYTES).decode("utf-8", "replace").splitlines()
            )
        except OSError:
            return None
        import pathspec

        try:
            return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None
        except ValueError:  # pathspec's GitIgnorePatternError: one line no pattern can mean
            pass
        kept, bad = [], []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except ValueError:
                bad.append(line)
            else:
                kept.append(line)
        self.skipped["/".join(p for p in parts if p)] = bad  # git skips such a line and reads the rest: so do we
        return pathspec.GitIgnoreSpec.from_lines(kept) if kept else None

    def _cached(self, key: str, *parts: str) -> pathspec.GitIgnoreSpec | None:
        # One lookup, then the local value: another thread (the watcher, a query's
        # freshness check) may invalidate the cache between two. The path is joined
        # only when read: a query checks every directory above each file it sends.
        spec = self._specs.get(key, _UNREAD)
        if spec is _UNREAD:
            spec = self._specs[key] = self._read(*parts)
        return spec

    def spec(self, rel_dir: str) -> pathspec.GitIgnoreSpec | None:
        return self._cached(rel_dir, rel_dir, ".gitignore")

    def listed(self, rel_dir: str, has_gitignore: bool) -> pathspec.GitIgnoreSpec | None:
        """spec(), for a directory just listed: without a `.gitignore` among its entries
        there is nothing to open (the kernel's 4,000 directories, ~0.1 s of failed opens)."""
        if has_gitignore:
            return self.spec(rel_dir)
        self._specs[rel_dir] = None
        return None

    def base(self) -> list[tuple[str, pathspec.GitIgnoreSpec]]:
        spec = self._cached("\0exclude", ".git", "info", "exclude")
        return [("", spec)] if spec is not None else []

    def invalidate(self) -> None:
        self._specs.clear()
        self.skipped.clear()

    def chain(self, rel_dir: str) -> list[tuple[str, pathspec.GitIgnoreSpec]]:
        """The rules in force inside rel_dir, shallowest first."""
        rules = self.base()
        parts = rel_dir.split("/") if rel_dir else []
        for depth in range(len(parts) + 1):
            d = "/".join(parts[:depth])
            spec = self.spec(d)
            if spec is not None:
                rules.append((d, spec))
        return rules

    def ignored(self, rel: str, is_dir: bool = False) -> bool:
        """Whether `rel` is ignored itself or sits under an ignored directory."""
        parts = rel.split("/")
        if any(part in ALWAYS_SKIPPED for part in parts):
            return True
        rules = self.base()
        for depth in range(len(parts)):
            d = "/".join(parts[:depth])
            spec = self.spec(d)
            if spec is not None:
                rules.append((d, spec))
            last = depth == len(parts) - 1
            if _ignored(rules, "/".join(parts[: depth + 1]), is_dir if last else True):
                return True
        return False


def walk(
    root: Path,
    *,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    report: WalkReport | None = None,
    rules: IgnoreRules | None = None,
    under: str = "",
):
    """Yield every indexable regular file under `root` (or its subdirectory
    `under`), in a stable order."""
    report = report if report is not None else WalkReport()
    root = str(root)  # joined as strings: one Path per directory cost the kernel's walk ~0.25 s
    rules_of = rules or IgnoreRules(Path(root))
    if under and rules_of.ignored(under, is_dir=True):
        return
    parent = under.rpartition("/")[0] if under else ""
    stack: list[tuple[str, list]] = [(under, rules_of.chain(parent) if under else rules_of.base())]
    while stack:
        rel_dir, rules = stack.pop()
        try:
            entries = sorted(os.scandir(os.path.join(root, rel_dir) if rel_dir else root), key=lambda e: e.name)
        except OSError:
            report.unreadable += 1
            report.unreadable_dirs.append(rel_dir or ".")
            continue
        spec = rules_of.listed(rel_dir, any(e.name == ".gitignore" for e in entries))
        if spec is not None:
            rules = rules + [(rel_dir, spec)]
        subdirs = []
        for entry in entries:
            if entry.name in ALWAYS_SKIPPED:
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if not entry.name.isascii() and not utf8(entry.name):
                report.not_utf8.append(rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"))
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                report.unreadable += 1
                continue
            if stat_mod.S_ISLNK(st.st_mode):
                report.symlinks += 1
                continue
            is_dir = stat_mod.S_ISDIR(st.st_mode)
            if not is_dir and not stat_mod.S_ISREG(st.st_mode):
                continue
            if _ignored(rules, rel, is_dir):
                report.ignored += 1
                continue
            if is_dir:
                subdirs.append((rel, rules))
            elif st.st_size > max_file_bytes:
                report.too_large += 1
            else:
                yield _walked((rel, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns))
        stack.extend(reversed(subdirs))
