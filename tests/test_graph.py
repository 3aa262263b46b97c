"""The code graph: imports resolved per language, uses resolved to definitions,
docs linked to what they name, and all of it kept right when files change."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from indexer.index import RepoIndex
from indexer.resolve import use_tree_paths

from .conftest import make_repo

MIXED = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from .b import helper\nimport pkg.c\n\ndef run():\n    return helper() + pkg.c.other()\n",
    "pkg/b.py": 'def helper():\n    """Help."""\n    return 1\n',
    "pkg/c.py": "def other():\n    return 2\n",
    "web/app.ts": 'import { format } from "./util";\nimport lib from "./lib";\nexport function main(): string {\n  return format(lib);\n}\n',
    "web/util.ts": "export function format(x: string): string {\n  return x;\n}\n",
    "web/lib/index.ts": 'export default "lib";\n',
    "web/esm.ts": 'import { format } from "./util.js";\nexport const shown = format("x");\n',
    "csrc/main.c": '#include "sub/util.h"\n#include "common.h"\nint main(void) { return util_add(1, 2); }\n',
    "csrc/sub/util.h": "int util_add(int a, int b);\n",
    "csrc/sub/util.c": '#include "util.h"\nint util_add(int a, int b) { return a + b; }\n',
    "include/common.h": "#define COMMON 1\n",
    "go/cmd/main.go": 'package main\n\nimport "example.com/proj/go/pkg/store"\n\nfunc main() { store.Open() }\n',
    "go/pkg/store/store.go": "package store\n\n// Open opens the store.\nfunc Open() {}\n",
    "rs/src/lib.rs": "mod net;\nuse crate::util::helper;\nuse crate::{net::connect, codec::{self, Codec}};\n"
    "use rs_core::{wire::Frame, Config};\n\npub fn start() { helper(); }\n",
    "rs/src/net.rs": "pub fn connect() {}\n",
    "rs/src/util.rs": "pub fn helper() {}\n",
    "rs/src/codec.rs": "pub struct Codec;\n",
    "crates/core/Cargo.toml": '[package]\nname = "rs-core"\nversion = "0.1.0"\n',
    "crates/core/src/lib.rs": "pub mod wire;\n",
    "crates/core/src/wire.rs": "pub struct Frame;\n",
    "java/com/acme/App.java": "package com.acme;\nimport com.acme.store.Store;\nclass App { void run() { new Store(); } }\n",
    "java/com/acme/store/Store.java": "package com.acme.store;\npublic class Store {}\n",
    "rb/main.rb": "require_relative 'helper'\nhelp_me\n",
    "rb/helper.rb": "def help_me\n  1\nend\n",
    "scala/com/acme/Main.scala": "package com.acme\nimport com.acme.store.Shelf\n"
    "object Main { def run(): Unit = Shelf.open() }\n",
    "scala/com/acme/store/Shelf.scala": "package com.acme.store\nobject Shelf { def open(): Unit = () }\n",
    "scala/com/acme/Cart.scala": "package com.acme\nimport com.acme.store.{Shelf}\n"
    "object Cart { def fill(): Unit = Shelf.open() }\n",
    "java/com/acme/Wild.java": "package com.acme;\nimport com.acme.store.*;\nclass Wild { void go() { new Store(); } }\n",
    "ml/main.ml": "open Util\nlet main () = hail ()\n",
    "ml/util.ml": '(** Says hello. *)\nlet hail () = print_endline "hi"\n',
    "dart/lib/main.dart": "import 'util.dart';\nvoid main() {\n  shout();\n}\n",
    "dart/lib/util.dart": "void shout() {}\n",
    "dart/lib/dart.dart": "export 'util.dart';\n",
    "dart/test/util_test.dart": "import 'package:dart/dart.dart';\nimport 'package:dart/util.dart' show shout;\n"
    "import 'package:test/test.dart';\nimport 'dart:async';\nvoid main() {\n  shout();\n}\n",
    "zig/main.zig": 'const util = @import("util.zig");\npub fn main() void {\n    util.greet();\n}\n',
    "zig/util.zig": "pub fn greet() void {}\n",
    "swift/Sources/App/main.swift": "func start() {\n    salute()\n}\n",
    "swift/Sources/App/Greeter.swift": "func salute() {}\n",
    "ex/lib/app.ex": "defmodule App do\n  alias App.Greeter\n  def run, do: Greeter.welcome()\nend\n",
    "ex/lib/app/greeter.ex": "defmodule App.Greeter do\n  def welcome, do: :ok\nend\n",
    "ex/lib/app/router.ex": "defmodule App.Router do\n  alias App.Router.{Route, Scope}\n"
    "  def build, do: Route.new(Scope.root())\nend\n",
    "ex/lib/app/router/route.ex": "defmodule App.Router.Route do\n  def new(scope), do: scope\nend\n",
    "ex/lib/app/router/scope.ex": "defmodule App.Router.Scope do\n  def root, do: :root\nend\n",
    "docs/guide.md": "# Guide\n\nCall `helper` from [the app](../pkg/a.py). See `Store`.\n",
}


@pytest.fixture
def mixed(tmp_path):
    repo = make_repo(tmp_path / "mixed", MIXED)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    summary = index.refresh()
    return index, summary


def indexed(tmp_path, files, namesakes=None):
    """A repository of `files`, indexed; `namesakes`: (path with `{}`, text), four more
    files defining a name, so that it is too common to resolve repository-wide."""
    if namesakes:
        files = {**files, **{namesakes[0].format(i): namesakes[1] for i in range(4)}}
    index = RepoIndex(make_repo(tmp_path / "repo", files), cache_dir=tmp_path / "cache")
    index.refresh()
    return index


def links(index, rel):
    return {(s, d) for s, d, r in index.store.all_edges() if r == rel}


def test_mixed_repository_of_seven_languages_indexes_without_warnings(mixed):
    index, summary = mixed
    assert summary.warnings == 0
    assert {"python", "typescript", "c", "go", "rust", "java", "ruby", "markdown"} <= set(summary.languages)


def test_structural_edges_are_counted_as_the_view_lists_them(mixed):
    """defines/contains are a view over the nodes; the summary counts them off the
    indexes instead of scanning it, and must count what the view lists."""
    index, summary = mixed
    edges = index.store.all_edges()
    assert summary.edges == index.store.counts()["edges"] == len(edges)
    assert {r for _, _, r in edges} >= {"code.defines", "repo-graph:contains", "code.imports", "code.calls"}


@pytest.mark.parametrize(
    "src,dst",
    [
        ("pkg/a.py", "pkg/b.py"),  # relative python import
        ("pkg/a.py", "pkg/c.py"),  # absolute python import
        ("web/app.ts", "web/util.ts"),  # TS path without extension
        ("web/app.ts", "web/lib/index.ts"),  # TS directory import -> index
        ("web/esm.ts", "web/util.ts"),  # TS ESM: `./util.js` names what util.ts compiles to
        ("csrc/main.c", "csrc/sub/util.h"),  # C include in a subdirectory
        ("csrc/main.c", "include/common.h"),  # C include by search path
        ("csrc/sub/util.c", "csrc/sub/util.h"),
        ("go/cmd/main.go", "go/pkg/store/store.go"),  # Go package by directory
        ("rs/src/lib.rs", "rs/src/net.rs"),  # Rust mod
        ("rs/src/lib.rs", "rs/src/util.rs"),  # Rust use crate::
        ("rs/src/lib.rs", "rs/src/codec.rs"),  # each path of a use tree
        ("crates/core/src/lib.rs", "crates/core/src/wire.rs"),
        ("rs/src/lib.rs", "crates/core/src/wire.rs"),  # another crate of the workspace, by its Cargo.toml's name
        ("rs/src/lib.rs", "crates/core/src/lib.rs"),  # an item at that crate's root
        ("java/com/acme/App.java", "java/com/acme/store/Store.java"),
        ("rb/main.rb", "rb/helper.rb"),
        ("scala/com/acme/Main.scala", "scala/com/acme/store/Shelf.scala"),  # Scala: a path in parts
        ("zig/main.zig", "zig/util.zig"),
        ("dart/lib/main.dart", "dart/lib/util.dart"),
        ("dart/lib/dart.dart", "dart/lib/util.dart"),  # Dart: a library exports its parts
        ("dart/test/util_test.dart", "dart/lib/util.dart"),  # package:dart/ is the package named dart's lib/
        ("dart/test/util_test.dart", "dart/lib/dart.dart"),
        ("ex/lib/app.ex", "ex/lib/app/greeter.ex"),  # Elixir: App.Greeter is app/greeter.ex
        ("ex/lib/app/router.ex", "ex/lib/app/router/route.ex"),  # alias App.Router.{Route, Scope}
        ("ex/lib/app/router.ex", "ex/lib/app/router/scope.ex"),
        ("ml/main.ml", "ml/util.ml"),  # OCaml: `open Util` is util.ml
        ("java/com/acme/Wild.java", "java/com/acme/store/Store.java"),  # a package: its directory's files
        ("scala/com/acme/Cart.scala", "scala/com/acme/store/Shelf.scala"),  # selectors: the package
    ],
)
def test_imports_resolve_to_files(mixed, src, dst):
    index, _ = mixed
    assert (src, dst) in links(index, "code.imports")


def test_a_jvm_test_sees_its_package_in_the_main_source_set(tmp_path):
    """Maven's and Gradle's layout splits a package between src/main/java and
    src/test/java: the test calls its subject without an import. `stock` is defined
    in five places, too many to guess from anywhere, so only the package resolves it."""
    files = {
        "shop/src/main/java/com/acme/Shelf.java": "package com.acme;\npublic class Shelf { public void stock() {} }\n",
        "shop/src/test/java/com/acme/ShelfTest.java": "package com.acme;\n"
        "class ShelfTest { void check(Shelf s) { s.stock(); } }\n",
    }
    for i in range(4):
        files[f"shop/src/main/java/com/other/O{i}.java"] = f"package com.other;\nclass O{i} {{ void stock() {{}} }}\n"
    index = indexed(tmp_path, files)
    calls = links(index, "code.calls")
    test, subject = "shop/src/test/java/com/acme/ShelfTest.java", "shop/src/main/java/com/acme/Shelf.java"
    assert (f"{test}#ShelfTest.check", f"{subject}#Shelf.stock") in calls
    assert not any(dst.startswith("shop/src/main/java/com/other/") for _, dst in calls)


def test_a_name_defined_all_over_what_a_file_sees_is_not_guessed(tmp_path):
    """Four classes of one package define `close`: a bare `close()` in the fifth could
    mean any of them, so it links to none rather than to the first three by path.
    `open`, defined in one of them, still resolves."""
    files = {
        f"src/main/java/com/acme/C{i}.java": f"package com.acme;\nclass C{i} {{ void close() {{}} }}\n"
        for i in range(4)
    }
    files["src/main/java/com/acme/C0.java"] = "package com.acme;\nclass C0 { void close() {} void open() {} }\n"
    files["src/test/java/com/acme/UserTest.java"] = (
        "package com.acme;\nclass UserTest { void use() { close(); open(); } }\n"
    )
    index = indexed(tmp_path, files)
    calls = {dst for src, dst in links(index, "code.calls") if src.startswith("src/test/")}
    assert calls == {"src/main/java/com/acme/C0.java#C0.open"}


def test_a_use_resolves_in_its_own_language_family_only(tmp_path):
    """Phoenix's Elixir and its JavaScript client both have a `push`: an Elixir call to
    it is not a call into the JavaScript. Kotlin calling Java, or C++ calling C, is."""
    files = {
        "assets/js/channel.js": "export function push(event) { return event; }\n",
        "lib/channel.ex": "defmodule App.Channel do\n  def reply(socket) do\n    push(socket)\n  end\nend\n",
        "src/main/java/com/acme/Legacy.java": "package com.acme;\nclass Legacy { static int encode(int x) { return x; } }\n",
        "src/main/kotlin/com/acme/Client.kt": "package com.acme\nfun send(x: Int) = Legacy.encode(x)\n",
        "native/codec.c": "int decode_frame(int x) { return x; }\n",
        "native/codec.cpp": "namespace codec { int read() { return decode_frame(1); } }\n",
    }
    index = indexed(tmp_path, files)
    calls = links(index, "code.calls")
    assert not any(s.startswith("lib/") for s, _ in calls)
    assert ("src/main/kotlin/com/acme/Client.kt#send", "src/main/java/com/acme/Legacy.java#Legacy.encode") in calls
    assert ("native/codec.cpp#codec.read", "native/codec.c#decode_frame") in calls


def test_an_elixir_module_named_in_code_resolves_to_its_defmodule(tmp_path):
    """A struct, a remote call's module and a module passed to a call name a module
    that one file defines (`module_targets`): each is a reference to it, by its whole name
    or by the short one an alias made. Ruby reopens
    `module Shop` in every file, so a Ruby module stays no target."""
    files = {
        "lib/app/reply.ex": "defmodule App.Reply do\n  defstruct [:status]\nend\n",
        "lib/app/server.ex": "defmodule App.Server do\n  def broadcast(msg), do: msg\nend\n",
        "lib/app/codec.ex": "defmodule App.Codec do\n  def encode(mod, x), do: {mod, x}\nend\n",
        "lib/app/channel.ex": "defmodule App.Channel do\n  def reply(socket) do\n"
        "    reply = %App.Reply{status: :ok}\n    App.Server.broadcast(reply)\n"
        "    encode(App.Codec, socket)\n  end\nend\n",
        "lib/app/socket.ex": "defmodule App.Socket do\n  alias App.Reply\n  alias App.{Server, Codec}\n"
        "  def push(x) do\n    Server.broadcast(%Reply{status: x})\n    Codec.encode(Reply, x)\n"
        "  end\nend\n",
        "lib/shop/cart.rb": "module Shop\n  class Cart\n  end\nend\n",
        "lib/shop/order.rb": "module Shop\n  class Order\n    def cart\n      Shop::Cart.new\n    end\n  end\nend\n",
    }
    index = indexed(tmp_path, files)
    used = {d for s, d in links(index, "code.references") if s.startswith("lib/app/channel.ex#")}
    assert {"lib/app/reply.ex#App.Reply", "lib/app/server.ex#App.Server", "lib/app/codec.ex#App.Codec"} <= used
    # Rules 12: a short name an alias made (`alias App.Reply`, `alias App.{Server, Codec}`) is its module.
    short = {d for s, d in links(index, "code.references") if s.startswith("lib/app/socket.ex#")}
    assert {"lib/app/reply.ex#App.Reply", "lib/app/server.ex#App.Server", "lib/app/codec.ex#App.Codec"} <= short
    assert not any(d.endswith("#Shop") for _, d in links(index, "code.references"))


def test_javascript_aliases_and_workspace_packages_resolve(tmp_path):
    """`@/lib/format` is the app's src/lib/format.ts (the alias a Next.js or Vite app
    configures); `@acme/ui` and `@acme/ui/button` are the workspace package in
    packages/ui; `react` and a package two folders share a name with are no file here."""
    files = {
        "apps/web/src/lib/format.ts": "export function fmt(x: string): string { return x; }\n",
        "apps/web/src/app/page.tsx": 'import { fmt } from "@/lib/format";\nexport const P = () => fmt("p");\n',
        "apps/web/src/app/layout.tsx": 'import { Button } from "@acme/ui";\nimport { press } from "@acme/ui/button";\n'
        'import React from "react";\nimport { t } from "@acme/theme";\n'
        "export const L = () => press(Button);\n",
        "packages/ui/src/index.ts": "export const Button = 1;\n",
        "packages/ui/src/button.ts": "export function press(b: number) { return b; }\n",
        "packages/theme/index.ts": "export const t = 1;\n",
        "libs/theme/index.ts": "export const t = 2;\n",
    }
    index = indexed(tmp_path, files)
    imports = {(s, d) for s, d in links(index, "code.imports")}
    layout = "apps/web/src/app/layout.tsx"
    assert ("apps/web/src/app/page.tsx", "apps/web/src/lib/format.ts") in imports
    assert (layout, "packages/ui/src/index.ts") in imports
    assert (layout, "packages/ui/src/button.ts") in imports
    assert {d for s, d in imports if s == layout} == {"packages/ui/src/index.ts", "packages/ui/src/button.ts"}


def test_a_swift_module_is_its_target_folder_to_any_depth(tmp_path):
    """SwiftPM: Sources/Shop/Model and Sources/Shop/Views are one module, and the tests'
    `@testable import Shop` sees all of it (linking to the files it uses). `stock` is
    defined in four other modules too, so only the module resolves it."""
    files = {
        "Sources/Shop/Model/Shelf.swift": "struct Shelf {\n    func stock() {}\n}\n",
        "Sources/Shop/Views/ShelfView.swift": "func show(s: Shelf) {\n    s.stock()\n}\n",
        "Sources/Shop/Views/Unused.swift": "func unused() {}\n",
        "Tests/ShopTests/ShelfTests.swift": "@testable import Shop\nfunc testStock() {\n    Shelf().stock()\n}\n",
    }
    index = indexed(tmp_path, files, namesakes=("Sources/Other{}/O.swift", "struct O {\n    func stock() {}\n}\n"))
    calls = links(index, "code.calls")
    shelf = "Sources/Shop/Model/Shelf.swift"
    assert ("Sources/Shop/Views/ShelfView.swift#show", f"{shelf}#Shelf.stock") in calls
    assert ("Tests/ShopTests/ShelfTests.swift#testStock", f"{shelf}#Shelf.stock") in calls
    assert {d for s, d in links(index, "code.imports") if s == "Tests/ShopTests/ShelfTests.swift"} == {shelf}


def test_python_imports_find_a_package_under_any_folder(tmp_path):
    """A monorepo keeps its Python packages in libs/<name>/src/<name>: `acme.store` is
    the one module whose path ends acme/store.py. `import json` is no module file named
    json.py, and a name two packages bear is no guess."""
    files = {
        "libs/acme/src/acme/__init__.py": "",
        "libs/acme/src/acme/store.py": "class Shelf:\n    pass\n",
        "libs/acme/tests/test_store.py": "import json\nfrom acme.store import Shelf\nfrom acme import store\n"
        "import twin\n\ndef test_shelf():\n    assert Shelf and store\n",
        "tools/json.py": "def dump():\n    pass\n",
        "a/twin/__init__.py": "",
        "b/twin/__init__.py": "",
    }
    index = indexed(tmp_path, files)
    test = "libs/acme/tests/test_store.py"
    assert {d for s, d in links(index, "code.imports") if s == test} == {"libs/acme/src/acme/store.py"}


def test_php_use_finds_the_class_file_psr4_names(tmp_path):
    """`use Slim\\Routing\\Route` is Slim/Routing/Route.php; composer.json maps
    `Slim\\Tests\\` to tests/, so `Slim\\Tests\\Mocks\\MockAction` is
    tests/Mocks/MockAction.php; a vendor's class is no file here, and a class of the
    same namespace (folder) needs no `use`."""
    files = {
        "Slim/Routing/Route.php": "<?php\nnamespace Slim\\Routing;\nclass Route { public function run() {} }\n",
        "Slim/Routing/RouteRunner.php": "<?php\nnamespace Slim\\Routing;\nclass RouteRunner {\n"
        "  public function go(Route $r) { $r->run(); }\n}\n",
        "tests/Mocks/MockAction.php": "<?php\nnamespace Slim\\Tests\\Mocks;\nclass MockAction {}\n",
        "tests/Routing/RouteTest.php": "<?php\nnamespace Slim\\Tests\\Routing;\nuse Slim\\Routing\\Route;\n"
        "use Slim\\Tests\\Mocks\\MockAction;\nuse Psr\\Http\\Message\\ResponseInterface;\n"
        "class RouteTest {}\n",
        "lib/inc.php": "<?php\nrequire 'config.inc';\n",
        "lib/config.inc": "<?php\n$x = 1;\n",
    }
    index = indexed(
        tmp_path, files, namesakes=("other{}/Thing.php", "<?php\nclass Thing { public function run() {} }\n")
    )
    imports = links(index, "code.imports")
    assert {d for s, d in imports if s == "tests/Routing/RouteTest.php"} == {
        "Slim/Routing/Route.php",
        "tests/Mocks/MockAction.php",
    }
    assert ("lib/inc.php", "lib/config.inc") in imports
    assert ("Slim/Routing/RouteRunner.php#RouteRunner.go", "Slim/Routing/Route.php#Route.run") in links(
        index, "code.calls"
    )


def test_a_csharp_using_finds_the_folder_its_namespace_names(tmp_path):
    """A C# project's folder is named for its root namespace, dots and all:
    `using Acme.Store.Linq` is Src/Acme.Store/Linq; a class of the folder's own
    namespace needs no `using`."""
    files = {
        "Src/Acme.Store/Linq/Token.cs": "namespace Acme.Store.Linq {\n  public class Token { public void Parse() {} }\n}\n",
        "Src/Acme.Store/Reader.cs": "using Acme.Store.Linq;\nnamespace Acme.Store {\n"
        "  class Reader { void Read(Token t) { t.Parse(); } public void Close() {} }\n}\n",
        "Src/Acme.Store/Writer.cs": "namespace Acme.Store {\n  class Writer { void Done(Reader r) { r.Close(); } }\n}\n",
    }
    index = indexed(
        tmp_path, files, namesakes=("Other{}/O.cs", "class O { public void Close() {} public void Parse() {} }\n")
    )
    assert ("Src/Acme.Store/Reader.cs", "Src/Acme.Store/Linq/Token.cs") in links(index, "code.imports")
    calls = links(index, "code.calls")
    assert (
        "Src/Acme.Store/Reader.cs#Acme.Store.Reader.Read",
        "Src/Acme.Store/Linq/Token.cs#Acme.Store.Linq.Token.Parse",
    ) in calls
    assert (
        "Src/Acme.Store/Writer.cs#Acme.Store.Writer.Done",
        "Src/Acme.Store/Reader.cs#Acme.Store.Reader.Close",
    ) in calls


def test_calls_resolve_through_imports(mixed):
    index, _ = mixed
    calls = links(index, "code.calls")
    assert ("pkg/a.py#run", "pkg/b.py#helper") in calls
    assert ("web/app.ts#main", "web/util.ts#format") in calls
    assert ("go/cmd/main.go#main", "go/pkg/store/store.go#Open") in calls
    assert ("csrc/main.c#main", "csrc/sub/util.c#util_add") in calls
    assert ("scala/com/acme/Main.scala#Main.run", "scala/com/acme/store/Shelf.scala#Shelf.open") in calls
    assert ("zig/main.zig#main", "zig/util.zig#greet") in calls
    assert ("swift/Sources/App/main.swift#start", "swift/Sources/App/Greeter.swift#salute") in calls  # one module
    assert ("ex/lib/app.ex#App.run", "ex/lib/app/greeter.ex#App.Greeter.welcome") in calls
    assert ("ml/main.ml#main", "ml/util.ml#hail") in calls
    assert ("dart/lib/main.dart#main", "dart/lib/util.dart#shout") in calls  # the call is in main's body


def test_docs_document_the_files_and_symbols_they_name(mixed):
    index, _ = mixed
    docs = links(index, "doc.documents")
    assert ("docs/guide.md#guide", "pkg/a.py") in docs
    # `helper` is defined in Python and in Rust: prose naming two things links neither
    assert not any(dst.endswith("#helper") for _, dst in docs)
    assert ("docs/guide.md#guide", "java/com/acme/store/Store.java#Store") in docs


def test_a_changed_definition_re_resolves_its_callers(mixed):
    index, _ = mixed
    b = index.root / "pkg" / "b.py"
    b.write_text("def renamed():\n    return 1\n")
    index.refresh()
    assert ("pkg/a.py#run", "pkg/b.py#helper") not in links(index, "code.calls")
    b.write_text("def helper():\n    return 3\n")
    assert index.ensure_fresh("pkg/b.py")
    assert ("pkg/a.py#run", "pkg/b.py#helper") in links(index, "code.calls")
    assert index.graph.has_edge("pkg/a.py#run", "pkg/b.py#helper", "code.calls")


def test_rust_names_are_found_where_a_crate_root_re_exports_them_from(tmp_path):
    """`use core_lib::Shelf` names the crate's lib.rs, whose `pub use` leads to the file
    defining Shelf (four more define one: no repository-wide guess would do); `use
    crate::Config` is the crate root's; `super::super::` in src/net/tcp.rs (module
    crate::net::tcp) is the crate."""
    files = {
        "crates/core/Cargo.toml": '[package]\nname = "core-lib"\n',
        "crates/core/src/lib.rs": "mod store;\npub use self::store::Shelf;\n",
        "crates/core/src/store.rs": "pub struct Shelf;\n",
        "app/src/main.rs": "mod net;\nmod util;\nuse core_lib::Shelf;\npub struct Config;\n"
        "fn main() { let s: Shelf = make(); }\n",
        "app/src/util.rs": "use crate::Config;\npub fn tune(c: Config) -> Config { c }\n",
        "app/src/net.rs": "mod tcp;\n",
        "app/src/net/tcp.rs": "use super::super::util::tune;\npub fn dial() { tune(); }\n",
    }
    index = indexed(tmp_path, files, namesakes=("other/src/shelf{}.rs", "pub struct Shelf;\n"))
    assert ("app/src/main.rs#main", "crates/core/src/store.rs#Shelf") in links(index, "code.references")
    imports = links(index, "code.imports")
    assert ("app/src/util.rs", "app/src/main.rs") in imports  # an item at the crate root
    assert ("app/src/net.rs", "app/src/net/tcp.rs") in imports
    assert ("app/src/net/tcp.rs", "app/src/util.rs") in imports
    assert ("app/src/net/tcp.rs#dial", "app/src/util.rs#tune") in links(index, "code.calls")
    # The root's re-exports change: its importers are resolved again.
    lib = index.root / "crates/core/src/lib.rs"
    lib.write_text("mod store;\n")
    index.refresh()
    assert ("app/src/main.rs#main", "crates/core/src/store.rs#Shelf") not in links(index, "code.references")
    lib.write_text("mod store;\npub use store::Shelf;\n")
    index.refresh()
    assert ("app/src/main.rs#main", "crates/core/src/store.rs#Shelf") in links(index, "code.references")


def test_a_classs_function_called_by_its_path_is_that_classs(tmp_path):
    """Python's, TypeScript's, Java's, Scala's, Ruby's, C#'s and Dart's `Config.load()` and Rust's
    `Other::new()` are that class's `load` or `new`, not the one of every file in sight,
    nested or not, numbered or not (`Router~3.new`: the struct and `impl Clone` come
    first); `Object.keys(o)`, `Objects.equals(a, b)` name a class the repository does not
    define: no guess at the `keys` or `equals` it does; `Self::new()` and `util::helper()`
    go by the function's name, as before."""
    files = {
        "src/router.rs": "pub struct Router;\nimpl Clone for Router { fn clone(&self) -> Router { Router } }\n"
        "impl Router {\n    pub fn new() -> Router { Router }\n"
        "    pub fn again() -> Router { Self::new() }\n}\n",
        "src/other.rs": "pub struct Other;\nimpl Other { pub fn new() -> Other { Other } }\n",
        "src/util.rs": "pub fn helper() {}\n",
        "src/main.rs": "mod router;\nmod other;\nmod util;\nuse crate::router::Router;\nuse crate::other::Other;\n"
        "fn build() { let o = Other::new(); util::helper(); }\nfn main() { let r = Router::new(); }\n",
        "py/config.py": "class Config:\n    @classmethod\n    def load(cls):\n        return cls()\n",
        "py/store.py": "class Store:\n    def load(self):\n        return 1\n",
        "py/app.py": "from config import Config\nfrom store import Store\n\n\ndef run():\n    return Config.load()\n",
        "ts/config.ts": "export class Config {\n  static load(): Config { return new Config(); }\n}\n",
        "ts/store.ts": "export class Store {\n  load(): number { return 1; }\n}\n",
        "ts/util.ts": "export function keys(): string[] { return []; }\n",
        "ts/app.ts": 'import { Config } from "./config";\nimport { Store } from "./store";\n'
        'import { keys } from "./util";\nexport function run() { return Config.load(); }\n'
        "export function listed(o: object) { return Object.keys(o); }\n",
        "java/com/acme/Config.java": "package com.acme;\npublic class Config {\n"
        "  public static Config load() { return new Config(); }\n}\n",
        "java/com/acme/Store.java": "package com.acme;\npublic class Store {\n  public int load() { return 1; }\n}\n",
        "java/com/acme/Util.java": "package com.acme;\nclass Util {\n"
        "  static boolean equals(Object a, Object b) { return a == b; }\n}\n",
        "java/com/acme/App.java": "package com.acme;\nclass App {\n  Config run() { return Config.load(); }\n"
        "  boolean same(Object a) { return Objects.equals(a, a); }\n}\n",
        "scala/acme/Parser.scala": "package acme\nobject Parser {\n  def parse(s: String): Int = 1\n}\n",
        "scala/acme/Lexer.scala": "package acme\nobject Lexer {\n  def parse(s: String): Int = 2\n}\n",
        "scala/acme/Main.scala": 'package acme\nobject Main {\n  def run(): Int = Parser.parse("x")\n}\n',
        "rb/shop/util.rb": "module Shop\n  module Util\n    def self.build\n      1\n    end\n  end\nend\n",
        "rb/shop/cart.rb": "module Shop\n  class Cart\n    def self.build\n      2\n    end\n\n"
        "    def fill\n      Util.build\n    end\n  end\nend\n",
        "cs/Config.cs": "namespace Acme {\n  public class Config {\n    public static Config Load() { return new Config(); }\n"
        "  }\n}\n",
        "cs/Store.cs": "namespace Acme {\n  public class Store {\n    public int Load() { return 1; }\n  }\n}\n",
        "cs/Sink.cs": "namespace Acme {\n  public class Sink {\n    public void WriteLine(string s) {}\n  }\n}\n",
        "cs/App.cs": "namespace Acme {\n  class App {\n    Config Run() { return Config.Load(); }\n"
        '    void Say() { Console.WriteLine("x"); }\n  }\n}\n',
        "dart/lib/config.dart": "class Config {\n  static Config load() => Config();\n}\n",
        "dart/lib/store.dart": "class Store {\n  int load() => 1;\n}\n",
        "dart/lib/app.dart": "import 'config.dart';\nimport 'store.dart';\n\nConfig run() => Config.load();\n",
    }
    calls = links(indexed(tmp_path, files), "code.calls")
    # C#: the class's `Load`; a receiver no class answers may be a property (C#'s are
    # capitalised), so `Console.WriteLine` goes by its name, as before receivers were read.
    assert ("cs/App.cs#Acme.App.Run", "cs/Config.cs#Acme.Config.Load") in calls
    assert ("cs/App.cs#Acme.App.Run", "cs/Store.cs#Acme.Store.Load") not in calls
    assert ("cs/App.cs#Acme.App.Say", "cs/Sink.cs#Acme.Sink.WriteLine") in calls
    assert ("dart/lib/app.dart#run", "dart/lib/config.dart#Config.load") in calls
    assert ("dart/lib/app.dart#run", "dart/lib/store.dart#Store.load") not in calls
    assert ("src/main.rs#build", "src/other.rs#Other~2.new") in calls
    assert ("src/main.rs#build", "src/router.rs#Router~3.new") not in calls
    assert ("src/main.rs#main", "src/router.rs#Router~3.new") in calls
    assert ("src/main.rs#main", "src/other.rs#Other~2.new") not in calls
    assert ("src/router.rs#Router~3.again", "src/router.rs#Router~3.new") in calls
    assert ("src/main.rs#build", "src/util.rs#helper") in calls
    assert ("py/app.py#run", "py/config.py#Config.load") in calls
    assert ("py/app.py#run", "py/store.py#Store.load") not in calls
    assert ("ts/app.ts#run", "ts/config.ts#Config.load") in calls
    assert ("ts/app.ts#run", "ts/store.ts#Store.load") not in calls
    assert ("ts/app.ts#listed", "ts/util.ts#keys") not in calls
    assert ("java/com/acme/App.java#App.run", "java/com/acme/Config.java#Config.load") in calls
    assert ("java/com/acme/App.java#App.run", "java/com/acme/Store.java#Store.load") not in calls
    assert ("java/com/acme/App.java#App.same", "java/com/acme/Util.java#Util.equals") not in calls
    assert ("scala/acme/Main.scala#Main.run", "scala/acme/Parser.scala#Parser.parse") in calls
    assert ("scala/acme/Main.scala#Main.run", "scala/acme/Lexer.scala#Lexer.parse") not in calls
    # Ruby's `Util.build` is the nested `Shop::Util.build`, not the calling class's own `build`.
    assert ("rb/shop/cart.rb#Shop.Cart.fill", "rb/shop/util.rb#Shop.Util.build") in calls
    assert ("rb/shop/cart.rb#Shop.Cart.fill", "rb/shop/cart.rb#Shop.Cart.build") not in calls


