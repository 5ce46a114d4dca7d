"""The live record service over real HTTP (issue 14): the write API's status
codes, tokens and roles, concurrent writers, the SSE stream, and who may read
an unfinished game.

Every test starts the Flask app on 127.0.0.1 on a free port (werkzeug's
threaded server) over a real SQLite file, creates tokens with the CLI's
:class:`ledger.tokens.TokenStore`, and talks HTTP (:mod:`ledger.testing.live`).
The game is ``tests/webgames.small_game`` (classic Ramino): RAM-DISC-1 at
position 6, ALL-SCORE-1 at 12, the referee's penalty at 13 (Bruno -10),
game_ended at 18.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.events import encode_event
from ledger.store.application import open_app
from ledger.testing.live import Stream, call, serve
from ledger.tokens import TokenStore
from replay_web import create_app
from tests.conftest import REPO
from tests.webgames import small_game

EVENTS = small_game("live-1", meta={"tournament": "Club night", "table": "3"})
LINES = [encode_event(e) for e in EVENTS]


class Live:
    """A running server on a fresh store, with one token per role."""

    def __init__(self, url: str, db: str, tokens: dict[str, str], store: TokenStore) -> None:
        self.url, self.db, self.tokens, self.store = url, db, tokens, store

    def post(self, path: str, body: bytes | str, token: str | None = "recorder", **kw):  # type: ignore[no-untyped-def]
        return call("POST", self.url + path, body, token=self.tokens.get(token, token) if token else None, **kw)

    def get(self, path: str, token: str | None = None, **kw):  # type: ignore[no-untyped-def]
        return call("GET", self.url + path, token=self.tokens.get(token, token) if token else None, **kw)

    def append(self, position: int, token: str = "recorder"):  # type: ignore[no-untyped-def]
        return self.post("/api/games/live-1/events", LINES[position], token, headers={"If-Match": f'"{position}"'})

    def length(self, game_id: str = "live-1") -> int:
        return call("GET", f"{self.url}/api/games/{game_id}", token=self.tokens["admin"])[2]["game"]["events"]


def make_live(tmp_path: Path, **config) -> Iterator[Live]:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "live.db")
    ledger = open_app(db)
    store = TokenStore(ledger)
    tokens = {
        "recorder": store.create("Mario Rossi", "recorder")[0],
        "referee": store.create("Rita Arbitro", "referee")[0],
        "admin": store.create("Ada Admin", "admin")[0],
        "other": store.create("Otto", "recorder", tournament="Another cup")[0],
        "game-ref": store.create("Gino", "referee", game="some-other-game")[0],
        "game-rec": store.create("Gina", "recorder", game="some-other-game")[0],
    }
    app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0, **config})
    with serve(app) as url:
        yield Live(url, db, tokens, store)
    ledger.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    yield from make_live(tmp_path)


def started(live: Live) -> None:
    status, headers, body = live.post("/api/games", LINES[0])
    assert status == 201, body
    assert headers["location"] == "/api/games/live-1"


# --- the write API's answers -------------------------------------------------


def test_create_then_append_one_at_a_time(live: Live) -> None:
    status, headers, body = live.post("/api/games", LINES[0])
    assert (status, headers["location"], headers["etag"]) == (201, "/api/games/live-1", '"1"')
    assert body == {
        "game_id": "live-1",
        "first": 0,
        "length": 1,
        "positions": [0],
        "findings": [],
        "hand_over": False,
        "game_over": False,
    }
    for p in range(1, 6):
        assert live.append(p)[0] == 201
    status, headers, body = live.append(6)
    assert status == 201 and headers["etag"] == '"7"'
    assert body["positions"] == [6]
    assert [(f["position"], f["rule"]) for f in body["findings"]] == [(6, "RAM-DISC-1")]
    assert live.length() == 7


def test_create_twice_is_409(live: Live) -> None:
    started(live)
    status, _, body = live.post("/api/games", LINES[0])
    assert status == 409 and body["error"]["length"] == 1 and body["error"]["status"] == 409


def test_tokens_401_missing_wrong_revoked(live: Live) -> None:
    status, headers, body = live.post("/api/games", LINES[0], token=None)
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    assert "needs a token" in body["error"]["message"]
    wrong = live.tokens["recorder"][:-2] + ("AA" if not live.tokens["recorder"].endswith("AA") else "BB")
    assert live.post("/api/games", LINES[0], token=wrong)[0] == 401
    assert live.post("/api/games", LINES[0], token="not-a-token")[0] == 401
    assert live.post("/api/games", LINES[0], headers={"Authorization": "Basic abc"}, token=None)[0] == 401
    token_id = live.tokens["recorder"].split(".")[0]
    live.store.revoke(token_id)
    status, _, body = live.post("/api/games", LINES[0])
    assert status == 401 and "revoked" in body["error"]["message"]
    assert call("GET", live.url + "/api/games")[2] == {"games": []}


def test_token_in_the_url_is_refused(live: Live) -> None:
    status, _, body = live.get(f"/api/games?token={live.tokens['admin']}")
    assert status == 400 and "never goes in the URL" in body["error"]["message"]


def test_scope_and_role_403(live: Live) -> None:
    status, _, body = live.post("/api/games", LINES[0], token="other")  # tournament "Another cup"
    assert status == 403 and "does not cover game 'live-1'" in body["error"]["message"]
    started(live)
    assert live.post("/api/games/live-1/events", LINES[1], token="game-ref", headers={"If-Match": '"1"'})[0] == 403
    for p in range(1, 13):
        assert live.append(p)[0] == 201
    # a recorder may not rule; a referee may, and the adjudicated score changes
    status, _, body = live.append(13, token="recorder")
    assert status == 403 and "only a referee" in body["error"]["message"]
    assert live.length() == 13
    before = live.get("/api/games/live-1/score", token="referee")[2]["totals"]
    assert live.append(13, token="referee")[0] == 201
    after = live.get("/api/games/live-1/score", token="referee")[2]["totals"]
    assert [t["points"] for t in before] == [66, 0] and [t["points"] for t in after] == [66, -10]


def test_bad_event_is_400_and_nothing_stored(live: Live) -> None:
    started(live)
    assert live.append(1)[0] == 201
    bad = b'{"type":"card_drawn","seat":0,"card":"AS"}'  # the stock's top is K♦
    status, _, body = live.post("/api/games/live-1/events", bad, headers={"If-Match": '"2"'})
    assert status == 400
    assert {k: body["error"][k] for k in ("rule", "line", "field", "position")} == {
        "rule": "REC-WHERE",
        "line": 1,
        "field": "card",
        "position": 2,
    }
    # a recorder reads the games in its scope whole (FORMAT.md "Who may read what": it enters the
    # deals), so its refusals name the cards, as a referee's do (issue 27: the redaction is undone)
    assert body["error"]["message"] == "line 1: card: REC-WHERE: the top of the stock is KD, not AS"
    assert body["error"]["reason"] == "the top of the stock is KD, not AS"
    status, _, whole = live.post("/api/games/live-1/events", bad, token="referee", headers={"If-Match": '"2"'})
    assert status == 400 and whole["error"]["message"] == "line 1: card: REC-WHERE: the top of the stock is KD, not AS"
    # a recorder scoped to another tournament writes nothing here, so it is told nothing of the cards
    status, _, other = live.post("/api/games/live-1/events", bad, token="other", headers={"If-Match": '"2"'})
    assert status == 403 and "KD" not in str(other)
    assert live.length() == 2
    # JSON Lines: the second line is bad -> nothing of the request is stored
    two = LINES[2] + b"\n" + b'{"type":"card_discarded","seat":0,"card":"QS","colour":"red"}\n'
    status, _, body = live.post(
        "/api/games/live-1/events", two, ctype="application/x-ndjson", headers={"If-Match": '"2"'}
    )
    assert status == 400 and (body["error"]["rule"], body["error"]["line"], body["error"]["field"]) == (
        "REC-FORMAT",
        2,
        "colour",
    )
    status, _, body = live.post("/api/games/live-1/events", b"{not json", headers={"If-Match": '"2"'})
    assert status == 400 and body["error"]["rule"] == "REC-FORMAT" and body["error"]["line"] == 1
    assert live.length() == 2
    assert live.append(2)[0] == 201  # still appendable at the same position


def test_json_lines_append_reports_positions_and_findings(live: Live) -> None:
    started(live)
    body = b"\n".join(LINES[1:8]) + b"\n"
    status, headers, result = live.post("/api/games/live-1/events?expected=1", body, ctype="application/x-ndjson")
    assert status == 201 and result["positions"] == [1, 2, 3, 4, 5, 6, 7] and result["length"] == 8
    assert [f["rule"] for f in result["findings"]] == ["RAM-DISC-1"]
    assert headers["location"] == "/api/games/live-1/events?after=0"


def test_conflict_404_415_428_413(tmp_path: Path) -> None:
    for live in make_live(tmp_path, MAX_CONTENT_LENGTH=4096):
        started(live)
        status, headers, body = live.post("/api/games/live-1/events", LINES[1], headers={"If-Match": '"5"'})
        assert status == 409 and body["error"]["length"] == 1 and headers["etag"] == '"1"'
        assert live.post("/api/games/nope/events", LINES[1], headers={"If-Match": '"1"'})[0] == 404
        assert (
            live.post("/api/games/live-1/events", LINES[1], ctype="text/plain", headers={"If-Match": '"1"'})[0] == 415
        )
        status, _, body = live.post("/api/games/live-1/events", LINES[1])
        assert status == 428 and "If-Match" in body["error"]["message"]
        assert live.post("/api/games/live-1/events", LINES[1], headers={"If-Match": "1"})[0] == 400
        weak = live.post("/api/games/live-1/events", LINES[1], headers={"If-Match": 'W/"1"'})
        assert weak[0] == 400 and weak[2]["error"]["message"].startswith(
            "If-Match 'W/\"1\"': give the expected next position"
        )
        wide = call(
            "POST",
            live.url + "/api/games/live-1/events",
            LINES[1],
            token=live.tokens["recorder"],
            headers={"If-Match": '"１４"'.encode().decode("latin-1")},
        )
        assert wide[2]["error"]["message"].startswith("If-Match '\"１４\"': give")
        untyped = call(
            "POST",
            live.url + "/api/games/live-1/events",
            LINES[1],
            token=live.tokens["recorder"],
            ctype="",
            headers={"If-Match": '"1"'},
        )
        assert untyped[0] == 415 and untyped[2]["error"]["message"] == (
            "send the events with a Content-Type: application/json (one event) or application/x-ndjson (JSON Lines)"
        )
        assert live.post("/api/games/live-1/events?expected=2", LINES[1], headers={"If-Match": '"1"'})[0] == 400
        huge = b"// " + b"x" * 5000 + b"\n" + LINES[1]
        status, _, body = live.post(
            "/api/games/live-1/events", huge, ctype="application/x-ndjson", headers={"If-Match": '"1"'}
        )
        assert (status, body) == (
            413,
            {
                "error": {
                    "status": 413,
                    "title": "Request Entity Too Large",
                    "message": f"the body is {len(huge):,} bytes; the limit is 4,096 bytes: send fewer events per "
                    "request",
                }
            },
        )
        assert live.length() == 1


def test_events_after_game_ended_are_refused(live: Live) -> None:
    body = b"\n".join(LINES) + b"\n"
    status, _, result = live.post("/api/games", body, ctype="application/x-ndjson", token="referee")
    assert status == 201 and result["length"] == 19 and result["game_over"] is True
    status, _, err = live.post("/api/games/live-1/events", LINES[15], headers={"If-Match": '"19"'}, token="referee")
    assert status == 400 and err["error"]["rule"] == "REC-ORDER" and err["error"]["position"] == 19
    assert live.length() == 19


def test_a_penalty_after_game_ended_is_stored(live: Live) -> None:
    """FORMAT.md "Rulings after the game": a referee's penalty_assessed may follow game_ended."""
    body = b"\n".join(LINES) + b"\n"
    assert live.post("/api/games", body, ctype="application/x-ndjson", token="referee")[0] == 201
    ruling = b'{"type":"penalty_assessed","seat":0,"points":0,"rule":"ALL-SCORE-1","finding":12,"referee":"Rita"}'
    status, headers, result = live.post(
        "/api/games/live-1/events", ruling, headers={"If-Match": '"19"'}, token="referee"
    )
    assert (status, headers["etag"], result["first"], result["length"], result["game_over"]) == (
        201,
        '"20"',
        19,
        20,
        True,
    )
    assert live.length() == 20


