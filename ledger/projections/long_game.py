"""One long game's analytics rows, built and written in chunks (issue 17).

:func:`~ledger.projections.analytics.catch_up` hands a game over to
:func:`project_long_game` when one run of its notifications reaches
:data:`LONG_GAME_EVENTS` events (a record file of one very long game: a
stress test, not a real game). Instead of building the game's rows from all
its events at once (:func:`~ledger.projections.rows.game_rows`: every
table state of the game in memory), it reads the events in pages of
``batch_size`` (the view's own earlier events first, then the store's
notifications), folds them one at a time
(:class:`~ledger.projections.game_builder.GameRowsBuilder`) and inserts each page's
``events`` and ``melds`` rows as it goes. It commits every
:data:`COMMIT_EVENTS` events or so (a DuckDB transaction's memory grows with
its rows), each time with the rows of the game so far and the tracking
position of its last event: every commit is the view that a whole-game
build of the events tracked so far gives, and the next transaction drops
those provisional rows (``games``, ``players``, ``hands``, ``scores``,
``findings``, the melds of the hand in play) before it goes on. An update
interrupted between commits resumes from the view's own events like any
other. The same rows as the whole-game path, each event applied exactly
once; memory is one page, the fold's state and one short tuple a hand,
whatever the game's length (bench/RESULTS.md, "One record file of one long
game").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

import pyarrow as pa
from eventsourcing.persistence import Tracking

from ledger.events import Event, decode_event, encode_event
from ledger.projections.duckdb_recorder import AnalyticsError, DuckDBTrackingRecorder, ViewWriter
from ledger.projections.folds import view_mismatch
from ledger.projections.game_builder import GameRowsBuilder
from ledger.projections.notifications import (
    GAME_DATA_ERRORS,
    SKIP_ERRORS,
    Skip,
    Undecodable,
    domain_event_or_undecodable,
    game_id_in,
    oid_hex,
)
from ledger.projections.tables import TABLES

if TYPE_CHECKING:
    from ledger.store.application import LedgerApp

#: a run of one game's notifications this long (events) is projected in chunks
LONG_GAME_EVENTS = 10_000
#: events of a long game per DuckDB transaction: a transaction's memory grows with its rows
#: (about 0.2 kB an ``events`` row, DuckDB 2.0), so a long game is committed every so often,
#: each time with the rows of the game so far (a consistent view, tracked there)
COMMIT_EVENTS = 20_000
#: ... and at least this many events per hand so far: each commit writes the game's hands and
#: scores again (about 30 µs a hand), against about 20 µs an event for the rest
COMMIT_EVENTS_PER_HAND = 16

#: an event row of a game that cannot be projected holds its JSON only (as ``_skipped_rows`` gives)
_RAW_ONLY = (
    'hand = NULL, seat = NULL, type = NULL, meld = NULL, cards = NULL, "at" = NULL, text = NULL, undone = false, '
    "turn = NULL, points = NULL"
)

#: ``(position, event or None, canonical JSON, why it does not decode or None)``
Item = tuple[int, Event | None, str, str | None]


class Projecting(Protocol):
    """What the chunked path needs of the projection that hands it a game
    (:class:`ledger.projections.analytics.AnalyticsProjection`): its view,
    and the list of skipped games ``(game, why)`` it reports."""

    @property
    def view(self) -> DuckDBTrackingRecorder: ...

    skipped: list[tuple[str, str]]


def project_long_game(
    projection: Projecting,
    app: LedgerApp,
    page: list[Any],
    last: int,
    *,
    after: int | None,
    batch_size: int,
    commit_events: int | None = None,
) -> Iterator[tuple[int, int]]:
    """Project the game of ``page`` (notifications of one game, in order,
    read after id ``after``) and the rest of its run of notifications up to
    id ``last``; yields ``(notifications applied, tracked id)`` after each
    commit, one every ``commit_events`` events or so (default
    :data:`COMMIT_EVENTS`), each with the rows of the game so far.

    Raises what :meth:`~ledger.projections.analytics.AnalyticsProjection.process_batch`
    raises: ``IntegrityError`` when the tracking moved, :class:`AnalyticsError`
    when the view lacks the game's earlier events; a game that cannot be
    projected is skipped (its events' JSON and a ``games`` row with ``error``).
    """

    commit_events = COMMIT_EVENTS if commit_events is None else commit_events
    view, name = projection.view, app.name
    stream = oid_hex(page[0].originator_id)
    first_new = page[0].originator_version - 1
    pages = _run_pages(app, page[:], last, batch_size)
    page.clear()  # the caller's first page: its notifications are let go as they are applied
    run: _Run | None = None
    tracked = after
    notifications = next(pages, None)
    while notifications is not None:
        with view.transaction() as writer:
            current = writer.checked_position(Tracking(name, notifications[-1].id), tracked)
            if run is None:
                run = _Run(projection, writer, stream)
                if first_new:
                    run.earlier(first_new, batch_size)
            else:
                run.writer = writer
                run.reopen()
            size, due = 0, max(commit_events, COMMIT_EVENTS_PER_HAND * run.builder.hands)
            while notifications is not None and (size == 0 or size + len(notifications) <= due):
                run.chunk([_item(app, n) for n in notifications], replace=False)
                size += len(notifications)
                last_id = notifications[-1].id
                notifications = next(pages, None)
            run.last = notifications is None
            run.finish()
            writer.track(Tracking(name, last_id), current)
        tracked = last_id
        yield size, last_id


def _run_pages(app: LedgerApp, page: list[Any], last: int, batch_size: int) -> Iterator[list[Any]]:
    """``page`` (emptied as it goes), then the next pages of notifications
    while they are the same game's, ``batch_size`` notifications at a time."""
    game, after = page[0].originator_id, page[-1].id
    while page:  # the first page a batch at a time, letting go of each
        chunk, page[:batch_size] = page[:batch_size], []
        yield chunk
    while after < last:
        more = list(app.recorder.select_notifications(after, batch_size, stop=last, inclusive_of_start=False))
        cut = next((i for i, n in enumerate(more) if n.originator_id != game), len(more))
        if cut:
            after = more[cut - 1].id
            yield more[:cut]
        if cut < len(more) or len(more) < batch_size:
            return


def _item(app: LedgerApp, notification: Any) -> Item:

    d = domain_event_or_undecodable(app, notification)
    pos = notification.originator_version - 1
    if isinstance(d, Undecodable):
        return pos, None, d.raw, d.error
    return pos, d.event, encode_event(d.event).decode(), None


class _Run:
    """One long game in the transaction of ``writer``: its rows so far."""

    def __init__(self, projection: Projecting, writer: ViewWriter, stream: str) -> None:
        self.projection = projection
        self.writer = writer
        self.stream = stream
        self.builder = GameRowsBuilder(stream)
        self.game = stream
        self.count = 0  # positions written
        self.why: str | None = None  # why the game is skipped, once it is
        self._open_hand: int | None = None  # the hand whose melds the last finish wrote
        self.last = True  #: the last finish of this run (a skip there skips the game)

    def earlier(self, first_new: int, batch_size: int) -> None:
        """Rebuild the rows of the game's positions ``0 .. first_new - 1`` from
        the view's own ``events`` rows (their JSON), a page at a time; every
        other row of the game is dropped first (as ``replace_games`` does)."""

        found = self.writer.execute("SELECT game FROM games WHERE stream = ?", [self.stream])
        if not found:
            raise view_mismatch(self.stream, [], first_new)
        self.game = found[0][0]
        for table in TABLES:
            if table != "events":
                self.writer.execute(f"DELETE FROM {table} WHERE game = ?", [self.game])
        self.writer.execute("DELETE FROM events WHERE game = ? AND position >= ?", [self.game, first_new])
        for lo in range(0, first_new, batch_size):
            hi = min(lo + batch_size, first_new)
            rows = self.writer.execute(
                "SELECT position, json FROM events WHERE game = ? AND position >= ? AND position < ? ORDER BY position",
                [self.game, lo, hi],
            )
            if [p for p, _ in rows] != list(range(lo, hi)):
                raise AnalyticsError(
                    f"stream {self.stream}: the view lacks positions of {lo}..{hi - 1} before {first_new}; run "
                    "`analytics update --rebuild`"
                )
            items: list[Item] = []
            for pos, raw in rows:
                try:
                    items.append((pos, decode_event(raw), raw, None))
                except GAME_DATA_ERRORS as exc:
                    items.append((pos, None, raw, f"position {pos}: the event in the view does not decode ({exc})"))
            self.chunk(items, replace=True)

    def chunk(self, items: list[Item], *, replace: bool) -> None:
        """Fold ``items`` (the next positions) and insert their rows;
        ``replace``: their old ``events`` rows are in the view (deleted first)."""

        lo, hi = items[0][0], items[-1][0]
        if [p for p, *_ in items] != list(range(self.count, self.count + len(items))):
            raise AnalyticsError(
                f"stream {self.stream}: positions {lo}..{hi} follow position {self.count - 1}; run "
                "`analytics update --rebuild`"
            )
        if lo == 0:
            self.game = game_id_in(items[0][2]) or self.stream
        if replace:
            self.writer.execute("DELETE FROM events WHERE game = ? AND position BETWEEN ? AND ?", [self.game, lo, hi])
        if self.why is None:
            try:
                for _pos, event, raw, error in items:
                    if error is not None:
                        raise Skip(error)
                    self.builder.add(event, raw)  # type: ignore[arg-type]  # an item without error has its event
                self.writer.insert(self.builder.take())
            except SKIP_ERRORS as exc:
                self._skip(exc, lo)
        if self.why is not None:
            rows = [
                (self.game, pos, None, None, None, None, None, None, None, False, raw, None, None)
                for pos, _, raw, _ in items
            ]
            self.writer.insert({"events": rows})
        self.count = hi + 1

    def finish(self) -> None:
        """Write the game's rows as it stands: its other rows and its
        ``events.undone`` flags, or the ``games`` row of a skipped game.
        More chunks may follow in a later transaction (:meth:`reopen` first)."""

        self._open_hand = None
        if self.why is None:
            try:
                rows, undone = self.builder.finish()
                self.writer.insert(rows)
            except SKIP_ERRORS as exc:
                if self.last:
                    self._skip(exc, self.count)
                else:  # the game so far cannot be projected: say so until the next transaction
                    why = str(exc) if isinstance(exc, Skip) else f"{type(exc).__name__}: {exc}"
                    self._games_row(why)
                    return
            else:
                self._open_hand = self.builder.open_hand
                if self.builder.error is not None:  # the fold rejects the game: no melds (game_rows gives none)
                    self.writer.execute("DELETE FROM melds WHERE game = ?", [self.game])
                if undone:
                    self._mark_undone(undone)
                return
        self._games_row(self.why)

    def _games_row(self, why: str | None) -> None:
        row = (self.game, self.stream) + (None,) * 10 + (self.count,) + (None,) * 8 + (why,)
        self.writer.insert({"games": [row]})

    def reopen(self) -> None:
        """In a new transaction, before more chunks: drop the rows that the
        last :meth:`finish` wrote for the game as it stood (all but the
        ``events`` rows and the ``melds`` rows of hands that had ended)."""
        for table in TABLES:
            if table not in ("events", "melds"):
                self.writer.execute(f"DELETE FROM {table} WHERE game = ?", [self.game])
        if self._open_hand is not None:
            self.writer.execute("DELETE FROM melds WHERE game = ? AND hand = ?", [self.game, self._open_hand])

    def _mark_undone(self, ranges: list[tuple[int, int]]) -> None:
        cur = self.writer.cursor
        cur.register("_undone", pa.table({"lo": [lo for lo, _ in ranges], "hi": [hi for _, hi in ranges]}))
        try:
            cur.execute(
                "UPDATE events SET undone = true FROM _undone u "
                "WHERE events.game = ? AND events.position BETWEEN u.lo AND u.hi",
                [self.game],
            )
        finally:
            cur.unregister("_undone")

    def _skip(self, exc: BaseException, upto: int) -> None:
        """Skip the game from here: the rows written so far keep their JSON only."""

        self.why = str(exc) if isinstance(exc, Skip) else f"{type(exc).__name__}: {exc}"
        self.projection.skipped.append((self.game, self.why))
        self.writer.execute(f"UPDATE events SET {_RAW_ONLY} WHERE game = ? AND position < ?", [self.game, upto])  # noqa: S608 - a constant
        self.writer.execute("DELETE FROM melds WHERE game = ?", [self.game])