def test_a_crate_renamed_in_its_cargo_toml_re_points_the_uses_of_its_name(mixed):
    """Another crate of the workspace is found by the name its Cargo.toml gives it: a
    rename there is a change to every Rust import of the old name and of the new."""
    index, _ = mixed
    imports = lambda: links(index, "code.imports")  # noqa: E731
    assert ("rs/src/lib.rs", "crates/core/src/wire.rs") in imports()
    (index.root / "crates" / "core" / "Cargo.toml").write_text('[package]\nname = "rs-wire"\nversion = "0.1.0"\n')
    index.refresh()
    assert ("rs/src/lib.rs", "crates/core/src/wire.rs") not in imports()
    (index.root / "rs" / "src" / "lib.rs").write_text("use rs_wire::wire::Frame;\n")
    (index.root / "crates" / "core" / "Cargo.toml").write_text('[package]\nname = "rs-core"\nversion = "0.2.0"\n')
    index.refresh()
    assert ("rs/src/lib.rs", "crates/core/src/wire.rs") not in imports()
    (index.root / "crates" / "core" / "Cargo.toml").write_text('[package]\nname = "rs-wire"\nversion = "0.2.0"\n')
    index.refresh()
    assert ("rs/src/lib.rs", "crates/core/src/wire.rs") in imports()


