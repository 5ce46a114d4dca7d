"""Gin Rummy (RULES.md "Gin Rummy"): the upcard offer, knocks, gin, big gin,
undercuts, lay-offs, the wall, scoring per preset, and every GIN-… id.

Deal used throughout (seat 1 deals, seat 0 plays first):
  seat 0: A♠ 2♠ 3♠ | 7♣ 7♦ 7♥ | 9♥ 10♥ J♥ | K♣       (deadwood K♣ = 10)
  seat 1: 4♠ 5♠ 6♠ | Q♣ Q♦ Q♥ | A♦ 2♦ 3♣ 8♥          (deadwood 1+2+3+8 = 14)
  upcard K♦.
"""

from __future__ import annotations

import pytest

from ledger.errors import RecordError
from ledger.render import render_state
from ledger.replay import replay
from ledger.scoring import score_sheet
from ledger.testing.records import (
    decoded,
    discard,
    draw,
    extend,
    game_started,
    hand_dealt,
    hand_ended,
    knocked,
    meld,
    take,
    upcard_passed,
)
from ledger.testing.records import seat_findings as findings

H0 = ["AS", "2S", "3S", "7C", "7D", "7H", "9H", "10H", "JH", "KC"]
H1 = ["4S", "5S", "6S", "QC", "QD", "QH", "AD", "2D", "3C", "8H"]
K_MELDS = [
    {"meld": "k1", "cards": ["AS", "2S", "3S"]},
    {"meld": "k2", "cards": ["7C", "7D", "7H"]},
    {"meld": "k3", "cards": ["9H", "10H", "JH"]},
]


def rec(
    *lines: dict, ruleset: str = "standard", options: dict | None = None, hands=(H0, H1), upcard: str = "KD"
) -> list:
    start = game_started("gin", 2, game_id="g", ruleset=ruleset, options=options)
    return decoded(start, hand_dealt(hands, up=[upcard]), *lines)


END = hand_ended("knocked", 0)
DEFENCE = [meld(1, "d1", ["4S", "5S", "6S"]), meld(1, "d2", ["QC", "QD", "QH"]), extend(1, "k3", ["8H"])]


def hand_scores(events, hand: int = 0) -> list[tuple[int, dict]]:
    return [(s["points"], s["breakdown"]) for s in score_sheet(replay(events)).to_json()["hands"][hand]["scores"]]


# --- knock, undercut, lay-off -------------------------------------------------------------------


def test_knock_with_defender_melds_and_layoff_knocker_scores_the_difference() -> None:
    # Anna draws 2♣, knocks with deadwood 2; Bruno melds and lays off 8♥: A♦ 2♦ 3♣ = 6 left. 6 - 2 = 4.
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", K_MELDS, ["2C"]), *DEFENCE, END)
    assert findings(ev) == []
    assert hand_scores(ev) == [(4, {"deadwood_difference": 4}), (0, {})]


def test_undercut_defender_scores_difference_plus_25() -> None:
    # Anna knocks with 9♣ (9); Bruno is left with 6: undercut, 9 - 6 + 25 = 28 to Bruno.
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "9C"), knocked(0, "KC", K_MELDS, ["9C"]), *DEFENCE, END)
    assert findings(ev) == []
    assert hand_scores(ev) == [(0, {}), (28, {"deadwood_difference": 3, "undercut_bonus": 25})]


def test_equal_deadwood_is_an_undercut_in_standard_and_0_0_in_openspiel() -> None:
    lines = (upcard_passed(0), upcard_passed(1), draw(0, "6C"), knocked(0, "KC", K_MELDS, ["6C"]), *DEFENCE, END)
    assert hand_scores(rec(*lines)) == [(0, {}), (25, {"deadwood_difference": 0, "undercut_bonus": 25})]
    assert hand_scores(rec(*lines, ruleset="openspiel")) == [(0, {}), (0, {})]


