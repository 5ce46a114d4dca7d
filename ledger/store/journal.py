"""Who appended each stored event, and when: the ``rummy_journal`` side table
(DESIGN.md, layer 2; the contract in CONTRACT-append.md).

The table sits beside eventsourcing's events table, in the same SQLite file or
the same PostgreSQL schema::

    rummy_journal(originator_id, position, appended_by, received_at, seal,
                  journal_seal, PRIMARY KEY (originator_id, position))

``originator_id`` is stored as eventsourcing stores it (SQLite: the UUID's
hex text; PostgreSQL: ``uuid``; ``ORIGINATOR_ID_TYPE=text`` is refused there at start,
:func:`ledger.store.probe.check_settings`),
``position`` is the event's 0-based position (FORMAT.md "File"),
``appended_by`` a token's name or ``"import:<os user>"`` / ``"cli:<os user>"``,
``received_at`` the server's receive time (ISO-8601 UTC with microseconds,
``2026-12-01T08:15:02.123456Z``), ``seal`` FORMAT.md's "Seal" hN as its raw
32 bytes (SQLite ``BLOB``, PostgreSQL ``bytea``; the readers here give it in
lower-case hex) and ``journal_seal`` the journal chain's link of the append
call (32 bytes) on the *last* row of each call, NULL on the call's other rows
(README "Seals"; :mod:`ledger.sealing.witness` computes both in the append
path, :mod:`ledger.sealing.backfill` converts a store of the previous layout,
hex text and a link per row, once).

The rows are written by small subclasses of eventsourcing's application
recorders, inside the transaction that inserts the event rows: the caller
passes ``journal=[JournalRow, ...]`` (one per stored event, same order) to
``EventStore.put`` / ``insert_events``, and either everything is stored or
nothing. Events stored before the table existed have no row.

>>> JournalEntry(position=0, appended_by="cli:anna", received_at="2026-12-01T08:15:02.123456Z", seal=None)
JournalEntry(position=0, appended_by='cli:anna', received_at='2026-12-01T08:15:02.123456Z', seal=None)
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, StoredEvent
from eventsourcing.persistence import OperationalError as StoreOperationalError
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteDatastore,
)

from ledger.store.journal_rows import (
    JOURNAL_TABLE,
    EventRow,
    InsertChunk,
    JournalEntry,
    JournalRecorder,
    JournalRow,
    JournalTuple,
    journal_rows,
    os_user,
    received_now,
    seal_hex,
)
from ledger.stored.summaries import SQLITE_CREATE as SQLITE_SUMMARY_CREATE
from ledger.stored.summaries import sqlite_triggers as sqlite_summary_triggers

# --- SQLite ------------------------------------------------------------------------


def _sqlite_oid(value: UUID | str) -> str:
    return value.hex if isinstance(value, UUID) else str(value)


def _sqlite_oids() -> Callable[[UUID | str], str]:
    """:func:`_sqlite_oid` for the rows of one insert, which come game by game:
    the last id's text is kept and reused while the same id object repeats."""
    last: UUID | str | None = None
    text = ""

    def oid(value: UUID | str) -> str:
        nonlocal last, text
        if value is not last:
            last, text = value, _sqlite_oid(value)
        return text

    return oid


#: page cache of each store connection, in KiB (SQLite's ``PRAGMA cache_size`` with a
#: negative value); SQLite's default is 2 MiB, which a store of a few million events outgrows
SQLITE_CACHE_KIB = 32 * 1024
#: the page cache while the store is only read in notification order (the analytics update):
#: SQLite's default, 2,000 KiB
SQLITE_READ_CACHE_KIB = 2000


#: how the store's SQLite connections read a ``TEXT`` value: UTF-8, any byte that is not
#: valid UTF-8 as a ``\xNN`` escape (``b"ab\xff"`` gives ``'ab\\xff'``), never an error
#: (a C call per value, as fast as sqlite3's default ``str``)
STORED_TEXT = functools.partial(str, encoding="utf-8", errors="backslashreplace")