def test_g4_anchored_file_leads_to_its_imports_and_callers(provider_factory, tmp_path):
    repo = make_repo(tmp_path / "mixed", MIXED)
    p = provider_factory(repo)
    p.handshake()
    reply = p.query(goal="helper", anchors=["pkg/b.py"], max_frames=10)
    frames = reply["result"]["frames"]
    rels = {(r["rel"], r["target_uri"]) for f in frames for r in f["relations"]}
    assert ("repo-graph:called-by", (repo / "pkg/a.py").as_uri() + "#run") in rels
    assert ("repo-graph:imported-by", (repo / "pkg/a.py").as_uri()) in rels
    reply = p.query(goal="run", anchors=["pkg/a.py"], max_frames=10)
    rels = {(r["rel"], r["target_uri"]) for f in reply["result"]["frames"] for r in f["relations"]}
    assert ("code.imports", (repo / "pkg/b.py").as_uri()) in rels
    assert ("code.calls", (repo / "pkg/b.py").as_uri() + "#helper") in rels
    for _, target in sorted(rels):
        frames = p.query(goal="run", anchors=[target])["result"]["frames"]
        assert frames and (
            frames[0]["uri"] == target or any(r["target_uri"] == target for r in frames[0]["relations"])
        ), target


@pytest.mark.parametrize(
    "anchor,goal",
    [("pkg/b.py", "other"), ("pkg/c.py", "run helper"), ("csrc/sub/util.h", "main"), ("web/util.ts", "main lib")],
)
def test_g4_every_frame_whose_relations_reach_the_anchor_ranks_above_the_rest(provider_factory, tmp_path, anchor, goal):
    """Anchored is what the frame shows: its uri is the anchor or one of its relations
    targets it. A module frame speaks for its file, so the file's imports make it
    anchored however far the module node itself is from the anchor."""
    repo = make_repo(tmp_path / "mixed", MIXED)
    p = provider_factory(repo)
    p.handshake()
    target = (repo / anchor).as_uri()
    frames = p.query(goal=goal, anchors=[target], max_frames=30, max_tokens=20000)["result"]["frames"]
    anchored = [f["uri"] == target or any(r["target_uri"] == target for r in f["relations"]) for f in frames]
    assert anchored and anchored[0]
    assert anchored == sorted(anchored, reverse=True), [(f["id"], a) for f, a in zip(frames, anchored)]


