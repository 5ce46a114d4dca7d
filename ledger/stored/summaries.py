"""Each game's line of the games list, kept by the store: the ``rummy_game_summary`` side table (issue 27; layer 2).

The viewer's games list showed, for each game, its findings, whether it is
over, its result and its first ``at`` by replaying the whole game
(:class:`ledger.game_summary.ListSummary`). The store keeps that line per
game instead, beside the events table (same SQLite file, same PostgreSQL
schema)::

    rummy_game_summary(originator_id PRIMARY KEY, version, findings,
                       finished, result, first_at)

``originator_id`` as the journal keeps it (:mod:`ledger.store.journal`),
``version`` the number of events the line is of (the game's length when it
was written: a line whose version is not the game's length is stale),
``findings`` an integer, ``finished`` 0/1 (PostgreSQL ``boolean``),
``result`` the JSON of :func:`ledger.game_summary.game_result` (NULL while
the game is in play; once ``game_ended`` is stored it also holds, under
``"standing"``, the tournament standings' part of the line,
:func:`ledger.game_summary.standing`, read back into
``ListSummary.standing``), ``first_at`` text or NULL.

Written after the events are committed, by the paths that fold them to
check them (:meth:`ledger.store.append.GameAppends._put`, the bulk and
streamed imports), from that fold; a crash in between leaves the line stale,
and the list then folds that game once and writes it again. A line is only
ever replaced by one of the same or a later version, so two writers racing
cannot put an older line back. A store made before this table has none: it
is created on the first write (the fresh store's ``CREATE TABLE`` list has
it too), and reading a store without it gives no lines (no write).

An event row is never updated or deleted by rummy-ledger, nor inserted
at or below a version a line counts; one edited, deleted or inserted so
behind its back (``UPDATE`` of any column, ``DELETE``, ``INSERT`` under a
game's id on the events table) drops its game's line by a trigger of the
table (:func:`sqlite_triggers`, :func:`postgres_create`), so the list folds
that game again and shows an undecodable record as such (findings None),
as it did before the lines were kept; a row inserted past the line's
version leaves the line stale by its version. A line edited itself is not
caught by the list (no check of it is cheaper than the fold it saves, and
the store holds no key to sign it with): ``verify`` reports a line of more
events than stored, and ``verify --deep`` folds each game whose line is
current and reports one that differs (:mod:`ledger.sealing.verify_lines`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from ledger.game_summary import ListSummary
from ledger.stored.persistence import hex_id, is_sql

SUMMARY_TABLE = "rummy_game_summary"
#: the key of ``result``'s JSON that holds the line's ``standing`` (a line before it has none)
STANDING = "standing"

#: one line to write: (the game's originator id, version, its summary)
SummaryRow = tuple[UUID, int, ListSummary]

SQLITE_CREATE = (
    f"CREATE TABLE IF NOT EXISTS {SUMMARY_TABLE} ("
    "originator_id TEXT PRIMARY KEY, "
    "version INTEGER NOT NULL, "
    "findings INTEGER, "
    "finished INTEGER NOT NULL, "
    "result TEXT, "
    "first_at TEXT) "
    "WITHOUT ROWID"
)


def sqlite_triggers(events: str) -> list[str]:
    """The SQLite triggers that drop a game's line when any of its event rows
    is updated or deleted, or a row is inserted under its id at a version the
    line already counts (the product only ever inserts rows past the game's
    length, and never updates or deletes one: such a change is an edit
    behind its back, and the list then folds the game again, as it did
    before the lines, so an undecodable row shows there as one). A row
    inserted past the line's version needs no trigger: the line is then
    stale by its version."""
    where = f"DELETE FROM {SUMMARY_TABLE} WHERE originator_id"
    return [
        f"CREATE TRIGGER IF NOT EXISTS {SUMMARY_TABLE}_{events}_updated AFTER UPDATE ON {events} "
        f"BEGIN {where} IN (OLD.originator_id, NEW.originator_id); END",
        f"CREATE TRIGGER IF NOT EXISTS {SUMMARY_TABLE}_{events}_deleted AFTER DELETE ON {events} "
        f"BEGIN {where} = OLD.originator_id; END",
        f"CREATE TRIGGER IF NOT EXISTS {SUMMARY_TABLE}_{events}_inserted AFTER INSERT ON {events} "
        f"BEGIN {where} = NEW.originator_id AND version >= NEW.originator_version; END",
    ]


def postgres_create(schema: str, events_table: str, oid_type: str) -> list[Any]:
    """The PostgreSQL statements of the table in ``schema`` (beside the events
    table ``events_table``; ``oid_type`` the originator id's type) and of the
    triggers of :func:`sqlite_triggers`: ``CREATE TABLE IF NOT EXISTS``,
    ``CREATE OR REPLACE`` for the functions and the triggers (PostgreSQL 14+).
    The insert trigger is one per statement, over its transition table (a
    bulk import's ``COPY`` of 100,000 rows runs one ``DELETE``, not 100,000)."""
    from psycopg.sql import SQL, Identifier

    table = SQL("{}.{}").format(Identifier(schema), Identifier(SUMMARY_TABLE))
    function = SQL("{}.{}").format(Identifier(schema), Identifier(f"{SUMMARY_TABLE}_edited"))
    inserted = SQL("{}.{}").format(Identifier(schema), Identifier(f"{SUMMARY_TABLE}_inserted"))
    events = SQL("{}.{}").format(Identifier(schema), Identifier(events_table))
    return [
        SQL(
            "CREATE TABLE IF NOT EXISTS {table} ("
            "originator_id {oid_type} PRIMARY KEY, "
            "version integer NOT NULL, "
            "findings integer, "
            "finished boolean NOT NULL, "
            "result text, "
            "first_at text)"
        ).format(table=table, oid_type=Identifier(oid_type)),
        SQL(
            "CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN "
            "DELETE FROM {table} WHERE originator_id = OLD.originator_id; "
            "IF TG_OP = 'UPDATE' THEN DELETE FROM {table} WHERE originator_id = NEW.originator_id; END IF; "
            "RETURN NULL; END $body$"
        ).format(function=function, table=table),
        SQL(
            "CREATE OR REPLACE TRIGGER {trigger} AFTER UPDATE OR DELETE ON {events} "
            "FOR EACH ROW EXECUTE FUNCTION {function}()"
        ).format(trigger=Identifier(f"{SUMMARY_TABLE}_edited"), events=events, function=function),
        SQL(
            "CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN "
            "DELETE FROM {table} s USING (SELECT originator_id, min(originator_version) AS v FROM added "
            "GROUP BY originator_id) a WHERE s.originator_id = a.originator_id AND s.version >= a.v; "
            "RETURN NULL; END $body$"
        ).format(function=inserted, table=table),
        SQL(
            "CREATE OR REPLACE TRIGGER {trigger} AFTER INSERT ON {events} REFERENCING NEW TABLE AS added "
            "FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
        ).format(trigger=Identifier(f"{SUMMARY_TABLE}_inserted"), events=events, function=inserted),
    ]


def _upsert(table: str) -> str:
    return (
        f"INSERT INTO {table} AS s (originator_id, version, findings, finished, result, first_at) "
        "VALUES (?,?,?,?,?,?) ON CONFLICT (originator_id) DO UPDATE SET version = excluded.version, "
        "findings = excluded.findings, finished = excluded.finished, result = excluded.result, "
        "first_at = excluded.first_at WHERE excluded.version >= s.version"
    )


def _encode(row: SummaryRow, sqlite: bool) -> tuple[Any, ...]:
    oid, version, s = row
    kept = s.result if s.standing is None or s.result is None else {**s.result, STANDING: s.standing}
    result = msgspec.json.encode(kept).decode() if kept is not None else None
    return (
        oid.hex if sqlite else oid,
        int(version),
        s.findings,
        int(s.finished) if sqlite else s.finished,
        result,
        s.first_at,
    )


def _decode(values: Sequence[Any]) -> tuple[str, int, ListSummary]:
    """``(originator id hex, version, summary)`` of a stored line; ``ValueError`` for one edited out of shape."""
    oid, version, findings, over, result, first_at = values
    try:
        decoded = msgspec.json.decode(result) if result is not None else None
    except msgspec.DecodeError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(decoded, (dict, type(None))) or not isinstance(first_at, (str, type(None))):
        raise ValueError("not a summary")
    kept = decoded.pop(STANDING, None) if isinstance(decoded, dict) else None
    return (
        hex_id(oid),
        int(version),
        ListSummary(
            findings=None if findings is None else int(findings),
            finished=bool(over),
            result=decoded,
            first_at=first_at,
            standing=kept if isinstance(kept, dict) else None,
        ),
    )


class SummaryTable:
    """The games' list lines of one recorder's store (SQLite, PostgreSQL, or
    in memory for eventsourcing's POPO store; another recorder keeps none)."""

    def __init__(self, recorder: Any) -> None:
        from eventsourcing.sqlite import SQLiteApplicationRecorder

        self.recorder = recorder
        self.sql = is_sql(recorder)
        self.sqlite = isinstance(recorder, SQLiteApplicationRecorder)
        self._memory: dict[str, tuple[int, ListSummary]] = {}
        self._lock = threading.Lock()
        if self.sqlite:
            self.table = SUMMARY_TABLE
        elif self.sql:
            from psycopg.sql import SQL, Identifier

            schema = recorder.datastore.schema
            self.table = SQL("{}.{}").format(Identifier(schema), Identifier(SUMMARY_TABLE)).as_string(None)

    def read(self) -> dict[str, tuple[int, ListSummary]]:
        """Every stored line by originator id (hex): ``(version, summary)``,
        in one query; a line edited out of shape is left out (the list then
        folds that game), no table gives ``{}``."""
        if not self.sql:
            with self._lock:
                return dict(self._memory)
        statement = f"SELECT originator_id, version, findings, finished, result, first_at FROM {self.table}"
        try:
            rows = self._query(statement)
        except Exception as exc:  # noqa: BLE001 - no table yet (a store made before it): no lines
            if not _missing_table(exc):
                raise
            return {}
        out: dict[str, tuple[int, ListSummary]] = {}
        for values in rows:
            with contextlib.suppress(ValueError, TypeError):
                oid, version, summary = _decode(values)
                out[oid] = (version, summary)
        return out

    def get(self, oid: UUID) -> tuple[int, ListSummary] | None:
        """The stored line of one game, or None."""
        if not self.sql:
            with self._lock:
                return self._memory.get(oid.hex)
        statement = (
            f"SELECT originator_id, version, findings, finished, result, first_at FROM {self.table} "
            "WHERE originator_id = ?"
        )
        try:
            rows = self._query(statement, [oid.hex if self.sqlite else oid])
        except Exception as exc:  # noqa: BLE001 - no table yet
            if not _missing_table(exc):
                raise
            return None
        try:
            return _decode(rows[0])[1:] if rows else None
        except (ValueError, TypeError):
            return None

    def write(self, rows: Sequence[SummaryRow]) -> None:
        """Store ``rows`` in one transaction, each replacing the game's line
        unless that is of a later version; creates the table when the store
        has none yet."""
        if not rows:
            return
        if not self.sql:
            with self._lock:
                for oid, version, summary in rows:
                    old = self._memory.get(oid.hex)
                    if old is None or old[0] <= version:
                        self._memory[oid.hex] = (version, summary)
            return
        params = [_encode(r, self.sqlite) for r in rows]
        try:
            self._execute(_upsert(self.table), params)
        except Exception as exc:  # noqa: BLE001 - a store made before the table: create it, once
            if not _missing_table(exc):
                raise
            self.create()
            self._execute(_upsert(self.table), params)

    def create(self) -> None:
        """The table and its triggers, where a store made before them has
        none (two processes at once: both fine)."""
        recorder = self.recorder
        if self.sqlite:
            with recorder.datastore.transaction(commit=True) as c:
                for statement in [SQLITE_CREATE, *sqlite_triggers(recorder.events_table_name)]:
                    c.execute(statement)
            return
        datastore = recorder.datastore
        statements = postgres_create(datastore.schema, recorder.events_table_name, datastore.originator_id_type)
        # two processes creating it at once: the loser's error is harmless (as ledger.sealing.backfill)
        with contextlib.suppress(Exception), datastore.get_connection() as conn:
            with conn.transaction(), conn.cursor() as curs:
                for statement in statements:
                    curs.execute(statement)

    def _query(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.sqlite:
            with self.recorder.datastore.transaction(commit=False) as c:
                c.execute(statement, tuple(params))
                return [tuple(r) for r in c.fetchall()]
        with self.recorder.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement.replace("?", "%s"), tuple(params))
            return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in curs.fetchall()]

    def _execute(self, statement: str, params: list[tuple[Any, ...]]) -> None:
        if self.sqlite:
            with self.recorder.datastore.transaction(commit=True) as c:
                c.executemany(statement, params)
            return
        with self.recorder.datastore.get_connection() as conn:
            with conn.transaction(), conn.cursor() as curs:
                curs.executemany(statement.replace("?", "%s"), params)


def _missing_table(exc: BaseException) -> bool:
    """``exc`` (or what it wraps) says the summary table does not exist:
    SQLite's "no such table", PostgreSQL's ``UndefinedTable``."""
    for e in (exc, exc.__cause__, exc.__context__):
        if e is None:
            continue
        if type(e).__name__ == "UndefinedTable" or f"no such table: {SUMMARY_TABLE}" in str(e):
            return True
    return False
