"""A graph node to a Frame: content read from disk now, honest digests and costs,
citation label, provenance down to the line range, relations as anchors."""

from __future__ import annotations

from pathlib import PurePosixPath

from indexer.digest import sha256
from indexer.parse import MODULE_FRAGMENT, speaks_for_file
from indexer.sections import doc_format
from indexer.store import NodeRow

from .anchors import file_uri, node_uri
from .packing import token_cost
from .protocol import messages as m
from .tokenizer import TOKENIZER_REF, Tokenizer

PROVIDER_NAME = "repo-graph"
MAX_RELATIONS = 24
IN_EDGES_READ = 4 * MAX_RELATIONS  # links into a node read before only an anchor's can matter [in-edges-read]

HEADER_METHOD = "tree-sitter-symbol-header"
HEADER_SUFFIX = "@header"  # frame id of a symbol's header frame: `path#Qual.name@header`
MAX_HEADER_MEMBERS = 80
MAX_MEMBERS = 200  # whose calls a whole symbol's frame carries

# How each stored edge reads from either end: outgoing edges keep the shared
# vocabulary; incoming ones get our own namespaced inverse.
_OUTGOING = {
    "repo-graph:contains": m.REL_CONTAINS,
    "code.calls": m.REL_CALLS,
    "code.references": m.REL_REFERENCES,
    "code.imports": m.REL_IMPORTS,
    "doc.documents": m.REL_DOCUMENTS,
}
_INCOMING = {
    "code.defines": m.REL_DEFINED_IN,
    "repo-graph:contains": m.REL_MEMBER_OF,
    "code.calls": m.REL_CALLED_BY,
    "code.references": m.REL_REFERENCED_BY,
    "code.imports": m.REL_IMPORTED_BY,
    "doc.documents": m.REL_DOCUMENTED_BY,
}


def _method(node: NodeRow) -> str:
    """How the frame was cut out: `markdown-section`, `restructuredtext-section`, or by tree-sitter."""
    return f"{doc_format(node.path)}-section" if node.kind == "section" else "tree-sitter-symbol-extraction"


def frame_kind(node: NodeRow) -> str:
    return "doc" if node.kind == "section" else "symbol"


def citation_label(node: NodeRow) -> str:
    """F3: human, like `config.rs L42-44`."""
    name = PurePosixPath(node.path).name
    lines = f"L{node.start_line}" if node.start_line == node.end_line else f"L{node.start_line}-{node.end_line}"
    return f"{name} {lines}"


def display_name(path: str, fragment: str) -> str:
    if path == ".":
        return "(repository root)"
    return f"{fragment} ({path})" if fragment else path


def _fragment(node: NodeRow) -> str:
    return node.id[len(node.path) + 1 :] if node.id != node.path else ""


def relations(index, node: NodeRow, prefer: frozenset[str], whole: bool = True) -> tuple[m.Relation, ...]:
    """Every edge at this node, as the frame sees it; edges to an anchor are never cut.
    `whole`: the frame shows the node's whole span, members' bodies included."""
    found: list[tuple[str, str]] = []
    # A module frame speaks for its file: the file's imports are its relations. In a
    # file with no header (no module frame), its top-level symbols speak for it.
    top_level = node.kind == "symbol" and node.parent == node.path  # only they need to know
    has_module = top_level and f"{node.path}#{MODULE_FRAGMENT}" in index.graph
    ends = (node.id, node.path) if speaks_for_file(node, has_module) else (node.id,)
    for end in ends:
        for rel, target in _in_edges(index, end, node.id, prefer):
            if rel in _INCOMING and target != node.id and not (end == node.path and rel == "code.defines"):
                found.append((_INCOMING[rel], target))
        for rel, target in index.graph.out_edges(end):
            if rel in _OUTGOING and (end == node.id or rel == "code.imports"):
                found.append((_OUTGOING[rel], target))
    # A frame's relations cover the code in its content: a class sent whole calls
    # what its methods call (the anchored file they call is one hop from it, G4).
    inner = _members(index, node) if whole else []
    found += [
        (_OUTGOING[rel], target)
        for rel, target in index.graph.out_edges_of(inner)
        if rel in _OUTGOING and rel != "repo-graph:contains" and target != node.id and target not in inner
    ]
    found = list(dict.fromkeys(found))
    found.sort(key=lambda rt: (rt[1] not in prefer, rt[0] != m.REL_DEFINED_IN))
    named = [(rel, index.split_id(target)) for rel, target in found[:MAX_RELATIONS]]
    return tuple(m.Relation(rel, node_uri(index.root, *where), display_name(*where)) for rel, where in named)