def test_defender_without_declared_melds_counts_every_card() -> None:
    # Scoring uses the melds each seat declared: Bruno declares none, so all ten count:
    # 4+5+6+10+10+10+1+2+3+8 = 59; Anna knocked with 2♣: 59 - 2 = 57.
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", K_MELDS, ["2C"]), END)
    assert findings(ev) == []
    assert hand_scores(ev) == [(57, {"deadwood_difference": 57}), (0, {})]


GIN_HAND = ["AS", "2S", "3S", "7C", "7D", "7H", "9H", "10H", "JH", "KC"]
DEF_HAND = ["4S", "5S", "6S", "QC", "QD", "QH", "AD", "2D", "3C", "5H"]


def test_gin_and_no_layoff_after_gin() -> None:
    # Anna draws 8♥, discards K♣: all ten melded. Bruno melds the queens and 4-5-6♠: A♦ 2♦ 3♣ 5♥ = 11 left.
    melds = K_MELDS[:2] + [{"meld": "k3", "cards": ["8H", "9H", "10H", "JH"]}]
    ev = rec(
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "8H"),
        knocked(0, "KC", melds, []),
        meld(1, "d1", ["4S", "5S", "6S"]),
        meld(1, "d2", ["QC", "QD", "QH"]),
        END,
        hands=(GIN_HAND, DEF_HAND),
    )
    assert findings(ev) == []
    assert hand_scores(ev) == [(36, {"deadwood_difference": 11, "gin_bonus": 25}), (0, {})]


def test_GIN_LAY_1_layoff_after_gin_is_flagged_and_does_not_count() -> None:
    melds = [
        {"meld": "k1", "cards": ["AS", "2S", "3S"]},
        K_MELDS[1],
        {"meld": "k3", "cards": ["8H", "9H", "10H", "JH"]},
    ]
    ev = rec(
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "8H"),
        knocked(0, "KC", melds, []),
        meld(1, "d2", ["QC", "QD", "QH"]),
        extend(1, "k1", ["4S"]),
        END,
        hands=(GIN_HAND, DEF_HAND),
    )
    assert findings(ev) == [(7, 1, "GIN-LAY-1", "Bruno laid off 4♠ on meld k1 after Anna went gin")]
    # 4♠ stays deadwood: 4+5+6+1+2+3+5 = 26, +25
    assert hand_scores(ev) == [(51, {"deadwood_difference": 26, "gin_bonus": 25}), (0, {})]


def test_GIN_LAY_1_layoff_by_the_knocker() -> None:
    # Anna takes the 4♠ upcard, knocks (discard 2♣, deadwood 4♠), then lays the 4♠ off onto her own A♠ 2♠ 3♠.
    ev = rec(
        {"type": "discard_taken", "seat": 0, "cards": ["4S"]},
        knocked(0, "2C", K_MELDS, ["4S"]),
        extend(0, "k1", ["4S"]),
        END,
        hands=(H0[:9] + ["2C"], ["KC"] + H1[1:]),
        upcard="4S",
    )
    assert findings(ev) == [(4, 0, "GIN-LAY-1", "Anna laid off 4♠ on meld k1: the knocker does not lay off")]
    # the 4♠ stays Anna's deadwood (4); Bruno declared nothing: 10+5+6+30+1+2+3+8 = 65 -> 61
    assert hand_scores(ev) == [(61, {"deadwood_difference": 61}), (0, {})]


def test_GIN_LAY_1_legal_layoff_by_the_defender() -> None:
    ev = rec(
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "2C"),
        knocked(0, "KC", K_MELDS, ["2C"]),
        extend(1, "k3", ["8H"]),
        END,
    )
    assert findings(ev) == []


# --- GIN-KNOCK-1 / GIN-KNOCK-2 ------------------------------------------------------------------


def test_GIN_KNOCK_1_deadwood_above_the_knock_card() -> None:
    ev = rec(
        upcard_passed(0), upcard_passed(1), draw(0, "QS"), knocked(0, "QS", K_MELDS[:2], ["9H", "10H", "JH", "KC"]), END
    )
    assert findings(ev) == [
        (5, 0, "GIN-KNOCK-1", "Anna knocked with deadwood 39 (9♥ 10♥ J♥ K♣), above the knock card 10")
    ]


