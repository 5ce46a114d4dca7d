"""The referee's desk in the viewer: sign-in, rulings on findings, what the
pages show of them (issue 16).

Sign-in: ``GET/POST /signin`` takes a token of :mod:`ledger.tokens`
(``rummy-ledger token create``), checked by :meth:`TokenStore.check`, the
one verification there is. On success the session (Flask's cookie, signed
with ``SECRET_KEY``) holds the token's **id** only, never the token; every
request looks that id up again in the token table, so a revoked token's
session ends at once. The cookie is HttpOnly, SameSite=Strict, Secure when
the request came over https (or always, with ``SESSION_COOKIE_SECURE``), and
lasts ``PERMANENT_SESSION_LIFETIME`` (default 12 hours). ``POST /signout``
ends it.

``SECRET_KEY`` comes from the Flask config, else ``RUMMY_LEDGER_SECRET_KEY``;
without either a random key is made per process: sessions then end when the
process does, and several worker processes (gunicorn ``-w 2``) do not share
them, so set the variable for a real deployment.

Every form of the viewer carries a CSRF token (Flask-WTF's
:class:`~flask_wtf.csrf.CSRFProtect`, on every POST of the app except the
bearer-token write API, which reads no cookie): a POST without it is 400.

Rulings: ``POST /games/<id>/rulings/penalty`` and ``/rulings/restore``
append one ``penalty_assessed`` (seat or team, points, rule) or
``position_restored`` (target, reason) with ``finding`` (the finding's
position) and ``referee`` (the token's name) through
``LedgerApp.append_events`` (``appended_by``: the token's name; ``expected``:
the length the page showed, so a ruling made on a stale page is refused with
409 instead of landing somewhere unexpected). Refusals, nothing stored: no
session 401; a token that is not a referee's or admin's, or whose scope does
not cover the game, 403 (:func:`replay_web.access.check_write`); a bad form
field or an event the fold refuses (``REC-…``, e.g. a restore target outside
the hand, a restore after ``game_ended``) 400; a viewer over record files 405.
After ``game_ended`` a penalty may still be assessed (FORMAT.md "Rulings after
the game"; points 0 records "the score stands"): the page offers the penalty
form only.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from typing import Any

import msgspec
from flask import Blueprint, Flask, current_app, flash, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFProtect
from werkzeug.exceptions import BadRequest, Conflict, MethodNotAllowed, Unauthorized
from wtforms import HiddenField, IntegerField, PasswordField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, Regexp, StopValidation

from ledger.errors import ConcurrentAppendError, RecordError
from ledger.events import decode_event
from ledger.i18n import N_
from ledger.i18n import translations as ledger_translations
from ledger.params import ascii_int
from ledger.render import side_text
from ledger.rulings import Ruling, by_finding, rewound_by
from ledger.scoring import running_hand
from ledger.state import TableState
from ledger.tokens import Token
from replay_web import access, params
from replay_web.access import SESSION_KEY, signed_in
from replay_web.chart import chart_uri, chart_words, sheets_of
from replay_web.forms import FlaskForm
from replay_web.lang import current_lang, form_translations
from replay_web.lang import gettext as _
from replay_web.orders import hand_order, order_args
from replay_web.origin import same_origin
from replay_web.present import scoreboard
from replay_web.refill import refill_args, refill_of
from replay_web.tempo import move_seconds, tempo_text

SECRET_ENV = "RUMMY_LEDGER_SECRET_KEY"
#: the token roles (ledger/tokens.py), as the header and the flash name them
ROLE_NAMES = (N_("recorder"), N_("referee"), N_("admin"))
csrf = CSRFProtect()
bp = Blueprint("desk", __name__)


class _Sessions(SecureCookieSessionInterface):
    """Flask's signed-cookie session, Secure whenever the request is https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def init_app(app: Flask) -> None:
    """Session, CSRF and the desk's routes on ``app`` (after the write API's
    blueprint is registered: that one is exempt from CSRF)."""
    if not app.config.get("SECRET_KEY"):
        key = os.environ.get(SECRET_ENV)
        if not key:
            key = secrets.token_hex(32)
            app.logger.info(
                "no SECRET_KEY / %s: a random one for this process (referee sessions end with it)", SECRET_ENV
            )
        app.config["SECRET_KEY"] = key
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Strict"
    app.config.setdefault("SESSION_COOKIE_SECURE", False)
    if app.config.get("PERMANENT_SESSION_LIFETIME") == timedelta(
        days=31
    ):  # Flask's default: too long for a referee's desk
        app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(hours=12)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # valid while the session is (a referee keeps a page open)
    app.session_interface = _Sessions()
    csrf.init_app(app)
    app.before_request(same_origin)  # every unsafe request of the forms: its Origin is this site
    write = app.blueprints.get("write")
    if write is not None:
        csrf.exempt(write)
    app.register_blueprint(bp)
    app.context_processor(lambda: {"signed_in": signed_in()})


