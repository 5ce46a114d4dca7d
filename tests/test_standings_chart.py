"""The standings chart (issue 26): each entrant's VP total round by round, as the standings compute
them, with the rounds whose VP a ruling changed marked (ledger/tournament/progress.py, pure), drawn by
matplotlib as SVG (replay_web/standings_chart.py) on the tournament page, the standings sheet and
its PDF (real server)."""

from __future__ import annotations

import msgspec
import pytest

from ledger.testing.tournaments import Builder, game_result, started
from ledger.tournament.events import EntrantRegistered, RoundClosed, RoundPaired, Table, VpAdjusted
from ledger.tournament.progress import EntrantProgress, RulingMark, progress
from ledger.tournament.standings import standings


def small() -> Builder:
    """Five pairs, two rounds of fibur-4, a bye each round, a ruling that moves a VP, a warning's VP off.

    Round 1: a 1200–600 b (difference 600: 13–7), c 500–500 d (10–10), e the bye (12).
    Round 2: a 300–900 c (7–13); e 1000–400 b as adjudicated (600: 13–7), 1000–700 as played
    (300: 11–9: a penalty of -300 on b's side); d the bye (12) and 1 VP off (TOUR-WARN-2).
    """
    b = Builder(started("club", "danese", 2))
    for e in "abcde":
        b.add(EntrantRegistered(entrant=e, players=(f"{e}-N", f"{e}-S")))
    pairings = {1: ((("a", "b"), (1200, 600)), (("c", "d"), (500, 500)), "e"),
                2: ((("a", "c"), (300, 900)), (("e", "b"), (1000, 400)), "d")}  # fmt: skip
    for rnd, (one, two, bye) in pairings.items():
        tables = tuple(
            Table(table=i + 1, entrants=p, game_id=f"club-r{rnd}-t{i + 1}") for i, (p, _) in enumerate((one, two))
        )
        b.add(RoundPaired(round=rnd, tables=tables, bye=bye))
        for t, (_, mp) in zip(tables, (one, two), strict=True):
            b.results[t.game_id] = game_result(b.state, rnd, t, mp)
        b.add(RoundClosed(round=rnd))
    ruled = b.results["club-r2-t2"]
    b.results["club-r2-t2"] = msgspec.structs.replace(ruled, played=(1000, 700))
    b.add(VpAdjusted(entrant="d", vp=-1, rule="TOUR-WARN-2", round=2))
    return b


def test_vp_totals_round_by_round_with_the_ruling_marked() -> None:
    b = small()
    got = progress(b.state, b.results)
    assert (got.tournament_id, got.after_round) == ("club", 2)
    assert got.entrants == (
        EntrantProgress("e", 1, (0, 12, 25), (RulingMark(2, "club-r2-t2", 11, 13),)),
        EntrantProgress("c", 2, (0, 10, 23)),
        EntrantProgress("d", 3, (0, 10, 21)),
        EntrantProgress("a", 4, (0, 13, 20)),
        EntrantProgress("b", 5, (0, 7, 14), (RulingMark(2, "club-r2-t2", 9, 7),)),
    )
    final = standings(b.state, b.results)  # the last point of each line is the standings' total
    assert [(ln.entrant, ln.vp) for ln in final.lines] == [(p.entrant, p.vp[-1]) for p in got.entrants]


def test_after_a_round_and_a_game_still_playing() -> None:
    b = small()
    assert progress(b.state, b.results, 1).entrants == (
        EntrantProgress("a", 1, (0, 13)),
        EntrantProgress("e", 2, (0, 12)),
        EntrantProgress("c", 3, (0, 10)),
        EntrantProgress("d", 3, (0, 10)),
        EntrantProgress("b", 5, (0, 7)),
    )
    unfinished = msgspec.structs.replace(b.results["club-r2-t2"], finished=False)
    b.results["club-r2-t2"] = unfinished  # playing: counts nothing, and no mark until it ends
    by = {p.entrant: p for p in progress(b.state, b.results).entrants}
    assert (by["e"].vp, by["e"].rulings, by["b"].vp, by["b"].rulings) == ((0, 12, 12), (), (0, 7, 7), ())


@pytest.mark.parametrize("played", [(1000, 400), (1000, 420)])
def test_a_ruling_that_moves_no_vp_has_no_mark(played: tuple[int, int]) -> None:
    b = small()
    b.results["club-r2-t2"] = msgspec.structs.replace(b.results["club-r2-t2"], played=played)
    assert all(p.rulings == () for p in progress(b.state, b.results).entrants)
