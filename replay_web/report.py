"""The dispute report: one or two A4 pages a referee prints, signs and hands out.

``rummy-ledger report GAME|FILE [--at N] [--finding POS] [--lang it|en] -o
FILE.pdf|FILE.html`` (:mod:`ledger.cli.report`) and the viewer's
``/games/<id>/report?at=N&finding=POS&lang=it|en`` and its PDF download
``/games/<id>/report.pdf`` (or ``report?format=pdf``) (:data:`bp`; the game
page links both at its position) build
the report with :func:`replay_web.report_data.build_report` and render it with :func:`render_html`
(template ``report.html``, stylesheet ``static/report.css``, screen and
print); the PDF is that page printed by headless Chromium
(:func:`replay_web.pdf.html_to_pdf`).

What the report holds (issue 16): the game (variant, ruleset, meta, players,
referee); the position in dispute with the table drawn (hands, melds per
side, discard pile, stock, pozzetti); a window of moves around it (rewound
moves marked, with the time per move where events carry ``at``); the
findings with their rule ids, status and each cited rule's text
(:mod:`ledger.rule_texts`); the rulings (``penalty_assessed`` /
``position_restored``; which finding each answers and which moves a restore
rewound come from :mod:`ledger.rulings`, as in the viewer and ``audit``);
the score sheet, claimed against computed with the difference explained;
each seat's three longest turns (FIBur art. 15, time-outs); the game's seal
(FORMAT.md "Seal": the store's stored seal for a stored game, computed for
a record file, and the report says which:
:func:`replay_web.report_data.seal_of`); lines for the
signatures of the referee and of every player.

Everything comes from the fold (:class:`~ledger.replay.Replayer`,
:func:`ledger.audit.report`, :func:`ledger.scoring.score_sheet`,
:func:`replay_web.present.board`); no rule is evaluated here. The text is
English or Italian (:mod:`replay_web.lang`); finding messages are the
audit's own words in the report's language
(:meth:`ledger.state.Finding.text`, with the catalog's command-line layer), next
to the rule's text.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, make_response, request, url_for
from flask.typing import ResponseReturnValue
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ledger.i18n import translations as ledger_translations
from ledger.params import ascii_int
from replay_web import access, params
from replay_web.lang import current_lang, viewer_translations
from replay_web.orders import hand_order
from replay_web.present import face, suit_markup
from replay_web.report_data import ReportError, build_report, tournament_impact
from replay_web.words import card_title, code_markup

__all__ = ["bp", "render_html", "report_css"]

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
CSS = HERE / "static" / "report.css"

bp = Blueprint("report", __name__)


# --- rendering ------------------------------------------------------------------


@cache
def _env(lang: str) -> Environment:
    """A Jinja environment per language (gettext installed once, so two
    requests in two languages never share one)."""
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(("html",)),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(viewer_translations(lang), newstyle=True)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    env.globals["face"] = face
    env.globals["card_title"] = lambda code, english: card_title(code, english, lang)
    env.filters["suits"] = suit_markup
    env.filters["code"] = code_markup
    return env


def report_css() -> str:
    """The report's stylesheet (screen and print)."""
    return CSS.read_text(encoding="utf-8")


#: the rules reference that the report's cited rules link to (``URL#RULE-ID``), when it is not the checkout's
RULES_URL_ENV = "RUMMY_LEDGER_RULES_URL"
RULES_DOC = HERE.parent / "docs" / "rules.md"


def rules_url() -> str | None:
    """Where a cited rule links (its anchor is the rule id, docs/rules.md): ``$RUMMY_LEDGER_RULES_URL``
    (e.g. the ``rules.html`` of the docs site that ``mkdocs build`` makes), else the checkout's
    docs/rules.md as a ``file://`` URL, else None (an installed package without docs: no links)."""
    configured = os.environ.get(RULES_URL_ENV, "").strip()
    if configured:
        return configured
    return RULES_DOC.as_uri() if RULES_DOC.is_file() else None


def render_html(
    data: dict[str, Any], *, css_href: str | None = None, back_href: str | None = None, pdf_href: str | None = None
) -> str:
    """The report page. ``css_href``: link the stylesheet there (the viewer,
    whose Content-Security-Policy allows no inline style); None: the
    stylesheet is inlined, so the file stands alone (``-o FILE.html``, PDF).
    Each cited rule links to its anchor in the rules reference (:func:`rules_url`)."""
    template = _env(data["lang"]).get_template("report.html")
    return template.render(
        r=data,
        css_href=css_href,
        css_text=None if css_href else report_css(),
        back_href=back_href,
        pdf_href=pdf_href,
        rules_url=rules_url(),
    )


