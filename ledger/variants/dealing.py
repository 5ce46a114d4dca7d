"""The deal's checks: the first layer of the rules object above the table.

:class:`DealRules` checks what a ``hand_dealt`` puts on the table: the
pozzetti (``REC-REF``, ``REC-FORMAT``), the deck (``REC-DECK``, unknown cards
``??`` of a partial record filling the totals only: FORMAT.md, "Partial
records") and the deal itself (``ALL-DEAL-1``: cards per seat, pozzetto sizes,
dealer rotation). :class:`~ledger.variants.turns.TurnRules` applies the deal
with them.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

from ledger.cards import UNKNOWN
from ledger.events import HandDealt
from ledger.state import TableState
from ledger.texts import N_, Message
from ledger.variants.core import TableRules


class DealRules(TableRules):
    """The checks of a deal (RULES.md ``ALL-DEAL-1``, ``REC-DECK``), between
    :class:`TableRules` and :class:`~ledger.variants.turns.TurnRules`."""

    def _dealt_pozzetti(self, e: HandDealt, pos: int) -> tuple[tuple[str, ...] | None, ...]:
        """The deal's pozzetti (None for one dealt face down unrecorded); ``()``
        for a variant without. Raises ``REC-REF`` for other than two,
        ``REC-FORMAT`` for pozzetti where the variant has none."""
        if not self.pozzetto_size():
            if e.pozzetti is not None:
                raise self.reject(
                    "REC-FORMAT", Message(N_("%(variant)s has no pozzetti"), variant=self.variant), pos, "pozzetti"
                )
            return ()
        pozzetti = tuple(e.pozzetti) if e.pozzetti is not None else (None, None)
        if len(pozzetti) != 2:
            raise self.reject(
                "REC-REF", Message(N_("%(num)s pozzetti (Burraco has 2)"), num=len(pozzetti)), pos, "pozzetti"
            )
        return pozzetti

    def _dealt_stock_count(self, e: HandDealt, pozzetti: tuple[tuple[str, ...] | None, ...], pos: int) -> int:
        """The cards left in the stock after the deal. Raises ``REC-DECK`` for
        more copies of a card than the deck holds, or a deal that with its
        stock is not the whole deck (or holds more than it)."""
        deck, total = self.deck_counts()
        counts = Counter(chain(chain.from_iterable(e.hands), e.discard, *(p or () for p in pozzetti), e.stock or ()))
        unknown = counts.pop(UNKNOWN, 0)  # partial records: unknown cards only fill the totals
        if unknown and not self.partial:
            raise self.not_partial(pos, _unknown_field(e))
        for card, k in () if dict.__eq__(counts, deck) else counts.items():  # the whole deck, at once (C)
            if k > deck.get(card, 0):
                raise self.reject(
                    "REC-DECK",
                    f"{k} copies of {card} dealt; the {self.variant} deck holds {deck.get(card, 0)}",
                    pos,
                    "hands",
                )
        dealt = sum(counts.values()) + unknown
        unknown_pozzetti = sum(self.pozzetto_size() for p in pozzetti if p is None)
        if e.stock is not None and dealt + unknown_pozzetti != total:
            raise self.reject(
                "REC-DECK",
                Message(
                    N_("the deal holds %(dealt)s cards; the deck has %(total)s"),
                    dealt=dealt + unknown_pozzetti,
                    total=total,
                ),
                pos,
                "stock",
            )
        stock_count = len(e.stock) if e.stock is not None else total - dealt - unknown_pozzetti
        if stock_count < 0:
            raise self.reject(
                "REC-DECK",
                Message(N_("the deal holds more than the deck's %(total)s cards"), total=total),
                pos,
                "hands",
            )
        return stock_count

    def check_deal(self, before: TableState, state: TableState, e: HandDealt, pos: int) -> TableState:
        """``ALL-DEAL-1``: cards per seat, pozzetto sizes, dealer rotation."""
        for seat, cards in enumerate(e.hands):
            want = self.hand_size(state.n_seats, seat, e.dealer) if self.active(state, seat) else 0
            if len(cards) != want:
                state = self.flag(
                    state,
                    pos,
                    seat,
                    "ALL-DEAL-1",
                    N_("%(who)s was dealt %(n)s cards instead of %(want)s"),
                    who=state.name(seat),
                    n=len(cards),
                    want=want,
                )
        size = self.pozzetto_size()
        for i, p in enumerate(state.pozzetti):
            if p is not None and len(p) != size:
                state = self.flag(
                    state,
                    pos,
                    None,
                    "ALL-DEAL-1",
                    N_("pozzetto %(pozzetto)s holds %(n)s cards instead of %(want)s"),
                    pozzetto=i,
                    n=len(p),
                    want=size,
                )
        want_dealer = self.expected_dealer(before)
        if want_dealer is not None and e.dealer != want_dealer:
            state = self.flag(
                state,
                pos,
                e.dealer,
                "ALL-DEAL-1",
                N_("%(who)s dealt hand %(hand)s; the rotation called for %(due)s"),
                who=state.name(e.dealer),
                hand=e.hand,
                due=state.name(want_dealer),
            )
        return state


def _unknown_field(e: HandDealt) -> str:
    """The field of the first ``??`` of a deal (``hands[1][3]``, ``discard[0]``, ``stock[5]``, ``pozzetti[0][2]``)."""
    for seat, cards in enumerate(e.hands):
        if UNKNOWN in cards:
            return f"hands[{seat}][{cards.index(UNKNOWN)}]"
    if UNKNOWN in e.discard:
        return f"discard[{e.discard.index(UNKNOWN)}]"
    for i, cards in enumerate(e.pozzetti or ()):
        if UNKNOWN in cards:
            return f"pozzetti[{i}][{cards.index(UNKNOWN)}]"
    return f"stock[{(e.stock or ()).index(UNKNOWN)}]"
