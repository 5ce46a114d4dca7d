"""The pages: the games list and the game page (table, moves, audit, scores).

Routes (GET only):

- ``/`` -> ``/games``;
- ``/games?variant=&player=&tournament=&q=``: every game, filtered;
- ``/games/<game_id>?at=N&pov=S``: the game at position ``at`` (default the
  last), seen by seat ``pov`` (default: the referee, who sees everything);
- ``/games/<game_id>/board?at=N&pov=S``: the table alone (an HTML fragment
  the page's script swaps in when stepping, so the URL changes without a
  reload).

What a reader sees is decided by :mod:`replay_web.access`: an unfinished
game is shown to a browser (no token) as a spectator sees it, up to the
delayed position, with no hidden card, no notes and findings without their
messages; seat views (``pov``) of an unfinished game need a referee token.
"""

from __future__ import annotations

import bisect
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from ledger.audit import report
from ledger.scoring import score_sheet
from ledger.state import TableState
from ledger.variants import find_variant
from replay_web import access, desk, params
from replay_web.cache import GameData
from replay_web.present import around, board, move_text, scoreboard
from replay_web.store import meta_of

bp = Blueprint("games", __name__)


def filter_games(args: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The games list as rows, filtered by ``variant``, ``player`` (part of a
    name), ``tournament`` (part of it) and ``q`` (part of the game id), all
    case-insensitive. Returns ``(rows, choices)``; ``choices`` holds the
    variants and tournaments present, for the filter form, and the record
    files that could not be read (``skipped``, when serving files)."""
    from replay_web import cache_of

    cache = cache_of(current_app)
    games = cache.store.list_games()
    variant = (args.get("variant") or "").strip().lower()
    player = (args.get("player") or "").strip().lower()
    tournament = (args.get("tournament") or "").strip().lower()
    q = (args.get("q") or "").strip().lower()
    choices = {
        "variants": sorted({g.variant for g in games}),
        "tournaments": sorted({g.meta.get("tournament", "") for g in games} - {""}),
        "skipped": [(path, str(err)) for path, err in getattr(cache.store, "skipped", [])],
    }
    rows = []
    for g in games:
        if variant and g.variant.lower() != variant:
            continue
        if player and not any(player in name.lower() for name in g.players):
            continue
        if tournament and tournament not in g.meta.get("tournament", "").lower():
            continue
        if q and q not in g.game_id.lower():
            continue
        rows.append({
            "game_id": g.game_id,
            "variant": g.variant,
            "ruleset": g.ruleset or _default_ruleset(g.variant),
            "players": list(g.players),
            "meta": dict(g.meta),
            "hands": g.hands,
            "events": g.events,
            "findings": cache.finding_count(g.game_id, g.events),
        })
    return rows, choices


@bp.get("/")
def index():  # type: ignore[no-untyped-def]
    return redirect(url_for("games.games_list"))


@bp.get("/games")
def games_list():  # type: ignore[no-untyped-def]
    rows, choices = filter_games(request.args)
    return render_template("games.html", rows=rows, choices=choices, args=request.args)


def _before(points: list[int], p: int) -> int | None:
    i = bisect.bisect_left(points, p)
    return points[i - 1] if i > 0 else None


def _after(points: list[int], p: int) -> int | None:
    i = bisect.bisect_right(points, p)
    return points[i] if i < len(points) else None


def navigation(game: GameData, at: int) -> dict[str, int | None]:
    """Target positions of the controls (None when there is none)."""
    return {
        "first": 0,
        "prev": max(at - 1, 0),
        "next": min(at + 1, game.last),
        "last": game.last,
        "prev_hand": _before(game.hand_starts, at),
        "next_hand": _after(game.hand_starts, at),
        "prev_violation": _before(game.violation_positions, at),
        "next_violation": _after(game.violation_positions, at),
    }


class LimitedGame:
    """A :class:`GameData` seen only up to ``upto`` (a spectator's view of an
    unfinished game): ``last``, ``hand_starts`` and ``violation_positions``
    stop there; everything else is the game's."""

    def __init__(self, game: GameData, upto: int) -> None:
        self._game = game
        self.last = upto
        self.hand_starts = [p for p in game.hand_starts if p <= upto]
        self.violation_positions = [p for p in game.violation_positions if p <= upto]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def _reader(game: GameData) -> tuple[Any, access.Access, int, int | None]:
    """The game as this reader may see it, its access, ``at`` and ``pov`` (403 beyond)."""
    acc = access.reader_access(game)
    shown: Any = game if acc.omniscient else LimitedGame(game, acc.upto)
    at = params.position(request.args, game) if request.args.get("at") else acc.upto
    access.limit_position(at, acc)
    pov = params.pov(request.args, game)
    access.check_pov(pov, acc)
    return shown, acc, at, pov


def board_context(game: GameData, at: int, pov: int | None, state: TableState | None = None,
                  acc: access.Access | None = None) -> dict[str, Any]:
    """What ``_board.html`` needs: the table at ``at`` (``state``, when the
    caller has it) and the move there, redacted for a spectator (``acc``)."""
    state = state if state is not None else game.state_at(at)
    ctx = board(state, pov)
    if acc is not None and not acc.omniscient:
        ctx["view"] = access.redact_view(ctx["view"])
        ctx["around"] = around(ctx["view"]["seats"], None)
        ctx["extra"] = []
    ctx.update(
        game=game,
        at=at,
        pov=pov,
        move=move_text(game.events[at], state, pov if acc is None else access.move_pov(acc, pov)),
        rules_here=game.rules_at.get(at, []),
        hand_no=state.hand,
    )
    return ctx


@bp.get("/games/<game_id>")
def game_page(game_id: str):  # type: ignore[no-untyped-def]
    full = params.load_game(game_id)
    game, acc, at, pov = _reader(full)
    state = full.state_at(at)
    ctx = board_context(game, at, pov, state, acc)
    names = full.final
    upto = game.last if pov is None else at  # a seat sees nothing of the future
    moves = []
    for i in range(upto + 1):
        event = full.events[i]
        text = full.moves[i] if (pov is None and acc.omniscient) else move_text(event, names, access.move_pov(acc, pov))
        moves.append({
            "pos": i,
            "text": text,
            "rules": full.rules_at.get(i, []),
            "deal": event.type == "hand_dealt",
            "note": event.note if (pov is None and acc.omniscient) else None,
        })
    if pov is None and acc.omniscient:
        findings = list(full.findings)
        sheet, played = full.sheet, full.sheet_as_played
    else:
        seen = state if pov is not None else full.state_at(upto)
        findings = access.findings(report(seen).findings, acc)
        sheet, played = score_sheet(seen, adjudicated=True), score_sheet(seen, adjudicated=False)
    ctx.update(desk.context(full, state, upto, ctx["side_labels"]))  # rulings, rewound moves, the score panel at `at`
    ctx.update(
        moves=moves,
        findings=findings,
        nav=navigation(game, at),
        view_kind=acc.view,
        players=game.started.players,
        meta=_meta(game),
    )
    return render_template("game.html", **ctx)


@bp.get("/games/<game_id>/board")
def board_fragment(game_id: str):  # type: ignore[no-untyped-def]
    full = params.load_game(game_id)
    game, acc, at, pov = _reader(full)
    ctx = board_context(game, at, pov, acc=acc)
    # the score panel follows the position: the script swaps it in with the board
    score = desk.score_panel(full.state_at(at), ctx["side_labels"])
    return render_template("_board.html", **ctx) + render_template("_score.html", score=score)


def _default_ruleset(variant: str) -> str | None:
    """The preset a record without ``ruleset`` is played under (the variant's default)."""
    try:
        return find_variant(variant).default_ruleset or None
    except Exception:  # a variant this build does not have
        return None


def _meta(game: GameData) -> list[tuple[str, str]]:
    return [(k, v) for k, v in meta_of(game.started).items() if v]