def test_errors_are_json_never_a_traceback(live: Live) -> None:
    started(live)
    for body in (b"\xff\xfe", b"[]", b'{"type":"nope"}', b"null", b""):
        status, headers, err = live.post("/api/games/live-1/events", body, headers={"If-Match": '"1"'})
        assert status == 400 and headers["content-type"] == "application/json", (body, err)
        assert "Traceback" not in str(err) and err["error"]["rule"] == "REC-FORMAT"


# --- concurrent writers -------------------------------------------------------


def test_racing_threads_one_wins_each_position(live: Live) -> None:
    started(live)
    results: list[int] = []
    barrier = threading.Barrier(8)

    def writer() -> None:
        barrier.wait()
        results.append(live.append(1)[0])

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [201] + [409] * 7
    assert live.length() == 2


def test_racing_processes_store_the_record_exactly_once(live: Live) -> None:
    """Four processes each try to append the whole record, position by
    position, retrying after a 409: the stored game is the record, once."""
    started(live)
    script = textwrap.dedent("""
        import sys
        from ledger.testing.live import call
        from tests.test_live_api import LINES
        url, token = sys.argv[1], sys.argv[2]
        wins = conflicts = 0
        p = 1
        while p < 13:
            status, headers, body = call(
                "POST", url + "/api/games/live-1/events", LINES[p], token=token, headers={"If-Match": '"%d"' % p}
            )
            if status == 201:
                wins += 1; p += 1
            elif status == 409:
                conflicts += 1; p = body["error"]["length"]
            else:
                raise SystemExit(f"unexpected {status} {body}")
        print(wins, conflicts)
    """)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, live.url, live.tokens["recorder"]],
            cwd=REPO,  # the checkout: -c puts the working folder on the path, for tests.test_live_api
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=120)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sum(int(o[0]) for o in outs) == 12  # each of positions 1..12 won by exactly one writer
    exported = open_app(live.db).export_record("live-1")
    assert exported == b"".join(line + b"\n" for line in LINES[:13])


