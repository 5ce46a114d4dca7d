"""Who may read and write what: the one module every path of the web app asks
(DESIGN.md, "Access rules … live in one module that every read path calls").

Tokens travel only as ``Authorization: Bearer <token>`` (:mod:`ledger.tokens`);
a token in the query string is refused (it would end up in access logs).

Reading (issue 14, "Who may read what"):

- a **finished** game (``game_ended`` stored, or the table state says the game
  is over) is public: everything, as before;
- an **unfinished** game is seen whole (every card, audit and score messages)
  only with a ``referee`` or ``admin`` token whose scope covers it; everyone
  else gets the **spectator** view: no hidden card at all (no hand, no stock,
  no pozzetto, no drawn card, no face-down discard, no notes, findings without
  their messages) and only the events received more than
  ``RUMMY_LEDGER_SPECTATOR_DELAY`` seconds ago (Flask config
  ``SPECTATOR_DELAY``, default 60; by the journal's ``received_at``; events
  stored without a journal row count as old). Position 0 (``game_started``:
  the players) is always visible.

Writing: :func:`writer` requires a live token (401 without or with a wrong or
revoked one), :func:`check_write` its scope (403) and, for
``penalty_assessed``/``position_restored``, the referee role (403).

Errors abort with the status and a message; the app turns them into one JSON
object (``{"error": {"status", "title", "message"}}``).
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
from flask import Flask, abort, current_app, g, request, session
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import Forbidden, Unauthorized

from ledger.events import Event, GameStarted, at_moment, to_builtins
from ledger.game_summary import finished  # the game is over (public): the games list's test too
from ledger.redaction import SPECTATOR, Pov
from ledger.state import Finding, Log, TableState
from ledger.tokens import RULING_TYPES, Token, TokenStore
from ledger.views import StateView, state_view
from replay_web.lang import gettext as _  # the pages' 403s in the page's language; the JSON API stays English

if TYPE_CHECKING:
    from ledger.store.application import LedgerApp

DELAY_ENV = "RUMMY_LEDGER_SPECTATOR_DELAY"
DEFAULT_DELAY = 60.0
_TOKENS = "replay_web.tokens"
#: query parameters that look like a credential: refused, never read
_URL_CREDENTIALS = ("token", "access_token", "bearer", "api_key", "key")
#: event fields a spectator never sees while the game is unfinished
_HIDDEN_FIELDS = {
    "hand_dealt": ("hands", "stock", "pozzetti"),
    "card_drawn": ("card",),
    "pozzetto_taken": ("cards",),
    "stock_restocked": ("cards",),
    "knocked": ("discard",),
    "position_restored": ("reason",),  # a referee's words, like a note (README "Who may read what")
}
HIDDEN_MESSAGE = "(shown to referees, and to everyone when the game is over)"


class Access(msgspec.Struct, frozen=True, kw_only=True):
    """What one reader may see of one game now.

    ``omniscient``: every card and message; ``upto``: the last position the
    reader may see (``last`` of the game when omniscient); ``finished``: the
    game is over (public); ``view``: ``"referee"``, ``"public"`` (finished)
    or ``"spectator"``; ``delay``: the spectator delay in seconds.
    """

    omniscient: bool
    upto: int
    finished: bool
    view: str
    delay: float


#: the access of a reader who may see nothing hidden (for redacting events
#: and findings to face-up fields in a seat's or spectator's view)
SPECTATOR_ACCESS = Access(omniscient=False, upto=0, finished=False, view="spectator", delay=0.0)


# --- tokens ---------------------------------------------------------------


def spectator_delay(app: Flask | None = None) -> float:
    """Seconds: the app's ``SPECTATOR_DELAY``, else ``RUMMY_LEDGER_SPECTATOR_DELAY``, else 60."""
    app = app or current_app
    value: Any = app.config.get("SPECTATOR_DELAY")  # whatever the config holds: float() below rejects a non-number
    if value is None:
        value = os.environ.get(DELAY_ENV, DEFAULT_DELAY)
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        return DEFAULT_DELAY


def ledger_app(app: Flask | None = None) -> LedgerApp | None:
    """The :class:`ledger.store.application.LedgerApp` behind the viewer, or None
    when it serves record files (read-only)."""
    from replay_web import cache_of

    ledger: LedgerApp | None = getattr(cache_of(app or current_app).store, "app", None)
    return ledger


