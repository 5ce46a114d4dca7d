"""The analytics commands: ``analytics update``, ``export --format``, ``query``.

The commands run on a copy of the ``rummy-ledger`` group, which registers them
afresh (:class:`ledger.cli.LazyGroup`).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import click
import duckdb
import pytest
from click.testing import CliRunner

from ledger.cli import cli as base_cli
from ledger.cli.analytics import update_after_import
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.store.application import LedgerApp
from ledger.synthetic import two_player_record
from tests.analytics_records import game_a, game_b


@pytest.fixture
def cli() -> click.Group:
    group = copy.copy(base_cli)
    group.commands = {}  # a group of its own: its commands registered afresh as they are asked for
    return group


@pytest.fixture
def store(tmp_path: Path, cli: click.Group) -> str:
    """A SQLite store with the two hand-checked records and a synthetic one."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "a.jsonl").write_bytes(game_a())
    (records / "b.jsonl").write_bytes(game_b())
    (records / "s.jsonl").write_bytes(encode_record(two_player_record("syn-1", hands=1, turns=4, seed=3)))
    db = str(tmp_path / "ledger.db")
    result = CliRunner().invoke(cli, ["--db", db, "import", "--no-analytics", str(records)])
    assert result.exit_code == 0, result.output
    return db


def run(cli: click.Group, *args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args))


def test_analytics_update_then_up_to_date(cli: click.Group, store: str, tmp_path: Path) -> None:
    first = run(cli, "--db", store, "analytics", "update")
    view = tmp_path / "ledger.analytics.duckdb"
    # 20 + 15 + (1 + hand_dealt + 4 x 2 + hand_ended + game_ended = 12) events
    assert (first.exit_code, first.output) == (
        0,
        f"analytics view {view}: 3 games updated (47 events applied in 1 transaction)\n",
    )
    again = run(cli, "--db", store, "analytics", "update")
    assert (again.exit_code, again.output) == (0, f"analytics view {view} is up to date (event 47)\n")
    rebuilt = run(cli, "--db", store, "analytics", "update", "--rebuild", "--batch", "10")
    # batches of 10: a batch of one game's events runs on to the end of that game, so that each game is built once
    # (ram-a: 20 events, ram-b: 15, syn-1: 12); a long game is not rebuilt at every batch (issue 13, item 8)
    assert (
        rebuilt.output
        == f"analytics view {view}: 3 games updated (47 events applied in 3 transactions) (rebuilt from scratch)\n"
    )
    # batches of 25: ram-a and the first 5 events of ram-b, then the rest of ram-b and syn-1: ram-b is in both,
    # and is one game (the count was of games per batch: 4 for these 3, 166 for a store of 150)
    split = run(cli, "--db", store, "analytics", "update", "--rebuild", "--batch", "25")
    assert (
        split.output
        == f"analytics view {view}: 3 games updated (47 events applied in 2 transactions) (rebuilt from scratch)\n"
    )


def test_query_prints_a_table_csv_or_json(cli: click.Group, store: str) -> None:
    sql = "SELECT game, winner_names, totals FROM games WHERE game LIKE 'ram-%' ORDER BY game"
    as_json = run(cli, "--db", store, "query", "--json", sql)
    assert as_json.exit_code == 0
    assert [json.loads(line) for line in as_json.output.splitlines()] == [
        {"game": "ram-a", "winner_names": ["Bruno"], "totals": [0, 33]},
        {"game": "ram-b", "winner_names": None, "totals": [0, 0, 0]},
    ]
    as_csv = run(
        cli, "--db", store, "query", "--csv", "SELECT rule, seat, position FROM findings ORDER BY game, position"
    )
    assert as_csv.output == "rule,seat,position\nALL-SCORE-1,1,11\nRAM-DISC-1,1,15\nALL-TURN-1,2,5\n"
    table = run(
        cli,
        "--db",
        store,
        "analytics",
        "query",
        "SELECT view, sum(points) AS points FROM scores GROUP BY view ORDER BY view",
    )
    assert table.exit_code == 0
    lines = [ln for ln in table.output.splitlines() if "adjudicated" in ln or "as_played" in ln]
    assert [ln.split() for ln in lines] == [["│", "adjudicated", "│", "33", "│"], ["│", "as_played", "│", "38", "│"]]
    assert "2 rows" in table.output
    missing = run(
        cli, "--db", store, "query", "--no-update", "--analytics", str(Path(store).with_name("none.duckdb")), "SELECT 1"
    )
    assert (missing.exit_code, missing.output) == (
        2,
        f"rummy-ledger: error: analytics view {Path(store).with_name('none.duckdb')} does not exist yet: run "
        "`rummy-ledger analytics update`\n",
    )
    bad = run(cli, "--db", store, "query", "SELECT nope FROM games")
    assert bad.exit_code == 2 and "query failed: Binder Error" in bad.output