def test_GIN_KNOCK_1_legal_at_exactly_the_knock_card() -> None:
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "2C", K_MELDS, ["KC"]), END)
    assert findings(ev) == []  # K♣ = 10


def test_GIN_KNOCK_1_respects_the_knock_card_option() -> None:
    ev = rec(
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "2C"),
        knocked(0, "KC", K_MELDS, ["2C"]),
        END,
        options={"knock_card": 1},
    )
    assert findings(ev) == [(5, 0, "GIN-KNOCK-1", "Anna knocked with deadwood 2 (2♣), above the knock card 1")]


def test_GIN_KNOCK_2_invalid_declared_meld() -> None:
    melds = [K_MELDS[0], {"meld": "k2", "cards": ["7C", "7D", "9H"]}, {"meld": "k3", "cards": ["7H", "10H", "JH"]}]
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", melds, ["2C"]), END)
    assert findings(ev) == [
        (5, 0, "GIN-KNOCK-2", "declared meld k2 7♣ 7♦ 9♥: neither a set nor a sequence"),
        (5, 0, "GIN-KNOCK-2", "declared meld k3 7♥ 10♥ J♥: neither a set nor a sequence"),
        (5, 0, "GIN-KNOCK-1", "Anna knocked with deadwood 52 (2♣ 7♣ 7♦ 9♥ 7♥ 10♥ J♥), above the knock card 10"),
    ]


def test_GIN_KNOCK_2_declaration_that_is_not_the_hand() -> None:
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", K_MELDS, []), END)
    assert findings(ev) == [
        (5, 0, "GIN-KNOCK-2", "Anna's knock leaves out 2♣: melds and deadwood must be exactly the ten cards held")
    ]
    # the hidden 2♣ still counts: a knock (2), not gin. Bruno: 4+5+6+30+1+2+3+8 = 59 - 2 = 57
    assert hand_scores(ev) == [(57, {"deadwood_difference": 57}), (0, {})]


def test_GIN_KNOCK_2_legal_exact_declaration() -> None:
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", K_MELDS, ["2C"]), END)
    assert findings(ev) == []


# --- GIN-DISC-1 ------------------------------------------------------------------------------------

TAKE_UP = {"type": "discard_taken", "seat": 0, "cards": ["KD"]}


def test_GIN_DISC_1_discarding_the_upcard_just_taken_standard() -> None:
    ev = rec(TAKE_UP, {"type": "card_discarded", "seat": 0, "card": "KD"})
    assert findings(ev) == [(3, 0, "GIN-DISC-1", "Anna discarded K♦, the card just taken from the discard pile")]


def test_GIN_DISC_1_legal_in_openspiel_and_for_another_card() -> None:
    assert findings(rec(TAKE_UP, {"type": "card_discarded", "seat": 0, "card": "KD"}, ruleset="openspiel")) == []
    assert findings(rec(TAKE_UP, {"type": "card_discarded", "seat": 0, "card": "KC"})) == []


def test_GIN_DISC_1_applies_to_the_knock_discard() -> None:
    ev = rec(TAKE_UP, knocked(0, "KD", K_MELDS, ["KC"]), END)
    assert findings(ev) == [(3, 0, "GIN-DISC-1", "Anna discarded K♦, the card just taken from the discard pile")]


# --- the upcard offer, the wall, endings --------------------------------------------------------


def test_upcard_offer_dealer_may_take_after_the_non_dealer_passes() -> None:
    ev = rec(
        upcard_passed(0),
        {"type": "discard_taken", "seat": 1, "cards": ["KD"]},
        {"type": "card_discarded", "seat": 1, "card": "8H"},
        draw(0, "2C"),
    )
    assert findings(ev) == []
    assert replay(ev).turn == 0


def test_upcard_passed_out_of_turn_and_outside_the_offer() -> None:
    assert findings(rec(upcard_passed(1))) == [
        (2, 1, "ALL-TURN-1", "Bruno passed the upcard out of turn: it was Anna's turn")
    ]
    with pytest.raises(RecordError) as info:
        replay(rec(upcard_passed(0), upcard_passed(1), upcard_passed(0)))
    assert (info.value.rule, info.value.position) == ("REC-ORDER", 4)