def token_store(app: Flask | None = None) -> TokenStore | None:
    """The app's :class:`TokenStore` (None when serving record files)."""
    app = app or current_app
    tokens = app.extensions.get(_TOKENS)
    if tokens is None:
        ledger = ledger_app(app)
        if ledger is None:
            return None
        tokens = app.extensions[_TOKENS] = TokenStore(ledger)
    return tokens


def _unauthorized(message: str) -> Unauthorized:
    return Unauthorized(description=message, www_authenticate=WWWAuthenticate("Bearer", {"realm": "rummy-ledger"}))


def refuse_url_credentials() -> None:
    """Abort 400 for a credential-like query parameter (``?token=`` …): tokens
    go only in the ``Authorization`` header. Runs before every request."""
    for name in request.args:
        if name.lower() in _URL_CREDENTIALS:
            abort(
                400, description=f"a token never goes in the URL (?{name}=): send it as 'Authorization: Bearer <token>'"
            )


class RedactCredentials(logging.Filter):
    """A logging filter that blanks credential-like query parameters
    (``?token=…`` and the other names of :data:`_URL_CREDENTIALS`) in a log
    line: such a request is refused (:func:`refuse_url_credentials`), but
    the server's access log would still hold the secret."""

    _PATTERN = re.compile(rf"([?&](?:{'|'.join(_URL_CREDENTIALS)})=)[^&\s\"']*", re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self._PATTERN.sub(r"\1[redacted]", message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


#: the loggers that write request lines: werkzeug's server, gunicorn's access log
ACCESS_LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")


def init_app(app: Flask) -> None:
    """Refuse credentials in URLs on every route of ``app``, and keep them
    out of the request logs of werkzeug's server and gunicorn."""
    app.before_request(refuse_url_credentials)
    for name in ACCESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactCredentials) for f in logger.filters):
            logger.addFilter(RedactCredentials())


def bearer_token() -> Token | None:
    """The request's token: None without an ``Authorization`` header; aborts
    401 for a malformed, unknown or revoked token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise _unauthorized("use 'Authorization: Bearer <token>' (a token from rummy-ledger token create)")
    tokens = token_store()
    token = tokens.check(value.strip()) if tokens is not None else None
    if token is None:
        raise _unauthorized("the token is not valid (unknown, mistyped or revoked)")
    return token


def writer() -> Token:
    """The request's token, required (401 without one)."""
    token = bearer_token()
    if token is None:
        raise _unauthorized("this needs a token: 'Authorization: Bearer <token>' (rummy-ledger token create)")
    return token


def _tournament(started: GameStarted) -> str | None:
    return started.meta.tournament if started.meta is not None else None


class Typed(Protocol):
    """What :func:`check_write` reads of an event: its ``type`` (an :class:`~ledger.events.Event`,
    or the desk's stand-in for a ruling it is about to build)."""

    @property
    def type(self) -> str: ...


def check_write(token: Token, started: GameStarted, events: Sequence[Typed]) -> None:
    """Abort 403 unless ``token`` may append ``events`` to the game opened by
    ``started``: the game in its scope, and rulings only by a referee/admin."""
    if not token.covers(started.game_id, _tournament(started)):
        raise Forbidden(description=f"token {token.id} ({token.name}) does not cover game {started.game_id!r}")
    if not token.may_rule:
        for i, e in enumerate(events):
            if e.type in RULING_TYPES:
                raise Forbidden(
                    description=f"event {i + 1} is {e.type}: only a referee (or admin) token may append "
                    f"rulings; this is a {token.role} token"
                )


# --- reading --------------------------------------------------------------


def parse_time(value: str | None) -> float | None:
    """A journal's ``received_at`` (ISO 8601) as POSIX seconds; None when absent or unreadable."""
    if not value:
        return None
    try:
        return at_moment(value).timestamp()
    except ValueError:
        return None


def received_times(game_id: str, count: int, start: int = 0) -> list[float | None]:
    """The journal's ``received_at`` of positions ``start..count-1`` as POSIX
    seconds (None: no journal row, e.g. imported before the journal existed);
    only those rows are read (a live game's new ones)."""
    ledger = ledger_app()
    out: list[float | None] = [None] * max(0, count - start)
    journal = getattr(ledger, "journal", None)
    if journal is None:
        return out
    for entry in journal(game_id, after=start - 1) if start else journal(game_id):
        if start <= entry.position < count:
            out[entry.position - start] = parse_time(entry.received_at)
    return out


