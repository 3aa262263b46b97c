"""Streamable HTTP (PROTOCOL.md "Transport"): one POST, one envelope each way, served
by uvicorn on one socket. Moves bytes and enforces http_guard's rules; the protocol is
session.py's, with a new Session per POST because over HTTP each POST stands alone."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import signal
import socket
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..protocol import encode
from ..protocol.errors import BAD_REQUEST
from .http_guard import (MAX_BODY_BYTES, MAX_HEAD_BYTES, SERVED_PATH, Address, Guard, Refusal, new_token,
                         parse_address, read_token)

# Sessions answered at once; the rest wait their turn in order. The interpreter's lock
# runs about one thread of Python at a time: on the stdlib, 1, 2, 4 and 8 workers gave
# the same throughput at 32 clients (within a shared machine's noise), each adding its
# own SQLite cache (~37 MB). 4 let a handshake through while 3 slow queries run
# (benchmarks/README.md, "HTTP transport under load").
WORKERS = 4
MAX_CONNECTIONS = 128  # past this uvicorn answers 503 and the rest keep being served
DEFAULT_TIMEOUT = 10.0


class _Protocol(H11Protocol):
    """uvicorn's h11 protocol plus a deadline on each request's head. uvicorn closes a
    connection idle between requests, but not one that sends a head slowly or never
    finishes it (slow loris): S4 wants those closed too."""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._head_deadline = None
        self._await_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            self._await_head()  # a head under way: it has until the deadline set at its first byte
        elif self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _await_head(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.timeout_keep_alive, self._head_late)

    def _head_late(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
        super().connection_lost(exc)


def _is_object(body: bytes) -> bool:
    try:
        return isinstance(json.loads(body.decode("utf-8")), dict)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False


async def _respond(send, status: int, body: bytes | None, headers=(), *, close: bool = False) -> None:
    """One whole response; no CORS header, no redirect, ever (S4)."""
    head = [(b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff"), *headers]
    if body is not None:
        head += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        head.append((b"connection", b"close"))  # a refused body is not read to its end
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body or b"", "more_body": False})


class _App:
    """The ASGI application: guard, read the body under its cap and deadline, hand it
    to a Session on a worker thread, send back what the session says."""

    def __init__(self, guard: Guard, new_session, pool: ThreadPoolExecutor, timeout: float):
        self.guard, self.new_session, self.pool, self.timeout = guard, new_session, pool, timeout
        self.answered = self.refused = 0

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return  # lifespan is off and websockets are not served
        refusal = self.guard.check(scope)
        body = None
        if refusal is None:
            body, refusal = await self._read_body(receive)
        if refusal is not None:
            await self._refuse(scope, send, refusal)
            return
        if body is None:
            return  # the client went away
        loop = asyncio.get_running_loop()
        status, payload = await loop.run_in_executor(self.pool, self._handle, body)
        self.answered += 1
        await _respond(send, status, payload)

    async def _read_body(self, receive) -> tuple[bytes | None, Refusal | None]:
        """S4: counted as it streams (a chunked body has no Content-Length), capped
        before any parsing, and given `timeout` seconds in all."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        chunks, size = [], 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                return None, Refusal(408, f"the body did not arrive within {self.timeout:g} s")
            if message["type"] == "http.disconnect":
                return None, None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                return None, Refusal(413, f"the body is over {MAX_BODY_BYTES} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), None

    def _handle(self, body: bytes) -> tuple[int, bytes | None]:
        """On a worker thread: the session's answer, and its status."""
        reply = self.new_session().handle(body)
        if reply.envelope is None:
            return 204, None  # shutdown: this host is done; the server keeps serving
        envelope = reply.envelope
        refused = envelope.get("type") == "error" and envelope.get("code") == BAD_REQUEST and not _is_object(body)
        return (400 if refused else 200), encode.line(envelope)

    async def _refuse(self, scope, send, refusal: Refusal) -> None:
        self.refused += 1
        client = scope.get("client")
        who = f"{client[0]}:{client[1]}" if client else "?"
        # The method, the peer and our reason only: the path and query may hold a token (S3).
        sys.stderr.write(f"repo-graph: http: refused {scope['method']} from {who}: {refusal.status} {refusal.reason}\n")
        body = encode.line(encode.error(BAD_REQUEST, refusal.reason, None))
        await _respond(send, refusal.status, body, refusal.headers, close=True)


def _bind(address: Address) -> socket.socket:
    family = socket.AF_INET6 if address.ip.version == 6 else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio sets TCP_NODELAY only on sockets that say TCP,
    # and without it the body waits behind the head for a delayed ACK (40 ms an answer).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address.host, address.port))
        sock.listen(MAX_CONNECTIONS)
    except OSError:
        sock.close()
        raise
    return sock


def _write_private(path: Path, data: dict) -> None:
    """S3: the URL and token, readable by the user only (0600), replaced whole."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), 0o600)
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(partial, path)


class Listener:
    """The socket, bound before the index opens (a taken port fails at once), the
    token, and the state file that tells hosts where the server is."""

    def __init__(self, address: Address, token: str | None, state_path: Path, timeout: float):
        self.address, self.token, self.state_path, self.timeout = address, token, state_path, timeout
        self.sock = _bind(address)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{address.authority(self.port)}{SERVED_PATH}"

    @classmethod
    def open(cls, spec: str, *, state_path: Path, allow_remote: bool = False, token_file: str | None = None,
             no_token: bool = False, timeout: float = DEFAULT_TIMEOUT) -> Listener:
        """Checks the flags together; a ValueError says what is wrong with them."""
        address = parse_address(spec)
        if not address.loopback and not allow_remote:  # S1
            raise ValueError(f"--http {spec} would be reachable from other machines: add --allow-remote if you mean it")
        if no_token and (token_file or not address.loopback):  # S3
            raise ValueError("--no-token is allowed only on a loopback address, without --token-file")
        if not timeout > 0:
            raise ValueError("--http-timeout must be a positive number of seconds")
        token = None if no_token else read_token(token_file) if token_file else new_token()
        listener = cls(address, token, state_path, timeout)
        try:
            listener._claim()
        except ValueError:
            listener.sock.close()
            raise
        return listener

    def _claim(self) -> None:
        """One server per repository and cache, since hosts find it by the state file:
        a lock beside it, held while serving (the kernel drops it if the process dies)."""
        folder = self.state_path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
        if st.st_uid != os.getuid() or st.st_mode & 0o022:  # S3: no one else may swap the file hosts read
            raise ValueError(f"{folder} is not yours alone (owner or write bits): the token file cannot go there")
        fd = os.open(self.state_path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ValueError(f"another server serves this repository; its URL is in {self.state_path}") from None
        self._lock_fd = fd

    def _announce(self) -> None:
        state = {"url": self.url, "token": self.token, "pid": os.getpid()}
        if self.token is not None:
            state["url_with_token"] = f"{self.url}?token={self.token}"
        _write_private(self.state_path, state)
        say = sys.stderr.write
        say(f"repo-graph: serving CGP over HTTP at {self.url}\n")
        say(f"repo-graph: the URL and token are in {self.state_path} (readable by you only)\n")
        if not self.address.loopback:  # S1
            say(f"repo-graph: warning: listening on {self.address.authority(self.port)}, reachable from other "
                "machines (--allow-remote); requests need the token, and HTTP is not encrypted\n")
        if self.token is None:  # S3
            say("repo-graph: warning: --no-token: any program on this machine, of any user, can query this index\n")

    def _forget(self) -> None:
        """No stale URL is left behind (the lock says no other server wrote it since)."""
        self.state_path.unlink(missing_ok=True)

    def serve(self, new_session) -> int:
        """Serve until SIGINT or SIGTERM; `new_session()` makes each POST's Session."""
        import logging

        import uvicorn

        sys.stdout.flush()
        os.dup2(2, 1)  # nothing is written to stdout in HTTP mode: humans read stderr
        sys.stdout = sys.stderr
        log = logging.getLogger("uvicorn")
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("repo-graph: http: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.WARNING)
        log.propagate = False

        pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="cgp-http")
        app = _App(Guard(self.address, self.port, self.token), new_session, pool, self.timeout)
        config = uvicorn.Config(
            app, http=_Protocol, ws="none", lifespan="off", loop="asyncio", interface="asgi3",
            log_config=None, access_log=False,  # S3: uvicorn's access log prints query strings (?token=)
            proxy_headers=False, server_header=False, timeout_keep_alive=self.timeout,
            limit_concurrency=MAX_CONNECTIONS, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
            timeout_graceful_shutdown=5,
        )
        # uvicorn re-raises the signal that stopped it once it has stopped: make SIGTERM
        # an exception here, so the state file is removed as after Ctrl-C.
        signal.signal(signal.SIGTERM, _raise_exit)
        self._announce()
        try:
            uvicorn.Server(config).run(sockets=[self.sock])
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self._forget()
            pool.shutdown(wait=False, cancel_futures=True)
            sys.stderr.write(f"repo-graph: http: stopped after {app.answered} answers, {app.refused} refused\n")
        return 0


def _raise_exit(signum, frame):
    raise SystemExit(0)
