"""Anchors as hosts send them, to node ids: `file://` URIs (with or without a
`#symbol` fragment), absolute and repo-relative paths, directories, and bare or
dotted symbol names (`RetryPolicy`, `config.load`, `Config::retry`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from indexer.names import dotted

MAX_DIRECTORY_FILES = 200


@dataclass(frozen=True)
class Resolved:
    text: str  # the anchor as sent
    node_ids: tuple[str, ...]


@lru_cache(maxsize=1 << 14)  # every relation of every frame names one; pathlib takes ~50 us each
def file_uri(root: Path, path: str) -> str:
    return (root / path).as_uri()


def node_uri(root: Path, path: str, fragment: str = "") -> str:
    """file:///abs/path for a file node, file:///abs/path#Qual.name for a symbol or
    section. The path is percent-encoded (a `#` in a file name is %23), so the
    fragment is always the node's own."""
    uri = file_uri(root, path)
    return f"{uri}#{quote(fragment, safe='.~_-:$!()*+,;=@/')}" if fragment else uri


def _parts(index, text: str) -> tuple[str, str]:
    """(path, fragment) of an anchor as sent: a `file:` URI or a plain path or id."""
    if text.startswith("file:"):
        parts = urlsplit(text)
        return unquote(parts.path), unquote(parts.fragment)
    return _split_plain(index.root, text)


def path_of(index, anchor: str) -> str | None:
    """The repository path an anchor names (a file or directory), if it names one."""
    path_part, _ = _parts(index, anchor.strip())
    rel = index.admit(path_part) if path_part else None
    return rel or None


def resolve(index, anchor: str) -> Resolved:
    """Node ids for an anchor. A path goes through `index.admit` first: followed
    through symlinks, it must land inside the repository and outside its ignored
    files, or it names nothing (and nothing of it is read)."""
    store = index.store
    text = anchor.strip()
    path_part, fragment = _parts(index, text)
    rel = index.admit(path_part) if path_part else None
    if rel is not None:
        rel = rel or "."  # the repository root: what its README documents
        if fragment:
            node_id = f"{rel}#{fragment}"
            if store.node(node_id) is not None:
                return Resolved(anchor, (node_id,))
        if store.node(rel) is not None:
            return Resolved(anchor, (rel,) + ((f"{rel}#{fragment}",) if fragment else ()))
        full = os.path.join(index.root, rel)
        if os.path.isdir(full):
            # The directory itself (what a README documents), then its files.
            files = [] if rel == "." else [n for n, _, _ in store.all_files_under(rel + "/", MAX_DIRECTORY_FILES)]
            return Resolved(anchor, (rel, *files))
        if os.path.isfile(full) and index.ensure_fresh(rel):  # not indexed yet (a first index under way)
            if fragment and store.node(f"{rel}#{fragment}") is not None:
                return Resolved(anchor, (f"{rel}#{fragment}",))
            return Resolved(anchor, (rel,))
    name = dotted(text).strip(".")  # PHP's leading `\`
    if name and not text.startswith("file:") and "/" not in text:
        return Resolved(anchor, tuple(n.id for n in store.find_by_name(name)))
    return Resolved(anchor, ())


def _split_plain(root: Path, text: str) -> tuple[str, str]:
    """(path, fragment) of a path or id as sent (`src/a.py#Config.load`): a file name
    may hold `#` (`h#a.py#f`), so the longest part before a `#` that exists wins."""
    cuts = [i for i, c in enumerate(text) if c == "#"]
    for cut in [len(text), *reversed(cuts)] if cuts else ():
        if os.path.lexists(os.path.join(root, text[:cut])):
            return text[:cut], text[cut + 1 :]
    path, _, fragment = text.partition("#")
    return path, fragment
