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
from collections.abc import Iterator

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
    StockRestocked,
    UpcardPassed,
    encode_event,
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


def long_game_lines(game_id: str, *, target_bytes: int, turns: int = 2_000, seed: int = 0) -> Iterator[bytes]:
    """The canonical lines (each ending in ``\\n``) of one two-player classic
    Ramino game of about ``target_bytes`` bytes, made one line at a time (a
    stress test of the import path: one game of gigabytes, never held).

    Hand after hand (at most 10,000, the format's bound on ``hand``): the
    deal, then ``turns`` turns of draw-from-stock then discard in turn order;
    when the stock is empty, ``stock_restocked`` turns the discard pile
    (but its top card) over; the hand ends ``stalled``. The game ends
    ``abandoned`` once ``target_bytes`` are written. Every card is where the
    events say and every turn is in order, so the record is accepted and has
    no findings. Deterministic for a ``seed``.

    >>> text = b"".join(long_game_lines("g", target_bytes=5_000, turns=20))
    >>> text.count(b"\\n"), text.count(b"hand_dealt"), text.count(b"stock_restocked")
    (128, 3, 0)
    """
    rng = random.Random(seed)
    first = GameStarted(
        game_id=game_id, variant="ramino", players=(Player(seat=0, name="Anna"), Player(seat=1, name="Bruno"))
    )
    line = encode_event(first) + b"\n"
    written = len(line)
    yield line
    hand = 0
    while written < target_bytes and hand < 10_000:
        hand += 1
        for line in _long_hand(hand, turns, rng):
            written += len(line)
            yield line
    yield encode_event(GameEnded(reason="abandoned")) + b"\n"


def _long_hand(hand: int, turns: int, rng: random.Random) -> Iterator[bytes]:
    """The lines of one hand of :func:`long_game_lines`."""
    dealer = (hand - 1) % 2
    deck = standard_deck()
    rng.shuffle(deck)
    held = [sorted(deck[0:10]), sorted(deck[10:20])]
    pile = [deck[20]]
    stock = deck[21:]
    deal = HandDealt(
        hand=hand, dealer=dealer, hands=(tuple(held[0]), tuple(held[1])), discard=tuple(pile), stock=tuple(stock)
    )
    yield encode_event(deal) + b"\n"
    seat = 1 - dealer
    for _ in range(turns):
        if not stock:
            stock = list(reversed(pile[:-1]))
            pile = pile[-1:]
            yield encode_event(StockRestocked(cards=tuple(stock))) + b"\n"
        card = stock.pop(0)
        held[seat].append(card)
        yield encode_event(CardDrawn(seat=seat, card=card)) + b"\n"
        out = held[seat].pop(rng.randrange(len(held[seat])))
        pile.append(out)
        yield encode_event(CardDiscarded(seat=seat, card=out)) + b"\n"
        seat = 1 - seat
    yield encode_event(HandEnded(reason="stalled")) + b"\n"
