"""Golden files: what the extractor and the provider produce, written down once and
compared on every test run (tests/test_golden.py), never rewritten by the tests.

Two kinds:

* **Per-language tags** - `grammars/<lang>/example.tags`: the symbols, references and
  imports the extractor gets out of `grammars/<lang>/example.*`, one per line.
* **Wire goldens** - `tests/golden/<case>.in.ndjson` holds the lines a host sends,
  verbatim, one per line (hand-written; a line need not be valid JSON);
  `tests/golden/<case>.out.ndjson` holds the provider's replies, one per line, after
  volatile values are replaced by placeholders (see `normalise`). The provider runs as
  a real subprocess over real pipes (`python -m repo_graph serve REPO`, environment
  PATH and HOME only, HOME a fresh temp dir) against a fresh repository made from
  `tests.conftest.FIXTURE_FILES`.

Regenerate both kinds with `python -m tests.golden --update` (from the repository
root), then review the diff like code.

What a golden pins, and what it leaves to other tests: a wire golden pins the wire
(envelope shapes, ids, content, digests, costs, provenance, relations, error codes and
messages) and which frames come in which order; not the scores' values, which move
with every retune of the ranking: a score is written `<SCORE>`, and
tests/test_golden.py checks on the replies as emitted that each answer's scores lie in
[0, 1] and never rise down the list. (The ranking's promises have their own tests:
G4 in tests/test_anchored.py, the rest in tests/test_ranking.py.)

What `--update` may change, and when:
* `example.tags` of a language, with a change to its queries, its language.toml or
  indexer/extract.py that means it; a golden of a language the change did not mean to
  touch must not move.
* In a wire golden, digests, costs, content and provenance only with a change to the
  fixture (tests.conftest.FIXTURE_FILES) or to how frames are cut (extraction, headers);
  envelope fields and error messages only with a protocol change; which frames come
  and in what order only with a ranking change whose commit gives its
  benchmarks/quality.py figures.
* Never to make a failing test pass without reading why it failed: a diff nobody meant
  is a bug the golden caught.
"""

from __future__ import annotations

import difflib
import json
import re
import select
import subprocess
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO_ROOT, host_env, make_repo, provider_command

GOLDEN_DIR = Path(__file__).resolve().parent
GRAMMARS_DIR = REPO_ROOT / "grammars"
UPDATE_COMMAND = "python -m tests.golden --update"

REPLY_TIMEOUT = 60.0  # seconds for one reply (the first query waits for the first index)
EXIT_TIMEOUT = 15.0

# --------------------------------------------------------------------------------------
# Per-language tags
# --------------------------------------------------------------------------------------

DOC_CHARS = 40
SIG_CHARS = 60
TAGS_NAME = "example.tags"


