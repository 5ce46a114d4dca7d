"""The store handle and its reads: the ``eventsourcing`` application every write path builds on (DESIGN.md, layer 2).

One aggregate sequence per game: ``originator_id`` is
:func:`~ledger.stored.persistence.game_uuid` of the ``game_id`` and
``originator_version`` is the event's position + 1 (FORMAT.md "File"). Each
stored state is the canonical JSON of the record event, so an export gives
back the imported events byte for byte.

:class:`GameReads` opens the recorder (the events table plus the
``rummy_journal`` side table, :mod:`ledger.store.journal`), converts once a
journal of the previous layout (:mod:`ledger.sealing.backfill`; it never seals
an event: that is ``rummy-ledger seal-backfill``, asked for), reads
games, their journal and summaries, and keeps the latest table state of the
live games of this process. The append path (:mod:`ledger.store.append`)
and the import path (:mod:`ledger.store.importing`) are layered on it;
:class:`ledger.store.application.LedgerApp` is the whole.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterable, Mapping
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import ApplicationRecorder, StoredEvent

from ledger import replay as _replay
from ledger.errors import GameNotFoundError
from ledger.events import Event, GameStarted
from ledger.game_summary import ListSummary, summarize
from ledger.sealing.backfill import ensure_schema
from ledger.state import TableState
from ledger.store.changes import Changes
from ledger.store.event_rows import EventRows, decode_rows
from ledger.store.journal import JournalEntry, JournalRecorder, first_received, journal_recorder, select_journal
from ledger.store.settings import describe_store
from ledger.stored.persistence import (
    GAME_STARTED_TOPIC,
    MsgspecMapper,
    StoredEventError,
    ensure_topic_index,
    event_counts,
    game_uuid,
    is_sql,
    naming_game,
    schema_lock,
)
from ledger.stored.summaries import SummaryTable
from ledger.variants import find_variant

#: games whose latest state a process keeps for live appends
LIVE_CACHE_SIZE = 64
#: notifications read per page by :meth:`GameReads.list_games`
_PAGE = 1000
#: a write path that does not know a game's first ``at`` (:meth:`GameReads.write_summary`)
UNKNOWN_AT: Any = object()


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
        return msgspec.json.decode(msgspec.json.encode(self), type=dict[str, Any])


class GameReads(Application[UUID]):
    """The store of game records, reading (one sequence per game); the base
    of :class:`ledger.store.application.LedgerApp`."""

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
        # (every CREATE of the store's tables goes inside this block: ledger.stored.persistence.schema_lock)
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

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        #: game id -> table state after its last stored event (live recording), oldest first
        self._live: dict[str, TableState] = {}
        self._started: dict[str, GameStarted] = {}
        #: a whole game's rows by one SQL statement (the fast read of get_events, export_record, the live cache)
        self._event_rows = EventRows(self.recorder)
        #: each game's line of the games list (ledger.stored.summaries), written by the write paths
        self._summaries = SummaryTable(self.recorder)
        #: which games changed since a notification id (the viewer's live streams)
        self.changes = Changes(self.recorder)
        self._convert()

    def _convert(self) -> None:
        """Convert once a journal of the previous layout, saying so on stderr
        (README "Seals"). Nothing is sealed here: events stored without a
        seal stay so, and ``verify`` names them (issue 27)."""
        if not isinstance(self.recorder, JournalRecorder) or not is_sql(self.recorder):
            return
        converted = ensure_schema(self.recorder)
        if converted and converted[1]:
            print(
                f"rummy-ledger: converted the journal of {converted[1]} event{'s' if converted[1] != 1 else ''} of "
                f"{converted[0]} game{'s' if converted[0] != 1 else ''} to this version's layout (seals as bytes, "
                "one journal link per append call; once, from the stored seals)",
                file=sys.stderr,
            )

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

    def _events(self, oid: UUID, lte: int | None = None) -> list[Event]:
        """The decoded events of a game (those up to version ``lte`` when
        given), in position order: by one SQL statement and the topics'
        decoders (:mod:`ledger.store.event_rows`), else, for any row out of
        the ordinary or a store without SQL, through ``select_events`` and
        the mapper, whose :class:`StoredEventError` names the position
        (:func:`naming_game` adds the game). An unknown game gives ``[]``."""
        rows = self._event_rows.rows(oid, lte)
        if rows is not None:
            events = decode_rows(rows, self.mapper)
            if events is not None:
                return events
        return [self.mapper.decode_state(s) for s in self.recorder.select_events(oid, lte=lte)]

    def stored_lines(self, game_id: str) -> list[bytes]:
        """The canonical JSON bytes of each stored event of a game, in
        position order (``[]`` for an unknown game): by one SQL statement when
        every state is plain bytes, else through the mapper (decrypted,
        decompressed), whose :class:`StoredEventError` names the game and position."""
        if not (self.mapper.cipher or self.mapper.compressor):
            states = self._event_rows.states(game_uuid(game_id))
            if states is not None:
                return states
        with naming_game(game_id):
            return [self.mapper.plain_state(s) for s in self._stored(game_id)]

    def has_game(self, game_id: str) -> bool:
        """True when a game with that id is stored."""
        return bool(self.recorder.select_events(game_uuid(game_id), limit=1))

    def game_length(self, game_id: str) -> int:
        """Events stored in the game: its next position (0 for an unknown game)."""
        return self._length(game_uuid(game_id))

    def events_after(self, game_id: str, n: int) -> list[Event]:
        """The game's decoded events stored after its first ``n``: those at
        positions ``n``, ``n + 1``, … in position order (``[]`` when there are
        none, an unknown game too; a live reader asks for the new ones only).
        Raises :class:`StoredEventError`, naming the game and position, for a
        stored row that does not decode."""
        with naming_game(game_id):
            return [self.mapper.decode_state(s) for s in self.recorder.select_events(game_uuid(game_id), gt=n)]

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
        """The game's record events in position order; raises :class:`GameNotFoundError`,
        and :class:`StoredEventError` (naming the game and position) for a stored row that does not decode."""
        with naming_game(game_id):
            events = self._events(game_uuid(game_id))
        if not events:
            raise self.not_found(game_id)
        return events

    def export_record(self, game_id: str, *, with_journal: bool = False) -> bytes:
        """The game's record as canonical JSON Lines (the stored bytes, one event a
        line, each ending in ``\\n``); raises :class:`GameNotFoundError`.

        With ``with_journal`` each event that has a journal row is preceded by
        a comment line ``// journal {"position":N,"by":...,"received_at":...}``
        (plus ``"seal"`` once sealed), which readers ignore (FORMAT.md "File"):
        the event lines stay byte for byte the same.
        """
        states = self.stored_lines(game_id)
        if not states:
            raise self.not_found(game_id)
        if not with_journal:
            return b"\n".join(states) + b"\n"
        lines = [s + b"\n" for s in states]
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

    def list_summaries(self, game_ids: Iterable[str]) -> dict[str, tuple[int, ListSummary]]:
        """The stored games-list lines of ``game_ids`` (one query for all):
        ``{game_id: (version, summary)}`` (:mod:`ledger.stored.summaries`); a
        line is current when ``version`` is the game's length; a game
        without a line is left out."""
        lines = self._summaries.read()
        if not lines:
            return {}
        out: dict[str, tuple[int, ListSummary]] = {}
        for game_id in game_ids:
            line = lines.get(game_uuid(game_id).hex)
            if line is not None:
                out[game_id] = line
        return out

    def first_stored(self, game_ids: Iterable[str]) -> dict[str, str]:
        """When each of ``game_ids`` was first stored: the journal's
        ``received_at`` of its position 0 (:func:`ledger.store.journal.first_received`,
        one query for all), ``{game_id: received_at}``; a game without that
        row (stored before the journal) is left out."""
        received = first_received(self.recorder, GAME_STARTED_TOPIC)
        if not received:
            return {}
        out: dict[str, str] = {}
        for game_id in game_ids:
            at = received.get(game_uuid(game_id).hex)
            if at is not None:
                out[game_id] = at
        return out

    def summary_line(self, game_id: str) -> tuple[int, ListSummary] | None:
        """The stored games-list line of one game, ``(version, summary)``
        (current when ``version`` is the game's length), or None (one query)."""
        return self._summaries.get(game_uuid(game_id))

    def put_summary(self, game_id: str, version: int, summary: ListSummary) -> None:
        """Store the games-list line of ``game_id`` at ``version`` events (the
        viewer's fill of a line missing or stale, from its own fold), unless
        a later version's line is stored."""
        self._summaries.write([(game_uuid(game_id), version, summary)])

    def write_summary(self, game_id: str, length: int, state: TableState, first: str | None | Any) -> None:
        """After ``length`` events of ``game_id`` are stored, folded to
        ``state``: its games-list line, ``first`` its first ``at``
        (:data:`UNKNOWN_AT`: not known here, then no line is written and the
        list folds the game once)."""
        if first is UNKNOWN_AT:
            return
        self._summaries.write([(game_uuid(game_id), length, summarize(state, first))])

    def _live_state(self, game_id: str, stored_count: int) -> TableState | None:
        """The state after the ``stored_count`` stored events of a game: from
        the per-process cache when it is current, else by replaying them."""
        if stored_count == 0:
            return None
        cached = self._live.get(game_id)
        if cached is not None and cached.position == stored_count - 1:
            return cached
        # exactly the first ``stored_count`` events: another writer may have appended meanwhile
        events = self._events(game_uuid(game_id), lte=stored_count)
        state = _replay.replay(events)
        self.remember_state(game_id, state)
        return state

    def remember_state(self, game_id: str, state: TableState) -> None:
        """Keep ``state`` as the table after ``game_id``'s last stored event
        (the write paths call it once their events are stored; at most
        :data:`LIVE_CACHE_SIZE` games, the oldest dropped first)."""
        live = self._live
        live.pop(game_id, None)
        live[game_id] = state
        while len(live) > LIVE_CACHE_SIZE:
            live.pop(next(iter(live)))


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
