"""One received line to one typed message. Every failure is a ProtocolError with
code `bad_request` (R1); unknown members are ignored (U1)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import NoReturn

from . import messages as m
from .errors import BAD_REQUEST, ProtocolError

U32_MAX = 4_294_967_295
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")  # F4
MAX_NAME_BYTES = 4096  # an anchor or frame id longer than any path (PATH_MAX) names nothing
QUOTED_CHARS = 60  # an error quotes at most this much of what was sent


def quoted(value: object) -> str:
    """repr() of what a host sent, cut short: an error never echoes megabytes back."""
    text = repr(value)
    return text if len(text) <= QUOTED_CHARS else f"{text[:QUOTED_CHARS]}... ({len(text)} chars)"


class _Fields:
    """Typed access to one JSON object, naming the path of whatever is wrong."""

    def __init__(self, obj: m.Wire, where: str, request_id: str | None):
        self.obj, self.where, self.request_id = obj, where, request_id

    def fail(self, key: str, what: str) -> NoReturn:
        raise ProtocolError(BAD_REQUEST, f"{self.where}.{key} {what}", self.request_id)

    def string(self, key: str, *, required: bool = True, nullable: bool = False) -> str | None:
        value = self.obj.get(key)
        if value is None:
            if key in self.obj and nullable:
                return None
            if required:
                self.fail(key, "is required" if key not in self.obj else "must be a string")
            return None
        if not isinstance(value, str):
            self.fail(key, "must be a string")
        return value

    def required(self, key: str) -> str:
        value = self.string(key)
        assert value is not None  # string() fails on a missing required field
        return value

    def u32(self, key: str) -> int:
        value = self.obj.get(key)
        if value is None:
            self.fail(key, "is required")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= U32_MAX:
            self.fail(key, "must be an integer between 0 and 4294967295")
        return int(value)

    def string_list(self, key: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
        value = self.obj.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(key, "must be an array of strings")
        if allowed is not None:
            unknown = [v for v in value if v not in allowed]
            if unknown:
                self.fail(key, f"has unknown value(s) {quoted(unknown)}; expected some of {list(allowed)}")
        return tuple(value)

    def name(self, key: str) -> str:
        """A required string that names a file or node: no NUL, no longer than any path."""
        value = self.required(key)
        self.check_name(key, value)
        return value

    def check_name(self, key: str, value: str) -> None:
        if "\0" in value:
            self.fail(key, f"holds a NUL character, which no file or node name holds: {quoted(value)}")
        if len(value.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            self.fail(key, f"is longer than {MAX_NAME_BYTES} bytes: {quoted(value)}")

    def obj_field(self, key: str) -> "_Fields":
        value = self.obj.get(key)
        if not isinstance(value, dict):
            self.fail(key, "must be an object" if key in self.obj else "is required")
        return _Fields(value, f"{self.where}.{key}", self.request_id)


def decode(line: bytes) -> m.Message:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(BAD_REQUEST, f"line is not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(BAD_REQUEST, f"line is not valid JSON ({exc})") from None
    if not isinstance(envelope, dict):
        raise ProtocolError(BAD_REQUEST, f"an envelope must be a JSON object, not {type(envelope).__name__}")
    raw_id = envelope.get("id")
    request_id = raw_id if isinstance(raw_id, str) and raw_id else None
    top = _Fields(envelope, "envelope", request_id)
    if "id" in envelope and raw_id is not None and request_id is None:
        top.fail("id", "must be a non-empty string")
    kind = envelope.get("type")
    if not isinstance(kind, str):
        top.fail("type", "is required and must be a string")
    if kind == m.HANDSHAKE:
        return m.Handshake(top.required("protocol_version"))
    if kind == m.QUERY:
        return m.Query(_query(top.obj_field("query")), request_id)
    if kind == m.VERIFY:
        return m.Verify(_verify(top.obj_field("request")), request_id)
    if kind == m.SHUTDOWN:
        return m.Shutdown(request_id)
    raise ProtocolError(BAD_REQUEST, f"unknown envelope type {quoted(kind)}", request_id)


def _instant(text: str) -> bool:
    """F4's shape and a real instant: 2026-13-45T99:99:99Z has the shape only."""
    if not TIMESTAMP.match(text):
        return False
    try:
        datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return False
    return True


def _query(q: _Fields) -> m.ContextQuery:
    embedding = q.obj.get("embedding")
    if embedding is not None:
        if not isinstance(embedding, list) or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in embedding
        ):
            q.fail("embedding", "must be an array of numbers")
        embedding = tuple(float(x) for x in embedding)
    as_of = q.string("as_of", required=False, nullable=True)
    if as_of is not None and not _instant(as_of):
        q.fail("as_of", f"must be an RFC 3339 UTC timestamp like 2026-07-01T00:00:00Z (F4), not {quoted(as_of)}")
    anchors = q.string_list("anchors")
    for i, anchor in enumerate(anchors):
        q.check_name(f"anchors[{i}]", anchor)
    return m.ContextQuery(
        goal=q.required("goal"),
        max_frames=q.u32("max_frames"),
        max_tokens=q.u32("max_tokens"),
        query_text=q.string("query_text", required=False, nullable=True),
        embedding=embedding,
        kinds=q.string_list("kinds", m.FRAME_KINDS),  # Q1: unknown kinds are a bad request
        anchors=anchors,
        as_of=as_of,
        representation_preferences=q.string_list("representation_preferences", m.REPRESENTATIONS),
    )


def _verify(req: _Fields) -> tuple[m.FrameId, ...]:
    frames = req.obj.get("frames")
    if not isinstance(frames, list):
        req.fail("frames", "must be an array")
    out = []
    for i, item in enumerate(frames):
        if not isinstance(item, dict):
            req.fail(f"frames[{i}]", "must be an object")
        f = _Fields(item, f"{req.where}.frames[{i}]", req.request_id)
        out.append(m.FrameId(f.required("provider_id"), f.name("frame_id"),
                             f.string("content_digest", required=False, nullable=True)))
    return tuple(out)
