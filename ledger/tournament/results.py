"""A round's game as the standings and the checker read it (TOURNAMENT.md, "From a game to victory points").

:class:`GameResult` is what a tournament needs of one game record: who sat
on each side (side 0 is entrant A, North–South / seat 0; side 1 is B), the
header the checker compares with the pairing (variant, ``options.hands``,
``meta.tournament``/``round``/``table``), whether ``game_ended`` is recorded,
and each side's total *as adjudicated* (the score sheet's totals: the
referee's ``penalty_assessed`` included, also those after ``game_ended``,
FORMAT.md "Rulings after the game"), and ``played``: the totals *as played*
(no penalty; the standings chart marks a round whose VP a ruling changed).
:func:`result_of` makes one from a game's
``game_started`` and its replayed state, :func:`result_of_line` from its
``game_started`` and the store's games-list line (no replay). Pure: the standings take these as
input and stay a function of the events.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ledger.events import GameStarted
from ledger.game_summary import ListSummary, played_totals
from ledger.replay import start
from ledger.scoring import score_sheet
from ledger.state import TableState


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a round: ``sides`` are the player names of each scoring side (side 0 = A)."""

    game_id: str
    variant: str
    sides: tuple[tuple[str, ...], ...]
    finished: bool
    totals: tuple[int, ...]
    hands: int
    options: dict[str, Any] = {}
    meta: dict[str, str] = {}
    #: each side's total as played (the referee's penalties left out); () when not known
    played: tuple[int, ...] = ()

    @property
    def mp(self) -> tuple[int, int]:
        """``(MP of side 0, MP of side 1)``: the adjudicated totals (0 for a missing side)."""
        t = tuple(self.totals) + (0, 0)
        return t[0], t[1]

    @property
    def mp_as_played(self) -> tuple[int, int]:
        """``(MP of side 0, MP of side 1)`` as played (no penalty); :attr:`mp` when not known."""
        if not self.played:
            return self.mp
        t = tuple(self.played) + (0, 0)
        return t[0], t[1]


def result_of_line(started: GameStarted, line: ListSummary) -> GameResult | None:
    """The :class:`GameResult` of an ended game from its ``game_started`` and its
    games-list line (:class:`ledger.game_summary.ListSummary`, of the game's
    current length: the caller checks the version), without replaying it: the
    sides from the seating (:func:`ledger.replay.start`), the adjudicated
    totals from ``line.result``, the totals as played and the hands from
    ``line.standing``. None when the line cannot tell: a game not ended, a
    line stored before ``standing`` was kept, or one out of shape (the caller
    folds the game then)."""
    result, kept = line.result, line.standing
    if result is None or kept is None or result.get("reason") is None:
        return None
    try:
        totals = tuple(int(t["points"]) for t in result["totals"])
        played = tuple(int(p) for p in kept["played"])
        hands = int(kept["hands"])
    except (KeyError, TypeError, ValueError):
        return None
    state = start(started)
    if len(totals) != state.n_sides or len(played) != state.n_sides:
        return None
    return GameResult(
        game_id=started.game_id,
        variant=started.variant,
        sides=_sides(state),
        finished=True,
        totals=totals,
        hands=hands,
        options=dict(started.options or {}),
        meta=msgspec.to_builtins(started.meta) if started.meta else {},
        played=played,
    )


def _sides(state: TableState) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(state.name(s) for s in state.seats_of(side)) for side in range(state.n_sides))


def result_of(started: GameStarted, state: TableState) -> GameResult:
    """The :class:`GameResult` of a game from its ``game_started`` and its state (any position)."""
    sheet = score_sheet(state)
    return GameResult(
        game_id=started.game_id,
        variant=started.variant,
        sides=_sides(state),
        finished=state.ended is not None,
        totals=tuple(sheet.totals),
        hands=len({r.hand for r in state.results}),
        options=dict(started.options or {}),
        meta=msgspec.to_builtins(started.meta) if started.meta else {},
        played=played_totals(state, sheet),
    )
