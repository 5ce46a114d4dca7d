"""Burraco rejections (REC-…), sides, options, labels and the fixtures' hand-checked scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.record_files import read_record
from ledger.render import render_state
from ledger.replay import validate
from ledger.testing.records import burraco_started, findings, lines, replayed, stacked_deal
from ledger.views import state_view

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "burraco"
ANNA = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "9D", "9S", "9C", "2C"]
BRUNO = ["4C", "4D", "9S", "9D", "JD", "JH", "QD", "QH", "6C", "6D", "8C"]


def base(**kw):
    return [burraco_started(2, **kw), stacked_deal([list(ANNA), list(BRUNO)], up=["10D"], stock_top=["QH", "KD"])]


def rejected(events_or_bytes) -> RecordError:
    data = events_or_bytes if isinstance(events_or_bytes, bytes) else lines(*events_or_bytes)
    with pytest.raises(RecordError) as info:
        validate(read_record(data))
    return info.value


def test_bad_card_is_rejected_with_line_field_and_rule():
    data = (
        lines(*base())
        + b'{"type":"card_drawn","seat":0,"card":"QH"}\n{"type":"card_discarded","seat":0,"card":"11H"}\n'
    )
    err = rejected(data)
    assert err.as_json() == {
        "line": 4,
        "field": "card",
        "rule": "REC-FORMAT",
        "message": "bad card string '11H' (expected e.g. 10H, AS, JK)",
    }


def test_card_not_in_hand_is_rejected_with_line_field_and_rule():
    err = rejected(
        base() + [{"type": "card_drawn", "seat": 0, "card": "QH"}, {"type": "card_discarded", "seat": 0, "card": "5S"}]
    )
    assert err.as_json() == {
        "line": 4,
        "field": "card",
        "rule": "REC-WHERE",
        "message": "Anna (seat 0) does not hold 5S",
    }


def test_meld_of_cards_not_in_hand_is_rejected():
    err = rejected(
        base()
        + [
            {"type": "card_drawn", "seat": 0, "card": "QH"},
            {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["KS", "KD", "KC"]},
        ]
    )
    assert (err.line, err.field, err.rule) == (4, "cards[0]", "REC-WHERE")


def test_discard_taken_must_be_the_whole_pile():
    ev = base() + [
        {"type": "card_drawn", "seat": 0, "card": "QH"},
        {"type": "card_discarded", "seat": 0, "card": "QH"},
        {"type": "discard_taken", "seat": 1, "cards": ["QH"]},
    ]
    err = rejected(ev)
    assert err.as_json() == {
        "line": 5,
        "field": "cards",
        "rule": "REC-WHERE",
        "message": "taken Q♥ but the whole pile is 10♦ Q♥",
    }


def test_pozzetto_taken_twice_is_rejected():
    ev = base() + [
        {"type": "card_drawn", "seat": 0, "card": "QH"},
        {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ANNA[:7]},
        {"type": "meld_laid", "seat": 0, "meld": "b", "cards": ANNA[7:]},
        {"type": "card_discarded", "seat": 0, "card": "QH"},
        {"type": "pozzetto_taken", "seat": 0, "pozzetto": 0},
        {"type": "pozzetto_taken", "seat": 1, "pozzetto": 0},
    ]
    err = rejected(ev)
    assert (err.line, err.field, err.rule, err.message) == (
        8,
        "pozzetto",
        "REC-WHERE",
        "pozzetto 0 was already taken by Anna",
    )


def test_pozzetto_cards_must_be_listed_somewhere():
    ev = [
        burraco_started(2),
        stacked_deal([list(ANNA), list(BRUNO)], up=["10D"], stock_top=["QH"], list_pozzetti=False),
    ]
    ev += [
        {"type": "card_drawn", "seat": 0, "card": "QH"},
        {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ANNA[:7]},
        {"type": "meld_laid", "seat": 0, "meld": "b", "cards": ANNA[7:]},
        {"type": "card_discarded", "seat": 0, "card": "QH"},
        {"type": "pozzetto_taken", "seat": 0, "pozzetto": 1},
    ]
    err = rejected(ev)
    assert err.as_json() == {
        "line": 7,
        "field": "cards",
        "rule": "REC-FORMAT",
        "message": "pozzetto_taken must list the cards: the deal did not give pozzetto 1",
    }


def test_fibur_never_restocks():
    err = rejected(base() + [{"type": "stock_restocked"}])
    assert (err.line, err.rule) == (3, "REC-ORDER")


def test_partners_must_sit_opposite():
    ev = burraco_started(4)
    ev["players"][1]["team"] = 0
    ev["players"][2]["team"] = 1
    err = rejected([ev])
    assert (err.field, err.rule) == ("players", "REC-REF")


def test_players_option_must_match():
    err = rejected([burraco_started(2, options={"players": 4})])
    assert (err.field, err.rule) == ("options.players", "REC-REF")


def test_three_players_each_alone_and_four_without_teams():
    s = replayed([burraco_started(3)])
    assert s.sides == (0, 1, 2) and s.totals == (0, 0, 0)
    s = replayed([burraco_started(4, teams=False)])
    assert s.sides == (0, 1, 0, 1)


def test_deck_per_preset():
    assert replayed([burraco_started(2)]).rules.deck()["JK"] == 4
    assert sum(replayed([burraco_started(2, ruleset="seed")]).rules.deck().values()) == 106


def test_meld_label_and_views():
    s = validate(read_record(FIX / "semi_clean_and_dirty.jsonl"))
    labels = {m.id: (m.burraco, m.points) for m in state_view(s).melds}
    # a: 5D..JD + JK at the end = 15 + 40 + 30; b: K K K K = 40; c: six 7s + 2D = 30 + 20; d: Q Q Q = 30
    assert labels == {"a": ("semi-clean", 85), "b": (None, 40), "c": ("dirty", 50), "d": (None, 30)}
    text_view = render_state(s)
    assert "(burraco semi-clean; wild JK=Q♦)" in text_view
    assert "(burraco dirty; wild 2♦=7)" in text_view


# The fixtures' scores, computed by hand from RULES.md (values: JK 30, 2 20, A 15,
# 8..K 10, 3..7 5; clean 200, semi-clean 150, dirty 100, closing 100, no pozzetto -100).
HAND_CHECKED = {
    # h1: Anna 7H..AH (5+60+15=80, clean) + AC AD AS (45) + 4S..AS (20+60+15=95, clean) = 220 + 400 + 100 = 720;
    #     Bruno holds 4C 4D 6C 6D 7C (25) 9S 9D JD JH QD QH (60) = -85, no pozzetto -100 = -185.
    # h2: Anna 720 again; Bruno QD QH 2C = 40, hand 4C 4D 9S 9D JD JH 6D 7C = -60, -100 = -120.
    # h3: Anna JK 7H..AH (30+5+60+15=110, semi-clean) + aces 45 + 5S..AS (15+60+15=90, clean)
    #     = 245 + 350 + 100 = 695; Bruno -185. Totals 2135 / -490: Anna reached 2005.
    "two_player_to_2005": ([[720, -185], [720, -120], [695, -185]], [2135, -490], 0),
    # team 0: a 6H..AH 85 (clean), c 999 30, d 4C 2D 6C 7C 35, f QQQ 30, g J Q K A spades 45,
    #   h 3D..9D JK 75 (semi-clean), i KKK 30 = 330 + 350 + 100, Carla holds 10S -10 = 770;
    # team 1: b 5555 20, e AAA 45 = 65; Bruno 3C 8C 10C JC KC 7D 8D 9H = 70, Dario 3S 4S 7S 8S 10D JD 2H = 65; -100 =
    # -170.
    "four_player_partnership": ([[770, -170]], [770, -170], 0),
    # a AH 2H 3H 4H JK 6H 7H 8H = 15+20+10+30+10+10 = 95 (dirty); b 2C..8C = 20+25+10 = 55 (clean, natural 2);
    # 9S 9D 9H 2S = 50; QQQ 30 -> 230 + 300 + 100 = 630; Bruno 3S 4S 6S 8S 10S JS KS 5D 7D 9C JC = 85 -> -185.
    "natural_pinella": ([[630, -185]], [630, -185], 0),
    # a 5D..JD JK 85 (semi-clean), b KC KD KH KS 40, c 7s+2D 50 (dirty, 7 cards), d QQQ 30 -> 205 + 250 + 100 = 555.
    "semi_clean_and_dirty": ([[555, -185]], [555, -185], 0),
    # Anna: 3C..10C 55 (clean), JD JH JS 2S 50, aces 45, 5D 6D 7D 15 = 165 + 200, holds KS KH 8S 9S -40 = 325;
    # Bruno: 3H..JH 65 (clean), QQQ 30, 4S..7S 20, 10D JD QD 30, 333 15 = 160 + 200 + 100 = 460.
    "pozzetto_al_volo_con_lo_scarto": ([[325, 460]], [325, 460], 1),
    # Anna 3H 4H 5H 15, holds KC KD QS 9C 8D 7S 6S AS = 75, -100 -> -160; Bruno 10C JC QC 30, holds 4D 4S 9H JS JD 7D 5C
    # 2C = 70 -> -140.
    "stock_exhausted_fibur": ([[-160, -140]], [-160, -140], 1),
    "stock_exhausted_seed": ([[-160, -140]], [-160, -140], 1),
    # Anna: 3H 4H 5H 15 + K K K Q 40 (invalid, no bonus) = 55, holds 8H 4C 6D 7S -25, -100 = -70;
    # Bruno after the restore holds his 85 -> -185, referee -50 -> -235.
    "dispute": ([[-70, -235]], [-70, -235], 0),
}


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_fixture_scores_checked_by_hand(name):
    hands, totals, winner = HAND_CHECKED[name]
    expected = json.loads((FIX / f"{name}.expected.json").read_text())["score"]
    assert [[line["points"] for line in h["scores"]] for h in expected["hands"]] == hands
    assert [t["points"] for t in expected["totals"]] == totals
    assert expected["winner"] == winner


def test_dispute_fixture_findings():
    s = validate(read_record(FIX / "dispute.jsonl"))
    assert [(f[0], f[3]) for f in findings(s)] == [
        (4, "ALL-MELD-1"),
        (5, "BUR-PILE-1"),
        (7, "BUR-TURN-1"),
        (8, "ALL-TURN-2"),
        (15, "ALL-TURN-1"),
        (17, "ALL-SCORE-1"),
    ]
