"""benchmarks/cases/check_questions.py: each rule of a questions file is enforced, run as a person runs it."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "cases" / "check_questions.py"
sys.path.insert(0, str(SCRIPT.parent))

import check_questions  # noqa: E402


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def _mirrors(tmp_path: Path) -> tuple[Path, str]:
    """A mirrors folder holding acme/shop (two commits) as a bare git dir, the fetch tool's owner+name/repo layout."""
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "tests").mkdir()
    (work / "src" / "cart.py").write_text("def total(items):\n    return sum(items)\n")
    (work / "tests" / "test_cart.py").write_text("def test_total():\n    pass\n")
    _git(work, "init", "-q")
    _git(work, "add", ".")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    (work / "src" / "cart.py").write_text("def total(items):\n    return sum(items, 0)\n")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "two")
    ref = _git(work, "rev-parse", "HEAD")
    mirrors = tmp_path / "mirrors"
    (mirrors / "acme+shop").mkdir(parents=True)
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(work), str(mirrors / "acme+shop" / "repo")],
        check=True,
        capture_output=True,
    )
    return mirrors, ref


def _case(at: str, n: int, **changes) -> dict:
    case = {
        "id": f"shop-q{n}",
        "repo": "acme/shop",
        "ref": at,
        "kind": "how",
        "plain": True,
        "question": f"How is the price of everything in the basket added up, case {n}?",
        "gold": ["src/cart.py"],
        "why_gold": "the cart module sums the items",
    }
    case.update(changes)
    return case


def _run(tmp_path: Path, mirrors: Path, cases: list[dict], *extra: str) -> subprocess.CompletedProcess:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path), "--mirrors", str(mirrors), *extra], capture_output=True, text=True
    )


def test_a_valid_file_passes_and_is_counted(tmp_path):
    mirrors, ref = _mirrors(tmp_path)
    cases = [_case(ref, 1), _case(ref, 2, plain=False, kind="where", question="Where is total() defined?")]
    done = _run(tmp_path, mirrors, cases)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-1] == "ok"
    assert "2 questions, 1 repositories" in done.stdout
    assert "kind: how 1, where 1, why 0" in done.stdout


def test_each_broken_rule_is_reported(tmp_path):
    mirrors, ref = _mirrors(tmp_path)
    broken = {
        "identifier": _case(ref, 1, question="How does cart_total work?"),
        "missing gold": _case(ref, 2, gold=["src/basket.py"]),
        "test gold": _case(ref, 3, gold=["tests/test_cart.py"]),
        "kind": _case(ref, 4, kind="what"),
        "ref": _case(ref, 5, ref="0" * 40),
        "four gold": _case(ref, 6, gold=["src/cart.py", "a", "b", "c"]),
        "extra field": _case(ref, 7, note="x"),
        "bad id": _case(ref, 8, id="shop-8"),
    }
    expected = {
        "identifier": "plain question holds an identifier (snake_case: 'cart_total')",
        "missing gold": "gold 'src/basket.py' does not exist",
        "test gold": "gold 'tests/test_cart.py' is a test, doc or example",
        "kind": "kind 'what' is not one of how, where, why",
        "ref": "is not a commit of acme/shop",
        "four gold": "gold must be 1-3 distinct non-empty paths",
        "extra field": "unknown fields: note",
        "bad id": "id 'shop-8' is not <repo-short>-q<N>",
    }
    for name, case in broken.items():
        done = _run(tmp_path, mirrors, [_case(ref, 90), case])
        assert done.returncode == 1, name
        assert expected[name] in done.stdout, (name, done.stdout)


def test_repeats_a_second_pin_and_too_few_plain_questions_are_reported(tmp_path):
    mirrors, ref = _mirrors(tmp_path)
    done = _run(tmp_path, mirrors, [_case(ref, 1), _case(ref, 1, question="How else?")])
    assert done.returncode == 1 and "id shop-q1 repeats line 1" in done.stdout
    done = _run(tmp_path, mirrors, [_case(ref, 1), _case(ref, 2, question=_case(ref, 1)["question"])])
    assert done.returncode == 1 and "question repeats line 1" in done.stdout
    older = _git(mirrors / "acme+shop" / "repo", "rev-parse", "HEAD~1")
    done = _run(tmp_path, mirrors, [_case(ref, 1), _case(older, 2)])
    assert done.returncode == 1 and f"acme/shop is pinned to {ref[:12]} on an earlier line" in done.stdout
    not_plain = [_case(ref, n, plain=False) for n in (2, 3)]
    done = _run(tmp_path, mirrors, [_case(ref, 1), *not_plain])
    assert done.returncode == 1 and "1 of 3 questions plain, under 50%" in done.stdout
    assert _run(tmp_path, mirrors, [_case(ref, 1), *not_plain], "--min-plain", "0.3").returncode == 0


def test_a_work_tree_mirror_is_read_too(tmp_path):
    mirrors, ref = _mirrors(tmp_path)
    (mirrors / "acme+shop" / "repo").rename(tmp_path / "bare")
    (mirrors / "acme+shop").rmdir()
    (tmp_path / "work").rename(mirrors / "acme+shop")
    assert _run(tmp_path, mirrors, [_case(ref, 1)]).returncode == 0


def test_identifier_heuristic():
    flagged = {
        "Why does getJSONResponse fail?": "CamelCase",
        "How does HttpClient retry?": "CamelCase",
        "Where is max_content_length read?": "snake_case",
        "Why is __init__ slow?": "snake_case",
        "How does app.config load?": "dotted.name",
        "Where is `run` defined?": "`code`",
        "Why does render() fail?": "call()",
        "What does --no-ignore do?": "--option",
        "Where is cli.py loaded?": "dotted.name",
        "How does Command::find work?": "::path",
    }
    for text, kind in flagged.items():
        found = check_questions.identifier_tokens(text)
        assert any(f.startswith(kind) for f in found), (text, found)
    for text in (
        "Why does my POST turn into a GET after a redirect?",
        "How do I send JSON over HTTP to a non-standard port, version 1.0?",
        "Why doesn't the built-in parser accept numbers like 1.5e10?",
        "Where are case-insensitive matches handled, and why?",
    ):
        assert check_questions.identifier_tokens(text) == [], text


def test_the_tuning_file_is_green():
    """The committed tuning questions pass, when the mirrors they name are on this machine."""
    cases = [json.loads(line) for line in (SCRIPT.parent / "questions-tuning.jsonl").read_text().splitlines()]
    mirrors = Path("/work/.mirror")
    if not all(check_questions.git_args(mirrors, c["repo"]) for c in cases):
        import pytest

        pytest.skip("the mirrors of the tuning repositories are not on this machine")
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
