"""Stores from before the seal chain: their events sealed once, from their stored bytes (README "Seals", layer 2).

:func:`ensure_schema` adds the journal's ``journal_seal`` column to a journal
table created without it; :func:`backfill` seals, once per store, the
events stored before the chain existed, and marks the store done
(:class:`ledger.store.reads.GameReads` runs both when it opens a store).
"""

from __future__ import annotations

import contextlib
from typing import Any

from eventsourcing.persistence import ApplicationRecorder

from ledger.store.seal_sql import BATCH, JOURNAL_TABLE, SealTables, hex_id, tables
from ledger.store.sealing import link

#: the marker row of a store whose games stored before the chain have been sealed
MARKER_TABLE = "rummy_seal_state"
BACKFILL_DONE = "backfilled"


def ensure_schema(recorder: ApplicationRecorder) -> None:
    """Add ``rummy_journal.journal_seal`` to a journal table created without
    it, and create the marker table (both harmless when they exist; several
    processes may run this at once)."""
    t = SealTables(recorder)
    if t.sqlite:
        with recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"PRAGMA table_info({JOURNAL_TABLE})")
            columns = {row[1] for row in c.fetchall()}
            if columns and "journal_seal" not in columns:
                c.execute(f"ALTER TABLE {JOURNAL_TABLE} ADD COLUMN journal_seal TEXT")
            c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        return
    marker = t.journal.replace(f'"{JOURNAL_TABLE}"', f'"{MARKER_TABLE}"')
    for statement in (
        f"ALTER TABLE {t.journal} ADD COLUMN IF NOT EXISTS journal_seal text",
        f"CREATE TABLE IF NOT EXISTS {marker} (key text PRIMARY KEY, value text NOT NULL)",
    ):
        # two processes altering at once: the loser's error is harmless
        with contextlib.suppress(Exception), recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            with conn.transaction(), conn.cursor() as curs:
                curs.execute(statement)


def backfill(app: Any, appended_by: str, now: str) -> tuple[int, int] | None:
    """Once per store: compute and store the seals of the events stored
    before the chain existed (no journal row, or a NULL seal), from their
    stored bytes, then mark the store done. Returns ``(games, events)``
    sealed the first time (None afterwards: one indexed query). Events with
    no journal row get one naming ``appended_by`` (``backfill:<os user>``)
    received at ``now``. After this, an event without a seal is one written
    into the database directly, and ``verify`` reports it."""
    t = tables(app)
    marker = MARKER_TABLE if t.sqlite else t.journal.replace(f'"{JOURNAL_TABLE}"', f'"{MARKER_TABLE}"')
    if t.query(f"SELECT value FROM {marker} WHERE key = ?", [BACKFILL_DONE]):
        return None
    keys = [
        r[0]
        for r in t.query(
            f"SELECT DISTINCT e.originator_id FROM {t.events} e LEFT JOIN {t.journal} j "
            "ON j.originator_id = e.originator_id AND j.position = e.originator_version - 1 "
            "WHERE j.seal IS NULL OR j.journal_seal IS NULL"
        )
    ]
    games = events = 0
    for start in range(0, len(keys), BATCH):
        chunk = keys[start : start + BATCH]
        rows, _ = t.batch(chunk)
        writes: list[tuple[Any, ...]] = []
        for key in chunk:
            prev_seal = prev_journal = None
            sealed = 0
            for p, (version, _topic, state, by, received_at, stored_seal, stored_journal) in enumerate(
                rows.get(hex_id(key), [])
            ):
                if int(version) != p + 1 or not isinstance(state, (bytes, bytearray, memoryview)):
                    break  # a gap or a broken row: leave the rest to verify
                who, when = (by, received_at) if by is not None else (appended_by, now)
                seal, jseal = link(prev_seal, prev_journal, p, bytes(state), who, when)
                if stored_seal is None or stored_journal is None:
                    writes.append((key, p, who, when, stored_seal or seal, stored_journal or jseal))
                    sealed += 1
                prev_seal, prev_journal = stored_seal or seal, stored_journal or jseal
            games += 1 if sealed else 0
            events += sealed
        _write_backfill(t, writes)
    _mark(t, marker)
    return games, events


def _write_backfill(t: SealTables, writes: list[tuple[Any, ...]]) -> None:
    if not writes:
        return
    if t.sqlite:
        with t.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.executemany(
                f"INSERT INTO {t.journal} (originator_id, position, appended_by, received_at, seal, "
                "journal_seal) VALUES (?,?,?,?,?,?) "
                "ON CONFLICT (originator_id, position) DO UPDATE SET seal = excluded.seal, journal_seal = "
                "excluded.journal_seal "
                "WHERE seal IS NULL OR journal_seal IS NULL",
                writes,
            )
        return
    with t.recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        curs.executemany(
            f"INSERT INTO {t.journal} AS j (originator_id, position, appended_by, received_at, seal, "
            "journal_seal) VALUES (%s,%s,%s,%s,%s,%s) "
            "ON CONFLICT (originator_id, position) DO UPDATE SET seal = excluded.seal, journal_seal = "
            "excluded.journal_seal "
            "WHERE j.seal IS NULL OR j.journal_seal IS NULL",
            writes,
        )


def _mark(t: SealTables, marker: str) -> None:
    if t.sqlite:
        with t.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"INSERT OR IGNORE INTO {marker} (key, value) VALUES (?, ?)", (BACKFILL_DONE, "1"))
        return
    with t.recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        curs.execute(
            f"INSERT INTO {marker} (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (BACKFILL_DONE, "1")
        )
