"""What Burraco shows (RULES.md "Burraco"): a meld's burraco kind and card
points, and per side whether it took its pozzetto."""

from __future__ import annotations

from ledger.state import Meld, TableState
from ledger.texts import N_, Message
from ledger.variants.burraco.scoring import burraco_kind, cards_value
from ledger.variants.burraco.table import BurracoTable
from ledger.variants.presentation import MeldBadges, TableNotes, VariantPresentation

TAKEN = N_("%(who)s: pozzetto taken")
NOT_TAKEN = N_("%(who)s: pozzetto not taken yet")
STOCK_END = N_("the hand ended at the stock's end after position %(n)s: later play does not count")


class PozzettoNotes(TableNotes, frozen=True):
    """``pozzetto_taken_by_side``: per side, has a seat of it taken a
    pozzetto this hand; ``pozzetti_in_stock``: the pozzetti that became the
    stock; ``notes``: the same (and the stock's end) as messages
    (:mod:`ledger.texts`; English lines in the JSON view)."""

    pozzetto_taken_by_side: list[bool]
    pozzetti_in_stock: list[int]
    notes: list[Message]


class BurracoPresentation(VariantPresentation):
    """Burraco's additions to the views."""

    rules: BurracoTable

    def meld_badges(self, meld: Meld) -> MeldBadges:
        """The burraco kind (None: not a burraco) and the card points."""
        return MeldBadges(burraco_kind(meld.info, self.rules.settings.semi_clean), cards_value(meld.cards))

    def table_notes(self, state: TableState, pov: int | None) -> PozzettoNotes:
        """Per side: has it taken a pozzetto; which pozzetti became the stock."""
        ex = self.rules.ex(state)
        taken = [self.rules.side_took_pozzetto(state, side) for side in range(state.n_sides)]
        notes = (
            [Message(TAKEN if t else NOT_TAKEN, who=state.side_message(side)) for side, t in enumerate(taken)]
            if state.hand
            else []
        )
        notes += [Message(N_("pozzetto %(n)s became the stock"), n=i) for i in ex.restocked_from]
        if ex.stock_end is not None:
            notes.append(Message(STOCK_END, n=ex.stock_end.position))
        return PozzettoNotes(taken, list(ex.restocked_from), notes)
