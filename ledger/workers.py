"""Forked worker processes for the commands that use every core: ``import --jobs``,
``verify --jobs`` and ``analytics update --jobs`` (layer 2).

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
ignores it. Imports nothing of the project (:mod:`ledger.store.parallel`,
:mod:`ledger.sealing.verify_jobs` and :mod:`ledger.projections.folds` use it).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: seconds between a worker's checks that its starting process is still there
ORPHAN_POLL = 0.5


def usable_cores() -> int:
    """The processors this process may run on (``os.sched_getaffinity``), else ``os.cpu_count()``."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def worker_count(requested: int | None, items: int, *, worth_it: bool) -> int:
    """How many worker processes a command runs for ``items`` files or games:
    ``requested`` (``--jobs N``, N ≥ 1) when given, else :func:`usable_cores`
    when the work is ``worth_it`` (large enough to repay starting workers),
    else 1; never more than ``items``. 1 means the one process, no worker.

    >>> worker_count(3, 2, worth_it=False), worker_count(None, 0, worth_it=True), worker_count(None, 5, worth_it=False)
    (2, 1, 1)
    """
    if requested is None:
        requested = usable_cores() if worth_it else 1
    return max(1, min(requested, items))


def fork_pool(
    jobs: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    *,
    fresh_if_threaded: bool = False,
) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes (≥ 1) started by :func:`started`
    in this process's name (see the module), each then running
    ``initializer(*initargs)`` when given (``initargs`` pickled where the
    workers are not forked from this process). Shut it down when done
    (``pool.shutdown(wait=True, cancel_futures=True)``).

    ``fresh_if_threaded``: for workers that open SQLite themselves. A fork
    copies the locks other threads hold at that moment (SQLite's own
    mutexes among them) and not the threads that would release them, so a
    worker forked from a process with more than one thread (:func:`threads`:
    a server, a test runner) could wait on a copied lock forever; such a
    process gets workers from a fresh ``forkserver`` process instead (a
    start of about half a second, the tasks and results pickled). The
    command line's processes have one thread when they fork, and fork."""
    methods = multiprocessing.get_all_start_methods()
    method = "fork" if "fork" in methods else None
    if fresh_if_threaded and "forkserver" in methods and threads() > 1:
        method = "forkserver"
    context = multiprocessing.get_context(method)
    return ProcessPoolExecutor(
        jobs, mp_context=context, initializer=started, initargs=(os.getpid(), initializer, *initargs)
    )


def threads() -> int:
    """The threads of this process, the native ones included (``/proc/self/task``
    where there is one, else Python's :func:`threading.active_count`)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # pragma: no cover - not on Linux
        return threading.active_count()


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


def started(parent: int, initializer: Callable[..., None] | None = None, *initargs: Any) -> None:
    """A worker's start (the pool's initializer): Ctrl-C (sent to the whole
    process group) is the starting process's (``parent``); the worker leaves
    once that process is gone; then ``initializer(*initargs)``, if any."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_leave_when_orphaned, args=(parent, os.getppid()), name="orphan-watch", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _leave_when_orphaned(parent: int, first_parent: int) -> None:
    """In a worker: exit (status 1, nothing flushed: no output is the worker's)
    once ``parent`` (the process that made the pool) is gone or this worker's
    parent process is no longer ``first_parent`` (``parent`` itself when
    forked from it, else the fork server, which leaves with it): the worker
    was re-parented."""
    while os.getppid() == first_parent and _alive(parent):
        time.sleep(ORPHAN_POLL)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process took the id
        return False
    return True


__all__ = ["ORPHAN_POLL", "fork_pool", "sigint_held", "started", "threads", "usable_cores", "worker_count"]
