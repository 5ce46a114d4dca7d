"""Burraco's finding messages that are put together from parts
(:mod:`ledger.texts` data: a msgid and its params): BUR-STOCK-1's play after
the hand had ended at the stock's end, BUR-CLOSE-2 by preset. The simpler ones
are written where the rule is checked (:mod:`ledger.variants.burraco.rules`).
"""

from __future__ import annotations

from typing import Any

from ledger.cards import pretty, pretty_list
from ledger.events import CardDrawn, Event
from ledger.state import TableState
from ledger.texts import N_, Message

#: BUR-CLOSE-1: going out before the side took its pozzetto
WITHOUT_POZZETTO = N_("%(who)s went out without %(side)s's pozzetto")

#: BUR-CLOSE-2 by the preset's ``closing_requires``
WITHOUT_BURRACO = {
    "any": N_("%(who)s went out without a burraco for %(side)s"),
    "clean": N_("%(who)s went out without a clean burraco for %(side)s"),
    "clean_or_semi": N_("%(who)s went out without a clean or semi-clean burraco for %(side)s"),
}


def late_play_message(state: TableState, event: Event, end: int) -> Message:
    """BUR-STOCK-1 for ``event``, played after the discard at position ``end`` left the last two stock cards."""
    name = state.name(getattr(event, "seat", None))
    if isinstance(event, CardDrawn) and state.stock_count <= 2:
        return Message(
            N_("%(who)s drew %(card)s from the last two stock cards, which are never drawn"),
            who=name,
            card=pretty(event.card),
        )
    return Message(
        N_(
            "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left "
            "the last two stock cards): play after it does not count"
        ),
        late=_late_play(name, event),
        position=end,
    )


def _late_play(who: str, e: Any) -> Message:
    """What a seat did after the hand had ended at the stock's end."""
    if e.type == "card_drawn":
        return Message(N_("%(who)s drew %(card)s"), who=who, card=pretty(e.card))
    if e.type == "discard_taken":
        return Message(N_("%(who)s took the discard pile (%(cards)s)"), who=who, cards=pretty_list(e.cards))
    if e.type == "meld_laid":
        return Message(N_("%(who)s melded %(cards)s"), who=who, cards=pretty_list(e.cards))
    if e.type == "meld_extended":
        return Message(
            N_("%(who)s laid off %(cards)s on meld %(meld)s"), who=who, cards=pretty_list(e.cards), meld=e.meld
        )
    if e.type == "joker_swapped":
        return Message(
            N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s"),
            who=who,
            card=pretty(e.card),
            joker=pretty(e.joker),
            meld=e.meld,
        )
    if e.type == "card_discarded":
        return Message(N_("%(who)s discarded %(card)s"), who=who, card=pretty(e.card))
    if e.type == "pozzetto_taken":
        return Message(N_("%(who)s took pozzetto %(n)s"), who=who, n=e.pozzetto)
    raise KeyError(e.type)