def test_play_after_the_knock_other_than_melds_is_out_of_turn() -> None:
    ev = rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", K_MELDS, ["2C"]), draw(1, "4C"))
    assert findings(ev) == [
        (6, 1, "ALL-TURN-1", "Bruno drew after Anna knocked: only the defender's melds and lay-offs remain")
    ]


def test_hand_ended_knocked_without_a_knock_is_rejected() -> None:
    with pytest.raises(RecordError) as info:
        replay(rec(upcard_passed(0), upcard_passed(1), END))
    assert info.value.rule == "REC-ORDER"


def test_wall_is_a_0_0_draw() -> None:
    # 29 stock draws, each discarded again, leave two cards: the hand ends as a draw.
    used = set(H0) | set(H1) | {"KD"}
    rest = [
        r + s
        for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for s in "CDHS"
        if r + s not in used
    ]
    lines = [upcard_passed(0), upcard_passed(1)]
    for i, c in enumerate(rest[:29]):
        lines += [draw(i % 2, c), {"type": "card_discarded", "seat": i % 2, "card": c}]
    ev = rec(*lines, {"type": "hand_ended", "reason": "stock_exhausted"})
    state = replay(ev)
    assert state.stock_count == 2 and findings(ev) == []
    assert hand_scores(ev) == [(0, {}), (0, {})]


def test_big_gin_standard_31_and_openspiel_plain_gin() -> None:
    big = ["AS", "2S", "3S", "4S", "7C", "7D", "7H", "9H", "10H", "JH"]
    dfd = ["5S", "6S", "8C", "8D", "QD", "QC", "QH", "2D", "5H", "KD"]
    melds = [
        {"meld": "k1", "cards": ["AS", "2S", "3S"]},
        K_MELDS[1],
        {"meld": "k3", "cards": ["8H", "9H", "10H", "JH"]},
    ]
    lines = (
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "8H"),
        knocked(0, "4S", melds, []),
        meld(1, "d1", ["QC", "QD", "QH"]),
        END,
    )
    # Bruno: 5+6+8+8+2+5+10 = 44 after the queens
    assert hand_scores(rec(*lines, hands=(big, dfd), upcard="KC")) == [
        (75, {"deadwood_difference": 44, "big_gin_bonus": 31}),
        (0, {}),
    ]
    assert hand_scores(rec(*lines, hands=(big, dfd), upcard="KC", ruleset="openspiel")) == [
        (69, {"deadwood_difference": 44, "gin_bonus": 25}),
        (0, {}),
    ]


def test_game_to_target_with_game_and_box_bonuses() -> None:
    # hand 1: Anna knocks (2) vs Bruno 6 -> Anna 4. hand 2 (Anna deals, Bruno first): Bruno goes gin: 11 + 25 = 36,
    # 4 + ... Bruno 36 >= target 30: game bonus 100 + box 25 (one hand won); Anna's box 25.
    ev = rec(
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "2C"),
        knocked(0, "KC", K_MELDS, ["2C"]),
        *DEFENCE,
        END,
        options={"target": 30},
    )
    hand2 = {"type": "hand_dealt", "hand": 2, "dealer": 0, "hands": [DEF_HAND, GIN_HAND], "discard": ["KD"]}
    melds = K_MELDS[:2] + [{"meld": "k3", "cards": ["8H", "9H", "10H", "JH"]}]
    more = [
        hand2,
        upcard_passed(1),
        upcard_passed(0),
        draw(1, "8H"),
        knocked(1, "KC", melds, []),
        meld(0, "d1", ["4S", "5S", "6S"]),
        meld(0, "d2", ["QC", "QD", "QH"]),
        {"type": "hand_ended", "reason": "knocked", "seat": 1},
        {"type": "game_ended", "reason": "target_reached"},
    ]
    ev = ev + decoded(*more)
    assert findings(ev) == []
    sheet = score_sheet(replay(ev)).to_json()
    assert [[(s["points"], s["breakdown"]) for s in h["scores"]] for h in sheet["hands"]] == [
        [(4, {"deadwood_difference": 4}), (0, {})],
        [
            (25, {"box_bonus": 25}),
            (161, {"deadwood_difference": 11, "gin_bonus": 25, "game_bonus": 100, "box_bonus": 25}),
        ],
    ]
    assert sheet["totals"] == [{"seat": 0, "points": 29}, {"seat": 1, "points": 161}] and sheet["winner"] == 1


