"""``rummy-ledger analytics update --jobs N`` (issue 28, target 2): worker
processes fold the games, one process writes them in order. The same tables,
tracking, skipped games and output as one job, for a simulated corpus with
injected rule violations (findings), a tournament record, a stored event that
does not decode, and batches that cut games; one game folds without a pool;
``import --jobs`` hands its jobs to the update."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ledger.projections import DuckDBTrackingRecorder, catch_up, folds
from ledger.projections.tables import TABLES
from ledger.store.application import LedgerApp

ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "100"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ledger.cli", *args], capture_output=True, text=True, env=ENV)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of simulated records: Burraco and Gin with injected violations, and a tournament."""
    root = tmp_path_factory.mktemp("corpus")
    for args in (
        ("--variant", "burraco", "--games", "5", "--seed", "3", "--violations", "0.05"),
        ("--variant", "gin", "--games", "4", "--seed", "4", "--violations", "0.1"),
        ("--variant", "burraco", "--tournament", "t1", "--entrants", "4", "--rounds", "1", "--hands", "1")
        + ("--games", "1", "--seed", "5"),
    ):
        out = root / args[1] / (args[3] if args[2] == "--tournament" else "games")
        assert _cli("simulate", *args, "--out", str(out)).returncode == 0
    return root


@pytest.fixture
def store(corpus: Path, tmp_path: Path) -> str:
    """The corpus imported (no view), one stored event of one game made undecodable."""
    db = str(tmp_path / "ledger.db")
    done = _cli("--db", db, "import", "--no-analytics", str(corpus))
    assert done.returncode == 0, done.stderr
    con = sqlite3.connect(db)
    (oid,) = con.execute("SELECT originator_id FROM stored_events WHERE topic LIKE '%GameStarted' LIMIT 1").fetchone()
    con.execute(
        "UPDATE stored_events SET state = CAST(state AS TEXT) WHERE originator_id = ? AND originator_version = 7",
        (oid,),
    )
    con.commit()
    con.close()
    return db


def snapshot(path: str) -> dict[str, list[tuple[Any, ...]]]:
    con = duckdb.connect(path, read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in (*TABLES, "tracking")}
    finally:
        con.close()


@pytest.mark.parametrize("batch", [97, 5000])
def test_two_jobs_write_exactly_what_one_job_writes(store: str, tmp_path: Path, batch: int) -> None:
    runs = {}
    for jobs in (1, 2, 3):
        path = str(tmp_path / f"jobs{jobs}.duckdb")
        done = _cli(
            "--db", store, "analytics", "update", "--analytics", path, "--jobs", str(jobs), "--batch", str(batch)
        )
        assert done.returncode == 0, done.stderr
        runs[jobs] = (done.stdout.replace(path, "VIEW"), snapshot(path))
    assert runs[2] == runs[1] and runs[3] == runs[1]
    out, tables = runs[1]
    assert "skipped" in out and "position 6" in out  # the event that does not decode
    assert len(tables["findings"]) > 0 and len({r[0] for r in tables["games"]}) == 11  # 5 + 4 + the tournament's 2
    assert tables["tracking"][0][1] == LedgerApp(env=_env(store)).recorder.max_notification_id()


def _env(db: str) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db}


def test_an_update_by_one_job_continued_by_two_gives_the_same_view(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "grown.db")
    resumed, whole = str(tmp_path / "resumed.duckdb"), str(tmp_path / "whole.duckdb")
    for part, jobs in (("burraco", 1), ("gin", 2)):
        assert _cli("--db", db, "import", "--no-analytics", str(corpus / part)).returncode == 0
        done = _cli("--db", db, "analytics", "update", "--analytics", resumed, "--jobs", str(jobs), "--batch", "200")
        assert done.returncode == 0, done.stderr
    assert _cli("--db", db, "analytics", "update", "--analytics", whole, "--jobs", "1").returncode == 0
    assert snapshot(resumed) == snapshot(whole)


