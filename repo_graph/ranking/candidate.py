"""A ranked node and, when asked (`rank(..., explain=True)`), what made its score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.graph import NodeRow


@dataclass(frozen=True)
class Why:
    """The signals behind one score and the factors the adjustments put on its match,
    in the order they were applied; `tier` is where G4 placed it, `notes` what the
    tiers did besides (a neighbour carrying its file's edge, the hedge, the guide)."""

    signals: Mapping[str, float]
    factors: tuple[tuple[str, float], ...]
    tier: str
    notes: tuple[str, ...] = ()

    def text(self) -> str:
        """One line for a human (`repo-graph query --explain`)."""
        signals = ", ".join(f"{k} {v:.3f}" for k, v in self.signals.items())
        factors = ", ".join(f"{k} x{v:.3g}" for k, v in self.factors)
        notes = "; ".join(self.notes)
        return (
            f"{self.tier}: {signals}" + (f" | factors: {factors}" if factors else "") + (f" | {notes}" if notes else "")
        )


@dataclass(frozen=True)
class Candidate:
    node: NodeRow
    score: float
    hop: int | None  # hops from the nearest anchor, None when far or unanchored
    why: Why | None = None  # with explain=True only
