"""Partial records cut from full ones: what a scorer, or one seat, saw
(FORMAT.md, "Partial records" and "Per-seat views").

:func:`redact` turns a full record into the partial record that a scorer at
the table (face-up cards only) or one seat's own app could have written:
``game_started`` says ``"knowledge": "partial"``; every card the viewer did
not see is ``??`` (the other hands dealt, the stock, the pozzetti, the cards
drawn from the stock, a pozzetto taken by another seat, a restocked stock); a
``cards_shown`` per seat holding cards comes just before each ``hand_ended``
(hands are counted face up at a hand's end). Melds, lay-offs, discards and
the cards taken from the pile stay named, and so does a Gin knock's face-down
discard: it is turned up when the hand ends, and the views hide it until then
(a record written at the table may give it as ``??``, which the fold accepts).

The cut inserts events, so positions move: :attr:`Redacted.positions` maps
each position of the full record to its position in the cut one (and
``position_restored.target`` and ``finding`` are mapped with it). It is the
test oracle of partial records (``tests/test_partial_oracle.py``) and the
``rummy-ledger redact`` command.

>>> parse_viewer("scorer"), parse_viewer("seat:1")
(None, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import msgspec

from ledger.cards import UNKNOWN
from ledger.errors import LedgerError
from ledger.events import (
    CardDrawn,
    CardsShown,
    Event,
    GameStarted,
    HandDealt,
    HandEnded,
    PenaltyAssessed,
    PositionRestored,
    PozzettoTaken,
    StockRestocked,
)
from ledger.replay import evolve
from ledger.state import TableState
from ledger.texts import N_, Message

#: the viewer that sees only what is face up
SCORER = "scorer"


class Redacted(NamedTuple):
    """A cut record: its ``events`` and, per position of the full record,
    the position that event has in the cut one (``positions[i]``)."""

    events: tuple[Event, ...]
    positions: tuple[int, ...]


def parse_viewer(text: str) -> int | None:
    """``"scorer"`` -> None, ``"seat:N"`` -> N; raises :class:`LedgerError` otherwise."""
    if text == SCORER:
        return None
    head, _, number = text.partition(":")
    if head == "seat" and number.isdigit() and len(number) <= 2:
        return int(number)
    raise LedgerError(Message(N_("--as is scorer or seat:N (a seat number), not %(value)s"), value=repr(text)))


def _unknown(cards: Sequence[str]) -> tuple[str, ...]:
    return (UNKNOWN,) * len(cards)


def redact(events: Iterable[Event], seat: int | None = None) -> Redacted:
    """The record ``events`` as a scorer (``seat`` None) or seat ``seat``
    saw it (see the module docstring). The full record must be valid: its
    :class:`~ledger.errors.RecordError` is raised as the fold raises it;
    :class:`LedgerError` for a ``seat`` that is not at the table."""
    out: list[Event] = []
    positions: list[int] = []
    state: TableState | None = None
    for event in events:
        if state is not None and seat is not None and not 0 <= seat < state.n_seats:
            raise LedgerError(Message(N_("no seat %(seat)s at this table"), seat=seat))
        if type(event) is HandEnded and state is not None and state.phase in ("draw", "play"):
            out.extend(CardsShown(seat=s, cards=h) for s, h in enumerate(state.hands) if h)
        positions.append(len(out))
        out.append(_cut(event, state, seat, positions))
        state = evolve(state, event)
    return Redacted(tuple(out), tuple(positions))


def _cut(e: Event, before: TableState | None, seat: int | None, positions: list[int]) -> Event:
    """One event as ``seat`` (None: the scorer) saw it; ``before``: the full table before it."""
    kind = type(e)
    replace = msgspec.structs.replace
    if kind is GameStarted:
        return replace(e, knowledge="partial")
    if kind is HandDealt:
        assert isinstance(e, HandDealt)
        return replace(
            e,
            hands=tuple(h if s == seat else _unknown(h) for s, h in enumerate(e.hands)),
            stock=None if e.stock is None else _unknown(e.stock),
            pozzetti=None if e.pozzetti is None else tuple(_unknown(p) for p in e.pozzetti),
        )
    if kind is CardDrawn:
        assert isinstance(e, CardDrawn)
        return e if e.seat == seat else replace(e, card=UNKNOWN)
    if kind is PozzettoTaken:
        assert isinstance(e, PozzettoTaken) and before is not None
        if e.seat == seat:
            dealt = before.pozzetti[e.pozzetto] if e.pozzetto < len(before.pozzetti) else None
            return replace(e, cards=e.cards if e.cards is not None else dealt)
        return e if e.cards is None else replace(e, cards=_unknown(e.cards))
    if kind is StockRestocked:
        assert isinstance(e, StockRestocked) and before is not None
        if e.cards is not None:
            return replace(e, cards=_unknown(e.cards))
        if before.rules.pozzetto_size():  # Burraco: a pozzetto becomes the stock, unknown as it was dealt
            return e
        return replace(e, cards=_unknown(before.discard[:-1]))  # the order the scorer did not see
    if kind is PositionRestored:
        assert isinstance(e, PositionRestored)
        return replace(e, target=_moved(e.target, positions), finding=_moved_opt(e.finding, positions))
    if kind is PenaltyAssessed:
        assert isinstance(e, PenaltyAssessed)
        return replace(e, finding=_moved_opt(e.finding, positions))
    return e


def _moved(position: int, positions: Sequence[int]) -> int:
    return positions[position] if 0 <= position < len(positions) else position


def _moved_opt(position: int | None, positions: Sequence[int]) -> int | None:
    return None if position is None else _moved(position, positions)
