"""The fold of a tournament record: its state at any position (TOURNAMENT.md, "The record").

:func:`fold` applies the events in order and returns a
:class:`TournamentState`: the entrants (registration order), withdrawals, the
rounds with their tables and byes, the VP adjustments and the closed rounds.
Nothing in it holds a total: the standings are computed from it and the
games' results (:mod:`ledger.tournament.standings`). An event that cannot be
applied raises :class:`~ledger.errors.RecordError` (``REC-ORDER`` for an
event out of place, ``REC-REF`` for a reference to nothing or a name used
twice), with the position and field, as a game's fold does. Pure, no I/O.

>>> from ledger.tournament.events import *
>>> s = fold([TournamentStarted(format="rummy-ledger/1", tournament_id="t", name="T", hands_per_match=4,
...     scoring=Scoring(kind="vp", table="fibur-4"), movement="swiss"),
...     EntrantRegistered(entrant="a", players=("Anna", "Bruno"))])
>>> list(s.entrants), s.position
(['a'], 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ledger.errors import RecordError
from ledger.tournament.events import (
    EntrantRegistered,
    EntrantWithdrawn,
    RoundClosed,
    RoundPaired,
    Table,
    TournamentEnded,
    TournamentEvent,
    TournamentStarted,
    VpAdjusted,
)
from ledger.tournament.vp import bands_of


@dataclass
class Entrant:
    """A registered entrant: its id, players, and its withdrawal (position, reason) if any."""

    id: str
    players: tuple[str, ...]
    registered_at: int
    withdrawn_at: int | None = None
    reason: str | None = None

    def active_at(self, position: int) -> bool:
        """Registered and not withdrawn before ``position``."""
        return self.registered_at < position and (self.withdrawn_at is None or self.withdrawn_at > position)


@dataclass
class Round:
    """A paired round: its tables, bye and seed, where it was paired and (once closed) closed."""

    round: int
    tables: tuple[Table, ...]
    bye: str | None
    seed: int | None
    paired_at: int
    closed_at: int | None = None
    checkpoint: str | None = None

    def opponents(self) -> dict[str, str | None]:
        """``{entrant: opponent}`` in this round (the bye's opponent None)."""
        out: dict[str, str | None] = {}
        for t in self.tables:
            a, b = t.entrants
            out.setdefault(a, b)
            out.setdefault(b, a)
        if self.bye is not None:
            out.setdefault(self.bye, None)
        return out


@dataclass
class Adjustment:
    """A ``vp_adjusted`` at ``position``."""

    position: int
    entrant: str
    vp: float | int
    rule: str
    round: int | None
    referee: str | None
    note: str | None


@dataclass
class TournamentState:
    """A tournament at ``position`` (the last event applied)."""

    started: TournamentStarted
    position: int = 0
    entrants: dict[str, Entrant] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)
    adjustments: list[Adjustment] = field(default_factory=list)
    #: game id -> (round, table)
    games: dict[str, tuple[int, int]] = field(default_factory=dict)
    ended: str | None = None

    @property
    def tournament_id(self) -> str:
        return self.started.tournament_id

    @property
    def last_round(self) -> int:
        """The highest round paired (0 before the first)."""
        return max(self.rounds, default=0)

    @property
    def closed_rounds(self) -> list[int]:
        """The closed rounds, in order."""
        return [r for r, info in sorted(self.rounds.items()) if info.closed_at is not None]

    def active(self, position: int | None = None) -> list[str]:
        """The entrants taking part at ``position`` (default: now), in registration order."""
        at = self.position + 1 if position is None else position
        return [e.id for e in self.entrants.values() if e.active_at(at)]


def _refuse(rule: str, message: str, position: int, field_: str) -> RecordError:
    return RecordError(rule, message, position=position, field=field_)


def evolve(state: TournamentState | None, event: TournamentEvent, position: int) -> TournamentState:
    """The state after ``event`` at ``position``; raises :class:`RecordError` (REC-ORDER, REC-REF)."""
    if state is None:
        if not isinstance(event, TournamentStarted):
            raise _refuse("REC-ORDER", "a tournament record starts with tournament_started", position, "type")
        _check_scoring(event, position)
        return TournamentState(started=event, position=position)
    if state.ended is not None:
        raise _refuse("REC-ORDER", f"{event.type} after tournament_ended", position, "type")
    state.position = position
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise _refuse("REC-ORDER", f"{event.type} opens a tournament: it comes only at position 0", position, "type")
    handler(state, event, position)
    return state


