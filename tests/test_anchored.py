"""G4 over real pipes, on a repository where the question matches another file far
better than anything near the anchor: closeness and match alone would put that file
first; the anchored tier must still put every anchored frame above it, in order and
in score."""

from __future__ import annotations

import pytest

from .conftest import MIXED, make_repo

FILES = {
    "app/settings.py": '''\
        """Application settings read at start-up."""

        DEBUG = False


        def load_settings(path):
            """Read the settings file at `path`."""
            return {"debug": DEBUG, "path": path}
        ''',
    "app/billing/invoice.py": '''\
        def round_invoice_tax(invoice):
            """Round the invoice tax to whole cents, half up."""
            return round(invoice.tax * 100) / 100


        def invoice_tax_rate(invoice):
            """The tax rate an invoice is charged at."""
            return invoice.rate
        ''',
    "app/main.py": """\
        from app.settings import load_settings


        def main():
            return load_settings("app.toml")
        """,
}
QUESTION = "round the invoice tax"


@pytest.fixture
def billing(tmp_path, provider_factory):
    repo = make_repo(tmp_path / "repo", FILES)
    p = provider_factory(repo)
    assert p.handshake()["type"] == "handshake_ack"
    return repo, p


def _frames(reply: dict) -> list[dict]:
    assert reply["type"] == "frames", reply
    return reply["result"]["frames"]


def anchored_by(frame: dict, anchor: str) -> bool:
    """PROTOCOL.md G4: its uri is the anchor, or one of its relations targets it."""
    return frame["uri"] == anchor or any(r["target_uri"] == anchor for r in frame["relations"])


def test_g4_anchored_frames_outrank_a_file_the_question_matches_far_better(billing):
    repo, p = billing
    plain = _frames(p.query(goal=QUESTION, max_frames=10))
    assert plain[0]["id"] == "app/billing/invoice.py#round_invoice_tax"  # what the words alone say
    anchor = (repo / "app" / "settings.py").as_uri()
    assert not any(anchored_by(f, anchor) for f in plain[:2])

    frames = _frames(p.query(goal=QUESTION, anchors=[anchor], max_frames=10))
    anchored = [f for f in frames if anchored_by(f, anchor)]
    others = [f for f in frames if not anchored_by(f, anchor)]
    assert anchored and others, [f["id"] for f in frames]
    assert "app/billing/invoice.py#round_invoice_tax" in {f["id"] for f in others}  # still sent, below
    assert frames[: len(anchored)] == anchored, f"anchored frames are not first: {[f['id'] for f in frames]}"
    lowest_anchored = min(f["score"] for f in anchored)
    assert all(f["score"] < lowest_anchored for f in others), [(f["id"], f["score"]) for f in frames]
    scores = [f["score"] for f in frames]
    assert scores == sorted(scores, reverse=True)  # ranked: best first, as the scores say