class TunedSQLiteConnectionPool(SQLiteConnectionPool):
    """eventsourcing's SQLite connection pool, with the store's pragmas set on
    every connection it opens (after the library has put the file in WAL mode):

    - ``cache_size = -SQLITE_CACHE_KIB`` (32 MiB instead of 2 MiB: the events
      table's primary key on random UUIDs and its notification and topic
      indexes stay in memory for stores of millions of events);
    - ``synchronous = NORMAL`` when the file is in WAL mode, as SQLite
      recommends for WAL: a commit is still atomic and survives a crash of
      the process; only a power loss or OS crash can undo the last
      transactions (never corrupt the file). In-memory stores are left alone;
    - on every connection, in memory too, :data:`STORED_TEXT` as the
      ``text_factory``: a ``TEXT`` value that is not valid UTF-8 (a row
      edited behind the product's back) is read as a ``str`` with its bad
      bytes escaped, where sqlite3's default raises ``OperationalError``
      for the whole query; every "stored as text" check then names it.
    """

    #: the page cache of the connections it opens, in KiB (:meth:`page_cache` changes it)
    cache_kib = SQLITE_CACHE_KIB

    @contextlib.contextmanager
    def page_cache(self, kib: int) -> Iterator[None]:
        """Every connection's page cache ``kib`` KiB while the block runs (the
        idle connections' at once, new ones' when opened), :data:`SQLITE_CACHE_KIB`
        again after it. SQLite frees the pages past a smaller cache at once.
        For a block that is the pool's only user (one thread): a connection
        handed out meanwhile keeps its cache."""
        self._set_cache(kib)
        try:
            yield
        finally:
            self._set_cache(SQLITE_CACHE_KIB)

    def _set_cache(self, kib: int) -> None:
        self.cache_kib = kib
        if not self.is_sqlite_memory_mode:
            for conn in list(self._pool):
                conn._sqlite_conn.execute(f"PRAGMA cache_size=-{int(kib)}")

    def _create_connection(self) -> SQLiteConnection:
        conn = self._connect_retrying()
        raw = conn._sqlite_conn
        raw.text_factory = STORED_TEXT
        if not self.is_sqlite_memory_mode:
            raw.execute(f"PRAGMA cache_size=-{int(self.cache_kib)}")
            if self.is_journal_mode_wal:
                raw.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _connect_retrying(self) -> SQLiteConnection:
        """The library's connection, retried while another process holds the
        file's lock: ``PRAGMA journal_mode=WAL`` on a file that processes
        start on at once can fail with "database is locked" at once, without
        SQLite's busy wait; retried with backoff for the lock timeout."""
        deadline = time.monotonic() + float(self.lock_timeout or 5)
        delay = 0.01
        while True:
            try:
                return super()._create_connection()
            except (sqlite3.OperationalError, StoreOperationalError) as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(delay)
            delay = min(delay * 2, 0.25)


_SQLITE_INSERT_JOURNAL = (
    f"INSERT INTO {JOURNAL_TABLE} (originator_id, position, appended_by, received_at, seal, journal_seal) "
    "VALUES (?,?,?,?,?,?)"
)