def test_one_game_is_folded_without_a_pool(tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "one.db")
    game = sorted((corpus / "gin" / "games").glob("*.jsonl"))[0]
    assert _cli("--db", db, "import", "--no-analytics", str(game)).returncode == 0

    def refused(*_: object, **__: object) -> None:
        raise AssertionError("a pool for one game")

    monkeypatch.setattr(folds, "fork_pool", refused)
    app = LedgerApp(env=_env(db))
    try:
        for jobs in (4, 1):
            with DuckDBTrackingRecorder(str(tmp_path / f"jobs{jobs}.duckdb")) as view:
                result = catch_up(app, view, batch_size=50, jobs=jobs)
            assert (result.games, result.skipped) == (1, ())
    finally:
        app.close()
    assert snapshot(str(tmp_path / "jobs4.duckdb")) == snapshot(str(tmp_path / "jobs1.duckdb"))


def test_import_hands_its_jobs_to_the_update(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from ledger.cli import cli, view_update

    seen: list[int] = []
    real = view_update.update

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw["jobs"])
        return real(*args, **kw)

    monkeypatch.setattr(view_update, "update", spy)
    db = str(tmp_path / "cli.db")
    result = CliRunner().invoke(cli, ["--db", db, "import", "--jobs", "2", str(corpus / "gin")])
    assert result.exit_code == 0, result.output
    assert seen == [2]
    assert snapshot(str(tmp_path / "cli.analytics.duckdb"))["games"]


def test_ctrl_c_with_workers_is_one_line_and_exit_130_and_the_update_resumes(store: str, tmp_path: Path) -> None:
    import os
    import signal
    import time

    path = tmp_path / "view.duckdb"
    child = subprocess.Popen(
        [sys.executable, "-m", "ledger.cli", "--db", store, "analytics", "update", "--analytics", str(path)]
        + ["--jobs", "2", "--batch", "50"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,  # its own process group: the signal reaches the workers too, as Ctrl-C does
    )
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:  # the update has begun
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(child.pid, signal.SIGINT)
    _out, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (130, "rummy-ledger: error: interrupted\n")
    for view, jobs in ((path, 2), (tmp_path / "one.duckdb", 1)):
        done = _cli("--db", store, "analytics", "update", "--analytics", str(view), "--jobs", str(jobs))
        assert done.returncode == 0, done.stderr
    assert snapshot(str(path)) == snapshot(str(tmp_path / "one.duckdb"))


def test_a_view_of_another_store_says_so_in_a_bounded_line_in_english_and_italian() -> None:
    """The view's earlier events of a stream are not positions 0, 1, 2, …
    (a store deleted and made again beside its old view): one line naming the
    stream, how many events and which positions, not the list of them."""
    from ledger.i18n import compiled
    from ledger.projections.duckdb_recorder import AnalyticsError
    from ledger.projections.folds import checked_positions

    checked_positions("s1", [(0, "x"), (1, "y")], 2, [2, 3])  # positions 0-3: nothing to say
    with pytest.raises(AnalyticsError) as caught:
        checked_positions("s1", [(p, "x") for p in range(106, 212)], 106, [106, 107])
    assert str(caught.value) == (
        "the analytics view does not match this store: for stream s1 it holds 106 events at positions 106 to 211"
        " where the store's new events start at 106 (the view was built from another store, or changed since);"
        " run `analytics update --rebuild`"
    )
    assert caught.value.text(compiled("it")) == (
        "la vista di analisi non corrisponde a questo archivio: per la sequenza s1 contiene 106 eventi alle"
        " posizioni da 106 a 211, mentre i nuovi eventi dell'archivio iniziano da 106 (la vista è stata costruita"
        " da un altro archivio, o modificata da allora); esegui `analytics update --rebuild`"
    )
    from ledger.projections.folds import view_mismatch

    none = view_mismatch("s2", [], 40)  # a long game's earlier events missing from the view
    assert str(none) == (
        "the analytics view does not match this store: for stream s2 it holds none of the events before"
        " position 40, where the store's new events start (the view was built from another store, or changed"
        " since); run `analytics update --rebuild`"
    )
    assert none.text(compiled("it")) == (
        "la vista di analisi non corrisponde a questo archivio: per la sequenza s2 non contiene nessuno degli"
        " eventi prima della posizione 40, da cui iniziano i nuovi eventi dell'archivio (la vista è stata"
        " costruita da un altro archivio, o modificata da allora); esegui `analytics update --rebuild`"
    )
