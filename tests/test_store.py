"""The event store (ledger.store.application): every test runs on a SQLite file and on
the PostgreSQL server (fixture ``store_env``). Real databases, no mocks."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from ledger.errors import ConcurrentAppendError, GameConflictError, GameNotFoundError, RecordError
from ledger.events import CardDiscarded, GameEnded, GameStarted, HandDealt, Player, encode_event
from ledger.record_files import read_record
from ledger.records import Record, encode_record
from ledger.store import reads
from ledger.store.application import LedgerApp, open_app
from ledger.store.importing import ImportResult
from ledger.store.reads import GameSummary
from ledger.store.settings import store_env
from ledger.stored.persistence import GameEvent, game_uuid

MakeRecord = Callable[..., bytes]


def everything(app: LedgerApp) -> list[tuple]:
    """Every stored row, to compare the whole store before and after."""
    rows = app.recorder.select_notifications(None, 1_000_000)
    return [(n.originator_id, n.originator_version, n.topic, bytes(n.state)) for n in rows]


def test_import_stores_each_event_at_its_position(app: LedgerApp, make_record: MakeRecord) -> None:
    data = make_record("club-1", hands=2, turns=4)
    result = app.import_record(read_record(data))
    assert result == ImportResult(game_id="club-1", events=22, status="stored")
    rows = app.recorder.select_events(game_uuid("club-1"))
    assert [r.originator_version for r in rows] == list(range(1, 23))
    assert rows[0].topic == "ledger.events:GameStarted"
    assert rows[1].topic == "ledger.events:HandDealt"
    assert [bytes(r.state) for r in rows] == data.splitlines()
    assert app.get_events("club-1") == list(read_record(data).events)


def test_originator_id_is_uuid5_of_the_game_id() -> None:
    assert game_uuid("club-2026-11-29-t3") == UUID("7dcff513-5b24-5523-a870-19fdec580241")


def test_export_round_trips_byte_for_byte(app: LedgerApp, make_record: MakeRecord) -> None:
    data = make_record("club-2", hands=3, turns=29, seed=5)
    app.import_record(read_record(data))
    assert app.export_record("club-2") == data


def test_export_is_canonical_whatever_the_file_looked_like(app: LedgerApp, make_record: MakeRecord) -> None:
    canonical = make_record("club-3", turns=3)
    lines = canonical.splitlines()
    messy = (
        b"// referee's copy\n\n"
        + lines[0].replace(b'"game_id"', b' "game_id" ')
        + b"\r\n"
        + b"\n".join(lines[1:])
        + b"\n\n"
    )
    app.import_record(read_record(messy))
    assert app.export_record("club-3") == canonical
    again = app.import_record(read_record(canonical))
    assert again.status == "already_stored"


def test_reimport_is_idempotent(app: LedgerApp, make_record: MakeRecord) -> None:
    record = read_record(make_record("club-4"))
    app.import_record(record)
    before = everything(app)
    assert app.import_record(record) == ImportResult(game_id="club-4", events=16, status="already_stored")
    assert everything(app) == before


def test_different_record_with_same_game_id_is_refused(app: LedgerApp, make_record: MakeRecord) -> None:
    app.import_record(read_record(make_record("club-5", seed=1)))
    before = everything(app)
    other = read_record(
        make_record("club-5", seed=2, hands=2),
    )
    with pytest.raises(GameConflictError) as info:
        app.import_record(other)
    assert str(info.value) == (
        "game 'club-5' is already stored with different events "
        "(16 events stored, 30 in this record, first difference at position 1, line 2); refused"
    )
    assert everything(app) == before


def test_failed_import_leaves_the_store_unchanged(app: LedgerApp, make_record: MakeRecord) -> None:
    app.import_record(read_record(make_record("kept")))
    before = everything(app)
    lines = make_record("broken", turns=5).splitlines()
    # the last turn discards a card nobody holds: the fold rejects the record at its last line
    bad = b"\n".join([*lines[:-2], encode_event(CardDiscarded(seat=0, card="JK")), lines[-1]]) + b"\n"
    with pytest.raises(RecordError) as info:
        app.import_record(read_record(bad))
    assert info.value.line == len(lines) - 1
    assert everything(app) == before
    assert not app.has_game("broken")
    assert [g.game_id for g in app.list_games()] == ["kept"]


def test_a_failing_batch_stores_nothing(app: LedgerApp, make_record: MakeRecord) -> None:
    """One transaction per import: a batch that fails on its last row leaves no row behind."""
    events = read_record(make_record("half")).events
    oid = game_uuid("half")
    batch = [GameEvent(originator_id=oid, originator_version=i + 1, event=e) for i, e in enumerate(events)]
    batch.append(GameEvent(originator_id=oid, originator_version=3, event=events[-1]))  # duplicate version
    with pytest.raises(IntegrityError):
        app.events.put(batch)
    assert everything(app) == []


def test_concurrent_imports_of_one_game_store_it_once(
    open_store: Callable[[], LedgerApp], make_record: MakeRecord
) -> None:
    data = make_record("race", hands=2)
    apps = [open_store() for _ in range(4)]
    results: list[object] = []

    def run(app: LedgerApp) -> None:
        try:
            results.append(app.import_record(read_record(data)).status)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            results.append(exc)

    threads = [threading.Thread(target=run, args=(a,)) for a in apps]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, results)) == ["already_stored", "already_stored", "already_stored", "stored"]
    assert apps[0].export_record("race") == data


def test_list_games(app: LedgerApp, make_record: MakeRecord, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reads, "_PAGE", 2)  # page through the notification log
    for i, hands in enumerate((1, 3, 2)):
        app.import_record(read_record(make_record(f"g{i}", hands=hands, turns=2)))
    meta = b'"meta":{"tournament":"Club night","table":"3"},"players"'
    app.import_record(read_record(make_record("g3", turns=0).replace(b'"players"', meta, 1)))
    assert app.list_games() == [
        GameSummary(game_id="g0", variant="ramino", ruleset="seed", players=("Anna", "Bruno"), hands=1, events=8),
        GameSummary(game_id="g1", variant="ramino", ruleset="seed", players=("Anna", "Bruno"), hands=3, events=20),
        GameSummary(game_id="g2", variant="ramino", ruleset="seed", players=("Anna", "Bruno"), hands=2, events=14),
        GameSummary(
            game_id="g3", variant="ramino", ruleset="seed", players=("Anna", "Bruno"), hands=1, events=4,
            meta={"tournament": "Club night", "table": "3"},
        ),
    ]  # fmt: skip
    assert app.list_games()[3].to_json() == {
        "game_id": "g3", "variant": "ramino", "ruleset": "seed", "players": ["Anna", "Bruno"],
        "hands": 1, "events": 4, "meta": {"tournament": "Club night", "table": "3"},
    }  # fmt: skip


def test_list_of_10000_games_is_quick(app: LedgerApp) -> None:
    players = (Player(seat=0, name="Anna"), Player(seat=1, name="Bruno"))
    deal = HandDealt(hand=1, dealer=0, hands=(("AH",), ("2H",)), discard=("3H",))
    batch = []
    for i in range(10_000):
        oid = game_uuid(f"bulk-{i}")
        for v, e in enumerate(
            (GameStarted(game_id=f"bulk-{i}", variant="gin", players=players), deal, GameEnded(reason="abandoned"))
        ):
            batch.append(GameEvent(originator_id=oid, originator_version=v + 1, event=e))
    app.events.put(batch)  # stored directly: this test is about listing
    start = time.process_time()  # CPU time: the machine is shared, wall time is noise
    games = app.list_games()
    elapsed = time.process_time() - start
    assert len(games) == 10_000
    assert games[-1] == GameSummary(
        game_id="bulk-9999", variant="gin", ruleset="standard", players=("Anna", "Bruno"), hands=1, events=3
    )
    assert elapsed < 3.0, f"listing 10,000 games took {elapsed:.2f}s of CPU"


def test_unknown_game(app: LedgerApp) -> None:
    with pytest.raises(GameNotFoundError, match="no game 'nope' in the store"):
        app.get_events("nope")
    with pytest.raises(GameNotFoundError):
        app.export_record("nope")
    assert app.list_games() == []


def test_live_recording_appends_one_event_at_a_time(
    open_store: Callable[[], LedgerApp], make_record: MakeRecord
) -> None:
    app, other = open_store(), open_store()
    events = read_record(make_record("live", turns=3)).events
    for position, event in enumerate(events):
        assert app.append_event("live", event, expected_position=position) == position
    assert app.export_record("live") == encode_record(events)
    # the same game imported from its file is already there
    assert other.import_record(Record(events, tuple(range(1, len(events) + 1)))).status == "already_stored"


def test_append_refuses_unknown_games_stale_writers_and_impossible_events(
    open_store: Callable[[], LedgerApp], make_record: MakeRecord
) -> None:
    app, other = open_store(), open_store()
    events = read_record(make_record("live2", turns=3)).events
    with pytest.raises(GameNotFoundError):
        app.append_event("live2", events[1])
    for event in events[:4]:
        app.append_event("live2", event)
    # another writer still thinks position 3 is next
    with pytest.raises(ConcurrentAppendError, match="game 'live2': position 3 was written by another writer first"):
        other.append_event("live2", events[4], expected_position=3)
    before = everything(app)
    with pytest.raises(RecordError) as info:
        app.append_event("live2", CardDiscarded(seat=0, card="JK"))
    assert info.value.position == 4
    assert everything(app) == before
    assert other.append_event("live2", events[4], expected_position=4) == 4


def test_compressed_store_still_exports_canonical_bytes(store_env: dict[str, str], make_record: MakeRecord) -> None:
    env = {**store_env, "COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"}
    app = LedgerApp(env=env)
    try:
        data = make_record("zipped", hands=2)
        app.import_record(read_record(data))
        assert bytes(app.recorder.select_events(game_uuid("zipped"))[0].state) != data.splitlines()[0]
        assert app.export_record("zipped") == data
        assert app.list_games()[0].hands == 2
    finally:
        app.close()


# --- choosing the store ---


def test_store_env_precedence() -> None:
    sqlite = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_LOCK_TIMEOUT": "10"}
    assert store_env(None, {}) == {**sqlite, "SQLITE_DBNAME": "./ledger.db"}
    assert store_env(None, {"RUMMY_LEDGER_DB": "/data/x.db"}) == {**sqlite, "SQLITE_DBNAME": "/data/x.db"}
    assert store_env("cli.db", {"RUMMY_LEDGER_DB": "/data/x.db"}) == {**sqlite, "SQLITE_DBNAME": "cli.db"}
    assert store_env(None, {"PERSISTENCE_MODULE": "eventsourcing.postgres"}) == {}
    assert store_env("cli.db", {"PERSISTENCE_MODULE": "eventsourcing.postgres"})["SQLITE_DBNAME"] == "cli.db"
    assert store_env("postgresql://anna:s%40cret@db.example:6543/games", {}) == {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": "games",
        "POSTGRES_HOST": "db.example",
        "POSTGRES_PORT": "6543",
        "POSTGRES_USER": "anna",
        "POSTGRES_PASSWORD": "s@cret",
        "POSTGRES_CONNECT_TIMEOUT": "5",
    }
    with pytest.raises(ValueError, match="unsupported store URL 'mysql://x/y'"):
        store_env("mysql://x/y", {})
    with pytest.raises(ValueError, match="names no database"):
        store_env("postgresql://127.0.0.1:5432", {})


def test_open_app_uses_the_sqlite_path(tmp_path, monkeypatch: pytest.MonkeyPatch, make_record: MakeRecord) -> None:  # noqa: ANN001
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RUMMY_LEDGER_DB", raising=False)
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    app = open_app()
    app.import_record(read_record(make_record("here")))
    app.close()
    assert (tmp_path / "ledger.db").is_file()
    monkeypatch.setenv("RUMMY_LEDGER_DB", str(tmp_path / "other.db"))
    app = open_app()
    assert app.list_games() == []
    app.close()
    assert (tmp_path / "other.db").is_file()


@pytest.mark.postgres
def test_postgres_by_url_and_by_eventsourcing_variables(
    pg_env: dict[str, str], pg_url: str, monkeypatch: pytest.MonkeyPatch, make_record: MakeRecord
) -> None:
    monkeypatch.delenv("RUMMY_LEDGER_DB", raising=False)
    by_url = open_app(pg_url)
    by_url.import_record(read_record(make_record("pg-1")))
    by_url.close()
    for key, value in pg_env.items():
        monkeypatch.setenv(key, value)
    by_env = open_app()
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder

        assert isinstance(by_env.recorder, PostgresApplicationRecorder)
        assert [g.game_id for g in by_env.list_games()] == ["pg-1"]
    finally:
        by_env.close()