# --- the stream ---------------------------------------------------------------


def test_stream_sends_each_event_as_stored_and_resumes(live: Live) -> None:
    started(live)
    stream = Stream(live.url + "/api/games/live-1/events", token=live.tokens["referee"])
    try:
        assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
        ((name, ident, data, _),) = stream.take(1)
        assert (name, ident, data["type"], data["position"]) == ("message", "0", "game_started", 0)
        for p in range(1, 7):
            assert live.append(p)[0] == 201
        got = stream.take(6)
        assert [int(i) for _, i, _, _ in got] == [1, 2, 3, 4, 5, 6]
        assert got[0][2]["event"]["hands"][0][:3] == ["3H", "4H", "5H"]  # a referee sees the deal
        assert [f["rule"] for f in got[5][2]["findings"]] == ["RAM-DISC-1"]
        assert got[5][2]["text"] == "Bruno discards K♦"
        ledger = open_app(live.db)
        journal = [j.received_at for j in ledger.journal("live-1")]
        ledger.close()
        assert [d["received_at"] for _, _, d, _ in got] == journal[1:7]  # the journal's own string, to the microsecond
    finally:
        stream.close()
    resumed = Stream(live.url + "/api/games/live-1/events?after=0", last_event_id="4", token=live.tokens["referee"])
    try:
        assert [int(i) for _, i, _, _ in resumed.take(2)] == [5, 6]
    finally:
        resumed.close()
    assert live.get("/api/games/nope/events")[0] == 404
    assert live.get("/api/games/live-1/events?after=x")[0] == 400


