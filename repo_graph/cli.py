"""`repo-graph index|serve|query`. Humans read stderr; stdout carries results
(and, for `serve`, protocol envelopes only)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from indexer.priority import Stopped

from . import __version__

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class CliError(Exception):
    """A one-line reason for the user; no traceback."""


# Trees that are no repository: the whole file system, and the kernel's own files,
# where a read can block forever (/proc/kmsg) or never end (/dev/zero).
REFUSED_ROOTS = ("/", "/proc", "/sys", "/dev")


def _repo(path: str) -> Path:
    p = Path(path).expanduser()
    if not p.exists():
        raise CliError(f"no such directory: {path}")
    if not p.is_dir():
        raise CliError(f"not a directory: {path}")
    real = p.resolve()
    for refused in REFUSED_ROOTS:
        if real == Path(refused) or (refused != "/" and real.is_relative_to(refused)):
            raise CliError(
                f"refusing to index {real}: not a repository (the file system root, /proc, /sys and "
                "/dev are never indexed); name a repository's directory"
            )
    return real


def _cache_dir(args) -> Path | None:
    """`--cache-dir`, else None: the store's default (indexer/store/location.py)."""
    return Path(args.cache_dir).expanduser() if args.cache_dir else None


def _open_index(args):
    import sqlite3

    from indexer.index import RepoIndex
    from indexer.store import db_path_for

    repo = _repo(args.path)
    try:
        return RepoIndex(repo, cache_dir=_cache_dir(args), max_file_bytes=args.max_file_bytes, jobs=args.jobs)
    except (OSError, sqlite3.Error) as exc:
        raise CliError(f"cannot open the index cache {db_path_for(repo, _cache_dir(args))}: {exc}") from exc


@contextmanager
def _cache_errors(index):
    """A database error (a full disk, a read-only cache) as one line naming the file."""
    import sqlite3

    try:
        yield
    except sqlite3.Error as exc:
        raise CliError(f"the index cache {index.store.path} failed: {exc}") from exc


class _Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.started = time.monotonic()
        self.last = 0.0

    def __call__(self, done_bytes, total_bytes, done_files, total_files):
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.1:
            return
        self.last = now
        elapsed = max(now - self.started, 1e-6)
        rate = done_bytes / elapsed
        eta = (total_bytes - done_bytes) / rate if rate else 0
        width = 24
        filled = int(width * done_bytes / max(total_bytes, 1))
        sys.stderr.write(
            f"\rindexing [{'#' * filled}{'.' * (width - filled)}] {done_files}/{total_files} files "
            f"{rate / 1e6:5.1f} MB/s ETA {eta:4.0f}s"
        )
        sys.stderr.flush()

    def close(self):
        if self.enabled and self.last:
            sys.stderr.write("\r" + " " * 78 + "\r")


def _dask_executor(address: str):
    """A Dask `distributed` executor: `local` starts a cluster on this machine."""
    try:
        import distributed
    except ImportError as exc:
        raise CliError("--dask needs the optional extra: pip install 'repo-graph[dask]'") from exc
    client = distributed.Client() if address == "local" else distributed.Client(address)
    return client, client.get_executor()


def _process_age() -> float | None:
    """Seconds since this process started (Linux: its start in clock ticks since boot,
    against the uptime), so `index --stats` counts the interpreter's start-up and our
    imports too; None where /proc does not say."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            started = int(fh.read().rsplit(b")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
        with open("/proc/uptime", "rb") as fh:
            return max(0.0, float(fh.read().split()[0]) - started)
    except (OSError, ValueError, IndexError):
        return None


class _Wall:
    """The process's wall time by phase: what refresh() reports, and around it start-up
    (interpreter, imports), opening the index, the tokenizer's ranks, counts for --stats
    and closing (SQLite checkpoints its WAL then); `other` is what none of them took
    [whole-wall-phases]."""

    def __init__(self):
        age = _process_age()
        self.phases: dict[str, float] = {"start-up": round(age, 3)} if age is not None else {}
        self.origin = time.monotonic() - (age or 0.0)
        self.last = time.monotonic()

    def lap(self, phase: str) -> None:
        now = time.monotonic()
        self.phases[phase] = round(self.phases.get(phase, 0.0) + now - self.last, 3)
        self.last = now

    def add(self, phases: dict[str, float]) -> None:
        """refresh()'s own phases, which ran since the last lap."""
        for name, value in phases.items():
            self.phases[name] = round(self.phases.get(name, 0.0) + value, 3)
        self.last = time.monotonic()

    def total(self) -> dict[str, float]:
        """The phases, `other` holding what is left of the wall time so far."""
        wall = time.monotonic() - self.origin
        named = sum(v for k, v in self.phases.items() if k != "other")
        return {**self.phases, "other": round(max(0.0, wall - named), 3), "wall": round(wall, 3)}


