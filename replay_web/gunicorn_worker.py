"""gunicorn's own refusals as the API's JSON error (issue 27, defect 7).

gunicorn answers a request it cannot read before the application sees it:
a header over ``--limit-request-field-size`` (8,190 bytes by default) or
too many headers (431), a request line over ``--limit-request-line``
(414). It writes those as an HTML page; a client of the write API reads
JSON errors (``{"error": {"status", "title", "message"}}``, docs/api.md),
as ``rummy-ledger serve`` gives them. Run the viewer with this worker::

    gunicorn -k replay_web.gunicorn_worker.ThreadWorker -w 2 --threads 48 'replay_web:create_app()'

It is gunicorn's ``gthread`` worker with those two refusals written as
JSON; every other error is gunicorn's own. Nothing of the request is
echoed back (a 100 KB ``Authorization`` header is a token).
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.gthread import ThreadWorker as _GThreadWorker

#: the refusals written as JSON: exception class → (status, message)
REFUSALS: dict[type[Exception], tuple[int, str]] = {
    LimitRequestHeaders: (
        431,
        "a header is longer, or there are more headers, than the server reads (gunicorn's "
        "--limit-request-field-size and --limit-request-fields): send a shorter header",
    ),
    LimitRequestLine: (
        414,
        "the request line is longer than the server reads (gunicorn's --limit-request-line): send a shorter URL",
    ),
}


def json_refusal(exc: BaseException) -> bytes | None:
    """The whole HTTP response (head and JSON body) for a refusal of :data:`REFUSALS`, else None.

    >>> json_refusal(LimitRequestLine(9000, 4094)).split(b"\\r\\n")[0]
    b'HTTP/1.1 414 Request-URI Too Long'
    >>> json_refusal(ValueError("x")) is None
    True
    """
    for kind, (status, message) in REFUSALS.items():
        if isinstance(exc, kind):
            title = HTTPStatus(status).phrase
            body = json.dumps({"error": {"status": status, "title": title, "message": message}}).encode() + b"\n"
            head = (
                f"HTTP/1.1 {status} {title}\r\nConnection: close\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            )
            return head.encode("latin-1") + body
    return None


class ThreadWorker(_GThreadWorker):  # type: ignore[misc]  # gunicorn ships no types
    """gunicorn's ``gthread`` worker whose header and request-line refusals are JSON (module docstring)."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        response = json_refusal(exc)
        if response is None:
            super().handle_error(req, client, addr, exc)
            return
        self.log.debug("refused a request it could not read: %s", type(exc).__name__)
        try:
            util.write_nonblock(client, response)
        except Exception:  # noqa: BLE001 - the client went away: nothing to answer
            self.log.debug("could not answer the refusal")


__all__ = ["REFUSALS", "ThreadWorker", "json_refusal"]
