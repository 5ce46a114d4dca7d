"""The performance figures (issue 8 and later issues), each with its baseline from the same run.

    .venv/bin/python bench/run_all.py [--games 200] [--full] [--big-store 300000] [--only 1,2,...]

1. bulk import of N simulated Burraco games into SQLite through the store
   (``LedgerApp.import_records``, the folder import: decode, validate with
   the fold, store in batches across games; and ``import_record`` file by
   file) vs the floor (msgspec decode + ``executemany`` of the same rows
   into a bare table, one transaction per game) and vs eventsourcing's
   default JSON mapper (the same events stored through ``Mapper`` +
   ``JSONTranscoder``, the library's own recorder); ``--pg URL`` the same
   on PostgreSQL; ``--full``: 10,000 games. Targets (issue 17) ≥ 0.5×
   floor, ≥ 3× JSON mapper. Each rate is given by wall time and, in
   parentheses, by this process's CPU time (steadier on a shared machine).
2. full replay + audit + scoring from the store, events/s, vs OpenSpiel's
   ``apply_action`` over the same Gin hands (``ledger.openspiel``), the two
   alternating, wall and CPU. Target ≥ 6× (hands/s, issue 28; ≥ 5× in issue 17).
3. state at any position of a 3,000-event game: p95 ms at position 10, at
   3,000 and at random positions (the viewer's API when ``replay_web`` is
   importable, else the ``Replayer``). Targets ≤ 5 ms, ratio ≤ 2×.
4. live append of one event per commit to a 3,000-event game
   (``LedgerApp.append_event``) vs raw SQLite single-row commits. Target ≥ 0.5×.
5. peak RSS of a process importing, then one exporting, the corpus of (1)
   vs the same interpreter idle with the ledger imported. Target ≤ 300 MB
   (for a 1 GB corpus: ``--full``).
6. import rate (``import_records``) into a store grown to ``--big-store``
   events and as many journal rows (``--full``: 10,000,000) vs into an empty
   store: the corpus in ``--pairs`` slices, each into both, in turn; the
   median of the ratios pair by pair. Target ≥ 0.8× (issue 28, target 7).
7. the game page, a state and the games list of a 100,000-event game vs a
   1,000-event one (``bench_long_game.py``, issue 27). Targets ≤ 5×, page ≤ 2 MB;
   and of a live (unfinished) game just after one append, with a spectator's
   403 and the SSE stream's first byte. Targets ≤ 5×.
8. tournament standings at random positions of a 60-pair, 6-round tournament
   (180 games) vs a fold of the same games (``bench_standings.py``, issue 25).
   Target ≤ 50 ms p95.
9. ``rummy-ledger import --no-analytics --jobs 2`` vs ``--jobs 1`` of
   ``--jobs-games`` simulated Burraco games (default 1,000), whole processes
   into a fresh SQLite file each run, in turn (A B A B …, one warm-up pair),
   the ratio pair by pair, wall and CPU (the processes' own accounting, the
   workers included). Target ≥ 1.6× wall (issue 28, target 2).
10. ``rummy-ledger --db STORE verify`` vs ``bench/verify_reference.py STORE``
   (one ``SELECT`` of the same rows and one SHA-256 each, nothing checked)
   on a ``bench_seal.build`` store of ``--verify-events`` events (default
   300,000), whole processes in turn, the ratio pair by pair. Target: verify
   ≥ 0.67× the reference's rate (issue 28, target 3). ``verify`` runs with its
   default ``--jobs`` (the usable cores for a store this size). Second row:
   ``verify --jobs 2`` vs ``--jobs 1`` on the same store, in turn, wall and
   CPU; target ≥ 1.6× wall (issue 28, target 2).
11. HTTP append, 4 writers on 4 games, vs a no-op route on the same gunicorn,
   workers and client (``bench_live.against_noop``: a route doing the
   token, ``If-Match`` and body parsing of an append, neither fold nor store;
   and a bare route). Targets ≥ 0.5× the no-op route, p99 ≤ 10 ms (issue 28,
   target 4).
12. ``rummy-ledger import --no-analytics --jobs 1`` of ``--essential-games``
   simulated Burraco games (default 300; ``--full``: 10,000) into a fresh
   SQLite file vs ``bench/essential_import.py`` (read, decode and fold every
   file, nothing stored), whole processes in turn, the ratio pair by pair.
   Target: the import ≤ 1.5× the essential work (issue 28, target 1).
13. ``rummy-ledger analytics update --jobs 2`` vs ``--jobs 1`` on the store of
   figure 9's corpus (``--jobs-games`` simulated Burraco games, imported once),
   whole processes in turn on a copy of the store each, the analytics file
   removed before each run, the ratio pair by pair, wall and CPU (workers
   included). Target ≥ 1.6× wall (issue 28, target 2). Not in the default ``--only``.

Prints one table; ``--only 1,3`` runs a subset. Simulation time is not measured.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median, quantiles

ROOT = Path(__file__).resolve().parent.parent

import msgspec  # noqa: E402

from ledger.audit import report  # noqa: E402
from ledger.events import decode_event, encode_event  # noqa: E402
from ledger.record_files import read_record  # noqa: E402
from ledger.records import encode_record, iter_lines  # noqa: E402
from ledger.replay import Replayer, replay  # noqa: E402
from ledger.scoring import score_sheet  # noqa: E402
from ledger.simulate import simulate_game, write_game  # noqa: E402
from ledger.store.application import LedgerApp  # noqa: E402
from ledger.stored.persistence import TOPICS, game_uuid  # noqa: E402

ROWS: list[tuple[str, str, str, str, str]] = []  # figure, measure, value, baseline, ratio/target


def row(fig: str, what: str, value: str, baseline: str, verdict: str) -> None:
    ROWS.append((fig, what, value, baseline, verdict))
    print(f"  [{fig}] {what}: {value} | baseline {baseline} | {verdict}", flush=True)


def sqlite_env(db: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}


def corpus(folder: Path, games: int, variant: str = "burraco", ruleset: str = "fibur", seed: int = 0) -> list[Path]:
    """Simulated records in ``folder`` (reused when already there)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = sorted(folder.glob("*.jsonl"))
    if len(paths) >= games:
        return paths[:games]
    paths = []
    for i in range(games):
        events, _ = simulate_game(variant, ruleset, 2, seed + i)
        paths.append(write_game(folder, events, None))
    return paths


