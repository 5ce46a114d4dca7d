"""A simulated tournament: the record and every game of it, played by the heuristic players (TOURNAMENT.md).

:func:`simulate_tournament` registers ``entrants`` pairs of Burraco
(four players a table, two pairs), and for each round pairs them with the
product's proposer (:func:`ledger.tournament.pairing.propose`, from the
standings after the round before), plays each table's game of
``hands`` hands through the fold (:mod:`ledger.simulate`; each game's
``meta`` names the tournament, round and table, its ``options.hands`` the
hands of a match), and closes the round with the RFC 6962 root over its
games (``round_closed.checkpoint``, FORMAT.md "Seal"). :func:`write_tournament`
writes the tournament record and the games as record files into a folder
that ``rummy-ledger import`` takes. Deterministic for a seed.
"""

from __future__ import annotations

import random
from pathlib import Path

from ledger.events import Event, GameMeta, GameStarted, Player, encode_event
from ledger.replay import replay
from ledger.sealing import chain as _seal
from ledger.simulate import find_strategy
from ledger.tournament.events import (
    EntrantRegistered,
    RoundClosed,
    RoundPaired,
    Scoring,
    Table,
    TournamentEnded,
    TournamentEvent,
    TournamentStarted,
)
from ledger.tournament.pairing import propose
from ledger.tournament.results import GameResult, result_of
from ledger.tournament.standings import standings
from ledger.tournament.state import TournamentState, evolve

FIRST_NAMES = (
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Luca", "Marta", "Nicola", "Olga", "Paolo",
    "Rita", "Sandro", "Tina", "Ugo", "Vera", "Walter", "Zoe", "Aldo", "Bice", "Ciro", "Dora", "Enzo",
)  # fmt: skip


def _players(i: int) -> tuple[str, str]:
    """The two players of pair ``i`` (1-based): first names with the pair's number."""
    return f"{FIRST_NAMES[(2 * i - 2) % 24]} {i}", f"{FIRST_NAMES[(2 * i - 1) % 24]} {i}"


def _game(state: TournamentState, rnd: int, table: Table, seed: int) -> list[Event]:
    """The game of ``table`` in round ``rnd``: Burraco, four seats, pair A North–South (team 0)."""
    a, b = (state.entrants[e].players for e in table.entrants)
    started = state.started
    header = GameStarted(
        game_id=table.game_id,
        variant="burraco",
        ruleset=started.ruleset,
        options={**(started.options or {}), "hands": started.hands_per_match},
        players=(
            Player(seat=0, name=a[0], team=0),
            Player(seat=1, name=b[0], team=1),
            Player(seat=2, name=a[1], team=0),
            Player(seat=3, name=b[1], team=1),
        ),
        meta=GameMeta(tournament=started.tournament_id, round=str(rnd), table=str(table.table)),
    )
    base = find_strategy("burraco")

    class _Seated(base):  # type: ignore[valid-type, misc]  # the variant's strategy, with the pairing's header
        def game_started(self, game_id: str, ruleset: str | None, n: int) -> GameStarted:
            return header

    table_ = _Seated(random.Random(f"tournament/{seed}/{table.game_id}")).play_game(table.game_id, started.ruleset, 4)
    return list(table_.events)


def _checkpoint(games: list[list[Event]]) -> str:
    leaves = []
    for events in sorted(games, key=lambda ev: ev[0].game_id):  # type: ignore[attr-defined]  # a game_started
        lines = [encode_event(e) for e in events]
        leaves.append(_seal.leaf_data(events[0].game_id, len(lines), _seal.seal_hex(lines)))  # type: ignore[attr-defined]
    return _seal.merkle_root(leaves).hex()


def simulate_tournament(
    tid: str = "sim-tournament",
    entrants: int = 12,
    rounds: int = 4,
    movement: str = "danese_modificato",
    hands: int = 4,
    seed: int = 1,
) -> tuple[list[TournamentEvent], dict[str, list[Event]]]:
    """``(tournament events, {game_id: game events})`` of a whole simulated tournament
    (``scoring`` the ``fibur-3`` or ``fibur-4`` table for 3 or 4 hands, else ``fibur-4``)."""
    table_id = "fibur-3" if hands == 3 else "fibur-4"
    first = TournamentStarted(
        format="rummy-ledger/1",
        tournament_id=tid,
        name=f"Simulated {movement} {tid}",
        hands_per_match=hands,
        scoring=Scoring(kind="vp", table=table_id),
        movement=movement,  # type: ignore[arg-type]  # the CLI offers the movements only
        rounds=rounds,
    )
    events: list[TournamentEvent] = [first]
    state = evolve(None, first, 0)

    def add(event: TournamentEvent) -> None:
        nonlocal state
        state = evolve(state, event, len(events))
        events.append(event)

    for i in range(1, entrants + 1):
        add(EntrantRegistered(entrant=f"c{i}", players=_players(i)))
    games: dict[str, list[Event]] = {}
    results: dict[str, GameResult] = {}
    for rnd in range(1, rounds + 1):
        order = standings(state, results, rnd - 1).order() if rnd > 1 else None
        p = propose(state, rnd, order)
        tables = tuple(Table(table=t, entrants=(a, b), game_id=f"{tid}-r{rnd}-t{t}") for t, a, b in p.tables)
        add(RoundPaired(round=rnd, tables=tables, bye=p.bye))
        played = []
        for t in tables:
            game = _game(state, rnd, t, seed)
            games[t.game_id] = game
            played.append(game)
            results[t.game_id] = result_of(game[0], replay(game))  # type: ignore[arg-type]  # a game_started
        add(RoundClosed(round=rnd, checkpoint=_checkpoint(played)))
    add(TournamentEnded(reason="rounds_played"))
    return events, games


def write_tournament(out: str | Path, events: list[TournamentEvent], games: dict[str, list[Event]]) -> list[Path]:
    """Write ``TID.jsonl`` (the tournament record) and ``GAME_ID.jsonl`` for each game into ``out``."""
    from ledger.record_files import write_record

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tid = events[0].tournament_id  # type: ignore[attr-defined]  # a tournament_started
    paths = [out / f"{tid}.jsonl"]
    write_record(events, paths[0])
    for gid, game in games.items():
        path = out / f"{gid}.jsonl"
        write_record(game, path)
        paths.append(path)
    return paths
