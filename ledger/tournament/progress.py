"""Each entrant's victory points round by round: the data of the standings chart (issue 26).

:func:`progress` gives, for every entrant, its VP total after round 0 (before
the first: only the ``vp_adjusted`` that name no round), 1, 2, … up to
``after_round``, each as :func:`ledger.tournament.standings.standings`
computes it after that round (a game still playing counts nothing, a bye
``bye_vp``, the adjustments of the rounds so far); the entrants come in the
order of the standings after ``after_round``, with their place there.

A round whose VP a referee's ruling changed (the game's totals as
adjudicated give other VP than its totals as played:
:attr:`ledger.tournament.results.GameResult.played`; a ``penalty_assessed``,
also one after ``game_ended``, FORMAT.md "Rulings after the game") is a
:class:`RulingMark`: the round's VP as played and as adjudicated. A ruling
that moves MP but not VP changes nothing the chart shows and has no mark.
Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ledger.tournament.results import GameResult
from ledger.tournament.standings import standings
from ledger.tournament.state import TournamentState
from ledger.tournament.vp import Number, score_round


@dataclass(frozen=True)
class RulingMark:
    """Round ``round``'s VP of an entrant as played and as adjudicated (they differ), and its game."""

    round: int
    game_id: str
    vp_as_played: Number
    vp: Number


@dataclass(frozen=True)
class EntrantProgress:
    """One entrant's line: its place after the last round shown, its VP total after each round (0 first)."""

    entrant: str
    place: int
    vp: tuple[Number, ...]
    rulings: tuple[RulingMark, ...] = ()


@dataclass(frozen=True)
class Progress:
    """The chart's data after ``after_round``: ``entrants`` in standings order."""

    tournament_id: str
    after_round: int
    entrants: tuple[EntrantProgress, ...]


def ruling_marks(state: TournamentState, results: Mapping[str, GameResult], last: int) -> dict[str, list[RulingMark]]:
    """``{entrant: marks}``: each finished game of rounds 1..``last`` whose VP as
    played differ from its VP as adjudicated gives both its entrants a mark."""
    scoring = state.started.scoring
    out: dict[str, list[RulingMark]] = {}
    for rnd in range(1, last + 1):
        for t in state.rounds[rnd].tables:
            game = results.get(t.game_id)
            if game is None or not game.finished or game.mp_as_played == game.mp:
                continue
            ruled = score_round(scoring, *game.mp)
            played = score_round(scoring, *game.mp_as_played)
            for entrant, as_played, vp in zip(t.entrants, played, ruled, strict=True):
                if as_played != vp:
                    out.setdefault(entrant, []).append(RulingMark(rnd, t.game_id, as_played, vp))
    return out


def progress(state: TournamentState, results: Mapping[str, GameResult], after_round: int | None = None) -> Progress:
    """The VP totals of every entrant after each round up to ``after_round`` (default: the last
    paired), in the standings' order (module docstring)."""
    final = standings(state, results, after_round)
    totals: dict[str, list[Number]] = {ln.entrant: [] for ln in final.lines}
    for rnd in range(final.after_round + 1):
        for line in standings(state, results, rnd).lines:
            totals[line.entrant].append(line.vp)
    marks = ruling_marks(state, results, final.after_round)
    return Progress(
        state.tournament_id,
        final.after_round,
        tuple(
            EntrantProgress(ln.entrant, ln.place, tuple(totals[ln.entrant]), tuple(marks.get(ln.entrant, ())))
            for ln in final.lines
        ),
    )


__all__ = ["EntrantProgress", "Progress", "RulingMark", "progress", "ruling_marks"]