# --- 1 ---------------------------------------------------------------------------------
class Clock:
    """Wall and CPU (this process) seconds of a block; on a shared machine the
    CPU figure is the steadier one (it leaves out waiting for a core and for
    the disk; for PostgreSQL it leaves out the server's own work)."""

    def __enter__(self) -> Clock:
        self.t, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.t, time.process_time() - self.c


def _rate(n: int, c: Clock) -> str:
    return f"{n / c.wall:,.0f} ev/s ({n / c.cpu:,.0f} CPU)"


def _took(kind: str, what: str, c: Clock) -> None:
    """Print one path's seconds as soon as it is measured (a long run shows its progress)."""
    print(f"  {kind}, {what}: {c.wall:,.1f} s wall, {c.cpu:,.1f} s CPU", flush=True)


def _ratio(a: Clock, b: Clock) -> str:
    """How many times faster ``a`` is than ``b``, wall (CPU)."""
    return f"{b.wall / a.wall:.2f}x ({b.cpu / a.cpu:.2f}x CPU)"


def fig1(paths: list[Path], tmp: Path, pg: str | None = None, one_by_one: bool = True, sqlite: bool = True) -> None:
    """Import of the corpus: ours (``import_records``, the folder import; and
    ``import_record`` per file) vs the floor and eventsourcing's JSON mapper,
    into SQLite (unless not ``sqlite``) and, with ``pg``, into PostgreSQL (a fresh schema each)."""
    blobs = [p.read_bytes() for p in paths]
    n_events = sum(b.count(b"\n") for b in blobs)
    stores = [("SQLite", lambda name: sqlite_env(tmp / f"f1-{name}.db"))] if sqlite else []
    if pg:
        from ledger.store.settings import store_env

        stamp = f"{os.getpid()}_{int(time.time())}"
        stores.append(
            ("PostgreSQL", lambda name: store_env(f"{pg}{'&' if '?' in pg else '?'}schema=bench_{name}_{stamp}"))
        )
    from bench_import import JsonApp, as_json_event

    for kind, env_for in stores:
        # ours, the folder import: decode, validate with the fold, store in batches across games
        app = LedgerApp(env=env_for("bulk"))
        with Clock() as bulk:
            for _src, result in app.import_records(read_record(b) for b in blobs):
                assert not isinstance(result, Exception), result
        app.close()
        _took(kind, "import_records", bulk)
        single = None
        if one_by_one:  # ours, one import_record (one transaction) per file
            app = LedgerApp(env=env_for("single"))
            with Clock() as single:
                for b in blobs:
                    app.import_record(read_record(b))
            app.close()
            _took(kind, "import_record file by file", single)
        # floor: msgspec decode + executemany of the same rows, one transaction per game
        with Clock() as floor:
            floor_store(kind, env_for("floor"), blobs)
        _took(kind, "floor", floor)
        # eventsourcing's default JSON mapper (bench_import.JsonApp), same events, no validation
        json_env = env_for("json")
        if kind == "PostgreSQL":
            pg_exec(pg, f'CREATE SCHEMA IF NOT EXISTS "{json_env["POSTGRES_SCHEMA"]}"')  # type: ignore[arg-type]
        japp = JsonApp(env=json_env)
        with Clock() as jsonm:
            for b in blobs:
                rec = read_record(b)
                oid = game_uuid(rec.game_id)  # type: ignore[arg-type]
                japp.events.put([as_json_event(oid, i + 1, e) for i, e in enumerate(rec.events)])
        japp.close()
        _took(kind, "JSON mapper", jsonm)
        if pg and kind == "PostgreSQL":
            drop_bench_schemas(pg, stamp)
        what = f"{kind}: import {len(paths):,} Burraco games ({n_events:,} events), LedgerApp.import_records"
        row(
            "1",
            what,
            _rate(n_events, bulk),
            f"floor {_rate(n_events, floor)}",
            f"{_ratio(bulk, floor)} of floor (target ≥0.5x)",
        )
        row(
            "1",
            f"  {kind}: the same vs eventsourcing JSON mapper (no validation)",
            _rate(n_events, bulk),
            f"JSON {_rate(n_events, jsonm)}",
            f"{_ratio(bulk, jsonm)} (target ≥3x)",
        )
        if single is not None:
            row(
                "1",
                f"  {kind}: import_record file by file",
                _rate(n_events, single),
                f"JSON {_rate(n_events, jsonm)}",
                f"{_ratio(single, jsonm)} of JSON, {_ratio(single, floor)} of floor",
            )


