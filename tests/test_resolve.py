"""Resolution: imports resolved to files per language, uses resolved to definitions,
docs linked to what they name, and all of it kept right when files change."""

from __future__ import annotations

import pytest

from indexer.index import RepoIndex
from indexer.resolve import use_tree_paths

from .conftest import indexed, links, make_repo


def test_mixed_repository_of_seven_languages_indexes_without_warnings(mixed):
    index, summary = mixed
    assert summary.warnings == 0
    assert {"python", "typescript", "c", "go", "rust", "java", "ruby", "markdown"} <= set(summary.languages)


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


def test_docs_document_the_files_and_symbols_they_name(mixed):
    index, _ = mixed
    docs = links(index, "doc.documents")
    assert ("docs/guide.md#guide", "pkg/a.py") in docs
    # `helper` is defined in Python and in Rust: prose naming two things links neither
    assert not any(dst.endswith("#helper") for _, dst in docs)
    assert ("docs/guide.md#guide", "java/com/acme/store/Store.java#Store") in docs


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
