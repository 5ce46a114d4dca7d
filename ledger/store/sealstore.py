"""The seal chain in the store: stored seals, verify, checkpoint checks (layer 2).

Each event's seal ``hN`` (FORMAT.md "Seal") is computed when the event is
appended (:func:`link`, from the previous event's *stored* seal) and kept in
``rummy_journal.seal`` in the same transaction as the event row. The journal
entry itself (who appended, when) is covered by a second chain kept in
``rummy_journal.journal_seal``: ``jN = SHA-256(jN-1 + hN + journal lineN)``
(:func:`ledger.seal.journal_chain`). Nothing here recomputes a stored seal on
read: :func:`stored_seals` and :func:`head` read them, :func:`verify_games`
recomputes both chains from the stored bytes and *compares*.

Reading goes straight to the two tables with SQL (SQLite file or PostgreSQL
schema), a batch of games at a time, so that a stored row the mapper could
not decode (bytes edited, or stored as text) is a finding, not a traceback.

``verify`` reads each batch twice at most. The fast read
(:meth:`_Tables.fast_batch`, :func:`_fast_chain`) asks each table for one
row per game: counts, the checks SQL can make on every row (types, each
row's topic against its bytes' type, positions 1..n) and the game's stored
bytes, seals and journal seals each concatenated in position order; Python
then runs both chains over the bytes and compares the concatenations. It
only ever says "verified": a game it cannot verify is read again row by row
(:meth:`_Tables.batch`) and :func:`check_game` names the first bad position
and what differs, so every finding reads the same whichever path met it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import ApplicationRecorder

from ledger import seal as _seal
from ledger.errors import GameNotFoundError, LedgerError
from ledger.events import GameStarted
from ledger.store.persistence import GAME_STARTED_TOPIC, TOPICS, decode_stored, game_uuid

JOURNAL_TABLE = "rummy_journal"
#: games read per query batch
BATCH = 200
#: games per batch of the fast read of verify (one concatenation per game and column)
FAST_BATCH = 50


def link(
    prev_seal: str | None, prev_journal: str | None, position: int, line: bytes, appended_by: str, received_at: str
) -> tuple[str, str]:
    """The ``(seal, journal_seal)`` hex of the event at ``position`` with
    canonical ``line``, from the previous event's stored ones (None at
    position 0). Raises ``ValueError`` when a previous seal is missing."""
    if position and (prev_seal is None or prev_journal is None):
        raise ValueError(f"position {position}: the previous event has no stored seal")
    h = _seal.chain(bytes.fromhex(prev_seal) if position and prev_seal is not None else None, line)
    j = _seal.journal_chain(
        bytes.fromhex(prev_journal) if position and prev_journal is not None else None,
        h,
        _seal.journal_line(position, appended_by, received_at),
    )
    return h.hex(), j.hex()


def seal_batch(
    app: Any, oid: UUID, first: int, lines: Sequence[bytes], appended_by: str, received_at: str
) -> Iterable[tuple[str | None, str | None]]:
    """The ``(seal, journal_seal)`` of events about to be stored at
    positions ``first``… of game ``oid``, in order, to iterate once (the
    append path, before its transaction), continuing from the previous event's *stored* seals.
    Raises :class:`SealError` when the previous event has none (an event
    written into the database directly: ``verify`` names it)."""
    prev_seal = prev_journal = None
    if first:
        rows: list[tuple[Any, ...]]
        if _is_sql(app.recorder):
            t = _tables(app)
            rows = t.query(
                f"SELECT seal, journal_seal FROM {t.journal} WHERE originator_id = ? AND position = ?",
                [t.key(oid), first - 1],
            )
        else:  # the in-memory journal (tests, examples)
            from ledger.store.journal import select_journal

            rows = [(j.seal, j.journal_seal) for j in select_journal(app.recorder, oid) if j.position == first - 1]
        if not rows or not rows[0][0] or not rows[0][1]:
            raise SealError(
                f"cannot append at position {first}: the event at position {first - 1} has no stored seal "
                "(written into the database directly? run rummy-ledger verify)"
            )
        prev_seal, prev_journal = rows[0]
    if link is not _link:  # bench/bench_seal.py swaps ``link`` to time it or switch it off
        out: list[tuple[str | None, str | None]] = []
        for i, line in enumerate(lines):
            pair = link(prev_seal, prev_journal, first + i, line, appended_by, received_at)
            out.append(pair)
            prev_seal, prev_journal = pair
        return out
    return _links(prev_seal, prev_journal, first, lines, appended_by, received_at)


def _links(
    prev_seal: str | None,
    prev_journal: str | None,
    first: int,
    lines: Sequence[bytes],
    appended_by: str,
    received_at: str,
) -> Iterable[tuple[str | None, str | None]]:
    """:func:`link` over a batch, keeping the raw digests between events: the
    journal lines of the batch (one author and time) made at once from
    :func:`_witness`, the same bytes as :func:`ledger.seal.journal_line`
    (tests/test_seal_property.py), and the digests turned to hex at once."""
    if not lines:
        return []
    sha = hashlib.sha256
    h = bytes.fromhex(prev_seal) if first else _seal.CHAIN_PREFIX  # type: ignore[arg-type]  # links() passes the previous seals when first > 0
    j = bytes.fromhex(prev_journal) if first else _seal.JOURNAL_PREFIX  # type: ignore[arg-type]  # as above
    hs = [h := sha(h + line).digest() for line in lines]
    js = [j := sha(j + x + y).digest() for x, y in zip(hs, _journal_lines(first, len(lines), appended_by, received_at))]
    return zip(b"".join(hs).hex(",", 32).split(","), b"".join(js).hex(",", 32).split(","))


def _journal_lines(first: int, n: int, appended_by: str, received_at: str) -> list[bytes]:
    """The journal lines of positions ``first``… ``first + n - 1`` with one
    author and time: ``{"position":p,"by":…,"received_at":…}`` each, made
    with one ``replace`` over ``"first,first+1,…"`` (no ``\\n`` can occur in
    the JSON, so the split is exact).

    >>> _journal_lines(7, 2, "cli:anna", "t") == [_seal.journal_line(p, "cli:anna", "t") for p in (7, 8)]
    True
    """
    tail = b"," + _encode({"by": appended_by, "received_at": received_at})[1:]
    return (b'{"position":' + _witness(first, n).encode().replace(b",", tail + b'\n{"position":') + tail).split(b"\n")


_link = link


class SealError(LedgerError, RuntimeError):
    """The seal chain of a stored game cannot be continued."""


# --- the two tables, whatever the store ---


def _is_sql(recorder: ApplicationRecorder) -> bool:
    """True for the SQLite and PostgreSQL recorders (the seal chain's SQL is for those)."""
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    if isinstance(recorder, SQLiteApplicationRecorder):
        return True
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder
    except ImportError:  # pragma: no cover
        return False
    return isinstance(recorder, PostgresApplicationRecorder)


class _Tables:
    """SQL access to the events table and the journal of one recorder."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        from eventsourcing.sqlite import SQLiteApplicationRecorder

        self.recorder = recorder
        self.sqlite = isinstance(recorder, SQLiteApplicationRecorder)
        if isinstance(recorder, SQLiteApplicationRecorder):  # (not `if self.sqlite`: mypy narrows on isinstance only)
            self.events = recorder.events_table_name
            self.journal = JOURNAL_TABLE
        else:
            from eventsourcing.postgres import PostgresApplicationRecorder
            from psycopg.sql import SQL, Identifier

            if not isinstance(recorder, PostgresApplicationRecorder):
                raise TypeError(f"the seal chain needs a SQLite or PostgreSQL store, not {type(recorder).__name__}")
            schema = recorder.datastore.schema
            self.events = (
                SQL("{}.{}").format(Identifier(schema), Identifier(recorder.events_table_name)).as_string(None)
            )
            self.journal = SQL("{}.{}").format(Identifier(schema), Identifier(JOURNAL_TABLE)).as_string(None)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.sqlite:
            with self.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
                c.execute(sql, tuple(params))
                return [tuple(r) for r in c.fetchall()]
        sql = sql.replace("?", "%s")
        with self.recorder.datastore.get_connection() as conn, conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            curs.execute(sql, tuple(params))
            return [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in curs.fetchall()]

    def key(self, oid: UUID) -> Any:
        """The originator id as the store keeps it."""
        return oid.hex if self.sqlite else oid

    def all_games(self) -> list[Any]:
        rows = self.query(
            f"SELECT DISTINCT originator_id FROM {self.events} UNION SELECT DISTINCT originator_id FROM {self.journal}"
        )
        return sorted((r[0] for r in rows), key=str)

    def batch(self, keys: Sequence[Any]) -> tuple[dict[str, list[tuple[Any, ...]]], dict[str, tuple[int, int]]]:
        """``(rows, journal)`` of the games ``keys``. ``rows``: per originator
        id hex, its events in order joined with their journal rows,
        ``(version, topic, state, appended_by, received_at, seal,
        journal_seal)`` (the last four None without a journal row);
        ``journal``: per id, ``(journal rows, highest position)``."""
        marks = ",".join("?" * len(keys))
        rows: dict[str, list[tuple[Any, ...]]] = {}
        current: list[tuple[Any, ...]] = []
        last = None
        for oid, *rest in self.query(
            "SELECT e.originator_id, e.originator_version, e.topic, e.state, j.appended_by, j.received_at, "
            "j.seal, j.journal_seal "
            f"FROM {self.events} e LEFT JOIN {self.journal} j "
            "ON j.originator_id = e.originator_id AND j.position = e.originator_version - 1 "
            f"WHERE e.originator_id IN ({marks}) ORDER BY e.originator_id, e.originator_version",
            keys,
        ):
            if oid != last:
                current = rows.setdefault(_hex(oid), [])
                last = oid
            current.append(tuple(rest))
        journal = {
            _hex(oid): (int(n), int(top))
            for oid, n, top in self.query(
                f"SELECT originator_id, COUNT(*), MAX(position) FROM {self.journal} WHERE originator_id IN "
                f"({marks}) GROUP BY originator_id",
                keys,
            )
        }
        return rows, journal

    def fast_batch(self, keys: Sequence[Any], names: dict[str, str | None]) -> dict[str, GameCheck | None]:
        """The fast read of :func:`verify_games`: per originator id hex of
        ``keys``, a verified :class:`GameCheck`, or None when the game needs
        the row-by-row check (anything unusual, broken or not). ``names``:
        the game id asked for, per id hex (None: from the first event).

        Two queries, one row per game each: the events table gives the
        number of rows, lowest and highest version, how many rows are bytes
        whose ``{"type":"…"`` is their topic's, and the ``state`` bytes
        joined by ``\\n`` in version order; the journal gives its number of
        rows, lowest and highest position, how many rows have text seals and
        an author and time (MIN and MAX leave NULLs out), the lowest and
        highest author and time, and the seals and journal
        seals joined by ``,`` in position order. SQLite before 3.44 has no
        ``ORDER BY`` inside ``group_concat``, so the versions and positions
        are joined too, in the same pass: they prove the order. A game with
        several authors or times (a live game) has its journal entries read
        in a third query."""
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        sql_events, sql_journal = self._fast_sql()
        events = {
            _hex(r[0]): r[1:]
            for r in self.query(sql_events.format(events=self.events, marks=marks), [*_TOPIC_PARAMS, *keys])
        }
        journal = {_hex(r[0]): r[1:] for r in self.query(sql_journal.format(journal=self.journal, marks=marks), keys)}
        out: dict[str, GameCheck | None] = {}
        several: dict[str, tuple[list[bytes], str]] = {}
        for oid_hex, ev in events.items():
            jr = journal.get(oid_hex)
            if jr is None:
                continue
            got = _fast_chain(names.get(oid_hex), oid_hex, ev, jr, self.sqlite)
            if isinstance(got, GameCheck):
                out[oid_hex] = got
            elif got is not None:
                several[oid_hex] = got
        if several:
            entries: dict[str, list[tuple[Any, Any]]] = {}
            mk = ",".join("?" * len(several))
            for oid, by, received_at in self.query(
                f"SELECT originator_id, appended_by, received_at FROM {self.journal} WHERE originator_id IN ({mk}) "
                "ORDER BY originator_id, position",
                [self.key(UUID(h)) for h in several],
            ):
                entries.setdefault(_hex(oid), []).append((by, received_at))
            for oid_hex, (hs, name) in several.items():
                out[oid_hex] = _fast_journal(name, hs, journal[oid_hex], entries.get(oid_hex, []))
        return out

    def _fast_sql(self) -> tuple[str, str]:
        """The two queries of :meth:`fast_batch` for this store (``{events}``,
        ``{journal}`` and ``{marks}`` to fill in; every column named, as
        PostgreSQL's rows are dicts)."""
        topic_ok = "CASE topic " + " ".join(
            f"WHEN ? THEN {_SUBSTR[self.sqlite].format(n=len(prefix))} = ?" for _topic, prefix in _TOPIC_PREFIX
        )
        if self.sqlite:
            events = [
                "COUNT(*)",
                "MIN(originator_version)",
                "MAX(originator_version)",
                f"SUM(typeof(state) = 'blob' AND {topic_ok} ELSE 0 END)",
                "group_concat(originator_version)",
                "CAST(group_concat(state, X'0A') AS BLOB)",
            ]
            journal = [
                "COUNT(*)",
                "MIN(position)",
                "MAX(position)",
                "SUM(typeof(seal) = 'text' AND typeof(journal_seal) = 'text' AND appended_by IS NOT NULL AND "
                "received_at IS NOT NULL)",
                "MIN(appended_by)",
                "MAX(appended_by)",
                "MIN(received_at)",
                "MAX(received_at)",
                "group_concat(position)",
                "group_concat(seal, ',')",
                "group_concat(journal_seal, ',')",
            ]
        else:
            events = [
                "COUNT(*)",
                "MIN(originator_version)",
                "MAX(originator_version)",
                f"SUM(CASE WHEN {topic_ok} ELSE false END THEN 1 ELSE 0 END)",
                "NULL",
                "string_agg(state, '\\x0a'::bytea ORDER BY originator_version)",
            ]
            journal = [
                "COUNT(*)",
                "MIN(position)",
                "MAX(position)",
                "SUM(CASE WHEN seal IS NOT NULL AND journal_seal IS NOT NULL AND appended_by IS NOT NULL AND "
                "received_at IS NOT NULL THEN 1 ELSE 0 END)",
                "MIN(appended_by)",
                "MAX(appended_by)",
                "MIN(received_at)",
                "MAX(received_at)",
                "NULL",
                "string_agg(seal, ',' ORDER BY position)",
                "string_agg(journal_seal, ',' ORDER BY position)",
            ]

        def select(columns: list[str], table: str) -> str:
            named = ", ".join(f"{c} AS c{i}" for i, c in enumerate(columns))
            return (
                f"SELECT originator_id, {named} FROM {{{table}}} WHERE originator_id IN ({{marks}}) GROUP BY "
                "originator_id"
            )

        return select(events, "events"), select(journal, "journal")


def _hex(value: Any) -> str:
    return value.hex if isinstance(value, UUID) else UUID(str(value)).hex


def _tables(app: Any) -> _Tables:
    return _Tables(app.recorder)


# --- reading stored seals ---


def stored_seals(app: Any, game_id: str, *, strict: bool = True) -> tuple[int, list[Any]]:
    """``(length, seals)`` of a stored game: the stored seal of each position
    (as the journal holds it). Raises :class:`GameNotFoundError`, and with
    ``strict`` ``ValueError`` when a stored event has no stored seal (else
    its entry is None: ``verify`` says why)."""
    t = _tables(app)
    key = t.key(game_uuid(game_id))
    n = t.query(f"SELECT MAX(originator_version) FROM {t.events} WHERE originator_id = ?", [key])[0][0]
    if not n:
        raise GameNotFoundError(game_id)
    rows = t.query(
        f"SELECT position, seal FROM {t.journal} WHERE originator_id = ? AND position < ? ORDER BY position",
        [key, int(n)],
    )
    seals: list[Any] = [None] * int(n)
    for p, value in rows:
        if 0 <= int(p) < len(seals):
            seals[int(p)] = value
    missing = next((p for p, v in enumerate(seals) if not v), None)
    if missing is not None and strict:
        raise ValueError(
            f"game {game_id!r}: position {missing} has no stored seal (the store was edited? run rummy-ledger "
            f"verify {game_id})"
        )
    return int(n), seals


def head(app: Any, game_id: str) -> tuple[int, str]:
    """``(length, seal of the last event)`` of a stored game, from the store."""
    n, seals = stored_seals(app, game_id)
    return n, seals[-1]


# --- verify ---


@dataclass
class GameCheck:
    """Outcome of verifying one stored game: ``ok``, or the first bad
    ``position`` and what differs (``kind``: ``event``, ``seal``, ``journal``,
    ``missing``) with a message."""

    game_id: str
    length: int
    ok: bool = True
    position: int | None = None
    kind: str | None = None
    message: str = ""
    seal: str | None = None

    def line(self) -> str:
        """``game: position N: what differs`` (or ``game: verified``)."""
        if self.ok:
            return (
                f"{self.game_id}: verified ({self.length} events, seal {_seal.short_form(self.seal)})"
                if self.seal
                else f"{self.game_id}: verified"
            )
        where = f"position {self.position}: " if self.position is not None else ""
        return f"{self.game_id}: {where}{self.message}"

    def to_json(self) -> dict[str, Any]:
        """``{game_id, ok, length, seal}`` or ``{game_id, ok: false, length, position, differs, message}``."""
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


def game_keys(app: Any, game_ids: Sequence[str] | None) -> list[tuple[Any, str | None]]:
    """``(stored originator id, game id or None)`` of the games to verify:
    the named ones, or every game with a stored event or journal row."""
    t = _tables(app)
    if game_ids:
        return [(t.key(game_uuid(g)), g) for g in game_ids]
    return [(k, None) for k in t.all_games()]


def verify_games(app: Any, targets: Sequence[tuple[Any, str | None]], *, deep: bool = False) -> Iterator[GameCheck]:
    """Verify each game of ``targets`` (from :func:`game_keys`), yielding a
    :class:`GameCheck` per game in order."""
    t = _tables(app)
    step = BATCH if deep else FAST_BATCH
    for start in range(0, len(targets), step):
        chunk = targets[start : start + step]
        names = {_hex(k): name for k, name in chunk}
        fast = {} if deep else t.fast_batch([k for k, _ in chunk], names)
        slow = [k for k, _ in chunk if fast.get(_hex(k)) is None]
        rows, journal = t.batch(slow) if slow else ({}, {})
        for key, name in chunk:
            h = _hex(key)
            check = fast.get(h)
            yield check if check is not None else check_game(name, h, rows.get(h, []), journal.get(h), deep=deep)


def _name(rows: list[tuple[Any, ...]], oid_hex: str) -> str:
    if rows and rows[0][0] == 1 and isinstance(rows[0][2], bytes):
        try:
            first = decode_stored(rows[0][2], rows[0][1])
            if isinstance(first, GameStarted):
                return first.game_id
        except Exception:  # noqa: BLE001 - a broken first event is reported by check_game
            pass
    return f"game {UUID(oid_hex)}"


#: ``b"card_drawn"`` -> its stored topic (the check that a row's topic is its bytes' type)
_TAG_TOPIC = {cls.__struct_config__.tag.encode(): topic for cls, topic in TOPICS.items()}  # type: ignore[union-attr]  # every event class has a str tag
_TYPE_PREFIX = b'{"type":"'


def check_game(
    game_id: str | None,
    oid_hex: str,
    rows: list[tuple[Any, ...]],
    journal: tuple[int, int] | None = None,
    *,
    deep: bool = False,
) -> GameCheck:
    """Recompute one game's seal chain and journal chain from its stored rows
    (:meth:`_Tables.batch`) and compare them with the stored seals; the first
    position that differs is reported. Every row's topic must be its bytes'
    ``type``; with ``deep`` every event is decoded too (the chain already
    proves the bytes are those that were appended and checked). Pure over the
    rows, no I/O."""
    name = game_id or _name(rows, oid_hex)
    check = GameCheck(game_id=name, length=len(rows))
    if not rows and not journal:
        check.ok, check.kind, check.message = False, "missing", "no such game in the store"
        return check

    def fail(position: int, kind: str, message: str) -> GameCheck:
        check.ok, check.position, check.kind, check.message = False, position, kind, message
        return check

    sha = hashlib.sha256
    encode = _encode
    prev = _seal.CHAIN_PREFIX
    jprev = _seal.JOURNAL_PREFIX
    tag_topic = _TAG_TOPIC
    p = -1
    for p, (version, topic, state, by, received_at, stored_seal, stored_journal) in enumerate(rows):
        if version != p + 1:
            return fail(
                p, "missing", f"event missing (deleted: the next stored event is at position {int(version) - 1})"
            )
        if type(state) is not bytes:
            if isinstance(state, (bytearray, memoryview)):
                state = bytes(state)
            else:
                return fail(p, "event", f"event bytes: stored as {type(state).__name__}, not bytes")
        if stored_seal is None:
            return fail(
                p,
                "seal",
                "no stored seal: the event was not appended through rummy-ledger (written into the database directly?)",
            )
        h = sha(prev + state).digest()
        if h.hex() != stored_seal:
            nxt = rows[p + 1] if p + 1 < len(rows) else None
            return fail(p, *_which(state, stored_seal, nxt, h))
        end = state.find(b'"', 9)
        if not state.startswith(_TYPE_PREFIX) or tag_topic.get(state[9:end]) != topic:
            return fail(p, "event", f"stored topic {topic!r} is not the type of the event bytes")
        if deep or p == 0:
            try:
                event = decode_stored(state, topic)
            except Exception as exc:  # noqa: BLE001 - anything the decoder says is a finding
                return fail(p, "event", f"event bytes do not decode as {topic}: {exc}")
            if p == 0 and (not isinstance(event, GameStarted) or game_uuid(event.game_id).hex != oid_hex):
                return fail(p, "event", "the first event is not this game's game_started")
        if type(by) is not str or type(received_at) is not str:
            return fail(p, "journal", "journal entry is not text")
        j = sha(jprev + h + encode({"position": p, "by": by, "received_at": received_at})).digest()
        if j.hex() != stored_journal:
            return fail(p, "journal", f"journal entry (by {by!r}, received {received_at}) differs from the one sealed")
        prev, jprev = h, j
    if journal is not None and journal[1] > p:
        return fail(
            p + 1, "missing", f"event missing (truncated: the journal records events up to position {journal[1]})"
        )
    if journal is not None and journal[0] != len(rows):
        return fail(p, "journal", f"{journal[0]} journal entries for {len(rows)} events")
    check.seal = prev.hex() if rows else None
    return check


_encode = msgspec.json.encode

#: ``(topic, b'{"type":"tag"')`` of every event type: a row's bytes begin with its topic's prefix
#: (the commonest first: SQL's ``CASE`` stops at the first match)
_COMMON = (b"card_drawn", b"card_discarded", b"discard_taken", b"meld_laid", b"meld_extended")
_TOPIC_PREFIX = [
    (_TAG_TOPIC[tag], _TYPE_PREFIX + tag + b'"')
    for tag in sorted(_TAG_TOPIC, key=lambda t: _COMMON.index(t) if t in _COMMON else len(_COMMON))
]
_TOPIC_PARAMS = [x for pair in _TOPIC_PREFIX for x in pair]
#: the first ``n`` bytes of ``state`` (SQLite, PostgreSQL)
_SUBSTR = {True: "substr(state, 1, {n})", False: "substring(state from 1 for {n})"}


@lru_cache(maxsize=1024)
def _witness(first: int, n: int) -> str:
    """``"first,first+1,…,first+n-1"``: with ``first`` 1 or 0 what SQLite's
    ``group_concat`` of the versions or positions of an intact game of ``n``
    events gives.

    >>> _witness(1, 3), _witness(0, 1), _witness(5, 0)
    ('1,2,3', '0', '')
    """
    return ",".join(map(str, range(first, first + n)))


def _fast_chain(
    name: str | None, oid_hex: str, ev: tuple[Any, ...], jr: tuple[Any, ...], sqlite: bool
) -> GameCheck | tuple[list[bytes], str] | None:
    """The fast check of one game from its two summary rows
    (:meth:`_Tables.fast_batch`): a verified :class:`GameCheck`; or, when
    the seal chain verifies and the journal has several authors or times,
    ``(digests, game id)`` for :func:`_fast_journal`; else None (read the game
    row by row)."""
    n, vmin, vmax, good, versions, blob = ev
    jn, pmin, pmax, texts, by_lo, by_hi, at_lo, at_hi, positions, seals, jseals = jr
    if not (n == jn == vmax == good == texts and vmin == 1 and pmin == 0 and pmax == n - 1):
        return None
    if sqlite and (versions != _witness(1, n) or positions != _witness(0, n)):
        return None
    if type(blob) is not bytes:
        blob = bytes(blob) if isinstance(blob, (bytearray, memoryview)) else None
    if blob is None or type(seals) is not str or type(jseals) is not str:
        return None
    lines = blob.split(b"\n")
    if len(lines) != n:
        return None
    try:
        first = decode_stored(lines[0], GAME_STARTED_TOPIC)
    except Exception:  # noqa: BLE001 - check_game says what is wrong
        return None
    if not isinstance(first, GameStarted) or game_uuid(first.game_id).hex != oid_hex:
        return None
    sha = hashlib.sha256
    h = _seal.CHAIN_PREFIX
    hs = [h := sha(h + line).digest() for line in lines]
    if b"".join(hs).hex(",", 32) != seals:
        return None
    if not (by_lo == by_hi and at_lo == at_hi and type(by_lo) is str and type(at_lo) is str):
        return hs, name or first.game_id
    j = _seal.JOURNAL_PREFIX
    js = [j := sha(j + x + y).digest() for x, y in zip(hs, _journal_lines(0, n, by_lo, at_lo))]
    if b"".join(js).hex(",", 32) != jseals:
        return None
    return GameCheck(game_id=name or first.game_id, length=n, seal=h.hex())


def _fast_journal(name: str, hs: list[bytes], jr: tuple[Any, ...], entries: list[tuple[Any, Any]]) -> GameCheck | None:
    """The journal chain of a game whose seal chain :func:`_fast_chain`
    verified (digests ``hs``), from its journal ``entries`` ``(by,
    received_at)`` in position order; None unless it verifies."""
    if len(entries) != len(hs):
        return None
    sha = hashlib.sha256
    encode = _encode
    j = _seal.JOURNAL_PREFIX
    js = []
    for p, (x, (by, at)) in enumerate(zip(hs, entries)):
        if type(by) is not str or type(at) is not str:
            return None
        j = sha(j + x + encode({"position": p, "by": by, "received_at": at})).digest()
        js.append(j)
    if b"".join(js).hex(",", 32) != jr[-1]:
        return None
    return GameCheck(game_id=name, length=len(hs), seal=hs[-1].hex())


def _which(line: bytes, stored_seal: Any, nxt: tuple[Any, ...] | None, good: bytes) -> tuple[str, str]:
    """Whether the event's bytes or its stored seal were changed: the stored
    chain after this position continues from whichever of the two is original."""
    short = (
        _seal.short_form(stored_seal)
        if isinstance(stored_seal, str) and _seal.SEAL_RE.match(stored_seal)
        else repr(stored_seal)
    )
    if nxt is not None and isinstance(nxt[2], bytes) and isinstance(nxt[5], str):
        if _seal.chain(good, nxt[2]).hex() == nxt[5]:
            return "seal", (
                f"stored seal {short} differs from the chain of the stored events "
                f"({_seal.short_form(good.hex())}): the seal was edited"
            )
    return (
        "event",
        f"event bytes differ from those sealed (stored seal {short}, the bytes give {_seal.short_form(good.hex())})",
    )


# --- checkpoints against the store ---


def check_checkpoint(app: Any, entries: Sequence[Any]) -> list[str]:
    """One line per listed game that the store no longer holds as the
    checkpoint says: missing, shorter, or different events before ``length``
    (the chain recomputed from the stored events, and the stored seal)."""
    t = _tables(app)
    problems: list[str] = []
    for start in range(0, len(entries), BATCH):
        chunk = entries[start : start + BATCH]
        keys = [t.key(game_uuid(e.game_id)) for e in chunk]
        batch, _journal = t.batch(keys)
        for e in chunk:
            oid = game_uuid(e.game_id).hex
            rows = batch.get(oid, [])
            if not rows:
                problems.append(f"{e.game_id}: listed in the checkpoint ({e.length} events) but not in the store")
                continue
            if len(rows) < e.length:
                problems.append(
                    f"{e.game_id}: {len(rows)} events stored, the checkpoint lists {e.length}: the game was truncated"
                )
                continue
            h: bytes | None = None
            bad = None
            for p, (version, _topic, state, *_rest) in enumerate(rows[: e.length]):
                if int(version) != p + 1 or not isinstance(state, (bytes, bytearray, memoryview)):
                    bad = p
                    break
                h = _seal.chain(h, bytes(state))
            if bad is not None:
                problems.append(
                    f"{e.game_id}: position {bad}: stored event missing or not bytes: the game was rewritten "
                    "since the checkpoint"
                )
                continue
            assert h is not None
            if h.hex() != e.seal:
                problems.append(
                    f"{e.game_id}: seal at position {e.length - 1} is {_seal.short_form(h.hex())} from the "
                    "stored events, "
                    f"the checkpoint's is {_seal.short_form(e.seal)}: the game was rewritten since the checkpoint"
                )
                continue
            if rows[e.length - 1][5] != e.seal:
                problems.append(
                    f"{e.game_id}: stored seal at position {e.length - 1} differs from the checkpoint's "
                    f"{_seal.short_form(e.seal)}"
                )
    return problems


# --- stores from before the seal chain ---

#: the marker row of a store whose games stored before the chain have been sealed
MARKER_TABLE = "rummy_seal_state"
BACKFILL_DONE = "backfilled"


def ensure_schema(recorder: ApplicationRecorder) -> None:
    """Add ``rummy_journal.journal_seal`` to a journal table created without
    it, and create the marker table (both harmless when they exist; several
    processes may run this at once)."""
    t = _Tables(recorder)
    if t.sqlite:
        with recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"PRAGMA table_info({JOURNAL_TABLE})")
            columns = {row[1] for row in c.fetchall()}
            if columns and "journal_seal" not in columns:
                c.execute(f"ALTER TABLE {JOURNAL_TABLE} ADD COLUMN journal_seal TEXT")
            c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        return
    import contextlib

    marker = t.journal.replace(f'"{JOURNAL_TABLE}"', f'"{MARKER_TABLE}"')
    for statement in (
        f"ALTER TABLE {t.journal} ADD COLUMN IF NOT EXISTS journal_seal text",
        f"CREATE TABLE IF NOT EXISTS {marker} (key text PRIMARY KEY, value text NOT NULL)",
    ):
        # two processes altering at once: the loser's error is harmless
        with contextlib.suppress(Exception), recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            with conn.transaction(), conn.cursor() as curs:
                curs.execute(statement)


def backfill(app: Any, appended_by: str, now: str) -> tuple[int, int] | None:
    """Once per store: compute and store the seals of the events stored
    before the chain existed (no journal row, or a NULL seal), from their
    stored bytes, then mark the store done. Returns ``(games, events)``
    sealed the first time (None afterwards: one indexed query). Events with
    no journal row get one naming ``appended_by`` (``backfill:<os user>``)
    received at ``now``. After this, an event without a seal is one written
    into the database directly, and ``verify`` reports it."""
    t = _tables(app)
    marker = MARKER_TABLE if t.sqlite else t.journal.replace(f'"{JOURNAL_TABLE}"', f'"{MARKER_TABLE}"')
    if t.query(f"SELECT value FROM {marker} WHERE key = ?", [BACKFILL_DONE]):
        return None
    keys = [
        r[0]
        for r in t.query(
            f"SELECT DISTINCT e.originator_id FROM {t.events} e LEFT JOIN {t.journal} j "
            "ON j.originator_id = e.originator_id AND j.position = e.originator_version - 1 "
            "WHERE j.seal IS NULL OR j.journal_seal IS NULL"
        )
    ]
    games = events = 0
    for start in range(0, len(keys), BATCH):
        chunk = keys[start : start + BATCH]
        rows, _ = t.batch(chunk)
        writes: list[tuple[Any, ...]] = []
        for key in chunk:
            prev_seal = prev_journal = None
            sealed = 0
            for p, (version, _topic, state, by, received_at, stored_seal, stored_journal) in enumerate(
                rows.get(_hex(key), [])
            ):
                if int(version) != p + 1 or not isinstance(state, (bytes, bytearray, memoryview)):
                    break  # a gap or a broken row: leave the rest to verify
                who, when = (by, received_at) if by is not None else (appended_by, now)
                seal, jseal = link(prev_seal, prev_journal, p, bytes(state), who, when)
                if stored_seal is None or stored_journal is None:
                    writes.append((key, p, who, when, stored_seal or seal, stored_journal or jseal))
                    sealed += 1
                prev_seal, prev_journal = stored_seal or seal, stored_journal or jseal
            games += 1 if sealed else 0
            events += sealed
        _write_backfill(t, writes)
    _mark(t, marker)
    return games, events


def _write_backfill(t: _Tables, writes: list[tuple[Any, ...]]) -> None:
    if not writes:
        return
    if t.sqlite:
        with t.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.executemany(
                f"INSERT INTO {t.journal} (originator_id, position, appended_by, received_at, seal, "
                "journal_seal) VALUES (?,?,?,?,?,?) "
                "ON CONFLICT (originator_id, position) DO UPDATE SET seal = excluded.seal, journal_seal = "
                "excluded.journal_seal "
                "WHERE seal IS NULL OR journal_seal IS NULL",
                writes,
            )
        return
    with t.recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        curs.executemany(
            f"INSERT INTO {t.journal} AS j (originator_id, position, appended_by, received_at, seal, "
            "journal_seal) VALUES (%s,%s,%s,%s,%s,%s) "
            "ON CONFLICT (originator_id, position) DO UPDATE SET seal = excluded.seal, journal_seal = "
            "excluded.journal_seal "
            "WHERE j.seal IS NULL OR j.journal_seal IS NULL",
            writes,
        )


def _mark(t: _Tables, marker: str) -> None:
    if t.sqlite:
        with t.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"INSERT OR IGNORE INTO {marker} (key, value) VALUES (?, ?)", (BACKFILL_DONE, "1"))
        return
    with t.recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        curs.execute(
            f"INSERT INTO {marker} (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (BACKFILL_DONE, "1")
        )