def visible_upto(times: Sequence[float | None], delay: float, now: float | None = None) -> int:
    """The last position received at least ``delay`` seconds before ``now``
    (positions are received in order; a position without a time is old); at least 0.

    >>> visible_upto([None, 100.0, 150.0, 170.0], 60, now=200.0)
    1
    """
    now = time.time() if now is None else now
    upto = 0
    for i, t in enumerate(times):
        if t is not None and t > now - delay:
            break
        upto = i
    return upto


def decide(game_id: str, started: GameStarted, final: TableState, token: Token | None, last: int) -> Access:
    """The rule itself: what ``token`` (None: anonymous) may see of a game
    whose latest state is ``final`` (``last`` its last position), before the
    spectator delay is applied (``upto`` is ``last``; see :func:`game_access`)."""
    delay = spectator_delay()
    if finished(final):
        return Access(omniscient=True, upto=last, finished=True, view="public", delay=delay)
    if token is not None and token.may_read_all and token.covers(game_id, _tournament(started)):
        return Access(omniscient=True, upto=last, finished=False, view="referee", delay=delay)
    return Access(omniscient=False, upto=last, finished=False, view="spectator", delay=delay)


def game_access(game: Any, token: Token | None) -> Access:
    """What ``token`` (None: an anonymous reader) may see of ``game`` (a
    :class:`replay_web.cache.GameData`) now: :func:`decide`, then for a
    spectator the last position older than the delay."""
    decision = decide(game.game_id, game.started, game.final, token, game.last)
    if decision.omniscient or decision.delay <= 0:
        return decision
    times = getattr(game, "received", None)
    if times is None:  # once per game version (replay_web.cache.GameData keeps them)
        before = getattr(game, "received_before", None)  # an older version's: only the new rows are read
        if before is not None and len(before) <= len(game.events):
            times = before + received_times(game.game_id, len(game.events), start=len(before))
        else:  # a Log: a newer version's times share it (replay_web.cache.GameData.extended)
            times = Log(received_times(game.game_id, len(game.events)))
        if hasattr(game, "received"):
            game.received = times
    upto = visible_upto(times, decision.delay)
    return msgspec.structs.replace(decision, upto=min(upto, game.last))


def visible_now(received_at: float | None, access: Access, now: float | None = None) -> bool:
    """May this reader see an event received at ``received_at`` (POSIX s) now?"""
    if access.omniscient or received_at is None or access.delay <= 0:
        return True
    return received_at <= (time.time() if now is None else now) - access.delay


def reader_access(game: Any) -> Access:
    """:func:`game_access` for the request's reader (401 for a bad token):
    its bearer token, else the referee signed in to the viewer
    (:func:`signed_in`)."""
    return game_access(game, bearer_token() or signed_in())


#: the session key that holds the signed-in referee's token id (:mod:`replay_web.desk` signs in and out)
SESSION_KEY = "referee_token"


def signed_in() -> Token | None:
    """The live token of the request's session, or None (no session, the
    token revoked since, or a viewer without a store). Looked up once per request."""
    if "desk_token" in g:
        cached: Token | None = g.desk_token
        return cached
    token = None
    token_id = session.get(SESSION_KEY)
    if isinstance(token_id, str):
        tokens = token_store()
        if tokens is not None:
            token = next((t for t in tokens.list() if t.id == token_id and t.revoked_at is None), None)
        if token is None:
            session.pop(SESSION_KEY, None)
    g.desk_token = token
    return token


def limit_position(at: int, access: Access) -> int:
    """``at`` if the reader may see it, else abort 403 naming what is visible."""
    if at > access.upto:
        abort(
            403,
            description=_(
                "position %(at)s is not visible yet: spectators see an unfinished game up to position %(upto)s"
                " (events older than %(delay)s s); a referee token sees everything",
                at=at,
                upto=access.upto,
                delay=f"{access.delay:g}",
            ),
        )
    return at


