"""Symbols, references and imports out of one file's bytes, driven by the
language's `tags.scm` / `imports.scm` (tree-sitter capture conventions:
`@definition.<kind>` + `@name`, `@reference.<kind>` + `@name`, `@import.path`; and
ours: `@receiver` for a method declared outside its type, `@callee` for a block a
call opens, such as a test's `describe("title", ...)`, `@import.parts` for an import
whose path is written in parts, its `path:` children, joined with dots: Scala's;
`@body` for a body that is not inside its definition's node but follows it: Dart's;
`@qualifier` for the receiver of a call, `Gson` in `Gson.toJson(x)`: when it is spelled
as a class, the call is named `Gson.toJson`, else `toJson`).

Nesting, qualified names and doc comments are worked out here the same way for
every language, so a language folder holds only data.
"""

from __future__ import annotations

import inspect
import re
import sys
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache

from grammars import GrammarUnavailable, LanguageSpec

PARTIAL_WARNING = "syntax errors"
# How this module turns matches into symbols: change it with the code, and files indexed
# under other rules are parsed again (with any change to a language's queries; index.py).
# 2: a definition's own name is no call; Elixir's @doc, Haddock's `-- |`; @import.parts.
# (@qualifier changed no output of a query without it: it came with the queries that
# use it, whose change re-parses their languages' files.)
# 3: a file without a last newline is parsed with one (LanguageSpec.parsed_text); one
# that `#if`s break is parsed again without them (`_without_conditionals`); a name
# matched with its receiver and without is one reference.
EXTRACT_RULES = "3"
# A receiver spelled as a class: `Config`, `models.User`, `http::StatusCode`, `\App\Foo`
# (by its last name); not `self`, `LOGGER`, `Self`, `Vec::<u8>`, a call or a string.
# Decided here, not by a query predicate: a predicate reads the receiver's text as UTF-8
# and fails the whole file's query on a string that is not.
CLASS_LIKE = re.compile(r"(?:^|\.|::|\\)([A-Z][a-z][A-Za-z0-9_]*)$")
MAX_QUALIFIER = 120  # bytes: a longer receiver is an expression, not a class's name
CONTAINER_KINDS = frozenset({"class", "struct", "interface", "enum", "impl", "module", "trait"})
MAX_SIGNATURE = 240
MAX_DOC = 2000


@dataclass(slots=True)
class Symbol:
    name: str
    qualname: str
    kind: str
    start_line: int
    end_line: int
    signature: str
    doc: str
    parent: int | None  # index into Extraction.symbols
    start_byte: int = 0
    end_byte: int = 0
    head_end: int = 0  # last line of the signature and docstring: what a header frame shows


@dataclass(slots=True)
class Reference:
    name: str
    kind: str
    line: int
    scope: int | None  # innermost enclosing symbol index, None = file level


@dataclass(slots=True)
class Import:
    path: str
    line: int
    names: tuple[str, ...] = ()  # `from X import a, b`: a and b may be modules too


@dataclass
class Extraction:
    symbols: list[Symbol] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    module_doc: str = ""
    warnings: list[str] = field(default_factory=list)


def _end_line(node) -> int:
    row, col = node.end_point
    return row if col == 0 and row > node.start_point.row else row + 1


_COMMENT_OPENER = re.compile(r"^(///?|//!|/\*\*?|\(\*\*?|\*/|\*|#+|--+(?: ?[|^])?|;+|'''|\"\"\")\s?")  # `-- |`: Haddock; `(**`: OCaml
_COMMENT_CLOSER = re.compile(r"\s*\*/$")
_ML_COMMENT_CLOSER = re.compile(r"\s*\*\)$")  # OCaml's, only in a comment that opens with `(*`
# Elixir documents with attributes: `@doc "One line."`, `@doc """` ... `"""`.
_DOC_ATTRIBUTE = re.compile(r'^@(?:module|type)?doc\s+(?:"""\s*$|"(.*)"$)')


def _clean_comment(text: str) -> str:
    opener, attribute = _COMMENT_OPENER.sub, _DOC_ATTRIBUTE.sub
    closer = (_ML_COMMENT_CLOSER if text.startswith("(*") else _COMMENT_CLOSER).sub
    return "\n".join(closer("", opener("", attribute(r"\1", line.strip()))) for line in text.splitlines()).strip()


