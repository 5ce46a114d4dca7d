"""Issue 27's attack classes, a fast sample in the default suite (the attack
scripts ran them by the thousand; CI never set ``RUMMY_LEDGER_SLOW``), each on
the real server (:func:`tests.test_live_api.make_live`: werkzeug on 127.0.0.1,
a SQLite store, one token per role) with ``tests/webgames.small_game``:

- readers × endpoints: every kind of reader on every read endpoint of an
  unfinished game gets exactly the cards FORMAT.md "Who may read what" and
  "Per-seat views" allow it (a recorder in scope and a referee every card);
- racing POSTs: concurrent appends at one position, exactly one winner, the
  store the winner's events;
- XSS: names, meta and a referee's words with payloads, escaped on every page;
- the spectator delay: a delayed position answers the same whether its event
  is stored or not.
"""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path

from ledger.cards import standard_deck
from ledger.testing.live import Stream
from tests.test_live_api import LINES, Live, make_live
from tests.webgames import ANNA, BRUNO

_CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")
_FACE = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
_SUIT = dict(zip("♣♦♥♠", "CDHS", strict=True))


def cards(text: str) -> set[str]:
    """Every card named in ``text``, as a code (``6H``, ``data-card="6H"``) or a face (``6♥``)."""
    return {a + b for a, b in _CODE.findall(text)} | {a + _SUIT[b] for a, b in _FACE.findall(text)}


def raw_get(url: str, path: str, token: str | None = None) -> tuple[int, dict[str, str], str]:
    """``(status, headers, body)``, a JSON body re-encoded with its non-ASCII
    characters as they are (Flask writes ``6\\u2665``)."""
    conn = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=30)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        resp = conn.getresponse()
        raw = resp.read()
        headers = {k.lower(): v for k, v in resp.getheaders()}
    finally:
        conn.close()
    text = raw.decode("utf-8")
    if headers.get("content-type", "").startswith("application/json"):
        text = json.dumps(json.loads(raw), ensure_ascii=False)
    return resp.status, headers, text


# --- readers × endpoints -----------------------------------------------------------

#: at position 7 (Anna has drawn 6♥): the cards ever face up: the upcard 6♣,
#: the meld 3♥ 4♥ 5♥ and K♦ (discarded, taken, discarded again)
FACE_UP = {"6C", "3H", "4H", "5H", "KD"}
#: the pages draw the pile's top (K♦ on 6♣) and its count, not the card under it
PAGE_FACE_UP = FACE_UP - {"6C"}
WHOLE = set(standard_deck())
#: what each seat knows at 7: its own cards as dealt and drawn, and the face-up ones
ANNA_KNOWS = set(ANNA) | FACE_UP | {"6H"}
BRUNO_KNOWS = set(BRUNO) | FACE_UP

#: the read endpoints of one game, with no ``at`` (the last position the reader may see)
ENDPOINTS = (
    "/games",
    "/api/games",
    "/games/live-1",
    "/games/live-1/board",
    "/api/games/live-1",
    "/api/games/live-1/state",
    "/api/games/live-1/audit",
    "/api/games/live-1/score",
    "/games/live-1/report",
)
SEAT_ENDPOINTS = ("/games/live-1", "/games/live-1/board", "/api/games/live-1/state")


def _spectator_answers() -> dict[str, tuple[int, set[str]]]:
    """What a reader who may not see the whole game gets at each endpoint."""
    return {
        "/games": (200, set()),
        "/api/games": (200, set()),
        "/games/live-1": (200, PAGE_FACE_UP),
        "/games/live-1/board": (200, PAGE_FACE_UP),
        "/api/games/live-1": (200, FACE_UP),
        "/api/games/live-1/state": (200, FACE_UP),
        "/api/games/live-1/audit": (200, set()),  # RAM-DISC-1's message names K♦: left out
        "/api/games/live-1/score": (200, set()),
        "/games/live-1/report": (403, set()),  # the report shows every card
    }


def _whole_answers() -> dict[str, tuple[int, set[str]]]:
    """What a referee, an admin and a recorder in scope get."""
    return {
        "/games": (200, set()),
        "/api/games": (200, set()),
        "/games/live-1": (200, WHOLE - {"6C"}),  # the page: the stock face down in order, the pile's top
        "/games/live-1/board": (200, WHOLE - {"6C"}),
        "/api/games/live-1": (200, WHOLE),  # hand_dealt whole
        "/api/games/live-1/state": (200, WHOLE),
        "/api/games/live-1/audit": (200, {"KD"}),
        "/api/games/live-1/score": (200, set()),
        "/games/live-1/report": (200, set(ANNA) | set(BRUNO) | {"KD"}),  # the hands at the position
    }


def _sse_cards(live: Live, token: str | None) -> set[str]:
    stream = Stream(live.url + "/api/games/live-1/events", token=token)
    try:
        assert stream.status == 200
        got = stream.take(8)
    finally:
        stream.close()
    assert [int(i) for _, i, _, _ in got] == list(range(8))
    return cards(json.dumps([d for _, _, d, _ in got], ensure_ascii=False))


def test_every_reader_on_every_read_endpoint_sees_only_what_it_may(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        live.post("/api/games", b"\n".join(LINES[:8]) + b"\n", ctype="application/x-ndjson")
        assert live.length() == 8  # unfinished: Anna has just drawn 6♥
        forged = live.tokens["recorder"][:-4] + ("AAAA" if not live.tokens["recorder"].endswith("AAAA") else "BBBB")
        revoked = live.store.create("Rex", "referee")[0]
        live.store.revoke(revoked.split(".")[0])
        readers: dict[str, tuple[str | None, dict[str, tuple[int, set[str]]], set[str] | None]] = {
            # name: (token, the answers, the SSE stream's cards or None for a 401)
            "anonymous": (None, _spectator_answers(), FACE_UP),
            "recorder of another tournament": (live.tokens["other"], _spectator_answers(), FACE_UP),
            "recorder of another game": (live.tokens["game-rec"], _spectator_answers(), FACE_UP),
            "referee of another game": (live.tokens["game-ref"], _spectator_answers(), FACE_UP),
            "recorder in scope": (live.tokens["recorder"], _whole_answers(), WHOLE),
            "referee": (live.tokens["referee"], _whole_answers(), WHOLE),
            "admin": (live.tokens["admin"], _whole_answers(), WHOLE),
            "forged token": (forged, {e: (401, set()) for e in ENDPOINTS}, None),
            "revoked token": (revoked, {e: (401, set()) for e in ENDPOINTS}, None),
        }
        for name, (token, answers, streamed) in readers.items():
            got = {}
            for endpoint in ENDPOINTS:
                status, _h, body = raw_get(live.url, endpoint, token)
                got[endpoint] = (status, cards(body))
            assert got == answers, name
            if streamed is None:
                assert Stream(live.url + "/api/games/live-1/events", token=token).status == 401, name
            else:
                assert _sse_cards(live, token) == streamed, name
            # the seats' views (a referee's, for an unfinished game; a spectator's pov is refused)
            for seat, knows in ((0, ANNA_KNOWS), (1, BRUNO_KNOWS)):
                for endpoint in SEAT_ENDPOINTS:
                    status, _h, body = raw_get(live.url, f"{endpoint}?pov={seat}", token)
                    if streamed == WHOLE:
                        page = endpoint != "/api/games/live-1/state"
                        assert (status, cards(body)) == (200, knows - {"6C"} if page else knows), (name, seat)
                    else:
                        expected = 401 if streamed is None else 403
                        assert (status, cards(body)) == (expected, set()), (name, seat, endpoint)
