"""Scala 40 (RULES.md "Scala 40"): every S40-* rule id triggered and in a
legal case, opening values, penalty scoring, chiusura in mano, elimination.

Records are written as short scenarios: ``filled_deal`` gives each seat the cards
the story needs and fills the hand up to 13 with cards named nowhere else in
the record (so the filler never meets the story). Positions: ``game_started``
is 0, the first ``hand_dealt`` 1, the first play 2.
"""

from __future__ import annotations

import pytest

from ledger.scoring import score_sheet
from ledger.testing.records import discard, draw, extend, filled_deal, findings, meld, play, swap, take, went_out
from ledger.variants.threshold.rules import meld_points, opening_summary
from tools.make_threshold_fixtures import swap_table, three_player_hand


def hand_scores(state, hand: int = 1) -> list[tuple[int, int, dict]]:
    sheet = score_sheet(state).to_json()
    return [(s["seat"], s["points"], s["breakdown"]) for s in sheet["hands"][hand - 1]["scores"]]


# --- opening value (S40-OPEN-1) ------------------------------------------------------


def test_opening_values_follow_rules_md() -> None:
    # ace 1 low, 11 high and in a set; joker worth the card it stands for
    state = play(
        [
            filled_deal("AS 2S 3S QD KD AD AC AH JK JK 8H 9H"),
            draw(0, "5C"),
            meld(0, "a", "AS 2S 3S"),
            meld(0, "b", "QD KD AD"),
            meld(0, "c", "AC AH JK"),
            meld(0, "d", "JK 8H 9H"),
        ]
    )
    assert [meld_points(m.info) for m in state.melds] == [6, 31, 33, 24]
    assert opening_summary(state.melds) == (94, "A♠2♠3♠ = 6, Q♦K♦A♦ = 31, A♣A♥JK = 33, JK8♥9♥ = 24")


def test_S40_OPEN_1_opening_one_point_short() -> None:
    # 7♥8♥9♥ = 24 and 5♣5♦5♠ = 15: 39, reported at the discard that ends the turn
    state = play(
        [
            filled_deal("7H 8H 9H 5C 5D 5S KD"),
            draw(0, "2S"),
            meld(0, "a", "7H 8H 9H"),
            meld(0, "b", "5C 5D 5S"),
            discard(0, "KD"),
        ]
    )
    assert findings(state) == [
        (5, 1, 0, "S40-OPEN-1", "Anna opened with 39 points: 7♥8♥9♥ = 24, 5♣5♦5♠ = 15; the opening needs 40")
    ]


def test_S40_OPEN_1_legal_opening_exactly_40() -> None:
    # 7♥8♥9♥ = 24 and 4♣4♦4♥4♠ = 16
    state = play(
        [
            filled_deal("7H 8H 9H 4C 4D 4H 4S KD"),
            draw(0, "2S"),
            meld(0, "a", "7H 8H 9H"),
            meld(0, "b", "4C 4D 4H 4S"),
            discard(0, "KD"),
        ]
    )
    assert findings(state) == []


def test_S40_OPEN_1_ace_high_and_set_count_11() -> None:
    # Q♦K♦A♦ = 31 plus 3♣3♦3♠ = 9: exactly 40
    state = play(
        [
            filled_deal("QD KD AD 3C 3D 3S KC"),
            draw(0, "2S"),
            meld(0, "a", "QD KD AD"),
            meld(0, "b", "3C 3D 3S"),
            discard(0, "KC"),
        ]
    )
    assert findings(state) == []


def test_S40_OPEN_1_option_opening_points() -> None:
    state = play(
        [
            filled_deal("7H 8H 9H 4C 4D 4H 4S KD"),
            draw(0, "2S"),
            meld(0, "a", "7H 8H 9H"),
            meld(0, "b", "4C 4D 4H 4S"),
            discard(0, "KD"),
        ],
        options={"opening_points": 41},
    )
    assert findings(state) == [
        (5, 1, 0, "S40-OPEN-1", "Anna opened with 40 points: 7♥8♥9♥ = 24, 4♣4♦4♥4♠ = 16; the opening needs 41")
    ]