_STRING_OPENER = re.compile(r"^[rRuUbBfF]*('''|\"\"\"|'|\")")
_STRING_CLOSER = re.compile(r"('''|\"\"\"|'|\")$")


def _docstring(body, source: bytes) -> str:
    """`body`: a definition's body node, or the module's root."""
    if body is None:
        return ""
    for i in range(body.named_child_count):
        child = body.named_child(i)
        if child.type == "comment":
            continue
        string = _string_statement(child)
        if string is not None:
            raw = source[string.start_byte : string.end_byte].decode("utf-8", "replace")
            raw = _STRING_CLOSER.sub("", _STRING_OPENER.sub("", raw))
            return inspect.cleandoc(raw)[:MAX_DOC]
        return ""
    return ""


def _string_statement(node):
    """The string of a bare string statement (a docstring), else None."""
    if node is not None and node.type == "expression_statement" and node.named_child_count:
        first = node.named_child(0)
        if first.type in ("string", "concatenated_string"):
            return first
    return None


def _preceding_comments(node, source: bytes, comment_types: tuple[str, ...]) -> str:
    # A declaration that opens on the same line (Go `type X struct`, `const f = () =>`)
    # holds the comment above it.
    while node.parent is not None and node.parent.parent is not None and node.parent.start_point.row == node.start_point.row:
        node = node.parent
    parts = []
    line = node.start_point.row
    sibling = node.prev_sibling
    while sibling is not None and sibling.end_point.row >= line - 1:
        if sibling.type in comment_types:
            parts.append(source[sibling.start_byte : sibling.end_byte].decode("utf-8", "replace"))
        elif not _see_through(sibling.type):
            break
        line = sibling.start_point.row
        sibling = sibling.prev_sibling
    return _clean_comment("\n".join(reversed(parts)))[:MAX_DOC] if parts else ""


@lru_cache(maxsize=None)  # a grammar has a few hundred node types
def _see_through(node_type: str) -> bool:
    """Attributes between a doc comment and its item are see-through."""
    return any(word in node_type for word in ("attribute", "decorator", "annotation"))


def _head_end(node, body) -> int:
    """Last line (1-based) of a definition's head: signature, then docstring if any."""
    if body is None:
        return _end_line(node)
    before = body.prev_sibling
    row = before.end_point.row if before is not None else body.start_point.row
    docstring = _string_statement(body.named_child(0) if body.named_child_count else None)
    if docstring is not None:
        row = max(row, docstring.end_point.row)  # a docstring belongs to the head
    return min(row + 1, _end_line(node))


def _signature(node, body, source: bytes) -> str:
    end = body.start_byte if body is not None and body.start_byte > node.start_byte else node.end_byte
    text = source[node.start_byte : end].decode("utf-8", "replace")
    text = text.split("\n", 1)[0] if body is None else text
    return " ".join(text.split()).rstrip(" {:")[:MAX_SIGNATURE]


_IMPORT = "import"
# Every capture name a grammar query may use, and what this module does with it; the
# lint (tests/test_grammar_captures.py, scripts/check) fails on any other, which would
# otherwise be ignored without a word. `_`-names are helpers for predicates only.
ROLE_CAPTURES = frozenset({
    "name",  # the defined or referenced name
    "receiver",  # a method declared outside its type (Go, C++, Lua)
    "qualifier",  # a call's receiver: `Gson` in `Gson.toJson(x)`
    "callee",  # the call that opens a block: `describe` in `describe("x", ...)`
    "body",  # a body that follows its definition's node (Dart)
    "import",  # the whole import statement (kept for the line; the path is what counts)
    "import.path", "import.parts", "import.name",
})
DEFINITION_KINDS = frozenset({"block", "class", "constant", "enum", "function", "impl", "interface", "macro",
                              "method", "module", "struct", "test", "trait", "type", "variable"})
REFERENCE_KINDS = frozenset({"call", "type"})


def unknown_captures(capture_names) -> list[str]:
    """The capture names this module does not understand."""
    def known(capture: str) -> bool:
        prefix, _, kind = capture.partition(".")
        return (capture.startswith("_") or capture in ROLE_CAPTURES
                or (prefix == "definition" and kind in DEFINITION_KINDS)
                or (prefix == "reference" and kind in REFERENCE_KINDS))

    return sorted(c for c in set(capture_names) if not known(c))


