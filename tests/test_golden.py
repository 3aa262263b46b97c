"""Golden files, compared and never rewritten here (see tests/golden/__init__.py).

* `grammars/<lang>/example.tags`: the extractor's symbols, references and imports for
  each language's example file.
* `tests/golden/<case>.in.ndjson` -> `<case>.out.ndjson`: the provider's replies over
  real pipes, volatile values replaced by `<REPO>`, `<TIME>`, `<VERSION>`; every reply
  is also checked against the protocol's JSON Schema.

On a mismatch the failure shows a unified diff. If the change is intended, run
`python -m tests.golden --update` from the repository root and review the diff.
"""

from __future__ import annotations

import pytest

from tests import golden
from tests.conftest import assert_schema_valid

EXAMPLES = golden.example_files()
CASES = golden.wire_cases()
REQUIRED_CASES = {"handshake_query_shutdown", "verify", "errors"}


def _compare(path, actual: str) -> None:
    if not path.exists():
        pytest.fail(
            f"{path.relative_to(golden.REPO_ROOT).as_posix()} is missing; "
            f"run `{golden.UPDATE_COMMAND}` and review the new file"
        )
    expected = path.read_text(encoding="utf-8")
    if expected != actual:
        pytest.fail(golden.mismatch_message(path, expected, actual), pytrace=False)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.parent.name)
def test_language_tags_match_golden(example):
    _compare(golden.tags_path(example), golden.render_tags(example))


def test_every_registered_language_has_its_example_compared():
    """Each language the registry parses (test_languages: the README's 22, with OCaml's
    interfaces) has its example and golden tags here. (This asked for 14 examples: the
    count when it was written, never raised as languages came.)"""
    from grammars import Registry

    folders = {spec.folder.resolve() for spec in Registry().languages.values()}
    assert {example.parent.resolve() for example in EXAMPLES} == folders


def test_required_wire_cases_exist():
    missing = REQUIRED_CASES - set(CASES)
    assert not missing, f"wire golden inputs missing: {sorted(missing)}"


@pytest.mark.parametrize("case", CASES)
def test_wire_replies_match_golden(case, tmp_path, envelope_validator):
    run = golden.run_wire(golden.read_in_lines(case), tmp_path)
    assert run.returncode == 0, f"provider exited {run.returncode}; stderr:\n{run.stderr}"
    for envelope in run.replies:  # as emitted, before placeholders
        assert_schema_valid(envelope_validator, envelope)
        if envelope.get("type") == "frames":  # the golden writes <SCORE>: the scores are checked here
            scores = [f["score"] for f in envelope["result"]["frames"]]
            assert all(0 <= x <= 1 for x in scores) and scores == sorted(scores, reverse=True), scores
    _compare(golden.out_path(case), "\n".join(run.lines) + "\n")


def test_no_stale_golden_files():
    stale = [p.relative_to(golden.REPO_ROOT).as_posix() for p in golden.stale_files()]
    assert not stale, f"golden files nothing generates any more: {stale}; run `{golden.UPDATE_COMMAND}`"
