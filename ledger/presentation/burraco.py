"""What Burraco shows (RULES.md "Burraco"): a meld's burraco kind and card
points, and per side whether it took its pozzetto."""

from __future__ import annotations

from ledger.presentation import MeldBadges, TableNotes, VariantPresentation
from ledger.state import Meld, TableState
from ledger.variants.burraco_scoring import burraco_kind, cards_value
from ledger.variants.burraco_table import BurracoTable


class PozzettoNotes(TableNotes, frozen=True):
    """``pozzetto_taken_by_side``: per side, has a seat of it taken a
    pozzetto this hand; ``pozzetti_in_stock``: the pozzetti that became the
    stock; ``notes``: the same (and the stock's end) in English lines."""

    pozzetto_taken_by_side: list[bool]
    pozzetti_in_stock: list[int]
    notes: list[str]


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
            [f"{state.side_label(side)}: pozzetto {'taken' if t else 'not taken yet'}" for side, t in enumerate(taken)]
            if state.hand
            else []
        )
        notes += [f"pozzetto {i} became the stock" for i in ex.restocked_from]
        if ex.stock_end is not None:
            notes.append(
                f"the hand ended at the stock's end after position {ex.stock_end.position}: later play does not count"
            )
        return PozzettoNotes(taken, list(ex.restocked_from), notes)
