"""Persistence of record events on the ``eventsourcing`` library (DESIGN.md, layer 2).

eventsourcing 9.5 has no msgspec mapper built in; :class:`MsgspecMapper`
follows the pattern of the library's ``examples/aggregate9``: a
:class:`~eventsourcing.persistence.Mapper` subclass that encodes with msgspec
and a :class:`NullTranscoder` that is never asked to do anything.

The stored form is read by both the store (:mod:`ledger.store`) and the
seal (:mod:`ledger.sealing`), and imports neither.

Stored shape (one row per record event, FORMAT.md "Events"):

- ``originator_id``: :func:`game_uuid` of the game's ``game_id``;
- ``originator_version``: the event's position + 1;
- ``topic``: the event class's topic, e.g. ``"ledger.events:CardDrawn"``
  (class names are stored: never rename one without ``register_topic``);
- ``state``: the canonical JSON of the record event, exactly
  :func:`ledger.events.encode_event`, so an export is the stored bytes.

>>> from ledger.events import CardDrawn
>>> mapper = MsgspecMapper()
>>> gid = game_uuid("club-1")
>>> stored = mapper.to_stored_event(
...     GameEvent(originator_id=gid, originator_version=3, event=CardDrawn(seat=0, card="6H")))
>>> stored.topic, stored.state
('ledger.events:CardDrawn', b'{"type":"card_drawn","seat":0,"card":"6H"}')
>>> mapper.to_domain_event(stored).position
2
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.persistence import (
    ApplicationRecorder,
    Cipher,
    Compressor,
    Mapper,
    MapperDeserialisationError,
    StoredEvent,
    Transcoder,
)
from eventsourcing.utils import get_topic, resolve_topic

from ledger.errors import LedgerError
from ledger.events import EVENT_TYPES, Event, GameStarted, HandDealt, at_moment, encode_event
from ledger.tournament.events import TOURNAMENT_EVENT_TYPES, TournamentStarted

#: namespace of the games' originator ids; stored data depends on it: never change it
GAME_NAMESPACE = uuid5(NAMESPACE_URL, "https://rummy-ledger/games/")

#: topic of each event class, e.g. ``GameStarted`` -> ``"ledger.events:GameStarted"``; a
#: tournament record's events too (``"ledger.tournament.events:RoundPaired"``, TOURNAMENT.md):
#: a tournament is a sequence of the same store, under the same seal chain
TOPICS: dict[type[Event], str] = {cls: get_topic(cls) for cls in (*EVENT_TYPES, *TOURNAMENT_EVENT_TYPES)}
GAME_STARTED_TOPIC = TOPICS[GameStarted]
HAND_DEALT_TOPIC = TOPICS[HandDealt]
TOURNAMENT_STARTED_TOPIC = TOPICS[TournamentStarted]


def game_uuid(game_id: str) -> UUID:
    """The originator id of a game: ``uuid5(GAME_NAMESPACE, game_id)``.

    >>> game_uuid("club-2026-11-29-t3")
    UUID('7dcff513-5b24-5523-a870-19fdec580241')
    """
    return uuid5(GAME_NAMESPACE, game_id)


class GameEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A record event in its game's sequence: the domain event the store keeps.

    ``originator_version`` is ``position + 1``; ``event`` is the record event.
    """

    originator_id: UUID
    originator_version: int
    event: Event

    @property
    def position(self) -> int:
        """0-based position of the event in its record (FORMAT.md "File")."""
        return self.originator_version - 1

    @property
    def timestamp(self) -> datetime:
        """The event's ``at`` when given, else the epoch (eventsourcing expects a timestamp)."""
        at = self.event.at
        if at:
            return at_moment(at)
        return datetime(1970, 1, 1, tzinfo=UTC)


class EncodedGameEvent(GameEvent, frozen=True, kw_only=True):
    """A :class:`GameEvent` about to be stored whose canonical JSON ``line``
    (:func:`ledger.events.encode_event` of ``event``) is already made: the
    append path makes it for the seal chain, and the mapper stores it as
    it is instead of encoding the event a second time."""

    line: bytes


class NullTranscoder(Transcoder):
    """A transcoder that is never used: :class:`MsgspecMapper` encodes itself."""

    def encode(self, obj: Any) -> bytes:
        raise NotImplementedError("MsgspecMapper does not use a transcoder")

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError("MsgspecMapper does not use a transcoder")


@cache
def _decoder_for(topic: str) -> tuple[type[Event], msgspec.json.Decoder[Event]]:
    cls = resolve_topic(topic)
    if not (isinstance(cls, type) and issubclass(cls, Event)):
        raise TypeError(f"topic {topic!r} is not a record event class")
    decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(cls)
    return cls, decoder


