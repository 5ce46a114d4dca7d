"""A folder import on several cores: files read, validated and made into rows by worker processes (layer 2).

``rummy-ledger import --jobs N`` (:meth:`ledger.store.importing.GameImports.import_records`
with ``jobs``): up to ``N`` worker processes each take one record file at a
time, read and decode it (:func:`ledger.record_files.read_record`), fold it
(:func:`ledger.store.import_result.checked`: the same checks, ``--strict`` too)
and, for a game that would be new, make its rows and seals
(:func:`ledger.store.bulk_rows.bulk_rows` from position 0: a new game's seal
chain starts from the chain prefix and needs no stored seal, FORMAT.md
"Seal"). The one process that holds the store receives the outcomes in the
order of the files (:func:`prepared_in_order`) and stores them as the
one-process import does, in batches across games, in that order: the same
stored bytes, journal rows, seals, notification order and outcomes.

What a worker sends back for a file is a :class:`Prepared` (the rows), or
the error the file was rejected with (``RecordError``,
``RuleViolationError``, ``OSError``: the same exception, rebuilt by
:func:`_rebuilt`; a rejected file stores nothing). A game already stored, or
named twice, is imported again by the storing process (compared with the
stored events, or its tail appended) as one file.

Memory: at most ``AHEAD`` files per worker are prepared ahead of the one
being stored. The workers are :func:`ledger.workers.fork_pool`'s: a worker
ignores ``SIGINT`` (Ctrl-C is the storing process's: one line, exit 130;
the workers finish their file and stop), and one whose storing process is
gone (killed with ``SIGKILL``, which nothing can catch) exits within
:data:`ledger.workers.ORPHAN_POLL` seconds instead of waiting for work forever.

How many workers: :func:`import_jobs` (``--jobs``, default the usable cores).
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future
from typing import Any, NamedTuple

from ledger.errors import LedgerError, RecordError, RuleViolationError
from ledger.game_summary import ListSummary, first_at, summarize
from ledger.record_files import read_record
from ledger.store.bulk_rows import BulkRows, bulk_rows
from ledger.store.import_result import checked
from ledger.stored.persistence import game_uuid
from ledger.workers import fork_pool, sigint_held, worker_count

#: files prepared ahead per worker (bounds the memory held by finished, not yet stored files)
AHEAD = 4
#: bytes of record files under which an import without ``--jobs`` runs in one process:
#: the fold of so little takes less than starting workers saves (about 0.6 s of the CLI's
#: start either way for fixtures/)
PARALLEL_MIN_BYTES = 1 << 20


class Prepared(NamedTuple):
    """A file a worker read and validated: its game, number of events, path,
    the rows that store it as a new game and its games-list line (from the
    worker's fold, :mod:`ledger.stored.summaries`)."""

    game_id: str
    events: int
    path: str | None
    rows: BulkRows
    summary: ListSummary | None = None


def import_jobs(requested: int | None, files: Sequence[Any]) -> int:
    """The worker processes of an import of ``files`` (paths): ``requested``
    (``--jobs N``, N ≥ 1) when given, else :func:`ledger.workers.usable_cores` once the files
    hold :data:`PARALLEL_MIN_BYTES` bytes or more, else 1; never more than
    the files. 1 means this process alone (no worker). A path that cannot be
    read counts 0 bytes (its error is the import's to report).

    >>> import_jobs(3, ["a", "b"]), import_jobs(1, ["a", "b"]), import_jobs(None, []), import_jobs(None, ["/nope"])
    (2, 1, 1, 1)
    """
    if requested is not None:
        return worker_count(requested, len(files), worth_it=True)
    size = 0
    for f in files:
        with contextlib.suppress(OSError, TypeError, ValueError):
            size += os.stat(f).st_size
        if size >= PARALLEL_MIN_BYTES:
            break
    return worker_count(None, len(files), worth_it=size >= PARALLEL_MIN_BYTES)


def prepared_in_order(
    sources: Iterable[Any],
    jobs: int,
    strict: bool,
    by: str,
    hex_keys: bool,
    here: Callable[[Any], bool],
) -> Generator[tuple[Any, Prepared | Exception | None], None, None]:
    """``(source, outcome)`` for each of ``sources`` in order: a
    :class:`Prepared` or the file's error from a worker, or None for a source
    that ``here(source)`` keeps for this process (a long file, streamed; a
    :class:`~ledger.records.Record` already read). ``hex_keys``: the store
    keys games by the UUID's hex (SQLite). The pool is shut down when the
    iteration ends or is abandoned (a worker's current file finishes)."""
    pool = fork_pool(jobs)
    window: deque[tuple[Any, Future[Any] | None]] = deque()
    pending = iter(sources)
    try:
        with sigint_held():  # the workers are forked at the first submit
            first = next(pending, _END)
            if first is not _END:
                window.append((first, None if here(first) else pool.submit(_prepare, first, strict, by, hex_keys)))
        while True:
            while len(window) < jobs * AHEAD:
                source = next(pending, _END)
                if source is _END:
                    break
                window.append((source, None if here(source) else pool.submit(_prepare, source, strict, by, hex_keys)))
            if not window:
                return
            source, future = window.popleft()
            yield source, (None if future is None else _received(future.result()))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


_END = object()


def _prepare(source: Any, strict: bool, by: str, hex_keys: bool) -> Prepared | Exception | tuple[Any, ...]:
    """In a worker: one file read, validated and made into rows (or its error)."""
    try:
        record = read_record(source)
        final, game_id = checked(record, strict)
    except (RecordError, RuleViolationError) as exc:
        return _portable(exc)
    except OSError as exc:
        return exc
    oid = game_uuid(game_id)
    rows = bulk_rows(None, oid, 0, record.events, by, key=oid.hex if hex_keys else oid)
    return Prepared(game_id, len(record.events), record.path, rows, summarize(final, first_at(record.events)))


def _portable(exc: LedgerError) -> tuple[Any, ...]:
    """A ledger error as it crosses to the storing process (its class takes
    other arguments than its ``args``, so it does not pickle as it is)."""
    return (type(exc), exc.args, dict(vars(exc)))


def _received(outcome: Any) -> Prepared | Exception:
    return _rebuilt(outcome) if isinstance(outcome, tuple) and not isinstance(outcome, Prepared) else outcome


def _rebuilt(portable: tuple[Any, ...]) -> Exception:
    """The error :func:`_portable` sent: the same class and attributes (the same message)."""
    cls, args, attributes = portable
    exc: Exception = cls.__new__(cls)
    exc.args = args
    vars(exc).update(attributes)
    return exc
