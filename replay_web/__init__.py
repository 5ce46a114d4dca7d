"""replay_web: the referee's viewer and the live record service.

The viewer steps through a recorded game move by move; the write API
(:mod:`replay_web.write`) appends events to games as they are played, with
bearer tokens and roles; the stream (:mod:`replay_web.stream`) sends them to
watchers as Server-Sent Events. Who may read and write what is decided in
:mod:`replay_web.access`, which every page, API call and stream asks.

A Flask application factory (the ``examples/tutorial`` pattern)::

    from replay_web import create_app
    app = create_app({"LEDGER_DB": "games.db"})      # or a postgresql:// URL
    app.run(host="127.0.0.1", port=5000)

Also ``flask --app replay_web run`` and ``gunicorn 'replay_web:create_app()'``
(both read the store from ``RUMMY_LEDGER_DB``, default ``./ledger.db``).

Config keys (all optional):

- ``LEDGER_DB``: SQLite path or ``postgresql://`` URL of the event store
  (None: ``RUMMY_LEDGER_DB``, eventsourcing's own variables, ``./ledger.db``);
- ``LEDGER_RECORDS``: record files/folders to serve instead of a store;
- ``LEDGER_STORE``: a ready store object (:mod:`replay_web.store`);
- ``LEDGER_ANALYTICS``: the DuckDB view the player page reads (default: beside
  ``LEDGER_DB``; none for ``LEDGER_STORE``/``LEDGER_RECORDS``);
- ``REPLAY_CACHE_SIZE`` (32): games kept replayed per process;
- ``REPLAY_EVERY`` (16): checkpoint interval of each replay;
- ``SPECTATOR_DELAY`` (``RUMMY_LEDGER_SPECTATOR_DELAY``, 60): seconds a
  spectator of an unfinished game lags behind (:mod:`replay_web.access`);
- ``MAX_CONTENT_LENGTH`` (1 MiB): largest write body (413 above);
- ``STREAM_MAX``, ``STREAM_MAX_SECONDS``, ``STREAM_HEARTBEAT``,
  ``STREAM_POLL``: limits of the live stream (:mod:`replay_web.stream`);
- ``CHECKPOINT_DIR`` (``RUMMY_LEDGER_CHECKPOINT_DIR``) and ``CHECKPOINT_KEY``
  (``RUMMY_LEDGER_CHECKPOINT_KEY``): opt-in, a signed checkpoint of the store
  written there at each ``game_ended`` (:mod:`replay_web.auto_checkpoint`).

The pages and the read API only read. The only routes that write are the
write API's ``POST /api/games`` and ``POST /api/games/<id>/events``, each
with a bearer token (no cookies, so no cross-site form can use them), and
they write through the one append path (``LedgerApp.append_events``: the
fold checks every event first). Nothing here evaluates a rule: states,
findings, scores and notation come from the fold (:mod:`ledger.replay`,
:mod:`ledger.audit`, :mod:`ledger.scoring`, :mod:`ledger.views`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, g, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge

from ledger.errors import GameNotFoundError, RecordError
from ledger.i18n import N_
from ledger.stored.persistence import StoredEventError
from replay_web.cache import ReplayCache
from replay_web.lang import gettext
from replay_web.present import face, suit_markup
from replay_web.store import open_store

__all__ = ["create_app"]

#: the extension key under which the app keeps its :class:`ReplayCache`
EXT = "replay_web"

_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def _register_blueprints(app: Flask) -> None:
    """The pages, the read and write APIs, the streams, the desk and the score-sheet form, in the order
    their hooks need (the write API before the desk's CSRF, which exempts it)."""
    from replay_web import (
        access,
        api,
        auto_checkpoint,
        games,
        lang,
        players,
        report,
        scoresheet,
        stream,
        tournament_stream,
        tournaments,
        words,
        write,
    )

    lang.init_app(app)  # the page's language: ?lang=, Accept-Language, English
    words.init_app(app)  # the templates' word filters (move notation, components, reasons)
    access.init_app(app)

    for blueprint in (games.bp, players.bp, report.bp, api.bp, tournaments.bp):
        app.register_blueprint(blueprint)
    write.init_app(app)
    auto_checkpoint.init_app(app)  # opt-in: a signed checkpoint in a folder at each game's end
    app.register_blueprint(stream.bp)
    tournament_stream.init_app(app)  # the live standings, the big screen and the standings sheet
    scoresheet.init_app(app)  # the desk (sign-in, rulings, CSRF; after the write API: exempt), the score-sheet form


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the viewer application.

    ``config`` overrides the defaults (keys in the module docstring, plus any
    Flask setting such as ``TESTING``). The store is opened lazily on the
    first request, so a gunicorn master can import and fork safely.
    """
    app = Flask(__name__)
    app.config.from_mapping(
        LEDGER_DB=None,
        LEDGER_RECORDS=None,
        LEDGER_STORE=None,
        REPLAY_CACHE_SIZE=32,
        REPLAY_EVERY=16,
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.from_mapping(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # Flask's DefaultJSONProvider has it; app.json is typed JSONProvider
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # as above

    store = open_store(app.config)
    app.extensions[EXT] = ReplayCache(
        store, size=int(app.config["REPLAY_CACHE_SIZE"]), every=int(app.config["REPLAY_EVERY"])
    )

    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["face"] = face
    app.jinja_env.filters["suits"] = suit_markup

    _register_blueprints(app)
    _register_errors(app)

    @app.before_request
    def _clock() -> None:
        g.started_at = (time.perf_counter(), time.thread_time())

    @app.after_request
    def _headers(response: Response) -> Response:
        started = g.get("started_at")
        if started is not None:  # time spent in the app (wall, CPU), for benchmarks and browsers' dev tools
            wall, cpu = (time.perf_counter() - started[0]) * 1000, (time.thread_time() - started[1]) * 1000
            response.headers["Server-Timing"] = f"app;dur={wall:.3f}, cpu;dur={cpu:.3f}"
        response.headers.setdefault("Content-Security-Policy", _CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    return app


def cache_of(app: Flask) -> ReplayCache:
    """The app's replay cache (and through it, the store)."""
    cache: ReplayCache = app.extensions[EXT]
    return cache


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _error(
    status: int,
    title: str,
    message: str,
    extra: Mapping[str, Any] | None = None,
    headers: list[tuple[str, str]] | None = None,
    page_message: str | None = None,
    links: list[tuple[str, str]] | None = None,
) -> ResponseReturnValue:
    """The error answer: JSON (English) under ``/api/``, else the error page
    in the page's language (``page_message``: the message translated, when
    it differs from the JSON one)."""
    if _wants_json():
        body = {"status": status, "title": title, "message": message, **(extra or {})}
        return jsonify({"error": body}), status, headers or []
    return (
        render_template("error.html", status=status, title=title, message=page_message or message, links=links),
        status,
        headers or [],
    )


def _too_large(exc: RequestEntityTooLarge) -> ResponseReturnValue:
    """413 naming the body's size and the limit: werkzeug's words name neither
    (a chunked write body is refused by :mod:`replay_web.write` itself)."""
    size, limit = request.content_length, current_app.config.get("MAX_CONTENT_LENGTH")
    over = size is not None and limit is not None and size > limit
    return _error(
        413,
        "Request Entity Too Large",
        f"the body is {size:,} bytes; the limit is {limit:,} bytes: send fewer events per request"
        if over
        else "the body, or a field of the form it holds, is over the viewer's limit",
        page_message=gettext("the form sent is larger than the viewer takes"),
    )


#: the English descriptions of werkzeug's errors and Flask-WTF's CSRF refusals,
#: as they come (msgids of the catalog): an error page shows them in
#: the page's language; the JSON of ``/api/`` keeps them as they are
PAGE_WORDS = frozenset(
    {
        N_("The browser (or proxy) sent a request that this server could not understand."),
        N_(
            "You don't have the permission to access the requested resource. It is either read-protected or not "
            "readable by the server."
        ),
        N_(
            "The requested URL was not found on the server. If you entered the URL manually please check your "
            "spelling and try again."
        ),
        N_("The method is not allowed for the requested URL."),
        N_("The CSRF token is missing."),
        N_("The CSRF session token is missing."),
        N_("The CSRF token has expired."),
        N_("The CSRF token is invalid."),
        N_("The CSRF tokens do not match."),
        N_("The referrer header is missing."),
        N_("The referrer does not match the host."),
        N_("The Origin header does not match the host."),
    }
)


def _near_ids(game_id: str) -> tuple[str, ...]:
    """The stored game ids close to ``game_id`` (best first), for a 404."""
    from ledger.store.reads import close_ids

    try:
        ids = [s.game_id for s in cache_of(current_app).store.list_games()]
    except Exception:  # noqa: BLE001 - a store that cannot list still gets the plain 404
        return ()
    return close_ids(game_id, ids)


def _not_found(exc: GameNotFoundError) -> ResponseReturnValue:
    """404 for an unknown game id, naming the stored ids near it (the page
    links them; the JSON adds ``did_you_mean``), as the CLI's "did you mean"."""
    near = _near_ids(exc.game_id)  # as the CLI's "did you mean" (ledger.store.reads.close_ids)
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    page = gettext("no game %(game)s in the store", game=repr(exc.game_id))
    if near:
        page += gettext("; did you mean %(names)s?", names=gettext(" or ").join(near))
    return _error(
        404,
        "Not Found",
        f"no game {exc.game_id!r} in the store{hint}",
        {"did_you_mean": list(near)} if near else None,
        page_message=page,
        links=[(url_for("games.game_page", game_id=g), g) for g in near],
    )


def _register_errors(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> ResponseReturnValue:
        if isinstance(exc, InternalServerError):
            return _error(
                500,
                "Internal Server Error",
                "the viewer failed on this request; the record is unchanged",
                page_message=gettext("the viewer failed on this request; the record is unchanged"),
            )
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
        g.lang_back = getattr(exc, "lang_back", None)  # where the page's language switch goes (lang.lang_url)
        message = exc.description or exc.name
        page = gettext(message) if message in PAGE_WORDS else None
        return _error(
            exc.code or 500, exc.name, message, getattr(exc, "extra", None), headers, page, getattr(exc, "links", None)
        )

    app.register_error_handler(RequestEntityTooLarge, _too_large)

    app.register_error_handler(GameNotFoundError, _not_found)

    @app.errorhandler(RecordError)
    def _bad_record(exc: RecordError) -> ResponseReturnValue:
        return _error(
            422,
            "Unprocessable Record",
            f"the stored record cannot be replayed: {exc}",
            page_message=gettext("the stored record cannot be replayed: %(error)s", error=str(exc)),
        )

    @app.errorhandler(StoredEventError)
    def _damaged(exc: StoredEventError) -> ResponseReturnValue:
        # a row changed behind the product's back: said plainly (verify names what changed), logged without a traceback
        app.logger.warning("request %s: stored record damaged: %s", request.path, exc)
        return _error(
            422,
            "Unprocessable Record",
            f"the stored record cannot be read: {exc}; `rummy-ledger verify` names what changed",
            page_message=gettext(
                "the stored record cannot be read: %(error)s; `rummy-ledger verify` names what changed", error=str(exc)
            ),
        )

    @app.errorhandler(Exception)
    def _crash(exc: Exception) -> ResponseReturnValue:
        app.logger.exception("request failed: %s", request.path)
        return _error(
            500,
            "Internal Server Error",
            "the viewer failed on this request; the record is unchanged",
            page_message=gettext("the viewer failed on this request; the record is unchanged"),
        )
