"""Ramino 51 as on ClubdelGioco (RULES.md "Ramino 51"): every R51-* rule id
triggered and in a legal case, the opening, penalty scoring, elimination.

The scenario helpers are ledger/testing/records.py (``filled_deal`` fills each hand with
cards named nowhere else in the hand). Positions: ``game_started`` 0, the
first ``hand_dealt`` 1, the first play 2. Anna (seat 0) plays first.
"""

from __future__ import annotations

import functools

import pytest

from ledger.scoring import score_sheet
from ledger.testing.records import discard, draw, extend, filled_deal, findings, meld, swap, take, went_out
from ledger.testing.records import play as _play
from tools.make_threshold_fixtures import r51_first_hand


def hand_scores(state, hand: int = 1) -> list[tuple[int, int, dict]]:
    return [(s["seat"], s["points"], s["breakdown"]) for s in score_sheet(state).to_json()["hands"][hand - 1]["scores"]]


play = functools.partial(_play, variant="ramino51", size=14)

OPEN_51 = "KS KH KC 6H 7H 8H"


def first_turns(anna: str = OPEN_51 + " 2D", bruno: str = "9C", **kw) -> list[dict]:
    """Both seats draw and discard in their first turn (positions 2–5)."""
    return [filled_deal(anna, bruno, up="10C", **kw), draw(0, "QD"), discard(0, "QD"), draw(1, "4S"), discard(1, "9C")]


def opening() -> list[dict]:
    """Anna opens with exactly 51 at positions 6–8 (K♠K♥K♣ 30, 6♥7♥8♥ 21)."""
    return [draw(0, "3C"), meld(0, "a", "KS KH KC"), meld(0, "b", "6H 7H 8H")]


# --- R51-PILE-1 / R51-PILE-2 -----------------------------------------------------------


def test_R51_PILE_1_and_PILE_2_take_in_first_turn_not_melded() -> None:
    state = play([filled_deal("KD", up="10C"), take(0, "10C"), discard(0, "KD")])
    assert findings(state) == [
        (2, 1, 0, "R51-PILE-1", "Anna took 10♣ from the discard pile in its first turn"),
        (3, 1, 0, "R51-PILE-2", "Anna took 10♣ from the discard pile and did not meld it in the same turn"),
    ]


def test_R51_PILE_2_second_turn_taken_and_kept() -> None:
    state = play(first_turns() + [take(0, "9C"), discard(0, "2D")])
    assert findings(state) == [
        (7, 1, 0, "R51-PILE-2", "Anna took 9♣ from the discard pile and did not meld it in the same turn")
    ]


def test_R51_PILE_1_PILE_2_legal_second_turn_take_melded() -> None:
    state = play(
        first_turns(anna=OPEN_51 + " 9S 9H")
        + [take(0, "9C"), meld(0, "a", "KS KH KC"), meld(0, "b", "9S 9H 9C"), discard(0, "6H")]
    )
    assert findings(state) == []


# --- R51-OPEN-1 / R51-OPEN-2 ----------------------------------------------------------------


def test_R51_OPEN_1_melding_in_the_first_turn() -> None:
    state = play(
        [
            filled_deal(OPEN_51 + " 2D"),
            draw(0, "3C"),
            meld(0, "a", "KS KH KC"),
            meld(0, "b", "6H 7H 8H"),
            discard(0, "2D"),
        ]
    )
    assert findings(state) == [(5, 1, 0, "R51-OPEN-1", "Anna melded in its first turn")]


def test_R51_OPEN_1_OPEN_2_legal_opening_of_exactly_51_in_the_second_turn() -> None:
    state = play(first_turns() + opening() + [discard(0, "2D")])
    assert findings(state) == []


def test_R51_OPEN_2_under_51() -> None:
    state = play(
        first_turns(anna="KS KH KC 5H 6H 7H 2D")
        + [draw(0, "3C"), meld(0, "a", "KS KH KC"), meld(0, "b", "5H 6H 7H"), discard(0, "2D")]
    )
    assert findings(state) == [
        (9, 1, 0, "R51-OPEN-2", "Anna opened with 48 points: K♠K♥K♣ = 30, 5♥6♥7♥ = 18; the opening needs 51")
    ]