def test_g4_what_the_open_file_imports_is_sent_and_anchored(provider_factory, tmp_path):
    """pkg/b.py has no header: its top-level `helper` speaks for it, so the frame shows
    that pkg/a.py imports its file; anchored on a.py it is sent, among the anchored."""
    repo = make_repo(tmp_path / "mixed", MIXED)
    p = provider_factory(repo)
    p.handshake()
    target = (repo / "pkg/a.py").as_uri()
    frames = p.query(goal="unrelated words", anchors=[target], max_frames=30, max_tokens=20000)["result"]["frames"]
    helper = next(f for f in frames if f["id"] == "pkg/b.py#helper")
    assert any(r["target_uri"] == target for r in helper["relations"])
    assert all(
        any(r["target_uri"] == target for r in f["relations"]) or f["uri"] == target
        for f in frames[: frames.index(helper)]
    )


def test_g4_an_anchored_neighbour_is_sent_only_when_it_earns_its_place(provider_factory, tmp_path):
    """Anchored frames outrank the rest (G4), so a neighbour in another file is sent
    only when it is worth that place. For a change, the fused score must put it at
    least as high as the best frame outside the tier (NEIGHBOUR_BAR): `format_bytes`,
    imported by the open file, matches through its docstring but less than
    `retry_policy_attempts`, no neighbour. For a question, it must match
    (ANCHORED_NEIGHBOUR_MATCH): `now` matches nothing."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "app/__init__.py": "",
            "app/open.py": "from app.util import format_bytes\nfrom app.retry import backoff\nfrom app.clock import now\n\n"
            "def download(url):\n    return format_bytes(backoff(url), now())\n",
            "app/util.py": 'def format_bytes(n, at):\n    """Bytes as text, for the retry policy log."""\n    return str(n)\n',
            "app/clock.py": "def now():\n    return 0\n",
            "app/retry.py": 'def backoff(n):\n    """Wait longer after each failed attempt: the retry policy."""\n    return n\n',
            "app/policy.py": "def retry_policy_attempts(attempts):\n"
            '    """How many attempts the retry policy makes before it gives up."""\n    return attempts\n',
        },
    )
    p = provider_factory(repo)
    p.handshake()
    target = (repo / "app/open.py").as_uri()
    for goal in ("retry policy attempts", "how many attempts does the retry policy make?"):
        frames = p.query(goal=goal, anchors=[target], kinds=["symbol"], max_frames=30, max_tokens=20000)["result"][
            "frames"
        ]
        ids = [f["id"] for f in frames]
        assert "app/clock.py#now" not in ids, goal
        assert ids.index("app/retry.py#backoff") < ids.index("app/policy.py#retry_policy_attempts"), goal
        anchored = [f["uri"] == target or any(r["target_uri"] == target for r in f["relations"]) for f in frames]
        assert anchored[0] and anchored == sorted(anchored, reverse=True), goal
        if goal == "retry policy attempts":
            assert "app/util.py#format_bytes" not in ids
    # Asked for by name, it is the best match; for a question that matches nothing, the
    # open file's neighbours are all there is to go by.
    frames = p.query(goal="format bytes", anchors=[target], kinds=["symbol"], max_frames=30)["result"]["frames"]
    assert frames[0]["id"] == "app/util.py#format_bytes"
    frames = p.query(goal="zzz", anchors=[target], kinds=["symbol"], max_frames=30)["result"]["frames"]
    assert {"app/util.py#format_bytes", "app/clock.py#now"} <= {f["id"] for f in frames}


def test_an_open_file_incidental_to_the_change_does_not_bury_its_best_answer(provider_factory, tmp_path):
    """The open file's five siblings each match the change's words in part, and its
    folder makes them close; `rotate_log_files_daily`, far from it, matches them all.
    Closeness alone puts it after the five; the order without anchors, which puts it
    first, has a vote in the fusion below the anchored tier (`_hedged`), and it comes
    before two of them. The anchored tier stays first (G4), the scores best first."""
    files = {
        "app/__init__.py": "",
        "app/open.py": "def start(server):\n    return server.run()\n",
        "lib/rotate.py": "def rotate_log_files_daily(paths):\n"
        '    """Rotate the log files once a day, at midnight."""\n    return paths\n',
    }
    for name in ("audit", "trace", "events", "errors", "access"):
        files[f"app/{name}.py"] = (
            f'def {name}_log_files(folder):\n    """The {name} log files written daily."""\n    return folder\n'
        )
    for i in range(20):
        files[f"other/m{i}.py"] = f"def handler_{i}(request):\n    return request\n"
    repo = make_repo(tmp_path / "repo", files)
    p = provider_factory(repo)
    p.handshake()
    target = (repo / "app/open.py").as_uri()
    frames = p.query(
        goal="Rotate the log files daily", anchors=[target], kinds=["symbol"], max_frames=10, max_tokens=20000
    )["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids[0] == "app/open.py#start"
    siblings = [i for i, frame_id in enumerate(ids) if frame_id.endswith("_log_files")]
    assert len(siblings) == 5 and sum(i > ids.index("lib/rotate.py#rotate_log_files_daily") for i in siblings) >= 2
    scores = [f["score"] for f in frames]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)


def test_a_rust_use_tree_is_the_paths_it_names():
    assert use_tree_paths("crate::{\n    body::{Body, HttpBody},\n    util::try_downcast as down,\n}") == [
        ["crate", "body", "Body"],
        ["crate", "body", "HttpBody"],
        ["crate", "util", "try_downcast"],
    ]
    assert use_tree_paths("self::codec::{self, Codec}") == [["self", "codec"], ["self", "codec", "Codec"]]
    assert use_tree_paths("super::*") == [["super", "*"]]


def test_incremental_resolution_gives_the_links_a_full_index_gives(mixed, tmp_path):
    """An update resolves names through the store, one name at a time (no whole
    definition table); it must end where indexing the same tree from scratch ends."""
    index, _ = mixed
    root = index.root
    (root / "pkg" / "c.py").write_text("def other():\n    return helper_two()\n\ndef helper_two():\n    return 2\n")
    (root / "pkg" / "b.py").write_text("import pkg.c\n\ndef helper():\n    return pkg.c.helper_two()\n")
    (root / "docs" / "guide.md").write_text("# Guide\n\nCall `helper_two` and `Store`.\n")
    assert all(index.update(["pkg/c.py", "pkg/b.py", "docs/guide.md"]).values())
    fresh = RepoIndex(root, cache_dir=tmp_path / "fresh-cache")
    fresh.refresh()
    assert sorted(index.store.all_edges()) == sorted(fresh.store.all_edges())
    assert ("pkg/b.py#helper", "pkg/c.py#helper_two") in links(index, "code.calls")
    fresh.close()


def test_a_very_common_term_only_reweighs_files_rarer_terms_found(tmp_path):
    """Ranking at kernel scale: past `common_postings` nodes a term scores only the files
    the query's rarer terms matched, and the rare match still leads."""
    from repo_graph import ranking

    files = {f"m{i}.py": f"def handler_{i}():\n    return data\n" for i in range(30)}
    files["target.py"] = "def retry_budget():\n    return data\n"
    index = indexed(tmp_path, files)
    everything = ranking.lexical(index, "retry data")
    pruned = ranking.lexical(
        index, "retry data", weights=replace(ranking.DEFAULT, common_postings=5)
    )  # `data`: 31 nodes
    assert {path for _, path in everything.values()} > {"target.py"}  # `data` alone reaches every file
    assert {path for _, path in pruned.values()} == {"target.py"}
    best = max(pruned.items(), key=lambda kv: kv[1][0])
    assert index.store.ids_of_rowids([best[0]])[best[0]] == "target.py#retry_budget"
    index.close()


