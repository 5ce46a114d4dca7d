"""The live record service's speed (issue 14), each figure beside the same
work done in-process in the same run:

1. HTTP append latency, one event per request (validated by the fold, stored
   with its journal row), p50/p99, on SQLite and PostgreSQL, through gunicorn
   (one gthread worker, a keep-alive connection) vs ``append_events`` called
   in-process on the same kind of store. Target: p99 ≤ 10 ms on SQLite.
2. Sustained appends per second, 4 writers on 4 games (one keep-alive
   connection each; gunicorn with 8 threads, one worker on SQLite, whose file
   has one writer at a time, two on PostgreSQL) vs 4 threads appending
   in-process. Target: ≥ 0.5× the in-process rate.
3. SSE delivery latency to 200 concurrent readers of one game: the time from
   just before a POST to each reader receiving the event (the readers are
   non-blocking sockets on one selector thread), vs 200 in-process threads
   waiting on the same game's feed (:class:`replay_web.stream.Feed`).
   Target: p99 ≤ 250 ms at 200 readers.
4. HTTP append, 4 writers on 4 games, against a no-op route on the same
   server, workers and client (issue 28, target 4): gunicorn serves
   :func:`noop_app`, the viewer with two routes that exist only here:
   ``POST /bench/noop/<id>/events`` does the HTTP work every append does and
   no more (the bearer token looked up, ``If-Match`` read, the body parsed
   into events, a 201 JSON answer of the append's shape) but neither folds
   nor stores; ``POST /bench/bare`` reads the body and answers 204 (the
   server, Flask and the client alone). The three run in turn, ``--noop-rounds``
   rounds, 4 new games each round; the rate ratio append/no-op is taken
   round by round (median quoted). Targets: ≥ 0.5× the no-op route, p99 of
   the appends ≤ 10 ms.

    .venv/bin/python bench/bench_live.py [--store sqlite|pg|both] [--events 300] [--readers 200] [--rounds 20]
                                         [--only 1,2,3,4] [--noop-rounds 3]

PostgreSQL uses ``POSTGRES_HOST`` etc. (a fresh schema, dropped after).
The games are ``ledger.testing.games.long_ramino`` records (classic Ramino). The
load average is printed: on a shared machine the neighbours are measured too.
Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import http.client
import os
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from ledger.events import encode_event
from ledger.store.application import open_app
from ledger.testing.games import long_ramino
from ledger.testing.live import gunicorn
from ledger.tokens import TokenStore
from replay_web.write import _append

#: gunicorn's access and error log (set by :func:`main`)
LOG: Path | None = None


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


class Client:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, url: str, token: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.auth = f"Bearer {token}"

    def post(self, path: str, body: bytes, position: int) -> int:
        """POST ``body`` with ``If-Match: "position"``; the status (the app's
        ``Server-Timing`` milliseconds in ``app_ms``)."""
        headers = {"Authorization": self.auth, "Content-Type": "application/json", "If-Match": f'"{position}"'}
        try:
            self.conn.request("POST", path, body=body, headers=headers)
            resp = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            self.conn.close()  # the server closed an idle keep-alive connection: one retry on a new one
            self.conn.request("POST", path, body=body, headers=headers)
            resp = self.conn.getresponse()
        resp.read()
        timing = resp.getheader("Server-Timing") or ""
        self.app_ms = float(timing.split("app;dur=")[1].split(",")[0]) if "app;dur=" in timing else float("nan")
        return resp.status


def _store(kind: str, tmp: str) -> tuple[str, Any]:
    """A fresh store: ``(db, cleanup)``."""
    if kind == "sqlite":
        return os.path.join(tmp, f"bench-{uuid.uuid4().hex[:6]}.db"), lambda: None
    import psycopg

    schema = "bench_" + uuid.uuid4().hex[:12]
    env = os.environ
    params = dict(
        host=env.get("POSTGRES_HOST", "127.0.0.1"),
        port=env.get("POSTGRES_PORT", "5432"),
        user=env.get("POSTGRES_USER", "postgres"),
        password=env.get("POSTGRES_PASSWORD") or None,
        dbname=env.get("POSTGRES_DBNAME", "test"),
        autocommit=True,
    )
    with psycopg.connect(**params) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with psycopg.connect(**params) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    auth = params["user"] + (f":{params['password']}" if params["password"] else "")
    return f"postgresql://{auth}@{params['host']}:{params['port']}/{params['dbname']}?schema={schema}", drop


def _lines(game_id: str, n: int, seed: int) -> list[bytes]:
    return [encode_event(e) for e in long_ramino(game_id, min_events=n, seed=seed)[:n]]


# --- 1. latency ---------------------------------------------------------------------


def latency(db: str, events: int) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds per one-event append: (HTTP at the client, the same
    requests inside the app by its ``Server-Timing`` header, in-process)."""
    app = open_app(db)
    token = TokenStore(app).create("bench", "admin")[0]
    from ledger.events import decode_event

    inproc_lines = _lines("inproc-1", events, seed=1)
    evs = [decode_event(x) for x in inproc_lines]
    inproc = []
    for p, e in enumerate(evs):
        t = time.perf_counter()
        _append(app, "inproc-1", [e], p, "bench")
        inproc.append((time.perf_counter() - t) * 1000)
    app.close()
    lines = _lines("http-1", events, seed=1)
    with gunicorn(db, workers=1, threads=4, log=LOG) as url:
        client = Client(url, token)
        assert client.post("/api/games", lines[0], 0) == 201
        over_http, in_app = [], []
        for p in range(1, len(lines)):
            t = time.perf_counter()
            status = client.post("/api/games/http-1/events", lines[p], p)
            over_http.append((time.perf_counter() - t) * 1000)
            in_app.append(client.app_ms)
            assert status == 201, status
    return over_http, in_app, inproc[1:]