def test_S40_OPEN_1_not_raised_for_chiusura_in_mano() -> None:
    # all 13 cards + the draw in the first melding turn: 37 points, no minimum
    state = play(
        [
            filled_deal("AH 2H 3H 4H 2C 2D 2S 3C 3D 3S 4C 4D 4S"),
            draw(0, "KS"),
            meld(0, "a", "AH 2H 3H 4H"),
            meld(0, "b", "2C 2D 2S"),
            meld(0, "c", "3C 3D 3S"),
            meld(0, "d", "4C 4D 4S"),
            discard(0, "KS"),
            went_out(0),
        ]
    )
    assert findings(state) == []


# --- S40-OPEN-2 ----------------------------------------------------------------------

OPEN_54 = "7H 8H 9H QS QH QC"


def test_S40_OPEN_2_lay_off_before_opening() -> None:
    state = play(
        [
            filled_deal(OPEN_54 + " KD", "10H"),
            draw(0, "2S"),
            meld(0, "a", "7H 8H 9H"),
            meld(0, "b", "QS QH QC"),
            discard(0, "KD"),
            draw(1, "5C"),
            extend(1, "a", "10H"),
            discard(1, "5C"),
        ]
    )
    assert findings(state) == [(7, 1, 1, "S40-OPEN-2", "Bruno laid off 10♥ on meld a before opening")]


def test_S40_OPEN_2_joker_swap_before_opening() -> None:
    state = play(
        [
            filled_deal("7H JK 9H QS QH QC KD", "8H"),
            draw(0, "2S"),
            meld(0, "a", "7H JK 9H"),
            meld(0, "b", "QS QH QC"),
            discard(0, "KD"),
            draw(1, "5C"),
            swap(1, "a", "8H"),
            discard(1, "5C"),
        ]
    )
    assert findings(state) == [(7, 1, 1, "S40-OPEN-2", "Bruno swapped the JK in meld a before opening")]


def test_S40_OPEN_2_legal_lay_off_after_opening_same_turn() -> None:
    state = play(
        [
            filled_deal(OPEN_54 + " 10H KD"),
            draw(0, "2S"),
            meld(0, "a", "7H 8H 9H"),
            meld(0, "b", "QS QH QC"),
            extend(0, "a", "10H"),
            discard(0, "KD"),
        ]
    )
    assert findings(state) == []


# --- S40-PILE-1 / S40-PILE-2 ------------------------------------------------------------


def test_S40_PILE_1_unopened_seat_takes_and_does_not_open() -> None:
    state = play([filled_deal("KD"), draw(0, "2S"), discard(0, "KD"), take(1, "KD"), discard(1, "KD")])
    assert findings(state) == [
        (5, 1, 1, "S40-PILE-1", "Bruno took K♦ from the discard pile without having opened and did not open with it")
    ]


def test_S40_PILE_1_unopened_seat_opens_without_the_card() -> None:
    state = play(
        [
            filled_deal("KD", OPEN_54 + " 5C"),
            draw(0, "2S"),
            discard(0, "KD"),
            take(1, "KD"),
            meld(1, "a", "7H 8H 9H"),
            meld(1, "b", "QS QH QC"),
            discard(1, "5C"),
        ]
    )
    assert findings(state) == [
        (7, 1, 1, "S40-PILE-1", "Bruno took K♦ from the discard pile without having opened and did not open with it")
    ]


def test_S40_PILE_1_legal_opening_with_the_card() -> None:
    state = play(
        [
            filled_deal("KD", "7H 8H 9H KS KH 5C"),
            draw(0, "2S"),
            discard(0, "KD"),
            take(1, "KD"),
            meld(1, "a", "7H 8H 9H"),
            meld(1, "b", "KS KH KD"),
            discard(1, "5C"),
        ]
    )
    assert findings(state) == []


