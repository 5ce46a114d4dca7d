"""Automatic signed checkpoints (issue 27, defect 1; replay_web/auto_checkpoint.py):
a real server (werkzeug's, over HTTP, on a SQLite file) set with a folder and a
key writes one checkpoint there when a game's ``game_ended`` is stored, signed
by that key, that ``rummy-ledger verify --checkpoint FILE --key PUB`` accepts;
then catches a game rewritten in the store since. Unset, nothing is written."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.errors import LedgerError
from ledger.sealing import checkpoint as cp
from replay_web import create_app
from tests.conftest import REPO
from tests.test_live_api import LINES, Live, make_live

CLI = [sys.executable, "-c", "from ledger.cli import main; main()"]


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[tuple[Live, Path, Path]]:
    key = tmp_path / "club.key"
    pub, _kid = cp.generate_key(key)
    folder = tmp_path / "published"  # created by the server
    for live in make_live(tmp_path, CHECKPOINT_DIR=str(folder), CHECKPOINT_KEY=str(key)):
        yield live, folder, pub


def test_a_signed_checkpoint_at_the_game_s_end(keyed: tuple[Live, Path, Path]) -> None:
    live, folder, pub = keyed
    assert (
        live.post("/api/games", b"\n".join(LINES[:-1]), ctype="application/x-ndjson", token="admin")[0] == 201
    )  # all but game_ended
    assert sorted(folder.iterdir()) == []
    assert live.append(len(LINES) - 1, token="admin")[0] == 201  # game_ended
    files = sorted(folder.iterdir())
    assert len(files) == 1 and files[0].name.startswith("checkpoint-") and files[0].suffix == ".json"
    doc = json.loads(files[0].read_text())
    assert [(g["game_id"], g["length"]) for g in doc["games"]] == [("live-1", len(LINES))]
    assert doc["signature"]["key_id"] == cp.key_id(cp.load_public_key(pub))
    ok = subprocess.run(
        [*CLI, "--db", live.db, "verify", "--checkpoint", str(files[0]), "--key", str(pub)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "the store is consistent with the checkpoint (1 game, root verified)" in ok.stdout
    # a rewrite of the stored game, seals recomputed or not, no longer matches what was published
    con = sqlite3.connect(live.db)
    con.execute("DELETE FROM stored_events WHERE originator_version = ?", (len(LINES),))
    con.commit()
    con.close()
    bad = subprocess.run(
        [*CLI, "--db", live.db, "verify", "--checkpoint", str(files[0]), "--key", str(pub)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr


def test_no_folder_no_checkpoint(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        assert live.post("/api/games", b"\n".join(LINES), ctype="application/x-ndjson", token="admin")[0] == 201
    assert [p.name for p in tmp_path.iterdir() if "checkpoint" in p.name] == []


def test_a_key_that_cannot_be_read_stops_the_server_at_start(tmp_path: Path) -> None:
    bad = tmp_path / "bad.key"
    bad.write_text("not a key")
    with pytest.raises(LedgerError):
        create_app(
            {"LEDGER_DB": str(tmp_path / "s.db"), "CHECKPOINT_DIR": str(tmp_path / "cp"), "CHECKPOINT_KEY": str(bad)}
        )
