"""Git history: files committed together before rank as related to each other when
one of them is the open file; without anchors, a match in a file changed lately leads."""

from __future__ import annotations

import subprocess

import pytest

from indexer import history
from indexer.index import RepoIndex
from indexer.terms import terms
from indexer.watch import Watcher
from repo_graph import ranking
from repo_graph.ranking import related_files

from .conftest import make_repo
from .test_watch import eventually

# Nothing imports or names anything else: only history joins `billing` and `ledger`.
FILES = {
    "app/billing.py": "def charge(amount):\n    return amount\n",
    "app/ledger.py": "def record(entry):\n    return entry\n",
    "app/unrelated.py": "def noise():\n    return 0\n",
    "app/other.py": "def other():\n    return 1\n",
}


def git(repo, *args):
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        check=True,
        capture_output=True,
    )


def commit(repo, message, edits):
    for rel, text in edits.items():
        (repo / rel).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def commits(*ages):
    """What commits this many commits back count for a pair: README, "a pair committed
    together 1,000 commits back counting half" (PAIR_HALF_LIFE)."""
    return pytest.approx(sum(0.5 ** (age / 1000) for age in ages))


def history_repo(tmp_path):
    repo = make_repo(tmp_path / "repo", FILES)
    git(repo, "init", "-q")
    commit(repo, "start", {})
    for i in range(3):  # billing and ledger change together three times
        commit(
            repo,
            f"fees {i}",
            {
                "app/billing.py": f"def charge(amount):\n    return amount + {i}\n",
                "app/ledger.py": f"def record(entry):\n    return entry, {i}\n",
            },
        )
    commit(
        repo,
        "noise",
        {"app/unrelated.py": "def noise():\n    return 1\n", "app/other.py": "def other():\n    return 2\n"},
    )
    return repo


def test_co_changes_count_commits_that_changed_both(tmp_path):
    repo = history_repo(tmp_path)
    pairs = history.read(repo).pairs
    # Newest first: "noise" (0 commits back), three "fees" (1-3), "start" (4), which added all four files.
    assert pairs[("app/billing.py", "app/ledger.py")] == commits(1, 2, 3, 4)
    assert pairs[("app/other.py", "app/unrelated.py")] == commits(0, 4)
    assert pairs[("app/billing.py", "app/unrelated.py")] == commits(4)
    assert pairs[("app/billing.py", "app/unrelated.py")] < 1  # one commit, four back: a little less than one
    assert history.read(repo / "app").pairs[("billing.py", "ledger.py")] == commits(
        1, 2, 3, 4
    )  # relative to a subdirectory


def test_a_moved_file_keeps_the_history_it_had_under_its_old_name(tmp_path):
    """requests moved `requests/` to `src/requests/`: without following the move, its
    files' co-changes started over at the move (utils.py and adapters.py: 1 commit, 19 with it)."""
    repo = history_repo(tmp_path)
    (repo / "src").mkdir()
    git(repo, "mv", "app", "src/app")
    git(repo, "commit", "-q", "-m", "move")
    commit(
        repo,
        "fees again",
        {
            "src/app/billing.py": "def charge(amount):\n    return -amount\n",
            "src/app/ledger.py": "def record(entry):\n    return entry, -1\n",
        },
    )
    found = history.read(repo)
    assert found.pairs[("src/app/billing.py", "src/app/ledger.py")] == commits(0, 1, 3, 4, 5, 6)  # the move is 1
    assert ("app/billing.py", "app/ledger.py") not in found.pairs
    assert found.recent["src/app/billing.py"] > found.recent["src/app/other.py"] > 0
    assert not any(path.startswith("app/") for path in found.recent)
    (repo / "src" / "app" / "billing.py").rename(repo / "src" / "billing.py")  # moved twice: both names lead here
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "move billing up")
    assert history.read(repo).pairs[("src/app/ledger.py", "src/billing.py")] == commits(1, 2, 4, 5, 6, 7)


def test_recent_changes_count_each_commit_less_the_further_back_it_is(tmp_path):
    repo = history_repo(tmp_path)
    recent = history.read(repo).recent
    half = 100  # README: "each counting half per 100 commits back" (RECENT_HALF_LIFE)
    # Newest first: "noise" (0 commits back), three "fees" (1-3), "start" (4).
    assert recent["app/other.py"] == pytest.approx(1 + 0.5 ** (4 / half))
    assert recent["app/billing.py"] == pytest.approx(sum(0.5 ** (k / half) for k in (1, 2, 3, 4)))
    assert history.read(tmp_path).recent == {}  # not a git work tree: nothing, no error


