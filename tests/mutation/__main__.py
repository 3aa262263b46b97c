"""`python -m tests.mutation`: apply each deliberate bug of `tests/mutation/mutants.py`
to a scratch copy of this tree, run the tests named to catch it, and fail when one
survives, when its text is no longer in the code (the table has rotted), or when the
tests cannot even run. The working tree is never edited.

    python -m tests.mutation                  # every mutant, two at a time
    python -m tests.mutation --only B3 G4     # the mutants of some rules
    python -m tests.mutation --list           # the table, nothing run

Run from the repository root with the project's virtual environment. See
tests/mutation/README.md for what the check promises and how to add a mutant.
"""

from __future__ import annotations

import argparse
import os
import py_compile
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .mutants import MUTANTS, Mutant

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = REPO_ROOT.parent / "shared"
MUTANT_TIMEOUT = 600  # seconds for one mutant's tests: a hang is reported, not waited out
FAILED_LINE = re.compile(r"^FAILED (\S+)", re.MULTILINE)


@dataclass
class Outcome:
    mutant: Mutant
    verdict: str  # killed | SURVIVED | NOT FOUND | ERROR | baseline
    seconds: float
    killers: list[str]
    detail: str = ""


def tree_files(root: Path) -> list[str]:
    """The files of the tree as git sees it (tracked, and new files not ignored), so the
    scratch copy tests uncommitted work too; without git, everything but the usual litter."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "-co", "--exclude-standard"], capture_output=True, check=True
        ).stdout
        return [p for p in out.decode().split("\0") if p and (root / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "__pycache__", ".pytest_cache"}
        return [
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(root).parts)
        ]


def scratch_copy(files: list[str], where: Path) -> Path:
    """`where/repo`, a copy of the tree, with `where/shared` leading to the protocol
    docs beside it, as ../shared is beside the real one (the tests read its schema)."""
    copy = where / "repo"
    for rel in files:
        target = copy / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / rel, target)
    if SHARED.exists():
        (where / "shared").symlink_to(SHARED.resolve(), target_is_directory=True)
    return copy


def occurrences(mutant: Mutant) -> int:
    path = REPO_ROOT / mutant.file
    return path.read_text(encoding="utf-8").count(mutant.old) if path.exists() else 0


def run_tests(copy: Path, tests: list[str], timeout: float) -> tuple[int | None, str]:
    """pytest on `tests` inside the copy: its own modules first on sys.path (the working
    directory), so the copy's code is what runs, in this process and the providers it starts."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-rf", "-p", "no:cacheprovider", *tests]
    try:
        proc = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return None, out
    return proc.returncode, proc.stdout + proc.stderr


def check_copy_is_imported(copy: Path) -> None:
    """The copy's modules, not the editable install's, must be the ones imported."""
    probe = "import repo_graph, indexer; print(repo_graph.__file__); print(indexer.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=copy, capture_output=True, text=True, check=True).stdout
    for line in out.split():
        if not Path(line).resolve().is_relative_to(copy.resolve()):
            raise SystemExit(
                f"mutation: the scratch copy is not what Python imports ({line}); run from a venv "
                "whose install of repo-graph does not shadow the working directory"
            )


def try_mutant(mutant: Mutant, files: list[str], scratch: Path, timeout: float) -> Outcome:
    started = time.monotonic()
    found = occurrences(mutant)
    if found != 1:
        return Outcome(
            mutant,
            "NOT FOUND",
            0.0,
            [],
            f"{mutant.file}: the bug's old text occurs {found} times (must be once); update the table",
        )
    where = Path(tempfile.mkdtemp(prefix=f"{mutant.id}-", dir=scratch))
    copy = scratch_copy(files, where)
    target = copy / mutant.file
    target.write_text(target.read_text(encoding="utf-8").replace(mutant.old, mutant.new), encoding="utf-8")
    if target.suffix == ".py":
        try:
            py_compile.compile(str(target), doraise=True, cfile=str(where / "compiled.pyc"))
        except py_compile.PyCompileError as exc:
            return Outcome(mutant, "ERROR", 0.0, [], f"the mutant does not compile: {exc.msg}")
    rc, output = run_tests(copy, list(mutant.tests), timeout)
    seconds = time.monotonic() - started
    killers = FAILED_LINE.findall(output)
    shutil.rmtree(where, ignore_errors=True)
    if rc == 1:
        return Outcome(mutant, "killed", seconds, killers)
    if rc is None:
        return Outcome(mutant, "killed", seconds, [f"(no answer within {timeout:.0f} s)"], output[-1500:])
    if rc == 0:
        return Outcome(mutant, "SURVIVED", seconds, [], output[-800:])
    return Outcome(
        mutant, "ERROR", seconds, killers, f"pytest exit {rc} (tests missing or not collected?)\n" + output[-1500:]
    )


