"""What Scala 40 and Ramino 51 show (RULES.md, the threshold games): a
meld's opening value, the elimination threshold and the seats out."""

from __future__ import annotations

from ledger.state import Meld, TableState
from ledger.texts import N_, Message
from ledger.variants.presentation import MeldBadges, TableNotes, VariantPresentation
from ledger.variants.threshold.rules import ThresholdRules, meld_points


class EliminationNotes(TableNotes, frozen=True):
    """``elimination``: the points at which a seat is out; ``eliminated``:
    the seats out; ``notes``: the same as a message (:mod:`ledger.texts`;
    an English line in the JSON view)."""

    elimination: int
    eliminated: list[int]
    notes: list[Message]


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
        notes = [
            Message(N_("a seat reaching %(n)s points is out; out: %(who)s"), n=limit, who=out)
            if out
            else Message(N_("a seat reaching %(n)s points is out"), n=limit)
        ]
        return EliminationNotes(limit, list(state.eliminated), notes)
