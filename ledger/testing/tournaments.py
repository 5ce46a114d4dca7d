"""Random tournaments for the tests: the product's own pairings, round by round, with results made up.

:func:`random_tournament` registers 8–60 entrants, then for each round
proposes the pairing (:func:`ledger.tournament.pairing.propose` from the
standings after the round before), records it, makes up each table's result
(a finished game whose header matches the pairing, MP in multiples of 5),
sometimes withdraws an entrant or registers a late one, and closes the
round. The checker must find nothing in such a tournament (the way FIDE
certifies pairing engines: a generator against an independent checker).
Pure: events and :class:`~ledger.tournament.results.GameResult` values in memory.
"""

from __future__ import annotations

import random
from typing import Any

from ledger import FORMAT
from ledger.tournament.events import (
    EntrantRegistered,
    EntrantWithdrawn,
    RoundClosed,
    RoundPaired,
    Scoring,
    Table,
    TournamentEnded,
    TournamentEvent,
    TournamentStarted,
)
from ledger.tournament.pairing import propose
from ledger.tournament.results import GameResult
from ledger.tournament.standings import standings
from ledger.tournament.state import TournamentState, evolve

MOVEMENTS = ("mitchell", "danese", "danese_modificato", "swiss", "italiana")


def started(tid: str, movement: str, rounds: int | None = None, **more: Any) -> TournamentStarted:
    """A ``tournament_started`` of Burraco pairs, 4 hands a match, ``fibur-4`` (``more`` overrides)."""
    fields: dict[str, Any] = {
        "format": FORMAT,
        "tournament_id": tid,
        "name": f"Tournament {tid}",
        "hands_per_match": 4,
        "scoring": Scoring(kind="vp", table="fibur-4"),
        "movement": movement,
        "rounds": rounds,
        **more,
    }
    return TournamentStarted(**fields)


def game_result(state: TournamentState, rnd: int, table: Table, mp: tuple[int, int]) -> GameResult:
    """A finished game of ``table`` in round ``rnd`` that matches its pairing, with side totals ``mp``."""
    a, b = table.entrants
    return GameResult(
        game_id=table.game_id,
        variant=state.started.variant,
        sides=(state.entrants[a].players, state.entrants[b].players),
        finished=True,
        totals=mp,
        hands=state.started.hands_per_match,
        options={"hands": state.started.hands_per_match},
        meta={"tournament": state.tournament_id, "round": str(rnd), "table": str(table.table)},
    )


class Builder:
    """A tournament record being written: its events and state, and the games' results."""

    def __init__(self, first: TournamentStarted) -> None:
        self.events: list[TournamentEvent] = []
        self.results: dict[str, GameResult] = {}
        self.state: TournamentState = evolve(None, first, 0)
        self.events.append(first)

    def add(self, event: TournamentEvent) -> None:
        self.state = evolve(self.state, event, len(self.events))
        self.events.append(event)

    def register(self, entrant: str, players: tuple[str, ...] | None = None) -> None:
        self.add(EntrantRegistered(entrant=entrant, players=players or (f"{entrant}-N", f"{entrant}-S")))

    def pair(self, rnd: int, seed: int | None = None) -> RoundPaired:
        order = standings(self.state, self.results, rnd - 1).order() if rnd > 1 else None
        p = propose(self.state, rnd, order, seed)
        tid = self.state.tournament_id
        event = RoundPaired(
            round=rnd,
            tables=tuple(Table(table=t, entrants=(a, b), game_id=f"{tid}-r{rnd}-t{t}") for t, a, b in p.tables),
            bye=p.bye,
            seed=p.seed,
        )
        self.add(event)
        return event

    def play(self, rnd: int, rng: random.Random) -> None:
        for t in self.state.rounds[rnd].tables:
            self.results[t.game_id] = game_result(
                self.state, rnd, t, (5 * rng.randrange(-60, 500), 5 * rng.randrange(-60, 500))
            )


def random_tournament(rng: random.Random, tid: str = "t") -> Builder:
    """A random tournament of 8–60 entrants, any movement, byes, late entries and withdrawals, every round closed."""
    movement = rng.choice(MOVEMENTS)
    n = rng.randint(8, 60)
    cap = {"swiss": min(7, n // 2), "italiana": n - 1, "mitchell": (n + 1) // 2}.get(movement, 8)
    rounds = rng.randint(2, max(2, min(cap, 8)))
    b = Builder(started(tid, movement, rounds))
    for i in range(n):
        b.register(f"p{i + 1}")
    for rnd in range(1, rounds + 1):
        b.pair(rnd, seed=rng.randrange(1 << 30) if rnd == 1 and rng.random() < 0.5 else None)
        b.play(rnd, rng)
        b.add(RoundClosed(round=rnd))
        if rng.random() < 0.3 and len(b.state.active()) > 6:
            gone = rng.choice(b.state.active())
            b.add(EntrantWithdrawn(entrant=gone, reason="left"))
        if rng.random() < 0.15:
            b.register(f"late{rnd}")
    b.add(TournamentEnded(reason="rounds_played"))
    return b