class MsgspecMapper(Mapper[UUID]):
    """Maps :class:`GameEvent` to and from :class:`StoredEvent` with msgspec.

    ``to_stored_event`` takes a :class:`GameEvent` (or any object with
    ``originator_id``, ``originator_version`` and ``event``); the state is
    :func:`~ledger.events.encode_event` of the record event, then compressed
    and encrypted when the application is configured with a compressor or
    cipher. ``to_domain_event`` raises
    :class:`~eventsourcing.persistence.MapperDeserialisationError` when the
    stored state cannot be decoded.
    """

    def __init__(
        self,
        transcoder: Transcoder | None = None,
        compressor: Compressor | None = None,
        cipher: Cipher | None = None,
    ) -> None:
        super().__init__(transcoder or NullTranscoder(), compressor=compressor, cipher=cipher)

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        event: Event = domain_event.event
        line = domain_event.line if type(domain_event) is EncodedGameEvent else encode_event(event)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=TOPICS.get(type(event)) or get_topic(type(event)),
            state=self.stored_state(line),
        )

    def stored_state(self, line: bytes) -> bytes:
        """The stored state of the event whose canonical JSON is ``line``:
        compressed, then encrypted, when the application is configured so."""
        if self.compressor:
            line = self.compressor.compress(line)
        if self.cipher:
            line = self.cipher.encrypt(line)
        return line

    def to_domain_event(self, stored_event: StoredEvent) -> GameEvent:
        return GameEvent(
            originator_id=_as_uuid(stored_event.originator_id),
            originator_version=stored_event.originator_version,
            event=self.decode_state(stored_event),
        )

    def decode_state(self, stored_event: StoredEvent) -> Event:
        """The record event held by ``stored_event`` (decrypted, decompressed);
        raises :class:`StoredEventError` (naming the position) when it does not decode."""
        state = self.plain_state(stored_event)
        try:
            return decode_stored(state, stored_event.topic)
        except Exception as exc:
            raise StoredEventError(
                f"the stored event ({stored_event.topic}) does not decode: {exc}", stored_event.originator_version - 1
            ) from exc

    def plain_state(self, stored_event: StoredEvent) -> bytes:
        """The canonical JSON bytes of the stored event (after cipher and
        compressor); raises :class:`StoredEventError` for a row that does not
        hold bytes (changed outside rummy-ledger)."""
        state = stored_event.state
        position = stored_event.originator_version - 1
        if not isinstance(state, (bytes, bytearray, memoryview)):
            raise StoredEventError(
                f"the stored event is {type(state).__name__}, not bytes: the row was changed outside rummy-ledger",
                position,
            )
        try:
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
        except Exception as exc:
            raise StoredEventError(
                f"the stored event cannot be decrypted or decompressed ({type(exc).__name__}: {exc})", position
            ) from exc
        return bytes(state)


class StoredEventError(LedgerError, MapperDeserialisationError):
    """A stored event that does not decode (a row changed outside rummy-ledger,
    or stored by a build with other limits). ``position`` is its 0-based
    position; :meth:`of_game` names the game in the message."""

    def __init__(self, reason: str, position: int, game_id: str | None = None) -> None:
        reason = shown(reason)  # a stored topic or value in it may hold control characters
        self.reason, self.position, self.game_id = reason, position, game_id
        where = f"game {game_id!r} position {position}" if game_id is not None else f"position {position}"
        super().__init__(f"{where}: {reason}")

    def of_game(self, game_id: str) -> StoredEventError:
        """The same error naming ``game_id``."""
        return StoredEventError(self.reason, self.position, game_id)


def shown(text: str) -> str:
    r"""``text`` as it may be printed on a terminal: each character that is
    not printable (a control character, an escape sequence's ESC, stored
    text edited behind the product's back) as its Python escape, the rest
    as it is.

    >>> shown("2026-12-01T08:15:02Z"), shown("a\x1b[31mb\n")
    ('2026-12-01T08:15:02Z', 'a\\x1b[31mb\\n')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@contextlib.contextmanager
def naming_game(game_id: str) -> Iterator[None]:
    """Re-raise a :class:`StoredEventError` inside the block with ``game_id`` in it."""
    try:
        yield
    except StoredEventError as exc:
        if exc.game_id is not None:
            raise
        raise exc.of_game(game_id) from None


def decode_stored(state: bytes, topic: str) -> Event:
    """Decode canonical JSON ``state`` as the event class named by ``topic``."""
    _cls, decoder = _decoder_for(topic)
    return decoder.decode(state)


def _as_uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


# --- recorder-specific helpers: listing 10,000 games must not read every row ---


def is_sql(recorder: ApplicationRecorder) -> bool:
    """True for the SQLite and PostgreSQL recorders (the seal chain's SQL is for those)."""
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    if isinstance(recorder, SQLiteApplicationRecorder):
        return True
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder
    except ImportError:  # pragma: no cover
        return False
    return isinstance(recorder, PostgresApplicationRecorder)


def _sqlite_table(recorder: ApplicationRecorder) -> str | None:
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    return recorder.events_table_name if isinstance(recorder, SQLiteApplicationRecorder) else None


def _postgres_table(recorder: ApplicationRecorder) -> Any:
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return None
    if not isinstance(recorder, PostgresApplicationRecorder):
        return None
    from psycopg.sql import SQL, Identifier

    return SQL("{}.{}").format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))


