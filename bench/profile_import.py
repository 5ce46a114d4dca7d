"""Where an import spends its time: cProfile of importing a folder of records
into a fresh SQLite store, summarised by part (issue 17).

    .venv/bin/python bench/profile_import.py FOLDER [--games N] [--bulk] [--top 25] [--fold-only]

Parts (by the file of each function's *own* time, cProfile's ``tottime``):

- ``fold``: ledger/replay.py, ledger/state.py, ledger/variants/, ledger/melds.py,
  ledger/cards.py (validation of the record; the Gin deadwood search is in variants/);
- ``decode``: ledger/records.py, ledger/events.py and msgspec's decoders;
- ``store``: eventsourcing, sqlite3 and the modules of ledger/store/;
- ``other``: the rest (interpreter built-ins called from anywhere, ...).

Times are this process's CPU time (``time.process_time``) unless ``--wall``:
on a shared machine CPU time is the steadier measure, but it leaves out the
time a commit waits for the disk (``fsync``), which ``--wall`` shows.

``--bulk`` profiles :meth:`ledger.store.application.LedgerApp.import_records`
(batched across games) instead of one ``import_record`` per file;
``--fold-only`` profiles the fold over already decoded events.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from ledger.record_files import read_record
from ledger.replay import replay
from ledger.store.application import LedgerApp

PARTS = {
    "fold": ("ledger/replay.py", "ledger/state.py", "ledger/variants/", "ledger/melds.py", "ledger/cards.py"),
    "decode": ("ledger/records.py", "ledger/events.py", "msgspec"),
    "store": (
        "eventsourcing/",
        "sqlite3",
        "ledger/store/",
        "ledger/stored/",
        "ledger/sealing/",
    ),
}


def part_of(filename: str, funcname: str) -> str:
    where = f"{filename}:{funcname}"
    for part, needles in PARTS.items():
        if any(n in where for n in needles):
            return part
    if filename == "~" and ("sqlite3" in funcname or "execute" in funcname or "commit" in funcname):
        return "store"
    if filename == "~" and "msgspec" in funcname:
        return "decode"
    return "other"


def summarise(stats: pstats.Stats, top: int) -> None:
    totals: dict[str, float] = {}
    all_time = 0.0
    for (filename, _line, funcname), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        part = part_of(filename, funcname)
        totals[part] = totals.get(part, 0.0) + tt
        all_time += tt
    print("share of own time by part:")
    for part, t in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {part:<7} {t:8.2f} s  {100 * t / all_time:5.1f} %")
    print()
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--bulk", action="store_true")
    ap.add_argument("--fold-only", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument(
        "--wall",
        action="store_true",
        help="profile wall time (default: this process's CPU time, steadier on a shared machine)",
    )
    args = ap.parse_args(argv)
    paths = sorted(args.folder.glob("*.jsonl"))[: args.games]
    records = [read_record(p) for p in paths]
    n_events = sum(len(r.events) for r in records)
    with tempfile.TemporaryDirectory(prefix="rummy-prof-") as tmp:
        app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / "p.db")})
        prof = cProfile.Profile() if args.wall else cProfile.Profile(time.process_time)
        t, cpu = time.perf_counter(), time.process_time()
        prof.enable()
        if args.fold_only:
            for r in records:
                replay(r.events)
        elif args.bulk:
            for _ in app.import_records(records):
                pass
        else:
            for r in records:
                app.import_record(r)
        prof.disable()
        elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
        app.close()
    what = "fold only" if args.fold_only else ("import_records (bulk)" if args.bulk else "import_record per file")
    print(
        f"{what}: {len(records)} games, {n_events:,} events, {elapsed:.2f} s wall, {cpu:.2f} s CPU under cProfile"
        f" ({n_events / cpu:,.0f} ev/s of CPU, profiled; {'wall' if args.wall else 'CPU'} time below)\n"
    )
    summarise(pstats.Stats(prof), args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
