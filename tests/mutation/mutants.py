"""Each rule the README promises, a deliberate bug against it (an exact replacement in
one source file) and the tests that must fail with it. `python -m tests.mutation`
applies each in a scratch copy and fails when the tests pass anyway, or when the old
text is gone from the code (then this table must follow the code: a new place for the
rule, a new bug, never a deleted row without a reason in the commit).

Tests are pytest node ids, run in order with `-x`: put the fastest catcher first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    id: str  # the rule's id, then a word: B3-bytes
    rule: str  # the promise, as the README says it
    file: str  # repository-relative
    old: str  # must occur exactly once in `file`
    new: str
    bug: str  # the bug in words
    tests: tuple[str, ...]


MUTANTS: list[Mutant] = [
    Mutant(
        "B3-bytes", "token_cost is ceil(utf8 bytes / 4) of content",
        "repo_graph/packing.py",
        'return (len(content.encode("utf-8")) + 3) // 4',
        "return (len(content) + 3) // 4",
        "count characters instead of UTF-8 bytes",
        ("tests/test_budget.py::test_b3_token_cost_counts_utf8_bytes_not_characters",),
    ),
    Mutant(
        "B1-real", "the answer fits max_tokens in both units (each frame charged the larger)",
        "repo_graph/packing.py",
        "return max(frame.token_cost, frame.canonical_token_cost or 0)",
        "return frame.token_cost",
        "charge token_cost only, ignore the real count",
        ("tests/test_budget.py::test_b1_the_answer_fits_the_budget_in_real_tokens_where_they_exceed_bytes_over_four",),
    ),
    Mutant(
        "G4-tier-score", "anchored frames rank above the rest (G4), by their scores too",
        "repo_graph/ranking.py",
        "tiered = 0.5 + 0.5 * fused if hop is not None and hop <= 1 else 0.5 * fused",
        "tiered = fused",
        "no anchored tier in the score: the fused score alone",
        ("tests/test_anchored.py::test_g4_anchored_frames_outrank_a_file_the_question_matches_far_better",),
    ),
    Mutant(
        "G4-tier-order", "anchored frames rank above the rest (G4)",
        "repo_graph/ranking.py",
        "upper = [c for c in out if c.hop is not None and c.hop <= 1]",
        "upper = []",
        "the hedge re-deals the anchored tier with the rest",
        ("tests/test_anchored.py::test_g4_anchored_frames_outrank_a_file_the_question_matches_far_better",),
    ),
    Mutant(
        "stdout-guard", "stdout carries envelopes only: a stray print (ours, a library's, a child's) goes to stderr",
        "repo_graph/transports/stdio.py",
        "    os.dup2(2, 1)\n    sys.stdout = sys.stderr\n",
        "",
        "no fd 1 guard: the wire and everything else share fd 1",
        ("tests/test_protocol.py::test_stdout_carries_only_envelopes_though_library_code_and_a_child_print_mid_query",),
    ),
    Mutant(
        "walk-binary", "binary files are skipped, whatever extension they claim",
        "indexer/parse.py",
        r'return b"\x00" in data[:BINARY_SNIFF]',
        "return False",
        "is_binary always false",
        ("tests/test_cli.py::test_a_binary_file_under_a_claimed_extension_is_skipped",),
    ),
    Mutant(
        "walk-exclude", "the tree as git sees it: .git/info/exclude",
        "indexer/walk.py",
        r'spec = self._cached("\0exclude", ".git", "info", "exclude")',
        "spec = None",
        ".git/info/exclude never read",
        ("tests/test_indexer.py::test_walk_sees_the_tree_as_git_does_info_exclude_nested_rules_and_negations",),
    ),
    Mutant(
        "walk-negation", "the tree as git sees it: a deeper .gitignore's negation wins",
        "indexer/walk.py",
        "for base, spec in reversed(rules):",
        "for base, spec in rules:",
        "the shallowest rule file wins",
        ("tests/test_indexer.py::test_walk_honours_nested_gitignore_and_negation",
         "tests/test_indexer.py::test_walk_sees_the_tree_as_git_does_info_exclude_nested_rules_and_negations"),
    ),
    Mutant(
        "cli-max-file-bytes", "files over 1 MiB are skipped; --max-file-bytes moves the cap",
        "repo_graph/cli.py",
        "max_file_bytes=args.max_file_bytes, ",
        "",
        "--max-file-bytes parsed but not passed on",
        ("tests/test_cli.py::test_max_file_bytes_moves_the_size_cap",),
    ),
    Mutant(
        "cli-stats", "index --stats prints seconds per phase and counts per language, node kind, edge kind",
        "repo_graph/cli.py",
        "stats = index.store.stats() if args.stats else None",
        "stats = None",
        "--stats ignored",
        ("tests/test_cli.py::test_stats_prints_seconds_per_phase_and_counts_per_language_node_kind_and_edge_kind",),
    ),
    Mutant(
        "cache-xdg", "the cache is under $XDG_CACHE_HOME when it is set",
        "indexer/store.py",
        'xdg = os.environ.get("XDG_CACHE_HOME")',
        "xdg = None",
        "$XDG_CACHE_HOME ignored",
        ("tests/test_cli.py::test_the_cache_follows_xdg_cache_home_unless_told_otherwise",),
    ),
    Mutant(
        "watch-serve", "serve watches the tree: edits, new files, deletions, moves, .gitignore edits are followed",
        "repo_graph/provider.py",
        "if watch:  # watch before catching up",
        "if False:  # watch before catching up",
        "serve never starts the watcher (the per-query disk check alone)",
        tuple(f"tests/test_watch.py::{name}" for name in (
            "test_an_edit_is_served_though_no_answer_drew_from_the_edited_file",
            "test_a_deleted_file_leaves_the_relations_of_the_frames_that_named_it",
            "test_renamed_file_serves_frames_under_the_new_path",
            "test_new_file_in_a_new_directory_is_found",
            "test_atomic_save_is_found_once",
            "test_gitignore_addition_removes_its_frames",
            "test_directory_move_and_delete_are_followed",
        )),
    ),
    Mutant(
        "crash-repair", "a crash (even kill -9) between writing files and resolving their links is repaired next start",
        "indexer/index.py",
        'resolving them all again\\n")\n        for path in self.store.indexed_files():\n            self._touch(path, ())\n',
        'resolving them all again\\n")\n',
        "the owed links are announced but never resolved again (repair is a no-op)",
        ("tests/test_persistence.py::test_a_sigkill_while_links_are_resolved_is_repaired_by_the_next_run",),
    ),
]
