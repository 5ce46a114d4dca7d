"""The fast read of ``verify``: one summary row per game and table, both chains over the concatenated bytes (layer 2).

The fast read (:func:`fast_batch`, :func:`_fast_chain`) asks each table for
one row per game: counts, the checks SQL can make on every row (types, each
row's topic against its bytes' type, positions 1..n) and the game's stored
bytes, seals (32 bytes each) and journal links (32 bytes per append call)
each concatenated in position order; Python then runs both chains over the
bytes and compares the concatenations with ``==``. It
only ever says "verified": a game it cannot verify is read again row by row
(:func:`ledger.sealing.verify_rows.check_game`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from ledger.events import GameStarted
from ledger.sealing import chain as _seal
from ledger.sealing.tables import SealTables
from ledger.sealing.verify_rows import TAG_TOPIC, TYPE_PREFIX, GameCheck
from ledger.sealing.witness import witness
from ledger.stored.persistence import GAME_STARTED_TOPIC, TOURNAMENT_STARTED_TOPIC, decode_stored, game_uuid, hex_id
from ledger.tournament.events import TournamentStarted

#: ``(topic, b'{"type":"tag"')`` of every event type: a row's bytes begin with its topic's prefix
#: (the commonest first: SQL's ``CASE`` stops at the first match)
_COMMON = (b"card_drawn", b"card_discarded", b"discard_taken", b"meld_laid", b"meld_extended")
_TOPIC_PREFIX = [
    (TAG_TOPIC[tag], TYPE_PREFIX + tag + b'"')
    for tag in sorted(TAG_TOPIC, key=lambda t: _COMMON.index(t) if t in _COMMON else len(_COMMON))
]
_TOPIC_PARAMS = [x for pair in _TOPIC_PREFIX for x in pair]
#: the first ``n`` bytes of ``state`` (SQLite, PostgreSQL)
_SUBSTR = {True: "substr(state, 1, {n})", False: "substring(state from 1 for {n})"}


def fast_batch(t: SealTables, keys: Sequence[Any], names: dict[str, str | None]) -> dict[str, GameCheck | None]:
    """The fast read of :func:`ledger.sealing.verify.verify_games`: per
    originator id hex of ``keys``, a verified :class:`GameCheck`, or None
    when the game needs the row-by-row check (anything unusual, broken or
    not). ``names``: the game id asked for, per id hex (None: from the first
    event).

    Two queries, one row per game each: the events table gives the
    number of rows, lowest and highest version, how many rows are bytes
    whose ``{"type":"…"`` is their topic's, and the ``state`` bytes
    joined by ``\\n`` in version order; the journal gives its number of
    rows, lowest and highest position, how many rows have a 32-byte seal
    and an author and time (MIN and MAX leave NULLs out), how many journal
    links there are and how many of them are 32 bytes, the lowest and
    highest author and time, the positions that carry a link (the ends of
    the append calls), and the seals and journal links concatenated in
    position order. SQLite before 3.44 has no ``ORDER BY`` inside
    ``group_concat``, so the versions and positions are joined too, in the
    same pass: they prove the order. A game of several append calls (a
    live game) has its journal entries read in a third query
    (:func:`_several_calls`)."""
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    sql_events, sql_journal = _fast_sql(t.sqlite)
    events = {
        hex_id(r[0]): r[1:] for r in t.query(sql_events.format(events=t.events, marks=marks), [*_TOPIC_PARAMS, *keys])
    }
    journal = {hex_id(r[0]): r[1:] for r in t.query(sql_journal.format(journal=t.journal, marks=marks), keys)}
    out: dict[str, GameCheck | None] = {}
    several: dict[str, tuple[list[bytes], str]] = {}
    for oid_hex, ev in events.items():
        jr = journal.get(oid_hex)
        if jr is None:
            continue
        got = _fast_chain(names.get(oid_hex), oid_hex, ev, jr, t.sqlite)
        if isinstance(got, GameCheck):
            out[oid_hex] = got
        elif got is not None:
            several[oid_hex] = got
    if several:
        out.update(_several_calls(t, several, journal))
    return out


def _several_calls(
    t: SealTables, several: dict[str, tuple[list[bytes], str]], journal: dict[str, tuple[Any, ...]]
) -> dict[str, GameCheck | None]:
    """The journal chains of the games whose seal chain :func:`_fast_chain`
    verified and whose journal has several append calls (``several``: per
    id hex, the digests and the game id), from their journal entries read
    in one query; ``journal``: the summary rows of :func:`fast_batch`."""
    entries: dict[str, list[tuple[Any, Any, Any]]] = {}
    mk = ",".join("?" * len(several))
    for oid, by, received_at, end in t.query(
        f"SELECT originator_id, appended_by, received_at, journal_seal IS NOT NULL AS c3 FROM {t.journal} "
        f"WHERE originator_id IN ({mk}) ORDER BY originator_id, position",
        [t.key(UUID(h)) for h in several],
    ):
        entries.setdefault(hex_id(oid), []).append((by, received_at, end))
    return {
        oid_hex: _fast_journal(name, hs, journal[oid_hex], entries.get(oid_hex, []))
        for oid_hex, (hs, name) in several.items()
    }


#: the journal's summary columns of the fast read, per store (SQLite: True)
_JOURNAL_COLUMNS = {
    True: [
        "COUNT(*)",
        "MIN(position)",
        "MAX(position)",
        "SUM(typeof(seal) = 'blob' AND length(seal) = 32 AND appended_by IS NOT NULL AND received_at IS NOT NULL)",
        "COUNT(journal_seal)",
        "SUM(typeof(journal_seal) = 'blob' AND length(journal_seal) = 32)",
        "MIN(appended_by)",
        "MAX(appended_by)",
        "MIN(received_at)",
        "MAX(received_at)",
        "group_concat(position)",
        "group_concat(CASE WHEN journal_seal IS NOT NULL THEN position END)",
        "CAST(group_concat(seal, '') AS BLOB)",
        "CAST(group_concat(journal_seal, '') AS BLOB)",
    ],
    False: [
        "COUNT(*)",
        "MIN(position)",
        "MAX(position)",
        "SUM(CASE WHEN octet_length(seal) = 32 AND appended_by IS NOT NULL AND received_at IS NOT NULL "
        "THEN 1 ELSE 0 END)",
        "COUNT(journal_seal)",
        "SUM(CASE WHEN octet_length(journal_seal) = 32 THEN 1 ELSE 0 END)",
        "MIN(appended_by)",
        "MAX(appended_by)",
        "MIN(received_at)",
        "MAX(received_at)",
        "NULL",
        "string_agg(CASE WHEN journal_seal IS NOT NULL THEN position::text END, ',' ORDER BY position)",
        "string_agg(seal, ''::bytea ORDER BY position)",
        "string_agg(journal_seal, ''::bytea ORDER BY position)",
    ],
}


def _fast_sql(sqlite: bool) -> tuple[str, str]:
    """The two queries of :func:`fast_batch` for a SQLite (``sqlite``) or
    PostgreSQL store (``{events}``, ``{journal}`` and ``{marks}`` to fill in;
    every column named, as PostgreSQL's rows are dicts)."""
    topic_ok = "CASE topic " + " ".join(
        f"WHEN ? THEN {_SUBSTR[sqlite].format(n=len(prefix))} = ?" for _topic, prefix in _TOPIC_PREFIX
    )
    if sqlite:
        events = [
            "COUNT(*)",
            "MIN(originator_version)",
            "MAX(originator_version)",
            f"SUM(typeof(state) = 'blob' AND {topic_ok} ELSE 0 END)",
            "group_concat(originator_version)",
            "CAST(group_concat(state, X'0A') AS BLOB)",
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

    def select(columns: list[str], table: str) -> str:
        named = ", ".join(f"{c} AS c{i}" for i, c in enumerate(columns))
        return (
            f"SELECT originator_id, {named} FROM {{{table}}} WHERE originator_id IN ({{marks}}) GROUP BY originator_id"
        )

    return select(events, "events"), select(_JOURNAL_COLUMNS[sqlite], "journal")


def _fast_chain(
    name: str | None, oid_hex: str, ev: tuple[Any, ...], jr: tuple[Any, ...], sqlite: bool
) -> GameCheck | tuple[list[bytes], str] | None:
    """The fast check of one game from its two summary rows
    (:func:`fast_batch`): a verified :class:`GameCheck`; or, when the seal
    chain verifies and the journal has several append calls (or authors or
    times), ``(digests, game id)`` for :func:`_fast_journal`; else None
    (read the game row by row)."""
    n, vmin, vmax, good, versions, blob = ev
    jn, pmin, pmax, sealed, links, good_links, by_lo, by_hi, at_lo, at_hi, positions, ends, seals, jseals = jr
    if not (
        n == jn == vmax == good == sealed and vmin == 1 and pmin == 0 and pmax == n - 1 and links == good_links > 0
    ):
        return None
    if sqlite and (versions != witness(1, n) or positions != witness(0, n)):
        return None
    blob, seals, jseals = _bytes(blob), _bytes(seals), _bytes(jseals)
    if blob is None or seals is None or jseals is None:
        return None
    lines = blob.split(b"\n")
    if len(lines) != n:
        return None
    tournament = lines[0].startswith(b'{"type":"tournament_started"')  # a tournament record (TOURNAMENT.md)
    try:
        first = decode_stored(lines[0], TOURNAMENT_STARTED_TOPIC if tournament else GAME_STARTED_TOPIC)
    except Exception:  # noqa: BLE001 - check_game says what is wrong
        return None
    first_id = first.tournament_id if isinstance(first, TournamentStarted) else getattr(first, "game_id", None)
    if not isinstance(first, (GameStarted, TournamentStarted)) or game_uuid(str(first_id)).hex != oid_hex:
        return None
    sha = hashlib.sha256
    h = _seal.CHAIN_PREFIX
    hs = [h := sha(h + line).digest() for line in lines]
    if b"".join(hs) != seals:
        return None
    if not (links == 1 and ends == str(n - 1) and by_lo == by_hi and at_lo == at_hi) or not (
        type(by_lo) is str and type(at_lo) is str
    ):
        return hs, name or str(first_id)
    j = sha(_seal.JOURNAL_PREFIX + h + _encode({"first": 0, "last": n - 1, "by": by_lo, "received_at": at_lo}))
    if j.digest() != jseals:
        return None
    return GameCheck(game_id=name or str(first_id), length=n, seal=h.hex())


def _bytes(value: Any) -> bytes | None:
    if type(value) is bytes:
        return value
    return bytes(value) if isinstance(value, (bytearray, memoryview)) else None


def _fast_journal(
    name: str, hs: list[bytes], jr: tuple[Any, ...], entries: list[tuple[Any, Any, Any]]
) -> GameCheck | None:
    """The journal chain of a game whose seal chain :func:`_fast_chain`
    verified (digests ``hs``), from its journal ``entries`` ``(by,
    received_at, is the end of an append call)`` in position order; None
    unless every call's entries are one author and time and every link
    verifies."""
    if len(entries) != len(hs):
        return None
    sha = hashlib.sha256
    encode = _encode
    j = _seal.JOURNAL_PREFIX
    js = []
    first = 0
    for p, (by, at, end) in enumerate(entries):
        if type(by) is not str or type(at) is not str or (p > first and (by, at) != entries[first][:2]):
            return None
        if end:
            j = sha(j + hs[p] + encode({"first": first, "last": p, "by": by, "received_at": at})).digest()
            js.append(j)
            first = p + 1
    if first != len(hs) or b"".join(js) != _bytes(jr[-1]):
        return None
    return GameCheck(game_id=name, length=len(hs), seal=hs[-1].hex())


_encode = msgspec.json.encode
