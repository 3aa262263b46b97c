"""Freshness of the live index: how soon a query through a running `serve` finds what
was just written to disk, after one editor save, after a burst of writes (a branch
switch), and after a restart on the same cache.

Run it (about 1.5-2 minutes on the CPython standard library with 2 cores, no network):

    /tmp/venv/bin/python benchmarks/freshness.py            # the stdlib of this Python, copied
    /tmp/venv/bin/python benchmarks/freshness.py --json     # figures as JSON on stdout
    /tmp/venv/bin/python benchmarks/freshness.py PATH       # another corpus (always copied)

The corpus is copied to a temporary directory first (the default one exactly as
index_speed.py does: `sysconfig.get_paths()["stdlib"]` without the top-level `test/`,
`site-packages` and `__pycache__`), because this benchmark edits files and restores
nothing. The copy is indexed with `python -m repo_graph index COPY --cache-dir TMP -q`,
then one `python -m repo_graph serve COPY --cache-dir TMP` is spawned, handshaken,
asked a first query, and left to finish its start-up catch-up pass (its "index ready"
line on stderr) before anything is timed.

1. Save -> query (default 30 saves, seeded). Each save appends a uniquely named
   function `def freshness_probe_<i>_<tag>(): return <i>` to a Python file (one that
   `ast.parse` accepts) the way editors save: the new bytes go to a temporary file in the
   same directory, then `os.replace` over the original (atomic save, new inode). The
   clock starts when `os.replace` returns. Right away, and again every ~10 ms after
   each reply, the query `{"goal": "freshness probe <i> <tag>", "max_frames": 3}` is
   sent until a reply holds a frame whose id ends with `#freshness_probe_<i>_<tag>`;
   latency = when that reply arrived - when the save finished. 30 s without it is a
   failure. <tag> is 8 random lowercase letters rather than hex, so that it is one
   search term (the term splitter cuts `a3f9` into `a`, `3`, `f`, `9`).
2. Burst catch-up. `def burst_<i>_<tag>(): pass` is appended in place (open "ab") to
   --burst distinct Python files (default 1,000, capped at the number the corpus has),
   as fast as the loop goes, and then, as the LAST write, a new file is created in a new
   directory, `freshness_new_<tag>/fresh_module.py`, with `def burst_new_<tag>()`.
   From the end of that last write, queries go round-robin over the targets not found
   yet: the new function and 5 of the burst functions (seeded choice among files
   `ast.parse` accepts), each `max_frames` 3, ~10 ms apart. Reported: when the new
   file's function was first found, and when all 6 were (the reply that found the last
   one); 120 s (--burst-timeout) without it is a failure.
3. Restart. `shutdown` is sent (time to exit is reported), then `serve` is spawned
   again on the same cache: spawn -> handshake_ack, spawn -> reply to a first query
   (the new file's function: it must be found straight from the persisted index), and
   spawn -> its "index ready" line (the catch-up pass; how many files it parsed says
   whether the live updates were persisted).

Also checked on the way: any frame id twice in one reply, a found probe frame whose
content is not the probe's source, `error` replies, and every `warning`/`error`/
`Traceback` line `serve` writes to stderr (listed after the table).

Times are wall clock (time.perf_counter) on the client, so each includes the query's
round trip. Each figure is one run; the 1-minute load average before and after is
printed with the results; rerun on a quiet machine.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import platform
import queue
import random
import re
import shutil
import string
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from grammars import Registry  # noqa: E402
from indexer.walk import walk  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from index_speed import commit, compile_checkout, copy_corpus, emit, language_of  # noqa: E402  the same corpus and labels as index_speed

TARGETS = {  # the project's targets (see benchmarks/README.md)
    "save_p95_s": 1.0,
    "burst_caught_up_s": 10.0,
    "serve_ready_s": 0.5,
}
POLL_SLEEP = 0.010  # between a reply and the next query
FIRST_QUERY = "how is a file parsed into tokens"
STDERR_SUSPECT = re.compile(r"warning|error|traceback|exception", re.I)


def log(msg: str) -> None:
    sys.stderr.write(f"[freshness] {msg}\n")
    sys.stderr.flush()


# -- corpus ------------------------------------------------------------------------


def python_files(corpus: Path) -> tuple[list[str], list[str]]:
    """Python files our walker yields (sorted), and those of them `ast.parse` accepts."""
    registry = Registry()
    every, clean = [], []
    for f in walk(corpus):
        spec = language_of(registry, corpus, f.path)
        if spec is None or spec.name != "python":
            continue
        every.append(f.path)
        try:
            ast.parse((corpus / f.path).read_bytes())
        except (SyntaxError, ValueError):
            continue
        clean.append(f.path)
    return sorted(every), sorted(clean)


def new_tag(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(8))


def split_words(name: str) -> str:
    return " ".join(w for w in name.split("_") if w)


def atomic_append(path: Path, text: str) -> float:
    """Save `path` with `text` appended as an editor does: temp file + os.replace.
    Returns perf_counter() when the save is complete."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        data += b"\n"
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data + text.encode())
    os.chmod(tmp, mode)
    os.replace(tmp, path)
    return time.perf_counter()


