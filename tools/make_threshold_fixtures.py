"""Write the Scala 40 and Ramino 51 fixture records (deterministic).

Usage: ``python tools/make_threshold_fixtures.py`` then
``python tools/make_expected.py fixtures/scala40/*.jsonl fixtures/ramino51/*.jsonl``.
The scenarios are the ones the unit tests check by hand (tests/test_scala40.py,
tests/test_ramino51.py); the hand-computed scores of every fixture are in the
docstrings below and asserted again in ``tests/test_threshold_fixtures.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

from ledger.cards import standard_deck
from ledger.testing.records import (
    claims,
    discard,
    draw,
    filled_deal,
    game_ended,
    hand_ended,
    meld,
    scenario_lines,
    swap,
    take,
    went_out,
)

ROOT = Path(__file__).resolve().parent.parent / "fixtures"
STALLED = hand_ended("stalled")


# --- Scala 40 ------------------------------------------------------------------------------


def three_player_hand(claimed: list | None = None) -> list[dict]:
    """Anna opens (60) and goes out in her second turn; Bruno opened (45) and
    keeps A♠ K♥ JK 2♣ 9♦ 8♦ 3♦; Carla never opens (her cards: 101 points)."""
    return [
        filled_deal(
            "6H 7H 8H 9H QS QH QC 2D 3D 4D 5S 5H 5D",
            "JS JH JD 4C 5C 6C 7C AS KH JK 2C 9D 8D",
            "2H 3H 4H 6D 7D 10H JC QD KC AC AD 9C 8C",
            up="10C",
        ),
        draw(0, "KD"),
        meld(0, "a", "6H 7H 8H 9H"),
        meld(0, "b", "QS QH QC"),
        discard(0, "KD"),
        draw(1, "3D"),
        meld(1, "c", "JS JH JD"),
        meld(1, "d", "4C 5C 6C"),
        discard(1, "7C"),
        draw(2, "KS"),
        discard(2, "KS"),
        draw(0, "10S"),
        meld(0, "e", "2D 3D 4D"),
        meld(0, "f", "5S 5H 5D"),
        discard(0, "10S"),
        went_out(0, claimed),
    ]


CHIUSURA = "AH 2H 3H 4H 2C 2D 2S 3C 3D 3S 4C 4D 4S"


def s40_elimination() -> list[dict]:
    """3 players, elimination 100.
    Hand 1: Anna opens 6♥7♥8♥9♥ 30 + Q♠Q♥Q♣ 30 = 60 and goes out; Bruno keeps
    A♠ K♥ 2♣ 9♦ 8♦ 3♦ (11+10+2+9+8+3 = 43) and a joker (25): 68; Carla never
    opened: 100, reaches 100 and is out.
    Hand 2: Anna deals (Carla skipped), Bruno plays first and never opens; Anna
    goes out at once (chiusura in mano, 37 points, no minimum): Bruno 100
    unopened, doubled: 200, total 268: out. Anna wins, 0."""
    return [
        *three_player_hand(claims(0, 68, 100)),
        filled_deal(CHIUSURA, "KD", "-", dealer=0, hand=2, up="9C"),
        draw(1, "7S"),
        discard(1, "7S"),
        draw(0, "KS"),
        meld(0, "a", "AH 2H 3H 4H"),
        meld(0, "b", "2C 2D 2S"),
        meld(0, "c", "3C 3D 3S"),
        meld(0, "d", "4C 4D 4S"),
        discard(0, "KS"),
        went_out(0, claims(0, 200, 0)),
        game_ended("elimination", claims(0, 268, 100)),
    ]


def s40_openings() -> list[dict]:
    """Anna opens with 39 (7♥8♥9♥ 24 + 5♣5♦5♠ 15): S40-OPEN-1; Bruno with
    exactly 40 (Q♦K♦A♦ 31 + 3♣3♦3♠ 9): legal. Hand stalled: 0 each."""
    return [
        filled_deal("7H 8H 9H 5C 5D 5S KD", "QD KD AD 3C 3D 3S KC"),
        draw(0, "2S"),
        meld(0, "a", "7H 8H 9H"),
        meld(0, "b", "5C 5D 5S"),
        discard(0, "KD"),
        draw(1, "2H"),
        meld(1, "c", "QD KD AD"),
        meld(1, "d", "3C 3D 3S"),
        discard(1, "KC"),
        STALLED,
        game_ended("abandoned"),
    ]


def swap_table(bruno: str = "JS JH JD 4C 5C 6C 8H 8D QD 10D 10S KH") -> list[dict]:
    """Anna opens with 7♥JK9♥ (24) and Q♠Q♥JK (30); Bruno opens (45) at positions 7–8."""
    return [
        filled_deal("7H JK 9H QS QH JK KD", bruno),
        draw(0, "2S"),
        meld(0, "a", "7H JK 9H"),
        meld(0, "b", "QS QH JK"),
        discard(0, "KD"),
        draw(1, "3D"),
        meld(1, "c", "JS JH JD"),
        meld(1, "d", "4C 5C 6C"),
    ]


def s40_jolly_swap() -> list[dict]:
    """Anna opens 7♥JK9♥ 24 + Q♠Q♥JK 30; Bruno opens J♠J♥J♦ 30 + 4♣5♣6♣ 15,
    swaps 8♥ for the joker of 7♥JK9♥ (legal) and Q♠ for the joker of Q♠Q♥JK
    (wrong: it stands for Q♣ or Q♦, S40-SWAP-1) and keeps both jokers (legal:
    ``freed_joker_must_be_melded`` is off). Anna takes Bruno's K♥ and does not
    meld it: S40-PILE-2. Stalled: 0 each."""
    return [
        *swap_table("JS JH JD 4C 5C 6C 8H QS KH"),
        swap(1, "a", "8H"),
        swap(1, "b", "QS"),
        discard(1, "KH"),
        take(0, "KH"),
        discard(0, "2S"),
        STALLED,
        game_ended("abandoned"),
    ]


def s40_restock(seed: int = 40) -> list[dict]:
    """6 players, known stock of 29 (108 − 6×13 − 1): everyone draws the top and
    discards it until the stock is empty, the pile less its top card is
    restocked (order given), one more draw; the hand is stalled: 0 each."""
    rng = random.Random(seed)
    cards = standard_deck(2, 4)
    rng.shuffle(cards)
    hands = [sorted(cards[i * 13 : (i + 1) * 13]) for i in range(6)]
    up, stock = cards[78], cards[79:]
    events: list[dict] = [
        {"type": "hand_dealt", "hand": 1, "dealer": 5, "hands": hands, "discard": [up], "stock": stock, "_fill": False}
    ]
    pile = [up]
    for i, card in enumerate(stock):
        events += [draw(i % 6, card), discard(i % 6, card)]
        pile.append(card)
    new = pile[:-1]
    rng.shuffle(new)
    events.append({"type": "stock_restocked", "cards": new})
    seat = len(stock) % 6
    events += [draw(seat, new[0]), discard(seat, new[0]), STALLED, game_ended("abandoned")]
    return events


# --- Ramino 51 -------------------------------------------------------------------------------

ANNA51 = "KS KH KC 6H 7H 8H 3D 4D 5D 6D 9D 9H 9S 10C"


def r51_first_hand(claimed: list[dict] | None = None) -> list[dict]:
    """3 players: Anna opens with exactly 51 (K♠K♥K♣ 30 + 6♥7♥8♥ 21) and goes out in her
    next turn; Bruno opened (59) and keeps A♣ K♦ 7♣ 2♠ 5♣ 4♠ JK JK; Carla never opens."""
    return [
        filled_deal(
            ANNA51,
            "9C QS QH QC 9S 10S JS AC KD 7C 2S JK JK 5C",
            "2H 3H 4H 6D 7D 10H JC QD KC AD 8C 3C 4C 5S",
            up="JH",
            fill=False,
        ),
        draw(0, "QD"),
        discard(0, "QD"),
        draw(1, "4S"),
        discard(1, "9C"),
        draw(2, "8S"),
        discard(2, "8S"),
        draw(0, "AS"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H 8H"),
        discard(0, "AS"),
        draw(1, "KH"),
        meld(1, "c", "QS QH QC"),
        meld(1, "d", "9S 10S JS"),
        discard(1, "KH"),
        draw(2, "8H"),
        discard(2, "8H"),
        draw(0, "7D"),
        meld(0, "e", "3D 4D 5D 6D 7D"),
        meld(0, "f", "9D 9H 9S"),
        discard(0, "10C"),
        went_out(0, claimed),
    ]


def r51_elimination() -> list[dict]:
    """3 players, elimination 101.
    Hand 1: Anna opens with exactly 51 (K♠K♥K♣ 30 + 6♥7♥8♥ 21) and goes out;
    Bruno opened (59) and keeps A♣ K♦ 7♣ 2♠ 5♣ 4♠ = 39 with two jokers:
    doubled once, 78; Carla never opened: 100. Nobody is out yet.
    Hand 2: Anna deals, Bruno and Carla never meld; Anna goes out all at once
    in her second turn: 200 each. Bruno 278, Carla 300: both out, Anna wins."""
    return [
        *r51_first_hand(claims(0, 78, 100)),
        filled_deal(ANNA51, "2C", "3C", dealer=0, hand=2, up="JH"),
        draw(1, "5S"),
        discard(1, "2C"),
        draw(2, "5H"),
        discard(2, "3C"),
        draw(0, "QD"),
        discard(0, "QD"),
        draw(1, "AH"),
        discard(1, "AH"),
        draw(2, "AD"),
        discard(2, "AD"),
        draw(0, "7D"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H 8H"),
        meld(0, "c", "3D 4D 5D 6D 7D"),
        meld(0, "d", "9D 9H 9S"),
        discard(0, "10C"),
        went_out(0, claims(0, 200, 200)),
        game_ended("elimination", claims(0, 278, 300)),
    ]


def r51_violations() -> list[dict]:
    """Anna takes the upcard in her first turn and melds in it (R51-PILE-1,
    R51-OPEN-1; 10♣J♣Q♣ 30 + K♠K♥K♣ 30 = 60 with a clean meld, so no
    R51-OPEN-2); Bruno melds 5♥JK7♥8♥ in his second turn (joker inside:
    R51-MELD-1) with Q♠Q♥Q♦ 30 (5+7+8+6 = 26 more: 56); Anna swaps 4♦ for
    Bruno's joker (wrong card: it stands for 6♥, R51-SWAP-1). Stalled: 0 each."""
    return [
        filled_deal("JC QC KS KH KC 2D 4D", "5H 7H 8H JK QS QH QD 9C", up="10C"),
        take(0, "10C"),
        meld(0, "a", "10C JC QC"),
        meld(0, "b", "KS KH KC"),
        discard(0, "2D"),
        draw(1, "3S"),
        discard(1, "9C"),
        draw(0, "4S"),
        discard(0, "4S"),
        draw(1, "3H"),
        meld(1, "c", "5H JK 7H 8H"),
        meld(1, "d", "QS QH QD"),
        discard(1, "3H"),
        draw(0, "2S"),
        swap(0, "c", "4D"),
        discard(0, "2S"),
        STALLED,
        game_ended("abandoned"),
    ]


FIXTURES = {
    "scala40/elimination.jsonl": (s40_elimination, {"players": 3, "options": {"elimination": 100}}),
    "scala40/openings_at_and_under_40.jsonl": (s40_openings, {}),
    "scala40/jolly_swap.jsonl": (s40_jolly_swap, {}),
    "scala40/stock_restock.jsonl": (s40_restock, {"players": 6}),
    "ramino51/elimination.jsonl": (r51_elimination, {"players": 3, "variant": "ramino51", "size": 14}),
    "ramino51/violations.jsonl": (r51_violations, {"variant": "ramino51", "size": 14}),
}


def main() -> int:
    for name, (build, kw) in FIXTURES.items():
        path = ROOT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        game_id = path.stem.replace("_", "-")
        lines = scenario_lines(build(), game_id=f"{path.parent.name}-{game_id}", **kw)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
