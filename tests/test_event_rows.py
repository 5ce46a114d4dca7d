"""A whole game read by one SQL statement (ledger.store.event_rows, issue 17): the
same events and bytes as eventsourcing's ``select_events`` through the mapper, and
for any row out of the ordinary the mapper's own error. Every test runs on a SQLite
file and on the PostgreSQL server (fixture ``store_env``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from ledger.store.event_rows import decode_rows
from ledger.stored.persistence import StoredEventError, game_uuid, naming_game
from tests.conftest import _pg_connect, pg_settings

MakeRecord = Callable[..., bytes]


def slow_events(app: LedgerApp, game_id: str, lte: int | None = None) -> list[Any]:
    """The game's events the way they were read before: ``select_events`` and the mapper."""
    return [app.mapper.decode_state(s) for s in app.recorder.select_events(game_uuid(game_id), lte=lte)]


def no_select_events(*_a: Any, **_k: Any) -> Any:
    raise AssertionError("read through select_events: the one-statement read was not used")


def tamper(app: LedgerApp, env: dict[str, str], game_id: str, position: int, sql_set: str, value: Any) -> None:
    """``UPDATE`` the stored row at ``position`` behind the product's back (``sql_set``: ``state = ?``...)."""
    key = game_uuid(game_id)
    table = app.recorder.events_table_name  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have it
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        con = sqlite3.connect(env["SQLITE_DBNAME"])
        con.execute(
            f"UPDATE {table} SET {sql_set} WHERE originator_id = ? AND originator_version = ?",
            (value, key.hex, position + 1),
        )
        con.commit()
        con.close()
        return
    settings = pg_settings()
    assert settings is not None
    with _pg_connect(settings) as conn:
        conn.execute(
            f'UPDATE "{env["POSTGRES_SCHEMA"]}"."{table}" SET {sql_set.replace("?", "%s")} '
            "WHERE originator_id = %s AND originator_version = %s",
            (value, key, position + 1),
        )


def test_a_whole_game_is_read_by_one_statement(app: LedgerApp, make_record: MakeRecord, monkeypatch: Any) -> None:
    data = make_record("rows-1", hands=2, turns=5)
    app.import_record(read_record(data))
    expected = slow_events(app, "rows-1")
    state = app.table_state("rows-1")
    app._live.clear()
    monkeypatch.setattr(app.recorder, "select_events", no_select_events)
    assert app.get_events("rows-1") == expected
    assert app.export_record("rows-1") == data
    assert app._events(game_uuid("rows-1"), lte=3) == expected[:3]
    assert app._live_state("rows-1", len(expected)) == state
    assert app.stored_lines("nobody") == []


def test_the_fast_read_gives_what_the_mapper_gives(app: LedgerApp, make_record: MakeRecord) -> None:
    app.import_record(read_record(make_record("rows-2", hands=3, turns=6, seed=4)))
    n = len(slow_events(app, "rows-2"))
    for lte in (None, 1, 7, n, n + 5):
        assert app._events(game_uuid("rows-2"), lte=lte) == slow_events(app, "rows-2", lte)
    assert [type(e) for e in app.get_events("rows-2")] == [type(e) for e in slow_events(app, "rows-2")]


@pytest.mark.parametrize(
    ("sql_set", "value"),
    [
        ("state = ?", b'{"type":"card_drawn","seat":0'),  # cut short
        ("state = ?", b'{"type":"card_drawn","seat":0,"card":"6H"},{"type":"card_drawn","seat":1,"card":"7H"}'),
        ("topic = ?", "ledger.events:GameEnded"),  # the topic of another event class than its bytes'
        ("topic = ?", "ledger.events:NoSuchEvent"),
    ],
)
def test_a_row_that_does_not_decode_keeps_the_mappers_error(
    app: LedgerApp, store_env: dict[str, str], make_record: MakeRecord, sql_set: str, value: Any
) -> None:
    app.import_record(read_record(make_record("rows-3", turns=3)))
    tamper(app, store_env, "rows-3", 4, sql_set, value)
    rows = app._event_rows.rows(game_uuid("rows-3"))
    assert rows is not None and decode_rows(rows, app.mapper) is None
    with pytest.raises(StoredEventError) as slow, naming_game("rows-3"):
        slow_events(app, "rows-3")
    with pytest.raises(StoredEventError) as fast:
        app.get_events("rows-3")
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("game 'rows-3' position 4: ")


def test_a_text_row_keeps_the_mappers_error(sqlite_env: dict[str, str], make_record: MakeRecord) -> None:
    app = LedgerApp(env=sqlite_env)
    try:
        app.import_record(read_record(make_record("rows-4", turns=3)))
        con = sqlite3.connect(sqlite_env["SQLITE_DBNAME"])
        con.execute(
            "UPDATE stored_events SET state = CAST(state AS TEXT) WHERE originator_id = ? AND originator_version = 3",
            (game_uuid("rows-4").hex,),
        )
        con.commit()
        con.close()
        rows = app._event_rows.rows(game_uuid("rows-4"))
        assert rows is not None and type(rows[2][1]) is str  # msgspec would decode it: the fast read must not
        assert decode_rows(rows, app.mapper) is None
        assert app._event_rows.states(game_uuid("rows-4")) is None
        message = (
            "game 'rows-4' position 2: the stored event is str, not bytes: the row was changed outside rummy-ledger"
        )
        for read in (app.get_events, app.export_record):
            with pytest.raises(StoredEventError) as err:
                read("rows-4")
            assert str(err.value) == message
    finally:
        app.close()


def test_a_compressed_store_is_read_through_the_mapper(store_env: dict[str, str], make_record: MakeRecord) -> None:
    app = LedgerApp(env={**store_env, "COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"})
    try:
        data = make_record("zipped-rows", hands=2)
        app.import_record(read_record(data))
        rows = app._event_rows.rows(game_uuid("zipped-rows"))
        assert rows is not None and decode_rows(rows, app.mapper) is None
        assert app.get_events("zipped-rows") == slow_events(app, "zipped-rows")
        assert app.export_record("zipped-rows") == data
    finally:
        app.close()


def test_short_rows_are_decoded_once_per_topic_and_bytes(monkeypatch: Any) -> None:
    from ledger.events import CardDrawn
    from ledger.store import event_rows
    from ledger.stored.persistence import MsgspecMapper

    mapper = MsgspecMapper()
    drawn = b'{"type":"card_drawn","seat":0,"card":"6H"}'
    first = decode_rows([("ledger.events:CardDrawn", drawn)], mapper)
    again = decode_rows([("ledger.events:CardDrawn", drawn)], mapper)
    assert first == again == [CardDrawn(seat=0, card="6H")] and first is not None and again is not None
    assert again[0] is first[0]
    # the same bytes under another event's topic are not that event: the mapper's decoder fails
    assert decode_rows([("ledger.events:CardDiscarded", drawn)], mapper) is None
    bad = b'{"type":"card_drawn","seat":0,"card":"1Z"}'
    assert decode_rows([("ledger.events:CardDrawn", bad)], mapper) is None
    assert ("ledger.events:CardDrawn", bad) not in event_rows._DECODED
    monkeypatch.setattr(event_rows, "_DECODED", {})
    monkeypatch.setattr(event_rows, "DECODED_ROWS", 2)
    rows = [("ledger.events:CardDrawn", b'{"type":"card_drawn","seat":0,"card":"%dH"}' % n) for n in range(2, 7)]
    assert [e.card for e in decode_rows(rows, mapper) or []] == ["2H", "3H", "4H", "5H", "6H"]
    assert len(event_rows._DECODED) <= 2
