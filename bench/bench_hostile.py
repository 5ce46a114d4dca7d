"""Cost of records with many findings (issue 13): peak memory and CPU time of
``import`` and of ``audit`` for classic-Ramino records of 10k, 40k and 100k
events in which one seat draws and discards every turn (about one
``ALL-TURN-1`` finding per two events).

    .venv/bin/python bench/bench_hostile.py [--sizes 10000,40000,100000] [--dir DIR]

Each measure is one child process (the real CLI, ``rummy-ledger --db ...``):
peak RSS and user + system CPU time come from ``os.wait4`` for exactly that
child. ``import`` includes the analytics update that follows it, as the
command does by default. Printed: one Markdown row per size, then the ratio
of the largest to the smallest size against the linear bound (the 100k
figure at most 12 times the 10k one).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ledger.testing.games import turn_spam

CLI = [sys.executable, "-c", "from ledger.cli import main; main()"]


def measure(args: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """``(peak RSS MiB, CPU s, exit status, first line of stdout)`` of ``rummy-ledger ARGS``."""
    out = cwd / "stdout.txt"
    with open(out, "wb") as fh:
        proc = subprocess.Popen(CLI + args, cwd=cwd, stdout=fh, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    first = out.read_text().split("\n", 1)[0]
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, proc.returncode, first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,40000,100000", help="record sizes in events, comma-separated")
    parser.add_argument("--dir", type=Path, default=None, help="work folder (default: a temporary one)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    work = args.dir or Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    work.mkdir(parents=True, exist_ok=True)
    print("| events | findings | import: peak RSS | import: CPU | audit: peak RSS | audit: CPU |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for n in sizes:
        folder = work / f"n{n}"
        folder.mkdir(exist_ok=True)
        for stale in folder.glob("l.*"):
            stale.unlink()
        (folder / "r.jsonl").write_bytes(turn_spam(n, game_id=f"spam-{n}"))
        imp = measure(["--db", "l.db", "import", "r.jsonl"], folder)
        aud = measure(["--db", "l.db", "audit", f"spam-{n}"], folder)
        if imp[2] != 0 or aud[2] != 1:  # audit: exit 1 = findings
            print(f"unexpected exit status: import {imp[2]}, audit {aud[2]}", file=sys.stderr)
            return 2
        findings = int(aud[3].rsplit(": ", 1)[1].split()[0])  # "spam-N: K findings"
        rows.append((n, imp, aud))
        print(f"| {n:,} | {findings:,} | {imp[0]:.0f} MiB | {imp[1]:.1f} s | {aud[0]:.0f} MiB | {aud[1]:.1f} s |")
    if len(rows) > 1:
        (n0, i0, a0), (n1, i1, a1) = rows[0], rows[-1]
        bound = 1.2 * n1 / n0
        print()
        print(
            f"{n1:,} vs {n0:,} events ({n1 / n0:.0f}x): import RSS {i1[0] / i0[0]:.1f}x, CPU {i1[1] / i0[1]:.1f}x; "
            f"audit RSS {a1[0] / a0[0]:.1f}x, CPU {a1[1] / a0[1]:.1f}x (linear bound {bound:.0f}x)"
        )
        worst = max(i1[0] / i0[0], i1[1] / i0[1], a1[0] / a0[0], a1[1] / a0[1])
        print("linear: " + ("met" if worst <= bound else "MISSED"))
        return 0 if worst <= bound else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
