"""The HTTP write API (issue 14): live recording over HTTP, JSON in and out.

Every write needs ``Authorization: Bearer <token>`` (:mod:`ledger.tokens`,
checked by :mod:`replay_web.access`). Bodies are ``application/json`` (one
event) or JSON Lines (``application/x-ndjson``, ``application/jsonl``: one
event per line, blank and ``//`` lines ignored), at most
``MAX_CONTENT_LENGTH`` bytes (default 1 MiB; 413 above). No cookies are read,
so there is nothing for a cross-site form to ride on (no CSRF).

- ``POST /api/games``: body ``game_started`` (optionally followed by more
  events) -> ``201`` with ``Location: /api/games/<id>``; ``409`` when the id
  is stored.
- ``POST /api/games/<id>/events`` with the position the writer expects its
  first event to take, ``If-Match: "<position>"`` or ``?expected=N`` (428
  without): ``201`` with ``{game_id, first, length, positions, findings,
  hand_over, game_over}`` and ``ETag: "<length>"`` (the next expected
  position); ``409`` with ``length`` when another writer got there first;
  ``400`` with the ``REC-…`` error (``line`` of the body, ``field``,
  ``rule``, ``message``, ``position``) and nothing stored (also for events
  after ``game_ended`` other than a referee's ``penalty_assessed``:
  ``REC-ORDER``, FORMAT.md "Rulings after the game"); ``404`` unknown game; ``401``/``403``
  token, scope and role; ``415`` another content type.

Errors are ``{"error": {"status", "title", "message", ...}}``; the REC error
adds ``rule``, ``line``, ``field``, ``position``; a conflict adds ``length``.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from ledger.errors import ConcurrentAppendError, GameConflictError, RecordError
from ledger.events import Event, GameStarted
from ledger.records import iter_lines, parse_line
from ledger.texts import Message
from ledger.texts.refusals import NOT_UTF8
from ledger.tokens import Token
from replay_web import access, auto_checkpoint

bp = Blueprint("write", __name__, url_prefix="/api")

JSON_TYPES = ("application/json",)
LINES_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-lines")
_IF_MATCH = re.compile(r'^\s*"([0-9]{1,12})"\s*$')  # a strong tag only (RFC 9110 13.1.1)
DEFAULT_MAX_BODY = 1024 * 1024
#: characters of a bad header quoted back in an error
SHOWN_HEADER = 40
#: ``?expected=``: ASCII digits, as many as If-Match takes (``int()`` of 5,000 digits raises)
_POSITION = re.compile(r"[0-9]{1,12}")


class ApiError(HTTPException):
    """An error answer with extra JSON fields (``extra``) and headers."""

    def __init__(
        self, code: int, message: str, extra: dict[str, Any] | None = None, headers: dict[str, str] | None = None
    ) -> None:
        self.code = code
        super().__init__(description=message)
        self.extra = extra or {}
        self.headers = headers or {}

    def get_headers(self, environ: Any = None, scope: Any = None) -> list[tuple[str, str]]:
        return list(self.headers.items())


def record_error(err: RecordError, lines: list[int] | None = None, *, offset: int = 0) -> ApiError:
    """400 for a REC error: ``line`` is the body's line (from the position
    when the error came from the fold), ``position`` the game position."""
    line = err.line
    if line is None and err.position is not None and lines is not None and 0 <= err.position - offset < len(lines):
        line = lines[err.position - offset]
    return ApiError(
        400,
        err.describe() if line is None else err.with_location(line=line).describe(),
        {"rule": err.rule, "line": line, "field": err.field, "position": err.position, "reason": err.message},
    )


def _one_event(body: bytes) -> Event:
    """The one event of an ``application/json`` body; a body with more after its
    first JSON value (several events) is refused with the hint to send JSON Lines."""
    try:
        return parse_line(body, 1)
    except RecordError as err:
        if err.message.startswith("malformed JSON") and "trailing characters" in err.message:
            hint = f"{err.message}: application/json carries one event; send several as JSON Lines, one per line, "
            raise RecordError(err.rule, hint + "with Content-Type: application/x-ndjson", line=1) from None
        raise


def _events_from_body() -> tuple[list[Event], list[int]]:
    """The body's events and their body lines; 415/413/400 otherwise."""
    ctype = (request.mimetype or "").lower()
    if ctype not in JSON_TYPES + LINES_TYPES:
        raise ApiError(
            415,
            f"send the events as application/json (one event) or application/x-ndjson (JSON Lines), not {ctype}"
            if ctype
            else "send the events with a Content-Type: application/json (one event) or application/x-ndjson (JSON "
            "Lines)",
        )
    body = _body(current_app.config.get("MAX_CONTENT_LENGTH"))
    try:
        if ctype in JSON_TYPES:
            if not body.strip():
                raise RecordError("REC-FORMAT", "empty body: send one event as a JSON object", line=1)
            return [_one_event(body.strip())], [1]
        events, lines = [], []
        for number, raw in iter_lines(body.splitlines()):
            events.append(parse_line(raw, number))
            lines.append(number)
    except RecordError as err:
        raise record_error(err) from None
    except UnicodeDecodeError as err:
        raise record_error(RecordError("REC-FORMAT", Message(NOT_UTF8, reason=err.reason), line=1)) from None
    if not events:
        raise record_error(RecordError("REC-FORMAT", "no events in the body", line=1))
    return events, lines


