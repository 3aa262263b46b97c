"""Index speed, memory and query latency of repo-graph, against references measured
in the same run over exactly the same files.

Run it (about 1-2 minutes on the CPython standard library with 2 cores, no network):

    /tmp/venv/bin/python benchmarks/index_speed.py            # the stdlib of this Python
    /tmp/venv/bin/python benchmarks/index_speed.py PATH       # any directory, in place
    /tmp/venv/bin/python benchmarks/index_speed.py --json     # figures as JSON on stdout
    /tmp/venv/bin/python benchmarks/index_speed.py PATH --serve-only --cache-dir DIR --queries 200
                                        # queries only, on the index already in DIR

The default corpus is `sysconfig.get_paths()["stdlib"]`, copied to a temporary
directory without `test/` (top level), `site-packages` and `__pycache__`. A PATH you
give is used in place (add `--copy` to work on a copy): the incremental step appends
a comment line to 10 of its files and restores their bytes and mtimes afterwards.

References (in this process, over the files `indexer.walk.walk()` yields that
`grammars.Registry().for_path()` gives a language, the `#!` line included):
  raw serial     read, tree_sitter.Parser.parse, QueryCursor(tags query).matches
  raw parallel   the same in a ProcessPoolExecutor(os.cpu_count()), files in chunks of
                 about equal bytes; pool start-up is inside the time
  ctags          Universal Ctags over the same file list (`-L -`)
Ours (each a fresh `python -m repo_graph` child, one fresh temporary --cache-dir):
  cold           `index CORPUS --json --quiet` on an empty cache
  warm           the same again, nothing changed
  incremental    10 files modified, then index; then restored, and index again
  serve ready    spawn `serve` -> handshake_ack, and -> reply to a first query
  query          p50/p90/p99/max of ~100 queries (--queries) through one running
                 `serve`, max_tokens 8192; the slowest ten are listed
  index size     the SQLite file plus its -wal after the cold index

Times are wall clock (time.perf_counter) around the whole child: interpreter start-up
and imports are in, as a user sees them. Peak RSS of a child comes from os.wait4() on
that child's pid: on Linux its ru_maxrss is that process's own high-water resident set
(KiB), folded with any of its own children it waited for (as a maximum, not a sum).
This avoids RUSAGE_CHILDREN, whose ru_maxrss is the maximum over every child the
benchmark ever reaped, so it cannot be taken as a delta.

With --serve-only (and --cache-dir DIR, an index of the corpus built before) only
`serve` and the queries run: the index is not built again (the kernel's takes 7-10
minutes), and the queries are timed once serve says its catch-up pass is done, so
they measure answering, not answering beside the catch-up's walk.

Each figure is one run, so other work on the machine shows up in it: the 1-minute
load average before and after is printed with the results; rerun on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import queue
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import tree_sitter  # noqa: E402

from grammars import CLAIM_BYTES, Registry  # noqa: E402
from indexer.walk import walk  # noqa: E402

TARGETS = {  # the project's targets (see benchmarks/README.md)
    "cold_over_raw_serial": 1.3,
    "cold_over_raw_serial_2proc": 0.75,
    "warm_s": 1.0,
    "incremental_s": 1.0,
    "serve_ready_s": 0.5,
    "query_p50_ms": 50.0,
    "query_p99_ms": 250.0,
    "peak_rss_mb": 500.0,
}

# Our language names -> Universal Ctags language names (.h is C++ to ctags).
CTAGS_LANGS = {
    "bash": ["Sh"],
    "c": ["C", "C++"],
    "cpp": ["C++"],
    "csharp": ["C#"],
    "go": ["Go"],
    "java": ["Java"],
    "javascript": ["JavaScript"],
    "kotlin": ["Kotlin"],
    "lua": ["Lua"],
    "php": ["PHP"],
    "python": ["Python"],
    "ruby": ["Ruby"],
    "rust": ["Rust"],
    "typescript": ["TypeScript"],
    "tsx": ["TypeScript"],
}
LINE_COMMENT = {"python": "#", "bash": "#", "ruby": "#", "lua": "--"}  # others: "//"

QUESTIONS = [
    "how is a file parsed into tokens",
    "where are command line arguments parsed",
    "how are errors reported to the caller",
    "how does the cache get invalidated",
    "where is the configuration read from disk",
    "how are paths normalised",
    "how is a network connection opened and closed",
    "how does encoding and decoding of text work",
    "where are temporary files created",
    "how is a subprocess started and its output read",
    "how are dates and times formatted",
    "how does logging decide where messages go",
    "what happens when a thread is interrupted",
    "how are compressed archives extracted",
    "how is an HTTP request built",
]


def log(msg: str) -> None:
    sys.stderr.write(f"[index_speed] {msg}\n")
    sys.stderr.flush()


def compile_checkout() -> None:
    """Byte-compile repo-graph's own modules before anything is timed, as pip does for
    an installed package. An editable install compiles them at first import, unless
    PYTHONDONTWRITEBYTECODE is set (some sandboxes set it): then every spawned
    `repo-graph` would compile them again and time that instead of start-up."""
    import compileall

    for package in ("grammars", "indexer", "repo_graph"):
        compileall.compile_dir(str(REPO / package), quiet=1)


# -- corpus ------------------------------------------------------------------------


def copy_corpus(src: Path, dest: Path, top_level_skip: set[str]) -> None:
    def ignore(directory, names):
        skipped = {n for n in names if n in ("__pycache__", "site-packages")}
        if Path(directory).resolve() == src.resolve():
            skipped |= top_level_skip & set(names)
        return skipped

    shutil.copytree(src, dest, symlinks=True, ignore=ignore)


def select_files(corpus: Path, registry: Registry):
    """Everything our walker yields, and those of them with a language (path, spec, size)."""
    walked = list(walk(corpus))
    with_lang = []
    for f in walked:
        spec = language_of(registry, corpus, f.path)
        if spec is not None:
            with_lang.append((f.path, spec.name, f.size))
    return walked, with_lang


def language_of(registry: Registry, corpus: Path, rel: str):
    """The language the indexer gives a file: by name, else by its text (a C++ header
    named `.h`) or its `#!` line."""
    spec = registry.for_path(rel)
    if spec is None or registry.claimable(rel):
        try:
            with open(corpus / rel, "rb") as fh:
                spec = registry.for_path(rel, fh.read(CLAIM_BYTES))
        except OSError:
            return None
    return spec


# -- raw tree-sitter references -------------------------------------------------------

_TS_CACHE: dict[str, tuple] = {}


def _ts_for(lang: str):
    """(Parser, tags Query) for a language, made once per process."""
    if lang not in _TS_CACHE:
        spec = Registry().languages[lang]
        language = spec.load()
        _TS_CACHE[lang] = (tree_sitter.Parser(language), tree_sitter.Query(language, spec.query_text("tags")))
    return _TS_CACHE[lang]


def raw_work(corpus: str, items: list[tuple[str, str]]) -> int:
    """Read, parse, run the tags query; returns the number of matches."""
    n = 0
    for rel, lang in items:
        parser, query = _ts_for(lang)
        with open(os.path.join(corpus, rel), "rb") as fh:
            data = fh.read()
        tree = parser.parse(data)
        try:
            n += len(tree_sitter.QueryCursor(query).matches(tree.root_node))
        except (SystemError, UnicodeDecodeError, ValueError):
            pass  # predicates on invalid UTF-8, as the extractor tolerates
    return n


def chunk_by_bytes(files, n_chunks: int):
    """Largest first into the lightest chunk: chunks of about equal bytes."""
    chunks = [[] for _ in range(n_chunks)]
    loads = [0] * n_chunks
    for rel, lang, size in sorted(files, key=lambda f: -f[2]):
        i = loads.index(min(loads))
        chunks[i].append((rel, lang))
        loads[i] += size
    return [c for c in chunks if c]


def bench_raw_serial(corpus: Path, files) -> dict:
    _TS_CACHE.clear()
    t = time.perf_counter()
    matches = raw_work(str(corpus), [(r, l) for r, l, _ in files])
    return {"seconds": time.perf_counter() - t, "matches": matches}


def bench_raw_parallel(corpus: Path, files, workers: int) -> dict:
    _TS_CACHE.clear()  # forked workers must load grammars and compile queries themselves
    t = time.perf_counter()
    chunks = chunk_by_bytes(files, workers * 4)
    with ProcessPoolExecutor(workers) as pool:
        matches = sum(pool.map(raw_work, [str(corpus)] * len(chunks), chunks))
    return {"seconds": time.perf_counter() - t, "matches": matches, "workers": workers}


# -- children: wall time and peak RSS ------------------------------------------------


def maxrss_mb(rusage) -> float:
    # Linux: KiB; macOS: bytes.
    scale = 1 if sys.platform == "darwin" else 1024
    return rusage.ru_maxrss * scale / 1e6


def run_child(argv, *, stdin_bytes: bytes | None = None, cwd=None) -> dict:
    """Run one child to completion; wall seconds, peak RSS (os.wait4), stdout, stderr."""
    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if stdin_bytes is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=cwd,
        )
        if stdin_bytes is not None:
            p.stdin.write(stdin_bytes)
            p.stdin.close()
        out = p.stdout.read()
        _, status, rusage = os.wait4(p.pid, 0)
        seconds = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        p.stdout.close()
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if p.returncode != 0:
        raise RuntimeError(f"{argv[:4]}... exited {p.returncode}:\n{stderr[-2000:]}")
    return {"seconds": seconds, "peak_rss_mb": maxrss_mb(rusage), "stdout": out, "stderr": stderr}


def bench_ctags(corpus: Path, files, tmp: Path) -> dict | None:
    ctags = shutil.which("ctags") or "/usr/bin/ctags"
    if not os.path.exists(ctags):
        return None
    version = subprocess.run([ctags, "--version"], capture_output=True, text=True).stdout
    if "Universal Ctags" not in version:
        return None
    langs = sorted({c for _, lang, _ in files for c in CTAGS_LANGS.get(lang, [])})
    tags = tmp / "ctags.tags"
    argv = [ctags, "-f", str(tags), "-G", f"--languages={','.join(langs)}", "-L", "-"]
    listing = "".join(f"{rel}\n" for rel, _, _ in files).encode()
    r = run_child(argv, stdin_bytes=listing, cwd=corpus)
    with open(tags, "rb") as fh:
        n = sum(1 for line in fh if not line.startswith(b"!_"))
    return {"seconds": r["seconds"], "peak_rss_mb": r["peak_rss_mb"], "tags": n, "languages": langs}


def index_child(corpus: Path, cache: Path) -> dict:
    argv = [sys.executable, "-m", "repo_graph", "index", str(corpus), "--json", "--quiet", "--cache-dir", str(cache)]
    r = run_child(argv, cwd=REPO)  # cwd=REPO: `-m repo_graph` is this checkout
    summary = json.loads(r["stdout"].decode().strip().splitlines()[-1])
    return {"seconds": r["seconds"], "peak_rss_mb": r["peak_rss_mb"], "summary": summary}


# -- incremental ---------------------------------------------------------------------


def pick_edit_targets(corpus: Path, files, n: int, rng: random.Random):
    mid = [f for f in files if 2_000 <= f[2] <= 100_000] or list(files)
    return rng.sample(mid, min(n, len(mid)))


def modify(corpus: Path, targets):
    saved = []
    for rel, lang, _ in targets:
        path = corpus / rel
        st = os.stat(path)
        data = path.read_bytes()
        saved.append((path, data, st.st_atime_ns, st.st_mtime_ns))
        mark = LINE_COMMENT.get(lang, "//")
        with open(path, "ab") as fh:
            fh.write(f"\n{mark} repo-graph benchmark edit {time.time_ns()}\n".encode())
    return saved


def restore(saved):
    for path, data, atime, mtime in saved:
        with open(path, "wb") as fh:  # in place: same inode
            fh.write(data)
        os.utime(path, ns=(atime, mtime))


# -- queries -------------------------------------------------------------------------


def split_words(name: str) -> str:
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", name)
    return " ".join(w.lower() for w in re.split(r"[_\W]+", name) if w)


def definition_names(corpus: Path, files, rng: random.Random, sample: int = 300) -> list[str]:
    names: set[str] = set()
    for rel, lang, _ in rng.sample(list(files), min(sample, len(files))):
        parser, query = _ts_for(lang)
        data = (corpus / rel).read_bytes()
        try:
            matches = tree_sitter.QueryCursor(query).matches(parser.parse(data).root_node)
        except (SystemError, UnicodeDecodeError, ValueError):
            continue
        for _, caps in matches:
            if any(k.startswith("definition.") for k in caps) and caps.get("name"):
                node = caps["name"][0]
                names.add(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
    return sorted(names)


def build_queries(names: list[str], paths: list[str], n: int, rng: random.Random) -> list[dict]:
    wordy = [w for w in (split_words(x) for x in names) if len(w.split()) >= 2] or [split_words(x) for x in names]
    n_questions = min(len(QUESTIONS), max(1, n // 7))
    goals = rng.sample(wordy, min(n - n_questions, len(wordy))) + QUESTIONS[:n_questions]
    rng.shuffle(goals)
    queries = []
    for i, goal in enumerate(goals):
        q = {"goal": goal, "max_frames": 8, "max_tokens": 8192}
        if i % 10 == 9 and paths:
            q["anchors"] = [rng.choice(paths)]  # a few anchored queries, as a host with open files
        queries.append(q)
    return queries


class Serve:
    """One `repo-graph serve` child, spoken to over NDJSON pipes."""

    def __init__(self, corpus: Path, cache: Path):
        self.err = tempfile.NamedTemporaryFile()
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen(
            [sys.executable, "-m", "repo_graph", "serve", str(corpus), "--cache-dir", str(cache)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            cwd=REPO,
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.n = 0

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, obj: dict) -> None:
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def receive(self, timeout: float = 120.0) -> dict:
        line = self.lines.get(timeout=timeout)
        if line is None:
            self.err.seek(0)
            raise RuntimeError("serve exited early:\n" + self.err.read().decode("utf-8", "replace")[-2000:])
        return json.loads(line)

    def ask(self, query: dict) -> dict:
        self.n += 1
        qid = f"q{self.n}"
        self.send({"type": "query", "id": qid, "query": query})
        while True:
            reply = self.receive()
            if reply.get("id") == qid:
                return reply

    def wait_caught_up(self, timeout: float = 600.0) -> float:
        """Until serve's stderr says its catch-up pass is done; the seconds waited."""
        t = time.perf_counter()
        while time.perf_counter() - t < timeout:
            with open(self.err.name, "rb") as fh:
                if b"repo-graph: index ready" in fh.read():
                    return time.perf_counter() - t
            if self.p.poll() is not None:
                raise RuntimeError("serve exited while catching up")
            time.sleep(0.2)
        raise RuntimeError(f"serve did not catch up within {timeout:.0f} s")

    def close(self) -> float:
        """Shut down; the child's peak RSS in MB."""
        try:
            self.send({"type": "shutdown"})
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        _, status, rusage = os.wait4(self.p.pid, 0)
        self.p.returncode = os.waitstatus_to_exitcode(status)
        self.p.stdout.close()
        self.err.close()
        return maxrss_mb(rusage)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# -- report --------------------------------------------------------------------------