def ensure_topic_index(recorder: ApplicationRecorder) -> None:
    """Create an index on ``(topic, originator_id)`` of the events table, so
    the notification log filtered by topic (list of games) does not scan
    every event. Harmless when it exists; ignored for other recorders."""
    table = _sqlite_table(recorder)
    if table is not None:
        with recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"CREATE INDEX IF NOT EXISTS {table}_topic_idx ON {table} (topic, originator_id)")
        return
    pg_table = _postgres_table(recorder)
    if pg_table is not None:
        from psycopg.sql import SQL, Identifier

        index = Identifier(recorder.events_table_name + "_topic_idx")  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have it, ApplicationRecorder does not
        statement = SQL("CREATE INDEX IF NOT EXISTS {} ON {} (topic, originator_id)").format(index, pg_table)
        # two processes creating the index at once: the loser's error is harmless
        with contextlib.suppress(Exception), recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            with conn.transaction(), conn.cursor() as curs:
                curs.execute(statement)


def _schema_lock_key(schema: str) -> int:
    """A signed 64-bit advisory-lock key for one PostgreSQL schema."""
    digest = hashlib.sha256(f"rummy-ledger tables {schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextlib.contextmanager
def schema_lock(datastore: Any) -> Iterator[None]:
    """Hold PostgreSQL's advisory lock of the store's schema while its tables
    are created, so that several processes using an empty database for the
    first time take turns (``CREATE ... IF NOT EXISTS`` at once fails with
    ``duplicate key value violates unique constraint "pg_type_typname_nsp_index"``
    or ``tuple concurrently updated``). Put every ``CREATE`` of the store's
    tables (eventsourcing's, ``ensure_topic_index``, side tables) inside the
    block; it does nothing for SQLite (one writer at a time anyway).

    The lock is session-level (``pg_advisory_lock``) on a connection of its
    own, so the block may use any number of transactions; do not take the
    same lock again inside it (``pg_advisory_xact_lock`` on another
    connection would wait for this one).
    """
    get_connection = getattr(datastore, "get_connection", None)
    schema = getattr(datastore, "schema", None)
    if get_connection is None or schema is None:
        yield
        return
    key = _schema_lock_key(schema or "public")
    with get_connection() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


#: each game's length: its last version, one primary-key lookup per ``game_started`` row (topic index)
_LENGTHS = (
    "SELECT g.originator_id AS originator_id, (SELECT MAX(e.originator_version) FROM {table} e "
    "WHERE e.originator_id = g.originator_id) AS n FROM {table} g WHERE g.topic = {mark}"
)


def event_counts(
    recorder: ApplicationRecorder, hand_topic: str = HAND_DEALT_TOPIC
) -> dict[str, tuple[int, int]] | None:
    """``{originator_id hex: (events, hands)}`` for every stored game (every
    sequence holding a ``game_started``), by two queries on indexes: the
    length of each game is its last version, one primary-key lookup per game
    (:data:`_LENGTHS`), not a scan of every stored event (a 100,000-event
    game made the games list 5x slower than a 1,000-event one; issue 27,
    defect 4), and the hands a count on the ``(topic, originator_id)`` index;
    ``None`` for recorders without SQL (the caller falls back to reading each
    game)."""
    table = _sqlite_table(recorder)
    if table is not None:
        with recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(_LENGTHS.format(table=table, mark="?"), (GAME_STARTED_TOPIC,))
            events = {hex_id(row[0]): int(row[1]) for row in c.fetchall()}
            c.execute(
                f"SELECT originator_id, COUNT(*) FROM {table} WHERE topic=? GROUP BY originator_id", (hand_topic,)
            )
            hands = {hex_id(row[0]): int(row[1]) for row in c.fetchall()}
        return {k: (v, hands.get(k, 0)) for k, v in events.items()}
    pg_table = _postgres_table(recorder)
    if pg_table is not None:
        from psycopg.sql import SQL

        with recorder.datastore.get_connection() as conn, conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            curs.execute(SQL(_LENGTHS.format(table="{table}", mark="%s")).format(table=pg_table), (GAME_STARTED_TOPIC,))
            events = {hex_id(row["originator_id"]): int(row["n"]) for row in curs.fetchall()}
            curs.execute(
                SQL("SELECT originator_id, COUNT(*) AS n FROM {} WHERE topic = %s GROUP BY originator_id").format(
                    pg_table
                ),
                (hand_topic,),
            )
            hands = {hex_id(row["originator_id"]): int(row["n"]) for row in curs.fetchall()}
        return {k: (v, hands.get(k, 0)) for k, v in events.items()}
    return None


def hex_id(value: Any) -> str:
    """An originator id as stored (a UUID, or its text in either form) as its 32 hex digits."""
    return value.hex if isinstance(value, UUID) else UUID(str(value)).hex
