"""Play shared by the threshold games, Scala 40 and Ramino 51.

Both open with a minimum of points (the fold judges the opening at the
discard; a turn whose melds fall short is replayed without melding), lay off
and swap jokers only after opening, restock the stock from the pile, and end
by elimination: the game is over when one seat is left.

Injected kind: ``short_opening`` (``S40-OPEN-1`` / ``R51-OPEN-2``): a single
natural meld below the threshold as the first melds of a seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ledger.cards import JOKER
from ledger.events import CardDiscarded, Event, JokerSwapped, MeldLaid
from ledger.simulate.players import find_melds
from ledger.simulate.ramino import restock_or_end
from ledger.simulate.strategy import Strategy
from ledger.simulate.table import Table
from ledger.state import TableState

if TYPE_CHECKING:
    from ledger.simulate.inject import Expected, Injector, Kind


class ThresholdStrategy(Strategy):
    """Heuristic play of Scala 40 / Ramino 51."""

    short_rule = ""
    max_restocks = 2
    max_hands = 40

    def on_stock_low(self, t: Table) -> None:
        restock_or_end(self, t, self.max_restocks)

    def meld_candidates(self, state: TableState, seat: int) -> Iterator[Event]:
        yield from super().meld_candidates(state, seat)
        hand = state.hands[seat]
        if JOKER in hand or not state.opened[seat]:
            return
        for m in state.melds:
            for card, stands in zip(m.cards, m.info.stands_for):
                if card == JOKER and stands and stands in hand:
                    yield JokerSwapped(seat=seat, meld=m.id, card=stands, joker=JOKER)

    def injections(self) -> list[Kind[ThresholdStrategy]]:
        return [short_opening]

    def can_retake(self, state: TableState, seat: int) -> bool:
        return state.opened[seat] and state.turns[seat] >= 2


def short_opening(inj: Injector, strategy: ThresholdStrategy, t: Table, seat: int) -> Expected | None:
    """A seat's first melds below the threshold: the variant's opening rule
    at the discard that ends the turn."""
    state = t.state
    if state.phase != "draw" or state.opened[seat] or state.turns[seat] < 2 or not strategy.short_rule:
        return None
    if not strategy.draw(t, seat, "stock"):
        return None
    hand = t.state.hands[seat]
    melds = [m for m in find_melds(hand, strategy.mr, use_wilds=False)]
    if not melds:
        return None
    cards = min(melds, key=len)
    if len(hand) - len(cards) < 2 or not t.try_(MeldLaid(seat=seat, meld=f"m{len(t.state.melds) + 1}", cards=cards)):
        return None
    from ledger.simulate.players import discard_order

    for card in discard_order(t.state.hands[seat], strategy.mr):
        pos = len(t)
        if t.try_(CardDiscarded(seat=seat, card=card), (strategy.short_rule,)):
            return [(pos, strategy.short_rule, seat)]
    return None