def test_query_is_read_only(cli: click.Group, store: str) -> None:
    result = run(cli, "--db", store, "query", "DELETE FROM games")
    assert result.exit_code == 2 and "read-only" in result.output
    assert json.loads(run(cli, "--db", store, "query", "--json", "SELECT count(*) AS n FROM games").output) == {"n": 3}


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_export_all_tables_with_filters(cli: click.Group, store: str, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"out-{fmt}"
    result = run(
        cli,
        "--db",
        store,
        "export",
        "--all",
        "--format",
        fmt,
        "--out",
        str(out),
        "--variant",
        "ramino",
        "--tournament",
        "Club night",
        "--tournament",
        "Open",
        "--player",
        "Carla",
        "--player",
        "Bruno",
        "--since",
        "2026-11-01",
        "--until",
        "2026-12-31",
    )
    assert result.exit_code == 0, result.output
    ext = {"parquet": "parquet", "csv": "csv", "jsonl": "jsonl"}[fmt]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{t}.{ext}" for t in ("games", "players", "hands", "events", "melds", "scores", "findings")
    )
    reader = {"parquet": "read_parquet", "csv": "read_csv", "jsonl": "read_json"}[fmt]
    con = duckdb.connect()
    count = {
        t: con.execute(f"SELECT count(*) FROM {reader}('{out}/{t}.{ext}')").fetchall()[0][0]
        for t in ("games", "players", "hands", "events", "melds", "scores", "findings")
    }
    # ram-a and ram-b pass every filter; syn-1 has no tournament and no date
    assert count == {"games": 2, "players": 5, "hands": 3, "events": 35, "melds": 8, "scores": 8, "findings": 3}
    assert result.output.startswith(f"exported 2 games to {out}: games.{ext} 2, players.{ext} 5,")
    if fmt == "parquet":
        assert con.execute(
            f"SELECT breakdown['rummy_double'] FROM read_parquet('{out}/scores.parquet') "
            "WHERE hand = 1 AND side = 1 AND view = 'as_played'"
        ).fetchall() == [(19,)]


def test_export_filters_narrow_the_games(cli: click.Group, store: str, tmp_path: Path) -> None:
    def games(*args: str) -> list[str]:
        out = tmp_path / "sel"
        result = run(cli, "--db", store, "export", "--format", "parquet", "--out", str(out), *args)
        assert result.exit_code == 0, result.output
        return [
            r[0]
            for r in duckdb.connect()
            .execute(f"SELECT game FROM read_parquet('{out}/games.parquet') ORDER BY game")
            .fetchall()
        ]

    assert games("--all") == ["ram-a", "ram-b", "syn-1"]
    assert games("--all", "--player", "Carla") == ["ram-b"]
    assert games("--all", "--since", "2026-12-01") == ["ram-b"]
    assert games("--all", "--until", "2026-11-30") == ["ram-a"]
    assert games("--all", "--tournament", "Club night") == ["ram-a"]
    assert games("ram-a", "syn-1") == ["ram-a", "syn-1"]
    # as the record export refuses an unknown game: the error line, "did you mean", exit 2
    missing = run(cli, "--db", store, "export", "--format", "csv", "--out", str(tmp_path / "x"), "ram-c")
    assert (missing.exit_code, missing.stdout, missing.stderr) == (
        2,
        "",
        f"rummy-ledger: error: no game 'ram-c' in the store (SQLite {store}); did you mean ram-b or ram-a?\n",
    )
    later = tmp_path / "later.jsonl"
    later.write_bytes(encode_record(two_player_record("syn-2", hands=1, turns=4, seed=4)))
    assert run(cli, "--db", store, "import", "--no-analytics", str(later)).exit_code == 0
    stale = run(cli, "--db", store, "export", "--format", "csv", "--out", str(tmp_path / "x"), "--no-update", "syn-2")
    assert (stale.exit_code, stale.stderr) == (
        2,
        "rummy-ledger: error: not in the analytics view: syn-2 (import them, or run `analytics update`)\n",
    )


def test_export_of_one_record_still_works(cli: click.Group, store: str, tmp_path: Path) -> None:
    result = run(cli, "--db", store, "export", "ram-a")
    assert result.exit_code == 0 and result.output.encode() == encode_record(read_record(game_a()).events)
    target = tmp_path / "a.jsonl"
    assert run(cli, "--db", store, "export", "ram-b", "-o", str(target)).exit_code == 0
    assert target.read_bytes() == encode_record(read_record(game_b()).events)
    usage = run(cli, "--db", store, "export", "ram-a", "ram-b")
    assert usage.exit_code == 2 and "a record export takes one GAME" in usage.output
    no_out = run(cli, "--db", store, "export", "--all", "--format", "csv")
    assert no_out.exit_code == 2 and "--out DIR is required" in no_out.output


def test_busy_view_is_a_clear_error(cli: click.Group, store: str, tmp_path: Path) -> None:
    view = tmp_path / "ledger.analytics.duckdb"
    assert run(cli, "--db", store, "analytics", "update").exit_code == 0
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import duckdb, time; c = duckdb.connect({str(view)!r}); print('held', flush=True); time.sleep(5)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        result = CliRunner().invoke(cli, ["--db", store, "analytics", "update", "--wait", "0.1"])
        assert result.exit_code == 2
        assert result.output.startswith(f"rummy-ledger: error: analytics view {view} is in use by another process (")
        assert f"(PID {holder.pid})) after waiting 0.1s" in result.output
    finally:
        holder.kill()
        holder.wait()


