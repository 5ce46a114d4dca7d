"""The report's PDF is kept per game version and language, and its queue is bounded (issue 27, defect 5).

Real server (werkzeug, real SQLite file), real Chromium (Debian's, through
Playwright). Before: every request printed anew (about 2 s each, one at a
time), so of 8 requests at once the last waited 16.6 s, and anyone could
start one on a finished game.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from ledger.testing.live import call
from replay_web import pdf
from tests.test_live_api import LINES, make_live, started


def _get(url: str, token: str | None = None) -> tuple[int, dict[str, str], bytes, float]:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=120)
    start = time.monotonic()
    conn.request("GET", f"{parts.path}?{parts.query}", headers={"Authorization": f"Bearer {token}"} if token else {})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body, time.monotonic() - start


def test_a_pdf_is_kept_per_game_version_and_language(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        started(live)
        for p in range(1, 8):
            assert live.append(p)[0] == 201
        ref = live.tokens["referee"]
        url = f"{live.url}/games/live-1/report.pdf?lang=en"
        pdf.clear_cache()  # an earlier test in this process may have printed the same report
        first = _get(url, ref)
        assert first[0] == 200 and first[2].startswith(b"%PDF-"), first[:2]
        again = _get(url, ref)
        assert (again[0], again[2]) == (200, first[2])  # the same bytes, from the cache
        assert again[3] < min(0.5, first[3] / 3), (again[3], first[3])
        italian = _get(f"{live.url}/games/live-1/report.pdf?lang=it", ref)
        assert italian[0] == 200 and italian[2] != first[2] and italian[3] > again[3]
        # a new event is a new version of the game: printed anew
        assert live.append(8)[0] == 201
        newer = _get(url, ref)
        assert newer[0] == 200 and newer[2] != first[2]
        # the cache is no side door: a spectator is refused an unfinished game's report as before
        assert _get(url)[0] == 403


def test_past_the_queue_a_pdf_is_503_with_retry_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "QUEUE", 1)
    for live in make_live(tmp_path):
        live.post("/api/games", b"\n".join(LINES) + b"\n", ctype="application/x-ndjson", token="referee")
        assert pdf.SLOTS.acquire(timeout=5)  # another PDF is being printed
        answers: dict[int, tuple[int, dict[str, str], bytes, float]] = {}
        try:
            url = f"{live.url}/games/live-1/report.pdf?at=3"
            waiting = threading.Thread(target=lambda: answers.setdefault(3, _get(url)))  # noqa: B023 - joined below
            waiting.start()
            deadline = time.monotonic() + 10
            while pdf._waiting < 1:  # the first waits for the slot
                assert time.monotonic() < deadline
                time.sleep(0.01)
            status, headers, body, seconds = _get(f"{live.url}/games/live-1/report.pdf?at=4")
            assert (status, headers["retry-after"]) == (503, "5") and seconds < 1.0
            assert b"every PDF slot of this server is busy (1 waiting); try again in a moment" in body
            status, headers, json_body = call(
                "GET", f"{live.url}/games/live-1/report.pdf?at=5", headers={"Accept": "application/json"}
            )
            assert (status, headers["retry-after"]) == (503, "5")
            assert (
                json_body["error"]["message"]
                == "every PDF slot of this server is busy (1 waiting); try again in a moment"
            )
        finally:
            pdf.SLOTS.release()
        waiting.join(120)
        assert answers[3][0] == 200 and answers[3][2].startswith(b"%PDF-")