def test_R51_OPEN_2_without_a_clean_meld() -> None:
    # 10♥J♥JK = 10+10+10 (the joker is the Q♥) and K♠K♥JK = 30: 60 points, every meld holds a joker
    state = play(
        first_turns(anna="10H JH JK KS KH JK 2D")
        + [draw(0, "3C"), meld(0, "a", "10H JH JK"), meld(0, "b", "KS KH JK"), discard(0, "2D")]
    )
    assert findings(state) == [
        (
            9,
            1,
            0,
            "R51-OPEN-2",
            "Anna opened with 60 points: 10♥J♥JK = 30, K♠K♥JK = 30; the opening needs a clean sequence or set "
            "(no joker)",
        )
    ]


def test_R51_OPEN_2_option_opening_clean_run() -> None:
    # a clean set is not enough under opening_clean=run
    events = first_turns(anna="KS KH KC 6H 7H JK 2D") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H JK"),
        discard(0, "2D"),
    ]
    assert findings(play(events)) == []
    assert findings(play(events, options={"opening_clean": "run"})) == [
        (
            9,
            1,
            0,
            "R51-OPEN-2",
            "Anna opened with 51 points: K♠K♥K♣ = 30, 6♥7♥JK = 21; the opening needs a clean sequence (no joker)",
        )
    ]


# --- R51-OPEN-3 --------------------------------------------------------------------------


def test_R51_OPEN_3_lay_off_in_the_opening_turn() -> None:
    state = play(first_turns(anna=OPEN_51 + " 9H 2D") + opening() + [extend(0, "b", "9H"), discard(0, "2D")])
    assert findings(state) == [
        (9, 1, 0, "R51-OPEN-3", "Anna laid off 9♥ on meld b in its opening turn (only a joker swap is allowed)")
    ]


def test_R51_OPEN_3_lay_off_and_swap_before_opening() -> None:
    events = first_turns(anna="KS KH KC 6H 7H JK 2D", bruno="9C 8H 5H") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H JK"),
        discard(0, "2D"),
        draw(1, "4D"),
        extend(1, "b", "5H", "5H 6H 7H JK"),
        swap(1, "b", "8H"),
        discard(1, "4D"),
    ]
    assert findings(play(events)) == [
        (11, 1, 1, "R51-OPEN-3", "Bruno laid off 5♥ on meld b before opening"),
        (12, 1, 1, "R51-OPEN-3", "Bruno swapped the JK in meld b before opening"),
    ]


def test_R51_OPEN_3_legal_swap_in_the_opening_turn_and_lay_off_later() -> None:
    # Bruno opens with Q♠Q♥Q♣ 30 + 9♠10♠J♠ 29, swaps 8♥ for Anna's joker in the same
    # turn (allowed), and lays off 8♠ in his next turn
    events = first_turns(anna="KS KH KC 6H 7H JK 2D 9D", bruno="9C 8H QS QH QC 9S 10S JS JD 8S") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H JK"),
        discard(0, "2D"),
        draw(1, "KD"),
        meld(1, "c", "QS QH QC"),
        meld(1, "d", "9S 10S JS"),
        swap(1, "b", "8H"),
        discard(1, "JD"),
        draw(0, "4C"),
        discard(0, "9D"),
        draw(1, "3S"),
        extend(1, "d", "8S"),
        discard(1, "3S"),
    ]
    state = play(events)
    assert findings(state) == []
    assert state.meld("b").cards == ("6H", "7H", "8H") and state.meld("d").cards == ("8S", "9S", "10S", "JS")


# --- R51-MELD-1 ----------------------------------------------------------------------------


