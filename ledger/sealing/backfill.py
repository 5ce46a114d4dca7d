"""Stores from before this version: the journal converted and old events sealed, once (README "Seals", layer 2).

:func:`ensure_schema` brings the journal table to the current layout: a
``journal_seal`` column added to a table created without it, and a table of
the previous layout (seals as 64-digit hex text and a journal link per
event, ``jN = SHA-256(jN-1 + hN + {"position":N,…})``) converted once
(:func:`convert_journal`: seals as their raw 32 bytes, one journal link per
append call, :mod:`ledger.sealing.witness`; :class:`ledger.store.reads.GameReads`
runs it when it opens a store, and says so on stderr). :func:`backfill`
seals the events of a store written before the chain existed, only when
asked (``rummy-ledger seal-backfill``), only where the journal is empty,
and marks the store done: a read never seals anything.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec
from eventsourcing.persistence import ApplicationRecorder

from ledger.sealing import chain as _seal
from ledger.sealing.tables import BATCH, JOURNAL_TABLE, SealTables, tables
from ledger.sealing.verify_rows import game_name
from ledger.stored.persistence import hex_id

#: the marker row of a store whose games stored before the chain have been sealed
MARKER_TABLE = "rummy_seal_state"
BACKFILL_DONE = "backfilled"
#: the previous layout's journal chain (``jN`` over each event's ``{"position":N,"by":…,"received_at":…}``)
V1_JOURNAL_PREFIX = b"rummy-ledger/journal/1\n"
#: hashed with a previous-layout journal seal that did not verify, to give a link that cannot verify
_UNVERIFIED = b"rummy-ledger/journal/unverified\n"

#: ``(originator_id, position, appended_by, received_at, seal, journal_seal)`` of one journal row
Row = tuple[Any, int, Any, Any, Any, Any]


def ensure_schema(recorder: ApplicationRecorder) -> tuple[int, int] | None:
    """Bring the journal table to the current layout and create the marker
    table (harmless when done; several processes may run this at once):
    ``journal_seal`` added to a table created without it, and a table of the
    previous layout (text seals) converted by :func:`convert_journal` in one
    transaction. Returns ``(games, events)`` converted, or None when nothing
    was."""
    t = SealTables(recorder)
    if t.sqlite:
        with recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"CREATE TABLE IF NOT EXISTS {MARKER_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            if _sqlite_current(c):
                return None
        with recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # as above
            # a write first: the transaction waits for the write lock before it looks at the layout again
            c.execute(f"DELETE FROM {MARKER_TABLE} WHERE 0")
            if _sqlite_current(c):
                return None  # another process converted it meanwhile
            c.execute(f"PRAGMA table_info({JOURNAL_TABLE})")
            columns = {row[1] for row in c.fetchall()}
            if "journal_seal" not in columns:
                c.execute(f"ALTER TABLE {JOURNAL_TABLE} ADD COLUMN journal_seal TEXT")
            c.execute(f"DROP TABLE IF EXISTS {JOURNAL_TABLE}_converted")
            c.execute(_sqlite_table(f"{JOURNAL_TABLE}_converted"))
            # the old rows streamed through a second cursor of the transaction's connection into the new table
            reader = c.sqlite_cursor.connection.cursor()
            reader.execute(
                f"SELECT originator_id, position, appended_by, received_at, seal, journal_seal FROM {JOURNAL_TABLE} "
                "ORDER BY originator_id, position"
            )
            counts = [0, 0]
            c.executemany(
                f"INSERT INTO {JOURNAL_TABLE}_converted VALUES (?,?,?,?,?,?)",
                _counting(convert_journal(map(tuple, reader)), counts),
            )
            reader.close()
            c.execute(f"DROP TABLE {JOURNAL_TABLE}")
            c.execute(f"ALTER TABLE {JOURNAL_TABLE}_converted RENAME TO {JOURNAL_TABLE}")
        return counts[0], counts[1]
    marker = t.journal.replace(f'"{JOURNAL_TABLE}"', f'"{MARKER_TABLE}"')
    schema = recorder.datastore.schema  # type: ignore[attr-defined]  # the PostgreSQL recorder has .datastore
    for statement in (
        f"ALTER TABLE {t.journal} ADD COLUMN IF NOT EXISTS journal_seal text",
        f"CREATE TABLE IF NOT EXISTS {marker} (key text PRIMARY KEY, value text NOT NULL)",
    ):
        # two processes altering at once: the loser's error is harmless
        with contextlib.suppress(Exception), recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            with conn.transaction(), conn.cursor() as curs:
                curs.execute(statement)
    layout = (
        "SELECT data_type FROM information_schema.columns WHERE table_schema = %s AND table_name = %s "
        "AND column_name = 'seal'"
    )
    with recorder.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # as above
        with conn.cursor() as curs:
            curs.execute(layout, (schema, JOURNAL_TABLE))
            found = curs.fetchone()
        if found is None or _first(found) == "bytea":
            return None
        with conn.transaction(), conn.cursor() as curs:
            curs.execute(f"LOCK TABLE {t.journal} IN ACCESS EXCLUSIVE MODE")
            curs.execute(layout, (schema, JOURNAL_TABLE))
            if _first(curs.fetchone()) == "bytea":
                return None  # another process converted it meanwhile
            curs.execute(
                f"SELECT originator_id, position, appended_by, received_at, seal, journal_seal FROM {t.journal} "
                "ORDER BY originator_id, position"
            )
            old = [_values(r) for r in curs.fetchall()]
            curs.execute(
                f"ALTER TABLE {t.journal} ALTER COLUMN seal TYPE bytea USING NULL, "
                "ALTER COLUMN journal_seal TYPE bytea USING NULL"
            )
            curs.executemany(
                f"UPDATE {t.journal} SET seal = %s, journal_seal = %s WHERE originator_id = %s AND position = %s",
                [(seal, link, oid, p) for oid, p, _by, _at, seal, link in convert_journal(old)],
            )
    return len({r[0] for r in old}), len(old)


def _sqlite_current(c: Any) -> bool:
    """True when the SQLite journal table is missing or of the current layout (``seal BLOB``)."""
    c.execute(f"PRAGMA table_info({JOURNAL_TABLE})")
    columns = {row[1]: str(row[2]).upper() for row in c.fetchall()}
    return not columns or columns.get("seal") == "BLOB"


def _counting(rows: Iterator[Row], counts: list[int]) -> Iterator[Row]:
    """``rows`` as they are, counting the games (``counts[0]``) and rows (``counts[1]``)."""
    last = None
    for row in rows:
        if row[0] != last:
            counts[0] += 1
            last = row[0]
        counts[1] += 1
        yield row


def _first(row: Any) -> Any:
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


def _values(row: Any) -> tuple[Any, ...]:
    return tuple(row.values()) if isinstance(row, dict) else tuple(row)


def _sqlite_table(name: str) -> str:
    """The journal table's ``CREATE TABLE`` (as :class:`ledger.store.journal.JournalSQLiteRecorder` makes it)."""
    return (
        f"CREATE TABLE {name} (originator_id TEXT NOT NULL, position INTEGER NOT NULL, appended_by TEXT NOT NULL, "
        "received_at TEXT NOT NULL, seal BLOB, journal_seal BLOB, PRIMARY KEY (originator_id, position)) WITHOUT ROWID"
    )