def refuse_seat_view_early(game_id: str) -> None:
    """Abort 403 as :func:`check_pov` does, before the game is loaded, when
    the request asks a seat's view (``?pov=<seat>``) of an unfinished game
    and its reader is no referee or admin whose token covers the game: the
    rule needs only the game's first event (its seats and tournament,
    kept per process), the reader's token and whether the game is over,
    which the store's games-list line of the game's current version says
    (:meth:`ledger.store.reads.GameReads.summary_line`). An anonymous
    403 cost a replay of the game (6.3 s for 100k events after each
    append, issue 27). Anything else (no line of this version, a finished
    game, the game cached at this version already, no seat asked, a seat
    the game does not have: the 400) is left to the usual path."""
    raw = (request.args.get("pov") or "").strip()
    if not raw.isascii() or not raw.isdigit():
        return
    from replay_web import cache_of

    cache = cache_of(current_app)
    ledger = ledger_app()
    if ledger is None:
        return
    version = cache.store.version(game_id)  # an unknown game: its 404, as before
    cached = cache.peek(game_id)
    if cached is not None and cached.version == version:
        return  # cheap already: the usual path decides
    line = ledger.summary_line(game_id)
    if line is None or line[0] != version or line[1].finished:
        return
    started = ledger.game_started(game_id)
    if int(raw) >= len(started.players):
        return
    token = bearer_token() or signed_in()
    if token is not None and token.may_read_all and token.covers(game_id, _tournament(started)):
        return
    check_pov(int(raw), SPECTATOR_ACCESS)


def check_pov(pov: Pov, access: Access) -> None:
    """A seat's view of an unfinished game shows that seat's hidden cards:
    referees only (403); ``pov="spectator"`` is anyone's."""
    if pov is not None and pov != SPECTATOR and not access.omniscient:
        abort(403, description=_("a seat's view of an unfinished game needs a referee token; spectators see no hand"))


# --- redaction for spectators (no hidden card at all) ----------------------


def event_json(event: Event, access: Access) -> dict[str, Any]:
    """The event as JSON for this reader: whole, or for a spectator or a seat
    without the fields that hold hidden cards, without ``note`` and without a
    rewind's ``reason`` (a referee's words may name hidden cards)."""
    data = to_builtins(event)
    if access.omniscient:
        return data
    for name in _HIDDEN_FIELDS.get(event.type, ()):
        data.pop(name, None)
    data.pop("note", None)
    if event.type == "hand_dealt":
        data["hand_sizes"] = [len(h) for h in getattr(event, "hands", ())]
    return data


def finding_json(f: Finding, access: Access) -> dict[str, Any]:
    """``{position, hand, seat, rule, message}``; a spectator's message is withheld."""
    return {
        "position": f.position,
        "hand": f.hand,
        "seat": f.seat,
        "rule": f.rule,
        "message": f.message if access.omniscient else HIDDEN_MESSAGE,
    }


def findings(items: Iterable[Finding], access: Access) -> list[Finding]:
    """Findings up to ``access.upto``, messages withheld from spectators."""
    out = [f for f in items if f.position <= access.upto]
    if access.omniscient:
        return out
    return [msgspec.structs.replace(f, msgid=HIDDEN_MESSAGE, params=()) for f in out]


def table_view(state: TableState, access: Access, pov: Pov = None) -> StateView:
    """:func:`ledger.views.state_view` for this reader: ``pov``'s view when
    the reader may see the whole game, else the spectator's
    (:data:`ledger.redaction.SPECTATOR`, FORMAT.md "Per-seat views") with,
    besides, no hand, stock or pozzetto cards and no variant notes."""
    check_pov(pov, access)
    if access.omniscient:
        return state_view(state, pov)
    return redact_view(state_view(state, SPECTATOR))


def redact_view(view: StateView) -> StateView:
    """A spectator's copy of a :class:`~ledger.views.StateView` (no hidden
    card): no seat's cards, no stock, no pozzetto cards, no variant notes,
    ``pov`` the spectator, ``spectator`` True."""
    replace = msgspec.structs.replace
    return replace(
        view,
        seats=[replace(s, cards=None) for s in view.seats],
        stock=None,
        pozzetti=[replace(p, cards=None) for p in view.pozzetti],
        pov=SPECTATOR,
        spectator=True,
        variant_notes=None,
    )


def move_pov(access: Access, pov: Pov) -> Pov:
    """The ``pov`` to give :func:`ledger.notation.notation`: ``pov`` itself for
    a reader who may see the whole game, else :data:`~ledger.redaction.SPECTATOR`
    (no seat: every draw and face-down card hidden)."""
    return pov if access.omniscient else SPECTATOR