# -- children ----------------------------------------------------------------------


def index_child(corpus: Path, cache: Path) -> float:
    argv = [sys.executable, "-m", "repo_graph", "index", str(corpus), "--cache-dir", str(cache), "-q"]
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # cwd: this checkout
    seconds = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"index exited {r.returncode}:\n{r.stderr.decode('utf-8', 'replace')[-2000:]}")
    return seconds


class Serve:
    """One `repo-graph serve` child, spoken to over NDJSON pipes; stderr is read
    line by line with arrival times."""

    def __init__(self, corpus: Path, cache: Path):
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen(
            [sys.executable, "-m", "repo_graph", "serve", str(corpus), "--cache-dir", str(cache)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
        )
        self.lines: queue.Queue = queue.Queue()
        self.stderr: list[tuple[float, str]] = []  # (seconds since spawn, line)
        self._stderr_cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.n = 0

    def _read(self):
        for line in self.p.stdout:
            self.lines.put((time.perf_counter(), line))
        self.lines.put((time.perf_counter(), None))

    def _read_err(self):
        for raw in self.p.stderr:
            with self._stderr_cond:
                self.stderr.append((time.perf_counter() - self.t0, raw.decode("utf-8", "replace").rstrip("\n")))
                self._stderr_cond.notify_all()

    def wait_stderr(self, pattern: str, timeout: float) -> tuple[float, str] | None:
        """The first stderr line containing `pattern` (waiting up to `timeout`)."""
        deadline = time.monotonic() + timeout
        with self._stderr_cond:
            while True:
                for t, line in self.stderr:
                    if pattern in line:
                        return t, line
                left = deadline - time.monotonic()
                if left <= 0 or self.p.poll() is not None:
                    return None
                self._stderr_cond.wait(min(left, 0.5))

    def send(self, obj: dict) -> None:
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def receive(self, timeout: float = 120.0) -> tuple[float, dict]:
        """(perf_counter when the line arrived, the message)."""
        t, line = self.lines.get(timeout=timeout)
        if line is None:
            raise RuntimeError("serve exited early:\n" + "\n".join(s for _, s in self.stderr[-30:]))
        return t, json.loads(line)

    def ask(self, query: dict) -> tuple[float, dict]:
        self.n += 1
        qid = f"q{self.n}"
        self.send({"type": "query", "id": qid, "query": query})
        while True:
            t, reply = self.receive()
            if reply.get("id") == qid:
                return t, reply

    def close(self, timeout: float = 30.0) -> float:
        """Shutdown, then wait for the exit; seconds from `shutdown` to exit."""
        t = time.perf_counter()
        try:
            self.send({"type": "shutdown"})
            self.p.stdin.close()
        except (BrokenPipeError, ValueError):
            pass
        try:
            self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            log(f"serve (pid {self.p.pid}) did not exit {timeout:g} s after shutdown; killing it")
            self.p.kill()
            self.p.wait()
        return time.perf_counter() - t

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


# -- probing -----------------------------------------------------------------------


class Checks:
    """Anomalies seen in replies (a benchmark that only times would hide them)."""

    def __init__(self):
        self.error_replies: list[dict] = []
        self.duplicate_ids: list[list[str]] = []
        self.bad_content: list[str] = []
        self.query_ms: list[float] = []

    def look(self, reply: dict, sent: float, arrived: float) -> list[dict]:
        self.query_ms.append((arrived - sent) * 1000)
        if reply.get("type") != "frames":
            if len(self.error_replies) < 20:
                self.error_replies.append(reply)
            return []
        frames = reply["result"]["frames"]
        ids = [f["id"] for f in frames]
        if len(set(ids)) != len(ids):
            self.duplicate_ids.append(ids)
        return frames


def probe_query(name: str) -> dict:
    return {"goal": split_words(name), "max_frames": 3, "max_tokens": 4096}


def found_in(frames: list[dict], name: str, checks: Checks) -> bool:
    hits = [f for f in frames if f["id"].endswith("#" + name)]
    for f in hits:
        if f"def {name}(" not in f.get("content", ""):
            checks.bad_content.append(f["id"])
    if len(hits) > 1:
        checks.duplicate_ids.append([f["id"] for f in frames])
    return bool(hits)


def wait_found(srv: Serve, name: str, since: float, timeout: float, checks: Checks) -> tuple[float | None, int]:
    """Query for `name` until found; (seconds from `since` to the reply that found it, or
    None after `timeout`), number of queries sent."""
    n = 0
    while True:
        sent = time.perf_counter()
        arrived, reply = srv.ask(probe_query(name))
        n += 1
        if found_in(checks.look(reply, sent, arrived), name, checks):
            return arrived - since, n
        if arrived - since > timeout:
            return None, n
        time.sleep(POLL_SLEEP)


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# -- the three measurements --------------------------------------------------------


def bench_saves(
    srv: Serve, corpus: Path, clean: list[str], n: int, timeout: float, rng: random.Random, checks: Checks
) -> dict:
    latencies, failures, queries, detail = [], [], 0, []
    for i in range(n):
        rel = rng.choice(clean)
        name = f"freshness_probe_{i}_{new_tag(rng)}"
        t_save = atomic_append(corpus / rel, f"\n\ndef {name}():\n    return {i}\n")
        latency, q = wait_found(srv, name, t_save, timeout, checks)
        queries += q
        detail.append({"file": rel, "name": name, "latency_s": latency, "queries": q})
        if latency is None:
            failures.append(f"{rel}#{name}")
            log(f"save {i + 1}/{n}: {rel}: NOT FOUND after {timeout:g} s ({q} queries)")
        else:
            latencies.append(latency)
            log(f"save {i + 1}/{n}: {rel}: found after {latency * 1000:.0f} ms ({q} queries)")
    return {
        "saves": n,
        "failures": len(failures),
        "failed": failures,
        "p50_s": percentile(latencies, 50),
        "p95_s": percentile(latencies, 95),
        "max_s": max(latencies) if latencies else None,
        "min_s": min(latencies) if latencies else None,
        "queries": queries,
        "detail": detail,
    }


def bench_burst(
    srv: Serve,
    corpus: Path,
    every: list[str],
    clean: list[str],
    n: int,
    check: int,
    timeout: float,
    rng: random.Random,
    checks: Checks,
) -> dict:
    files = rng.sample(every, min(n, len(every)))
    tag = new_tag(rng)
    names = {rel: f"burst_{i}_{tag}" for i, rel in enumerate(files)}
    clean_set = set(clean)
    checkable = [rel for rel in files if rel in clean_set]
    chosen = rng.sample(checkable, min(check, len(checkable)))
    new_dir = corpus / f"freshness_new_{tag}"
    new_rel = f"{new_dir.name}/fresh_module.py"
    new_name = f"burst_new_{tag}"

    t_start = time.perf_counter()
    for rel in files:
        with open(corpus / rel, "ab") as fh:
            fh.write(f"\n\ndef {names[rel]}(): pass\n".encode())
    new_dir.mkdir()
    with open(corpus / new_rel, "w") as fh:
        fh.write(f'"""Written by benchmarks/freshness.py."""\n\n\ndef {new_name}():\n    return 1\n')
    t_last = time.perf_counter()
    log(f"burst: {len(files)} files appended + 1 new file in {t_last - t_start:.2f} s; polling")

    targets = [(new_rel, new_name)] + [(rel, names[rel]) for rel in chosen]
    found: dict[str, float] = {}
    q_before = len(checks.query_ms)
    pending = list(targets)
    k = 0
    while pending:
        rel, name = pending[k % len(pending)]
        sent = time.perf_counter()
        arrived, reply = srv.ask(probe_query(name))
        if found_in(checks.look(reply, sent, arrived), name, checks):
            found[name] = arrived - t_last
            log(f"burst: {rel}#{name} found after {found[name]:.2f} s")
            pending.remove((rel, name))
        else:
            k += 1
        if arrived - t_last > timeout:
            break
        time.sleep(POLL_SLEEP)
    during = checks.query_ms[q_before:]
    missing = [f"{rel}#{name}" for rel, name in pending]
    for m in missing:
        log(f"burst: {m} NOT FOUND after {timeout:g} s")
    return {
        "files": len(files),
        "corpus_python_files": len(every),
        "write_s": t_last - t_start,
        "new_file": new_rel,
        "new_found_s": found.get(new_name),
        "checked": len(targets),
        "all_found_s": max(found.values()) if not missing else None,
        "failures": len(missing),
        "missing": missing,
        "queries": len(during),
        "query_max_ms": max(during) if during else None,
        "query_p50_ms": percentile(during, 50),
        "found_s": {name: found.get(name) for _, name in targets},
        "new_name": new_name,
    }


def index_ready_line(srv: Serve, timeout: float) -> dict | None:
    hit = srv.wait_stderr("index ready", timeout)
    if hit is None:
        return None
    t, line = hit
    m = re.search(r"(\d+) files, (\d+) parsed, (\d+) unchanged, (\d+) removed in ([\d.]+)s", line)
    out = {"at_s": t, "line": line}
    if m:
        out.update(files=int(m[1]), parsed=int(m[2]), unchanged=int(m[3]), removed=int(m[4]), refresh_s=float(m[5]))
    return out


def start_serve(corpus: Path, cache: Path, first_query: dict) -> tuple[Serve, float, float, dict]:
    srv = Serve(corpus, cache)
    srv.send({"type": "handshake", "protocol_version": "contextgraph/1.0"})
    t_ack_at, ack = srv.receive()
    if ack.get("type") != "handshake_ack":
        raise RuntimeError(f"no handshake_ack: {ack}")
    t_first_at, first = srv.ask(first_query)
    return srv, t_ack_at - srv.t0, t_first_at - srv.t0, first


# -- report --------------------------------------------------------------------------


def loadavg() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def verdict(value, target) -> str:
    if value is None:
        return "MISS"
    return "ok" if value <= target else "MISS"


def fmt_s(v: float | None, digits: int = 2) -> str:
    return "-" if v is None else f"{v:.{digits}f} s"


def print_table(res: dict) -> None:
    out = sys.stdout
    c, s, b, r = res["corpus"], res["saves"], res["burst"], res["restart"]
    out.write(
        f"repo-graph freshness  {res['date']}  commit {res['commit']}  python {res['python']}  "
        f"{res['cpus']} cpu(s)  load {res['loadavg_1min']['before']} -> {res['loadavg_1min']['after']} "
        f"(1 min avg)  total {res['total_s']:.0f} s\n"
    )
    out.write(
        f"corpus {c['path']} (copied)\n  {c['python_files']} Python files, {c['python_files_clean']} "
        f"accepted by ast.parse; index -q {c['index_s']:.1f} s\n\n"
    )
    rows = [
        ("serve (first): spawn -> first answer", fmt_s(res["serve"]["first_answer_s"], 3), "", ""),
        ("serve (first): start-up catch-up done", fmt_s(res["serve"]["ready_at_s"]), "", ""),
        (f"save -> query p50 ({s['saves']} atomic saves)", fmt_s(s["p50_s"]), "", ""),
        (
            "save -> query p95",
            fmt_s(s["p95_s"]),
            f"<= {TARGETS['save_p95_s']:g} s",
            verdict(s["p95_s"], TARGETS["save_p95_s"]),
        ),
        ("save -> query max", fmt_s(s["max_s"]), "", ""),
        (
            "save failures (not found in 30 s)",
            f"{s['failures']}/{s['saves']}",
            "0",
            "ok" if not s["failures"] else "MISS",
        ),
        (f"burst: {b['files']} files appended + 1 new, writes took", fmt_s(b["write_s"]), "", ""),
        ("burst: new file's function found", fmt_s(b["new_found_s"]), "", ""),
        (
            f"burst: all {b['checked']} checked functions found",
            fmt_s(b["all_found_s"]),
            f"<= {TARGETS['burst_caught_up_s']:g} s",
            verdict(b["all_found_s"], TARGETS["burst_caught_up_s"]),
        ),
        (
            f"burst: query p50 / max while catching up ({b['queries']})",
            f"{b['query_p50_ms'] or 0:.0f} / {b['query_max_ms'] or 0:.0f} ms",
            "",
            "",
        ),
        ("restart: shutdown -> exit", fmt_s(r["shutdown_s"], 3), "", ""),
        ("restart: spawn -> handshake_ack", fmt_s(r["handshake_s"], 3), "", ""),
        (
            "restart: spawn -> first answer",
            fmt_s(r["first_answer_s"], 3),
            f"<= {TARGETS['serve_ready_s']:g} s",
            verdict(r["first_answer_s"], TARGETS["serve_ready_s"]),
        ),
        ("restart: first answer has the burst's new function", "yes" if r["first_answer_found_new"] else "no", "", ""),
        (
            "restart: spawn -> catch-up done",
            fmt_s(r["ready_at_s"]),
            "",
            f"(parsed {r['catchup_parsed']})" if r.get("catchup_parsed") is not None else "",
        ),
    ]
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    out.write(f"{'measure':<{w[0]}}  {'value':>{w[1]}}  {'target':<{w[2]}}  \n")
    for a, v, t, ok in rows:
        out.write(f"{a:<{w[0]}}  {v:>{w[1]}}  {t:<{w[2]}}  {ok}\n".rstrip() + "\n")
    k = res["checks"]
    out.write(
        f"\nqueries sent {k['queries']}, error replies {len(k['error_replies'])}, replies with a duplicate "
        f"frame id {len(k['duplicate_ids'])}, probe frames with wrong content {len(k['bad_content'])}\n"
    )
    lines = k["serve_stderr_suspect"]
    out.write(f"serve stderr: {k['serve_stderr_lines']} lines, {len(lines)} with warning/error/traceback\n")
    for line in lines[:15]:
        out.write(f"  {line}\n")
    for fail in s["failed"] + b["missing"]:
        out.write(f"not found: {fail}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("corpus", nargs="?", help="directory to copy and edit (default: this Python's stdlib)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--saves", type=int, default=30, help="atomic saves timed (default 30)")
    ap.add_argument("--save-timeout", type=float, default=30.0, help="seconds before a save counts as missed")
    ap.add_argument("--burst", type=int, default=1000, help="files appended to in the burst (default 1000)")
    ap.add_argument("--burst-check", type=int, default=5, help="burst functions queried for (default 5)")
    ap.add_argument("--burst-timeout", type=float, default=120.0, help="seconds before the burst counts as missed")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy and cache (path on stderr)")
    args = ap.parse_args(argv)
    compile_checkout()
    rng = random.Random(args.seed)
    t_begin = time.perf_counter()

    tmp = Path(tempfile.mkdtemp(prefix="repo-graph-freshness-"))
    servers: list[Serve] = []
    try:
        if args.corpus is None:
            src = Path(sysconfig.get_paths()["stdlib"])
            corpus = tmp / "stdlib"
            log(f"copying {src} to {corpus} (without test/, site-packages, __pycache__)")
            copy_corpus(src, corpus, {"test", "site-packages"})
        else:
            src = Path(args.corpus).resolve()
            corpus = tmp / src.name
            log(f"copying {src} to {corpus}")
            copy_corpus(src, corpus, set())
        cache = tmp / "cache"
        every, clean = python_files(corpus)
        if not clean:
            log("no Python file in the corpus")
            return 1
        if hasattr(os, "sync"):
            os.sync()
        load_before = loadavg()

        log(f"index {corpus} ({len(every)} Python files)")
        index_s = index_child(corpus, cache)

        log("serve: start, first query, wait for its catch-up pass")
        srv, ack_s, first_s, first = start_serve(
            corpus, cache, {"goal": FIRST_QUERY, "max_frames": 8, "max_tokens": 8192}
        )
        servers.append(srv)
        if first.get("type") != "frames":
            raise RuntimeError(f"first query failed: {first}")
        ready = index_ready_line(srv, 120.0)
        if ready is None:
            log("serve wrote no 'index ready' line within 120 s; going on")

        checks = Checks()
        log(f"{args.saves} saves")
        saves = bench_saves(srv, corpus, clean, args.saves, args.save_timeout, rng, checks)
        log(f"burst of {min(args.burst, len(every))} files")
        burst = bench_burst(srv, corpus, every, clean, args.burst, args.burst_check, args.burst_timeout, rng, checks)

        log("restart")
        shutdown_s = srv.close()
        new_name = burst["new_name"]
        srv2, ack2_s, first2_s, first2 = start_serve(corpus, cache, probe_query(new_name))
        servers.append(srv2)
        if first2.get("type") != "frames":
            checks.error_replies.append(first2)
        first2_found = found_in(first2.get("result", {}).get("frames", []), new_name, checks)
        ready2 = index_ready_line(srv2, 120.0)
        if not first2_found:
            log("restart: the first answer lacks the new file's function; polling for it")
            t2, _ = wait_found(srv2, new_name, srv2.t0, args.save_timeout, checks)
        else:
            t2 = first2_s
        srv2.close()
        load_after = loadavg()

        stderr_lines = [line for s in servers for _, line in s.stderr]
        res = {
            "date": time.strftime("%Y-%m-%d"),
            "commit": commit(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_1min": {"before": load_before, "after": load_after},
            "total_s": time.perf_counter() - t_begin,
            "corpus": {
                "path": str(src),
                "python_files": len(every),
                "python_files_clean": len(clean),
                "index_s": index_s,
            },
            "serve": {
                "handshake_s": ack_s,
                "first_answer_s": first_s,
                "ready_at_s": ready and ready["at_s"],
                "catchup": ready,
            },
            "saves": saves,
            "burst": burst,
            "restart": {
                "shutdown_s": shutdown_s,
                "handshake_s": ack2_s,
                "first_answer_s": first2_s,
                "first_answer_found_new": first2_found,
                "new_found_s": t2,
                "ready_at_s": ready2 and ready2["at_s"],
                "catchup_parsed": ready2.get("parsed") if ready2 else None,
                "catchup": ready2,
            },
            "checks": {
                "queries": len(checks.query_ms),
                "error_replies": checks.error_replies,
                "duplicate_ids": checks.duplicate_ids[:20],
                "bad_content": checks.bad_content[:20],
                "serve_stderr_lines": len(stderr_lines),
                "serve_stderr_suspect": [ln for ln in stderr_lines if STDERR_SUSPECT.search(ln)][:200],
            },
            "targets": TARGETS,
        }
    finally:
        for s in servers:
            s.kill()
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    emit(res, args.json, print_table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
