"""Verdicts from the bytes on disk now: each file is checked by stat and re-indexed
when it changed, so a change the watcher has not seen yet is still caught."""

from __future__ import annotations

from .protocol import messages as m


def verdicts(index, identities) -> list[m.Verdict]:
    out = []
    for identity in identities:
        # provider_id is the host's name for us, whatever it chose: judge by frame_id.
        path = identity.frame_id.partition("#")[0]
        if not path or not index.ensure_fresh(path):
            out.append(m.Verdict(identity, m.GONE))
            continue
        node = index.store.node(identity.frame_id)
        if node is None or node.kind == "file":
            out.append(m.Verdict(identity, m.GONE))
        elif identity.content_digest == node.content_digest:
            out.append(m.Verdict(identity, m.VALID))
        else:
            # A mutated or foreign digest is stale, never valid.
            out.append(m.Verdict(identity, m.STALE, node.content_digest))
    return out