def baseline(files: list[str], scratch: Path, mutants: list[Mutant], timeout: float) -> str | None:
    """The named tests pass on the unmutated copy; else a 'kill' would prove nothing."""
    where = Path(tempfile.mkdtemp(prefix="baseline-", dir=scratch))
    copy = scratch_copy(files, where)
    tests = sorted({t for m in mutants for t in m.tests})
    rc, output = run_tests(copy, tests, timeout * 2)
    shutil.rmtree(where, ignore_errors=True)
    return None if rc == 0 else f"the named tests fail without any mutant (exit {rc}):\n{output[-3000:]}"


def table(outcomes: list[Outcome]) -> str:
    rows = ["| id | rule | deliberate bug | result | caught by | s |", "|---|---|---|---|---|---|"]
    for o in outcomes:
        caught = "<br>".join(k.split("::", 1)[-1] for k in o.killers) or "-"
        bug = f"`{o.mutant.file}`: {o.mutant.bug}"
        rows.append(f"| {o.mutant.id} | {o.mutant.rule} | {bug} | {o.verdict} | {caught} | {o.seconds:.0f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.mutation", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", nargs="+", metavar="ID", help="mutant ids or id prefixes (B3, G4, ...)")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="mutants at once (default 2)")
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the unmutated run of the named tests (when the whole suite just passed)",
    )
    parser.add_argument("--list", action="store_true", help="print the table and run nothing")
    parser.add_argument("--timeout", type=float, default=MUTANT_TIMEOUT, help="seconds per mutant")
    args = parser.parse_args(argv)

    mutants = [m for m in MUTANTS if not args.only or any(m.id == o or m.id.startswith(o) for o in args.only)]
    if not mutants:
        parser.error(f"no mutant matches {args.only}")
    if args.list:
        for m in mutants:
            print(f"{m.id:<14} {m.rule}\n{'':15}{m.file}: {m.bug}\n{'':15}caught by: {', '.join(m.tests)}")
        return 0
    started = time.monotonic()
    files = tree_files(REPO_ROOT)
    with tempfile.TemporaryDirectory(prefix="repo-graph-mutation-") as tmp:
        scratch = Path(tmp)
        probe = Path(tempfile.mkdtemp(prefix="probe-", dir=scratch))
        check_copy_is_imported(scratch_copy(files, probe))
        shutil.rmtree(probe)
        if not args.no_baseline:
            failure = baseline(files, scratch, mutants, args.timeout)
            if failure:
                print(failure)
                return 1
        outcomes: list[Outcome] = []
        first = sorted(mutants, key=lambda m: not m.slow)  # the slow ones first: the run ends sooner
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for outcome in pool.map(lambda m: try_mutant(m, files, scratch, args.timeout), first):
                outcomes.append(outcome)
                print(
                    f"{outcome.mutant.id:<14} {outcome.verdict:<9} {outcome.seconds:5.0f} s  "
                    f"{', '.join(k.split('::', 1)[-1] for k in outcome.killers)}",
                    flush=True,
                )
                if outcome.verdict not in ("killed",) and outcome.detail:
                    print("    " + outcome.detail.replace("\n", "\n    "), flush=True)
    outcomes.sort(key=lambda o: mutants.index(o.mutant))
    print()
    print(table(outcomes))
    bad = [o for o in outcomes if o.verdict != "killed"]
    print(f"\n{len(outcomes) - len(bad)} of {len(outcomes)} mutants killed in {time.monotonic() - started:.0f} s")
    for o in bad:
        print(f"  {o.mutant.id}: {o.verdict}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
