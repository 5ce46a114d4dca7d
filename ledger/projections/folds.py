"""One game's analytics rows from its events, here or in worker processes (``analytics update --jobs N``).

:func:`game_built` is the rebuild of one game that
:meth:`ledger.projections.analytics.AnalyticsProjection.process_batch` does
for every game a batch touches: the view's earlier events (their JSON) and the
batch's new ones folded into the game's rows
(:func:`ledger.projections.rows.game_rows`), or, for a game that cannot be
projected, its ``games`` row with ``error`` and its events' JSON
(:func:`skipped_rows`).

:class:`FoldPool` does the same on several cores for
:func:`~ledger.projections.analytics.catch_up` with ``jobs`` above 1: the
one process that holds the view reads the notifications as before; the games
of a batch are decoded and folded by worker processes
(:func:`ledger.workers.fork_pool`: forked, Ctrl-C is the writing
process's), each sending back its rows as Arrow tables
(:func:`ledger.projections.tables.to_arrow`); the writing process takes them
in the order of the games and writes the batch as one transaction, tracking
position included, as the one-process path does: the same rows, the same
skipped games, the same exactly-once. While a batch is folded, the next one
is read and its games that start in it (they need nothing from the view) are
folded ahead: one batch ahead of the one being written, no more (bounded
memory). A game that goes on from the batch before is folded once
that batch is written (its earlier events are then in the view).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import nullcontext
from functools import lru_cache
from types import EllipsisType, SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

import pyarrow as pa
from eventsourcing.persistence import StoredEvent, Tracking
from eventsourcing.utils import resolve_topic

from ledger.events import Event, decode_event, encode_event
from ledger.projections.duckdb_recorder import AnalyticsError, DuckDBTrackingRecorder
from ledger.projections.notifications import (
    GAME_DATA_ERRORS,
    SKIP_ERRORS,
    Skip,
    Undecodable,
    domain_event_or_undecodable,
    game_id_in,
    oid_hex,
)
from ledger.projections.rows import Rows, empty_rows, game_rows
from ledger.projections.tables import TABLES, to_arrow
from ledger.texts import N_, Message
from ledger.tournament.events import TournamentEvent
from ledger.workers import fork_pool, sigint_held

if TYPE_CHECKING:
    from ledger.store.application import LedgerApp

Build = Callable[[str, list[tuple[Event, str]]], Rows]
#: a game's new events as a worker gets them (:func:`fold_game`)
Stored = tuple[Any, int, list[str], list[Any]]


def game_built(
    stream: str, earlier: list[tuple[int, str]], fresh: Sequence[tuple[int, Any]], build: Build
) -> tuple[str, Rows, str | None]:
    """``(game, rows, why)`` of one game: ``earlier`` its events in the view
    (``(position, JSON)``), ``fresh`` the batch's (``(position, domain event or
    Undecodable)``), folded by ``build(stream, [(event, JSON), ...])``. ``why``
    is None, or why the game is skipped (a :data:`SKIP_ERRORS` error: an event
    that does not decode, a fold that fails, a value a column cannot hold,
    :func:`~ledger.projections.tables.to_arrow`); ``rows`` are then :func:`skipped_rows`."""
    texts = [raw for _, raw in earlier] + [
        d.raw if isinstance(d, Undecodable) else encode_event(d.event).decode() for _, d in fresh
    ]
    game = game_id_in(texts[0]) or stream
    try:
        events: list[tuple[Event, str]] = []
        for pos, raw in earlier:
            try:
                events.append((decode_event(raw), raw))
            except GAME_DATA_ERRORS as exc:
                raise Skip(f"position {pos}: the event in the view does not decode ({exc})") from None
        for _, d in fresh:
            if isinstance(d, Undecodable):
                raise Skip(d.error)
            events.append((d.event, encode_event(d.event).decode()))
        built = build(stream, events)
        for table, batch in built.items():
            if batch:
                to_arrow(table, batch)  # a value the columns cannot hold fails here, for this game alone
    except SKIP_ERRORS as exc:
        why = str(exc) if isinstance(exc, Skip) else f"{type(exc).__name__}: {exc}"
        return game, skipped_rows(game, stream, texts, why), why
    return game, built, None


def skipped_rows(game: str, stream: str, texts: list[str], why: str) -> Rows:
    """The rows of a game that cannot be projected: its ``games`` row with
    ``error`` and its events' JSON (so that later batches find them)."""
    rows = empty_rows()
    rows["games"].append((game, stream) + (None,) * 10 + (len(texts),) + (None,) * 8 + (why,))
    for pos, raw in enumerate(texts):
        rows["events"].append((game, pos, None, None, None, None, None, None, None, False, raw, None, None))
    return rows


