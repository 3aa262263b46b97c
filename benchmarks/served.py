"""`repo-graph serve` driven as an agent host drives it: a child process over real
pipes, NDJSON envelopes (shared/PROTOCOL.md), each answer read whole from its line.

The benchmark measures what a host receives, so nothing in-process stands in for it:
one serve per snapshot, in a host's environment (PATH and HOME only), its own cache
directory, launched inside the tree. Queries wait for the start-up catch-up pass
("index ready" on stderr): a server restarted on a persisted index answers from the
index it loaded until then, which is the previous snapshot's here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

READY = "repo-graph: index ready:"
FAILED = "repo-graph: error:"


class ServeError(RuntimeError):
    """The server could not index or answer; the message has its stderr's last lines."""


class Served:
    """One `repo-graph serve TREE --cache-dir CACHE`, handshaken and indexed."""

    def __init__(self, tree: Path, cache: Path, home: Path, ready_timeout: float = 3600.0):
        home.mkdir(parents=True, exist_ok=True)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "repo_graph", "serve", str(tree), "--cache-dir", str(cache)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=str(tree),
        )
        self.stderr: list[str] = []
        self.ready = threading.Event()
        self.failed: str | None = None
        self.index_line = ""
        self.requests = 0
        threading.Thread(target=self._read_stderr, daemon=True).start()
        started = time.perf_counter()
        ack = self.ask({"type": "handshake", "protocol_version": "contextgraph/1.0"})
        if ack.get("type") != "handshake_ack":
            self.close()
            raise ServeError(f"handshake answered {json.dumps(ack)[:300]}")
        if not self.ready.wait(ready_timeout):
            self.close()
            raise ServeError(f"no 'index ready' within {ready_timeout:.0f}s: {self.tail()}")
        self.seconds_to_ready = time.perf_counter() - started
        if self.failed or not self.index_line:
            self.close()
            raise ServeError(self.failed or f"serve ended before its index was ready: {self.tail()}")

    def _read_stderr(self) -> None:
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.stderr.append(line)
            if line.startswith(READY):
                self.index_line = line
                self.ready.set()
            elif line.startswith(FAILED) and ("indexing failed" in line or "cannot open the index" in line):
                self.failed = line
                self.ready.set()
        self.ready.set()  # the process ended: whoever waits learns it from the pipe

    def tail(self, n: int = 5) -> str:
        return " | ".join(self.stderr[-n:]) or "(nothing on stderr)"

    def ask(self, envelope: dict) -> dict:
        """One envelope out, one line back, parsed whole."""
        self.proc.stdin.write(json.dumps(envelope).encode("utf-8") + b"\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ServeError(f"serve closed stdout (exit {self.proc.poll()}): {self.tail()}")
        return json.loads(line)

    def query(self, query: dict, attempts: int = 30) -> list[dict]:
        """The frames of one query; `unavailable` is retried as a host retries it."""
        for _ in range(attempts):
            self.requests += 1
            request_id = f"q{self.requests}"
            reply = self.ask({"type": "query", "id": request_id, "query": query})
            if reply.get("type") == "frames":
                if reply.get("id") != request_id:
                    raise ServeError(f"answer to {request_id} came with id {reply.get('id')!r}")
                return reply["result"]["frames"]
            if reply.get("code") != "unavailable":
                raise ServeError(f"query answered {json.dumps(reply)[:300]}")
            time.sleep(1.0)
        raise ServeError(f"still unavailable after {attempts} tries")

    def close(self, timeout: float = 60) -> int:
        """`shutdown`, then the exit code (R2: exit 0 promptly)."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b'{"type":"shutdown"}\n')
                self.proc.stdin.flush()
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        return self.proc.returncode