# --- the viewer's route -------------------------------------------------------------


def _whole(name: str) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    try:
        return ascii_int(raw)  # int() also reads "３", "+3", "3_0"; "--3" passed the old check and failed in int()
    except ValueError:
        abort(400, description=f"{name}={raw!r} is not a whole number")


def _report(game_id: str) -> tuple[Any, dict[str, Any]]:
    game = params.load_game(game_id)
    if not access.reader_access(game).omniscient:
        abort(
            403,
            description="the dispute report of an unfinished game shows every card: it needs a referee's token "
            "(Authorization: Bearer …); a finished game's report is public",
        )
    at = params.position(request.args, game) if request.args.get("at") not in (None, "") else None
    finding = _whole("finding")
    fmt = request.args.get("format", "html")
    if fmt not in ("html", "pdf"):
        abort(400, description=f"format={fmt!r}: the report is html or pdf")
    try:
        data = build_report(
            game.events,
            at=at,
            finding=finding,
            lang=current_lang(),
            replayer=game.replayer,
            seals=game.seals if game.seals_stored else None,
            broken=game.broken,
            order=hand_order(request.args),  # by suit and rank, as the viewer; ?order=dealt as there
        )
    except ReportError as exc:  # in the page's language (the catalog's command-line layer)
        abort(400, description=exc.text(ledger_translations(current_lang())))
    data["tournament"] = tournament_rows(game.events, current_lang())
    return game, data


def tournament_rows(events: Any, lang: str) -> list[dict[str, Any]]:
    """:func:`replay_web.report_data.tournament_impact` of the served store (empty when serving record files)."""
    ledger = access.ledger_app()
    return [] if ledger is None else tournament_impact(ledger, events, lang)


@bp.get("/games/<game_id>/report")
def report_page(game_id: str) -> ResponseReturnValue:
    """The printable dispute report, HTML (or ``format=pdf``: :func:`report_pdf`).
    The language is the page's (:mod:`replay_web.lang`: ``?lang=it|en``,
    ``Accept-Language``). 404 for an unknown game, 400 for a bad ``at``,
    ``finding``, ``lang`` or ``format``, 403 for an unfinished game without
    a referee's token (the report shows every card; :mod:`replay_web.access`)."""
    if request.args.get("format") == "pdf":
        return report_pdf(game_id)
    _game, data = _report(game_id)
    html = render_html(
        data,
        css_href=url_for("static", filename="report.css"),
        back_href=url_for("games.game_page", game_id=game_id, at=data["at"]),
        pdf_href=url_for(
            "report.report_pdf", game_id=game_id, at=data["at"], finding=data["finding"], lang=data["lang"]
        ),
    )
    return make_response(html)


@bp.get("/games/<game_id>/report.pdf")
def report_pdf(game_id: str) -> ResponseReturnValue:
    """The dispute report as a PDF download (A4, :func:`replay_web.pdf.html_to_pdf`:
    headless Chromium's print-to-PDF), same arguments and errors as
    :func:`report_page`; 503 (HTML, or JSON when the client asks for JSON)
    when this server has no Chromium or Playwright, naming what to install,
    or with ``Retry-After`` when the PDF queue is full (:mod:`replay_web.pdf`:
    one Chromium at a time, a few waiting, each PDF kept per game version and
    language)."""
    from flask import jsonify

    from replay_web.pdf import PdfBusyError, PdfUnavailableError, html_to_pdf

    _game, data = _report(game_id)
    try:
        pdf = html_to_pdf(render_html(data))
    except PdfUnavailableError as exc:
        retry = exc.retry_after if isinstance(exc, PdfBusyError) else None
        message = f"{exc}" if retry else f"no PDF on this server: {exc}"
        headers = {"Retry-After": str(retry)} if retry else {}
        if request.accept_mimetypes.best == "application/json":
            body = {"error": {"status": 503, "title": "Service Unavailable", "message": message}}
            return jsonify(body), 503, headers
        from werkzeug.exceptions import ServiceUnavailable

        raise ServiceUnavailable(description=message, retry_after=retry) from None
    response = make_response(pdf)
    response.mimetype = "application/pdf"
    name = f"report-{data['game']['id']}-{data['at']}-{data['lang']}.pdf"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Content-Language"] = data["lang"]
    response.vary.add("Accept-Language")
    return response
