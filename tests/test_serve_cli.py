"""``rummy-ledger serve``: its log when standard error is a file, and the
gunicorn command line it recommends (the same as the README's and
:mod:`replay_web.stream`'s)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from ledger.cli import cli
from ledger.testing.live import call, free_port
from replay_web import stream
from tests.conftest import REPO


def test_serve_logs_no_colour_codes_to_a_file(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ledger.cli", "--db", str(tmp_path / "s.db"), "serve", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    status = call("GET", f"http://127.0.0.1:{port}/no-such-page", timeout=5)[0]
                    break
                except OSError:
                    assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
                    time.sleep(0.2)
        finally:
            proc.terminate()
            proc.wait(10)
    text = log.read_text(encoding="utf-8")
    assert status == 404
    assert '"GET /no-such-page HTTP/1.1" 404 -' in text  # werkzeug colours a 404 yellow on a terminal
    assert "WARNING: This is a development server." in text and "Press CTRL+C to quit" in text
    assert "\x1b" not in text


def _threads(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"gunicorn -k gthread -w 2 --threads (\d+)", text)]


def test_the_recommended_threads_agree() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    helped = _threads(" ".join(result.output.split()))
    readme = _threads((REPO / "README.md").read_text(encoding="utf-8"))
    documented = _threads(" ".join((stream.__doc__ or "").split()))
    assert (helped, readme, documented) == ([48], [48, 48], [48])
    assert 48 == stream.DEFAULTS["STREAM_MAX"] + 16  # the 32 streams of a worker and 16 other requests
