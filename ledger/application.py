"""The event store of game records: an ``eventsourcing`` application (DESIGN.md, layer 2).

One aggregate sequence per game: ``originator_id`` is
:func:`~ledger.persistence.game_uuid` of the ``game_id`` and
``originator_version`` is the event's position + 1 (FORMAT.md "File"). Each
stored state is the canonical JSON of the record event, so an export gives
back the imported events byte for byte.

Which store (first that applies):

1. ``db`` passed to :func:`open_app` (the CLI's global ``--db``);
2. the ``RUMMY_LEDGER_DB`` environment variable;
3. eventsourcing's own ``PERSISTENCE_MODULE`` (+ ``POSTGRES_*`` or
   ``SQLITE_DBNAME``) environment variables, as they are;
4. the SQLite file ``./ledger.db``.

``db`` and ``RUMMY_LEDGER_DB`` are a SQLite file path or a URL
``postgresql://user[:password]@host[:port]/dbname[?schema=name]``.

>>> store_env("games.db")["SQLITE_DBNAME"]
'games.db'
>>> env = store_env("postgresql://postgres@127.0.0.1:5432/test?schema=s1")
>>> env["PERSISTENCE_MODULE"], env["POSTGRES_HOST"], env["POSTGRES_DBNAME"], env["POSTGRES_SCHEMA"]
('eventsourcing.postgres', '127.0.0.1', 'test', 's1')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, StoredEvent

from ledger import replay as _replay
from ledger.errors import ConcurrentAppendError, GameConflictError, GameNotFoundError, RecordError, RuleViolationError
from ledger.variants import find_variant
from ledger.events import Event, GameStarted, encode_event
from ledger.persistence import (
    GAME_STARTED_TOPIC,
    GameEvent,
    MsgspecMapper,
    naming_game,
    schema_lock,
    ensure_topic_index,
    event_counts,
    game_uuid,
)
from ledger.records import Record
from ledger.state import TableState

#: games whose latest state a process keeps for live appends
LIVE_CACHE_SIZE = 64

DEFAULT_DB = "ledger.db"
DB_ENV_VAR = "RUMMY_LEDGER_DB"
_PAGE = 1000


def store_env(db: str | None = None, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The eventsourcing settings for the store named by ``db`` or ``environ``.

    Returns the keys to lay over ``os.environ`` (empty when eventsourcing's own
    ``PERSISTENCE_MODULE`` variables are to be used as they are). Raises
    ``ValueError`` for a URL that is not ``postgresql://``.
    """
    environ = os.environ if environ is None else environ
    target = db or environ.get(DB_ENV_VAR) or None
    if target is None and environ.get("PERSISTENCE_MODULE"):
        return {}
    target = target or os.path.join(".", DEFAULT_DB)
    if "://" in target:
        return _postgres_env(target, environ)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": target,
        "SQLITE_LOCK_TIMEOUT": environ.get("SQLITE_LOCK_TIMEOUT", "10"),
    }


def _postgres_env(url: str, environ: Mapping[str, str]) -> dict[str, str]:
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ValueError(f"unsupported store URL {url!r}: use a SQLite file path or postgresql://user@host:port/dbname")
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise ValueError(f"store URL {url!r} names no database (postgresql://user@host:port/dbname)")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or environ.get("POSTGRES_USER", "postgres")),
        "POSTGRES_PASSWORD": unquote(parts.password) if parts.password else environ.get("POSTGRES_PASSWORD", ""),
        "POSTGRES_CONNECT_TIMEOUT": environ.get("POSTGRES_CONNECT_TIMEOUT", "5"),
    }
    schema = parse_qs(parts.query).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema[-1]
    return env


def describe_store(env: Mapping[str, str]) -> str:
    """A short human name of the store configured by ``env`` over ``os.environ``.

    >>> describe_store({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "x.db"})
    'SQLite x.db'
    """
    merged = {**os.environ, **env}
    module = merged.get("PERSISTENCE_MODULE", "")
    if module.endswith("postgres"):
        schema = merged.get("POSTGRES_SCHEMA")
        return (
            f"PostgreSQL {merged.get('POSTGRES_USER', '')}@{merged.get('POSTGRES_HOST', '')}:"
            f"{merged.get('POSTGRES_PORT', '5432')}/{merged.get('POSTGRES_DBNAME', '')}"
            + (f" (schema {schema})" if schema else "")
        )
    if module.endswith("sqlite"):
        return f"SQLite {merged.get('SQLITE_DBNAME', '')}"
    return module or "in-memory store"


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of :meth:`LedgerApp.import_record`: ``status`` is ``"stored"`` or ``"already_stored"``."""

    game_id: str
    events: int
    status: str
    path: str | None = None


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One line of :meth:`LedgerApp.list_games`."""

    game_id: str
    variant: str
    ruleset: str | None
    players: tuple[str, ...]
    hands: int
    events: int
    meta: dict[str, str] = {}

    def to_json(self) -> dict[str, Any]:
        """``{game_id, variant, ruleset, players, hands, events, meta}``."""
        return msgspec.json.decode(msgspec.json.encode(self))


