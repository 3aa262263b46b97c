"""The project's own mutation check: `tests/mutation/mutants.py` lists each promised
rule, a deliberate bug against it, and the tests that must catch it;
`python -m tests.mutation` proves they do (tests/mutation/README.md)."""
