"""Meld analysis and lay-off placement (ledger.melds), variant by variant parameters."""

from __future__ import annotations

import pytest

from ledger.melds import MeldRules, analyze, layoff_candidates

BURRACO = MeldRules(wild_twos=True, max_wilds=1, natural_two_bonus=True, max_set=9, max_sequence=14)
SCALA40 = MeldRules(max_wilds=1, max_set=4, set_distinct_suits=True)
RAMINO51 = MeldRules(max_wilds=1, max_set=4, set_distinct_suits=True, wild_ends_only=True)


@pytest.mark.parametrize(
    ("cards", "rules", "kind", "stands_for", "faults"),
    [
        (("3H", "4H", "5H"), SCALA40, "sequence", (None, None, None), ()),
        (("QS", "KS", "AS"), SCALA40, "sequence", (None, None, None), ()),
        (("KS", "AS", "2S"), SCALA40, "invalid", (None, None, None), ("invalid",)),
        (("7C", "7D", "JK"), SCALA40, "set", (None, None, "7"), ()),
        (("7C", "7C", "7D"), SCALA40, "set", (None, None, None), ("set_repeated_suit",)),
        (("5H", "JK", "7H"), SCALA40, "sequence", (None, "6H", None), ()),
        (("5H", "JK", "7H"), RAMINO51, "sequence", (None, "6H", None), ("wild_inside",)),
        (("JK", "6H", "7H"), RAMINO51, "sequence", ("5H", None, None), ()),
        (("JK", "JK", "7H", "8H"), SCALA40, "sequence", ("5H", "6H", None, None), ("too_many_wilds",)),
        # Burraco: the record's order says whether a 2 is natural (RULES.md, "authoritative order")
        (("2H", "3H", "4H", "5H", "6H", "7H", "8H"), BURRACO, "sequence", (None,) * 7, ()),
        (("3H", "4H", "5H", "6H", "7H", "8H", "2H"), BURRACO, "sequence", (None,) * 6 + ("9H",), ()),
        (("AH", "2H", "3H", "JK"), BURRACO, "sequence", (None, None, None, "4H"), ()),
        (("2C", "2D", "2S"), BURRACO, "set", (None, None, None), ("set_of_wild_rank",)),
        (("JK", "2D", "JK"), BURRACO, "invalid", (None, None, None), ("wilds_only",)),
    ],
)
def test_analyze(cards, rules, kind, stands_for, faults) -> None:
    info = analyze(cards, rules)
    assert (info.kind, info.stands_for, info.faults) == (kind, stands_for, faults)


def test_natural_card_onto_a_wild_moves_the_wild_to_an_end() -> None:
    # 6♥ laid off on 5♥ JK 7♥: the jolly moves to either end, so the record must say which.
    assert layoff_candidates(("5H", "JK", "7H"), ("6H",), SCALA40) == [
        ("5H", "6H", "7H", "JK"),
        ("JK", "5H", "6H", "7H"),
    ]
    # Only one end is open when the other would pass the ace.
    assert layoff_candidates(("QH", "KH", "JK"), ("AH",), SCALA40) == [("JK", "QH", "KH", "AH")]


def test_plain_lay_offs_are_placed_without_result() -> None:
    assert layoff_candidates(("5H", "6H", "7H"), ("4H", "8H"), SCALA40) == [("4H", "5H", "6H", "7H", "8H")]
    assert layoff_candidates(("7C", "7D", "7H"), ("7S",), SCALA40) == [("7C", "7D", "7H", "7S")]
    assert layoff_candidates(("7C", "7D", "7H", "7S"), ("7S",), SCALA40) == []


HEARTS = ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH")


def test_a_14_card_sequence_is_legal_and_a_15_card_one_is_too_long() -> None:
    # RULES.md Burraco: "at most 14 cards (13 naturals + 1 wild)"; the wild stands for the other ace
    from ledger.variants.burraco.rules import BurracoRules
    from ledger.variants.burraco.scoring import burraco_kind

    fourteen = analyze(HEARTS + ("JK",), BURRACO)
    assert (fourteen.kind, fourteen.faults, fourteen.stands_for[-1]) == ("sequence", (), "AH")
    assert burraco_kind(fourteen) == "semi-clean"
    fifteen = analyze(HEARTS + ("AH", "JK"), BURRACO)
    assert fifteen.faults == ("sequence_too_long",)
    assert BurracoRules().meld_rule_ids()["sequence_too_long"] == "BUR-MELD-1"
    # a natural ace at both ends is still an ace low and high at once
    assert analyze(("AH",) + HEARTS[1:] + ("AH",), MeldRules(max_sequence=14)).faults == ("wraps",)


def test_variant_id_replaces_the_general_ids_for_one_meld() -> None:
    # a 10-card set needs two wilds: BUR-MELD-1 (longer than 9) alone, not also ALL-MELD-2
    from ledger.state import TableState
    from ledger.variants.burraco.rules import BurracoRules

    rules = BurracoRules()
    info = analyze(("7C", "7C", "7D", "7D", "7H", "7H", "7S", "7S", "JK", "JK"), BURRACO)
    assert info.faults == ("set_too_long", "too_many_wilds")
    state = TableState(rules=rules, game_id="g", players=(), sides=())
    assert [f.rule for f in rules.meld_findings(state, 5, 0, info, "meld a").findings] == ["BUR-MELD-1"]


@pytest.mark.parametrize("rules", [SCALA40, RAMINO51], ids=["scala40", "ramino51"])
def test_14_card_sequence_with_the_joker_at_an_end_in_the_threshold_games(rules) -> None:
    assert analyze(HEARTS + ("JK",), rules).faults == ()
    assert analyze(("JK",) + HEARTS[1:] + ("AH",), rules).faults == ()  # the joker is the low ace, the ace high
    assert analyze(("JK",) + HEARTS, rules).kind == "invalid"  # nothing stands below the ace
