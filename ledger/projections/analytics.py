"""The analytics projection: store notifications -> DuckDB rows, exactly once.

:class:`AnalyticsProjection` is an eventsourcing
:class:`~eventsourcing.projection.Projection` over a
:class:`~ledger.projections.duckdb_recorder.DuckDBTrackingRecorder`. Scores
and findings need the whole game, so a game's rows are *rebuilt* from its
full event list whenever one of its events is processed: the earlier events
come from the view's own ``events`` table (their canonical JSON), the new ones
from the notifications; the game's old rows are deleted and the new rows and
the tracking position written in one DuckDB transaction
(:meth:`~ledger.projections.duckdb_recorder.DuckDBTrackingRecorder.replace_games`).
A game with a run of :data:`~ledger.projections.long_game.LONG_GAME_EVENTS`
or more notifications is projected in chunks instead
(:mod:`ledger.projections.long_game`: the same rows, bounded memory).

:func:`catch_up` pulls notifications from the application's notification log
in batches (the SQLite recorder cannot ``subscribe()``; it works the same on
PostgreSQL) and applies each batch as one transaction: a crash loses at most
the batch in flight, and the next run starts after the last tracked id. With
``jobs`` above 1 the games of each batch are folded by worker processes
(:mod:`ledger.projections.folds`), this process still writing each batch as
one transaction, in order.
:func:`follow` runs the same projection under eventsourcing's
``ProjectionRunner`` machinery where the store can push notifications
(PostgreSQL).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import takewhile
from pathlib import Path
from types import EllipsisType
from typing import Any

import duckdb
import msgspec
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.projection import BaseProjectionRunner, Projection

from ledger.events import Event
from ledger.projections.duckdb_recorder import DuckDBTrackingRecorder, default_wait
from ledger.projections.folds import FoldPool, checked_positions, game_built
from ledger.projections.long_game import LONG_GAME_EVENTS, project_long_game
from ledger.projections.notifications import domain_event_or_undecodable, oid_hex
from ledger.projections.rows import Rows, empty_rows, game_rows
from ledger.store.application import LedgerApp
from ledger.store.settings import store_env
from ledger.tournament.events import TournamentEvent

ANALYTICS_ENV_VAR = "RUMMY_LEDGER_ANALYTICS"
ANALYTICS_SUFFIX = ".analytics.duckdb"
DEFAULT_BATCH = 5000
#: DuckDB's memory limit while the view is updated (its buffer pool: without it the blocks an update
#: reads back and writes stay cached toward 80 % of RAM; bench/RESULTS.md, figure 5 of the CLI)
DUCKDB_MEMORY = "64MB"

Progress = Callable[[int, int], None]


class UpdateResult(msgspec.Struct, frozen=True, kw_only=True):
    """What :func:`catch_up` did: notifications applied, games (re)built,
    batches (transactions), and the tracked notification id at the end."""

    path: str
    notifications: int
    games: int
    batches: int
    position: int | None
    rebuilt: bool = False
    #: ``(game, why)`` of each game the projection could not build rows for:
    #: the view holds its ``games`` row (``error`` set) and its events' JSON only
    skipped: tuple[tuple[str, str], ...] = ()


def analytics_path(db: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Where the DuckDB file of the store named by ``db`` lives.

    ``RUMMY_LEDGER_ANALYTICS`` when set; else beside a SQLite store, named
    after it (``games/ledger.db`` -> ``games/ledger.analytics.duckdb``); for a
    PostgreSQL store ``./<dbname>[-<schema>].analytics.duckdb``.

    >>> analytics_path("games/ledger.db", {})
    'games/ledger.analytics.duckdb'
    >>> analytics_path("postgresql://u@h/club?schema=s1", {})
    'club-s1.analytics.duckdb'
    >>> analytics_path("x.db", {"RUMMY_LEDGER_ANALYTICS": "/data/a.duckdb"})
    '/data/a.duckdb'
    """
    environ = os.environ if environ is None else environ
    if environ.get(ANALYTICS_ENV_VAR):
        return environ[ANALYTICS_ENV_VAR]
    env = {**environ, **store_env(db, environ)}
    if env.get("PERSISTENCE_MODULE", "").endswith("postgres"):
        name = env.get("POSTGRES_DBNAME", "ledger") + (
            f"-{env['POSTGRES_SCHEMA']}" if env.get("POSTGRES_SCHEMA") else ""
        )
        return name + ANALYTICS_SUFFIX
    sqlite = env.get("SQLITE_DBNAME", "ledger.db")
    if sqlite.startswith("file:") or ":memory:" in sqlite:
        return "ledger" + ANALYTICS_SUFFIX
    path = Path(sqlite)
    return str(path.with_name(path.stem + ANALYTICS_SUFFIX))