def floor_store(kind: str, env: dict[str, str], blobs: list[bytes]) -> None:
    """The floor: decode with msgspec and insert the rows with ``executemany``,
    one transaction per game, into a bare table with only the primary key."""
    create = (
        "CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, state BYTEA,"
        " PRIMARY KEY (originator_id, originator_version))"
    )

    def rows_of(b: bytes) -> list[tuple]:
        events = [decode_event(line) for _, line in iter_lines(b.splitlines())]
        oid = game_uuid(events[0].game_id).hex  # type: ignore[attr-defined]
        return [(oid, i + 1, TOPICS[type(e)], encode_event(e)) for i, e in enumerate(events)]

    if kind == "SQLite":
        con = sqlite3.connect(env["SQLITE_DBNAME"], isolation_level=None)
        con.execute(create.replace("BYTEA", "BLOB"))
        for b in blobs:
            rows = rows_of(b)
            con.execute("BEGIN")
            con.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", rows)
            con.execute("COMMIT")
        con.close()
        return
    import psycopg

    schema = env["POSTGRES_SCHEMA"]
    with psycopg.connect(
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"] or None,
        dbname=env["POSTGRES_DBNAME"],
        autocommit=True,
    ) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(create.replace("stored_events", f'"{schema}".stored_events'))
        for b in blobs:
            rows = rows_of(b)
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(f'INSERT INTO "{schema}".stored_events VALUES (%s, %s, %s, %s)', rows)


def pg_exec(pg: str, *statements: str) -> None:
    import psycopg

    from ledger.store.settings import store_env

    env = store_env(pg)
    with psycopg.connect(
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"] or None,
        dbname=env["POSTGRES_DBNAME"],
        autocommit=True,
    ) as conn:
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]


def drop_bench_schemas(pg: str, stamp: str) -> None:
    pg_exec(
        pg, *(f'DROP SCHEMA IF EXISTS "bench_{name}_{stamp}" CASCADE' for name in ("bulk", "single", "floor", "json"))
    )


