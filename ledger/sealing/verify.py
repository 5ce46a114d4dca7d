"""``verify`` and checkpoint checks: the stored seal chains recomputed and compared (README "Seals", layer 2).

:func:`verify_games` recomputes both chains of each game from the stored
bytes and *compares* them with the stored seals; it reads each batch twice
at most: the fast read (:mod:`ledger.sealing.verify_fast`) asks each table for
one row per game and only ever says "verified"; a game it cannot verify is
read again row by row (:meth:`ledger.sealing.tables.SealTables.batch`) and
:func:`ledger.sealing.verify_rows.check_game` names the first bad position
and what differs. :func:`check_checkpoint` checks a checkpoint's games
against the store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ledger.sealing import chain as _seal
from ledger.sealing.tables import BATCH, tables
from ledger.sealing.verify_fast import fast_batch
from ledger.sealing.verify_rows import GameCheck, check_game, stray_check
from ledger.stored.persistence import game_uuid, hex_id
from ledger.texts import N_, Message, Text

#: games per batch of the fast read of verify (one concatenation per game and column)
FAST_BATCH = 50


def game_keys(app: Any, game_ids: Sequence[str] | None) -> list[tuple[Any, str | None]]:
    """``(stored originator id, game id or None)`` of the games to verify:
    the named ones, or every game with a stored event or journal row.
    Raises :class:`~ledger.errors.GameNotFoundError` (:meth:`not_found`:
    the stored ids close to it) for a named game with neither."""
    t = tables(app)
    if game_ids:
        keys: list[tuple[Any, str | None]] = [(t.key(game_uuid(g)), g) for g in game_ids]
        for key, g in keys:
            found = t.query(
                f"SELECT 1 FROM {t.events} WHERE originator_id = ? UNION ALL "
                f"SELECT 1 FROM {t.journal} WHERE originator_id = ? LIMIT 1",
                [key, key],
            )
            if not found:
                raise app.not_found(g)
        return keys
    return [(k, None) for k in t.all_games()]


def verify_games(app: Any, targets: Sequence[tuple[Any, str | None]], *, deep: bool = False) -> Iterator[GameCheck]:
    """Verify each game of ``targets`` (from :func:`game_keys`), yielding a
    :class:`GameCheck` per game in order. Over all games a sequence whose
    id is not the game its first event names is ``sequence <uuid>``: its id
    matches no game (:func:`~ledger.sealing.verify_rows.stray_check`)."""
    t = tables(app)
    step = BATCH if deep else FAST_BATCH
    for start in range(0, len(targets), step):
        chunk = targets[start : start + step]
        names = {hex_id(k): name for k, name in chunk}
        fast = {} if deep else fast_batch(t, [k for k, _ in chunk], names)
        slow = [k for k, _ in chunk if fast.get(hex_id(k)) is None]
        rows, journal = t.batch(slow) if slow else ({}, {})
        for key, name in chunk:
            h = hex_id(key)
            check = fast.get(h)
            if check is None and name is None:  # over all games: a sequence whose id is no game's is named so
                check = stray_check(rows.get(h, []), h, journal.get(h))
            yield check if check is not None else check_game(name, h, rows.get(h, []), journal.get(h), deep=deep)


#: check_checkpoint's problems (the command line's catalog renders them in Italian)
_MISSING = N_("%(game)s: listed in the checkpoint (%(num)s events) but not in the store")
_TRUNCATED = N_("%(game)s: %(stored)s events stored, the checkpoint lists %(listed)s: the game was truncated")
_NOT_BYTES = N_(
    "%(game)s: position %(pos)s: stored event missing or not bytes: the game was rewritten since the checkpoint"
)
_REWRITTEN = N_(
    "%(game)s: seal at position %(pos)s is %(now)s from the stored events, the checkpoint's is %(then)s: the "
    "game was rewritten since the checkpoint"
)
_SEAL_DIFFERS = N_("%(game)s: stored seal at position %(pos)s differs from the checkpoint's %(seal)s")


def _problem(msgid: str, **params: Any) -> Text:
    """One problem of :func:`check_checkpoint`: its English, keeping the message (:class:`ledger.texts.Text`)."""
    return Text.of(Message(msgid, **params))


def check_checkpoint(app: Any, entries: Sequence[Any]) -> list[str]:
    """One line per listed game that the store no longer holds as the
    checkpoint says: missing, shorter, or different events before ``length``
    (the chain recomputed from the stored events, and the stored seal)."""
    t = tables(app)
    problems: list[str] = []
    for start in range(0, len(entries), BATCH):
        chunk = entries[start : start + BATCH]
        keys = [t.key(game_uuid(e.game_id)) for e in chunk]
        batch, _journal = t.batch(keys)
        for e in chunk:
            oid = game_uuid(e.game_id).hex
            rows = batch.get(oid, [])
            if not rows:
                problems.append(_problem(_MISSING, game=e.game_id, num=e.length))
                continue
            if len(rows) < e.length:
                problems.append(_problem(_TRUNCATED, game=e.game_id, stored=len(rows), listed=e.length))
                continue
            h: bytes | None = None
            bad = None
            for p, (version, _topic, state, *_rest) in enumerate(rows[: e.length]):
                if int(version) != p + 1 or not isinstance(state, (bytes, bytearray, memoryview)):
                    bad = p
                    break
                h = _seal.chain(h, bytes(state))
            if bad is not None:
                problems.append(_problem(_NOT_BYTES, game=e.game_id, pos=bad))
                continue
            assert h is not None
            if h.hex() != e.seal:
                problems.append(
                    _problem(
                        _REWRITTEN,
                        game=e.game_id,
                        pos=e.length - 1,
                        now=_seal.short_form(h.hex()),
                        then=_seal.short_form(e.seal),
                    )
                )
                continue
            if rows[e.length - 1][5] != h:
                problems.append(
                    _problem(_SEAL_DIFFERS, game=e.game_id, pos=e.length - 1, seal=_seal.short_form(e.seal))
                )
    return problems
