"""The JSON API: the same data the pages show. Errors are JSON too:
``{"error": {"status", "title", "message"}}`` with the status code.

- ``GET /api/games?variant=&player=&tournament=&q=``: ``{"games": [...]}``
  (``game_id, variant, ruleset, players, meta, hands, events, findings``);
- ``GET /api/games/<id>``: the summary and the events
  (``{"game": {...}, "events": [{"position", "type", "text", "event"}]}``);
- ``GET /api/games/<id>/state?at=N&pov=S``: :func:`ledger.views.state_view`
  at position ``at`` (default the last) plus ``"move"`` (the notation of the
  event at ``at``); with ``pov`` (a seat, or ``spectator``) the view is
  redacted by :mod:`ledger.redaction` (a hidden hand is a count plus the
  cards seen face up, never its other cards) and the move text hides what
  that viewer could not see;
- ``GET /api/games/<id>/audit``: the ``rummy-ledger audit --json`` object;
- ``GET /api/games/<id>/score``: the ``rummy-ledger score --json`` object.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from ledger.events import to_builtins
from ledger.views import move_text, state_view
from replay_web import params
from replay_web.games import filter_games
from replay_web.store import meta_of

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/games")
def games():  # type: ignore[no-untyped-def]
    rows, _ = filter_games(request.args)
    return jsonify({"games": rows})


@bp.get("/games/<game_id>")
def game(game_id: str):  # type: ignore[no-untyped-def]
    g = params.load_game(game_id)
    final = g.final
    summary: dict[str, Any] = {
        "game_id": g.game_id,
        "variant": g.started.variant,
        "ruleset": final.rules.ruleset,
        "players": [{"seat": p.seat, "name": p.name, "team": p.team} for p in final.players],
        "meta": meta_of(g.started),
        "hands": len(g.hand_starts),
        "events": len(g.events),
        "last": g.last,
        "hand_starts": g.hand_starts,
        "findings": len(g.findings),
        "violations": g.violation_positions,
        "totals": list(final.totals),
        "ended": final.ended,
    }
    events = [
        {"position": i, "type": e.type, "text": g.moves[i], "event": to_builtins(e)}
        for i, e in enumerate(g.events)
    ]
    return jsonify({"game": summary, "events": events})


@bp.get("/games/<game_id>/state")
def state(game_id: str):  # type: ignore[no-untyped-def]
    g = params.load_game(game_id)
    pov = params.pov(request.args, g)
    at = params.position(request.args, g, pov)
    s = g.state_at(at)
    view = state_view(s, pov)
    view["move"] = move_text(g.events[at], s, pov)
    return jsonify(view)


@bp.get("/games/<game_id>/audit")
def audit(game_id: str):  # type: ignore[no-untyped-def]
    return jsonify(params.load_game(game_id).audit_json)


@bp.get("/games/<game_id>/score")
def score(game_id: str):  # type: ignore[no-untyped-def]
    return jsonify(params.load_game(game_id).sheet.to_json())
