"""Where the viewer reads games from: a small read-only adapter over the store.

The viewer needs three things of a store, and nothing else (it never writes):

- ``list_games() -> list[GameSummary]``: every game, in the order first
  stored (:class:`ledger.store.reads.GameSummary`);
- ``version(game_id) -> int``: the number of events stored for the game (the
  store's last version; the replay cache is keyed by it, so a game that grows
  while it is being recorded is replayed again);
- ``events(game_id) -> list[Event]``: the record's events in position order.

Unknown games raise :class:`~ledger.errors.GameNotFoundError` everywhere.

:class:`LedgerStore` is the real store (:class:`ledger.store.application.LedgerApp`:
SQLite file or PostgreSQL, chosen by a db path/URL or ``RUMMY_LEDGER_DB``);
:class:`RecordStore` serves record files read with
:func:`ledger.record_files.read_record` (tests, a quick look at a folder of
records without importing it). :func:`open_store` picks one from the Flask
config.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ledger.errors import GameNotFoundError, RecordError
from ledger.events import Event, GameStarted
from ledger.record_files import find_record_files, read_record
from ledger.store.probe import check_settings
from ledger.store.reads import GameSummary
from ledger.store.settings import store_env

if TYPE_CHECKING:
    from ledger.game_summary import ListSummary
    from ledger.store.application import LedgerApp

log = logging.getLogger(__name__)


class Store(Protocol):
    """What the viewer asks of a store (read-only)."""

    def list_games(self) -> list[GameSummary]: ...

    def version(self, game_id: str) -> int: ...

    def events(self, game_id: str) -> list[Event]: ...


def meta_of(first: GameStarted) -> dict[str, str]:
    """The ``game_started`` meta strings that are set (``tournament``, ``table`` …)."""
    if first.meta is None:
        return {}
    return {k: v for k in first.meta.__struct_fields__ if (v := getattr(first.meta, k)) is not None}


class RecordStore:
    """Games from record files (``.jsonl``) or folders of them, read once.

    A file that is not a record (``REC-FORMAT``) is left out and listed in
    ``skipped`` as ``(path, RecordError)``; a missing path raises
    ``FileNotFoundError``. Events are not replayed here (the cache does
    that), so an impossible record shows as a 422 page when it is opened.
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]] = (), records: Iterable[Iterable[Event]] = ()) -> None:
        self._games: dict[str, list[Event]] = {}
        self.skipped: list[tuple[str, RecordError]] = []
        for path in find_record_files(paths):
            try:
                self.add(read_record(path).events)
            except RecordError as err:
                self.skipped.append((str(path), err))
        for events in records:
            self.add(events)

    def add(self, events: Iterable[Event]) -> str:
        """Add one game's events (the first must be ``game_started``); returns its id."""
        evs = list(events)
        first = evs[0] if evs else None
        if not isinstance(first, GameStarted):
            raise ValueError("a record starts with game_started")
        self._games[first.game_id] = evs
        return first.game_id

    def list_games(self) -> list[GameSummary]:
        out = []
        for evs in self._games.values():
            first = evs[0]
            assert isinstance(first, GameStarted)
            out.append(
                GameSummary(
                    game_id=first.game_id,
                    variant=first.variant,
                    ruleset=first.ruleset,
                    players=tuple(p.name for p in sorted(first.players, key=lambda p: p.seat)),
                    hands=sum(1 for e in evs if e.type == "hand_dealt"),
                    events=len(evs),
                    meta=meta_of(first),
                )
            )
        return out

    def version(self, game_id: str) -> int:
        return len(self._get(game_id))

    def events(self, game_id: str) -> list[Event]:
        return list(self._get(game_id))

    def _get(self, game_id: str) -> list[Event]:
        try:
            return self._games[game_id]
        except KeyError:
            raise GameNotFoundError(game_id) from None