def opened_pair(out: str = "7C") -> list[dict]:
    """Both seats open in their first turn; Bruno discards ``out`` (positions 2–9)."""
    return [
        filled_deal(OPEN_54 + " KD 10H", "JS JH JD 4C 5C 6C 7C 2H"),
        draw(0, "2S"),
        meld(0, "a", "7H 8H 9H"),
        meld(0, "b", "QS QH QC"),
        discard(0, "KD"),
        draw(1, "3D"),
        meld(1, "c", "JS JH JD"),
        meld(1, "d", "4C 5C 6C"),
        discard(1, out),
    ]


def test_S40_PILE_2_opened_seat_takes_and_does_not_meld() -> None:
    state = play(opened_pair() + [take(0, "7C"), discard(0, "10H")])
    assert findings(state) == [
        (11, 1, 0, "S40-PILE-2", "Anna took 7♣ from the discard pile and did not meld it in the same turn")
    ]


def test_S40_PILE_2_legal_opened_seat_lays_the_card_off() -> None:
    # lay-offs go on any meld: 7♣ onto Bruno's 4♣5♣6♣
    state = play(opened_pair() + [take(0, "7C"), extend(0, "d", "7C"), discard(0, "10H")])
    assert findings(state) == []
    assert state.meld("d").cards == ("4C", "5C", "6C", "7C")


def test_S40_PILE_2_discarding_the_card_just_taken_seed() -> None:
    # preset seed: an opened seat may keep the card, but not discard it again
    state = play(opened_pair() + [take(0, "7C"), discard(0, "7C")], ruleset="seed")
    assert findings(state) == [(11, 1, 0, "S40-PILE-2", "Anna discarded 7♣, the card just taken from the discard pile")]


def test_S40_PILE_2_seed_keeping_the_card_is_legal() -> None:
    state = play(opened_pair() + [take(0, "7C"), discard(0, "10H")], ruleset="seed")
    assert findings(state) == []


def test_S40_PILE_2_not_raised_when_the_seat_held_another_copy() -> None:
    # Anna already held a 7♣: the record cannot tell which copy she discarded
    events = opened_pair()
    events[0] = filled_deal(OPEN_54 + " KD 10H 7C", "JS JH JD 4C 5C 6C 7C")
    state = play(events + [take(0, "7C"), discard(0, "7C")], ruleset="seed")
    assert findings(state) == []


def test_S40_PILE_2_not_melded_is_judged_on_the_face_even_with_another_copy() -> None:
    # fisca: Anna held a 7♣, took the other and discarded one: the discard half is
    # not raised (which copy?), but no 7♣ went into a meld this turn, so neither was used
    events = opened_pair()
    events[0] = filled_deal(OPEN_54 + " KD 10H 7C", "JS JH JD 4C 5C 6C 7C")
    state = play(events + [take(0, "7C"), discard(0, "7C")])
    assert findings(state) == [
        (11, 1, 0, "S40-PILE-2", "Anna took 7♣ from the discard pile and did not meld it in the same turn")
    ]
    # without the other copy: the same single finding (a pick-up never yields two)
    assert findings(play(opened_pair() + [take(0, "7C"), discard(0, "7C")])) == [
        (11, 1, 0, "S40-PILE-2", "Anna took 7♣ from the discard pile and did not meld it in the same turn")
    ]


def test_S40_PILE_2_legal_twin_one_copy_melded_the_other_discarded() -> None:
    # a 7♣ went onto Bruno's 4♣5♣6♣ and a 7♣ was discarded: the record cannot tell the copies apart
    events = opened_pair()
    events[0] = filled_deal(OPEN_54 + " KD 10H 7C", "JS JH JD 4C 5C 6C 7C")
    state = play(events + [take(0, "7C"), extend(0, "d", "7C"), discard(0, "7C")])
    assert findings(state) == []
    assert state.meld("d").cards == ("4C", "5C", "6C", "7C") and state.discard[-1] == "7C"


