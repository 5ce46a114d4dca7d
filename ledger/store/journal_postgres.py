"""The journal's PostgreSQL recorder (:mod:`ledger.store.journal`, ``rummy_journal``
in the store's schema): imported only for a PostgreSQL store, so that a
SQLite or in-memory store never loads psycopg and libpq (about 23 MB of RSS).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from ledger.store.journal_rows import (
    JOURNAL_TABLE,
    EventRow,
    InsertChunk,
    JournalEntry,
    JournalRecorder,
    JournalTuple,
    journal_rows,
    seal_hex,
)
from ledger.stored.summaries import postgres_create


class JournalPostgresRecorder(PostgresApplicationRecorder, JournalRecorder):
    """eventsourcing's PostgreSQL application recorder plus ``rummy_journal``.

    The journal rows go into the transaction of ``insert_events`` (the
    library's pipelined path: lock the events table, insert the events,
    then this recorder's journal rows, commit); a batched folder import
    and a long file's chunks take :meth:`_copy_rows` instead (binary
    ``COPY``, one transaction). The library's optional
    database-function path (``POSTGRES_ENABLE_DB_FUNCTIONS``) inserts the
    events alone, so this recorder always takes the SQL path.
    """

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        # the journal rows must share the events' transaction: not the PG function path
        self.datastore.enable_db_functions = False
        self.journal_table = SQL("{}.{}").format(Identifier(self.datastore.schema), Identifier(JOURNAL_TABLE))
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {table} ("
                "originator_id {oid_type} NOT NULL, "
                "position integer NOT NULL, "
                "appended_by text NOT NULL, "
                "received_at text NOT NULL, "
                "seal bytea, "
                "journal_seal bytea, "
                "PRIMARY KEY (originator_id, position))"
            ).format(table=self.journal_table, oid_type=Identifier(self.datastore.originator_id_type))
        )
        # the games list's lines (ledger.stored.summaries), dropped by a trigger when an event row is edited
        self.sql_create_statements.extend(
            postgres_create(self.datastore.schema, events_table_name, self.datastore.originator_id_type)
        )
        self.insert_journal_statement = SQL(
            "INSERT INTO {table} (originator_id, position, appended_by, received_at, seal, journal_seal) "
            "VALUES (%s, %s, %s, %s, %s, %s)"
        ).format(table=self.journal_table)
        # the bulk path's statements: binary COPY of the events and of the journal rows
        # (psycopg writes each row in C; no statement is parsed or planned per batch)
        self.copy_events_statement = SQL(
            "COPY {table} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)"
        ).format(table=SQL("{}.{}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name)))
        self.copy_journal_statement = SQL(
            "COPY {table} (originator_id, position, appended_by, received_at, seal, journal_seal) "
            "FROM STDIN (FORMAT BINARY)"
        ).format(table=self.journal_table)
        oid_type = self.datastore.originator_id_type
        self.copy_events_types = [oid_type, "int8", "text", "bytea"]
        self.copy_journal_types = [oid_type, "int4", "text", "text", "bytea", "bytea"]
        self.select_journal_statement = SQL(
            "SELECT position, appended_by, received_at, seal FROM {table} WHERE originator_id = %s AND "
            "position > %s ORDER BY position"
        ).format(table=self.journal_table)

    @staticmethod
    def _oid(value: UUID | str) -> UUID:
        """A game's id as its ``uuid`` column takes it (``ORIGINATOR_ID_TYPE=text`` is refused at
        start: :func:`ledger.store.probe.check_settings`)."""
        return value if isinstance(value, UUID) else UUID(str(value))

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """The library's pipelined insert (one commit per call, notification ids
        returned); with ``bulk=True`` (a batched folder import) the events and
        their journal rows by :meth:`_copy_rows` in one transaction, returning
        no ids (nothing in rummy-ledger reads them), retried as the library
        retries its own insert."""
        if not kwargs.get("bulk"):
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        if stored_events:
            with self.datastore.transaction(commit=True) as curs:
                self._copy_rows(curs, stored_events, kwargs.get("journal"))
        return None

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_rows(self, events: Sequence[EventRow], journal: Sequence[JournalTuple]) -> None:
        """Prepared rows (:mod:`ledger.store.bulk_rows`) by binary ``COPY`` in
        one transaction (:meth:`_copy_tuples`), retried as :meth:`insert_events`."""
        if events:
            with self.datastore.transaction(commit=True) as curs:
                self._copy_tuples(curs, events, journal)

    def _insert_stored_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """The library's insert (table lock, ``NOTIFY``, ``INSERT … unnest``
        ``RETURNING notification_id``) plus the journal rows, in the library's pipeline."""
        rows = journal_rows(stored_events, kwargs.get("journal"), self._oid)
        super()._insert_stored_events(curs, stored_events, **kwargs)
        if rows:
            # another cursor: the library reads the events' RETURNING rows from ``curs``
            with curs.connection.cursor() as journal_curs:
                journal_curs.executemany(self.insert_journal_statement, rows)

    def _copy_rows(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], journal: Any) -> None:
        """The bulk insert inside an open transaction (not in pipeline mode,
        where psycopg refuses ``COPY``): the library's table lock and
        ``NOTIFY`` (sent at the commit), then one binary ``COPY`` of the event
        rows, whose ``notification_id`` defaults are drawn in the order of
        the rows (the table is locked: no other writer draws between them),
        and one of the journal rows. The same rows as the library's insert; a
        position already taken raises ``UniqueViolation`` at the end of the
        events' ``COPY`` (``IntegrityError`` from the datastore)."""
        rows = journal_rows(stored_events, journal, self._oid)
        oid = self._oid
        events = [(oid(s.originator_id), s.originator_version, s.topic, s.state) for s in stored_events]
        self._copy_tuples(curs, events, rows)

    def _copy_tuples(self, curs: Cursor[DictRow], events: Sequence[EventRow], rows: Sequence[JournalTuple]) -> None:
        """:meth:`_copy_rows` of rows made already: the event tuples
        ``(uuid, version, topic, state)`` and the journal tuples."""
        self._lock_table(curs)
        self._notify_channel(curs)
        with curs.copy(self.copy_events_statement) as copy:
            copy.set_types(self.copy_events_types)
            for row in events:
                copy.write_row(row)
        if rows:
            with curs.copy(self.copy_journal_statement) as copy:
                copy.set_types(self.copy_journal_types)
                for jrow in rows:
                    copy.write_row(jrow)

    @contextlib.contextmanager
    def insert_chunks(self) -> Iterator[InsertChunk]:
        """One transaction on one connection (rolled back when the block
        raises); each chunk is :meth:`_copy_rows` (the table lock and
        ``NOTIFY``, which PostgreSQL sends at the commit, then the rows)."""
        with self.datastore.transaction(commit=True) as curs:
            yield lambda stored_events, journal: self._copy_rows(curs, stored_events, journal)

    def select_journal(self, originator_id: UUID, after: int = -1) -> list[JournalEntry]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.select_journal_statement, (self._oid(originator_id), after))
            return [
                JournalEntry(
                    position=r["position"],
                    appended_by=r["appended_by"],
                    received_at=r["received_at"],
                    seal=seal_hex(r["seal"]),
                )
                for r in curs.fetchall()
            ]

    def select_first_received(self, topic: str) -> dict[str, str]:
        """:func:`ledger.store.journal.first_received` of this store: one
        query, a primary-key lookup of the journal per ``topic`` row."""
        events = SQL("{}.{}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name))
        statement = SQL(
            "SELECT g.originator_id AS oid, (SELECT j.received_at FROM {journal} j WHERE j.originator_id = "
            "g.originator_id AND j.position = 0) AS received_at FROM {events} g WHERE g.topic = %s"
        ).format(journal=self.journal_table, events=events)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, (topic,))
            return {self._oid(r["oid"]).hex: r["received_at"] for r in curs.fetchall() if r["received_at"] is not None}


__all__ = ["JournalPostgresRecorder"]
