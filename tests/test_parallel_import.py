"""``rummy-ledger import --jobs N`` (issue 28, target 2): worker processes read
and check the files, one process stores them in order. The same store
contents, the same outcomes and the same output as one job, for a folder of
good and bad files (tests/test_bulk_import.folder: rejected files, a game
twice, a conflict, a record that grows), on SQLite and on PostgreSQL."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.store.application import LedgerApp
from ledger.store.parallel import _portable, _rebuilt
from ledger.workers import usable_cores
from tests.test_bulk_import import folder, one_by_one, outcome, store_contents, two_envs

__all__ = ["two_envs"]  # the fixture, used by name


@pytest.mark.parametrize("jobs,batch_events", [(2, 150), (3, 100_000)])
def test_jobs_store_exactly_what_one_job_stores(
    two_envs: tuple[dict[str, str], dict[str, str]], tmp_path: Path, jobs: int, batch_events: int
) -> None:
    paths = folder(tmp_path)
    a, b = (LedgerApp(env=e) for e in two_envs)
    try:
        expected = one_by_one(a, paths)
        got = [(src, outcome(r)) for src, r in b.import_records(paths, jobs=jobs, batch_events=batch_events)]
        assert [src for src, _ in got] == paths
        assert [o for _, o in got] == expected
        assert store_contents(b) == store_contents(a)
    finally:
        a.close()
        b.close()
    kinds = {o[0] for o in expected} | {o[1] for o in expected if o[0] == "ok"}
    assert {"RecordError", "GameConflictError", "stored", "already_stored", "appended"} <= kinds


def _cli(db: str, jobs: int, folder_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ledger.cli", "--db", db, "import", "--no-analytics", "--jobs", str(jobs)]
        + [str(folder_path)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "100"},
    )


def _db_of(env: dict[str, str]) -> str:
    if env["PERSISTENCE_MODULE"].endswith("sqlite"):
        return env["SQLITE_DBNAME"]
    auth = env["POSTGRES_USER"] + (":" + env["POSTGRES_PASSWORD"] if env["POSTGRES_PASSWORD"] else "")
    return (
        f"postgresql://{auth}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
        f"?schema={env['POSTGRES_SCHEMA']}"
    )


def test_the_cli_with_two_jobs_prints_and_stores_what_one_job_does(
    two_envs: tuple[dict[str, str], dict[str, str]], tmp_path: Path
) -> None:
    paths = folder(tmp_path)
    here = tmp_path / "all"
    here.mkdir()
    for i, p in enumerate(paths):  # one folder, in the same order
        (here / f"{i:03d}-{p.name}").write_bytes(p.read_bytes())
    one, two = (_db_of(e) for e in two_envs)
    first, second = _cli(one, 1, here), _cli(two, 2, here)
    assert second.returncode == first.returncode == 1  # files were rejected
    assert second.stderr == first.stderr
    names = [(e.get("SQLITE_DBNAME") or e["POSTGRES_SCHEMA"]) for e in two_envs]  # in the summary's title
    assert second.stdout.replace(names[1], "STORE") == first.stdout.replace(names[0], "STORE")
    assert "rejected" in first.stdout and "REC-" in first.stderr
    a, b = (LedgerApp(env=e) for e in two_envs)
    try:
        assert store_contents(b) == store_contents(a)
        assert len(store_contents(a)[0]) > 0
    finally:
        a.close()
        b.close()


def test_a_rejection_crosses_from_a_worker_with_its_class_and_message() -> None:
    err = RecordError("REC-FORMAT", "bad card string", line=44, field="cards[0]", position=43, path="x.jsonl")
    back = _rebuilt(pickle.loads(pickle.dumps(_portable(err))))
    assert type(back) is RecordError
    assert (str(back), back.rule, back.line, back.field, back.position, back.path) == (
        str(err),
        "REC-FORMAT",
        44,
        "cards[0]",
        43,
        "x.jsonl",
    )


def test_the_default_is_the_usable_cores() -> None:
    import os

    assert usable_cores() == len(os.sched_getaffinity(0))


def test_ctrl_c_with_workers_is_one_line_and_exit_130(tmp_path: Path) -> None:
    import os
    import signal
    import time

    here = tmp_path / "many"
    here.mkdir()
    for i, p in enumerate(folder(tmp_path) * 15):
        (here / f"{i:03d}.jsonl").write_bytes(p.read_bytes())
    child = subprocess.Popen(
        [sys.executable, "-c", "from ledger.console import main; main()", "--db", str(tmp_path / "c.db")]
        + ["import", "--no-analytics", "--jobs", "2", str(here)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the signal reaches the workers too, as Ctrl-C does
    )
    deadline = time.monotonic() + 30
    while not (tmp_path / "c.db").exists() and time.monotonic() < deadline:  # the import has begun
        time.sleep(0.05)
    os.killpg(child.pid, signal.SIGINT)
    _out, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (130, "rummy-ledger: error: interrupted\n")
    assert "Traceback" not in err


def test_without_jobs_small_imports_run_alone_and_large_ones_on_every_usable_core(tmp_path: Path) -> None:
    """``--jobs`` absent: the usable cores from 1 MiB of record files, else this
    process alone; never more workers than files; ``--jobs N`` as asked."""
    from ledger.store.parallel import PARALLEL_MIN_BYTES, import_jobs

    small = [tmp_path / f"s{i}.jsonl" for i in range(3)]
    for p in small:
        p.write_bytes(b"x" * 1000)
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * PARALLEL_MIN_BYTES)
    many = small + [big] + [tmp_path / f"n{i}.jsonl" for i in range(64)]  # unreadable paths count 0 bytes
    assert import_jobs(None, small) == 1
    assert import_jobs(None, many) == usable_cores()
    assert import_jobs(None, [big]) == 1  # one file: one fold
    assert import_jobs(5, small) == 3
    assert import_jobs(1, many) == 1


def test_workers_leave_when_their_storing_process_is_killed(tmp_path: Path) -> None:
    """SIGKILL of the storing process (nothing can catch it): its workers,
    otherwise waiting for their next file forever, exit within a second or two."""
    import os
    import signal
    import time

    from ledger.workers import ORPHAN_POLL

    here = tmp_path / "many"
    here.mkdir()
    for i, p in enumerate(folder(tmp_path) * 40):
        (here / f"{i:03d}.jsonl").write_bytes(p.read_bytes())
    child = subprocess.Popen(
        [sys.executable, "-m", "ledger.cli", "--db", str(tmp_path / "k.db"), "import", "--no-analytics"]
        + ["--jobs", "2", str(here)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def workers() -> set[int]:
        kids = Path(f"/proc/{child.pid}/task/{child.pid}/children")
        return {int(pid) for pid in kids.read_text().split()} if kids.exists() else set()

    deadline = time.monotonic() + 60
    seen: set[int] = set()
    while len(seen) < 2 and child.poll() is None and time.monotonic() < deadline:
        seen = workers()
        time.sleep(0.02)
    assert len(seen) == 2, f"the import ended before its workers were seen ({child.returncode})"
    child.send_signal(signal.SIGKILL)
    child.wait()
    gone_by = time.monotonic() + 10 * ORPHAN_POLL + 5
    alive = set(seen)
    while alive and time.monotonic() < gone_by:
        for pid in list(alive):
            try:
                os.kill(pid, 0)
                if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
                    alive.discard(pid)
            except ProcessLookupError:
                alive.discard(pid)
        time.sleep(0.05)
    assert alive == set(), f"workers {sorted(alive)} still running after their storing process was killed"