# --- the session ----------------------------------------------------------


class ViewerForm(FlaskForm):
    """The viewer's forms: WTForms' own messages in the page's language
    (:func:`replay_web.lang.form_translations`). Flask-WTF's translation of
    them (``WTF_I18N_ENABLED``) asks Flask-Babel for the language; the
    viewer chooses its language itself (:func:`replay_web.lang.request_lang`)."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            return form_translations(current_lang())


class SignInForm(ViewerForm):
    token = PasswordField("token", validators=[DataRequired(), Length(max=200)])
    next = HiddenField(validators=[Optional(), Length(max=2000)])


class SignOutForm(ViewerForm):
    pass


def _local(target: str | None) -> str:
    """``target`` when it is a path of this site, else the games list.

    A control character or a backslash anywhere refuses it: browsers drop
    tabs and newlines from a URL and read a backslash as ``/``, so ``/``, a
    tab, ``/evil.example`` would leave the site as ``//evil.example``."""
    if (
        target
        and target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and not any(ord(c) < 0x20 or ord(c) == 0x7F for c in target)
    ):
        return target
    return url_for("games.games_list")


@bp.route("/signin", methods=["GET", "POST"])
def signin() -> ResponseReturnValue:
    tokens = access.token_store()
    form = SignInForm()
    if request.method == "GET":
        form.next.data = request.args.get("next", "")
    error = None
    status = 200
    if tokens is None:
        error, status = _("this viewer shows record files: there is no store, so no referee sign-in"), 405
    elif request.method == "POST":
        if not form.validate_on_submit():
            error, status = _("give the token that rummy-ledger token create printed"), 400
        else:
            entered = form.token.data
            assert entered is not None  # DataRequired: the form validated with a token
            token = tokens.check(entered.strip())
            if token is None:
                error, status = _("the token is not valid (unknown, mistyped or revoked)"), 401
            else:
                session.clear()
                session[SESSION_KEY] = token.id
                session.permanent = True
                flash(_("signed in as %(name)s (%(role)s)", name=token.name, role=_(token.role)))
                return redirect(_local(form.next.data), 303)
    form.token.data = ""
    return render_template("signin.html", form=form, error=error), status


@bp.post("/signout")
def signout() -> ResponseReturnValue:
    SignOutForm()  # the CSRF check ran before the view (CSRFProtect)
    session.clear()
    flash(_("signed out"))
    return redirect(_local(request.form.get("next")), 303)


# --- rulings ----------------------------------------------------------------

_RULE = r"^[A-Z0-9]+-[A-Z0-9-]+\Z"  # \Z: "$" would let a trailing newline through
_SIDE = r"^(seat|team):[0-9]{1,2}\Z"  # ASCII digits ("\d" also matches "３")


