"""Classic-Ramino records for the analytics tests, with their hand-checked numbers.

``GAME_A`` (two hands, seed preset, 2 players; Anna seat 0, Bruno seat 1):

- hand 1 (dealer Bruno): Anna draws 6H, melds a = 3H-4H-5H-6H and b = 9C 9D
  9S, discards QH (holds KS 2D 7C). Bruno draws 4S, melds c = AS-2S-3S-4S,
  d = 6D-7D-8D, e = 10C-JC-QC and goes out discarding 5C: all his cards in one
  turn with no earlier meld, so he goes *rummy*. RULES.md "Ramino": he scores
  Anna's hand KS 10 + 2D 2 + 7C 7 = 19, doubled = 38
  (``hands_collected`` 19, ``rummy_double`` 19); Anna 0. The claimed sheet
  (``hand_ended``, position 11) says Bruno 40: ALL-SCORE-1 at position 11.
  The referee then gives Bruno -5 (``penalty_assessed``, position 12):
  adjudicated 33, as played 38.
- hand 2 (dealer Anna, positions 13-18): Bruno takes the upcard 5D from the
  discard pile and discards it again (RAM-DISC-1 at position 15), Anna draws
  KC and discards it, the hand is abandoned (position 18) and the game ends
  (``hands_played``, position 19). Hand 2 scores 0 for both.

Totals: adjudicated Anna 0, Bruno 33 -> winner seat 1; as played 0 / 38.
"""

from __future__ import annotations

from ledger.cards import standard_deck
from ledger.testing.records import (
    claims,
    discard,
    draw,
    game_ended,
    game_started,
    hand_dealt,
    hand_ended,
    lines,
    meld,
    penalty,
    restored,
    take,
    went_out,
)

ANNA_1 = ["3H", "4H", "5H", "9C", "9D", "9S", "KS", "2D", "7C", "QH"]
BRUNO_1 = ["AS", "2S", "3S", "6D", "7D", "8D", "10C", "JC", "QC", "5C"]


def stock(hands: list[list[str]], upcard: list[str], first: list[str]) -> list[str]:
    """The rest of the deck, ``first`` on top, then deck order."""
    used = {c for h in hands for c in h} | set(upcard) | set(first)
    return first + [c for c in standard_deck() if c not in used]


def game_a(game_id: str = "ram-a", *, tournament: str = "Club night", date: str = "2026-11-29") -> bytes:
    """The record described in the module docstring."""
    h2_anna = ["AC", "2C", "3C", "4C", "6C", "8C", "9H", "10H", "JH", "QD"]
    h2_bruno = ["AD", "2H", "3D", "4D", "6S", "7S", "8S", "9D", "10D", "JD"]
    evs = [
        game_started("ramino", game_id=game_id, meta={"tournament": tournament, "date": date, "table": "3"}),
        hand_dealt([ANNA_1, BRUNO_1], up=["6C"], stock=stock([ANNA_1, BRUNO_1], ["6C"], ["6H", "4S", "KD"]))
        | {"at": "2026-11-29T20:00:00+01:00"},
        draw(0, "6H") | {"at": "2026-11-29T20:00:30+01:00"},
        meld(0, "a", "3H 4H 5H 6H"),
        meld(0, "b", "9C 9D 9S"),
        discard(0, "QH"),
        draw(1, "4S"),
        meld(1, "c", "AS 2S 3S 4S"),
        meld(1, "d", "6D 7D 8D"),
        meld(1, "e", "10C JC QC"),
        discard(1, "5C"),
        went_out(1, claims(0, 40)),
        penalty(1, -5, "ALL-SCORE-1", note="wrong sheet"),
        hand_dealt(
            [h2_anna, h2_bruno], up=["5D"], hand=2, dealer=0, stock=stock([h2_anna, h2_bruno], ["5D"], ["KC", "KH"])
        ),
        take(1, "5D"),
        discard(1, "5D"),
        draw(0, "KC"),
        discard(0, "KC"),
        hand_ended("abandoned"),
        game_ended("hands_played"),
    ]
    return lines(*evs)


def game_b(game_id: str = "ram-b") -> bytes:
    """Three players (Anna 0, Bruno 1, Carla 2), one hand still in play, no ``at``.

    Positions: 0 game_started, 1 hand_dealt (dealer Carla), 2 Anna draws 6H,
    3 Anna melds a = 3H-4H-5H-6H, 4 Anna discards KS, 5 Carla draws 9S out of
    turn (ALL-TURN-1: Bruno is due), 6 the referee restores position 4
    (position 5 is undone), 7 Bruno draws 9S, 8 Bruno melds f = 6D-7D-8D,
    9 Bruno discards 10C, 10 Carla draws JD, 11 Carla melds g = JC-QC-KC,
    12 Carla discards JD, 13 Anna draws QD, 14 Anna discards QD.
    No hand has ended: no scores, no winner.
    """
    hands = [
        ["3H", "4H", "5H", "9C", "9D", "KS", "2D"],
        ["AS", "2S", "3S", "6D", "7D", "8D", "10C"],
        ["JC", "QC", "KC", "4D", "5D", "7S", "8S"],
    ]
    evs = [
        game_started("ramino", 3, game_id=game_id, ruleset="pagat", meta={"tournament": "Open", "date": "2026-12-05"}),
        hand_dealt(hands, up=["6C"], dealer=2, stock=stock(hands, ["6C"], ["6H", "9S", "JD", "QD"])),
        draw(0, "6H"),
        meld(0, "a", "3H 4H 5H 6H"),
        discard(0, "KS"),
        draw(2, "9S"),
        restored(4, "Carla drew out of turn"),
        draw(1, "9S"),
        meld(1, "f", "6D 7D 8D"),
        discard(1, "10C"),
        draw(2, "JD"),
        meld(2, "g", "JC QC KC"),
        discard(2, "JD"),
        draw(0, "QD"),
        discard(0, "QD"),
    ]
    return lines(*evs)
