"""``verify --jobs N``: the stored chains checked by worker processes, yielded in order (issue 28; layer 2).

:func:`checked_in_order` splits the games to verify (:func:`ledger.sealing.verify.game_keys`)
into contiguous chunks. Each worker of :func:`ledger.workers.fork_pool`
opens its own read connection to the same store (``opener``: the command's
own way of opening it, a SQLite file or a PostgreSQL schema) and checks a
chunk as one process does: :func:`ledger.sealing.verify.verify_games`
(the fast read, the row-by-row check of what it cannot verify, stray
sequences) and :func:`ledger.sealing.verify_lines.lines_checked` (the
games-list lines, read once by this process before the chunks are sent,
and with ``deep`` the fold of each game). The results come back as
:class:`~ledger.sealing.verify_rows.GameCheck` objects (their messages keep
their msgids: the Italian output is rendered here, as with one process),
yielded in the order of the games: the output is the one-process output.

Memory: at most :data:`AHEAD` chunks per worker are checked ahead of the
one being yielded. Ctrl-C and a killed parent: :mod:`ledger.workers`.

How many workers: :func:`verify_jobs` (``--jobs``, default the usable
cores for a store of :data:`PARALLEL_MIN_EVENTS` events or more).
"""

from __future__ import annotations

import math
import multiprocessing.util
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any

from ledger.sealing.verify import verify_games
from ledger.sealing.verify_lines import lines_checked, stored_lines
from ledger.sealing.verify_rows import GameCheck
from ledger.stored.persistence import hex_id
from ledger.workers import fork_pool, sigint_held, worker_count

#: chunks checked ahead per worker (bounds the results held before they are printed)
AHEAD = 4
#: at most this many games a chunk (four fast reads of ``FAST_BATCH``); fewer when
#: that gives each worker fewer than :data:`SHARES` chunks
CHUNK = 200
#: chunks per worker at least, where the games allow (the last chunks finish close together)
SHARES = 4
#: events (the store's highest notification id) under which a ``verify`` without ``--jobs``
#: runs in one process. Measured in process on this 2-core machine (bench_seal stores, load
#: about 3): two workers cost about 0.025 s to start and open their connections (5,772 events:
#: 0.035 s against 0.012 s alone; 20,202: 0.075 against 0.042) while one process checks about
#: 2.3 µs an event, so two workers pay from about 22,000 events on idle cores; twice that for margin
PARALLEL_MIN_EVENTS = 50_000
#: … and games: each worker gets a few chunks of at least one game
PARALLEL_MIN_GAMES = 8


def verify_jobs(requested: int | None, games: int, events: int) -> int:
    """The worker processes of a ``verify`` of ``games`` games in a store of
    ``events`` events: ``requested`` (``--jobs N``, N ≥ 1) when given, else
    :func:`ledger.workers.usable_cores` from :data:`PARALLEL_MIN_EVENTS`
    events and :data:`PARALLEL_MIN_GAMES` games, else 1; never more than
    the games. 1 means this process alone (no worker).

    >>> verify_jobs(3, 2, 0), verify_jobs(1, 500, 10**6), verify_jobs(None, 0, 0), verify_jobs(None, 500, 4_000)
    (2, 1, 1, 1)
    """
    return worker_count(requested, games, worth_it=events >= PARALLEL_MIN_EVENTS and games >= PARALLEL_MIN_GAMES)


def chunks(targets: Sequence[Any], jobs: int) -> list[Sequence[Any]]:
    """``targets`` cut into contiguous chunks of at most :data:`CHUNK`, and
    at least :data:`SHARES` per worker where there are the games for it.

    >>> [len(c) for c in chunks(range(10), 2)], [len(c) for c in chunks(range(1000), 2)][:2]
    ([2, 2, 2, 2, 2], [125, 125])
    """
    size = max(1, min(CHUNK, math.ceil(len(targets) / (jobs * SHARES))))
    return [targets[i : i + size] for i in range(0, len(targets), size)]


def checked_in_order(
    app: Any,
    opener: Callable[[], Any],
    targets: Sequence[tuple[Any, str | None]],
    *,
    deep: bool,
    jobs: int,
) -> Iterator[GameCheck]:
    """The :class:`GameCheck` of each of ``targets`` in order, as
    ``lines_checked(app, verify_games(app, targets, deep=deep), deep=deep)``
    gives them, from ``jobs`` workers (≥ 1) that each open the store with
    ``opener()`` (picklable: sent with each chunk; a store that cannot be
    opened or read raises its error here). The pool is shut down when the
    iteration ends or is abandoned (each worker's current chunk finishes)."""
    lines = stored_lines(app)
    pending = iter(chunks(targets, jobs))
    window: deque[Future[list[GameCheck]]] = deque()
    pool = fork_pool(jobs, fresh_if_threaded=True)  # each worker opens the store: SQLite's locks

    def submit() -> bool:
        chunk = next(pending, None)
        if chunk is None:
            return False
        mine = {h: lines[h] for key, _name in chunk if (h := hex_id(key)) in lines}
        window.append(pool.submit(_check_chunk, opener, chunk, deep, mine))
        return True

    try:
        with sigint_held():  # the workers are forked at the first submit
            submit()
        while True:
            while len(window) < jobs * AHEAD and submit():
                pass
            if not window:
                return
            yield from window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


#: a worker's store, opened by its first chunk
_opened: list[Any] = []


def _check_chunk(
    opener: Callable[[], Any],
    chunk: Sequence[tuple[Any, str | None]],
    deep: bool,
    lines: dict[str, Any],
) -> list[GameCheck]:
    """In a worker: one chunk's checks (its store opened on the first chunk,
    closed as the worker exits)."""
    if not _opened:
        app = opener()
        _opened.append(app)
        multiprocessing.util.Finalize(app, app.close, exitpriority=10)
    app = _opened[0]
    return list(lines_checked(app, verify_games(app, chunk, deep=deep), deep=deep, lines=lines))


__all__ = ["AHEAD", "CHUNK", "PARALLEL_MIN_EVENTS", "PARALLEL_MIN_GAMES", "checked_in_order", "chunks", "verify_jobs"]
