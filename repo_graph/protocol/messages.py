"""Protocol shapes as frozen dataclasses; field names are the wire keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Wire = dict[str, Any]  # an envelope or part of one, as JSON has it

# Envelope types.
HANDSHAKE = "handshake"
HANDSHAKE_ACK = "handshake_ack"
QUERY = "query"
FRAMES = "frames"
VERIFY = "verify"
VERIFIED = "verified"
SHUTDOWN = "shutdown"
ERROR = "error"

# U2: the closed kind set of the family.
FRAME_KINDS = ("snippet", "symbol", "fact", "doc", "memory", "episode", "graph")
REPRESENTATIONS = ("full", "compact", "reference")

# Graph relations: the shared vocabulary and our own, namespaced.
REL_CALLS = "code.calls"
REL_IMPORTS = "code.imports"
REL_DEFINES = "code.defines"
REL_REFERENCES = "code.references"
REL_DOCUMENTS = "doc.documents"
REL_CONTAINS = "repo-graph:contains"
REL_MEMBER_OF = "repo-graph:member-of"
REL_DEFINED_IN = "repo-graph:defined-in"
REL_CALLED_BY = "repo-graph:called-by"
REL_REFERENCED_BY = "repo-graph:referenced-by"
REL_IMPORTED_BY = "repo-graph:imported-by"
REL_DOCUMENTED_BY = "repo-graph:documented-by"

# Verdicts.
VALID = "valid"
STALE = "stale"
GONE = "gone"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Handshake:
    protocol_version: str


@dataclass(frozen=True)
class ContextQuery:
    goal: str
    max_frames: int
    max_tokens: int
    query_text: str | None = None
    embedding: tuple[float, ...] | None = None
    kinds: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    as_of: str | None = None
    representation_preferences: tuple[str, ...] = ()


@dataclass(frozen=True)
class Query:
    query: ContextQuery
    id: str | None = None


@dataclass(frozen=True)
class FrameId:
    provider_id: str
    frame_id: str
    content_digest: str | None = None

    def to_wire(self) -> Wire:
        out = {"provider_id": self.provider_id, "frame_id": self.frame_id}
        if self.content_digest is not None:
            out["content_digest"] = self.content_digest
        return out


@dataclass(frozen=True)
class Verify:
    frames: tuple[FrameId, ...]
    id: str | None = None


@dataclass(frozen=True)
class Shutdown:
    id: str | None = None


@dataclass(frozen=True)
class Provenance:
    uri: str
    range: str
    digest: str
    method: str
    by: str
    type: str = "file"

    def to_wire(self) -> Wire:
        return {"type": self.type, "uri": self.uri, "range": self.range, "digest": self.digest,
                "method": self.method, "by": self.by}


@dataclass(frozen=True)
class Relation:
    rel: str
    target_uri: str
    display_name: str

    def to_wire(self) -> Wire:
        return {"rel": self.rel, "target_uri": self.target_uri, "display_name": self.display_name}


@dataclass(frozen=True)
class Frame:
    id: str
    kind: str
    title: str
    content: str
    content_digest: str
    uri: str
    score: float
    token_cost: int
    canonical_token_cost: int | None
    tokenizer_ref: str | None
    valid_from: str | None
    recorded_at: str | None
    provenance: tuple[Provenance, ...]
    citation_label: str
    relations: tuple[Relation, ...] = ()

    def to_wire(self) -> Wire:
        out = {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "content": self.content,
            "content_digest": self.content_digest,
            "uri": self.uri,
            "score": self.score,
            "token_cost": self.token_cost,
        }
        if self.canonical_token_cost is not None:
            out["canonical_token_cost"] = self.canonical_token_cost
            out["tokenizer_ref"] = self.tokenizer_ref
        if self.valid_from is not None:
            out["valid_from"] = self.valid_from
        if self.recorded_at is not None:
            out["recorded_at"] = self.recorded_at
        out["provenance"] = [p.to_wire() for p in self.provenance]
        out["citation_label"] = self.citation_label
        out["relations"] = [r.to_wire() for r in self.relations]
        return out


@dataclass(frozen=True)
class QueryResult:
    frames: tuple[Frame, ...]
    truncated: bool
    dropped_estimate: int | None = None


@dataclass(frozen=True)
class Verdict:
    frame: FrameId
    status: str
    replacement_digest: str | None = None

    def to_wire(self) -> Wire:
        out = {"frame": self.frame.to_wire(), "status": self.status}
        if self.replacement_digest is not None:
            out["replacement_digest"] = self.replacement_digest
        return out


@dataclass(frozen=True)
class ProviderInfo:
    name: str
    version: str
    reads: bool = True
    writes: bool = False
    egress: bool = False


@dataclass(frozen=True)
class Capabilities:
    kinds: tuple[str, ...]
    correlation: bool = True
    graph: bool = True
    verify: bool = True
    embeddings_fingerprint: str | None = None


Message = Handshake | Query | Verify | Shutdown
