"""Long games are cheap to read (issue 27, defect 4): the game page, a state
and the games list of a 100,000-event game against the same of a 1,000-event
game, measured in the same run.

    .venv/bin/python bench/bench_long_game.py [--small 1000] [--large 100000] [--requests 20] [--dir DIR]

Each game (``ledger.testing.games.long_ramino``, classic Ramino, many hands)
is imported into its own SQLite store beside a second short game, and the
viewer (``replay_web.create_app``, Flask's test client, in this process) is
asked, after one request that replays the game into the per-process cache
(reported apart, as ``first``), ``--requests`` times for ``/games/<id>`` (the
page at the last position), ``/api/games/<id>/state?at=10`` and ``/games``
(the list). Each figure is the median wall time of its requests; the ratio
is large / small. Targets: each ratio ≤ 5x, the large page ≤ 2 MB, and
the server's resident memory after reading the large game ≤ 300 MB.

The viewer of each game runs in a fresh interpreter of its own (this
script with ``--serve DB GAME REQUESTS``), so its memory is the server's
alone: the resident set (``VmRSS`` of ``/proc/self/status``) after the
requests, and its peak (``VmHWM``), are the server's after reading that
game (imports, the replayed game in the cache, the pages made).
After one append (``--only live``, or both by default): the long game
unfinished (no ``game_ended``), and for a page, a state, a spectator's
403 (``?pov=0``), ``/api/games`` and the SSE stream's first byte, the
median of ``--live-requests`` requests each made just after one event is
appended by a writer process (as another worker): what the first reader of each new version pays
(issue 27). Target: each ≤ 5x the same of the unfinished 1,000-event game.

Prints Markdown rows and ``uptime``'s load; exit status 1 when a target is
missed. ``run_all.py --only 7`` runs it as figure 7.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from ledger.events import Event, HandDealt
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.store.application import open_app
from ledger.testing.games import long_ramino
from replay_web import create_app

URLS = {"page": "/games/{id}", "state": "/api/games/{id}/state?at=10", "games list": "/games"}
#: the requests measured after one append to the unfinished game (an anonymous reader each: a spectator)
LIVE_URLS = {
    "page": "/games/{id}",
    "state": "/api/games/{id}/state",
    "403 (?pov=0)": "/api/games/{id}/state?pov=0",
    "games list (/api/games)": "/api/games",
    "SSE first byte": "/api/games/{id}/events",
}


def store(folder: Path, events: int) -> tuple[str, str]:
    """A SQLite store of one ``events``-event game and a 200-event one: ``(db, game id)``."""
    db = str(folder / f"long-{events}.db")
    game_id = f"long-{events}"
    app = open_app(db)
    app.import_record(read_record(encode_record(long_ramino(game_id, min_events=events, seed=3))))
    app.import_record(read_record(encode_record(long_ramino("short", min_events=200, seed=4))))
    app.close()
    return db, game_id


def live_store(folder: Path, events: int) -> tuple[str, str]:
    """As :func:`store`, but the long game unfinished: without its
    ``game_ended`` (it ends with a ``hand_ended``), so that it can be
    appended to (:func:`next_events`)."""
    db = str(folder / f"live-{events}.db")
    game_id = f"live-{events}"
    app = open_app(db)
    app.import_record(read_record(encode_record(long_ramino(game_id, min_events=events, seed=3)[:-1])))
    app.import_record(read_record(encode_record(long_ramino("short", min_events=200, seed=4))))
    app.close()
    return db, game_id


def next_events(hands: int) -> Iterator[Event]:
    """Events that go on an unfinished ``long_ramino`` game of ``hands``
    hands: those of another such game after its ``game_started``, its hands
    numbered on from ``hands + 1``."""
    for event in long_ramino("more", min_events=20_000, seed=9)[1:-1]:
        yield msgspec.structs.replace(event, hand=event.hand + hands) if isinstance(event, HandDealt) else event


def first_byte(client: Any, path: str) -> tuple[int, int]:
    """``(status, bytes)`` of the first chunk of a streamed answer (the SSE stream), closed after it."""
    resp = client.get(path, buffered=False)
    try:
        chunk = next(iter(resp.response), b"")
    finally:
        resp.close()
    return resp.status_code, len(chunk)


def measure_live(db: str, game_id: str, requests: int) -> dict[str, tuple[float, float, int]]:
    """Per URL of :data:`LIVE_URLS`: ``(the first request s, the median s of
    ``requests`` requests each made just after one event is appended,
    answer bytes)``. The appends come from a writer process of their own
    (:func:`write_events`: the viewer learns of them from the store, as
    from another worker; its memory is not the server's); one append and a request of each URL come
    first, unmeasured, so the viewer holds an older version of the game.
    No spectator delay (the game was imported a moment ago: with one, a
    spectator would see its first event only), so the anonymous reader
    sees the whole game, up to the event just appended."""
    client = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0}).test_client()  # a spectator sees it all
    writer = subprocess.Popen(
        [sys.executable, __file__, "--writer", db, game_id], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    to_writer, from_writer = writer.stdin, writer.stdout
    assert to_writer is not None and from_writer is not None

    def append() -> None:
        to_writer.write("append\n")
        to_writer.flush()
        assert from_writer.readline() == "ok\n"

    out = {}
    append()  # the writer's own first fold, not measured
    for name, url in LIVE_URLS.items():
        path = url.format(id=game_id)
        expect = 403 if "pov=0" in path else 200
        sse = path.endswith("/events")
        t = time.perf_counter()
        status, size = first_byte(client, path) if sse else (lambda r: (r.status_code, len(r.data)))(client.get(path))
        first_s = time.perf_counter() - t
        assert status == expect, (path, status)
        times = []
        for _ in range(requests):
            append()
            t = time.perf_counter()
            if sse:
                status, size = first_byte(client, path)
            else:
                resp = client.get(path)
                status, size = resp.status_code, len(resp.data)
            times.append(time.perf_counter() - t)
            assert status == expect, (path, status)
        out[name] = (first_s, statistics.median(times), size)
    memory = memory_status()
    out["rss"] = (0.0, float(memory["VmRSS"]), memory["VmHWM"])
    to_writer.close()
    writer.wait()
    return out


def write_events(db: str, game_id: str) -> None:
    """The writer of :func:`measure_live`, in a process of its own (as
    another worker): one event of :func:`next_events` appended per line
    read on standard input, ``ok`` printed after each."""
    writer = open_app(db)
    length = writer.game_length(game_id)
    more = next_events(sum(1 for e in writer.get_events(game_id) if isinstance(e, HandDealt)))
    for _line in sys.stdin:
        writer.append_events(game_id, [next(more)], expected=length, appended_by="bench")
        length += 1
        print("ok", flush=True)
    writer.close()


#: the server's resident memory after reading the large game, at most (bytes)
RSS_TARGET = 300 * 1024 * 1024


def measure(db: str, game_id: str, requests: int) -> dict[str, tuple[float, float, int]]:
    """Per URL of :data:`URLS`: ``(first request s, median s, answer bytes)``;
    then ``"rss"``: ``(0, resident bytes after the requests, peak resident bytes)``
    of this process (meant to be a fresh one: :func:`served`)."""
    client = create_app({"LEDGER_DB": db}).test_client()
    out = {}
    for name, url in URLS.items():
        path = url.format(id=game_id)
        t = time.perf_counter()
        first = client.get(path)
        first_s = time.perf_counter() - t
        assert first.status_code == 200, (path, first.status_code)
        times = []
        for _ in range(requests):
            t = time.perf_counter()
            resp = client.get(path)
            times.append(time.perf_counter() - t)
        out[name] = (first_s, statistics.median(times), len(resp.data))
    memory = memory_status()
    out["rss"] = (0.0, float(memory["VmRSS"]), memory["VmHWM"])
    return out


def memory_status() -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of this process, in bytes (Linux ``/proc``)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) * 1024
    return fields


def served(db: str, game_id: str, requests: int, mode: str = "--serve") -> dict[str, tuple[float, float, int]]:
    """:func:`measure` in a fresh interpreter (this script, ``--serve``;
    ``--serve-live``: :func:`measure_live`)."""
    out = subprocess.run(
        [sys.executable, __file__, mode, db, game_id, str(requests)], check=True, capture_output=True, text=True
    ).stdout
    return {k: (v[0], v[1], int(v[2])) for k, v in json.loads(out).items()}


def run_live(small: int, large: int, requests: int, folder: Path) -> list[tuple[str, str, str, str, bool]]:
    """The rows of the measures after one append (:func:`measure_live`):
    ``(measure, large, small, ratio text, target met)``, target ≤ 5x the
    small unfinished game's same measure, and the server's RSS."""
    figures = {n: served(*live_store(folder, n), requests, "--serve-live") for n in (small, large)}
    rows = []
    for name in LIVE_URLS:
        f_small, f_large = figures[small][name], figures[large][name]
        ratio = f_large[1] / f_small[1]
        rows.append(
            (
                name,
                f"{f_large[1] * 1000:.1f} ms, {f_large[2] / 1000:,.1f} kB (first {f_large[0]:.2f} s)",
                f"{f_small[1] * 1000:.1f} ms, {f_small[2] / 1000:,.1f} kB (first {f_small[0]:.2f} s)",
                f"{ratio:.1f}x (target ≤5x)",
                ratio <= 5,
            )
        )
    rows.append(_rss_row(figures[small]["rss"], figures[large]["rss"]))
    return rows


def _rss_row(r_small: Any, r_large: Any) -> tuple[str, str, str, str, bool]:
    """The row of the server's resident memory after reading the large game (``(…, now, peak)`` bytes each)."""
    mib = 1024 * 1024
    return (
        "server RSS after reading it",
        f"{r_large[1] / mib:,.0f} MiB (peak {r_large[2] / mib:,.0f} MiB)",
        f"{r_small[1] / mib:,.0f} MiB (peak {r_small[2] / mib:,.0f} MiB)",
        f"{r_large[1] / r_small[1]:.1f}x (target ≤300 MiB)",
        r_large[1] <= RSS_TARGET,
    )


def run(small: int, large: int, requests: int, folder: Path) -> list[tuple[str, str, str, str, bool]]:
    """The rows ``(measure, large, small, ratio text, target met)``."""
    figures = {n: served(*store(folder, n), requests) for n in (small, large)}
    rows = []
    for name in URLS:
        f_small, f_large = figures[small][name], figures[large][name]
        ratio = f_large[1] / f_small[1]
        ok = ratio <= 5 and (name != "page" or f_large[2] <= 2_000_000)
        rows.append(
            (
                name,
                f"{f_large[1] * 1000:.1f} ms, {f_large[2] / 1000:,.0f} kB (first {f_large[0]:.2f} s)",
                f"{f_small[1] * 1000:.1f} ms, {f_small[2] / 1000:,.0f} kB (first {f_small[0]:.2f} s)",
                f"{ratio:.1f}x (target ≤5x{', page ≤2 MB' if name == 'page' else ''})",
                ok,
            )
        )
    rows.append(_rss_row(figures[small]["rss"], figures[large]["rss"]))
    return rows


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--writer"]:  # measure_live's writer
        write_events(*argv[1:])
        return 0
    if argv[:1] in (["--serve"], ["--serve-live"]):  # the viewer's own process (served)
        db, game_id, requests = argv[1:]
        how = measure if argv[0] == "--serve" else measure_live
        print(json.dumps(how(db, game_id, int(requests))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=100_000)
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--live-requests", type=int, default=5, help="appends (one request after each) per measure")
    ap.add_argument("--only", choices=("read", "live"), default=None, help="only the reads, or only after appends")
    ap.add_argument("--dir", type=Path, default=None)
    args = ap.parse_args(argv)
    tables = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if args.only != "live":
            tables.append(("", run(args.small, args.large, args.requests, Path(tmp))))
        if args.only != "read":
            tables.append(
                (
                    "after one append to the unfinished game (anonymous reader)",
                    run_live(args.small, args.large, args.live_requests, Path(tmp)),
                )
            )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    rows = []
    for title, part in tables:
        if title:
            print(f"\n{title}:\n")
        print(f"| measure | {args.large:,} events | {args.small:,} events | ratio |")
        print("| --- | --- | --- | --- |")
        for name, big, little, ratio, _ok in part:
            print(f"| {name} | {big} | {little} | {ratio} |")
        rows += part
    ok = all(r[4] for r in rows)
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