def _plan(capture_names: tuple[str, ...]):
    """What a match with these captures yields, worked out once per capture set (a
    file has thousands of matches and a query a few dozen shapes): `_IMPORT`, or
    [(capture, is_definition, kind)]; empty when it names nothing."""
    if "import.path" in capture_names or "import.parts" in capture_names:
        return _IMPORT
    if "name" not in capture_names:
        return ()
    plan = []
    for capture in capture_names:
        if capture.startswith("_"):
            continue  # helper captures that exist only for predicates
        prefix, _, kind = capture.partition(".")
        if prefix == "definition":
            plan.append((capture, True, kind))
        elif prefix == "reference":
            plan.append((capture, False, kind or "reference"))
    return tuple(plan)


_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b.*", re.MULTILINE)


def _without_conditionals(text: bytes) -> bytes:
    """`text` with its `#if`/`#else`/`#endif` lines as spaces, every other byte in place:
    every branch is read, so none of their symbols is lost (reading the first branch
    alone lost C's `#ifndef X` stubs' real code in their `#else`)."""
    return _CONDITIONAL.sub(lambda found: b" " * len(found[0]), text)


class Extractor:
    """Parsers and compiled queries per language, made once per process."""

    def __init__(self):
        self._loaded: dict[str, tuple] = {}
        self._failed: dict[str, str] = {}
        self._plans: dict[tuple[str, ...], object] = {}

    def available(self, spec: LanguageSpec) -> bool:
        return self._load(spec) is not None

    @property
    def failures(self) -> dict[str, str]:
        return dict(self._failed)

    def _load(self, spec: LanguageSpec):
        if spec.name in self._loaded:
            return self._loaded[spec.name]
        if spec.name in self._failed:
            return None
        import tree_sitter

        try:
            language = spec.load()
            # One query, one walk of the tree: imports' patterns ride along with the tags'.
            query = tree_sitter.Query(language, spec.query_text("tags") + "\n" + spec.query_text("imports"))
        except (GrammarUnavailable, tree_sitter.QueryError, ValueError) as exc:
            self._failed[spec.name] = str(exc)
            sys.stderr.write(f"repo-graph: warning: skipping {spec.name} files: {exc}\n")
            return None
        loaded = (tree_sitter.Parser(language), query)
        self._loaded[spec.name] = loaded
        return loaded

    def extract(self, spec: LanguageSpec, source: bytes) -> Extraction | None:
        loaded = self._load(spec)
        if loaded is None:
            return None
        import tree_sitter

        parser, query = loaded
        text = spec.parsed_text(source)  # offsets hold: text is read from `source`
        tree = parser.parse(text)
        if tree.root_node.has_error and spec.conditionals:
            again = parser.parse(_without_conditionals(text))
            tree = tree if again.root_node.has_error else again
        out = Extraction()
        if tree.root_node.has_error:
            out.warnings.append(f"{PARTIAL_WARNING}: symbols are partial")
        if spec.doc_style == "docstring":
            out.module_doc = _docstring(tree.root_node, source)

        defs: dict[int, tuple] = {}
        refs = []
        try:
            matches = tree_sitter.QueryCursor(query).matches(tree.root_node)
        except (SystemError, UnicodeDecodeError, ValueError) as exc:
            # Query predicates read node text as UTF-8; a file that is not cannot be
            # matched. Keep the file, say why it has no symbols.
            out.warnings.append(f"query failed ({type(exc).__name__}); no symbols or imports extracted")
            return out
        plans = self._plans
        for _, captures in matches:
            key = tuple(captures)
            plan = plans.get(key)
            if plan is None:
                plan = plans[key] = _plan(key)
            if plan is _IMPORT:
                names = tuple(
                    source[n.start_byte : n.end_byte].decode("utf-8", "replace") for n in captures.get("import.name", ())
                )
                for node in captures.get("import.path", ()):
                    text = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
                    out.imports.append(Import(text.strip("\"'<>` "), node.start_point.row + 1, names))
                for node in captures.get("import.parts", ()):
                    parts = [p for p in node.children_by_field_name("path") if p.is_named]
                    text = ".".join(source[p.start_byte : p.end_byte].decode("utf-8", "replace") for p in parts)
                    out.imports.append(Import(text, node.start_point.row + 1, names))
                continue
            if not plan:
                continue
            name = captures["name"][0]
            for capture, is_definition, kind in plan:
                if is_definition:
                    node = captures[capture][0]
                    if node.id not in defs:
                        receiver = captures.get("receiver")
                        callee = captures.get("callee")
                        body = captures.get("body")
                        defs[node.id] = (node, name, kind, receiver[0] if receiver else None,
                                         callee[0] if callee else None, body[0] if body else None)
                else:
                    qualifier = captures.get("qualifier")
                    refs.append((name, kind, qualifier[0] if qualifier else None))

        ordered = sorted(defs.values(), key=lambda d: (d[0].start_byte, -(d[5] or d[0]).end_byte))
        stack: list[int] = []
        seen_qualnames: dict[str, int] = {}
        for node, name_node, kind, receiver, callee, apart in ordered:
            while stack and out.symbols[stack[-1]].end_byte < (apart or node).end_byte:
                stack.pop()
            parent = stack[-1] if stack else None
            name = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
            # A block a call opens (`describe("x", ...)`): `describe(x)`, never a name the code defines.
            piece = name if callee is None else f"{source[callee.start_byte : callee.end_byte].decode('utf-8', 'replace')}({name})"
            if receiver is not None:
                prefix = source[receiver.start_byte : receiver.end_byte].decode("utf-8", "replace")
                qualname = f"{prefix.lstrip('*&')}.{piece}"
            elif parent is not None:
                qualname = f"{out.symbols[parent].qualname}.{piece}"
            else:
                qualname = piece
            if kind == "function" and (receiver is not None or (parent is not None and out.symbols[parent].kind in CONTAINER_KINDS)):
                kind = "method"
            count = seen_qualnames.get(qualname, 0) + 1
            seen_qualnames[qualname] = count
            if count > 1:
                qualname = f"{qualname}~{count}"  # overloads, redefinitions: ids stay unique
            outer = node
            while outer.parent is not None and outer.parent.type in spec.wrappers:
                outer = outer.parent
            body = apart or node.child_by_field_name("body")
            last = apart or outer
            if spec.doc_style == "docstring":
                doc = _docstring(body, source)
            else:
                doc = _preceding_comments(outer, source, spec.comment_types)
            out.symbols.append(
                Symbol(
                    name=name,
                    qualname=qualname,
                    kind=kind,
                    start_line=outer.start_point.row + 1,
                    end_line=_end_line(last),
                    signature=_signature(node, body, source),
                    head_end=_head_end(node, body),
                    doc=doc,
                    parent=parent,
                    start_byte=outer.start_byte,
                    end_byte=last.end_byte,
                )
            )
            stack.append(len(out.symbols) - 1)

        starts = [s.start_byte for s in out.symbols]
        # A def's head that is a call too (Elixir's `def run(x)`) calls nothing; a name that
        # is a type use as well (Rust's `impl Display for Error`) stays a use.
        named = {d[1].id for d in ordered}
        # A name matched with its receiver and without (Dart's flat selectors have no
        # field to tell them apart) is one reference: the one that knows the receiver.
        qualified = {(n.id, kind) for n, kind, qualifier in refs if qualifier is not None}
        for name_node, kind, qualifier in refs:
            if kind == "call" and name_node.id in named:
                continue
            if qualifier is None and (name_node.id, kind) in qualified:
                continue
            offset = name_node.start_byte
            scope = None
            i = bisect_right(starts, offset) - 1
            while i >= 0:
                if out.symbols[i].end_byte >= offset:
                    scope = i
                    break
                i = out.symbols[i].parent if out.symbols[i].parent is not None else -1
            name = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
            if qualifier is not None and qualifier.end_byte - qualifier.start_byte <= MAX_QUALIFIER:
                spelled = CLASS_LIKE.search(source[qualifier.start_byte : qualifier.end_byte].decode("utf-8", "replace"))
                if spelled and spelled.group(1) != "Self":
                    name = f"{spelled.group(1)}.{name}"
            out.references.append(Reference(name, kind, name_node.start_point.row + 1, scope))

        return out
