"""Limits of the record format and poison records (issue 13, items 3 and 6):
every value is bounded, a value outside its bounds is REC-FORMAT naming line
and field, and a game the analytics cannot project is named and skipped."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.events import MAX_CARDS
from ledger.record_files import read_record
from ledger.records import MAX_LINE_BYTES
from ledger.stored.persistence import game_uuid
from ledger.testing.records import game_started, lines, ramino_game
from tests.conftest import record_bytes
from tests.costkit import rummy


def rejected(data: bytes) -> str:
    with pytest.raises(RecordError) as err:
        read_record(data)
    return str(err.value)


DRAW = {"type": "card_drawn", "seat": 0, "card": "6H"}


@pytest.mark.parametrize(
    ("at", "message"),
    [
        ("0001-01-01T00:00:00+01:00", "`at` '0001-01-01T00:00:00+01:00' is outside the years 1900–2200"),
        ("9999-12-31T23:00:00-05:00", "`at` '9999-12-31T23:00:00-05:00' is outside the years 1900–2200"),
        ("1899-12-31T23:59:59Z", "`at` '1899-12-31T23:59:59Z' is outside the years 1900–2200"),
        ("2026-11-29T20:15:00", "`at` '2026-11-29T20:15:00' has no zone: end it with Z or an offset such as +01:00"),
        ("2026-11-29", "`at` '2026-11-29' has no zone: end it with Z or an offset such as +01:00"),
        ("２０２６-11-29T20:15:00Z", "`at` is not an ISO-8601 time: '２０２６-11-29T20:15:00Z'"),
        ("2026-11-29T20:15:00+01:00" + " " * 30, "Expected `str` of length <= 40"),
    ],
)
def test_at_is_a_zoned_time_of_1900_to_2200(at: str, message: str) -> None:
    assert rejected(ramino_game({**DRAW, "at": at})) == f"line 3: at: REC-FORMAT: {message}"


@pytest.mark.parametrize(
    "at", ["1900-01-01T00:00:00Z", "2200-12-31T23:59:59+14:00", "2026-11-29 20:15+0100", "2026-11-29T20:15:00.5+01:00"]
)
def test_at_inside_the_limits(at: str) -> None:
    assert read_record(ramino_game({**DRAW, "at": at})).events[2].at == at


@pytest.mark.parametrize(
    ("event", "field", "message"),
    [
        (game_started(meta={"tournament": "x" * 201}), "meta.tournament", "Expected `str` of length <= 200"),
        (game_started(ruleset="r" * 65), "ruleset", "Expected `str` of length <= 64"),
        (game_started(options={"k" * 65: 1}), "options", "Expected `str` of length <= 64 (a key)"),
        (game_started(players=("A" * 201, "B")), "players[0].name", "Expected `str` of length <= 200"),
        (game_started(game_id="g" * 65), "game_id", None),
    ],
)
def test_strings_of_game_started_are_bounded(event: dict, field: str, message: str | None) -> None:
    got = rejected(lines(event))
    assert got.startswith(f"line 1: {field}: REC-FORMAT: "), got
    if message is not None:
        assert got == f"line 1: {field}: REC-FORMAT: {message}"


def test_strings_and_lists_of_events_are_bounded() -> None:
    assert (
        rejected(ramino_game({**DRAW, "note": "n" * 2001}))
        == "line 3: note: REC-FORMAT: Expected `str` of length <= 2000"
    )
    restore = {"type": "position_restored", "target": 1, "reason": "r" * 2001}
    assert rejected(ramino_game(DRAW, restore)) == "line 4: reason: REC-FORMAT: Expected `str` of length <= 2000"
    penalty = {"type": "penalty_assessed", "seat": 0, "points": -10, "rule": "ALL-" + "X" * 40}
    assert rejected(ramino_game(penalty)) == "line 3: rule: REC-FORMAT: Expected `str` of length <= 32"
    laid = {"type": "meld_laid", "seat": 0, "meld": "a", "cards": ["AS"] * (MAX_CARDS + 1)}
    assert rejected(ramino_game(DRAW, laid)) == f"line 4: cards: REC-FORMAT: Expected `array` of length <= {MAX_CARDS}"
    points = {"type": "penalty_assessed", "seat": 0, "points": 2**31, "rule": "ALL-TURN-1"}
    assert rejected(ramino_game(points)) == "line 3: points: REC-FORMAT: Expected `int` <= 1000000"


def test_a_50_mb_line_is_refused_without_holding_it(tmp_path: Path) -> None:
    import resource

    path = tmp_path / "big.jsonl"
    with open(path, "wb") as fh:
        fh.write(lines(game_started()))
        fh.write(
            b'{"type":"game_started","format":"rummy-ledger/1","game_id":"g","variant":"ramino","meta":{"tournament":"'
        )
        for _ in range(50):
            fh.write(b"x" * (1 << 20))
        fh.write(b'"},"players":[{"seat":0,"name":"A"}]}\n')
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert rejected(path) == f"{path}:2: REC-FORMAT: the line is longer than {MAX_LINE_BYTES:,} bytes (no event is)"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20 * 1024  # kB: the line was never held whole


def test_duplicate_keys_still_found_at_any_depth() -> None:
    raw = lines(game_started()).replace(b'"seat":1,', b'"seat":1,"seat":1,')
    assert rejected(raw) == "line 1: players[1].seat: REC-FORMAT: field 'seat' written twice"
    raw = ramino_game(DRAW).replace(b'"card":"6H"', b'"card":"6H","card":"6H"')
    assert rejected(raw) == "line 3: card: REC-FORMAT: field 'card' written twice"


# --- the analytics view: penalties past 2**31, and a game it cannot project -----------


def penalties(n: int) -> bytes:
    """A Ramino deal and ``n`` penalties of 1,000,000 to seat 0 (stored and valid)."""
    return ramino_game(*[{"type": "penalty_assessed", "seat": 0, "points": 1_000_000, "rule": "ALL-TURN-1"}] * n)


def test_penalties_past_2_31_fit_the_view(tmp_path: Path) -> None:
    (tmp_path / "p.jsonl").write_bytes(penalties(2200))
    got = rummy("--db", "l.db", "import", "p.jsonl", cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    query = rummy(
        "--db",
        "l.db",
        "query",
        "--json",
        "--no-update",
        "SELECT totals, totals_as_played, error FROM games",
        cwd=tmp_path,
    )
    assert json.loads(query.stdout) == {"totals": [2_200_000_000, 0], "totals_as_played": [0, 0], "error": None}


def poison_stored_event(db: Path, game_id: str, position: int, at: str) -> None:
    """Change one stored event's ``at`` the way an older build (no limits) stored it."""
    con = sqlite3.connect(db)
    key = (game_uuid(game_id).hex, position + 1)
    (state,) = con.execute(
        "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?", key
    ).fetchone()
    event = json.loads(state)
    event["at"] = at
    con.execute(
        "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
        (json.dumps(event, separators=(",", ":")).encode(), *key),
    )
    con.commit()
    con.close()


