"""Gin's finding messages that are put together from parts (:mod:`ledger.texts`
data: a msgid and its params): GIN-KNOCK-2's declaration, GIN-KNOCK-1's
Oklahoma limit, ALL-TURN-1 after a knock. The simpler ones are written where
the rule is checked (:mod:`ledger.variants.gin.rules`).
"""

from __future__ import annotations

from collections import Counter

from ledger.cards import pretty, pretty_list
from ledger.events import Knocked
from ledger.texts import N_, Message, and_

#: ALL-TURN-1 after a knock, by whether the act was a draw (else a discard)
AFTER_KNOCK = {
    True: N_("%(who)s drew after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
    False: N_("%(who)s discarded after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
}


def declaration_message(who: str, e: Knocked, hand: tuple[str, ...]) -> Message | None:
    """GIN-KNOCK-2 for a knock whose declared melds and deadwood are not
    exactly the ``hand`` held: the cards declared beyond it, those left out;
    None when they are."""
    if sorted([c for dm in e.melds for c in dm.cards] + list(e.deadwood)) == sorted(hand):  # the usual knock
        return None
    declared = Counter(c for dm in e.melds for c in dm.cards) + Counter(e.deadwood)
    extra, missing = declared - Counter(hand), Counter(hand) - declared
    if not (extra or missing):
        return None
    parts: list[Message] = []
    if extra:
        parts.append(
            Message(N_("declares %(cards)s beyond the cards held"), cards=pretty_list(sorted(extra.elements())))
        )
    if missing:
        parts.append(Message(N_("leaves out %(cards)s"), cards=pretty_list(sorted(missing.elements()))))
    return Message(
        N_("%(who)s's knock %(part)s: melds and deadwood must be exactly the ten cards held"),
        who=who,
        part=and_(*parts),
    )


def limit_source(upcard: str) -> Message:
    """GIN-KNOCK-1's `` (oklahoma: the first upcard K♦)``: the upcard set the knock limit."""
    return Message(N_(" (oklahoma: the first upcard %(card)s)"), card=pretty(upcard))
