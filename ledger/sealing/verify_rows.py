"""The row-by-row check of one stored game's seal chain and journal chain (layer 2).

:func:`check_game` recomputes both chains from a game's stored rows
(:meth:`ledger.sealing.tables.SealTables.batch`) and names the first bad
position and what differs (:class:`GameCheck`); pure over the rows, no I/O.
:mod:`ledger.sealing.verify` calls it for every game the fast read
(:mod:`ledger.sealing.verify_fast`) cannot verify, so every finding reads the
same whichever path met it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec

from ledger.events import GameStarted
from ledger.sealing import chain as _seal
from ledger.stored.persistence import TOPICS, decode_stored, game_uuid, shown
from ledger.texts import N_, Message, Text, Translator, render
from ledger.tournament.events import TournamentStarted

#: ``b"card_drawn"`` -> its stored topic (the check that a row's topic is its bytes' type)
TAG_TOPIC = {cls.__struct_config__.tag.encode(): topic for cls, topic in TOPICS.items()}  # type: ignore[union-attr]  # every event class has a str tag
TYPE_PREFIX = b'{"type":"'


#: ``verify``'s words for a game (:meth:`GameCheck.line`): verified, with or without a seal, and where it breaks
VERIFIED = Message(N_("verified"))
VERIFIED_SEAL = N_("verified (%(num)s events, seal %(seal)s)")
POSITION = N_("position %(pos)s")

#: what differs (:func:`check_game`; docs/seals.md, "What `verify` can and cannot see"): a game not stored
NO_SUCH_GAME = N_("no such game in the store")
#: an event row deleted, or the rows after the last one the journal records
DELETED = N_("event missing (deleted: the next stored event is at position %(pos)s)")
TRUNCATED = N_("event missing (truncated: the journal records events up to position %(pos)s)")
OPEN_CALL = N_("event missing (truncated: the append call from position %(pos)s has no journal seal)")
#: a row's column stored as another type than bytes (written into the database directly, as text)
EVENT_NOT_BYTES = N_("event bytes: stored as %(type)s, not bytes")
SEAL_NOT_BYTES = N_("stored seal: stored as %(type)s, not bytes")
#: an event row without a seal
NO_SEAL = N_("no stored seal: the event was not appended through rummy-ledger (written into the database directly?)")
#: the event's bytes or its stored seal edited (:func:`_which` tells which)
BYTES_EDITED = N_("event bytes differ from those sealed (stored seal %(stored)s, the bytes give %(given)s)")
SEAL_EDITED = N_("stored seal %(stored)s differs from the chain of the stored events (%(given)s): the seal was edited")
#: a row's topic that is not its bytes' type; bytes that do not decode (``--deep``, and the first event)
TOPIC_NOT_TYPE = N_("stored topic %(topic)s is not the type of the event bytes")
UNDECODABLE = N_("event bytes do not decode as %(topic)s: %(error)s")
NOT_THIS_GAME = N_("the first event is not this game's game_started")
#: the journal: an entry that is not text, one its journal link does not cover, a count that is not the events'
JOURNAL_NOT_TEXT = N_("journal entry is not text")
JOURNAL_DIFFERS = N_("journal entry (by %(by)s, received %(at)s) differs from the one sealed")
JOURNAL_COUNT = N_("%(num)s journal entries for %(events)s events")


@dataclass
class GameCheck:
    """Outcome of verifying one stored game: ``ok``, or the first bad
    ``position`` and what differs (``kind``: ``event``, ``seal``, ``journal``,
    ``missing``, ``stray``, ``summary``: its line in the games list,
    :mod:`ledger.sealing.verify_lines`) with a message: a
    :class:`~ledger.texts.Text`, the English (``verify --json``'s and
    ``chain_broken``'s ``message``, docs/seals.md) that keeps its
    :class:`~ledger.texts.Message` (``message.msg``: msgid and parameters),
    rendered in another language where it is shown (:meth:`line`)."""

    game_id: str
    length: int
    ok: bool = True
    position: int | None = None
    kind: str | None = None
    message: str = ""
    seal: str | None = None

    def line(self, tr: Translator | None = None) -> str:
        """``game: position N: what differs`` (or ``game: verified (N events,
        seal X)``) in the language of ``tr`` (English when None).

        >>> GameCheck("g", 3).fail(2, "journal", Message(JOURNAL_NOT_TEXT)).line()
        'g: position 2: journal entry is not text'
        >>> GameCheck("g", 3, seal="ab" * 32).line()
        'g: verified (3 events, seal abab-abab-abab-abab)'
        """
        if self.ok:
            said = Message(VERIFIED_SEAL, num=self.length, seal=_seal.short_form(self.seal)) if self.seal else VERIFIED
            return f"{self.game_id}: {render(said, tr)}"
        where = render(Message(POSITION, pos=self.position), tr) + ": " if self.position is not None else ""
        return f"{self.game_id}: {where}{render(self.message, tr)}"

    def fail(self, position: int | None, kind: str, message: Message) -> GameCheck:
        """Mark this check failed at ``position`` (None: the game as a whole)
        for what differs (``kind``, ``message``: kept as a
        :class:`~ledger.texts.Text`, its English with its msgid); returns it."""
        self.ok, self.position, self.kind, self.message = False, position, kind, Text.of(message)
        return self

    def to_json(self) -> dict[str, Any]:
        """``{game_id, ok, length, seal}`` or ``{game_id, ok: false, length, position, differs, message}``
        (``differs``: ``event``, ``seal``, ``journal``, ``missing``, ``stray``: a sequence whose id is no game's,
        or ``summary``: its games-list line)."""
        if self.ok:
            return {"game_id": self.game_id, "ok": True, "length": self.length, "seal": self.seal}
        return {
            "game_id": self.game_id,
            "ok": False,
            "length": self.length,
            "position": self.position,
            "differs": self.kind,
            "message": self.message,
        }


def chain_fields(check: GameCheck | None) -> dict[str, Any]:
    """The fields a ``score --json`` / ``audit --json`` object (and the HTTP
    API's score) adds about the stored chain (docs/seals.md, issue 26):
    ``{"chain_verified": true}`` for a record file or a chain that verifies
    (``check`` None), else ``{"chain_verified": false, "chain_broken":
    {"position", "differs", "message"}}`` (:meth:`GameCheck.fail`).

    >>> chain_fields(None)
    {'chain_verified': True}
    >>> chain_fields(GameCheck("g", 3).fail(2, "event", Message("stored bytes differ")))
    {'chain_verified': False, 'chain_broken': {'position': 2, 'differs': 'event', 'message': 'stored bytes differ'}}
    """
    if check is None:
        return {"chain_verified": True}
    return {
        "chain_verified": False,
        "chain_broken": {"position": check.position, "differs": check.kind, "message": check.message},
    }


def sealed_json(
    body: dict[str, Any], seal: str | None, check: GameCheck | None, length: int | None = None
) -> dict[str, Any]:
    """``body`` (the score sheet's or the audit's JSON) with what a ``--json``
    output says of the seal: ``"seal"`` (None when the chain does not verify),
    ``"length"`` when given (``audit --json``: the events the seal is after)
    and :func:`chain_fields`. The one builder of ``score --json``,
    ``audit --json`` and the HTTP API's ``/score`` and ``/audit`` (docs/seals.md).

    >>> sealed_json({"game_id": "g"}, "ab", None, 3)
    {'game_id': 'g', 'seal': 'ab', 'length': 3, 'chain_verified': True}
    >>> sealed_json({}, "ab", GameCheck("g", 3).fail(1, "seal", Message("differs")))["seal"]
    """
    out = {**body, "seal": None if check is not None else seal}
    if length is not None:
        out["length"] = length
    return out | chain_fields(check)


def first_game_id(rows: list[tuple[Any, ...]]) -> str | None:
    """The id the first stored event of a sequence names (``rows``:
    :meth:`ledger.sealing.tables.SealTables.batch`): a ``game_started``'s
    ``game_id``, or the ``tournament_id`` of a first event that has one (a
    tournament's record shares the game ids' sequences); None when the
    sequence has no readable such event at position 0."""
    if rows and rows[0][0] == 1 and isinstance(rows[0][2], (bytes, bytearray, memoryview)):
        try:
            first = decode_stored(bytes(rows[0][2]), rows[0][1])
        except Exception:  # noqa: BLE001 - a broken first event is reported by check_game
            return None
        if isinstance(first, GameStarted):
            return first.game_id
        named = getattr(first, "tournament_id", None)
        return named if isinstance(named, str) else None
    return None


def game_name(rows: list[tuple[Any, ...]], oid_hex: str) -> str:
    """The game id of a stored sequence, from its first event, or ``game
    <uuid>`` when that cannot be read."""
    named = first_game_id(rows)
    return named if named is not None else f"game {UUID(oid_hex)}"


#: a stored sequence whose id is no game's (issue 27, defect 6): its first event names another game
STRAY_COPY = N_(
    "its id matches no game: its first event is the game_started of %(game)s, stored under another id "
    "(stored events: %(num)s; rows copied?)"
)
#: … or it has no game_started
STRAY_HEADLESS = N_(
    "its id matches no game: no game_started at position 0 (stored events: %(num)s, from position %(pos)s; "
    "an originator_id edited?)"
)
#: … or it has journal rows only
STRAY_JOURNAL = N_("its id matches no game: journal rows and no event (journal rows: %(num)s)")


def stray_check(rows: list[tuple[Any, ...]], oid_hex: str, journal: tuple[int, int] | None) -> GameCheck | None:
    """The finding of a sequence met by ``verify`` over all games (before
    :func:`check_game`) whose
    originator id is not the id of the game its first event names (or that
    has no ``game_started``): named ``sequence <uuid>`` so that no game is
    blamed for it. None when the sequence is a game's (whatever else is
    wrong with it) or its first event's seal does not verify (an edited
    ``game_started``: the seal check says more)."""
    named = first_game_id(rows)
    if named is not None and game_uuid(named).hex == oid_hex:
        return None
    check = GameCheck(game_id=f"sequence {UUID(oid_hex)}", length=len(rows))
    if named is not None:
        state, stored_seal = rows[0][2], rows[0][5]
        if stored_seal is not None and _seal.chain(None, bytes(state)) != bytes(stored_seal):
            return None
        found = Message(STRAY_COPY, game=repr(named), num=len(rows))
    elif rows:
        found = Message(STRAY_HEADLESS, num=len(rows), pos=int(rows[0][0]) - 1)
    else:
        found = Message(STRAY_JOURNAL, num=journal[0] if journal else 0)
    check.fail(None, "stray", found)
    return check


def check_game(
    game_id: str | None,
    oid_hex: str,
    rows: list[tuple[Any, ...]],
    journal: tuple[int, int] | None = None,
    *,
    deep: bool = False,
    start: int = 0,
    prev: bytes = _seal.CHAIN_PREFIX,
    jprev: bytes = _seal.JOURNAL_PREFIX,
) -> GameCheck:
    """Recompute one game's seal chain and journal chain from its stored rows
    (:meth:`ledger.sealing.tables.SealTables.batch`) and compare them with the
    stored seals; the first position that differs is reported. Every row's
    topic must be its bytes' ``type``; with ``deep`` every event is decoded
    too (the chain already proves the bytes are those that were appended and
    checked). The journal chain has one link per append call, on the call's
    last row (:mod:`ledger.sealing.witness`): every entry of a call must be the
    one its link covers. Pure over the rows, no I/O.

    ``start``: the position of ``rows[0]`` when the check continues one that
    verified positions ``0..start-1`` (``prev`` the seal of ``start - 1``,
    ``jprev`` the journal link of the call that ended there: a live game's
    new rows only, :func:`ledger.sealing.chain_check.chain_check`)."""
    check = GameCheck(game_id=game_id or game_name(rows, oid_hex), length=start + len(rows))
    if not rows and not journal:
        return check.fail(None, "missing", Message(NO_SUCH_GAME))
    sha = hashlib.sha256
    tag_topic = TAG_TOPIC
    call: list[tuple[str, str]] = []  # the entries of the append call not yet closed by its link
    p = start - 1
    for p, (version, topic, state, by, received_at, stored_seal, stored_journal) in enumerate(rows, start):
        if version != p + 1:
            return check.fail(p, "missing", Message(DELETED, pos=int(version) - 1))
        if type(state) is not bytes:
            if not isinstance(state, (bytearray, memoryview)):
                return check.fail(p, "event", Message(EVENT_NOT_BYTES, type=type(state).__name__))
            state = bytes(state)
        if stored_seal is None:
            return check.fail(p, "seal", Message(NO_SEAL))
        if type(stored_seal) is not bytes:
            if not isinstance(stored_seal, (bytearray, memoryview)):
                return check.fail(p, "seal", Message(SEAL_NOT_BYTES, type=type(stored_seal).__name__))
            stored_seal = bytes(stored_seal)
        h = sha(prev + state).digest()
        if h != stored_seal:
            nxt = rows[p + 1 - start] if p + 1 - start < len(rows) else None
            return check.fail(p, *_which(state, stored_seal, nxt, h))
        end = state.find(b'"', 9)
        if not state.startswith(TYPE_PREFIX) or tag_topic.get(state[9:end]) != topic:
            return check.fail(p, "event", Message(TOPIC_NOT_TYPE, topic=repr(topic)))
        if (deep or p == 0) and (fault := _decode_fault(state, topic, p, oid_hex)):
            return check.fail(p, "event", fault)
        if type(by) is not str or type(received_at) is not str:
            return check.fail(p, "journal", Message(JOURNAL_NOT_TEXT))
        call.append((by, received_at))
        if stored_journal is not None:
            j = close_call(jprev, h, p - len(call) + 1, call, stored_journal)
            if not isinstance(j, bytes):
                at, (by, received_at) = j
                return check.fail(at, "journal", Message(JOURNAL_DIFFERS, by=repr(by), at=shown(received_at)))
            jprev, call = j, []
        prev = h
    return _check_end(check, p, start + len(rows), journal, prev, p - len(call) + 1 if call else None)


def close_call(
    prev: bytes, seal: bytes, first: int, entries: list[tuple[str, str]], stored: Any
) -> bytes | tuple[int, tuple[str, str]]:
    """The journal link of the append call of positions ``first``… whose
    ``entries`` ``(by, received_at)`` are given in order (``seal``: the raw
    seal of its last event; ``prev``: the previous link, or the chain's
    prefix), checked against the ``stored`` link: the link when it and
    every entry verify, else ``(position, entry)`` naming the
    first entry that differs from the one sealed (the stored link is tried
    with each distinct entry of the call, the last row's first; when none
    gives it, the call's first entry is named)."""
    last = first + len(entries) - 1
    encode = _encode
    tried: list[tuple[str, str]] = []
    for entry in (entries[-1], *entries):
        if entry in tried:
            continue
        tried.append(entry)
        link = hashlib.sha256(
            prev + seal + encode({"first": first, "last": last, "by": entry[0], "received_at": entry[1]})
        ).digest()
        if link == stored:
            bad = next((i for i, e in enumerate(entries) if e != entry), None)
            return link if bad is None else (first + bad, entries[bad])
    return first, entries[0]


def _decode_fault(state: bytes, topic: Any, position: int, oid_hex: str) -> Message | None:
    """What is wrong with the event bytes at ``position`` once decoded as
    ``topic`` (the first event must be this game's ``game_started``), or None."""
    try:
        event = decode_stored(state, topic)
    except Exception as exc:  # noqa: BLE001 - anything the decoder says is a finding
        return Message(UNDECODABLE, topic=str(topic), error=str(exc))
    first_id = event.tournament_id if isinstance(event, TournamentStarted) else getattr(event, "game_id", "")
    if position == 0 and (
        not isinstance(event, (GameStarted, TournamentStarted)) or game_uuid(first_id).hex != oid_hex
    ):
        return Message(NOT_THIS_GAME)
    return None


def _check_end(
    check: GameCheck, last: int, n: int, journal: tuple[int, int] | None, seal: bytes, open_call: int | None
) -> GameCheck:
    """The checks after the ``n`` stored rows of :func:`check_game` (``last``
    the last position, ``seal`` its seal): no event missing after it (the
    journal ``(rows, highest position)`` records none later), one journal
    entry per event, and the last append call closed by its journal link
    (``open_call``: the first position of a call without one, else None);
    then ``check`` is verified, with the game's seal."""
    if journal is not None and journal[1] > last:
        return check.fail(last + 1, "missing", Message(TRUNCATED, pos=journal[1]))
    if journal is not None and journal[0] != n:
        return check.fail(last, "journal", Message(JOURNAL_COUNT, num=journal[0], events=n))
    if open_call is not None:
        return check.fail(last + 1, "missing", Message(OPEN_CALL, pos=open_call))
    check.seal = seal.hex() if n else None
    return check


def _which(line: bytes, stored_seal: bytes, nxt: tuple[Any, ...] | None, good: bytes) -> tuple[str, Message]:
    """Whether the event's bytes or its stored seal were changed: the stored
    chain after this position continues from whichever of the two is original."""
    short = _seal.short_form(stored_seal.hex()) if len(stored_seal) == 32 else repr(stored_seal)
    if nxt is not None and isinstance(nxt[2], bytes) and isinstance(nxt[5], (bytes, bytearray, memoryview)):
        if _seal.chain(good, nxt[2]) == nxt[5]:
            return "seal", Message(SEAL_EDITED, stored=short, given=_seal.short_form(good.hex()))
    return "event", Message(BYTES_EDITED, stored=short, given=_seal.short_form(good.hex()))


_encode = msgspec.json.encode
