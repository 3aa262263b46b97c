"""One file's bytes to the rows it contributes: nodes (their parents are the
structural edges), postings, names.

A pure function of (path, bytes), so it can run in a worker process; it reads
nothing else and writes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from grammars import LanguageSpec, Registry

from . import postings as postings_mod
from . import sections as sections_mod
from . import uses as uses_mod
from .digest import line_span, line_starts, sha256
from .extract import Extractor
from .store import NodeRow, node_row
from .terms import terms, weighted_counts

# BM25F field weights: a hit in a name says more than a hit in a body.
W_NAME = 3.0
W_DOC = 1.5
W_SIGNATURE = 1.5
W_PATH = 1.0
W_BODY = 1.0

BINARY_SNIFF = 8192


@dataclass
class FileRecord:
    path: str
    digest: str
    language: str | None
    status: str  # ok | binary | unsupported | generated
    nodes: list[NodeRow] = field(default_factory=list)
    postings: dict[str, bytes] = field(default_factory=dict)  # term -> packed (indexer/postings.py)
    uses: bytes = b""  # its uses of names, packed (indexer/uses.py)
    used: list[str] = field(default_factory=list)  # the names it uses, each once
    imports: list[tuple[str, int, str]] = field(default_factory=list)  # (target, line, names)
    warnings: list[str] = field(default_factory=list)

    def __getstate__(self):
        # From a parsing process to the writer: nodes as plain tuples, which pickle
        # and unpickle in C (a NodeRow unpickles through Python, ~3x the cost).
        return {**self.__dict__, "nodes": [tuple(n) for n in self.nodes]}

    def __setstate__(self, state):
        self.__dict__.update(state, nodes=list(map(node_row, state["nodes"])))


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:BINARY_SNIFF]


# Build output (esbuild, tsc, webpack) names its source map on its last line, and a
# bundler's output opens with its module runtime; in these languages such a file is a
# copy of code whose source lives elsewhere, most often in the same repository
# (phoenix's priv/static/phoenix.js and .mjs of assets/js/phoenix/).
SOURCE_MAPPED = frozenset({".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})
GENERATED_RULES = "2"  # in the extraction digest of those languages: an index re-reads their files
_SOURCE_MAP_LINE = re.compile(rb"(?://|/\*)#\s*sourceMappingURL=\S+\s*(?:\*/)?\s*\Z")
_BUNDLER_RUNTIME = re.compile(rb"webpackBootstrap|__webpack_require__|var __defProp = Object\.defineProperty")


def looks_generated(data: bytes, rel: str = "") -> bool:
    """Minified bundles and the like (huge lines, few of them), and build output that
    names its source map or carries a bundler's runtime."""
    if PurePosixPath(rel).suffix in SOURCE_MAPPED and (
            _SOURCE_MAP_LINE.search(data[-400:]) or _BUNDLER_RUNTIME.search(data[:2000])):
        return True
    if len(data) < 20_000:
        return False
    lines = data.count(b"\n") + 1
    return len(data) / lines > 500


