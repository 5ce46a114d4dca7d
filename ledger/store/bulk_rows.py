"""The rows of a bulk insert, made once: a batched import's event rows and journal rows (layer 2).

The append path stores a game through eventsourcing's ``EventStore.put``:
one :class:`~ledger.stored.persistence.GameEvent` per event, mapped to a
``StoredEvent`` (:class:`~ledger.stored.persistence.MsgspecMapper`), whose
fields the recorder copies into a parameter tuple; a
:class:`~ledger.store.journal.JournalRow` per event, copied into a second
tuple. A folder import stores hundreds of thousands of events: there
:func:`bulk_rows` makes the two parameter tuples directly, once per event,
and the recorder inserts them as they are
(``JournalRecorder.insert_rows``: SQLite ``executemany``, PostgreSQL binary
``COPY``, in one transaction).

The rows are exactly those of the append path (tests/test_bulk_import.py
compares stores): the event row ``(originator id, position + 1, topic,
state)`` with the state the mapper would store (the canonical JSON of
:func:`ledger.events.encode_event`, compressed and encrypted when the store
is configured so), and the journal row ``(originator id, position,
appended_by, received_at, seal, journal link or None)`` with the seals of
:func:`ledger.sealing.witness.seal_batch` (FORMAT.md "Seal"). The originator id
is as the recorder keeps it (:func:`row_key`: SQLite the UUID's hex text,
PostgreSQL and the in-memory store the ``UUID``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.utils import get_topic

from ledger.events import Event, encode_event
from ledger.sealing.witness import seal_batch
from ledger.store.journal import received_now
from ledger.store.journal_rows import EventRow, JournalTuple
from ledger.stored.persistence import TOPICS


class BulkRows(NamedTuple):
    """The rows that store some events of one or more games: ``events`` and
    ``journal`` in the same order, one of each per event."""

    events: list[EventRow]
    journal: list[JournalTuple]

    @property
    def last_seals(self) -> tuple[bytes | None, bytes | None]:
        """The seal and journal link of the last row (the ``previous`` of the next call)."""
        last = self.journal[-1]
        return last[4], last[5]


def row_key(recorder: Any, oid: UUID) -> Any:
    """``oid`` as ``recorder``'s tables keep it: SQLite the hex text, else the UUID."""
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    return oid.hex if isinstance(recorder, SQLiteApplicationRecorder) else oid


def bulk_rows(
    app: Any,
    oid: UUID,
    first: int,
    events: Sequence[Event],
    appended_by: str,
    received: str | None = None,
    previous: tuple[bytes | None, bytes | None] | None = None,
    *,
    key: Any = None,
) -> BulkRows:
    """The event and journal rows that store ``events`` at positions
    ``first``… of game ``oid`` in ``app``'s store, as one append call of
    ``appended_by`` at ``received`` (default: now), sealed from the stored
    seals of position ``first - 1`` or from ``previous``
    (:func:`~ledger.sealing.witness.seal_batch`, which raises ``SealError``).

    ``app`` may be None for a new game (``first`` 0) with ``key`` given and
    neither compressor nor cipher (a worker process of a parallel import,
    :mod:`ledger.store.parallel`, which has no store)."""
    received = received or received_now()
    lines = [encode_event(e) for e in events]
    seals, link = seal_batch(app, oid, first, lines, appended_by, received, previous)
    if key is None:
        key = row_key(app.recorder, oid)
    mapper = app.mapper if app is not None else None
    states: Sequence[bytes] = lines
    if mapper is not None and (mapper.compressor or mapper.cipher):  # as MsgspecMapper.to_stored_event stores it
        states = [mapper.stored_state(line) for line in lines]
    topics = TOPICS
    rows = [
        (key, first + i, topics.get(type(e)) or get_topic(type(e)), state)
        for i, (e, state) in enumerate(zip(events, states), 1)
    ]
    journal: list[JournalTuple] = [(key, first + i, appended_by, received, s, None) for i, s in enumerate(seals)]
    if journal:  # the call's journal link, on its last row
        journal[-1] = journal[-1][:5] + (link,)
    return BulkRows(rows, journal)


def insert_rows(recorder: Any, events: Sequence[EventRow], journal: Sequence[JournalTuple]) -> None:
    """Insert rows of :func:`bulk_rows` in one transaction
    (``JournalRecorder.insert_rows``); a recorder without a journal (an
    eventsourcing store rummy-ledger does not know) gets the event rows through
    its ``insert_events``. A taken position raises ``IntegrityError``, nothing stored."""
    from eventsourcing.persistence import StoredEvent

    from ledger.store.journal import JournalRecorder

    if isinstance(recorder, JournalRecorder):
        recorder.insert_rows(events, journal)
        return
    recorder.insert_events(
        [StoredEvent(originator_id=r[0], originator_version=r[1], topic=r[2], state=r[3]) for r in events]
    )