def test_unanchored_question_favours_what_the_best_match_leads_to(provider_factory, tmp_path):
    """Without anchors the best-matching files stand in for them (pseudo-relevance
    feedback): of two equal matches, the one the best match imports and calls ranks
    first, though the other one's name sorts first."""
    repo = make_repo(
        tmp_path / "fb",
        {
            "app.py": "from zz_helpers import quota\n\n\ndef enforce_rate_limit_quota():\n"
            '    """Enforce the rate limit quota."""\n    return quota()\n',
            "zz_helpers.py": "def quota():\n    return 10\n",
            "aa_other.py": "def quota():\n    return 10\n",
        },
    )
    p = provider_factory(repo)
    p.handshake()
    ids = [f["id"] for f in p.query(goal="rate limit quota", max_frames=10)["result"]["frames"]]
    assert ids[0] == "app.py#enforce_rate_limit_quota"
    assert ids.index("zz_helpers.py#quota") < ids.index("aa_other.py#quota")


def test_a_name_spelled_with_its_namespace_finds_its_definition(tmp_path):
    """PHP, Java and Python name a symbol through the directories it lives in; Ruby
    names nest modules a question may leave out."""
    from repo_graph import ranking

    files = {
        "Slim/Http/Headers.php": "<?php\nnamespace Slim\\Http;\nclass Headers {\n  public function all() { return []; }\n}\n",
        "Slim/Http/Cookies.php": "<?php\nnamespace Slim\\Http;\nclass Cookies {\n}\n",
        "lib/rack/protection/encrypted_cookie.rb": "module Rack\n  module Protection\n    class EncryptedCookie\n"
        "      def call(env)\n      end\n    end\n  end\nend\n",
        "pkg/packing.py": "def pack(frames):\n    return frames\n",
        "other/pack.py": "def pack(x):\n    return x\n",
    }
    index = indexed(tmp_path, files)
    ids = lambda name: [n.id for n in index.store.find_by_name(name)]  # noqa: E731
    assert ranking.code_names("Update docblocks in \\Slim\\Http\\Headers") == ["Slim\\Http\\Headers"]
    assert ids("Slim.Http.Headers") == ["Slim/Http/Headers.php#Headers"]
    assert ids("Http.Headers.all") == ["Slim/Http/Headers.php#Headers.all"]
    assert ids("Protection.EncryptedCookie") == [
        "lib/rack/protection/encrypted_cookie.rb#Rack.Protection.EncryptedCookie"
    ]
    assert ids("packing.pack") == ["pkg/packing.py#pack"]
    assert ids("Cookies.Headers") == [] and ids("Other.Http.Headers") == []  # every part must name something
    top = ranking.rank(index, "Update docblocks in \\Slim\\Http\\Headers", set())[0]
    assert top.node.path == "Slim/Http/Headers.php"