# --- 2. throughput -----------------------------------------------------------------------


def throughput(db: str, events: int) -> tuple[float, float]:
    """Events per second, 4 writers on 4 games: (HTTP, in-process)."""
    from ledger.events import decode_event

    app = open_app(db)
    token = TokenStore(app).create("bench", "admin")[0]
    games = {f"t-{i}": _lines(f"t-{i}", events, seed=10 + i) for i in range(4)}
    inproc_games = {f"ti-{i}": [decode_event(x) for x in _lines(f"ti-{i}", events, seed=10 + i)] for i in range(4)}

    def run_inproc(game_id: str) -> None:
        for p, e in enumerate(inproc_games[game_id]):
            _append(app, game_id, [e], p, "bench")

    t = time.perf_counter()
    threads = [threading.Thread(target=run_inproc, args=(g,)) for g in inproc_games]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    inproc_rate = 4 * events / (time.perf_counter() - t)
    app.close()
    # SQLite has one writer at a time: one worker process with threads (two
    # processes would wait on the file lock); PostgreSQL: two workers
    workers = 1 if not db.startswith("postgresql:") else 2
    with gunicorn(db, workers=workers, threads=8, log=LOG) as url:

        def run_http(game_id: str) -> None:
            client = Client(url, token)
            assert client.post("/api/games", games[game_id][0], 0) == 201
            for p in range(1, events):
                assert client.post(f"/api/games/{game_id}/events", games[game_id][p], p) == 201

        t = time.perf_counter()
        threads = [threading.Thread(target=run_http, args=(g,)) for g in games]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        http_rate = 4 * events / (time.perf_counter() - t)
    return http_rate, inproc_rate


# --- 3. SSE fan-out ---------------------------------------------------------------------


def _open_streams(url: str, path: str, n: int) -> list[socket.socket]:
    host, port = url.removeprefix("http://").split(":")
    socks = []
    for _ in range(n):
        s = socket.create_connection((host, int(port)))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        socks.append(s)
    return socks


