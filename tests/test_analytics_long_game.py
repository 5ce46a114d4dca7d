"""A long game's analytics rows are built in chunks (issue 17): the same rows
as the whole-game build, whatever the chunk, page and commit sizes; every
commit leaves the view as a whole build of the events so far would; and the
update's memory does not grow with the game.

Scenario: the bundled fixtures (every variant, a restoration, findings),
the hand-checked records, simulated games and a game the fold rejects,
built by :class:`~ledger.projections.game_builder.GameRowsBuilder` and by the
update's long-game path (``long_game=1``: every game) against
:func:`~ledger.projections.rows.game_rows` and the ordinary update.
"""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import pytest

from ledger.errors import RecordError
from ledger.events import CardDrawn, Event, encode_event
from ledger.projections import long_game
from ledger.projections.analytics import catch_up
from ledger.projections.duckdb_recorder import DuckDBTrackingRecorder
from ledger.projections.game_builder import GameRowsBuilder
from ledger.projections.rows import Rows, game_rows
from ledger.projections.tables import TABLES
from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from ledger.synthetic import long_game_lines, two_player_record
from tests.analytics_records import game_a, game_b
from tests.costkit import run_child

FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures").glob("**/*.jsonl"))
STREAM = "ab" * 16


def recorded_games() -> list[list[Event]]:
    """The event lists of every accepted fixture, the two hand-checked
    records and three simulated games (one with a restoration)."""
    out = []
    for data in [game_a(), game_b(), *(p.read_bytes() for p in FIXTURES)]:
        try:
            out.append(list(read_record(data).events))
        except (RecordError, ValueError):
            continue  # fixtures of rejected records
    out += [two_player_record(f"syn-{i}", hands=3, turns=12, seed=i) for i in range(3)]
    return out


def rejected_game() -> list[Event]:
    """``game_a`` with a draw that the fold rejects (REC-WHERE at position 2)."""
    events = list(read_record(game_a()).events)
    events[2] = CardDrawn(seat=0, card="KD")
    return events


def pairs(events: list[Event]) -> list[tuple[Event, str]]:
    return [(e, encode_event(e).decode()) for e in events]


def canonical(rows: Rows) -> dict[str, list[str]]:
    return {t: sorted(map(repr, rows.get(t, []))) for t in TABLES}


def built_in_chunks(events: list[tuple[Event, str]], chunk: int, *, check_prefixes: bool = False) -> Rows:
    """The rows of the builder fed ``chunk`` events at a time, taking its rows
    after each chunk; with ``check_prefixes``, :meth:`finish` after every
    chunk equals :func:`game_rows` of the events so far."""
    builder = GameRowsBuilder(STREAM)
    taken: Rows = {t: [] for t in TABLES}
    for lo in range(0, len(events), chunk):
        for e, raw in events[lo : lo + chunk]:
            builder.add(e, raw)
        for table, rows in builder.take().items():
            taken[table] += rows
        if check_prefixes and lo + chunk < len(events):
            assert canonical(as_game(builder, taken)) == canonical(game_rows(STREAM, events[: lo + chunk])), lo
    return as_game(builder, taken)


def as_game(builder: GameRowsBuilder, taken: Rows) -> Rows:
    """The rows taken so far and :meth:`finish`'s, as :func:`game_rows` gives
    them; ``taken`` gains the rows that ``finish`` took (all but the melds of
    the hand in play, which it gives again next time)."""
    rows, undone = builder.finish()
    hand = builder.open_hand
    open_melds = [m for m in rows["melds"] if hand is not None and m[1] == hand]
    taken["events"] += rows["events"]
    taken["melds"] += [m for m in rows["melds"] if hand is None or m[1] != hand]
    out = {**rows, "events": list(taken["events"]), "melds": taken["melds"] + open_melds}
    if builder.error is not None:
        out["melds"] = []  # the melds taken before the fold stopped do not belong to a rejected game
    marked = {p for lo, hi in undone for p in range(lo, hi + 1)}
    out["events"] = [(*r[:9], r[1] in marked, *r[10:]) for r in out["events"]]
    return out


@pytest.mark.parametrize("chunk", [1, 7, 1_000_000])
def test_the_builder_gives_the_rows_of_game_rows_at_every_chunk_size(chunk: int) -> None:
    games = recorded_games()
    assert any(e.type == "position_restored" for g in games for e in g)  # undone ranges are exercised
    assert any(e.type == "meld_laid" for g in games for e in g)
    for events in [*games, rejected_game()]:
        expected = game_rows(STREAM, pairs(events))
        assert canonical(built_in_chunks(pairs(events), chunk)) == canonical(expected), events[0]


def test_the_builder_so_far_is_the_game_so_far() -> None:
    for events in [*recorded_games()[:6], rejected_game()]:
        built_in_chunks(pairs(events), 5, check_prefixes=True)


def test_the_builder_refuses_a_game_without_game_started() -> None:
    builder = GameRowsBuilder(STREAM)
    with pytest.raises(ValueError, match="first event is not game_started"):
        builder.add(CardDrawn(seat=0, card="2C"), "{}")


def snapshot(path: str) -> dict[str, list[tuple]]:
    con = duckdb.connect(path, read_only=True)
    try:
        out = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
        out["tracking"] = con.execute("SELECT * FROM tracking").fetchall()
        return out
    finally:
        con.close()


@pytest.fixture
def store(tmp_path: Path) -> LedgerApp:
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "ledger.db")})
    yield app
    app.close()


@pytest.mark.parametrize(("batch", "commit"), [(1, 3), (7, 1), (7, 1_000_000), (1_000_000, 30)])
def test_the_long_game_path_writes_the_rows_of_the_ordinary_update(
    store: LedgerApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int, commit: int
) -> None:
    """Games recorded in three parts (each part an update: the later parts
    start from the view's own earlier events), every game through the
    long-game path, pages of ``batch`` notifications, a commit every
    ``commit`` events: after each part, the tables and tracking equal the
    ordinary update's."""
    monkeypatch.setattr(long_game, "COMMIT_EVENTS", commit)
    monkeypatch.setattr(long_game, "COMMIT_EVENTS_PER_HAND", 0)
    games = list({g[0].game_id: g for g in reversed(recorded_games())}.values())[:8]  # one record per game id
    for part in range(3):
        for events in games:
            n = len(events)
            for e in events[part * n // 3 : (part + 1) * n // 3]:
                store.append_event(events[0].game_id, e)
        commits: list[int] = []
        with DuckDBTrackingRecorder(str(tmp_path / "plain.duckdb")) as view:
            catch_up(store, view)
        with DuckDBTrackingRecorder(str(tmp_path / "long.duckdb")) as view:
            # the callback runs during this iteration's catch_up: the loop's `commits` is the one meant
            catch_up(store, view, batch_size=batch, long_game=1, progress=lambda done, _t, c=commits: c.append(done))
        assert snapshot(str(tmp_path / "long.duckdb")) == snapshot(str(tmp_path / "plain.duckdb")), part
        if batch < 1_000_000 and commit < 1_000_000:
            assert len(commits) > 2 * len(games), commits  # the long path committed several times a game


def test_every_commit_of_a_long_game_is_the_game_so_far(
    store: LedgerApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A view read between the commits of one long game (the progress
    callback runs after each) holds exactly the whole-game rows of the
    events tracked so far."""
    monkeypatch.setattr(long_game, "COMMIT_EVENTS", 20)
    monkeypatch.setattr(long_game, "COMMIT_EVENTS_PER_HAND", 0)
    events = next(g for g in recorded_games() if any(e.type == "position_restored" for e in g))
    for e in events:
        store.append_event(events[0].game_id, e)
    seen: list[int] = []
    with DuckDBTrackingRecorder(str(tmp_path / "v.duckdb")) as view:

        def check(done: int, _total: int) -> None:
            got = {t: view.connection.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
            expected = game_rows(got["games"][0][1], pairs(events[:done]))
            assert canonical(got) == canonical(_as_view(expected)), done
            seen.append(done)

        catch_up(store, view, batch_size=6, long_game=1, progress=check)
    assert seen[-1] == len(events) and len(seen) >= len(events) // 24


def _as_view(rows: Rows) -> Rows:
    """Rows as DuckDB gives them back (MAP columns as dicts already; timestamps as given)."""
    con = duckdb.connect()
    try:
        from ledger.projections.tables import create_statement, to_arrow

        out: Rows = {}
        for t in TABLES:
            con.execute(create_statement(t))
            if rows[t]:
                con.register("_r", to_arrow(t, rows[t]))
                con.execute(f"INSERT INTO {t} SELECT * FROM _r")
                con.unregister("_r")
            out[t] = con.execute(f"SELECT * FROM {t}").fetchall()
        return out
    finally:
        con.close()


_UPDATE = """
import resource, sys
from ledger.projections import long_game
from ledger.projections.analytics import catch_up
from ledger.projections.duckdb_recorder import DuckDBTrackingRecorder
from ledger.store.application import LedgerApp
long_game.COMMIT_EVENTS = 5_000
app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": sys.argv[1]})
with DuckDBTrackingRecorder(sys.argv[2]) as view:
    result = catch_up(app, view, batch_size=1_000, long_game=2_000)
assert result.games == 1 and not result.skipped, result
"""


def test_the_update_memory_does_not_grow_with_the_game(tmp_path: Path) -> None:
    """Peak RSS of the analytics update (a child process; a page of 1,000
    events, a game of 2,000 or more projected in chunks, a commit every
    5,000) of one game of 16,000 events and one of 53,000: the same within
    a margin (measured: +14 MiB, the SQLite page cache filling with the
    larger store). Before (the game's states and rows all at once, as with
    ``long_game`` out of reach): about 3 kB an event, here +102 MiB."""
    runs = []
    for n_bytes in (600_000, 2_400_000):
        db = tmp_path / f"g{n_bytes}.db"
        app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
        try:
            path = tmp_path / f"g{n_bytes}.jsonl"
            with open(path, "wb") as fh:
                fh.writelines(long_game_lines(f"g-{n_bytes}", target_bytes=n_bytes))
            [(_, result)] = list(app.import_records([path], stream_bytes=0))
            assert result.status == "stored", result
        finally:
            app.close()
        child = run_child([sys.executable, "-c", _UPDATE, str(db), str(tmp_path / f"g{n_bytes}.duckdb")], cwd=tmp_path)
        assert child.returncode == 0, child.stderr
        runs.append((result.events, child))
    (n0, small), (n1, big) = runs
    assert n1 > 3 * n0
    assert big.rss_mb < small.rss_mb + 50, runs


@pytest.mark.parametrize("position", [0, 3, 30])
def test_a_long_game_that_does_not_decode_is_skipped_as_the_ordinary_update_skips_it(
    store: LedgerApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, position: int
) -> None:
    """A stored row changed outside rummy-ledger (its state made text) at
    ``position`` of a 46-event game, after or before some commits: the same
    tables, tracking and skipped games as the ordinary update."""
    import sqlite3

    from ledger.stored.persistence import game_uuid

    monkeypatch.setattr(long_game, "COMMIT_EVENTS", 10)
    monkeypatch.setattr(long_game, "COMMIT_EVENTS_PER_HAND", 0)
    events = two_player_record("tamper-1", hands=2, turns=10, seed=3)
    for game in (events, two_player_record("intact-1", hands=1, turns=3, seed=4)):
        for e in game:
            store.append_event(game[0].game_id, e)
    con = sqlite3.connect(tmp_path / "ledger.db")
    con.execute(
        "UPDATE stored_events SET state = CAST(state AS TEXT) WHERE originator_id = ? AND originator_version = ?",
        (game_uuid("tamper-1").hex, position + 1),
    )
    con.commit()
    con.close()
    results = []
    for name, kw in (("plain", {}), ("long", {"batch_size": 4, "long_game": 1})):
        with DuckDBTrackingRecorder(str(tmp_path / f"{name}.duckdb")) as view:
            results.append(catch_up(store, view, **kw))
    assert snapshot(str(tmp_path / "long.duckdb")) == snapshot(str(tmp_path / "plain.duckdb"))
    assert results[0].skipped == results[1].skipped and len(results[0].skipped) == 1, results
