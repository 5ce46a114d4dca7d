"""The game knows when it is over: ``TableState.hand_over``, ``game_over`` and
``game_end_reason`` for every variant, from RULES.md's end conditions (target,
elimination, hands played, Gin's target or single hand), over the bundled
fixtures; and a ruling's ``finding`` must name a finding (REC-REF)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.events import GameEnded, HandEnded, PenaltyAssessed, PositionRestored
from ledger.record_files import read_record
from ledger.replay import replay, states

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def ends(name: str) -> list[tuple[int, str, bool, str | None]]:
    """``(position, type, hand_over, game_end_reason)`` at each hand_ended / game_ended."""
    record = read_record(FIXTURES / name)
    return [
        (s.position, record.events[s.position].type, s.hand_over, s.game_end_reason)
        for s in states(record.events)
        if record.events[s.position].type in ("hand_ended", "game_ended")
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Burraco to 2005: the third hand reaches it
        (
            "burraco/two_player_to_2005.jsonl",
            [
                (12, "hand_ended", True, None),
                (27, "hand_ended", True, None),
                (35, "hand_ended", True, "target_reached"),
                (36, "game_ended", True, "target_reached"),
            ],
        ),
        # Burraco, option hands=1 (tournament): over after one hand whatever the totals
        (
            "burraco/natural_pinella.jsonl",
            [(15, "hand_ended", True, "hands_played"), (16, "game_ended", True, "hands_played")],
        ),
        # Scala 40: elimination at 100 leaves one seat
        (
            "scala40/elimination.jsonl",
            [
                (16, "hand_ended", True, None),
                (26, "hand_ended", True, "elimination"),
                (27, "game_ended", True, "elimination"),
            ],
        ),
        # Ramino 51: elimination at 101
        (
            "ramino51/elimination.jsonl",
            [
                (22, "hand_ended", True, None),
                (40, "hand_ended", True, "elimination"),
                (41, "game_ended", True, "elimination"),
            ],
        ),
        # classic Ramino: target 100
        (
            "ramino/in-mano.jsonl",
            [(7, "hand_ended", True, "target_reached"), (8, "game_ended", True, "target_reached")],
        ),
        # Gin standard: target 100 after four hands
        (
            "gin/standard-game.jsonl",
            [
                (9, "hand_ended", True, None),
                (17, "hand_ended", True, None),
                (79, "hand_ended", True, None),
                (87, "hand_ended", True, "target_reached"),
                (88, "game_ended", True, "target_reached"),
            ],
        ),
        # Gin openspiel: a single hand
        (
            "gin/openspiel-seed.jsonl",
            [(52, "hand_ended", True, "hands_played"), (53, "game_ended", True, "hands_played")],
        ),
        # an abandoned game: not over by the rules, over once game_ended says so
        ("scala40/jolly_swap.jsonl", [(14, "hand_ended", True, None), (15, "game_ended", True, "abandoned")]),
    ],
)
def test_hand_and_game_over_per_variant(name: str, expected: list) -> None:
    assert ends(name) == expected


def test_during_a_hand_nothing_is_over() -> None:
    record = read_record(FIXTURES / "burraco/two_player_to_2005.jsonl")
    for s in states(record.events[:12]):
        assert (s.hand_over, s.game_over) == (False, False), s.position
    after = replay(record.events, upto=12)
    assert (after.hand_over, after.game_over) == (True, False)


@pytest.mark.parametrize(
    ("name", "position"),
    [
        ("gin/standard-game.jsonl", 78),  # the discard that left two stock cards: the wall, a 0–0 draw
        ("burraco/stock_exhausted_fibur.jsonl", 125),  # the discard that left the last two stock cards (fibur)
    ],
)
def test_a_hand_over_by_the_rules_before_hand_ended(name: str, position: int) -> None:
    events = read_record(FIXTURES / name).events
    assert events[position].type == "card_discarded" and events[position + 1].type == "hand_ended"
    assert replay(events, upto=position - 1).hand_over is False
    at = replay(events, upto=position)
    assert (at.phase, at.hand_over, at.game_over) == ("draw", True, False)


def test_a_penalty_between_hands_can_end_the_game() -> None:
    """Scala 40: a referee's penalty after the hand pushes Bruno past 100: out; one seat left."""
    events = list(read_record(FIXTURES / "scala40/elimination.jsonl").events)
    before = replay(events[:17])  # after the first hand_ended: totals (0, 68, 100)
    assert before.game_end_reason is None
    ruled = replay([*events[:17], PenaltyAssessed(seat=1, points=40, rule="ALL-TURN-1")])
    assert (ruled.eliminated, ruled.game_end_reason) == ((2, 1), "elimination")


def test_play_after_game_ended_is_refused() -> None:
    events = list(read_record(FIXTURES / "gin/openspiel-seed.jsonl").events)
    with pytest.raises(RecordError, match="position 54: type: REC-ORDER: hand_ended after game_ended"):
        replay([*events, HandEnded(reason="stalled")])


def _dispute() -> list:
    return list(read_record(FIXTURES / "burraco/dispute.jsonl").events)


def test_a_ruling_citing_a_finding_is_accepted() -> None:
    events = _dispute()  # findings at positions 4, 5, 7, 8, 15, 17
    state = replay([*events[:16], PenaltyAssessed(seat=0, points=-20, rule="ALL-TURN-1", finding=15, referee="Carla")])
    assert state.penalties[-1].points == -20
    restored = replay(
        [*events[:9], PositionRestored(target=7, reason="Bruno's second draw", finding=8, referee="Carla")]
    )
    assert restored.position == 9


@pytest.mark.parametrize(
    ("ruling", "message"),
    [
        (
            PenaltyAssessed(seat=0, points=-20, rule="ALL-TURN-1", finding=6),
            "position 16: finding: REC-REF: position 6 carries no finding to rule on",
        ),
        (
            PenaltyAssessed(seat=0, points=-20, rule="ALL-TURN-1", finding=16),
            "position 16: finding: REC-REF: finding 16 is not an earlier position (this ruling is position 16)",
        ),
        (
            PositionRestored(target=14, reason="x", finding=3),
            "position 16: finding: REC-REF: position 3 carries no finding to rule on",
        ),
        (
            PositionRestored(target=14, reason="x", finding=99),
            "position 16: finding: REC-REF: finding 99 is not an earlier position (this ruling is position 16)",
        ),
    ],
)
def test_a_ruling_citing_no_finding_is_refused(ruling: object, message: str) -> None:
    with pytest.raises(RecordError) as info:
        replay([*_dispute()[:16], ruling])
    assert str(info.value) == message


def test_game_ended_of_a_game_not_over_by_the_rules_is_still_accepted() -> None:
    """Abandoned and timed-out games end whenever the table says so."""
    events = list(read_record(FIXTURES / "burraco/two_player_to_2005.jsonl").events)
    state = replay([*events[:13], GameEnded(reason="abandoned")])
    assert (state.game_over, state.game_end_reason) == (True, "abandoned")
