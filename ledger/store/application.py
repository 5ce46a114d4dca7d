"""The event store of game records: an ``eventsourcing`` application (DESIGN.md, layer 2).

One aggregate sequence per game: ``originator_id`` is
:func:`~ledger.store.persistence.game_uuid` of the ``game_id`` and
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

import difflib
import getpass
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, StoredEvent

from ledger import replay as _replay
from ledger.errors import ConcurrentAppendError, GameConflictError, GameNotFoundError, RecordError, RuleViolationError
from ledger.events import Event, GameStarted, encode_event
from ledger.records import Record, read_record
from ledger.state import Finding, TableState
from ledger.store import sealstore
from ledger.store.journal import JournalEntry, JournalRecorder, journal_recorder, received_now, select_journal
from ledger.store.persistence import (
    GAME_STARTED_TOPIC,
    EncodedGameEvent,
    GameEvent,
    MsgspecMapper,
    StoredEventError,
    ensure_topic_index,
    event_counts,
    game_uuid,
    naming_game,
    schema_lock,
)
from ledger.store.probe import check_store
from ledger.variants import find_variant

#: games whose latest state a process keeps for live appends
LIVE_CACHE_SIZE = 64

DEFAULT_DB = "ledger.db"
DB_ENV_VAR = "RUMMY_LEDGER_DB"
_PAGE = 1000
#: events per transaction of a batched folder import (:meth:`LedgerApp.import_records`)
BULK_BATCH_EVENTS = 20_000


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


def os_user() -> str:
    """The operating-system user running this process (for the journal's
    ``"cli:<os user>"`` / ``"import:<os user>"``); the numeric uid when the
    user has no name."""
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no USER variable and no passwd entry
        return str(os.getuid()) if hasattr(os, "getuid") else "unknown"


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of :meth:`LedgerApp.import_record`.

    ``status`` is ``"stored"`` (a new game), ``"appended"`` (the file began
    with the stored game's events; its tail was appended, ``previous`` is the
    stored length before) or ``"already_stored"``; ``events`` is the number of
    events of the record (the game's length afterwards).
    """

    game_id: str
    events: int
    status: str
    path: str | None = None
    previous: int | None = None

    @property
    def appended(self) -> int:
        """Events this import added to the store (0 when already stored)."""
        if self.status == "stored":
            return self.events
        if self.status == "appended":
            return self.events - (self.previous or 0)
        return 0


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of :meth:`LedgerApp.append_events` (CONTRACT-append.md).

    Attributes:
        game_id: the game appended to.
        first: position of the first event appended (FORMAT.md "File").
        length: events stored in the game after the append (its next position).
        findings: findings raised by the appended events only, by position
            (``{position, hand, seat, rule, message}``, RULES.md ids).
        hand_over: the table state says the current hand is over
            (:attr:`ledger.state.TableState.hand_over`).
        game_over: ``game_ended`` is stored, or the variant's end condition
            holds (:attr:`ledger.state.TableState.game_over`).
    """

    game_id: str
    first: int
    length: int
    findings: tuple[Finding, ...]
    hand_over: bool
    game_over: bool


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
    #: set by ``Application.__init__`` from :meth:`construct_mapper` (declared here with its own type)
    mapper: MsgspecMapper

    def construct_mapper(self) -> MsgspecMapper:
        return MsgspecMapper(compressor=self.factory.compressor(), cipher=self.factory.cipher())

    def construct_recorder(self) -> ApplicationRecorder:
        creating = str(self.env.get("CREATE_TABLE", "yes")).lower() in ("y", "yes", "t", "true", "on", "1")
        datastore = getattr(self.factory, "datastore", None)
        schema = getattr(datastore, "schema", "public")
        if not creating:
            return journal_recorder(self.factory)
        # several importers on an empty PostgreSQL database: one creates, the others wait
        # (every CREATE of the store's tables goes inside this block: ledger.store.persistence.schema_lock)
        with schema_lock(datastore):
            if datastore is not None and schema != "public":
                # A ``?schema=`` store URL names a schema the tables go in: create it on first use.
                from psycopg.sql import SQL, Identifier

                with datastore.transaction(commit=True) as curs:
                    curs.execute(SQL("CREATE SCHEMA IF NOT EXISTS {}").format(Identifier(schema)))
            # eventsourcing's recorder plus the ``rummy_journal`` side table (ledger.store.journal)
            recorder = journal_recorder(self.factory)
            ensure_topic_index(recorder)
        return recorder

    # --- reading ---

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        #: game id -> table state after its last stored event (live recording), oldest first
        self._live: dict[str, TableState] = {}
        self._started: dict[str, GameStarted] = {}
        #: ``(games, events)`` sealed at this open for a store from before the seal chain, else None
        self.backfilled = self._backfill()

    def _backfill(self) -> tuple[int, int] | None:
        """Seal once the events a store holds from before the seal chain (no
        journal row or a NULL seal), saying so on stderr (README "Seals")."""
        if not isinstance(self.recorder, JournalRecorder) or not sealstore._is_sql(self.recorder):
            return None
        sealstore.ensure_schema(self.recorder)
        done = sealstore.backfill(self, f"backfill:{os_user()}", received_now())
        if done and done[1]:
            games, events = done
            print(
                f"rummy-ledger: sealed {events} event{'s' if events != 1 else ''} of {games} "
                f"game{'s' if games != 1 else ''} "
                "stored before the seal chain (once; rummy-ledger verify checks them)",
                file=sys.stderr,
            )
        return done

    def not_found(self, game_id: str) -> GameNotFoundError:
        """The error for an unknown ``game_id``: it names this store and the
        stored ids close to it (:func:`close_ids`), e.g. ``no game
        'Bur-Dispute' in the store (SQLite ./ledger.db); did you mean bur-dispute?``."""
        try:
            ids = [g.game_id for g in self.list_games()]
        except Exception:  # noqa: BLE001 - a store that cannot list still gets the plain error
            ids = []
        return GameNotFoundError(game_id, store=describe_store(self.env), suggestions=close_ids(game_id, ids))

    def _stored(self, game_id: str) -> list[StoredEvent]:
        return list(self.recorder.select_events(game_uuid(game_id)))

    def has_game(self, game_id: str) -> bool:
        """True when a game with that id is stored."""
        return bool(self.recorder.select_events(game_uuid(game_id), limit=1))

    def game_length(self, game_id: str) -> int:
        """Events stored in the game: its next position (0 for an unknown game)."""
        return self._length(game_uuid(game_id))

    def game_started(self, game_id: str) -> GameStarted:
        """The stored ``game_started`` of a game (position 0, which never
        changes: kept per process, at most ``LIVE_CACHE_SIZE`` games).
        Raises :class:`GameNotFoundError` for an unknown game."""
        cached = self._started.get(game_id)
        if cached is not None:
            return cached
        first = self.recorder.select_events(game_uuid(game_id), limit=1)
        if not first:
            raise GameNotFoundError(game_id)
        event = self.mapper.decode_state(first[0])
        if not isinstance(event, GameStarted):
            raise StoredEventError(f"holds {event.type}, not game_started", 0, game_id)
        if len(self._started) >= LIVE_CACHE_SIZE:
            self._started.pop(next(iter(self._started)))
        self._started[game_id] = event
        return event

    def _length(self, oid: UUID) -> int:
        last = self.recorder.select_events(oid, desc=True, limit=1)
        return last[0].originator_version if last else 0

    def table_state(self, game_id: str) -> TableState:
        """The table after the game's last stored event (the state the next
        append is checked against; kept per process for live games). Raises
        :class:`GameNotFoundError`."""
        length = self.game_length(game_id)
        state = self._live_state(game_id, length)
        if state is None:
            raise self.not_found(game_id)
        return state

    def journal(self, game_id: str, after: int = -1) -> list[JournalEntry]:
        """Who appended each stored event of a game, and when: its
        ``rummy_journal`` rows in position order (CONTRACT-append.md), those
        at positions after ``after`` (default: all; a live reader asks for
        the new rows only). Events stored before the journal existed have no
        row. Raises :class:`GameNotFoundError` for an unknown game."""
        oid = game_uuid(game_id)
        rows = select_journal(self.recorder, oid, after)
        if not rows and not self.recorder.select_events(oid, limit=1):
            raise self.not_found(game_id)
        return rows

    def get_events(self, game_id: str) -> list[Event]:
        """The game's record events in position order; raises :class:`GameNotFoundError`."""
        stored = self._stored(game_id)
        if not stored:
            raise self.not_found(game_id)
        with naming_game(game_id):
            return [self.mapper.decode_state(s) for s in stored]

    def export_record(self, game_id: str, *, with_journal: bool = False) -> bytes:
        """The game's record as canonical JSON Lines (the stored bytes, one event a
        line, each ending in ``\\n``); raises :class:`GameNotFoundError`.

        With ``with_journal`` each event that has a journal row is preceded by
        a comment line ``// journal {"position":N,"by":...,"received_at":...}``
        (plus ``"seal"`` once sealed), which readers ignore (FORMAT.md "File"):
        the event lines stay byte for byte the same.
        """
        stored = self._stored(game_id)
        if not stored:
            raise self.not_found(game_id)
        with naming_game(game_id):
            lines = [self.mapper.plain_state(s) + b"\n" for s in stored]
        if not with_journal:
            return b"".join(lines)
        rows = {j.position: j for j in select_journal(self.recorder, game_uuid(game_id))}
        out: list[bytes] = []
        for position, line in enumerate(lines):
            j = rows.get(position)
            if j is not None:
                note: dict[str, Any] = {"position": position, "by": j.appended_by, "received_at": j.received_at}
                if j.seal is not None:
                    note["seal"] = j.seal
                out.append(b"// journal " + msgspec.json.encode(note) + b"\n")
            out.append(line)
        return b"".join(out)

    def list_games(self) -> list[GameSummary]:
        """Every stored game in the order first stored, from the notification log
        filtered by the ``game_started`` topic plus one grouped count query."""
        counts = event_counts(self.recorder)
        games: list[GameSummary] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(
                start, _PAGE, topics=[GAME_STARTED_TOPIC], inclusive_of_start=False
            )
            for n in page:
                first = self.mapper.decode_state(n)
                assert isinstance(first, GameStarted)
                if counts is not None:
                    events, hands = counts.get(
                        n.originator_id.hex if isinstance(n.originator_id, UUID) else str(n.originator_id), (1, 0)
                    )
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

    def import_record(self, record: Record, *, strict: bool = False, appended_by: str | None = None) -> ImportResult:
        """Store a whole record in one transaction, after validating it; or,
        when the game is stored and the record begins with its events, append
        the record's tail (FORMAT.md "A record grows").

        Returns an :class:`ImportResult` (``"stored"``, ``"appended"``, or
        ``"already_stored"`` when the same events are stored already). Raises
        :class:`RecordError` (REC-…, with line and path) for an impossible
        record, :class:`RuleViolationError` with ``strict`` (live play) when
        the record breaks a rule, and :class:`GameConflictError` when the
        stored events differ from the record's (naming the first differing
        position and line) or the stored game is longer. Nothing is stored
        unless everything is. The journal names ``appended_by`` (default
        ``"import:<os user>"``).
        """
        final, game_id = self._checked(record, strict)
        return self._import_checked(record, final, game_id, appended_by or f"import:{os_user()}")

    @staticmethod
    def _checked(record: Record, strict: bool) -> tuple[TableState, str]:
        """The record validated by the fold: its final state and game id
        (the checks of :meth:`import_record`, before anything is stored)."""
        final = _replay.validate(record)
        if strict and final.findings:
            earliest = min(final.findings, key=lambda f: f.position)
            raise RuleViolationError(
                earliest, len(final.findings), line=record.line_of(earliest.position), path=record.path
            )
        first = record.events[0] if record.events else None
        if not isinstance(first, GameStarted):
            raise RecordError(
                "REC-ORDER",
                "a record starts with game_started",
                line=record.line_of(0),
                field="type",
                position=0,
                path=record.path,
            )
        return final, first.game_id

    def _import_checked(self, record: Record, final: TableState, game_id: str, by: str) -> ImportResult:
        """Store a validated record (one transaction), or append its tail."""
        oid = game_uuid(game_id)
        for _attempt in range(3):  # a writer appending meanwhile: compare again
            if self.recorder.select_events(oid, limit=1):
                stored = self._compare(record, game_id)
                if stored == len(record.events):
                    return ImportResult(game_id=game_id, events=stored, status="already_stored", path=record.path)
                try:
                    self._put(game_id, oid, stored, record.events[stored:], final, by)
                except ConcurrentAppendError:
                    continue
                return ImportResult(
                    game_id=game_id, events=len(record.events), status="appended", path=record.path, previous=stored
                )
            try:
                self._put(game_id, oid, 0, record.events, final, by)
            except ConcurrentAppendError:
                continue  # another importer stored this game first: same events, a prefix or a conflict
            return ImportResult(game_id=game_id, events=len(record.events), status="stored", path=record.path)
        raise ConcurrentAppendError(game_id, self._length(oid), length=self._length(oid))

    def _compare(self, record: Record, game_id: str) -> int:
        """How many of the record's events are stored, when the stored game is
        the record or its beginning; else :class:`GameConflictError`."""
        stored = [self.mapper.plain_state(s) for s in self._stored(game_id)]
        mine = [encode_event(e) for e in record.events]
        if len(stored) <= len(mine) and stored == mine[: len(stored)]:
            return len(stored)
        diff = next((i for i, (a, b) in enumerate(zip(stored, mine)) if a != b), min(len(stored), len(mine)))
        line = record.line_of(diff)
        where = f"position {diff}" + (f", line {line}" if line is not None else "")
        raise GameConflictError(
            game_id, f"{len(stored)} events stored, {len(mine)} in this record, first difference at {where}"
        )

    def append_events(
        self,
        game_id: str,
        events: Sequence[Event] | Record,
        *,
        expected: int | None = None,
        appended_by: str,
    ) -> AppendResult:
        """Append events to a stored game (or create it), checked by the fold,
        all in one transaction with their journal rows (CONTRACT-append.md).

        ``expected`` is the position the writer expects its first event to
        take (the game's current length; 0 to create a game), None for no
        check. ``appended_by`` names the writer in the journal (a token's
        name, ``"cli:<os user>"``, ...). ``events`` may be a
        :class:`~ledger.records.Record` (events read from a file): errors then
        name its file and line.

        Returns an :class:`AppendResult`. Raises (nothing stored, the game
        stays appendable at the same position):

        - :class:`RecordError` (``REC-…``, ``position``, ``field``) for an
          impossible event, e.g. ``REC-ORDER`` after ``game_ended``, or no events;
        - :class:`ConcurrentAppendError` (``.length`` = the game's length) when
          ``expected`` is not the game's length, or another writer stored
          events at these positions first (of two writers racing for a
          position exactly one wins; this holds across threads and processes);
        - :class:`GameNotFoundError` for an unknown game, unless the first
          event is ``game_started`` for ``game_id`` and ``expected`` is None or 0;
        - :class:`GameConflictError` for a ``game_started`` when the game exists.
        """
        record = events if isinstance(events, Record) else None
        batch = tuple(events.events if isinstance(events, Record) else events)
        if not appended_by:
            raise ValueError("appended_by must name who appends (journal)")
        oid = game_uuid(game_id)
        cached = self._live.get(game_id)
        if (
            cached is not None
            and expected is not None
            and expected == cached.position + 1
            and batch
            and not isinstance(batch[0], GameStarted)
        ):
            # the writer expects what this process stored last: no length query (a
            # position taken meanwhile by another process fails the insert below
            # on the store's unique (game, position) key: ConcurrentAppendError)
            length = expected
        else:
            length = self._length(oid)
        if not batch:
            raise RecordError(
                "REC-FORMAT", "no events to append", position=length, path=record.path if record else None
            )
        head = batch[0]
        if length == 0:
            if not isinstance(head, GameStarted) or expected not in (None, 0):
                raise self.not_found(game_id)
            if head.game_id != game_id:
                err = RecordError(
                    "REC-REF", f"game_started names game {head.game_id!r}, not {game_id!r}", field="game_id", position=0
                )
                raise self._located(err, record, 0)
        elif isinstance(head, GameStarted):
            raise GameConflictError(
                game_id,
                f"{length} events stored",
                message=f"game {game_id!r} already exists ({length} event{'s' if length != 1 else ''} stored); "
                "game_started opens a new game only",
            )
        if expected is not None and expected != length:
            raise ConcurrentAppendError(game_id, expected, length=length)
        state = self._live_state(game_id, length)
        try:
            for event in batch:
                state = _replay.evolve(state, event)
        except RecordError as err:
            raise self._located(err, record, length) from None
        assert state is not None
        self._put(game_id, oid, length, batch, state, appended_by)
        return AppendResult(
            game_id=game_id,
            first=length,
            length=length + len(batch),
            findings=_findings_from(state, length),
            hand_over=state.hand_over,
            game_over=state.game_over,
        )

    @staticmethod
    def _located(err: RecordError, record: Record | None, first: int) -> RecordError:
        """``err`` located at the file line of its event when the events came from a file."""
        if record is None or err.position is None:
            return err
        return err.with_location(line=record.line_of(err.position - first), path=record.path)

    def append_event(
        self, game_id: str, event: Event, *, expected_position: int | None = None, appended_by: str | None = None
    ) -> int:
        """Record one more event of a live game; returns its position.

        A thin wrapper of :meth:`append_events` (same errors); the journal
        names ``appended_by`` (default ``"library:<os user>"``).
        """
        by = appended_by or f"library:{os_user()}"
        return self.append_events(game_id, [event], expected=expected_position, appended_by=by).first

    def _put(
        self, game_id: str, oid: UUID, first: int, events: Sequence[Event], state: TableState, appended_by: str
    ) -> None:
        """Store ``events`` at positions ``first``… with their journal rows in
        one transaction; ``state`` is the table after them (kept for the next
        append). Each journal row carries the event's seal and journal seal
        (:func:`ledger.store.sealstore.seal_batch`: FORMAT.md "Seal", continued from
        the previous event's stored seal). Raises
        :class:`ConcurrentAppendError` when a position is taken and
        :class:`~ledger.store.sealstore.SealError` when the previous event has no
        stored seal."""
        domain_events, journal = self._rows_for(oid, first, events, appended_by)
        try:
            self.events.put(domain_events, journal=journal)
        except IntegrityError:
            self._live.pop(game_id, None)
            raise ConcurrentAppendError(game_id, first, length=self._length(oid)) from None
        self._remember(game_id, state)

    def _rows_for(
        self, oid: UUID, first: int, events: Sequence[Event], appended_by: str
    ) -> tuple[list[GameEvent], list[JournalEntry]]:
        """The domain events and journal rows (with seals) that store ``events`` at
        positions ``first``… (one path for appends, imports and bulk imports:
        the same bytes, authors and seals whichever way a game is stored)."""
        received = received_now()
        lines = [encode_event(e) for e in events]
        seals = sealstore.seal_batch(self, oid, first, lines, appended_by, received)
        journal = [
            JournalEntry(
                position=first + i, appended_by=appended_by, received_at=received, seal=seal, journal_seal=jseal
            )
            for i, (seal, jseal) in enumerate(seals)
        ]
        domain_events: list[GameEvent] = [
            EncodedGameEvent(originator_id=oid, originator_version=first + i + 1, event=e, line=line)
            for i, (e, line) in enumerate(zip(events, lines))
        ]
        return domain_events, journal

    def import_records(
        self,
        sources: Iterable[Record | str | os.PathLike[str]],
        *,
        strict: bool = False,
        appended_by: str | None = None,
        batch_events: int = BULK_BATCH_EVENTS,
    ) -> Iterator[tuple[Record | str | os.PathLike[str], ImportResult | Exception]]:
        """Import many record files (a folder import), storing new games in
        batches: one transaction for up to ``batch_events`` events of several
        games (SQLite: one ``executemany``; PostgreSQL: the library's single
        ``INSERT … unnest`` plus the journal rows, pipelined).

        ``sources`` are :class:`~ledger.records.Record` objects or file paths
        (read with :func:`~ledger.records.read_record`). Yields
        ``(source, outcome)`` for each source, in the order given, once its
        batch is committed; ``outcome`` is the :class:`ImportResult` that
        :meth:`import_record` returns, or the exception it would raise:
        :class:`RecordError`, :class:`RuleViolationError`,
        :class:`GameConflictError` or ``OSError`` (a file that cannot be
        read). Any other exception (e.g. :class:`ConcurrentAppendError`
        after three lost races, as :meth:`import_record`) propagates, after
        the files before it are stored.

        The same outcome, the same stored bytes, journal authors and seals as
        :meth:`import_record` file by file, and the same order of
        notification ids (the order of ``sources``):

        - a rejected file stores nothing, and never enters a batch (every
          record is validated by the fold before it joins one);
        - a game already stored, or named twice in the folder, goes through
          :meth:`import_record` (after the batch before it is stored);
        - when a batch fails on a taken position (another writer stored one
          of its games meanwhile), nothing of it is stored and its files are
          imported one by one instead.

        Memory: at most one batch of records (``batch_events`` events) is held.
        """
        by = appended_by or f"import:{os_user()}"
        pending: list[_Pending] = []
        names: set[str] = set()
        size = 0

        def flush() -> Iterator[tuple[Any, ImportResult | Exception]]:
            nonlocal size
            if not pending:
                return
            batch = list(pending)
            pending.clear()
            names.clear()
            size = 0
            yield from self._flush(batch, by)

        try:
            for source in sources:
                try:
                    record = source if isinstance(source, Record) else read_record(source)
                    final, game_id = self._checked(record, strict)
                except (RecordError, RuleViolationError, OSError) as exc:
                    pending.append(_Pending(source, None, None, None, exc))
                    continue
                oid = game_uuid(game_id)
                if game_id in names or self.recorder.select_events(oid, limit=1):
                    yield from flush()
                    yield source, self._one(record, final, game_id, by)
                    continue
                pending.append(_Pending(source, record, final, self._rows_for(oid, 0, record.events, by), None))
                names.add(game_id)
                size += len(record.events)
                if size >= batch_events:
                    yield from flush()
            yield from flush()
        except GeneratorExit:
            raise
        except BaseException:
            for _ in flush():  # what came before the error is stored, as file by file
                pass
            raise

    def _one(self, record: Record, final: TableState, game_id: str, by: str) -> ImportResult | Exception:
        try:
            return self._import_checked(record, final, game_id, by)
        except (RecordError, RuleViolationError, GameConflictError) as exc:
            return exc

    def _flush(self, batch: list[_Pending], by: str) -> Iterator[tuple[Any, ImportResult | Exception]]:
        """Store a batch of new games in one transaction; yield their outcomes."""
        stored = [p for p in batch if p.rows is not None]
        domain_events = [e for p in stored if p.rows is not None for e in p.rows[0]]
        journal = [j for p in stored if p.rows is not None for j in p.rows[1]]
        together = True
        if domain_events:
            try:
                self.events.put(domain_events, journal=journal, bulk=True)
            except IntegrityError:
                together = False  # another writer stored one of these games meanwhile
        for p in batch:
            if p.error is not None:
                yield p.source, p.error
            elif together:
                assert p.record is not None and p.final is not None
                self._remember(p.final.game_id, p.final)
                yield (
                    p.source,
                    ImportResult(
                        game_id=p.final.game_id, events=len(p.record.events), status="stored", path=p.record.path
                    ),
                )
            else:
                assert p.record is not None and p.final is not None
                yield p.source, self._one(p.record, p.final, p.final.game_id, by)

    def _live_state(self, game_id: str, stored_count: int) -> TableState | None:
        """The state after the ``stored_count`` stored events of a game: from
        the per-process cache when it is current, else by replaying them."""
        if stored_count == 0:
            return None
        cached = self._live.get(game_id)
        if cached is not None and cached.position == stored_count - 1:
            return cached
        # exactly the first ``stored_count`` events: another writer may have appended meanwhile
        stored = self.recorder.select_events(game_uuid(game_id), lte=stored_count)
        events = [self.mapper.decode_state(s) for s in stored]
        state = _replay.replay(events)
        self._remember(game_id, state)
        return state

    def _remember(self, game_id: str, state: TableState) -> None:
        live = self._live
        live.pop(game_id, None)
        live[game_id] = state
        while len(live) > LIVE_CACHE_SIZE:
            live.pop(next(iter(live)))