def _body(limit: int | None) -> bytes:
    """The request body, at most ``limit`` bytes whether it comes with a
    ``Content-Length`` (werkzeug answers 413 above the limit) or in chunks:
    those are read here, one byte past the limit at most, so that a
    chunked body of exactly ``limit`` bytes is taken as one with that
    ``Content-Length`` is (werkzeug's own reading refused it: the limits
    were one byte apart, issue 27) and a longer one is refused whole."""
    environ = request.environ
    if request.content_length is not None or limit is None or "wsgi.input_terminated" not in environ:
        return request.get_data(cache=False)
    stream, chunks, size = environ["wsgi.input"], [], 0
    while size <= limit and (chunk := stream.read(min(65536, limit + 1 - size))):
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise ApiError(
            413,
            f"the body is over {limit:,} bytes (sent in chunks); the limit is {limit:,} bytes: send fewer events "
            "per request",
        )
    return b"".join(chunks)


def _ledger() -> Any:
    app = access.ledger_app()
    if app is None:
        raise ApiError(405, "this server shows record files; it has no store to write to")
    return app


def _quoted(text: str) -> str:
    """``text`` quoted for an error message, its first :data:`SHOWN_HEADER`
    characters only: a parameter of 5,000 characters is not echoed back whole."""
    quoted = repr(text[:SHOWN_HEADER])
    if len(text) > SHOWN_HEADER:
        quoted += f"… ({len(text) - SHOWN_HEADER:,} more characters)"
    return quoted


def _expected() -> int:
    header = request.headers.get("If-Match")
    query = request.args.get("expected")
    values = []
    if header is not None:
        m = _IF_MATCH.match(header)
        if m is None:
            shown = header.encode("latin-1", "replace").decode("utf-8", "replace")  # WSGI headers arrive as latin-1
            raise ApiError(
                400,
                f'If-Match {_quoted(shown)}: give the expected next position as a quoted number, e.g. If-Match: "12"',
            )
        values.append(int(m.group(1)))
    if query is not None:
        if _POSITION.fullmatch(query) is None:  # "٣".isdigit() is true; 5,000 digits are no position either
            raise ApiError(400, f"expected={_quoted(query)} is not a position (a whole number ≥ 0)")
        values.append(int(query))
    if not values:
        raise ApiError(
            428,
            'say which position the first event takes: If-Match: "<position>" '
            "or ?expected=N (the game's current length)",
        )
    if len(set(values)) > 1:
        raise ApiError(400, f"If-Match says {values[0]} and ?expected= says {values[1]}")
    return values[0]


