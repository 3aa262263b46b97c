"""Names to edges, once every file is known: imports to the files they load
(`code.imports`), uses to the symbols they name (`code.calls`, `code.references`),
doc sections to what they mention (`doc.documents`).

A use resolves to a definition in its own file first, then in the files its file
imports, then anywhere, but only while the name is rare enough to mean something;
unresolved names stay in the `uses` rows as a cheap name index, not as nodes.
"""

from __future__ import annotations

import os
import posixpath
import re
import tomllib
from collections import defaultdict
from pathlib import Path, PurePosixPath

from grammars import Registry

from .boundary import read_regular
from .names import dotted, named_in_part
from .sections import DOC_EXTENSIONS

IMPORTS = "code.imports"
MANIFEST_BYTES = 1 << 20  # a Cargo.toml larger than this names no crate we need
CALLS = "code.calls"
REFERENCES = "code.references"
DOCUMENTS = "doc.documents"

# What names resolve to, by rule: change it with the rules, and an index resolved under
# others is resolved again on its next refresh (its files need not change). 2: dotted
# names in docs through the directories they spell (`flask.app.Flask`). 3: release
# notes found by versioned names and folders too (`docs/changelogs/changelog_3x.md`); a
# dotted import naming a package links to its directory's files (`import a.b.*`); Elixir's
# and OCaml's module names to the files they are spelled from. 4: a JVM package split
# between source sets (src/main/java, src/test/java) is one package. 5: a name defined
# in more than MAX_GLOBAL_MATCHES of the files a file sees resolves to none of them. 6: a
# Python import no source root holds finds the one module whose path ends so. 7: a
# folder's dots spell a package too (C#'s Src/Acme.Store for `using Acme.Store`). 8:
# Elixir's `alias A.{B, C}` imports A.B and A.C. 9: each path of a Rust use tree
# (`crate::{a::B, c::D}`) is one import, and another crate of the workspace is found by
# the name its Cargo.toml gives it. 10: a use resolves in its own language family only
# (language.toml `family`: an Elixir call to `push` is not one of JavaScript's `push`).
# 11: a module a language defines once (Elixir's defmodule: `module_targets`) is what a
# use of its name resolves to, as a class is. 12: Elixir's short names (`alias App.Reply`,
# then `%Reply{}`) are the modules their aliases name. 13: a Rust name taken from a crate
# or module root (`use axum::Router`) is looked for where that root's `use` takes it from;
# `use crate::Item` is the crate root's; `self::`, `super::super::` from a file's own module,
# and `use store::Shelf` where `store` is a child module (Rust 2018's paths). 14: a
# qualified use (`Router::new`) finds numbered definitions too (`Router~3.new`: a later
# `impl` block, an overload) and is chosen as a plain name is: the file's own, else the
# ones it sees, else the rare. 15: a qualified use no definition matches is a member of
# that type in a file defining it, else (inherited) the plain name, and nothing when the
# repository does not define the type (`Object.keys`, `Arc::new`). 16: a qualified use
# finds a nested definition by its last two parts (`Util.build` for `Shop.Util.build`).
# 17: where a receiver may be a member (C#'s capitalised properties, language.toml
# `receivers_may_be_members`), a qualified use no class answers goes by its last name.
RESOLVE_RULES = "17"
MAX_GLOBAL_MATCHES = 3  # a name defined in more places than this is too common to guess
MAX_PACKAGE_FILES = 25  # a Go import links to at most this many files of the package
MAX_DOC_TARGETS = 12  # a section naming more than this is a catalogue; its first mentions stand
RELEASE_NOTES = ("changelog", "changes", "history", "news", "releases", "release-notes", "release_notes")
_VERSIONED_NOTES = re.compile(r"(?:changelog|changes|history|news|releases|release[-_]notes)[-_.]?v?[0-9][0-9a-z._-]*")
_NOTES_FOLDERS = ("changelog", "changelogs", "release-notes", "release_notes")
SOURCE_ROOTS = ("", "src", "lib", "source", "include", "pkg", "app")
# Under a folder of these names (Maven's and Gradle's src/main/java, src/test/kotlin) the
# path spells the package: src/main/java/com/acme and src/test/java/com/acme are one
# package, and a test sees its subject's names without importing them.
JVM_SOURCE_FOLDERS = frozenset({"java", "kotlin", "scala", "groovy"})
# SwiftPM keeps each target's sources in Sources/<Target> (tests in Tests/<Target>), to any
# depth; a project laid out otherwise (an Xcode app, a custom `path:`) has a module per
# top-level folder, as far as can be told without reading Package.swift.
SWIFT_TARGET_FOLDERS = frozenset({"Sources", "Tests"})
# Where a JavaScript workspace keeps its packages (npm, yarn and pnpm workspaces, Nx).
WORKSPACE_FOLDERS = frozenset({"packages", "libs", "apps", "modules", "plugins"})
# The manifests resolution reads, by file name, and the import style whose names they
# give: a crate renamed in its Cargo.toml re-points every `use new_name::...`.
MANIFESTS = {"Cargo.toml": "rust"}
RUST_ROOTS = ("lib.rs", "main.rs", "mod.rs")  # a crate's or a module's own file, where re-exports live
# `import "./util.js"` in TypeScript is util.ts (what it compiles to is what it names).
COMPILED_FROM = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}