def test_a_symbol_named_as_type_dot_member_leads(tmp_path):
    """`Parser.parse_header_line` in a question names one method: it leads files that
    share more of the question's words. Backticks or snake_case alone do not (they
    cost ripgrep recall in benchmarks/quality.py); the ablations switch forms on."""
    from repo_graph import ranking

    distractor = (
        'def edge_case_fix_{n}():\n    """Fix the edge case in the header line parse."""\n'
        '    return "fix edge case header line parse"\n'
    )
    files = {f"{c}.py": distractor.format(n=c) for c in "bcd"}
    files["z.py"] = "class Parser:\n    def parse_header_line(self, x):\n        return x\n"
    index = indexed(tmp_path, files)
    target = "z.py#Parser.parse_header_line"
    qualified = "fix the edge case in Parser.parse_header_line"
    assert ranking.code_names(qualified) == ["Parser.parse_header_line"]
    assert ranking.rank(index, qualified, set())[0].node.id == target
    backticked = "fix the edge case in `parse_header_line`"
    assert ranking.code_names(backticked) == []
    assert ranking.rank(index, backticked, set())[0].node.id != target
    unnamed = replace(ranking.DEFAULT, mention_match=0.0)
    assert ranking.rank(index, qualified, set(), weights=unnamed)[0].node.id != target
    backticks = replace(ranking.DEFAULT, mention_forms=("backticks", "qualified"))
    assert ranking.rank(index, backticked, set(), weights=backticks)[0].node.id == target
    index.close()


def test_counts_are_kept_and_each_write_moves_them(mixed):
    """Counting scans every node row (seconds on the kernel): counts() is counted once
    and kept, and every write (a file added, edited, emptied, removed, its links
    re-resolved) moves the kept figures to what a fresh count says."""
    index, _ = mixed
    store = index.store
    before = store.counts()
    assert json.loads(store.get_meta("counts")) == before == store._count()
    assert index.refresh().symbols == before["symbol"]  # nothing changed: read back
    quiet = index.refresh(count=False)  # the watcher's pass: files only, no node scan
    assert (quiet.files, quiet.symbols) == (before["files"], 0)
    target = index.root / "pkg" / "b.py"
    steps = [
        lambda: target.write_text(
            target.read_text() + "\n\nclass Extra:\n    def one_more(self):\n        return helper()\n"
        ),
        lambda: (index.root / "pkg" / "new.py").write_text(
            "from .b import helper\n\ndef uses():\n    return helper()\n"
        ),
        lambda: target.write_text(""),  # a file with no symbols left
        lambda: (index.root / "notes.md").write_text("# Notes\n\nSee `pkg/a.py`.\n"),
        lambda: target.unlink(),
        lambda: (index.root / "pkg" / "new.py").rename(index.root / "pkg" / "renamed.py"),
    ]
    for step in steps:
        step()
        index.refresh(count=False)
        kept = json.loads(store.get_meta("counts"))
        assert kept == store._count() == store.counts()
        assert kept["edges"] == len(store.all_edges())
    assert (
        kept["files"] == before["files"] + 1
        and kept["languages"]["markdown"] == before["languages"].get("markdown", 0) + 1
    )


def test_edge_count_holds_for_a_file_whose_name_has_a_hash(tmp_path):
    files = {
        "odd#name.py": "class A:\n    def m(self):\n        return 1\n\n\ndef f():\n    return 2\n",
        "plain.py": "def g():\n    return 3\n",
    }
    index = RepoIndex(make_repo(tmp_path / "hash", files), cache_dir=tmp_path / "cache")
    summary = index.refresh()
    assert summary.edges == len(index.store.all_edges())
    index.close()


GO_PACKAGE = {
    "go.mod": "module example.com/app\n",
    "cmd/main.go": 'package main\n\nimport "example.com/app/store"\n\nfunc main() { store.Open() }\n',
    "cmd/blank.go": 'package main\n\nimport _ "example.com/app/store"\n',
    "store/open.go": "package store\n\nfunc Open() { check() }\n",
    "store/check.go": "package store\n\nfunc check() {}\n",
    "store/close.go": "package store\n\nfunc Close() {}\n",
    # `check` is defined in more packages than a global guess will take.
    **{f"other{i}/check.go": f"package other{i}\n\nfunc check() {{}}\n" for i in range(4)},
}


def test_a_package_import_links_to_the_files_the_importer_uses(tmp_path):
    """Go imports a directory: the import links to the files defining what the
    importer uses, so a file's neighbours are what it leans on; an import that uses
    nothing we can see (a blank import) keeps the whole package."""
    index = RepoIndex(make_repo(tmp_path / "go", GO_PACKAGE), cache_dir=tmp_path / "cache")
    index.refresh()
    imports = links(index, "code.imports")
    assert ("cmd/main.go", "store/open.go") in imports
    assert ("cmd/main.go", "store/close.go") not in imports
    assert {("cmd/blank.go", f"store/{f}.go") for f in ("open", "check", "close")} <= imports
    index.close()


def test_a_go_name_resolves_inside_its_package_before_anywhere_else(tmp_path):
    """`check()` in store/open.go is store's own check (store/check.go), found
    without an import, though four other packages define a `check` too."""
    index = RepoIndex(make_repo(tmp_path / "go", GO_PACKAGE), cache_dir=tmp_path / "cache")
    index.refresh()
    calls = links(index, "code.calls")
    assert ("store/open.go#Open", "store/check.go#check") in calls
    assert not {(s, d) for s, d in calls if s == "store/open.go#Open" and d.startswith("other")}
    index.close()


@pytest.mark.parametrize(
    "source,test",
    [
        ("httpx/_auth.py", "tests/test_auth.py"),  # a private module and its test elsewhere
        ("pkg/config.py", "pkg/config_test.py"),
        ("web/format.ts", "web/format.test.ts"),
        ("src/Store.java", "test/StoreTest.java"),
    ],
)
def test_g3_a_file_and_its_test_are_related_both_ways(tmp_path, source, test):
    from repo_graph.ranking import related_files

    files = {source: "x = 1\n", test: "y = 2\n", "other/unrelated.py": "z = 3\n", "other/auth_notes.py": "w = 4\n"}
    index = indexed(tmp_path, files)
    assert max(related_files(index, {source}, by_place=False).items(), key=lambda kv: kv[1])[0] == test
    assert max(related_files(index, {test}, by_place=False).items(), key=lambda kv: kv[1])[0] == source
    index.close()


def test_g3_a_namesake_in_another_directory_is_related_unless_the_name_is_everywhere(tmp_path):
    """binding/yaml.go and render/yaml.go: the same concern on two sides, with no edge
    between them. index.js in every example folder says nothing of the kind."""
    from repo_graph.ranking import DEFAULT, related_files

    files = {
        "binding/yaml.go": "package binding\n",
        "render/yaml.go": "package render\n",
        "render/json.go": "package render\n",
        "lib/app.js": "x = 1\n",
        "src/queue.c": "int push(void) { return 0; }\n",
        "include/queue.h": "int push(void);\n",
    }
    files.update({f"examples/e{i}/index.js": "y = 2\n" for i in range(DEFAULT.max_namesakes + 2)})
    index = indexed(tmp_path, files)
    related = related_files(index, {"binding/yaml.go"})
    assert related["render/yaml.go"] == 1.0
    assert "render/json.go" not in related
    assert "render/yaml.go" not in related_files(index, {"binding/yaml.go"}, by_place=False)
    assert max(related_files(index, {"src/queue.c"}).items(), key=lambda kv: kv[1])[0] == "include/queue.h"
    generic = related_files(index, {"examples/e0/index.js"})
    assert not any(path.endswith("index.js") for path in generic)
    index.close()


@pytest.mark.parametrize(
    "path,original",
    [
        ("README.de.md", "README.md"),
        ("README_zh-CN.md", "README.md"),
        ("docs/guide.pt-BR.md", "docs/guide.md"),
        ("docs/zh/docs/tutorial/first.md", "docs/en/docs/tutorial/first.md"),
        ("docs/zh-hant/index.md", "docs/en/index.md"),
        ("README.md", None),
        ("docs/en/index.md", None),
        ("docs/build-go.md", None),
        ("docs/api.md", None),
        ("src/main.de.py", None),
        ("CHANGELOG.v2.md", None),
    ],
)
def test_a_translated_doc_names_its_original_by_its_path(path, original):
    from indexer.sections import translated_from

    assert translated_from(path) == original


def test_a_translation_ranks_below_its_original(tmp_path):
    """README.de.md repeats README.md's code blocks and names, so it matches as well:
    one copy is what a question needs. Without an original beside it, a translation
    is the only copy and keeps its weight."""
    from repo_graph import ranking

    text = "# Sessions\n\nEnable sessions with `enable :sessions`; the session secret signs the cookie.\n"
    index = RepoIndex(
        make_repo(tmp_path / "tr", {"README.md": text, "README.de.md": text, "docs/fr/intro.md": text}),
        cache_dir=tmp_path / "cache",
    )
    index.refresh()

    def scores(weights=ranking.DEFAULT):
        return {c.node.path: c.score for c in ranking.rank(index, "enable the session secret", set(), weights=weights)}

    ranked = scores()
    assert max(ranked, key=ranked.get) == "README.md"
    assert ranked["README.de.md"] < 0.5 * ranked["docs/fr/intro.md"]  # docs/en/intro.md is not there
    ranked = scores(replace(ranking.DEFAULT, translation_factor=1.0))
    assert ranked["README.de.md"] >= ranked["docs/fr/intro.md"]
    index.close()


