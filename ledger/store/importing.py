"""The import path: whole records stored, file by file or a folder in batches (layer 2).

A record is validated by the fold before anything is stored (FORMAT.md,
RULES.md), then stored in one transaction, or, when the game is stored and
the record begins with its events, its tail appended (FORMAT.md "A record
grows"). A folder import stores new games in batches of several games per
transaction; every way stores the same bytes, journal authors and seals as
the append path (:meth:`ledger.store.append.GameAppends.rows_for`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError

from ledger.errors import ConcurrentAppendError, GameConflictError, RecordError, RuleViolationError, conflict_message
from ledger.events import encode_event
from ledger.game_summary import ListSummary, first_at, summarize
from ledger.record_files import read_record
from ledger.records import Record
from ledger.state import TableState
from ledger.store.append import GameAppends
from ledger.store.bulk_rows import BulkRows, bulk_rows, insert_rows, row_key
from ledger.store.import_result import ImportResult, checked
from ledger.store.journal import os_user
from ledger.store.parallel import Prepared, prepared_in_order
from ledger.store.streamed import STREAM_MIN_BYTES, ReadProgress, import_streamed, streams
from ledger.stored.persistence import game_uuid
from ledger.stored.summaries import SummaryRow

#: events per transaction of a batched folder import (:meth:`GameImports.import_records`); 5,000
#: imports as fast as 20,000 (SQLite and a local PostgreSQL, RESULTS.md 2026-12-01) and holds a quarter
BULK_BATCH_EVENTS = 5_000


#: what :meth:`GameImports.import_records` yields: the source and its outcome
Outcome = tuple[Any, ImportResult | Exception]


class GameImports(GameAppends):
    """The store of game records, importing (:class:`~ledger.store.append.GameAppends`
    plus the import path); the base of :class:`ledger.store.application.LedgerApp`."""

    def import_record(self, record: Record, *, strict: bool = False, appended_by: str | None = None) -> ImportResult:
        """Store a whole record in one transaction, after validating it; or,
        when the game is stored and the record begins with its events, append
        the record's tail (FORMAT.md "A record grows").

        Returns an :class:`ImportResult` (``"stored"``, ``"appended"``, or
        ``"already_stored"`` when the same events are stored already). Raises
        :class:`RecordError` (REC-…, with line and path) for an impossible
        record, :class:`RuleViolationError` with ``strict`` (live play) when
        the record breaks a rule, and :class:`GameConflictError` when the
        stored events differ from the record's (naming the first differing
        position and line) or the stored game is longer. Nothing is stored
        unless everything is. The journal names ``appended_by`` (default
        ``"import:<os user>"``).
        """
        final, game_id = self._checked(record, strict)
        return self._import_checked(record, final, game_id, appended_by or f"import:{os_user()}")

    @staticmethod
    def _checked(record: Record, strict: bool) -> tuple[TableState, str]:
        """:func:`checked`."""
        return checked(record, strict)

    def _import_checked(self, record: Record, final: TableState, game_id: str, by: str) -> ImportResult:
        """Store a validated record (one transaction), or append its tail."""
        oid = game_uuid(game_id)
        at = first_at(record.events)
        for _attempt in range(3):  # a writer appending meanwhile: compare again
            if self.recorder.select_events(oid, limit=1):
                stored = self._compare(record, game_id)
                if stored == len(record.events):
                    return ImportResult(game_id=game_id, events=stored, status="already_stored", path=record.path)
                try:
                    self._put(game_id, oid, stored, record.events[stored:], final, by, at)
                except ConcurrentAppendError:
                    continue
                return ImportResult(
                    game_id=game_id, events=len(record.events), status="appended", path=record.path, previous=stored
                )
            try:
                self._put(game_id, oid, 0, record.events, final, by, at)
            except ConcurrentAppendError:
                continue  # another importer stored this game first: same events, a prefix or a conflict
            return ImportResult(game_id=game_id, events=len(record.events), status="stored", path=record.path)
        raise ConcurrentAppendError(game_id, self._length(oid), length=self._length(oid))

    def _compare(self, record: Record, game_id: str) -> int:
        """How many of the record's events are stored, when the stored game is
        the record or its beginning; else :class:`GameConflictError`."""
        stored = [self.mapper.plain_state(s) for s in self._stored(game_id)]
        mine = [encode_event(e) for e in record.events]
        if len(stored) <= len(mine) and stored == mine[: len(stored)]:
            return len(stored)
        diff = next((i for i, (a, b) in enumerate(zip(stored, mine)) if a != b), min(len(stored), len(mine)))
        line = record.line_of(diff)
        where = f"position {diff}" + (f", line {line}" if line is not None else "")
        raise GameConflictError(
            game_id,
            f"{len(stored)} events stored, {len(mine)} in this record, first difference at {where}",
            message=conflict_message(game_id, len(stored), len(mine), diff, line),
        )

    def import_records(
        self,
        sources: Iterable[Record | str | os.PathLike[str]],
        *,
        strict: bool = False,
        appended_by: str | None = None,
        batch_events: int = BULK_BATCH_EVENTS,
        stream_bytes: int = STREAM_MIN_BYTES,
        progress: Callable[[Any, int, int], None] | None = None,
        jobs: int = 1,
    ) -> Iterator[tuple[Record | str | os.PathLike[str], ImportResult | Exception]]:
        """Import many record files (a folder import), storing new games in
        batches: one transaction for up to ``batch_events`` events of several
        games (SQLite: one ``executemany`` of the events and one of the
        journal rows; PostgreSQL: one binary ``COPY`` of each).

        ``sources`` are :class:`~ledger.records.Record` objects or file paths
        (read with :func:`~ledger.record_files.read_record`). Yields
        ``(source, outcome)`` for each source, in the order given, once its
        batch is committed; ``outcome`` is the :class:`ImportResult` that
        :meth:`import_record` returns, or the exception it would raise:
        :class:`RecordError`, :class:`RuleViolationError`,
        :class:`GameConflictError` or ``OSError`` (a file that cannot be
        read). Any other exception (e.g. :class:`ConcurrentAppendError`
        after three lost races, as :meth:`import_record`) propagates, after
        the files before it are stored.

        Each batch is stored on a thread of its own while the next one is
        read and validated; at most one is in flight, and it is committed
        before the next is sent (:class:`_Writer`).

        The same outcome, the same stored bytes, journal authors and seals as
        :meth:`import_record` file by file, and the same order of
        notification ids (the order of ``sources``):

        - a rejected file stores nothing, and never enters a batch (every
          record is validated by the fold before it joins one);
        - a game already stored, or named twice in the folder, goes through
          :meth:`import_record` (after the batch before it is stored);
        - when a batch fails on a taken position (another writer stored one
          of its games meanwhile), nothing of it is stored and its files are
          imported one by one instead.

        A file of ``stream_bytes`` bytes or more is imported as it is read
        (:func:`ledger.store.streamed.import_streamed`: in chunks, in one
        transaction of its own, with the same outcome), after the batch
        before it is stored; while it is read, ``progress(source, bytes
        read, file size)`` is called at its start, per chunk of events and
        at its end (not per event).

        With ``jobs`` above 1, up to ``jobs`` worker processes read and
        validate the files and make their rows (:mod:`ledger.store.parallel`;
        a long file and a ``Record`` stay in this process), and this process
        stores them as above, in the order of ``sources``: the same outcomes
        and stored rows (a store with a compressor or cipher imports with one).

        Memory: at most two batches of records (``batch_events`` events each:
        the one being stored and the one being filled), or one chunk of a long
        file, are held (and with ``jobs``, :data:`~ledger.store.parallel.AHEAD` files a worker).
        """
        by = appended_by or f"import:{os_user()}"
        batch = _Batch()
        writer = _Writer(self, by, strict)

        def streamed(source: Any) -> bool:
            return not isinstance(source, Record) and _size(source) >= stream_bytes and streams(self.recorder)

        items = self._prepared(sources, jobs, strict, by, streamed)
        try:
            for source, item in items:
                if writer.ready():
                    yield from writer.settle()
                if item is not None:
                    yield from self._enqueue(source, item, batch, writer, batch_events)
                elif streamed(source):
                    yield from writer.drain(batch.take())
                    read = partial(progress, source) if progress is not None else None
                    yield source, self._streamed(source, strict, by, read)
                else:
                    yield from self._batched(source, batch, writer, strict, batch_events)
            yield from writer.drain(batch.take())
        except GeneratorExit:
            raise
        except BaseException:
            if not writer.failed:  # what came before the error is stored, as file by file
                for _ in writer.drain(batch.take()):
                    pass
            raise
        finally:
            items.close()
            writer.close()

    def _prepared(
        self, sources: Iterable[Any], jobs: int, strict: bool, by: str, streamed: Callable[[Any], bool]
    ) -> Generator[tuple[Any, Prepared | Exception | None], None, None]:
        """Each source with what worker processes made of it
        (:func:`~ledger.store.parallel.prepared_in_order`), or None: for this
        process to read (one job, a stream or a ``Record``)."""
        if jobs <= 1 or self.mapper.compressor or self.mapper.cipher:
            return ((source, None) for source in sources)
        hex_keys = row_key(self.recorder, game_uuid("")) == game_uuid("").hex

        def here(source: Any) -> bool:
            return isinstance(source, Record) or streamed(source)

        return prepared_in_order(sources, jobs, strict, by, hex_keys, here)

    def _enqueue(
        self, source: Any, item: Prepared | Exception, batch: _Batch, writer: _Writer, batch_events: int
    ) -> Iterator[Outcome]:
        """:meth:`_batched` for a file a worker read and validated."""
        if isinstance(item, Exception):
            batch.pending.append(_Pending(source, None, None, None, item))
            return
        game_id = item.game_id
        if (
            game_id in batch.names
            or game_id in writer.names
            or self.recorder.select_events(game_uuid(game_id), limit=1)
        ):
            yield from writer.drain(batch.take())
            yield source, self._again(source, writer.strict, writer.by)
            return
        batch.pending.append(
            _Pending(source, None, None, item.rows, None, game_id, item.events, item.path, item.summary)
        )
        batch.names.add(game_id)
        batch.size += item.events
        if batch.size >= batch_events:
            yield from writer.send(batch.take())

    def _again(self, source: Any, strict: bool, by: str) -> ImportResult | Exception:
        """A file imported on its own in this process (read and validated again)."""
        try:
            record = read_record(source)
            final, game_id = checked(record, strict)
            return self._import_checked(record, final, game_id, by)
        except (RecordError, RuleViolationError, GameConflictError, OSError) as exc:
            return exc

    def _batched(
        self, source: Any, batch: _Batch, writer: _Writer, strict: bool, batch_events: int
    ) -> Iterator[Outcome]:
        """Validate one source of :meth:`import_records` and add it to
        ``batch``; yields the outcomes that are due first: those of the batch
        sent before when this one is full and sent, or of both when this game
        is stored or named twice (then this source's own, through
        :meth:`import_record`'s path)."""
        try:
            record = source if isinstance(source, Record) else read_record(source)
            final, game_id = self._checked(record, strict)
        except (RecordError, RuleViolationError, OSError) as exc:
            batch.pending.append(_Pending(source, None, None, None, exc))
            return
        oid = game_uuid(game_id)
        if game_id in batch.names or game_id in writer.names or self.recorder.select_events(oid, limit=1):
            yield from writer.drain(batch.take())
            yield source, self._one(record, final, game_id, writer.by)
            return
        rows = bulk_rows(self, oid, 0, record.events, writer.by)
        line = summarize(final, first_at(record.events))
        batch.pending.append(
            _Pending(source, record, final, rows, None, game_id, len(record.events), record.path, line)
        )
        batch.names.add(game_id)
        batch.size += len(record.events)
        if batch.size >= batch_events:
            yield from writer.send(batch.take())

    def _streamed(
        self, path: str | os.PathLike[str], strict: bool, by: str, progress: ReadProgress | None
    ) -> ImportResult | Exception:
        try:
            result: ImportResult = import_streamed(self, path, strict=strict, by=by, progress=progress)
        except (RecordError, RuleViolationError, GameConflictError, OSError) as exc:
            return exc
        return result

    def _one(self, record: Record, final: TableState, game_id: str, by: str) -> ImportResult | Exception:
        try:
            return self._import_checked(record, final, game_id, by)
        except (RecordError, RuleViolationError, GameConflictError) as exc:
            return exc

    def _outcomes(self, batch: list[_Pending], together: bool, by: str, strict: bool) -> Iterator[Outcome]:
        """The outcomes of a batch whose transaction is over: ``together`` when
        it was committed, else (a position taken meanwhile, nothing of it
        stored) each of its files imported one by one."""
        for p in batch:
            if p.error is not None:
                yield p.source, p.error
            elif together:
                assert p.game_id is not None
                if p.final is not None:
                    self.remember_state(p.game_id, p.final)
                yield p.source, ImportResult(game_id=p.game_id, events=p.events, status="stored", path=p.path)
            elif p.record is not None and p.final is not None:
                yield p.source, self._one(p.record, p.final, p.final.game_id, by)
            else:  # prepared by a worker: read again here
                yield p.source, self._again(p.source, strict, by)


class _Writer:
    """Stores the batches of :meth:`GameImports.import_records`, each in one
    transaction on a thread of its own, while the main thread reads and
    validates the next batch (the store's work, SQLite's B-tree inserts or
    PostgreSQL's, overlaps the fold). At most one batch is in flight: it is
    settled (committed or failed, its outcomes yielded) before the next is
    sent, so the transactions, and the notification ids, keep the order of
    the files. ``names`` are the games of the batch in flight; ``failed`` is
    set when its transaction raised anything but ``IntegrityError`` (then
    raised again by :meth:`settle`)."""

    def __init__(self, imports: GameImports, by: str, strict: bool) -> None:
        self.imports, self.by, self.strict = imports, by, strict
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummy-import")
        self.batch: list[_Pending] = []
        self.future: Future[object] | None = None
        self.names: set[str] = set()
        self.failed = False

    def send(self, batch: list[_Pending]) -> Iterator[Outcome]:
        """Settle the batch in flight (yielding its outcomes), then start storing ``batch``."""
        yield from self.settle()
        events = [e for p in batch if p.rows is not None for e in p.rows.events]
        journal = [j for p in batch if p.rows is not None for j in p.rows.journal]
        lines = [
            (game_uuid(p.game_id), p.events, p.summary)
            for p in batch
            if p.rows is not None and p.game_id is not None and p.summary is not None
        ]
        self.batch, self.names = batch, {p.game_id for p in batch if p.rows is not None and p.game_id is not None}
        if events:
            self.future = self.pool.submit(self._store, events, journal, lines)

    def _store(self, events: list[Any], journal: list[Any], lines: list[SummaryRow]) -> None:
        """On the writer's thread: the batch's rows in one transaction, then
        (once committed) its games' list lines (:mod:`ledger.stored.summaries`)."""
        insert_rows(self.imports.recorder, events, journal)
        self.imports._summaries.write(lines)

    def ready(self) -> bool:
        """Whether a batch is waiting to be settled without waiting for the store."""
        return bool(self.batch) and (self.future is None or self.future.done())

    def settle(self) -> Iterator[Outcome]:
        """Wait for the batch in flight, if any, and yield its outcomes."""
        batch, future = self.batch, self.future
        self.batch, self.future, self.names = [], None, set()
        try:
            together = True
            if future is not None:
                try:
                    future.result()
                except IntegrityError:
                    together = False  # another writer stored one of these games meanwhile
            yield from self.imports._outcomes(batch, together, self.by, self.strict)
        except BaseException:
            self.failed = True  # nothing after this batch is stored
            raise

    def drain(self, batch: list[_Pending]) -> Iterator[Outcome]:
        """Store ``batch`` now: the outcomes of the batch in flight, then of ``batch``."""
        yield from self.send(batch)
        yield from self.settle()

    def close(self) -> None:
        """Wait for the batch in flight (an abandoned import: its outcomes are
        not yielded) and stop the thread."""
        try:
            if self.future is not None:
                with contextlib.suppress(IntegrityError):
                    self.future.result()
        finally:
            self.future = None
            self.pool.shutdown()


def _size(path: str | os.PathLike[str]) -> int:
    """The size of the file at ``path`` in bytes (-1 when it cannot be read: the whole read then says why)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return -1


class _Pending(msgspec.Struct, frozen=True):
    """A source waiting in a batch of :meth:`LedgerApp.import_records`: its
    validated record (None when a worker process read it) and prepared rows,
    its game, events and path and its games-list line (from the fold that
    validated it), or the error it raised."""

    source: Any
    record: Record | None
    final: TableState | None
    rows: BulkRows | None
    error: Exception | None
    game_id: str | None = None
    events: int = 0
    path: str | None = None
    summary: ListSummary | None = None


class _Batch:
    """The sources of :meth:`GameImports.import_records` waiting for one
    transaction: in order, the games they name and their number of events."""

    def __init__(self) -> None:
        self.pending: list[_Pending] = []
        self.names: set[str] = set()
        self.size = 0

    def take(self) -> list[_Pending]:
        """The waiting sources, in order; the batch is empty afterwards."""
        pending = self.pending
        self.pending, self.names, self.size = [], set(), 0
        return pending