class WholeNumberField(IntegerField):
    """An integer form field read by :func:`ledger.params.ascii_int`, as the
    CLI's options and the ``?at=`` parameter are: wtforms' ``int()`` also
    reads ``"１５"``, ``"٣"``, ``"+3"``, ``"3_0"`` and ``" 3 "``, all refused
    here with wtforms' own message ("Not a valid integer value."; in Italian
    this catalog's "Non è un numero intero valido."), the field's one message."""

    data: Any  # an int once the form validated (InputRequired), None for a refused value
    invalid_value_message: str | None  # WTForms 3.3's Field attribute (not in types-WTForms 3.2's Field)

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        try:
            self.data = ascii_int(valuelist[0])
        except ValueError as exc:
            self.data = None
            raise ValueError(self.invalid_value_message or self.gettext("Not a valid integer value.")) from exc

    def pre_validate(self, form: Any) -> None:
        """A value that is no whole number gets that one message: the range
        and required checks, which would refuse it again, are skipped."""
        if self.process_errors:
            raise StopValidation()


class PenaltyForm(ViewerForm):
    finding = WholeNumberField(validators=[InputRequired(), NumberRange(0, 100_000_000)])
    expected = WholeNumberField(validators=[InputRequired(), NumberRange(0, 100_000_000)])
    side = StringField(validators=[InputRequired(), Regexp(_SIDE, message=N_("seat:N or team:N"))])
    points = WholeNumberField(validators=[InputRequired(), NumberRange(-1_000_000, 1_000_000)])
    rule = StringField(validators=[InputRequired(), Regexp(_RULE, message=N_("a RULES.md rule id, e.g. BUR-TURN-1"))])
    note = TextAreaField(validators=[Optional(), Length(max=2000)])


class RestoreForm(ViewerForm):
    finding = WholeNumberField(validators=[InputRequired(), NumberRange(0, 100_000_000)])
    expected = WholeNumberField(validators=[InputRequired(), NumberRange(0, 100_000_000)])
    target = WholeNumberField(validators=[InputRequired(), NumberRange(0, 100_000_000)])
    reason = StringField(validators=[DataRequired(), Length(min=1, max=2000)])
    note = TextAreaField(validators=[Optional(), Length(max=2000)])


def _form_error(form: FlaskForm) -> BadRequest:
    parts = [f"{name}: {'; '.join(_(str(m)) for m in msgs)}" for name, msgs in form.errors.items()]
    return BadRequest(description=_("the ruling was not stored: %(errors)s", errors=", ".join(parts)))


def _referee(game: Any) -> Token:
    """The signed-in token, which must be a referee's or admin's covering the game."""
    token = signed_in()
    if token is None:
        raise Unauthorized(description=_("sign in with a referee token to rule (nothing was stored)"))
    access.check_write(token, game.started, [_Probe()])
    return token


class _Probe:
    """A stand-in ruling event for :func:`replay_web.access.check_write`'s role check."""

    type = "penalty_assessed"


def _store_ruling(game_id: str, data: dict[str, Any], expected: int, token: Token, back: dict[str, Any]) -> int:
    """Append one ruling; returns its position. 400/409 with nothing stored; the 409 page (and its language
    switch) links back to the game at the finding, the form filled again (``back``: the link's query, refill_args)."""
    ledger = access.ledger_app()
    if ledger is None:
        raise MethodNotAllowed(description=_("this viewer shows record files: it has no store to write to"))
    try:
        event = decode_event(msgspec.json.encode(data))
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadRequest(description=_("the ruling was not stored: %(errors)s", errors=f"REC-FORMAT: {exc}")) from None
    try:
        result = ledger.append_events(game_id, [event], expected=expected, appended_by=token.label)
    except RecordError as err:
        raise BadRequest(
            description=_(
                "the ruling was not stored: %(errors)s",
                errors=_(
                    "%(rule)s: %(message)s (position %(position)s, field %(field)s)",
                    rule=err.rule,
                    message=err.text(ledger_translations(current_lang())),
                    position=err.position,
                    field=err.field,
                ),
            )
        ) from None
    except ConcurrentAppendError as err:
        stale = Conflict(
            description=_(
                "the ruling was not stored: the game has %(now)s events now, the page showed %(shown)s;"
                " open the game again (the link below fills in your ruling) and rule again",
                now=err.length,
                shown=expected,
            )
        )
        stale.lang_back = ("games.game_page", {"game_id": game_id, "at": data["finding"], **back})  # type: ignore[attr-defined]  # its language switch
        href = url_for(stale.lang_back[0], **stale.lang_back[1])  # type: ignore[attr-defined]
        stale.links = [(href, _("back to the game at position %(n)s, your ruling filled in", n=data["finding"]))]  # type: ignore[attr-defined]  # read by the error page
        raise stale from None
    hub = current_app.extensions.get("replay_web.stream")
    if hub is not None:
        hub.poke(game_id)
    return result.first


