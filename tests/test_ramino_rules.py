"""Classic Ramino (RULES.md "Ramino, classic Rummy"): going out per preset,
chiudere in mano, restock per option, hand sizes, and every RAM-… id.

Seat 1 deals; seat 0 (Anna) plays first.
"""

from __future__ import annotations

import pytest

from ledger.errors import RecordError
from ledger.replay import replay
from ledger.scoring import score_sheet
from ledger.testing.records import decoded, discard, draw, game_started, hand_dealt, meld, went_out
from ledger.testing.records import seat_findings as findings

H0 = ["AS", "2S", "3S", "7C", "7D", "7H", "9H", "10H", "JH", "KC"]
H1 = ["4S", "5S", "6S", "QC", "QD", "QH", "AD", "2D", "3C", "5H"]  # 4+5+6+30+1+2+3+5 = 56


def rec(*lines: dict, ruleset: str = "seed", options: dict | None = None, hands=(H0, H1), upcard: str = "KD") -> list:
    start = game_started("ramino", len(hands), game_id="r", ruleset=ruleset, options=options)
    return decoded(start, hand_dealt(hands, up=[upcard], dealer=1 % len(hands)), *lines)


def scores(events, hand: int = 0) -> list[tuple[int, dict]]:
    return [(s["points"], s["breakdown"]) for s in score_sheet(replay(events)).to_json()["hands"][hand]["scores"]]


MANO = [
    draw(0, "8H"),
    meld(0, "a", ["AS", "2S", "3S"]),
    meld(0, "b", ["7C", "7D", "7H"]),
    meld(0, "c", ["8H", "9H", "10H", "JH"]),
    discard(0, "KC"),
    went_out(0),
]


def test_chiudere_in_mano_doubles_the_collected_hands() -> None:
    ev = rec(*MANO)
    assert findings(ev) == []
    assert scores(ev) == [(112, {"hands_collected": 56, "rummy_double": 56}), (0, {})]
    assert scores(rec(*MANO, options={"rummy_doubles": False})) == [
        (56, {"hands_collected": 56, "rummy_double": 0}),
        (0, {}),
    ]


def test_going_out_after_an_earlier_meld_is_not_rummy() -> None:
    ev = rec(
        draw(0, "8H"),
        meld(0, "a", ["AS", "2S", "3S"]),
        discard(0, "KC"),
        draw(1, "4C"),
        discard(1, "4C"),
        draw(0, "2C"),
        meld(0, "b", ["7C", "7D", "7H"]),
        meld(0, "c", ["8H", "9H", "10H", "JH"]),
        discard(0, "2C"),
        went_out(0),
    )
    assert findings(ev) == []
    assert scores(ev) == [(56, {"hands_collected": 56, "rummy_double": 0}), (0, {})]


# --- RAM-OUT-1 --------------------------------------------------------------------------------------
OUT_H0 = ["AS", "2S", "3S", "4S", "7C", "7D", "7H", "9H", "10H", "JH"]
OUT_H1 = ["5S", "6S", "QC", "QD", "QH", "AD", "2D", "3C", "5H", "KD"]  # 5+6+30+1+2+3+5+10 = 62
MELD_OUT = [
    draw(0, "8H"),
    meld(0, "a", ["AS", "2S", "3S", "4S"]),
    meld(0, "b", ["7C", "7D", "7H"]),
    meld(0, "c", ["8H", "9H", "10H", "JH"]),
    went_out(0),
]


def test_RAM_OUT_1_going_out_by_melding_in_seed() -> None:
    # reported at the meld that empties the hand (position 5), not at hand_ended
    ev = rec(*MELD_OUT, hands=(OUT_H0, OUT_H1), upcard="KC")
    assert findings(ev) == [
        (
            5,
            0,
            "RAM-OUT-1",
            "Anna went out without a discard (preset seed requires one): the last card went into a meld",
        )
    ]
    # and it stays when the referee rewinds at once (RULES.md: the finding belongs to that event)
    rewound = rec(
        *MELD_OUT[:-1],
        {"type": "position_restored", "target": 4, "reason": "a discard is required"},
        hands=(OUT_H0, OUT_H1),
        upcard="KC",
    )
    assert findings(rewound) == [
        (
            5,
            0,
            "RAM-OUT-1",
            "Anna went out without a discard (preset seed requires one): the last card went into a meld",
        )
    ]
    assert replay(rewound).hands[0] == ("9H", "10H", "JH", "8H")


def test_RAM_OUT_1_legal_in_pagat() -> None:
    ev = rec(*MELD_OUT, ruleset="pagat", hands=(OUT_H0, OUT_H1), upcard="KC")
    assert findings(ev) == []
    assert scores(ev) == [(124, {"hands_collected": 62, "rummy_double": 62}), (0, {})]


