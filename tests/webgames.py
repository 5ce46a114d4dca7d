"""Records for the viewer's tests and benchmark (classic Ramino, two players).

:func:`small_game` is a hand-written two-hand game with known findings at
known positions (the scores are worked out in its docstring);
:func:`long_ramino` generates a physically possible classic-Ramino record of
any length (many hands of random draws, pile takes, sets and discards) for the
speed measurement.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ledger.cards import standard_deck
from ledger.events import (
    CardDiscarded,
    CardDrawn,
    ClaimedScore,
    DiscardTaken,
    Event,
    GameEnded,
    GameMeta,
    GameStarted,
    HandDealt,
    HandEnded,
    MeldExtended,
    MeldLaid,
    PenaltyAssessed,
    Player,
)

ANNA = ("3H", "4H", "5H", "9C", "9D", "9S", "JC", "JD", "JH", "2S")
BRUNO = ("AS", "6D", "7D", "8D", "10C", "QC", "4S", "5S", "8H", "7C")
UPCARD = ("6C",)
STOCK_TOP = ("KD", "6H")
HAND2_ANNA = ("AC", "2C", "3C", "4D", "5D", "6S", "7S", "8S", "9H", "10H")
HAND2_BRUNO = ("AD", "2D", "3D", "4C", "5C", "6H", "7H", "8C", "9S", "10S")


def _rest(*used: tuple[str, ...], top: tuple[str, ...] = ()) -> tuple[str, ...]:
    taken = Counter(c for group in used for c in group) + Counter(top)
    rest = [c for c in standard_deck() if not taken[c]]
    return tuple(top) + tuple(rest)


def small_game(
    game_id: str = "web-1",
    names: tuple[str, str] = ("Anna", "Bruno"),
    meta: dict[str, str] | None = None,
    note: str | None = "referee: checked the discard",
) -> list[Event]:
    """A two-hand classic-Ramino game (preset ``seed``), positions::

         0 game_started             9 Anna melds 9♣ 9♦ 9♠ [b]
         1 hand 1 dealt (Bruno)    10 Anna melds J♣ J♦ J♥ [c]
         2 Anna draws K♦           11 Anna discards 2♠ (goes out)
         3 Anna melds 3♥ 4♥ 5♥ [a] 12 hand ends, Anna went out, claims 70 -> ALL-SCORE-1
         4 Anna discards K♦        13 penalty: Bruno -10 (RAM-DISC-1), with ``note``
         5 Bruno takes K♦          14 hand 2 dealt (Anna)
         6 Bruno discards K♦ -> RAM-DISC-1   15 Anna draws (Bruno's turn) -> ALL-TURN-1
         7 Anna draws 6♥           16 Anna discards 10♥
         8 Anna lays off 6♥ on [a] 17 hand ends, stalled
                                   18 game ends (hands played)

    Hand 1: Bruno is left with A♠ 6♦ 7♦ 8♦ 10♣ Q♣ 4♠ 5♠ 8♥ 7♣ = 1+6+7+8+10+10+4+5+8+7
    = 66 points, all to Anna; she melded before her going-out turn, so no
    rummy double: Anna 66, Bruno 0 (as played). Her claim of 70 differs by +4.
    Bruno's penalty of -10 in hand 1 makes him -10 as adjudicated.
    Hand 2 is stalled: 0 each. Totals as adjudicated 66 / -10, as played 66 / 0.
    """
    players = (Player(seat=0, name=names[0]), Player(seat=1, name=names[1]))
    first = GameStarted(
        game_id=game_id,
        variant="ramino",
        ruleset="seed",
        players=players,
        meta=GameMeta(**meta) if meta else GameMeta(tournament="Club night", table="3", date="2026-11-29"),
    )
    stock1 = _rest(ANNA, BRUNO, UPCARD, top=STOCK_TOP)
    stock2 = _rest(HAND2_ANNA, HAND2_BRUNO, ("KS",), top=("QH",))
    return [
        first,
        HandDealt(hand=1, dealer=1, hands=(ANNA, BRUNO), discard=UPCARD, stock=stock1),
        CardDrawn(seat=0, card="KD"),
        MeldLaid(seat=0, meld="a", cards=("3H", "4H", "5H")),
        CardDiscarded(seat=0, card="KD"),
        DiscardTaken(seat=1, cards=("KD",)),
        CardDiscarded(seat=1, card="KD"),
        CardDrawn(seat=0, card="6H"),
        MeldExtended(seat=0, meld="a", cards=("6H",)),
        MeldLaid(seat=0, meld="b", cards=("9C", "9D", "9S")),
        MeldLaid(seat=0, meld="c", cards=("JC", "JD", "JH")),
        CardDiscarded(seat=0, card="2S"),
        HandEnded(reason="went_out", seat=0, claimed=(ClaimedScore(seat=0, points=70), ClaimedScore(seat=1, points=0))),
        PenaltyAssessed(seat=1, points=-10, rule="RAM-DISC-1", note=note),
        HandDealt(hand=2, dealer=0, hands=(HAND2_ANNA, HAND2_BRUNO), discard=("KS",), stock=stock2),
        CardDrawn(seat=0, card="QH"),
        CardDiscarded(seat=0, card="10H"),
        HandEnded(reason="stalled"),
        GameEnded(reason="hands_played"),
    ]


#: the findings of :func:`small_game`, exactly as the audit gives them
SMALL_FINDINGS: list[dict[str, Any]] = [
    {
        "position": 6,
        "hand": 1,
        "seat": 1,
        "rule": "RAM-DISC-1",
        "message": "Bruno discarded K♦, the card just taken from the discard pile",
    },
    {
        "position": 12,
        "hand": 1,
        "seat": 0,
        "rule": "ALL-SCORE-1",
        "message": "hand 1: claimed 70 for Anna, computed 66 (difference +4); computed as hands_collected +66",
    },
    {
        "position": 15,
        "hand": 2,
        "seat": 0,
        "rule": "ALL-TURN-1",
        "message": "Anna played out of turn: it was Bruno's turn",
    },
]