def test_stream_ends_when_the_game_ends(live: Live) -> None:
    live.post("/api/games", b"\n".join(LINES) + b"\n", ctype="application/x-ndjson", token="referee")
    stream = Stream(live.url + "/api/games/live-1/events?after=16")
    try:
        got = stream.take(3)
        assert [(n, i) for n, i, _, _ in got] == [("message", "17"), ("message", "18"), ("end", None)]
        assert got[2][2] == {"position": 18, "ended": "hands_played"}
    finally:
        stream.close()


def test_stream_limit_is_503(tmp_path: Path) -> None:
    for live in make_live(tmp_path, STREAM_MAX=1):
        started(live)
        first = Stream(live.url + "/api/games/live-1/events")
        try:
            first.take(1)
            status, headers, body = live.get("/api/games/live-1/events")
            assert (
                status == 503 and headers["retry-after"] == "5" and "too many open streams" in body["error"]["message"]
            )
        finally:
            first.close()


def test_stream_lifetime_is_bounded(tmp_path: Path) -> None:
    for live in make_live(tmp_path, STREAM_MAX_SECONDS=0.5):
        started(live)
        stream = Stream(live.url + "/api/games/live-1/events")
        try:
            got = stream.take(3, timeout=5)
            assert [n for n, _, _, _ in got] == ["message", "timeout", "closed"]
        finally:
            stream.close()


