"""Player statistics (issue 29): every statistic's exact value on hand-checked records.

Scenario: eight small records go into a SQLite store (the bundled fixtures
named below, read event by event, and one Burraco closing without a burraco
built here); one ``update`` builds the view; :func:`player_stats` and the
``stats`` command give each statistic, checked against the counts worked out
from the events (the comments say how).

Anna's Burraco games: ``bur-pozzetti`` (P: Bruno closes, Anna takes her
pozzetto in turn 1, clean 3C..10C), ``bur-dispute`` (D: Anna takes the one-card
pile 9C, 3 turns, 4 findings at her seat; Bruno's second draw is rewound:
1 turn), ``bur-semi-dirty`` (S: Anna closes; semi-clean 5D..JD+JK, dirty
7 7 7 7 7 7 2D) and ``bur-irregular`` (I, below: Anna closes with no
burraco, BUR-CLOSE-2, no closing bonus; against Carla, tournament "Club",
2026-11-20).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from ledger.cli import cli
from ledger.projections import update
from ledger.projections.stats import (
    PLAYER_FINDINGS,
    PLAYER_GAMES,
    PLAYER_HANDS,
    STATS,
    VIEWS,
    Filters,
    aggregate_sql,
    markdown,
    player_stats,
)
from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from ledger.testing.records import game_ended, lines
from tests.test_burraco import CLEAN, closing, discard, draw, meld, pozzetto

REPO = Path(__file__).resolve().parent.parent
FIXTURES = [
    "burraco/pozzetto_al_volo_con_lo_scarto",
    "burraco/dispute",
    "burraco/semi_clean_and_dirty",
    "scala40/openings_at_and_under_40",
    "scala40/jolly_swap",
    "scala40/elimination",
    "ramino51/violations",
    "gin/standard-game",
]


def irregular_closing() -> bytes:
    """Anna melds 3H..8H and 9 9 9 9 2C (no burraco), takes her pozzetto with the
    discard (turn 1), melds the pozzetto and goes out discarding 5C (turn 2):
    BUR-CLOSE-2 at position 13; 210 for Anna (melds, no closing bonus), -190 for Carla."""
    prefix = [
        draw(0, "QH"),
        meld(0, "a", CLEAN[:6]),
        meld(0, "b", ["9D", "9S", "9C", "9H", "2C"]),
        discard(0, "QH"),
        pozzetto(0, 0),
    ]
    events = closing(prefix=prefix) + [game_ended("hands_played")]
    events[0] = events[0] | {"game_id": "bur-irregular", "meta": {"tournament": "Club", "date": "2026-11-20"}}
    events[0]["players"][1]["name"] = "Carla"
    return lines(*events)


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("stats")
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "ledger.db")})
    try:
        app.import_record(read_record(irregular_closing()))
        for name in FIXTURES:
            app.import_record(read_record((REPO / "fixtures" / f"{name}.jsonl").read_bytes()))
        update(app, str(tmp / "ledger.analytics.duckdb"))
    finally:
        app.close()
    (tmp / "irr.jsonl").write_bytes(irregular_closing())
    return str(tmp / "ledger.analytics.duckdb")


def stats(view: str, player: str, **filters: object) -> dict[str, dict]:
    con = duckdb.connect(view, read_only=True)
    try:
        return {b.variant: b for b in player_stats(con, player, Filters(**filters))}  # type: ignore[arg-type]
    finally:
        con.close()


def rounded(values: dict) -> dict:
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in values.items()}


def test_burraco_statistics_of_anna(view: str) -> None:
    b = stats(view, "Anna")["burraco"]
    assert rounded(b.player) == {
        "games": 4,
        "won": 3,  # D, S, I (Bruno won P)
        "win_rate": 0.75,
        "game_points": 255.0,  # (325 - 70 + 555 + 210) / 4
        "hands": 4,
        "hand_points": 255.0,  # average hand MP: one hand a game
        "went_out_rate": 0.5,  # S and I
        "turns": 9,  # P 2, D 3, S 2, I 2
        "pile_takes": 1,  # D: 9C
        "pile_takes_per_hand": 0.25,
        "findings_per_100_turns": 55.5556,  # D 4 + I 1 = 5 in 9 turns
        "pozzetti": 3,  # P, S, I
        "pozzetto_turn": 1.0,
        "pozzetto_by_turn": 0.75,  # 3 of 4 hands by turn 10
        "clean_per_hand": 0.25,  # P: 3C..10C
        "semi_clean_per_hand": 0.25,  # S: 5D..JD JK
        "dirty_per_hand": 0.25,  # S: 7 7 7 7 7 7 2D
        "pile_size": 1.0,
        "closings": 2,
        "irregular_closings": 1,  # I
    }
    # the field: every seat of the same games (Anna 4, Bruno 3, Carla 1)
    field = rounded(b.field)
    assert (field["games"], field["won"], field["turns"], field["findings_per_100_turns"]) == (8, 4, 14, 50.0)
    assert (field["closings"], field["pozzetti"], field["pozzetto_by_turn"]) == (3, 4, 0.5)
    assert [(f["rule"], f["findings"], round(f["per_100_turns"], 4)) for f in b.findings] == [
        ("ALL-MELD-1", 1, 11.1111),
        ("ALL-SCORE-1", 1, 11.1111),
        ("ALL-TURN-1", 1, 11.1111),
        ("BUR-CLOSE-2", 1, 11.1111),
        ("BUR-PILE-1", 1, 11.1111),
    ]


def test_scala40_statistics_of_bruno(view: str) -> None:
    # openings (Bruno opens 31 + 9 = 40, hand stalled), jolly swap (30 + 15 = 45, stalled; S40-SWAP-1),
    # elimination (hand 1: opens 30 + 15 = 45, charged 68 = cards 43 + jokers 25; hand 2: never opens,
    # Anna's chiusura in mano: unopened 100 doubled = 200)
    s = stats(view, "Bruno")["scala40"]
    assert rounded(s.player) == {
        "games": 3,
        "won": 0,
        "win_rate": 0.0,
        "game_points": 89.3333,  # (0 + 0 + 268) / 3
        "hands": 4,
        "hand_points": 67.0,
        "went_out_rate": 0.0,
        "turns": 4,
        "pile_takes": 0,
        "pile_takes_per_hand": 0.0,
        "findings_per_100_turns": 25.0,
        "pile_size": None,
        "opened_rate": 0.75,
        "opening_turn": 1.0,
        "opening_points": 43.3333,  # (40 + 45 + 45) / 3
        "points_left": 67.0,  # (0 + 0 + 68 + 200) / 4
    }
    assert [(f["rule"], f["findings"]) for f in s.findings] == [("S40-SWAP-1", 1)]


def test_scala40_and_ramino51_openings_of_anna(view: str) -> None:
    found = stats(view, "Anna")
    s40 = rounded(found["scala40"].player)
    # openings 24 + 15 = 39 (S40-OPEN-1), jolly swap 24 + 30 = 54, elimination 60 and 37 (chiusura in mano)
    assert (s40["opening_points"], s40["opened_rate"], s40["won"], s40["points_left"]) == (47.5, 1.0, 1, 0.0)
    r51 = rounded(found["ramino51"].player)
    # violations: Anna takes 10C in her first turn (R51-PILE-1) and opens with 10C JC QC + K K K = 60 in turn 1
    assert {k: r51[k] for k in ("opened_rate", "opening_turn", "opening_points", "pile_takes", "turns")} == {
        "opened_rate": 1.0,
        "opening_turn": 1.0,
        "opening_points": 60.0,
        "pile_takes": 1,
        "turns": 3,
    }
    # Bruno opens in his turn 2 with 5H JK 7H 8H (26) + Q Q Q (30)
    bruno = rounded(stats(view, "Bruno")["ramino51"].player)
    assert (bruno["opening_turn"], bruno["opening_points"]) == (2.0, 56.0)


def test_gin_statistics(view: str) -> None:
    # standard-game: hand 1 Anna knocks in turn 1 with 9C (9) and Bruno undercuts (28); hands 2 and 4
    # Bruno goes gin in turn 1; hand 3 ends at the wall (Anna 15 turns)
    anna = rounded(stats(view, "Anna")["gin"].player)
    assert {k: anna[k] for k in ("knocks", "knock_deadwood", "gin_rate", "undercut_rate", "turns_to_knock")} == {
        "knocks": 1,
        "knock_deadwood": 9.0,
        "gin_rate": 0.0,
        "undercut_rate": 1.0,
        "turns_to_knock": 1.0,
    }
    assert (anna["turns"], anna["undercuts_made"], anna["went_out_rate"]) == (20, 0, 0.25)
    bruno = rounded(stats(view, "Bruno")["gin"].player)
    assert {k: bruno[k] for k in ("knocks", "knock_deadwood", "gin_rate", "undercut_rate", "undercuts_made")} == {
        "knocks": 2,
        "knock_deadwood": 0.0,
        "gin_rate": 1.0,
        "undercut_rate": 0.0,
        "undercuts_made": 1,
    }
    assert (bruno["won"], bruno["game_points"], bruno["hand_points"]) == (1, 275.0, 68.75)


def test_filters_choose_the_games(view: str) -> None:
    assert list(stats(view, "Anna", variants=("gin",))) == ["gin"]
    assert list(stats(view, "Anna", rulesets=("standard",))) == ["gin"]
    club = stats(view, "Anna", tournaments=("Club",))
    assert list(club) == ["burraco"]
    assert (club["burraco"].player["games"], club["burraco"].player["irregular_closings"]) == (1, 1)
    assert club["burraco"].field["games"] == 2  # Anna and Carla
    assert list(stats(view, "Anna", since=date(2026, 11, 20))) == ["burraco"]  # the only dated game
    assert stats(view, "Anna", until=date(2026, 11, 19)) == {}
    against = stats(view, "Anna", opponents=("Carla",))
    assert {v: b.player["games"] for v, b in against.items()} == {"burraco": 1, "scala40": 1}
    assert stats(view, "Carla", opponents=("Carla",)) == {}  # nobody plays against themself
    assert stats(view, "Nobody") == {}


def test_the_views_are_in_the_analytics_database(view: str) -> None:
    con = duckdb.connect(view, read_only=True)
    try:
        names = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        assert set(VIEWS) <= names
        row = con.execute("SELECT games, irregular_closings FROM player_stats_burraco WHERE who = 'Anna'").fetchall()
        assert row == [(4, 1)]
        found = con.execute(
            "SELECT rule, findings FROM player_findings WHERE name = 'Bruno' AND variant = 'burraco' ORDER BY rule"
        ).fetchall()
        assert found == [("ALL-TURN-2", 1), ("BUR-TURN-1", 1)]
    finally:
        con.close()


def test_stats_command_json_and_italian_table(view: str) -> None:
    runner = CliRunner()
    args = ["stats", "Anna", "--analytics", view, "--no-update"]
    out = runner.invoke(cli, [*args, "--variant", "burraco", "--tournament", "Club", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["filters"] == {"variants": ["burraco"], "tournaments": ["Club"]}
    assert data["variants"][0]["player"]["irregular_closings"] == 1
    assert data["variants"][0]["findings"] == [{"rule": "BUR-CLOSE-2", "findings": 1, "per_100_turns": 50.0}]
    table = runner.invoke(cli, ["--lang", "it", *args, "--variant", "gin"])
    assert table.exit_code == 0, table.output
    assert table.output.splitlines()[0] == "statistiche di Anna: gin"
    assert "percentuale di gin (sulle bussate)" in table.output
    assert "100.0 %" in table.output  # the undercut rate
    own = runner.invoke(cli, [*args, "--variant", "gin", "--lang", "it"])
    assert own.output == table.output
    none = runner.invoke(cli, [*args, "--until", "2026-01-01"])
    assert none.exit_code == 2
    assert none.output == "rummy-ledger: error: no games of Anna in the analytics view with these filters\n"


def test_docs_give_every_statistic_with_its_sql() -> None:
    text = (REPO / "docs" / "stats.md").read_text(encoding="utf-8")
    assert markdown() in text
    for sql in (PLAYER_GAMES, PLAYER_HANDS, PLAYER_FINDINGS, aggregate_sql("gin")):
        assert sql.strip() in text
    for stat in STATS:
        assert f"`{stat.key}`" in text


def test_bench_stats_runs_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    bench = importlib.import_module("bench.bench_stats")
    times = bench.main(["--games", "1", "--players", "3", "--repeat", "1", "--dir", str(tmp_path)])
    assert set(times) == {"one", "all", "views", "filtered", "cli"}
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("store: 5 games, ") and out[2] == "P00: 5 games in 5 variants"


def test_classic_ramino_statistics(tmp_path: Path) -> None:
    """Classic Ramino, which the store above has no finished game of: ``fixtures/ramino/in-mano.jsonl``
    alone. Anna draws 8H, melds A-2-3S, 7 7 7 and 8-JH and goes out discarding KC in her first turn
    ("in mano"): 112 = hands_collected 56 + rummy_double 56; Bruno never plays a turn and scores 0."""
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "l.db")})
    try:
        app.import_record(read_record((REPO / "fixtures" / "ramino" / "in-mano.jsonl").read_bytes()))
        update(app, str(tmp_path / "v.duckdb"))
    finally:
        app.close()
    anna, bruno = stats(str(tmp_path / "v.duckdb"), "Anna"), stats(str(tmp_path / "v.duckdb"), "Bruno")
    assert list(anna) == list(bruno) == ["ramino"]
    common = {"games": 1, "hands": 1, "pile_takes": 0, "pile_takes_per_hand": 0.0, "pile_size": None}
    assert anna["ramino"].player == common | {
        "won": 1,
        "win_rate": 1.0,
        "game_points": 112.0,
        "hand_points": 112.0,
        "went_out_rate": 1.0,
        "turns": 1,
        "findings_per_100_turns": 0.0,  # no finding in 1 turn
    }
    assert bruno["ramino"].player == common | {
        "won": 0,
        "win_rate": 0.0,
        "game_points": 0.0,
        "hand_points": 0.0,
        "went_out_rate": 0.0,
        "turns": 0,
        "findings_per_100_turns": None,  # no turn: no rate
    }
    # the field: both seats of the one game
    field = anna["ramino"].field
    assert (field["games"], field["won"], field["game_points"], field["went_out_rate"], field["turns"]) == (
        2,
        1,
        56.0,
        0.5,
        1,
    )
    assert anna["ramino"].findings == bruno["ramino"].findings == []
