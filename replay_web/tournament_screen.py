"""The hall's big screen and the printable standings sheet of a tournament (issue 25).

- ``GET /tournaments/<id>/screen``: the standings in large type for a screen
  in the hall (place, entrant, players, VP; a table still playing is marked),
  following the live standings stream
  (:mod:`replay_web.tournament_stream`) as the tournament page does; it fits
  any width from a phone's 390 px to a 1920 px screen without scrolling sideways.
- ``GET /tournaments/<id>/sheet``: the standings sheet to print (A4, print
  CSS: place, entrant, players, VP, MP difference, MP and each round's VP,
  then the standings chart: :mod:`replay_web.standings_chart`),
  ``?after_round=R`` as the standings; ``?format=pdf`` gives it as a PDF
  (:func:`replay_web.pdf.html_to_pdf`, the report's Chromium printing; 503
  naming what to install when this server has none).

What they show is the standings API's (``GET /api/tournaments/<id>/standings``):
an unfinished game counts for nothing and shows as *playing*.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, make_response, render_template, request
from flask.typing import ResponseReturnValue

from ledger.tournament.render import number
from ledger.tournament.standings import standings
from ledger.tournament.state import TournamentState
from replay_web.lang import current_lang
from replay_web.lang import gettext as _
from replay_web.tournaments import after_round_arg, load_tournament, standings_chart_uri

bp = Blueprint("tournament_screen", __name__)
SHEET_CSS = Path(__file__).resolve().parent / "static" / "sheet.css"


def _unit(state: TournamentState) -> str:
    return _("Pair") if any(len(e.players) == 2 for e in state.entrants.values()) else _("Player")


@bp.get("/tournaments/<tournament_id>/screen")
def screen_page(tournament_id: str) -> ResponseReturnValue:
    """The big-screen standings (module docstring); 404 unknown tournament, 400 bad ``after_round``."""
    after = after_round_arg()
    _ledger, state, results = load_tournament(tournament_id)
    s = standings(state, results, after)
    return render_template(
        "tournament_screen.html", t=state, standings=s, number=number, unit=_unit(state), live=after is None
    )


@bp.get("/tournaments/<tournament_id>/sheet")
def sheet_page(tournament_id: str) -> ResponseReturnValue:
    """The printable standings sheet, HTML or ``format=pdf`` (module docstring); 404, 400 as the
    screen, 400 for another ``format``, 503 without Chromium for the PDF."""
    fmt = request.args.get("format", "html")
    if fmt not in ("html", "pdf"):
        abort(400, description=f"format={fmt!r}: the standings sheet is html or pdf")
    after = after_round_arg()
    _ledger, state, results = load_tournament(tournament_id)
    s = standings(state, results, after)
    rounds = list(range(1, s.after_round + 1))
    chart = standings_chart_uri(state, results, after)
    args = {"t": state, "standings": s, "number": number, "unit": _unit(state), "rounds": rounds, "chart": chart}
    if fmt == "html":
        return render_template("tournament_sheet.html", css_text=None, **args)
    from replay_web.pdf import PdfUnavailableError, html_to_pdf

    html = render_template("tournament_sheet.html", css_text=SHEET_CSS.read_text(encoding="utf-8"), **args)
    try:
        pdf = html_to_pdf(html)
    except PdfUnavailableError as exc:
        abort(503, description=f"no PDF on this server: {exc}")
    response = make_response(pdf)
    response.mimetype = "application/pdf"
    name = f"standings-{state.tournament_id}-{s.after_round}-{current_lang()}.pdf"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Content-Language"] = current_lang()
    return response


__all__ = ["bp", "screen_page", "sheet_page"]
