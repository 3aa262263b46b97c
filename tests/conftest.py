"""Shared test helpers: a fixture repository made on the fly, the provider run as a
real subprocess over real pipes, and the protocol's own JSON Schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"
SCHEMA_PATH = SHARED / "cgp" / "schema" / "contextgraph-envelope.schema.json"

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

    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


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
    pytest.fail(f"still unavailable after {attempts} tries")


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