def module_name(rel: str) -> str:
    """`pkg/sub/mod.py` -> `pkg.sub.mod`; `pkg/__init__.py` -> `pkg`."""
    parts = list(PurePosixPath(rel).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _lines_text(data: bytes, starts: list[int], first: int, last: int) -> str:
    return line_span(data, starts, first, last).decode("utf-8", "replace")


def _node(node_id, path, kind, sym_kind, name, title, first, last, span: bytes, parent, signature, doc, length,
          head_end=None):
    digest = sha256(span)
    try:
        span.decode("utf-8")
    except UnicodeDecodeError:
        content = span.decode("utf-8", "replace").encode("utf-8")
        size, content_digest = len(content), sha256(content)
    else:
        size, content_digest = len(span), digest  # valid UTF-8: the content is these very bytes
    return NodeRow(
        id=node_id,
        path=path,
        kind=kind,
        sym_kind=sym_kind,
        name=name,
        title=title,
        start_line=first,
        end_line=last,
        digest=digest,
        content_digest=content_digest,
        parent=parent,
        signature=signature,
        doc=doc,
        length=length,
        bytes=size,
        head_end=head_end,
    )


def parse(rel: str, data: bytes, registry: Registry, extractor: Extractor, digest: str | None = None) -> FileRecord:
    """`digest`: sha256(data), when the caller has it already."""
    digest = digest or sha256(data)
    if is_binary(data):
        return FileRecord(rel, digest, None, "binary")
    doc_format = sections_mod.doc_format(rel)
    spec = None if doc_format else registry.for_path(rel, data[:200].split(b"\n", 1)[0])
    if doc_format is None and spec is None:
        return FileRecord(rel, digest, None, "unsupported")
    if looks_generated(data, rel):
        return FileRecord(rel, digest, doc_format or spec.name, "generated")
    record = FileRecord(rel, digest, doc_format or spec.name, "ok")
    starts = line_starts(data)
    path_text = " ".join(PurePosixPath(rel).with_suffix("").parts)
    record.nodes.append(
        NodeRow(rel, rel, "file", None, PurePosixPath(rel).name, rel, 1, len(starts) if data else 0,
                digest, None, None, "", "", 0.0, len(data))
    )
    scored: list[tuple[int, dict[str, float]]] = []  # (index into nodes, weighted tf)
    refs: list[tuple[str, str, str]] = []  # (user id, name, kind)
    if doc_format:
        _add_sections(record, data, starts, path_text, scored, refs)
    else:
        _add_symbols(record, spec, data, starts, path_text, extractor, scored, refs)
    _check_unique(record)
    record.uses, record.used = uses_mod.pack(rel, refs)
    record.postings = postings_mod.pack((i, tf, record.nodes[i].length) for i, tf in scored)
    return record


def _check_unique(record: FileRecord) -> None:
    """Node ids are the store's key: a clash would fail the whole batch. Extraction
    already makes them unique; this says so loudly if it ever does not."""
    seen: set[str] = set()
    for node in record.nodes:
        if node.id in seen:
            raise ValueError(f"{record.path}: two nodes share the id {node.id!r}")
        seen.add(node.id)


def _own_bytes(data, starts, first, last, children: list[tuple[int, int]]) -> bytes:
    """The node's lines minus those of its children (they are frames of their own),
    as bytes: term counting reads them undecoded."""
    pieces = []
    line = first
    for c_first, c_last in sorted(children):
        if c_first > line:
            pieces.append(line_span(data, starts, line, c_first - 1))
        line = max(line, c_last + 1)
    if line <= last:
        pieces.append(line_span(data, starts, line, last))
    return b"".join(pieces)


def _add_symbols(record: FileRecord, spec: LanguageSpec, data, starts, path_text, extractor, scored, refs):
    extraction = extractor.extract(spec, data)
    if extraction is None:
        record.status = "unsupported"
        record.nodes.clear()
        return
    record.warnings += extraction.warnings
    rel = record.path
    prefix = module_name(rel) if spec.qualify_with_module else ""
    children: dict[int, list[tuple[int, int]]] = {}
    for sym in extraction.symbols:
        if sym.parent is not None:
            children.setdefault(sym.parent, []).append((sym.start_line, sym.end_line))
    ids = []
    for i, sym in enumerate(extraction.symbols):
        node_id = f"{rel}#{sym.qualname}"
        ids.append(node_id)
        parent_id = ids[sym.parent] if sym.parent is not None else rel
        span = line_span(data, starts, sym.start_line, sym.end_line)
        body = _own_bytes(data, starts, sym.start_line, sym.end_line, children.get(i, []))
        tf, length = weighted_counts(
            ((W_BODY, body), (W_NAME, sym.name), (W_PATH, path_text), (W_DOC, sym.doc), (W_SIGNATURE, sym.signature))
        )
        title = f"{prefix}.{sym.qualname}" if prefix else sym.qualname
        node = _node(node_id, rel, "symbol", sym.kind, sym.name, title, sym.start_line, sym.end_line, span,
                     parent_id, sym.signature, sym.doc, length, _head(sym, children.get(i, [])))
        record.nodes.append(node)
        scored.append((len(record.nodes) - 1, tf))
    module_id = _add_module(record, spec, extraction, data, starts, path_text, prefix, scored)
    for ref in extraction.references:
        src = ids[ref.scope] if ref.scope is not None else (module_id or rel)
        refs.append((src, ref.name, ref.kind))
    record.imports += [(imp.path, imp.line, " ".join(imp.names)) for imp in extraction.imports]


MAX_HEAD_LINES = 40


def _head(sym, children: list[tuple[int, int]]) -> int:
    """A container's head runs to its first member; a function's is its signature and docstring."""
    if children:
        end = min(c[0] for c in children) - 1
    else:
        end = sym.head_end or sym.start_line
    return max(sym.start_line, min(end, sym.start_line + MAX_HEAD_LINES - 1, sym.end_line))


MODULE_FRAGMENT = "__module__"


def speaks_for_file(node: NodeRow, file_has_module: bool) -> bool:
    """A file is no frame of its own: its module node (header, imports) speaks for
    it, and in a file without one each top-level symbol does; the file's own edges
    (its imports, who imports it, docs naming it) are that frame's relations too."""
    return node.sym_kind == "module" or (node.kind == "symbol" and node.parent == node.path and not file_has_module)


def _add_module(record, spec, extraction, data, starts, path_text, prefix, scored) -> str | None:
    """The file's header (module doc, imports, top-level statements before the first
    definition) as a `module` symbol, so a file's imports have a frame to hang on."""
    first_def = min((s.start_line for s in extraction.symbols if s.parent is None), default=len(starts) + 1)
    last = first_def - 1
    while last >= 1 and not line_span(data, starts, last, last).strip():
        last -= 1
    if last < 1:
        return None
    rel = record.path
    node_id = f"{rel}#{MODULE_FRAGMENT}"
    span = line_span(data, starts, 1, last)
    name = prefix or rel
    tf, length = weighted_counts(((W_BODY, span), (W_NAME, PurePosixPath(rel).stem),
                                   (W_PATH, path_text), (W_DOC, extraction.module_doc)))
    signature = span.split(b"\n", 1)[0].decode("utf-8", "replace")[:240]
    record.nodes.append(_node(node_id, rel, "symbol", "module", PurePosixPath(rel).stem, f"module {name}", 1, last,
                              span, rel, signature, extraction.module_doc, length))
    scored.append((len(record.nodes) - 1, tf))
    return node_id


def _add_sections(record: FileRecord, data, starts, path_text, scored, refs):
    rel = record.path
    found = sections_mod.split_sections(data, rel)
    ids = []
    for sec in found:
        node_id = f"{rel}#{sec.slug}"
        ids.append(node_id)
        parent_id = ids[sec.parent] if sec.parent is not None else rel
        span = line_span(data, starts, sec.start_line, sec.end_line)
        own = _lines_text(data, starts, sec.start_line, sec.own_end_line)
        heading_path = " ".join(found[p].title for p in _ancestors(found, sec))
        tf, length = weighted_counts(((W_BODY, own), (W_NAME, sec.title), (W_DOC, heading_path), (W_PATH, path_text)))
        for name in _named_in(sec.title, own):
            refs.append((node_id, name, "doc"))
        node = _node(node_id, rel, "section", "section", sec.title, sec.title, sec.start_line, sec.end_line, span,
                     parent_id, "", "", length)
        record.nodes.append(node)
        scored.append((len(record.nodes) - 1, tf))


_CODE_SPAN = re.compile(r"`([^`\n]{2,120})`")
_LINK = re.compile(r"\]\(([^)\s#]+)")
_IDENTIFIER = re.compile(r"^[A-Za-z_][\w.:/-]*$")
# reStructuredText names code in roles, :meth:`~flask.Flask.route` or :func:`url <flask.url_for>`
# (their text is a code span with a role before it). Not autodoc's directives (`.. autoclass::
# flask.Flask`): an API page that renders docstrings says nothing the code's own frames do not,
# and linked to every class it made every anchor's neighbour (flask anchored R@5 0.776 -> 0.545).
_ROLE_TARGET = re.compile(r"<([^<>]+)>$")


def _code_name(span: str) -> str:
    target = _ROLE_TARGET.search(span)
    return (target.group(1) if target else span).strip().lstrip("~!").rstrip("()")


def _named_in(title: str, text: str) -> list[str]:
    """What a doc section names: code spans (reStructuredText's roles among them),
    link targets, an identifier heading."""
    found = [_code_name(m.group(1)) for m in _CODE_SPAN.finditer(text)]
    if _IDENTIFIER.match(title.strip("` ")) and len(title) > 2:
        found.append(title.strip("` "))
    found = [f for f in found if _IDENTIFIER.match(f)]
    found += [m.group(1) for m in _LINK.finditer(text) if "://" not in m.group(1)]  # relative paths
    return list(dict.fromkeys(found))


def _ancestors(found, sec):
    out = []
    p = sec.parent
    while p is not None:
        out.append(p)
        p = found[p].parent
    return reversed(out)


__all__ = ["FileRecord", "parse", "terms", "module_name", "speaks_for_file", "MODULE_FRAGMENT"]
