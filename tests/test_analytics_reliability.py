"""The analytics update is exactly-once and resumable, and safe to run twice at once.

Scenarios: an update that raises inside the projection after some batches
(before and inside the transaction), an update process killed with SIGKILL in
the middle of a transaction, two updates in one process, two update
processes, and an update while another process holds the view.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import duckdb
import pytest

from ledger.projections import AnalyticsBusyError, AnalyticsProjection, DuckDBTrackingRecorder, duckdb_recorder, update
from ledger.projections.tables import TABLES
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.store.application import LedgerApp
from ledger.synthetic import two_player_record

REPO = Path(__file__).resolve().parent.parent
GAMES = 15
EVENTS = GAMES * 38  # two_player_record(hands=2, turns=8): 38 events a game
BATCH = 50


class Boom(RuntimeError):
    pass


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "ledger.db")
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})
    for i in range(GAMES):
        app.import_record(read_record(encode_record(two_player_record(f"g{i:03d}", hands=2, turns=8, seed=i))))
    app.close()
    return path


def open_app(db: str) -> LedgerApp:
    return LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})


def snapshot(path: str) -> dict[str, list[tuple]]:
    con = duckdb.connect(path, read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in (*TABLES, "tracking")}
    finally:
        con.close()


def reference(db: str, tmp_path: Path) -> dict[str, list[tuple]]:
    """The view built in one go, undisturbed."""
    path = str(tmp_path / "reference.duckdb")
    app = open_app(db)
    update(app, path)
    app.close()
    return snapshot(path)


def consistent(path: str) -> int:
    """Checks that the view holds exactly the events up to its tracking id, once
    each, and the rows of exactly those games; returns the tracked id."""
    con = duckdb.connect(path, read_only=True)
    try:
        tracked = con.execute("SELECT coalesce(max(notification_id), 0) FROM tracking").fetchall()[0][0]
        assert con.execute("SELECT count(*), count(DISTINCT (game, position)) FROM events").fetchall() == [
            (tracked, tracked)
        ]
        assert (
            con.execute("SELECT count(*), count(DISTINCT game) FROM games").fetchall()[0][0]
            == con.execute("SELECT count(DISTINCT game) FROM events").fetchall()[0][0]
        )
        for table in ("hands", "scores", "melds", "findings"):
            dupes = con.execute(
                f"SELECT (SELECT count(*) FROM {table}) - (SELECT count(*) FROM (SELECT DISTINCT * FROM {table}))"
            ).fetchall()
            assert dupes == [(0,)], table
        return int(tracked)
    finally:
        con.close()


def test_update_raising_in_the_projection_resumes_without_gaps_or_duplicates(db: str, tmp_path: Path) -> None:
    expected = reference(db, tmp_path)
    path = str(tmp_path / "view.duckdb")
    calls = {"batches": 0}

    class Crashing(AnalyticsProjection):
        def process_batch(self, items, **kw):  # type: ignore[no-untyped-def]
            calls["batches"] += 1
            return super().process_batch(items, **kw)

        def build_rows(self, stream, events):  # type: ignore[no-untyped-def]
            if calls["batches"] == 4:
                raise Boom("the projection fails in batch 4")
            return super().build_rows(stream, events)

    app = open_app(db)
    with pytest.raises(Boom):
        update(app, path, batch_size=BATCH, projection_class=Crashing)
    assert consistent(path) == 3 * BATCH  # three batches committed, the fourth not at all
    result = update(app, path, batch_size=BATCH)
    assert (result.notifications, result.position) == (EVENTS - 3 * BATCH, EVENTS)
    app.close()
    assert consistent(path) == EVENTS
    assert snapshot(path) == expected


def test_failure_inside_the_transaction_rolls_the_whole_batch_back(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = reference(db, tmp_path)
    path = str(tmp_path / "view.duckdb")
    real = duckdb_recorder.to_arrow
    seen = {"findings": 0}

    def failing(table: str, rows: list[tuple]):  # type: ignore[no-untyped-def]
        if table == "scores":  # games, players, hands, events and melds are already inserted in this transaction
            seen["findings"] += 1
            if seen["findings"] == 3:
                raise Boom("disk full, say")
        return real(table, rows)

    monkeypatch.setattr(duckdb_recorder, "to_arrow", failing)
    app = open_app(db)
    with pytest.raises(Boom):
        update(app, path, batch_size=BATCH)
    tracked = consistent(path)
    assert 0 < tracked < EVENTS
    monkeypatch.setattr(duckdb_recorder, "to_arrow", real)
    update(app, path, batch_size=BATCH)
    app.close()
    assert snapshot(path) == expected


def test_update_killed_mid_transaction_resumes(db: str, tmp_path: Path) -> None:
    """SIGKILL inside the fifth batch's transaction: DuckDB's WAL keeps the
    four committed batches, the next run applies the rest exactly once."""
    expected = reference(db, tmp_path)
    path = str(tmp_path / "view.duckdb")
    script = textwrap.dedent(f"""
        import os, signal
        from ledger.store.application import LedgerApp
        from ledger.projections import update, duckdb_recorder
        real, calls = duckdb_recorder.to_arrow, [0]
        def dying(table, rows):
            if table == "events":
                calls[0] += 1
                if calls[0] == 5:
                    os.kill(os.getpid(), signal.SIGKILL)
            return real(table, rows)
        duckdb_recorder.to_arrow = dying
        app = LedgerApp(env={{"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": {db!r}}})
        update(app, {path!r}, batch_size={BATCH})
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert consistent(path) == 4 * BATCH
    app = open_app(db)
    result = update(app, path, batch_size=BATCH)
    app.close()
    assert result.notifications == EVENTS - 4 * BATCH
    assert snapshot(path) == expected


