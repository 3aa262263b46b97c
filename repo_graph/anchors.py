"""Anchors as hosts send them, to node ids: `file://` URIs (with or without a
`#symbol` fragment), absolute and repo-relative paths, directories, and bare or
dotted symbol names (`RetryPolicy`, `config.load`, `Config::retry`)."""

from __future__ import annotations

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


def node_uri(root: Path, node_id: str) -> str:
    """file:///abs/path for a file node, file:///abs/path#Qual.name for a symbol or section."""
    path, _, fragment = node_id.partition("#")
    uri = file_uri(root, path)
    return f"{uri}#{quote(fragment, safe='.~_-:$!()*+,;=@/')}" if fragment else uri


def _relative(root: Path, path: str) -> str | None:
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(root).as_posix() if p.exists() else p.relative_to(root).as_posix()
        except ValueError:
            return None
    rel = Path(path.removeprefix("./")).as_posix()  # not lstrip: "./.github" keeps its dot
    return rel


def resolve(index, anchor: str) -> Resolved:
    root = index.root
    store = index.store
    text = anchor.strip()
    fragment = ""
    if text.startswith("file:"):
        parts = urlsplit(text)
        path_part, fragment = unquote(parts.path), unquote(parts.fragment)
    else:
        path_part, _, fragment = text.partition("#")
    rel = _relative(root, path_part) if path_part else None
    if rel is not None and rel in ("", "."):
        rel = "."  # the repository root: what its README documents
    if rel is not None:
        if fragment:
            node_id = f"{rel}#{fragment}"
            if store.node(node_id) is not None:
                return Resolved(anchor, (node_id,))
        if store.node(rel) is not None:
            return Resolved(anchor, (rel,) + ((f"{rel}#{fragment}",) if fragment else ()))
        full = root / rel
        if full.is_dir():
            rel = rel.rstrip("/")
            # The directory itself (what a README documents), then its files.
            files = [] if rel == "." else [n for n, _, _ in store.all_files_under(rel + "/", MAX_DIRECTORY_FILES)]
            return Resolved(anchor, (rel, *files))
        if full.is_file() and index.ensure_fresh(rel):
            return Resolved(anchor, (rel,))
    if not text.startswith("file:") and "/" not in text:
        return Resolved(anchor, tuple(n.id for n in store.find_by_name(dotted(text).strip("."))))  # PHP's leading `\`
    return Resolved(anchor, ())
