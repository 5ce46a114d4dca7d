"""Movements and the independent checker (TOURNAMENT.md "Movements", "Rule ids (tournament)").

Random tournaments of the product's own pairings (8–60 entrants, every
movement, byes, late entries, withdrawals) have no finding; each TOUR-… rule
is caught on a deliberately broken record and silent on its legal twin.
``RUMMY_LEDGER_SLOW=1`` runs 5,000 random tournaments (300 otherwise).
"""

from __future__ import annotations

import collections
import os
import random

import msgspec
import pytest

from ledger.i18n import translations
from ledger.testing.tournaments import MOVEMENTS, Builder, game_result, random_tournament, started
from ledger.tournament.checker import check
from ledger.tournament.events import EntrantWithdrawn, RoundClosed, RoundPaired, Table, VpAdjusted
from ledger.tournament.history import circle_opponent, mitchell_opponent
from ledger.tournament.pairing import PairingError, propose

SLOW = os.environ.get("RUMMY_LEDGER_SLOW") == "1"
RUNS = 5000 if SLOW else 300


def test_random_tournaments_have_no_findings() -> None:
    seen: collections.Counter[str] = collections.Counter()
    byes = withdrawals = 0
    for i in range(RUNS):
        b = random_tournament(random.Random(i))
        found = check(b.state, b.results)
        assert found == [], (i, b.state.started.movement, [f.to_json() for f in found])
        seen[b.state.started.movement] += 1
        byes += sum(1 for r in b.state.rounds.values() if r.bye)
        withdrawals += sum(1 for e in b.state.entrants.values() if e.withdrawn_at is not None)
        assert 8 <= len(b.state.entrants)
    assert set(seen) == set(MOVEMENTS) and min(seen.values()) > RUNS // 10
    assert byes > RUNS and withdrawals > RUNS // 10


def test_round_robin_meets_everyone_once() -> None:
    line = [f"p{i}" for i in range(7)]
    met = {(e, circle_opponent(line, e, r)) for e in line for r in range(1, 8)}
    assert {b for a, b in met if a == "p0"} == {"p1", "p2", "p3", "p4", "p5", "p6", None}
    assert len(met) == 7 * 7


def test_mitchell_no_rematch_before_round_n() -> None:
    line = [f"p{i}" for i in range(10)]
    opponents = [mitchell_opponent(line, "p0", r) for r in range(1, 6)]
    assert [o[0] for o in opponents if o] == ["p5", "p6", "p7", "p8", "p9"]
    assert mitchell_opponent(line, "p7", 3) == ("p0", 1, False)


def _six(movement: str, rounds: int = 4) -> Builder:
    b = Builder(started("t", movement, rounds))
    for i in range(1, 7):
        b.register(f"p{i}")
    return b


def _pair(b: Builder, rnd: int, pairs: list[tuple[str, str]], bye: str | None = None, table0: int = 1) -> None:
    tables = tuple(Table(table=table0 + i, entrants=p, game_id=f"t-r{rnd}-t{table0 + i}") for i, p in enumerate(pairs))
    b.add(RoundPaired(round=rnd, tables=tables, bye=bye))


def _play(b: Builder, rnd: int, mp: tuple[int, int] = (1000, 500)) -> None:
    for t in b.state.rounds[rnd].tables:
        b.results[t.game_id] = game_result(b.state, rnd, t, mp)


def _rules(b: Builder) -> list[tuple[int, str]]:
    return [(f.position, f.rule) for f in check(b.state, b.results)]


