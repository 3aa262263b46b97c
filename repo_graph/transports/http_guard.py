"""What the HTTP transport refuses, and why: the address it may bind, the Host and
Origin a request may carry (DNS rebinding), the token. Pure functions of a request's
head, so the rules read in one place; the transport moves the bytes. Rules S1-S4 are
issue 38's security list (docs/http.md)."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

SERVED_PATH = "/cgp"
MAX_BODY_BYTES = 8 * 1024 * 1024  # S4: as stdio's longest line
MAX_HEAD_BYTES = 16 * 1024  # S4: h11 refuses a longer head only while it is incomplete
MIN_TOKEN_CHARS = 16


@dataclass(frozen=True)
class Address:
    """Where to listen: an IP literal and a port. Names other than `localhost` are
    refused: resolving one would be a network look-up (data_flow.egress is false)."""

    host: str
    port: int

    @property
    def ip(self):
        return ipaddress.ip_address(self.host)

    @property
    def loopback(self) -> bool:
        return self.ip.is_loopback

    @property
    def wildcard(self) -> bool:
        return self.ip.is_unspecified

    def authority(self, port: int | None = None) -> str:
        """`host:port` as a URL spells it (IPv6 in brackets)."""
        host = f"[{self.host}]" if self.ip.version == 6 else self.host
        return f"{host}:{self.port if port is None else port}"


def parse_address(text: str) -> Address:
    """`PORT`, `HOST:PORT` or `[IPV6]:PORT`; 127.0.0.1 when no host is given (S1)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = "127.0.0.1"
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"--http {text}: write an IPv6 address in brackets, like [::1]:{port}")
    if host.lower() == "localhost":
        host = "127.0.0.1"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"--http {text}: the host must be an IP address or localhost, not a name to look up") from None
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--http {text}: the port must be a number from 0 to 65535")
    return Address(str(ip), int(port))


def new_token() -> str:
    """S3: 32 random bytes, URL-safe (it may travel as ?token=)."""
    return secrets.token_urlsafe(32)


def read_token(path: str) -> str:
    """S3: a token the user keeps in a file only they can read; never on the command line."""
    p = Path(path).expanduser()
    try:
        mode = p.stat().st_mode
        text = p.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the token file {p}: {exc}") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ValueError(f"the token file {p} is readable by other users: chmod 600 it")
    if len(text) < MIN_TOKEN_CHARS or not all(33 <= ord(c) < 127 for c in text):
        raise ValueError(f"the token file {p} must hold one token of at least {MIN_TOKEN_CHARS} printable "
                         "ASCII characters without spaces")
    return text


@dataclass(frozen=True)
class Refusal:
    status: int
    reason: str  # goes to the client and to stderr: never the token
    headers: tuple[tuple[bytes, bytes], ...] = ()


class Guard:
    """Checks a request's head (an ASGI scope) before any of its body is read."""

    def __init__(self, address: Address, port: int, token: str | None):
        self.address = address
        self.port = port
        self._token = token.encode() if token is not None else None

    def _host_allowed(self, host: str) -> bool:
        """S2: the Host names the bound address and port (or localhost on loopback), so
        a name that an attacker's DNS points at 127.0.0.1 (rebinding) is not served. On
        a wildcard address any IP literal is fine: only a name can be rebound."""
        if host.startswith("["):
            name, _, rest = host[1:].partition("]")
            port = rest[1:] if rest.startswith(":") else "80" if not rest else ""
        else:
            name, sep, port = host.partition(":")
            port = port if sep else "80"
        if not port.isdigit() or int(port) != self.port:
            return False
        if name == "localhost":
            return self.address.loopback or self.address.wildcard
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        return self.address.wildcard or ip == self.address.ip

    def _token_given(self, headers: list[tuple[bytes, bytes]], query: bytes) -> bool:
        """S3: `Authorization: Bearer T` or `?token=T`, compared in constant time."""
        offered = [v[7:].strip() for k, v in headers if k == b"authorization" and v[:7].lower() == b"bearer "]
        offered += [t.encode() for t in parse_qs(query.decode("latin-1")).get("token", [])]
        found = False
        for candidate in offered:
            found |= hmac.compare_digest(candidate, self._token)
        return found

    def check(self, scope: dict) -> Refusal | None:
        headers = scope["headers"]
        if sum(len(k) + len(v) + 4 for k, v in headers) > MAX_HEAD_BYTES:
            return Refusal(431, f"the headers are over {MAX_HEAD_BYTES} bytes")  # S4
        hosts = [v.decode("latin-1").lower() for k, v in headers if k == b"host"]
        if len(hosts) != 1 or not self._host_allowed(hosts[0]):
            return Refusal(421, "the Host header does not name this server's address and port")  # S2
        origins = [v.decode("latin-1").lower() for k, v in headers if k == b"origin"]
        if origins and origins != [f"http://{hosts[0]}"]:
            return Refusal(403, "requests from web pages of another origin are refused")  # S2
        if self._token is not None and not self._token_given(headers, scope.get("query_string", b"")):
            return Refusal(401, "a token is required (Authorization: Bearer, or ?token=); see docs/http.md",
                           ((b"www-authenticate", b"Bearer"),))  # S3
        if scope["path"] != SERVED_PATH:
            return Refusal(404, f"no such path: this server answers POST {SERVED_PATH}")  # S4
        if scope["method"] != "POST":
            return Refusal(405, "only POST is served", ((b"allow", b"POST"),))  # S4
        types = [v.split(b";")[0].strip().lower() for k, v in headers if k == b"content-type"]
        if types != [b"application/json"]:
            return Refusal(415, "the body must be sent as Content-Type: application/json")  # S4
        lengths = [v for k, v in headers if k == b"content-length"]
        if lengths and int(lengths[0]) > MAX_BODY_BYTES:  # h11 has checked it is a number
            return Refusal(413, f"the body is over {MAX_BODY_BYTES} bytes")  # S4: refused before reading
        return None