# --- who may read what ----------------------------------------------------------


def test_unfinished_game_spectator_sees_no_hidden_card(live: Live) -> None:
    started(live)
    for p in range(1, 8):
        live.append(p)
    state = live.get("/api/games/live-1/state")[2]
    assert state["spectator"] is True and state["stock"] is None
    assert [s["cards"] for s in state["seats"]] == [None, None] and [s["count"] for s in state["seats"]] == [8, 10]
    assert state["move"] == "Anna draws a card from the stock"
    ref = live.get("/api/games/live-1/state", token="referee")[2]
    assert ref["seats"][0]["cards"] is not None and ref["move"] == "Anna draws 6♥ from the stock"
    # a recorder reads the games in its scope whole (it enters the deals: FORMAT.md "Who may read what")
    recorder = live.get("/api/games/live-1/state", token="recorder")[2]
    assert (
        recorder["seats"][0]["cards"] == ref["seats"][0]["cards"] and recorder["move"] == "Anna draws 6♥ from the stock"
    )
    assert "spectator" not in recorder and live.get("/api/games/live-1", token="recorder")[2]["game"]["view"] == (
        "referee"
    )
    recorder_audit = live.get("/api/games/live-1/audit", token="recorder")[2]
    assert recorder_audit == live.get("/api/games/live-1/audit", token="referee")[2]
    # a recorder or a referee scoped to another tournament or game reads it as a spectator does
    for outside in ("other", "game-rec", "game-ref"):
        assert live.get("/api/games/live-1/state", token=outside)[2] == state, outside
        assert live.get("/api/games/live-1", token=outside)[2]["game"]["view"] == "spectator"
    assert live.get("/api/games/live-1/state?pov=0")[0] == 403
    assert live.get("/api/games/live-1/state?pov=0", token="referee")[2]["seats"][0]["cards"] is not None
    game = live.get("/api/games/live-1")[2]
    assert game["game"]["view"] == "spectator"
    deal = game["events"][1]["event"]
    assert "hands" not in deal and "stock" not in deal and deal["hand_sizes"] == [10, 10]
    assert "card" not in game["events"][2]["event"]
    audit = live.get("/api/games/live-1/audit")[2]
    assert [(f["position"], f["rule"]) for f in audit["findings"]] == [(6, "RAM-DISC-1")]
    assert "K♦" not in audit["findings"][0]["message"] and "KD" not in str(audit)
    assert "K" in live.get("/api/games/live-1/audit", token="referee")[2]["findings"][0]["message"]
    page = call("GET", live.url + "/games/live-1")[2]
    assert 'data-card="6H"' not in page and "draws 6" not in page and 'data-last="7"' in page
    assert "draws a card from the stock" in page and "view as: <b>spectator</b>" in page and "pov=0" not in page
    assert 'data-card="6H"' in call("GET", live.url + "/games/live-1", token=live.tokens["referee"])[2]
    # finished: public again
    live.post(
        "/api/games/live-1/events?expected=8",
        b"\n".join(LINES[8:]) + b"\n",
        ctype="application/x-ndjson",
        token="referee",
    )
    public = live.get("/api/games/live-1/state?at=7")[2]
    assert public["seats"][0]["cards"] is not None and "spectator" not in public
    assert live.get("/api/games/live-1")[2]["game"]["view"] == "public"


def test_spectator_delay(tmp_path: Path) -> None:
    for live in make_live(tmp_path, SPECTATOR_DELAY=1.5):
        started(live)
        time.sleep(1.6)  # game_started is now older than the delay
        spectator = Stream(live.url + "/api/games/live-1/events")
        referee = Stream(live.url + "/api/games/live-1/events", token=live.tokens["referee"])
        try:
            assert spectator.take(1)[0][1] == "0" and referee.take(1)[0][1] == "0"
            sent = time.monotonic()
            assert live.append(1)[0] == 201 and live.append(2)[0] == 201
            got_ref = referee.take(2, timeout=2)
            assert got_ref[0][3] - sent < 1.0 and "hands" in got_ref[0][2]["event"]
            assert live.get("/api/games/live-1")[2]["game"]["last"] == 0  # nothing new for spectators yet
            assert live.get("/api/games/live-1/state?at=1")[0] == 403
            got = spectator.take(2, timeout=5)
            assert [i for _, i, _, _ in got] == ["1", "2"]
            assert got[0][3] - sent >= 1.4
            assert "hands" not in got[0][2]["event"] and "card" not in got[1][2]["event"]
            assert got[1][2]["text"] == "Anna draws a card from the stock"
            assert live.get("/api/games/live-1")[2]["game"]["last"] == 2
        finally:
            spectator.close()
            referee.close()


