"""The DuckDB analytics view: exact rows against the fold's scores and findings.

Scenario: two hand-checked classic-Ramino records (tests/analytics_records.py
explains every number) and a few synthetic ones go into a SQLite store; one
``update`` builds the view; every table is compared with the fold
(``score_sheet``, ``report``, the table states) and with the values worked
out by hand from RULES.md.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import duckdb
import pytest

from ledger.audit import report
from ledger.events import CardDiscarded, CardDrawn, HandEnded
from ledger.projections import DuckDBTrackingRecorder, analytics_path, relation, update
from ledger.projections.tables import TABLES
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.replay import replay
from ledger.scoring import score_sheet
from ledger.store.application import LedgerApp
from ledger.synthetic import two_player_record
from tests.analytics_records import game_a, game_b

FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures").glob("**/*.jsonl"))


@pytest.fixture
def store(tmp_path: Path) -> LedgerApp:
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "ledger.db")})
    yield app
    app.close()


def load(app: LedgerApp, *records: bytes) -> None:
    for data in records:
        app.import_record(read_record(data))


def synthetic(n: int, start: int = 0) -> list[bytes]:
    return [encode_record(two_player_record(f"syn-{i:04d}", hands=2, turns=8, seed=i)) for i in range(start, start + n)]


def rows(path: str, sql: str, params: list | None = None) -> list[tuple]:
    con = duckdb.connect(path, read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def sheet_from_view(path: str, game: str, view: str) -> dict:
    """The ``score --json`` object rebuilt from the view's rows (to compare with the fold)."""
    g = rows(path, "SELECT unit, totals, totals_as_played, winner FROM games WHERE game = ?", [game])[0]
    unit, totals, as_played, winner = g
    hands: dict[int, list] = {}
    for hand, side, points, breakdown in rows(
        path,
        "SELECT hand, side, points, breakdown FROM scores WHERE game = ? AND view = ? ORDER BY hand, side",
        [game, view],
    ):
        hands.setdefault(hand, []).append({unit: side, "points": points, "breakdown": dict(breakdown)})
    return {
        "game_id": game,
        "hands": [{"hand": h, "scores": s} for h, s in hands.items()],
        "totals": [{unit: i, "points": p} for i, p in enumerate(totals if view == "adjudicated" else as_played)],
        "winner": winner,
        "winner_kind": unit if winner is not None else None,
    }


def findings_from_view(path: str, game: str) -> dict:
    found = rows(
        path, "SELECT position, hand, seat, rule, message FROM findings WHERE game = ? ORDER BY position, rule", [game]
    )
    return {"game_id": game, "findings": [dict(zip(("position", "hand", "seat", "rule", "message"), f)) for f in found]}


def assert_matches_fold(path: str, data: bytes) -> None:
    """Every score and finding row of one record equals the fold's."""
    record = read_record(data)
    state = replay(record.events)
    game = record.game_id
    assert sheet_from_view(path, game, "adjudicated") == score_sheet(state).to_json()
    played = score_sheet(state, adjudicated=False).to_json()
    assert sheet_from_view(path, game, "as_played") == played
    assert findings_from_view(path, game) == report(state).to_json()
    assert rows(path, "SELECT count(*) FROM events WHERE game = ?", [game]) == [(len(record.events),)]


