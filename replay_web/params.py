"""Request parameters shared by the pages and the API: the game, ``at`` and ``pov``
(read ``pov`` first: it changes what a bad ``at`` may say).

A bad parameter aborts with 400 and a message that says what is allowed;
an unknown game raises :class:`~ledger.errors.GameNotFoundError` (404).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, current_app

from ledger.params import ascii_int
from ledger.redaction import SPECTATOR, Pov
from replay_web.access import limit_position
from replay_web.cache import GameData
from replay_web.lang import gettext as _  # pages in the page's language; the JSON API stays English


def load_game(game_id: str) -> GameData:
    """The replayed game (from the app's cache)."""
    from replay_web import cache_of

    return cache_of(current_app).get(game_id)


def load_seen_game(game_id: str) -> GameData:
    """:func:`load_game` for a read that takes ``?pov=``: a seat's view the
    reader may not have is refused first, without loading the game
    (:func:`replay_web.access.refuse_seat_view_early`)."""
    from replay_web import access

    access.refuse_seat_view_early(game_id)
    return load_game(game_id)


def int_arg(args: Mapping[str, str], name: str) -> int | None:
    """The query argument ``name`` as a whole number (ASCII digits), None when
    absent or empty; anything else is a 400 naming the argument and its value."""
    raw = args.get(name)
    if raw is None or raw == "":
        return None
    try:
        return ascii_int(raw)  # ASCII digits only: int() also reads "٣", "３", "+3" and "3_0"
    except ValueError:
        abort(400, description=_("%(name)s=%(raw)s is not a whole number", name=name, raw=repr(raw)))


def position(args: Mapping[str, str], game: GameData, pov: Pov = None) -> int:
    """``at``: a position 0..last (default: the last position). In a seat's
    or spectator's view (``pov`` not None) a position past the last says so
    without naming the last (a seat's page must not tell how the game goes on)."""
    at = int_arg(args, "at")
    if at is None:
        return game.last
    if pov is not None and at > game.last >= 0:
        abort(404, description=_("position %(at)s is not recorded (yet)", at=at))
    if not 0 <= at <= game.last:
        abort(400, description=_("position %(at)s is outside this game's positions 0–%(last)s", at=at, last=game.last))
    return at


def reader_position(args: Mapping[str, str], game: GameData, acc: Any, pov: Pov = None) -> int:
    """``at`` for this reader (``acc`` a :class:`replay_web.access.Access`),
    default the last position it may see. A reader who may see the whole
    game gets :func:`position` (``pov`` the view it asks for). Anyone else (a
    spectator of an unfinished game, issue 14) is judged against
    ``acc.upto`` only: past it the 403 of
    :func:`replay_web.access.limit_position`, the same for every later
    position, stored or not, so that no answer tells the game's true length."""
    if acc.omniscient:
        return position(args, game, pov)
    at = int_arg(args, "at")
    if at is None:
        return int(acc.upto)
    if at < 0:
        abort(400, description=_("position %(at)s is outside this game's positions 0–%(last)s", at=at, last=acc.upto))
    return limit_position(at, acc)


def pov(args: Mapping[str, str], game: GameData) -> Pov:
    """``pov``: a seat of the game, ``"spectator"`` (a reader at no seat,
    :data:`ledger.redaction.SPECTATOR`), or None (the referee's view)."""
    if (args.get("pov") or "").strip().lower() == SPECTATOR:
        return SPECTATOR
    seat = int_arg(args, "pov")
    if seat is None:
        return None
    n = len(game.started.players)
    if not 0 <= seat < n:
        abort(
            400,
            description=_(
                "pov=%(seat)s: no such seat at this table (seats 0–%(last)s); pov=%(spectator)s is the view "
                "from no seat",
                seat=seat,
                last=n - 1,
                spectator=SPECTATOR,
            ),
        )
    return seat
