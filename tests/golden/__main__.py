"""`python -m tests.golden --update` rewrites every golden file from what the code
produces now; `python -m tests.golden` only compares and prints the diffs.
Run from the repository root."""

from __future__ import annotations

import argparse
import sys

from . import REPO_ROOT, diff, expected_outputs, stale_files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("--update", action="store_true", help="rewrite the golden files (then review the diff)")
    args = parser.parse_args(argv)

    outputs = expected_outputs()
    changed = 0
    for path, text in outputs.items():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old == text:
            continue
        changed += 1
        rel = path.relative_to(REPO_ROOT).as_posix()
        if args.update:
            path.write_text(text, encoding="utf-8", newline="\n")
            sys.stderr.write(f"updated {rel}\n")
        else:
            sys.stdout.write(diff(old, text, path))
    for path in stale_files():
        changed += 1
        rel = path.relative_to(REPO_ROOT).as_posix()
        if args.update:
            path.unlink()
            sys.stderr.write(f"removed {rel} (nothing generates it any more)\n")
        else:
            sys.stdout.write(f"stale golden: {rel}\n")
    verb = "changed" if args.update else "differ"
    sys.stderr.write(f"{len(outputs)} golden files, {changed} {verb}\n")
    return 0 if args.update or not changed else 1


if __name__ == "__main__":
    sys.exit(main())