def test_rows_of_hand_checked_ramino_records(store: LedgerApp, tmp_path: Path) -> None:
    load(store, game_a(), game_b())
    path = str(tmp_path / "view.duckdb")
    result = update(store, path)
    assert (result.notifications, result.games, result.batches, result.position) == (35, 2, 1, 35)
    counts = {t: rows(path, f"SELECT count(*) FROM {t}")[0][0] for t in TABLES}
    # games 2; players 2 + 3; hands 2 + 1; events 20 + 15; melds: 5 in hand 1 of A, 0 in hand 2, 3 in B;
    # scores: A has 2 hands x 2 seats x 2 views, B none; findings: 2 in A, 1 in B
    assert counts == {"games": 2, "players": 5, "hands": 3, "events": 35, "melds": 8, "scores": 8, "findings": 3}

    assert rows(
        path,
        "SELECT game, variant, ruleset, players, seats, unit, tournament, date, started_at, events, hands, "
        "hands_scored, ended, winner, winner_names, totals, totals_as_played, findings, error FROM games ORDER BY game",
    ) == [
        (
            "ram-a",
            "ramino",
            "seed",
            ["Anna", "Bruno"],
            2,
            "seat",
            "Club night",
            date(2026, 11, 29),
            datetime(2026, 11, 29, 19, 0, tzinfo=UTC),
            20,
            2,
            2,
            "hands_played",
            1,
            ["Bruno"],
            [0, 33],
            [0, 38],
            2,
            None,
        ),
        (
            "ram-b",
            "ramino",
            "pagat",
            ["Anna", "Bruno", "Carla"],
            3,
            "seat",
            "Open",
            date(2026, 12, 5),
            None,
            15,
            1,
            0,
            None,
            None,
            None,
            [0, 0, 0],
            [0, 0, 0],
            1,
            None,
        ),
    ]
    # hand 1 of A: Bruno went rummy, 19 x 2 = 38, the referee's -5 leaves 33; the sheet claimed 40
    assert rows(
        path,
        "SELECT hand, view, side, seat, team, names, points, breakdown, claimed FROM scores "
        "WHERE game = 'ram-a' ORDER BY hand, view, side",
    ) == [
        (1, "adjudicated", 0, 0, None, ["Anna"], 0, {}, 0),
        (1, "adjudicated", 1, 1, None, ["Bruno"], 33, {"hands_collected": 19, "rummy_double": 19, "penalty": -5}, 40),
        (1, "as_played", 0, 0, None, ["Anna"], 0, {}, 0),
        (1, "as_played", 1, 1, None, ["Bruno"], 38, {"hands_collected": 19, "rummy_double": 19}, 40),
        (2, "adjudicated", 0, 0, None, ["Anna"], 0, {}, None),
        (2, "adjudicated", 1, 1, None, ["Bruno"], 0, {}, None),
        (2, "as_played", 0, 0, None, ["Anna"], 0, {}, None),
        (2, "as_played", 1, 1, None, ["Bruno"], 0, {}, None),
    ]
    assert rows(path, "SELECT * FROM findings ORDER BY game, position") == [
        (
            "ram-a",
            11,
            1,
            1,
            "ALL-SCORE-1",
            "hand 1: claimed 40 for Bruno, computed 38 (difference +2); computed as hands_collected +19, "
            "rummy_double +19",
        ),
        ("ram-a", 15, 2, 1, "RAM-DISC-1", "Bruno discarded 5♦, the card just taken from the discard pile"),
        ("ram-b", 5, 1, 2, "ALL-TURN-1", "Carla played out of turn: it was Bruno's turn"),
    ]
    assert rows(
        path,
        "SELECT game, hand, dealer, first_position, last_position, events, reason, seat, player, turns, "
        "stock_left, restored, findings FROM hands ORDER BY game, hand",
    ) == [
        ("ram-a", 1, 1, 1, 12, 12, "went_out", 1, "Bruno", 3, 29, 0, 1),
        ("ram-a", 2, 0, 13, 18, 6, "abandoned", None, None, 3, 30, 0, 1),
        ("ram-b", 1, 2, 1, 14, 14, None, None, None, 5, 26, 1, 1),
    ]
    assert rows(
        path,
        "SELECT game, hand, meld, seat, side, kind, cards, size, wilds, valid, laid_at, burraco, points, label "
        "FROM melds ORDER BY game, hand, laid_at",
    ) == [
        ("ram-a", 1, "a", 0, 0, "sequence", ["3H", "4H", "5H", "6H"], 4, 0, True, 3, None, None, None),
        ("ram-a", 1, "b", 0, 0, "set", ["9C", "9D", "9S"], 3, 0, True, 4, None, None, None),
        ("ram-a", 1, "c", 1, 1, "sequence", ["AS", "2S", "3S", "4S"], 4, 0, True, 7, None, None, None),
        ("ram-a", 1, "d", 1, 1, "sequence", ["6D", "7D", "8D"], 3, 0, True, 8, None, None, None),
        ("ram-a", 1, "e", 1, 1, "sequence", ["10C", "JC", "QC"], 3, 0, True, 9, None, None, None),
        ("ram-b", 1, "a", 0, 0, "sequence", ["3H", "4H", "5H", "6H"], 4, 0, True, 3, None, None, None),
        ("ram-b", 1, "f", 1, 1, "sequence", ["6D", "7D", "8D"], 3, 0, True, 8, None, None, None),
        ("ram-b", 1, "g", 2, 2, "sequence", ["JC", "QC", "KC"], 3, 0, True, 11, None, None, None),
    ]
    assert rows(
        path,
        "SELECT position, hand, seat, type, meld, cards, text, undone FROM events "
        "WHERE game = 'ram-b' AND position BETWEEN 3 AND 7 ORDER BY position",
    ) == [
        (3, 1, 0, "meld_laid", "a", ["3H", "4H", "5H", "6H"], "Anna melds 3♥ 4♥ 5♥ 6♥ [a]", False),
        (4, 1, 0, "card_discarded", None, ["KS"], "Anna discards K♠", False),
        (5, 1, 2, "card_drawn", None, ["9S"], "Carla draws 9♠ from the stock", True),
        (
            6,
            1,
            None,
            "position_restored",
            None,
            None,
            "referee restores the table to move 4: Carla drew out of turn",
            False,
        ),
        (7, 1, 1, "card_drawn", None, ["9S"], "Bruno draws 9♠ from the stock", False),
    ]
    assert rows(path, "SELECT position, \"at\", json FROM events WHERE game = 'ram-a' AND position IN (0, 2)") == [
        (0, None, rows(path, "SELECT json FROM events WHERE game = 'ram-a' AND position = 0")[0][0]),
        (
            2,
            datetime(2026, 11, 29, 19, 0, 30, tzinfo=UTC),
            '{"type":"card_drawn","at":"2026-11-29T20:00:30+01:00","seat":0,"card":"6H"}',
        ),
    ]
    assert rows(path, "SELECT * FROM players ORDER BY game, seat") == [
        ("ram-a", 0, "Anna", None, 0),
        ("ram-a", 1, "Bruno", None, 1),
        ("ram-b", 0, "Anna", None, 0),
        ("ram-b", 1, "Bruno", None, 1),
        ("ram-b", 2, "Carla", None, 2),
    ]
    for data in (game_a(), game_b()):
        assert_matches_fold(path, data)


