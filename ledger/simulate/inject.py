"""Injected rule violations with fully predictable findings.

At the start of a turn, with probability ``rate``, the :class:`Injector`
plays the turn as one of the violation kinds below instead of cleanly. Each
kind says which findings it must produce (rule id, position, seat); the
turn is played on the fold and kept only when the fold's findings for the
whole turn are exactly those, so the expectation written beside the record
(``NAME.injected.json``) is what the audit must report, no more, no fewer.
Every later event of the game is clean (the simulator only keeps clean
moves), so an injection never leaks into a finding elsewhere.

Kinds (the rule ids are RULES.md's):

- ``out_of_turn``: another seat plays a whole turn while the seat due has
  not drawn: ``ALL-TURN-1`` at that seat's draw.
- ``invalid_meld``: after a stock draw, three cards that are neither a set
  nor a sequence are laid: ``ALL-MELD-1`` (or the variant's own id for it).
- ``retake``: the top of the pile is taken and discarded at once: the
  variant's rule for discarding the card just taken (``RAM-DISC-1``,
  ``BUR-PILE-1``, ``S40-PILE-2``, ``GIN-DISC-1``).
- variant kinds from the strategy (``Strategy.injections``): short openings,
  closing without a burraco …
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar

from ledger.cards import RANK, SUIT
from ledger.events import CardDiscarded, DiscardTaken, MeldLaid
from ledger.melds import analyze, is_wild
from ledger.simulate.table import Table

if TYPE_CHECKING:
    from ledger.simulate.strategy import Strategy

#: an injection: (injector, strategy, table, seat) -> [(position, rule, seat)] or None
#: what a kind expects: the (position, rule id, seat) findings it made, or None when it could not be played
Expected = list[tuple[int, str, "int | None"]]
#: the strategy a kind plays with (a variant's kinds take that variant's strategy)
S = TypeVar("S", bound="Strategy")
Kind = Callable[["Injector", S, Table, int], "Expected | None"]


class Injector:
    """Injects violations at ``rate`` per turn and remembers them.

    ``injected`` lists ``{"position", "hand", "seat", "rule"}`` in order.
    """

    def __init__(self, rate: float, rng: random.Random) -> None:
        self.rate = rate
        self.rng = rng
        self.injected: list[dict[str, object]] = []

    def maybe(self, strategy: Strategy, t: Table, seat: int) -> bool:
        """With probability ``rate``, play ``seat``'s turn as a violation.

        Returns True when a violation was injected (the turn is played)."""
        if self.rng.random() >= self.rate:
            return False
        generic = {"out_of_turn": out_of_turn, "invalid_meld": invalid_meld, "retake": retake}
        kinds: list[Kind[Strategy]] = [generic[k] for k in strategy.generic_kinds] + list(strategy.injections())
        self.rng.shuffle(kinds)
        for kind in kinds:
            mark = t.mark()
            expected = kind(self, strategy, t, seat)
            if expected is None:
                t.rollback(mark)
                continue
            got = t.findings_since(mark)
            if sorted(got) != sorted(expected) or len(t) == mark:
                t.rollback(mark)
                continue
            hand = t.state.hand
            for pos, rule, who in sorted(got):
                self.injected.append({"position": pos, "hand": hand, "seat": who, "rule": rule})
            return True
        return False


def _finish_turn(strategy: Strategy, t: Table, seat: int) -> bool:
    """Meld, lay off and discard cleanly after a draw (the rest of a turn)."""
    if t.state.phase not in ("draw", "play"):
        return True
    if strategy.play(t, seat):
        return True
    return strategy.discard(t, seat)


def out_of_turn(inj: Injector, strategy: Strategy, t: Table, seat: int) -> Expected | None:
    """Another seat draws from the stock and plays while ``seat`` is due."""
    state = t.state
    if state.phase != "draw" or state.n_seats < 2 or not strategy.can_inject_out_of_turn(state):
        return None
    others = [s for s in range(state.n_seats) if s != seat and t.rules.active(state, s) and state.hands[s]]
    if not others:
        return None
    other = inj.rng.choice(others)
    pos = len(t)
    if not strategy.draw(t, other, "stock", ("ALL-TURN-1",)):
        return None
    if not _finish_turn(strategy, t, other):
        return None
    return [(pos, "ALL-TURN-1", other)]


def invalid_meld(inj: Injector, strategy: Strategy, t: Table, seat: int) -> Expected | None:
    """Three cards that are neither a set nor a sequence laid as a meld."""
    state = t.state
    if state.phase != "draw" or not strategy.draw(t, seat, "stock"):
        return None
    hand = t.state.hands[seat]
    mr = strategy.mr
    if len(hand) < 6:
        return None
    naturals = sorted({c for c in hand if not is_wild(c, mr)}, key=lambda c: (RANK[c], SUIT[c]))
    for trio in combinations(naturals, 3):
        ranks = sorted(RANK[c] for c in trio)
        if (
            len(set(ranks)) < 3
            or ranks[1] - ranks[0] < 3
            or ranks[2] - ranks[1] < 3
            or len({SUIT[c] for c in trio}) < 2
        ):
            continue
        if analyze(trio, mr).faults != ("invalid",):
            continue
        pos = len(t)
        rule = t.rules.meld_rule_ids().get("invalid", "ALL-MELD-1")
        ev = MeldLaid(seat=seat, meld=f"m{len(t.state.melds) + 1}", cards=trio)
        if not t.try_(ev, (rule,)):
            return None
        if not _finish_turn(strategy, t, seat):
            return None
        return [(pos, rule, seat)]
    return None


def retake(inj: Injector, strategy: Strategy, t: Table, seat: int) -> Expected | None:
    """The top of the pile taken and discarded again in the same turn."""
    state = t.state
    rule = strategy.retake_rule
    if rule is None or state.phase != "draw" or not state.discard:
        return None
    top = state.discard[-1]
    k = t.rules.pile_take_count(state)
    cards = state.discard if k is None else state.discard[-k:]
    if top in state.hands[seat] or len(cards) != 1 or not strategy.can_retake(state, seat):
        return None
    if not t.try_(DiscardTaken(seat=seat, cards=cards)):
        return None
    pos = len(t)
    if not t.try_(CardDiscarded(seat=seat, card=top), (rule,)):
        return None
    if not t.state.hands[seat] or not strategy.after_turn(t, seat):
        return None
    return [(pos, rule, seat)]


__all__ = ["Injector", "invalid_meld", "out_of_turn", "retake"]