class JournalSQLiteRecorder(SQLiteApplicationRecorder, JournalRecorder):
    """eventsourcing's SQLite application recorder plus ``rummy_journal``.

    ``_insert_events`` runs inside the recorder's write transaction
    (``BEGIN`` … ``COMMIT``); the journal rows are inserted after the event
    rows, so a position already taken fails on the events' primary key
    (``IntegrityError``) and rolls both back.

    With ``bulk=True`` (``EventStore.put(..., journal=..., bulk=True)``, the
    batched import of :meth:`ledger.store.application.LedgerApp.import_records`)
    the event rows go in with one ``executemany`` instead of one ``execute``
    per row; the rows get their notification ids (rowids) in the order
    given, as before, but the call returns no ids (nothing in rummy-ledger
    reads them). The live append path keeps the library's per-row insert.

    The recorder switches its datastore's connection pool to
    :class:`TunedSQLiteConnectionPool` (the library's factory builds the
    datastore before the recorder, and opens no connection until asked).
    """

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name)
        if type(datastore.pool) is SQLiteConnectionPool:
            datastore.pool.__class__ = TunedSQLiteConnectionPool

    def construct_create_table_statements(self) -> list[str]:
        statements = super().construct_create_table_statements()
        statements.append(
            f"CREATE TABLE IF NOT EXISTS {JOURNAL_TABLE} ("
            "originator_id TEXT NOT NULL, "
            "position INTEGER NOT NULL, "
            "appended_by TEXT NOT NULL, "
            "received_at TEXT NOT NULL, "
            "seal BLOB, "
            "journal_seal BLOB, "
            "PRIMARY KEY (originator_id, position)) "
            "WITHOUT ROWID"
        )
        # the games list's lines (ledger.stored.summaries), dropped by a trigger when an event row is edited
        statements.append(SQLITE_SUMMARY_CREATE)
        statements.extend(sqlite_summary_triggers(self.events_table_name))
        return statements

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        oid = _sqlite_oids()
        rows = journal_rows(stored_events, kwargs.get("journal"), oid)
        if kwargs.get("bulk"):
            params = [(oid(s.originator_id), s.originator_version, s.topic, s.state) for s in stored_events]
            c.executemany(self.insert_events_statement, params)
            returning = None
        else:
            returning = super()._insert_events(c, stored_events, **kwargs)
        if rows:
            c.executemany(_SQLITE_INSERT_JOURNAL, rows)
        return returning

    def insert_rows(self, events: Sequence[EventRow], journal: Sequence[JournalTuple]) -> None:
        """One write transaction: one ``executemany`` of the event rows (their
        notification ids, the rowids, drawn in the order given), one of the
        journal rows."""
        if not events:
            return
        with self.datastore.transaction(commit=True) as c:
            c.executemany(self.insert_events_statement, events)
            c.executemany(_SQLITE_INSERT_JOURNAL, journal)

    @contextlib.contextmanager
    def insert_chunks(self) -> Iterator[InsertChunk]:
        """One write transaction (``BEGIN`` … ``COMMIT``, rolled back when the
        block raises); each chunk goes in as a bulk insert (one
        ``executemany`` for the events, one for the journal rows)."""
        with self.datastore.transaction(commit=True) as c:
            yield lambda stored_events, journal: self._insert_events(c, stored_events, journal=journal, bulk=True)

    def select_journal(self, originator_id: UUID, after: int = -1) -> list[JournalEntry]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT position, appended_by, received_at, seal FROM {JOURNAL_TABLE} WHERE originator_id=? AND "
                "position>? ORDER BY position",
                (_sqlite_oid(originator_id), after),
            )
            return [
                JournalEntry(position=r[0], appended_by=r[1], received_at=r[2], seal=seal_hex(r[3]))
                for r in c.fetchall()
            ]

    def select_first_received(self, topic: str) -> dict[str, str]:
        """:func:`first_received` of this store: one query, a primary-key
        lookup of the journal per ``topic`` row (the topic index)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT g.originator_id, (SELECT j.received_at FROM {JOURNAL_TABLE} j WHERE j.originator_id = "
                f"g.originator_id AND j.position = 0) FROM {self.events_table_name} g WHERE g.topic = ?",
                (topic,),
            )
            return {_hex_id(r[0]): r[1] for r in c.fetchall() if r[1] is not None}


# --- in memory (eventsourcing's POPO store, no database) ----------------------------


class JournalPOPORecorder(POPOApplicationRecorder, JournalRecorder):
    """The in-memory recorder plus an in-memory journal (tests, examples)."""

    def __init__(self) -> None:
        super().__init__()
        self._journal: dict[str, dict[int, JournalRow]] = {}

    def _update_table(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        journal = kwargs.get("journal")
        journal_rows(stored_events, journal, str)
        ids = super()._update_table(stored_events, **kwargs)
        for s, j in zip(stored_events, journal or ()):
            self._journal.setdefault(str(s.originator_id), {})[j.position] = j
        return ids

    def select_journal(self, originator_id: UUID, after: int = -1) -> list[JournalEntry]:
        with self._database_lock:
            rows = self._journal.get(str(originator_id), {})
            return [
                JournalEntry(
                    position=r.position, appended_by=r.appended_by, received_at=r.received_at, seal=seal_hex(r.seal)
                )
                for r in (rows[p] for p in sorted(rows) if p > after)
            ]

    def stored_row(self, originator_id: UUID, position: int) -> JournalRow | None:
        """The journal row at ``position`` as stored (raw seals), or None."""
        with self._database_lock:
            return self._journal.get(str(originator_id), {}).get(position)

    def select_first_received(self, topic: str) -> dict[str, str]:
        """:func:`first_received` of this store (in memory)."""
        del topic  # every sequence with a position 0 (a tournament's too: the caller asks by game id)
        with self._database_lock:
            return {UUID(oid).hex: rows[0].received_at for oid, rows in self._journal.items() if 0 in rows}


def read_cache(app: Any) -> contextlib.AbstractContextManager[None]:
    """For a block that only reads ``app``'s store in notification order (the
    analytics update after an import): a SQLite store's page cache at
    :data:`SQLITE_READ_CACHE_KIB` instead of :data:`SQLITE_CACHE_KIB`, given
    back after (bench/RESULTS.md: ``rummy-ledger import`` peaked with both the
    import's full cache and DuckDB's memory); any other store as it is."""
    pool = getattr(getattr(app.recorder, "datastore", None), "pool", None)
    if isinstance(pool, TunedSQLiteConnectionPool):
        return pool.page_cache(SQLITE_READ_CACHE_KIB)
    return contextlib.nullcontext()


def journal_recorder(factory: Any) -> ApplicationRecorder:
    """The application recorder with the journal for an eventsourcing
    infrastructure factory (SQLite, PostgreSQL, in memory), built by the
    factory itself (tables created as it creates them); a factory this
    module does not know gives its own recorder, without a journal."""
    from eventsourcing.utils import get_topic

    module = type(factory).__module__
    if module == "eventsourcing.popo":
        return JournalPOPORecorder()
    cls: type | None = {"eventsourcing.sqlite": JournalSQLiteRecorder}.get(module)
    if module == "eventsourcing.postgres":
        from ledger.store.journal_postgres import JournalPostgresRecorder

        cls = JournalPostgresRecorder
    if cls is not None:
        factory.env[factory.APPLICATION_RECORDER_TOPIC] = get_topic(cls)
    recorder: ApplicationRecorder = factory.application_recorder()
    return recorder


def select_journal(recorder: ApplicationRecorder, originator_id: UUID, after: int = -1) -> list[JournalEntry]:
    """The journal rows of ``originator_id`` at positions after ``after``
    (default: all; empty for a recorder without a journal)."""
    if isinstance(recorder, JournalRecorder):
        return recorder.select_journal(originator_id, after)
    return []


def first_received(recorder: ApplicationRecorder, topic: str) -> dict[str, str]:
    """``{originator id hex: received_at}`` of position 0 of every sequence
    whose events hold a ``topic`` row (the games: ``game_started``'s topic),
    when the journal has that row: the time the game was first stored. One
    query for the whole store (the games list reads it beside its stored
    lines; bench/RESULTS.md "Long games cheap to read"); ``{}`` for a
    recorder without a journal."""
    select = getattr(recorder, "select_first_received", None)
    return select(topic) if isinstance(recorder, JournalRecorder) and select is not None else {}


def _hex_id(value: UUID | str) -> str:
    return value.hex if isinstance(value, UUID) else UUID(str(value)).hex


__all__ = [
    "first_received",
    "InsertChunk",
    "JournalRecorder",
    "os_user",
    "JOURNAL_TABLE",
    "JournalEntry",
    "JournalRow",
    "received_now",
    "read_cache",
    "journal_recorder",
    "select_journal",
    "JournalSQLiteRecorder",
    "JournalPOPORecorder",
    "SQLITE_CACHE_KIB",
    "SQLITE_READ_CACHE_KIB",
    "STORED_TEXT",
    "TunedSQLiteConnectionPool",
]
