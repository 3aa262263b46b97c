"""`repo-graph index|serve|query`. Humans read stderr; stdout carries results
(and, for `serve`, protocol envelopes only)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

from . import __version__

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class CliError(Exception):
    """A one-line reason for the user; no traceback."""


def _repo(path: str) -> Path:
    p = Path(path).expanduser()
    if not p.exists():
        raise CliError(f"no such directory: {path}")
    if not p.is_dir():
        raise CliError(f"not a directory: {path}")
    return p.resolve()


def _cache_dir(args) -> Path | None:
    """`--cache-dir`, else None: the store's default (indexer/store.py)."""
    return Path(args.cache_dir).expanduser() if args.cache_dir else None


def _open_index(args):
    from indexer.index import RepoIndex

    try:
        return RepoIndex(_repo(args.path), cache_dir=_cache_dir(args), max_file_bytes=args.max_file_bytes, jobs=args.jobs)
    except OSError as exc:
        raise CliError(f"cannot open the index cache: {exc}") from exc


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


def cmd_index(args) -> int:
    index = _open_index(args)
    progress = _Progress(not args.quiet)
    client = executor = None
    if args.dask:
        client, executor = _dask_executor(args.dask)
    try:
        summary = index.refresh(progress=progress, executor=executor)
    finally:
        if client is not None:
            client.close()
    progress.close()
    from .tokenizer import keep_ranks

    keep_ranks(index.store.path.parent)
    stats = index.store.stats() if args.stats else None
    if args.json:
        data = asdict(summary)
        if stats is not None:
            data["stats"] = stats
        sys.stdout.write(json.dumps(data, sort_keys=True) + "\n")
        return EXIT_OK
    langs = ", ".join(f"{k} {v}" for k, v in sorted(summary.languages.items(), key=lambda kv: -kv[1])) or "none"
    history = (f"{summary.history_commits} commits read from git ({summary.history_files} files changed in them): "
               "co-changes, recent changes, commit messages" if summary.history_commits
               else "none (not a git work tree, or no commits): no co-changes, recent changes or commit messages")
    sys.stdout.write(
        f"indexed {index.root}\n"
        f"  files     {summary.files} indexed ({summary.parsed} read, {summary.unchanged} unchanged, "
        f"{summary.removed} removed; {summary.ignored} ignored, {summary.too_large} over the size cap, "
        f"{summary.generated} generated, {summary.skipped - summary.generated} without a parser)\n"
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


def cmd_serve(args) -> int:
    _repo(args.path)  # a bad path is a usage failure now, not a silent empty provider
    tokenizer = _tokenizer(args)
    from .provider import RepoProvider
    from .session import Session
    from .transports import stdio

    provider = RepoProvider(tokenizer=tokenizer)
    provider.start_indexing(lambda: _open_index(args), watch=not args.no_watch)
    return stdio.serve(Session(provider))


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
    index.refresh()
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
        out.write(f"── {n}. {f.title}  [{f.kind}]  {f.citation_label}  score {f.score:.3f}  cost {f.token_cost}{real}\n")
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

    def common(p):
        p.add_argument("--cache-dir", metavar="DIR",
                       help="where the index lives (default: $REPO_GRAPH_CACHE_DIR or ~/.cache/repo-graph)")
        p.add_argument("--max-file-bytes", type=int, default=1 << 20, metavar="N",
                       help="skip files larger than this (default: 1 MiB)")
        p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                       help="parser processes (default: one per core; 1 parses in this process)")

    p = sub.add_parser("index", help="build or refresh the index of a repository",
                       description="Build or refresh the index of PATH and print a summary.")
    p.add_argument("path", nargs="?", default=".", metavar="PATH")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--stats", action="store_true", help="also print seconds per phase and counts per language, node kind and edge kind")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--dask", metavar="SCHEDULER",
                   help="parse on a Dask cluster (an address like tcp://host:8786, or `local`); "
                        "needs repo-graph[dask] (see docs/scale-out.md)")
    common(p)
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("serve", help="run the stdio provider (what a host launches)",
                       description="Serve CGP over stdin/stdout for the repository at PATH.")
    p.add_argument("path", nargs="?", default=".", metavar="PATH")
    p.add_argument("--no-watch", action="store_true",
                   help="do not watch the tree (files are still checked against disk when answering)")
    common(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("query", help="print the frames a host would get for TEXT",
                       description="Ask a question of the repository at PATH, as a host would.")
    p.add_argument("args", nargs="+", metavar="[PATH] TEXT")
    p.add_argument("--anchor", action="append", metavar="A",
                   help="a file, directory, URI or symbol to stay close to (repeatable)")
    p.add_argument("--kinds", action="append", choices=["doc", "symbol"], metavar="K",
                   help="only frames of this kind: doc or symbol (repeatable)")
    p.add_argument("--max-tokens", type=int, default=4096, metavar="N")
    p.add_argument("--max-frames", type=int, default=8, metavar="N")
    p.add_argument("--json", action="store_true", help="print the frames envelope as JSON")
    p.add_argument("--explain", action="store_true",
                   help="under each frame, the signals and factors that made its score (not with --json)")
    common(p)
    p.set_defaults(func=cmd_query)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "query":
        if len(args.args) > 2:
            parser.error("query takes [PATH] TEXT; quote the text")
        args.path, args.text = (args.args if len(args.args) == 2 else [".", args.args[0]])
        for flag in ("max_tokens", "max_frames"):
            if getattr(args, flag) < 0:
                parser.error(f"--{flag.replace('_', '-')} must be >= 0")
    try:
        rc = args.func(args)
    except CliError as exc:
        sys.stderr.write(f"repo-graph: {exc}\n")
        rc = EXIT_FAILURE
    except BrokenPipeError:
        rc = EXIT_OK
    sys.stdout.flush() if rc != EXIT_OK or args.command != "serve" else None
    if args.command == "serve":
        sys.stderr.flush()
        os._exit(rc)  # background indexing threads must not delay a clean exit (R2)
    return rc


if __name__ == "__main__":
    sys.exit(main())