def sse(db: str, readers: int, rounds: int) -> tuple[list[float], list[float], int]:
    """Milliseconds from just before an append to each reader having it:
    (HTTP SSE, in-process feed waiters), and how many readers were served."""
    app = open_app(db)
    token = TokenStore(app).create("bench", "admin")[0]
    lines = _lines("sse-1", rounds + 2, seed=3)
    env = {"RUMMY_LEDGER_STREAM_MAX": str(readers + 10), "RUMMY_LEDGER_SPECTATOR_DELAY": "0"}
    over_http: list[float] = []
    served = 0
    # every worker can hold all the streams (gunicorn does not spread them
    # evenly) and keeps 20 threads for the POSTs: STREAM_MAX < threads
    workers = 1 if not db.startswith("postgresql:") else 2
    with gunicorn(db, workers=workers, threads=readers + 30, env=env, log=LOG) as url:
        client = Client(url, token)
        assert client.post("/api/games", lines[0], 0) == 201
        socks = _open_streams(url, "/api/games/sse-1/events", readers)
        sel = selectors.DefaultSelector()
        buffers = {}
        for s in socks:
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
            buffers[s] = b""

        def wait_all(marker: bytes, timeout: float = 30) -> dict[socket.socket, float]:
            got: dict[socket.socket, float] = {}
            deadline = time.monotonic() + timeout
            while len(got) < len(socks) and time.monotonic() < deadline:
                for key, _ in sel.select(timeout=0.5):
                    s = key.fileobj
                    try:
                        chunk = s.recv(65536)  # type: ignore[union-attr]
                    except BlockingIOError:
                        continue
                    now = time.monotonic()
                    buffers[s] += chunk
                    if s not in got and marker in buffers[s]:
                        got[s] = now
                        buffers[s] = buffers[s][buffers[s].index(marker) :]
            return got

        served = len(wait_all(b"\nid: 0\n"))
        for p in range(1, rounds + 1):
            t = time.monotonic()
            assert client.post("/api/games/sse-1/events", lines[p], p) == 201
            got = wait_all(f"\nid: {p}\n".encode())
            over_http.extend((v - t) * 1000 for v in got.values())
            time.sleep(0.05)
        for s in socks:
            s.close()
    # in-process: the same feed, readers as threads waiting on it
    from ledger.events import decode_event
    from replay_web.stream import Hub

    app = open_app(db)
    hub = Hub(app, poll=0.05)
    ilines = _lines("sse-in", rounds + 2, seed=3)
    _append(app, "sse-in", [decode_event(ilines[0])], 0, "bench")
    feed = hub.open("sse-in")
    inproc: list[float] = []
    lock = threading.Lock()
    start_at: dict[int, float] = {}
    ready = threading.Barrier(readers + 1)

    def reader() -> None:
        ready.wait()
        seen = 1
        while seen < rounds + 1:
            with feed.cond:
                feed.cond.wait_for(lambda seen=seen: len(feed.items) > seen, timeout=10)
                n = len(feed.items)
            now = time.monotonic()
            with lock:
                for p in range(seen, n):
                    inproc.append((now - start_at[p]) * 1000)
            seen = n

    threads = [threading.Thread(target=reader) for _ in range(readers)]
    for th in threads:
        th.start()
    ready.wait()
    for p in range(1, rounds + 1):
        start_at[p] = time.monotonic()
        _append(app, "sse-in", [decode_event(ilines[p])], p, "bench")
        hub.poke("sse-in")
        time.sleep(0.05)
    for th in threads:
        th.join(30)
    hub.stop()
    app.close()
    return over_http, inproc, served


# --- 4. against a no-op route (issue 28) --------------------------------------------------


def noop_app() -> Any:
    """The viewer gunicorn serves (``replay_web.create_app()``), with the two
    baseline routes of figure 4 that exist only in this benchmark."""
    from flask import Response, jsonify, request

    from replay_web import access, create_app
    from replay_web.desk import csrf
    from replay_web.write import _events_from_body, _expected

    app = create_app()

    def noop(game_id: str) -> Response:
        """What an append does before the fold and the store, and its answer's shape."""
        access.writer()
        expected = _expected()
        events, _ = _events_from_body()
        length = expected + len(events)
        response = jsonify(
            {
                "game_id": game_id,
                "first": expected,
                "length": length,
                "positions": list(range(expected, length)),
                "findings": [],
                "hand_over": False,
                "game_over": False,
            }
        )
        response.status_code = 201
        response.headers["Location"] = f"/api/games/{game_id}/events?after={expected - 1}"
        response.headers["ETag"] = f'"{length}"'
        return response

    def bare() -> Response:
        request.get_data(cache=False)
        return Response(status=204)

    # bearer-token routes, exempt from the desk's CSRF check as the write API is
    app.add_url_rule("/bench/noop/<game_id>/events", "bench_noop", csrf.exempt(noop), methods=["POST"])
    app.add_url_rule("/bench/bare", "bench_bare", csrf.exempt(bare), methods=["POST"])
    return app