def db_size(database: str) -> dict:
    sizes = {}
    for suffix in ("", "-wal", "-shm"):
        try:
            sizes[suffix or "db"] = os.path.getsize(database + suffix)
        except OSError:
            sizes[suffix or "db"] = 0
    return {
        "db_mb": sizes["db"] / 1e6,
        "wal_mb": sizes["-wal"] / 1e6,
        "shm_mb": sizes["-shm"] / 1e6,
        "total_mb": (sizes["db"] + sizes["-wal"]) / 1e6,
    }


def commit() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
        ).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def verdict(value, target) -> str:
    if value is None:
        return ""
    return "ok" if value <= target else "MISS"


def emit(res: dict, as_json: bool, table) -> None:
    """The figures on stdout: JSON, or the benchmark's table."""
    if as_json:
        sys.stdout.write(json.dumps(res, indent=2, sort_keys=True) + "\n")
    else:
        table(res)


def print_table(res: dict) -> None:
    c = res["corpus"]
    out = sys.stdout
    out.write(
        f"repo-graph index_speed  {res['date']}  commit {res['commit']}  "
        f"python {res['python']}  {res['cpus']} cpu(s)  "
        f"load {res['loadavg_1min']['before']} -> {res['loadavg_1min']['after']} (1 min avg)\n"
    )
    out.write(
        f"corpus {c['path']}\n  walked {c['files_walked']} files, {c['mb_walked']:.1f} MB; "
        f"with a grammar {c['files']} files, {c['mb']:.1f} MB ({', '.join(f'{k} {v}' for k, v in c['languages'].items())})\n\n"
    )
    rows = []
    r = res["reference"]
    if r.get("raw_serial_s") is not None:
        rows.append(("raw tree-sitter, serial", f"{r['raw_serial_s']:.2f} s", "", ""))
        rows.append((f"raw tree-sitter, {r['raw_parallel_workers']} processes", f"{r['raw_parallel_s']:.2f} s", "", ""))
    if r.get("ctags_s") is not None:
        rows.append(("Universal Ctags", f"{r['ctags_s']:.2f} s, {r['ctags_peak_rss_mb']:.0f} MB", "", ""))
    o = res["ours"]
    if "cold_s" in o:  # not with --serve-only
        rows.append(("cold index (wall, whole process)", f"{o['cold_s']:.2f} s", "", ""))
        rows.append(("  of which refresh() (Summary.seconds)", f"{o['cold_refresh_s']:.2f} s", "", ""))
        rows.append(
            (
                "cold index peak RSS",
                f"{o['cold_peak_rss_mb']:.0f} MB",
                f"<= {TARGETS['peak_rss_mb']:.0f} MB",
                verdict(o["cold_peak_rss_mb"], TARGETS["peak_rss_mb"]),
            )
        )
        rows.append(
            (
                "warm no-op index",
                f"{o['warm_s']:.2f} s",
                f"<= {TARGETS['warm_s']} s",
                verdict(o["warm_s"], TARGETS["warm_s"]),
            )
        )
        rows.append(
            (
                f"incremental, {o['incremental_files']} files modified",
                f"{o['incremental_s']:.2f} s",
                f"<= {TARGETS['incremental_s']} s",
                verdict(o["incremental_s"], TARGETS["incremental_s"]),
            )
        )
        rows.append(
            (
                f"incremental, {o['incremental_files']} files restored",
                f"{o['incremental_restore_s']:.2f} s",
                f"<= {TARGETS['incremental_s']} s",
                verdict(o["incremental_restore_s"], TARGETS["incremental_s"]),
            )
        )
    rows.append(("serve: spawn -> handshake_ack", f"{o['serve_handshake_s']:.3f} s", "", ""))
    rows.append(
        (
            "serve: spawn -> first answer",
            f"{o['serve_first_answer_s']:.3f} s",
            f"<= {TARGETS['serve_ready_s']} s",
            verdict(o["serve_first_answer_s"], TARGETS["serve_ready_s"]),
        )
    )
    rows.append(
        (
            f"query p50 ({o['queries']} queries)",
            f"{o['query_p50_ms']:.1f} ms",
            f"<= {TARGETS['query_p50_ms']:.0f} ms",
            verdict(o["query_p50_ms"], TARGETS["query_p50_ms"]),
        )
    )
    rows.append(("query p90", f"{o['query_p90_ms']:.1f} ms", "", ""))
    rows.append(
        (
            "query p99",
            f"{o['query_p99_ms']:.1f} ms",
            f"<= {TARGETS['query_p99_ms']:.0f} ms",
            verdict(o["query_p99_ms"], TARGETS["query_p99_ms"]),
        )
    )
    rows.append(("query max", f"{o['query_max_ms']:.1f} ms", "", ""))
    rows.append(
        (
            "serve peak RSS (after the queries)",
            f"{o['serve_peak_rss_mb']:.0f} MB",
            f"<= {TARGETS['peak_rss_mb']:.0f} MB",
            verdict(o["serve_peak_rss_mb"], TARGETS["peak_rss_mb"]),
        )
    )
    if "index_mb" in o:
        rows.append(("index size (sqlite + wal)", f"{o['index_mb']:.1f} MB", "", ""))
    q = res["ratios"]
    if q:
        rows.append(
            (
                "cold / raw serial",
                f"{q['cold_over_raw_serial']:.2f}x",
                f"<= {TARGETS['cold_over_raw_serial']}x (1 proc)",
                verdict(q["cold_over_raw_serial"], TARGETS["cold_over_raw_serial"]),
            )
        )
        rows.append(
            (
                "",
                "",
                f"<= {TARGETS['cold_over_raw_serial_2proc']}x (2 procs)",
                verdict(q["cold_over_raw_serial"], TARGETS["cold_over_raw_serial_2proc"]),
            )
        )
        rows.append(("  refresh() only / raw serial", f"{q['cold_refresh_over_raw_serial']:.2f}x", "", ""))
        rows.append(("cold / raw parallel", f"{q['cold_over_raw_parallel']:.2f}x", "", ""))
        if q.get("cold_over_ctags") is not None:
            rows.append(("cold / ctags", f"{q['cold_over_ctags']:.2f}x", "", ""))
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    out.write(f"{'measure':<{w[0]}}  {'value':>{w[1]}}  {'target':<{w[2]}}  \n")
    for a, b, t, v in rows:
        out.write(f"{a:<{w[0]}}  {b:>{w[1]}}  {t:<{w[2]}}  {v}\n".rstrip() + "\n")
    out.write("\nslowest queries:\n")
    for ms, query in o["slowest"]:
        out.write(f"  {ms:8.1f} ms  {json.dumps(query)}\n")