def test_RAM_OUT_1_legal_going_out_by_discard_in_seed() -> None:
    assert findings(rec(*MANO)) == []


# --- RAM-DISC-1 -------------------------------------------------------------------------------------
def test_RAM_DISC_1_discarding_the_card_just_taken() -> None:
    ev = rec({"type": "discard_taken", "seat": 0, "cards": ["KD"]}, discard(0, "KD"))
    assert findings(ev) == [(3, 0, "RAM-DISC-1", "Anna discarded K♦, the card just taken from the discard pile")]


def test_RAM_DISC_1_legal_other_card_or_stock_card() -> None:
    assert findings(rec({"type": "discard_taken", "seat": 0, "cards": ["KD"]}, discard(0, "KC"))) == []
    assert findings(rec(draw(0, "4C"), discard(0, "4C"))) == []


# --- RAM-MELD-1 -------------------------------------------------------------------------------------
TWO_MELDS = [draw(0, "8C"), meld(0, "a", ["AS", "2S", "3S"]), meld(0, "b", ["7C", "7D", "7H"]), discard(0, "KC")]


def test_RAM_MELD_1_more_new_melds_than_allowed() -> None:
    ev = rec(*TWO_MELDS, options={"max_new_melds_per_turn": 1})
    assert findings(ev) == [(5, 0, "RAM-MELD-1", "Anna laid 2 new melds in one turn; at most 1 allowed")]


def test_RAM_MELD_1_legal_unlimited_by_default_and_within_limit() -> None:
    assert findings(rec(*TWO_MELDS)) == []
    assert findings(rec(*TWO_MELDS, options={"max_new_melds_per_turn": 2})) == []


# --- deal, melds, restock ---------------------------------------------------------------------------
def test_hand_sizes_by_player_count() -> None:
    three = (H0[:7], H1[:7], ["8C", "8D", "8S", "9C", "9D", "9S", "10C"])
    assert findings(rec(hands=three)) == []
    ev = rec(hands=(H0[:7], H1[:7], ["8C", "8D", "8S", "9C", "9D", "9S", "10C", "10D"]))
    assert findings(ev) == [(1, 2, "ALL-DEAL-1", "Carla was dealt 8 cards instead of 7")]


def test_ace_high_sequence_needs_the_option() -> None:
    hands = (["QS", "KS", "AS", "7C", "7D", "7H", "9H", "10H", "JH", "KC"], H1)
    ev = rec(draw(0, "8C"), meld(0, "a", ["QS", "KS", "AS"]), discard(0, "8C"), hands=hands)
    assert findings(ev) == [(3, 0, "ALL-MELD-1", "meld a Q♠ K♠ A♠: an ace high where only ace low is allowed")]
    assert (
        findings(
            rec(
                draw(0, "8C"),
                meld(0, "a", ["QS", "KS", "AS"]),
                discard(0, "8C"),
                hands=hands,
                options={"ace_high": True},
            )
        )
        == []
    )


def _exhaust() -> list[dict]:
    """31 stock draws, each discarded again: the stock is empty, the pile holds 32 cards."""
    used = set(H0) | set(H1) | {"KD"}
    rest = [
        r + s
        for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for s in "CDHS"
        if r + s not in used
    ]
    lines: list[dict] = []
    for i, c in enumerate(rest):
        lines += [draw(i % 2, c), discard(i % 2, c)]
    return lines


def test_restock_turn_over_puts_the_pile_bottom_on_top_pagat() -> None:
    # after 31 turns it is Bruno's turn; the pile less its top becomes the stock, K♦ (the first upcard) on top
    ev = rec(*_exhaust(), {"type": "stock_restocked"}, draw(1, "KD"), ruleset="pagat")
    state = replay(ev)
    assert state.stock_count == 30 and findings(ev) == []
    with pytest.raises(RecordError) as info:
        replay(rec(*_exhaust(), {"type": "stock_restocked"}, draw(1, "AC"), ruleset="pagat"))
    assert info.value.rule == "REC-WHERE"


def test_restock_shuffle_leaves_the_order_unknown_seed() -> None:
    ev = rec(*_exhaust(), {"type": "stock_restocked"}, draw(1, "AC"))
    assert replay(ev).stock_count == 30 and findings(ev) == []


def test_restock_end_hand_scores_0_for_everyone() -> None:
    ev = rec(*_exhaust(), {"type": "hand_ended", "reason": "stock_exhausted"}, options={"restock": "end_hand"})
    assert scores(ev) == [(0, {}), (0, {})]


def test_game_to_target_winner() -> None:
    ev = rec(*MANO, {"type": "game_ended", "reason": "target_reached"})
    sheet = score_sheet(replay(ev)).to_json()
    assert sheet["totals"] == [{"seat": 0, "points": 112}, {"seat": 1, "points": 0}] and sheet["winner"] == 0