class LedgerApp(Application[UUID]):
    """The store of game records (one sequence per game).

    Use :func:`open_app` to pick the store from the CLI option or environment,
    or pass an eventsourcing ``env`` mapping directly.
    """

    name = "LedgerApp"

    def construct_mapper(self) -> MsgspecMapper:  # type: ignore[override]
        return MsgspecMapper(compressor=self.factory.compressor(), cipher=self.factory.cipher())

    def construct_recorder(self) -> ApplicationRecorder:
        creating = str(self.env.get("CREATE_TABLE", "yes")).lower() in ("y", "yes", "t", "true", "on", "1")
        datastore = getattr(self.factory, "datastore", None)
        schema = getattr(datastore, "schema", "public")
        if not creating:
            return super().construct_recorder()
        # several importers on an empty PostgreSQL database: one creates, the others wait
        with schema_lock(datastore):
            if datastore is not None and schema != "public":
                # A ``?schema=`` store URL names a schema the tables go in: create it on first use.
                from psycopg.sql import SQL, Identifier

                with datastore.transaction(commit=True) as curs:
                    curs.execute(SQL("CREATE SCHEMA IF NOT EXISTS {}").format(Identifier(schema)))
            recorder = super().construct_recorder()
            ensure_topic_index(recorder)
        return recorder

    # --- reading ---

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        #: game id -> table state after its last stored event (live recording), oldest first
        self._live: dict[str, TableState] = {}

    def _stored(self, game_id: str) -> list[StoredEvent]:
        return list(self.recorder.select_events(game_uuid(game_id)))

    def has_game(self, game_id: str) -> bool:
        """True when a game with that id is stored."""
        return bool(self.recorder.select_events(game_uuid(game_id), limit=1))

    def get_events(self, game_id: str) -> list[Event]:
        """The game's record events in position order; raises :class:`GameNotFoundError`."""
        stored = self._stored(game_id)
        if not stored:
            raise GameNotFoundError(game_id)
        with naming_game(game_id):
            return [self.mapper.decode_state(s) for s in stored]  # type: ignore[attr-defined]

    def export_record(self, game_id: str) -> bytes:
        """The game's record as canonical JSON Lines (the stored bytes, one event a
        line, each ending in ``\\n``); raises :class:`GameNotFoundError`."""
        stored = self._stored(game_id)
        if not stored:
            raise GameNotFoundError(game_id)
        with naming_game(game_id):
            return b"".join(self.mapper.plain_state(s) + b"\n" for s in stored)  # type: ignore[attr-defined]

    def list_games(self) -> list[GameSummary]:
        """Every stored game in the order first stored, from the notification log
        filtered by the ``game_started`` topic plus one grouped count query."""
        counts = event_counts(self.recorder)
        games: list[GameSummary] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(start, _PAGE, topics=[GAME_STARTED_TOPIC], inclusive_of_start=False)
            for n in page:
                first = self.mapper.decode_state(n)  # type: ignore[attr-defined]
                assert isinstance(first, GameStarted)
                if counts is not None:
                    events, hands = counts.get(n.originator_id.hex if isinstance(n.originator_id, UUID) else str(n.originator_id), (1, 0))
                else:
                    rest = [self.mapper.to_domain_event(s).event for s in self.recorder.select_events(n.originator_id)]
                    events, hands = len(rest), sum(1 for e in rest if e.type == "hand_dealt")
                games.append(
                    GameSummary(
                        game_id=first.game_id,
                        variant=first.variant,
                        ruleset=first.ruleset or find_variant(first.variant).default_ruleset,
                        players=tuple(p.name for p in first.players),
                        hands=hands,
                        events=events,
                        meta=msgspec.to_builtins(first.meta) if first.meta else {},
                    )
                )
            if len(page) < _PAGE:
                return games
            start = page[-1].id

    # --- writing ---

    def import_record(self, record: Record, *, strict: bool = False) -> ImportResult:
        """Store a whole record in one transaction, after validating it.

        Returns an :class:`ImportResult` (``"stored"``, or ``"already_stored"``
        when the same events are stored already). Raises :class:`RecordError`
        (REC-…, with line and path) for an impossible record,
        :class:`RuleViolationError` with ``strict`` (live play) when the
        record breaks a rule, and :class:`GameConflictError` when different
        events are stored under the same ``game_id``. Nothing is stored unless
        everything is.
        """
        final = _replay.validate(record)
        if strict and final.findings:
            first = min(final.findings, key=lambda f: f.position)
            raise RuleViolationError(first, len(final.findings), line=record.line_of(first.position), path=record.path)
        first = record.events[0] if record.events else None
        if not isinstance(first, GameStarted):
            raise RecordError(
                "REC-ORDER", "a record starts with game_started", line=record.line_of(0), field="type", position=0, path=record.path
            )
        game_id = first.game_id
        oid = game_uuid(game_id)
        if self.recorder.select_events(oid, limit=1):
            return self._compare(record, game_id)
        domain_events = [GameEvent(originator_id=oid, originator_version=i + 1, event=e) for i, e in enumerate(record.events)]
        try:
            self.events.put(domain_events)
        except IntegrityError:
            # another importer stored this game first: same events or a conflict
            return self._compare(record, game_id)
        return ImportResult(game_id=game_id, events=len(domain_events), status="stored", path=record.path)

    def _compare(self, record: Record, game_id: str) -> ImportResult:
        stored = [self.mapper.plain_state(s) for s in self._stored(game_id)]  # type: ignore[attr-defined]
        mine = [encode_event(e) for e in record.events]
        if stored == mine:
            return ImportResult(game_id=game_id, events=len(mine), status="already_stored", path=record.path)
        diff = next((i for i, (a, b) in enumerate(zip(stored, mine)) if a != b), min(len(stored), len(mine)))
        line = record.line_of(diff)
        where = f"position {diff}" + (f", line {line}" if line is not None else "")
        raise GameConflictError(game_id, f"{len(stored)} events stored, {len(mine)} in this record, first difference at {where}")

    def append_event(self, game_id: str, event: Event, *, expected_position: int | None = None) -> int:
        """Record one more event of a live game; returns its position.

        A ``game_started`` naming ``game_id`` starts a new game. The whole game
        plus ``event`` goes through the fold first (:class:`RecordError` with
        the position when impossible). Raises :class:`GameNotFoundError` for an
        unknown game and :class:`ConcurrentAppendError` when another writer
        filled the position first (or ``expected_position`` is not the next
        position).
        """
        oid = game_uuid(game_id)
        last = list(self.recorder.select_events(oid, desc=True, limit=1))
        position = last[0].originator_version if last else 0
        if not last:
            if not isinstance(event, GameStarted):
                raise GameNotFoundError(game_id)
            if event.game_id != game_id:
                raise RecordError("REC-REF", f"game_started names game {event.game_id!r}, not {game_id!r}", field="game_id", position=0)
        if expected_position is not None and expected_position != position:
            raise ConcurrentAppendError(game_id, expected_position)
        state = self._live_state(game_id, position)
        new_state = _replay.evolve(state, event)
        try:
            self.events.put([GameEvent(originator_id=oid, originator_version=position + 1, event=event)])
        except IntegrityError:
            self._live.pop(game_id, None)
            raise ConcurrentAppendError(game_id, position) from None
        self._remember(game_id, new_state)
        return position

    def _live_state(self, game_id: str, stored_count: int) -> TableState | None:
        """The state after the ``stored_count`` stored events of a game: from
        the per-process cache when it is current, else by replaying them."""
        if stored_count == 0:
            return None
        cached = self._live.get(game_id)
        if cached is not None and cached.position == stored_count - 1:
            return cached
        events = [self.mapper.decode_state(s) for s in self._stored(game_id)]  # type: ignore[attr-defined]
        state = _replay.replay(events)
        self._remember(game_id, state)
        return state

    def _remember(self, game_id: str, state: TableState) -> None:
        live = self._live
        live.pop(game_id, None)
        live[game_id] = state
        while len(live) > LIVE_CACHE_SIZE:
            live.pop(next(iter(live)))


def open_app(db: str | None = None, env: Mapping[str, str] | None = None) -> LedgerApp:
    """The :class:`LedgerApp` on the store named by ``db`` (path or URL) or the
    environment (see the module docstring); ``env`` adds eventsourcing settings."""
    settings = store_env(db)
    if env:
        settings.update(env)
    return LedgerApp(env=settings)