class _Pending(msgspec.Struct, frozen=True):
    """A source waiting in a batch of :meth:`LedgerApp.import_records`: its
    validated record and prepared rows, or the error it raised."""

    source: Any
    record: Record | None
    final: TableState | None
    rows: tuple[list[GameEvent], list[JournalEntry]] | None
    error: Exception | None


def _findings_from(state: TableState, first: int) -> tuple[Finding, ...]:
    """The findings at positions ``first``… (those the appended events raised:
    a finding is reported at the position of the event that raises it)."""
    found: list[Finding] = []
    for f in reversed(state.findings):
        if f.position < first:
            break
        found.append(f)
    return tuple(reversed(found))


def close_ids(game_id: str, ids: Iterable[str], n: int = 3) -> tuple[str, ...]:
    """Stored ids close to ``game_id``, best first: the one that differs only
    in case alone, else up to ``n`` of :func:`difflib.get_close_matches`
    (ratio at least 0.6) of the lower-cased ids.

    >>> close_ids("Bur-Dispute", ["bur-dispute", "gin-knock", "bur-disputes"])
    ('bur-dispute',)
    >>> close_ids("bur-disput", ["bur-dispute", "gin-knock", "bur-disputes"])
    ('bur-dispute', 'bur-disputes')
    >>> close_ids("zzz", ["bur-dispute"])
    ()
    """
    by_lower: dict[str, str] = {}
    for i in ids:
        by_lower.setdefault(i.lower(), i)
    same = by_lower.get(game_id.lower())
    if same is not None and same != game_id:
        return (same,)  # the id in other case: that is the one meant
    return tuple(
        by_lower[m] for m in difflib.get_close_matches(game_id.lower(), list(by_lower), n=n) if by_lower[m] != game_id
    )


def open_app(db: str | None = None, env: Mapping[str, str] | None = None, *, create: bool = True) -> LedgerApp:
    """The :class:`LedgerApp` on the store named by ``db`` (path or URL) or the
    environment (see the module docstring); ``env`` adds eventsourcing settings.

    Checked first by :func:`ledger.store.probe.check_store`: with
    ``create=False`` (commands that only read) a SQLite file that does not
    exist raises :class:`~ledger.store.probe.StoreMissingError` instead of
    being created; a PostgreSQL database that does not exist or a server that
    does not answer raises :class:`~ledger.store.probe.StoreUnreachableError`
    at once."""
    settings = store_env(db)
    if env:
        settings.update(env)
    check_store(settings, create=create)
    return LedgerApp(env=settings)
