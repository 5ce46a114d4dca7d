"""The rules every variant shares (RULES.md "Common rules"), on classic Ramino records.

Each REC id: a record that triggers it is rejected with the exact error, and
the legal case next to it is accepted. Each ALL id: the exact finding, and
the legal case with no finding.
"""

from __future__ import annotations

import pytest

from ledger.audit import report
from ledger.errors import LedgerError, PositionError, RecordError
from ledger.record_files import read_record
from ledger.replay import Replayer, validate
from ledger.testing.records import findings, game_started, lines, ramino_deal, ramino_game, replayed


def rejected(data: bytes) -> dict:
    with pytest.raises(RecordError) as info:
        replayed(data)
    return info.value.as_json()


D0 = {"type": "card_drawn", "seat": 0, "card": "6H"}
M0 = {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["3H", "4H", "5H", "6H"]}
X0 = {"type": "card_discarded", "seat": 0, "card": "QH"}


# --- REC-ORDER ---------------------------------------------------------------
def test_REC_ORDER_play_before_hand_dealt() -> None:
    assert rejected(lines(game_started(), D0)) == {
        "line": 2,
        "field": "type",
        "rule": "REC-ORDER",
        "message": "card_drawn before the first hand_dealt",
    }


def test_REC_ORDER_event_after_game_ended() -> None:
    data = ramino_game({"type": "hand_ended", "reason": "abandoned"}, {"type": "game_ended", "reason": "abandoned"}, D0)
    assert rejected(data) == {"line": 5, "field": "type", "rule": "REC-ORDER", "message": "card_drawn after game_ended"}


def test_REC_ORDER_play_after_hand_ended() -> None:
    data = ramino_game({"type": "hand_ended", "reason": "abandoned"}, D0)
    assert rejected(data) == {
        "line": 4,
        "field": "type",
        "rule": "REC-ORDER",
        "message": "card_drawn after hand_ended (hand 1)",
    }


def test_REC_ORDER_record_not_starting_with_game_started() -> None:
    assert rejected(lines(ramino_deal())) == {
        "line": 1,
        "field": "type",
        "rule": "REC-ORDER",
        "message": "a record starts with game_started, not hand_dealt",
    }


def test_REC_ORDER_legal_penalty_and_next_deal_after_hand_ended() -> None:
    data = ramino_game(
        {"type": "hand_ended", "reason": "abandoned"},
        {"type": "penalty_assessed", "seat": 1, "points": -10, "rule": "ALL-TURN-1"},
        ramino_deal(hand=2, dealer=0),
        {"type": "card_drawn", "seat": 1, "card": "6H"},
    )
    state = replayed(data)
    assert (state.hand, state.turn, state.phase, state.totals) == (2, 1, "play", (0, -10))


# --- REC-WHERE ---------------------------------------------------------------
def test_REC_WHERE_discard_of_a_card_not_held() -> None:
    data = ramino_game(D0, {"type": "card_discarded", "seat": 0, "card": "AS"})
    assert rejected(data) == {
        "line": 4,
        "field": "card",
        "rule": "REC-WHERE",
        "message": "Anna (seat 0) does not hold AS",
    }


def test_REC_WHERE_draw_against_known_stock() -> None:
    data = ramino_game({"type": "card_drawn", "seat": 0, "card": "KD"})
    assert rejected(data) == {
        "line": 3,
        "field": "card",
        "rule": "REC-WHERE",
        "message": "the top of the stock is 6H, not KD",
    }


def test_REC_WHERE_pile_pick_up_that_is_not_the_pile() -> None:
    data = ramino_game({"type": "discard_taken", "seat": 0, "cards": ["7C"]})
    assert rejected(data) == {
        "line": 3,
        "field": "cards",
        "rule": "REC-WHERE",
        "message": "taken 7♣ but the top card is 6♣",
    }


def test_REC_WHERE_meld_card_not_in_hand() -> None:
    data = ramino_game(D0, {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["3H", "4H", "5H", "7H"]})
    assert rejected(data) == {
        "line": 4,
        "field": "cards[3]",
        "rule": "REC-WHERE",
        "message": "Anna (seat 0) does not hold 7H",
    }


def test_REC_WHERE_legal_moves_pass() -> None:
    state = replayed(ramino_game(D0, M0, X0, {"type": "discard_taken", "seat": 1, "cards": ["QH"]}))
    assert state.findings == ()
    assert state.hands[1][-1] == "QH" and state.discard == ("6C",)