def test_synthetic_games_match_the_fold_row_for_row(store: LedgerApp, tmp_path: Path) -> None:
    records = synthetic(12)
    load(store, *records)
    path = str(tmp_path / "view.duckdb")
    update(store, path, batch_size=37)  # batches cut games in the middle
    for data in records:
        assert_matches_fold(path, data)
    assert rows(path, "SELECT count(*), count(DISTINCT game) FROM games") == [(12, 12)]
    # 1 game_started + 2 x (hand_dealt, 8 x (draw, discard), hand_ended) + game_ended = 38 events a game
    assert rows(path, "SELECT count(*), count(DISTINCT (game, position)) FROM events") == [(12 * 38, 12 * 38)]


def test_live_game_rows_follow_each_appended_event(store: LedgerApp, tmp_path: Path) -> None:
    """A game recorded event by event: after every update the rows equal a
    fresh build of the game so far (earlier events come back from the view)."""
    events = two_player_record("live-1", hands=1, turns=3, seed=5)
    path = str(tmp_path / "view.duckdb")
    for n, event in enumerate(events):
        store.append_event("live-1", event)
        result = update(store, path)
        assert (result.notifications, result.games) == (1, 1)
        assert rows(path, "SELECT events, hands, hands_scored, ended FROM games") == [
            (n + 1, 1 if n >= 1 else 0, 1 if n >= len(events) - 2 else 0, "abandoned" if n == len(events) - 1 else None)
        ]
        assert rows(path, "SELECT count(*), count(DISTINCT position), max(position) FROM events") == [(n + 1, n + 1, n)]
    assert rows(path, "SELECT hand, reason FROM hands") == [(1, "stalled")]
    assert (
        events[-2] == HandEnded(reason="stalled")
        and isinstance(events[2], CardDrawn)
        and isinstance(events[3], CardDiscarded)
    )


