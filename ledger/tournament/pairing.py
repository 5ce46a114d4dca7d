"""The movements' proposers: who meets whom in round R (TOURNAMENT.md, "Movements").

:func:`propose` gives round ``rnd``'s tables and bye from the tournament's
state and the standings after round ``rnd - 1`` (the entrants in standings
order). The referee may record another pairing; the checker
(:mod:`ledger.tournament.checker`) says which rule a recorded one breaks.

- ``mitchell``: the roster (:func:`~ledger.tournament.history.roster`) in two
  lines, North–South fixed at table ``i``, East–West one table up a round;
- ``italiana``: the circle method over the roster;
  for both, an entrant whose scheduled opponent is a phantom or withdrew, or
  who came after round 1, is *stranded*: the stranded meet each other in
  registration order, and the last one left sits out (the bye);
- ``danese``: the standings in order, 1st v 2nd, 3rd v 4th…;
- ``danese_modificato``: the same, never the previous round's opponent except in the last round;
- ``swiss``: the highest unpaired meets the next highest it has not met, with backtracking.

Round 1 of the standings-based movements is the entry order, or the draw of
``seed``. With an odd number of entrants the bye goes to the lowest-placed
entrant with the fewest byes. Raises :class:`PairingError` when no pairing
obeys the movement (e.g. a swiss with more rounds than opponents).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ledger.tournament.history import (
    History,
    circle_opponent,
    entry_order,
    history,
    mitchell_opponent,
    roster,
)
from ledger.tournament.state import TournamentState

#: the steps the backtracking pairer may take before it gives up
MAX_STEPS = 200_000


class PairingError(ValueError):
    """No pairing of the round obeys the movement."""


@dataclass(frozen=True)
class Proposal:
    """A round's proposed tables ``(table, A, B)`` and bye."""

    round: int
    tables: tuple[tuple[int, str, str], ...]
    bye: str | None
    seed: int | None = None


def propose(state: TournamentState, rnd: int, order: Sequence[str] | None = None, seed: int | None = None) -> Proposal:
    """Round ``rnd``'s pairing. ``order``: the entrants in standings order after
    round ``rnd - 1`` (needed by danese, danese_modificato and swiss after round
    1); ``seed``: round 1's draw. Raises :class:`PairingError`."""
    movement = state.started.movement
    active = state.active()
    if movement in ("mitchell", "italiana"):
        return _scheduled(state, rnd, active, movement)
    if rnd == 1 or order is None:
        ranked = entry_order(state, state.position + 1, seed if rnd == 1 else None)
    else:
        ranked = [e for e in order if e in set(active)]
    h = history(state, rnd)
    last_round = state.started.rounds is not None and rnd == state.started.rounds
    forbid: Callable[[str, str], bool]
    if movement == "danese":
        forbid = _never
    elif movement == "danese_modificato":
        forbid = _never if last_round else (lambda a, b: h.last.get(a) == b)
    else:
        forbid = h.has_met
    return _by_standings(rnd, ranked, h, forbid, seed if rnd == 1 else None)


def _never(a: str, b: str) -> bool:
    return False


def _by_standings(
    rnd: int, ranked: list[str], h: History, forbid: Callable[[str, str], bool], seed: int | None
) -> Proposal:
    candidates: list[str | None] = [None]
    if len(ranked) % 2:
        least = min(h.byes.get(e, 0) for e in ranked)
        candidates = [e for e in reversed(ranked) if h.byes.get(e, 0) == least]
    for bye in candidates:
        pairs = _pair([e for e in ranked if e != bye], forbid)
        if pairs is not None:
            return Proposal(rnd, tuple((i + 1, a, b) for i, (a, b) in enumerate(pairs)), bye, seed)
    raise PairingError(f"round {rnd}: no pairing of {len(ranked)} entrants obeys the movement")


def _pair(players: list[str], forbid: Callable[[str, str], bool]) -> list[tuple[str, str]] | None:
    """The first pairing, down the list, where the highest unpaired meets the
    next highest it may meet (backtracking); None when there is none."""
    steps = [0]

    def go(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        x = rest[0]
        for i in range(1, len(rest)):
            steps[0] += 1
            if steps[0] > MAX_STEPS:
                return None
            y = rest[i]
            if forbid(x, y):
                continue
            more = go(rest[1:i] + rest[i + 1 :])
            if more is not None:
                return [(x, y), *more]
        return None

    return go(players)


def _scheduled(state: TournamentState, rnd: int, active: list[str], movement: str) -> Proposal:
    """Mitchell or the round robin: the scheduled tables among the active, then the stranded."""
    line = roster(state)
    live = set(active)
    tables: list[tuple[int, str, str]] = []
    seated: set[str] = set()
    for e in line:
        if e not in live or e in seated:
            continue
        if movement == "mitchell":
            got = mitchell_opponent(line, e, rnd)
            assert got is not None
            opp, home, north = got
            if opp is not None and opp in live:
                tables.append((home, e, opp) if north else (home, opp, e))
                seated.update((e, opp))
        else:
            opp2 = circle_opponent(line, e, rnd)
            if opp2 is not None and opp2 in live:
                tables.append((0, e, opp2))
                seated.update((e, opp2))
    stranded = [e for e in active if e not in seated]
    bye = stranded.pop() if len(stranded) % 2 else None
    extra = [(0, stranded[i], stranded[i + 1]) for i in range(0, len(stranded), 2)]
    return Proposal(rnd, _numbered(tables + extra), bye)


def _numbered(tables: list[tuple[int, str, str]]) -> tuple[tuple[int, str, str], ...]:
    """Tables with a number: a Mitchell home table keeps its own, the others take the lowest free ones."""
    used = {t for t, _, _ in tables if t}
    free = (n for n in range(1, len(tables) + len(used) + 2) if n not in used)
    out = [(t if t else next(free), a, b) for t, a, b in tables]
    return tuple(sorted(out))
