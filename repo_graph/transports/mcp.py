"""MCP over stdio, by the official SDK's low-level server (`mcp.server.lowlevel`):
five read-only tools (repo_graph/tools.py) with their JSON schemas, arguments
checked against them, answers run off the event loop one at a time. Nothing here
opens a connection: the SDK's OpenTelemetry middleware is dropped, and its stdio
transport is handed our own streams.

The wire goes to private copies of fd 0 and 1, claimed before any thread or child
starts (`claim_stdio`); fd 0 then reads nothing and fd 1 leads to stderr, so a stray
print (ours, a library's, a child's) never reaches the host, as transports/stdio.py
does for CGP."""

from __future__ import annotations

import io
import os
import sys
import threading
import traceback
from dataclasses import dataclass
from functools import partial
from typing import BinaryIO, Callable

from .. import __version__
from ..lookup import RELATIONS
from ..protocol.decode import TIMESTAMP
from ..tools import DEFAULT_MAX_FRAMES, DEFAULT_MAX_TOKENS, HARD_CAP, MAX_FRAMES, MIN_TOKENS, ToolError, Tools
from .stdio import write_all

INSTRUCTIONS = (
    "Code and docs of one repository, ranked for your task and packed under a token budget. Start "
    "with get_context; cite frames by citation and frame_id; after edits, verify citations before "
    "relying on them."
)


@dataclass(frozen=True)
class Wire:
    reader: BinaryIO
    writer: BinaryIO


class _WholeWrites(io.RawIOBase):
    """The wire's descriptor, every write whole (stdio.write_all: a pipe takes part of
    a large write when the reader is slow, or would block when a parent left it so)."""

    def __init__(self, fd: int):
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, data) -> int:
        write_all(self._fd, bytes(data))
        return len(data)


def claim_stdio() -> Wire:
    """The wire's private ends; fd 0 now reads /dev/null and fd 1 writes to stderr."""
    sys.stdout.flush()
    reader_fd, writer_fd = os.dup(0), os.dup(1)  # not inherited by children (PEP 446)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return Wire(os.fdopen(reader_fd, "rb"), io.BufferedWriter(_WholeWrites(writer_fd)))


# -- the tools: schemas, descriptions, how each is answered ----------------------------
# Every request a host makes carries the tool list: schemas say what a model needs, tersely.
_BUDGET = {
    "type": "integer",
    "minimum": MIN_TOKENS,
    "maximum": HARD_CAP,
    "default": DEFAULT_MAX_TOKENS,
    "description": "Tokens (cl100k_base) for the whole result.",
}
_NAME = {"type": "string", "minLength": 1, "maxLength": 4096}
_STRING = {"type": "string"}
_INTEGER = {"type": "integer"}
FRAMES_OUTPUT = {  # render.py's structured content
    "type": "object",
    "properties": {
        "frames": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    k: _STRING
                    for k in ("frame_id", "content_digest", "citation", "title", "kind", "uri", "lines", "content")
                },
                "required": ["frame_id", "content_digest", "uri", "lines", "content"],
            },
        },
        **{k: _INTEGER for k in ("sent", "offered", "not_packed", "tokens", "max_tokens")},
    },
    "required": ["frames", "sent", "tokens", "max_tokens"],
}


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    input_schema: dict
    output_schema: dict
    answer: Callable[[Tools, dict], object]  # -> render.Rendered
    waits: bool = True  # False: answered at once, even while another answer is under way


