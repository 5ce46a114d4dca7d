"""The smaller items of issue 27, defect 7, on the real server: the JSON error of an oversized header,
one body limit for Content-Length and chunked bodies, a bad If-Match quoted short, and the ruling forms
refusing a foreign ``Origin`` over plain http."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

from ledger.store.application import open_app
from ledger.testing.live import call, gunicorn
from tests.test_desk import GAME, Desk, desk, page_csrf, penalty, sign_in  # noqa: F401 - desk is a fixture
from tests.test_live_api import LINES, make_live, started
from tests.test_serve_cli import _serve


def _send(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Bytes sent as they are; the answer's status, headers and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    top, _, body = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _bearer_of(size: int) -> bytes:
    """A request whose ``Authorization`` header holds a token of ``size`` bytes."""
    return (
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + b"a" * size
        + b"\r\nConnection: close\r\n\r\n"
    )


def test_a_100_kb_authorization_header_gets_the_json_error(tmp_path: Path) -> None:
    with _serve(tmp_path) as (port, _log):
        status, headers, body = _send(port, _bearer_of(100_000))
    assert (status, headers["content-type"]) == (431, "application/json")
    assert json.loads(body) == {
        "error": {
            "status": 431,
            "title": "Request Header Fields Too Large",
            "message": "a header line is over 65,536 bytes: send a shorter header",
        }
    }


def test_gunicorns_own_refusals_are_the_json_error(tmp_path: Path) -> None:
    """Under gunicorn (the production server, with the viewer's worker) a header
    over its limit is the JSON 431 and a request line over its limit the JSON
    414, never gunicorn's HTML page, and the header is not echoed back."""
    db = str(tmp_path / "g.db")
    open_app(db).close()
    with gunicorn(db, workers=1, threads=4) as url:
        port = int(url.rsplit(":", 1)[1])
        for size in (9_000, 100_000):
            status, headers, body = _send(port, _bearer_of(size))
            assert (status, headers["content-type"]) == (431, "application/json")
            assert json.loads(body) == {
                "error": {
                    "status": 431,
                    "title": "Request Header Fields Too Large",
                    "message": "a header is longer, or there are more headers, than the server reads (gunicorn's "
                    "--limit-request-field-size and --limit-request-fields): send a shorter header",
                }
            }
        status, headers, body = _send(
            port, b"GET /api/games?x=" + b"b" * 10_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        assert (status, headers["content-type"], json.loads(body)["error"]["status"]) == (414, "application/json", 414)
        assert b"bbbb" not in body
        assert call("GET", url + "/api/games")[0] == 200  # the worker serves on


def _chunked(port: int, token: str, body: bytes, expected: int) -> tuple[int, dict[str, Any]]:
    head = (
        f"POST /api/games/live-1/events?expected={expected} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/x-ndjson\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode()
    parts = [body[i : i + 1000] for i in range(0, len(body), 1000)]
    status, _h, answer = _send(port, head + b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n")
    return status, json.loads(answer)


def _body(position: int, size: int) -> bytes:
    """The event at ``position`` and a comment line: ``size`` bytes."""
    head = LINES[position] + b"\n// "
    return head + b"x" * (size - len(head) - 1) + b"\n"


def test_the_body_limit_is_the_same_with_and_without_content_length(tmp_path: Path) -> None:
    """A body of exactly MAX_CONTENT_LENGTH bytes is taken and one byte more
    refused, whether it comes with a Content-Length or in chunks (chunks
    were refused from one byte less)."""
    for live in make_live(tmp_path, MAX_CONTENT_LENGTH=4096):
        started(live)
        port = int(live.url.rsplit(":", 1)[1])
        token = live.tokens["recorder"]
        over = live.post("/api/games/live-1/events?expected=1", _body(1, 4097), ctype="application/x-ndjson")
        assert (over[0], live.length()) == (413, 1)
        exact = live.post("/api/games/live-1/events?expected=1", _body(1, 4096), ctype="application/x-ndjson")
        assert (exact[0], live.length()) == (201, 2)
        status, answer = _chunked(port, token, _body(2, 4097), 2)
        assert (status, live.length()) == (413, 2)
        assert answer["error"]["message"] == (
            "the body is over 4,096 bytes (sent in chunks); the limit is 4,096 bytes: send fewer events per request"
        )
        status, answer = _chunked(port, token, _body(2, 4096), 2)
        assert (status, live.length()) == (201, 3), answer
        assert answer["positions"] == [2]


def test_a_bad_if_match_is_quoted_short(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        started(live)
        status, _, body = live.post("/api/games/live-1/events", LINES[1], headers={"If-Match": "7" * 5000})
        assert status == 400
        assert body["error"]["message"] == (
            "If-Match '" + "7" * 40 + "'… (4,960 more characters): give the expected next position as a quoted "
            'number, e.g. If-Match: "12"'
        )


def test_the_ruling_forms_refuse_a_foreign_origin_over_http(desk: Desk) -> None:  # noqa: F811 - the fixture
    c = desk.client()
    assert sign_in(c, desk.tokens["referee"]).status_code == 303
    for origin in (
        "http://evil.example",
        "null",
        "https://evil.example",
        "http://localhost.evil.example",
        "https://localhost",
    ):
        resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c)), headers={"Origin": origin})
        assert resp.status_code == 400, origin
        assert "The Origin header does not match the host." in resp.get_data(as_text=True)
        assert desk.length() == 10
    italian = c.post(
        f"/games/{GAME}/rulings/penalty?lang=it", data=penalty(page_csrf(c)), headers={"Origin": "http://evil.example"}
    )
    assert italian.status_code == 400
    assert "L&#39;intestazione Origin non è di questo sito." in italian.get_data(as_text=True)
    # its own origin (and a form without the header, left to the CSRF token) is taken
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c)), headers={"Origin": "http://localhost"})
    assert resp.status_code == 303 and desk.length() == 11


