"""Frames as a model reads them, for tool results: per frame its citation, title and
kind, its id and digest (what `verify` takes back), its uri, the code in a fenced
block; then a footer saying what was sent, what was left out and how to narrow. The
same data goes out as structured content. What fits is decided on the whole result
as a host receives it, the text and the compact JSON of the structured content
counted with cl100k_base: frames go from the tail, whole, never cut. Knows nothing
of the wire."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Callable
from urllib.parse import urlsplit

from .packing import largest_prefix

_BACKTICKS = re.compile(r"`+")
# Wire names of relations, as a model reads them: `repo-graph:called-by` -> `called-by`.
_REL_PREFIXES = ("repo-graph:", "code.", "doc.")


def compact_json(data) -> str:
    """The structured content as it is counted: one line, no spaces, UTF-8 kept."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Framing:
    """What a result says besides its frames."""

    note: str = ""  # first, before the frames: the index still being built, a name naming several symbols
    advice: str = ""  # last, how to narrow the question
    not_packed: int = 0  # candidates the packing left out (CGP's dropped_estimate)
    query_max_tokens: int | None = None  # the budget of the CGP answer these frames are a prefix of
    relations_of: frozenset[str] = frozenset()  # frame ids shown with their relations (get_symbol)
    extra: dict = field(default_factory=dict)  # more structured fields (the index's state)


@dataclass(frozen=True)
class Rendered:
    text: str
    structured: dict
    tokens: int  # of text and compact_json(structured), counted together as one result
    sent: int  # frames sent, a prefix of those offered


def fence(content: str, info: str = "") -> str:
    """A fenced block no backtick run inside the content can close (CommonMark)."""
    longest = max((len(run) for run in _BACKTICKS.findall(content)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = content if content.endswith("\n") else content + "\n"
    return f"{ticks}{info}\n{body}{ticks}"


def _rel(name: str) -> str:
    for prefix in _REL_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _lines(frame) -> str:
    return ",".join(p.range for p in frame.provenance)


def _frame_text(n: int, frame, with_relations: bool) -> str:
    info = PurePosixPath(urlsplit(frame.provenance[0].uri).path).suffix.lstrip(".") if frame.provenance else ""
    parts = [
        f"## [{n}] {frame.citation_label} · {frame.title} ({frame.kind})",
        f"frame_id: {frame.id}",
        f"content_digest: {frame.content_digest}",
        f"uri: {frame.uri}",
        fence(frame.content, info),
    ]
    if with_relations and frame.relations:
        parts.append("relations: " + "; ".join(f"{_rel(r.rel)} {r.display_name}" for r in frame.relations))
    return "\n".join(parts)


def _frame_data(frame, with_relations: bool) -> dict:
    out = {
        "frame_id": frame.id, "content_digest": frame.content_digest, "citation": frame.citation_label,
        "title": frame.title, "kind": frame.kind, "uri": frame.uri, "lines": _lines(frame),
        "score": round(frame.score, 3), "content": frame.content,
    }
    if with_relations:
        out["relations"] = [r.to_wire() for r in frame.relations]
    return out


def _footer(sent: int, offered: int, tokens: int, max_tokens: int, framing: Framing) -> str:
    left = []
    if offered > sent:
        left.append(f"{offered - sent} ranked frame(s) that did not fit once rendered")
    if framing.not_packed:
        left.append(f"{framing.not_packed} more candidate(s) below them")
    lines = [f"---\nsent {sent} of {offered} frame(s), {tokens:,} of {max_tokens:,} tokens "
             "(this text and its structured copy, cl100k_base)."]
    if left:
        lines.append("left out: " + "; ".join(left) + ".")
    if framing.advice and (left or not sent):
        lines.append(framing.advice)
    return "\n".join(lines)


def fit(frames, count: Callable[[str], int], max_tokens: int, framing: Framing = Framing()) -> Rendered:
    """The longest prefix of `frames` whose whole result, counted by `count`, is
    within `max_tokens` (a footer alone is taken to fit: budgets start well above it)."""
    texts = [_frame_text(n, f, f.id in framing.relations_of) for n, f in enumerate(frames, 1)]
    data = [_frame_data(f, f.id in framing.relations_of) for f in frames]
    made: dict[int, Rendered] = {}

    def whole(k: int) -> Rendered:
        if k not in made:
            made[k] = _settle(k, texts, data, len(frames), count, max_tokens, framing)
        return made[k]

    return whole(largest_prefix(len(frames), lambda k: whole(k).tokens, max_tokens))


def _assemble(k: int, texts, data, offered: int, stated: int, max_tokens: int, framing: Framing):
    text = "\n\n".join(([framing.note] if framing.note else []) + texts[:k]
                       + [_footer(k, offered, stated, max_tokens, framing)])
    structured = {
        "frames": data[:k], "sent": k, "offered": offered, "not_packed": framing.not_packed,
        "tokens": stated, "max_tokens": max_tokens, "query_max_tokens": framing.query_max_tokens,
        "note": framing.note or None, **framing.extra,
    }
    return text, structured


def _settle(k: int, texts, data, offered: int, count, max_tokens: int, framing: Framing) -> Rendered:
    """The result of the first `k` frames, stating its own token count: the figure is
    part of what is counted, so it is settled by recounting until it holds (a digit
    more or less rarely moves the count; a last round errs high, never low)."""
    stated = 0
    for _ in range(4):
        text, structured = _assemble(k, texts, data, offered, stated, max_tokens, framing)
        real = count(text) + count(compact_json(structured))
        if real == stated:
            return Rendered(text, structured, real, k)
        stated = real
    text, structured = _assemble(k, texts, data, offered, stated + 2, max_tokens, framing)
    return Rendered(text, structured, count(text) + count(compact_json(structured)), k)