def test_restructuredtext_docs_are_sections_that_document_the_code_they_name(provider_factory, tmp_path):
    """Sphinx docs name code in roles (:class:`~pkg.retry.RetryPolicy`); a host asking
    how to configure retries gets the section, cut as reStructuredText, with its edge
    to the class."""
    repo = make_repo(
        tmp_path / "rst",
        {
            "pkg/__init__.py": "",
            "pkg/retry.py": 'class RetryPolicy:\n    """How often to try again."""\n    max_attempts = 3\n\n\n'
            "def backoff(n):\n    return 2 ** n\n",
            "docs/retries.rst": "Retries\n=======\n\nOverview text.\n\nConfiguring retries\n-------------------\n\n"
            "Set :attr:`~pkg.retry.RetryPolicy.max_attempts` on a :class:`policy <pkg.retry.RetryPolicy>`.\n\n"
            "API\n---\n\n.. autofunction:: pkg.retry.backoff\n",
        },
    )
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    docs = links(index, "doc.documents")
    assert ("docs/retries.rst#configuring-retries", "pkg/retry.py#RetryPolicy") in docs
    assert not any(src == "docs/retries.rst#api" for src, _ in docs)  # autodoc renders docstrings: no link
    index.close()
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="how do I configure retries", kinds=["doc"])["result"]["frames"]
    top = frames[0]
    assert top["id"] == "docs/retries.rst#configuring-retries"
    assert top["provenance"][0]["method"] == "restructuredtext-section"
    assert any(r["rel"] == "doc.documents" and r["target_uri"].endswith("#RetryPolicy") for r in top["relations"])


def test_a_zig_block_with_no_name_is_a_symbol_its_words_are_found_in(tmp_path):
    """`test { ... }`, `test name { ... }` and `comptime { ... }` after a function were in
    no symbol, so what they call could not be searched for."""
    from repo_graph import ranking

    index = RepoIndex(
        make_repo(
            tmp_path / "zig",
            {
                "src/lib.zig": 'const std = @import("std");\n\npub fn parse() void {}\n\n'
                "test parse {\n    parse();\n}\n\ntest {\n    std.testing.refAllDeclsRecursive(@This());\n}\n\n"
                "comptime {\n    std.debug.assert(checkLayout());\n}\n",
                "src/other.zig": "pub fn refresh() void {}\n",
            },
        ),
        cache_dir=tmp_path / "cache",
    )
    index.refresh()
    assert ranking.rank(index, "refAllDeclsRecursive", set())[0].node.id == "src/lib.zig#test"
    assert ranking.rank(index, "checkLayout", set())[0].node.id == "src/lib.zig#comptime"
    assert index.store.node("src/lib.zig#test(parse)") is not None
    index.close()


def test_a_question_lets_the_guide_answer_and_a_change_leads_to_the_code(tmp_path):
    """ "How do I enable compression?" is answered by the guide's section, though it
    names no code; "Enable compression for small bodies" describes a change to make,
    which the code takes (UNLINKED_DOC_FACTOR holds the prose back there)."""
    from repo_graph import ranking

    index = RepoIndex(
        make_repo(
            tmp_path / "ask",
            {
                "server/encoding.py": 'def compress_body(body, level=6):\n    """Gzip a response body."""\n'
                "    return body\n\n\ndef small_bodies(limit):\n    return limit\n",
                "docs/guide.md": "# Compression\n\nTo enable compression, set the level in the settings file; "
                "small bodies are sent as they are.\n",
            },
        ),
        cache_dir=tmp_path / "cache",
    )
    index.refresh()
    assert ranking.asks_how("how do I enable compression?") and ranking.asks_how("Where is compression enabled")
    assert not ranking.asks_how("Enable compression for small bodies") and not ranking.asks_how("Do not compress")
    asked = ranking.rank(index, "how do I enable compression for small bodies?", set())
    assert asked[0].node.id == "docs/guide.md#compression"
    told = ranking.rank(index, "Enable compression for small bodies", set())
    assert told[0].node.path == "server/encoding.py"
    index.close()


def test_a_how_to_question_gets_the_guide_among_the_first_frames(provider_factory, tmp_path):
    """Every method of the client matches "timeout", and the best-matching files' own
    closeness lifts them all; the recipe that answers the question still comes third at
    the latest, and a changelog entry repeating the words does not take its place."""
    methods = "".join(
        f'    def {kind}_timeout(self, seconds):\n        """Set the {kind} timeout of a connection."""\n'
        f"        self.{kind}_timeout_seconds = seconds\n\n"
        for kind in ("connect", "read", "write", "call", "pool", "idle", "close", "tls")
    )
    repo = make_repo(
        tmp_path / "howto",
        {
            "client.py": f"class Client:\n{methods}",
            "docs/recipes.md": "# Recipes\n\n## Caching\n\nKeep responses on disk.\n\n## Timeouts\n\n"
            "Use timeouts to fail a call when its peer is unreachable: set a connection timeout "
            "with `Client.connect_timeout`.\n",
            "docs/changelogs/changelog_2x.md": "# Changes\n\n## Version 2.1\n\n"
            "New: set a connection timeout, read timeout and write timeout.\n",
        },
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="how do I set a connection timeout?", max_frames=8)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids[0].startswith("client.py#Client.")
    assert "docs/recipes.md#timeouts" in ids[:3]
    assert not any(i.startswith("docs/changelogs/") for i in ids[:3])
    scores = [f["score"] for f in frames]
    assert scores == sorted(scores, reverse=True)
    told = p.query(goal="Set a connection timeout", max_frames=3)["result"]["frames"]  # a change: code leads
    assert [f["id"].partition("#")[0] for f in told] == ["client.py", "client.py", "docs/recipes.md"]  # a file's share


def test_release_notes_are_known_by_name_version_and_folder():
    """They document nothing (no doc.documents edges, half weight in ranking): a
    changelog however it is spelled, never a code file that happens to be named so."""
    from indexer.resolve import is_release_notes

    for notes in (
        "CHANGELOG.md",
        "HISTORY.rst",
        "NEWS",
        "CHANGES.txt",
        "changes-3.0.rst",
        "CHANGELOG-v2.md",
        "docs/changelogs/changelog_3x.md",
        "docs/release-notes/1.0.md",
    ):
        assert is_release_notes(notes), notes
    for other in (
        "history.py",
        "src/changes.go",
        "app/news/models.py",
        "docs/news/intro.md",
        "newsletter.md",
        "changelog_helper.py",
        "docs/changelogs/render.py",
    ):
        assert not is_release_notes(other), other


def test_a_doc_section_naming_code_ranks_above_one_naming_none(provider_factory, tmp_path):
    """Of two sections matching the question, the one naming the repository's code
    leads, though the other repeats the question's words more (UNLINKED_DOC_FACTOR:
    a code of conduct or a list of users is rarely the context a change needs)."""
    repo = make_repo(
        tmp_path / "docs",
        {
            "retry.py": 'class RetryPolicy:\n    """How often to try again."""\n    max_attempts = 3\n',
            "aa_notes.md": "# Backoff\n\nBackoff, backoff: wait longer between attempts, with jitter. Backoff with jitter.\n",
            "zz_guide.md": "# Backoff\n\nSet `RetryPolicy` for a backoff between attempts, with jitter.\n",
        },
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="backoff with jitter", kinds=["doc"], max_frames=10)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids.index("zz_guide.md#backoff") < ids.index("aa_notes.md#backoff")
    guide = frames[ids.index("zz_guide.md#backoff")]
    assert any(r["rel"] == "doc.documents" for r in guide["relations"])


def test_the_prior_is_pagerank_over_the_links_scaled_to_0_1(tmp_path):
    """CodeGraph.prior against networkx's PageRank over the same links (a reference
    implementation, not ours), log-scaled the same way: what many files import and call leads."""
    import math

    import networkx as nx

    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def helper():\n    return 1\n\ndef unused():\n    return 2\n",
        "pkg/mid.py": "from .core import helper\n\ndef wrap():\n    return helper()\n",
        "pkg/direct.py": "from .core import helper\n\ndef direct():\n    return helper()\n",
    }
    for i in range(4):  # three levels, so the scaled values depend on the damping, not only on the order
        files[f"pkg/user{i}.py"] = f"from .mid import wrap\n\ndef use{i}():\n    return wrap() + {i}\n"
    index = indexed(tmp_path, files)
    prior = index.graph.prior()
    edges = index.store.db.execute(
        "SELECT src, dst FROM links WHERE rel IN ('code.calls','code.references','code.imports','doc.documents')"
    ).fetchall()
    reference = nx.pagerank(nx.DiGraph(edges), alpha=0.85, tol=1e-12, max_iter=500)
    low, high = min(reference.values()), max(reference.values())
    expected = {node: math.log(r / low) / math.log(high / low) for node, r in reference.items()}
    assert prior.keys() == expected.keys()
    assert all(abs(prior[node] - expected[node]) < 1e-6 for node in prior)
    top_two = sorted(prior, key=prior.get, reverse=True)[:2]
    assert set(top_two) == {"pkg/core.py", "pkg/core.py#helper"}  # what the files in between lean on
    index.close()


