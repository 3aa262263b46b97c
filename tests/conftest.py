"""Shared test helpers: a fixture repository made on the fly, the provider run as a
real subprocess over real pipes, the protocol's own JSON Schema and the other files
of ../shared (`shared_file`), and the many-language repository of the graph tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from indexer.index import RepoIndex

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"  # the protocol's folder beside this checkout: read through shared_file()


def shared_file(*parts: str) -> Path:
    """A file of ../shared (the protocol's schema, seed transcript, conformance suite),
    for a test that needs it. Missing, that test is skipped with the path it looked
    for; under CI=true it fails instead, so CI never passes without having run it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        reason = f"{path} is missing: the protocol's `shared` folder must sit beside this checkout (../shared)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; under CI=true that is a failure, not a skip")
        pytest.skip(reason)
    return path


FIXTURE_FILES = {
    "README.md": """\
        # Demo service

        A tiny service used by the tests.

        ## Retry policy

        Retry behaviour is set in `src/config.py` by `RetryPolicy`: `max_attempts`
        bounds the tries and `backoff_ms` is the first delay, doubled each attempt.

        ## Logging

        Logs go to stderr.
        """,
    "docs/deploy.md": """\
        # Deploying

        Build the image, then roll it out region by region.
        """,
    "src/__init__.py": "",
    "src/config.py": '''\
        """Configuration for the demo service."""

        DEFAULT_TIMEOUT = 30


        class RetryPolicy:
            """How often and how patiently a request is retried."""

            def __init__(self, max_attempts=3, backoff_ms=100):
                self.max_attempts = max_attempts
                self.backoff_ms = backoff_ms

            def delay(self, attempt):
                """Milliseconds to wait before the given attempt."""
                return self.backoff_ms * (2 ** attempt)


        def load_config(path):
            """Read the configuration file at `path`."""
            return RetryPolicy()
        ''',
    "src/client.py": '''\
        from .config import RetryPolicy, load_config


        def fetch(url, policy=None):
            """Fetch a URL, retrying by the policy."""
            policy = policy or load_config("service.toml")
            for attempt in range(policy.max_attempts):
                pass
        ''',
    "build/generated.py": "def generated_function():\n    return 1\n",
    ".gitignore": "build/\n*.log\n",
    "debug.log": "retry policy noise\n",
    "data.bin": "\x00\x01\x02retry policy",
}


def make_repo(root: Path, files: dict[str, str] = FIXTURE_FILES) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(textwrap.dedent(text).encode("utf-8"))
    return root


@pytest.fixture
def repo(tmp_path) -> Path:
    return make_repo(tmp_path / "repo")


# A repository in many languages, for resolution and ranking (test_resolve.py,
# test_anchored.py, test_store.py), and the helpers those files share.
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


@pytest.fixture
def home(tmp_path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


def host_env(home: Path, extra: dict | None = None) -> dict:
    """What a strict host leaves the provider: PATH and HOME only."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    env.update(extra or {})
    return env


def provider_command(repo: Path) -> list[str]:
    return [sys.executable, "-m", "repo_graph", "serve", str(repo)]


class Provider:
    """`repo-graph serve` in a subprocess, driven line by line as a host would."""

    def __init__(self, repo: Path, home: Path, env: dict | None = None, args: list[str] | None = None):
        self.proc = subprocess.Popen(
            provider_command(repo) + (args or []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=host_env(home, env),
            cwd=str(REPO_ROOT),
        )
        self.emitted: list[dict] = []

    def send_raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, envelope: dict) -> None:
        self.send_raw(json.dumps(envelope).encode() + b"\n")

    def recv(self, timeout: float = 60) -> dict:
        import select

        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, f"no reply within {timeout}s; stderr: {self.stderr_so_far()}"
        line = self.proc.stdout.readline()
        assert line, f"provider closed stdout; stderr: {self.stderr_so_far()}"
        assert line.endswith(b"\n")
        envelope = json.loads(line)  # stdout is protocol only: every line parses
        self.emitted.append(envelope)
        return envelope

    def ask(self, envelope: dict) -> dict:
        self.send(envelope)
        return self.recv()

    def verify(self, *identities: tuple[str, str | None]) -> list[str]:
        """The verdicts' statuses, in order, for (frame_id, content_digest) pairs."""
        frames = [
            {"provider_id": "repo-graph", "frame_id": fid, "content_digest": digest} for fid, digest in identities
        ]
        reply = self.ask({"type": "verify", "request": {"frames": frames}})
        assert "response" in reply, reply
        return [verdict["status"] for verdict in reply["response"]["verdicts"]]

    def handshake(self, version: str = "contextgraph/1.0-draft") -> dict:
        return self.ask({"type": "handshake", "protocol_version": version})

    def query(self, request_id: str | None = None, **fields) -> dict:
        query = {"goal": "conformance probe", "max_frames": 8, "max_tokens": 4096}
        query.update(fields)
        envelope = {"type": "query", "query": query}
        if request_id is not None:
            envelope["id"] = request_id
        return self.ask(envelope)

    def stderr_so_far(self) -> str:
        if self.proc.poll() is None:
            return "(still running)"
        return self.proc.stderr.read().decode(errors="replace")

    def close(self, timeout: float = 15) -> int:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        rc = self.proc.wait(timeout=timeout)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return rc


@pytest.fixture
def provider_factory(home, envelope_validator):
    """Starts providers; afterwards, every envelope any of them emitted must be
    valid against the protocol's schema."""
    started: list[Provider] = []

    def start(repo: Path, **kwargs) -> Provider:
        p = Provider(repo, home, **kwargs)
        started.append(p)
        return p

    yield start
    for p in started:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()
    for p in started:
        for envelope in p.emitted:
            assert_schema_valid(envelope_validator, envelope)


def assert_schema_valid(validator, envelope: dict) -> None:
    checked = dict(envelope)
    if checked.get("type") == "verified":
        checked.pop("id", None)  # the H4 echo on verified is beyond the authoring schema
    errors = sorted(validator.iter_errors(checked), key=str)
    assert not errors, f"schema violation in {json.dumps(envelope)[:500]}: {errors[0].message}"


@pytest.fixture(scope="session")
def envelope_validator():
    from jsonschema import Draft202012Validator

    schema = shared_file("cgp", "schema", "contextgraph-envelope.schema.json")
    return Draft202012Validator(json.loads(schema.read_text()))


@pytest.fixture
def provider(repo, provider_factory) -> Provider:
    p = provider_factory(repo)
    ack = p.handshake()
    assert ack["type"] == "handshake_ack"
    return p


def query_when_ready(provider: Provider, request_id: str | None = None, attempts: int = 10, **fields) -> dict:
    """A query as a host sends it: `unavailable` is transient (the first index outlasted
    the provider's bounded wait: a big repository, a loaded machine), so it is asked
    again, up to `attempts` times; any other reply is returned as it came."""
    for _ in range(attempts):
        reply = provider.query(request_id, **fields)
        if not (reply.get("type") == "error" and reply.get("code") == "unavailable"):
            return reply
    pytest.fail(f"still unavailable after {attempts} tries: {reply.get('message')}")


def run_cli(home: Path, *args: str, prefix=(), timeout: float = 300) -> subprocess.CompletedProcess:
    """`repo-graph ARGS` as a person runs it, in a host's environment; `prefix` wraps
    it (setpriv)."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "repo_graph", *args],
        capture_output=True,
        text=True,
        env=host_env(home),
        cwd=str(REPO_ROOT),
        timeout=timeout,
    )