_RENUMBERED = re.compile(r"~[0-9]+")
_HUMPS = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _snake(name: str) -> str:
    """`HTTPClient` -> `http_client`, `MyApp` -> `my_app`: Elixir's file for a module name."""
    return _HUMPS.sub("_", name).lower()


def _snake_dotted(module: str) -> str:
    return ".".join(map(_snake, module.split(".")))


def use_tree_paths(tree: str) -> list[list[str]]:
    """A Rust use tree as the paths it names: `crate::{a::B, c::{D, self}, E as F}` is
    [crate, a, B], [crate, c, D], [crate, c], [crate, E]."""
    paths: list[list[str]] = []

    def walk(text: str, prefix: list[str]) -> None:
        text = text.strip()
        brace = text.find("{")
        if brace < 0:
            words = [w.strip() for w in text.split(" as ")[0].split("::") if w.strip()]
            if prefix and words == ["self"]:  # `a::{self, B}`: a itself
                words = []
            if prefix + words:
                paths.append(prefix + words)
            return
        head = [w.strip() for w in text[:brace].split("::") if w.strip()]
        depth, part = 0, []
        for ch in text[brace + 1 : text.rfind("}")] + ",":
            if ch == "," and depth == 0:
                if "".join(part).strip():
                    walk("".join(part), prefix + head)
                part = []
                continue
            depth += (ch == "{") - (ch == "}")
            part.append(ch)

    walk(tree, [])
    return paths


def _package_path(directory: str, scope: str) -> str:
    """Which package a directory's files belong to, per `LanguageSpec.package_scope`:
    `okhttp/src/jvmTest/kotlin/okhttp3` is `:okhttp3` as `src/main/java/okhttp3` is
    (source_sets); `Sources/App/Views` is the module `Sources/App`, `Source/Core` the
    module `Source` (module); else the directory itself."""
    parts = directory.split("/")
    if scope == "source_sets":
        for i in range(len(parts) - 1, -1, -1):
            if parts[i] in JVM_SOURCE_FOLDERS:
                return ":" + "/".join(parts[i + 1 :])
    elif scope == "module":
        for i, part in enumerate(parts[:-1]):
            if part in SWIFT_TARGET_FOLDERS:
                return "/".join(parts[: i + 2])
        return parts[0]
    return directory


def is_release_notes(path: str) -> bool:
    """Release notes name what changed, not what the code is: they document nothing.
    `CHANGELOG.md`, `changes-3.0.rst`, `docs/changelogs/changelog_3x.md`."""
    folder, _, name = path.rpartition("/")  # per candidate: no Path
    stem, extension = posixpath.splitext(name.lower())
    if extension not in DOC_EXTENSIONS and extension not in ("", ".txt"):
        return False  # history.py is code
    if stem in RELEASE_NOTES or _VERSIONED_NOTES.fullmatch(stem):
        return True
    return folder.rpartition("/")[2].lower() in _NOTES_FOLDERS


def _path(definition: tuple[str, str | None]) -> str:
    return definition[0]


def _aliased(module: str, names: list[str]) -> dict[str, str]:
    """The short names an Elixir `alias` brings in: `alias App.Reply` lets `Reply` stand
    for App.Reply, `alias App.{Reply, Server}` each of the two. (`import` and `use` bring
    functions in, not a name; the rows do not tell them apart, and a short name that an
    `import` made is one the code does not write.)"""
    full = [f"{module}.{n}" for n in names] if names else [module]
    return {m.rpartition(".")[2]: m for m in full}


def _unaliased(name: str, aliases: dict[str, str]) -> str:
    """`Reply` or `Reply.Sub` as the module an alias made it short for."""
    head, dot, rest = name.partition(".")
    full = aliases.get(head)
    return full + dot + rest if full else name


def _last_two(qual: str) -> str:
    """`a.b.Type.member` as `Type.member`."""
    return ".".join(qual.split(".")[-2:])


def _rust_module_dir(path: str) -> str:
    """Where a Rust file's child modules live: beside a crate's or module's own file
    (src/lib.rs, net/mod.rs), else in the folder of its name (src/net.rs: src/net/)."""
    here, name = posixpath.split(path)
    return here if name in RUST_ROOTS else posixpath.join(here, PurePosixPath(name).stem)


def _ids(name: str, definitions) -> list[str]:
    """Ids of definitions of `name` kept as (path, qualified name or None)."""
    return [f"{path}#{qual or name}" for path, qual in definitions]


