"""SQL access to the events table and the journal, for the seal chain (layer 2).

Reading goes straight to the two tables with SQL (SQLite file or PostgreSQL
schema), a batch of games at a time, so that a stored row the mapper could
not decode (bytes edited, or stored as text) is a finding, not a traceback.
:func:`stored_seals` and :func:`head` read the stored seals; nothing here
recomputes a seal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder

from ledger.errors import GameNotFoundError
from ledger.stored.persistence import game_uuid, hex_id

JOURNAL_TABLE = "rummy_journal"
#: games read per query batch
BATCH = 200


def _walk(table: str, name: str) -> str:
    """A recursive walk of ``table``'s distinct non-NULL originator ids in
    index order: each step one seek past the last id (``>`` compares as the
    index orders, whatever each value's storage class)."""
    first = f"SELECT originator_id FROM {table} WHERE originator_id IS NOT NULL ORDER BY originator_id LIMIT 1"
    step = f"SELECT originator_id FROM {table} WHERE originator_id > {name}.id ORDER BY originator_id LIMIT 1"
    return f"{name}(id) AS (SELECT ({first}) UNION ALL SELECT ({step}) FROM {name} WHERE {name}.id IS NOT NULL)"


#: SQLite: the distinct originator ids of both tables (``{events}``, ``{journal}``), a NULL id included
#: when a row has one, as ``SELECT DISTINCT originator_id FROM … UNION SELECT DISTINCT …`` gives them
_SQLITE_IDS = (
    f"WITH RECURSIVE {_walk('{events}', 'e')}, {_walk('{journal}', 'j')} "
    "SELECT id FROM e WHERE id IS NOT NULL UNION SELECT id FROM j WHERE id IS NOT NULL "
    "UNION SELECT NULL WHERE EXISTS (SELECT 1 FROM {events} WHERE originator_id IS NULL) "
    "OR EXISTS (SELECT 1 FROM {journal} WHERE originator_id IS NULL)"
)


class SealTables:
    """SQL access to the events table and the journal of one recorder."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        from eventsourcing.sqlite import SQLiteApplicationRecorder

        self.recorder = recorder
        self.sqlite = isinstance(recorder, SQLiteApplicationRecorder)
        if isinstance(recorder, SQLiteApplicationRecorder):  # (not `if self.sqlite`: mypy narrows on isinstance only)
            self.events = recorder.events_table_name
            self.journal = JOURNAL_TABLE
        else:
            from eventsourcing.postgres import PostgresApplicationRecorder
            from psycopg.sql import SQL, Identifier

            if not isinstance(recorder, PostgresApplicationRecorder):
                raise TypeError(f"the seal chain needs a SQLite or PostgreSQL store, not {type(recorder).__name__}")
            schema = recorder.datastore.schema
            self.events = (
                SQL("{}.{}").format(Identifier(schema), Identifier(recorder.events_table_name)).as_string(None)
            )
            self.journal = SQL("{}.{}").format(Identifier(schema), Identifier(JOURNAL_TABLE)).as_string(None)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.sqlite:
            with self.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
                c.execute(sql, tuple(params))
                return [tuple(r) for r in c.fetchall()]
        sql = sql.replace("?", "%s")
        with self.recorder.datastore.get_connection() as conn, conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            curs.execute(sql, tuple(params))
            return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in curs.fetchall()]

    def key(self, oid: UUID) -> Any:
        """The originator id as the store keeps it."""
        return oid.hex if self.sqlite else oid

    def all_games(self) -> list[Any]:
        """Every distinct originator id of the events table and the journal
        (NULL too, as stored), sorted by ``str``. On SQLite a walk of each
        primary key, one index seek per game (:data:`_SQLITE_IDS`), instead
        of ``SELECT DISTINCT``, which visits every row: 0.16 s of a
        300,000-event store's ``verify`` (bench/RESULTS.md, issue 28)."""
        if self.sqlite:
            rows = self.query(_SQLITE_IDS.format(events=self.events, journal=self.journal))
        else:
            rows = self.query(
                f"SELECT DISTINCT originator_id FROM {self.events} UNION "
                f"SELECT DISTINCT originator_id FROM {self.journal}"
            )
        return sorted((r[0] for r in rows), key=str)

    def rows_from(self, key: Any, version: int) -> list[tuple[Any, ...]]:
        """One game's rows of :meth:`batch` from ``version`` on (position
        ``version - 1``…), for a check that continues from a verified one."""
        return [
            tuple(r)
            for r in self.query(
                "SELECT e.originator_version, e.topic, e.state, j.appended_by, j.received_at, j.seal, j.journal_seal "
                f"FROM {self.events} e LEFT JOIN {self.journal} j "
                "ON j.originator_id = e.originator_id AND j.position = e.originator_version - 1 "
                "WHERE e.originator_id = ? AND e.originator_version >= ? ORDER BY e.originator_version",
                [key, version],
            )
        ]

    def journal_count(self, key: Any, start: int = 0) -> tuple[int, int] | None:
        """``(journal rows, highest position)`` of one game (:meth:`batch`'s
        ``journal``), None without a row; from position ``start`` on when
        given, the ``start`` rows before counted as there (a check that
        continues one that verified them: only the new rows are counted)."""
        rows = self.query(
            f"SELECT COUNT(*), MAX(position) FROM {self.journal} WHERE originator_id = ? AND position >= ?",
            [key, start],
        )
        return (start + int(rows[0][0]), int(rows[0][1])) if rows and rows[0][0] else None

    def batch(self, keys: Sequence[Any]) -> tuple[dict[str, list[tuple[Any, ...]]], dict[str, tuple[int, int]]]:
        """``(rows, journal)`` of the games ``keys``. ``rows``: per originator
        id hex, its events in order joined with their journal rows,
        ``(version, topic, state, appended_by, received_at, seal,
        journal_seal)`` as stored (the seals raw 32 bytes, ``journal_seal``
        None except on the last row of an append call; the last four None
        without a journal row);
        ``journal``: per id, ``(journal rows, highest position)``."""
        marks = ",".join("?" * len(keys))
        rows: dict[str, list[tuple[Any, ...]]] = {}
        current: list[tuple[Any, ...]] = []
        last = None
        for oid, *rest in self.query(
            "SELECT e.originator_id, e.originator_version, e.topic, e.state, j.appended_by, j.received_at, "
            "j.seal, j.journal_seal "
            f"FROM {self.events} e LEFT JOIN {self.journal} j "
            "ON j.originator_id = e.originator_id AND j.position = e.originator_version - 1 "
            f"WHERE e.originator_id IN ({marks}) ORDER BY e.originator_id, e.originator_version",
            keys,
        ):
            if oid != last:
                current = rows.setdefault(hex_id(oid), [])
                last = oid
            current.append(tuple(rest))
        journal = {
            hex_id(oid): (int(n), int(top))
            for oid, n, top in self.query(
                f"SELECT originator_id, COUNT(*), MAX(position) FROM {self.journal} WHERE originator_id IN "
                f"({marks}) GROUP BY originator_id",
                keys,
            )
        }
        return rows, journal


def tables(app: Any) -> SealTables:
    return SealTables(app.recorder)


# --- reading stored seals ---


def stored_seals(app: Any, game_id: str, *, strict: bool = True, start: int = 0) -> tuple[int, list[Any]]:
    """``(length, seals)`` of a stored game: the stored seal of each position
    in lower-case hex (the journal holds the raw 32 bytes; a value edited
    into another type is given as stored), those of positions ``start``…
    when given (a live reader that holds the earlier ones). Raises :class:`GameNotFoundError`, and with
    ``strict`` ``ValueError`` when a stored event has no stored seal (else
    its entry is None: ``verify`` says why)."""
    t = tables(app)
    key = t.key(game_uuid(game_id))
    n = t.query(f"SELECT MAX(originator_version) FROM {t.events} WHERE originator_id = ?", [key])[0][0]
    if not n:
        raise GameNotFoundError(game_id)
    rows = t.query(
        f"SELECT position, seal FROM {t.journal} WHERE originator_id = ? AND position >= ? AND position < ? "
        "ORDER BY position",
        [key, start, int(n)],
    )
    seals: list[Any] = [None] * max(0, int(n) - start)
    for p, value in rows:
        if 0 <= int(p) - start < len(seals):
            seals[int(p) - start] = value.hex() if isinstance(value, (bytes, bytearray, memoryview)) else value
    missing = next((start + p for p, v in enumerate(seals) if not v), None)
    if missing is not None and strict:
        raise ValueError(
            f"game {game_id!r}: position {missing} has no stored seal (the store was edited? run rummy-ledger "
            f"verify {game_id})"
        )
    return int(n), seals


def head(app: Any, game_id: str) -> tuple[int, str]:
    """``(length, seal of the last event)`` of a stored game, from the store."""
    n, seals = stored_seals(app, game_id)
    return n, seals[-1]
