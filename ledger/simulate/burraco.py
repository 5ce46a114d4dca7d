"""Burraco play (RULES.md "Burraco"): the whole pile, pozzetti, closing.

The player takes the whole discard pile when it makes a new meld with the
hand, lays off wilds too (a burraco is worth it), takes its side's
pozzetto when its hand empties (by melding: *al volo*, play goes on; by the
discard: played from the next turn), and goes out by discarding its last
card once its side has the pozzetto and a burraco (the fold says whether
the closing is clean). At the end of the stock the hand ends (``fibur``:
the last two cards are never drawn) or an untaken pozzetto becomes the
stock (``seed``). Four players sit in partnerships (teams 0 and 1).

Injected kind: ``close_without_burraco`` (``BUR-CLOSE-2``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ledger.events import CardDiscarded, Event, HandEnded, MeldLaid, Player, PozzettoTaken, StockRestocked
from ledger.melds import is_wild
from ledger.simulate.players import find_melds, layoffs, may_lay_off
from ledger.simulate.strategy import NAMES, SimulationError, Strategy
from ledger.simulate.table import Table
from ledger.state import TableState
from ledger.variants.burraco.rules import BurracoRules

if TYPE_CHECKING:
    from ledger.simulate.inject import Expected, Injector, Kind


class BurracoStrategy(Strategy):
    """Heuristic Burraco."""

    variant = "burraco"
    retake_rule = "BUR-PILE-1"
    max_turns = 600

    def players(self, n: int) -> tuple[Player, ...]:
        if n == 4:
            return tuple(Player(seat=i, name=NAMES[i], team=i % 2) for i in range(n))
        return super().players(n)

    def pile_helps(self, state: TableState, seat: int) -> bool:
        pile = state.discard
        hand = state.hands[seat] + pile
        return any(any(c in m for c in pile) for m in find_melds(hand, self.mr, use_wilds=False))

    def meld_candidates(self, state: TableState, seat: int) -> Iterator[Event]:
        hand = state.hands[seat]
        side = state.sides[seat]
        n = len(state.melds)
        for cards in find_melds(hand, self.mr):
            n += 1
            yield MeldLaid(seat=seat, meld=f"m{n}", cards=cards)
        own = [m for m in state.melds if m.side == side]
        yield from layoffs(seat, hand, own, self.mr, wilds=True)

    def avoid(self, state: TableState, seat: int) -> tuple[str, ...]:
        side = state.sides[seat]
        other = [m for m in state.melds if m.side != side]
        return may_lay_off(state.hands[seat], other, self.mr)

    def _pozzetto(self, t: Table, seat: int) -> bool:
        state = t.state
        if any(by is not None and state.sides[by] == state.sides[seat] for by in state.pozzetto_by):
            return False
        free = _rules(state).untaken(state)
        return bool(free) and t.try_(PozzettoTaken(seat=seat, pozzetto=free[0]))

    def on_empty(self, t: Table, seat: int) -> bool:
        """Emptied by melding: the pozzetto al volo (with the side's pozzetto
        already taken, that meld is BUR-CLOSE-3 and never kept)."""
        return self._pozzetto(t, seat)

    def after_discard(self, t: Table, seat: int) -> bool:
        """Emptied by the discard: the pozzetto, else going out."""
        if self._pozzetto(t, seat):
            return True
        return t.try_(HandEnded(reason="went_out", seat=seat))

    def stock_low(self, state: TableState) -> bool:
        if state.phase != "draw":
            return False
        if _rules(state).settings.stock_end == "last_two":
            return state.stock_count <= 2
        return state.stock_count <= 0

    def on_stock_low(self, t: Table) -> None:
        state = t.state
        rules = _rules(state)
        free = rules.untaken(state) if rules.settings.stock_end == "pozzetto" else []
        if free and state.pozzetti[free[0]] is not None:
            if t.try_(StockRestocked(cards=state.pozzetti[free[0]])):
                return
        if not t.try_(HandEnded(reason="stock_exhausted")):
            raise SimulationError("hand_ended (stock_exhausted) is not clean")

    def injections(self) -> list[Kind[BurracoStrategy]]:
        return [close_without_burraco]

    def can_retake(self, state: TableState, seat: int) -> bool:
        return len(state.discard) == 1


def close_without_burraco(inj: Injector, strategy: BurracoStrategy, t: Table, seat: int) -> Expected | None:
    """Going out, pozzetto taken but no burraco: ``BUR-CLOSE-2`` at the
    closing discard (the event that breaks the rule; no closing bonus).

    After the draw and the usual melds and lay-offs, a seat left with one
    natural card discards it and goes out."""
    state = t.state
    side = state.sides[seat]
    has_pozz = any(by is not None and state.sides[by] == side for by in state.pozzetto_by)
    if state.phase != "draw" or len(state.hands[seat]) > 3 or not has_pozz:
        return None
    if not strategy.draw(t, seat, "stock") or strategy.play(t, seat):
        return None
    hand = t.state.hands[seat]
    if len(hand) != 1 or is_wild(hand[0], strategy.mr):
        return None
    pos = len(t)
    if not t.try_(CardDiscarded(seat=seat, card=hand[0]), ("BUR-CLOSE-2",)):
        return None
    if not t.try_(HandEnded(reason="went_out", seat=seat)):
        return None
    return [(pos, "BUR-CLOSE-2", seat)]


def _rules(state: TableState) -> BurracoRules:
    """The Burraco rules of the table (the strategy plays no other game)."""
    rules = state.rules
    assert isinstance(rules, BurracoRules)
    return rules
