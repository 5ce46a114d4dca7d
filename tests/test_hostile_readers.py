"""Issue 27's attack classes, a fast sample in the default suite (the attack
scripts ran them by the thousand; CI's slow set, ``RUMMY_LEDGER_ATTACKS=1``,
runs more racing writers: :mod:`tests.attacks`), each on
the real server (:func:`tests.test_live_api.make_live`: werkzeug on 127.0.0.1,
a SQLite store, one token per role) with ``tests/webgames.small_game``:

- readers × endpoints: every kind of reader on every read endpoint of an
  unfinished game gets exactly the cards FORMAT.md "Who may read what" and
  "Per-seat views" allow it (a recorder in scope and a referee every card);
- racing POSTs: concurrent appends at one position, exactly one winner, the
  store the winner's events;
- XSS: names, meta and a referee's words (a penalty's note, a rewind's
  reason) with payloads, escaped on every page;
- the spectator delay: a delayed position answers the same whether its event
  is stored or not.

The whole file takes about 6 s on one core (a few hundred requests).
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import threading
from pathlib import Path

from ledger.cards import standard_deck
from ledger.events import PositionRestored, encode_event
from ledger.store.application import open_app
from ledger.testing.live import Stream
from tests.attacks import scale
from tests.test_live_api import LINES, Live, make_live
from tests.webgames import ANNA, BRUNO, small_game

_CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")
#: a face, also as the pages write it: the suit in a span of its colour (``6<span class="suit-red">♥</span>``,
#: :func:`replay_web.present.suits`), which a reader sees as 6♥ (the PDF's text has it so)
_FACE = re.compile(r"(10|[2-9AJQK])(?:<span class=\"suit-(?:red|black)\">)?([♣♦♥♠])")
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


#: concurrent writers in the race: 40 under ``RUMMY_LEDGER_ATTACKS=1`` (:mod:`tests.attacks`)
WRITERS = scale(12, 40)


# --- readers × endpoints -----------------------------------------------------------

#: at position 7 (Anna has drawn 6♥): the cards ever face up: the upcard 6♣,
#: the meld 3♥ 4♥ 5♥ and K♦ (discarded, taken, discarded again)
FACE_UP = {"6C", "3H", "4H", "5H", "KD"}
#: the board draws the pile's top (K♦ on 6♣) and its count, not the card under it (the page's move list names 6♣)
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
        "/games/live-1": (200, FACE_UP),  # the board as below, and the move list names the upcard 6♣
        "/games/live-1/board": (200, PAGE_FACE_UP),
        "/api/games/live-1": (200, FACE_UP),
        "/api/games/live-1/state": (200, FACE_UP),
        "/api/games/live-1/audit": (200, set()),  # RAM-DISC-1's message names K♦: left out
        "/api/games/live-1/score": (200, set()),
        "/games/live-1/report": (403, set()),  # the report shows every card
    }


#: what the report of the unfinished game shows a reader who sees it whole (HTML and PDF alike)
REPORT_CARDS = set(ANNA) | set(BRUNO) | {"KD", "6C", "6H"}


def _whole_answers() -> dict[str, tuple[int, set[str]]]:
    """What a referee, an admin and a recorder in scope get."""
    return {
        "/games": (200, set()),
        "/api/games": (200, set()),
        "/games/live-1": (200, WHOLE),  # the board as below, and the move list names the upcard 6♣
        "/games/live-1/board": (200, WHOLE - {"6C"}),
        "/api/games/live-1": (200, WHOLE),  # hand_dealt whole
        "/api/games/live-1/state": (200, WHOLE),
        "/api/games/live-1/audit": (200, {"KD"}),
        "/api/games/live-1/score": (200, set()),
        # the hands at the position, and the move list's upcard 6♣ and drawn 6♥: what its PDF shows
        "/games/live-1/report": (200, REPORT_CARDS),
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


Readers = dict[str, tuple[str | None, dict[str, tuple[int, set[str]]], set[str] | None]]


def _readers(live: Live) -> Readers:
    """Every kind of reader: name -> (token, the answers by endpoint, the SSE
    stream's cards or None for a 401)."""
    forged = live.tokens["recorder"][:-4] + ("AAAA" if not live.tokens["recorder"].endswith("AAAA") else "BBBB")
    revoked = live.store.create("Rex", "referee")[0]
    live.store.revoke(revoked.split(".")[0])
    return {
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


def test_every_reader_on_every_read_endpoint_sees_only_what_it_may(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        live.post("/api/games", b"\n".join(LINES[:8]) + b"\n", ctype="application/x-ndjson")
        assert live.length() == 8  # unfinished: Anna has just drawn 6♥
        readers = _readers(live)
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
                        board = endpoint == "/games/live-1/board"  # the pile's top only; the page's moves name 6♣
                        assert (status, cards(body)) == (200, knows - {"6C"} if board else knows), (name, seat)
                    else:
                        expected = 401 if streamed is None else 403
                        assert (status, cards(body)) == (expected, set()), (name, seat, endpoint)


def _pdf_text(url: str, token: str | None) -> tuple[int, str, str]:
    """``(status, content type, text)`` of the report's PDF: ``pdftotext``'s
    text of a PDF, the body as it is otherwise."""
    conn = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=60)
    try:
        conn.request("GET", "/games/live-1/report.pdf", headers={"Authorization": f"Bearer {token}"} if token else {})
        resp = conn.getresponse()
        raw = resp.read()
        ctype = resp.getheader("Content-Type", "")
    finally:
        conn.close()
    if ctype != "application/pdf":
        return resp.status, ctype, raw.decode("utf-8")
    done = subprocess.run(["/usr/bin/pdftotext", "-", "-"], input=raw, capture_output=True, check=True)
    return resp.status, ctype, done.stdout.decode("utf-8")


def test_the_report_pdf_holds_only_what_the_reader_may_see(tmp_path: Path) -> None:
    """The PDF endpoint in the readers' matrix: of an unfinished game, a reader
    who may not see its hidden cards (a spectator, a recorder or referee scoped
    elsewhere) gets a 403 naming no card, a bad token a 401, and a referee, an
    admin and a recorder in scope the PDF with the hands at the position and
    the move list's cards
    (FORMAT.md "Who may read what"). Its HTML shows each reader the same
    cards as its PDF (issue 27: the move list's cards, written with their
    suit in a coloured span, were not read from the HTML)."""
    for live in make_live(tmp_path):
        live.post("/api/games", b"\n".join(LINES[:8]) + b"\n", ctype="application/x-ndjson")
        got = {}
        for name, (token, _answers, _streamed) in _readers(live).items():
            status, ctype, text = _pdf_text(live.url, token)
            got[name] = (status, ctype == "application/pdf", cards(text))
            html_status, _h, page = raw_get(live.url, "/games/live-1/report", token)
            assert (html_status, cards(page)) == (status, got[name][2]), name
        # the hands at the position, and the move list's upcard 6♣ and drawn 6♥ (the PDF's text reads them)
        whole = (200, True, REPORT_CARDS)
        hidden = (403, False, set())
        assert got == {
            "anonymous": hidden,
            "recorder of another tournament": hidden,
            "recorder of another game": hidden,
            "referee of another game": hidden,
            "recorder in scope": whole,
            "referee": whole,
            "admin": whole,
            "forged token": (401, False, set()),
            "revoked token": (401, False, set()),
        }


# --- racing POSTs -------------------------------------------------------------------


def _race(live: Live, n: int) -> dict[int, tuple[int, dict]]:
    """``n`` writers at position 1 at once (writer k: events 1 to 1 + k % 4,
    by ``If-Match`` for even k, ``?expected=`` for odd k): their answers by k."""
    barrier = threading.Barrier(n)
    answers: dict[int, tuple[int, dict]] = {}

    def writer(k: int) -> None:
        body = b"\n".join(LINES[1 : 2 + k % 4]) + b"\n"
        by_header = k % 2 == 0
        path = "/api/games/live-1/events" + ("" if by_header else "?expected=1")
        headers = {"If-Match": '"1"'} if by_header else {}
        barrier.wait()
        status, _h, answer = live.post(path, body, ctype="application/x-ndjson", headers=headers)
        answers[k] = (status, answer)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


def test_racing_batches_at_one_position_store_exactly_the_winners(tmp_path: Path) -> None:
    """``WRITERS`` writers (12; 40 in CI's slow set) at position 1 at once,
    batches of 1 to 4 events, half naming the position by ``If-Match``, half by
    ``?expected=``: one 201, every other a 409 that gives the winner's length,
    the store the winner's events."""
    for live in make_live(tmp_path):
        assert live.post("/api/games", LINES[0])[0] == 201
        answers = _race(live, WRITERS)
        winners = [k for k, (status, _) in answers.items() if status == 201]
        assert len(winners) == 1 and len(answers) == WRITERS
        length = 2 + winners[0] % 4
        assert answers[winners[0]][1]["positions"] == list(range(1, length))
        assert sorted((s, a["error"]["length"]) for k, (s, a) in answers.items() if k != winners[0]) == [
            (409, length)
        ] * (WRITERS - 1)
        assert live.length() == length
        ledger = open_app(live.db)
        try:
            assert ledger.export_record("live-1") == b"".join(line + b"\n" for line in LINES[:length])
        finally:
            ledger.close()
        assert live.append(length)[0] == 201  # the next position is free, once


# --- the spectator delay --------------------------------------------------------------

#: every read of one position by a spectator
AT_PATHS = (
    "/games/{g}?at={n}",
    "/games/{g}/board?at={n}",
    "/api/games/{g}?at={n}",
    "/api/games/{g}/state?at={n}",
    "/api/games/{g}/audit?at={n}",
    "/api/games/{g}/score?at={n}",
    "/games/{g}/report?at={n}",
    "/games/{g}",
    "/api/games/{g}",
    "/api/games/{g}/state",
    "/api/games/{g}/audit",
)


def test_a_delayed_position_answers_the_same_whether_its_event_exists(tmp_path: Path) -> None:
    """FORMAT.md "Who may read what": a spectator reads only events older
    than the delay. Game g-a holds positions 0-7 stored just now, g-b only
    its game_started: every answer to a spectator, at every position 1-9 and
    with no ``at``, has the same status, length, ETag and bytes (game id
    aside)."""
    for live in make_live(tmp_path, SPECTATOR_DELAY=600):
        for game_id, n in (("g-a", 8), ("g-b", 1)):
            lines = [encode_event(e) for e in small_game(game_id)][:n]
            status = live.post("/api/games", b"\n".join(lines) + b"\n", ctype="application/x-ndjson")[0]
            assert status == 201 and live.length(game_id) == n
        seen = []
        for template in AT_PATHS:
            for n in range(1, 10) if "{n}" in template else (0,):
                answers = []
                for game_id in ("g-a", "g-b"):
                    status, headers, body = raw_get(live.url, template.format(g=game_id, n=n))
                    body = body.replace(game_id, "GAME")
                    answers.append((status, len(body), headers.get("etag"), body))
                assert answers[0] == answers[1], template.format(g="*", n=n)
                seen.append(answers[0][0])
        # past the delay: refused (at=1..9) or the spectator's position 0 only
        assert seen == [403] * 9 * 7 + [200] * 4
        assert raw_get(live.url, "/api/games/g-a", live.tokens["referee"])[0] == 200
        assert json.loads(raw_get(live.url, "/api/games/g-a")[2])["game"]["last"] == 0


# --- XSS ------------------------------------------------------------------------------

#: the payloads, each where the record lets a player or a referee write words
PAYLOADS = {
    "name 0": "<script>alert(1)</script>",
    "name 1": "\"'><svg onload=alert(3)>",
    "tournament": "<img src=x onerror=alert(2)>",
    "table": "<i>7</i>",
    "referee": "</title><script>alert(4)</script>",
    "site": "javascript:alert(5)//<a href=x>",
    "note": "<script>steal()</script>",  # the referee's words on the penalty at 13
}


#: the tags the pages write themselves: their script, the report's chart (an SVG as a data URL)
_OWN_TAG = re.compile(
    r'<script src="/static/[a-z_]+\.js"[^<>]*>|<img src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+"[^<>]*>'
)


def _evil_lines(game_id: str) -> list[bytes]:
    meta = {k: v for k, v in PAYLOADS.items() if k in ("tournament", "table", "referee", "site")}
    events = small_game(
        game_id,
        names=(PAYLOADS["name 0"], PAYLOADS["name 1"]),
        meta={**meta, "date": "2026-12-02"},
        note=PAYLOADS["note"],
    )
    return [encode_event(e) for e in events]


def test_payloads_in_names_meta_and_rulings_are_escaped_on_every_page(tmp_path: Path) -> None:
    """A finished game (public) and an unfinished one (its spectator's and its
    referee's pages) with a payload in every free text: no page holds a payload
    as written; the game page at the penalty shows each of them escaped."""
    for live in make_live(tmp_path):
        for game_id, n in (("evil-1", 19), ("evil-2", 14)):
            body = b"\n".join(_evil_lines(game_id)[:n]) + b"\n"
            assert live.post("/api/games", body, ctype="application/x-ndjson", token="referee")[0] == 201
        pages = ["/games", "/games?q=%3Cscript%3E"]
        for game_id in ("evil-1", "evil-2"):
            for at in (6, 12, 13):
                pages += [f"/games/{game_id}?at={at}", f"/games/{game_id}/board?at={at}"]
                pages += [f"/games/{game_id}?at={at}&pov=0", f"/games/{game_id}/report?at={at}"]
            pages += [f"/games/{game_id}/report?finding=6", f"/games/{game_id}/report?lang=it"]
        statuses = []
        for token in (None, live.tokens["referee"]):
            for path in pages:
                status, headers, page = raw_get(live.url, path, token)
                statuses.append(status)
                assert headers["content-type"].startswith("text/html"), path
                for where, payload in PAYLOADS.items():
                    assert payload not in page, (path, where)
                tags = re.findall(r"<(?:script|svg|img|iframe|object|embed)\b[^>]*>", page)
                assert [t for t in tags if not _OWN_TAG.fullmatch(t)] == [], path
                assert "javascript:" not in page.replace("javascript:alert(5)//&lt;a href=x&gt;", ""), path
        # anonymous: the finished game whole, the unfinished one's spectator view (its seat view and report refused)
        anonymous = [200] * (2 + 3 * 4 + 2) + [200, 200, 403, 403] * 3 + [403, 403]
        assert statuses == anonymous + [200] * len(pages)
        page = raw_get(live.url, "/games/evil-1?at=13")[2]
        for escaped in (
            "&lt;script&gt;alert(1)&lt;/script&gt;",
            "&#34;&#39;&gt;&lt;svg onload=alert(3)&gt;",
            "tournament: &lt;img src=x onerror=alert(2)&gt;",
            "note: &lt;script&gt;steal()&lt;/script&gt;",
        ):
            assert escaped in page, escaped


def test_a_rewinds_reason_is_escaped_on_every_page(tmp_path: Path) -> None:
    """The referee's words on a ``position_restored`` (RAM-DISC-1 at 6 ruled
    by a rewind to 5): escaped on the referee's game page, board and report,
    and not shown to a spectator at all (README "Who may read what")."""
    reason = "<script>rewind()</script>"
    rewind = PositionRestored(target=5, finding=6, reason=reason)
    lines = _evil_lines("evil-3")[:7] + [encode_event(rewind)]
    for live in make_live(tmp_path):
        assert (
            live.post("/api/games", b"\n".join(lines) + b"\n", ctype="application/x-ndjson", token="referee")[0] == 201
        )
        got = []
        for token in (None, live.tokens["referee"]):
            for path in ("/games/evil-3?at=7", "/games/evil-3/board?at=7", "/games/evil-3/report?at=7"):
                status, _h, page = raw_get(live.url, path, token)
                assert reason not in page and "rewind()" not in page.replace(
                    "&lt;script&gt;rewind()&lt;/script&gt;", ""
                )
                got.append((status, "&lt;script&gt;rewind()&lt;/script&gt;" in page))
        assert got == [(200, False), (200, False), (403, False), (200, True), (200, True), (200, True)]