def test_g4_one_anchored_frame_is_sent_though_every_one_matches_less_than_the_rest(tmp_path, provider_factory):
    """Docs only, anchored on a file that only the README's "Settings" section names: that
    section is the one anchored frame, and the question matches another doc better. A
    neighbour that weak is held back, but G4 wants one anchored frame when one exists."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "src/settings.py": "value = 1\n",
            "README.md": "# Project\n\nA small project.\n\n## Settings\n\nThe value lives in `src/settings.py`.\n",
            "docs/billing.md": "# Invoice tax\n\nRound the invoice tax to whole cents, half up, before the total.\n",
        },
    )
    p = provider_factory(repo)
    p.handshake()
    anchor = (repo / "src" / "settings.py").as_uri()
    plain = _frames(p.query(goal=QUESTION, kinds=["doc"], max_frames=5))
    assert plain[0]["id"] == "docs/billing.md#invoice-tax"
    frames = _frames(p.query(goal=QUESTION, kinds=["doc"], anchors=[anchor], max_frames=5))
    assert [f["id"] for f in frames if anchored_by(f, anchor)] == ["README.md#settings"]
    assert frames[0]["id"] == "README.md#settings"


def test_g4_an_anchored_file_gives_at_most_two_frames_of_its_own(repo, provider_factory):
    """The README: frames from an anchored file itself are capped at two (the host has
    it open; the budget goes to its neighbours). Most symbols of src/config.py match the
    question, and unanchored it sends five of them."""
    p = provider_factory(repo)
    p.handshake()
    goal = "retry policy delay attempt config"
    plain = _frames(p.query(goal=goal, max_frames=8))
    assert sum(f["id"].startswith("src/config.py#") for f in plain) > 2  # unanchored, the file would take more
    frames = _frames(p.query(goal=goal, anchors=["src/config.py"], max_frames=8))
    from_the_file = [f["id"] for f in frames if f["id"].startswith("src/config.py#")]
    assert 1 <= len(from_the_file) <= 2, [f["id"] for f in frames]
    assert len(frames) > len(from_the_file)  # the rest went to other files


def test_g4_anchored_file_leads_to_its_imports_and_callers(provider_factory, tmp_path):
    repo = make_repo(tmp_path / "mixed", MIXED)
    p = provider_factory(repo)
    p.handshake()
    reply = p.query(goal="helper", anchors=["pkg/b.py"], max_frames=10)
    frames = reply["result"]["frames"]
    rels = {(r["rel"], r["target_uri"]) for f in frames for r in f["relations"]}
    assert ("repo-graph:called-by", (repo / "pkg/a.py").as_uri() + "#run") in rels
    assert ("repo-graph:imported-by", (repo / "pkg/a.py").as_uri()) in rels
    reply = p.query(goal="run", anchors=["pkg/a.py"], max_frames=10)
    rels = {(r["rel"], r["target_uri"]) for f in reply["result"]["frames"] for r in f["relations"]}
    assert ("code.imports", (repo / "pkg/b.py").as_uri()) in rels
    assert ("code.calls", (repo / "pkg/b.py").as_uri() + "#helper") in rels
    for _, target in sorted(rels):
        frames = p.query(goal="run", anchors=[target])["result"]["frames"]
        assert frames and (
            frames[0]["uri"] == target or any(r["target_uri"] == target for r in frames[0]["relations"])
        ), target


@pytest.mark.parametrize(
    "anchor,goal",
    [("pkg/b.py", "other"), ("pkg/c.py", "run helper"), ("csrc/sub/util.h", "main"), ("web/util.ts", "main lib")],
)
def test_g4_every_frame_whose_relations_reach_the_anchor_ranks_above_the_rest(provider_factory, tmp_path, anchor, goal):
    """Anchored is what the frame shows: its uri is the anchor or one of its relations
    targets it. A module frame speaks for its file, so the file's imports make it
    anchored however far the module node itself is from the anchor."""
    repo = make_repo(tmp_path / "mixed", MIXED)
    p = provider_factory(repo)
    p.handshake()
    target = (repo / anchor).as_uri()
    frames = p.query(goal=goal, anchors=[target], max_frames=30, max_tokens=20000)["result"]["frames"]
    anchored = [f["uri"] == target or any(r["target_uri"] == target for r in f["relations"]) for f in frames]
    assert anchored and anchored[0]
    assert anchored == sorted(anchored, reverse=True), [(f["id"], a) for f, a in zip(frames, anchored)]


def test_g4_what_the_open_file_imports_is_sent_and_anchored(provider_factory, tmp_path):
    """pkg/b.py has no header: its top-level `helper` speaks for it, so the frame shows
    that pkg/a.py imports its file; anchored on a.py it is sent, among the anchored."""
    repo = make_repo(tmp_path / "mixed", MIXED)
    p = provider_factory(repo)
    p.handshake()
    target = (repo / "pkg/a.py").as_uri()
    frames = p.query(goal="unrelated words", anchors=[target], max_frames=30, max_tokens=20000)["result"]["frames"]
    helper = next(f for f in frames if f["id"] == "pkg/b.py#helper")
    assert any(r["target_uri"] == target for r in helper["relations"])
    assert all(
        any(r["target_uri"] == target for r in f["relations"]) or f["uri"] == target
        for f in frames[: frames.index(helper)]
    )


def test_g4_an_anchored_neighbour_is_sent_only_when_it_earns_its_place(provider_factory, tmp_path):
    """Anchored frames outrank the rest (G4), so a neighbour in another file is sent
    only when it is worth that place. For a change, the fused score must put it at
    least as high as the best frame outside the tier (NEIGHBOUR_BAR): `format_bytes`,
    imported by the open file, matches through its docstring but less than
    `retry_policy_attempts`, no neighbour. For a question, it must match
    (ANCHORED_NEIGHBOUR_MATCH): `now` matches nothing."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "app/__init__.py": "",
            "app/open.py": "from app.util import format_bytes\nfrom app.retry import backoff\nfrom app.clock import now\n\n"
            "def download(url):\n    return format_bytes(backoff(url), now())\n",
            "app/util.py": 'def format_bytes(n, at):\n    """Bytes as text, for the retry policy log."""\n    return str(n)\n',
            "app/clock.py": "def now():\n    return 0\n",
            "app/retry.py": 'def backoff(n):\n    """Wait longer after each failed attempt: the retry policy."""\n    return n\n',
            "app/policy.py": "def retry_policy_attempts(attempts):\n"
            '    """How many attempts the retry policy makes before it gives up."""\n    return attempts\n',
        },
    )
    p = provider_factory(repo)
    p.handshake()
    target = (repo / "app/open.py").as_uri()
    for goal in ("retry policy attempts", "how many attempts does the retry policy make?"):
        frames = p.query(goal=goal, anchors=[target], kinds=["symbol"], max_frames=30, max_tokens=20000)["result"][
            "frames"
        ]
        ids = [f["id"] for f in frames]
        assert "app/clock.py#now" not in ids, goal
        assert ids.index("app/retry.py#backoff") < ids.index("app/policy.py#retry_policy_attempts"), goal
        anchored = [f["uri"] == target or any(r["target_uri"] == target for r in f["relations"]) for f in frames]
        assert anchored[0] and anchored == sorted(anchored, reverse=True), goal
        if goal == "retry policy attempts":
            assert "app/util.py#format_bytes" not in ids
    # Asked for by name, it is the best match; for a question that matches nothing, the
    # open file's neighbours are all there is to go by.
    frames = p.query(goal="format bytes", anchors=[target], kinds=["symbol"], max_frames=30)["result"]["frames"]
    assert frames[0]["id"] == "app/util.py#format_bytes"
    frames = p.query(goal="zzz", anchors=[target], kinds=["symbol"], max_frames=30)["result"]["frames"]
    assert {"app/util.py#format_bytes", "app/clock.py#now"} <= {f["id"] for f in frames}