def checked_positions(stream: str, earlier: list[tuple[int, Any]], first_new: int, fresh: list[int]) -> None:
    """Raises :func:`view_mismatch` unless the view's ``earlier`` events and
    the ``fresh`` positions of the new ones (the first: ``first_new``) are
    positions 0, 1, 2, …"""
    positions = [p for p, _ in earlier] + fresh
    if positions != list(range(len(positions))):
        raise view_mismatch(stream, positions[:first_new], first_new)


def view_mismatch(stream: str, held: list[int], first_new: int) -> AnalyticsError:
    """The :class:`~ledger.projections.duckdb_recorder.AnalyticsError` of a
    view that is not this store's: for ``stream`` it holds the positions
    ``held`` where the store's new events start at ``first_new`` (and the
    view should hold 0 … ``first_new - 1``)."""
    if not held:
        return AnalyticsError(Message(VIEW_LACKS_EARLIER, stream=stream, first=first_new))
    return AnalyticsError(
        Message(VIEW_NOT_OF_THIS_STORE, stream=stream, held=len(held), low=min(held), high=max(held), first=first_new)
    )


#: the view's earlier events of a stream are not its positions 0, 1, 2, …: the view is not this store's
VIEW_NOT_OF_THIS_STORE = N_(
    "the analytics view does not match this store: for stream %(stream)s it holds %(held)s events at "
    "positions %(low)s to %(high)s where the store's new events start at %(first)s (the view was built "
    "from another store, or changed since); run `analytics update --rebuild`"
)
#: the same, the view holding none of the stream's earlier events
VIEW_LACKS_EARLIER = N_(
    "the analytics view does not match this store: for stream %(stream)s it holds none of the events "
    "before position %(first)s, where the store's new events start (the view was built from another "
    "store, or changed since); run `analytics update --rebuild`"
)


class Fold(NamedTuple):
    """What a worker sends back for a game: its id, its rows as Arrow tables
    (``{table: pa.Table}``, empty tables left out) and why it was skipped (or None)."""

    game: str
    tables: dict[str, pa.Table]
    why: str | None


def fold_game(mapper: Any, stream: str, earlier: list[tuple[int, str]], stored: Stored) -> Fold:
    """One game folded (in a worker, or here): ``stored`` its new events as
    ``(originator_id, first originator_version, topics, states)`` (the versions
    that follow: :func:`checked_positions`), decoded by ``mapper`` (the
    store's, :class:`~ledger.store.persistence.Mapper`)."""
    app = SimpleNamespace(mapper=mapper)
    oid, first, topics, states = stored
    fresh = [
        (first + i - 1, domain_event_or_undecodable(app, StoredEvent(oid, first + i, topic, state)))  # type: ignore[arg-type]  # what the function reads of an app
        for i, (topic, state) in enumerate(zip(topics, states, strict=True))
    ]
    game, rows, why = game_built(stream, earlier, fresh, game_rows)
    return Fold(game, {table: to_arrow(table, batch) for table, batch in rows.items() if batch}, why)


_MAPPER: list[Any] = []  # a worker's: the store's mapper (set by _init)


def _init(mapper: Any) -> None:
    _MAPPER.append(mapper)


def _fold(stream: str, earlier: list[tuple[int, str]], stored: Stored) -> Fold:
    return fold_game(_MAPPER[0], stream, earlier, stored)


def _key(stream: str, ns: list[Any]) -> tuple[str, int, int]:
    """A game's fold in a batch: its stream and its first and last notification ids there."""
    return stream, ns[0].id, ns[-1].id


@lru_cache(maxsize=256)
def _tournament_topic(topic: str) -> bool:
    try:
        cls = resolve_topic(topic)
    except Exception:  # noqa: BLE001 - a topic that names nothing: the event does not decode (a game's, then)
        return False
    return isinstance(cls, type) and issubclass(cls, TournamentEvent)