def cmd_index(args) -> int:
    wall = _Wall()
    import indexer.index  # noqa: F401  (timed apart from opening)

    wall.lap("imports")
    index = _open_index(args)
    wall.lap("open")

    def stop(signum, frame):  # unwind at the indexer's next pause point: workers end, what was written is kept
        if index.priority.stopped:
            raise KeyboardInterrupt(signum)  # asked twice: at once
        index.priority.stop()
        args.stopped_by = signum

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    progress = _Progress(not args.quiet)
    client = executor = None
    if args.dask:
        client, executor = _dask_executor(args.dask)
    try:
        with _cache_errors(index):
            summary = index.refresh_recovering(progress=progress, executor=executor)
    finally:
        progress.close()
        if client is not None:
            client.close()
    wall.add(summary.phases)
    from .tokenizer import keep_ranks

    keep_ranks(index.store.path.parent)
    wall.lap("tokenizer")
    stats = index.store.stats() if args.stats else None
    if stats is not None:
        wall.lap("stats")
    with _cache_errors(index):
        index.close()  # here, not at exit: its WAL checkpoint is part of the time
    wall.lap("close")
    summary.phases = wall.total()
    if args.json:
        data = asdict(summary)
        if stats is not None:
            data["stats"] = stats
        sys.stdout.write(json.dumps(data, sort_keys=True) + "\n")
        return EXIT_OK
    langs = ", ".join(f"{k} {v}" for k, v in sorted(summary.languages.items(), key=lambda kv: -kv[1])) or "none"
    history = (
        f"{summary.history_commits} commits read from git ({summary.history_files} files changed in them): "
        "co-changes, recent changes, commit messages"
        if summary.history_commits
        else "none (not a git work tree, or no commits): no co-changes, recent changes or commit messages"
    )
    sys.stdout.write(
        f"indexed {index.root}\n"
        f"  files     {summary.files} indexed ({summary.parsed} read, {summary.unchanged} unchanged, "
        f"{summary.removed} removed; {summary.ignored} ignored, {summary.too_large} over the size cap, "
        f"{summary.generated} generated, {summary.skipped - summary.generated} without a parser"
        + (f"; {summary.unreadable} unreadable" if summary.unreadable else "")
        + (f"; {summary.vanished} deleted while indexing" if summary.vanished else "")
        + ")\n"
        f"  symbols   {summary.symbols}\n"
        f"  sections  {summary.sections}\n"
        f"  edges     {summary.edges}\n"
        f"  languages {langs}\n"
        f"  history   {history}\n"
        f"  seconds   {summary.seconds:.2f}\n"
        f"  database  {summary.database}\n"
    )
    if stats is not None:
        sys.stdout.write("  phases    " + ", ".join(f"{k} {v:.2f} s" for k, v in summary.phases.items()) + "\n")
        for title, table in stats.items():
            sys.stdout.write(f"{title.replace('_', ' ')}:\n")
            for key, n in sorted(table.items(), key=lambda kv: (-kv[1], kv[0])):
                sys.stdout.write(f"  {key:<28} {n}\n")
    return EXIT_OK


def _tokenizer(args):
    """Started first, so its helper builds the encoder on the other core while this
    process imports the rest and opens the index."""
    from indexer.store import default_cache_dir

    from .tokenizer import Tokenizer

    return Tokenizer(_cache_dir(args) or default_cache_dir()).start()


def _http_listener(args):
    """`serve --http`: the socket bound and the flags checked before any work starts.
    The URL and token go to <cache>/http/<repository's database name>.json (docs/http.md)."""
    from indexer.store import db_path_for

    from .transports.http import Listener

    db = db_path_for(_repo(args.path), _cache_dir(args))
    try:
        return Listener.open(
            args.http,
            state_path=db.parent / "http" / f"{db.stem}.json",
            allow_remote=args.allow_remote,
            token_file=args.token_file,
            no_token=args.no_token,
            timeout=args.http_timeout,
        )
    except (ValueError, OSError) as exc:
        raise CliError(f"--http {args.http}: {exc}" if isinstance(exc, OSError) else str(exc)) from exc


