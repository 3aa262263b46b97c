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
    Mutant(
        "B1-fit", "the sum of token_cost never exceeds max_tokens (B1)",
        "repo_graph/packing.py",
        "return None if spent + cost > max_tokens else (placed, cost)",
        "return (placed, cost)",
        "a frame is taken whether or not it fits what is left",
        ("tests/test_protocol.py::test_b1_b4_budgets_are_never_exceeded",),
    ),
    Mutant(
        "B4-frames", "never more than max_frames frames (B4)",
        "repo_graph/packing.py",
        "for rank, (path, build) in enumerate(candidates):\n        if len(chosen) >= max_frames or spent >= max_tokens:",
        "for rank, (path, build) in enumerate(candidates):\n        if spent >= max_tokens:",
        "the first pass forgets max_frames",
        ("tests/test_protocol.py::test_b1_b4_budgets_are_never_exceeded",),
    ),
    Mutant(
        "B-file-share", "no file takes more than half the budget while other files compete",
        "repo_graph/packing.py",
        "FILE_SHARE = 0.5",
        "FILE_SHARE = 1.0",
        "one file may take the whole budget",
        ("tests/test_protocol.py::test_b_one_file_does_not_take_the_whole_budget_when_others_are_relevant",),
    ),
    Mutant(
        "V-stale", "verify: a mutated or foreign digest is stale, never valid",
        "repo_graph/verify.py",
        "elif identity.content_digest == current:",
        "elif identity.content_digest.startswith(current):",
        "a digest that begins with the current one is valid",
        ("tests/test_protocol.py::test_verify_valid_then_mutated_digest_is_stale",),
    ),
    Mutant(
        "Q1-kinds", "with kinds, no frame of another kind (Q1)",
        "repo_graph/provider.py",
        "wanted = {NODE_KIND[k] for k in q.kinds if k in NODE_KIND} if q.kinds else set(NODE_KIND.values())",
        "wanted = set(NODE_KIND.values())",
        "kinds ignored",
        ("tests/test_protocol.py::test_q1_kinds_filter_returns_only_those_kinds",),
    ),
    Mutant(
        "as-of", "as_of: no frame valid after it",
        "repo_graph/provider.py",
        "if st is None or st.valid_from > q.as_of:",
        "if st is None:",
        "as_of ignored",
        ("tests/test_protocol.py::test_as_of_excludes_frames_valid_after_it",),
    ),
    Mutant(
        "H3-family", "another version family gets incompatible_version (H3)",
        "repo_graph/protocol/versions.py",
        "if family(host_version) != family(PROVIDER_VERSION):",
        "if False:",
        "any well-formed version is accepted",
        ("tests/test_protocol.py::test_h3_another_family_is_incompatible_version",),
    ),
    Mutant(
        "R1-object", "a line that is not a JSON object gets bad_request and serving goes on (R1)",
        "repo_graph/protocol/decode.py",
        "if not isinstance(envelope, dict):",
        "if False:",
        "a JSON array or string is taken for an envelope",
        ("tests/test_protocol.py::test_r1_bad_line_is_bad_request_and_serving_goes_on",),
    ),
    Mutant(
        "D1-content", "content_digest is sha256 of the content as sent (D1)",
        "repo_graph/frames.py",
        'content_digest = sha256(content.encode("utf-8"))  # D1',
        "content_digest = sha256(span)  # D1",
        "the digest of the bytes on disk, not of the content sent",
        ("tests/test_protocol.py::test_d1_f5_a_file_that_is_not_utf8_digests_the_content_sent_and_the_bytes_on_disk",),
    ),
    Mutant(
        "F5-range", "provenance names the exact line range its digest covers (F5)",
        "repo_graph/frames.py",
        'range=f"L{node.start_line}-{node.end_line}",',
        'range=f"L{node.start_line + 1}-{node.end_line}",',
        "the range starts a line late",
        ("tests/test_protocol.py::test_f5_file_provenance_rehashes_from_disk",),
    ),
    Mutant(
        "G4-one-sent", "at least one anchored frame when one exists (G4)",
        "repo_graph/ranking.py",
        "if unsent and not any(c.hop is not None and c.hop <= 1 for c in out):",
        "if False:",
        "every weak neighbour of the anchor held back, none kept",
        ("tests/test_anchored.py::test_g4_one_anchored_frame_is_sent_though_every_one_matches_less_than_the_rest",),
    ),
    Mutant(
        "history-pairs", "a pair committed together 1,000 commits back counts half",
        "indexer/history.py",
        "PAIR_HALF_LIFE = 1000",
        "PAIR_HALF_LIFE = 500",
        "the pairs' half-life halved",
        ("tests/test_history.py::test_co_changes_count_commits_that_changed_both",),
    ),
    Mutant(
        "history-recent", "recent changes count half per 100 commits back",
        "indexer/history.py",
        "RECENT_HALF_LIFE = 100",
        "RECENT_HALF_LIFE = 200",
        "the recent changes' half-life doubled",
        ("tests/test_history.py::test_recent_changes_count_each_commit_less_the_further_back_it_is",),
    ),
    Mutant(
        "history-said", "a commit of k files gives each k ** -0.5 of its message's words",
        "indexer/history.py",
        "SAID_SPREAD = 0.5",
        "SAID_SPREAD = 1.0",
        "a message spread thinner",
        ("tests/test_history.py::test_a_files_commit_messages_become_its_words",),
    ),
    Mutant(
        "bm25f-name", "BM25F: a name counts three times a body's word",
        "indexer/parse.py",
        "W_NAME = 3.0",
        "W_NAME = 2.0",
        "names weigh less",
        ("tests/test_indexer.py::test_postings_are_exact_per_node_and_leave_with_their_file",),
    ),
    Mutant(
        "priority-wait", "background work waits while a query is answered",
        "indexer/priority.py",
        "self._idle.wait(GIVE_WAY_SECONDS)",
        "return",
        "give_way never waits",
        ("tests/test_priority.py::test_background_work_waits_while_a_query_is_answered",),
    ),
    Mutant(
        "cli-dask", "repo-graph index --dask ADDRESS parses on that Dask cluster",
        "repo_graph/cli.py",
        "if args.dask:",
        "if False:",
        "--dask ignored: parsed here",
        ("tests/test_dask.py::test_index_dask_flag_parses_on_the_cluster_it_names",),
    ),
    Mutant(
        "unavailable", "a query waits for the first index up to 25 s, then gets unavailable",
        "repo_graph/provider.py",
        "if not self.index.ready.wait(max(0.0, deadline - time.monotonic())):",
        "if not self.index.ready.wait():",
        "the wait for the first index has no bound",
        ("tests/test_protocol.py::" + "test_a_query_that_waits_too_long_for_the_first_index_gets_unavailable_then_an_answer",),
    ),
]