class AnalyticsProjection(Projection[DuckDBTrackingRecorder]):
    """Turns the store's events into the analytics rows (see the module docstring).

    ``process_event`` (one event, as eventsourcing's runners call it) and
    :meth:`process_batch` (many, as :func:`catch_up` calls it) both rebuild
    each touched game once and commit rows plus tracking atomically.
    """

    name = "analytics"
    topics = ()

    def __init__(self, view: DuckDBTrackingRecorder) -> None:
        super().__init__(view)
        #: ``(game, why)`` of the games skipped so far (see :class:`UpdateResult`)
        self.skipped: list[tuple[str, str]] = []

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """Apply one stored event (a :class:`~ledger.stored.persistence.GameEvent`)."""
        self.process_batch([(domain_event, tracking)])

    def process_batch(self, items: Sequence[tuple[Any, Tracking]], *, after: int | None | EllipsisType = ...) -> int:
        """Apply notifications in order, as one transaction tracked at the last
        one's id; returns the number of games rebuilt. ``after``: the id the
        batch was read after (None: from the start); when given, the view must
        be tracked exactly there.

        Raises :class:`~eventsourcing.persistence.IntegrityError` when the view
        already tracks that id or, with ``after``, another position (another
        update applied events meanwhile), and
        :class:`~ledger.projections.duckdb_recorder.AnalyticsError` when a
        game's earlier events are missing from the view.
        """
        if not items:
            return 0
        new: dict[str, list[tuple[int, Any]]] = {}
        for domain_event, _ in _games_only(items):
            new.setdefault(oid_hex(domain_event.originator_id), []).append(
                (domain_event.originator_version - 1, domain_event)
            )
        prior = self.view.stored_events([s for s, evs in new.items() if evs[0][0] != 0])
        rows = empty_rows()
        replaced: list[str] = []
        for stream, fresh in new.items():
            first_new = fresh[0][0]
            earlier = [(pos, raw) for pos, raw in prior.get(stream, []) if pos < first_new]
            checked_positions(stream, earlier, first_new, [p for p, _ in fresh])
            game, built, why = game_built(stream, earlier, fresh, self.build_rows)
            if why is not None:
                self.skipped.append((game, why))
            if first_new:
                replaced.append(game)
            _merge(rows, built)
        self.view.replace_games(replaced, rows, items[-1][1], after=after)
        return len(new)

    def build_rows(self, stream: str, events: list[tuple[Event, str]]) -> Rows:
        """One game's rows (:func:`ledger.projections.rows.game_rows`); a hook for tests."""
        return game_rows(stream, events)


def _games_only(items: Sequence[tuple[Any, Tracking]]) -> list[tuple[Any, Tracking]]:
    """``items`` without a tournament record's events (TOURNAMENT.md): the view holds games only."""
    return [i for i in items if not isinstance(getattr(i[0], "event", None), TournamentEvent)]


def _merge(into: Rows, rows: Rows) -> None:
    for table, batch in rows.items():
        into[table].extend(batch)