def _provider(args):
    """The provider every server shares: its index opened, caught up and watched in the
    background, so a host's first message never waits for disk."""
    tokenizer = _tokenizer(args)
    from .provider import RepoProvider

    provider = RepoProvider(tokenizer=tokenizer)
    provider.start_indexing(lambda: _open_index(args), watch=not args.no_watch)
    return provider


def cmd_serve(args) -> int:
    _repo(args.path)  # a bad path is a usage failure now, not a silent empty provider
    if not args.http and (args.allow_remote or args.token_file or args.no_token):
        raise CliError("--allow-remote, --token-file and --no-token go with --http")
    listener = _http_listener(args) if args.http else None
    from .session import Session
    from .transports import stdio

    if listener is not None:
        provider = _provider(args)
        return listener.serve(lambda: Session(provider))
    wire = stdio.claim()  # first: the indexer thread and its children start below
    provider = _provider(args)
    signal.signal(signal.SIGTERM, _interrupted)  # like Ctrl-C: the loop ends, then every child
    return stdio.serve(Session(provider), wire=wire)


def cmd_mcp(args) -> int:
    _repo(args.path)
    from .transports import mcp

    wire = mcp.claim_stdio()  # first: no thread or child started below ever holds the wire
    return mcp.serve(_provider(args), wire)


