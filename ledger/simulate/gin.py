"""Gin Rummy play (RULES.md "Gin Rummy"): the upcard offer, knocking, the defence.

The player takes the upcard or the top discard when it lowers its best
deadwood (:mod:`ledger.variants.gin.deadwood`, the same arrangement search the
ledger's views use), knocks as soon as its deadwood is within the knock
card, declaring its best arrangement; the defender then lays its own best
melds and lays off on the knocker's melds (not after gin), and the hand ends
``knocked``. Two cards left in the stock end the hand (``stock_exhausted``).
Preset ``openspiel`` plays a single hand.

Injected kind: ``knock_high`` (``GIN-KNOCK-1``: a knock with deadwood above
the knock card, declared honestly).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ledger.events import DeclaredMeld, DiscardTaken, HandEnded, Knocked, MeldLaid, UpcardPassed
from ledger.simulate.players import card_points, discard_order, find_melds, layoffs
from ledger.simulate.strategy import Strategy
from ledger.simulate.table import Table
from ledger.state import TableState
from ledger.variants.gin import deadwood as gin_deadwood
from ledger.variants.gin.rules import GinRules
from ledger.variants.gin.state import OFFER_BOTH_PASSED, OFFER_OVER

if TYPE_CHECKING:
    from ledger.simulate.inject import Expected, Injector, Kind


@lru_cache(maxsize=65536)
def _best(cards: tuple[str, ...]) -> gin_deadwood.Arrangement:
    return gin_deadwood.best_arrangement(cards)


@lru_cache(maxsize=65536)
def _best_after(cards: tuple[str, ...]) -> gin_deadwood.DiscardChoice:
    return gin_deadwood.best_after_discard(cards)


def best_arrangement(cards: tuple[str, ...]) -> gin_deadwood.Arrangement:
    """:func:`ledger.variants.gin.deadwood.best_arrangement`, memoized on the sorted hand."""
    return _best(tuple(sorted(cards)))


def best_after_discard(cards: tuple[str, ...]) -> gin_deadwood.DiscardChoice:
    """:func:`ledger.variants.gin.deadwood.best_after_discard`, memoized on the sorted hand."""
    return _best_after(tuple(sorted(cards)))


class GinStrategy(Strategy):
    """Heuristic Gin Rummy."""

    variant = "gin"
    retake_rule = "GIN-DISC-1"
    generic_kinds = ("out_of_turn", "retake")
    max_hands = 40

    def stock_low(self, state: TableState) -> bool:
        return state.phase == "draw" and state.stock_count <= 2 and GinRules.ex(state).offer >= OFFER_BOTH_PASSED

    def _improves(self, state: TableState, seat: int) -> bool:
        """Taking the top discard makes a new meld with the hand."""
        return self.pile_helps(state, seat)

    def _surely_dead(self, hand: tuple[str, ...]) -> list[str]:
        """Cards in no candidate meld at all: deadwood whatever the arrangement."""
        covered = {c for m in find_melds(hand, self.mr) for c in m}
        return [c for c in hand if c not in covered]

    def play_turn(self, t: Table, seat: int, expect_first: Sequence[str] = ()) -> None:
        state = t.state
        if GinRules.ex(state).offer < OFFER_BOTH_PASSED and not expect_first:
            if not self._improves(state, seat):
                if t.try_(UpcardPassed(seat=seat)):
                    return
            mark = t.mark()
            if t.try_(DiscardTaken(seat=seat, cards=state.discard[-1:])) and self.finish(t, seat):
                return
            t.rollback(mark)
        super().play_turn(t, seat, expect_first)

    def draw_plans(self, state: TableState, seat: int) -> list[tuple[str, bool]]:
        plans = [("stock", True)]
        if state.discard and GinRules.ex(state).offer == OFFER_OVER and self._improves(state, seat):
            plans.insert(0, ("pile", True))
        return plans

    def play(self, t: Table, seat: int) -> bool:
        """Knock when the best deadwood allows it (then the hand ends)."""
        return self.knock(t, seat, _rules(t.state).knock_limit(t.state))

    def finish(self, t: Table, seat: int) -> bool:
        return self.play(t, seat) or self.discard(t, seat)

    def knock(self, t: Table, seat: int, limit: int, expect: Sequence[str] = ()) -> bool:
        state = t.state
        dead = sorted(card_points(c) for c in self._surely_dead(state.hands[seat]))
        if sum(dead[:-1]) > limit:
            return False
        choice = best_after_discard(state.hands[seat])
        arr = choice.arrangement
        if arr.deadwood_value > limit:
            return False
        mark = t.mark()
        melds = tuple(DeclaredMeld(meld=f"k{i + 1}", cards=m) for i, m in enumerate(arr.melds))
        if t.try_(
            Knocked(seat=seat, discard=choice.discard, melds=melds, deadwood=arr.deadwood), expect
        ) and self.defend(t, 1 - seat, seat):
            return True
        t.rollback(mark)
        return False

    def defend(self, t: Table, seat: int, knocker: int) -> bool:
        """The defender's melds, its lay-offs (not after gin), then ``hand_ended``."""
        own = best_arrangement(t.state.hands[seat])
        for i, cards in enumerate(own.melds):
            if not t.try_(MeldLaid(seat=seat, meld=f"d{i + 1}", cards=cards)):
                return False
        if not GinRules.ex(t.state).gin:
            progress = True
            while progress:
                progress = False
                theirs = [m for m in t.state.melds if m.seat == knocker]
                for ev in layoffs(seat, t.state.hands[seat], theirs, self.mr):
                    if t.try_(ev):
                        progress = True
                        break
        return t.try_(HandEnded(reason="knocked", seat=knocker))

    def discard(self, t: Table, seat: int) -> bool:
        state = t.state
        hand = state.hands[seat]
        dead = set(self._surely_dead(hand))
        order = discard_order(hand, self.mr)
        order = [c for c in order if c in dead] + [c for c in order if c not in dead]
        order = [c for c in order if c not in state.taken] + [c for c in order if c in state.taken]
        from ledger.events import CardDiscarded

        for card in order:
            if t.try_(CardDiscarded(seat=seat, card=card)):
                return True
        return False

    def injections(self) -> list[Kind[GinStrategy]]:
        return [knock_high]

    def can_inject_out_of_turn(self, state: TableState) -> bool:
        return GinRules.ex(state).offer == OFFER_OVER

    def can_retake(self, state: TableState, seat: int) -> bool:
        return _rules(state).settings.retake_forbidden and GinRules.ex(state).offer == OFFER_OVER


def knock_high(inj: Injector, strategy: GinStrategy, t: Table, seat: int) -> Expected | None:
    """Knock with deadwood above the knock card (honest declaration): GIN-KNOCK-1."""
    state = t.state
    if state.phase != "draw" or GinRules.ex(state).offer != OFFER_OVER:
        return None
    if not strategy.draw(t, seat, "stock"):
        return None
    limit = _rules(t.state).knock_limit(t.state)
    if best_after_discard(t.state.hands[seat]).arrangement.deadwood_value <= limit:
        return None
    pos = len(t)
    if not strategy.knock(t, seat, 200, ("GIN-KNOCK-1",)):
        return None
    return [(pos, "GIN-KNOCK-1", seat)]


def _rules(state: TableState) -> GinRules:
    """The Gin rules of the table (the strategy plays no other game)."""
    rules = state.rules
    assert isinstance(rules, GinRules)
    return rules
