"""What made each score, gathered as the pipeline runs when `rank(..., explain=True)`
asks, and nothing gathered otherwise: every step takes `trace=None` by default."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .candidate import Why

if TYPE_CHECKING:
    from indexer.graph import NodeRow


@dataclass
class Trace:
    """One ranking's record; lives as long as the call that made it."""

    raw_match: dict[int, float] = field(default_factory=dict)  # node rowid -> match before any factor
    by_file: dict[str, list[tuple[str, float]]] = field(default_factory=lambda: defaultdict(list))
    by_rowid: dict[int, list[tuple[str, float]]] = field(default_factory=lambda: defaultdict(list))
    by_node: dict[str, list[tuple[str, float]]] = field(default_factory=lambda: defaultdict(list))
    notes: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    rowid_of: dict[str, int] = field(default_factory=dict)  # node id -> rowid, for the candidates that matched
    rowid_notes: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    scored: dict[str, tuple[dict[str, float], str]] = field(default_factory=dict)  # node id -> (signals, tier)

    def factor(self, key: str | int, name: str, value: float, *, file: bool = False) -> None:
        """Record a factor put on a match: by path (file=True), node rowid or node id."""
        if file:
            self.by_file[str(key)].append((name, value))
        elif isinstance(key, int):
            self.by_rowid[key].append((name, value))
        else:
            self.by_node[key].append((name, value))

    def note(self, node_id: str, text: str) -> None:
        self.notes[node_id].append(text)

    def note_rowid(self, rowid: int, text: str) -> None:
        self.rowid_notes[rowid].append(text)

    def why(self, node: NodeRow, signals: dict[str, float], tier: str) -> Why:
        rowid = self.rowid_of.get(node.id)
        lexical = rowid in self.raw_match  # the file's factors are on matches made in lexical.py only
        factors = [
            *(self.by_file.get(node.path, ()) if lexical else ()),
            *(self.by_rowid.get(rowid, ()) if rowid is not None else ()),
            *self.by_node.get(node.id, ()),
        ]
        if factors and lexical and rowid is not None:
            signals = {"match before factors": self.raw_match[rowid], **signals}
        notes = [*(self.rowid_notes.get(rowid, ()) if rowid is not None else ()), *self.notes.get(node.id, ())]
        return Why(signals, tuple(factors), tier, tuple(notes))
