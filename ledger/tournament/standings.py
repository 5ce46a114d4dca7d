"""The standings of a tournament: f(tournament state, the games' results) (TOURNAMENT.md, "Standings").

For each round up to ``after_round`` each table's game gives both entrants
their MP (the sides' totals as adjudicated, :mod:`ledger.tournament.results`)
and the scoring turns them into VP (:func:`ledger.tournament.vp.score_round`);
the bye scores ``bye_vp`` (default 12); a game not finished (or not stored
yet) is *playing* and counts for nothing until it ends. ``vp_adjusted``
adds its VP (those of rounds up to ``after_round`` and those that name no
round). The order is the ``tiebreak`` list (``vp``, ``mp_diff``, ``mp`` by
default), each highest first; entrants still equal share the place and are
listed by entrant id. :meth:`Standings.to_json` is the ``standings --json``
object of TOURNAMENT.md "Machine-readable outputs" (a round whose game is
playing also says ``"playing": true``). Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.tournament.results import GameResult
from ledger.tournament.state import TournamentState
from ledger.tournament.vp import Number, score_round


@dataclass(frozen=True)
class RoundLine:
    """One entrant's round: its opponent (None: the bye), game, MP for and against, VP."""

    round: int
    opponent: str | None
    game_id: str | None
    table: int | None
    mp: int
    mp_against: int
    vp: Number
    playing: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "opponent": self.opponent,
            "game_id": self.game_id,
            "mp": self.mp,
            "mp_against": self.mp_against,
            "vp": self.vp,
        }
        if self.playing:
            out["playing"] = True
        return out


@dataclass
class Line:
    """One entrant's line of the standings."""

    entrant: str
    players: tuple[str, ...]
    withdrawn: bool
    rounds: list[RoundLine] = field(default_factory=list)
    adjusted: Number = 0
    place: int = 0

    @property
    def vp(self) -> Number:
        """Total VP: the rounds' (playing rounds count nothing) plus the adjustments."""
        return sum((r.vp for r in self.rounds if not r.playing), self.adjusted)

    @property
    def mp_diff(self) -> int:
        return sum(r.mp - r.mp_against for r in self.rounds if not r.playing)

    @property
    def mp(self) -> int:
        return sum(r.mp for r in self.rounds if not r.playing)

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "entrant": self.entrant,
            "vp": self.vp,
            "mp_diff": self.mp_diff,
            "mp": self.mp,
            "rounds": [r.to_json() for r in self.rounds],
        }


@dataclass(frozen=True)
class Standings:
    """The standings after ``after_round`` (lines by place, then entrant id)."""

    tournament_id: str
    after_round: int
    lines: tuple[Line, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"tournament_id", "after_round", "standings": [...]}`` (TOURNAMENT.md)."""
        return {
            "tournament_id": self.tournament_id,
            "after_round": self.after_round,
            "standings": [ln.to_json() for ln in self.lines],
        }

    def order(self) -> list[str]:
        """The entrant ids in standings order."""
        return [ln.entrant for ln in self.lines]

    def place_of(self, entrant: str) -> int | None:
        return next((ln.place for ln in self.lines if ln.entrant == entrant), None)


def round_lines(state: TournamentState, results: Mapping[str, GameResult], rnd: int) -> list[tuple[str, RoundLine]]:
    """``(entrant, its line)`` for every table and the bye of round ``rnd``."""
    info = state.rounds[rnd]
    scoring = state.started.scoring
    out: list[tuple[str, RoundLine]] = []
    for t in info.tables:
        a, b = t.entrants
        game = results.get(t.game_id)
        if game is None or not game.finished:
            out.append((a, RoundLine(rnd, b, t.game_id, t.table, 0, 0, 0, playing=True)))
            out.append((b, RoundLine(rnd, a, t.game_id, t.table, 0, 0, 0, playing=True)))
            continue
        mp_a, mp_b = game.mp
        vp_a, vp_b = score_round(scoring, mp_a, mp_b)
        out.append((a, RoundLine(rnd, b, t.game_id, t.table, mp_a, mp_b, vp_a)))
        out.append((b, RoundLine(rnd, a, t.game_id, t.table, mp_b, mp_a, vp_b)))
    if info.bye is not None:
        out.append((info.bye, RoundLine(rnd, None, None, None, 0, 0, state.started.bye_score)))
    return out


def standings(state: TournamentState, results: Mapping[str, GameResult], after_round: int | None = None) -> Standings:
    """The standings after round ``after_round`` (default: the last round paired;
    0: before the first). ``results``: ``{game_id: GameResult}`` of the games
    stored so far (a game missing from it is playing)."""
    last = state.last_round if after_round is None else min(after_round, state.last_round)
    lines = {
        e.id: Line(e.id, e.players, e.withdrawn_at is not None and e.withdrawn_at <= state.position)
        for e in state.entrants.values()
    }
    for rnd in range(1, last + 1):
        for entrant, line in round_lines(state, results, rnd):
            lines[entrant].rounds.append(line)
    for adj in state.adjustments:
        if adj.round is None or adj.round <= last:
            lines[adj.entrant].adjusted += adj.vp
    return Standings(state.tournament_id, last, _ranked(list(lines.values()), state.started.tiebreaks))


def _ranked(lines: list[Line], tiebreaks: tuple[str, ...]) -> tuple[Line, ...]:
    """``lines`` by the tiebreak list (highest first), then entrant id; equal entrants share a place."""

    def key(line: Line) -> tuple[Number, ...]:
        return tuple(-getattr(line, name) for name in tiebreaks)

    ordered = sorted(lines, key=lambda ln: (key(ln), ln.entrant))
    previous: tuple[Number, ...] | None = None
    for i, line in enumerate(ordered):
        k = key(line)
        line.place = i + 1 if k != previous else ordered[i - 1].place
        previous = k
    return tuple(ordered)
