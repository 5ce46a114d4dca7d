"""Synthetic records for tests and benchmarks: physically possible two-player games.

:func:`two_player_record` (Ramino or Gin) deals a shuffled 52-card deck (10 cards each, one upcard,
the stock in known order) and plays ``turns`` turns of draw-from-stock then
discard, hand after hand. Every card is where the events say, so the record
passes the REC rules; the play is random, so the audit may flag it. Pure:
the same arguments give the same events.

>>> events = two_player_record("g1", variant="gin", hands=1, turns=4, seed=7)
>>> [e.type for e in events][:4]
['game_started', 'hand_dealt', 'upcard_passed', 'upcard_passed']
>>> len(events)
14
"""

from __future__ import annotations

import random

from ledger.cards import standard_deck
from ledger.events import (
    CardDiscarded,
    CardDrawn,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    Player,
    UpcardPassed,
)


def two_player_record(
    game_id: str, *, variant: str = "ramino", hands: int = 1, turns: int = 20, seed: int = 0
) -> list[Event]:
    """A two-player ``ramino`` or ``gin`` record of ``hands`` hands of
    ``turns`` turns each (``turns`` is capped by the stock: 31 cards). Events:
    ``game_started``, then per hand ``hand_dealt``, in Gin both seats'
    ``upcard_passed``, ``turns`` x
    (``card_drawn``, ``card_discarded``), ``hand_ended`` (``stock_exhausted``
    when two stock cards are left, else ``stalled``); finally ``game_ended``
    (``abandoned``)."""
    rng = random.Random(seed)
    events: list[Event] = [
        GameStarted(
            game_id=game_id, variant=variant, players=(Player(seat=0, name="Anna"), Player(seat=1, name="Bruno"))
        )
    ]
    for hand in range(1, hands + 1):
        dealer = (hand - 1) % 2
        deck = standard_deck()
        rng.shuffle(deck)
        held = [sorted(deck[0:10]), sorted(deck[10:20])]
        discard = [deck[20]]
        stock = deck[21:]
        events.append(
            HandDealt(
                hand=hand,
                dealer=dealer,
                hands=(tuple(held[0]), tuple(held[1])),
                discard=tuple(discard),
                stock=tuple(stock),
            )
        )
        seat = 1 - dealer
        if variant == "gin":
            events += [UpcardPassed(seat=seat), UpcardPassed(seat=dealer)]
        played = min(turns, len(stock) - 2)
        for _ in range(played):
            card = stock.pop(0)
            held[seat].append(card)
            events.append(CardDrawn(seat=seat, card=card))
            out = held[seat].pop(rng.randrange(len(held[seat])))
            discard.append(out)
            events.append(CardDiscarded(seat=seat, card=out))
            seat = 1 - seat
        events.append(HandEnded(reason="stock_exhausted" if len(stock) == 2 else "stalled"))
    events.append(GameEnded(reason="abandoned"))
    return events