def test_an_open_file_incidental_to_the_change_does_not_bury_its_best_answer(provider_factory, tmp_path):
    """The open file's five siblings each match the change's words in part, and its
    folder makes them close; `rotate_log_files_daily`, far from it, matches them all.
    Closeness alone puts it after the five; the order without anchors, which puts it
    first, has a vote in the fusion below the anchored tier (`_hedged`), and it comes
    before two of them. The anchored tier stays first (G4), the scores best first."""
    files = {
        "app/__init__.py": "",
        "app/open.py": "def start(server):\n    return server.run()\n",
        "lib/rotate.py": "def rotate_log_files_daily(paths):\n"
        '    """Rotate the log files once a day, at midnight."""\n    return paths\n',
    }
    for name in ("audit", "trace", "events", "errors", "access"):
        files[f"app/{name}.py"] = (
            f'def {name}_log_files(folder):\n    """The {name} log files written daily."""\n    return folder\n'
        )
    for i in range(20):
        files[f"other/m{i}.py"] = f"def handler_{i}(request):\n    return request\n"
    repo = make_repo(tmp_path / "repo", files)
    p = provider_factory(repo)
    p.handshake()
    target = (repo / "app/open.py").as_uri()
    frames = p.query(
        goal="Rotate the log files daily", anchors=[target], kinds=["symbol"], max_frames=10, max_tokens=20000
    )["result"]["frames"]
    ids = [f["id"] for f in frames]
    assert ids[0] == "app/open.py#start"
    siblings = [i for i, frame_id in enumerate(ids) if frame_id.endswith("_log_files")]
    assert len(siblings) == 5 and sum(i > ids.index("lib/rotate.py#rotate_log_files_daily") for i in siblings) >= 2
    scores = [f["score"] for f in frames]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
