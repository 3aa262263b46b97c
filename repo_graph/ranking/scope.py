"""The place a change names before its colon: `printer: ...`, `fix(binding): ...`,
`net: ipv4: ...`, `ignore/walk: ...`. Projects that write their commits and issues
this way name a directory, crate or file there, which says where the change lives
better than any word after it (ripgrep, hono, gin, axum, the kernel)."""

from __future__ import annotations

import re

from .weights import DEFAULT

# `type(scope)!: ` (Conventional Commits) or `scope: `, repeated for nested scopes;
# a scope holds no spaces but after a comma ("net, ipv4: ").
_TYPED = re.compile(r"\s*[A-Za-z]+\(([^()\n]{1,60})\)!?:\s+")
_PLAIN = re.compile(r"\s*([\w.\-/*]{1,60}(?:,\s*[\w.\-/*]{1,60})*)!?:\s+")
# Words before a colon that say what was done, not where: the kinds of change of
# Conventional Commits and its neighbours, and the labels of pasted compiler and
# runtime output ("error: cannot find value", "panic: runtime error").
NOT_PLACES = frozenset(
    {
        "fix",
        "fixes",
        "bugfix",
        "feat",
        "feature",
        "chore",
        "refactor",
        "refac",
        "perf",
        "style",
        "revert",
        "build",
        "ci",
        "wip",
        "release",
        "breaking",
        "security",
        "deps",
        "dep",
        "typo",
        "cleanup",
        "misc",
        "error",
        "warning",
        "note",
        "help",
        "hint",
        "panic",
        "fatal",
        "todo",
        "fixme",
        "bug",
        "issue",
        "question",
    }
)


def scope_parts(text: str, max_scopes: int = DEFAULT.max_scopes) -> list[str]:
    """The names the leading scopes hold, lowercased: `ignore/walk: x` -> [ignore, walk]."""
    parts: list[str] = []
    at = 0
    for _ in range(max_scopes):
        found = _TYPED.match(text, at) or _PLAIN.match(text, at)
        if not found:
            break
        for part in re.split(r"[/,\s]+", found.group(1).lower()):
            part = part.strip(".*")
            if part and part not in NOT_PLACES and not part.isdigit():
                parts.append(part)
        at = found.end()
    return list(dict.fromkeys(parts))


def scoped_files(reads, text: str, max_files: int, max_scopes: int = DEFAULT.max_scopes) -> dict[str, float]:
    """Files the scope names, by a directory on their path or their own name: path ->
    the share of the scope's telling names the path holds. A name that holds no file,
    or more than `max_files` (`src`, the kernel's `net`), tells nothing. `reads`:
    anything with `paths_named` (reads.IndexReads, the store)."""
    parts = scope_parts(text, max_scopes)
    if not parts:
        return {}
    held: dict[str, int] = {}
    telling = 0
    for part in parts:
        paths = reads.paths_named(part, max_files + 1)
        if not paths or len(paths) > max_files:
            continue
        telling += 1
        for path in paths:
            held[path] = held.get(path, 0) + 1
    return {path: n / telling for path, n in held.items()}
