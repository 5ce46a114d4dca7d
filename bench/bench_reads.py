"""Reading games back from the store: ``get_events`` and ``export_record`` per game, by CPU time (issue 17).

    nice -n 5 .venv/bin/python bench/bench_reads.py [--hands 300] [--pg postgresql://user@host:port/db] [--profile 20]

Stores ``--hands`` converted OpenSpiel Gin hands (bench_gin_oracle's) and one
3,000-event classic-Ramino game (run_all's figure 3 game) in a fresh SQLite
file and, with ``--pg``, a fresh PostgreSQL schema (dropped after); then
prints, per store, the best of ``--repeat`` passes of this process's CPU
time: ``get_events`` and ``export_record`` per Gin hand, the same for the long
game, and store → replay + audit + score per Gin hand beside replay + audit +
score of the same records already in memory. Only the public API is used,
so ``PYTHONPATH=OTHER_TREE`` measures another tree's ``ledger`` with the
same script. ``--profile N``: cProfile's top ``N`` by tottime of one pass of
``get_events`` over the Gin hands (SQLite).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_gin_oracle import oracle_hands
from run_all import drop_bench_schemas, long_game, sqlite_env

from ledger.audit import report
from ledger.openspiel.convert import convert_actions
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.replay import replay
from ledger.scoring import score_sheet
from ledger.store.application import LedgerApp


def best_cpu(f: Callable[[], object], repeat: int) -> float:
    """The least CPU seconds (this process) of ``repeat`` calls of ``f``."""
    best = float("inf")
    for _ in range(repeat):
        c = time.process_time()
        f()
        best = min(best, time.process_time() - c)
    return best


def measure(app: LedgerApp, ids: list[str], records: list[list], repeat: int) -> dict[str, float]:
    """CPU seconds: per Gin hand (``get_events``, ``export_record``, ``full``: store → replay + audit
    + score, ``in memory``: the same of ``records``) and for the long game."""

    def full() -> None:
        for i in ids:
            state = replay(app.get_events(i))
            report(state)
            score_sheet(state)

    def in_memory() -> None:
        for r in records:
            state = replay(r)
            report(state)
            score_sheet(state)

    n = len(ids)
    return {
        "get_events": best_cpu(lambda: [app.get_events(i) for i in ids], repeat) / n,
        "export_record": best_cpu(lambda: [app.export_record(i) for i in ids], repeat) / n,
        "long get_events": best_cpu(lambda: app.get_events("bench-3000"), repeat),
        "long export_record": best_cpu(lambda: app.export_record("bench-3000"), repeat),
        "full": best_cpu(full, repeat) / n,
        "in memory": best_cpu(in_memory, repeat) / n,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--pg", help="also on PostgreSQL: postgresql://user@host:port/dbname (a fresh schema, dropped after)"
    )
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    args = ap.parse_args(argv)
    hands = args.hands
    records = [convert_actions(h, game_id=f"bench-gin-{i}") for i, (h, _) in enumerate(oracle_hands(hands))]
    ids = [f"bench-gin-{i}" for i in range(hands)]
    events = sum(len(r) for r in records)
    long = long_game()
    stores: list[tuple[str, dict[str, str]]] = [("SQLite", sqlite_env(Path(tempfile.mkdtemp()) / "reads.db"))]
    stamp = f"{os.getpid()}_{int(time.time())}"
    if args.pg:
        from ledger.store.settings import store_env

        stores.append(("PostgreSQL", store_env(f"{args.pg}{'&' if '?' in args.pg else '?'}schema=bench_bulk_{stamp}")))
    print(f"{hands} Gin hands ({events / hands:.1f} events each), one {len(long):,}-event game", end="")
    print(f"; best of {args.repeat}, CPU")
    try:
        for kind, env in stores:
            app = LedgerApp(env=env)
            for r in [*records, long]:
                app.import_record(read_record(encode_record(r)))

            per = measure(app, ids, records, args.repeat)
            print(
                f"{kind}: per Gin hand get_events {per['get_events'] * 1e6:.0f} us, export_record "
                f"{per['export_record'] * 1e6:.0f} us; store→replay+audit+score {per['full'] * 1e6:.0f} us "
                f"({1 / per['full']:,.0f} hands/s), in memory {per['in memory'] * 1e6:.0f} us; "
                f"{len(long):,}-event game get_events {per['long get_events'] * 1e3:.2f} ms, export_record "
                f"{per['long export_record'] * 1e3:.2f} ms",
                flush=True,
            )
            if args.profile and kind == "SQLite":
                prof = cProfile.Profile()
                prof.enable()
                for i in ids:
                    app.get_events(i)
                prof.disable()
                pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile)
            app.close()
    finally:
        if args.pg:
            drop_bench_schemas(args.pg, stamp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
