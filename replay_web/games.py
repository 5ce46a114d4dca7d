"""The pages: the games list and the game page (table, moves, audit, scores).

Routes (GET only):

- ``/`` -> ``/games``;
- ``/games?variant=&player=&tournament=&q=&sort=&dir=``: every game,
  filtered and sorted (:func:`filter_games`);
- ``/games/<game_id>?at=N&pov=S``: the game at position ``at`` (default the
  last), seen by seat ``pov`` or by a spectator (``pov=spectator``), redacted
  by :mod:`ledger.redaction` (default: the referee, who sees everything);
- ``/games/<game_id>/board?at=N&pov=S``: the table alone (an HTML fragment
  the page's script swaps in when stepping, so the URL changes without a
  reload).

What a reader sees is decided by :mod:`replay_web.access`: an unfinished
game is shown to a browser (no token) as a spectator sees it
(:mod:`ledger.redaction` with ``pov="spectator"``), up to the delayed
position, with no notes and findings without their messages; seat views
(``pov=<seat>``) of an unfinished game need a referee token.
"""

from __future__ import annotations

import bisect
import re
from datetime import date
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ledger.game_summary import game_date, utc_day
from ledger.redaction import SPECTATOR, Pov, Sight, sight, visible_findings
from ledger.state import Finding, TableState
from ledger.variants import find_variant
from replay_web import access, desk, page_lists, params
from replay_web.cache import GameData
from replay_web.lang import current_lang, viewer_translations
from replay_web.lang import gettext as _
from replay_web.orders import hand_order, order_args
from replay_web.present import ORDERS, board
from replay_web.seals import seal_context
from replay_web.store import meta_of
from replay_web.words import move_words

bp = Blueprint("games", __name__)


#: the games list's sortable columns (``?sort=``) and what each sorts by; ``moves`` is a row's ``events``
SORT_COLUMNS = (
    "game",
    "variant",
    "ruleset",
    "players",
    "date",
    "tournament",
    "table",
    "hands",
    "moves",
    "findings",
    "result",
)
SORT_DIRS = ("asc", "desc")


def _natural(text: str) -> tuple[Any, ...]:
    """``"table 10"`` after ``"table 9"``: digit runs compare as numbers."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text.lower()) if part
    )


def _sort_value(row: dict[str, Any], col: str) -> Any:
    """The value a row sorts by in column ``col``; None (sorted last either way) when it has none."""
    meta = row["meta"]
    if col == "game":
        return _natural(row["game_id"])
    if col in ("variant", "ruleset"):
        return (row[col] or "").lower() or None
    if col == "players":
        return [p.lower() for p in row["players"]] or None
    if col == "date":  # the day shown: the record's, else the day it was stored
        return row.get("date") or row.get("stored_on")
    if col == "table":
        return _natural(meta[col]) if meta.get(col) else None
    if col == "tournament":
        return (_natural(meta["tournament"]), _natural(meta.get("round", ""))) if meta.get("tournament") else None
    if col in ("hands", "findings"):
        return row[col]
    if col == "moves":
        return row["events"]
    # result: finished games by winner (a tie or no winner yet after the named ones), games in play last
    result = row.get("result")
    if result is None:
        return None
    return (0, result["winner"].lower()) if result["winner"] is not None else (1, "")


def sort_order(args: Any) -> tuple[str | None, str]:
    """``sort`` (one of :data:`SORT_COLUMNS`, default none: the store's
    order) and ``dir`` (``asc``, the default, or ``desc``); anything else is
    a 400 naming the choices."""
    col = (args.get("sort") or "").strip().lower() or None
    way = (args.get("dir") or "asc").strip().lower()
    if col is not None and col not in SORT_COLUMNS:
        abort(
            400,
            description=_(
                "sort=%(value)s: one of %(columns)s", value=repr(args.get("sort")), columns=", ".join(SORT_COLUMNS)
            ),
        )
    if way not in SORT_DIRS:
        abort(400, description=_("dir=%(value)s: asc or desc", value=repr(args.get("dir"))))
    return col, way


def sort_rows(rows: list[dict[str, Any]], col: str | None, way: str) -> list[dict[str, Any]]:
    """``rows`` by column ``col`` (:func:`_sort_value`) ascending or
    descending, rows without a value last in both directions, ties in the
    store's order; ``col`` None leaves them as they are."""
    if col is None:
        return rows
    valued = [(v, r) for r in rows if (v := _sort_value(r, col)) is not None]
    valued.sort(key=lambda vr: vr[0], reverse=way == "desc")
    return [r for _, r in valued] + [r for r in rows if _sort_value(r, col) is None]


