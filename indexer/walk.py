"""Walk a repository as git would see it: `.gitignore` rules (nested, negations,
`.git/info/exclude`), no `.git`, no symlinks (so no loops), nothing over the size cap.

Directories matched by an ignore rule are pruned, never entered.
"""

from __future__ import annotations

import os
import stat as stat_mod
from dataclasses import dataclass
from pathlib import Path

import pathspec

ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn", ".jj"})
DEFAULT_MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class WalkedFile:
    path: str  # repo-relative, "/"-separated
    size: int
    mtime_ns: int
    inode: int


@dataclass
class WalkReport:
    """What the walk left out, so a summary can say so."""

    ignored: int = 0
    too_large: int = 0
    symlinks: int = 0
    unreadable: int = 0


def _spec_for(directory: Path) -> pathspec.GitIgnoreSpec | None:
    lines: list[str] = []
    for name in (".gitignore",):
        try:
            lines += (directory / name).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            pass
    return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None


def _ignored(rules: list[tuple[str, pathspec.GitIgnoreSpec]], rel: str, is_dir: bool) -> bool:
    """Deeper .gitignore files win over shallower ones; within a file, the last match."""
    for base, spec in reversed(rules):
        sub = rel[len(base) + 1 :] if base else rel
        result = spec.check_file(sub + "/" if is_dir else sub)
        if result.include is not None:
            return result.include
    return False


def walk(root: Path, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, report: WalkReport | None = None):
    """Yield every indexable regular file under `root`, in a stable order."""
    report = report if report is not None else WalkReport()
    root = Path(root)
    base_rules: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    try:
        exclude = (root / ".git" / "info" / "exclude").read_text(encoding="utf-8", errors="replace")
        base_rules.append(("", pathspec.GitIgnoreSpec.from_lines(exclude.splitlines())))
    except OSError:
        pass
    stack: list[tuple[str, list]] = [("", base_rules)]
    while stack:
        rel_dir, rules = stack.pop()
        directory = root / rel_dir if rel_dir else root
        spec = _spec_for(directory)
        if spec is not None:
            rules = rules + [(rel_dir, spec)]
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            report.unreadable += 1
            continue
        subdirs = []
        for entry in entries:
            if entry.name in ALWAYS_SKIPPED:
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
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
                yield WalkedFile(rel, st.st_size, st.st_mtime_ns, st.st_ino)
        stack.extend(reversed(subdirs))


def is_ignored(root: Path, rel: str) -> bool:
    """Whether one path is ignored, checking each ancestor directory's rules."""
    parts = rel.split("/")
    rules: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    try:
        exclude = (Path(root) / ".git" / "info" / "exclude").read_text(encoding="utf-8", errors="replace")
        rules.append(("", pathspec.GitIgnoreSpec.from_lines(exclude.splitlines())))
    except OSError:
        pass
    if any(part in ALWAYS_SKIPPED for part in parts):
        return True
    for depth in range(len(parts)):
        rel_dir = "/".join(parts[:depth])
        spec = _spec_for(Path(root) / rel_dir if rel_dir else Path(root))
        if spec is not None:
            rules.append((rel_dir, spec))
        sub = "/".join(parts[: depth + 1])
        if _ignored(rules, sub, is_dir=depth < len(parts) - 1):
            return True
    return False
