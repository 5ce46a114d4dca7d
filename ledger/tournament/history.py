"""Who met whom before a round, and the fixed schedules of Mitchell and the round robin (TOURNAMENT.md, "Movements").

Shared by the proposer (:mod:`ledger.tournament.pairing`) and the checker
(:mod:`ledger.tournament.checker`): facts about the record, never a choice.

- :func:`history`: each entrant's opponents and byes in the rounds before ``rnd``;
- :func:`roster`: the entrants of the fixed schedules (those taking part when
  round 1 is paired, in registration order); later entrants have no place in them;
- :func:`mitchell_opponent` / :func:`circle_opponent`: an entrant's
  scheduled opponent in round ``rnd`` (None: the phantom, a sit-out).

>>> mitchell_opponent(["a", "b", "c", "d", "e"], "a", 2), mitchell_opponent(["a", "b", "c", "d", "e"], "d", 1)
(('e', 1, True), ('a', 1, False))
>>> [circle_opponent(["a", "b", "c", "d"], "a", r) for r in (1, 2, 3)]
['d', 'c', 'b']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ledger.tournament.state import TournamentState


@dataclass
class History:
    """The rounds before one: every opponent met, the last round's opponent, the byes."""

    met: dict[str, set[str]] = field(default_factory=dict)
    last: dict[str, str | None] = field(default_factory=dict)
    byes: dict[str, int] = field(default_factory=dict)

    def has_met(self, a: str, b: str) -> bool:
        return b in self.met.get(a, set())


def history(state: TournamentState, rnd: int) -> History:
    """Opponents and byes in the rounds ``1 … rnd - 1``."""
    h = History()
    for r in range(1, rnd):
        info = state.rounds.get(r)
        if info is None:
            continue
        for entrant, opponent in info.opponents().items():
            if opponent is None:
                h.byes[entrant] = h.byes.get(entrant, 0) + 1
            else:
                h.met.setdefault(entrant, set()).add(opponent)
            if r == rnd - 1:
                h.last[entrant] = opponent
    return h


def roster(state: TournamentState) -> list[str]:
    """The entrants of the fixed schedules: active when round 1 was paired (now, before it), registration order."""
    first = state.rounds.get(1)
    return state.active(first.paired_at if first is not None else None)


def entry_order(state: TournamentState, position: int, seed: int | None) -> list[str]:
    """Round 1's order of the standings-based movements: the entrants active at
    ``position`` in registration order, shuffled by ``random.Random(seed)`` when the draw has a seed."""
    order = state.active(position)
    if seed is not None:
        random.Random(seed).shuffle(order)
    return order


def mitchell_opponent(line: list[str], entrant: str, rnd: int) -> tuple[str | None, int, bool] | None:
    """``(opponent or None for the phantom, home table, entrant sits North–South)`` in
    round ``rnd`` of the Mitchell of ``line`` (the first half, rounded up, is the
    North–South line; East–West moves one table up a round); None when not in it."""
    if entrant not in line:
        return None
    n = (len(line) + 1) // 2
    ns, ew = line[:n], line[n:] + [None] * (2 * n - len(line))
    i = line.index(entrant)
    if i < n:
        return ew[(i + rnd - 1) % n], i + 1, True
    j = (i - n - (rnd - 1)) % n
    return ns[j], j + 1, False


def circle_opponent(line: list[str], entrant: str, rnd: int) -> str | None:
    """The opponent of ``entrant`` in round ``rnd`` of the circle method over ``line``
    (a phantom added to an odd line: None is a sit-out); raises ``ValueError`` when not in it."""
    players: list[str | None] = list(line) + ([None] if len(line) % 2 else [])
    m = len(players)
    k = (rnd - 1) % (m - 1) if m > 1 else 0
    rest = players[1:]
    arranged = [players[0]] + rest[len(rest) - k :] + rest[: len(rest) - k]
    i = arranged.index(entrant)
    return arranged[m - 1 - i]
