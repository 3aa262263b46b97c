"""Verdicts from the bytes on disk now: each file is checked by stat and re-indexed
when it changed, so a change the watcher has not seen yet is still caught."""

from __future__ import annotations

from indexer.digest import sha256

from .frames import HEADER_SUFFIX, header_content
from .protocol import messages as m


def verdicts(index, identities) -> list[m.Verdict]:
    out = []
    for identity in identities:
        # provider_id is the host's name for us, whatever it chose: judge by frame_id.
        is_header = identity.frame_id.endswith(HEADER_SUFFIX)
        node_id = identity.frame_id[: -len(HEADER_SUFFIX)] if is_header else identity.frame_id
        path = index.split_id(node_id)[0]
        # The repository is the boundary: an id naming a path outside it, or ignored,
        # names nothing, and nothing of it is read, hashed or kept.
        if not path or index.admit(path) != path or not index.ensure_fresh(path):
            out.append(m.Verdict(identity, m.GONE))
            continue
        node = index.store.node(node_id)
        current = node.content_digest if node is not None and node.kind != "file" else None
        if is_header and current is not None:
            found = header_content(index, node)  # derived content: recomputed from disk now
            current = sha256(found[0].encode("utf-8")) if found else None
        if current is None:
            out.append(m.Verdict(identity, m.GONE))
        elif identity.content_digest == current:
            out.append(m.Verdict(identity, m.VALID))
        else:
            # A mutated or foreign digest is stale, never valid.
            out.append(m.Verdict(identity, m.STALE, current))
    return out