def test_unanchored_a_match_in_a_file_changed_lately_leads(provider_factory, tmp_path):
    """Two files match the question alike; the one the last commits kept changing
    leads (W_RECENT), though the path order alone would put the other first."""
    same = "def retry_policy(attempts):\n    return attempts * {}\n"
    repo = make_repo(tmp_path / "repo", {"app/a_cold.py": same.format(1), "app/z_hot.py": same.format(1)})
    git(repo, "init", "-q")
    commit(repo, "start", {})
    for i in range(2, 5):
        commit(repo, f"tune {i}", {"app/z_hot.py": same.format(i)})
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="retry policy attempts", kinds=["symbol"], max_frames=4)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids.index("app/z_hot.py#retry_policy") < ids.index("app/a_cold.py#retry_policy")
    anchored = p.query(goal="retry policy attempts", kinds=["symbol"], max_frames=4, anchors=["app/a_cold.py"])[
        "result"
    ]["frames"]
    assert anchored[0]["id"] == "app/a_cold.py#retry_policy"  # an anchor's own neighbourhood decides, not history


def test_g3_a_file_committed_with_the_anchor_is_its_most_related(tmp_path):
    repo = history_repo(tmp_path)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    related = related_files(index, {"app/billing.py"})
    assert max(related, key=related.get) == "app/ledger.py"
    assert related["app/ledger.py"] > related["app/unrelated.py"]
    index.close()


def test_history_is_read_again_when_head_moves_and_absent_without_git(tmp_path):
    repo = history_repo(tmp_path)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    assert dict(index.store.co_changed("app/other.py")) == {
        "app/unrelated.py": commits(0, 4),
        "app/billing.py": commits(4),
        "app/ledger.py": commits(4),
    }
    commit(
        repo,
        "again",
        {"app/unrelated.py": "def noise():\n    return 2\n", "app/other.py": "def other():\n    return 3\n"},
    )
    index.refresh()
    assert dict(index.store.co_changed("app/other.py"))["app/unrelated.py"] == commits(0, 1, 5)
    # An index whose history was read under other rules (an older release's) reads it again, HEAD unmoved.
    # It kept whole counts then, and no messages: the table takes the weighed form, the messages come.
    with index.store.transaction():
        index.store.db.execute("DROP TABLE cochange")
        index.store.db.execute("CREATE TABLE cochange(a TEXT NOT NULL, b TEXT NOT NULL, n INTEGER NOT NULL)")
        index.store.db.execute("DROP TABLE said")
        index.store.db.execute("DROP TABLE said_files")
        index.store.set_meta("history_rules", "1")
    index.refresh()
    assert dict(index.store.co_changed("app/other.py"))["app/unrelated.py"] == commits(0, 1, 5)
    [noise] = terms("noise")
    assert (noise, "app/other.py") in [row[:2] for row in index.store.said_postings([noise])]
    declared = index.store.db.execute("SELECT sql FROM sqlite_master WHERE name='cochange'").fetchone()[0]
    assert "n REAL" in declared
    index.close()

    plain = make_repo(tmp_path / "plain", FILES)  # a tarball, not a checkout: no history, no error
    index = RepoIndex(plain, cache_dir=tmp_path / "cache2")
    index.refresh()
    assert index.store.co_changed("app/billing.py") == []
    index.close()


def test_the_watcher_reads_history_again_once_head_has_moved(tmp_path):
    repo = history_repo(tmp_path)
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    watcher = Watcher(index).start()
    try:
        commit(
            repo,
            "again",
            {"app/unrelated.py": "def noise():\n    return 2\n", "app/other.py": "def other():\n    return 3\n"},
        )
        (repo / "app" / "later.py").write_text("def later():\n    return 4\n")  # the next change after the commit
        eventually(
            lambda: dict(index.store.co_changed("app/other.py")).get("app/unrelated.py") == commits(0, 1, 5),
            "co-changes read again after the commit",
        )
    finally:
        watcher.stop()
        index.close()