# --- S40-MELD-1 ------------------------------------------------------------------------


def test_S40_MELD_1_set_with_a_repeated_suit_replaces_all_meld() -> None:
    state = play(
        [
            filled_deal("QS QS QH 7H 8H 9H KD", "QC"),
            draw(0, "2S"),
            meld(0, "a", "QS QS QH"),
            meld(0, "b", "7H 8H 9H"),
            discard(0, "KD"),
        ]
    )
    assert findings(state) == [(3, 1, 0, "S40-MELD-1", "meld a Q♠ Q♠ Q♥: a set with a repeated suit")]


def test_S40_MELD_1_five_card_set_and_two_jokers() -> None:
    state = play(
        [
            filled_deal("QS QH QC QD JK JK JK 7H 9H KD"),
            draw(0, "QS"),
            meld(0, "a", "QS QH QC QD JK"),
            meld(0, "b", "7H JK 9H"),
            extend(0, "b", "JK", "7H JK 9H JK"),
            discard(0, "KD"),
        ]
    )
    assert findings(state) == [
        (3, 1, 0, "S40-MELD-1", "meld a Q♠ Q♥ Q♣ Q♦ JK: a set with too many cards"),
        (5, 1, 0, "S40-MELD-1", "meld b after the lay-off 7♥ JK 9♥ JK: more wild cards than allowed"),
    ]


def test_S40_MELD_1_legal_set_of_four_suits_and_long_sequence() -> None:
    state = play(
        [
            filled_deal("QS QH QC QD 2H 3H 4H 5H 6H 7H 8H 9H KD"),
            draw(0, "JK"),
            meld(0, "a", "QS QH QC QD"),
            meld(0, "b", "2H 3H 4H 5H 6H 7H 8H 9H JK"),
            discard(0, "KD"),
        ]
    )
    assert findings(state) == []


def test_S40_invalid_meld_is_ALL_MELD_1_and_counts_nothing_toward_the_opening() -> None:
    # K-A-2 never wraps; the seed preset has no ace low either
    state = play(
        [
            filled_deal("KS AS 2S QH QD QC 7D"),
            draw(0, "2D"),
            meld(0, "a", "KS AS 2S"),
            meld(0, "b", "QH QD QC"),
            discard(0, "7D"),
        ]
    )
    assert findings(state) == [
        (3, 1, 0, "ALL-MELD-1", "meld a K♠ A♠ 2♠: neither a set nor a sequence"),
        (
            5,
            1,
            0,
            "S40-OPEN-1",
            "Anna opened with 30 points: K♠A♠2♠ = 0 (not a meld), Q♥Q♦Q♣ = 30; the opening needs 40",
        ),
    ]
    seed = play(
        [
            filled_deal("AS 2S 3S QH QD QC KC KD KH 7D"),
            draw(0, "2D"),
            meld(0, "a", "AS 2S 3S"),
            meld(0, "b", "QH QD QC"),
            meld(0, "c", "KC KD KH"),
            discard(0, "7D"),
        ],
        ruleset="seed",
    )
    assert findings(seed) == [(3, 1, 0, "ALL-MELD-1", "meld a A♠ 2♠ 3♠: an ace low where only ace high is allowed")]


# --- S40-SWAP-1 / S40-SWAP-2 -------------------------------------------------------------


def test_S40_SWAP_1_legal_swap_in_a_sequence_and_in_a_set() -> None:
    state = play(swap_table() + [swap(1, "a", "8H"), swap(1, "b", "QD"), discard(1, "KH")])
    assert findings(state) == []
    assert state.meld("a").cards == ("7H", "8H", "9H")
    assert state.meld("b").cards == ("QS", "QH", "QD")
    assert state.hands[1].count("JK") == 2