def test_swiss_rematch_is_pair_1_and_its_twin_is_clean() -> None:
    b = _six("swiss")
    _pair(b, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(b, 1)
    _pair(b, 2, [("p1", "p2"), ("p3", "p5"), ("p4", "p6")])
    assert _rules(b) == [(8, "TOUR-PAIR-1")]
    assert check(b.state, b.results)[0].message == "round 2: p1 meets p2 again"
    c = _six("swiss")
    _pair(c, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(c, 1)
    _pair(c, 2, [("p1", "p3"), ("p2", "p5"), ("p4", "p6")])
    assert _rules(c) == []


def test_danese_modificato_previous_opponent_but_in_the_last_round() -> None:
    b = _six("danese_modificato", rounds=2)
    _pair(b, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(b, 1)
    _pair(b, 2, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    assert _rules(b) == []  # the last round: a rematch is allowed
    c = _six("danese_modificato", rounds=3)
    _pair(c, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(c, 1)
    _pair(c, 2, [("p1", "p2"), ("p3", "p5"), ("p4", "p6")])
    assert _rules(c) == [(8, "TOUR-PAIR-1")]


def test_danese_pairs_neighbours_of_the_standings() -> None:
    b = _six("danese")
    _pair(b, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(b, 1)  # p1, p3, p5 win 1000-500: 12-8 each
    _pair(b, 2, [("p1", "p3"), ("p5", "p2"), ("p4", "p6")])
    assert _rules(b) == []
    c = _six("danese")
    _pair(c, 1, [("p1", "p3"), ("p2", "p4"), ("p5", "p6")])
    assert _rules(c) == [(7, "TOUR-PAIR-1"), (7, "TOUR-PAIR-1")]


def test_mitchell_out_of_rotation_and_twin() -> None:
    b = _six("mitchell")
    _pair(b, 1, [("p1", "p4"), ("p2", "p5"), ("p3", "p6")])
    assert _rules(b) == []
    b.add(RoundClosed(round=1))
    _play(b, 1)
    _pair(b, 2, [("p1", "p5"), ("p2", "p6"), ("p3", "p4")])
    assert _rules(b) == []
    c = _six("mitchell")
    _pair(c, 1, [("p1", "p4"), ("p2", "p5"), ("p3", "p6")])
    _play(c, 1)
    _pair(c, 2, [("p1", "p4"), ("p2", "p6"), ("p3", "p5")])
    assert [r for _, r in _rules(c)] == ["TOUR-PAIR-1", "TOUR-PAIR-1"]
    d = _six("mitchell")
    _pair(d, 1, [("p4", "p1"), ("p2", "p5"), ("p3", "p6")])  # East–West at North–South
    assert [r for _, r in _rules(d)] == ["TOUR-PAIR-1"]


def test_italiana_off_the_circle() -> None:
    b = _six("italiana")
    p = propose(b.state, 1)
    _pair(b, 1, [(a, c) for _, a, c in p.tables])
    assert _rules(b) == []
    c = _six("italiana")
    _pair(c, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    assert "TOUR-PAIR-1" in [r for _, r in _rules(c)]


def test_pair_2_twice_or_withdrawn_and_twin() -> None:
    b = _six("swiss")
    _pair(b, 1, [("p1", "p2"), ("p1", "p4"), ("p5", "p6")], bye="p3")
    assert "TOUR-PAIR-2" in [r for _, r in _rules(b)]
    assert any(f.message == "round 1: p1 is paired twice" for f in check(b.state, b.results))
    c = _six("swiss")
    c.add(EntrantWithdrawn(entrant="p6", reason="ill"))
    _pair(c, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    assert _rules(c) == [(8, "TOUR-PAIR-2")]
    d = _six("swiss")
    d.add(EntrantWithdrawn(entrant="p6", reason="ill"))
    _pair(d, 1, [("p1", "p2"), ("p3", "p4")], bye="p5")
    assert _rules(d) == []


def test_game_1_mismatches_and_twin() -> None:
    b = _six("swiss")
    _pair(b, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(b, 1)
    assert _rules(b) == []
    t = b.state.rounds[1].tables[0]
    good = b.results[t.game_id]
    b.results[t.game_id] = msgspec.structs.replace(
        good,
        sides=(good.sides[1], good.sides[0]),
        meta={**good.meta, "table": "9"},
        variant="scala40",
        hands=3,
        options={},
    )
    found = check(b.state, b.results)
    assert [f.rule for f in found] == ["TOUR-GAME-1"] * 5
    assert [f.message for f in found] == [
        "round 1, table 1: game t-r1-t1 is scala40, the tournament plays burraco",
        "round 1, table 1: game t-r1-t1 seats p2-N & p2-S on side 0, not p1 (p1-N & p1-S)",
        "round 1, table 1: game t-r1-t1 seats p1-N & p1-S on side 1, not p2 (p2-N & p2-S)",
        "round 1, table 1: game t-r1-t1 has meta.table '9', not '1'",
        "round 1, table 1: game t-r1-t1 has 3 hands, the tournament plays 4",
    ]


def test_game_2_unfinished_at_close_and_twin() -> None:
    b = _six("swiss")
    _pair(b, 1, [("p1", "p2"), ("p3", "p4"), ("p5", "p6")])
    _play(b, 1)
    t = b.state.rounds[1].tables[2]
    b.results[t.game_id] = msgspec.structs.replace(b.results[t.game_id], finished=False)
    b.add(RoundClosed(round=1))
    assert _rules(b) == [(8, "TOUR-GAME-2")]
    b.add(VpAdjusted(entrant="p5", vp=10, rule="TOUR-GAME-2", round=1, note="unfinished: 10-10 ruled"))
    assert _rules(b) == []


def test_warnings_and_twins() -> None:
    b = _six("swiss")
    b.add(VpAdjusted(entrant="p2", vp=0, rule="TOUR-WARN-1", note="late"))
    assert _rules(b) == [(7, "TOUR-WARN-1")]
    assert check(b.state, b.results)[0].text(translations("it")) == "ammonizione a p2: late"
    b.add(VpAdjusted(entrant="p2", vp=0, rule="TOUR-WARN-1", note="slow"))
    assert _rules(b) == [(7, "TOUR-WARN-1"), (8, "TOUR-WARN-1"), (8, "TOUR-WARN-2")]
    b.add(VpAdjusted(entrant="p2", vp=-1, rule="TOUR-WARN-2", note="second warning"))
    assert _rules(b) == [(7, "TOUR-WARN-1"), (8, "TOUR-WARN-1")]
    c = _six("swiss")
    c.add(VpAdjusted(entrant="p2", vp=-2, rule="TOUR-GAME-2"))
    assert _rules(c) == []


def test_swiss_with_too_many_rounds_cannot_be_paired() -> None:
    b = Builder(started("t", "swiss", 4))
    for e in ("p1", "p2", "p3", "p4"):
        b.register(e)
    rng = random.Random(1)
    for rnd in (1, 2, 3):
        b.pair(rnd)
        b.play(rnd, rng)
    with pytest.raises(PairingError, match="round 4: no pairing of 4 entrants"):
        b.pair(4)


def _refold(events: list, results: dict) -> list[str]:
    from ledger.tournament.state import fold

    return [f.rule for f in check(fold(events), results)]


def test_broken_product_pairings_are_caught() -> None:
    """Random tournaments with their last round broken: an entrant seated twice is always
    TOUR-PAIR-2; in danese, two tables trading their East–West entrants are always TOUR-PAIR-1."""
    caught = collections.Counter()
    for i in range(RUNS // 3):
        b = random_tournament(random.Random(10_000 + i))
        at = max(p for p, e in enumerate(b.events) if isinstance(e, RoundPaired))
        paired = b.events[at]
        if len(paired.tables) < 2:
            continue
        t0, t1 = paired.tables[0], paired.tables[1]
        twice = msgspec.structs.replace(t1, entrants=(t0.entrants[0], t1.entrants[1]))
        broken = msgspec.structs.replace(paired, tables=(t0, twice, *paired.tables[2:]))
        assert "TOUR-PAIR-2" in _refold([*b.events[:at], broken, *b.events[at + 1 :]], b.results), i
        caught["TOUR-PAIR-2"] += 1
        if b.state.started.movement == "danese":
            traded = (
                msgspec.structs.replace(t0, entrants=(t0.entrants[0], t1.entrants[1])),
                msgspec.structs.replace(t1, entrants=(t1.entrants[0], t0.entrants[1])),
            )
            swapped = msgspec.structs.replace(paired, tables=(*traded, *paired.tables[2:]))
            assert "TOUR-PAIR-1" in _refold([*b.events[:at], swapped, *b.events[at + 1 :]], b.results), i
            caught["TOUR-PAIR-1"] += 1
    assert caught["TOUR-PAIR-2"] > RUNS // 4 and caught["TOUR-PAIR-1"] > RUNS // 30