def convert_journal(rows: Iterable[Sequence[Any]]) -> Iterator[Row]:
    """The rows of a previous-layout journal (``rows``: ``(originator_id,
    position, appended_by, received_at, seal, journal_seal)`` ordered by
    game and position) in the current layout: each 64-digit hex seal as its
    32 bytes (anything else as its UTF-8 bytes, which ``verify`` reports),
    and one journal link per append call (consecutive rows of one author and
    time) on the call's last row. Each previous journal seal is checked as
    the previous ``verify`` did; a row whose entry or seal it shows edited
    gets a link of its own that cannot verify, so ``verify`` names the same
    position as before, and nothing edited is sealed anew. From a gap or a
    row without a seal on, a game's rows get no link (left to
    :func:`backfill` and ``verify``)."""
    game: list[Sequence[Any]] = []
    for row in rows:
        if game and row[0] != game[0][0]:
            yield from _convert_game(game)
            game = []
        game.append(row)
    if game:
        yield from _convert_game(game)


def _convert_game(rows: list[Sequence[Any]]) -> Iterator[Row]:
    sha = hashlib.sha256
    encode = msgspec.json.encode
    old_j = V1_JOURNAL_PREFIX
    new_j = _seal.JOURNAL_PREFIX
    call: list[Row] = []  # the rows of the append call not yet closed by its link
    intact = True

    def close() -> Iterator[Row]:
        nonlocal new_j, call
        if call:
            oid, last, by, at, seal, _ = call[-1]
            new_j = _seal.journal_chain(new_j, seal, _seal.journal_line(call[0][1], last, by, at))
            yield from call[:-1]
            yield (oid, last, by, at, seal, new_j)
        call = []

    for p, (oid, position, by, at, seal, old_link) in enumerate(rows):
        raw = _raw_seal(seal)
        intact = intact and int(position) == p and raw is not None and len(raw) == 32
        if not intact:
            yield from close()
            yield (oid, int(position), by, at, raw, None)
            continue
        assert raw is not None
        expected = sha(old_j + raw + encode({"position": p, "by": by, "received_at": at})).digest()
        old = _raw_seal(old_link)
        if old is None or old == expected:  # verified (or never linked: the previous backfill linked it)
            old_j = expected if old is None else old
            if call and (by, at) != call[-1][2:4]:
                yield from close()
            call.append((oid, p, by, at, raw, None))
            continue
        yield from close()  # edited since it was linked: a link that cannot verify
        new_j = sha(_UNVERIFIED + old).digest()
        old_j = old
        yield (oid, p, by, at, raw, new_j)
    yield from close()


