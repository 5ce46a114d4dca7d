"""The journal's rows as every recorder stores and reads them: the table's
name, :class:`JournalEntry` (as read), :class:`JournalRow` (as the append
path stores it), the checks before any SQL (:func:`journal_rows`) and
:class:`JournalRecorder`, what the application asks of its recorder. The
SQLite and in-memory recorders are :mod:`ledger.store.journal`'s, the
PostgreSQL one :mod:`ledger.store.journal_postgres`'s; the table is
described in :mod:`ledger.store.journal`.
"""

from __future__ import annotations

import contextlib
import getpass
import os
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import ProgrammingError, StoredEvent

JOURNAL_TABLE = "rummy_journal"


class JournalEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One journal row as read: ``position`` (0-based), ``appended_by`` (who),
    ``received_at`` (ISO-8601 UTC), ``seal`` (64 lower-case hex, or None)."""

    position: int
    appended_by: str
    received_at: str
    seal: str | None = None


class JournalRow(msgspec.Struct, frozen=True, kw_only=True):
    """One journal row as the append path stores it: ``position``,
    ``appended_by``, ``received_at`` as in :class:`JournalEntry`, ``seal`` the
    raw 32-byte seal and ``journal_seal`` the raw 32-byte journal link on the
    last row of an append call, else None (README "Seals"; ledger.sealing.witness)."""

    position: int
    appended_by: str
    received_at: str
    seal: bytes | None = None
    journal_seal: bytes | None = None


def seal_hex(value: Any) -> Any:
    """A stored seal as :class:`JournalEntry` gives it: raw bytes in hex; text
    (an edited store) or None as stored."""
    return value.hex() if isinstance(value, (bytes, bytearray, memoryview)) else value


def received_now() -> str:
    """The current UTC time as the journal writes it: ``YYYY-MM-DDTHH:MM:SS.ffffffZ``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def os_user() -> str:
    """The operating-system user running this process (for the journal's
    ``"cli:<os user>"`` / ``"import:<os user>"``); the numeric uid when the
    user has no name."""
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no USER variable and no passwd entry
        return str(os.getuid()) if hasattr(os, "getuid") else "unknown"


#: one event row: (originator id as stored, originator_version, topic, state); the id is
#: as the recorder keeps it (SQLite the UUID's hex text, PostgreSQL and the in-memory store the ``UUID``)
EventRow = tuple[UUID | str, int, str, bytes]
#: one journal row: (originator id as stored, position, appended_by, received_at, seal, journal link)
JournalTuple = tuple[UUID | str, int, str, str, bytes | None, bytes | None]


def journal_rows(
    stored_events: Sequence[StoredEvent], journal: Sequence[JournalRow] | None, oid: Callable[[UUID | str], UUID | str]
) -> list[JournalTuple]:
    """The journal rows to insert with ``stored_events`` (checked before any SQL
    is sent, so that a mistake here cannot store events without their rows)."""
    if not journal:
        return []
    if len(journal) != len(stored_events):
        raise ProgrammingError(f"{len(journal)} journal entries for {len(stored_events)} events")
    rows: list[JournalTuple] = []
    for s, j in zip(stored_events, journal):
        if j.position != s.originator_version - 1:
            raise ProgrammingError(
                f"journal entry for position {j.position} beside event version {s.originator_version}"
            )
        if not j.appended_by:
            raise ProgrammingError("journal entry without appended_by")
        rows.append((oid(s.originator_id), j.position, j.appended_by, j.received_at, j.seal, j.journal_seal))
    return rows


#: what :meth:`JournalRecorder.insert_chunks` yields: insert one chunk of stored events and their journal rows
InsertChunk = Callable[[Sequence[StoredEvent], Sequence[JournalRow]], object]


class JournalRecorder:
    """What :class:`~ledger.store.application.LedgerApp` asks of its recorder."""

    @contextlib.contextmanager
    def insert_chunks(self) -> Iterator[InsertChunk]:
        """One transaction for many inserts (a long record file imported as
        it is read, :mod:`ledger.store.streamed`): yields ``insert(stored_events,
        journal)``, to call once per chunk; everything is committed when the
        block ends, nothing when it raises. This default (the in-memory store)
        keeps the chunks and inserts them at the end; the SQL recorders send
        each chunk at once inside an open transaction, so that only one chunk
        is held. A taken position raises ``IntegrityError`` (from a chunk's
        insert, or at the end)."""
        events: list[StoredEvent] = []
        journal: list[JournalRow] = []

        def insert(stored_events: Sequence[StoredEvent], entries: Sequence[JournalRow]) -> None:
            events.extend(stored_events)
            journal.extend(entries)

        yield insert
        if events:
            self.insert_events(events, journal=journal)  # type: ignore[attr-defined]  # a mixin of eventsourcing's recorders, which have it

    def insert_rows(self, events: Sequence[EventRow], journal: Sequence[JournalTuple]) -> None:
        """Insert prepared event rows and their journal rows in one
        transaction (:mod:`ledger.store.bulk_rows`: the same rows the append
        path stores, made once); a taken position raises ``IntegrityError``
        and stores nothing. This default (the in-memory store) goes through
        ``insert_events``; the SQL recorders insert the tuples as they are."""
        stored = [StoredEvent(originator_id=r[0], originator_version=r[1], topic=r[2], state=r[3]) for r in events]
        entries = [
            JournalRow(position=j[1], appended_by=j[2], received_at=j[3], seal=j[4], journal_seal=j[5]) for j in journal
        ]
        self.insert_events(stored, journal=entries)  # type: ignore[attr-defined]  # a mixin of eventsourcing's recorders, which have it

    def select_journal(
        self, originator_id: UUID, after: int = -1
    ) -> list[JournalEntry]:  # pragma: no cover - interface
        """The journal rows of one aggregate sequence at positions after
        ``after`` (default: all), in position order."""
        raise NotImplementedError


__all__ = [
    "JOURNAL_TABLE",
    "InsertChunk",
    "JournalEntry",
    "JournalRecorder",
    "JournalRow",
    "journal_rows",
    "os_user",
    "received_now",
    "seal_hex",
]