def _object(properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


SPECS = (
    ToolSpec(
        "get_context",
        "Context for a task",
        "Ranked code and docs from this repository for a task or question, packed under max_tokens. Each "
        "frame carries a citation, frame_id and content_digest (give them to verify later). Call this first; "
        "anchors (files or symbols you are working on) focus it.",
        _object(
            {
                "goal": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 8000,
                    "description": "The task or question in words (an error message works too).",
                },
                "anchors": {
                    "type": "array",
                    "items": _NAME,
                    "maxItems": 32,
                    "description": "Files, directories, symbols or file:// uris to stay close to.",
                },
                "max_tokens": _BUDGET,
                "max_frames": {"type": "integer", "minimum": 1, "maximum": MAX_FRAMES, "default": DEFAULT_MAX_FRAMES},
                "kinds": {
                    "type": "array",
                    "items": {"enum": ["symbol", "doc"]},
                    "uniqueItems": True,
                    "description": "symbol: code only; doc: documentation sections only.",
                },
                "as_of": {
                    "type": "string",
                    "pattern": TIMESTAMP.pattern,
                    "description": "UTC instant (2026-07-01T00:00:00Z): only files unchanged since then.",
                },
            },
            ("goal",),
        ),
        FRAMES_OUTPUT,
        lambda t, a: t.get_context(
            a["goal"],
            a.get("anchors", ()),
            a.get("max_tokens", DEFAULT_MAX_TOKENS),
            a.get("max_frames", DEFAULT_MAX_FRAMES),
            a.get("kinds", ()),
            a.get("as_of"),
        ),
    ),
    ToolSpec(
        "get_symbol",
        "One symbol",
        "One symbol by name (RetryPolicy, config.load_config), frame_id or file:// uri: its code (its header "
        "when large) and relations. with_neighbors adds its callers, callees, members and docs.",
        _object(
            {"symbol": _NAME, "with_neighbors": {"type": "boolean", "default": False}, "max_tokens": _BUDGET},
            ("symbol",),
        ),
        FRAMES_OUTPUT,
        lambda t, a: t.get_symbol(a["symbol"], a.get("with_neighbors", False), a.get("max_tokens", DEFAULT_MAX_TOKENS)),
    ),
    ToolSpec(
        "related",
        "Related code",
        "What is joined to a file or symbol by one relation, ranked and packed under max_tokens: callers, "
        "callees, references (every use), imports, importers, members, documents (docs about it, or code a "
        "doc section describes).",
        _object(
            {"anchor": _NAME, "relation": {"enum": list(RELATIONS)}, "max_tokens": _BUDGET}, ("anchor", "relation")
        ),
        FRAMES_OUTPUT,
        lambda t, a: t.related(a["anchor"], a["relation"], a.get("max_tokens", DEFAULT_MAX_TOKENS)),
    ),
    ToolSpec(
        "verify",
        "Verify citations",
        "Check citations {frame_id, content_digest} from earlier answers against the files now: valid, "
        "stale (changed; the current digest given) or gone.",
        _object(
            {
                "citations": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 100,
                    "items": _object(
                        {
                            "frame_id": {"type": "string", "minLength": 1, "maxLength": 2048},
                            "content_digest": {"type": "string", "minLength": 1, "maxLength": 200},
                        },
                        ("frame_id", "content_digest"),
                    ),
                }
            },
            ("citations",),
        ),
        {
            "type": "object",
            "properties": {
                "verdicts": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "frame_id": {"type": "string"},
                            "content_digest": {"type": "string"},
                            "status": {"enum": ["valid", "stale", "gone"]},
                            "current_digest": {"type": "string"},
                        },
                        "required": ["frame_id", "status"],
                    },
                }
            },
            "required": ["verdicts"],
        },
        lambda t, a: t.verify(a["citations"]),
    ),
    ToolSpec(
        "index_status",
        "Index status",
        "The index behind the other tools: files and languages, last refresh, whether the watcher is live, "
        "changes pending, and how far a first index is.",
        _object({}),
        {
            "type": "object",
            "properties": {
                "state": {"enum": ["opening", "building", "ready", "failed"]},
                "files": {"type": "integer"},
                "partial_answers": {"type": "integer"},
            },
            "required": ["state", "files"],
        },
        lambda t, a: t.index_status(),
        waits=False,
    ),
)


def argument_problem(spec: ToolSpec, arguments: dict) -> str | None:
    """What is wrong with the arguments, said against the schema; None when nothing."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(spec.input_schema).iter_errors(arguments))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"invalid arguments for {spec.name}: " + (f"{where}: " if where else "") + error.message


# -- the server ------------------------------------------------------------------------
def build_server(provider):
    """The SDK's low-level Server with our tools over `provider`, no transport yet:
    `serve` gives it stdio; tests and the quality benchmark may run it in process."""
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    tools = Tools(provider)
    by_name = {s.name: s for s in SPECS}
    one_at_a_time = threading.Lock()  # answers as `serve` gives them: in turn; index_status never waits
    listed = types.ListToolsResult(
        tools=[
            types.Tool(
                name=s.name,
                title=s.title,
                description=s.description,
                input_schema=s.input_schema,
                output_schema=s.output_schema,
                annotations=types.ToolAnnotations(
                    title=s.title,
                    read_only_hint=True,
                    destructive_hint=False,
                    idempotent_hint=True,
                    open_world_hint=False,
                ),
            )
            for s in SPECS
        ]
    )

    def failed(message: str):
        return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)

    def run(spec: ToolSpec, arguments: dict):
        if not spec.waits:
            return spec.answer(tools, arguments)
        with one_at_a_time:
            return spec.answer(tools, arguments)

    async def list_tools(ctx, params):
        return listed

    async def call_tool(ctx, params):
        spec = by_name.get(params.name)
        if spec is None:
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}; the tools are {', '.join(by_name)}")
        arguments = params.arguments or {}
        problem = argument_problem(spec, arguments)
        if problem:
            return failed(problem)
        try:
            rendered = await anyio.to_thread.run_sync(partial(run, spec, arguments))
        except ToolError as exc:
            return failed(str(exc))
        except Exception as exc:  # a bug of ours: said to the model, logged, and serving goes on
            traceback.print_exc(file=sys.stderr)
            return failed(f"internal error in {spec.name}: {type(exc).__name__}: {exc}")
        return types.CallToolResult(
            content=[types.TextContent(text=rendered.text)], structured_content=rendered.structured
        )

    server = Server(
        "repo-graph", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool
    )
    server.middleware = []  # no OpenTelemetry spans: nothing is exported from here
    return server


def serve(provider, wire: Wire) -> int:
    """Serve MCP on the claimed wire until the host closes it (exit 0)."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(provider)
    reader = anyio.wrap_file(io.TextIOWrapper(wire.reader, encoding="utf-8", errors="replace"))
    writer = anyio.wrap_file(io.TextIOWrapper(wire.writer, encoding="utf-8"))

    async def main():
        async with stdio_server(stdin=reader, stdout=writer) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    sys.stderr.write(f"repo-graph: MCP server on stdio (tools: {', '.join(s.name for s in SPECS)})\n")
    try:
        anyio.run(main)
    except KeyboardInterrupt:
        pass
    except BaseExceptionGroup as group:  # the host went away mid-answer: leave quietly
        if group.subgroup((BrokenPipeError, ConnectionResetError)) is None:
            raise
    return 0
