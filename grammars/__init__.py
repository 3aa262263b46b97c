"""One folder per language: which files it covers, which grammar wheel parses it, and
its tree-sitter queries (`tags.scm`, `imports.scm`) as data loaded from disk.

Adding a language touches only this package. Grammars come from wheels that ship
compiled parsers; nothing is fetched at run time (DESIGN.md decision 1).
"""

from __future__ import annotations

import importlib
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

__all__ = ["CLAIM_BYTES", "LanguageSpec", "Registry", "GrammarUnavailable"]

_HERE = Path(__file__).resolve().parent

DOC_STYLES = ("docstring", "preceding_comments")
PACKAGE_SCOPES = ("", "directory", "source_sets", "module")
CLAIM_BYTES = 64 * 1024  # how much of a file its claim markers are looked for in


class GrammarUnavailable(RuntimeError):
    """The grammar wheel for a language is missing or failed to load."""


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    extensions: tuple[str, ...]
    filenames: tuple[str, ...]
    shebangs: tuple[str, ...]
    package: str
    function: str
    distribution: str
    doc_style: str
    comment_types: tuple[str, ...]
    wrappers: tuple[str, ...]
    qualify_with_module: bool
    inherits: tuple[str, ...]
    import_style: str
    import_extensions: tuple[str, ...]
    # What a file sees without importing it (indexer/resolve.py): "" nothing; "directory" its
    # directory's files (Go); "source_sets" those of every directory spelling its package
    # under java/, kotlin/, scala/, groovy/ (src/main/java and src/test/java); "module" its
    # Swift module's (SwiftPM's Sources/<Target> to any depth, else its top-level folder).
    package_scope: str
    family: str  # languages whose code calls into each other's (c and cpp; the JVM's; js and ts)
    module_targets: bool  # its modules are defined once, as classes are: a use of the name resolves to one
    # Another language's extensions this one reads when the file's text shows one of
    # `claim_markers` (regexes): C++ headers named `.h`.
    claims: tuple[str, ...]
    claim_markers: tuple[str, ...]
    # Macros the grammar cannot expand (`class SPDLOG_API logger`, `SPDLOG_INLINE void f(`),
    # or syntax newer than it (TypeScript's `export type *`), break the parse around them:
    # each pattern's group 1 is parsed as spaces, so every other byte keeps its place and
    # the text read back is the file's own.
    macro_blanks: tuple[re.Pattern, ...] = field(compare=False)
    # `#if`/`#else`/`#endif` that split a statement (`}`, `#if X`, `else if ...`) are a
    # syntax error to a grammar that reads directives as lines of their own: a file so
    # broken is parsed again without them (indexer/extract.py).
    conditionals: bool = field(compare=False)
    # A call's receiver spelled as a class (`Config.Load()`) may be a member instead, as
    # C#'s properties are capitalised: a use no class of that name answers goes by the
    # member's name (indexer/resolve.py) rather than to nothing.
    receivers_may_be_members: bool = field(compare=False)
    folder: Path = field(compare=False)

    def parsed_text(self, source: bytes) -> bytes:
        """What the grammar parses: `source` with `macro_blanks` blanked, every byte in
        its place, and a last newline when the file has none: a directive that ends a
        file (C#'s `#pragma warning restore 618`) is a syntax error to grammars that end
        one with a newline, and the whole file was reported partial for it."""
        out = None
        for pattern in self.macro_blanks:
            for found in pattern.finditer(source):
                start, end = found.span(1)
                out = out if out is not None else bytearray(source)
                out[start:end] = b" " * (end - start)
        text = source if out is None else bytes(out)
        return text if not text or text.endswith(b"\n") else text + b"\n"

    def query_text(self, purpose: str) -> str:
        """`<purpose>.scm` of each inherited language, then this one's own, joined
        (nvim-treesitter's `; inherits:`), or "" when there is none."""
        texts = []
        for name in (*self.inherits, self.folder.name):
            path = self.folder.parent / name / f"{purpose}.scm"
            if path.is_file():
                texts.append(path.read_text(encoding="utf-8"))
        return "\n".join(texts)

    def load(self):
        """The tree_sitter.Language for this spec; GrammarUnavailable when it can't load."""
        import tree_sitter

        try:
            module = importlib.import_module(self.package)
            return tree_sitter.Language(getattr(module, self.function)())
        except Exception as exc:  # any failure of a third-party wheel means "unavailable"
            raise GrammarUnavailable(f"{self.name}: grammar package {self.distribution!r} unavailable ({exc})") from exc