# --- REC-DECK ----------------------------------------------------------------
def test_REC_DECK_two_copies_in_a_one_deck_game() -> None:
    deal = ramino_deal(with_stock=False)
    deal["hands"] = [deal["hands"][0], ["3H"] + deal["hands"][1][1:]]
    assert rejected(lines(game_started(), deal)) == {
        "line": 2,
        "field": "hands",
        "rule": "REC-DECK",
        "message": "2 copies of 3H dealt; the ramino deck holds 1",
    }


def test_REC_DECK_deal_that_is_not_the_deck() -> None:
    deal = ramino_deal()
    deal["stock"] = deal["stock"][:-1]
    assert rejected(lines(game_started(), deal)) == {
        "line": 2,
        "field": "stock",
        "rule": "REC-DECK",
        "message": "the deal holds 51 cards; the deck has 52",
    }


def test_REC_DECK_draw_of_a_card_already_in_play_with_unknown_stock() -> None:
    data = ramino_game({"type": "card_drawn", "seat": 0, "card": "AS"}, with_stock=False)
    assert rejected(data) == {
        "line": 3,
        "field": "card",
        "rule": "REC-DECK",
        "message": "a copy of AS too many: the deck holds 1",
    }


def test_REC_DECK_legal_draw_with_unknown_stock() -> None:
    state = replayed(ramino_game({"type": "card_drawn", "seat": 0, "card": "KD"}, with_stock=False))
    assert state.stock is None and state.stock_count == 30 and state.hands[0][-1] == "KD"


# --- REC-REF -----------------------------------------------------------------
def test_REC_REF_unknown_seat() -> None:
    data = ramino_game({"type": "card_drawn", "seat": 5, "card": "6H"})
    assert rejected(data) == {
        "line": 3,
        "field": "seat",
        "rule": "REC-REF",
        "message": "unknown seat 5 (the table has seats 0–1)",
    }


def test_REC_REF_unknown_meld() -> None:
    data = ramino_game(D0, {"type": "meld_extended", "seat": 0, "meld": "zz", "cards": ["3H"]})
    assert rejected(data) == {
        "line": 4,
        "field": "meld",
        "rule": "REC-REF",
        "message": "no meld 'zz' on the table in hand 1",
    }


def test_REC_REF_duplicate_meld_id() -> None:
    data = ramino_game(D0, M0, {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["9C", "9D", "9S"]})
    assert rejected(data) == {
        "line": 5,
        "field": "meld",
        "rule": "REC-REF",
        "message": "meld id 'a' is already used in hand 1",
    }


def test_REC_REF_restore_outside_the_hand() -> None:
    data = ramino_game(D0, {"type": "position_restored", "target": 0, "reason": "misdeal"})
    assert rejected(data) == {
        "line": 4,
        "field": "target",
        "rule": "REC-REF",
        "message": "target 0 is not a position of the current line of play in hand 1",
    }


def test_REC_REF_legal_restore_inside_the_hand() -> None:
    # Anna melds, the referee rewinds to just after her draw; she then discards instead.
    data = ramino_game(D0, M0, {"type": "position_restored", "target": 2, "reason": "meld retracted"}, X0)
    state = replayed(data)
    assert state.melds == () and len(state.hands[0]) == 10 and state.turn == 1 and state.findings == ()


# --- ALL-TURN ----------------------------------------------------------------
def test_ALL_TURN_1_out_of_turn() -> None:
    data = ramino_game({"type": "card_drawn", "seat": 1, "card": "6H"})
    assert findings(data) == [(2, 1, 1, "ALL-TURN-1", "Bruno played out of turn: it was Anna's turn")]


