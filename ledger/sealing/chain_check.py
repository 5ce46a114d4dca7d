"""The chain checked before a seal is shown (issue 26, README "Seals", layer 2).

A seal printed on a score sheet, a report or the viewer is only worth what
the stored chain behind it is: an event edited behind the product's back
(``sqlite3``) still has its old stored seal. So every command and page that
prints a stored game's seal first asks :func:`chain_check`, which runs
``verify``'s own code (:func:`ledger.sealing.verify.verify_games`: read-only,
nothing is written) on that one game and keeps the outcome per game version
(game id and length) on the :class:`~ledger.store.application.LedgerApp`, so
a viewer showing a game many times checks its chain once per version (a
3,000-event game costs a few milliseconds). A live game's newer version
has only its new rows checked, from the last verified one, for
:data:`RECHECK_SECONDS` after its last whole check (a 100,000-event game's
whole check costs 0.6 s: after each append, issue 27); then it is checked
whole again.

A record file needs no check: its seal is computed from its own lines.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from ledger.sealing.tables import tables
from ledger.sealing.verify import game_keys, verify_games
from ledger.sealing.verify_rows import GameCheck, check_game
from ledger.stored.persistence import game_uuid, hex_id

#: game versions whose outcome one store keeps
CACHE_SIZE = 512
_ATTR = "_rummy_chain_checks"
#: per game id, ``(check, when)``: its longest version that verified and when the whole game was last checked
_LAST = "_rummy_chain_verified"
#: seconds a whole check is trusted for: a game's newer versions within it have only their new rows
#: checked (:func:`_continued`), the first one after it is checked whole again
RECHECK_SECONDS = 300.0
_LOCK = threading.Lock()


def chain_check(app: Any, game_id: str, length: int) -> GameCheck:
    """The stored chain of ``game_id`` verified (both chains, as ``verify``
    does): a :class:`~ledger.sealing.verify_rows.GameCheck`, ``ok`` or naming
    the first broken ``position`` and what differs (``kind``, ``message``).

    ``length``: the number of events the caller read (the version the
    outcome is kept for). Reads the store only; the outcome of each
    ``(game_id, length)`` is computed once per ``app`` (at most
    :data:`CACHE_SIZE` kept, least recently used dropped).

    A game that grew since a version verified here (a live game: records
    only grow) has only its new rows checked (:func:`_continued`), from
    the verified seal and journal link of its last one, which must still
    be stored as verified, for :data:`RECHECK_SECONDS` after the game was
    last checked whole; then, and whenever the new rows do not verify,
    the whole game is checked again, so the break named is the first one.
    An edit of a row verified before is found by the first whole check
    after it (at most :data:`RECHECK_SECONDS` later, at the game's next
    version), by ``verify``, or by a new process."""
    key = (game_id, length)
    with _LOCK:
        cache: OrderedDict[tuple[str, int], GameCheck] | None = getattr(app, _ATTR, None)
        if cache is None:
            cache = OrderedDict()
            setattr(app, _ATTR, cache)
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
            return found
        last: dict[str, tuple[GameCheck, float]] | None = getattr(app, _LAST, None)
        if last is None:
            last = {}
            setattr(app, _LAST, last)
        before, whole_at = last.get(game_id, (None, 0.0))
    check = None
    now = time.monotonic()
    if before is not None and before.length < length and now - whole_at < RECHECK_SECONDS:
        check = _continued(app, game_id, before)
    if check is None:
        check = next(iter(verify_games(app, game_keys(app, [game_id]))))
        whole_at = now
    with _LOCK:
        cache[key] = check
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
        kept = last.get(game_id)
        if check.ok and (kept is None or kept[0].length <= check.length):
            last.pop(game_id, None)
            last[game_id] = (check, whole_at)
            while len(last) > CACHE_SIZE:
                last.pop(next(iter(last)))
        elif not check.ok:
            last.pop(game_id, None)
    return check


def _continued(app: Any, game_id: str, before: GameCheck) -> GameCheck | None:
    """The check of ``game_id`` from the end of ``before`` (verified, of
    ``before.length`` events): its last row read again (its seal and the
    call's journal link as verified), then only the rows after it
    (:func:`~ledger.sealing.verify_rows.check_game` with ``start``). None
    when that row is not as verified or the rows after it do not verify
    (the caller checks the whole game)."""
    t = tables(app)
    key = t.key(game_uuid(game_id))
    n = before.length
    rows = t.rows_from(key, n)
    if not rows or before.seal is None or rows[0][0] != n:
        return None
    seal, link = rows[0][5], rows[0][6]
    if not isinstance(seal, (bytes, bytearray, memoryview)) or bytes(seal).hex() != before.seal:
        return None
    if not isinstance(link, (bytes, bytearray, memoryview)):
        return None
    check = check_game(
        before.game_id, hex_id(key), rows[1:], t.journal_count(key, n), start=n, prev=bytes(seal), jprev=bytes(link)
    )
    return check if check.ok else None


__all__ = ["CACHE_SIZE", "RECHECK_SECONDS", "chain_check"]
