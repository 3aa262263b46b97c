"""Outgoing envelopes: one compact JSON object, one line, UTF-8."""

from __future__ import annotations

import json
from collections.abc import Iterable

from . import messages as m


def _with_id(envelope: m.Wire, request_id: str | None) -> m.Wire:
    if request_id is not None:
        envelope["id"] = request_id  # H4: echoed verbatim
    return envelope


def handshake_ack(version: str, info: m.ProviderInfo, caps: m.Capabilities) -> m.Wire:
    return {
        "type": m.HANDSHAKE_ACK,
        "protocol_version": version,
        "provider": {
            "name": info.name,
            "version": info.version,
            "data_flow": {"reads": info.reads, "writes": info.writes, "egress": info.egress},
        },
        "capabilities": {
            "query": {"kinds": list(caps.kinds)},
            "correlation": caps.correlation,
            "graph": caps.graph,
            "embeddings_fingerprint": caps.embeddings_fingerprint,
            "verify": caps.verify,
        },
    }


def frames(result: m.QueryResult, request_id: str | None) -> m.Wire:
    body = {"frames": [f.to_wire() for f in result.frames], "truncated": result.truncated}
    if result.dropped_estimate is not None:
        body["dropped_estimate"] = result.dropped_estimate
    return _with_id({"type": m.FRAMES, "result": body}, request_id)


def verified(verdicts: Iterable[m.Verdict], request_id: str | None) -> m.Wire:
    return _with_id({"type": m.VERIFIED, "response": {"verdicts": [v.to_wire() for v in verdicts]}}, request_id)


def error(code: str, message: str, request_id: str | None) -> m.Wire:
    return _with_id({"type": m.ERROR, "code": code, "message": message or code}, request_id)


def line(envelope: m.Wire) -> bytes:
    """No literal newline can appear: json.dumps escapes it inside strings."""
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