def index_phases(corpus: Path, cache: Path, files, rng: random.Random) -> dict:
    """Cold, warm and incremental index children on `cache`; their figures."""
    log("cold index")
    cold = index_child(corpus, cache)
    size = db_size(cold["summary"]["database"])
    log("warm index")
    warm = index_child(corpus, cache)
    targets = pick_edit_targets(corpus, files, 10, rng)
    saved = modify(corpus, targets)
    try:
        log("incremental index (10 files modified)")
        incr = index_child(corpus, cache)
    finally:
        restore(saved)
    log("incremental index (10 files restored)")
    incr_back = index_child(corpus, cache)
    s = cold["summary"]
    return {
        "cold_s": cold["seconds"],
        "cold_refresh_s": s["seconds"],
        "cold_peak_rss_mb": cold["peak_rss_mb"],
        "cold_phases": s.get("phases"),
        "cold_files": s["files"],
        "cold_symbols": s["symbols"],
        "cold_parsed": s["parsed"],
        "warm_s": warm["seconds"],
        "warm_refresh_s": warm["summary"]["seconds"],
        "warm_peak_rss_mb": warm["peak_rss_mb"],
        "incremental_files": len(targets),
        "incremental_s": incr["seconds"],
        "incremental_refresh_s": incr["summary"]["seconds"],
        "incremental_parsed": incr["summary"]["parsed"],
        "incremental_restore_s": incr_back["seconds"],
        "index_mb": size["total_mb"],
        "index_db_mb": size["db_mb"],
        "index_wal_mb": size["wal_mb"],
    }