# --- 2 ---------------------------------------------------------------------------------
def fig2(tmp: Path, hands: int, rounds: int = 3) -> None:
    """Store → replay + audit + score of ``hands`` Gin hands against OpenSpiel's
    ``apply_action`` over the same histories: ``rounds`` alternating passes of
    each, best wall and best CPU (this process) time of each side."""
    try:
        import pyspiel
        from bench_gin_oracle import oracle_hands

        from ledger.openspiel.convert import convert_actions
    except ImportError as exc:
        row("2", "replay+audit+score vs OpenSpiel", "n/a", "n/a", f"skipped ({exc})")
        return
    games = oracle_hands(hands)
    records = [convert_actions(h, game_id=f"bench-gin-{i}") for i, (h, _) in enumerate(games)]
    app = LedgerApp(env=sqlite_env(tmp / "f2.db"))
    for r in records:
        app.import_record(read_record(encode_record(r)))
    n_events = sum(len(r) for r in records)
    game = pyspiel.load_game("gin_rummy")
    best = best_cpu = best_os = best_os_cpu = float("inf")
    for _ in range(rounds):
        with Clock() as c:
            for i in range(hands):
                state = replay(app.get_events(f"bench-gin-{i}"))
                report(state)
                score_sheet(state)
        best, best_cpu = min(best, c.wall), min(best_cpu, c.cpu)
        with Clock() as c:
            for history, _ in games:
                os_state = game.new_initial_state()
                for a in history:
                    os_state.apply_action(a)
                os_state.returns()
        best_os, best_os_cpu = min(best_os, c.wall), min(best_os_cpu, c.cpu)
    app.close()
    actions = sum(len(h) for h, _ in games)
    row(
        "2",
        f"store→replay+audit+score, {hands} Gin hands",
        f"{n_events / best:,.0f} ev/s ({hands / best:,.0f} hands/s, {hands / best_cpu:,.0f} CPU)",
        f"OpenSpiel {actions / best_os:,.0f} act/s ({hands / best_os:,.0f} hands/s, {hands / best_os_cpu:,.0f} CPU)",
        f"{best_os / best:.2f}x hands/s ({best_os_cpu / best_cpu:.2f}x CPU; target ≥6x, issue 28)",
    )


# --- 3 ---------------------------------------------------------------------------------
def long_game(min_events: int = 3002) -> list:
    """A classic-Ramino game of ``min_events``+ events (simulated; target raised until long enough)."""
    events: list = []
    seed = 0
    while len(events) < min_events:
        events, _ = simulate_game("ramino", "seed", 2, seed, game_id="bench-3000")
        seed += 1
        if len(events) < min_events:
            from ledger.events import GameStarted

            # a higher target makes the game longer: play with options
            from ledger.simulate import find_strategy

            strat = find_strategy("ramino")(random.Random(seed))
            gs = GameStarted(
                game_id="bench-3000",
                variant="ramino",
                ruleset="seed",
                options={"target": 1000},
                players=strat.players(2),
            )
            strat.game_started = lambda *a, gs=gs, **k: gs  # type: ignore[method-assign]
            events = list(strat.play_game("bench-3000", "seed", 2).events)
    return events


def p95(values: list[float]) -> float:
    return quantiles(values, n=20)[-1]


def fig3(tmp: Path, game: list) -> None:
    late = min(3000, len(game) - 2)
    rng = random.Random(0)
    n = 300
    scen = {"pos 10": [10] * n, f"pos {late}": [late] * n, "random": [rng.randrange(len(game)) for _ in range(n)]}
    try:
        from bench_web_state import measure

        from replay_web import create_app

        app = LedgerApp(env=sqlite_env(tmp / "f3.db"))
        app.import_record(read_record(encode_record(game)))
        app.close()
        client = create_app({"LEDGER_DB": str(tmp / "f3.db")}).test_client()
        measure(client, "bench-3000", [10, late] * 20)

        def timed(positions: list[int]) -> list[float]:
            return measure(client, "bench-3000", positions)[0]

        how = "viewer API (Server-Timing)"
    except Exception as exc:  # the viewer is another helper's: fall back to the Replayer
        rep = Replayer(game)

        def timed(positions: list[int]) -> list[float]:
            out = []
            for p in positions:
                t = time.perf_counter()
                rep.state_at(p)
                out.append((time.perf_counter() - t) * 1000)
            return out

        how = f"Replayer ({type(exc).__name__})"
    best = {k: min(p95(timed(v)) for _ in range(3)) for k, v in scen.items()}
    ratio = best[f"pos {late}"] / best["pos 10"]
    worst = max(best.values())
    row(
        "3",
        f"state at a position, {len(game):,}-event game, {how}",
        f"p95 {best[f'pos {late}']:.2f} ms at {late}, {best['random']:.2f} random",
        f"p95 {best['pos 10']:.2f} ms at 10",
        f"{ratio:.2f}x (target ≤2x), worst {worst:.2f} ms (≤5)",
    )


# --- 4 ---------------------------------------------------------------------------------
def fig4(tmp: Path, game: list, tail: int = 60) -> None:
    app = LedgerApp(env=sqlite_env(tmp / "f4.db"))
    head = game[: len(game) - tail]
    app.import_record(read_record(encode_record(head)))
    t = time.perf_counter()
    for e in game[len(head) :]:
        app.append_event("bench-3000", e)
    ours = tail / (time.perf_counter() - t)
    app.close()
    con = sqlite3.connect(tmp / "f4-raw.db", isolation_level=None)
    con.execute(
        "CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB, "
        "PRIMARY KEY (originator_id, originator_version))"
    )
    oid = game_uuid("bench-3000").hex
    t = time.perf_counter()
    for i, e in enumerate(game):
        con.execute("BEGIN")
        con.execute("INSERT INTO stored_events VALUES (?, ?, ?, ?)", (oid, i + 1, TOPICS[type(e)], encode_event(e)))
        con.execute("COMMIT")
    raw = len(game) / (time.perf_counter() - t)
    con.close()
    row(
        "4",
        f"live append, last {tail} events of a {len(game):,}-event game",
        f"{ours:,.1f} ev/s",
        f"raw SQLite {raw:,.0f} commits/s",
        f"{ours / raw:.3f}x (target ≥0.5x)",
    )