class FoldPool:
    """The games of ``catch_up``'s batches folded by up to ``jobs`` worker
    processes (see the module docstring). The pool starts at the first batch
    with two games or more to fold (until then, and with one game only, this
    process folds); :meth:`close` stops it (a worker's current game finishes)."""

    def __init__(self, app: LedgerApp, jobs: int) -> None:
        self.app, self.jobs = app, jobs
        self.pool: ProcessPoolExecutor | None = None
        #: the folds submitted ahead (the next batch's new games): ``(stream, first id, last id) -> future``
        self.ahead: dict[tuple[str, int, int], Future[Fold]] = {}
        #: the last page read ahead and its :meth:`streams`
        self.read: tuple[Sequence[Any], dict[str, list[Any]]] | None = None

    def close(self) -> None:
        """Stop the workers; the folds not taken are dropped."""
        self.ahead.clear()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def streams(self, page: Sequence[Any]) -> dict[str, list[Any]]:
        """The page's notifications by game, in order, without a tournament
        record's events (decoded here: the view holds games only, TOURNAMENT.md;
        one that does not decode stays, as in ``process_batch``)."""
        if self.read is not None and self.read[0] is page:
            return self.read[1]
        by_id: dict[Any, list[Any]] = {}
        for n in page:
            if _tournament_topic(n.topic) and isinstance(
                getattr(domain_event_or_undecodable(self.app, n), "event", None), TournamentEvent
            ):
                continue
            by_id.setdefault(n.originator_id, []).append(n)
        out: dict[str, list[Any]] = {}
        for oid, ns in by_id.items():
            out.setdefault(oid_hex(oid), []).extend(ns)
        return out

    def _start(self, games: int) -> None:
        """The pool, from the first time two games or more are at hand (``games``)."""
        if self.pool is None and games >= 2:
            self.pool = fork_pool(min(self.jobs, games), _init, (self.app.mapper,))

    def _submit(self, stream: str, earlier: list[tuple[int, str]], ns: list[Any]) -> Future[Fold]:
        stored = (ns[0].originator_id, ns[0].originator_version, [n.topic for n in ns], [n.state for n in ns])
        if self.pool is None:
            done: Future[Fold] = Future()
            done.set_result(fold_game(self.app.mapper, stream, earlier, stored))
            return done
        return self.pool.submit(_fold, stream, earlier, stored)

    def apply(
        self,
        view: DuckDBTrackingRecorder,
        skipped: list[tuple[str, str]],
        page: Sequence[Any],
        tracking: Tracking,
        *,
        after: int | None | EllipsisType = ...,
        following: Sequence[Any] = (),
    ) -> int:
        """``AnalyticsProjection.process_batch`` of ``page`` (its notifications)
        into ``view``, the games folded by the workers, ``(game, why)`` of each
        game skipped appended to ``skipped``; ``following``: the next batch,
        whose new games are folded meanwhile. Returns the number of games
        rebuilt; raises as ``process_batch``."""
        streams = self.streams(page)
        following_streams = self.streams(following) if following else {}
        self.read = (following, following_streams)
        prior = view.stored_events([s for s, ns in streams.items() if ns[0].originator_version != 1])
        futures: list[tuple[int, Future[Fold]]] = []
        starting = self.pool is None and len(streams) + len(following_streams) >= 2
        with sigint_held() if starting else nullcontext():  # the workers are forked at the first submit
            self._start(len(streams) + len(following_streams))
            for stream, ns in streams.items():
                first_new = ns[0].originator_version - 1
                earlier = [(pos, raw) for pos, raw in prior.get(stream, []) if pos < first_new]
                checked_positions(stream, earlier, first_new, [n.originator_version - 1 for n in ns])
                future = self.ahead.pop(_key(stream, ns), None) if not first_new else None
                futures.append((first_new, future or self._submit(stream, earlier, ns)))
            ahead = {_key(s, ns): ns for s, ns in following_streams.items() if ns[0].originator_version == 1}
            self.ahead = {
                key: self.ahead.get(key) or self._submit(key[0], [], ns) for key, ns in ahead.items()
            }  # (a batch read ahead and not written, after a conflict, is dropped)
        tables: dict[str, list[pa.Table]] = {t: [] for t in TABLES}
        replaced: list[str] = []
        for first_new, future in futures:
            fold = future.result()
            if fold.why is not None:
                skipped.append((fold.game, fold.why))
            if first_new:
                replaced.append(fold.game)
            for table, arrow in fold.tables.items():
                tables[table].append(arrow)
        rows = {t: pa.concat_tables(parts) for t, parts in tables.items() if parts}
        view.replace_games(replaced, rows, tracking, after=after)
        return len(streams)
