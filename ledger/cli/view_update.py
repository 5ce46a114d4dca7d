"""Bringing the analytics view up to date from the command line: where the
view is (:func:`view_path`) and :func:`run_update`, with a progress bar on a
terminal. Used by ``analytics update``, ``export --partition``, ``stats`` and
``import`` (:mod:`ledger.cli.analytics`, :mod:`ledger.cli.partitioned`,
:mod:`ledger.cli.stats`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ledger.projections import analytics_path, update
from ledger.projections.analytics import DEFAULT_BATCH, UpdateResult
from ledger.store.journal import read_cache

#: a progress bar is shown when an update has at least this many notifications to apply
PROGRESS_MIN_EVENTS = 20_000


def err_console() -> Console:
    """A console on stderr, with no markup or highlighting (the view's progress and messages)."""
    return Console(stderr=True, highlight=False, markup=False, emoji=False)


def view_path(ctx: click.Context, analytics: str | None) -> str:
    """The analytics view's path: ``--analytics``, else the store's (:func:`ledger.projections.analytics_path`)."""
    return analytics or analytics_path(getattr(ctx.obj, "db", None))


@contextmanager
def _progress(label: str, enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on stderr (only on a terminal); yields ``advance(done, total)``."""
    console = err_console()
    if not (enabled and console.is_terminal):
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def run_update(
    app: Any,
    path: str,
    *,
    rebuild: bool = False,
    batch: int = DEFAULT_BATCH,
    wait: float | None = None,
    progress: bool = True,
    jobs: int = 1,
) -> UpdateResult:
    """Update the view at ``path`` from ``app``'s store, with a progress bar
    for large updates on a terminal; a SQLite store's page cache is SQLite's
    default meanwhile (:func:`ledger.store.journal.read_cache`). ``jobs``: worker
    processes folding the games (:func:`ledger.projections.analytics.catch_up`)."""
    last = app.changes.newest()
    with read_cache(app), _progress("analytics", progress and last >= PROGRESS_MIN_EVENTS) as advance:
        return update(app, path, batch_size=batch, wait=wait, rebuild=rebuild, progress=advance, jobs=jobs)


__all__ = ["PROGRESS_MIN_EVENTS", "err_console", "run_update", "view_path"]
