"""A whole game's stored events by one SQL statement: the fast read of :class:`~ledger.store.reads.GameReads` (layer 2).

eventsourcing's ``select_events`` makes, per stored row, a ``sqlite3.Row``
or ``dict_row``, an originator :class:`~uuid.UUID` and a
:class:`~eventsourcing.persistence.StoredEvent`, inside a ``BEGIN`` …
``ROLLBACK`` on SQLite; the mapper then decodes each one. For a 47-event Gin
hand that is about two thirds of reading it (bench/RESULTS.md, "Reading a
game back"). :class:`EventRows` asks the events table for the ``topic`` and
``state`` columns only, in version order, in one statement on a connection
of the recorder's own pool (one statement reads one snapshot: SQLite's
autocommit, PostgreSQL's implicit transaction), and decodes each state with
its topic's decoder, the one the mapper uses
(:func:`~ledger.stored.persistence.decode_stored`); the short rows that
recur from game to game (a draw, a discard) are decoded once per process
(:data:`_DECODED`).

It only ever gives events back when every row is ordinary: any row whose
state is not bytes, whose topic is not a record event class's, or that does
not decode, a cipher or compressor in the mapper, a recorder without SQL or
a failing query, and the caller reads the game again through
``select_events`` and the mapper, which raise the errors they always raised
(naming the game and position: :func:`~ledger.stored.persistence.naming_game`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import ApplicationRecorder

from ledger.events import Event
from ledger.stored.persistence import TOPICS, MsgspecMapper

#: topic -> the decode of that event class (the same class and options as the mapper's decoder)
_DECODE: dict[str, Callable[[bytes], Event]] = {
    topic: msgspec.json.Decoder(cls).decode for cls, topic in TOPICS.items()
}
#: rows of at most this many bytes have their decoded event kept (:data:`_DECODED`)
SHORT_ROW = 64
#: at most this many decoded short rows are kept; the whole table is dropped when full
DECODED_ROWS = 4096
#: ``(topic, state) -> event`` of short rows that decoded: a draw, a discard, a pass
#: (``{"type":"card_drawn","seat":0,"card":"6H"}``) is the same bytes in game after game, and an
#: event is an immutable value, so one decoded event serves them all (a row that does not decode
#: is never kept: it is decoded, and fails, every time)
_DECODED: dict[tuple[str, bytes], Event] = {}


class EventRows:
    """The ``(topic, state)`` rows of one game, by one SQL statement on the
    events table of ``recorder`` (SQLite or PostgreSQL; for any other
    recorder every method returns None)."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        from eventsourcing.sqlite import SQLiteApplicationRecorder

        self.recorder = recorder
        self._select: Callable[[UUID, int | None], list[tuple[Any, Any]]] | None = None
        if isinstance(recorder, SQLiteApplicationRecorder):
            select = f"SELECT topic, state FROM {recorder.events_table_name} WHERE originator_id=? "
            self._sqlite_all = select + "ORDER BY originator_version"
            self._sqlite_lte = select + "AND originator_version<=? ORDER BY originator_version"
            self._select = self._sqlite
            return
        try:
            from eventsourcing.postgres import PostgresApplicationRecorder
        except ImportError:  # pragma: no cover - psycopg is a dependency
            return
        if isinstance(recorder, PostgresApplicationRecorder):
            from psycopg.sql import SQL, Identifier

            table = SQL("{}.{}").format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
            self._pg_all = SQL(
                "SELECT topic, state FROM {} WHERE originator_id = %s ORDER BY originator_version"
            ).format(table)
            self._pg_lte = SQL(
                "SELECT topic, state FROM {} WHERE originator_id = %s AND originator_version <= %s "
                "ORDER BY originator_version"
            ).format(table)
            self._select = self._postgres

    def rows(self, oid: UUID, lte: int | None = None) -> list[tuple[Any, Any]] | None:
        """The ``(topic, state)`` of the game's stored events in version
        order (those up to version ``lte`` when given), as the store holds
        them (``state`` should be bytes; not checked here); None when there
        is no SQL or the query fails (the caller reads the usual way)."""
        if self._select is None:
            return None
        try:
            return self._select(oid, lte)
        except Exception:  # noqa: BLE001 - the usual read raises eventsourcing's error for it
            return None

    def states(self, oid: UUID, lte: int | None = None) -> list[bytes] | None:
        """The stored bytes of the game's events in version order: the
        canonical JSON lines (no cipher or compressor is configured: checked
        by the caller); None as for :meth:`rows`, or when a state is not bytes."""
        rows = self.rows(oid, lte)
        if rows is None:
            return None
        states = [state for _topic, state in rows]
        if not all(type(s) is bytes for s in states):
            return None
        return states

    def _sqlite(self, oid: UUID, lte: int | None) -> list[tuple[Any, Any]]:
        datastore = self.recorder.datastore  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        with datastore.get_connection(commit=False) as conn, conn.cursor() as c:
            c.row_factory = None  # plain tuples, not sqlite3.Row
            if lte is None:
                c.execute(self._sqlite_all, (oid.hex,))
            else:
                c.execute(self._sqlite_lte, (oid.hex, lte))
            rows: list[tuple[Any, Any]] = c.fetchall()
            return rows

    def _postgres(self, oid: UUID, lte: int | None) -> list[tuple[Any, Any]]:
        from psycopg.rows import tuple_row

        datastore = self.recorder.datastore  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        with datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            if lte is None:
                curs.execute(self._pg_all, (oid,), prepare=True)
            else:
                curs.execute(self._pg_lte, (oid, lte), prepare=True)
            rows: list[tuple[Any, Any]] = curs.fetchall()
            return rows


def decode_rows(rows: list[tuple[Any, Any]], mapper: MsgspecMapper) -> list[Event] | None:
    """The record events of ``rows`` (from :meth:`EventRows.rows`), each
    decoded with its topic's decoder; None when any row is unusual (state
    not bytes, topic not an event class's, a row that does not decode) or
    the mapper has a cipher or compressor: the caller then decodes through
    the mapper, which says which row and why."""
    if mapper.cipher or mapper.compressor:
        return None
    decode, decoded = _DECODE, _DECODED
    kept = decoded.get
    try:
        out: list[Event] = []
        for row in rows:
            event = kept(row)  # a row is a (topic, state) tuple: the key itself
            if event is None:
                topic, state = row
                if type(state) is not bytes:  # a text row decodes, but the mapper rejects it: let it say so
                    return None
                event = decode[topic](state)
                if len(state) <= SHORT_ROW:
                    if len(decoded) >= DECODED_ROWS:
                        decoded.clear()
                    decoded[(topic, state)] = event
            out.append(event)
        return out
    except Exception:  # noqa: BLE001 - the mapper's decode of the same rows names the position
        return None