# --- the best deadwood in views -------------------------------------------------------------------


def test_show_displays_best_deadwood_for_every_seat() -> None:
    state = replay(rec(upcard_passed(0), upcard_passed(1), draw(0, "2C")))
    text = render_state(state)
    assert "Anna: best deadwood 2, could knock (discarding K♣)" in text
    assert "Bruno: best deadwood 14, could not knock" in text
    assert "Bruno" not in "\n".join(ln for ln in render_state(state, pov=0).splitlines() if "deadwood" in ln)


# --- the wall (GIN-WALL-1) ------------------------------------------------------------------------

USED = set(H0) | set(H1) | {"KD"}
STOCK = [
    r + s
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for s in "CDHS"
    if r + s not in USED
]


AVOID = ("3D", "9S", "2C")  # kept in the stock by to_the_wall (all but ``last``)


def to_the_wall(last: str = "3D", draws: int = 29) -> list[dict]:
    """Both pass; then ``draws`` stock cards (the last one ``last``), each discarded again at once.
    29 draws: positions 4..61, the discard at 61 (Anna's) leaves two stock cards (two of 3♦ 9♠ 2♣)."""
    order = [c for c in STOCK if c not in AVOID][: draws - 1] + [last]
    lines = [upcard_passed(0), upcard_passed(1)]
    for i, c in enumerate(order):
        lines += [draw(i % 2, c), discard(i % 2, c)]
    return lines


#: Bruno with 3♦: A♦ 2♦ 3♦ melded, 8♥ discarded face down, 3♣ (3) left.
B_MELDS = [
    {"meld": "k1", "cards": ["4S", "5S", "6S"]},
    {"meld": "k2", "cards": ["QC", "QD", "QH"]},
    {"meld": "k3", "cards": ["AD", "2D", "3D"]},
]
B_KNOCK = knocked(1, "8H", B_MELDS, ["3C"])
A_DEFENCE = [
    meld(0, "d1", ["AS", "2S", "3S"]),
    meld(0, "d2", ["7C", "7D", "7H"]),
    meld(0, "d3", ["9H", "10H", "JH"]),
]  # K♣ (10) left
B_END = {"type": "hand_ended", "reason": "knocked", "seat": 1}
WALL_END = {"type": "hand_ended", "reason": "stock_exhausted"}