def test_two_updates_in_one_process_apply_each_event_once(db: str, tmp_path: Path) -> None:
    expected = reference(db, tmp_path)
    path = str(tmp_path / "view.duckdb")
    results, errors = [], []

    def run() -> None:
        app = open_app(db)
        try:
            results.append(update(app, path, batch_size=20))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            app.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert sum(r.notifications for r in results) == EVENTS  # every event applied by exactly one of them
    assert snapshot(path) == expected


def test_two_update_processes_one_waits_and_the_view_stays_consistent(db: str, tmp_path: Path) -> None:
    expected = reference(db, tmp_path)
    path = str(tmp_path / "view.duckdb")
    cmd = [sys.executable, "-m", "ledger.projections", "--db", db, "--analytics", path, "--batch", "20", "--wait", "60"]
    procs = [
        subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)
    ]
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    applied = sorted(int(o.split()[0]) for o, _ in outs)
    assert applied == [0, EVENTS]  # the second waited for the lock and found nothing left to do
    assert snapshot(path) == expected


def test_update_while_another_process_holds_the_view_fails_clearly_or_waits(db: str, tmp_path: Path) -> None:
    path = str(tmp_path / "view.duckdb")
    DuckDBTrackingRecorder(path).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import duckdb, time, sys; c = duckdb.connect({path!r}); print('held', flush=True); "
            "time.sleep(3); c.close()",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        app = open_app(db)
        with pytest.raises(AnalyticsBusyError) as info:
            update(app, path, wait=0.2)
        message = str(info.value)
        assert message.startswith(f"analytics view {path} is in use by another process (")
        assert f"(PID {holder.pid})" in message and "after waiting 0.2s" in message and "--wait SECONDS" in message
        started = time.monotonic()
        result = update(app, path, wait=30)  # waits for the holder to let go
        assert time.monotonic() - started > 0.5
        assert result.notifications == EVENTS
        app.close()
    finally:
        holder.wait(timeout=30)
    assert consistent(path) == EVENTS


def test_tracking_refuses_an_id_already_applied(tmp_path: Path) -> None:
    from eventsourcing.persistence import IntegrityError, Tracking

    with DuckDBTrackingRecorder(str(tmp_path / "v.duckdb")) as view:
        assert view.max_tracking_id("LedgerApp") is None
        view.insert_tracking(Tracking("LedgerApp", 5))
        assert view.max_tracking_id("LedgerApp") == 5
        assert view.has_tracking_id("LedgerApp", 5) and not view.has_tracking_id("LedgerApp", 6)
        with pytest.raises(IntegrityError):
            view.insert_tracking(Tracking("LedgerApp", 5))
        with pytest.raises(IntegrityError):
            view.replace_games((), {}, Tracking("LedgerApp", 9), after=4)
        view.replace_games((), {}, Tracking("LedgerApp", 9), after=5)
        assert view.max_tracking_id("LedgerApp") == 9


if os.name != "posix":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX signals and file locks")


@pytest.mark.postgres
def test_follow_applies_pushed_notifications_on_postgres(pg_env: dict[str, str], tmp_path: Path) -> None:
    """On PostgreSQL the projection runs under eventsourcing's runner: it
    catches up in batches, then applies each event the store pushes."""
    from ledger.projections import follow

    app = LedgerApp(env=pg_env)
    for i in range(3):
        app.import_record(read_record(encode_record(two_player_record(f"pg{i}", hands=2, turns=8, seed=i))))
    path = str(tmp_path / "view.duckdb")
    errors: list[BaseException] = []

    def run() -> None:
        try:
            follow(path, pg_env, timeout=6)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(2)
    live = two_player_record("live", hands=1, turns=2, seed=9)
    for event in live:
        app.append_event("live", event)
    thread.join(timeout=60)
    app.close()
    assert errors == []
    assert consistent(path) == 3 * 38 + len(live)
    con = duckdb.connect(path, read_only=True)
    assert con.execute("SELECT events, hands_scored, ended FROM games WHERE game = 'live'").fetchall() == [
        (len(live), 1, "abandoned")
    ]
    con.close()
