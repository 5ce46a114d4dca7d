"""Measuring a child process: its own peak RSS and CPU time (never wall time).

``os.wait4`` gives the resource usage of exactly that child, so other
children of the test process do not count. The child is started by a small
launcher process (:data:`_LAUNCHER`), not by the test process itself: Linux
carries a process's peak RSS across ``exec``, so a child forked straight from
a pytest worker that had grown to 460 MiB reported 460 MiB whatever it did."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from ledger.cli import main; main()"]

#: run argv[2:] to the end from this small process; write its exit code,
#: peak RSS (KiB) and CPU seconds to the file argv[1]
_LAUNCHER = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as fh:
    fh.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}")
"""


class Child:
    """``returncode``, ``stdout``, ``stderr`` (text), ``rss_mb`` (peak RSS,
    MiB) and ``cpu_s`` (user + system CPU seconds) of one finished child."""

    def __init__(self, returncode: int, stdout: str, stderr: str, rss_mb: float, cpu_s: float) -> None:
        self.returncode, self.stdout, self.stderr, self.rss_mb, self.cpu_s = returncode, stdout, stderr, rss_mb, cpu_s

    def __repr__(self) -> str:
        return f"Child(rc={self.returncode}, rss={self.rss_mb:.0f} MiB, cpu={self.cpu_s:.1f} s)"


def run_child(args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Child:
    """Run ``args`` to the end; stdout/stderr go through files (no pipe deadlock)."""
    out_path = Path(cwd or ".") / f".child-{os.getpid()}.out"
    err_path = out_path.with_suffix(".err")
    usage_path = out_path.with_suffix(".usage")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        subprocess.run(
            [sys.executable, "-c", _LAUNCHER, str(usage_path.resolve()), *args],
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
            stdout=out,
            stderr=err,
            check=True,
        )
    code, rss_kib, cpu = usage_path.read_text().split()
    stdout, stderr = out_path.read_text(), err_path.read_text()
    for path in (out_path, err_path, usage_path):
        path.unlink()
    return Child(int(code), stdout, stderr, int(rss_kib) / 1024, float(cpu))


def rummy(*args: str, cwd: Path) -> Child:
    """``rummy-ledger ARGS`` in a child process."""
    return run_child(CLI + list(args), cwd=cwd)
