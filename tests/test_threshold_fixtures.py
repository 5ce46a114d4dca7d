"""The Scala 40 / Ramino 51 fixtures' scores, computed by hand from RULES.md
(see the scenario docstrings in tools/make_threshold_fixtures.py), checked
independently of the ``.expected.json`` files."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.audit import report
from ledger.record_files import read_record
from ledger.replay import validate
from ledger.scoring import score_sheet

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

HAND_POINTS = {
    # hand 1: Bruno 43 cards + 25 joker, Carla unopened 100; hand 2: Bruno unopened 100, doubled by the chiusura in mano
    "scala40/elimination.jsonl": ([[0, 68, 100], [0, 200, 0]], [0, 268, 100], 0, []),
    "scala40/openings_at_and_under_40.jsonl": ([[0, 0]], [0, 0], None, ["S40-OPEN-1"]),
    "scala40/jolly_swap.jsonl": ([[0, 0]], [0, 0], None, ["S40-SWAP-1", "S40-PILE-2"]),
    "scala40/stock_restock.jsonl": ([[0] * 6], [0] * 6, None, []),
    # hand 1: Bruno 39 doubled by his jokers, Carla unopened 100; hand 2: 200 each (nobody melded before Anna went out
    # at once)
    "ramino51/elimination.jsonl": ([[0, 78, 100], [0, 200, 200]], [0, 278, 300], 0, []),
    "ramino51/violations.jsonl": ([[0, 0]], [0, 0], None, ["R51-PILE-1", "R51-OPEN-1", "R51-MELD-1", "R51-SWAP-1"]),
}


@pytest.mark.parametrize("name", sorted(HAND_POINTS))
def test_fixture_scores_by_hand(name: str) -> None:
    hands, totals, winner, rules = HAND_POINTS[name]
    state = validate(read_record(FIXTURES / name))
    sheet = score_sheet(state).to_json()
    assert [[s["points"] for s in h["scores"]] for h in sheet["hands"]] == hands
    assert [t["points"] for t in sheet["totals"]] == totals
    assert sheet["winner"] == winner  # abandoned with a tie: None
    assert [f.rule for f in report(state).findings] == rules


def test_restock_fixture_restocks() -> None:
    events = read_record(FIXTURES / "scala40/stock_restock.jsonl").events
    assert [e.type for e in events].count("stock_restocked") == 1
    state = validate(read_record(FIXTURES / "scala40/stock_restock.jsonl"))
    assert state.ended == "abandoned"