def _check_scoring(event: TournamentStarted, position: int) -> None:
    try:
        bands_of(event.scoring)
    except KeyError as exc:
        raise _refuse("REC-REF", str(exc.args[0]), position, "scoring.table") from None


def _registered(state: TournamentState, e: EntrantRegistered, pos: int) -> None:
    if e.entrant in state.entrants:
        raise _refuse("REC-REF", f"entrant {e.entrant!r} is registered already", pos, "entrant")
    state.entrants[e.entrant] = Entrant(e.entrant, e.players, pos)


def _known(state: TournamentState, entrant: str, pos: int, where: str) -> Entrant:
    found = state.entrants.get(entrant)
    if found is None:
        raise _refuse("REC-REF", f"no entrant {entrant!r} is registered", pos, where)
    return found


def _withdrawn(state: TournamentState, e: EntrantWithdrawn, pos: int) -> None:
    entrant = _known(state, e.entrant, pos, "entrant")
    if entrant.withdrawn_at is not None:
        raise _refuse("REC-REF", f"entrant {e.entrant!r} withdrew already", pos, "entrant")
    entrant.withdrawn_at, entrant.reason = pos, e.reason


def _paired(state: TournamentState, e: RoundPaired, pos: int) -> None:
    if e.round != state.last_round + 1:
        raise _refuse("REC-ORDER", f"round {e.round} paired after round {state.last_round}", pos, "round")
    limit = state.started.rounds
    if limit is not None and e.round > limit:
        raise _refuse("REC-ORDER", f"round {e.round}: the tournament has {limit} rounds", pos, "round")
    numbers: set[int] = set()
    games: dict[str, tuple[int, int]] = {}
    for i, t in enumerate(e.tables):
        for j, entrant in enumerate(t.entrants):
            _known(state, entrant, pos, f"tables[{i}].entrants[{j}]")
        if t.table in numbers:
            raise _refuse("REC-REF", f"table {t.table} is named twice in round {e.round}", pos, f"tables[{i}].table")
        numbers.add(t.table)
        if t.game_id in state.games or t.game_id in games or t.game_id == state.tournament_id:
            raise _refuse("REC-REF", f"game {t.game_id!r} is named by another table", pos, f"tables[{i}].game_id")
        games[t.game_id] = (e.round, t.table)
    if e.bye is not None:
        _known(state, e.bye, pos, "bye")
    state.games.update(games)
    state.rounds[e.round] = Round(e.round, e.tables, e.bye, e.seed, pos)


def _adjusted(state: TournamentState, e: VpAdjusted, pos: int) -> None:
    _known(state, e.entrant, pos, "entrant")
    if e.round is not None and e.round not in state.rounds:
        raise _refuse("REC-REF", f"round {e.round} is not paired", pos, "round")
    state.adjustments.append(Adjustment(pos, e.entrant, e.vp, e.rule, e.round, e.referee, e.note))


def _closed(state: TournamentState, e: RoundClosed, pos: int) -> None:
    info = state.rounds.get(e.round)
    if info is None:
        raise _refuse("REC-ORDER", f"round {e.round} is not paired", pos, "round")
    if info.closed_at is not None:
        raise _refuse("REC-ORDER", f"round {e.round} is closed already", pos, "round")
    info.closed_at, info.checkpoint = pos, e.checkpoint


def _ended(state: TournamentState, e: TournamentEnded, pos: int) -> None:
    state.ended = e.reason


_HANDLERS: dict[type[TournamentEvent], Callable[[TournamentState, Any, int], None]] = {
    EntrantRegistered: _registered,
    EntrantWithdrawn: _withdrawn,
    RoundPaired: _paired,
    VpAdjusted: _adjusted,
    RoundClosed: _closed,
    TournamentEnded: _ended,
}


def fold(events: Iterable[TournamentEvent], upto: int | None = None) -> TournamentState:
    """The state after the events (those at positions up to ``upto`` when given);
    raises :class:`RecordError` for an event that cannot be applied, or no events."""
    state: TournamentState | None = None
    for position, event in enumerate(events):
        if upto is not None and position > upto:
            break
        state = evolve(state, event, position)
    if state is None:
        raise RecordError("REC-FORMAT", "no events: a tournament record starts with tournament_started", position=0)
    return state