def _short(text: str, limit: int) -> str:
    """One line, whitespace collapsed, cut at `limit` characters (then "...")."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rstrip() + "..."


def _q(text: str) -> str:
    """A double-quoted, escaped string (JSON rules), safe on one line."""
    return json.dumps(text, ensure_ascii=False)


def _word(text: str) -> str:
    """A name as a bare word when it is one, quoted otherwise."""
    return text if text and re.fullmatch(r"[^\s\"=]+", text) else _q(text)


def example_files() -> list[Path]:
    """`grammars/<lang>/example.<ext>` of every language folder that has one."""
    found = []
    for folder in sorted(p for p in GRAMMARS_DIR.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        examples = sorted(p for p in folder.glob("example.*") if p.name != TAGS_NAME)
        if len(examples) > 1:
            raise RuntimeError(f"{folder}: more than one example file: {[p.name for p in examples]}")
        found.extend(examples)
    return found


def tags_path(example: Path) -> Path:
    return example.with_name(TAGS_NAME)


_REGISTRY = None
_EXTRACTOR = None


def render_tags(example: Path) -> str:
    """The text `example.tags` should hold for this example file."""
    global _REGISTRY, _EXTRACTOR
    from grammars import Registry
    from indexer.extract import Extractor

    if _REGISTRY is None:
        _REGISTRY, _EXTRACTOR = Registry(), Extractor()
    specs = [s for s in _REGISTRY.languages.values() if s.folder.resolve() == example.parent.resolve()]
    if len(specs) != 1:
        raise RuntimeError(f"{example}: no single language spec for folder {example.parent.name!r}")
    (spec,) = specs
    out = _EXTRACTOR.extract(spec, example.read_bytes())
    if out is None:
        raise RuntimeError(f"{example}: grammar for {spec.name!r} unavailable: {_EXTRACTOR.failures.get(spec.name)}")

    rel = example.relative_to(REPO_ROOT).as_posix()
    lines = [
        f"# {rel} ({spec.name}): symbols, references and imports as indexer/extract.py sees them.",
        f"# Generated by `{UPDATE_COMMAND}`; review changes like code, do not hand-edit.",
    ]
    if out.module_doc:
        lines.append(f"module doc={_q(_short(out.module_doc, DOC_CHARS))}")
    for warning in out.warnings:
        lines.append(f"warning {_q(warning)}")
    for imp in out.imports:
        lines.append(f"import {_q(imp.path)} L{imp.line}")
    for sym in out.symbols:
        parts = ["def", sym.kind, _word(sym.qualname), f"L{sym.start_line}-{sym.end_line}"]
        if sym.name != sym.qualname.rsplit(".", 1)[-1].split("~", 1)[0]:
            parts.append(f"name={_word(sym.name)}")
        if sym.parent is not None:
            parts.append(f"parent={_word(out.symbols[sym.parent].qualname)}")
        parts.append(f"sig={_q(_short(sym.signature, SIG_CHARS))}")
        if sym.doc:
            parts.append(f"doc={_q(_short(sym.doc, DOC_CHARS))}")
        lines.append(" ".join(parts))
    for ref in out.references:
        parts = ["ref", ref.kind, _word(ref.name), f"L{ref.line}"]
        if ref.scope is not None:
            parts.append(f"in={_word(out.symbols[ref.scope].qualname)}")
        lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------
# Wire goldens
# --------------------------------------------------------------------------------------

IN_SUFFIX = ".in.ndjson"
OUT_SUFFIX = ".out.ndjson"

F4_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\b")


def wire_cases() -> list[str]:
    return sorted(p.name[: -len(IN_SUFFIX)] for p in GOLDEN_DIR.glob(f"*{IN_SUFFIX}"))


def in_path(case: str) -> Path:
    return GOLDEN_DIR / f"{case}{IN_SUFFIX}"


def out_path(case: str) -> Path:
    return GOLDEN_DIR / f"{case}{OUT_SUFFIX}"


def read_in_lines(case: str) -> list[bytes]:
    """The host's lines, verbatim, blank lines skipped (the provider ignores them too)."""
    return [raw for raw in in_path(case).read_bytes().split(b"\n") if raw.strip()]


def _expects_reply(line: bytes) -> bool:
    """Every line gets exactly one reply, except a well-formed `shutdown`."""
    try:
        message = json.loads(line)
    except ValueError:
        return True
    return not (isinstance(message, dict) and message.get("type") == "shutdown")


@dataclass
class WireRun:
    replies: list[dict]  # as emitted, parsed
    lines: list[str]  # normalised, one JSON text per reply
    returncode: int
    stderr: str


def _repo_forms(repo: Path) -> list[str]:
    """Every spelling of the repo's absolute path that may appear, longest first."""
    plain = str(repo)
    forms = {plain, repo.as_posix(), urllib.parse.quote(plain), urllib.parse.quote(repo.as_posix())}
    uri = repo.as_uri()
    forms.add(uri[len("file://") :])
    return sorted(forms, key=len, reverse=True)


def normalise(value, repo: Path, version: str, _key: str | None = None):
    """Placeholders for what differs between runs: the temp repository's path (in
    plain, URI and percent-encoded form; a `file://` URI keeps its scheme, so
    `file:///tmp/x/repo/src/a.py` reads `file://<REPO>/src/a.py`), F4 timestamps,
    the provider's version, and each frame's score (`<SCORE>`: ranking tuning, not the
    wire; their order is checked instead). Digests and costs stay as they are."""
    if _key == "score" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return "<SCORE>"
    if isinstance(value, dict):
        return {k: normalise(v, repo, version, k) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v, repo, version) for v in value]
    if isinstance(value, str):
        if _key == "version" and value == version:
            return "<VERSION>"
        for form in _repo_forms(repo):
            value = value.replace(form, "<REPO>")
        return F4_TIME.sub("<TIME>", value)
    return value


def dump_line(envelope) -> str:
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))


