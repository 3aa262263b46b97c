"""Cold start: how soon a host launched on a never-indexed tree is answered (issue 40).

Run it (no network):

    .venv/bin/python benchmarks/cold_start.py                     # a copy of this Python's stdlib
    .venv/bin/python benchmarks/cold_start.py PATH --anchor REL   # any tree, in place
    .venv/bin/python benchmarks/cold_start.py ... --json          # figures as JSON on stdout

Spawns `repo-graph serve PATH --no-watch` on an empty --cache-dir, handshakes, and
asks one anchored question (`--anchor`, a file of the tree) every `--interval`
seconds (5) until the first index is complete and two answers after it. Reports,
in seconds from the spawn:
  first answer        the first `frames` reply (not an error)
  anchored frames     the first answer holding a frame of the anchored file
  neighbours linked   when the index held links from the anchored file to every file
                      it links to once complete (its one-hop neighbours, out), read
                      from serve's cache (SQLite, read-only) at each tick; the same
                      for half of them, and for the files its imports (includes) name
  neighbour in answer the first answer holding a frame of one of those files
  answers settle      the answer after which no later one differed (frame ids)
  full index          until serve's stderr said `index ready`
Each tick is also printed to stderr as it happens. `--early SECONDS` stops after that
long (the first-seconds figures on a tree whose full index outlasts the session). Then
the reference, in the same run right after: `repo-graph index PATH` cold on
another empty cache (wall clock around the child), and the ratio full index /
cold index (target <= 1.05). The 1-minute load average is printed with each step:
other work on the machine shows in every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
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

from benchmarks.index_speed import copy_corpus  # noqa: E402

TARGETS = {"first_answer_s": 5.0, "neighbours_s": 15.0, "full_over_cold": 1.05}  # kernel, 2 cores
DEFAULT_ANCHOR = "json/decoder.py"


def load() -> float:
    return os.getloadavg()[0]


def env() -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO)}


class Served:
    """`repo-graph serve` on `root`, its stderr lines timestamped from the spawn.
    `launch`: how Python starts it (`-c CODE` runs another release's serve)."""

    def __init__(self, root: Path, cache: Path, launch: tuple[str, ...] = ("-m", "repo_graph")):
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, *launch, "serve", str(root), "--no-watch", "--cache-dir", str(cache)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env(),
            cwd=REPO,
        )
        self.ready_at: float | None = None
        self.partial_lines = 0
        self.errors: list[str] = []
        self.lines: list[str] = []
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self) -> None:
        for raw in self.proc.stderr:
            line = raw.decode(errors="replace")
            self.lines.append(line)
            if "index ready" in line and self.ready_at is None:
                self.ready_at = time.monotonic() - self.t0
            elif "partial answer" in line:
                self.partial_lines += 1
            elif "error:" in line:
                self.errors.append(line.strip())

    def ask(self, envelope: dict) -> dict:
        self.proc.stdin.write((json.dumps(envelope) + "\n").encode())
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def since(self) -> float:
        return time.monotonic() - self.t0

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=120)


def linked_from(db: Path, anchor: str) -> dict[str, list[str]] | None:
    """Files the anchored file links to in serve's cache now, all and by its imports
    (includes) alone (None: no cache yet)."""
    if not db.exists():
        return None
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            rows = con.execute("SELECT DISTINCT dst, rel FROM links WHERE path=?", (anchor,)).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    files = {d.split("#", 1)[0] for d, _ in rows} - {anchor}
    imports = {d.split("#", 1)[0] for d, rel in rows if rel == "code.imports"} - {anchor}
    return {"all": sorted(files), "imports": sorted(imports)}


