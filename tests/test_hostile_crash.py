"""kill -9 during ``import`` and ``analytics update`` (issue 13): at random
moments, on SQLite and PostgreSQL. After every kill no game is half stored
(a game's events are all there or none); at the end the view caught up by
ordinary updates equals a view built in one go from the same store."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import pytest

from ledger.projections.tables import TABLES
from ledger.store.application import open_app
from tests.attacks import scale
from tests.conftest import record_bytes
from tests.costkit import CLI, ROOT

GAMES = 30
KILLS = scale(12, 30)  # per store: 24 in all, 60 under RUMMY_LEDGER_ATTACKS=1 (tests.attacks)


def records(folder: Path) -> dict[str, int]:
    """``GAMES`` record files; returns game id -> events."""
    folder.mkdir()
    sizes = {}
    for i in range(GAMES):
        data = record_bytes(f"k{i:02d}", hands=2, turns=10, seed=i)
        (folder / f"k{i:02d}.jsonl").write_bytes(data)
        sizes[f"k{i:02d}"] = data.count(b"\n")
    return sizes


def start(db: str, cwd: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUMMY_LEDGER_ANALYTICS": str(cwd / "view.duckdb")}
    return subprocess.Popen(
        CLI + ["--db", db, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def whole_games(db: str, sizes: dict[str, int]) -> int:
    """Asserts that every stored game has all its events; returns how many are stored."""
    app = open_app(db)
    try:
        stored = {g.game_id: g.events for g in app.list_games()}
        for game, events in stored.items():
            assert events == sizes[game], f"{game}: {events} of {sizes[game]} events stored"
            assert len(app.get_events(game)) == sizes[game]
        return len(stored)
    finally:
        app.close()


def tables(path: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
    finally:
        con.close()


def kill_and_check(db: str, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    sizes = records(tmp_path / "records")
    view = tmp_path / "view.duckdb"
    kills = 0
    counts = []
    scale = 1.0  # shrinks when a run ends before its kill (a store already whole imports in well under a second)
    for n in range(4 * KILLS):
        if kills == KILLS:
            break
        if n % 3 == 2:  # every third run is an update of the view
            proc = start(db, tmp_path, "analytics", "update", "--batch", "40")
        else:
            proc = start(db, tmp_path, "import", "records")  # then updates the same view
        time.sleep(rng.uniform(0.2, 2.5) * scale)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        else:
            scale = max(scale / 2, 0.02)
        proc.wait()
        counts.append(whole_games(db, sizes))
    assert kills == KILLS, f"only {kills} of {len(counts)} runs were still going when killed"
    # finish: everything stored once, the view caught up by ordinary updates
    done = subprocess.run(
        CLI + ["--db", db, "import", "--no-analytics", "records"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert whole_games(db, sizes) == GAMES
    app = open_app(db)
    try:
        from ledger.projections import update

        update(app, str(view))
        update(app, str(tmp_path / "reference.duckdb"))
    finally:
        app.close()
    got, want = tables(view), tables(tmp_path / "reference.duckdb")
    assert {t: len(r) for t, r in got.items()} == {t: len(r) for t, r in want.items()}
    assert got == want


def test_sigkill_sqlite(tmp_path: Path) -> None:
    kill_and_check(str(tmp_path / "ledger.db"), tmp_path, seed=1)


@pytest.mark.postgres
def test_sigkill_postgres(pg_url: str, tmp_path: Path) -> None:
    kill_and_check(pg_url, tmp_path, seed=2)