def _writers(url: str, token: str, kind: str, games: dict[str, list[bytes]]) -> tuple[float, list[float]]:
    """One writer thread a game, one keep-alive connection each, one event a
    request after the first (``kind``: ``append`` creates the game first and
    appends; ``noop`` and ``bare`` post the same bodies to the bench's
    routes): ``(requests/s from the moment all are ready, milliseconds a request)``."""
    path_of, want = {
        "append": ("/api/games/{}/events", 201),
        "noop": ("/bench/noop/{}/events", 201),
        "bare": ("/bench/bare", 204),
    }[kind]
    ready = threading.Barrier(len(games) + 1)
    lat: list[float] = []
    failed: list[BaseException] = []

    def writer(game_id: str, lines: list[bytes]) -> None:
        try:
            client = Client(url, token)
            if kind == "append":
                assert client.post("/api/games", lines[0], 0) == 201
            path = path_of.format(game_id)
            mine: list[float] = []
            ready.wait()
            for p in range(1, len(lines)):
                t = time.perf_counter()
                status = client.post(path, lines[p], p)
                mine.append((time.perf_counter() - t) * 1000)
                assert status == want, (kind, status)
            lat.extend(mine)
        except BaseException as exc:
            failed.append(exc)
            ready.abort()

    threads = [threading.Thread(target=writer, args=item) for item in games.items()]
    for th in threads:
        th.start()
    try:
        ready.wait()
    except threading.BrokenBarrierError:
        pass
    t = time.perf_counter()
    for th in threads:
        th.join()
    if failed:
        raise RuntimeError(f"figure 4, {kind}: a writer failed: {failed[0]!r}")
    return sum(len(lines) - 1 for lines in games.values()) / (time.perf_counter() - t), lat