def _game(game_id: str) -> Any:
    return params.load_game(game_id)


def _kept_args(game: Any) -> dict[str, Any]:
    """The page's ``pov`` and ``order`` (the form's action carries them),
    kept by the redirect after the ruling, so a referee ruling from a seat's
    view comes back to that view; a bad one is the page's 400
    (:func:`replay_web.params.pov`, :func:`replay_web.orders.hand_order`)
    before anything is stored."""
    pov = params.pov(request.args, game)
    return ({} if pov is None else {"pov": pov}) | order_args(hand_order(request.args))


@bp.post("/games/<game_id>/rulings/penalty")
def rule_penalty(game_id: str) -> ResponseReturnValue:
    game = _game(game_id)
    token = _referee(game)
    kept = _kept_args(game)
    form = PenaltyForm()
    if not form.validate_on_submit():
        raise _form_error(form)
    side = form.side.data
    assert side is not None  # InputRequired: the form validated with a side
    kind, _sep, number = side.partition(":")
    data: dict[str, Any] = {
        "type": "penalty_assessed",
        kind: ascii_int(number),
        "points": form.points.data,
        "rule": form.rule.data,
        "finding": form.finding.data,
        "referee": token.name,
    }
    if form.note.data:
        data["note"] = form.note.data
    back = kept | refill_args("penalty", form.finding.data, request.form)
    pos = _store_ruling(game_id, data, form.expected.data, token, back)
    flash(_("penalty stored at position %(pos)s", pos=pos))
    return redirect(url_for("games.game_page", game_id=game_id, at=pos, **kept), 303)


@bp.post("/games/<game_id>/rulings/restore")
def rule_restore(game_id: str) -> ResponseReturnValue:
    game = _game(game_id)
    token = _referee(game)
    kept = _kept_args(game)
    form = RestoreForm()
    if not form.validate_on_submit():
        raise _form_error(form)
    data: dict[str, Any] = {
        "type": "position_restored",
        "target": form.target.data,
        "reason": form.reason.data,
        "finding": form.finding.data,
        "referee": token.name,
    }
    if form.note.data:
        data["note"] = form.note.data
    back = kept | refill_args("restore", form.finding.data, request.form)
    pos = _store_ruling(game_id, data, form.expected.data, token, back)
    flash(_("table restored to move %(target)s at position %(pos)s", target=form.target.data, pos=pos))
    return redirect(url_for("games.game_page", game_id=game_id, at=pos, **kept), 303)


# --- what the pages show --------------------------------------------------


def may_rule(game: Any) -> bool:
    """The signed-in reader may rule on ``game`` now (referee/admin in scope,
    a store to write to). After ``game_ended`` only a penalty may be assessed
    (FORMAT.md "Rulings after the game"): see ``can_restore`` of :func:`context`."""
    token = signed_in()
    if token is None or not token.may_rule or access.ledger_app() is None:
        return False
    meta = game.started.meta
    return token.covers(game.game_id, meta.tournament if meta is not None else None)


def side_choices(state: TableState) -> list[tuple[str, str]]:
    """``[(value, label)]`` of the penalty form: each seat, and each team in partnerships."""
    out = [(f"seat:{p.seat}", _("%(name)s (seat %(seat)s)", name=p.name, seat=p.seat)) for p in state.players]
    if state.n_sides < state.n_seats:
        out += [(f"team:{s}", side_text(state, s, ledger_translations(current_lang()))) for s in range(state.n_sides)]
    return out


