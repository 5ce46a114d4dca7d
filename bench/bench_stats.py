"""Player statistics benchmark (issue 29): ``stats`` over simulated games of every variant.

    .venv/bin/python bench/bench_stats.py [--games 1000] [--players 20] [--repeat 3] [--dir DIR [--reuse]]

1. A SQLite store of ``--games`` simulated complete games of *each* variant
   (:func:`ledger.simulate.simulate_game`, two seats), the seats' names drawn
   from a pool of ``--players`` names (so a player has games of every
   variant against many opponents), dated over twelve months, written
   straight through the store's mapper (valid by construction).
2. ``update``: the analytics view is built (timed, not part of the target).
3. With the view built, timed (the best of ``--repeat`` runs):
   - ``one``: :func:`~ledger.projections.stats.player_stats` of one player
     (every variant, the field beside);
   - ``all``: the same for every player of the pool, one after the other;
   - ``views``: every player's statistics at once, from the views
     ``player_stats_<variant>`` (one query a variant);
   - ``filtered``: one player, ``--variant burraco --opponent <another>``;
   - ``cli``: ``rummy-ledger stats NAME --no-update --json`` as a process
     (interpreter start and imports included).

The issue's target: ``stats`` for the players of 1,000 games of each
variant in at most 2 s after the view is built.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from ledger.events import Event, GameMeta, Player
from ledger.projections import update
from ledger.projections.stats import Filters, player_stats
from ledger.store.application import LedgerApp
from ledger.stored.persistence import GameEvent, game_uuid

VARIANTS = ("burraco", "scala40", "ramino51", "ramino", "gin")


def corpus(games: int, pool: list[str]) -> Iterator[list[Event]]:
    """``games`` simulated games of each variant, seats renamed from ``pool``."""
    from ledger.simulate import simulate_game

    for variant in VARIANTS:
        for i in range(games):
            events = simulate_game(variant, None, 2, seed=i, game_id=f"{variant}-{i:05d}")[0]
            first = events[0]
            a, b = pool[i % len(pool)], pool[(i * 7 + 3) % len(pool)]
            if a == b:
                b = pool[(i + 1) % len(pool)]
            players = tuple(Player(seat=p.seat, name=(a, b)[p.seat], team=p.team) for p in first.players)  # type: ignore[attr-defined]
            meta = GameMeta(date=f"2026-{i % 12 + 1:02d}-{i % 28 + 1:02d}", tournament=f"club-{i % 4}")
            yield [msgspec.structs.replace(first, players=players, meta=meta), *events[1:]]  # type: ignore[type-var]


def build_store(db: Path, games: int, pool: list[str]) -> tuple[int, int, float]:
    """Store the corpus, one transaction a game; returns (games, events, seconds)."""
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    start = time.perf_counter()
    n = events = 0
    try:
        for game in corpus(games, pool):
            oid = game_uuid(game[0].game_id)  # type: ignore[attr-defined]
            app.events.put(
                [GameEvent(originator_id=oid, originator_version=i + 1, event=e) for i, e in enumerate(game)]
            )
            n, events = n + 1, events + len(game)
    finally:
        app.close()
    return n, events, time.perf_counter() - start


def best(repeat: int, run: Callable[[], Any]) -> float:
    """The least wall time of ``repeat`` runs of ``run``, seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="simulated games of each variant")
    parser.add_argument("--players", type=int, default=20, help="names in the pool")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--reuse", action="store_true", help="time a store and view already built in --dir")
    args = parser.parse_args(argv)
    work = args.dir or Path(tempfile.mkdtemp(prefix="bench-stats-"))
    work.mkdir(parents=True, exist_ok=True)
    db, view = work / "ledger.db", work / "ledger.analytics.duckdb"
    pool = [f"P{i:02d}" for i in range(args.players)]
    if not (args.reuse and view.exists()):
        games, events, stored = build_store(db, args.games, pool)
        print(f"store: {games} games, {events} events in {stored:.1f} s")
        app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
        try:
            start = time.perf_counter()
            update(app, str(view))
            print(f"update: view built in {time.perf_counter() - start:.1f} s")
        finally:
            app.close()
    con = duckdb.connect(str(view), read_only=True)
    try:
        found = player_stats(con, pool[0])
        print(f"{pool[0]}: {sum(b.player['games'] for b in found)} games in {len(found)} variants")
        out = {
            "one": best(args.repeat, lambda: player_stats(con, pool[0])),
            "all": best(args.repeat, lambda: [player_stats(con, p) for p in pool]),
            # every player's statistics at once: the analytics database's views, one query a variant
            "views": best(
                args.repeat, lambda: [con.execute(f"SELECT * FROM player_stats_{v}").fetchall() for v in VARIANTS]
            ),
            "filtered": best(
                args.repeat, lambda: player_stats(con, pool[0], Filters(variants=("burraco",), opponents=(pool[1],)))
            ),
        }
    finally:
        con.close()
    cli = [sys.executable, "-m", "ledger.cli", "--db", str(db), "stats", pool[0], "--no-update", "--json"]
    env = {**os.environ, "RUMMY_LEDGER_ANALYTICS": str(view)}
    out["cli"] = best(args.repeat, lambda: subprocess.run(cli, check=True, capture_output=True, env=env))
    for name, seconds in out.items():
        print(f"{name}: {seconds:.3f} s" + (f" ({len(pool)} players)" if name == "all" else ""))
    return out


if __name__ == "__main__":
    main()
