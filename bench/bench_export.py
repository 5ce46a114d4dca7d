"""Analytics benchmark: the DuckDB view's update and Parquet export, next to
DuckDB writing the same rows straight from an Arrow table, in the same run.

    .venv/bin/python bench/bench_export.py [--games 1000] [--hands 2] [--turns 20] [--simulated]
        [--batch 5000] [--dir DIR]

1. A SQLite store of ``--games`` generated classic-Ramino games
   (:func:`ledger.synthetic.two_player_record`; ``--simulated`` uses the
   simulator's complete games instead, :func:`ledger.simulate.simulate_game`)
   is written straight through the store's mapper (the records are valid by
   construction; import validation is measured by ``bench_import.py``).
2. ``update``: the projection folds every game and writes the seven tables
   (events/s, games/s).
3. ``export``: ``export_tables`` writes one Parquet file per table through
   DuckDB's ``COPY ... (FORMAT parquet)`` from the view (rows/s).
4. ``arrow``: the same rows, already in memory as Arrow tables, written to
   Parquet by DuckDB (``COPY arrow_table TO ... (FORMAT parquet)``), same
   compression (rows/s): the floor the export could reach.
5. A query over all hands (average points by variant) and the Parquet sizes.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

from ledger.projections import update
from ledger.projections.export import export_tables, table_query
from ledger.projections.tables import TABLES
from ledger.store.application import LedgerApp
from ledger.stored.persistence import GameEvent, game_uuid
from ledger.synthetic import two_player_record


def corpus(n: int, hands: int, turns: int, simulated: bool) -> Any:
    """Yields each game's events."""
    for i in range(n):
        if simulated:
            from ledger.simulate import simulate_game

            yield simulate_game("ramino", None, 2 + i % 3, seed=i, game_id=f"bench-{i:05d}")[0]
        else:
            yield two_player_record(f"bench-{i:05d}", hands=hands, turns=turns, seed=i)


def build_store(db: Path, n: int, hands: int, turns: int, simulated: bool) -> tuple[int, float]:
    """Store ``n`` games, one transaction each; returns (events, seconds)."""
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    start = time.perf_counter()
    events = 0
    try:
        for game in corpus(n, hands, turns, simulated):
            oid = game_uuid(game[0].game_id)  # type: ignore[attr-defined]
            app.events.put(
                [GameEvent(originator_id=oid, originator_version=i + 1, event=e) for i, e in enumerate(game)]
            )
            events += len(game)
    finally:
        app.close()
    return events, time.perf_counter() - start


def run(
    n_games: int, hands: int, turns: int, directory: Path, *, simulated: bool = False, batch: int = 5000
) -> dict[str, float]:
    """Run the benchmark; prints a report and returns the rates."""
    db = directory / "bench.db"
    view = directory / "bench.analytics.duckdb"
    for p in (db, view, Path(str(view) + ".wal")):
        p.unlink(missing_ok=True)
    n_events, stored = build_store(db, n_games, hands, turns, simulated)

    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    start = time.perf_counter()
    result = update(app, str(view), batch_size=batch)
    updated = time.perf_counter() - start
    app.close()
    assert result.notifications == n_events, (result, n_events)

    con = duckdb.connect(str(view), read_only=True)
    counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in TABLES}
    n_rows = sum(counts.values())
    start = time.perf_counter()
    export_tables(con, directory / "parquet", "parquet")
    exported = time.perf_counter() - start
    sizes = {t: (directory / "parquet" / f"{t}.parquet").stat().st_size for t in TABLES}

    # the same rows as Arrow tables in memory (loaded outside the timing), written by DuckDB
    arrow = {t: con.sql(table_query(t)).to_arrow_table() for t in TABLES}
    start = time.perf_counter()
    mem = duckdb.connect()
    (directory / "arrow").mkdir(exist_ok=True)
    for t, table in arrow.items():
        mem.register("rows", table)
        mem.execute(f"COPY rows TO '{directory / 'arrow' / f'{t}.parquet'}' (FORMAT parquet, COMPRESSION zstd)")
        mem.unregister("rows")
    from_arrow = time.perf_counter() - start
    mem.close()

    start = time.perf_counter()
    avg = con.execute(
        "SELECT g.variant, g.ruleset, round(avg(s.points), 2) FROM scores s JOIN games g USING (game) "
        "WHERE s.view = 'adjudicated' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    queried = time.perf_counter() - start
    con.close()

    rates = {
        "store events/s": n_events / stored,
        "update events/s": n_events / updated,
        "update games/s": n_games / updated,
        "export rows/s": n_rows / exported,
        "arrow rows/s": n_rows / from_arrow,
    }
    kind = "simulated" if simulated else "generated"
    print(
        f"rummy-ledger analytics benchmark: {n_games} {kind} classic-Ramino games, {n_events} events, {n_rows} "
        f"rows in {len(TABLES)} tables"
    )
    print("  rows: " + ", ".join(f"{t} {c}" for t, c in counts.items()))
    print(f"  store (mapper + SQLite)      {stored:8.2f} s  {rates['store events/s']:12,.0f} events/s")
    print(
        f"  analytics update            {updated:8.2f} s  {rates['update events/s']:12,.0f} events/s  "
        f"{rates['update games/s']:8,.0f} games/s"
        f"  ({result.batches} transactions of <= {batch} events)"
    )
    print(f"  Parquet export (COPY view)  {exported:8.2f} s  {rates['export rows/s']:12,.0f} rows/s")
    print(f"  Parquet from Arrow tables   {from_arrow:8.2f} s  {rates['arrow rows/s']:12,.0f} rows/s")
    print(f"  ratio export / from-Arrow   {rates['export rows/s'] / rates['arrow rows/s']:8.2f}")
    print(
        f"  Parquet size                {sum(sizes.values()) / 1e6:8.2f} MB  (events.parquet "
        f"{sizes['events'] / 1e6:.2f} MB)"
    )
    print(f"  query avg points by variant {queried * 1000:8.1f} ms  {avg}")
    return rates


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--batch", type=int, default=5000)
    parser.add_argument(
        "--simulated", action="store_true", help="the simulator's complete games instead of generated ones"
    )
    parser.add_argument("--dir", type=Path, default=None, help="working folder (default: a temporary one)")
    args = parser.parse_args(argv)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        run(args.games, args.hands, args.turns, args.dir, simulated=args.simulated, batch=args.batch)
        return
    with tempfile.TemporaryDirectory() as tmp:
        run(args.games, args.hands, args.turns, Path(tmp), simulated=args.simulated, batch=args.batch)


if __name__ == "__main__":
    main()