def context(game: Any, state: TableState, horizon: int, labels: list[str], pov: Any = None) -> dict[str, Any]:
    """What the game page adds for the desk: ``rulings`` (finding position ->
    rulings, up to ``horizon``, the last position the page may show),
    ``rewound`` (position -> the restoring position, likewise), ``score``
    (the panel at ``state``'s position: :func:`score_panel`), ``can_rule``,
    ``can_restore`` (may rule, and no ``game_ended`` yet: after it only a
    penalty may follow),
    the penalty's ``side_choices``, the page's ``length`` (``expected``) and
    ``tempo`` (per position up to ``horizon``, the time since the previous
    timed move, ``"+12 s"``, or ``""``: :func:`replay_web.tempo.move_seconds`).
    Texts are in the page's language (:mod:`replay_web.words`).
    ``pov``: the page's viewer (None the referee, a seat, or a spectator)."""
    kept = getattr(game, "desk_lists", None)  # the whole game's, kept with its replay (issue 27)
    if kept is not None:
        index, rewound, tempo = kept.upto(horizon)
    else:
        events = game.events[: horizon + 1]
        index, rewound = by_finding(events), rewound_by(events)
        tempo = [tempo_text(t) for t in move_seconds(events)]
    rule = may_rule(game)
    tr = ledger_translations(current_lang())  # the ruling line as the command line words it
    return {
        "rulings": index,
        "ruling_text": {pos: [r.line(game.final, tr) for r in rs] for pos, rs in index.items()},
        "tempo": tempo,
        "rewound": rewound,
        "score": score_panel(state, labels, pov),
        "can_rule": rule,
        "can_restore": rule and game.final.ended is None,
        "refill": refill_of(request.args) if rule else None,
        "side_choices": side_choices(game.final) if rule else [],
        "length": len(game.events),
    }


def score_panel(state: TableState, labels: list[str], pov: Any = None) -> dict[str, Any]:
    """The score panel at ``state``'s position: the hands completed by then
    (:func:`replay_web.present.scoreboard`), the hand in play as the table
    stands (``running``: ``[{label, cards, melds, points, adjudicated,
    breakdown, penalty}]``, None between hands) and ``final`` (the game is
    over here: the finished sheet).

    The running points count the cards in hand, so they are shown only to
    who may see those cards: every side for the referee (``pov`` None), a
    seat's own in its view (``pov`` a seat; not a team's, which counts the
    partner's cards), none for a spectator (any other ``pov``); counts and
    penalties are public."""
    panel = scoreboard(*sheets_of(state), labels)  # the chart's too (replay_web.chart.sheets_of)
    run = running_hand(state)
    if pov is None:
        shown = set(range(state.n_sides))
    elif isinstance(pov, int) and 0 <= pov < state.n_seats and state.seats_of(state.sides[pov]) == (pov,):
        shown = {state.sides[pov]}  # a partner's cards stay hidden: a team's figures are not shown to one seat
    else:
        shown = set()
    if run is not None:
        run = msgspec.structs.replace(
            run,
            lines=tuple(
                ln if ln.side in shown else msgspec.structs.replace(ln, points=None, breakdown={}) for ln in run.lines
            ),
        )
    panel["running"] = (
        None
        if run is None
        else {
            "hand": run.hand,
            "lines": [
                {
                    "label": labels[ln.side] if ln.side < len(labels) else f"side {ln.side}",
                    "cards": ln.cards,
                    "melds": ln.melds,
                    "points": ln.points,
                    "adjudicated": ln.adjudicated,
                    "penalty": ln.penalty,
                    "breakdown": [(k, v) for k, v in ln.breakdown.items()],
                }
                for ln in run.lines
            ],
        }
    )
    panel["chart"] = chart_uri(state, labels, chart_words(current_lang()))  # the cumulative scores up to this position
    panel["final"] = state.ended is not None
    panel["position"] = state.position
    panel["differs"] = panel["totals"] != panel["played_totals"]
    return panel


__all__ = ["Ruling", "bp", "context", "csrf", "init_app", "may_rule", "score_panel", "signed_in"]
