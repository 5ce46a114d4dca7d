"""Measuring a child process: its own peak RSS and CPU time (never wall time).

``os.wait4`` gives the resource usage of exactly that child, so other
children of the test process do not count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from ledger.cli import main; main()"]


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
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(
            args, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    stdout, stderr = out_path.read_text(), err_path.read_text()
    out_path.unlink()
    err_path.unlink()
    return Child(proc.returncode, stdout, stderr, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


def rummy(*args: str, cwd: Path) -> Child:
    """``rummy-ledger ARGS`` in a child process."""
    return run_child(CLI + list(args), cwd=cwd)
