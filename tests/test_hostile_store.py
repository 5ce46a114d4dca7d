"""The store under hostile conditions (issue 13, items 7 and 10): many first
users of an empty PostgreSQL schema at once, and a row changed outside
rummy-ledger."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.attacks import scale
from tests.conftest import record_bytes
from tests.costkit import ROOT, rummy

IMPORTERS = scale(12, 24)  # concurrent importers (tests.attacks)

CHILD = """
import os, sys, time
from pathlib import Path
from ledger.store.application import LedgerApp
from ledger.record_files import read_record
go = Path(sys.argv[1])
while not go.exists():
    time.sleep(0.005)
app = LedgerApp(env=dict(os.environ))
print(app.import_record(read_record(sys.argv[2])).status)
app.close()
"""


@pytest.mark.postgres
def test_many_first_importers_of_an_empty_schema(pg_env: dict[str, str], tmp_path: Path) -> None:
    go = tmp_path / "go"
    children = []
    for i in range(IMPORTERS):
        path = tmp_path / f"g{i}.jsonl"
        path.write_bytes(record_bytes(f"first-{i}", turns=2, seed=i))
        children.append(
            subprocess.Popen(
                [sys.executable, "-c", CHILD, str(go), str(path)],
                # two connections each at most (the schema lock's and one for its transactions): 24 importers
                # beside the other worker's tests stay under the server's max_connections (100)
                env={
                    **os.environ,
                    **pg_env,
                    "PYTHONPATH": str(ROOT),
                    "POSTGRES_POOL_SIZE": "1",
                    "POSTGRES_MAX_OVERFLOW": "1",
                },
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    time.sleep(3)  # every child waits at the barrier, tables not created yet
    go.touch()
    results = [c.communicate(timeout=300) for c in children]
    assert [(c.returncode, out.strip()) for c, (out, _) in zip(children, results)] == [(0, "stored")] * IMPORTERS, [
        err for _, err in results
    ]
    from ledger.store.application import LedgerApp

    app = LedgerApp(env=pg_env)
    assert sorted(g.game_id for g in app.list_games()) == sorted(f"first-{i}" for i in range(IMPORTERS))
    app.close()


# --- item 10: a stored event that does not decode ----------------------------------


def tamper_sqlite(db: Path, position: int, game_id: str = "tamper-1") -> None:
    from ledger.stored.persistence import game_uuid

    con = sqlite3.connect(db)
    con.execute(
        "UPDATE stored_events SET state = CAST(state AS TEXT) WHERE originator_id = ? AND originator_version = ?",
        (game_uuid(game_id).hex, position + 1),
    )
    con.commit()
    con.close()


def test_tampered_row_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(record_bytes("tamper-1", turns=2))
    (tmp_path / "b.jsonl").write_bytes(record_bytes("intact-1", turns=2, seed=1))
    assert rummy("--db", "l.db", "import", "--no-analytics", "a.jsonl", "b.jsonl", cwd=tmp_path).returncode == 0
    tamper_sqlite(tmp_path / "l.db", 2)
    for args in (("export", "tamper-1"), ("show", "tamper-1"), ("audit", "tamper-1"), ("score", "tamper-1")):
        got = rummy("--db", "l.db", *args, cwd=tmp_path)
        assert (got.returncode, got.stderr) == (
            2,
            "rummy-ledger: error: game 'tamper-1' position 2: the stored event is str, not bytes: "
            "the row was changed outside rummy-ledger\n",
        ), args
    assert rummy("--db", "l.db", "export", "intact-1", cwd=tmp_path).returncode == 0


def test_tampered_row_is_skipped_by_the_analytics(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(record_bytes("tamper-1", turns=2))
    (tmp_path / "b.jsonl").write_bytes(record_bytes("intact-1", turns=2, seed=1))
    assert rummy("--db", "l.db", "import", "--no-analytics", "a.jsonl", "b.jsonl", cwd=tmp_path).returncode == 0
    tamper_sqlite(tmp_path / "l.db", 2)
    got = rummy("--db", "l.db", "analytics", "update", cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines()[1:] == [
        "analytics: game tamper-1 skipped: position 2: the stored event is str, not bytes: the row was changed "
        "outside rummy-ledger"
    ]
    query = rummy(
        "--db",
        "l.db",
        "query",
        "--csv",
        "--no-update",
        "SELECT game, events, error IS NOT NULL AS broken FROM games ORDER BY game",
        cwd=tmp_path,
    )
    assert query.stdout == "game,events,broken\nintact-1,8,False\ntamper-1,8,True\n"
    again = rummy("--db", "l.db", "analytics", "update", "--rebuild", cwd=tmp_path)
    assert again.returncode == 0 and "analytics: game tamper-1 skipped: position 2" in again.stdout