# --- 5 ---------------------------------------------------------------------------------
_RSS = r"""
import resource, sys
from pathlib import Path
from ledger.store.application import LedgerApp
from ledger.record_files import read_record
mode, folder, db = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
if mode == "import":  # the folder import, as ``rummy-ledger import FOLDER`` does it
    for _src, result in app.import_records(sorted(folder.glob("*.jsonl"))):
        assert not isinstance(result, Exception), result
elif mode == "export":
    out = Path(db + ".export")
    with open(out, "wb") as fh:
        for g in app.list_games():
            fh.write(app.export_record(g.game_id))
# VmHWM is this process's own peak RSS (kB); ru_maxrss would carry the parent's over fork/exec
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
print(int(hwm[0].split()[1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def fig5(tmp: Path, folder: Path) -> None:
    size = sum(p.stat().st_size for p in folder.glob("*.jsonl"))
    db = str(tmp / "f5.db")
    code = _RSS

    def rss(mode: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", code, mode, str(folder), db], capture_output=True, text=True, check=True
        )
        return int(out.stdout.split()[-1]) / 1024

    idle, imp, exp = rss("idle"), rss("import"), rss("export")
    row(
        "5",
        f"peak RSS, corpus {size / 1e6:,.0f} MB",
        f"import {imp:,.0f} MB, export {exp:,.0f} MB",
        f"idle {idle:,.0f} MB",
        f"max {max(imp, exp):,.0f} MB (target ≤300 MB at 1 GB)",
    )


# --- 6 ---------------------------------------------------------------------------------
def fig6(tmp: Path, paths: list[Path], big: int, pairs: int) -> None:
    """A store grown with synthetic games to ``big`` events (raw inserts into
    the same tables and indexes: events and their journal rows), then the
    corpus in ``pairs`` slices, each imported (``LedgerApp.import_records``,
    the CLI's folder import, one process) into the big store and into a
    fresh empty store, in turn (the order alternating pair by pair); the
    medians of the per-pair rate ratios, wall and CPU."""
    db = tmp / "f6.db"
    LedgerApp(env=sqlite_env(db)).close()  # the store's tables and indexes
    con = sqlite3.connect(db, isolation_level=None)
    filler = b'{"type":"card_drawn","seat":0,"card":"6H"}'
    topic = "ledger.events:CardDrawn"
    seal = bytes(range(32))
    have = 0
    per_game = 500
    g = 0
    con.execute("BEGIN")
    while have < big:
        oid = game_uuid(f"filler-{g}").hex
        con.executemany(
            "INSERT INTO stored_events VALUES (?, ?, ?, ?)", [(oid, v, topic, filler) for v in range(1, per_game + 1)]
        )
        con.executemany(
            "INSERT INTO rummy_journal VALUES (?, ?, ?, ?, ?, ?)",
            [(oid, v - 1, "bench", "2026-12-07T00:00:00Z", seal, seal) for v in range(1, per_game + 1)],
        )
        have += per_game
        g += 1
        if g % 200 == 0:
            con.execute("COMMIT")
            con.execute("BEGIN")
    con.execute("COMMIT")
    con.close()

    def rate(store: Path, files: list[Path]) -> tuple[float, float]:
        app = LedgerApp(env=sqlite_env(store))
        n = sum(p.read_bytes().count(b"\n") for p in files)
        with Clock() as c:
            for _src, _result in app.import_records(files):
                pass
        app.close()
        return n / c.wall, n / c.cpu

    size = max(1, len(paths) // max(1, pairs))
    walls, cpus, larges, smalls = [], [], [], []
    load_before = _loads()
    for k in range(0, len(paths) - size + 1, size):
        files = paths[k : k + size]
        empty = tmp / f"f6-empty-{k}.db"
        if (k // size) % 2:
            small = rate(empty, files)
            large = rate(db, files)
        else:
            large = rate(db, files)
            small = rate(empty, files)
        larges.append(large)
        smalls.append(small)
        walls.append(large[0] / small[0])
        cpus.append(large[1] / small[1])
    row(
        "6",
        f"import rate (import_records), a store of {have:,} events vs an empty one, {len(walls)} pairs of"
        f" {size} games, load {load_before}→{_loads()}",
        f"{median(r[0] for r in larges):,.0f} ev/s ({median(r[1] for r in larges):,.0f} CPU) (large)",
        f"{median(r[0] for r in smalls):,.0f} ev/s ({median(r[1] for r in smalls):,.0f} CPU) (empty)",
        f"{median(walls):.2f}x wall ({min(walls):.2f}–{max(walls):.2f}), {median(cpus):.2f}x CPU"
        f" (target ≥0.8x, issue 28 target 7)",
    )


# --- 7 ---------------------------------------------------------------------------------
def fig7(tmp: Path) -> None:
    from bench_long_game import run, run_live

    for name, big, little, ratio, _ok in run(1000, 100_000, 20, tmp):
        row("7", f"{name} of a 100,000-event game", big, f"1,000 events: {little}", ratio)
    for name, big, little, ratio, _ok in run_live(1000, 100_000, 5, tmp):
        row("7", f"after one append: {name} of a 100,000-event live game", big, f"1,000 events: {little}", ratio)


# --- 8 ---------------------------------------------------------------------------------
def fig8(tmp: Path) -> None:
    from bench_standings import run

    for name, value, base, ratio, _ok in run(tmp):
        row("8", f"tournament {name}, 60 pairs, 6 rounds", value, base, ratio)


# --- 9, 10: whole processes in turn (issue 28) ------------------------------------------
def _process(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process (its children included: the
    operating system's accounting of the finished processes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def in_turn(a: Callable[[], list[str]], b: Callable[[], list[str]], pairs: int) -> dict[str, float]:
    """``a`` and ``b`` (each a fresh argv) run in turn, one warm-up pair then
    ``pairs`` counted; the medians of each side and of the ratios a/b taken pair by pair."""
    _process(a())
    _process(b())
    got: dict[str, list[float]] = {k: [] for k in ("a_wall", "a_cpu", "b_wall", "b_cpu", "wall", "cpu")}
    for _ in range(pairs):
        aw, ac = _process(a())
        bw, bc = _process(b())
        for k, v in (("a_wall", aw), ("a_cpu", ac), ("b_wall", bw), ("b_cpu", bc), ("wall", aw / bw), ("cpu", ac / bc)):
            got[k].append(v)
    return {k: median(v) for k, v in got.items()}


def rummy_ledger() -> list[str]:
    """The command as a user runs it: the ``rummy-ledger`` script beside this interpreter."""
    script = Path(sys.executable).parent / "rummy-ledger"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from ledger.console import main; main()"]


def _loads() -> str:
    """The 1-minute load average."""
    return f"{os.getloadavg()[0]:.1f}"


def fig9(tmp: Path, folder: Path, games: int, pairs: int) -> None:
    n_events = sum(p.read_bytes().count(b"\n") for p in sorted(folder.glob("*.jsonl")))

    def fresh(jobs: int) -> Callable[[], list[str]]:
        db = tmp / f"f9-jobs{jobs}.db"

        def argv() -> list[str]:
            for f in tmp.glob(f"{db.name}*"):
                f.unlink()
            return [*rummy_ledger(), "--db", str(db), "import", "--no-analytics", "--jobs", str(jobs), str(folder)]

        return argv

    load_before = _loads()
    got = in_turn(fresh(2), fresh(1), pairs)
    row(
        "9",
        f"import --jobs 2, {games:,} Burraco games ({n_events:,} events), fresh SQLite, load {load_before}→{_loads()}",
        f"{got['a_wall']:.2f} s wall, {got['a_cpu']:.2f} s CPU",
        f"--jobs 1: {got['b_wall']:.2f} s wall, {got['b_cpu']:.2f} s CPU",
        f"{1 / got['wall']:.2f}x faster by wall (CPU ratio {got['cpu']:.2f}); target ≥1.6x wall",
    )


def fig10(tmp: Path, events: int, pairs: int) -> None:
    from bench_seal import build

    db = tmp / "f10-verify.db"
    _secs, n = build(db, events)
    verify = [*rummy_ledger(), "--db", str(db), "verify"]
    reference = [sys.executable, str(ROOT / "bench" / "verify_reference.py"), str(db)]
    load_before = _loads()
    got = in_turn(lambda: verify, lambda: reference, pairs)
    row(
        "10",
        f"verify (default --jobs), bench_seal store of {n:,} events, load {load_before}→{_loads()}",
        f"{got['a_wall']:.2f} s wall, {got['a_cpu']:.2f} s CPU",
        f"verify_reference.py {got['b_wall']:.2f} s wall, {got['b_cpu']:.2f} s CPU",
        f"{1 / got['cpu']:.2f}x the reference's rate by CPU ({1 / got['wall']:.2f}x wall); target ≥0.67x",
    )
    load_before = _loads()
    got = in_turn(lambda: [*verify, "--jobs", "2"], lambda: [*verify, "--jobs", "1"], pairs)
    row(
        "10",
        f"verify --jobs 2, the same store, load {load_before}→{_loads()}",
        f"{got['a_wall']:.2f} s wall, {got['a_cpu']:.2f} s CPU",
        f"--jobs 1: {got['b_wall']:.2f} s wall, {got['b_cpu']:.2f} s CPU",
        f"{1 / got['wall']:.2f}x faster by wall (CPU ratio {got['cpu']:.2f}); target ≥1.6x wall",
    )


def fig12(tmp: Path, folder: Path, games: int, pairs: int) -> None:
    n_events = sum(p.read_bytes().count(b"\n") for p in sorted(folder.glob("*.jsonl")))
    db = tmp / "f12-import.db"

    def cli() -> list[str]:
        for f in tmp.glob(f"{db.name}*"):
            f.unlink()
        return [*rummy_ledger(), "--db", str(db), "import", "--no-analytics", "--jobs", "1", str(folder)]

    essential = [sys.executable, str(ROOT / "bench" / "essential_import.py"), str(folder)]
    load_before = _loads()
    got = in_turn(cli, lambda: essential, pairs)
    row(
        "12",
        f"import --no-analytics --jobs 1, {games:,} Burraco games ({n_events:,} events), fresh SQLite,"
        f" load {load_before}→{_loads()}",
        f"{got['a_wall']:.2f} s wall, {got['a_cpu']:.2f} s CPU",
        f"essential_import.py (read, decode, fold): {got['b_wall']:.2f} s wall, {got['b_cpu']:.2f} s CPU",
        f"{got['cpu']:.2f}x the essential work by CPU ({got['wall']:.2f}x wall); target ≤1.5x",
    )


# --- 11 --------------------------------------------------------------------------------
def fig11(tmp: Path, events: int, rounds: int) -> None:
    import bench_live

    bench_live.LOG = tmp / "f11-gunicorn.log"
    load_before = _loads()
    got = bench_live.against_noop(str(tmp / "f11.db"), events, rounds)
    p99 = bench_live.pct(got["append_ms"], 0.99)
    ratio = median(got["ratio"])
    row(
        "11",
        f"HTTP append, 4 writers on 4 games, {events} events each, SQLite, load {load_before}→{_loads()}",
        f"{median(got['append']):,.0f} ev/s, p99 {p99:.2f} ms",
        f"no-op route {median(got['noop']):,.0f} req/s (p99 {bench_live.pct(got['noop_ms'], 0.99):.2f} ms);"
        f" bare route {median(got['bare']):,.0f} req/s",
        f"{ratio:.2f}x of no-op, {median(got['ratio_bare']):.2f}x of bare (target ≥0.5x, p99 ≤10 ms)",
    )


# --- 13: the analytics view's folds on two cores (issue 28) ---------------------------
def fig13(tmp: Path, folder: Path, games: int, pairs: int) -> None:
    import shutil

    corpus(folder, games)
    n_events = sum(p.read_bytes().count(b"\n") for p in sorted(folder.glob("*.jsonl"))[:games])
    store, command = tmp / "f13.db", rummy_ledger()
    _process([*command, "--db", str(store), "import", "--no-analytics", "--jobs", "2", str(folder)])

    def fresh(jobs: int) -> Callable[[], list[str]]:
        db, view = tmp / f"f13-jobs{jobs}.db", tmp / f"f13-jobs{jobs}.analytics.duckdb"
        shutil.copyfile(store, db)

        def argv() -> list[str]:
            for f in tmp.glob(f"{view.name}*"):  # the file, its WAL, DuckDB's spill folder if one was left
                shutil.rmtree(f) if f.is_dir() else f.unlink()
            return [*command, "--db", str(db), "analytics", "update", "--analytics", str(view), "--jobs", str(jobs)]

        return argv

    load_before = _loads()
    got = in_turn(fresh(2), fresh(1), pairs)
    row(
        "13",
        f"analytics update --jobs 2, {games:,} Burraco games ({n_events:,} events), load {load_before}→{_loads()}",
        f"{got['a_wall']:.2f} s wall, {got['a_cpu']:.2f} s CPU",
        f"--jobs 1: {got['b_wall']:.2f} s wall, {got['b_cpu']:.2f} s CPU",
        f"{1 / got['wall']:.2f}x faster by wall (CPU ratio {got['cpu']:.2f}); target ≥1.6x wall",
    )


def machine() -> str:
    mem = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.strip()
    return (
        f"nproc {os.cpu_count()}, Python {platform.python_version()} ({platform.machine()}), "
        f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n{mem}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="Burraco games for figures 1, 5 and 6 (default 200)")
    ap.add_argument("--gin-hands", type=int, default=300)
    ap.add_argument("--big-store", type=int, default=300_000, help="events in the large store of figure 6")
    ap.add_argument("--full", action="store_true", help="the issue's sizes: 10,000 games, 10,000,000-event store")
    ap.add_argument("--only", default="1,2,3,4,5,6,7,8,9,10,11,12")
    ap.add_argument("--jobs-games", type=int, default=1000, help="Burraco games of figure 9 (default 1,000)")
    ap.add_argument("--verify-events", type=int, default=300_000, help="events of figure 10's store")
    ap.add_argument(
        "--essential-games", type=int, default=300, help="Burraco games of figure 12 (default 300; --full 10,000)"
    )
    ap.add_argument("--pairs", type=int, default=5, help="counted pairs of figures 6, 9, 10 and 12 (default 5)")
    ap.add_argument("--http-events", type=int, default=300, help="events a writer appends in figure 11")
    ap.add_argument("--http-rounds", type=int, default=5, help="rounds of figure 11 (append, no-op, bare)")
    ap.add_argument(
        "--dir", type=Path, default=None, help="work folder (default: a temporary one; the corpus is reused there)"
    )
    ap.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="a folder of Burraco records to use for figures 1, 5 and 6 instead of simulating",
    )
    ap.add_argument(
        "--pg",
        default=None,
        help="figure 1 on PostgreSQL too: postgresql://user@host:port/dbname (fresh schemas, dropped after)",
    )
    ap.add_argument("--no-one-by-one", action="store_true", help="figure 1 without the file-by-file import_record line")
    ap.add_argument("--no-sqlite", action="store_true", help="figure 1 on PostgreSQL only (with --pg)")
    args = ap.parse_args(argv)
    if args.full:
        args.games, args.big_store = max(args.games, 10_000), max(args.big_store, 10_000_000)
        args.essential_games = max(args.essential_games, 10_000)
    only = {s.strip() for s in args.only.split(",")}
    print(machine(), flush=True)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmpname:
        tmp = Path(tmpname)
        folder = (args.dir or tmp) / f"corpus-burraco-{args.games}"
        t = time.perf_counter()
        if args.corpus is not None:
            folder = args.corpus
            paths = sorted(folder.glob("*.jsonl"))[: args.games]
        else:
            paths = corpus(folder, args.games) if only & {"1", "5", "6"} else []
        if paths:
            print(
                f"corpus: {len(paths):,} simulated Burraco games in {folder} ({time.perf_counter() - t:.1f} s)",
                flush=True,
            )
        game = long_game() if only & {"3", "4"} else []
        if "1" in only:
            fig1(paths, tmp, args.pg, not args.no_one_by_one, not args.no_sqlite)
        if "2" in only:
            fig2(tmp, args.gin_hands)
        if "3" in only:
            fig3(tmp, game)
        if "4" in only:
            fig4(tmp, game)
        if "5" in only:
            fig5(tmp, folder)
        if "6" in only:
            fig6(tmp, paths, args.big_store, args.pairs)
        if "7" in only:
            fig7(tmp)
        if "8" in only:
            fig8(tmp)
        if "9" in only:
            jobs_folder = (args.dir or tmp) / f"corpus-burraco-{args.jobs_games}"
            corpus(jobs_folder, args.jobs_games)
            fig9(tmp, jobs_folder, args.jobs_games, args.pairs)
        if "10" in only:
            fig10(tmp, args.verify_events, args.pairs)
        if "12" in only:
            essential_folder = (args.dir or tmp) / f"corpus-burraco-{args.essential_games}"
            corpus(essential_folder, args.essential_games)
            fig12(tmp, essential_folder, args.essential_games, args.pairs)
        if "11" in only:
            fig11(tmp, args.http_events, args.http_rounds)
        if "13" in only:
            fig13(tmp, (args.dir or tmp) / f"corpus-burraco-{args.jobs_games}", args.jobs_games, args.pairs)
    print()
    print("| fig | measure | value | baseline (same run) | ratio / target |")
    print("| --- | --- | --- | --- | --- |")
    for r in ROWS:
        print("| " + " | ".join(r) + " |")
    _ = msgspec, resource
    return 0


if __name__ == "__main__":
    sys.exit(main())
