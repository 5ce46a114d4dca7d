"""``rummy-ledger serve``: the replay viewer, the write API and the live
stream (:mod:`replay_web`) on the store, with Werkzeug's threaded server.

Werkzeug colours its log lines (the development-server warning, ``Press
CTRL+C to quit``, a request answered 304, 404 or 500) with ANSI escape codes;
when standard error is not a terminal (``serve 2> serve.log``, a service
manager) or ``NO_COLOR`` is set, they are left out.

A request target holding raw bytes above 0x7F (``curl 'localhost:5000/…?at=３'``
sends them unescaped) reaches the app as gunicorn gives it: Werkzeug's
server encodes the text :mod:`http.server` read as Latin-1 once more, so
``３`` arrived as ``ï¼\x93`` and an error message quoted that.

The socket is bound before anything is printed (:func:`listen`): a port in
use (or an address that cannot be had) is one ``rummy-ledger: error:`` line
naming ``host:port``, exit status 2, and no "serving" line.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import socket
import sys
from typing import Any
from urllib.parse import unquote, urlsplit

import click

from ledger.cli.context import CliState, TranslatedCommand, paragraphs
from ledger.errors import LedgerError
from ledger.i18n import N_
from ledger.params import ASCII_INT
from ledger.store.settings import DB_ENV_VAR

#: the reasons a listening socket is refused most, by errno (else the system's own words)
_LISTEN_REASONS = {
    errno.EADDRINUSE: N_("the port is in use by another program (stop it, or choose another --port)"),
    errno.EACCES: N_("permission denied (ports below 1024 need privileges)"),
    errno.EADDRNOTAVAIL: N_("the address is not one of this machine's"),
}

#: an ANSI SGR sequence (colour, bold, reset) as Werkzeug writes them
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Plain(logging.Filter):
    """Takes the ANSI colour codes out of a log record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "\x1b" in text:
            record.msg, record.args = _ANSI.sub("", text), None
        return True


def _plain_log() -> None:
    """Log Werkzeug's lines without colour unless standard error is a terminal."""
    if os.environ.get("NO_COLOR") or not sys.stderr.isatty():
        logger = logging.getLogger("werkzeug")
        if not any(isinstance(f, _Plain) for f in logger.filters):
            logger.addFilter(_Plain())


def listen(host: str, port: int, tr: Any) -> socket.socket:
    """A socket bound to ``host:port`` and listening, as Werkzeug's server
    would make it (its address family, ``SO_REUSEADDR``, its queue length).

    Raises :class:`~ledger.errors.LedgerError` naming ``host:port`` and the
    reason (in the language of ``tr``) when it cannot be had: a port in use,
    a privileged port, an address not of this machine, an unknown host name."""
    from werkzeug.serving import LISTEN_QUEUE, get_sockaddr, select_address_family

    family = select_address_family(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(get_sockaddr(host, port, family))
        sock.listen(LISTEN_QUEUE)
    except OSError as exc:
        sock.close()
        reason = _LISTEN_REASONS.get(exc.errno or 0)
        raise LedgerError(
            tr.gettext("cannot listen on %(where)s: %(reason)s")
            % {"where": f"{host}:{port}", "reason": tr.gettext(reason) if reason else exc.strerror or str(exc)}
        ) from None
    return sock


def _run(app: Any, sock: socket.socket, host: str, port: int) -> None:
    """Serve ``app`` on the bound ``sock`` with Werkzeug's threaded server,
    with the lines Flask's ``app.run`` prints (its banner, Werkzeug's
    development-server warning and address, ``Press CTRL+C to quit``)."""
    from flask.cli import show_server_banner
    from werkzeug.serving import make_server

    server = make_server(host, port, app, threaded=True, request_handler=request_handler(), fd=sock.fileno())
    sock.close()  # the server holds its own duplicate of the socket
    show_server_banner(app.debug, app.name)
    server.log_startup()
    logging.getLogger("werkzeug").info("Press CTRL+C to quit")
    server.serve_forever()


def request_handler() -> Any:
    """Werkzeug's request handler with the WSGI strings of a request target
    that holds raw non-ASCII bytes as PEP 3333 has them (each byte one
    Latin-1 character, as gunicorn gives them); an ASCII target (percent
    escapes included) is left as Werkzeug makes it. (Werkzeug is imported
    here: every other command goes without it.)"""
    from werkzeug.serving import WSGIRequestHandler

    class RequestHandler(WSGIRequestHandler):
        def make_environ(self) -> Any:
            environ = super().make_environ()
            if not self.path.isascii():  # http.server read the raw bytes as Latin-1 already
                url = urlsplit(self.path)
                path = f"/{url.netloc}{url.path}" if not url.scheme and url.netloc else url.path
                environ["PATH_INFO"] = unquote(path, encoding="latin-1")
                environ["QUERY_STRING"] = url.query
                environ["REQUEST_URI"] = environ["RAW_URI"] = self.path
            return environ

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            """:mod:`http.server`'s own refusals (a header line over 64 KiB: 431, a
            request line too long: 414, a malformed one: 400) as the API's JSON
            error, not an HTML page (issue 27, defect 7)."""
            import json
            from http import HTTPStatus

            try:
                title = HTTPStatus(code).phrase
            except ValueError:
                title = "Error"
            text = {431: "a header line is over 65,536 bytes: send a shorter header"}.get(code, message or title)
            body = json.dumps({"error": {"status": code, "title": title, "message": text}}).encode() + b"\n"
            self.log_error("code %d, message %s", code, message)
            self.send_response(code, message)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD" and code >= 200 and code not in (204, 304):
                self.wfile.write(body)

    return RequestHandler


@click.command(
    "serve",
    cls=TranslatedCommand,
    help=paragraphs(
        N_("Serve the replay viewer, the write API and the live stream (replay_web) on the store."),
        N_(
            "Werkzeug's threaded server, for one machine; in production use gunicorn with threads (each "
            "open stream holds one; 48 per worker: the 32 streams of RUMMY_LEDGER_STREAM_MAX and 16 "
            "other requests): gunicorn -k replay_web.gunicorn_worker.ThreadWorker -w 2 --threads 48 "
            "'replay_web:create_app()'."
        ),
        N_(
            "Spectators of an unfinished game see events received more than "
            "RUMMY_LEDGER_SPECTATOR_DELAY seconds ago (default 60); tokens: rummy-ledger token create."
        ),
    ),
)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help=N_("Address to listen on (0.0.0.0: every interface).")
)
@click.option("--port", default=5000, show_default=True, type=ASCII_INT, help=N_("TCP port to listen on."))
@click.pass_obj
def serve_cmd(state: CliState, host: str, port: int) -> None:
    from replay_web import create_app

    if state.db:
        os.environ[DB_ENV_VAR] = state.db  # for anything else that opens the store
    app = create_app({"LEDGER_DB": state.db} if state.db else None)  # refuses a setting the store cannot run with
    sock = listen(host, port, state.tr)
    click.echo(
        state.tr.gettext("serving %(store)s on %(url)s (Ctrl-C stops)")
        % {"store": state.store, "url": f"http://{host}:{port}/"},
        err=True,
    )
    _plain_log()
    _run(app, sock, host, port)


def register(cli_group: click.Group) -> None:
    """Add ``serve`` to the ``rummy-ledger`` group."""
    cli_group.add_command(serve_cmd)
