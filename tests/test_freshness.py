"""What an answer checks on disk itself, with no watcher (`--no-watch`): each anchored
file before ranking, and each file a frame comes from before the frame is sent. The
repository's files were written an hour ago, so no answer re-reads them for having
been read too close to a write (RECENT_NS): only these checks can see an edit."""

from __future__ import annotations

import hashlib

import pytest

from .test_protocol import addressed_bytes, frames_of
from .test_watch import aged


@pytest.fixture
def unwatched(repo, provider_factory):
    p = provider_factory(aged(repo), args=["--no-watch"])
    p.handshake()
    assert frames_of(p.query(goal="retry policy delay"))  # the first index is done
    return p


def test_an_anchored_file_edited_since_the_index_is_read_again_before_ranking(unwatched, repo):
    config = repo / "src" / "config.py"
    config.write_text(config.read_text() + "\n\ndef jitter_window(attempt):\n    return attempt % 7\n")
    frames = frames_of(unwatched.query(goal="jitter window", anchors=["src/config.py"], max_frames=10))
    assert "src/config.py#jitter_window" in [f["id"] for f in frames]


def test_f5_a_frames_file_edited_since_the_index_is_read_again_before_it_is_sent(unwatched, repo):
    """Lines inserted above a method move it: a frame cut by the old line range would
    send the wrong lines, honestly digested."""
    config = repo / "src" / "config.py"
    moved = config.read_text().replace("DEFAULT_TIMEOUT = 30\n", "DEFAULT_TIMEOUT = 30\nRETRIES = 5\nJITTER = 2\n")
    config.write_text(moved.replace("2 ** attempt", "3 ** attempt"))
    frames = {f["id"]: f for f in frames_of(unwatched.query(goal="delay attempt", max_frames=10))}
    delay = frames["src/config.py#RetryPolicy.delay"]
    assert delay["content"].lstrip().startswith("def delay(self, attempt):") and "3 ** attempt" in delay["content"]
    (prov,) = delay["provenance"]
    assert addressed_bytes(prov["uri"], prov["range"]) == delay["content"].encode()
    assert prov["digest"] == "sha256:" + hashlib.sha256(delay["content"].encode()).hexdigest()