def _append(app: Any, game_id: str, events: list[Event], expected: int, by: str) -> Any:
    """The one append path (:meth:`ledger.store.application.LedgerApp.append_events`);
    a ``game_ended`` stored writes the automatic checkpoint when one is set
    (:mod:`replay_web.auto_checkpoint`)."""
    result = app.append_events(game_id, events, expected=expected, appended_by=by)
    auto_checkpoint.after_append(app, events)
    return result


def _result_json(result: Any, token: Token) -> dict[str, Any]:
    """The 201 body, the findings whole: every writer reads the games it
    writes whole (a recorder enters their deals: FORMAT.md "Who may read what")."""
    seen = access.Access(omniscient=True, upto=result.length, finished=False, view="writer", delay=0)
    return {
        "game_id": result.game_id,
        "first": result.first,
        "length": result.length,
        "positions": list(range(result.first, result.length)),
        "findings": [access.finding_json(f, seen) for f in result.findings],
        "hand_over": result.hand_over,
        "game_over": result.game_over,
    }


def _length(app: Any, game_id: str) -> int:
    """Events stored in the game (:meth:`ledger.store.reads.GameReads.game_length`; 0 for none)."""
    length: int = app.game_length(game_id)
    return length


def _started(app: Any, game_id: str) -> GameStarted:
    """The game's ``game_started`` (:meth:`ledger.store.application.LedgerApp.game_started`); 404 for an unknown
    game."""
    started: GameStarted = app.game_started(game_id)
    return started


def _created(result: Any, status: int, location: str, token: Token) -> Response:
    from flask import current_app

    hub = current_app.extensions.get("replay_web.stream")
    if hub is not None:  # wake this process's streams at once (others follow the notification log)
        hub.poke(result.game_id)
    response = jsonify(_result_json(result, token))
    response.status_code = status
    response.headers["Location"] = location
    response.headers["ETag"] = f'"{result.length}"'
    return response


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    token = access.writer()
    app = _ledger()
    events, lines = _events_from_body()
    first = events[0]
    if not isinstance(first, GameStarted):
        raise record_error(
            RecordError(
                "REC-ORDER",
                f"a new game starts with game_started, not {first.type}",
                line=lines[0],
                field="type",
                position=0,
            )
        )
    access.check_write(token, first, events)
    try:
        result = _append(app, first.game_id, events, 0, token.label)
    except RecordError as err:
        raise record_error(err, lines) from None
    except (GameConflictError, ConcurrentAppendError):
        raise ApiError(
            409,
            f"game {first.game_id!r} is already stored; append to it with POST /api/games/{first.game_id}/events",
            {"length": _length(app, first.game_id)},
        ) from None
    return _created(result, 201, url_for("api.game", game_id=first.game_id), token)


@bp.post("/games/<game_id>/events")
def append(game_id: str) -> ResponseReturnValue:
    token = access.writer()
    app = _ledger()
    expected = _expected()
    events, lines = _events_from_body()
    started = _started(app, game_id)  # 404 for an unknown game
    access.check_write(token, started, events)
    try:
        result = _append(app, game_id, events, expected, token.label)
    except RecordError as err:
        raise record_error(err, lines, offset=expected) from None
    except ConcurrentAppendError:
        length = _length(app, game_id)
        raise ApiError(
            409,
            f"game {game_id!r} has {length} events: position {expected} is not the next one "
            f'(another writer was first?); re-read and retry with If-Match: "{length}"',
            {"length": length},
            {"ETag": f'"{length}"'},
        ) from None
    except GameConflictError as err:
        raise ApiError(409, str(err), {"length": _length(app, game_id)}) from None
    return _created(result, 201, url_for("stream.events", game_id=game_id, after=result.first - 1), token)


def init_app(app: Any) -> None:
    """Register the blueprint and the body size limit (``MAX_CONTENT_LENGTH``)."""
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = DEFAULT_MAX_BODY
    app.register_blueprint(bp)