def test_an_https_site_refuses_its_host_over_http(desk: Desk) -> None:  # noqa: F811 - the fixture
    """The scheme is part of the origin (RFC 6454): over TLS, or behind a TLS proxy
    (``SESSION_COOKIE_SECURE``), ``http://`` of the same host is another site."""
    c = desk.client()
    assert sign_in(c, desk.tokens["referee"]).status_code == 303
    for secure_proxy, base in ((False, "https://localhost"), (True, "http://localhost")):
        desk.app.config["SESSION_COOKIE_SECURE"] = secure_proxy
        before = desk.length()
        for origin, status, length in (("http://localhost", 400, before), ("https://localhost", 303, before + 1)):
            form = penalty(page_csrf(c), expected=desk.length())
            resp = c.post(
                f"/games/{GAME}/rulings/penalty",
                data=form,
                headers={"Origin": origin, "Referer": f"{base}/games/{GAME}"},
                base_url=base,
            )
            assert (resp.status_code, desk.length()) == (status, length), (secure_proxy, origin)


def test_a_bad_expected_is_quoted_short_and_5000_digits_are_no_crash(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        started(live)
        for value, shown in (("7" * 5000, "7" * 40), ("x" * 5000, "x" * 40)):
            status, _, body = live.post(f"/api/games/live-1/events?expected={value}", LINES[1])
            assert status == 400, body
            assert body["error"]["message"] == (
                f"expected='{shown}'… (4,960 more characters) is not a position (a whole number ≥ 0)"
            )
        status, _, body = live.post("/api/games/live-1/events?expected=%D9%A3", LINES[1])
        assert status == 400 and body["error"]["message"] == "expected='٣' is not a position (a whole number ≥ 0)"
        status, _, body = live.post("/api/games/live-1/events?expected=1", LINES[1])
        assert status == 201, body


def test_the_write_api_reads_no_origin(tmp_path: Path) -> None:
    for live in make_live(tmp_path):
        started(live)
        status = call(
            "POST",
            live.url + "/api/games/live-1/events",
            LINES[1],
            token=live.tokens["recorder"],
            headers={"If-Match": '"1"', "Origin": "http://evil.example"},
        )[0]
        assert status == 201