class LedgerStore:
    """The event store (:class:`ledger.store.application.LedgerApp`), read-only.

    ``db`` is a SQLite path or ``postgresql://`` URL; None uses
    ``RUMMY_LEDGER_DB`` or eventsourcing's own variables, else ``./ledger.db``
    (:func:`ledger.store.application.open_app`). Several processes (gunicorn
    workers) may each open one on the same store.
    """

    def __init__(self, db: str | None = None, app: LedgerApp | None = None) -> None:
        self._db = db
        self._app = app
        self._lock = threading.Lock()

    @property
    def app(self) -> LedgerApp:
        """The :class:`LedgerApp`, opened on first use (not at import or fork time)."""
        if self._app is None:
            with self._lock:
                if self._app is None:
                    from ledger.store.application import open_app

                    self._app = open_app(self._db)
        return self._app

    def list_games(self) -> list[GameSummary]:
        return list(self.app.list_games())

    def version(self, game_id: str) -> int:
        length: int = self.app.game_length(game_id)
        if not length:
            raise GameNotFoundError(game_id)
        return length

    def events(self, game_id: str) -> list[Event]:
        return list(self.app.get_events(game_id))

    def events_after(self, game_id: str, n: int) -> list[Event]:
        """The events at positions ``n``… (:meth:`ledger.store.reads.GameReads.events_after`:
        a live game's new events only)."""
        return list(self.app.events_after(game_id, n))

    def seals(self, game_id: str, start: int = 0) -> list[str | None]:
        """The stored seal of each position (:func:`ledger.sealing.tables.stored_seals`;
        None where none is stored), from position ``start`` when given."""
        from ledger.sealing.tables import stored_seals

        return stored_seals(self.app, game_id, strict=False, start=start)[1]

    def chain(self, game_id: str, length: int) -> Any:
        """The stored chain of the game checked (``verify``'s code, read-only,
        once per game version: :func:`ledger.sealing.chain_check.chain_check`)."""
        from ledger.sealing.chain_check import chain_check

        return chain_check(self.app, game_id, length)

    def summaries(self, game_ids: Iterable[str]) -> dict[str, tuple[int, ListSummary]]:
        """The stored games-list lines of ``game_ids``, ``{game_id: (version,
        ListSummary)}``, in one query (:meth:`ledger.store.reads.GameReads.list_summaries`)."""
        return self.app.list_summaries(game_ids)

    def first_stored(self, game_ids: Iterable[str]) -> dict[str, str]:
        """When each game was first stored, ``{game_id: received_at}`` (the
        journal's time of position 0), in one query
        (:meth:`ledger.store.reads.GameReads.first_stored`)."""
        return dict(self.app.first_stored(game_ids))

    def put_summary(self, game_id: str, version: int, summary: ListSummary) -> None:
        """Store a games-list line the viewer folded (a game without a current
        one: a store made before the lines, or a write cut short). Best effort:
        a store this process may not write (a read-only user or file) keeps
        none, and the list folds that game again next time."""
        try:
            self.app.put_summary(game_id, version, summary)
        except Exception as exc:  # noqa: BLE001 - the list is served whether or not the line could be kept
            log.warning("games list: the line of %r could not be stored (%s)", game_id, exc)

    def close(self) -> None:
        """Close the application's connections (when it was opened)."""
        if self._app is not None:
            self._app.close()


def open_store(config: Mapping[str, Any]) -> Store:
    """The store named by a Flask config.

    ``LEDGER_STORE``: a ready store object (tests); else ``LEDGER_RECORDS``:
    record files/folders (:class:`RecordStore`); else the event store at
    ``LEDGER_DB`` (path or URL; None: ``RUMMY_LEDGER_DB``/``./ledger.db``),
    whose settings are checked here, without opening it
    (:func:`ledger.store.probe.check_settings`: its ``StoreUnreachableError``).
    """
    ready: Store | None = config.get("LEDGER_STORE")
    if ready is not None:
        return ready
    records = config.get("LEDGER_RECORDS")
    if records:
        if isinstance(records, (str, os.PathLike)):
            records = [records]
        return RecordStore(records)
    check_settings(store_env(config.get("LEDGER_DB")))  # a setting the store cannot run with: refused at start
    return LedgerStore(config.get("LEDGER_DB"))
