"""Seal chain benchmark (issue 15): ``verify`` throughput beside raw SHA-256
over the same canonical bytes, and the cost the chain adds to import; each
ratio from figures measured in the same run (the machine is shared).

    .venv/bin/python bench/bench_seal.py [--events 1000000] [--import-events 100000] [--rounds 3] [--dir DIR] [--keep]
                                         [--pg postgresql://postgres@127.0.0.1:5432/test [--pg-events 100000]]

1. builds a SQLite store of about ``--events`` events (synthetic two-player
   Ramino games of 16 hands, ~960 events each) the way ``rummy-ledger import
   FOLDER`` does (:meth:`LedgerApp.import_records`; seals computed and
   stored in the append path); ``--keep`` reuses it;
2. ``verify``: :func:`ledger.sealing.verify.verify_games` over every stored game
   (the fast read: one row per game and table, both chains recomputed and
   compared, every row's type and topic checked), events/s, and the
   row-by-row check alone (what verify did before the fast read, and what
   it still does for a game the fast read cannot verify). The **baseline**
   ("raw SHA-256 over the same canonical bytes"): the canonical lines
   already in memory as a list of ``bytes``, one ``hashlib.sha256(line).digest()``
   call per event, no chaining, nothing compared. Beside it, same run, same
   bytes: the seal chain alone (``hN = SHA-256(hN-1 + lineN)``), both chains
   (seal and journal: one link per append call, the hashing any verify
   must do), one SHA-256 over all
   the bytes at once (``sha256sum`` of the export), and the fast read's two
   SQL queries alone;
3. with ``--pg``: the same verify, row-by-row check and baseline over a
   fresh PostgreSQL schema of ``--pg-events`` events (dropped afterwards);
4. import cost: ``--import-events`` events imported into fresh stores,
   alternately with the seal chain and with it switched off (the journal
   rows still written, seals NULL), ``--rounds`` times each; the overhead
   is the difference of the medians, and also the time spent in the chain
   itself (:func:`ledger.sealing.witness._links`, the batch path imports use).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ledger.records import Record
from ledger.sealing import tables as seal_tables
from ledger.sealing import verify, verify_fast, verify_rows, witness
from ledger.store.application import LedgerApp
from ledger.stored.persistence import hex_id
from ledger.synthetic import two_player_record

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


def import_all(app: LedgerApp, recs: list[Record], cpu: list[float] | None = None) -> tuple[float, int]:
    """Import ``recs`` as ``rummy-ledger import FOLDER`` does (batched
    transactions, :meth:`LedgerApp.import_records`); ``(seconds, events)``,
    and this process's CPU seconds appended to ``cpu``."""
    t = time.perf_counter()
    c = time.process_time()
    n = 0
    for _source, outcome in app.import_records(recs):
        if isinstance(outcome, Exception):
            raise outcome
        n += outcome.events
    if cpu is not None:
        cpu.append(time.process_time() - c)
    return time.perf_counter() - t, n


def build(path: Path, n_events: int) -> tuple[float, int]:
    recs = records(n_events, "big")
    app = open_store(path)
    try:
        return import_all(app, recs)
    finally:
        app.close()


@contextmanager
def quiet() -> Iterator[None]:
    """A timed part: the garbage of the parts before collected first (every
    part runs with the collector on, as in the product)."""
    gc.collect()
    yield