def test_a_files_commit_messages_become_its_words(tmp_path):
    repo = history_repo(tmp_path)
    commit(
        repo,
        "Make the backoff jitter configurable\n\nSigned-off-by: Jane Roe <jane@example.com>\n"
        "See https://example.com/tracker/42",
        {"app/billing.py": "def charge(amount):\n    return amount * 2\n"},
    )
    sweep = {f"app/gen_{i}.py": f"X = {i}\n" for i in range(31)}  # README: "none from a commit of more than 30 files"
    commit(repo, "Regenerate the flamingo tables", sweep)
    words = history.read(repo).words
    assert words["app/billing.py"]["backoff"] == 1 and words["app/billing.py"]["jitter"] == 1
    # "fees 0", "fees 1", "fees 2" (stemmed, as the code's terms are), each of two files:
    # README, "a commit of k files giving each k ** -0.5 of its words" (SAID_SPREAD)
    assert words["app/billing.py"]["fee"] == pytest.approx(3 * 2**-0.5)
    assert not {"jane", "roe", "sign", "signed", "example", "tracker"} & set(words["app/billing.py"])  # trailers, links
    assert "app/ledger.py" in words and "backoff" not in words["app/ledger.py"]
    assert not any("flamingo" in said for said in words.values())  # a sweeping commit says nothing of each file
    # A message holding the separator and a tab: its lines are words, not files the commit changed.
    commit(repo, "Odd \x01 byte\n\nfake\tghost.py", {"app/other.py": "def other():\n    return 9\n"})
    found = history.read(repo)
    assert "ghost.py" not in found.recent and found.words["app/other.py"]["ghost"] == 1


def test_the_heaviest_message_terms_are_kept_when_there_are_too_many(tmp_path, monkeypatch):
    repo = history_repo(tmp_path)
    every = history.read(repo).words
    monkeypatch.setattr(history, "MAX_SAID_ROWS", 3)
    kept = history.read(repo).words
    assert sum(len(said) for said in kept.values()) == 3
    heaviest = sorted(((-n, path, term) for path, said in every.items() for term, n in said.items()))[:3]
    assert {(path, term) for _, path, term in heaviest} == {(p, t) for p, said in kept.items() for t in said}


def test_a_file_whose_past_changes_match_the_question_leads(provider_factory, tmp_path):
    """Two files match the question's words alike and changed as often; the one whose
    commits were about what the question asks leads (W_SAID), though the path order
    alone would put the other first. A file whose code shares no word with the question
    is still found by its messages (SAID_FILES)."""
    same = "def retry_policy(attempts):\n    return attempts * {}\n"
    repo = make_repo(
        tmp_path / "repo",
        {
            "app/a_plain.py": same.format(1),
            "app/z_said.py": same.format(1),
            "app/pump.py": "def spin(level):\n    return level\n",
            "app/valve.py": "def twist(turns):\n    return turns\n",
        },
    )
    git(repo, "init", "-q")
    commit(repo, "start", {})
    for i in range(2, 4):
        commit(repo, f"Cap the retry policy's exponential backoff, take {i}", {"app/z_said.py": same.format(i)})
        commit(repo, f"Tidy up, take {i}", {"app/a_plain.py": same.format(i)})
    commit(
        repo, "Throttle the sprinkler when the reservoir runs dry", {"app/pump.py": "def spin(level):\n    return 0\n"}
    )
    p = provider_factory(repo)
    p.handshake()
    frames = p.query(goal="retry policy exponential backoff", kinds=["symbol"], max_frames=4)["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids.index("app/z_said.py#retry_policy") < ids.index("app/a_plain.py#retry_policy")
    frames = p.query(goal="sprinkler reservoir", kinds=["symbol"], max_frames=2)["result"]["frames"]
    assert frames and frames[0]["id"] == "app/pump.py#spin"


def test_a_question_weighs_the_messages_less_than_a_change_does(tmp_path):
    """The same words as a change request and as a how-to question: the node whose file's
    commits spoke of them matches better for the change (W_SAID), the node whose file's
    commits did not, better for the question (W_SAID_QUESTION, a third as much)."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "app/client.py": "def connect_timeout(seconds):\n    return seconds\n",
            "app/plan.py": "def connect_timeout_plan(seconds):\n    return seconds\n",
        },
    )
    git(repo, "init", "-q")
    commit(repo, "start", {})
    commit(repo, "Fix the connect timeout", {"app/plan.py": "def connect_timeout_plan(seconds):\n    return 2\n"})
    index = RepoIndex(repo, cache_dir=tmp_path / "cache")
    index.refresh()
    rowid = index.store.rowids_of_ids(["app/client.py#connect_timeout", "app/plan.py#connect_timeout_plan"])

    def match(text, node):
        return ranking.lexical(index, text)[rowid[node]][0]

    change, question = "fix the connect timeout", "how do I fix the connect timeout?"
    assert terms(change) == terms(question)  # the same words either way
    assert match(change, "app/plan.py#connect_timeout_plan") > match(question, "app/plan.py#connect_timeout_plan")
    assert match(question, "app/client.py#connect_timeout") > match(change, "app/client.py#connect_timeout")
    index.close()
