"""The streamable-HTTP transport under load (issue 38): 1, 8 and 32 concurrent clients
against one `serve --http`, beside the stdio transport's latency in the same run.

Run it (about 2-3 minutes on the CPython standard library with 2 cores, no network):

    /tmp/venv/bin/python benchmarks/http_load.py            # this Python's stdlib, copied
    /tmp/venv/bin/python benchmarks/http_load.py --json     # figures as JSON on stdout
    /tmp/venv/bin/python benchmarks/http_load.py PATH       # another corpus (copied)

The corpus is copied as index_speed.py copies it, indexed once (`repo_graph index`),
and the queries are index_speed.py's (definition names split into words, a few
questions, every 10th anchored on a file; `max_frames` 8, `max_tokens` 8192; seeded).
Then two servers run on that cache: `serve` over stdio and `serve --http 0`, each
warmed by its start-up catch-up pass ("index ready") and a few queries.

1. One client: the queries go in turn to stdio and to HTTP (one, then the other, so
   load from elsewhere on the machine falls on both alike); round trip per request,
   measured by the client (HTTP: a kept-alive connection, as a host keeps one).
2. 8 and 32 clients: that many threads, each with its own connection, take the next
   query from one list (--requests per level, the queries over again) until it is
   empty. Per request: the round trip; per level: requests per second over the wall
   time, p50, p99, the slowest, errors (anything but `200` with a `frames` envelope,
   or a failed connection), answers over 2 s, and the server's RSS after the level
   (VmRSS) and its peak (VmHWM) from /proc (the stdio server's after step 1, beside).
   Also the server's own CPU time per request (/proc/PID/stat, user + system), which
   the load of other processes on the machine does not inflate as it does wall time.

Targets (issue 38): HTTP p50 at 1 client at most 1.5x stdio's; at 32 clients no error
and no answer over 2 s. Each figure is one run; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from http.client import HTTPConnection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from index_speed import (  # noqa: E402  the same corpus, queries and helpers as index_speed
    REPO,
    build_queries,
    commit,
    compile_checkout,
    copy_corpus,
    definition_names,
    emit,
    index_child,
    percentile,
    select_files,
)

from grammars import Registry  # noqa: E402

LEVELS = (1, 8, 32)
TARGETS = {"p50_over_stdio_1_client": 1.5, "errors_32_clients": 0, "slowest_32_clients_s": 2.0}
SLOW_S = 2.0


def log(msg: str) -> None:
    sys.stderr.write(f"[http_load] {msg}\n")
    sys.stderr.flush()


def _wait_for(path: Path, pattern: str, proc: subprocess.Popen, timeout: float = 300) -> re.Match:
    end = time.monotonic() + timeout
    while True:
        found = re.search(pattern, path.read_text(errors="replace"))
        if found:
            return found
        if proc.poll() is not None or time.monotonic() > end:
            raise RuntimeError(f"no {pattern!r} from the server:\n{path.read_text(errors='replace')[-2000:]}")
        time.sleep(0.05)


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a server, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (its children, like the tokenizer's
    helper, not included): a cost that does not move with the machine's load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Stdio:
    """`serve` over NDJSON pipes, one request at a time."""

    def __init__(self, corpus: Path, cache: Path, tmp: Path):
        self.err = tmp / "stdio.err"
        self.p = subprocess.Popen([sys.executable, "-m", "repo_graph", "serve", str(corpus), "--cache-dir", str(cache)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err.open("wb"), cwd=REPO)
        self.n = 0

    def ask(self, envelope: dict) -> dict:
        self.p.stdin.write((json.dumps(envelope) + "\n").encode())
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def query(self, q: dict) -> dict:
        self.n += 1
        return self.ask({"type": "query", "id": f"s{self.n}", "query": q})

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(30)


class Http:
    """`serve --http 0`: its URL and token from the state file it names on stderr."""

    def __init__(self, corpus: Path, cache: Path, tmp: Path):
        self.err = tmp / "http.err"
        self.p = subprocess.Popen([sys.executable, "-m", "repo_graph", "serve", str(corpus), "--cache-dir", str(cache),
                                   "--http", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=self.err.open("wb"), cwd=REPO)
        state = _wait_for(self.err, r"the URL and token are in (.+) \(readable by you only\)\n", self.p)
        data = json.loads(Path(state.group(1)).read_text())
        self.port = int(data["url"].rsplit(":", 1)[1].split("/")[0])
        self.headers = {"Content-Type": "application/json", "Authorization": f"Bearer {data['token']}"}

    def connect(self) -> HTTPConnection:
        return HTTPConnection("127.0.0.1", self.port, timeout=120)

    def ask(self, conn: HTTPConnection, envelope: dict) -> tuple[int, dict | None]:
        conn.request("POST", "/cgp", json.dumps(envelope), self.headers)
        response = conn.getresponse()
        body = response.read()
        return response.status, (json.loads(body) if body else None)

    def close(self) -> None:
        self.p.terminate()
        self.p.wait(30)


def one_client(stdio: Stdio, http: Http, queries: list[dict]):
    """Alternating stdio and HTTP, one request at a time: (stdio ms, HTTP ms, errors,
    (stdio, HTTP) server CPU ms per query)."""
    conn = http.connect()
    s_ms, h_ms, errors = [], [], 0
    s_cpu, h_cpu = cpu_seconds(stdio.p.pid), cpu_seconds(http.p.pid)
    for i, q in enumerate(queries):
        t = time.perf_counter()
        reply = stdio.query(q)
        s_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        status, answer = http.ask(conn, {"type": "query", "id": f"h{i}", "query": q})
        h_ms.append((time.perf_counter() - t) * 1000)
        errors += reply.get("type") != "frames" or status != 200 or answer.get("type") != "frames"
    conn.close()
    per_query = ((cpu_seconds(stdio.p.pid) - s_cpu) * 1000 / len(queries),
                 (cpu_seconds(http.p.pid) - h_cpu) * 1000 / len(queries))
    return s_ms, h_ms, errors, per_query


def many_clients(http: Http, queries: list[dict], clients: int, requests: int) -> dict:
    todo = [queries[i % len(queries)] for i in range(requests)]
    lock = threading.Lock()
    latencies: list[float] = []
    errors: list[str] = []

    def client() -> None:
        conn = http.connect()
        while True:
            with lock:
                if not todo:
                    break
                q = todo.pop()
            t = time.perf_counter()
            try:
                status, answer = http.ask(conn, {"type": "query", "id": "load", "query": q})
                ok = status == 200 and answer.get("type") == "frames"
                what = f"{status} {answer.get('code') if answer else ''}"
            except Exception as exc:  # noqa: BLE001 - counted as an error of this level
                ok, what = False, repr(exc)
                conn.close()
                conn = http.connect()
            with lock:
                latencies.append((time.perf_counter() - t) * 1000)
                if not ok:
                    errors.append(what)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    cpu = cpu_seconds(http.p.pid)
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    cpu = cpu_seconds(http.p.pid) - cpu
    rss, peak = memory_mb(http.p.pid)
    return {"clients": clients, "requests": len(latencies), "seconds": wall, "per_second": len(latencies) / wall,
            "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99), "max_ms": max(latencies),
            "errors": len(errors), "error_kinds": sorted(set(errors))[:5],
            "over_2s": sum(ms > SLOW_S * 1000 for ms in latencies), "rss_mb": rss, "peak_rss_mb": peak,
            "cpu_ms_per_request": cpu * 1000 / len(latencies)}


def print_table(res: dict) -> None:
    one = res["one_client"]
    print(f"http_load on {res['corpus']['path']} ({res['corpus']['files']} files), commit {res['commit']}, "
          f"python {res['python']}, {res['cpus']} cpus, load {res['loadavg_1min']}")
    print(f"1 client, {one['queries']} queries alternating: stdio p50 {one['stdio_p50_ms']:.1f} ms "
          f"p99 {one['stdio_p99_ms']:.1f} ms | HTTP p50 {one['http_p50_ms']:.1f} ms p99 {one['http_p99_ms']:.1f} ms | "
          f"HTTP/stdio p50 {one['p50_ratio']:.2f} (target <= {TARGETS['p50_over_stdio_1_client']}) | "
          f"errors {one['errors']} | server CPU per query: stdio {one['stdio_cpu_ms_per_query']:.1f} ms, "
          f"HTTP {one['http_cpu_ms_per_query']:.1f} ms | stdio server RSS {one['stdio_rss_mb']:.0f} MB")
    print("| clients | requests | req/s | p50 ms | p99 ms | slowest ms | errors | over 2 s | server CPU ms/request "
          "| RSS MB | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in res["levels"]:
        print(f"| {r['clients']} | {r['requests']} | {r['per_second']:.1f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
              f"{r['max_ms']:.0f} | {r['errors']} | {r['over_2s']} | {r['cpu_ms_per_request']:.1f} | "
              f"{r['rss_mb']:.0f} | {r['peak_rss_mb']:.0f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", help="directory to serve (default: this Python's stdlib); always copied")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--queries", type=int, default=100, help="distinct queries (default 100)")
    ap.add_argument("--requests", type=int, default=320, help="requests per level of 8 and 32 clients (default 320)")
    ap.add_argument("--seed", type=int, default=1234)
    args = ap.parse_args(argv)
    compile_checkout()
    import random

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="repo-graph-http-") as tmpname:
        tmp = Path(tmpname)
        src = Path(args.corpus).resolve() if args.corpus else Path(sysconfig.get_paths()["stdlib"])
        corpus = tmp / "corpus"
        log(f"copying {src} to {corpus}")
        copy_corpus(src, corpus, set() if args.corpus else {"test", "site-packages"})
        cache = tmp / "cache"
        _, files = select_files(corpus, Registry())
        log("index")
        index_child(corpus, cache)
        queries = build_queries(definition_names(corpus, files, rng), [rel for rel, _, _ in files], args.queries, rng)
        load_before = round(os.getloadavg()[0], 2)

        log("stdio and HTTP servers: start, catch up, warm up")
        stdio, http = Stdio(corpus, cache, tmp), Http(corpus, cache, tmp)
        try:
            stdio.ask({"type": "handshake", "protocol_version": "contextgraph/1.0"})
            _wait_for(stdio.err, "index ready", stdio.p)
            _wait_for(http.err, "index ready", http.p)
            one_client(stdio, http, queries[:10])  # warm-up
            log(f"1 client: {len(queries)} queries, alternating stdio and HTTP")
            s_ms, h_ms, one_errors, (s_cpu, h_cpu) = one_client(stdio, http, queries)
            stdio_rss, stdio_peak = memory_mb(stdio.p.pid)
            stdio.close()
            levels = []
            for clients in LEVELS:
                log(f"{clients} client(s): {args.requests} requests")
                levels.append(many_clients(http, queries, clients, args.requests))
            stderr = http.err.read_text(errors="replace")
        finally:
            for server in (stdio, http):
                if server.p.poll() is None:
                    server.p.kill()
        res = {
            "date": time.strftime("%Y-%m-%d"), "commit": commit(), "python": platform.python_version(),
            "cpus": os.cpu_count(), "loadavg_1min": {"before": load_before, "after": round(os.getloadavg()[0], 2)},
            "corpus": {"path": str(src), "files": len(files)},
            "one_client": {"queries": len(queries), "errors": one_errors,
                           "stdio_p50_ms": percentile(s_ms, 50), "stdio_p99_ms": percentile(s_ms, 99),
                           "http_p50_ms": percentile(h_ms, 50), "http_p99_ms": percentile(h_ms, 99),
                           "p50_ratio": percentile(h_ms, 50) / percentile(s_ms, 50),
                           "stdio_rss_mb": stdio_rss, "stdio_peak_rss_mb": stdio_peak,
                           "stdio_cpu_ms_per_query": s_cpu, "http_cpu_ms_per_query": h_cpu},
            "levels": levels, "targets": TARGETS,
            "server_stderr_suspect": [line for line in stderr.splitlines()
                                      if re.search(r"warning|error|traceback", line, re.I)][:10],
        }
    emit(res, args.json, print_table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