def bench_verify(path: Path) -> dict[str, float]:
    app = open_store(path)
    try:
        targets = verify.game_keys(app, None)
        with quiet():
            t = time.perf_counter()
            c = time.process_time()
            results = list(verify.verify_games(app, targets))
            t_verify = time.perf_counter() - t
            c_verify = time.process_time() - c
        assert all(r.ok for r in results), [r.line() for r in results if not r.ok][:3]
        n = sum(r.length for r in results)
        tables = seal_tables.tables(app)
        with quiet():  # the row-by-row check alone: verify before the fast read, and its fallback now
            t = time.perf_counter()
            rowwise = []
            for start in range(0, len(targets), seal_tables.BATCH):
                chunk = targets[start : start + seal_tables.BATCH]
                rows, journal = tables.batch([k for k, _ in chunk])
                for key, name in chunk:
                    h = hex_id(key)
                    rowwise.append(verify_rows.check_game(name, h, rows.get(h, []), journal.get(h)))
            t_rows = time.perf_counter() - t
        assert [r.seal for r in rowwise] == [r.seal for r in results]
        t = time.perf_counter()
        sql_events, sql_journal = verify_fast._fast_sql(tables.sqlite)
        step = verify.FAST_BATCH
        for start in range(0, len(targets), step):
            keys = [k for k, _ in targets[start : start + step]]
            marks = ",".join("?" * len(keys))
            tables.query(sql_events.format(events=tables.events, marks=marks), [*verify_fast._TOPIC_PARAMS, *keys])
            tables.query(sql_journal.format(journal=tables.journal, marks=marks), keys)
        t_read = time.perf_counter() - t
        lines = [
            r[0] for r in tables.query(f"SELECT state FROM {tables.events} ORDER BY originator_id, originator_version")
        ]
        entries = tables.query(
            f"SELECT position, appended_by, received_at, journal_seal IS NOT NULL FROM {tables.journal} "
            "ORDER BY originator_id, position"
        )
    finally:
        app.close()
    assert len(lines) == n == len(entries)
    ends: list[tuple[int, bytes]] = []  # (index of the last event of an append call, its journal line)
    first = 0
    for i, (p, by, at, end) in enumerate(entries):
        if p == 0:
            first = 0
        if end:
            ends.append((i, verify_rows._encode({"first": first, "last": p, "by": by, "received_at": at})))
            first = p + 1
    del entries  # a million tuples would make every collection of the garbage collector below slower
    size = sum(map(len, lines))
    sha = hashlib.sha256
    with quiet():
        t = time.perf_counter()
        for line in lines:
            sha(line).digest()
        t_sha = time.perf_counter() - t
    with quiet():
        t = time.perf_counter()
        h = b"rummy-ledger/1\n"
        hs = [h := sha(h + line).digest() for line in lines]
        t_chain = time.perf_counter() - t
    del hs
    with quiet():
        t = time.perf_counter()
        h = b"rummy-ledger/1\n"
        hs = [h := sha(h + line).digest() for line in lines]
        j = b"rummy-ledger/journal/2\n"
        js = [j := sha(j + hs[i] + y).digest() for i, y in ends]
        t_both = time.perf_counter() - t
    assert len(js) == len(ends) == len(results)
    blob = b"".join(lines)
    with quiet():
        t = time.perf_counter()
        sha(blob).digest()
        t_bulk = time.perf_counter() - t
    return {
        "events": n,
        "bytes": size,
        "games": len(results),
        "verify": t_verify,
        "verify_cpu": c_verify,
        "rows": t_rows,
        "sha": t_sha,
        "chain": t_chain,
        "both": t_both,
        "bulk": t_bulk,
        "read": t_read,
    }


def bench_pg(url: str, n_events: int) -> dict[str, float]:
    """``verify`` (fast read) and the row-by-row check over a fresh
    PostgreSQL schema of about ``n_events`` events, beside the same baseline
    over its canonical lines; the schema is dropped afterwards."""
    import psycopg

    from ledger.store.settings import store_env

    schema = f"bench_seal_{int(time.time())}"
    env = store_env(f"{url}{'&' if '?' in url else '?'}schema={schema}")
    connect = {
        "host": env["POSTGRES_HOST"],
        "port": env["POSTGRES_PORT"],
        "user": env["POSTGRES_USER"],
        "password": env.get("POSTGRES_PASSWORD") or None,
        "dbname": env["POSTGRES_DBNAME"],
        "autocommit": True,
    }
    with psycopg.connect(**connect) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        app = LedgerApp(env=env)
        try:
            _t, n = import_all(app, records(n_events, "pg"))
            targets = verify.game_keys(app, None)
            tables = seal_tables.tables(app)
            with quiet():
                t = time.perf_counter()
                results = list(verify.verify_games(app, targets))
                t_verify = time.perf_counter() - t
            assert all(r.ok for r in results) and sum(r.length for r in results) == n
            with quiet():
                t = time.perf_counter()
                for start in range(0, len(targets), seal_tables.BATCH):
                    chunk = targets[start : start + seal_tables.BATCH]
                    rows, journal = tables.batch([k for k, _ in chunk])
                    for key, name in chunk:
                        h = hex_id(key)
                        assert verify_rows.check_game(name, h, rows.get(h, []), journal.get(h)).ok
                t_rows = time.perf_counter() - t
            lines = [
                bytes(r[0])
                for r in tables.query(f"SELECT state FROM {tables.events} ORDER BY originator_id, originator_version")
            ]
        finally:
            app.close()
    finally:
        with psycopg.connect(**connect) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    sha = hashlib.sha256
    with quiet():
        t = time.perf_counter()
        for line in lines:
            sha(line).digest()
        t_sha = time.perf_counter() - t
    return {"events": n, "verify": t_verify, "rows": t_rows, "sha": t_sha}