def test_a_game_the_view_cannot_project_is_named_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(record_bytes("poison-1", turns=2))
    assert rummy("--db", "l.db", "import", "--no-analytics", "a.jsonl", cwd=tmp_path).returncode == 0
    poison_stored_event(tmp_path / "l.db", "poison-1", 2, "0001-01-01T00:00:00+01:00")
    why = (
        "position 2: the stored event (ledger.events:CardDrawn) does not decode: "
        "`at` '0001-01-01T00:00:00+01:00' is outside the years 1900–2200"
    )
    (tmp_path / "b.jsonl").write_bytes(record_bytes("later-1", turns=2, seed=1))
    later = rummy("--db", "l.db", "import", "b.jsonl", cwd=tmp_path)
    assert later.returncode == 0, later.stderr
    assert f"analytics: game poison-1 skipped: {why}" in later.stderr
    update = rummy("--db", "l.db", "analytics", "update", "--rebuild", cwd=tmp_path)
    assert (update.returncode, update.stdout.splitlines()[1:]) == (0, [f"analytics: game poison-1 skipped: {why}"])
    query = rummy(
        "--db", "l.db", "query", "--csv", "--no-update", "SELECT game, error FROM games ORDER BY game", cwd=tmp_path
    )
    assert query.stdout == f"game,error\nlater-1,\npoison-1,{why}\n"
    export = rummy("--db", "l.db", "export", "--all", "--format", "csv", "--out", "out", "--no-update", cwd=tmp_path)
    assert export.returncode == 0, export.stderr
    assert (tmp_path / "out" / "events.csv").read_text().count("\n") == 1 + 8 + 8
