"""``rummy-ledger serve``: its log when standard error is a file, and the
gunicorn command line it recommends (the same as docs/command-line.md's, docs/live-http.md's and
:mod:`replay_web.stream`'s)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ledger.cli import cli
from ledger.store.application import open_app
from ledger.testing.live import call, free_port
from ledger.tokens import TokenStore
from replay_web import stream
from tests.conftest import REPO


@contextmanager
def _serve(tmp_path: Path, *options: str) -> Iterator[tuple[int, Path]]:
    """``rummy-ledger [OPTIONS] serve`` on a fresh store, its output to a file: ``(port, log)``."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ledger.cli",
                "--db",
                str(tmp_path / "s.db"),
                *options,
                "serve",
                "--port",
                str(port),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
                    time.sleep(0.2)
            yield port, log
        finally:
            proc.terminate()
            proc.wait(10)


def _raw(port: int, head: bytes, body: bytes = b"") -> tuple[int, dict[str, Any]]:
    """One request sent byte for byte (``curl`` sends a non-ASCII URL unescaped): status, JSON body.
    ``head``: the request line and any headers, each ending in CRLF."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head + b"Host: 127.0.0.1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    top, _, payload = answer.partition(b"\r\n\r\n")
    return int(top.split()[1]), json.loads(payload)


def test_serve_logs_no_colour_codes_to_a_file(tmp_path: Path) -> None:
    with _serve(tmp_path) as (port, log):
        status = call("GET", f"http://127.0.0.1:{port}/no-such-page", timeout=5)[0]
    text = log.read_text(encoding="utf-8")
    assert status == 404
    assert '"GET /no-such-page HTTP/1.1" 404 -' in text  # werkzeug colours a 404 yellow on a terminal
    assert "WARNING: This is a development server." in text and "Press CTRL+C to quit" in text
    assert "\x1b" not in text


def test_serve_says_where_it_serves_in_italian(tmp_path: Path) -> None:
    with _serve(tmp_path, "--lang", "it") as (port, log):
        call("GET", f"http://127.0.0.1:{port}/no-such-page", timeout=5)
    first = log.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"visore di SQLite {tmp_path / 's.db'} su http://127.0.0.1:{port}/ (Ctrl-C per fermarlo)"


def test_raw_utf8_in_the_url_is_quoted_as_sent(tmp_path: Path) -> None:
    ledger = open_app(str(tmp_path / "s.db"))
    token = TokenStore(ledger).create("Mario Rossi", "recorder")[0]
    ledger.close()
    after = "after='\uff13': give the last position already seen (-1 for all)"
    with _serve(tmp_path) as (port, _log):
        head = "POST /api/games/g/events?expected=\uff11\uff14 HTTP/1.1\r\n".encode()
        head += f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n".encode()
        status, body = _raw(port, head, b"{}")
        assert (status, body["error"]["message"]) == (
            400,
            "expected='\uff11\uff14' is not a position (a whole number \u2265 0)",
        )
        status, body = _raw(port, "GET /api/games/g/events?after=\uff13 HTTP/1.1\r\n".encode())
        assert (status, body["error"]["message"]) == (400, after)
        # percent-escaped, as a browser sends it: the same
        status, body = _raw(port, b"GET /api/games/g/events?after=%EF%BC%93 HTTP/1.1\r\n")
        assert (status, body["error"]["message"]) == (400, after)


def _threads(text: str) -> list[int]:
    return [
        int(n) for n in re.findall(r"gunicorn -k replay_web.gunicorn_worker.ThreadWorker -w 2 --threads (\d+)", text)
    ]


def test_the_recommended_threads_agree() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    helped = _threads(" ".join(result.output.split()))
    readme = [n for page in ("command-line.md", "live-http.md") for n in _threads((REPO / "docs" / page).read_text())]
    documented = _threads(" ".join((stream.__doc__ or "").split()))
    assert (helped, readme, documented) == ([48], [48, 48], [48])
    assert 48 == stream.DEFAULTS["STREAM_MAX"] + 16  # the 32 streams of a worker and 16 other requests


def test_a_port_in_use_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    """The socket is bound before the "serving" line: a port in use is refused naming host:port (en/it)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        for lang, expected in (
            (
                "en",
                f"rummy-ledger: error: cannot listen on 127.0.0.1:{port}: the port is in use by another program "
                "(stop it, or choose another --port)\n",
            ),
            (
                "it",
                f"rummy-ledger: errore: impossibile mettersi in ascolto su 127.0.0.1:{port}: la porta è usata da un "
                "altro programma (fermalo, o scegli un'altra --port)\n",
            ),
        ):
            done = subprocess.run(
                [sys.executable, "-m", "ledger.cli", "--db", str(tmp_path / "s.db"), "--lang", lang, "serve"]
                + ["--port", str(port)],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=tmp_path,
            )
            assert (done.returncode, done.stdout, done.stderr) == (2, "", expected)
