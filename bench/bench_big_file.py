"""One record file of one very long game (issue 17): peak RSS, time and
events/s of ``rummy-ledger import FILE`` for single games of 50 MB, 200 MB
and 1 GB, so that any growth with the file's size shows.

    nice -n 5 .venv/bin/python bench/bench_big_file.py [--sizes 50,200,1000] [--dir DIR] [--analytics] [--keep]

The record is :func:`ledger.synthetic.long_game_lines` (a legal two-player
classic-Ramino game, hands of 2,000 turns with the stock restocked; written
line by line, never held). Each import is one child process of the real CLI
(``rummy-ledger --db l.db import FILE --no-analytics``, or with the analytics
update that follows it when ``--analytics``) into a new SQLite store; peak
RSS and user + system CPU time come from ``os.wait4`` for exactly that
child, wall time from the parent. The record and the store are deleted
after each size unless ``--keep``. Printed: one Markdown row per size, then
the ratios of the largest to the smallest size (RSS flat, CPU per event flat).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ledger.synthetic import long_game_lines

CLI = [sys.executable, "-c", "from ledger.cli import main; main()"]


def write_game(path: Path, megabytes: float) -> tuple[int, int]:
    """Write one long game of about ``megabytes`` MB to ``path``; ``(bytes, events)``."""
    size = events = 0
    with open(path, "wb", buffering=1 << 20) as fh:
        for line in long_game_lines(path.stem, target_bytes=int(megabytes * 1e6)):
            fh.write(line)
            size += len(line)
            events += 1
    return size, events


def measure(args: list[str], cwd: Path) -> tuple[float, float, float, int, str]:
    """``(peak RSS MiB, CPU s, wall s, exit status, stderr)`` of ``rummy-ledger ARGS``."""
    err = cwd / "stderr.txt"
    start = time.perf_counter()
    with open(err, "wb") as fh:
        proc = subprocess.Popen(CLI + args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=fh)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, wall, code, err.read_text()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="50,200,1000", help="file sizes in MB, comma-separated")
    parser.add_argument("--dir", type=Path, default=None, help="work folder (default: a temporary one)")
    parser.add_argument("--analytics", action="store_true", help="include the analytics update after the import")
    parser.add_argument("--keep", action="store_true", help="keep the records and stores")
    args = parser.parse_args(argv)
    sizes = [float(s) for s in args.sizes.split(",")]
    work = args.dir or Path(tempfile.mkdtemp(prefix="bench-big-file-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"free disk in {work}: {shutil.disk_usage(work).free / 1e9:.1f} GB", file=sys.stderr)
    print("| file | events | import: peak RSS | CPU | wall | events/s (wall) | CPU per 1M events |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for mb in sizes:
        folder = work / f"mb{mb:g}"
        folder.mkdir(exist_ok=True)
        for stale in folder.glob("l.*"):
            stale.unlink()
        record = folder / f"long-{mb:g}.jsonl"
        size, events = write_game(record, mb)
        flags = [] if args.analytics else ["--no-analytics"]
        rss, cpu, wall, code, err = measure(["--db", "l.db", "import", record.name, *flags], folder)
        if not args.keep:
            shutil.rmtree(folder)
        if code != 0:
            print(f"import exited {code}: {err[-2000:]}", file=sys.stderr)
            return 2
        rows.append((events, rss, cpu))
        print(
            f"| {size / 1e6:,.1f} MB | {events:,} | {rss:,.0f} MiB | {cpu:,.1f} s | {wall:,.1f} s "
            f"| {events / wall:,.0f} | {cpu / events * 1e6:.1f} s |",
            flush=True,
        )
    if len(rows) > 1:
        (n0, r0, c0), (n1, r1, c1) = rows[0], rows[-1]
        print()
        print(
            f"{n1:,} vs {n0:,} events ({n1 / n0:.1f}x): peak RSS {r1 / r0:.2f}x, "
            f"CPU {c1 / c0:.2f}x (CPU per event {c1 / n1 / (c0 / n0):.2f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