def test_rebuild_gives_the_same_rows_and_schema_version_triggers_it(store: LedgerApp, tmp_path: Path) -> None:
    load(store, game_a(), *synthetic(3))
    path = str(tmp_path / "view.duckdb")
    update(store, path)
    before = {t: rows(path, f"SELECT * FROM {t} ORDER BY ALL") for t in TABLES}
    again = update(store, path, rebuild=True)
    assert (again.rebuilt, again.notifications, again.games) == (True, 20 + 3 * 38, 4)
    assert {t: rows(path, f"SELECT * FROM {t} ORDER BY ALL") for t in TABLES} == before
    con = duckdb.connect(path)
    con.execute("UPDATE view_info SET value = '0' WHERE key = 'schema_version'")
    con.close()
    with DuckDBTrackingRecorder(path) as view:
        assert view.rebuilt and view.max_tracking_id(store.name) is None and view.row_counts()["games"] == 0


def test_relation_helper_and_default_path(store: LedgerApp, tmp_path: Path) -> None:
    load(store, game_a())
    db = str(tmp_path / "ledger.db")
    path = analytics_path(db, {})
    assert path == str(tmp_path / "ledger.analytics.duckdb")
    update(store, path)
    assert relation(db=db).project("game, winner").fetchall() == [("ram-a", 1)]
    rel = relation("SELECT rule, count(*) AS n FROM findings GROUP BY rule ORDER BY rule", db=path)
    assert rel.fetchall() == [("ALL-SCORE-1", 1), ("RAM-DISC-1", 1)]


def test_there_are_bundled_fixtures_of_every_variant() -> None:
    """(This replaces a skip guard from before the fixtures were bundled.)"""
    assert sorted({p.parent.name for p in FIXTURES}) == ["burraco", "gin", "ramino", "ramino51", "scala40"]


def test_bundled_fixtures_match_the_fold(store: LedgerApp, tmp_path: Path) -> None:
    from ledger.errors import RecordError

    good = []
    for path in FIXTURES:
        data = path.read_bytes()
        try:
            store.import_record(read_record(data))
        except (RecordError, ValueError):
            continue  # fixtures of rejected records
        good.append(data)
    view = str(tmp_path / "view.duckdb")
    update(store, view, batch_size=50)
    for data in good:
        assert_matches_fold(view, data)
    assert rows(view, "SELECT count(*) FROM games WHERE error IS NOT NULL") == [(0,)]


def test_a_game_the_fold_rejects_keeps_its_events_and_the_error() -> None:
    """A stored game that this build cannot replay (e.g. after a rule fix) must
    not stop the projection: its ``games`` row carries the error."""
    from ledger.events import encode_event
    from ledger.projections.rows import game_rows

    events = list(read_record(game_a()).events)
    events[2] = CardDrawn(seat=0, card="KD")  # the stock's top card is 6H: REC-WHERE
    built = game_rows("ab" * 16, [(e, encode_event(e).decode()) for e in events])
    assert {t: len(r) for t, r in built.items()} == {
        "games": 1,
        "players": 2,
        "hands": 0,
        "events": 20,
        "melds": 0,
        "scores": 0,
        "findings": 0,
    }
    game = dict(zip([c.name for c in TABLES["games"]], built["games"][0]))
    assert game["error"].startswith("RecordError: ") and "REC-WHERE" in game["error"]
    assert (game["game"], game["events"], game["winner"], game["totals"]) == ("ram-a", 20, None, None)
    assert [r[2] for r in built["events"][:4]] == [None, 1, None, None]  # hand known up to the rejected event
