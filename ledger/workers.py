"""Forked worker processes for the commands that use every core: ``import --jobs`` and ``verify --jobs`` (layer 2).

:func:`fork_pool` is a ``ProcessPoolExecutor`` of forked workers (the
``fork`` start method where the platform has it: a worker starts with the
command's modules already imported) that leave Ctrl-C to the process that
started them and leave themselves once it is gone:

- a worker ignores ``SIGINT`` (sent by a terminal's Ctrl-C to the whole
  process group): the starting process says "interrupted" in one line and
  exits 130; the workers finish their task and stop as the pool shuts down;
- a worker whose starting process is gone (killed with ``SIGKILL``, which
  nothing can catch) exits within :data:`ORPHAN_POLL` seconds instead of
  waiting for work forever (its siblings hold the work queue's write end).

Submit the first task inside :func:`sigint_held`: the workers are forked
then, and one forked while a Ctrl-C arrives must not take it before it
ignores it. Imports nothing of the project (both :mod:`ledger.store.parallel`
and :mod:`ledger.sealing.verify_jobs` use it).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

#: seconds between a worker's checks that its starting process is still there
ORPHAN_POLL = 0.5


def usable_cores() -> int:
    """The processors this process may run on (``os.sched_getaffinity``), else ``os.cpu_count()``."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def fork_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes (≥ 1) started by :func:`started`
    in this process's name (see the module). Shut it down when done
    (``pool.shutdown(wait=True, cancel_futures=True)``)."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=started, initargs=(os.getpid(),))


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """``SIGINT`` blocked in this thread while the block runs (a Ctrl-C then
    comes after it): a worker forked meanwhile starts with it blocked, so a
    Ctrl-C at that moment cannot reach it before :func:`started` ignores it."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def started(parent: int) -> None:
    """A worker's start (the pool's initializer): Ctrl-C (sent to the whole
    process group) is the starting process's (``parent``); the worker leaves
    once that process is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_leave_when_orphaned, args=(parent,), name="orphan-watch", daemon=True).start()


def _leave_when_orphaned(parent: int) -> None:
    """In a worker: exit (status 1, nothing flushed: no output is the worker's)
    once ``parent`` is no longer its parent process (it died; the worker was
    re-parented)."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL)
    os._exit(1)


__all__ = ["ORPHAN_POLL", "fork_pool", "sigint_held", "started", "usable_cores"]