def test_no_token_in_the_access_log(live: Live, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="werkzeug"):
        started(live)
        assert live.append(1, token="referee")[0] == 201
        live.get("/api/games/live-1/state", token="admin")
        # a token in the URL is refused, and the request line is logged without it
        assert live.get(f"/api/games/live-1/state?at=1&token={live.tokens['referee']}")[0] == 400
        assert live.get(f"/signin?ACCESS_TOKEN={live.tokens['admin']}")[0] == 400
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "POST /api/games/live-1/events" in logged
    assert "GET /api/games/live-1/state?at=1&token=[redacted] HTTP/1.1" in logged
    assert "GET /signin?ACCESS_TOKEN=[redacted] HTTP/1.1" in logged
    for token in live.tokens.values():
        assert token.split(".")[1] not in logged


def test_no_token_in_gunicorns_access_log(tmp_path: Path) -> None:
    from ledger.testing.live import gunicorn

    db = str(tmp_path / "g.db")
    ledger = open_app(db)
    secret = TokenStore(ledger).create("Rita Arbitro", "referee")[0]
    ledger.close()
    log = tmp_path / "access.log"
    with gunicorn(db, workers=1, threads=2, log=log) as url:
        assert call("GET", f"{url}/api/games?token={secret}")[0] == 400
        assert call("GET", f"{url}/api/games?bearer={secret}&x=1")[0] == 400
    text = log.read_text()
    assert '"GET /api/games?token=[redacted] HTTP/1.1" 400' in text
    assert '"GET /api/games?bearer=[redacted]&x=1 HTTP/1.1" 400' in text
    assert secret.split(".")[1] not in text


def test_a_chunked_body_over_the_limit_is_refused_whole(tmp_path: Path) -> None:
    """Without Content-Length the body limit is met while reading: a body that
    passes it is refused with 413 and nothing of it is stored (werkzeug
    itself would stop reading at the limit and pass on the start)."""
    for live in make_live(tmp_path, MAX_CONTENT_LENGTH=4096):
        started(live)
        padding = [b"// " + b"x" * 200 + b"\n"] * 30  # comment lines: 6 KiB
        body = [LINES[1] + b"\n", *padding, b"NOT JSON\n"]
        status, _, answer = live.post("/api/games/live-1/events?expected=1", iter(body), ctype="application/x-ndjson")  # type: ignore[arg-type]
        assert status == 413, answer
        assert answer["error"]["message"].startswith(
            "the body is over 4,096 bytes (sent in chunks); the limit is 4,096 bytes"
        )
        assert live.length() == 1
        small = [LINES[1] + b"\n", LINES[2] + b"\n"]
        assert live.post("/api/games/live-1/events?expected=1", iter(small), ctype="application/x-ndjson")[0] == 201
        assert live.length() == 3


