"""Classic Ramino play (RULES.md "Ramino, classic Rummy"): restock, going out.

Going out by melding the last card is tried only under preset ``pagat``
(``going_out: any``); the fold says whether it is clean. When the stock is
empty the pile less its top card is restocked (shuffled, with the new order
written: the record stays omniscient; or turned over), or the hand ends,
as the ``restock`` option says.
"""

from __future__ import annotations

from ledger.events import HandEnded, HandEndReason, StockRestocked
from ledger.simulate.strategy import SimulationError, Strategy
from ledger.simulate.table import Table
from ledger.variants.ramino.rules import RaminoRules


class RaminoStrategy(Strategy):
    """Heuristic classic Ramino."""

    variant = "ramino"
    retake_rule = "RAM-DISC-1"
    max_restocks = 3

    def on_empty(self, t: Table, seat: int) -> bool:
        rules = t.rules
        assert isinstance(rules, RaminoRules)
        if rules.settings.going_out != "any":
            return False
        return t.try_(HandEnded(reason="went_out", seat=seat))

    def on_stock_low(self, t: Table) -> None:
        restock_or_end(self, t, self.max_restocks)


def restock_or_end(strategy: Strategy, t: Table, max_restocks: int) -> None:
    """The stock is empty: restock from the pile less its top card as the
    variant's :meth:`~ledger.variants.core.TableRules.restock_mode` says
    (``shuffle``: the new order is written, so the record stays omniscient;
    ``turn_over``), or end the hand
    (``end_hand``: ``stock_exhausted``; after ``max_restocks`` restocks in a
    hand, or with nothing to restock: ``stalled``)."""
    state = t.state
    mode = t.rules.restock_mode()
    start = max(i for i, e in enumerate(t.events) if e.type == "hand_dealt")
    restocks = sum(1 for e in t.events[start:] if e.type == "stock_restocked")
    if mode == "end_hand" or len(state.discard) < 2 or restocks >= max_restocks:
        reason: HandEndReason = "stock_exhausted" if mode == "end_hand" else "stalled"
        if not t.try_(HandEnded(reason=reason)):
            raise SimulationError(f"hand_ended ({reason}) is not clean")
        return
    if mode == "turn_over":
        ev = StockRestocked()
    else:
        cards = list(state.discard[:-1])
        strategy.rng.shuffle(cards)
        ev = StockRestocked(cards=tuple(cards))
    if not t.try_(ev):
        raise SimulationError("stock_restocked is not clean")