def test_R51_MELD_1_joker_inside_a_sequence() -> None:
    events = first_turns(anna="KS KH KC 5H 7H 8H JK 2D") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "5H JK 7H 8H"),
        discard(0, "2D"),
    ]
    assert findings(play(events)) == [
        (8, 1, 0, "R51-MELD-1", "meld b 5♥ JK 7♥ 8♥: a wild inside a sequence (only at either end)")
    ]
    # option joker_ends_only off: the same meld is legal
    assert findings(play(events, options={"joker_ends_only": False})) == []


def test_R51_MELD_1_joker_inside_after_a_lay_off() -> None:
    # 6♥7♥JK: the joker is the 8♥; laying off 9♥ above it puts the joker inside
    events = first_turns(anna="KS KH KC 6H 7H JK 9H 2D 4D") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H JK"),
        discard(0, "2D"),
        draw(1, "5S"),
        discard(1, "5S"),
        draw(0, "3D"),
        extend(0, "b", "9H"),
        discard(0, "4D"),
    ]
    assert findings(play(events)) == [
        (13, 1, 0, "R51-MELD-1", "meld b after the lay-off 6♥ 7♥ JK 9♥: a wild inside a sequence (only at either end)")
    ]


def test_R51_MELD_1_repeated_suit_five_card_set_two_jokers() -> None:
    events = first_turns(anna="KS KH KC KD 6H 7H 8H 9S 9H JK JK 2D", bruno="9C KS") + [
        draw(0, "9S"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H 8H"),
        meld(0, "c", "9S 9H 9S"),
        meld(0, "d", "KD JK JK"),
        discard(0, "2D"),
    ]
    assert findings(play(events)) == [
        (9, 1, 0, "R51-MELD-1", "meld c 9♠ 9♥ 9♠: a set with a repeated suit"),
        (10, 1, 0, "R51-MELD-1", "meld d K♦ JK JK: more wild cards than allowed"),
    ]


def test_R51_MELD_1_legal_melds() -> None:
    events = first_turns(anna="KS KH KC KD 6H 7H 8H JK 2D") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC KD"),
        meld(0, "b", "JK 6H 7H 8H"),
        discard(0, "2D"),
    ]
    assert findings(play(events)) == []


# --- R51-SWAP-1 ----------------------------------------------------------------------------


def swap_table() -> list[dict]:
    """Anna opens with a joker at the low end of 5♥6♥7♥… (JK stands for 4♥); Bruno opens at 10–12."""
    return first_turns(anna="KS KH KC JK 5H 6H 7H 2D", bruno="9C QS QH QC 9S 10S JS 4H 4D JD") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "JK 5H 6H 7H"),
        discard(0, "2D"),
        draw(1, "KD"),
        meld(1, "c", "QS QH QC"),
        meld(1, "d", "9S 10S JS"),
    ]


def test_R51_SWAP_1_wrong_card() -> None:
    state = play(swap_table() + [swap(1, "b", "4D"), discard(1, "JD")])
    assert findings(state) == [
        (13, 1, 1, "R51-SWAP-1", "Bruno put 4♦ in place of the JK in meld b (JK5♥6♥7♥), but it stands for 4♥")
    ]


def test_R51_SWAP_1_legal_exact_card() -> None:
    state = play(swap_table() + [swap(1, "b", "4H"), discard(1, "JD")])
    assert findings(state) == []
    assert state.meld("b").cards == ("4H", "5H", "6H", "7H") and "JK" in state.hands[1]


# --- a joker never moves once laid (ALL-MELD-1), as in Scala 40 ---------------------------------


def joker_table(card: str) -> list[dict]:
    """Anna's JK5♥6♥7♥ (JK = 4♥), Bruno opens at 10–12 holding ``card``; his next turn begins at 16 (R51-OPEN-3
    forbids a lay-off in the opening turn)."""
    return first_turns(anna="KS KH KC JK 5H 6H 7H 2D", bruno=f"9C QS QH QC 9S 10S JS {card} 4D JD") + [
        draw(0, "3C"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "JK 5H 6H 7H"),
        discard(0, "2D"),
        draw(1, "KD"),
        meld(1, "c", "QS QH QC"),
        meld(1, "d", "9S 10S JS"),
        discard(1, "JD"),
        draw(0, "4C"),
        discard(0, "4C"),
        draw(1, "3S"),
    ]