def test_S40_SWAP_1_wrong_card() -> None:
    state = play(swap_table() + [swap(1, "a", "8D"), discard(1, "KH")])
    assert findings(state) == [
        (9, 1, 1, "S40-SWAP-1", "Bruno put 8♦ in place of the JK in meld a (7♥JK9♥), but it stands for 8♥")
    ]


def test_S40_SWAP_1_set_joker_stands_for_a_missing_suit() -> None:
    state = play(swap_table(bruno="JS JH JD 4C 5C 6C QS 8D QD 10D 10S KH") + [swap(1, "b", "QS"), discard(1, "KH")])
    assert findings(state) == [
        (9, 1, 1, "S40-SWAP-1", "Bruno put Q♠ in place of the JK in meld b (Q♠Q♥JK), but it stands for Q♣ or Q♦")
    ]


def test_S40_SWAP_2_freed_joker_not_melded() -> None:
    state = play(swap_table() + [swap(1, "a", "8H"), discard(1, "KH")], options={"freed_joker_must_be_melded": True})
    assert findings(state) == [
        (10, 1, 1, "S40-SWAP-2", "Bruno took a joker from a meld and did not meld it in the same turn")
    ]


def test_S40_SWAP_2_legal_freed_joker_melded() -> None:
    state = play(
        swap_table() + [swap(1, "a", "8H"), meld(1, "e", "10D 10S JK"), discard(1, "KH")],
        options={"freed_joker_must_be_melded": True},
    )
    assert findings(state) == []


def test_S40_SWAP_2_off_by_default() -> None:
    state = play(swap_table() + [swap(1, "a", "8H"), discard(1, "KH")])
    assert findings(state) == []


# --- S40-DISC-1 --------------------------------------------------------------------------


def test_S40_DISC_1_attachable_card_discarded() -> None:
    state = play(
        opened_pair("2H") + [draw(0, "2C"), discard(0, "10H")], options={"forbid_discard_of_attachable": "always"}
    )
    assert findings(state) == [
        (11, 1, 0, "S40-DISC-1", "Anna discarded 10♥, which could be laid off on meld a (7♥8♥9♥)")
    ]


@pytest.mark.parametrize(
    "options", [None, {"forbid_discard_of_attachable": "multiplayer_only"}, {"forbid_discard_of_attachable": "never"}]
)
def test_S40_DISC_1_legal_when_the_option_allows_it(options) -> None:
    state = play(opened_pair("2H") + [draw(0, "2C"), discard(0, "10H")], options=options)
    assert findings(state) == []


def test_S40_DISC_1_legal_unattachable_card() -> None:
    state = play(
        opened_pair("2H") + [draw(0, "2C"), discard(0, "2C")], options={"forbid_discard_of_attachable": "always"}
    )
    assert findings(state) == []


# --- S40-OUT-1 ---------------------------------------------------------------------------

CHIUSURA = "AH 2H 3H 4H 2C 2D 2S 3C 3D 3S 4C 4D 4S"


def chiusura_melds() -> list[dict]:
    return [meld(0, "a", "AH 2H 3H 4H"), meld(0, "b", "2C 2D 2S"), meld(0, "c", "3C 3D 3S"), meld(0, "d", "4C 4D 4S")]


def test_S40_OUT_1_went_out_without_a_discard() -> None:
    # reported at the meld that empties the hand (position 6), not at hand_ended
    state = play(
        [filled_deal(CHIUSURA), draw(0, "5H"), meld(0, "a", "AH 2H 3H 4H 5H")] + chiusura_melds()[1:] + [went_out(0)]
    )
    assert findings(state) == [
        (6, 1, 0, "S40-OUT-1", "Anna went out without a discard: the last card went into a meld")
    ]
    assert hand_scores(state)[1] == (1, 200, {"unopened": 100, "chiusura_in_mano": 100})


