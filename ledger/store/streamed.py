"""One long record file imported as it is read (issue 17; layer 2).

A record file of :data:`STREAM_MIN_BYTES` or more is not read into a
:class:`~ledger.records.Record`: :func:`import_streamed` reads it one line at
a time, folds each event, and stores the events in chunks of
:data:`CHUNK_EVENTS` inside ONE transaction
(:meth:`ledger.store.journal.JournalRecorder.insert_chunks`). Memory is one
chunk plus the fold's state, whatever the file's size; a rejected file still
stores nothing (the transaction is rolled back), and the outcome is the one
:meth:`ledger.store.importing.GameImports.import_record` gives for the same
file read whole: the same error (a bad line anywhere before a rule's
rejection, as a whole read finds it first; then ``--strict``'s violation;
then a conflict with the stored game), the same stored bytes, journal
authors and seals (one ``received_at`` for the whole file, as one import
has), ``"stored"``, ``"appended"`` or ``"already_stored"``.

The reading can be followed (``rummy-ledger import``'s progress bar):
``progress(bytes read, file size)`` is called once the file is open, once
per :data:`CHUNK_EVENTS` events read and at its end (then bytes read is the
size), never per event.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ledger import replay as _replay
from ledger.errors import ConcurrentAppendError, GameConflictError, RecordError, RuleViolationError, conflict_message
from ledger.events import Event, GameStarted, encode_event
from ledger.records import iter_events, iter_lines
from ledger.state import TableState
from ledger.store.import_result import ImportResult
from ledger.store.journal import InsertChunk, JournalRecorder, received_now
from ledger.stored.persistence import game_uuid
from ledger.texts import N_, Message

#: record files of at least this many bytes are imported as they are read (smaller ones are read whole)
STREAM_MIN_BYTES = 4 * 1024 * 1024
#: events per insert of a streamed import (every chunk in the same transaction)
CHUNK_EVENTS = 10_000
#: stored events read per query when comparing a file with its stored game
_PAGE = 5_000

#: ``progress(done, total)`` of a streamed import: bytes of the file read so far, the file's size in bytes
ReadProgress = Callable[[int, int], None]


def streams(recorder: Any) -> bool:
    """Whether ``recorder`` can take a streamed import (one transaction of many chunks)."""
    return isinstance(recorder, JournalRecorder)


def import_streamed(
    app: Any, path: str | os.PathLike[str], *, strict: bool, by: str, progress: ReadProgress | None = None
) -> Any:
    """Import the record file at ``path`` as it is read, like
    :meth:`~ledger.store.importing.GameImports.import_record` (same outcome,
    same errors, ``by`` in the journal), telling ``progress`` (bytes read,
    file size) at the start, per :data:`CHUNK_EVENTS` events read and at the
    end of the file (a retry starts again at 0). Returns the
    :class:`~ledger.store.import_result.ImportResult`; raises
    :class:`RecordError`, :class:`RuleViolationError`,
    :class:`GameConflictError`, ``OSError``, or
    :class:`ConcurrentAppendError` after three lost races with other writers."""
    for _attempt in range(3):
        try:
            return _import_once(app, os.fspath(path), strict, by, progress)
        except ConcurrentAppendError as exc:
            last = exc
    raise last


def _import_once(app: Any, path: str, strict: bool, by: str, progress: ReadProgress | None) -> Any:
    with open(path, "rb") as fh:
        run = _Run(app, path, by)
        if progress is not None:
            size = os.fstat(fh.fileno()).st_size
            run.report = lambda: progress(fh.tell(), size)
            run.report()
        try:
            with ExitStack() as stack:  # the transaction, opened by the first chunk
                final, count = run.fold(_located(iter_events(fh), path), stack, strict)
        except IntegrityError:  # a position taken by another writer: nothing of this file is stored
            raise ConcurrentAppendError(run.game_id, run.stored, length=app.game_length(run.game_id)) from None
    if run.stored == count:
        return ImportResult(game_id=run.game_id, events=count, status="already_stored", path=path)
    app.remember_state(run.game_id, final)
    app.write_summary(run.game_id, count, final, run.first_at)  # its games-list line, from this fold
    if run.stored == 0:
        return ImportResult(game_id=run.game_id, events=count, status="stored", path=path)
    return ImportResult(game_id=run.game_id, events=count, status="appended", path=path, previous=run.stored)


def _located(events: Iterator[tuple[int, Event]], path: str) -> Iterator[tuple[int, Event]]:
    """``events`` with a bad line's :class:`RecordError` naming ``path``, and
    text that is not UTF-8 a ``REC-FORMAT`` error (as :func:`~ledger.records.parse_record`)."""
    try:
        yield from events
    except RecordError as err:
        raise err.with_location(path=path) from None
    except UnicodeDecodeError as err:
        raise RecordError(
            "REC-FORMAT", Message(N_("not UTF-8 text (%(reason)s)"), reason=err.reason), path=path
        ) from None


class _Run:
    """One pass of :func:`import_streamed` over a file: the game it names,
    how much of it is stored, the chunk waiting to be inserted."""

    def __init__(self, app: Any, path: str, by: str) -> None:
        self.app, self.path, self.by = app, path, by
        self.received = received_now()
        self.game_id = ""
        self.oid = game_uuid("")
        self.stored = 0
        self.chunk: list[Event] = []
        self.first = 0  # the position of the chunk's first event
        self.previous: tuple[bytes | None, bytes | None] | None = None  # the seals of position first - 1
        self.insert: InsertChunk | None = None
        self.report: Callable[[], None] | None = None  # tells the progress of the reading (bytes read, size)
        self.first_at: str | None = None  # the first `at` of the file's events (the games list's date)

    def fold(self, events: Iterator[tuple[int, Event]], stack: ExitStack, strict: bool) -> tuple[TableState, int]:
        """Fold, compare and store every event of ``events``; ``(final state,
        number of events)``. The transaction is opened (on ``stack``) with the
        first chunk to insert; :attr:`report` is called every
        :data:`CHUNK_EVENTS` events read and at the end of the file."""
        state: TableState | None = None
        rejected: RecordError | None = None
        conflict: tuple[int, int | None] | None = None  # (position, line) of the first difference
        stored_lines: Iterator[bytes] = iter(())
        count = 0
        report = self.report
        report_at = CHUNK_EVENTS if report is not None else -1  # the count at which to report next (-1: never)
        for line, event in events:
            position = count
            count += 1
            if count == report_at and report is not None:
                report_at += CHUNK_EVENTS
                report()
            if rejected is not None:
                continue  # read on: a bad line further down is what a whole read reports
            if self.first_at is None and event.at:
                self.first_at = event.at
            try:
                state = _replay.evolve(state, event)
            except RecordError as err:
                rejected = self._rejection(err, position, line)
                continue
            if position == 0:
                stored_lines = self._open(event)
            if conflict is not None:
                continue
            if position < self.stored:
                if next(stored_lines, None) != encode_event(event):
                    conflict = (position, line)
                continue
            self.chunk.append(event)
            if len(self.chunk) >= CHUNK_EVENTS:
                self._flush(stack)
        if report is not None:
            report()  # the end of the file: every byte read
        if rejected is not None:
            raise rejected
        if state is None:
            raise RecordError("REC-FORMAT", "no events: a record starts with game_started", line=1, path=self.path)
        if strict and state.findings:
            earliest = min(state.findings, key=lambda f: f.position)
            raise RuleViolationError(
                earliest, len(state.findings), line=self._line_of(earliest.position), path=self.path
            )
        if conflict is None and self.stored > count:
            conflict = (count, None)
        if conflict is not None:
            where = f"position {conflict[0]}" + (f", line {conflict[1]}" if conflict[1] is not None else "")
            raise GameConflictError(
                self.game_id,
                f"{self.stored} events stored, {count} in this record, first difference at {where}",
                message=conflict_message(self.game_id, self.stored, count, conflict[0], conflict[1]),
            )
        self._flush(stack)
        return state, count

    def _open(self, head: Event) -> Iterator[bytes]:
        """The game named by ``head`` (a ``game_started``: the fold accepted
        it): its id, stored length, and the stored events' bytes to compare."""
        assert isinstance(head, GameStarted)
        self.game_id = head.game_id
        self.oid = game_uuid(head.game_id)
        self.stored = self.app.game_length(self.game_id)
        self.first = self.stored
        return _stored_lines(self.app, self.oid, self.stored)

    def _flush(self, stack: ExitStack) -> None:
        """Insert the waiting chunk (opening the transaction first)."""
        if not self.chunk:
            return
        if self.insert is None:
            self.insert = stack.enter_context(self.app.recorder.insert_chunks())
        domain_events, journal = self.app.rows_for(
            self.oid, self.first, self.chunk, self.by, self.received, self.previous
        )
        self.insert([self.app.mapper.to_stored_event(e) for e in domain_events], journal)
        self.previous = (journal[-1].seal, journal[-1].journal_seal)
        self.first += len(self.chunk)
        self.chunk = []

    def _rejection(self, err: RecordError, position: int, line: int) -> RecordError:
        """``err`` located at its event's file line (the current one, or read again)."""
        if err.position is None:
            return err.with_location(path=self.path)
        where = line if err.position == position else self._line_of(err.position)
        return err.with_location(line=where, path=self.path)

    def _line_of(self, position: int | None) -> int | None:
        """The file line of the event at ``position``, read again from the
        file (rare: a rejection or finding about an earlier event)."""
        if position is None or position < 0:
            return None
        with open(self.path, "rb") as fh:
            for i, (line, _raw) in enumerate(iter_lines(fh)):
                if i == position:
                    return line
        return None


def _stored_lines(app: Any, oid: UUID, length: int) -> Iterator[bytes]:
    """The canonical bytes of the first ``length`` stored events of ``oid``,
    a page at a time."""
    version = 0
    while version < length:
        page = app.recorder.select_events(oid, gt=version, lte=length, limit=_PAGE)
        if not page:
            return
        for stored in page:
            yield app.mapper.plain_state(stored)
        version = page[-1].originator_version