def test_GIN_WALL_1_standard_draw_past_the_wall_then_a_knock_scores_0_0() -> None:
    # The discard at 61 leaves two stock cards: the hand is over. Bruno still draws 3♦ (62) and knocks (63):
    # without the rule this scored 10 - 3 = 7 for Bruno.
    lines = [*to_the_wall(last="9S", draws=29), draw(1, "3D"), B_KNOCK, *A_DEFENCE, B_END]
    ev = rec(*lines)
    assert replay(ev[:62]).stock_count == 2
    assert findings(ev) == [
        (
            62,
            1,
            "GIN-WALL-1",
            "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards "
            "and ended the hand (0–0); later play does not count",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]
    assert replay(ev).results[0].reason == "knocked"


def test_GIN_WALL_1_standard_legal_twins_knock_on_the_third_last_card_and_stock_exhausted() -> None:
    # 28 draws leave three stock cards; Anna draws 2♣ (the third-last, position 60) and knocks at 61: legal.
    # Bruno melds and lays off 8♥: A♦ 2♦ 3♣ = 6 left; 6 - 2 = 4.
    ev = rec(*to_the_wall(last="9S", draws=28), draw(0, "2C"), knocked(0, "KC", K_MELDS, ["2C"]), *DEFENCE, END)
    assert replay(ev[:61]).stock_count == 2
    assert findings(ev) == []
    assert hand_scores(ev) == [(4, {"deadwood_difference": 4}), (0, {})]
    # the wall ended by the record: 0–0, nothing flagged
    ev = rec(*to_the_wall(), WALL_END)
    assert findings(ev) == [] and hand_scores(ev) == [(0, {}), (0, {})]


def test_GIN_WALL_1_standard_taking_the_upcard_at_the_wall() -> None:
    # standard: no upcard knock at the wall either: the take at 62 is the first play past it
    ev = rec(*to_the_wall(), take(1, "3D"), B_KNOCK, *A_DEFENCE, B_END)
    assert findings(ev) == [
        (
            62,
            1,
            "GIN-WALL-1",
            "Bruno took 3♦ from the discard pile past the wall: the discard at position 61 left two stock "
            "cards and ended the hand (0–0); later play does not count",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]


def test_GIN_WALL_1_is_reported_once_and_later_faults_do_not_count() -> None:
    # past the wall Bruno draws (62), discards (63); Anna draws (64) and knocks with deadwood 39 (65):
    # one GIN-WALL-1 at 62, no GIN-KNOCK-1 for the knock that does not count
    lines = [
        *to_the_wall(last="9S"),
        draw(1, "3D"),
        discard(1, "3D"),
        draw(0, "2C"),
        knocked(0, "KC", K_MELDS[:2], ["9H", "10H", "JH", "2C"]),
        END,
    ]
    assert [(p, s, r) for p, s, r, _ in findings(rec(*lines))] == [(62, 1, "GIN-WALL-1")]
    assert hand_scores(rec(*lines)) == [(0, {}), (0, {})]


def test_GIN_WALL_1_a_draw_of_the_last_two_cards_without_a_wall_discard() -> None:
    # three stock cards left; Anna draws 2♣ (60: two left) and draws again (61) instead of discarding:
    # that draw takes one of the last two cards; being play that does not count, its ALL-TURN-2 is not reported
    ev = rec(*to_the_wall(last="9S", draws=28), draw(0, "2C"), draw(0, "3D"))
    assert findings(ev) == [
        (
            61,
            0,
            "GIN-WALL-1",
            "Anna drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and "
            "later play does not count",
        )
    ]


def test_GIN_WALL_1_stays_after_position_restored() -> None:
    ev = rec(
        *to_the_wall(),
        draw(1, "9S"),
        {"type": "position_restored", "target": 61, "reason": "Bruno drew past the wall"},
        WALL_END,
    )
    assert [(p, s, r) for p, s, r, _ in findings(ev)] == [(62, 1, "GIN-WALL-1")]
    assert hand_scores(ev) == [(0, {}), (0, {})]


def test_GIN_WALL_1_openspiel_upcard_knock_at_the_wall_is_legal() -> None:
    # openspiel: the seat to play at the wall may take the upcard (3♦, Anna's discard at 61) to knock
    ev = rec(*to_the_wall(), take(1, "3D"), B_KNOCK, *A_DEFENCE, B_END, ruleset="openspiel")
    assert findings(ev) == []
    assert hand_scores(ev) == [(0, {}), (7, {"deadwood_difference": 7})]


def test_GIN_WALL_1_openspiel_stock_draw_at_the_wall() -> None:
    ev = rec(*to_the_wall(last="9S"), draw(1, "3D"), B_KNOCK, *A_DEFENCE, B_END, ruleset="openspiel")
    assert findings(ev) == [
        (
            62,
            1,
            "GIN-WALL-1",
            "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards, "
            "where only taking the upcard to knock, or passing, is allowed; the hand is a 0–0 draw and later "
            "play does not count",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]


def test_GIN_WALL_1_openspiel_upcard_taken_without_knocking() -> None:
    # Bruno takes 3♦ at the wall (62) and discards 8♥ (63) instead of knocking
    ev = rec(*to_the_wall(), take(1, "3D"), discard(1, "8H"), WALL_END, ruleset="openspiel")
    assert findings(ev) == [
        (
            63,
            1,
            "GIN-WALL-1",
            "Bruno discarded 8♥ instead of knocking with the upcard taken at the wall: "
            "at the wall the upcard is taken only to knock; the hand is a 0–0 draw and later play does not count",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]
    # ... or the hand simply ends after the take
    ev = rec(*to_the_wall(), take(1, "3D"), WALL_END, ruleset="openspiel")
    assert findings(ev) == [
        (
            63,
            1,
            "GIN-WALL-1",
            "Bruno took the upcard at the wall without knocking with it: at the wall the upcard "
            "is taken only to knock; the hand is a 0–0 draw",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]


# --- OpenSpiel's stalls (GIN-STALL-1) -------------------------------------------------------------


def repeated_moves(second_discard: str = "2C") -> list[dict]:
    """Anna draws 2♣ and discards it (4, 5); Bruno takes it and gives it back (6, 7); Anna takes it (8) and
    discards ``second_discard`` (9): with 2♣ that is the second turn in a row of the repeated-move rule."""
    return [
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "2C"),
        discard(0, "2C"),
        take(1, "2C"),
        discard(1, "2C"),
        take(0, "2C"),
        discard(0, second_discard),
    ]


def test_GIN_STALL_1_play_after_the_repeated_move_rule_ended_the_hand() -> None:
    ev = rec(*repeated_moves(), draw(1, "3D"), B_KNOCK, *A_DEFENCE, B_END, ruleset="openspiel")
    assert findings(ev) == [
        (
            10,
            1,
            "GIN-STALL-1",
            "Bruno drew from the stock after the hand was over by OpenSpiel's repeated-move rule "
            "(the discards at positions 7 and 9 each gave back the upcard just taken): "
            "the hand is a 0–0 draw and later play does not count",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]


def test_GIN_STALL_1_legal_twins_stalled_ending_and_a_broken_repetition() -> None:
    ev = rec(*repeated_moves(), {"type": "hand_ended", "reason": "stalled"}, ruleset="openspiel")
    assert findings(ev) == [] and hand_scores(ev) == [(0, {}), (0, {})]
    # Anna keeps 2♣ and discards K♣: play goes on; Bruno knocks with 3 (3♣) against Anna's 2 (2♣): undercut, 1 + 25
    ev = rec(*repeated_moves("KC"), draw(1, "3D"), B_KNOCK, *A_DEFENCE, B_END, ruleset="openspiel")
    assert findings(ev) == []
    assert hand_scores(ev) == [(26, {"deadwood_difference": 1, "undercut_bonus": 25}), (0, {})]


def test_GIN_STALL_1_is_openspiel_only() -> None:
    # standard: each give-back is GIN-DISC-1, and the hand goes on
    ev = rec(*repeated_moves(), draw(1, "3D"), B_KNOCK, *A_DEFENCE, B_END)
    assert [(p, s, r) for p, s, r, _ in findings(ev)] == [(7, 1, "GIN-DISC-1"), (9, 0, "GIN-DISC-1")]
    assert hand_scores(ev) == [(0, {}), (7, {"deadwood_difference": 7})]


CYCLE = ("KC", "8H", "2C")


def upcard_draws(n: int) -> list[dict]:
    """Anna draws 2♣ and discards K♣ (4, 5); then ``n`` upcard draws after the first turn, take k at 6 + 2k,
    each followed by the discard of another card (never the one just taken): K♣ 8♥ 2♣ go round."""
    lines = [upcard_passed(0), upcard_passed(1), draw(0, "2C"), discard(0, "KC")]
    for k in range(n):
        seat = 1 - k % 2
        lines += [take(seat, CYCLE[k % 3]), discard(seat, CYCLE[(k + 1) % 3])]
    return lines


def test_GIN_STALL_1_the_50th_upcard_draw_after_the_first_turn() -> None:
    ev = rec(
        *upcard_draws(49),
        take(0, "8H"),
        discard(0, "2C"),
        {"type": "hand_ended", "reason": "stalled"},
        ruleset="openspiel",
    )
    assert replay(ev[:104]).extra.upcard_draws == 49
    assert findings(ev) == [
        (
            104,
            0,
            "GIN-STALL-1",
            "Anna took 8♥ from the discard pile, the 50th upcard draw after the first turn: "
            "OpenSpiel ends the hand before that draw; the hand is a 0–0 draw and later play does not count",
        )
    ]
    assert hand_scores(ev) == [(0, {}), (0, {})]


def test_GIN_STALL_1_legal_twins_of_the_upcard_cap() -> None:
    # the record OpenSpiel's end gives: hand_ended stalled after the 49th upcard draw's discard
    ev = rec(*upcard_draws(49), {"type": "hand_ended", "reason": "stalled"}, ruleset="openspiel")
    assert findings(ev) == [] and hand_scores(ev) == [(0, {}), (0, {})]
    # a stock draw instead of the 50th upcard draw is play as usual
    assert findings(rec(*upcard_draws(49), draw(0, "3D"), ruleset="openspiel")) == []
    # standard has no cap
    assert findings(rec(*upcard_draws(52))) == []


# --- option oklahoma ------------------------------------------------------------------------------

KNOCK_2C = (upcard_passed(0), upcard_passed(1), draw(0, "2C"), knocked(0, "KC", K_MELDS, ["2C"]), *DEFENCE, END)


def test_oklahoma_an_ace_upcard_allows_gin_only() -> None:
    for ruleset in ("standard", "openspiel"):
        ev = rec(*KNOCK_2C, options={"oklahoma": True}, upcard="AH", ruleset=ruleset)
        assert findings(ev) == [
            (
                5,
                0,
                "GIN-KNOCK-1",
                "Anna knocked with deadwood 2 (2♣), above the knock card 0 (oklahoma: the first upcard A♥)",
            )
        ]
    gin = K_MELDS[:2] + [{"meld": "k3", "cards": ["8H", "9H", "10H", "JH"]}]
    ev = rec(
        upcard_passed(0),
        upcard_passed(1),
        draw(0, "8H"),
        knocked(0, "KC", gin, []),
        END,
        hands=(GIN_HAND, DEF_HAND),
        upcard="AH",
        options={"oklahoma": True},
    )
    assert findings(ev) == []


def test_oklahoma_the_upcard_value_is_the_limit_and_scores_are_not_doubled() -> None:
    ev = rec(*KNOCK_2C, options={"oklahoma": True}, upcard="2H")
    assert findings(ev) == []  # 2♣ = 2, exactly the limit
    assert hand_scores(ev) == [(4, {"deadwood_difference": 4}), (0, {})]
    # the upcard overrides knock_card: Q♠ sets 10 although knock_card is 1
    assert findings(rec(*KNOCK_2C, options={"oklahoma": True, "knock_card": 1}, upcard="QS")) == []
    # off (the default): knock_card decides whatever the upcard
    assert findings(rec(*KNOCK_2C, upcard="AH")) == []


def test_oklahoma_limit_in_the_view_and_per_hand() -> None:
    state = replay(rec(upcard_passed(0), upcard_passed(1), draw(0, "2C"), options={"oklahoma": True}, upcard="AH"))
    assert state.extra.limit == 0
    assert "Anna: best deadwood 2, could not knock" in render_state(state)
    hand2 = {"type": "hand_dealt", "hand": 2, "dealer": 0, "hands": [H1, H0], "discard": ["5C"]}
    ev = rec(
        upcard_passed(0), {"type": "hand_ended", "reason": "abandoned"}, options={"oklahoma": True}, upcard="AH"
    ) + decoded(hand2)
    assert replay(ev).extra.limit == 5


def test_oklahoma_option_must_be_a_bool() -> None:
    with pytest.raises(RecordError) as info:
        replay(rec(options={"oklahoma": 1}))
    assert (info.value.rule, info.value.field) == ("REC-FORMAT", "options.oklahoma")