class Resolver:
    """The repository-wide lookups resolution needs, built once per pass."""

    def __init__(self, store, registry: Registry, *, every_symbol: bool = True, root: Path | None = None):
        """every_symbol: load the whole definition table up front (a full pass); else
        look names up in the store as uses ask for them (a few changed files in a
        kernel-sized index, where loading millions of definitions would take longer
        than the update); root: where to read manifests (Cargo.toml) from."""
        self.store = store
        self.root = root
        self._crates: dict[str, str | None] | None = None  # a Rust crate's name in code -> its src/ (None: two)
        self.registry = registry
        self.files = store.indexed_files()  # path -> language
        self.by_dir: dict[str, list[str]] = defaultdict(list)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for path in self.files:
            self.by_dir[posixpath.dirname(path)].append(path)
            self.by_name[posixpath.basename(path)].append(path)
        self._path_of = {p: p for p in self.files}
        # A use resolves to a definition in its own language, or one that calls into it
        # (C and C++, the JVM's, JavaScript and TypeScript: language.toml `family`).
        family = {name: spec.family for name, spec in registry.languages.items()}
        self._family_of = {p: family.get(lang or "", lang) for p, lang in self.files.items()}
        self._modules_in = tuple(sorted(name for name, spec in registry.languages.items() if spec.module_targets))
        self._by_path: dict[str, dict[str, list]] = {}  # common name -> path -> its definitions, built on demand
        self._packages: dict[tuple[str, str], frozenset[str]] = {}  # (directory, language) -> its files
        self._modules: dict[str, list[str]] = {}  # a Swift module's name -> its files
        self._exports: dict[str, dict[str, set[str]]] = {}  # a Rust module root -> name -> its files (_reexported)
        self._package_dirs: dict[str, dict[str, list[str]]] = {}  # scope -> package -> the directories holding it
        self._lazy = not every_symbol
        self._looked_up: set[str] = set()
        # Every definition as (path, its qualified name or None when that is its name):
        # no id strings (a definition's id is `path#qualified name`, made for the few
        # that a use resolves to). The kernel's 2.9M definitions took 1.7 GB as ids.
        self.symbols: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
        self.qualified: dict[str, list[str]] = defaultdict(list)  # Class.method -> paths
        self._numbered: dict[str, list[str]] = defaultdict(list)  # Class.method -> ids of Class~2.method ...
        self._tails: dict[str, list[str]] = defaultdict(list)  # Class.method -> ids of Outer.Class.method ...
        self._includes: dict[str, list[str]] = {}  # include target -> files, wherever it is included from
        # A directory's last name -> directories; and a dotted folder's (Acme.Store) last part -> such folders.
        self._dirs_by_name: dict[str, list[str]] | None = None
        self._dotted_dirs: dict[str, list[str]] = {}
        if every_symbol:
            self._load(store.symbol_names(modules_in=self._modules_in))

    def _load(self, rows) -> None:
        """Take definitions [(name, path, qualified name)] in: millions on the kernel,
        so the loop stays in this one frame."""
        path_of, symbols, qualified = self._path_of, self.symbols, self.qualified
        numbered, tails = self._numbered, self._tails
        for name, path, qual in rows:
            path = path_of.get(path, path)  # one string per file, not one per definition
            symbols[name].append((path, None if qual == name else qual))
            if "." in qual:
                if "~" in qual:  # `Router~5.new`: the fifth `impl Router`, a second overload
                    plain = _RENUMBERED.sub("", qual)
                    numbered[plain].append(f"{path}#{qual}")
                else:
                    plain = qual
                    qualified[qual].append(path)
                if plain.count(".") > 1:  # `Shop.Util.build` as `Util.build`, the way code calls it
                    tails[_last_two(plain)].append(f"{path}#{qual}")

    def _defs(self, name: str) -> list[tuple[str, str | None]]:
        """(path, qualified name or None) of every definition of `name`."""
        if self._lazy and name not in self._looked_up:
            self._looked_up.add(name)
            self._load(self.store.symbol_names(name, self._modules_in))
        return self.symbols.get(name, [])

    def _qualified(self, qual: str) -> list[str]:
        """Ids of the definitions whose qualified name is `qual` (`Class.method`), the
        numbered ones too (`Class~2.method`)."""
        self._defs(qual.rsplit(".", 1)[-1])
        return [f"{path}#{qual}" for path in self.qualified.get(qual, ())] + self._numbered.get(qual, [])

    # -- imports --------------------------------------------------------------
    def _first(self, candidates) -> str | None:
        for c in candidates:
            c = posixpath.normpath(c) if c else c
            if c in self.files:
                return c
        return None

    def _with_exts(self, base: str, exts) -> list[str]:
        found = [base] + [base + e for e in exts if e] + [f"{base}/index{e}" for e in exts if e]
        stem, ext = posixpath.splitext(base)
        if ext in COMPILED_FROM and ".ts" in exts:  # TypeScript's ESM imports name the output
            found += [stem + source for source in COMPILED_FROM[ext]]
        return found

    def reading(self, changed) -> set[str]:
        """The files whose resolution reads more of `changed` than their names: every
        Rust file, for a Cargo.toml (MANIFESTS: a crate's name); a Rust root's importers,
        for what it re-exports (_reexported)."""
        styles = {MANIFESTS[name] for name in map(posixpath.basename, changed) if name in MANIFESTS}
        out = {p for p in self.files if self._style_of(p) in styles} if styles else set()
        roots = [p for p in changed if posixpath.basename(p) in RUST_ROOTS and self._style_of(p) == "rust"]
        return out | self.store.importers_of(roots) if roots else out

    def _spec_of(self, path: str):
        """The LanguageSpec of an indexed file, or None."""
        return self.registry.languages.get(self.files.get(path) or "")

    def _style_of(self, path: str) -> str | None:
        spec = self._spec_of(path)
        return spec.import_style if spec is not None else None

    def _imports_in(self, path: str, statement: str) -> list[str]:
        """The imports one statement makes: each path of a Rust use tree
        (`crate::{a::B, c::D}`, `a::B as C`) is its own, as explicit as `use crate::a::B;`
        (not a package, whose files count only as far as they are used)."""
        if self._style_of(path) == "rust" and "::" in statement:
            return ["::".join(words) for words in use_tree_paths(statement)]
        return [statement]

    def import_targets(self, path: str, target: str, names: str) -> list[str]:
        spec = self._spec_of(path)
        if spec is None or not target:
            return []
        here = posixpath.dirname(path)
        exts = spec.import_extensions
        style = spec.import_style
        if style == "python":
            return self._python(here, target, names.split(), exts)
        if style == "go":
            return self._go(target)
        if style == "include":
            return self._include(here, target)
        if style == "rust":
            return self._rust(path, target)
        if style == "php":
            return self._php(here, target, exts)
        if style == "swift":
            return self._swift(target, exts)
        if style == "node":
            return self._node(here, target, exts)
        if style == "dart":
            return self._dart(here, target, exts)
        if style == "dotted":
            return self._dotted(target, exts)
        if style == "snake_modules":  # Elixir: MyApp.HTTPClient lives in my_app/http_client.ex
            return self._snake_modules(target, names.split(), exts)
        if style == "file_modules":  # OCaml: module Foo_bar (and Foo_bar.Inner) is foo_bar.ml
            first = target.split(".", 1)[0]
            return self._dotted(first[:1].lower() + first[1:], exts)
        return self._relative(here, target, exts)

    def _snake_modules(self, target: str, names: list[str], exts) -> list[str]:
        """Elixir: `MyApp.HTTPClient` is my_app/http_client.ex; `alias MyApp.{A, B}` is
        each of my_app/a.ex and my_app/b.ex, else the prefix's own file."""
        found = [hit for name in names for hit in self._dotted(_snake_dotted(f"{target}.{name}"), exts)]
        return found or self._dotted(_snake_dotted(target), exts)

    def _python(self, here: str, target: str, names: list[str], exts) -> list[str]:
        dots = len(target) - len(target.lstrip("."))
        module = target[dots:].replace(".", "/")
        if dots:
            base = here
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            roots = [posixpath.join(base, module) if module else base]
        else:
            roots = [posixpath.join(r, module) if r else module for r in SOURCE_ROOTS]
            roots.append(posixpath.join(here, module))  # implicit relative (scripts, old code)
        found = []
        for root in roots:
            for name in names:  # `from pkg import mod`: mod may be a module
                hit = self._first([f"{root}/{name}{e}" for e in exts] + [f"{root}/{name}/__init__.py"])
                if hit:
                    found.append(hit)
            hit = self._first([f"{root}{e}" for e in exts] + [f"{root}/__init__.py"])
            if hit and (not names or len(found) < len(names)):
                found.append(hit)
            if found:
                return found
        if dots or not module:
            return []
        found = [hit for hit in (self._python_anywhere(f"{module}/{name}", exts) for name in names) if hit]
        if not names or len(found) < len(names):
            hit = self._python_anywhere(module, exts)
            found += [hit] if hit else []
        return found

    def _python_anywhere(self, rel: str, exts) -> str | None:
        """`acme/store` under no source root: the one module anywhere whose path ends so
        (a monorepo's libs/acme/src/acme/store.py, the stdlib's Lib/json/__init__.py).
        A bare name must be a package (`import json` is not tools/json.py); two
        candidates, no guess."""
        base = posixpath.basename(rel)
        hits = [f"{d}/__init__.py" for d in self._directories_named(base)
                if f"/{d}".endswith(f"/{rel}") and f"{d}/__init__.py" in self.files]
        if "/" in rel:
            hits += [p for e in exts for p in self._files_ending(rel + e)]
        return hits[0] if len(hits) == 1 else None

    def _first_module(self, bases, exts) -> list[str]:
        """The first of `bases` that is a file, with an extension or as a folder's index."""
        for base in bases:
            hit = self._first(self._with_exts(base, exts))
            if hit:
                return [hit]
        return []

    def _relative(self, here: str, target: str, exts) -> list[str]:
        bases = [posixpath.join(here, target)]
        if not target.startswith("."):
            bases += [posixpath.join(r, target) for r in SOURCE_ROOTS]
        return self._first_module(bases, exts)

    def _node(self, here: str, target: str, exts) -> list[str]:
        """JavaScript and TypeScript: a path (`./util`, `components/Button` under a
        source root); else `@/lib/x` or `~/lib/x`, lib/x under the nearest folder or
        its src/ that has it (the alias Next.js, Vite and Nuxt projects configure); else
        a package of this repository's workspace: `@acme/ui/button` or `ui` is
        packages/ui (libs/, apps/, ...), its button, src/button, or its index. A package
        from node_modules is no file here."""
        found = self._relative(here, target, exts)
        if found or target.startswith("."):
            return found
        if target.startswith(("@/", "~/")):  # the nearest folder (or its src/) that has the path
            rest, folder = target[2:], here
            while True:
                found = self._first_module([posixpath.join(folder, "src", rest), posixpath.join(folder, rest)], exts)
                if found or not folder:
                    return found
                folder = posixpath.dirname(folder)
        parts = target.split("/")
        if target.startswith("@"):
            parts = parts[1:]
        name, sub = parts[0], "/".join(parts[1:])
        homes = self._directories_named(name, within=WORKSPACE_FOLDERS)
        if len(homes) != 1:
            return []  # none, or two packages of that name: no guess
        places = [sub, f"src/{sub}", f"lib/{sub}"] if sub else ["src", ".", "lib"]
        return self._first_module([posixpath.normpath(f"{homes[0]}/{place}") for place in places], exts)

    def _php(self, here: str, target: str, exts) -> list[str]:
        """`require 'x.php'` as a path; `use Slim\\Routing\\Route` as PSR-4 spells a class:
        the one file ending Slim/Routing/Route.php, or, as composer.json may map a
        namespace's first name to any folder (`Slim\\Tests\\` to tests/), ending
        Routing/Route.php, case aside; a class named by its last name alone only under
        a namespace of one name (`App\\User`, src/User.php). Two candidates, no guess."""
        if "\\" not in target and not target.isidentifier():
            return self._relative(here, target, exts)
        parts = target.strip("\\").split("\\")
        for ext in exts:
            named = self.by_name.get(parts[-1] + ext, ())
            for n in range(len(parts), 0 if len(parts) <= 2 else 1, -1):
                ending = ("/" + "/".join(parts[-n:]) + ext).lower()
                matches = [p for p in named if ("/" + p).lower().endswith(ending)]
                if matches:
                    return matches if len(matches) == 1 else []
        return []

    def _swift(self, target: str, exts) -> list[str]:
        """`import Foo`, `@testable import Foo`: the module SwiftPM keeps in Sources/Foo,
        each of its files (the links keep those the importer uses, as a Go import's do);
        else a file named Foo.swift, as a dotted name would."""
        module = target.split(".")[0]
        found = self._modules.get(module)
        if found is None:
            homes = self._directories_named(module, within=SWIFT_TARGET_FOLDERS)
            home = homes[0] if len(homes) == 1 else None
            found = self._modules[module] = [] if home is None else sorted(
                f for d in self.by_dir if d == home or d.startswith(home + "/")
                for f in self.by_dir[d] if f.endswith(tuple(exts)))
        return found or self._dotted(target, exts)

    def _dart(self, here: str, target: str, exts) -> list[str]:
        """`package:http/src/client.dart` is `src/client.dart` under the `lib/` of the
        package named http: in a repository of packages the directory of that name
        (pkgs/http/lib/src/client.dart, as pubspec names it by convention), else the
        repository's own lib/. A package from elsewhere, or `dart:async`, is no file here."""
        if target.startswith("dart:"):
            return []
        if not target.startswith("package:"):
            return self._relative(here, target, exts)
        name, _, rest = target[len("package:"):].partition("/")
        found = sorted(self._files_ending(f"{name}/lib/{rest}"), key=len)
        hit = found[0] if found else self._first([f"lib/{rest}"])
        return [hit] if hit else []

    def _go(self, target: str) -> list[str]:
        parts = target.split("/")
        for i in range(len(parts)):  # the longest suffix of the import path that is a directory here
            d = "/".join(parts[i:])
            files = [f for f in self.by_dir.get(d, ()) if f.endswith(".go") and not f.endswith("_test.go")]
            if files:
                return sorted(files)[:MAX_PACKAGE_FILES]
        return []

    def _include(self, here: str, target: str) -> list[str]:
        hit = self._first([posixpath.join(here, target)])
        if hit:
            return [hit]
        found = self._includes.get(target)  # `<linux/kernel.h>`: the same answer from every directory
        if found is None:
            found = self._includes[target] = self._include_anywhere(target)
        return found

    def _include_anywhere(self, target: str) -> list[str]:
        hit = self._first([posixpath.join(r, target) for r in SOURCE_ROOTS])
        if hit:
            return [hit]
        matches = self._files_ending(target)
        return matches if len(matches) == 1 else []

    def _rust(self, path: str, target: str) -> list[str]:
        if "::" not in target and " " not in target:  # `mod foo;`
            hit = self._rust_file(_rust_module_dir(path), target)
            return [hit] if hit else []
        hit = self._rust_module(path, target.split("::"))  # one path of a use tree (_imports_in)
        return [hit] if hit else []

    def _rust_module(self, path: str, words: list[str]) -> str | None:
        """The file of the longest module `crate::a::b::Name` spells: under this crate's
        root (`crate`), this module (`self`, or a child module by its name) or its parent
        (`super`), or another crate of the workspace (`axum_core::extract` is
        axum-core/src/extract/mod.rs; an item no module file holds, `grep_matcher::Matcher`
        or `crate::Error`, is its crate's root, which defines or re-exports it)."""
        if words[0] in ("self", "super"):
            base, rest = _rust_module_dir(path), words[1:] if words[0] == "self" else words
            while rest and rest[0] == "super":  # super::super::util
                base, rest = posixpath.dirname(base), rest[1:]
        else:
            base = self._crate_root(path) if words[0] == "crate" else self._workspace_crates().get(words[0])
            rest = words[1:]
            if base is None:
                base, rest = _rust_module_dir(path), words  # `use store::Shelf`: a child module, as self:: is
                if not self._rust_file(base, words[0]):
                    return None  # a crate from crates.io, or two of one name: no guess
        for n in range(len(rest), 0, -1):
            hit = self._rust_file(base, "/".join(rest[:n]))
            if hit:
                return hit
        if words[0] == "crate":
            return self._first([f"{base}/lib.rs", f"{base}/main.rs"])
        return None if words[0] in ("self", "super") else f"{base}/lib.rs"

    def _rust_file(self, folder: str, module: str) -> str | None:
        """A Rust module's file: folder/module.rs, or folder/module/mod.rs."""
        return self._first([f"{folder}/{module}.rs", f"{folder}/{module}/mod.rs"])

    def _workspace_crates(self) -> dict[str, str | None]:
        """The library crates of the repository by the name code uses (`grep-searcher`
        is `grep_searcher`), as each Cargo.toml's [package] names it, to their `src`
        folder (ripgrep's is crates/searcher/src): read once per resolution."""
        if self._crates is None:
            self._crates = {}
            for manifest in self.store.files_called("Cargo.toml") if self.root is not None else ():
                try:
                    text = read_regular(os.path.join(self.root, manifest), MANIFEST_BYTES).decode("utf-8")
                    name = tomllib.loads(text)["package"]["name"]
                except (OSError, ValueError, KeyError, TypeError):
                    continue  # unreadable, or a workspace's own manifest (no [package])
                src = posixpath.join(posixpath.dirname(manifest), "src")
                if f"{src}/lib.rs" in self.files and isinstance(name, str):
                    key = name.replace("-", "_")
                    self._crates[key] = src if key not in self._crates else None
        return self._crates

    def _crate_root(self, path: str) -> str:
        d = posixpath.dirname(path)
        while d:
            if f"{d}/lib.rs" in self.files or f"{d}/main.rs" in self.files:
                return d
            d = posixpath.dirname(d)
        return "src"

    def _dotted(self, target: str, exts) -> list[str]:
        rel = target.replace("\\", "/").replace("::", "/").replace(".", "/").strip("/")
        parts = rel.split("/")
        for n in range(len(parts), 0, -1):  # `a.b.C` or `a.b.C.member`
            suffix = "/".join(parts[:n])
            for ext in exts:
                matches = self._files_ending(suffix + ext)
                if matches:
                    return matches[:MAX_PACKAGE_FILES]
        return self._package_directory(rel, exts)

    def _files_ending(self, ending: str) -> list[str]:
        """The files whose path ends with `ending` (`acme/store.py`), whole names only."""
        return [p for p in self.by_name.get(posixpath.basename(ending), ()) if f"/{p}".endswith(f"/{ending}")]

    def _index_directories(self) -> None:
        """Every directory that holds files, itself or below, by its last name, once."""
        every = set()
        for d in self.by_dir:
            while d and d not in every:
                every.add(d)
                d = posixpath.dirname(d)
        self._dirs_by_name, dotted = defaultdict(list), defaultdict(list)
        for d in sorted(every):
            name = posixpath.basename(d)
            self._dirs_by_name[name].append(d)
            if "." in name:  # a C# project's folder: Src/Acme.Store
                dotted[name.rpartition(".")[2]].append(d)
        self._dotted_dirs = dotted

    def _directories_named(self, name: str, within: frozenset[str] | None = None, *, dotted: bool = False) -> list[str]:
        """Every directory whose last name is `name` and that holds files, itself or
        below; `within`: only those whose parent's name is one of these (packages/ui);
        `dotted`: a folder whose name ends `.name` too (Src/Acme.Store for `Store`)."""
        if self._dirs_by_name is None:
            self._index_directories()
        found = self._dirs_by_name.get(name, []) + (self._dotted_dirs.get(name, []) if dotted else [])
        return found if within is None else [d for d in found if posixpath.basename(posixpath.dirname(d)) in within]

    def _package_directory(self, rel: str, exts) -> list[str]:
        """A whole package (`import com.acme.store.*`, Scala's `{Shelf, Cart}`, C#'s
        `using Acme.Store`): the files of the directories the path spells, under any
        source root, as a Go import is; a folder's dots spell too (C#'s Src/Acme.Store/Linq
        for `using Acme.Store.Linq`)."""
        exts = tuple(exts)
        homes = [d for d in self._directories_named(posixpath.basename(rel), dotted=True)
                 if d == rel or f"/{d}".replace(".", "/").endswith(f"/{rel}")]
        files = sorted(f for d in homes for f in self.by_dir.get(d, ()) if f.endswith(exts))  # main and test roots alike
        return files[:MAX_PACKAGE_FILES]

    # -- uses -----------------------------------------------------------------
    def _package(self, path: str) -> frozenset[str]:
        """The files of `path`'s package, itself included, where a directory is one
        (Go, Java): their definitions are seen without an import."""
        spec = self._spec_of(path)
        if spec is None or not spec.package_scope:
            return frozenset()
        language = self.files[path]
        key = (posixpath.dirname(path), language)
        found = self._packages.get(key)
        if found is None:
            found = self._packages[key] = frozenset(
                p for d in self._package_members(key[0], spec.package_scope) for p in self.by_dir[d]
                if self.files[p] == language)
        return found

    def _package_members(self, directory: str, scope: str) -> list[str]:
        """The directories holding `directory`'s package, itself among them."""
        if scope == "directory":
            return [directory]
        by_package = self._package_dirs.get(scope)
        if by_package is None:
            by_package = self._package_dirs[scope] = defaultdict(list)
            for d in self.by_dir:
                by_package[_package_path(d, scope)].append(d)
        return by_package[_package_path(directory, scope)]

    def use_targets(self, path: str, name: str, imported: frozenset[str] | set[str]) -> list[str]:
        """`imported`: the files whose definitions `path` sees (imports, its package)."""
        name = name.strip()
        family = self._family_of.get(path)
        if "::" in name or "." in name:
            # `Router::new`, `Config.load`, `App.Reply`: a definition qualified so (or by the
            # last two parts: `http::StatusCode::from_u16`; `Util.build` for a nested
            # `Shop.Util.build`), else a member of that type in a file defining it, else
            # (inherited, an object's property) a function of that name as any; nothing for
            # a type the repository does not define (`Arc::new`, `Object.keys`). An Elixir
            # module's whole name is a plain name.
            qual = name.replace("::", ".")
            tail = _last_two(qual)
            ids = [i for i in self._qualified(qual) or self._qualified(tail) or self._tails.get(tail, [])
                   if self._family_of.get(i.partition("#")[0]) == family]
            if ids:
                return self._pick(ids, path, imported)
            if "::" in name or not self._defs(name):
                head, _, last = tail.rpartition(".")
                homes = {p for p, _ in self._defs(head) if self._family_of.get(p) == family} if head else set()
                members = [d for d in self._defs(last) if d[0] in homes]
                if members:
                    return self._pick(_ids(last, members), path, imported)
                spec = self._spec_of(path)
                if (not homes or last[:1].isupper()) and not (spec and spec.receivers_may_be_members):
                    return []  # a module or a type: none
                name = last
        found = self._defs(name)
        if not found:
            return []
        if len(found) <= 8:
            # Rules 10: its own family's definitions only (a common name, below, reaches
            # no further than its own file and its imports, which are of its family).
            found = [d for d in found if self._family_of.get(d[0]) == family]
            local = [d for d in found if d[0] == path]
            near = sorted((d for d in found if d[0] in imported), key=_path) if not local else []
        else:  # `get`, `__init__`: a scan per use would cost uses x definitions
            by_path = self._by_path.get(name)
            if by_path is None:
                by_path = self._by_path[name] = defaultdict(list)
                for d in found:
                    by_path[d[0]].append(d)
            local = by_path.get(path)
            near = [] if local else [d for q in sorted(imported & by_path.keys()) for d in by_path[q]]
        if not local and len({d[0] for d in near}) > MAX_GLOBAL_MATCHES:
            return []  # defined all over what the file sees (`body` in a JVM package): too common to guess
        chosen = local or near or (found if len(found) <= MAX_GLOBAL_MATCHES else [])
        return _ids(name, chosen[:MAX_GLOBAL_MATCHES])

    @staticmethod
    def _pick(ids: list[str], path: str, imported) -> list[str]:
        """Of a qualified use's definitions, as of a name's: the file's own, else those it
        sees (not past MAX_GLOBAL_MATCHES files), else all while that few."""
        files = [i.partition("#")[0] for i in ids]
        local = [i for i, f in zip(ids, files) if f == path]
        if local:
            return local[:MAX_GLOBAL_MATCHES]
        seen = [f for f in files if f in imported]
        chosen = [i for i, f in zip(ids, files) if f in imported] if seen else ids
        return chosen[:MAX_GLOBAL_MATCHES] if len(set(seen or files)) <= MAX_GLOBAL_MATCHES else []

    def doc_targets(self, path: str, name: str) -> list[str]:
        here = posixpath.dirname(path)
        for candidate in (posixpath.normpath(posixpath.join(here, name)), name.lstrip("./")):
            if candidate in self.files:
                return [candidate]
        name = dotted(name)
        last = name.rsplit(".", 1)[-1]
        found = self._defs(last)
        if "." in name:
            qual = self._qualified(name)
            if qual:
                return qual[:MAX_GLOBAL_MATCHES]
            parts = name.split(".")  # `flask.app.Flask`, `pkg.retry.RetryPolicy`: namespaces as directories
            found = [d for d in found if named_in_part(parts, d[0], (d[1] or last).split("."))]
            return _ids(last, found) if len(found) == 1 else []
        return _ids(last, found) if len(found) == 1 else []  # prose names one thing, or says nothing

    def readme_targets(self, path: str) -> list[str]:
        """A README documents its directory (the directory itself, named by its path,
        "." for the root): one edge, not one per file, so it does not crowd every
        file's neighbourhood."""
        if PurePosixPath(path).stem.lower() != "readme":
            return []
        return [posixpath.dirname(path) or "."]

    # -- one file ---------------------------------------------------------------
    def links_in_chunks(self, paths, chunk: int = 500):
        """links_for, a few hundred files at a time: memory stays bounded by the
        chunk (the kernel has millions of uses), not by the repository."""
        paths = sorted(paths)
        for i in range(0, len(paths), chunk):
            yield paths[i : i + chunk], self.links_for(paths[i : i + chunk])

    def links_for(self, paths) -> list[tuple[str, str, str, str]]:
        """Every link owned by `paths`, as (owner path, src, dst, rel)."""
        paths = [p for p in paths if p in self.files]
        imported: dict[str, set[str]] = defaultdict(set)
        package_imports: dict[str, set[str]] = defaultdict(set)  # path -> files of the packages it imports
        links: set[tuple[str, str, str, str]] = set()
        doc_links: dict[str, int] = defaultdict(int)
        aliases: dict[str, dict[str, str]] = defaultdict(dict)  # path -> short name -> module (Elixir)
        for path, statement, _line, names in self.store.imports_of(paths):
            if self._style_of(path) == "snake_modules":
                aliases[path].update(_aliased(statement, (names or "").split()))
            for target in self._imports_in(path, statement):
                targets = [dst for dst in self.import_targets(path, target, names or "") if dst != path]
                imported[path].update(targets)
                if len(targets) == 1 and posixpath.basename(targets[0]) in RUST_ROOTS and "::" in target:
                    imported[path].update(self._reexported(targets[0], target.rpartition("::")[2]))
                if len(targets) > 1:
                    package_imports[path].update(targets)
                else:
                    links.update((path, path, dst, IMPORTS) for dst in targets)
        visible = {}  # what each file's names may mean: its imports and its package (not an import link)
        for path in paths:
            package = self._package(path)
            visible[path] = imported[path] | package if imported.get(path) else package
        targets: dict[str, list[str]] = {}  # name -> what it means in `file`: a file repeats its names
        file = None
        for path, src, name, kind in self.store.uses_of(paths):  # grouped by file
            if kind == "doc":
                if is_release_notes(path) or doc_links[src] >= MAX_DOC_TARGETS:
                    continue
                for dst in self.doc_targets(path, name):
                    if (path, src, dst, DOCUMENTS) not in links:
                        links.add((path, src, dst, DOCUMENTS))
                        doc_links[src] += 1
                continue
            rel = CALLS if kind == "call" else REFERENCES
            if path != file:
                file, targets = path, {}
            found = targets.get(name)
            if found is None:
                meant = _unaliased(name, aliases[path]) if path in aliases else name
                found = targets[name] = self.use_targets(path, meant, visible.get(path, frozenset()))
            for dst in found:
                if dst != src:
                    links.add((path, src, dst, rel))
        self._package_links(package_imports, links)
        for path in paths:
            top = self._readme_top_section(path)
            if top:
                links.update((path, top, dst, DOCUMENTS) for dst in self.readme_targets(path))
        return sorted(links)

    def _reexported(self, root: str, name: str) -> set[str]:
        """Where a Rust module root (lib.rs, mod.rs) takes `name` from: `use axum::Router`
        names axum's lib.rs, whose `pub use self::routing::Router` leads to the file
        defining it. One hop; each root's `use` paths resolved once."""
        exports = self._exports.get(root)
        if exports is None:
            exports = self._exports[root] = defaultdict(set)
            for _, statement, _line, names in self.store.imports_of([root]):
                if "::" not in statement:
                    continue  # `mod child;`: a module of its own, not a name taken in
                for target in self._imports_in(root, statement):
                    exports[target.rpartition("::")[2]].update(
                        dst for dst in self.import_targets(root, target, names or "") if dst != root)
        return exports.get(name, set())

    @staticmethod
    def _package_links(package_imports: dict[str, set[str]], links: set[tuple[str, str, str, str]]) -> None:
        """An import of a package (Go's, a Java one) names a directory of files: it
        links to those defining something the importer uses, not to every one, so
        a file's neighbours are what it leans on (`context.go` imports `binding` for
        `binding.JSON`, not for `binding/yaml.go`). One it uses nothing of (a blank
        import, uses we could not resolve) keeps the whole package."""
        if not package_imports:
            return
        used: dict[str, set[str]] = defaultdict(set)
        for path, _src, dst, rel in links:
            if rel in (CALLS, REFERENCES):
                used[path].add(dst.partition("#")[0])
        for path, files in package_imports.items():
            links.update((path, path, dst, IMPORTS) for dst in (files & used[path] or files))

    def _readme_top_section(self, path: str) -> str | None:
        if PurePosixPath(path).stem.lower() != "readme":
            return None
        nodes = [n for n in self.store.nodes_in_file(path) if n.kind == "section"]
        return nodes[0].id if nodes else None