def test_g3_the_anchors_walk_is_personalized_pagerank_over_their_neighbourhood(tmp_path):
    """CodeGraph.neighbourhood against networkx's own PageRank on the same subgraph,
    restarting at the same seeds: the same ranks, scaled so the best non-seed is 1."""
    import networkx as nx

    files = {
        "pkg/core.py": "def helper():\n    return 1\n",
        "pkg/mid.py": "from .core import helper\n\ndef wrap():\n    return helper()\n",
        "pkg/use.py": "from .mid import wrap\n\ndef use():\n    return wrap()\n",
        "pkg/far.py": "from .use import use\n\ndef far():\n    return use()\n",
        # helper, wrap and both call round a triangle: a walk on a graph with no odd
        # cycle would swing between its two sides and not settle in 50 steps
        "pkg/both.py": "from .core import helper\nfrom .mid import wrap\n\ndef both():\n    return helper() + wrap()\n",
    }
    index = indexed(tmp_path, files)
    seeds = {"pkg/mid.py": 1.0, "pkg/use.py#use": 0.3}
    around = index.graph.hops(seeds, max_hops=2)
    walked = index.graph.neighbourhood(seeds, around)
    nodes = set(around) | set(seeds)
    g = nx.Graph()
    g.add_nodes_from(nodes)
    for node in nodes:
        g.add_edges_from((node, other) for _, other in index.graph.out_edges(node) if other in nodes and other != node)
    reference = nx.pagerank(g, alpha=0.85, personalization=seeds, tol=1e-12, max_iter=500)
    best = max(r for n, r in reference.items() if n not in seeds)
    assert walked.keys() == reference.keys() - seeds.keys()
    assert all(abs(walked[n] - reference[n] / best) < 1e-4 for n in walked)
    assert max(walked.values()) == 1.0
    index.close()


def test_a_first_anchored_answer_imports_no_scipy(tmp_path):
    """scipy costs a serve's first anchored answer 0.3-0.5 s of imports; the anchors'
    walk does without it (a fresh interpreter, as a host's first query meets it)."""
    import subprocess
    import sys

    repo = make_repo(
        tmp_path / "repo", {"a.py": "from b import g\n\ndef f():\n    return g()\n", "b.py": "def g():\n    return 1\n"}
    )
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from indexer.index import RepoIndex\n"
        "from repo_graph.ranking import rank\n"
        f"index = RepoIndex(Path({str(repo)!r}), cache_dir=Path({str(tmp_path / 'cache')!r}))\n"
        "index.refresh()\n"
        "found = rank(index, 'what does f call', {'a.py'})\n"
        "assert any(c.node.path == 'b.py' for c in found), found\n"
        "print('scipy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_g3_the_anchors_walk_reaches_a_hub_but_not_everyone_who_uses_it(tmp_path):
    """A module every file imports (the kernel's kernel.h) is one hop from the open
    file; the files that import it too are not made two hops away through it."""
    from repo_graph.ranking import DEFAULT

    users = {
        f"pkg/user_{i}.py": f"from .common import shared\n\ndef use_{i}():\n    return shared()\n" for i in range(5)
    }
    files = {
        "pkg/common.py": "def shared():\n    return 1\n",
        "pkg/open.py": "from .common import shared\nfrom .rare import once\n\ndef mine():\n    return shared() + once()\n",
        "pkg/rare.py": "def once():\n    return 2\n",
        "pkg/other.py": "from .rare import once\n\ndef also():\n    return once()\n",
        **users,
    }
    index = indexed(tmp_path, files)
    every = index.graph.hops({"pkg/open.py"}, max_hops=2)
    capped = index.graph.hops({"pkg/open.py"}, max_hops=2, hub_links=3)
    assert every["pkg/common.py"] == capped["pkg/common.py"] == 1
    assert every["pkg/user_0.py"] == 2 and "pkg/user_0.py" not in capped
    assert capped["pkg/other.py"] == every["pkg/other.py"] == 2  # through a module few import
    assert index.graph.hops({"pkg/open.py"}, max_hops=2, hub_links=DEFAULT.hub_links) == every  # 6 importers: no hub
    index.close()


@pytest.mark.parametrize(
    "text, parts",
    [
        ("printer: fix color parsing", ["printer"]),
        ("fix(binding): accept a pointer", ["binding"]),
        ("feat(jsx)!: drop the old runtime", ["jsx"]),
        ("net: ipv4: fix a leak", ["net", "ipv4"]),
        ("ignore/walk: follow symlinks", ["ignore", "walk"]),
        ("refac(axum-extra, axum-core): move rejections", ["axum-extra", "axum-core"]),
        ("fix: a typo", []),  # what was done, not where
        ("error: cannot find value `x` in this scope", []),  # pasted compiler output
        ("Update jq_fuzz_load_file.c: Add missing include", []),  # a sentence, not a scope
        ("how do I configure retries?", []),
        ("see http://example.com: down", []),
    ],
)
def test_a_scope_is_read_before_the_colon(text, parts):
    from repo_graph.ranking.scope import scope_parts

    assert scope_parts(text) == parts


def test_a_scope_names_where_the_change_lives(tmp_path):
    """`printer: ...` names the directory the change is in: its file comes first though
    the other file matches the message's words a little better, with or without an
    anchor; a scope naming nothing here (`docs:`) or a broad one changes nothing."""
    from repo_graph import ranking

    body = 'def parse_color(spec):\n    """Parse a color {extra}spec."""\n    return spec\n'
    files = {
        "crates/printer/src/color.py": body.format(extra=""),
        "crates/searcher/src/color.py": body.format(
            extra="parsing spec: fix the color spec parsing; parse the color spec "
        ),
        "crates/cli/src/args.py": "def args(argv):\n    return argv\n",
    }
    index = indexed(tmp_path, files)
    top = lambda text, seeds=(): ranking.rank(index, text, set(seeds))[0].node.path  # noqa: E731
    assert top("printer: fix color spec parsing") == "crates/printer/src/color.py"
    assert top("fix color spec parsing") == "crates/searcher/src/color.py"
    assert top("docs: fix color spec parsing") == "crates/searcher/src/color.py"
    first_far = lambda text: next(
        c.node.path
        for c in ranking.rank(index, text, {"crates/cli/src/args.py"})  # noqa: E731
        if c.node.path != "crates/cli/src/args.py"
    )
    assert first_far("printer: fix color spec parsing") == "crates/printer/src/color.py"
    assert first_far("fix color spec parsing") == "crates/searcher/src/color.py"
    assert index.store.paths_named("Printer", 10) == ["crates/printer/src/color.py"]
    assert len(index.store.paths_named("src", 1)) == 1 and len(index.store.paths_named("src", 10)) == 3
    from repo_graph.ranking.scope import scoped_files

    assert scoped_files(index.store, "src: printer: fix it", 2) == {"crates/printer/src/color.py": 1.0}  # src: broad
    assert scoped_files(index.store, "printer/color: fix it", 10) == {
        "crates/printer/src/color.py": 1.0,
        "crates/searcher/src/color.py": 0.5,
    }
    broad = replace(ranking.DEFAULT, scope_max_files=0)  # too broad: nothing changes
    assert (
        ranking.rank(index, "printer: fix color spec parsing", set(), weights=broad)[0].node.path
        == "crates/searcher/src/color.py"
    )
    index.close()


def test_an_index_from_before_the_directory_table_gets_one_on_open(tmp_path):
    import sqlite3

    index = RepoIndex(
        make_repo(tmp_path / "dirs", {"a/b/c.py": "x = 1\n", "a/d.py": "y = 2\n"}), cache_dir=tmp_path / "cache"
    )
    index.refresh()
    path = index.store.path
    index.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE dirs")
    again = RepoIndex(tmp_path / "dirs", cache_dir=tmp_path / "cache")
    assert sorted(again.store.paths_named("a", 10)) == ["a/b/c.py", "a/d.py"]
    assert again.store.paths_named("b", 10) == ["a/b/c.py"]
    again.close()


def test_code_copied_in_from_elsewhere_ranks_below_the_projects_own(provider_factory, tmp_path):
    """A vendored library (spdlog's fmt/bundled, jq's vendor/decNumber) matches a
    project's questions as well as its own code does, often better: its matches count
    half (VENDORED_FACTOR), and it stays indexed for a question about it."""
    from indexer.walk import is_vendored

    repo = make_repo(
        tmp_path / "vendored",
        {
            "src/log.py": 'def format_record(record):\n    """Format a log record as one line: its time, its level, '
            'then what it says; every handler writes this."""\n    return str(record)\n',
            "third_party/logfmt/log.py": 'def format_record(record):\n    """Format a log record as one line.'
            '"""\n    return repr(record)\n',
        },
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="format a log record as one line", max_frames=5)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids[0] == "src/log.py#format_record" and "third_party/logfmt/log.py#format_record" in ids
    for vendored in (
        "vendor/decNumber/decNumber.c",
        "include/spdlog/fmt/bundled/core.h",
        "src/pip/_vendor/x.py",
        "deps/lua/src/lapi.c",
        "External/zlib/inflate.c",
    ):
        assert is_vendored(vendored), vendored
    for own in ("vendor.go", "src/vendors_api.py", "app/models/vendor.rb", "docs/deps.md"):
        assert not is_vendored(own), own
