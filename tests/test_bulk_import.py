"""The batched folder import (LedgerApp.import_records, issue 17) stores
exactly what file-by-file import stores: the same event rows in the same
notification order, the same journal authors and seals, the same outcomes;
a rejected file stores nothing. Each test runs on a real SQLite file and on
the PostgreSQL server; plus the SQLite pragmas of the store's connections."""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ledger.errors import ConcurrentAppendError, GameConflictError, RecordError
from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from ledger.store.importing import ImportResult
from ledger.store.journal import SQLITE_CACHE_KIB, SQLITE_READ_CACHE_KIB, read_cache
from ledger.stored.persistence import game_uuid
from tests.conftest import _pg_connect, pg_settings, record_bytes

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def two_envs(store_env: dict[str, str], tmp_path: Path) -> Iterator[tuple[dict[str, str], dict[str, str]]]:
    """Two empty stores of the same kind (two SQLite files, or two PostgreSQL schemas)."""
    if store_env["PERSISTENCE_MODULE"].endswith("sqlite"):
        yield store_env, {**store_env, "SQLITE_DBNAME": str(tmp_path / "other.db")}
        return
    other = "t_" + uuid.uuid4().hex[:16]
    try:
        yield store_env, {**store_env, "POSTGRES_SCHEMA": other}  # LedgerApp creates the schema
    finally:
        settings = pg_settings()
        assert settings is not None
        with _pg_connect(settings) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{other}" CASCADE')