def test_S40_OUT_1_stays_when_the_referee_rewinds_at_once() -> None:
    # RULES.md: a finding belongs to the event that breaks the rule, even when rewound
    events = [filled_deal(CHIUSURA), draw(0, "5H"), meld(0, "a", "AH 2H 3H 4H 5H")] + chiusura_melds()[1:]
    state = play(events + [{"type": "position_restored", "target": 5, "reason": "the last card must be discarded"}])
    assert findings(state) == [
        (6, 1, 0, "S40-OUT-1", "Anna went out without a discard: the last card went into a meld")
    ]
    assert state.hands[0] == ("4C", "4D", "4S") and state.phase == "play"


def test_S40_OUT_1_legal_going_out_with_a_discard() -> None:
    state = play([filled_deal(CHIUSURA), draw(0, "5H")] + chiusura_melds() + [discard(0, "5H"), went_out(0)])
    assert findings(state) == []


# --- scoring -------------------------------------------------------------------------------


def test_score_hand_values_joker_25_ace_11_unopened_100() -> None:
    state = play(three_player_hand(), players=3)
    assert findings(state) == []
    # Bruno: A♠ 11 + K♥ 10 + 2♣ 2 + 9♦ 9 + 8♦ 8 + 3♦ 3 = 43, joker 25; Carla never opened: 100
    assert hand_scores(state) == [(0, 0, {}), (1, 68, {"cards": 43, "jokers": 25}), (2, 100, {"unopened": 100})]
    assert state.totals == (0, 68, 100)


def test_score_claim_mismatch_is_ALL_SCORE_1() -> None:
    claimed = [{"seat": 0, "points": 0}, {"seat": 1, "points": 43}, {"seat": 2, "points": 100}]
    state = play(three_player_hand(claimed), players=3)
    assert findings(state) == [
        (
            16,
            1,
            1,
            "ALL-SCORE-1",
            "hand 1: claimed 43 for Bruno, computed 68 (difference -25); computed as cards +43, jokers +25",
        )
    ]


def test_unopened_penalty_off_counts_the_hand() -> None:
    # Carla: 2+3+4 + 6+7 + 10 + J Q K 30 + A♣ A♦ 22 + 9+8 = 101
    state = play(three_player_hand(), players=3, options={"unopened_penalty": 0})
    assert hand_scores(state)[2] == (2, 101, {"cards": 101})


def chiusura_hand() -> list[dict]:
    """Anna goes out at once with 37 points; Bruno never played: K♥ Q♥ A♠ JK + nine filler-free cards."""
    return (
        [filled_deal(CHIUSURA, "KH QH AS JK 5C 6C 7C 8C 9C 10D 10S JD JS", fill=False), draw(0, "KS")]
        + chiusura_melds()
        + [discard(0, "KS"), went_out(0)]
    )


def test_chiusura_in_mano_doubles_fisca() -> None:
    state = play(chiusura_hand(), options={"unopened_penalty": 0})
    # K 10 + Q 10 + A 11 + 5+6+7+8+9 + 10+10 + J 10 + J 10 = 106, joker 25: 131, doubled 262
    assert hand_scores(state) == [(0, 0, {}), (1, 262, {"cards": 106, "jokers": 25, "chiusura_in_mano": 131})]


def test_chiusura_in_mano_unopened_doubled_fisca_and_plus_25_seed() -> None:
    assert hand_scores(play(chiusura_hand())) == [(0, 0, {}), (1, 200, {"unopened": 100, "chiusura_in_mano": 100})]
    assert hand_scores(play(chiusura_hand(), ruleset="seed")) == [
        (0, 0, {}),
        (1, 125, {"unopened": 100, "chiusura_in_mano": 25}),
    ]


def test_hand_without_going_out_scores_zero() -> None:
    state = play([filled_deal("KD"), draw(0, "2S"), discard(0, "KD"), {"type": "hand_ended", "reason": "stalled"}])
    assert hand_scores(state) == [(0, 0, {}), (1, 0, {})]


# --- elimination -----------------------------------------------------------------------


