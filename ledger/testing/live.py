"""Real servers for the live record service's tests and benchmark (issue 14).

The one part of :mod:`ledger.testing` that does I/O (sockets, threads, a
subprocess); nothing in the service imports it.

- :func:`serve` runs a Flask app on 127.0.0.1 on a free port (werkzeug's
  threaded server, in a thread of this process);
- :func:`gunicorn` starts ``gunicorn -k replay_web.gunicorn_worker.ThreadWorker 'replay_web:create_app()'``
  (or another application) as a subprocess on a free port, its store named
  by ``RUMMY_LEDGER_DB``;
- :func:`call` is one HTTP request (a new connection each time) answering
  ``(status, headers, json)``;
- :class:`Stream` reads a Server-Sent Events stream in a thread.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of ``app`` served until the block ends."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


@contextmanager
def gunicorn(
    db: str,
    *,
    workers: int = 2,
    threads: int = 32,
    env: dict[str, str] | None = None,
    log: Path | None = None,
    app: str = "replay_web:create_app()",
) -> Iterator[str]:
    """A gunicorn server (the viewer's gthread workers, :mod:`replay_web.gunicorn_worker`)
    on the store ``db``; yields its URL once it answers. The access log goes to ``log`` when given; ``app`` is
    gunicorn's application (a benchmark's own factory around the viewer's)."""
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "gunicorn",
        "-k",
        "replay_web.gunicorn_worker.ThreadWorker",
        "-w",
        str(workers),
        "--threads",
        str(threads),
        "-b",
        f"127.0.0.1:{port}",
        "--graceful-timeout",
        "2",
        "--timeout",
        "60",
    ]
    if log is not None:
        argv += ["--access-logfile", str(log), "--error-logfile", str(log)]
    argv.append(app)
    environ = {**os.environ, "RUMMY_LEDGER_DB": db, **(env or {})}
    proc = subprocess.Popen(argv, env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if log else None)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if call("GET", url + "/api/games")[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start (exit {proc.poll()})")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def call(
    method: str,
    url: str,
    body: bytes | str | None = None,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    ctype: str = "application/json",
    timeout: float = 30,
) -> tuple[int, dict[str, str], Any]:
    """One request on a new connection: ``(status, headers, decoded JSON or text)``."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
    h = dict(headers or {})
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    if body is not None:
        h.setdefault("Content-Type", ctype)
    try:
        conn.request(
            method,
            parts.path + (f"?{parts.query}" if parts.query else ""),
            body=body.encode() if isinstance(body, str) else body,
            headers=h,
        )
        resp = conn.getresponse()
        raw = resp.read()
        got = {k.lower(): v for k, v in resp.getheaders()}
    finally:
        conn.close()
    data: Any = raw.decode("utf-8", "replace")
    if got.get("content-type", "").startswith("application/json"):
        data = json.loads(raw)
    return resp.status, got, data


class Stream:
    """An SSE client in a thread: ``events`` is a queue of
    ``(event name, id, data dict, monotonic time received)``."""

    def __init__(
        self, url: str, *, token: str | None = None, last_event_id: str | None = None, timeout: float = 30
    ) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = {k.lower(): v for k, v in self.response.getheaders()}
        self.events: queue.Queue[tuple[str, str | None, Any, float]] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        if self.status == 200:
            self.thread.start()
        else:
            self.body = self.response.read()

    def _read(self) -> None:
        name: str = "message"
        ident: str | None = None
        data: list[str] = []
        try:
            for raw in self.response:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        text = "\n".join(data)
                        self.events.put((name, ident, json.loads(text), time.monotonic()))
                    name, ident, data = "message", None, []
                elif line.startswith(":"):
                    continue
                else:
                    key, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if key == "event":
                        name = value
                    elif key == "id":
                        ident = value
                    elif key == "data":
                        data.append(value)
        except Exception:  # closed under us
            pass
        self.events.put(("closed", None, None, time.monotonic()))

    def take(self, n: int, timeout: float = 10) -> list[tuple[str, str | None, Any, float]]:
        """The next ``n`` messages (AssertionError when they do not come in time)."""
        out: list[tuple[str, str | None, Any, float]] = []
        deadline = time.monotonic() + timeout
        while len(out) < n:
            left = deadline - time.monotonic()
            try:
                out.append(self.events.get(timeout=max(left, 0.001)))
            except queue.Empty:
                raise AssertionError(f"got {len(out)} of {n} stream messages in {timeout} s: {out}") from None
        return out

    def close(self) -> None:
        try:
            self.conn.sock and self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()