def _read_spec(folder: Path) -> LanguageSpec:
    data = tomllib.loads((folder / "language.toml").read_text(encoding="utf-8"))
    doc_style = data.get("doc_style", "preceding_comments")
    if doc_style not in DOC_STYLES:
        raise ValueError(f"{folder}/language.toml: doc_style must be one of {DOC_STYLES}")
    if data.get("package_scope", "") not in PACKAGE_SCOPES:
        raise ValueError(f"{folder}/language.toml: package_scope must be one of {PACKAGE_SCOPES}")
    return LanguageSpec(
        name=data.get("name", folder.name),
        extensions=tuple(e.lower() for e in data.get("extensions", ())),
        filenames=tuple(data.get("filenames", ())),
        shebangs=tuple(data.get("shebangs", ())),
        package=data["package"],
        function=data.get("function", "language"),
        distribution=data.get("distribution", data["package"].replace("_", "-")),
        doc_style=doc_style,
        comment_types=tuple(data.get("comment_types", ("comment",))),
        wrappers=tuple(data.get("wrappers", ())),
        qualify_with_module=bool(data.get("qualify_with_module", False)),
        inherits=tuple(data.get("inherits", ())),
        import_style=data.get("import_style", "relative"),
        import_extensions=tuple(data.get("import_extensions", data.get("extensions", ()))),
        package_scope=data.get("package_scope", ""),
        family=data.get("family", data.get("name", folder.name)),
        module_targets=bool(data.get("module_targets", False)),
        claims=tuple(e.lower() for e in data.get("claims", ())),
        claim_markers=tuple(data.get("claim_markers", ())),
        macro_blanks=tuple(re.compile(p.encode(), re.MULTILINE) for p in data.get("macro_blanks", ())),
        conditionals=bool(data.get("conditionals", False)),
        receivers_may_be_members=bool(data.get("receivers_may_be_members", False)),
        folder=folder,
    )


class Registry:
    """Every language folder under this package, and which file names map to which."""

    def __init__(self, root: Path = _HERE):
        self.languages: dict[str, LanguageSpec] = {}
        for toml in sorted(root.glob("*/language.toml")):
            spec = _read_spec(toml.parent)
            self.languages[spec.name] = spec
        self._by_ext: dict[str, LanguageSpec] = {}
        self._by_name: dict[str, LanguageSpec] = {}
        self._by_interpreter: dict[str, LanguageSpec] = {}
        self._claims: dict[str, list[tuple[LanguageSpec, tuple[re.Pattern, ...]]]] = {}
        for spec in self.languages.values():
            self._by_ext.update((ext, spec) for ext in spec.extensions)
            self._by_name.update((name, spec) for name in spec.filenames)
            self._by_interpreter.update((name, spec) for name in spec.shebangs)
            if spec.claims and spec.claim_markers:
                markers = tuple(
                    re.compile(m.encode()) for m in spec.claim_markers
                )  # apart: each keeps its literal scan
                for ext in spec.claims:
                    self._claims.setdefault(ext, []).append((spec, markers))

    def for_path(self, rel_path: str, head: bytes = b"") -> LanguageSpec | None:
        """The language of a file by exact name, then extension (or the language that
        claims the extension when `head`, the file's first bytes, shows it), then `#!`
        line."""
        spec = self._by_path(rel_path)
        claimed = self._claims.get(PurePosixPath(rel_path).suffix.lower()) if spec is not None else None
        if claimed:
            spec = next(
                (other for other, markers in claimed if any(marker.search(head, 0, CLAIM_BYTES) for marker in markers)),
                spec,
            )
        if spec is None and head.startswith(b"#!"):
            spec = self._by_interpreter.get(_interpreter(head[:200].split(b"\n", 1)[0]))  # not a copy of the file
        return spec

    def claimable(self, rel_path: str) -> bool:
        """Whether another language may claim this file by its text (a `.h`)."""
        return PurePosixPath(rel_path).suffix.lower() in self._claims

    def _by_path(self, rel_path: str) -> LanguageSpec | None:
        pure = PurePosixPath(rel_path)
        spec = self._by_name.get(pure.name)
        if spec is None:
            suffixes = pure.suffixes
            # ".d.ts" and friends: try the longest compound suffix first.
            for i in range(len(suffixes)):
                spec = self._by_ext.get("".join(suffixes[i:]).lower())
                if spec:
                    break
        return spec


def _interpreter(first_line: bytes) -> str:
    words = first_line[2:].decode("utf-8", "replace").split()
    if not words:
        return ""
    name = words[0].rsplit("/", 1)[-1]
    if name == "env" and len(words) > 1:
        name = next((w for w in words[1:] if not w.startswith("-")), "")
    # python3.11 -> python3 -> python
    while name and name not in ("",) and name[-1] in "0123456789.":
        name = name[:-1]
    return name


if __name__ == "__main__":  # pragma: no cover - a quick listing for people
    for spec in Registry().languages.values():
        sys.stderr.write(f"{spec.name}: {', '.join(spec.extensions + spec.filenames)}\n")