def test_eliminated_seat_is_dealt_nothing_and_skipped() -> None:
    events = three_player_hand() + [
        # hand 2: Carla (100 >= elimination 100) is out; Anna deals, Bruno starts, then Anna again
        filled_deal("KD", "7S", "-", dealer=0, hand=2),
        draw(1, "10C"),
        discard(1, "10C"),
        draw(0, "2S"),
        discard(0, "2S"),
        draw(1, "3S"),
    ]
    state = play(events, players=3, options={"elimination": 100})
    assert state.eliminated == (2,)
    assert state.hands[2] == () and state.turn == 1
    assert findings(state) == []

    def ended(reason: str) -> int | None:
        final = play(
            events[:-1] + [{"type": "hand_ended", "reason": "stalled"}, {"type": "game_ended", "reason": reason}],
            players=3,
            options={"elimination": 100},
        )
        return score_sheet(final).to_json()["winner"]

    # two seats left: the lowest total wins (Anna 0, Bruno 68); an abandoned game has no winner
    assert (ended("time_out"), ended("abandoned")) == (0, None)


def test_eliminated_seat_dealt_cards_is_ALL_DEAL_1() -> None:
    events = three_player_hand() + [filled_deal("KD", "7S", "5S", dealer=0, hand=2)]
    state = play(events, players=3, options={"elimination": 100})
    assert findings(state) == [(17, 2, 2, "ALL-DEAL-1", "Carla was dealt 13 cards instead of 0")]


def test_last_seat_left_wins_by_elimination() -> None:
    state = play(chiusura_hand() + [{"type": "game_ended", "reason": "elimination"}])
    assert state.totals == (0, 200) and state.eliminated == (1,)
    assert score_sheet(state).to_json()["winner"] == 0


def test_S40_players_2_to_6() -> None:
    with pytest.raises(Exception, match="2, 3, 4, 5, 6"):
        play([], players=1)
    state = play([filled_deal("KD", "KH", "KS", "KC", "QD", "QH", up="2C"), draw(0, "3C"), discard(0, "3C")], players=6)
    assert state.turn == 1 and findings(state) == []


# --- jokers never move (ALL-MELD-1), the natural card only by joker_swapped -----------------


def test_ALL_MELD_1_lay_off_whose_result_moves_the_joker() -> None:
    # Bruno (opened at 7–8) lays 8♥ where the JK of 7♥JK9♥ stood and moves the JK up to 10♥
    state = play(swap_table() + [extend(1, "a", "8H", "7H 8H 9H JK"), discard(1, "KH")])
    assert findings(state) == [
        (
            9,
            1,
            1,
            "ALL-MELD-1",
            "meld a after the lay-off 7♥ 8♥ 9♥ JK: the joker stood for 8♥ and it now stands for 10♥; "
            "a joker never moves once laid (the card it stands for takes its place only by a joker swap)",
        )
    ]


def test_ALL_MELD_1_lay_off_without_result_has_no_joker_moving_reading() -> None:
    # without `result` the only readings would move the JK: no legal lay-off is left (before: an "ambiguous" rejection)
    state = play(swap_table() + [extend(1, "a", "8H"), discard(1, "KH")])
    assert findings(state) == [
        (9, 1, 1, "ALL-MELD-1", "meld a after the lay-off 7♥ JK 9♥ 8♥: neither a set nor a sequence")
    ]


def test_legal_twins_joker_stays_or_is_swapped() -> None:
    bruno = "JS JH JD 4C 5C 6C 8H 10H QD 10D 10S KH"
    # a lay-off at the end keeps the JK standing for 8♥ (given or placed without `result`)
    for ev in (extend(1, "a", "10H", "7H JK 9H 10H"), extend(1, "a", "10H")):
        state = play(swap_table(bruno) + [ev, discard(1, "KH")])
        assert findings(state) == []
        assert state.meld("a").cards == ("7H", "JK", "9H", "10H") and state.meld("a").info.stands_for[1] == "8H"
    # the natural card takes the joker's place by joker_swapped
    state = play(swap_table(bruno) + [swap(1, "a", "8H"), discard(1, "KH")])
    assert findings(state) == [] and state.meld("a").cards == ("7H", "8H", "9H")


