"""The index's counts (files, nodes per kind, edges, languages), counted once and
kept in the meta table, each write moving them; and the fuller `index --stats`."""

from __future__ import annotations

import json
from collections import Counter

from .connection import Connection


def _count_file(delta: Counter, status: str, language: str | None, n: int) -> None:
    if status == "ok":
        delta["files"] += n
        if language is not None:
            delta["lang:" + language] += n


class Counts(Connection):
    def counts(self) -> dict[str, int]:
        """Files, nodes per kind, edges, languages. Counting scans every node row (~4 s
        on the kernel), so the answer is counted once and kept, each write moving it
        (`_tally`); a first index, loaded in bulk, counts once at the end."""
        with self.lock:
            kept = self._kept_counts()
            if kept is not None:
                return kept
            out = self._count()
            self.set_meta("counts", json.dumps(out))
        return out

    def _count(self) -> dict[str, int]:
        out = {"files": self.db.execute("SELECT count(*) FROM files WHERE status='ok'").fetchone()[0]}
        for kind, n in self.db.execute("SELECT kind, count(*) FROM nodes GROUP BY kind"):
            out[kind] = n
        # The structural edges without scanning the view (two passes over every node row:
        # seconds on the kernel): one `defines` per node, and one `contains` per node
        # whose parent is a symbol (an id with a fragment), read off the parent index,
        # less the top-level nodes of the rare files whose own name has a '#'.
        contains = self.db.execute(
            "SELECT (SELECT count(*) FROM nodes WHERE instr(parent, '#') > 0) - (SELECT count(*) FROM nodes "
            "WHERE parent = path AND path IN (SELECT path FROM files WHERE instr(path, '#') > 0))"
        ).fetchone()[0]
        defines = sum(n for kind, n in out.items() if kind not in ("files", "file"))
        out["edges"] = defines + contains + self.db.execute("SELECT count(*) FROM links").fetchone()[0]
        out["languages"] = {
            lang: n
            for lang, n in self.db.execute(
                "SELECT language, count(*) FROM files WHERE status='ok' AND language IS NOT NULL GROUP BY language"
            )
        }
        return out

    def _tally(self, counts: dict | None, delta: Counter) -> None:
        """Move the kept counts() by what one write added (or, negative, removed), inside
        its transaction: counting afresh scans every node row (seconds on the kernel).
        Without kept counts (a first index loads in bulk) there is nothing to move."""
        if counts is None or not delta:
            return
        for key, n in delta.items():
            into, key = (counts["languages"], key[5:]) if key.startswith("lang:") else (counts, key)
            into[key] = into.get(key, 0) + n
            if not into[key] and key not in ("files", "edges"):
                del into[key]  # as a fresh count has it: no row, no key
        self.set_meta("counts", json.dumps(counts))

    def _kept_counts(self) -> dict | None:
        kept = json.loads(self.get_meta("counts") or "null")
        return None if kept is None or "generation" in kept else kept  # that: counted by an older release

    def stats(self) -> dict[str, dict[str, int]]:
        """Counts per language, node kind and edge kind, for `index --stats`."""
        q = self.db.execute
        return {
            "files_by_language": dict(
                q("SELECT coalesce(language,'?'), count(*) FROM files WHERE status='ok' GROUP BY 1")
            ),
            "files_skipped": dict(q("SELECT status, count(*) FROM files WHERE status!='ok' GROUP BY 1")),
            "nodes_by_kind": dict(
                q(
                    "SELECT CASE kind WHEN 'symbol' THEN 'symbol:' || sym_kind ELSE kind END, count(*) "
                    "FROM nodes GROUP BY 1"
                )
            ),
            "symbols_by_language": dict(
                q(
                    "SELECT f.language, count(*) FROM nodes n JOIN files f ON f.path=n.path "
                    "WHERE n.kind='symbol' GROUP BY 1"
                )
            ),
            "edges_by_kind": dict(
                q("SELECT rel, count(*) FROM (SELECT rel FROM edges UNION ALL SELECT rel FROM links) GROUP BY 1")
            ),
            "unresolved_names": {"names_used_per_file": q("SELECT count(*) FROM used").fetchone()[0]},
        }
