"""A spectator's SSE stream tells nothing of hidden appends, to the byte and the tenth of a second (issue 27, 3).

Two games on one real server (werkzeug, real SQLite file) with a 60 s
spectator delay, a 0.5 s heartbeat and a 2.6 s stream lifetime; a
spectator watches each from the same moment, and one game gets two appends
(hidden from spectators for a minute) while they watch. The two streams
must be the same bytes (but for the game id and the journal time of
``game_started``) and their keep-alives come at the same times. Before the
fix each keep-alive was rescheduled to the hidden append's time plus the
heartbeat (at 0.5, 1.2, 1.8… s instead of 0.5, 1.0, 1.5… s).
"""

from __future__ import annotations

import http.client
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.events import encode_event
from ledger.store.application import open_app
from ledger.testing.live import call, serve
from ledger.tokens import TokenStore
from replay_web import create_app
from tests.webgames import small_game

HEARTBEAT = 0.5
LIFETIME = 2.6
#: keep-alive times may differ by this much between the two streams (thread wake-ups on a shared machine)
TOLERANCE = 0.12


class RawStream:
    """Reads an SSE response line by line in a thread: ``lines`` of
    ``(seconds since the request, line)``."""

    def __init__(self, url: str, path: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=10)
        self.start = time.monotonic()
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.lines: list[tuple[float, str]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for raw in self.response:
            self.lines.append((time.monotonic() - self.start, raw.decode("utf-8")))

    def text(self, game_id: str) -> str:
        """The stream's bytes with the game id and the journal's receive times made neutral."""
        body = "".join(line for _t, line in self.lines).replace(game_id, "GAME")
        return re.sub(r'"received_at":"[^"]*"', '"received_at":"T"', body)

    def beats(self) -> list[float]:
        return [t for t, line in self.lines if line.startswith(": keep-alive")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    db = str(tmp_path / "live.db")
    ledger = open_app(db)
    token = TokenStore(ledger).create("Mario Rossi", "recorder")[0]
    app = create_app(
        {
            "LEDGER_DB": db,
            "SPECTATOR_DELAY": 60,
            "STREAM_HEARTBEAT": HEARTBEAT,
            "STREAM_MAX_SECONDS": LIFETIME,
        }
    )
    with serve(app) as url:
        yield url, token
    ledger.close()


def test_hidden_appends_move_no_keep_alive(server: tuple[str, str]) -> None:
    url, token = server
    lines = {g: [encode_event(e) for e in small_game(g)] for g in ("g-a", "g-b")}
    for g in lines:
        assert call("POST", f"{url}/api/games", lines[g][0], token=token)[0] == 201
    quiet = RawStream(url, "/api/games/g-b/events")
    busy = RawStream(url, "/api/games/g-a/events")
    for at, position in ((0.7, 1), (1.3, 2)):
        time.sleep(max(0.0, at - (time.monotonic() - busy.start)))
        status = call(
            "POST",
            f"{url}/api/games/g-a/events",
            lines["g-a"][position],
            token=token,
            headers={"If-Match": f'"{position}"'},
        )[0]
        assert status == 201
    for s in (quiet, busy):
        s.thread.join(LIFETIME + 5)
        assert not s.thread.is_alive()
    assert busy.text("g-a") == quiet.text("g-b")
    assert busy.text("g-a").count(": keep-alive") == 5  # at 0.5, 1.0, 1.5, 2.0 and 2.5 s
    assert busy.text("g-a").endswith("event: timeout\ndata: {}\n\n")
    expected = [HEARTBEAT * k for k in range(1, 6)]
    for s in (quiet, busy):
        assert all(abs(t - e) < TOLERANCE for t, e in zip(s.beats(), expected, strict=True)), s.beats()
    assert all(abs(a - b) < TOLERANCE for a, b in zip(busy.beats(), quiet.beats(), strict=True))