def cmd_query(args) -> int:
    _repo(args.path)
    tokenizer = _tokenizer(args)
    from .frames import HEADER_SUFFIX
    from .protocol import encode
    from .protocol import messages as m
    from .protocol.errors import ProtocolError
    from .provider import RepoProvider

    index = _open_index(args)
    index.load()
    with _cache_errors(index):
        index.refresh_recovering()
    query = m.ContextQuery(
        goal=args.text,
        query_text=args.text,
        max_frames=args.max_frames,
        max_tokens=args.max_tokens,
        kinds=tuple(args.kinds or ()),
        anchors=tuple(args.anchor or ()),
    )
    provider = RepoProvider(index, tokenizer)
    try:
        result = provider.query(query)
        why = provider.explain(query) if args.explain else {}
    except ProtocolError as exc:
        raise CliError(exc.message) from exc
    if args.json:
        sys.stdout.write(json.dumps(encode.frames(result, None), ensure_ascii=False) + "\n")
        return EXIT_OK
    out = sys.stdout
    spent = sum(f.token_cost for f in result.frames)
    for n, f in enumerate(result.frames, 1):
        real = f" / {f.canonical_token_cost} real" if f.canonical_token_cost is not None else ""
        out.write(
            f"── {n}. {f.title}  [{f.kind}]  {f.citation_label}  score {f.score:.3f}  cost {f.token_cost}{real}\n"
        )
        if args.explain:  # a header frame's score is its symbol's
            found = why.get(f.id) or why.get(f.id.removesuffix(HEADER_SUFFIX))
            out.write(f"   why: {found.text() if found else 'not explained'}\n")
        out.write(f.content if f.content.endswith("\n") else f.content + "\n")
        out.write("\n")
    more = f", {result.dropped_estimate} more left out" if result.truncated else ""
    out.write(f"{len(result.frames)} frame(s), {spent} of {args.max_tokens} tokens{more}\n")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="repo-graph",
        description="A local Context Graph Protocol provider: code symbols and doc sections, "
        "ranked and packed under a token budget. Nothing leaves the machine.",
    )
    parser.add_argument("--version", action="version", version=f"repo-graph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def at_least(low: int):
        def parse(text: str) -> int:
            try:
                value = int(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
            if value < low:
                raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
            return value

        return parse

    def common(p):
        p.add_argument(
            "--cache-dir",
            metavar="DIR",
            help="where the index lives (default: $REPO_GRAPH_CACHE_DIR or ~/.cache/repo-graph)",
        )
        p.add_argument(
            "--max-file-bytes",
            type=at_least(1),
            default=1 << 20,
            metavar="N",
            help="skip files larger than this (default: 1 MiB)",
        )
        p.add_argument(
            "--jobs",
            "-j",
            type=at_least(1),
            default=None,
            metavar="N",
            help="parser processes (default: one per core; 1 parses in this process)",
        )

    p = sub.add_parser(
        "index",
        help="build or refresh the index of a repository",
        description="Build or refresh the index of PATH and print a summary.",
    )
    p.add_argument("path", nargs="?", default=".", metavar="PATH")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--stats",
        action="store_true",
        help="also print seconds per phase and counts per language, node kind and edge kind",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="parse on a Dask cluster (an address like tcp://host:8786, or `local`); "
        "needs repo-graph[dask] (see docs/scale-out.md)",
    )
    common(p)
    p.set_defaults(func=cmd_index)

    def served(p):
        """What a server a host launches takes: the repository and whether to watch it."""
        p.add_argument("path", nargs="?", default=".", metavar="PATH")
        p.add_argument(
            "--no-watch",
            action="store_true",
            help="do not watch the tree (files are still checked against disk when answering)",
        )
        common(p)

    p = sub.add_parser(
        "serve",
        help="run the provider (stdio, what a host launches; or --http)",
        description="Serve CGP over stdin/stdout (or, with --http, streamable HTTP) for the repository at PATH.",
    )
    served(p)
    p.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve streamable HTTP on 127.0.0.1 (or HOST) instead of stdio; PORT 0 picks a free "
        "port; the URL and token go to a file only you can read (docs/http.md)",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="with --http: allow an address other machines can reach (the token stays required)",
    )
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="with --http: the token to require, read from FILE (mode 0600); default: a new random one",
    )
    p.add_argument(
        "--no-token",
        action="store_true",
        help="with --http on loopback: require no token (any local program can then query)",
    )
    p.add_argument(
        "--http-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="with --http: how long a request's head or body may take, and an idle connection stay open",
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "mcp",
        help="run the MCP server over stdio (for Claude Code, Cursor, VS Code, ...)",
        description="Serve the Model Context Protocol over stdin/stdout for the repository at PATH.",
    )
    served(p)
    p.set_defaults(func=cmd_mcp)

    p = sub.add_parser(
        "query",
        help="print the frames a host would get for TEXT",
        description="Ask a question of the repository at PATH, as a host would.",
    )
    p.add_argument("args", nargs="+", metavar="[PATH] TEXT")
    p.add_argument(
        "--anchor", action="append", metavar="A", help="a file, directory, URI or symbol to stay close to (repeatable)"
    )
    p.add_argument(
        "--kinds",
        action="append",
        choices=["doc", "symbol"],
        metavar="K",
        help="only frames of this kind: doc or symbol (repeatable)",
    )
    p.add_argument("--max-tokens", type=at_least(0), default=4096, metavar="N")
    p.add_argument("--max-frames", type=at_least(0), default=8, metavar="N")
    p.add_argument("--json", action="store_true", help="print the frames envelope as JSON")
    p.add_argument(
        "--explain",
        action="store_true",
        help="under each frame, the signals and factors that made its score (not with --json)",
    )
    common(p)
    p.set_defaults(func=cmd_query)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "query":
        if len(args.args) > 2:
            parser.error("query takes [PATH] TEXT; quote the text")
        args.path, args.text = args.args if len(args.args) == 2 else [".", args.args[0]]
    try:
        rc = args.func(args)
    except CliError as exc:
        sys.stderr.write(f"repo-graph: {exc}\n")
        rc = EXIT_FAILURE
    except BrokenPipeError:
        rc = EXIT_OK
    except (KeyboardInterrupt, Stopped) as exc:
        sys.stderr.write("repo-graph: stopped; what was indexed so far is kept and the next run goes on from it\n")
        rc = 128 + getattr(
            args, "stopped_by", exc.args[0] if isinstance(exc, KeyboardInterrupt) and exc.args else signal.SIGINT
        )
    sys.stdout.flush() if rc != EXIT_OK or args.command not in ("serve", "mcp") else None
    if args.command in ("serve", "mcp"):
        _end_children()
        sys.stderr.flush()
        os._exit(rc)  # background indexing threads must not delay a clean exit (R2)
    return rc


def _end_children() -> None:
    """Parse workers of a first index under way end before we do: none is left reading
    a task its gone parent half wrote (a traceback on the host's stderr). The ones a
    SIGKILL leaves behind end on their own (indexer/pool.py, worker_init)."""
    import multiprocessing

    from indexer.pool import STARTING

    STARTING.acquire(timeout=10)  # a pool starting now: let its workers finish starting, then end them
    for child in multiprocessing.active_children():
        child.kill()


def _interrupted(signum, frame):
    raise KeyboardInterrupt(signum)


if __name__ == "__main__":
    sys.exit(main())