def bench_import(base: Path, n_events: int, rounds: int) -> dict[str, float]:
    recs = records(n_events, "imp")
    with_chain: list[float] = []
    without: list[float] = []
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    in_chain: list[float] = []
    real_links = witness._links
    spent = [0.0]

    def timed_links(*args, **kw):  # noqa: ANN002, ANN003, ANN202
        t = time.perf_counter()
        try:
            return real_links(*args, **kw)
        finally:
            spent[0] += time.perf_counter() - t

    def no_links(prev_seal, prev_journal, first, lines, *rest):  # noqa: ANN001, ANN002, ANN202
        return [None] * len(lines), None

    n = 0
    for r in range(rounds):
        for mode in ("with", "without") if r % 2 == 0 else ("without", "with"):
            path = base / f"imp-{r}-{mode}.db"
            for old in base.glob(f"imp-{r}-{mode}.db*"):
                old.unlink()
            spent[0] = 0.0
            witness._links = timed_links if mode == "with" else no_links  # type: ignore[assignment]
            try:
                app = open_store(path)
                try:
                    t, n = import_all(app, recs, cpu[mode])
                finally:
                    app.close()
            finally:
                witness._links = real_links  # type: ignore[assignment]
            for old in base.glob(f"imp-{r}-{mode}.db*"):
                old.unlink()
            (with_chain if mode == "with" else without).append(t)
            if mode == "with":
                in_chain.append(spent[0])
    return {
        "events": n,
        "with": statistics.median(with_chain),
        "without": statistics.median(without),
        "in_chain": statistics.median(in_chain),
        "with_all": with_chain,
        "without_all": without,
        "cpu_with": statistics.median(cpu["with"]),
        "cpu_without": statistics.median(cpu["without"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=1_000_000, help="events in the verify store (default 1,000,000)")
    ap.add_argument("--import-events", type=int, default=100_000, help="events per import round (default 100,000)")
    ap.add_argument("--rounds", type=int, default=3, help="import rounds of each kind (default 3)")
    ap.add_argument("--dir", type=Path, default=None, help="folder for the stores (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="reuse the verify store in --dir when it exists")
    ap.add_argument(
        "--pg",
        metavar="URL",
        default=None,
        help="also verify a fresh schema on this PostgreSQL server (postgresql://user@host:port/db)",
    )
    ap.add_argument("--pg-events", type=int, default=100_000, help="events in the PostgreSQL store (default 100,000)")
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
    rows = [
        ("verify (fast read, both chains, checks)", v["verify"]),
        ("row-by-row check alone (verify before)", v["rows"]),
        ("baseline: sha256(line) per event, in memory", v["sha"]),
        ("seal chain alone, in memory", v["chain"]),
        ("seal and journal chains, in memory", v["both"]),
        ("one SHA-256 over all bytes (sha256sum)", v["bulk"]),
        ("SQL of the fast read alone", v["read"]),
    ]
    for label, t in rows:
        print(f"  {label:<44}{n / t:>12,.0f} ev/s  {t:.2f} s")
    print(
        f"  ratio verify / baseline: {v['sha'] / v['verify']:.3f}x (target >= 0.5x); "
        f"both chains / baseline: {v['sha'] / v['both']:.2f}x; SQL / baseline: {v['sha'] / v['read']:.2f}x; "
        f"row by row / baseline: {v['sha'] / v['rows']:.3f}x; verify CPU {v['verify_cpu']:.2f} s"
    )
    if args.pg:
        pg = bench_pg(args.pg, args.pg_events)
        print(
            f"PostgreSQL: {pg['events']:,} events: verify {pg['events'] / pg['verify']:,.0f} ev/s "
            f"({pg['sha'] / pg['verify']:.3f}x), "
            f"row by row {pg['events'] / pg['rows']:,.0f} ev/s ({pg['sha'] / pg['rows']:.3f}x), "
            f"baseline {pg['events'] / pg['sha']:,.0f} ev/s"
        )
    imp = bench_import(base, args.import_events, args.rounds)
    over = (imp["with"] - imp["without"]) / imp["without"]
    over_cpu = (imp["cpu_with"] - imp["cpu_without"]) / imp["cpu_without"]
    print(f"import: {imp['events']:,} events per round, {args.rounds} rounds each, alternating")
    print(
        f"  with the chain     median {imp['events'] / imp['with']:>10,.0f} ev/s  "
        f"({', '.join(f'{t:.2f}' for t in imp['with_all'])} s; "
        f"median CPU {imp['cpu_with']:.2f} s)"
    )
    print(
        f"  without the chain  median {imp['events'] / imp['without']:>10,.0f} ev/s  "
        f"({', '.join(f'{t:.2f}' for t in imp['without_all'])} s; "
        f"median CPU {imp['cpu_without']:.2f} s)"
    )
    print(
        f"  overhead: {over:+.1%} wall, {over_cpu:+.1%} CPU (medians, target <= 10 %); "
        f"time inside the chain itself: {imp['in_chain'] / imp['with']:.1%} of the import"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