def _raw_seal(value: Any) -> bytes | None:
    """A previous-layout seal as bytes: 64 lower-case hex digits as their 32
    bytes, other text as its UTF-8 bytes, bytes as they are, None as None."""
    if value is None:
        return None
    if isinstance(value, str):
        return bytes.fromhex(value) if _seal.SEAL_RE.match(value) else value.encode("utf-8")
    return bytes(value)


class BackfillRefused(Exception):
    """:func:`backfill` refused to seal: ``kind`` ``sealed`` (the store was
    sealed once already; ``params``: ``when``, the marker's text) or
    ``journal`` (the journal holds rows; ``params``: ``num``)."""

    def __init__(self, kind: str, params: dict[str, Any]) -> None:
        super().__init__(kind, params)
        self.kind = kind
        self.params = params


def backfill(app: Any, appended_by: str, now: str) -> list[tuple[str, int]]:
    """Seal the events of a store written before the seal chain (README
    "Seals"; the command ``rummy-ledger seal-backfill``, never run by a
    read): compute every event's seal from its stored bytes, give each
    event a journal row naming ``appended_by`` (``backfill:<os user>``)
    received at ``now`` (one journal link per game), and leave the marker
    row ``backfilled`` = ``"<now> by <appended_by>: <events> events of
    <games> games"``. Returns ``(game id, events sealed)`` per game
    sealed, in stored id order.

    Raises :class:`BackfillRefused` where the marker exists (``sealed``) or
    the journal holds any row (``journal``): this version writes a journal
    row with every event it stores, so an event without a seal in such a
    store was written into the database directly, and sealing it would
    hide the edit (the laundering of issue 27)."""
    t = tables(app)
    marker = MARKER_TABLE if t.sqlite else t.journal.replace(f'"{JOURNAL_TABLE}"', f'"{MARKER_TABLE}"')
    done = t.query(f"SELECT value FROM {marker} WHERE key = ?", [BACKFILL_DONE])
    if done:
        raise BackfillRefused("sealed", {"when": str(done[0][0])})
    count = int(t.query(f"SELECT COUNT(*) FROM {t.journal}")[0][0])
    if count:
        raise BackfillRefused("journal", {"num": count})
    keys = sorted((r[0] for r in t.query(f"SELECT DISTINCT originator_id FROM {t.events}")), key=str)
    sealed: list[tuple[str, int]] = []
    for start in range(0, len(keys), BATCH):
        chunk = keys[start : start + BATCH]
        rows, _ = t.batch(chunk)
        writes: list[tuple[Any, ...]] = []
        for key in chunk:
            game = rows.get(hex_id(key), [])
            n = _backfill_game(key, game, appended_by, now, writes)
            if n:
                sealed.append((game_name(game, hex_id(key)), n))
        _write_backfill(t, writes)
    events = sum(n for _k, n in sealed)
    _mark(t, marker, f"{now} by {appended_by}: {events} events of {len(sealed)} games")
    return sealed


