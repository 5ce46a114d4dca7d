"""The journal's PostgreSQL recorder (:mod:`ledger.store.journal`, ``rummy_journal``
in the store's schema): imported only for a PostgreSQL store, so that a
SQLite or in-memory store never loads psycopg and libpq (about 23 MB of RSS).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from ledger.store.journal import JOURNAL_TABLE, InsertChunk, JournalEntry, JournalRecorder, _rows, _seal_hex


class JournalPostgresRecorder(PostgresApplicationRecorder, JournalRecorder):
    """eventsourcing's PostgreSQL application recorder plus ``rummy_journal``.

    The journal rows go into the transaction of ``insert_events`` (the
    library's pipelined path: lock the events table, insert the events,
    then this recorder's journal rows, commit). The library's optional
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
        self.insert_journal_statement = SQL(
            "INSERT INTO {table} (originator_id, position, appended_by, received_at, seal, journal_seal) "
            "VALUES (%s, %s, %s, %s, %s, %s)"
        ).format(table=self.journal_table)
        # the bulk path's statements: one array per column (psycopg dumps arrays of plain
        # values in C; the library's array of composite rows is dumped row by row in Python)
        self.insert_columns_statement = SQL(
            "INSERT INTO {table} AS t (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(%b::{oid_type}[], %b::bigint[], %b::text[], %b::bytea[]) "
            "RETURNING notification_id"
        ).format(
            table=SQL("{}.{}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name)),
            oid_type=Identifier(self.datastore.originator_id_type),
        )
        self.insert_journal_columns_statement = SQL(
            "INSERT INTO {table} (originator_id, position, appended_by, received_at, seal, journal_seal) "
            "SELECT * FROM unnest(%b::{oid_type}[], %b::integer[], %b::text[], %b::text[], %b::bytea[], %b::bytea[])"
        ).format(table=self.journal_table, oid_type=Identifier(self.datastore.originator_id_type))
        self.select_journal_statement = SQL(
            "SELECT position, appended_by, received_at, seal FROM {table} WHERE originator_id = %s AND "
            "position > %s ORDER BY position"
        ).format(table=self.journal_table)

    @staticmethod
    def _oid(value: UUID | str) -> UUID:
        """A game's id as its ``uuid`` column takes it (``ORIGINATOR_ID_TYPE=text`` is refused at
        start: :func:`ledger.store.probe.check_settings`)."""
        return value if isinstance(value, UUID) else UUID(str(value))

    def _insert_stored_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """The library's insert (table lock, ``NOTIFY``, ``INSERT … unnest``
        ``RETURNING notification_id``) plus the journal rows; with ``bulk=True``
        (a batched folder import, a long file's chunks) the same statements
        with one array per column instead of an array of composite rows, and
        the journal rows in one statement instead of one per row: the same
        rows, in the same order, with the same notification ids."""
        rows = _rows(stored_events, kwargs.get("journal"), self._oid)
        bulk = kwargs.get("bulk")
        if bulk:
            self._lock_table(curs)
            self._notify_channel(curs)
            curs.execute(
                self.insert_columns_statement,
                (
                    [self._oid(s.originator_id) for s in stored_events],
                    [s.originator_version for s in stored_events],
                    [s.topic for s in stored_events],
                    [s.state for s in stored_events],
                ),
            )
        else:
            super()._insert_stored_events(curs, stored_events, **kwargs)
        if rows:
            # another cursor: the library reads the events' RETURNING rows from ``curs``
            with curs.connection.cursor() as journal_curs:
                if bulk:
                    journal_curs.execute(self.insert_journal_columns_statement, [list(c) for c in zip(*rows)])
                else:
                    journal_curs.executemany(self.insert_journal_statement, rows)

    @contextlib.contextmanager
    def insert_chunks(self) -> Iterator[InsertChunk]:
        """One transaction on one connection (rolled back when the block
        raises); each chunk is the library's ``INSERT … unnest`` (with its
        table lock and ``NOTIFY``, which PostgreSQL sends at the commit)
        plus the journal rows."""
        with self.datastore.transaction(commit=True) as curs:
            yield lambda stored_events, journal: self._insert_stored_events(
                curs, stored_events, journal=journal, bulk=True
            )

    def select_journal(self, originator_id: UUID, after: int = -1) -> list[JournalEntry]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.select_journal_statement, (self._oid(originator_id), after))
            return [
                JournalEntry(
                    position=r["position"],
                    appended_by=r["appended_by"],
                    received_at=r["received_at"],
                    seal=_seal_hex(r["seal"]),
                )
                for r in curs.fetchall()
            ]


__all__ = ["JournalPostgresRecorder"]
