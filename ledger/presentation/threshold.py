"""What Scala 40 and Ramino 51 show (RULES.md, the threshold games): a
meld's opening value, the elimination threshold and the seats out."""

from __future__ import annotations

from ledger.presentation import MeldBadges, TableNotes, VariantPresentation
from ledger.state import Meld, TableState
from ledger.variants.threshold import ThresholdRules, meld_points


class EliminationNotes(TableNotes, frozen=True):
    """``elimination``: the points at which a seat is out; ``eliminated``:
    the seats out; ``notes``: the same in an English line."""

    elimination: int
    eliminated: list[int]
    notes: list[str]


class ThresholdPresentation(VariantPresentation):
    """The threshold games' additions to the views."""

    rules: ThresholdRules

    def meld_badges(self, meld: Meld) -> MeldBadges:
        """The meld's opening value (``points``)."""
        return MeldBadges(points=meld_points(meld.info))

    def table_notes(self, state: TableState, pov: int | None) -> EliminationNotes:
        """Elimination threshold and which seats are out."""
        limit = self.rules.settings.elimination
        out = ", ".join(state.name(s) for s in state.eliminated)
        notes = [f"a seat reaching {limit} points is out" + (f"; out: {out}" if out else "")]
        return EliminationNotes(limit, list(state.eliminated), notes)
