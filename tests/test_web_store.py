"""The viewer on the real store (issue 6): SQLite and PostgreSQL through
:class:`ledger.store.application.LedgerApp`, ``RUMMY_LEDGER_DB``, record folders,
every bundled fixture, and gunicorn with several workers on one store.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ledger.audit import audit
from ledger.events import encode_event
from ledger.record_files import find_record_files, read_record
from ledger.records import encode_record
from ledger.rulings import by_finding
from ledger.scoring import score
from ledger.sealing.chain import seals
from ledger.store.application import LedgerApp, open_app
from ledger.testing.games import long_ramino
from ledger.testing.live import gunicorn
from replay_web import cache_of, create_app
from replay_web.store import LedgerStore
from tests.webgames import SMALL_FINDINGS, small_game

REPO = Path(__file__).resolve().parent.parent


def _storable(path: Path) -> bool:
    """A fixture the store would accept (its expected file is not a rejection)."""
    expected = path.with_name(path.name.removesuffix(".jsonl") + ".expected.json")
    return not (expected.exists() and '"error"' in expected.read_text(encoding="utf-8"))


FIXTURES = [p for p in find_record_files([REPO / "fixtures"]) if _storable(p)] if (REPO / "fixtures").is_dir() else []


def stored(app: LedgerApp, *games) -> None:
    for events in games:
        app.import_record(read_record(encode_record(events)))


def test_viewer_on_each_store(store_env):
    ledger = LedgerApp(env=store_env)
    try:
        long = long_ramino("long-1", min_events=200)
        stored(ledger, small_game(), long)
        long_hands = sum(1 for e in long if e.type == "hand_dealt")
        # no spectator delay: live-1 below is unfinished and its events were just received (journal)
        app = create_app({"TESTING": True, "LEDGER_STORE": LedgerStore(app=ledger), "SPECTATOR_DELAY": 0})
        client = app.test_client()
        games = client.get("/api/games").get_json()["games"]
        assert [(g["game_id"], g["events"], g["hands"], g["findings"]) for g in games] == [
            ("web-1", 19, 2, 3),
            ("long-1", len(long), long_hands, 0),
        ]
        assert client.get("/api/games/web-1/audit").get_json()["findings"] == [
            f | {"ruling": None} for f in SMALL_FINDINGS
        ]
        assert client.get("/games/long-1?at=150").status_code == 200
        assert client.get("/api/games/missing").status_code == 404
        # a live game grows: the cache sees the new version and replays it
        live = small_game("live-1")[:4]
        stored(ledger, live)
        assert client.get("/api/games/live-1/state").get_json()["position"] == 3
        ledger.append_event("live-1", small_game("live-1")[4])
        assert client.get("/api/games/live-1/state").get_json()["position"] == 4
        assert cache_of(app).misses >= 2
    finally:
        ledger.close()


def test_create_app_reads_the_db_from_config_and_environment(tmp_path, monkeypatch):
    db = tmp_path / "games.db"
    ledger = open_app(str(db))
    stored(ledger, small_game())
    ledger.close()
    by_config = create_app({"TESTING": True, "LEDGER_DB": str(db)})
    assert by_config.test_client().get("/api/games/web-1/score").get_json()["totals"][1] == {"seat": 1, "points": -10}
    monkeypatch.setenv("RUMMY_LEDGER_DB", str(db))
    by_env = create_app()
    assert [g["game_id"] for g in by_env.test_client().get("/api/games").get_json()["games"]] == ["web-1"]


def test_create_app_serves_a_folder_of_records(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(encode_record(small_game("a-1")))
    (folder / "b.jsonl").write_bytes(encode_record(small_game("b-1")))
    client = create_app({"TESTING": True, "LEDGER_RECORDS": str(folder)}).test_client()
    assert [g["game_id"] for g in client.get("/api/games").get_json()["games"]] == ["a-1", "b-1"]


@pytest.mark.parametrize("path", FIXTURES, ids=[str(p.relative_to(REPO)) for p in FIXTURES])
def test_every_bundled_fixture_is_viewable(path):
    """Every game of every variant shows, at the start, the middle and the end,
    for the referee and for seat 0; the API's audit and score are the CLI's."""
    events = list(read_record(path).events)
    game_id = events[0].game_id
    client = create_app({"TESTING": True, "LEDGER_RECORDS": str(path)}).test_client()
    last = len(events) - 1
    for at in sorted({0, 1 if last >= 1 else 0, last // 2, last}):
        for pov in ("", "&pov=0"):
            resp = client.get(f"/games/{game_id}?at={at}{pov}")
            assert resp.status_code == 200, (at, pov, resp.get_data(as_text=True)[-500:])
            assert client.get(f"/api/games/{game_id}/state?at={at}{pov}").status_code == 200
    sealed = {"seal": [*seals(encode_event(e) for e in events)][-1].hex(), "chain_verified": True}
    assert client.get(f"/api/games/{game_id}/audit").get_json() == audit(events).to_json(by_finding(events)) | {
        "seal": sealed["seal"],
        "length": len(events),
        "chain_verified": True,
    }
    assert client.get(f"/api/games/{game_id}/score").get_json() == score(events).to_json() | sealed


def wait_for(url: str, timeout: float = 20.0) -> bytes:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.read()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.slow
def test_gunicorn_workers_share_one_store(tmp_path):
    db = tmp_path / "games.db"
    ledger = open_app(str(db))
    stored(ledger, small_game())
    try:
        with gunicorn(str(db), workers=2, threads=1) as url:
            assert b'"web-1"' in wait_for(f"{url}/api/games")
            # a game stored after the workers started is seen by all of them
            stored(ledger, small_game("web-2"))
            for _ in range(6):
                assert b"web-2" in wait_for(f"{url}/games")
            assert b"RAM-DISC-1" in wait_for(f"{url}/games/web-2?at=6")
    finally:
        ledger.close()


def test_flask_cli_finds_the_factory(tmp_path):
    env = {**os.environ, "RUMMY_LEDGER_DB": str(tmp_path / "empty.db")}
    flask = Path(sys.executable).with_name("flask")
    out = subprocess.run(
        [str(flask), "--app", "replay_web", "routes"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    for rule in (
        "/games/<game_id>",
        "/api/games/<game_id>/state",
        "/api/games/<game_id>/audit",
        "/api/games/<game_id>/score",
    ):
        assert rule in out.stdout


def test_state_lookups_use_checkpoints(tmp_path):
    """A late position folds at most ``REPLAY_EVERY - 1`` events per request."""
    app = create_app(
        {"TESTING": True, "LEDGER_RECORDS": None, "LEDGER_STORE": None, "LEDGER_DB": str(tmp_path / "x.db")}
    )
    ledger = cache_of(app).store.app  # type: ignore[attr-defined]
    stored(ledger, long_ramino("long-2", min_events=400))
    game = cache_of(app).get("long-2")
    import ledger.replay as replay_module

    calls = 0
    real = replay_module.evolve

    def counting(state, event):
        nonlocal calls
        calls += 1
        return real(state, event)

    replay_module.evolve = counting
    try:
        game.state_at(300)
        game.state_at(301)
    finally:
        replay_module.evolve = real
    assert 0 < calls <= 2 * (app.config["REPLAY_EVERY"] - 1)


def test_a_folder_with_an_unreadable_file_serves_the_rest(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(encode_record(small_game("a-1")))
    (folder / "broken.jsonl").write_bytes(b'{"type":"game_started","game_id":"<b>x</b>"\n')
    client = create_app({"TESTING": True, "LEDGER_RECORDS": str(folder)}).test_client()
    assert [g["game_id"] for g in client.get("/api/games").get_json()["games"]] == ["a-1"]
    page = client.get("/games").get_data(as_text=True)
    assert "1 record file could not be read" in page
    assert "broken.jsonl" in page and "REC-FORMAT" in page and "<b>x</b>" not in page
