"""Whether this process was sent SIGINT (issue 27, defect 7): remembered by the console
script's handler (:func:`ledger.console.main` installs :func:`remember`), read by the
command's guard (:class:`ledger.cli._Guarded`) when a library turned the Ctrl-C into an
error of its own (DuckDB's ``Query interrupted``). Imports nothing of the project, so the CLI
reads it without importing the console script (which imports the CLI).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_seen = [False]


def remember(signum: int, frame: Any) -> None:
    """Python's own Ctrl-C (``KeyboardInterrupt``), remembered: a library
    that turns it into an error of its own (DuckDB's ``Query interrupted``)
    is still an interrupt to the command's guard (:func:`interrupted`)."""
    _seen[0] = True
    signal.default_int_handler(signum, frame)


def interrupted() -> bool:
    """True once this process was sent SIGINT (under :func:`ledger.console.main`).

    >>> interrupted()
    False
    """
    return _seen[0]


@contextmanager
def deferred() -> Iterator[None]:
    """SIGINT held back while the block runs (the import of a command's modules:
    a ``KeyboardInterrupt`` raised inside an extension's initialisation, such as
    DuckDB's, is printed by it as a traceback); a Ctrl-C meanwhile is delivered as
    the block ends, where the command's guard turns it into one line. Outside the
    main thread, or where signals cannot be masked, the block runs as it is."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


__all__ = ["deferred", "interrupted", "remember"]