def run_wire(lines: list[bytes], workdir: Path | None = None) -> WireRun:
    """A fresh fixture repository and HOME, the provider over real pipes, the host's
    lines sent one at a time (each waiting for its reply), then EOF."""
    from repo_graph import __version__

    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="repo-graph-golden-") as tmp:
            return run_wire(lines, Path(tmp))
    workdir = Path(workdir).resolve()
    repo = make_repo(workdir / "repo")
    home = workdir / "home"
    home.mkdir()
    proc = subprocess.Popen(
        provider_command(repo),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=host_env(home),
        cwd=str(REPO_ROOT),
    )
    raw: list[bytes] = []
    stderr = b""
    try:
        for line in lines:
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            if _expects_reply(line):
                ready, _, _ = select.select([proc.stdout], [], [], REPLY_TIMEOUT)
                if not ready:
                    raise AssertionError(f"no reply to {line[:200]!r} within {REPLY_TIMEOUT}s")
                reply = proc.stdout.readline()
                if not reply:
                    raise AssertionError(f"provider closed stdout after {line[:200]!r}")
                raw.append(reply)
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        # Anything after the last expected reply is part of the golden too.
        deadline = time.monotonic() + EXIT_TIMEOUT
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"provider did not close stdout within {EXIT_TIMEOUT}s of EOF")
            extra = proc.stdout.readline()
            if not extra:
                break
            raw.append(extra)
        returncode = proc.wait(timeout=EXIT_TIMEOUT)
        stderr = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    replies = []
    for reply in raw:
        if not reply.endswith(b"\n"):
            raise AssertionError(f"reply not newline-terminated: {reply[:200]!r}")
        replies.append(json.loads(reply))  # stdout is protocol only: every line parses
    normalised = [dump_line(normalise(r, repo, __version__)) for r in replies]
    return WireRun(replies, normalised, returncode, stderr.decode("utf-8", "replace"))


# --------------------------------------------------------------------------------------
# Comparing and updating
# --------------------------------------------------------------------------------------


def diff(expected: str, actual: str, path: Path) -> str:
    rel = path.relative_to(REPO_ROOT).as_posix() if path.is_relative_to(REPO_ROOT) else str(path)
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{rel} (golden)",
            tofile=f"{rel} (now)",
        )
    )


def json_changes(expected: str, actual: str, limit: int = 40) -> list[str]:
    """Where two NDJSON texts differ, as JSON paths (a one-line envelope's unified
    diff is one long line; this says which field changed)."""
    out: list[str] = []

    def short(v) -> str:
        text = json.dumps(v, ensure_ascii=False)
        return text if len(text) <= 100 else text[:97] + "..."

    def walk(a, b, where: str) -> None:
        if len(out) >= limit:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            if list(a) != list(b) and set(a) == set(b):
                out.append(f"{where}: key order {list(a)} -> {list(b)}")
            for k in a:
                if k not in b:
                    out.append(f"{where}.{k}: removed (was {short(a[k])})")
                else:
                    walk(a[k], b[k], f"{where}.{k}")
            for k in b:
                if k not in a:
                    out.append(f"{where}.{k}: added {short(b[k])}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                out.append(f"{where}: length {len(a)} -> {len(b)}")
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{where}[{i}]")
        elif a != b or type(a) is not type(b):
            out.append(f"{where}: {short(a)} -> {short(b)}")

    old, new = expected.splitlines(), actual.splitlines()
    if len(old) != len(new):
        out.append(f"line count {len(old)} -> {len(new)}")
    for n, (a, b) in enumerate(zip(old, new), start=1):
        if a == b:
            continue
        try:
            walk(json.loads(a), json.loads(b), f"line {n}")
        except ValueError:
            out.append(f"line {n}: not JSON")
    return out[:limit]


def mismatch_message(path: Path, expected: str, actual: str) -> str:
    message = (
        f"{path.relative_to(REPO_ROOT).as_posix()} does not match what the code produces now.\n"
        f"If the change is intended, run `{UPDATE_COMMAND}` from the repository root and "
        f"review the diff before committing.\n"
    )
    if path.name.endswith(".ndjson"):
        message += "\nChanged fields (golden -> now):\n" + "".join(f"  {c}\n" for c in json_changes(expected, actual))
    return message + "\n" + diff(expected, actual, path)


def expected_outputs() -> dict[Path, str]:
    """Every golden file and the text it should hold now."""
    outputs: dict[Path, str] = {}
    for example in example_files():
        outputs[tags_path(example)] = render_tags(example)
    for case in wire_cases():
        run = run_wire(read_in_lines(case))
        if run.returncode != 0:
            raise RuntimeError(f"wire case {case!r}: provider exited {run.returncode}; stderr:\n{run.stderr}")
        outputs[out_path(case)] = "\n".join(run.lines) + "\n"
    return outputs


def stale_files() -> list[Path]:
    """Golden outputs with nothing that makes them any more."""
    tags = {tags_path(e) for e in example_files()}
    stale = [p for p in sorted(GRAMMARS_DIR.glob(f"*/{TAGS_NAME}")) if p not in tags]
    cases = set(wire_cases())
    stale += [p for p in sorted(GOLDEN_DIR.glob(f"*{OUT_SUFFIX}")) if p.name[: -len(OUT_SUFFIX)] not in cases]
    return stale
