"""What a file is about by its name alone: test_x.py, x_test.go, x.test.ts, x_spec.rb,
XTest.java and x.py are all about x. Ranking pairs a file with its tests and namesakes
by it (through indexer/graph.py); the store looks the candidates up by `file_stem`."""

from __future__ import annotations

from pathlib import PurePosixPath

_TEST_PREFIXES = ("test_", "tests_")
_TEST_SUFFIXES = ("_test", "_tests", "_spec", "Test", "Tests", "Spec")
_TEST_INFIXES = frozenset({"test", "spec"})  # x.test.ts, x.spec.js
_TEST_DIRS = frozenset({"test", "tests", "spec", "specs", "__tests__", "testdata"})  # express's test/req.ip.js


def test_subject(path: str) -> tuple[str, bool]:
    """(what the file is about, whether it is a test) by its name. A private
    module's underscore goes too, so _auth.py pairs with test_auth.py."""
    base, *rest = PurePosixPath(path).name.split(".")
    is_test = bool(_TEST_INFIXES.intersection(rest[:-1]))
    for prefix in _TEST_PREFIXES:
        if base.startswith(prefix) and len(base) > len(prefix):
            base, is_test = base[len(prefix) :], True
            break
    for suffix in _TEST_SUFFIXES:
        if base.endswith(suffix) and len(base) > len(suffix):
            base, is_test = base[: -len(suffix)], True
            break
    return base.lstrip("_").lower(), is_test


def stems_about(subject: str) -> list[str]:
    """Every file stem (`indexer.store.file_stem`) `test_subject` can read as
    `subject`: one prefix, one suffix, up to two leading underscores. A superset:
    the caller checks each path found with `test_subject` itself."""
    cores = [subject, "_" + subject, "__" + subject]
    prefixes = ("",) + _TEST_PREFIXES
    suffixes = ("",) + tuple(dict.fromkeys(s.lower() for s in _TEST_SUFFIXES))
    return [p + c + s for p in prefixes for c in cores for s in suffixes]


def is_test(path: str) -> bool:
    return test_subject(path)[1] or not _TEST_DIRS.isdisjoint(path.split("/")[:-1])
