"""A paper score sheet entered in the viewer: a score-only game (issue 24;
FORMAT.md, "Partial records"), one line per hand as the sheet has it.

``GET /score-sheets/new`` shows the form (game id, variant, players, one line
per hand: the sides' points separated by commas); ``POST /score-sheets``
stores the game (:func:`ledger.score_only.score_only_game`, imported as one
record) and answers 303 to its page (``Location``). A signed-in token of the
desk (:mod:`replay_web.desk`) is needed, of any role (a recorder, a referee,
an admin), covering the new game's id; the form carries the CSRF token.
Refusals, nothing stored: no session 401, a token whose scope does not cover
the game 403, a bad field or sheet 400 (naming the line), a game id already
stored 409, a viewer over record files 405. A bad sheet or field, or a game id
already stored, answers with the form again as typed and the refusal above it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, MethodNotAllowed, Unauthorized
from wtforms import SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Regexp

from ledger.catalog import CATALOG
from ledger.errors import GameConflictError, RecordError
from ledger.events import GameStarted
from ledger.i18n import translations as ledger_translations
from ledger.records import encode_record, parse_record
from ledger.score_only import parse_sheet, score_only_game, side_count
from replay_web import access, auto_checkpoint, desk
from replay_web.desk import ViewerForm, signed_in
from replay_web.lang import current_lang
from replay_web.lang import gettext as _

bp = Blueprint("scoresheet", __name__)


def init_app(app: Flask) -> None:
    """The desk (:func:`replay_web.desk.init_app`: session, CSRF, sign-in, rulings), then this form's routes."""
    desk.init_app(app)
    app.register_blueprint(bp)


class ScoreSheetForm(ViewerForm):
    """The sheet: game id, variant, the players in seat order, the hand lines."""

    game_id = StringField(validators=[DataRequired(), Regexp(r"^[A-Za-z0-9._-]{1,64}$")])
    variant = SelectField(choices=sorted(CATALOG))  # type: ignore[arg-type]  # plain values: types-WTForms 3.2 takes only (value, label) pairs, which WTForms 3.3 deprecates
    players = StringField(validators=[DataRequired(), Length(max=900)])
    lines = TextAreaField(validators=[DataRequired(), Length(max=20_000)])


def _writer() -> Any:
    token = signed_in()
    if token is None:
        raise Unauthorized(description=_("sign in with a recorder or referee token to enter a score sheet"))
    return token


@bp.get("/score-sheets/new")
def new_sheet() -> ResponseReturnValue:
    _writer()
    return render_template("score_sheet.html", form=ScoreSheetForm(), error=None)


@bp.post("/score-sheets")
def store_sheet() -> ResponseReturnValue:
    token = _writer()
    ledger = access.ledger_app()
    if ledger is None:
        raise MethodNotAllowed(description=_("this viewer shows record files: it has no store to write to"))
    form = ScoreSheetForm()
    if not form.validate_on_submit():
        parts = [f"{name}: {'; '.join(_(str(m)) for m in msgs)}" for name, msgs in form.errors.items()]
        if "csrf_token" in form.errors:  # a forged or stale form: nothing of it is shown again
            raise BadRequest(description=_("the score sheet was not stored: %(errors)s", errors=", ".join(parts)))
        return _refused(form, _("the score sheet was not stored: %(errors)s", errors=", ".join(parts)), 400)
    game_id, players, lines = form.game_id.data, form.players.data, form.lines.data
    assert game_id is not None and players is not None and lines is not None  # DataRequired: the form validated
    names = [p.strip() for p in players.split(",") if p.strip()]
    try:
        meta = ledger.pairing_meta(game_id)  # a tournament's table: its meta from the pairing
        rows = parse_sheet(lines, sides=side_count(form.variant.data, names), names=names)
        events = score_only_game(game_id, form.variant.data, names, rows, meta=meta)
        started = events[0]
        assert isinstance(started, GameStarted)  # score_only_game opens the game with it
        access.check_write(token, started, events)
        ledger.import_record(parse_record(encode_record(events)), appended_by=token.label)
        auto_checkpoint.after_append(ledger, events)
    except RecordError as err:
        where = _("line %(line)s: ", line=err.line) if err.line else ""
        message = err.text(ledger_translations(current_lang()))
        return _refused(
            form, _("the score sheet was not stored: %(errors)s", errors=f"{where}{err.rule}: {message}"), 400
        )
    except GameConflictError:
        message = _("the score sheet was not stored: game %(game)s is already stored", game=form.game_id.data)
        return _refused(form, message, 409)
    return redirect(url_for("games.game_page", game_id=form.game_id.data), 303)


def _refused(form: ScoreSheetForm, message: str, status: int) -> tuple[str, int]:
    """The form again, as it was typed, with the refusal above it (nothing stored), so the
    scorer corrects the line instead of typing the sheet again."""
    return render_template("score_sheet.html", form=form, error=message), status
