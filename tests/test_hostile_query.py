"""``rummy-ledger query`` on hostile valid SQL stops within its limits, under 1 GB (issue 27, defect 2).

Each statement is run by the real CLI in a child process, whose peak
resident memory is read from ``os.wait4`` (that child's own rusage). Before
the fix the first peaked at 10.2 GB under ``--timeout 30``, the second ran
11 minutes under ``--timeout 20`` and a 10 MB cell took 11.9 s to print
under ``--timeout 5``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ledger.cli.query import GRACE

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
GB = 1024**3


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of one game with its analytics view built."""
    path = tmp_path_factory.mktemp("query") / "ledger.db"
    for args in (["import", str(DISPUTE)], ["analytics", "update"]):
        subprocess.run([sys.executable, "-m", "ledger.cli", "--db", str(path), *args], check=True, capture_output=True)
    return path


def _query(db: Path, tmp: Path, *args: str) -> tuple[int, str, str, float, int]:
    """``(exit status, stdout, stderr, seconds, peak RSS in bytes)`` of ``rummy-ledger query --no-update ARGS``."""
    out, err = tmp / "out", tmp / "err"
    env = {k: v for k, v in os.environ.items() if k not in ("RUMMY_LEDGER_DB", "PERSISTENCE_MODULE")}
    with out.open("wb") as o, err.open("wb") as e:
        start = time.monotonic()
        child = subprocess.Popen(
            [sys.executable, "-m", "ledger.cli", "--db", str(db), "query", "--no-update", *args],
            stdout=o,
            stderr=e,
            env=env,
        )
        _pid, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # (waited here: Popen must not wait again)
    return (
        child.returncode,
        out.read_text(encoding="utf-8"),
        err.read_text(encoding="utf-8"),
        seconds,
        usage.ru_maxrss * 1024,
    )


def test_a_huge_aggregate_stops_at_the_memory_limit(db: Path, tmp_path: Path) -> None:
    code, out, err, seconds, rss = _query(
        db, tmp_path, "--timeout", "30", "SELECT length(string_agg(repeat('x',1000),'')) FROM range(3000000)"
    )
    assert (code, out) == (2, "")
    assert err.startswith("Error: query stopped: it needs more memory than --memory-limit allows (Out of Memory ")
    assert seconds < 30 and rss < GB, (seconds, rss)


def test_a_string_built_outside_duckdbs_buffers_stops_too(db: Path, tmp_path: Path) -> None:
    """``repeat`` builds its 1 GB string outside DuckDB's buffer manager
    (2 GB peak under a 256 MB ``memory_limit``) and cannot be interrupted:
    the process's data cap stops it."""
    code, out, err, seconds, rss = _query(
        db, tmp_path, "--timeout", "20", "SELECT max(s) FROM (SELECT repeat('ab',500000000) s)"
    )
    assert (code, out) == (2, "")
    assert err.startswith("Error: query stopped: it needs more memory than --memory-limit allows (")
    assert seconds < 20 and rss < GB, (seconds, rss)


def test_a_10_mb_cell_prints_cut_within_the_timeout(db: Path, tmp_path: Path) -> None:
    code, out, err, seconds, rss = _query(db, tmp_path, "--timeout", "5", "SELECT repeat('x', 10000000) AS big, 7 AS n")
    assert (code, err) == (0, "")
    assert "x" * 100 in out and "… (9999000 more characters)" in out and out.endswith("1 row\n")
    assert len(out) < 20_000 and seconds < 5 and rss < GB, (len(out), seconds, rss)
    # --json and --csv write the cell whole, within --max-output
    code, out, err, _s, _rss = _query(db, tmp_path, "--json", "SELECT repeat('x', 10000000) AS big")
    assert (code, len(out), err) == (0, 10_000_012, "")
    code, out, err, _s, _rss = _query(db, tmp_path, "--json", "--max-output", "1MB", "SELECT repeat('x', 10000000)")
    assert (code, out, err) == (2, "", "Error: output stopped after 1000000 bytes (--max-output SIZE)\n")


def test_the_timeout_covers_the_output(db: Path, tmp_path: Path) -> None:
    """Rows still being written at the deadline stop there (the timer used to
    interrupt DuckDB only, so printing ran on), and a function DuckDB does
    not interrupt ends the process one second after the deadline."""
    code, out, err, seconds, _rss = _query(
        db, tmp_path, "--timeout", "1", "--max-output", "10GB", "--csv", "SELECT * FROM range(1000000000)"
    )
    assert (code, err) == (2, "Error: query stopped after 1 s (--timeout SECONDS; 0 for none)\n")
    assert out.startswith("range\n0\n1\n") and seconds < 4, seconds
    # repeat() of 600 MB runs 5 s on the test machine, uninterrupted (its process starts in about 1.5 s)
    started = _query(db, tmp_path, "SELECT 1")[3]
    code, out, err, seconds, _rss = _query(
        db, tmp_path, "--timeout", "0.3", "--memory-limit", "3GB", "SELECT length(repeat('ab', 300000000))"
    )
    assert (code, out, err) == (2, "", "Error: query stopped after 0.3 s (--timeout SECONDS; 0 for none)\n")
    assert seconds < started + 0.3 + GRACE + 1.0, (seconds, started)


def test_the_limits_refuse_what_is_not_a_size(db: Path, tmp_path: Path) -> None:
    code, out, err, _s, _rss = _query(db, tmp_path, "--memory-limit", "12XB", "SELECT 1")
    assert (code, out) == (2, "")
    assert err.endswith("Error: Invalid value for '--memory-limit': 12XB is not a size (e.g. 512MB, 1GB)\n")
    code, out, err, _s, _rss = _query(db, tmp_path, "--max-cell", "3", "SELECT 'abcdef' AS t")
    assert (code, err) == (0, "")
    assert "abc… (3 more characters)" in out


def test_a_query_in_this_process_leaves_its_limits_as_they_were(db: Path) -> None:
    """click's runner runs the CLI in the test's own process: the data cap is
    lifted after the query, and the deadline never ends the process."""
    import resource

    from click.testing import CliRunner

    from ledger.cli import cli, query

    before = resource.getrlimit(resource.RLIMIT_DATA)
    result = CliRunner().invoke(cli, ["--db", str(db), "query", "--no-update", "--json", "SELECT 41 + 1 AS n"])
    assert (result.exit_code, result.output) == (0, '{"n": 42}\n')
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    assert query.HARD_EXIT is False