def test_update_after_import_and_tables_doc(
    cli: click.Group, store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": store})
    try:
        result = update_after_import(app, store)
        assert result is not None and result.notifications == 47
        assert update_after_import(app, store).notifications == 0  # type: ignore[union-attr]
    finally:
        app.close()
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"analytics view {tmp_path / 'ledger.analytics.duckdb'}: 3 games updated (47 events applied in 1 transaction)",
        f"analytics view {tmp_path / 'ledger.analytics.duckdb'} is up to date (event 47)",
    ]
    doc = run(cli, "analytics", "tables").output
    assert (
        doc.startswith("#### `games`\n\n| column | type | meaning (unit) |")
        and "| `breakdown` | `MAP(VARCHAR, BIGINT)` |" in doc
    )


def test_import_brings_the_view_up_to_date_unless_told_not_to(cli: click.Group, tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "a.jsonl").write_bytes(game_a())
    db = str(tmp_path / "x.db")
    result = run(cli, "--db", db, "import", str(records))
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"analytics view {tmp_path / 'x.analytics.duckdb'}: 1 game updated (20 events applied in 1 transaction)"
    ]
    (records / "b.jsonl").write_bytes(game_b())
    quiet = run(cli, "--db", db, "import", "--no-analytics", str(records))
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    assert (
        run(cli, "--db", db, "query", "--no-update", "--csv", "SELECT count(*) AS games FROM games").output
        == "games\n1\n"
    )


def test_query_stops_a_runaway_query_at_its_timeout(cli: click.Group, store: str) -> None:
    run(cli, "--db", store, "analytics", "update")
    endless = "SELECT count(*) FROM range(1000000000000)"
    stopped = run(cli, "--db", store, "query", "--no-update", "--timeout", "0.5", endless)
    assert (stopped.exit_code, stopped.output) == (
        2,
        "Error: query stopped after 0.5 s (--timeout SECONDS; 0 for none)\n",
    )
    quick = run(cli, "--db", store, "query", "--no-update", "--timeout", "30", "SELECT 41 + 1 AS n")
    assert (quick.exit_code, "42" in quick.output) == (0, True)
    for bad, says in (
        ("-1", "-1.0 is not in the range 0<=x<=86400.0."),
        ("inf", "inf is not in the range 0<=x<=86400.0."),  # a timer that far fails in its thread
        ("nan", "nan is not a number of seconds"),  # passes every range check
    ):
        refused = run(cli, "--db", store, "query", "--no-update", "--timeout", bad, "SELECT 1")
        assert (refused.exit_code, refused.output.splitlines()[-1]) == (
            2,
            f"Error: Invalid value for '--timeout': {says}",
        ), bad
    no_rows = run(cli, "--db", store, "query", "--no-update", "--max-rows", "0", "SELECT 1")
    assert (no_rows.exit_code, no_rows.output.splitlines()[-1]) == (
        2,
        "Error: Invalid value for '--max-rows': 0 is not in the range 1<=x",
    )


def test_query_streams_rows_and_counts_those_not_shown(cli: click.Group, store: str) -> None:
    run(cli, "--db", store, "analytics", "update")
    many = "SELECT range AS n FROM range(5003)"
    as_json = run(cli, "--db", store, "query", "--no-update", "--json", many)
    assert [json.loads(line)["n"] for line in as_json.output.splitlines()] == list(range(5003))
    as_csv = run(cli, "--db", store, "query", "--no-update", "--csv", many)
    assert as_csv.output.splitlines() == ["n", *map(str, range(5003))]
    table = run(cli, "--db", store, "query", "--no-update", "--max-rows", "3", many)
    cells = [ln.split()[1] for ln in table.output.splitlines() if ln.startswith("│")]
    assert cells == ["0", "1", "2"]
    assert "5003 rows (first 3 shown)" in table.output


@pytest.mark.parametrize("sql", ["", "   ", ";", "; -- a comment only"])
def test_query_without_a_statement_is_a_usage_error(cli: click.Group, store: str, tmp_path: Path, sql: str) -> None:
    """Blank SQL is refused before the view is touched (it was an internal error: DuckDB returns no cursor)."""
    result = run(cli, "--db", store, "query", sql)
    assert (result.exit_code, result.output.splitlines()[-1]) == (
        2,
        'Error: no SQL statement to run (e.g. rummy-ledger query "SELECT count(*) FROM games")',
    )
    assert not (tmp_path / "ledger.analytics.duckdb").exists()
    italian = run(cli, "--db", store, "--lang", "it", "query", sql)
    assert italian.output.splitlines()[-1] == (
        'Error: nessuna istruzione SQL da eseguire (per esempio rummy-ledger query "SELECT count(*) FROM games")'
    )