def serve_phase(corpus: Path, cache: Path, queries: list[dict], *, caught_up: bool) -> dict:
    """Spawn serve, handshake, a first answer; then (after its catch-up pass, when
    `caught_up`) the queries one at a time; its figures and peak RSS."""
    log("serve: start and first query")
    srv = Serve(corpus, cache)
    waited = None
    try:
        srv.send({"type": "handshake", "protocol_version": "contextgraph/1.0"})
        ack = srv.receive()
        t_ack = time.perf_counter() - srv.t0
        if ack.get("type") != "handshake_ack":
            raise RuntimeError(f"no handshake_ack: {ack}")
        first = srv.ask({"goal": QUESTIONS[0], "max_frames": 8, "max_tokens": 8192})
        t_first = time.perf_counter() - srv.t0
        if first.get("type") != "frames":
            raise RuntimeError(f"first query failed: {first}")
        if caught_up:
            log("serve: waiting for its catch-up pass")
            waited = srv.wait_caught_up()
        log(f"serve: {len(queries)} queries")
        latencies, errors, frames = [], 0, 0
        for q in queries:
            t = time.perf_counter()
            reply = srv.ask(q)
            latencies.append((time.perf_counter() - t) * 1000)
            if reply.get("type") != "frames":
                errors += 1
            else:
                frames += len(reply["result"]["frames"])
    finally:
        serve_rss = srv.close()
    slowest = sorted(zip(latencies, range(len(queries))), reverse=True)[:10]
    return {
        "serve_handshake_s": t_ack,
        "serve_first_answer_s": t_first,
        "serve_catch_up_wait_s": waited,
        "queries": len(latencies),
        "query_errors": errors,
        "frames_returned": frames,
        "query_p50_ms": percentile(latencies, 50),
        "query_p90_ms": percentile(latencies, 90),
        "query_p99_ms": percentile(latencies, 99),
        "query_max_ms": max(latencies),
        "query_latencies_ms": latencies,
        "slowest": [(ms, queries[i]) for ms, i in slowest],
        "serve_peak_rss_mb": serve_rss,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("corpus", nargs="?", help="directory to index (default: this Python's stdlib, copied)")
    ap.add_argument("--copy", action="store_true", help="work on a temporary copy of CORPUS")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--queries", type=int, default=100, help="queries for p50/p99 (default 100)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for raw parallel")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument(
        "--no-references",
        action="store_true",
        help="skip raw tree-sitter and ctags (on the kernel they take ~7 minutes); no ratios",
    )
    ap.add_argument("--cache-dir", help="the index's cache directory, kept (default: a temporary one)")
    ap.add_argument(
        "--serve-only",
        action="store_true",
        help="no references, no index runs: serve and the queries only, on the index in --cache-dir",
    )
    args = ap.parse_args(argv)
    if args.serve_only and not (args.corpus and args.cache_dir):
        ap.error("--serve-only needs a CORPUS and the --cache-dir its index is in")
    compile_checkout()
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory(prefix="repo-graph-bench-") as tmpname:
        tmp = Path(tmpname)
        if args.corpus is None:
            src = Path(sysconfig.get_paths()["stdlib"])
            corpus = tmp / "stdlib"
            log(f"copying {src} to {corpus} (without test/, site-packages, __pycache__)")
            copy_corpus(src, corpus, {"test", "site-packages"})
        elif args.copy:
            src = Path(args.corpus).resolve()
            corpus = tmp / src.name
            log(f"copying {src} to {corpus}")
            copy_corpus(src, corpus, set())
        else:
            corpus = Path(args.corpus).resolve()
        cache = Path(args.cache_dir).resolve() if args.cache_dir else tmp / "cache"

        if hasattr(os, "sync"):
            os.sync()  # write the copy back now, not while something is being timed
        load_before = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
        registry = Registry()
        walked, files = select_files(corpus, registry)
        if not files:
            log("no file with a grammar in the corpus")
            return 1
        langs: dict[str, int] = {}
        for _, lang, _ in files:
            langs[lang] = langs.get(lang, 0) + 1
        for rel, _, _ in files:  # warm the page cache so the first contender is not penalised
            (corpus / rel).read_bytes()

        serial = parallel = ctags = None
        if not (args.no_references or args.serve_only):
            log(f"{len(files)} files with a grammar; raw tree-sitter serial")
            serial = bench_raw_serial(corpus, files)
            log(f"raw tree-sitter, {args.workers} processes")
            parallel = bench_raw_parallel(corpus, files, args.workers)
            log("universal ctags")
            ctags = bench_ctags(corpus, files, tmp)

        if args.serve_only:
            ours = {}
            pick_edit_targets(corpus, files, 10, rng)  # the same draws as a full run: the same queries
        else:
            ours = index_phases(corpus, cache, files, rng)
        names = definition_names(corpus, files, rng)
        queries = build_queries(names, [rel for rel, _, _ in files], args.queries, rng)
        ours.update(serve_phase(corpus, cache, queries, caught_up=args.serve_only))

        res = {
            "date": time.strftime("%Y-%m-%d"),
            "commit": commit(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_1min": {
                "before": load_before,
                "after": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
            },
            "corpus": {
                "path": str(args.corpus or sysconfig.get_paths()["stdlib"]),
                "files_walked": len(walked),
                "mb_walked": sum(f.size for f in walked) / 1e6,
                "files": len(files),
                "mb": sum(f[2] for f in files) / 1e6,
                "languages": langs,
            },
            "reference": {
                "raw_serial_s": serial and serial["seconds"],
                "raw_serial_matches": serial and serial["matches"],
                "raw_parallel_s": parallel and parallel["seconds"],
                "raw_parallel_workers": parallel and parallel["workers"],
                "ctags_s": ctags and ctags["seconds"],
                "ctags_peak_rss_mb": ctags and ctags["peak_rss_mb"],
                "ctags_tags": ctags and ctags["tags"],
            },
            "ours": ours,
        }
        res["ratios"] = (
            {}
            if serial is None
            else {
                "cold_over_raw_serial": ours["cold_s"] / serial["seconds"],
                "cold_refresh_over_raw_serial": ours["cold_refresh_s"] / serial["seconds"],
                "cold_over_raw_parallel": ours["cold_s"] / parallel["seconds"],
                "cold_over_ctags": (ours["cold_s"] / ctags["seconds"]) if ctags else None,
            }
        )
        res["targets"] = TARGETS

    emit(res, args.json, print_table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