def test_ALL_TURN_2_second_draw_and_meld_before_drawing() -> None:
    data = ramino_game(D0, {"type": "card_drawn", "seat": 0, "card": "7H"})
    assert findings(data) == [(3, 1, 0, "ALL-TURN-2", "Anna drew a second time in the same turn (card_drawn)")]
    data = ramino_game({"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["9C", "9D", "9S"]})
    assert findings(data) == [(2, 1, 0, "ALL-TURN-2", "Anna melded or laid off before drawing")]


def test_ALL_TURN_3_turn_ended_without_discard() -> None:
    data = ramino_game(D0, {"type": "card_drawn", "seat": 1, "card": "7H"})
    assert findings(data) == [(3, 1, 0, "ALL-TURN-3", "Anna's turn ended without a discard: Bruno acted next")]


def test_ALL_TURN_legal_turns_have_no_findings() -> None:
    data = ramino_game(
        D0,
        M0,
        X0,
        {"type": "card_drawn", "seat": 1, "card": "7H"},
        {"type": "card_discarded", "seat": 1, "card": "7H"},
        {"type": "card_drawn", "seat": 0, "card": "KD"},
    )
    state = replayed(data)
    assert state.findings == () and state.turn == 0 and state.phase == "play"


# --- ALL-MELD-1 --------------------------------------------------------------
def test_ALL_MELD_1_invalid_meld_and_legal_meld() -> None:
    bad = ramino_game(D0, {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["9C", "9D", "KS"]})
    assert findings(bad) == [(3, 1, 0, "ALL-MELD-1", "meld a 9♣ 9♦ K♠: neither a set nor a sequence")]
    assert findings(ramino_game(D0, M0)) == []


def test_ALL_MELD_1_lay_off_that_breaks_the_meld() -> None:
    data = ramino_game(D0, M0, {"type": "meld_extended", "seat": 0, "meld": "a", "cards": ["9C"]})
    assert findings(data) == [
        (4, 1, 0, "ALL-MELD-1", "meld a after the lay-off 3♥ 4♥ 5♥ 6♥ 9♣: neither a set nor a sequence")
    ]


# --- ALL-DEAL-1 --------------------------------------------------------------
def test_ALL_DEAL_1_wrong_hand_size_and_rotation() -> None:
    deal = ramino_deal(with_stock=False)
    deal["hands"] = [deal["hands"][0][:9], deal["hands"][1]]
    assert findings(lines(game_started(), deal)) == [(1, 1, 0, "ALL-DEAL-1", "Anna was dealt 9 cards instead of 10")]
    data = ramino_game({"type": "hand_ended", "reason": "abandoned"}, ramino_deal(hand=2, dealer=1))
    assert findings(data) == [(3, 2, 1, "ALL-DEAL-1", "Bruno dealt hand 2; the rotation called for Anna")]
    data = ramino_game({"type": "hand_ended", "reason": "abandoned"}, ramino_deal(hand=2, dealer=0))
    assert findings(data) == []


# --- ALL-SCORE-1 -------------------------------------------------------------
def test_ALL_SCORE_1_claim_differs_and_legal_claim() -> None:
    base = [D0, M0, X0]
    wrong = ramino_game(
        *base,
        {"type": "hand_ended", "reason": "abandoned", "claimed": [{"seat": 0, "points": 5}, {"seat": 1, "points": 0}]},
    )
    assert findings(wrong) == [(5, 1, 0, "ALL-SCORE-1", "hand 1: claimed 5 for Anna, computed 0 (difference +5)")]
    right = ramino_game(
        *base,
        {"type": "hand_ended", "reason": "abandoned", "claimed": [{"seat": 0, "points": 0}, {"seat": 1, "points": 0}]},
    )
    assert findings(right) == []


# --- REC-FORMAT at the fold level ---------------------------------------------
def test_REC_FORMAT_unknown_option_and_ruleset() -> None:
    assert rejected(lines(game_started(options={"jokers": 2}))) == {
        "line": 1,
        "field": "options.jokers",
        "rule": "REC-FORMAT",
        "message": "unknown option 'jokers' for ramino (known: ace_high, going_out, max_new_melds_per_turn, restock, "
        "rummy_doubles, target)",
    }
    assert (
        rejected(lines(game_started(ruleset="fibur")))["message"]
        == "unknown ruleset 'fibur' for ramino (known: pagat, seed)"
    )


def test_replayer_state_at_matches_full_replay() -> None:
    rec = read_record(ramino_game(D0, M0, X0, {"type": "card_drawn", "seat": 1, "card": "7H"}))
    rp = Replayer(rec.events, every=2)
    for pos in range(len(rec.events)):
        assert rp.state_at(pos) == validate(
            read_record(
                b"".join(
                    ramino_game(D0, M0, X0, {"type": "card_drawn", "seat": 1, "card": "7H"}).splitlines(keepends=True)[
                        : pos + 1
                    ]
                )
            )
        )
    assert report(rp.final).to_json() == {"game_id": "t-1", "findings": []}


# --- found by the adversarial review ----------------------------------------------
def test_REC_WHERE_went_out_while_holding_cards() -> None:
    data = ramino_game(D0, M0, X0, {"type": "hand_ended", "reason": "went_out", "seat": 0})
    assert rejected(data) == {
        "line": 6,
        "field": "seat",
        "rule": "REC-WHERE",
        "message": "Anna cannot have gone out holding 6 cards (9♣ 9♦ 9♠ K♠ 2♦ 7♣)",
    }


def test_REC_FORMAT_went_out_without_a_seat() -> None:
    data = ramino_game(D0, {"type": "hand_ended", "reason": "went_out"})
    assert rejected(data) == {
        "line": 4,
        "field": "seat",
        "rule": "REC-FORMAT",
        "message": "hand_ended went_out must name the seat that went out",
    }


def test_REC_REF_penalty_citing_an_unknown_rule_and_a_known_one() -> None:
    bad = ramino_game({"type": "penalty_assessed", "seat": 0, "points": -10, "rule": "NOPE-1"})
    assert rejected(bad) == {
        "line": 3,
        "field": "rule",
        "rule": "REC-REF",
        "message": "unknown rule id 'NOPE-1': a penalty cites a RULES.md rule",
    }
    assert replayed(
        ramino_game({"type": "penalty_assessed", "seat": 0, "points": -10, "rule": "RAM-DISC-1"})
    ).totals == (
        -10,
        0,
    )


def test_REC_FORMAT_ids_and_cards_with_a_trailing_newline() -> None:
    assert rejected(lines(game_started(game_id="abc\n")))["field"] == "game_id"
    assert rejected(ramino_game({"type": "card_drawn", "seat": 0, "card": "6H\n"})) == {
        "line": 3,
        "field": "card",
        "rule": "REC-FORMAT",
        "message": "bad card string '6H\\n' (expected e.g. 10H, AS, JK)",
    }


def test_REC_FORMAT_points_and_options_out_of_range() -> None:
    huge = ramino_game({"type": "penalty_assessed", "seat": 0, "points": 2147483648, "rule": "ALL-TURN-1"})
    assert rejected(huge) == {
        "line": 3,
        "field": "points",
        "rule": "REC-FORMAT",
        "message": "Expected `int` <= 1000000",
    }
    assert rejected(lines(game_started(options={"target": -5}))) == {
        "line": 1,
        "field": "options.target",
        "rule": "REC-FORMAT",
        "message": "Expected `int` >= 0",
    }


def test_ALL_SCORE_1_on_final_totals_belongs_to_no_hand() -> None:
    data = ramino_game(
        D0,
        M0,
        X0,
        {"type": "hand_ended", "reason": "abandoned"},
        {"type": "game_ended", "reason": "abandoned", "claimed": [{"seat": 0, "points": 5}, {"seat": 1, "points": 0}]},
    )
    assert findings(data) == [
        (6, None, 0, "ALL-SCORE-1", "final totals: claimed 5 for Anna, computed 0 (difference +5)")
    ]


def test_ALL_TURN_1_out_of_turn_meld_is_one_finding_not_also_ALL_TURN_2() -> None:
    data = ramino_game({"type": "meld_laid", "seat": 1, "meld": "b", "cards": ["6D", "7D", "8D"]})
    assert findings(data) == [(2, 1, 1, "ALL-TURN-1", "Bruno played out of turn: it was Anna's turn")]
    # the usurped turn then has its own order: a discard without any draw is ALL-TURN-2
    data = ramino_game(
        {"type": "meld_laid", "seat": 1, "meld": "b", "cards": ["6D", "7D", "8D"]},
        {"type": "card_discarded", "seat": 1, "card": "AS"},
    )
    assert findings(data)[1:] == [(3, 1, 1, "ALL-TURN-2", "Bruno discarded before drawing")]
    assert replayed(data).turn == 0


def test_REC_FORMAT_knocked_ending_outside_gin() -> None:
    data = ramino_game(D0, X0, {"type": "hand_ended", "reason": "knocked", "seat": 0})
    assert rejected(data) == {
        "line": 5,
        "field": "reason",
        "rule": "REC-FORMAT",
        "message": "a ramino hand does not end by a knock (that is Gin)",
    }


def test_ALL_TURN_2_not_raised_on_the_real_draw_after_an_out_of_turn_meld() -> None:
    # review finding: meld out of turn, then the seat's first real draw is not "a second draw"
    data = ramino_game(
        {"type": "meld_laid", "seat": 1, "meld": "b", "cards": ["6D", "7D", "8D"]},
        {"type": "card_drawn", "seat": 1, "card": "6H"},
        {"type": "card_discarded", "seat": 1, "card": "6H"},
    )
    assert findings(data) == [(2, 1, 1, "ALL-TURN-1", "Bruno played out of turn: it was Anna's turn")]


@pytest.mark.parametrize("position", [-1, 3])
def test_a_position_outside_the_game_is_a_named_error(position: int) -> None:
    replayer = Replayer(read_record(ramino_game({"type": "card_drawn", "seat": 0, "card": "6H"})).events)
    with pytest.raises(PositionError, match=rf"^position {position} is outside 0\.\.2$") as info:
        replayer.state_at(position)
    assert isinstance(info.value, IndexError) and isinstance(info.value, LedgerError)
