"""A frame's relations over real pipes when hundreds of links lead into its node: only
the first few are read (frames.IN_EDGES_READ), and an anchor's link past them still
sorts first, as a full read would give it (PROTOCOL.md G4: an anchored frame's
relations name the anchor)."""

from __future__ import annotations

from .conftest import make_repo

CALLERS = 300


def _repo(root):
    files = {
        "lib/__init__.py": "",
        "lib/core.py": "def settle_ledger(entries):\n    return sum(entries)\n",
        "zz/open_books.py": "from lib.core import settle_ledger\n\n\ndef close_books(entries):\n"
        "    return settle_ledger(entries)\n",
    }
    for i in range(CALLERS):
        files[f"callers/c{i:03}.py"] = (
            f"from lib.core import settle_ledger\n\n\ndef use_{i:03}(entries):\n    return settle_ledger(entries)\n"
        )
    return make_repo(root, files)


def _frame(reply: dict, frame_id: str) -> dict:
    assert reply["type"] == "frames", reply
    found = [f for f in reply["result"]["frames"] if f["id"] == frame_id]
    assert found, [f["id"] for f in reply["result"]["frames"]]
    return found[0]


def test_an_anchors_relation_is_kept_among_hundreds_of_links(tmp_path, provider_factory):
    repo = _repo(tmp_path / "repo")
    p = provider_factory(repo)
    p.handshake()
    anchor = (repo / "zz" / "open_books.py").as_uri()
    frame = _frame(p.query(goal="settle ledger", anchors=[anchor], max_frames=4), "lib/core.py#settle_ledger")
    targets = [r["target_uri"] for r in frame["relations"]]
    assert len(targets) == 24  # MAX_RELATIONS: most links into it are not named
    assert anchor in targets  # the anchor's import of lib/core.py is, though hundreds came before it
    plain = _frame(p.query(goal="settle ledger", max_frames=4), "lib/core.py#settle_ledger")
    assert anchor not in [r["target_uri"] for r in plain["relations"]]  # without the anchor, it sorts with the rest
