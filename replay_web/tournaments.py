"""Tournaments in the viewer: a page and the read API (TOURNAMENT.md).

- ``GET /tournaments``: the stored tournaments, each linked to its page;
- ``GET /tournaments/<id>``: the rounds, their tables and results (each
  finished game linked to its final position), the byes, the standings, the
  standings chart (each entrant's VP round by round:
  :mod:`replay_web.standings_chart`) and the findings, in the page's language;
- ``GET /tournaments/<id>/standings.svg?after_round=R``: that chart alone
  (``image/svg+xml``, the page's language; 404 before round 1), which the
  page's live standings load again after each message of the stream;
- ``GET /api/tournaments``: ``{"tournaments": [{tournament_id, name, variant, movement, rounds}]}``;
- ``GET /api/tournaments/<id>``: the tournament (its ``tournament_started``), its
  entrants, rounds with tables (``status``: ``finished``, ``playing`` or
  ``not stored``; the MP and VP of a finished one) and findings;
- ``GET /api/tournaments/<id>/standings?after_round=R``: the standings object of
  ``rummy-ledger tournament standings --json`` (TOURNAMENT.md "Machine-readable outputs").

The read rules of FORMAT.md apply to every linked game: an unfinished game is
only *playing* here, for every reader (its running totals are never shown, and
it counts for nothing in the standings until it ends). Errors are the API's
JSON errors (404 for an unknown tournament, 400 for a bad ``after_round``);
a viewer that serves record files (no store) has no tournaments (404).
"""

from __future__ import annotations

from typing import Any

import msgspec
from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ledger.i18n import translations as cli_translations
from ledger.store.tournaments import TournamentNotFoundError
from ledger.tournament.checker import check
from ledger.tournament.render import number
from ledger.tournament.results import GameResult
from ledger.tournament.standings import round_lines, standings
from ledger.tournament.state import TournamentState
from replay_web import access
from replay_web.lang import current_lang
from replay_web.lang import gettext as _

bp = Blueprint("tournaments", __name__)


def load_tournament(tid: str) -> tuple[Any, TournamentState, dict[str, GameResult]]:
    """``(ledger, state, results)`` of tournament ``tid`` from the served store
    (TOURNAMENT.md "The record"); aborts 404 for a server of record files or
    an unknown tournament."""
    ledger = access.ledger_app()
    if ledger is None:
        abort(404, description="tournaments are served from a store, not from record files")
    try:
        state = ledger.tournament_state(tid)
    except TournamentNotFoundError:
        abort(404, description=f"no tournament {tid!r} in the store")
    return ledger, state, ledger.tournament_results(state)


def after_round_arg() -> int | None:
    """The request's ``after_round`` (a round number, at most 4 digits), or
    None when absent; aborts 400 for anything else."""
    raw = request.args.get("after_round")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 4):
        abort(400, description="after_round is a round number (0, 1, 2, ...)")
    return int(raw)


def standings_svg(state: TournamentState, results: dict[str, GameResult], after: int | None) -> str | None:
    """The standings chart after round ``after`` as SVG text in the page's language (None before round 1)."""
    from ledger.tournament.progress import progress
    from replay_web.standings_chart import chart_words, standings_chart

    return standings_chart(progress(state, results, after), chart_words(current_lang()))


def standings_chart_uri(state: TournamentState, results: dict[str, GameResult], after: int | None) -> str | None:
    """:func:`standings_svg` as a ``data:image/svg+xml;base64,…`` URI for an ``<img>`` (None before round 1)."""
    from replay_web.chart import svg_uri

    svg = standings_svg(state, results, after)
    return None if svg is None else svg_uri(svg)


def rounds_doc(state: TournamentState, results: dict[str, GameResult]) -> list[dict[str, Any]]:
    """Each round: its tables with their status, MP and VP (a finished game only), the bye, closed or not."""
    out = []
    for rnd, info in sorted(state.rounds.items()):
        lines = dict(round_lines(state, results, rnd))
        tables = []
        for t in sorted(info.tables, key=lambda t: t.table):
            a, b = t.entrants
            game = results.get(t.game_id)
            status = "not stored" if game is None else ("finished" if game.finished else "playing")
            row: dict[str, Any] = {"table": t.table, "entrants": [a, b], "game_id": t.game_id, "status": status}
            if status == "finished":
                row["mp"] = [lines[a].mp, lines[b].mp]
                row["vp"] = [lines[a].vp, lines[b].vp]
            tables.append(row)
        out.append(
            {
                "round": rnd,
                "closed": info.closed_at is not None,
                "checkpoint": info.checkpoint,
                "bye": info.bye,
                "bye_vp": state.started.bye_score if info.bye else None,
                "tables": tables,
            }
        )
    return out


def tournament_doc(state: TournamentState, results: dict[str, GameResult]) -> dict[str, Any]:
    """The ``GET /api/tournaments/<id>`` object."""
    return {
        "tournament": msgspec.to_builtins(state.started),
        "entrants": [
            {"entrant": e.id, "players": list(e.players), "withdrawn": e.withdrawn_at is not None}
            for e in state.entrants.values()
        ],
        "rounds": rounds_doc(state, results),
        "ended": state.ended,
        "findings": [f.to_json() for f in check(state, results)],
    }


@bp.get("/api/tournaments")
def tournaments_api() -> ResponseReturnValue:
    ledger = access.ledger_app()
    found = ledger.list_tournaments() if ledger is not None else []
    return jsonify(
        {
            "tournaments": [
                {"tournament_id": t.tournament_id, "name": t.name, "variant": t.variant, "movement": t.movement,
                 "rounds": t.rounds}
                for t in found
            ]
        }
    )  # fmt: skip


@bp.get("/api/tournaments/<tournament_id>")
def tournament_api(tournament_id: str) -> ResponseReturnValue:
    _ledger, state, results = load_tournament(tournament_id)
    return jsonify(tournament_doc(state, results))


@bp.get("/api/tournaments/<tournament_id>/standings")
def standings_api(tournament_id: str) -> ResponseReturnValue:
    after = after_round_arg()
    _ledger, state, results = load_tournament(tournament_id)
    return jsonify(standings(state, results, after).to_json())


@bp.get("/tournaments")
def tournaments_page() -> ResponseReturnValue:
    ledger = access.ledger_app()
    return render_template("tournaments.html", tournaments=ledger.list_tournaments() if ledger is not None else [])


@bp.get("/tournaments/<tournament_id>/standings.svg")
def standings_chart_svg(tournament_id: str) -> ResponseReturnValue:
    after = after_round_arg()
    _ledger, state, results = load_tournament(tournament_id)
    svg = standings_svg(state, results, after)
    if svg is None:
        abort(404, description="no standings chart before the first round is paired")
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


@bp.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str) -> ResponseReturnValue:
    after = after_round_arg()
    ledger, state, results = load_tournament(tournament_id)
    s = standings(state, results, after)
    chart = standings_chart_uri(state, results, after)
    lengths = {gid: ledger.game_length(gid) for gid, g in results.items() if g.finished}
    links = {gid: url_for("games.game_page", game_id=gid, at=n - 1) for gid, n in lengths.items()}
    return render_template(
        "tournament.html",
        t=state,
        rounds=rounds_doc(state, results),
        standings=s,
        chart=chart,
        findings=check(state, results),
        links=links,
        number=number,
        tr=cli_translations(current_lang()),  # the findings as the command line words them
        unit=_("Pair") if any(len(e.players) == 2 for e in state.entrants.values()) else _("Player"),
    )