def catch_up(
    app: LedgerApp,
    view: DuckDBTrackingRecorder,
    *,
    batch_size: int = DEFAULT_BATCH,
    projection: AnalyticsProjection | None = None,
    progress: Progress | None = None,
    long_game: int = LONG_GAME_EVENTS,
    jobs: int = 1,
) -> UpdateResult:
    """Bring ``view`` up to the application's last notification, in batches of
    ``batch_size`` notifications, each applied as one transaction.

    ``jobs`` above 1: the games are folded by up to ``jobs`` worker processes
    (:class:`~ledger.projections.folds.FoldPool`, ``build_rows`` is then
    :func:`~ledger.projections.rows.game_rows`): the same rows and transactions.

    ``progress(done, total)`` is called after each batch (notification ids).
    When another update in this process applies a batch first (tracking moved,
    or a DuckDB write conflict), continues after the new tracked position.
    Errors of the projection propagate; everything committed before them stays.
    A run of ``long_game`` or more notifications of one game is projected in
    chunks (:mod:`ledger.projections.long_game`; the same rows, bounded memory).
    """
    projection = projection or AnalyticsProjection(view)
    name = app.name
    last = app.recorder.max_notification_id()
    start = view.max_tracking_id(name)
    origin = start or 0
    total = max((last or 0) - origin, 0)
    done = batches = conflicts = 0
    games: set[Any] = set()  # the games touched (a game cut by a batch's end is one game, not two)
    pages = _Pages(app, projection, batch_size, last, long_game, jobs)
    with view.memory_limit(DUCKDB_MEMORY), contextlib.closing(pages):
        while last is not None and (start is None or start < last):
            page, long = pages.read(start)
            if not page:
                break
            try:
                if long:  # committed parts are counted even if a later part fails
                    game = page[0].originator_id  # (the long game's path consumes the page)
                    commits = _long_game(projection, app, page, last, start, batch_size, progress, origin)
                    for applied, tracked in commits:
                        done, batches, start = done + applied, batches + 1, tracked
                    games.add(game)
                    conflicts = 0
                    continue
                pages.apply(page, start)
                # the view holds games only: a tournament's events are not a game updated
                games.update(n.originator_id for n in page if not n.topic.startswith("ledger.tournament."))
            except (IntegrityError, duckdb.TransactionException, duckdb.ConstraintException) as exc:
                start, conflicts = _after_conflict(view, name, start, conflicts, exc)  # another update's batch
                continue
            conflicts = 0
            done += len(page)
            batches += 1
            start = page[-1].id
            if progress is not None:
                progress(start - origin, total)
    return _result(view, projection, name, done, len(games), batches)


def _after_conflict(
    view: DuckDBTrackingRecorder, name: str, start: int | None, conflicts: int, error: Exception
) -> tuple[int | None, int]:
    """Another update in this process applied events meanwhile (the batch was
    refused with ``error``): the position to go on after, and the conflicts in
    a row there (``error`` raised again after 5 at the same position)."""
    moved = view.max_tracking_id(name)
    conflicts = conflicts + 1 if moved == start else 0
    if conflicts > 5:
        raise error
    return moved, conflicts


class _Pages:
    """How :func:`catch_up` reads and applies its pages: in this process
    (``process_batch``), or with ``jobs`` above 1 folded by a
    :class:`~ledger.projections.folds.FoldPool`, the next page read (and its
    new games folded) while one is folded."""

    def __init__(
        self, app: LedgerApp, projection: AnalyticsProjection, batch_size: int, last: int | None, long: int, jobs: int
    ) -> None:
        self.app, self.projection, self.batch_size, self.last, self.long = app, projection, batch_size, last, long
        self.folds = FoldPool(app, jobs) if jobs > 1 else None
        self.ahead: tuple[int | None, list[Any], bool] | None = None  # (read after, page, long)

    def read(self, start: int | None) -> tuple[list[Any], bool]:
        """:func:`_whole_game_page` after ``start`` (the page read ahead when it is that one)."""
        ahead, self.ahead = self.ahead, None
        if ahead is not None and ahead[0] == start:
            return ahead[1], ahead[2]
        return _whole_game_page(self.app, start, self.batch_size, self.last or 0, self.long)

    def apply(self, page: list[Any], start: int | None) -> None:
        """One page applied as one transaction, read after ``start`` (raises as ``process_batch``)."""
        name, last = self.app.name, self.last or 0
        if self.folds is None:
            items = [(domain_event_or_undecodable(self.app, n), Tracking(name, n.id)) for n in page]
            self.projection.process_batch(items, after=start)
            return
        if page[-1].id < last:
            self.ahead = (page[-1].id, *_whole_game_page(self.app, page[-1].id, self.batch_size, last, self.long))
        following = self.ahead[1] if self.ahead is not None and not self.ahead[2] else ()
        view, skipped, tracking = self.projection.view, self.projection.skipped, Tracking(name, page[-1].id)
        self.folds.apply(view, skipped, page, tracking, after=start, following=following)

    def close(self) -> None:
        if self.folds is not None:
            self.folds.close()


def _result(
    view: DuckDBTrackingRecorder, projection: AnalyticsProjection, name: str, done: int, games: int, batches: int
) -> UpdateResult:
    return UpdateResult(
        path=view.path,
        notifications=done,
        games=games,
        batches=batches,
        position=view.max_tracking_id(name),
        rebuilt=view.rebuilt,
        skipped=tuple(projection.skipped),
    )