def test_games_list_shows_an_unfinished_game_as_the_reader_may_see_it(tmp_path: Path) -> None:
    """The games list (HTML and /api/games) is no side door: for an
    unfinished game a spectator gets the counts up to the delayed position
    (here nothing after game_started), a referee the whole game's."""
    for live in make_live(tmp_path, SPECTATOR_DELAY=30):
        started(live)
        for p in range(1, 8):
            assert live.append(p)[0] == 201  # RAM-DISC-1 at 6

        def row(token: str | None, live: Live = live) -> dict:  # type: ignore[type-arg]
            (only,) = live.get("/api/games", token=token)[2]["games"]
            return {k: only[k] for k in ("events", "hands", "findings", "finished")}

        assert row(None) == {"events": 1, "hands": 0, "findings": 0, "finished": False}
        assert row("other") == {"events": 1, "hands": 0, "findings": 0, "finished": False}  # another tournament's
        assert row("recorder") == {"events": 8, "hands": 1, "findings": 1, "finished": False}  # reads it whole
        assert row("referee") == {"events": 8, "hands": 1, "findings": 1, "finished": False}
        page = call("GET", live.url + "/games")[2]
        assert '<td class="num">1</td>' in page and '<td class="num">8</td>' not in page
        assert '<td class="num">8</td>' in call("GET", live.url + "/games", token=live.tokens["referee"])[2]
        assert live.get("/api/games", token="nonsense.token")[0] == 401
        # past what a spectator may see, position 6 (stored) and 100 (not) get the same answer
        for path in ("/api/games/live-1/state?at={}", "/api/games/live-1?at={}", "/games/live-1?at={}"):
            answers = [live.get(path.format(at)) for at in (6, 100)]
            assert [a[0] for a in answers] == [403, 403], path
            texts = [str(a[2]).replace(str(at), "N") for a, at in zip(answers, (6, 100))]
            assert texts[0] == texts[1] and "7" not in texts[0] and "up to position 0" in texts[0], path
        assert live.get("/api/games/live-1/state?at=6", token="referee")[0] == 200
        assert live.get("/api/games/live-1/state?at=100", token="referee")[2]["error"]["message"] == (
            "position 100 is outside this game's positions 0–7"
        )
        live.post(
            "/api/games/live-1/events?expected=8",
            b"\n".join(LINES[8:]) + b"\n",
            ctype="application/x-ndjson",
            token="referee",
        )
        assert row(None) == {
            "events": 19,
            "hands": 2,
            "findings": 3,
            "finished": True,
        }  # RAM-DISC-1, ALL-SCORE-1, ALL-TURN-1


def test_two_events_as_application_json_get_the_json_lines_hint(live: Live) -> None:
    started(live)
    body = LINES[1] + b"\n" + LINES[2] + b"\n"
    status, _, result = live.post("/api/games/live-1/events", body, headers={"If-Match": '"1"'})
    assert (status, result["error"]["rule"], result["error"]["line"]) == (400, "REC-FORMAT", 1)
    message = result["error"]["message"]
    assert message.startswith("line 1: REC-FORMAT: malformed JSON (") and "trailing characters" in message
    assert message.endswith(
        "): application/json carries one event; send several as JSON Lines, one per line, with Content-Type: "
        "application/x-ndjson"
    )
    assert live.length() == 1  # nothing stored
    sent = live.post("/api/games/live-1/events", body, ctype="application/x-ndjson", headers={"If-Match": '"1"'})
    assert (sent[0], sent[2]["positions"]) == (201, [1, 2])


def test_get_of_a_game_gives_the_etag_of_the_write_answers(live: Live) -> None:
    """GET /api/games/<id> carries the ETag a POST gives for the same state (the next If-Match), and 304 to it."""
    started(live)
    posted = live.append(1)
    assert posted[1]["etag"] == '"2"'
    status, headers, body = live.get("/api/games/live-1", "referee")
    assert (status, headers["etag"], body["game"]["events"]) == (200, '"2"', 2)
    assert "Authorization" in headers["vary"]
    same = live.get("/api/games/live-1", "referee", headers={"If-None-Match": '"2"'})
    assert (same[0], same[1]["etag"], same[2]) == (304, '"2"', "")
    assert live.post("/api/games/live-1/events", LINES[2], "recorder", headers={"If-Match": headers["etag"]})[0] == 201
    moved = live.get("/api/games/live-1", "referee", headers={"If-None-Match": '"2"'})
    assert (moved[0], moved[1]["etag"], moved[2]["game"]["events"]) == (200, '"3"', 3)
    spectator = live.get("/api/games/live-1")  # the delayed view changes with time: no ETag to cache it by
    assert spectator[0] == 200 and spectator[2]["game"]["view"] == "spectator" and "etag" not in spectator[1]


def test_json_nested_too_deeply_is_400_rec_format_not_500(live: Live) -> None:
    """A game_started whose ``meta`` nests 5,000 arrays (attacker trial: a 500
    and a traceback in the server's log): 400 REC-FORMAT at line 1, no game."""
    deep = LINES[0].rstrip(b"\n")[:-1] + b',"meta":{"x":' + b"[" * 5000 + b"]" * 5000 + b"}}"
    status, headers, err = live.post("/api/games", deep)
    assert (status, headers["content-type"]) == (400, "application/json"), err
    assert {k: err["error"][k] for k in ("rule", "line", "message")} == {
        "rule": "REC-FORMAT",
        "line": 1,
        "message": "line 1: REC-FORMAT: malformed JSON (JSON is nested too deeply)",
    }
    assert live.get("/api/games/live-1", token="referee")[0] == 404
