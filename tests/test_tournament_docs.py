"""docs/tournaments.md runs as printed, and its example's standings are checked by hand.

Every ``$ rummy-ledger …`` line of the page's ``console`` blocks is run (in
process, in one fresh folder, in order) and its output compared with the lines
printed under it. Then the 12-pair, 4-round Danese modificato's standings after
each round are recomputed here from the games alone (as stored, with the
rulings the page makes after their ``game_ended``): each table's MP are
its game's totals as adjudicated (the score sheet), its VP are read off the
``fibur-4`` bands of ``vp-tables.json`` by a lookup written out in this test,
the bye is 12, and the order is VP, then MP difference, then MP.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.cli import cli
from ledger.record_files import read_record
from ledger.scoring import score

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "tournaments.md"
ENV = {"COLUMNS": "100", "LANG": "C", "LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "RUMMY_LEDGER_DB": None}


def _commands() -> list[tuple[str, str]]:
    """``(command line, expected output)`` of every ``$`` line of the page's console blocks, in order."""
    out: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            line, _, expected = chunk.partition("\n")
            out.append((line, expected))
    return out


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[tuple[str, str, str]]]]:
    where = tmp_path_factory.mktemp("doc")
    before = Path.cwd()
    os.chdir(where)
    try:
        runner = CliRunner(env=ENV)
        done = []
        for line, expected in _commands():
            args = shlex.split(line)
            assert args[0] == "rummy-ledger", line
            result = runner.invoke(cli, args[1:], catch_exceptions=False)
            done.append((line, expected, result.output))
        yield where, done
    finally:
        os.chdir(before)


def test_the_page_runs_as_printed(ran: tuple[Path, list[tuple[str, str, str]]]) -> None:
    _where, done = ran
    assert len(done) >= 15
    for line, expected, got in done:
        assert got == expected, line


def _fibur4(d: int) -> tuple[int, int]:
    """(winner, loser) VP of an MP difference ``d`` by the fibur-4 bands, looked up here."""
    bands = json.loads((REPO / "ledger" / "tournament" / "vp-tables.json").read_text())["fibur-4"]["bands"]
    found = bands[0]
    for band in bands:
        if band["from"] <= d:
            found = band
    return found["winner"], found["loser"]


def test_the_example_standings_by_hand(ran: tuple[Path, list[tuple[str, str, str]]]) -> None:
    where, _done = ran
    records = where / "cup-records"
    tour = [json.loads(x) for x in (records / "cup.jsonl").read_text().splitlines()]
    assert [e["movement"] for e in tour[:1]] == ["danese_modificato"] and tour[0]["scoring"]["table"] == "fibur-4"
    rows: dict[str, dict[str, int]] = {e["entrant"]: {"vp": 0, "d": 0, "mp": 0} for e in tour if "players" in e}
    assert len(rows) == 12
    runner = CliRunner(env=ENV)
    for paired in (e for e in tour if e["type"] == "round_paired"):
        for t in paired["tables"]:
            a, b = t["entrants"]
            stored = runner.invoke(cli, ["--db", str(where / "cup.db"), "export", t["game_id"]]).output
            totals = score(read_record(stored.encode()).events).totals  # as stored: the page's rulings included
            mp_a, mp_b = totals[0], totals[1]
            d = abs(mp_a - mp_b)
            hi, lo = _fibur4(d)
            if d <= 100:
                vp_a = vp_b = 10
            else:
                vp_a, vp_b = (hi, lo) if mp_a > mp_b else (lo, hi)
            for e, mine, theirs, vp in ((a, mp_a, mp_b, vp_a), (b, mp_b, mp_a, vp_b)):
                rows[e]["vp"] += vp
                rows[e]["d"] += mine - theirs
                rows[e]["mp"] += mine
        if paired.get("bye"):
            rows[paired["bye"]]["vp"] += 12
        by_hand = sorted(rows, key=lambda e: (-rows[e]["vp"], -rows[e]["d"], -rows[e]["mp"], e))
        got = runner.invoke(
            cli, ["--db", str(where / "cup.db"), "tournament", "standings", "cup", "--json", "--after-round",
                  str(paired["round"])],
        )  # fmt: skip
        doc = json.loads(got.output)
        assert [ln["entrant"] for ln in doc["standings"]] == by_hand
        assert [(ln["vp"], ln["mp_diff"], ln["mp"]) for ln in doc["standings"]] == [
            (rows[e]["vp"], rows[e]["d"], rows[e]["mp"]) for e in by_hand
        ]
    assert by_hand[0] == "c12" and rows["c12"]["vp"] == 56
    # the page's two rulings after game_ended: c2 from 4th to 5th (level on VP with c6), c5 from 7th to 8th
    assert by_hand[3:8] == ["c6", "c2", "c3", "c1", "c5"]
    assert [rows[e]["vp"] for e in ("c6", "c2", "c1", "c5")] == [43, 43, 39, 38]
