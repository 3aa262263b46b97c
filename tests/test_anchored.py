"""G4 over real pipes, on a repository where the question matches another file far
better than anything near the anchor: closeness and match alone would put that file
first; the anchored tier must still put every anchored frame above it, in order and
in score."""

from __future__ import annotations

import pytest

from .conftest import make_repo

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