def _backfill_game(key: Any, rows: list[tuple[Any, ...]], appended_by: str, now: str, writes: list[Any]) -> int:
    """Append to ``writes`` the journal rows of one game from the append call
    before its first unsealed event on (``rows``: :meth:`SealTables.batch`);
    returns how many events it seals."""
    todo = next((p for p, r in enumerate(rows) if r[5] is None), None)
    if todo is None:
        return 0
    start = next((p + 1 for p in range(todo - 1, -1, -1) if rows[p][6] is not None), 0)
    h = bytes(rows[start - 1][5]) if start else None
    j = bytes(rows[start - 1][6]) if start else None
    made: list[list[Any]] = []
    sealed = 0
    for p in range(start, len(rows)):
        version, _topic, state, by, received_at, stored_seal, _old = rows[p]
        if int(version) != p + 1 or not isinstance(state, (bytes, bytearray, memoryview)):
            break  # a gap or a broken row: leave the rest to verify
        if stored_seal is not None and not isinstance(stored_seal, (bytes, bytearray, memoryview)):
            break
        who, when = (by, received_at) if by is not None else (appended_by, now)
        computed = _seal.chain(h, bytes(state))
        h = bytes(stored_seal) if stored_seal is not None else computed
        sealed += 1 if stored_seal is None else 0
        if made and (who, when) != (made[-1][2], made[-1][3]):
            j = _link(made, j)
        made.append([key, p, who, when, h, None])
    if made:
        _link(made, j)
    writes.extend(tuple(m) for m in made)
    return sealed


def _link(made: list[list[Any]], prev: bytes | None) -> bytes:
    """Put the journal link on the last of ``made``'s rows of the append
    call that ends it (the rows after the last row that has a link)."""
    last = made[-1]
    first = next((m[1] + 1 for m in reversed(made[:-1]) if m[5] is not None), made[0][1])
    link = _seal.journal_chain(prev, last[4], _seal.journal_line(first, last[1], last[2], last[3]))
    last[5] = link
    return link


def _write_backfill(t: SealTables, writes: list[tuple[Any, ...]]) -> None:
    if not writes:
        return
    # a row another process backfilled meanwhile with another author or time is left as it is
    sql = (
        f"INSERT INTO {t.journal} AS j (originator_id, position, appended_by, received_at, seal, "
        "journal_seal) VALUES (?,?,?,?,?,?) "
        "ON CONFLICT (originator_id, position) DO UPDATE SET seal = excluded.seal, journal_seal = "
        "excluded.journal_seal "
        "WHERE j.appended_by = excluded.appended_by AND j.received_at = excluded.received_at"
    )
    if t.sqlite:
        with t.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.executemany(sql, writes)
        return
    with t.recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        curs.executemany(sql.replace("?", "%s"), writes)


def _mark(t: SealTables, marker: str, value: str) -> None:
    if t.sqlite:
        with t.recorder.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
            c.execute(f"INSERT OR IGNORE INTO {marker} (key, value) VALUES (?, ?)", (BACKFILL_DONE, value))
        return
    with t.recorder.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:  # type: ignore[attr-defined]  # the SQLite/PostgreSQL recorders have .datastore, ApplicationRecorder does not
        curs.execute(
            f"INSERT INTO {marker} (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (BACKFILL_DONE, value)
        )
