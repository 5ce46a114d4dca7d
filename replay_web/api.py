"""The JSON API: the same data the pages show. Errors are JSON too:
``{"error": {"status", "title", "message"}}`` with the status code.

- ``GET /api/games?variant=&player=&tournament=&q=&sort=&dir=``: ``{"games": [...]}``
  (``game_id, variant, ruleset, players, meta, hands, events, findings,
  finished, result``), filtered and sorted as the games page
  (:func:`replay_web.games.filter_games`);
- ``GET /api/games/<id>?offset=&limit=``: the summary and the events
  (``{"game": {...}, "events": [{"position", "type", "text", "event"}]}``),
  a page at a time as ``/audit`` (1,000 by default, at most 10,000:
  :mod:`replay_web.paging`);
  for a reader who sees the whole game (a referee, or a finished game) with
  ``ETag: "<length>"``, the stored game's length, as the write API's answers
  give it (the next ``If-Match``), and ``304`` to an ``If-None-Match`` of it
  (a spectator's delayed view changes with time: no ETag);
- ``GET /api/games/<id>/state?at=N&pov=S``: :func:`ledger.views.state_view`
  at position ``at`` (default the last) plus ``"move"`` (the notation of the
  event at ``at``); with ``pov`` (a seat, or ``spectator``) the view is
  redacted by :mod:`ledger.redaction` (a hidden hand is a count plus the
  cards seen face up, never its other cards) and the move text hides what
  that viewer could not see;
- ``GET /api/games/<id>/audit?offset=&limit=``: the ``rummy-ledger audit --json``
  object, its findings a page at a time (1,000 by default; :func:`audit`);
- ``GET /api/games/<id>/score``: the ``rummy-ledger score --json`` object.

``/api/games/<id>``, ``/audit`` and ``/score`` take ``at=N`` (up to that
position) and ``pov=S`` too: with ``pov`` (a seat, or ``spectator``) the move
texts, the findings and their count are those that viewer may see at ``at``
(:mod:`ledger.redaction`; a finding that could tell a hidden card waits for
the end of its hand) and each ``event`` holds only its face-up fields.

Every route about one game asks :mod:`replay_web.access` first: an
unfinished game is whole only for a referee token; anyone else gets the
spectator view up to the delayed position (no hidden card, findings without
messages), and ``pov`` of an unfinished game is for referees (403). The
summary says which view was given (``"view"``: ``public``, ``referee`` or
``spectator``). The write API and the stream are :mod:`replay_web.write`
and :mod:`replay_web.stream`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from ledger.notation import notation
from ledger.redaction import SPECTATOR, Pov, visible_findings
from ledger.scoring import score_sheet
from ledger.sealing.verify_rows import sealed_json
from replay_web import access, paging, params
from replay_web.games import filter_games
from replay_web.store import meta_of

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/games")
def games() -> ResponseReturnValue:
    rows, _ = filter_games(request.args)
    return jsonify({"games": rows})


def _seat_reader(g: Any) -> tuple[access.Access, Pov, int]:
    """The reader's access, ``pov`` (a seat or ``spectator`` as asked; for a
    reader who may not see the whole game always ``spectator``) and the last
    position it asks about (``at``, default the last it may see)."""
    acc = access.reader_access(g)
    pov = params.pov(request.args, g)
    access.check_pov(pov, acc)
    if not acc.omniscient:
        pov = SPECTATOR
    return acc, pov, params.reader_position(request.args, g, acc, pov)


@bp.get("/games/<game_id>")
def game(game_id: str) -> ResponseReturnValue:
    g = params.load_seen_game(game_id)
    acc, pov, upto = _seat_reader(g)
    state = g.final if (pov is None and upto == g.last) else g.state_at(upto)
    found = access.findings(g.findings if pov is None else visible_findings(state, pov), acc)
    found = [f for f in found if f.position <= upto]
    summary: dict[str, Any] = {
        "game_id": g.game_id,
        "variant": g.started.variant,
        "ruleset": state.rules.ruleset,
        "players": [{"seat": p.seat, "name": p.name, "team": p.team} for p in state.players],
        "meta": meta_of(g.started),
        "hands": sum(1 for p in g.hand_starts if p <= upto),
        "events": upto + 1,
        "last": upto,
        "hand_starts": [p for p in g.hand_starts if p <= upto],
        "findings": len(found),
        "violations": sorted({f.position for f in found}),
        "totals": list(state.totals),
        "ended": state.ended,
        "view": acc.view,
    }
    if pov is not None:
        summary["pov"] = pov
    faceup = acc if pov is None else access.SPECTATOR_ACCESS
    part = paging.api_slice(upto + 1, "events", paging.EVENTS)  # a page of them (issue 27, defect 4)
    events = [
        {
            "position": i,
            "type": e.type,
            "text": g.moves[i] if pov is None else notation(e, state, pov),
            "event": access.event_json(e, faceup),
        }
        for i, e in zip(range(part.start, part.stop), g.events[part.start : part.stop], strict=True)
    ]
    response = paging.api_answer({"game": summary, "events": events}, "events", part)
    if acc.omniscient:  # the stored length: the next If-Match of the write API (replay_web.write)
        response.set_etag(str(g.last + 1))
        response.vary.add("Authorization")
        return response.make_conditional(request)
    return response


@bp.get("/games/<game_id>/state")
def state(game_id: str) -> ResponseReturnValue:
    g = params.load_seen_game(game_id)
    acc = access.reader_access(g)
    pov = params.pov(request.args, g)
    at = params.reader_position(request.args, g, acc, pov)
    s = g.state_at(at)
    view = access.table_view(s, acc, pov).to_json()
    view["move"] = notation(g.events[at], s, access.move_pov(acc, pov))
    return jsonify(view)


#: findings per page of ``/audit`` by default (``?limit=`` up to :data:`MAX_FINDINGS`)
FINDINGS_PAGE, MAX_FINDINGS = paging.API_FINDINGS


@bp.get("/games/<game_id>/audit")
def audit(game_id: str) -> ResponseReturnValue:
    """The audit object, its findings one page at a time: ``?offset=N``
    (default 0) and ``?limit=M`` (default :data:`FINDINGS_PAGE`, at most
    :data:`MAX_FINDINGS`). A game with more findings than one page, or a
    request that names a page, gets ``total``, ``offset`` and ``limit`` and,
    while findings remain, a ``Link: <…>; rel="next"`` header (a game of
    120k events had 49k findings in one answer; issue 27, defect 4;
    :func:`replay_web.paging.api_page`). Each finding carries its
    ``ruling``; the object ends as ``audit --json``'s does, by one function
    (:func:`ledger.sealing.verify_rows.sealed_json`): ``seal`` after the
    reader's last position (null for a seat's or a visitor's view, and when
    the stored chain does not verify), ``length`` (that position + 1),
    ``chain_verified`` and, when false, ``chain_broken``."""
    g = params.load_seen_game(game_id)
    acc, pov, at = _seat_reader(g)
    if pov is None and at == g.last:
        body = dict(g.audit_json)
    else:
        found = visible_findings(g.state_at(at), pov)
        body = {"game_id": g.game_id, "findings": [access.finding_json(f, acc) for f in found]}
    body = sealed_json(body, _seal_after(g, acc, pov, at), g.chain, at + 1)
    return paging.api_page(body, "findings", paging.API_FINDINGS)


def _seal_after(g: Any, acc: access.Access, pov: Pov, at: int) -> str | None:
    """The seal after position ``at`` for the whole view (a referee's or a
    finished game's, no ``pov``), else None (docs/seals.md: a seat could
    search the hidden hands for the one that gives it); :func:`sealed_json`
    nulls it when the stored chain does not verify."""
    return g.seals[at] if pov is None and acc.omniscient else None


@bp.get("/games/<game_id>/score")
def score(game_id: str) -> ResponseReturnValue:
    """The ``score --json`` object at the reader's last position (docs/api.md):
    the sheet as adjudicated, ``"seal"`` after that position and the chain
    fields (:func:`ledger.sealing.verify_rows.sealed_json`, as ``score --json``). The stored chain is
    checked first, once per game version (``GameData.chain``): when it does
    not verify the seal is null, ``chain_verified`` false and
    ``chain_broken`` names the first broken position. Only the whole view
    (a referee's, no ``pov``) shows a seal (docs/seals.md: a seat could search
    the hidden hands for the one that gives it); other readers get null."""
    g = params.load_seen_game(game_id)
    acc, pov, at = _seat_reader(g)
    sheet = g.sheet if pov is None and at == g.last else score_sheet(g.state_at(at), adjudicated=True)
    return jsonify(sealed_json(sheet.to_json(), _seal_after(g, acc, pov, at), g.chain))