def filter_games(args: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The games list as rows, filtered by ``variant``, ``player`` (part of a
    name), ``tournament`` (part of it) and ``q`` (part of the game id), all
    case-insensitive, and sorted by ``sort`` and ``dir`` (:func:`sort_order`,
    :func:`sort_rows`: on what the reader may see of each row). Each row:
    ``game_id, variant, ruleset, players, meta, hands, events, findings,
    finished, result, date, stored_on`` (``result``: :func:`replay_web.present.game_result`
    of a finished game, None while it is in play; ``date``: the record's
    date, :func:`ledger.game_summary.game_date`, ISO or None when it names
    none; ``stored_on``: the UTC day the game was first stored, the
    journal's time of position 0, or None without one). Returns ``(rows,
    choices)``; ``choices`` holds the variants and tournaments present, for
    the filter form, and the record files that could not be read
    (``skipped``, when serving files). 400 for a bad ``sort`` or ``dir``."""
    from replay_web import cache_of

    col, way = sort_order(args)

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
    reader = _ListReader()
    stored = cache.stored_summaries(g.game_id for g in games)  # one query: the store's lines (issue 27)
    stored_at = cache.first_stored(g.game_id for g in games)  # one query: each game's first journal time
    for g in games:
        if variant and g.variant.lower() != variant:
            continue
        if player and not any(player in name.lower() for name in g.players):
            continue
        if tournament and tournament not in g.meta.get("tournament", "").lower():
            continue
        if q and q not in g.game_id.lower():
            continue
        row = _row(g, cache.summary(g.game_id, g.events, stored), stored_at.get(g.game_id))
        if not row["finished"] and not reader.sees_whole(g.game_id, g.meta.get("tournament")):
            row.update(reader.unfinished(cache.get(g.game_id)))  # a live game's new events only (issue 27)
        rows.append(row)
    return sort_rows(rows, col, way), choices


def _row(g: Any, summary: tuple[Any, ...], stored_at: str | None) -> dict[str, Any]:
    """The list's row of game ``g`` (a :class:`~ledger.store.reads.GameSummary`)
    from its line ``summary`` (:meth:`replay_web.cache.ReplayCache.summary`)
    and the journal's time of its position 0, ``stored_at``. ``date``: the
    record's (:func:`ledger.game_summary.game_date`, the analytics' rule: meta.date,
    else the UTC day of the first ``at``), else None; ``stored_on``: the UTC
    day the game was stored (the cell marked "stored" when there is no date)."""
    count, over, result, first_at = summary
    return {
        "game_id": g.game_id,
        "variant": g.variant,
        "ruleset": g.ruleset or _default_ruleset(g.variant),
        "players": list(g.players),
        "meta": dict(g.meta),
        "hands": g.hands,
        "events": g.events,
        "findings": count,
        "finished": over,
        "result": result,
        "date": _iso(game_date(g.meta.get("date"), first_at)),
        "stored_on": _iso(utc_day(stored_at)),
    }


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None


class _ListReader:
    """The request's reader for the games list, looked up once (401 for a
    bad token). An unfinished game is listed as this reader may see it
    (issue 14 "Who may read what"): a referee whose token covers it sees
    its counts; anyone else its events, hands and findings up to the
    spectator's delayed position, the findings those a spectator could
    know (:func:`ledger.redaction.visible_findings`), as on its game page."""

    def __init__(self) -> None:
        self._token: Any = None
        self._looked_up = False

    def token(self) -> Any:
        if not self._looked_up:
            self._token = access.bearer_token() or access.signed_in()
            self._looked_up = True
        return self._token

    def sees_whole(self, game_id: str, tournament: str | None) -> bool:
        """The reader's token lets it see this unfinished game whole (its row
        as stored: the game is not loaded), as :func:`replay_web.access.decide` says."""
        token = self.token()
        return token is not None and bool(token.may_read_all) and bool(token.covers(game_id, tournament))

    def unfinished(self, game: GameData) -> dict[str, Any]:
        acc = access.game_access(game, self.token())
        if acc.omniscient:
            return {}
        upto = acc.upto
        return {
            "events": upto + 1,
            "hands": sum(1 for p in game.hand_starts if p <= upto),
            "findings": len(visible_findings(game.state_at(upto), SPECTATOR)),
        }


@bp.get("/")
def index() -> ResponseReturnValue:
    return redirect(url_for("games.games_list"))


@bp.get("/games")
def games_list() -> ResponseReturnValue:
    rows, choices = filter_games(request.args)
    from ledger.notation import GAME_END_REASONS

    return render_template(
        "games.html",
        rows=rows,
        choices=choices,
        args=request.args,
        sort=sort_links(request.args),
        end_reasons=GAME_END_REASONS,
    )


def sort_links(args: Any) -> dict[str, Any]:
    """The column headers' links: ``{col, dir, links: {column: url}}``; each
    link keeps the filters and sorts by its column, ascending, or descending
    when the list is sorted ascending by it already."""
    col, way = sort_order(args)
    keep = {k: args[k] for k in ("q", "variant", "player", "tournament") if args.get(k)}
    links = {
        c: url_for("games.games_list", **keep, sort=c, dir="desc" if (c == col and way == "asc") else "asc")
        for c in SORT_COLUMNS
    }
    return {"col": col, "dir": way, "links": links}


def _before(points: list[int], p: int) -> int | None:
    i = bisect.bisect_left(points, p)
    return points[i - 1] if i > 0 else None


def _after(points: list[int], p: int) -> int | None:
    i = bisect.bisect_right(points, p)
    return points[i] if i < len(points) else None


def navigation(
    game: Any, at: int, last: int | None, hand_starts: list[int], violations: list[int]
) -> dict[str, int | None]:
    """Target positions of the controls (None when there is none).

    ``last`` None is a page that knows nothing after ``at`` (a seat's or a
    spectator's view): "next" is always ``at + 1``, whether or not it is
    recorded yet, and there is no last position, next hand or next violation.
    ``hand_starts`` and ``violations`` are the positions that page may know.
    A control whose target is ``at`` itself leads nowhere: None (issue 26:
    "next" and "last" of a spectator's 0 / 0 were enabled)."""
    targets = _targets(at, last, hand_starts, violations)
    return {k: None if v == at else v for k, v in targets.items()}


def _targets(at: int, last: int | None, hand_starts: list[int], violations: list[int]) -> dict[str, int | None]:
    if last is None:
        return {
            "first": 0,
            "prev": max(at - 1, 0),
            "next": at + 1,
            "last": None,
            "prev_hand": _before(hand_starts, at),
            "next_hand": None,
            "prev_violation": _before(violations, at),
            "next_violation": None,
        }
    return {
        "first": 0,
        "prev": max(at - 1, 0),
        "next": min(at + 1, last),
        "last": last,
        "prev_hand": _before(hand_starts, at),
        "next_hand": _after(hand_starts, at),
        "prev_violation": _before(violations, at),
        "next_violation": _after(violations, at),
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


def _reader(game: GameData) -> tuple[Any, access.Access, int, Pov]:
    """The game as this reader may see it, its access, ``at`` and the ``pov``
    to redact for (:data:`~ledger.redaction.SPECTATOR` for a reader who may
    not see the whole game; 403 beyond what it may see)."""
    acc = access.reader_access(game)
    pov = params.pov(request.args, game)
    access.check_pov(pov, acc)
    shown: Any = game
    if not acc.omniscient:
        shown, pov = LimitedGame(game, acc.upto), SPECTATOR
    at = params.reader_position(request.args, game, acc, pov)
    return shown, acc, at, pov


def board_context(
    game: Any,
    at: int,
    pov: Pov,
    state: TableState | None = None,
    seen: Sight | None = None,
    acc: access.Access | None = None,
    order: str = "suit",
) -> dict[str, Any]:
    """What ``_board.html`` needs: the table at ``at`` (``state``, when the
    caller has it) and the move there, as ``pov`` may see them, the hands in
    ``order`` (:func:`hand_order`). A seat's or spectator's page with a whole
    view of the game (``acc`` omniscient) knows nothing after ``at`` (``last``
    None); an unfinished game's spectator knows it up to the delayed last
    position (``game.last``)."""
    state = state if state is not None else game.state_at(at)
    seen = seen if seen is not None else sight(state, pov)
    ctx = board(state, pov, seen, order, viewer_translations(current_lang()))
    whole = acc is None or acc.omniscient
    if not whole:
        ctx["view"] = access.redact_view(ctx["view"])
        ctx["extra"] = []
    if pov is None:
        rules_here = game.rules_at.get(at, [])
    else:
        rules_here = [f.rule for f in visible_findings(state, pov, seen) if f.position == at]
    ctx.update(
        game=game,
        at=at,
        last=game.last if (pov is None or not whole) else None,
        pov=pov if whole else None,
        move=move_words(game.events[at], state, pov),  # in the page's language
        rules_here=rules_here,
        hand_no=state.hand,
    )
    here = {"game_id": game.game_id, "at": at, **_pov_args(ctx["pov"])}
    ctx["order_links"] = {o: url_for("games.game_page", **{**here, **order_args(o)}) for o in ORDERS}
    return ctx


def _pov_args(pov: Pov) -> dict[str, Any]:
    return {} if pov is None else {"pov": pov}


def _known(
    full: GameData, state: TableState, at: int, last: int | None, pov: Pov, seen: Sight
) -> tuple[int, list[Finding], list[int], list[int]]:
    """What a page at ``at`` seen by ``pov`` may know: ``(horizon, findings,
    hand_starts, violations)``. ``horizon`` is the last position it may know
    (``last``, or ``at`` for a seat's or spectator's page that knows nothing
    after it); the findings (before :func:`replay_web.access.findings`), the
    positions of the deals and of the violations up to it."""
    horizon = at if last is None else last
    if pov is None:
        return horizon, list(full.findings), full.hand_starts, full.violation_positions
    known = state if horizon == at else full.state_at(horizon)
    findings = list(visible_findings(known, pov, seen if horizon == at else None))
    return horizon, findings, [p for p in full.hand_starts if p <= horizon], sorted({f.position for f in findings})


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> ResponseReturnValue:
    """The game page at ``at`` as ``pov`` sees it. In a seat's or spectator's
    view every part (table, moves, audit, scores, controls, data attributes)
    is a function of the record up to ``at`` and of what that viewer saw
    (:mod:`ledger.redaction`), so it is the same page whether or not the
    store holds later events. A reader who may not see the whole unfinished
    game gets the spectator's view of it up to the delayed position."""
    full = params.load_seen_game(game_id)
    game, acc, at, pov = _reader(full)
    order = hand_order(request.args)
    state = full.state_at(at)
    seen = sight(state, pov)
    ctx = board_context(game, at, pov, state, seen, acc, order)
    horizon, findings, hand_starts, violations = _known(full, state, at, ctx["last"], pov, seen)
    ctx["nav"] = navigation(game, at, ctx["last"], hand_starts, violations)
    rules_at: dict[int, list[str]] = {}
    for f in findings:
        rules_at.setdefault(f.position, []).append(f.rule)
    if not acc.omniscient:
        findings = access.findings(findings, acc)
    here = {"game_id": game_id, "at": at, **_pov_args(ctx["pov"]), **order_args(order)}
    lists = page_lists.paged_lists(full, state, pov, horizon, at, findings, rules_at, here)
    shown_pov = ctx["pov"]
    ctx.update(
        desk.context(full, state, horizon, ctx["side_labels"], pov)
    )  # rulings, rewound moves, the score panel at `at`
    ctx.update(
        **lists,
        violations=violations,
        hand_starts=hand_starts,
        view_kind=acc.view,
        spectator_delay=f"{access.spectator_delay():g}",
        players=game.started.players,
        povs=[(p.seat, p.name) for p in game.started.players] + [(SPECTATOR, "spectator")],
        keep_args=_pov_args(shown_pov) | order_args(order),  # what every link of the page keeps
        order_args=order_args(order),
        ruleset=state.rules.ruleset,
        meta=_meta(game),
        **seal_context(full, at, pov, acc),
        full_length=len(full.seals),
    )
    return render_template("game.html", **ctx)


@bp.get("/games/<game_id>/board")
def board_fragment(game_id: str) -> ResponseReturnValue:
    full = params.load_seen_game(game_id)
    game, acc, at, pov = _reader(full)
    state = full.state_at(at)
    seen = sight(state, pov)
    ctx = board_context(game, at, pov, state, seen, acc=acc, order=hand_order(request.args))
    _, _, hand_starts, violations = _known(full, state, at, ctx["last"], pov, seen)
    ctx["nav"] = navigation(game, at, ctx["last"], hand_starts, violations)  # the controls' targets, read by the script
    # the score panel follows the position: the script swaps it in with the board
    score = desk.score_panel(state, ctx["side_labels"], pov)
    return render_template("_board.html", **ctx, **seal_context(full, at, pov, acc)) + render_template(
        "_score.html", score=score
    )


def _default_ruleset(variant: str) -> str | None:
    """The preset a record without ``ruleset`` is played under (the variant's default)."""
    try:
        return find_variant(variant).default_ruleset or None
    except Exception:  # a variant this build does not have
        return None


def _meta(game: GameData) -> list[tuple[str, str]]:
    return [(k, v) for k, v in meta_of(game.started).items() if v]
