"""`repo-graph serve --http` in a subprocess, and requests to it written byte by byte on
a real loopback socket: what tests/test_http.py and the no-network test drive."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .conftest import REPO_ROOT, host_env, provider_command

START_DEADLINE = 60.0


class HttpServer:
    """A running `serve --http 0`: its URL, token and state file, read as a host would."""

    def __init__(self, repo: Path, home: Path, cache: Path, args=(), env: dict | None = None, http: str = "0"):
        self.proc = subprocess.Popen(
            provider_command(repo) + ["--http", http, "--cache-dir", str(cache), *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=host_env(home, env), cwd=str(REPO_ROOT),
        )
        self._stdout, self._stderr = bytearray(), bytearray()
        self._drains = [threading.Thread(target=_drain, args=(pipe, into), daemon=True)
                        for pipe, into in ((self.proc.stdout, self._stdout), (self.proc.stderr, self._stderr))]
        for t in self._drains:
            t.start()
        self.url = self.state_path = self.token = None
        self.port = 0

    def wait_started(self) -> HttpServer:
        end = time.monotonic() + START_DEADLINE
        while True:
            found = re.search(r"the URL and token are in (.+) \(readable by you only\)\n", self.stderr())
            if found:
                break
            assert self.proc.poll() is None, f"the server exited {self.proc.returncode}: {self.stderr()}"
            assert time.monotonic() < end, f"the server did not start: {self.stderr()}"
            time.sleep(0.05)
        self.state_path = Path(found.group(1))
        state = json.loads(self.state_path.read_text())
        self.url, self.token = state["url"], state["token"]
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])
        return self

    def stderr(self) -> str:
        return self._stderr.decode(errors="replace")

    def stdout(self) -> bytes:
        return bytes(self._stdout)

    def stop(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout=timeout)
        for t in self._drains:
            t.join(timeout)
        return rc

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _drain(pipe, into: bytearray) -> None:
    for chunk in iter(lambda: pipe.read1(65536), b""):
        into.extend(chunk)


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # lower-case names; a repeated header keeps its last value
    header_names: list[str]
    body: bytes

    def json(self) -> dict:
        assert self.headers.get("content-type") == "application/json", self.headers
        return json.loads(self.body)


def read_response(sock: socket.socket, method: str = "POST") -> Response:
    resp = http.client.HTTPResponse(sock, method=method)  # a HEAD's response has no body
    resp.begin()
    body = resp.read()  # IncompleteRead if the body is not whole
    names = [k.lower() for k, _ in resp.getheaders()]
    return Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, names, body)


def raw_request(port: int, method: str = "POST", target: str = "/cgp", body: bytes = b"", headers=(),
                *, host: str | None = "default", content_type: str | None = "application/json",
                version: str = "HTTP/1.1", close: bool = True) -> bytes:
    """The bytes of one request, as written: every header is the caller's to choose."""
    lines = [f"{method} {target} {version}"]
    if host is not None:
        lines.append(f"Host: {f'127.0.0.1:{port}' if host == 'default' else host}")
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    lines += [f"{k}: {v}" for k, v in headers]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def exchange(port: int, method: str = "POST", *args, timeout: float = 60, **kwargs) -> Response:
    """One request on a fresh connection, its whole response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw_request(port, method, *args, **kwargs))
        return read_response(sock, method)


def post(server: HttpServer, envelope, *, token: str | None = "default", **kwargs) -> Response:
    """POST one envelope with the server's token as a Bearer header (token=None: none)."""
    token = server.token if token == "default" else token
    headers = list(kwargs.pop("headers", ()))
    if token is not None:
        headers.append(("Authorization", f"Bearer {token}"))
    body = envelope if isinstance(envelope, bytes) else json.dumps(envelope).encode()
    return exchange(server.port, body=body, headers=headers, **kwargs)


def closed_by_peer(sock: socket.socket) -> bool:
    """Read until the server closes the connection (bounded by the socket's timeout)."""
    try:
        while sock.recv(65536):
            pass
        return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def inet_sockets(pid: int) -> list[tuple[str, str, int, str]]:
    """(protocol, local address, local port, state) of each IP socket that `pid` and
    its children hold, from /proc: what the process really has open."""
    pids = [pid] + _children(pid)
    inodes = set()
    for p in pids:
        try:
            for fd in os.listdir(f"/proc/{p}/fd"):
                target = os.readlink(f"/proc/{p}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for proto in ("tcp", "tcp6", "udp", "udp6"):
        try:
            rows = Path(f"/proc/net/{proto}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if cols[9] in inodes:
                address, port = cols[1].rsplit(":", 1)
                found.append((proto, address, int(port, 16), "LISTEN" if cols[3] == "0A" else cols[3]))
    return found


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            out += [kid] + _children(kid)
    return out