def _in_edges(index, end: str, node_id: str, prefer: frozenset[str]) -> list[tuple[str, str]]:
    """The edges into `end` that can reach a frame's relations, in in_edges' order.
    Relations keep the first MAX_RELATIONS after a stable sort that puts the edges
    from a preferred node (an anchor) first, then `defined in` (a structural edge,
    never a link): so once the first links read give MAX_RELATIONS distinct others,
    a later link can only matter if it comes from an anchor. A function the kernel
    calls from 100,000 places costs IN_EDGES_READ links, not all of them [in-edges-read]."""
    rows, last = index.graph.in_edges_upto(end, IN_EDGES_READ)
    if last is None:
        return rows
    skip = prefer | {node_id}  # an anchor's edge sorts first; an edge from the node itself is never shown
    others = {(rel, src) for rel, src in rows if rel in _INCOMING and rel != "code.defines" and src not in skip}
    if len(others) < MAX_RELATIONS:  # mostly repeats: read them all, as before
        return index.graph.in_edges(end)
    return rows + (index.graph.in_links_from(end, prefer, last) if prefer else [])


def _members(index, node: NodeRow) -> list[str]:
    """The symbols inside a symbol's span (methods, nested classes), to MAX_MEMBERS."""
    if node.kind != "symbol" or node.start_line == node.end_line:
        return []
    found: list[str] = []
    level = [node.id]
    while level and len(found) < MAX_MEMBERS:
        level = [c.id for parent in level for c in index.store.children(parent)][: MAX_MEMBERS - len(found)]
        found += level
    return found


def header_spans(index, node: NodeRow) -> list[tuple[int, int]]:
    """The lines a header frame shows: the head (signature, docstring, and for a
    container what precedes its first member), then each member's head."""
    if node.kind != "symbol" or not node.head_end or node.head_end >= node.end_line:
        return []
    spans = [(node.start_line, node.head_end)]
    for child in index.store.children(node.id)[:MAX_HEADER_MEMBERS]:
        first, last = child.start_line, max(child.start_line, min(child.head_end or child.start_line, child.end_line))
        if first > spans[-1][1]:
            spans.append((first, last))
    return spans


def header_content(index, node: NodeRow) -> tuple[str, list[tuple[int, int, bytes]]] | None:
    """(content, [(first, last, bytes)]) of the header, read from disk now."""
    spans = header_spans(index, node)
    if not spans:
        return None
    pieces = index.read_spans(node.path, spans)
    if pieces is None:
        return None
    parts = [(a, b, data) for (a, b), data in zip(spans, pieces)]
    return b"".join(p[2] for p in parts).decode("utf-8", "replace"), parts


def build_header(
    index, node: NodeRow, score: float, tokenizer: Tokenizer, prefer: frozenset[str], recorded_at, valid_from
):
    """A large symbol's header: its exact head lines and its members' heads, each span
    with its own provenance entry, so a host can re-hash every byte it is shown."""
    found = header_content(index, node)
    if found is None:
        return None
    content, parts = found
    content_digest = sha256(content.encode("utf-8"))
    uri = file_uri(index.root, node.path)
    return m.Frame(
        id=node.id + HEADER_SUFFIX,
        kind=frame_kind(node),
        title=f"{node.title or node.name} (header)",
        content=content,
        content_digest=content_digest,
        uri=node_uri(index.root, node.path, _fragment(node)),
        score=score,
        token_cost=token_cost(content),
        canonical_token_cost=tokenizer.count(content, content_digest),
        tokenizer_ref=TOKENIZER_REF,
        valid_from=valid_from,
        recorded_at=recorded_at,
        provenance=tuple(
            m.Provenance(uri=uri, range=f"L{a}-{b}", digest=sha256(data), method=HEADER_METHOD, by=PROVIDER_NAME)
            for a, b, data in parts
        ),
        citation_label=f"{citation_label(node)} (header)",
        relations=relations(index, node, prefer, whole=False),
    )


def body(index, node: NodeRow) -> tuple[bytes, str, str] | None:
    """(the bytes of `node`'s lines on disk now, their text, the text's digest), or
    None if they are gone."""
    span = index.read_lines(node)
    if span is None:
        return None
    content = span.decode("utf-8", "replace")
    return span, content, sha256(content.encode("utf-8"))  # D1


def build(index, node: NodeRow, score: float, tokenizer: Tokenizer, prefer: frozenset[str], recorded_at, valid_from):
    """The frame for `node` from the bytes on disk now, or None if they are gone."""
    read = body(index, node)
    if read is None:
        return None
    span, content, content_digest = read
    uri = file_uri(index.root, node.path)
    return m.Frame(
        id=node.id,
        kind=frame_kind(node),
        title=node.title or node.name or node.id,  # F2
        content=content,
        content_digest=content_digest,
        uri=node_uri(index.root, node.path, _fragment(node)),
        score=score,
        token_cost=token_cost(content),  # B3
        canonical_token_cost=tokenizer.count(content, content_digest),
        tokenizer_ref=TOKENIZER_REF,
        valid_from=valid_from,
        recorded_at=recorded_at,
        provenance=(
            m.Provenance(
                uri=uri,
                range=f"L{node.start_line}-{node.end_line}",
                digest=sha256(span),  # F5: the exact bytes on disk
                method=_method(node),
                by=PROVIDER_NAME,
            ),
        ),
        citation_label=citation_label(node),
        relations=relations(index, node, prefer),
    )