# --- S40-DISC-1: attachable means a lay-off, binds unopened seats, not the closing discard ---


def test_S40_DISC_1_card_that_fits_only_the_jokers_place_is_not_attachable() -> None:
    # 8♥ fits 7♥JK9♥ only by a swap: no finding; 10♥ lays off at the end: S40-DISC-1
    bruno = "JS JH JD 4C 5C 6C 8H 10H QD 10D 10S KH"
    always = {"forbid_discard_of_attachable": "always"}
    assert findings(play(swap_table(bruno) + [discard(1, "8H")], options=always)) == []
    assert findings(play(swap_table(bruno) + [discard(1, "10H")], options=always)) == [
        (9, 1, 1, "S40-DISC-1", "Bruno discarded 10♥, which could be laid off on meld a (7♥JK9♥)")
    ]


def test_S40_DISC_1_binds_a_seat_that_has_not_opened() -> None:
    events = [
        filled_deal(OPEN_54 + " KD", "10H 5C"),
        draw(0, "2S"),
        meld(0, "a", "7H 8H 9H"),
        meld(0, "b", "QS QH QC"),
        discard(0, "KD"),
        draw(1, "3D"),
    ]
    always = {"forbid_discard_of_attachable": "always"}
    assert findings(play(events + [discard(1, "10H")], options=always)) == [
        (7, 1, 1, "S40-DISC-1", "Bruno discarded 10♥, which could be laid off on meld a (7♥8♥9♥)")
    ]
    assert findings(play(events + [discard(1, "5C")], options=always)) == []


def test_S40_DISC_1_closing_discard_is_exempt() -> None:
    always = {"forbid_discard_of_attachable": "always"}
    # the last card 5♥ fits A♥2♥3♥4♥, but it is the closing discard (a chiusura in mano)
    state = play(
        [filled_deal(CHIUSURA), draw(0, "5H")] + chiusura_melds() + [discard(0, "5H"), went_out(0)], options=always
    )
    assert findings(state) == []
    # twin: 4♥ discarded with 5♥ still in hand fits A♥2♥3♥ (and the opening of 33 is short)
    melds = [meld(0, "a", "AH 2H 3H")] + chiusura_melds()[1:]
    state = play([filled_deal(CHIUSURA), draw(0, "5H")] + melds + [discard(0, "4H")], options=always)
    assert findings(state) == [
        (7, 1, 0, "S40-DISC-1", "Anna discarded 4♥, which could be laid off on meld a (A♥2♥3♥)"),
        (
            7,
            1,
            0,
            "S40-OPEN-1",
            "Anna opened with 33 points: A♥2♥3♥ = 6, 2♣2♦2♠ = 6, 3♣3♦3♠ = 9, 4♣4♦4♠ = 12; the opening needs 40",
        ),
    ]


# --- S40-OPEN-2: record order decides a swap in the opening turn ------------------------------


def test_S40_OPEN_2_swap_recorded_before_the_opening_melds_of_the_turn() -> None:
    base = swap_table()[:6]  # Anna's turn, then Bruno draws (position 6)
    state = play(base + [swap(1, "a", "8H"), meld(1, "c", "JS JH JD"), meld(1, "d", "4C 5C 6C"), discard(1, "KH")])
    assert findings(state) == [(7, 1, 1, "S40-OPEN-2", "Bruno swapped the JK in meld a before opening")]


def test_S40_OPEN_2_legal_swap_recorded_after_the_opening_melds_of_the_turn() -> None:
    base = swap_table()[:6]
    state = play(base + [meld(1, "c", "JS JH JD"), meld(1, "d", "4C 5C 6C"), swap(1, "a", "8H"), discard(1, "KH")])
    assert findings(state) == []
    assert state.hands[1].count("JK") == 1 and state.meld("a").cards == ("7H", "8H", "9H")