def test_ALL_MELD_1_lay_off_that_moves_the_joker() -> None:
    # 4♥ where the JK stood, the JK moved up to 8♥: a valid-looking meld, but only a swap may do that
    state = play(joker_table("4H") + [extend(1, "b", "4H", "4H 5H 6H 7H JK"), discard(1, "3S")])
    assert findings(state) == [
        (
            17,
            1,
            1,
            "ALL-MELD-1",
            "meld b after the lay-off 4♥ 5♥ 6♥ 7♥ JK: the joker stood for 4♥ and it now stands for 8♥; "
            "a joker never moves once laid (the card it stands for takes its place only by a joker swap)",
        )
    ]


def test_ALL_MELD_1_legal_twins_swap_or_lay_off_at_the_other_end() -> None:
    state = play(joker_table("4H") + [swap(1, "b", "4H"), discard(1, "3S")])
    assert findings(state) == [] and state.meld("b").cards == ("4H", "5H", "6H", "7H")
    state = play(joker_table("8H") + [extend(1, "b", "8H"), discard(1, "3S")])
    assert findings(state) == []
    assert state.meld("b").cards == ("JK", "5H", "6H", "7H", "8H") and state.meld("b").info.stands_for[0] == "4H"


# --- scoring and elimination -------------------------------------------------------------------

ANNA = "KS KH KC 6H 7H 8H 3D 4D 5D 6D 9D 9H 9S 10C"


def test_score_cards_joker_doubles_unopened_100() -> None:
    # 3 players; Anna opens with exactly 51 and goes out in her next turn; Bruno
    # opened (59) and keeps A♣ K♦ 7♣ 2♠ 5♣ 4♠ JK JK; Carla never opens
    events = r51_first_hand()
    state = play(events, players=3)
    assert findings(state) == []
    # Bruno: A♣ 11 + K♦ 10 + 7 + 2 + 5 + 4 = 39, doubled once for his two jokers
    assert hand_scores(state) == [(0, 0, {}), (1, 78, {"cards": 39, "joker_double": 39}), (2, 100, {"unopened": 100})]


def all_at_once() -> list[dict]:
    """Anna goes out all at once in her second turn; nobody had melded."""
    return [
        filled_deal(ANNA, "9C", up="JH"),
        draw(0, "QD"),
        discard(0, "QD"),
        draw(1, "4S"),
        discard(1, "9C"),
        draw(0, "7D"),
        meld(0, "a", "KS KH KC"),
        meld(0, "b", "6H 7H 8H"),
        meld(0, "c", "3D 4D 5D 6D 7D"),
        meld(0, "d", "9D 9H 9S"),
        discard(0, "10C"),
        went_out(0),
    ]


def test_score_nobody_melded_before_going_out_all_at_once_200_and_elimination() -> None:
    state = play(all_at_once() + [{"type": "game_ended", "reason": "elimination"}])
    assert findings(state) == []
    assert hand_scores(state) == [(0, 0, {}), (1, 200, {"all_at_once": 200})]
    assert state.eliminated == (1,)
    assert score_sheet(state).to_json()["totals"] == [{"seat": 0, "points": 0}, {"seat": 1, "points": 200}]
    assert score_sheet(state).to_json()["winner"] == 0


def test_elimination_option_201() -> None:
    state = play(all_at_once(), options={"elimination": 201})
    assert state.eliminated == ()


def test_R51_hand_size_option_and_players() -> None:
    state = play([filled_deal("KD", up="2C")], players=6, options={"hand_size": 13}, size=13)
    assert findings(state) == []
    state = play([filled_deal("KD", up="2C")], players=2, size=13)
    assert [f[3] for f in findings(state)] == ["ALL-DEAL-1", "ALL-DEAL-1"]
    with pytest.raises(Exception, match="ruleset"):
        play([], ruleset="fisca")
