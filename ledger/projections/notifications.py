"""What a stored event's notification is to the analytics view: its domain
event or an :class:`Undecodable` standing in for it, the errors that skip one
game while the others go on, and a sequence's id as the view keys it.
Shared by :mod:`ledger.projections.analytics` (the whole-game path) and
:mod:`ledger.projections.long_game` (the chunked one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
from eventsourcing.domain import EventSourcingError

from ledger.errors import LedgerError
from ledger.stored.persistence import StoredEventError

if TYPE_CHECKING:
    from ledger.store.application import LedgerApp


class Undecodable(msgspec.Struct, frozen=True, kw_only=True):
    """A stored event that does not decode (tampered with, or stored by a build
    with other limits): stands in for the domain event of its notification."""

    originator_id: Any
    originator_version: int
    raw: str
    error: str
    event: None = None


#: errors of one game's data (not of the machine): that game is skipped, the others go on
GAME_DATA_ERRORS: tuple[type[Exception], ...] = (
    LedgerError,
    ValueError,
    TypeError,
    LookupError,
    OverflowError,
    ArithmeticError,
    msgspec.MsgspecError,
)
#: a stored event that does not decode (the store's error or the game data's)
_DECODE_ERRORS: tuple[type[Exception], ...] = (EventSourcingError, *GAME_DATA_ERRORS)


def domain_event_or_undecodable(app: LedgerApp, notification: Any) -> Any:
    """The notification's domain event, or an :class:`Undecodable` naming why not."""
    try:
        return app.mapper.to_domain_event(notification)
    except _DECODE_ERRORS as exc:
        state = notification.state
        raw = (
            bytes(state).decode("utf-8", "replace") if isinstance(state, (bytes, bytearray, memoryview)) else str(state)
        )
        reason = (
            exc.reason
            if isinstance(exc, StoredEventError)
            else f"the stored event does not decode ({type(exc).__name__}: {exc})"
        )
        return Undecodable(
            originator_id=notification.originator_id,
            originator_version=notification.originator_version,
            raw=raw,
            error=f"position {notification.originator_version - 1}: {reason}",
        )


class Skip(Exception):
    """This game cannot be projected (the message says why)."""


#: what skips one game while the others go on
SKIP_ERRORS: tuple[type[Exception], ...] = (Skip, *GAME_DATA_ERRORS)


def oid_hex(originator_id: Any) -> str:
    return (
        originator_id.hex
        if hasattr(originator_id, "hex") and not isinstance(originator_id, str)
        else str(originator_id).replace("-", "")
    )


def game_id_in(raw: str) -> str | None:
    """The ``game_id`` in the JSON text of a ``game_started``, or None."""
    try:
        value = msgspec.json.decode(raw)
    except msgspec.MsgspecError:
        return None
    game = value.get("game_id") if isinstance(value, dict) else None
    return game if isinstance(game, str) and len(game) <= 64 else None


__all__ = [
    "GAME_DATA_ERRORS",
    "SKIP_ERRORS",
    "Skip",
    "Undecodable",
    "domain_event_or_undecodable",
    "game_id_in",
    "oid_hex",
]