def against_noop(db: str, events: int, rounds: int) -> dict[str, Any]:
    """4 writers on 4 games (:func:`_writers`) on one gunicorn serving
    :func:`noop_app` (one gthread worker of 8 threads on SQLite, two on
    PostgreSQL): appends, the no-op route, the bare route, in turn, ``rounds``
    times, 4 new games a round. ``{kind: [requests/s a round]}``, each kind's
    milliseconds a request in ``"<kind>_ms"``, and the per-round ratios in
    ``"ratio"`` (append/no-op) and ``"ratio_bare"`` (append/bare)."""
    app = open_app(db)
    token = TokenStore(app).create("bench", "admin")[0]
    app.close()
    workers = 1 if not db.startswith("postgresql:") else 2
    here = str(Path(__file__).resolve().parent)
    pythonpath = os.pathsep.join(x for x in (here, os.environ.get("PYTHONPATH", "")) if x)
    out: dict[str, Any] = {"ratio": [], "ratio_bare": []}
    for kind in ("append", "noop", "bare"):
        out[kind], out[f"{kind}_ms"] = [], []
    with gunicorn(
        db, workers=workers, threads=8, log=LOG, app="bench_live:noop_app()", env={"PYTHONPATH": pythonpath}
    ) as url:
        for r in range(rounds):
            games = {f"n{r}-{i}": _lines(f"n{r}-{i}", events, seed=40 + i) for i in range(4)}
            for kind in ("append", "noop", "bare"):
                rate, ms = _writers(url, token, kind, games)
                out[kind].append(rate)
                out[f"{kind}_ms"].extend(ms)
            out["ratio"].append(out["append"][-1] / out["noop"][-1])
            out["ratio_bare"].append(out["append"][-1] / out["bare"][-1])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", choices=("sqlite", "pg", "both"), default="both")
    ap.add_argument("--events", type=int, default=300, help="events appended per game (figures 1, 2)")
    ap.add_argument("--readers", type=int, default=200, help="SSE readers of one game (figure 3)")
    ap.add_argument("--rounds", type=int, default=20, help="events sent to the SSE readers (figure 3)")
    ap.add_argument("--only", default="1,2,3,4", help="figures to run, e.g. 1,3")
    ap.add_argument("--noop-rounds", type=int, default=3, help="rounds of figure 4 (append, no-op, bare in turn)")
    args = ap.parse_args(argv)
    stores = ["sqlite", "pg"] if args.store == "both" else [args.store]
    only = {int(x) for x in args.only.split(",")}
    missed = False
    print(f"# bench_live: {os.cpu_count()} CPUs, {load()}")
    global LOG
    with tempfile.TemporaryDirectory() as tmp:
        LOG = Path(tmp) / "gunicorn.log"
        for kind in stores:
            if 1 in only:
                db, drop = _store(kind, tmp)
                try:
                    h, a, i = latency(db, args.events)
                finally:
                    drop()
                ok = kind != "sqlite" or pct(h, 0.99) <= 10
                missed |= not ok
                print(
                    f"1 {kind}: HTTP append one event: p50 {statistics.median(h):.2f} ms, p99 {pct(h, 0.99):.2f} ms"
                    f" (inside the app p50 {statistics.median(a):.2f} ms, p99 {pct(a, 0.99):.2f} ms)"
                    f" | in-process p50 {statistics.median(i):.2f} ms, p99 {pct(i, 0.99):.2f} ms"
                    f" | ratio p50 {statistics.median(h) / statistics.median(i):.2f}x"
                    + (f" | target p99 <= 10 ms: {'met' if ok else 'MISSED'}" if kind == "sqlite" else "")
                    + f" ({load()})"
                )
            if 2 in only:
                db, drop = _store(kind, tmp)
                try:
                    h_rate, i_rate = throughput(db, args.events)
                finally:
                    drop()
                ok = h_rate >= 0.5 * i_rate
                missed |= not ok
                print(
                    f"2 {kind}: 4 writers on 4 games: HTTP {h_rate:.0f} ev/s | in-process {i_rate:.0f} ev/s"
                    f" | ratio {h_rate / i_rate:.2f}x (target >= 0.5x: {'met' if ok else 'MISSED'}) ({load()})"
                )
            if 3 in only:
                db, drop = _store(kind, tmp)
                try:
                    h, i, served = sse(db, args.readers, args.rounds)
                finally:
                    drop()
                ok = bool(h) and served == args.readers and pct(h, 0.99) <= 250
                missed |= not ok
                print(
                    f"3 {kind}: SSE to {served}/{args.readers} readers, {args.rounds} events: p50 "
                    f"{statistics.median(h):.1f} ms,"
                    f" p99 {pct(h, 0.99):.1f} ms | in-process feed p50 {statistics.median(i):.1f} ms, p99 "
                    f"{pct(i, 0.99):.1f} ms"
                    f" (target p99 <= 250 ms: {'met' if ok else 'MISSED'}) ({load()})"
                )
            if 4 in only:
                db, drop = _store(kind, tmp)
                try:
                    got = against_noop(db, args.events, args.noop_rounds)
                finally:
                    drop()
                ratio, p99 = statistics.median(got["ratio"]), pct(got["append_ms"], 0.99)
                ok = ratio >= 0.5 and (kind != "sqlite" or p99 <= 10)
                missed |= not ok
                print(
                    f"4 {kind}: 4 writers on 4 games: HTTP append {statistics.median(got['append']):.0f} ev/s"
                    f" (p50 {statistics.median(got['append_ms']):.2f} ms, p99 {p99:.2f} ms)"
                    f" | no-op route {statistics.median(got['noop']):.0f} req/s"
                    f" (p99 {pct(got['noop_ms'], 0.99):.2f} ms)"
                    f" | bare route {statistics.median(got['bare']):.0f} req/s"
                    f" (p99 {pct(got['bare_ms'], 0.99):.2f} ms)"
                    f" | ratio {ratio:.2f}x of no-op (rounds {', '.join(f'{x:.2f}' for x in got['ratio'])}),"
                    f" {statistics.median(got['ratio_bare']):.2f}x of bare"
                    f" (target >= 0.5x{', p99 <= 10 ms' if kind == 'sqlite' else ''}: {'met' if ok else 'MISSED'})"
                    f" ({load()})"
                )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
