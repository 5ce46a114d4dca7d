"""The live record service on real PostgreSQL behind gunicorn (issue 14):
several workers, no sticky sessions. A stream opened on one worker sees the
events appended through another, because every worker follows the store's
notification log (eventsourcing's LISTEN/NOTIFY subscription).

Two gunicorn servers (``-k replay_web.gunicorn_worker.ThreadWorker``, one worker each, so which worker
serves which request is certain) and one with two workers share one fresh
PostgreSQL schema; tokens are made with the real CLI.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ledger.testing.live import Stream, call, gunicorn
from tests.conftest import REPO
from tests.test_live_api import LINES

pytestmark = pytest.mark.postgres


def _token(db: str, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "ledger.cli", "--db", db, "token", "create", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_stream_on_one_worker_sees_appends_through_another(pg_url: str, tmp_path: Path) -> None:
    recorder = _token(pg_url, "--name", "Mario Rossi", "--role", "recorder", "--tournament", "Club night")
    referee = _token(pg_url, "--name", "Rita Arbitro", "--role", "referee")
    log = tmp_path / "access.log"
    env = {"RUMMY_LEDGER_SPECTATOR_DELAY": "0"}
    with (
        gunicorn(pg_url, workers=1, threads=8, env=env, log=log) as a,
        gunicorn(pg_url, workers=1, threads=8, env=env, log=log) as b,
    ):
        status, headers, body = call("POST", a + "/api/games", LINES[0], token=recorder)
        assert status == 201, body
        on_a = Stream(a + "/api/games/live-1/events", token=referee)
        on_b = Stream(b + "/api/games/live-1/events")
        try:
            assert on_a.take(1)[0][1] == "0" and on_b.take(1)[0][1] == "0"
            for p in range(1, 7):  # alternate the servers the events go through
                url = b if p % 2 else a
                status, _, body = call(
                    "POST", url + "/api/games/live-1/events", LINES[p], token=recorder, headers={"If-Match": f'"{p}"'}
                )
                assert status == 201, body
            got_a, got_b = on_a.take(6, timeout=15), on_b.take(6, timeout=15)
            assert [i for _, i, _, _ in got_a] == ["1", "2", "3", "4", "5", "6"] == [i for _, i, _, _ in got_b]
            assert [f["rule"] for f in got_a[5][2]["findings"]] == ["RAM-DISC-1"]
            assert "hands" in got_a[0][2]["event"] and "hands" not in got_b[0][2]["event"]  # referee vs spectator
            # a conflict across servers: both at position 7, one wins
            results = sorted(
                call("POST", u + "/api/games/live-1/events", LINES[7], token=recorder, headers={"If-Match": '"7"'})[0]
                for u in (a, b)
            )
            assert results == [201, 409]
        finally:
            on_a.close()
            on_b.close()
    text = log.read_text()
    assert "POST /api/games/live-1/events" in text
    assert recorder not in text and recorder.split(".")[1] not in text and referee.split(".")[1] not in text


def test_two_workers_one_server(pg_url: str) -> None:
    recorder = _token(pg_url, "--name", "Mario Rossi", "--role", "admin")
    with gunicorn(pg_url, workers=2, threads=16, env={"RUMMY_LEDGER_SPECTATOR_DELAY": "0"}) as url:
        assert call("POST", url + "/api/games", LINES[0], token=recorder)[0] == 201
        streams = [Stream(url + "/api/games/live-1/events") for _ in range(6)]  # spread over both workers
        try:
            for s in streams:
                assert s.take(1)[0][1] == "0"
            for p in range(1, 5):
                assert (
                    call(
                        "POST",
                        url + "/api/games/live-1/events",
                        LINES[p],
                        token=recorder,
                        headers={"If-Match": f'"{p}"'},
                    )[0]
                    == 201
                )
            for s in streams:
                assert [i for _, i, _, _ in s.take(4, timeout=15)] == ["1", "2", "3", "4"]
        finally:
            for s in streams:
                s.close()