def folder(tmp_path: Path) -> list[Path]:
    """Every bundled fixture (two of them rejected on purpose) plus records
    that exercise the other outcomes: a game twice in the folder, a file that
    extends an earlier one, a conflicting record, an unreadable line, a deal short of the deck."""
    out = tmp_path / "folder"
    out.mkdir()
    paths = sorted(REPO.glob("fixtures/*/*.jsonl"))
    extra = {
        "x01-long.jsonl": record_bytes("x-long", hands=1, turns=6, seed=3),
        "x02-same.jsonl": record_bytes("x-same", hands=2, turns=5, seed=4),
        "x03-same-again.jsonl": record_bytes("x-same", hands=2, turns=5, seed=4),
        "x04-conflict.jsonl": record_bytes("x-same", hands=2, turns=5, seed=5),
        "x05-bad.jsonl": b'{"type":"game_started"\n',
        "x06-burraco-short-deck.jsonl": record_bytes("x-bur", hands=2, turns=8, seed=6, variant="burraco"),
    }
    short = record_bytes("x-grow", hands=2, turns=7, seed=7)
    lines = short.splitlines(keepends=True)
    extra["x07-grow-head.jsonl"] = b"".join(lines[: len(lines) // 2])
    extra["x08-grow-all.jsonl"] = short
    for name, data in extra.items():
        (out / name).write_bytes(data)
        paths.append(out / name)
    return paths


def outcome(result: ImportResult | Exception) -> tuple:
    if isinstance(result, ImportResult):
        return ("ok", result.status, result.game_id, result.events, result.previous)
    return (type(result).__name__, str(result))


def one_by_one(app: LedgerApp, paths: list[Path]) -> list[tuple]:
    out = []
    for p in paths:
        try:
            out.append(outcome(app.import_record(read_record(p))))
        except (RecordError, GameConflictError, OSError) as exc:
            out.append(outcome(exc))
    return out


def store_contents(app: LedgerApp) -> tuple[list[tuple], dict[str, list[tuple]]]:
    """Every event row in notification order, and each game's journal
    (position, appended_by, seal): all but the receive times."""
    rows = app.recorder.select_notifications(None, 1_000_000)
    events = [(str(n.originator_id), n.originator_version, n.topic, bytes(n.state)) for n in rows]
    journals = {
        g.game_id: [(j.position, j.appended_by, j.seal) for j in app.journal(g.game_id)] for g in app.list_games()
    }
    return events, journals


@pytest.mark.parametrize("batch_events", [1, 150, 100_000])
def test_bulk_import_stores_exactly_what_one_by_one_import_stores(
    two_envs: tuple[dict[str, str], dict[str, str]], tmp_path: Path, batch_events: int
) -> None:
    paths = folder(tmp_path)
    a, b = (LedgerApp(env=e) for e in two_envs)
    try:
        expected = one_by_one(a, paths)
        got = [(src, outcome(r)) for src, r in b.import_records(paths, batch_events=batch_events)]
        assert [src for src, _ in got] == paths  # every file once, in the order given
        assert [o for _, o in got] == expected
        events_a, journal_a = store_contents(a)
        events_b, journal_b = store_contents(b)
        assert events_b == events_a
        assert journal_b == journal_a
    finally:
        a.close()
        b.close()
    statuses = [o[1] if o[0] == "ok" else o[0] for o in expected]
    names = [p.name for p in paths]
    assert statuses[names.index("rejected_bad_card.jsonl")] == "RecordError"
    assert statuses[names.index("rejected_card_not_in_hand.jsonl")] == "RecordError"
    assert statuses[names.index("x03-same-again.jsonl")] == "already_stored"
    assert statuses[names.index("x04-conflict.jsonl")] == "GameConflictError"
    assert statuses[names.index("x05-bad.jsonl")] == "RecordError"
    grow = expected[names.index("x08-grow-all.jsonl")]
    head = (tmp_path / "folder" / "x07-grow-head.jsonl").read_bytes().count(b"\n")
    assert grow[:3] == ("ok", "appended", "x-grow") and grow[4] == head and grow[3] > head
    stored_games = {o[2] for o in expected if o[0] == "ok"}
    assert len(events_a) == sum(o[3] for o in expected if o[0] == "ok" and o[1] != "already_stored") - sum(
        o[4] for o in expected if o[0] == "ok" and o[1] == "appended"
    )
    assert statuses[names.index("x06-burraco-short-deck.jsonl")] == "RecordError"  # REC-DECK: a Ramino-sized deal
    assert {"x-long", "x-same", "x-grow"} <= stored_games and "x-bur" not in stored_games
    assert all(author == "import:" + _user() for js in journal_a.values() for _, author, _ in js)


def _user() -> str:
    from ledger.store.journal import os_user

    return os_user()


def test_a_rejected_file_in_a_batch_stores_nothing_of_it(app: LedgerApp, make_record: Callable[..., bytes]) -> None:
    good1 = read_record(make_record("g1", seed=1))
    bad = read_record(make_record("g2", seed=2).replace(b'"card_discarded","seat":1', b'"card_discarded","seat":7', 1))
    good3 = read_record(make_record("g3", seed=3))
    results = [r for _, r in app.import_records([good1, bad, good3])]
    assert [type(r).__name__ for r in results] == ["ImportResult", "RecordError", "ImportResult"]
    assert isinstance(results[1], RecordError) and results[1].rule == "REC-REF"
    assert [g.game_id for g in app.list_games()] == ["g1", "g3"]
    assert not app.has_game("g2")


def test_a_game_stored_meanwhile_by_another_writer_falls_back_to_one_by_one(
    open_store: Callable[[], LedgerApp], make_record: Callable[..., bytes]
) -> None:
    """Another writer stores one of the batch's games after it was checked:
    the batch's transaction fails on the taken position, nothing of it is
    stored, and its files go one by one (the other game is "already stored")."""
    app, other = open_store(), open_store()
    records = [read_record(make_record(f"r{i}", seed=i)) for i in range(3)]

    def sources() -> Iterator:
        yield records[0]
        yield records[1]
        other.import_record(records[1])  # after r1 joined the batch, before the batch is stored
        yield records[2]

    results = [r for _, r in app.import_records(sources())]
    assert [(r.game_id, r.status) for r in results] == [("r0", "stored"), ("r1", "already_stored"), ("r2", "stored")]  # type: ignore[union-attr]
    assert [g.game_id for g in app.list_games()] == ["r1", "r0", "r2"]
    assert [j.appended_by for j in app.journal("r1")][:1] == [other.journal("r1")[0].appended_by]


def test_an_error_storing_a_batch_stops_the_import_and_nothing_after_it_is_stored(
    sqlite_env: dict[str, str], make_record: Callable[..., bytes]
) -> None:
    """A batch's transaction that fails for good (here a trigger refuses r1's
    journal rows, one by one too: ConcurrentAppendError after three tries)
    propagates, and nothing after r1 is stored, as when the folder is
    imported file by file: not r2, read and validated into the next batch
    while r1's was being stored (the pause lets r1's transaction end before
    r3 is read, so that the error is met with r2 waiting), nor r3."""
    app = LedgerApp(env=sqlite_env)
    try:
        with app.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
            c.execute(
                "CREATE TRIGGER refuse_r1 BEFORE INSERT ON rummy_journal "
                f"WHEN NEW.originator_id = '{game_uuid('r1').hex}' BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        big = [read_record(make_record(f"r{i}", hands=2, turns=8, seed=i)) for i in range(2)]
        small = [read_record(make_record(f"r{i}", hands=1, turns=2, seed=i)) for i in (2, 3)]
        batch_events = min(len(r.events) for r in big)
        assert all(len(r.events) < batch_events for r in small)

        def sources() -> Iterator:
            yield from big  # one batch each
            yield small[0]  # waits in the next batch
            time.sleep(0.5)
            yield small[1]

        got = []
        with pytest.raises(ConcurrentAppendError) as caught:
            for _src, result in app.import_records(sources(), batch_events=batch_events):
                got.append(result)
        assert caught.value.game_id == "r1"
        assert [(r.game_id, r.status) for r in got] == [("r0", "stored")]  # type: ignore[union-attr]
        assert [g.game_id for g in app.list_games()] == ["r0"]
    finally:
        app.close()


def test_batches_keep_the_notification_order_of_the_files(app: LedgerApp, make_record: Callable[..., bytes]) -> None:
    records = [read_record(make_record(f"n{i}", seed=i)) for i in range(7)]
    assert all(isinstance(r, ImportResult) for _, r in app.import_records(records, batch_events=40))
    rows = app.recorder.select_notifications(None, 10_000)
    order = []
    for n in rows:
        if not order or order[-1] != n.originator_id:
            order.append(n.originator_id)
    assert [str(o) for o in order] == [str(game_uuid(f"n{i}")) for i in range(7)]
    assert [n.id for n in rows] == sorted(n.id for n in rows)
    assert len(rows) == sum(len(r.events) for r in records)


def test_sqlite_connections_get_the_store_pragmas(sqlite_env: dict[str, str]) -> None:
    app = LedgerApp(env=sqlite_env)
    try:
        with app.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute("PRAGMA cache_size")
            cache = c.fetchone()[0]
            c.execute("PRAGMA synchronous")
            sync = c.fetchone()[0]
            c.execute("PRAGMA journal_mode")
            mode = c.fetchone()[0]
    finally:
        app.close()
    assert (cache, sync, mode) == (-SQLITE_CACHE_KIB, 1, "wal")  # synchronous 1 = NORMAL
    raw = sqlite3.connect(sqlite_env["SQLITE_DBNAME"])  # a plain connection keeps SQLite's defaults
    assert raw.execute("PRAGMA synchronous").fetchone()[0] == 2
    raw.close()


def test_read_cache_shrinks_the_page_cache_of_idle_and_new_connections_and_gives_it_back(
    sqlite_env: dict[str, str],
) -> None:
    app = LedgerApp(env=sqlite_env)

    def cache() -> int:
        with app.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute("PRAGMA cache_size")
            return int(c.fetchone()[0])

    try:
        before = cache()  # opens the pool's first connection, idle again after
        with read_cache(app):
            during = cache()
            with app.recorder.datastore.transaction(commit=False) as held:  # type: ignore[attr-defined]
                held.execute("SELECT 1")
                opened = cache()  # the idle one is in use: a new connection
        after = [cache(), cache()]
    finally:
        app.close()
    assert (before, during, opened) == (-SQLITE_CACHE_KIB, -SQLITE_READ_CACHE_KIB, -SQLITE_READ_CACHE_KIB)
    assert after == [-SQLITE_CACHE_KIB, -SQLITE_CACHE_KIB]
    assert (SQLITE_CACHE_KIB, SQLITE_READ_CACHE_KIB) == (32 * 1024, 2000)
