"""The chain checked before a seal is shown (issue 26, README "Seals", layer 2).

A seal printed on a score sheet, a report or the viewer is only worth what
the stored chain behind it is: an event edited behind the product's back
(``sqlite3``) still has its old stored seal. So every command and page that
prints a stored game's seal first asks :func:`chain_check`, which runs
``verify``'s own code (:func:`ledger.store.verify.verify_games`: read-only,
nothing is written) on that one game and keeps the outcome per game version
(game id and length) on the :class:`~ledger.store.application.LedgerApp`, so
a viewer showing a game many times checks its chain once per version (a
3,000-event game costs a few milliseconds).

A record file needs no check: its seal is computed from its own lines.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ledger.store.verify import game_keys, verify_games
from ledger.store.verify_rows import GameCheck

#: game versions whose outcome one store keeps
CACHE_SIZE = 512
_ATTR = "_rummy_chain_checks"
_LOCK = threading.Lock()


def chain_check(app: Any, game_id: str, length: int) -> GameCheck:
    """The stored chain of ``game_id`` verified (both chains, as ``verify``
    does): a :class:`~ledger.store.verify_rows.GameCheck`, ``ok`` or naming
    the first broken ``position`` and what differs (``kind``, ``message``).

    ``length``: the number of events the caller read (the version the
    outcome is kept for). Reads the store only; the outcome of each
    ``(game_id, length)`` is computed once per ``app`` (at most
    :data:`CACHE_SIZE` kept, least recently used dropped)."""
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
    check = next(iter(verify_games(app, game_keys(app, [game_id]))))
    with _LOCK:
        cache[key] = check
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return check


__all__ = ["CACHE_SIZE", "chain_check"]
