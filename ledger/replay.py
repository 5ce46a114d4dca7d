"""The fold: ``evolve(state, event) -> state`` over a record, and replays.

This is the one place a record becomes table states. Replay, the audit, the
scores, the viewer and the analytics rows all consume it (DESIGN.md, "The
flow"). A rejection (``REC-…``) raises :class:`~ledger.errors.RecordError`
with the event's position; a violation becomes a finding in the state.

>>> from ledger.events import GameStarted, Player
>>> s = evolve(None, GameStarted(game_id="g", variant="ramino",
...     players=(Player(seat=0, name="Anna"), Player(seat=1, name="Bruno"))))
>>> s.position, s.phase, s.rules.variant
(0, 'setup', 'ramino')
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice

from ledger.errors import PositionError, RecordError
from ledger.events import Event, GameStarted
from ledger.records import Record
from ledger.state import TableState
from ledger.texts import N_, Message
from ledger.variants import find_variant


def start(event: Event) -> TableState:
    """The state at position 0 from ``game_started``.

    Raises ``REC-ORDER`` when the first event is not ``game_started``,
    ``REC-REF`` for seats that are not 0..n-1 or teams that do not fit the
    variant, ``REC-FORMAT`` for an unknown ruleset or option.
    """
    if not isinstance(event, GameStarted):
        raise RecordError(
            "REC-ORDER",
            Message(N_("a record starts with game_started, not %(type)s"), type=event.type),
            field="type",
            position=0,
        )
    seats = [p.seat for p in event.players]
    if sorted(seats) != list(range(len(seats))):
        raise RecordError(
            "REC-REF", f"seats must be 0..{len(seats) - 1} once each, got {seats}", field="players", position=0
        )
    players = tuple(sorted(event.players, key=lambda p: p.seat))
    cls = find_variant(event.variant)
    rules = cls(event.ruleset, dict(event.options or {}), len(players))
    rules.partial = event.knowledge == "partial"
    if len(players) not in cls.players_allowed:
        allowed = ", ".join(str(n) for n in cls.players_allowed)
        raise RecordError(
            "REC-REF",
            Message(
                N_("%(num)s players: %(variant)s is played by %(allowed)s"),
                num=len(players),
                variant=event.variant,
                allowed=allowed,
            ),
            field="players",
            position=0,
        )
    sides = rules.sides_for(players)
    n_sides = max(sides) + 1
    return TableState(
        rules=rules,
        game_id=event.game_id,
        players=players,
        sides=sides,
        position=0,
        totals=tuple(0 for _ in range(n_sides)),
    )


def evolve(state: TableState | None, event: Event) -> TableState:
    """Apply one event. ``state`` is None for the first event (``game_started``).

    Returns the state at the event's position; raises :class:`RecordError`
    (rule ``REC-…``, ``position`` set) when the record is impossible.
    """
    if state is None:
        return start(event)
    if isinstance(event, GameStarted):
        raise RecordError("REC-ORDER", N_("a second game_started"), field="type", position=state.position + 1)
    return state.rules.apply(state, event)


def states(events: Iterable[Event]) -> Iterator[TableState]:
    """Yield the state after each event, position 0 first."""
    state: TableState | None = None
    for event in events:
        state = evolve(state, event)
        yield state


def replay(events: Iterable[Event], upto: int | None = None) -> TableState:
    """Fold ``events`` (through position ``upto`` inclusive when given).

    Returns the last state; raises :class:`RecordError` for an impossible
    record and :class:`ValueError` for no events.
    """
    it = iter(events)
    if upto is not None:
        if upto < 0:
            it = iter(())
        else:
            it = islice(it, upto + 1)
    first = next(it, None)
    if first is None:
        raise RecordError("REC-FORMAT", N_("no events: a record starts with game_started"), position=0)
    state = start(first)
    apply = state.rules.apply  # one rules object for the whole game (position_restored keeps it)
    for event in it:  # evolve(state, event), written out: the loop every replay runs
        if isinstance(event, GameStarted):
            raise RecordError("REC-ORDER", N_("a second game_started"), field="type", position=state.position + 1)
        state = apply(state, event)
    return state


def validate(record: Record) -> TableState:
    """Replay a whole :class:`~ledger.records.Record`; a rejection is located
    at the record's file line (``RecordError.line``) and path."""
    try:
        return replay(record.events)
    except RecordError as err:
        raise err.with_location(line=record.line_of(err.position), path=record.path) from None


class Replayer:
    """States of one game at any position, with checkpoints.

    Keeps the state every ``every`` positions (default 64), so
    :meth:`state_at` costs at most ``every`` events whatever the position.
    Built from the event list once (one full replay, which validates it).

    Raises :class:`RecordError` on construction for an impossible record.
    :meth:`extended` folds only the events appended since (a live game).
    :attr:`steps` is the number of events the last fold of this object folded.
    """

    #: events folded when this object was made (all of them, or those :meth:`extended` added)
    steps: int

    def __init__(self, events: Sequence[Event], every: int = 64) -> None:
        self.events = tuple(events)
        self.every = every
        self._checkpoints: list[int] = []
        self._states: list[TableState] = []
        self.final = self._fold(None, 0, self.events)

    def _fold(self, state: TableState | None, first: int, events: Sequence[Event]) -> TableState:
        """Fold ``events`` (at positions ``first``…) from ``state``, keeping
        the checkpoints; the last state. :attr:`steps` counts the events folded."""
        every = self.every
        for i, event in enumerate(events, first):
            state = evolve(state, event)
            if i % every == 0:
                self._checkpoints.append(i)
                self._states.append(state)
        self.steps = len(events)
        if state is None:
            raise RecordError("REC-FORMAT", N_("no events: a record starts with game_started"), position=0)
        return state

    def extended(self, events: Sequence[Event]) -> Replayer:
        """A new :class:`Replayer` of this game with ``events`` appended (its
        positions ``len(self)``…): only they are folded, from :attr:`final`,
        and this one's checkpoints are kept (a record only grows: the states
        before are the same). Its :attr:`steps` is ``len(events)``; ``self``
        is left as it is. Raises :class:`RecordError` as a replay does."""
        new = Replayer.__new__(Replayer)
        new.every = self.every
        new._checkpoints = list(self._checkpoints)
        new._states = list(self._states)
        new.events = self.events + tuple(events)
        new.final = new._fold(self.final, len(self.events), events)
        return new

    def __len__(self) -> int:
        return len(self.events)

    def state_at(self, position: int) -> TableState:
        """The state just after the event at ``position`` (0-based).

        Raises :class:`~ledger.errors.PositionError` (an :class:`IndexError`)
        outside ``0..len-1``.
        """
        if not 0 <= position < len(self.events):
            raise PositionError(f"position {position} is outside 0..{len(self.events) - 1}")
        if position == len(self.events) - 1:
            return self.final
        k = bisect.bisect_right(self._checkpoints, position) - 1
        state = self._states[k]
        for i in range(self._checkpoints[k] + 1, position + 1):
            state = evolve(state, self.events[i])
        return state

    def hand_starts(self) -> list[int]:
        """Positions of each ``hand_dealt``."""
        return [i for i, e in enumerate(self.events) if e.type == "hand_dealt"]
