"""Seal chain benchmark (issue 15): ``verify`` throughput beside raw SHA-256
over the same canonical bytes, and the cost the chain adds to import; each
ratio from figures measured in the same run (the machine is shared).

    .venv/bin/python bench/bench_seal.py [--events 1000000] [--import-events 100000] [--rounds 3] [--dir DIR]

1. builds a SQLite store of about ``--events`` events (synthetic two-player
   Ramino games of 16 hands, ~1,000 events each) with ``LedgerApp.import_record``
   (seals computed and stored in the append path);
2. ``verify``: :func:`ledger.sealstore.verify_games` over every stored game
   (SQL read of events + journal, both chains recomputed and compared, each
   row's topic checked), events/s; beside it, in the same run, over the same
   canonical bytes already in memory: the seal chain alone (one SHA-256 per
   event, ``hN = SHA-256(hN-1 + lineN)``), one SHA-256 over all the bytes at
   once (what ``sha256sum`` of the export does), and the SQL read alone;
3. import cost: ``--import-events`` events imported into fresh stores,
   alternately with the seal chain and with it switched off (the journal
   rows still written, seals NULL), ``--rounds`` times; the overhead is
   the median difference, and also the time spent in the chain itself.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger import sealstore  # noqa: E402
from ledger.application import LedgerApp  # noqa: E402
from ledger.records import Record  # noqa: E402
from ledger.synthetic import two_player_record  # noqa: E402

HANDS = 16
TURNS = 30


def records(n_events: int, prefix: str) -> list[Record]:
    out: list[Record] = []
    total = 0
    i = 0
    while total < n_events:
        events = tuple(two_player_record(f"{prefix}-{i:06d}", hands=HANDS, turns=TURNS, seed=i))
        out.append(Record(events=events, lines=tuple(range(1, len(events) + 1))))
        total += len(events)
        i += 1
    return out


def open_store(path: Path) -> LedgerApp:
    return LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})


def import_all(app: LedgerApp, recs: list[Record]) -> tuple[float, int]:
    t = time.perf_counter()
    n = 0
    for r in recs:
        n += app.import_record(r).events
    return time.perf_counter() - t, n


def build(path: Path, n_events: int) -> tuple[float, int]:
    recs = records(n_events, "big")
    app = open_store(path)
    try:
        return import_all(app, recs)
    finally:
        app.close()


def bench_verify(path: Path) -> dict[str, float]:
    app = open_store(path)
    try:
        targets = sealstore.game_keys(app, None)
        t = time.perf_counter()
        results = list(sealstore.verify_games(app, targets))
        t_verify = time.perf_counter() - t
        assert all(r.ok for r in results), [r.line() for r in results if not r.ok][:3]
        n = sum(r.length for r in results)
        tables = sealstore._tables(app)
        t = time.perf_counter()
        lines: list[bytes] = []
        for start in range(0, len(targets), sealstore.BATCH):
            rows, _ = tables.batch([k for k, _ in targets[start:start + sealstore.BATCH]])
            for game_rows in rows.values():
                lines.extend(r[2] for r in game_rows)
        t_read = time.perf_counter() - t
    finally:
        app.close()
    assert len(lines) == n
    size = sum(map(len, lines))
    sha = hashlib.sha256
    t = time.perf_counter()
    h = b"rummy-ledger/1\n"
    for line in lines:
        h = sha(h + line).digest()
    t_chain = time.perf_counter() - t
    blob = b"".join(lines)
    t = time.perf_counter()
    sha(blob).digest()
    t_bulk = time.perf_counter() - t
    return {"events": n, "bytes": size, "games": len(results), "verify": t_verify, "chain": t_chain, "bulk": t_bulk, "read": t_read}


def bench_import(base: Path, n_events: int, rounds: int) -> dict[str, float]:
    recs = records(n_events, "imp")
    with_chain: list[float] = []
    without: list[float] = []
    in_chain: list[float] = []
    real_link = sealstore.link
    spent = [0.0]

    def timed_link(*args, **kw):  # noqa: ANN002, ANN003, ANN202
        t = time.perf_counter()
        try:
            return real_link(*args, **kw)
        finally:
            spent[0] += time.perf_counter() - t

    def no_link(*args, **kw):  # noqa: ANN002, ANN003, ANN202
        return None, None

    n = 0
    for r in range(rounds):
        for mode in ("with", "without") if r % 2 == 0 else ("without", "with"):
            path = base / f"imp-{r}-{mode}.db"
            spent[0] = 0.0
            sealstore.link = timed_link if mode == "with" else no_link  # type: ignore[assignment]
            try:
                app = open_store(path)
                try:
                    t, n = import_all(app, recs)
                finally:
                    app.close()
            finally:
                sealstore.link = real_link  # type: ignore[assignment]
            (with_chain if mode == "with" else without).append(t)
            if mode == "with":
                in_chain.append(spent[0])
    return {"events": n, "with": statistics.median(with_chain), "without": statistics.median(without),
            "in_chain": statistics.median(in_chain), "with_all": with_chain, "without_all": without}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=1_000_000, help="events in the verify store (default 1,000,000)")
    ap.add_argument("--import-events", type=int, default=100_000, help="events per import round (default 100,000)")
    ap.add_argument("--rounds", type=int, default=3, help="import rounds of each kind (default 3)")
    ap.add_argument("--dir", type=Path, default=None, help="folder for the stores (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="reuse the verify store in --dir when it exists")
    args = ap.parse_args(argv)
    base = args.dir or Path(tempfile.mkdtemp(prefix="bench-seal-"))
    base.mkdir(parents=True, exist_ok=True)
    big = base / "verify.db"
    if not (args.keep and big.exists()):
        for p in base.glob("verify.db*"):
            p.unlink()
        t, n = build(big, args.events)
        print(f"built {big}: {n:,} events in {t:.1f} s ({n / t:,.0f} ev/s, import with the seal chain)")
    v = bench_verify(big)
    n = v["events"]
    print(f"verify: {v['games']:,} games, {n:,} events, {v['bytes'] / 1e6:.0f} MB of canonical lines")
    print(f"  verify (read + both chains + checks)  {n / v['verify']:>12,.0f} ev/s  {v['verify']:.2f} s")
    print(f"  seal chain alone, bytes in memory     {n / v['chain']:>12,.0f} ev/s  {v['chain']:.2f} s")
    print(f"  one SHA-256 over all bytes (sha256sum){n / v['bulk']:>12,.0f} ev/s  {v['bulk']:.2f} s  ({v['bytes'] / v['bulk'] / 1e6:,.0f} MB/s)")
    print(f"  SQL read of the same rows alone       {n / v['read']:>12,.0f} ev/s  {v['read']:.2f} s")
    print(f"  ratio verify / chain: {v['chain'] / v['verify']:.2f}x   verify / one SHA-256: {v['bulk'] / v['verify']:.3f}x")
    imp = bench_import(base, args.import_events, args.rounds)
    over = (imp["with"] - imp["without"]) / imp["without"]
    print(f"import: {imp['events']:,} events per round, {args.rounds} rounds each, alternating")
    print(f"  with the chain     median {imp['events'] / imp['with']:>10,.0f} ev/s  ({', '.join(f'{t:.1f}' for t in imp['with_all'])} s)")
    print(f"  without the chain  median {imp['events'] / imp['without']:>10,.0f} ev/s  ({', '.join(f'{t:.1f}' for t in imp['without_all'])} s)")
    print(f"  overhead: {over:+.1%} (medians); time inside the chain itself: {imp['in_chain'] / imp['with']:.1%} of the import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