def rss_mb(pid: int, field: str = "VmHWM") -> float | None:
    """The serving process's own resident memory (Linux's /proc status field: VmHWM its
    peak so far, VmRSS now; its parsing processes not included), or None where /proc
    does not say."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def run(root: Path, anchor: str, interval: float, goal: str, early: float | None = None, late: float = 0.0) -> dict:
    samples = []
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp:
        cache = Path(tmp) / "serve"
        load_before = load()
        served = Served(root, cache)
        ack = served.ask({"type": "handshake", "protocol_version": "contextgraph/1.0"})
        assert ack["type"] == "handshake_ack", ack
        ack_at = served.since()
        time.sleep(max(0.0, late - served.since()))  # a host whose user asks only now
        after_ready = 0
        n = 0
        while after_ready < 2 and (early is None or served.since() < early):
            asked = served.since()
            reply = served.ask(
                {
                    "type": "query",
                    "id": f"q{n}",
                    "query": {"goal": goal, "anchors": [anchor], "max_frames": 12, "max_tokens": 6000},
                }
            )
            got = served.since()
            dbs = list(cache.glob("*.sqlite3"))
            linked = linked_from(dbs[0], anchor) if dbs else None
            frames = [f["id"] for f in reply["result"]["frames"]] if reply.get("type") == "frames" else None
            samples.append(
                {
                    "asked": round(asked, 2),
                    "answered": round(got, 2),
                    "frames": frames,
                    "error": None if frames is not None else reply.get("code"),
                    "linked": linked,
                    "ready": served.ready_at is not None,
                    "load": round(load(), 2),
                }
            )
            n += 1
            last = samples[-1]
            print(
                f"tick {last['answered']:.2f}s frames={len(frames or ())} "
                f"anchor={sum(1 for f in frames or () if f.startswith(anchor))} "
                f"linked={len((linked or {}).get('all', ()))} imports={len((linked or {}).get('imports', ()))} "
                f"load={last['load']}",
                file=sys.stderr,
                flush=True,
            )
            if served.ready_at is not None:
                after_ready += 1
            time.sleep(max(0.0, asked + interval - served.since()))
        final = samples[-1]["linked"] or {"all": [], "imports": []}
        final_linked, final_imports = set(final["all"]), set(final["imports"])
        peak_mb, now_mb = rss_mb(served.proc.pid), rss_mb(served.proc.pid, "VmRSS")
        if early is not None:
            served.proc.kill()
            served.proc.wait()
        else:
            served.close()
        full = served.ready_at
        load_cold = load()
        started = time.monotonic()
        if early is None:
            subprocess.run(
                [sys.executable, "-m", "repo_graph", "index", str(root), "--cache-dir", str(Path(tmp) / "cold"), "-q"],
                env=env(),
                cwd=REPO,
                check=True,
                capture_output=True,
            )
        cold = time.monotonic() - started

    def first(pred):
        return next((s["answered"] for s in samples if pred(s)), None)

    def of(path):
        return lambda fid: fid == path or fid.startswith(path + "#")

    answered = [s for s in samples if s["frames"] is not None]
    settle = None
    for i in range(len(answered) - 1, 0, -1):
        if answered[i]["frames"] != answered[i - 1]["frames"]:
            settle = answered[i]["answered"]
            break
    return {
        "corpus": str(root),
        "anchor": anchor,
        "handshake_s": round(ack_at, 2),
        "first_answer_s": first(lambda s: s["frames"] is not None),
        "anchored_frames_s": first(lambda s: s["frames"] and any(of(anchor)(f) for f in s["frames"])),
        "neighbours": len(final_linked),
        "neighbours_linked_s": first(lambda s: s["linked"] is not None and final_linked <= set(s["linked"]["all"])),
        "imported": len(final_imports),
        "imported_linked_s": first(lambda s: s["linked"] is not None and final_imports <= set(s["linked"]["imports"])),
        "half_neighbours_linked_s": first(
            lambda s: s["linked"] is not None and 2 * len(final_linked & set(s["linked"]["all"])) >= len(final_linked)
        ),
        "neighbour_in_answer_s": first(
            lambda s: s["frames"] and any(of(p)(f) for p in final_linked for f in s["frames"])
        ),
        "answers_settle_s": settle if settle is not None else (answered[0]["answered"] if answered else None),
        "full_index_s": round(full, 2) if full is not None else None,
        "cold_index_s": round(cold, 2) if early is None else None,
        "full_over_cold": round(full / cold, 3) if full and early is None else None,
        "first_question_s": late,
        "serve_peak_rss_mb": peak_mb,
        "serve_rss_at_end_mb": now_mb,
        "partial_lines": served.partial_lines,
        "swap_lines": [line for line in served.lines if "swapped in" in line],
        "errors": served.errors[:5],
        "load_serve_start": round(load_before, 2),
        "load_cold_start": round(load_cold, 2),
        "load_end": round(load(), 2),
        "samples": samples,
    }


def tree_arguments(doc: str, interval: float) -> argparse.ArgumentParser:
    """The arguments every benchmark that asks serve an anchored question takes."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("path", nargs="?", help="the tree (default: a copy of the stdlib, without test/)")
    parser.add_argument("--anchor", default=DEFAULT_ANCHOR, help="the anchored file, relative to the tree")
    parser.add_argument("--goal", default="how does this work and what does it call")
    parser.add_argument("--interval", type=float, default=interval)
    return parser


def tree_root(path: str | None, tmp: str) -> Path:
    """`path`, or a copy of this Python's stdlib (without test/) made in `tmp`."""
    if path:
        return Path(path).resolve()
    root = Path(tmp) / "stdlib"
    copy_corpus(Path(sysconfig.get_paths()["stdlib"]), root, {"test"})
    return root


def main() -> int:
    parser = tree_arguments(__doc__, 5.0)
    parser.add_argument(
        "--early",
        type=float,
        metavar="SECONDS",
        help="ask for this long only, then stop serve: no full index, no cold reference; the neighbour "
        "figures then compare with the links of the last tick, not the finished index's",
    )
    parser.add_argument(
        "--first-question",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="ask the first question only this long after the spawn (a user who asks minutes after the host "
        "started): how soon a question the first index did not know of is answered with its file's neighbours",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tmp = None if args.path else tempfile.mkdtemp(prefix="cold-start-corpus-")
    root = tree_root(args.path, tmp or "")
    try:
        out = run(root, args.anchor, args.interval, args.goal, args.early, args.first_question)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for key, value in out.items():
        if key != "samples":
            print(f"{key:24} {value}")
    print("ticks (answered s, frames of the anchor / neighbours linked / load):")
    for s in out["samples"]:
        mine = sum(1 for f in s["frames"] or () if f == args.anchor or f.startswith(args.anchor + "#"))
        linked = len((s["linked"] or {}).get("all", ()))
        print(f"  {s['answered']:8.2f}  {mine:3d}  {linked:4d}  {s['load']:.2f}  {s['error'] or ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
