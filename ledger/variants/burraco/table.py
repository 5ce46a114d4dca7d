"""Burraco's table: the first layer of its rules (RULES.md "Burraco (`burraco`)").

:class:`BurracoTable` holds what Burraco sets before any play: two decks
with the preset's jokers, 11 cards each and two pozzetti of 11, the whole
discard pile taken, partnerships (seats 0 and 2, 1 and 3, ``REC-REF`` for
other teams), the meld rule ids (BUR-MELD-1), the per-hand state
(:class:`~ledger.variants.burraco.state.BurracoExtra`, read by :meth:`BurracoTable.ex`).
The pozzetti are :class:`~ledger.variants.burraco.pozzetto.BurracoPozzetti`,
its subclass; the play, the going out and the scoring
:class:`~ledger.variants.burraco.rules.BurracoRules`, theirs. What the views add
(burraco kinds, pozzetti) is :mod:`ledger.variants.burraco.presentation`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ledger.cards import deck_counter
from ledger.errors import RecordError
from ledger.melds import MeldRules
from ledger.state import TableState, replace
from ledger.variants.base import Rules
from ledger.variants.burraco.scoring import BURRACO_MELDS
from ledger.variants.burraco.state import BurracoExtra, BurracoOptions


class BurracoTable(Rules):
    """Burraco's parameters and state accessors (subclassed by
    :class:`~ledger.variants.burraco.pozzetto.BurracoPozzetti`, never used alone)."""

    settings: BurracoOptions  # the record's options, typed (set by Rules.__init__)

    # --- parameters ---------------------------------------------------------
    def deck(self) -> Counter[str]:
        """Two 52-card decks plus the preset's jokers (fibur 4, seed 2)."""
        return deck_counter(2, self.settings.jokers)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        return 11

    def pozzetto_size(self) -> int:
        return 11

    def meld_rules(self) -> MeldRules:
        return BURRACO_MELDS

    def meld_rule_ids(self) -> dict[str, str]:
        """BUR-MELD-1 for sets of 2s, wilds only and over-long melds; ALL-MELD-2 for a second wild."""
        return {
            "too_many_wilds": "ALL-MELD-2",
            "set_of_wild_rank": "BUR-MELD-1",
            "wilds_only": "BUR-MELD-1",
            "set_too_long": "BUR-MELD-1",
            "sequence_too_long": "BUR-MELD-1",
        }

    def pile_take_count(self, state: TableState) -> int | None:
        """Burraco takes the whole discard pile."""
        return None

    def sides_for(self, players: Sequence[Any]) -> tuple[int, ...]:
        """Seats alone with 2 or 3 players; with 4, the ``team`` of each player
        (partners sit opposite: seats 0 and 2, 1 and 3). Raises ``REC-REF``
        for teams that do not make two opposite partnerships 0 and 1."""
        n = len(players)
        if n != 4:
            return tuple(range(n))
        teams = [p.team for p in players]
        if all(t is None for t in teams):
            return (0, 1, 0, 1)
        if any(t is None for t in teams) or set(teams) != {0, 1} or teams[0] != teams[2] or teams[1] != teams[3]:
            raise RecordError(
                "REC-REF",
                f"teams {teams}: Burraco partners sit opposite (seats 0 and 2, seats 1 and 3) in teams 0 and 1",
                field="players",
                position=0,
            )
        return tuple(int(t) for t in teams)

    def new_extra(self, state: TableState) -> BurracoExtra:
        return BurracoExtra()

    # --- helpers ------------------------------------------------------------
    @staticmethod
    def ex(state: TableState) -> BurracoExtra:
        """The state's :class:`BurracoExtra`."""
        return state.extra if isinstance(state.extra, BurracoExtra) else BurracoExtra()

    def set_extra(self, state: TableState, **changes: Any) -> TableState:
        """``state`` with fields of its :class:`BurracoExtra` changed (a fresh one when it has none)."""
        return replace(state, extra=replace(self.ex(state), **changes))

    def side_took_pozzetto(self, state: TableState, side: int) -> bool:
        """True when a seat of ``side`` took a pozzetto this hand."""
        return any(by is not None and state.sides[by] == side for by in state.pozzetto_by)

    def start_turn(self, state: TableState, seat: int, pos: int) -> TableState:
        # Rules by name, not super() (a hot hook): the subclasses derive from this class alone
        state = Rules.start_turn(self, state, seat, pos)
        x = state.extra
        if isinstance(x, BurracoExtra) and x.early_seat == seat:
            state = self.set_extra(state, early_seat=None)
        return state