def _long_game(
    projection: AnalyticsProjection,
    app: LedgerApp,
    page: list[Any],
    last: int,
    start: int | None,
    batch_size: int,
    progress: Progress | None,
    origin: int,
) -> Iterator[tuple[int, int]]:
    """:func:`~ledger.projections.long_game.project_long_game`'s commits,
    ``progress`` called after each (see :func:`catch_up`)."""
    total = max(last - origin, 0)
    for applied, tracked in project_long_game(projection, app, page, last, after=start, batch_size=batch_size):
        if progress is not None:
            progress(tracked - origin, total)
        yield applied, tracked


def _whole_game_page(
    app: LedgerApp, start: int | None, batch_size: int, last: int, long_game: int = LONG_GAME_EVENTS
) -> tuple[list[Any], bool]:
    """The next ``batch_size`` notifications; when they are all one game's and
    that game goes on, the rest of that game too. A game is rebuilt from all
    its events at every batch that touches it: without this a game of ``n``
    events would be rebuilt ``n / batch_size`` times (a cost in ``n²``).
    The flag is true when the page reached ``long_game`` events of one game
    that may go on: the caller projects it in chunks
    (:func:`~ledger.projections.long_game.project_long_game`), reading the rest itself."""
    page = list(app.recorder.select_notifications(start, batch_size, stop=last, inclusive_of_start=False))
    if len(page) < batch_size or not page:
        return page, False
    game = page[0].originator_id
    if any(n.originator_id != game for n in page):
        return page, False
    while page[-1].id < last:
        if len(page) >= long_game:
            return page, True
        more = app.recorder.select_notifications(page[-1].id, batch_size, stop=last, inclusive_of_start=False)
        same = list(takewhile(lambda n: n.originator_id == game, more))
        page += same
        if len(same) < len(more) or len(more) < batch_size:
            break
    return page, False


def update(
    app: LedgerApp,
    path: str,
    *,
    batch_size: int = DEFAULT_BATCH,
    wait: float | None = None,
    rebuild: bool = False,
    progress: Progress | None = None,
    projection_class: type[AnalyticsProjection] = AnalyticsProjection,
    jobs: int = 1,
) -> UpdateResult:
    """Open the DuckDB view at ``path`` (creating it), :func:`catch_up`, close it.

    ``wait``: seconds to wait while another process holds the file (default
    ``RUMMY_LEDGER_ANALYTICS_WAIT`` or 10), then
    :class:`~ledger.projections.duckdb_recorder.AnalyticsBusyError`.
    ``rebuild``: drop the view and build it again from the first event.
    ``jobs``: worker processes that fold the games (:func:`catch_up`).
    """
    with DuckDBTrackingRecorder(path, wait=default_wait() if wait is None else wait, rebuild=rebuild) as view:
        return catch_up(
            app, view, batch_size=batch_size, projection=projection_class(view), progress=progress, jobs=jobs
        )


class _Runner(BaseProjectionRunner[LedgerApp]):
    """eventsourcing's runner: a subscription thread calling ``process_event``."""


def follow(
    path: str,
    env: Mapping[str, str],
    *,
    timeout: float | None = None,
    wait: float | None = None,
) -> None:
    """Keep the view at ``path`` up to date from a store that pushes
    notifications (PostgreSQL), until ``timeout`` seconds pass (forever when
    None) or an error occurs (re-raised). Catches up in batches first.

    ``env`` is the store's eventsourcing settings
    (:func:`ledger.store.settings.store_env`). Raises ``NotImplementedError`` for
    a store that cannot subscribe (SQLite: use :func:`update`).
    """
    view = DuckDBTrackingRecorder(path, wait=default_wait() if wait is None else wait)
    try:
        app = LedgerApp(env=dict(env))
        try:
            catch_up(app, view)
        finally:
            app.close()
        runner = _Runner(
            projection=AnalyticsProjection(view),
            application_class=LedgerApp,
            tracking_recorder=view,
            topics=(),
            env=dict(env),
        )
        try:
            runner.run_forever(timeout=timeout)
        finally:
            runner.stop()
            runner._processing_thread.join(timeout=5)  # noqa: SLF001 - let the thread finish before closing DuckDB
            runner._stop_thread.join(timeout=5)  # noqa: SLF001
            runner.app.close()
    finally:
        view.close()
