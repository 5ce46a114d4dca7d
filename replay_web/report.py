"""The dispute report: one or two A4 pages a referee prints, signs and hands out.

``rummy-ledger report GAME|FILE [--at N] [--finding POS] [--lang it|en] -o
FILE.pdf|FILE.html`` (:mod:`ledger.report_cli`) and the viewer's
``/games/<id>/report?at=N&finding=POS&lang=it|en`` (:data:`bp`) both build
the report with :func:`build_report` and render it with :func:`render_html`
(template ``report.html``, stylesheet ``static/report.css``, screen and
print); the PDF is that page printed by headless Chromium
(:func:`replay_web.pdf.html_to_pdf`).

What the report holds (issue 16): the game (variant, ruleset, meta, players,
referee); the position in dispute with the table drawn (hands, melds per
side, discard pile, stock, pozzetti); a window of moves around it (rewound
moves marked); the findings with their rule ids and each cited rule's text
(:mod:`ledger.rule_texts`); the rulings (``penalty_assessed`` /
``position_restored`` with ``finding`` and ``referee`` when the record has
them); the score sheet, claimed against computed with the difference
explained; the game's seal (FORMAT.md "Seal", when :mod:`ledger.seal` is
present); lines for the signatures of the referee and of every player.

Everything comes from the fold (:class:`~ledger.replay.Replayer`,
:func:`ledger.audit.report`, :func:`ledger.scoring.score_sheet`,
:func:`replay_web.present.board`); no rule is evaluated here. The text is
English or Italian (:mod:`replay_web.i18n`); finding messages are the
audit's own words (English), next to the rule's text in the report's
language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, make_response, request, url_for
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ledger.audit import report as audit_report
from ledger.cards import pretty, pretty_list
from ledger.events import Event, GameStarted, PenaltyAssessed, PositionRestored, encode_event
from ledger.replay import Replayer
from ledger.rule_texts import rule_text
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import Finding, TableState
from replay_web import params
from replay_web.i18n import DEFAULT_LANG, LANGUAGES, choose_lang, translations
from replay_web.present import board, face, suit_markup

__all__ = ["bp", "build_report", "render_html", "report_css", "seal_of", "ReportError", "MOVES_BEFORE", "MOVES_AFTER"]

#: moves shown before and after the position in dispute
MOVES_BEFORE = 6
MOVES_AFTER = 4

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
CSS = HERE / "static" / "report.css"

Gettext = Callable[[str], str]

bp = Blueprint("report", __name__)


class ReportError(ValueError):
    """A report that cannot be made as asked (a position outside the game, a
    ``finding`` position without a finding); the message says what is allowed."""


def N_(text: str) -> str:
    """Marks ``text`` for the catalog; it is translated where it is shown."""
    return text


VARIANT_NAMES = {"burraco": "Burraco", "scala40": "Scala 40", "ramino51": "Ramino 51", "ramino": "Ramino", "gin": "Gin Rummy"}

META_LABELS = {
    "tournament": N_("tournament"),
    "round": N_("round"),
    "table": N_("table"),
    "date": N_("date"),
    "referee": N_("referee"),
    "site": N_("site"),
}

HAND_END_REASONS = {
    "went_out": N_("went out"),
    "knocked": N_("knocked"),
    "stock_exhausted": N_("stock exhausted"),
    "time_out": N_("time out"),
    "stalled": N_("stalled"),
    "abandoned": N_("abandoned"),
}

GAME_END_REASONS = {
    "target_reached": N_("target reached"),
    "hands_played": N_("hands played"),
    "elimination": N_("elimination"),
    "abandoned": N_("abandoned"),
    "time_out": N_("time out"),
}

PHASES = {
    "setup": N_("before the first deal"),
    "draw": N_("to draw"),
    "play": N_("to meld, lay off or discard"),
    "over": N_("hand over"),
    "ended": N_("game over"),
}

#: score breakdown components (README, "breakdown components") as shown
BREAKDOWN = {
    "melds": N_("melds"),
    "burraco_clean": N_("clean burraco"),
    "burraco_semi_clean": N_("semi-clean burraco"),
    "burraco_dirty": N_("dirty burraco"),
    "closing": N_("going out"),
    "hand": N_("cards in hand"),
    "no_pozzetto": N_("no pozzetto"),
    "penalty": N_("penalty"),
    "cards": N_("cards in hand"),
    "jokers": N_("jokers in hand"),
    "unopened": N_("not opened"),
    "chiusura_in_mano": N_("chiusura in mano"),
    "joker_double": N_("joker double"),
    "all_at_once": N_("all at once"),
    "hands_collected": N_("hands collected"),
    "rummy_double": N_("rummy double"),
    "deadwood_difference": N_("deadwood difference"),
    "gin_bonus": N_("gin bonus"),
    "big_gin_bonus": N_("big gin bonus"),
    "undercut_bonus": N_("undercut bonus"),
    "game_bonus": N_("game bonus"),
    "box_bonus": N_("box bonus"),
}


# --- the seal (engineer #15's ledger.seal; FORMAT.md "Seal") ----------------

def seal_of(events: Sequence[Event]) -> dict[str, Any] | None:
    """The game's seal after its last event: ``{"short", "full", "position"}``
    (FORMAT.md "Seal": SHA-256 chain over the canonical lines), or None when
    this build has no :mod:`ledger.seal` (the hook: the report shows no seal
    then). The chain itself is defined and computed by :mod:`ledger.seal`."""
    try:
        from ledger import seal as seal_module  # type: ignore[attr-defined]
    except ImportError:
        return None
    full = seal_module.seal_hex([encode_event(e) for e in events])
    return {"short": seal_module.short_form(full), "full": full, "position": len(events) - 1}


# --- words ---------------------------------------------------------------------

def _side_label(state: TableState, side: int, _: Gettext) -> str:
    seats = state.seats_of(side)
    if len(seats) == 1:
        return state.name(seats[0])
    return _("team %(n)s (%(names)s)") % {"n": side, "names": " & ".join(state.name(s) for s in seats)}


def _signed(n: int) -> str:
    """``+70``, ``−50`` (a true minus sign), ``0``.

    >>> _signed(70), _signed(-50), _signed(0)
    ('+70', '−50', '0')
    """
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def move_line(event: Event, state: TableState, _: Gettext) -> str:
    """One line of move notation in the report's language (``state`` names
    the players). Same content as :func:`ledger.views.describe`."""
    e: Any = event
    t = event.type

    def who(seat: int | None) -> str:
        return state.name(seat)

    if t == "game_started":
        return _("game %(game)s starts: %(variant)s (%(ruleset)s), %(names)s") % {
            "game": e.game_id, "variant": VARIANT_NAMES.get(e.variant, e.variant),
            "ruleset": e.ruleset or state.rules.ruleset, "names": ", ".join(p.name for p in e.players)}
    if t == "hand_dealt":
        return _("hand %(hand)s dealt by %(dealer)s; upcard %(cards)s") % {"hand": e.hand, "dealer": who(e.dealer), "cards": pretty_list(e.discard)}
    if t == "card_drawn":
        return _("%(who)s draws %(card)s from the stock") % {"who": who(e.seat), "card": pretty(e.card)}
    if t == "upcard_passed":
        return _("%(who)s passes the upcard") % {"who": who(e.seat)}
    if t == "discard_taken":
        if len(e.cards) == 1:
            return _("%(who)s takes %(card)s from the discard pile") % {"who": who(e.seat), "card": pretty(e.cards[0])}
        return _("%(who)s takes the discard pile: %(cards)s") % {"who": who(e.seat), "cards": pretty_list(e.cards)}
    if t == "meld_laid":
        return _("%(who)s melds %(cards)s [%(meld)s]") % {"who": who(e.seat), "cards": pretty_list(e.cards), "meld": e.meld}
    if t == "meld_extended":
        return _("%(who)s lays off %(cards)s on [%(meld)s]") % {"who": who(e.seat), "cards": pretty_list(e.cards), "meld": e.meld}
    if t == "joker_swapped":
        return _("%(who)s swaps %(card)s for the %(joker)s in [%(meld)s]") % {
            "who": who(e.seat), "card": pretty(e.card), "joker": pretty(e.joker), "meld": e.meld}
    if t == "pozzetto_taken":
        return _("%(who)s takes pozzetto %(n)s") % {"who": who(e.seat), "n": e.pozzetto}
    if t == "card_discarded":
        return _("%(who)s discards %(card)s") % {"who": who(e.seat), "card": pretty(e.card)}
    if t == "knocked":
        if not e.deadwood:
            return _("%(who)s goes gin, discarding %(card)s face down") % {"who": who(e.seat), "card": pretty(e.discard)}
        return _("%(who)s knocks with deadwood %(cards)s, discarding %(card)s face down") % {
            "who": who(e.seat), "cards": pretty_list(e.deadwood), "card": pretty(e.discard)}
    if t == "stock_restocked":
        return _("the discard pile becomes the stock")
    if t == "hand_ended":
        reason = _(HAND_END_REASONS.get(e.reason, e.reason))
        if e.seat is not None:
            return _("hand ends: %(reason)s (%(who)s)") % {"reason": reason, "who": who(e.seat)}
        return _("hand ends: %(reason)s") % {"reason": reason}
    if t == "penalty_assessed":
        target = who(e.seat) if e.seat is not None else _("team %(n)s") % {"n": e.team}
        return _("referee: penalty %(points)s to %(target)s (%(rule)s)") % {"points": _signed(e.points), "target": target, "rule": e.rule}
    if t == "position_restored":
        return _("referee restores the table to move %(target)s: %(reason)s") % {"target": e.target, "reason": e.reason}
    if t == "game_ended":
        return _("game ends: %(reason)s") % {"reason": _(GAME_END_REASONS.get(e.reason, e.reason))}
    return t


def rewound_by(events: Sequence[Event]) -> dict[int, int]:
    """Position -> position of the ``position_restored`` that rewound it:
    the moves after its ``target`` and before it (FORMAT.md "Events"); the
    referee's own rulings in between are not rewound (a penalty stays).

    >>> from ledger.events import CardDrawn, PenaltyAssessed, PositionRestored
    >>> evs = [CardDrawn(seat=0, card="7H")] * 3 + [PenaltyAssessed(seat=0, points=-5, rule="ALL-TURN-2"),
    ...        PositionRestored(target=1, reason="two draws")]
    >>> rewound_by(evs)
    {2: 4}
    """
    out: dict[int, int] = {}
    for pos, e in enumerate(events):
        if isinstance(e, PositionRestored):
            for p in range(e.target + 1, pos):
                if not isinstance(events[p], (PenaltyAssessed, PositionRestored)):
                    out.setdefault(p, pos)
    return out


# --- the report's data ----------------------------------------------------------

def _rulings(events: Sequence[Event], final: TableState, findings: Sequence[Finding], _: Gettext) -> list[dict[str, Any]]:
    """The referee's rulings in record order, each with the findings it rules
    on: the one its ``finding`` field names, else (for a penalty) the
    findings of the same hand that cite its rule and come before it."""
    out = []
    hand = 0
    for pos, e in enumerate(events):
        if e.type == "hand_dealt":
            hand = e.hand  # type: ignore[attr-defined]
        if not isinstance(e, (PenaltyAssessed, PositionRestored)):
            continue
        linked = getattr(e, "finding", None)
        if linked is not None:
            on = [linked]
            explicit = True
        elif isinstance(e, PenaltyAssessed):
            on = sorted({f.position for f in findings if f.rule == e.rule and f.hand == hand and f.position < pos})
            explicit = False
        else:
            on, explicit = [], False
        row: dict[str, Any] = {
            "position": pos,
            "kind": "penalty" if isinstance(e, PenaltyAssessed) else "restore",
            "text": move_line(e, final, _),
            "referee": getattr(e, "referee", None),
            "findings": on,
            "explicit": explicit,
            "note": e.note,
        }
        if isinstance(e, PenaltyAssessed):
            row.update(rule=e.rule, points=_signed(e.points),
                       target=final.name(e.seat) if e.seat is not None else _("team %(n)s") % {"n": e.team})
        else:
            row.update(rule=None, target=None, reason=e.reason, restored_to=e.target)
        out.append(row)
    return out


def _claims(sheet: ScoreSheet, played: ScoreSheet, final: TableState, labels: list[str], _: Gettext) -> list[dict[str, Any]]:
    """Every claimed score against the computed one, with the difference explained."""
    out = []
    for h, hp in zip(sheet.hands, played.hands):
        by_played = {ln.side: ln for ln in hp.lines}
        for ln in h.lines:
            if ln.claimed is None:
                continue
            lp = by_played.get(ln.side)
            as_played = lp.points if lp else 0
            diff = ln.claimed - ln.points
            penalties = [p for p in final.penalties if p.hand == h.hand and p.side == ln.side]
            parts = ", ".join(f"{_(BREAKDOWN.get(k, k.replace('_', ' ')))} {_signed(v)}" for k, v in ln.breakdown.items() if v)
            pen_text = "; ".join(_("penalty %(points)s at position %(pos)s (%(rule)s)") % {"points": _signed(p.points), "pos": p.position, "rule": p.rule}
                                 for p in penalties)
            if diff == 0:
                why = _("The claim agrees with the computed score.")
                if pen_text:
                    why += " " + _("It includes the referee's rulings: %(penalties)s.") % {"penalties": pen_text}
            elif penalties and ln.claimed == as_played:
                why = _("The claim agrees with the score as played; the referee's rulings make the difference: %(penalties)s.") % {"penalties": pen_text}
            else:
                key = (N_("The claim is %(n)s points higher than the computed score.") if diff > 0
                       else N_("The claim is %(n)s points lower than the computed score."))
                why = _(key) % {"n": abs(diff)}
                if pen_text:
                    why += " " + _("The computed score includes the referee's rulings: %(penalties)s.") % {"penalties": pen_text}
            out.append({
                "hand": h.hand,
                "side": labels[ln.side],
                "claimed": ln.claimed,
                "computed": ln.points,
                "played": as_played,
                "difference": _signed(diff),
                "differs": diff != 0,
                "breakdown": parts,
                "explanation": why,
            })
    return out


def _score(sheet: ScoreSheet, played: ScoreSheet, labels: list[str], _: Gettext) -> dict[str, Any]:
    hands = []
    running = [0] * len(labels)
    for h, hp in zip(sheet.hands, played.hands):
        by_side = {ln.side: ln for ln in h.lines}
        played_side = {ln.side: ln for ln in hp.lines}
        cells = []
        for side in range(len(labels)):
            ln, lp = by_side.get(side), played_side.get(side)
            points = ln.points if ln else 0
            running[side] += points
            cells.append({
                "points": points,
                "played": lp.points if lp else 0,
                "claimed": ln.claimed if ln else None,
                "breakdown": [(_(BREAKDOWN.get(k, k.replace("_", " "))), _signed(v)) for k, v in (ln.breakdown if ln else {}).items() if v],
                "total": running[side],
            })
        hands.append({"hand": h.hand, "reason": _(HAND_END_REASONS.get(h.reason, h.reason)), "cells": cells})
    return {
        "labels": labels,
        "hands": hands,
        "totals": list(sheet.totals),
        "played_totals": list(played.totals),
        "differs": list(sheet.totals) != list(played.totals),
        "winner": labels[sheet.winner] if sheet.winner is not None else None,
        "ended": sheet.ended is not None,
    }


def _table(state: TableState, _: Gettext) -> dict[str, Any]:
    """The table at the position in dispute, as the referee sees it (every card)."""
    b = board(state, None)
    v = b["view"]
    if v["ended"]:
        turn = _("game over: %(reason)s") % {"reason": _(GAME_END_REASONS.get(v["ended"], v["ended"]))}
    elif v["turn"] is not None:
        turn = _("%(who)s (seat %(seat)s) %(phase)s") % {"who": state.name(v["turn"]), "seat": v["turn"], "phase": _(PHASES.get(v["phase"], v["phase"]))}
    else:
        turn = _(PHASES.get(v["phase"], v["phase"]))
    for g in b["sides"]:
        g["label"] = _side_label(state, g["side"], _)
    return {
        "seats": v["seats"],
        "dealer": v["dealer"],
        "turn_seat": v["turn"],
        "turn": turn,
        "sides": b["sides"],
        "discard": v["discard"],
        "pile_whole": b["pile_whole"],
        "stock_count": v["stock_count"],
        "pozzetti": v["pozzetti"],
        "hand": state.hand,
    }


def build_report(events: Sequence[Event], *, at: int | None = None, finding: int | None = None,
                 lang: str = DEFAULT_LANG, replayer: Replayer | None = None) -> dict[str, Any]:
    """The report's data (the template's context) for a validated record.

    ``at``: the position in dispute (default: ``finding``, else the first
    finding's position, else the last position); ``finding``: the position
    of the finding(s) in dispute, highlighted (None: all findings alike).
    ``replayer``: an existing :class:`Replayer` over ``events`` (the viewer's
    cache), else one is made. Raises :class:`ReportError` for an ``at``
    outside ``0..last`` or a ``finding`` position that has no finding,
    ``ValueError`` for a language that is not ``it``/``en``, and
    :class:`~ledger.errors.RecordError` for an impossible record.
    """
    t = translations(lang)
    _ = t.gettext
    rp = replayer if replayer is not None else Replayer(events)
    events = rp.events
    last = len(events) - 1
    final = rp.final
    findings = list(audit_report(final).findings)
    found_at = sorted({f.position for f in findings})
    if finding is not None and finding not in found_at:
        where = ", ".join(str(p) for p in found_at) or "none"
        raise ReportError(f"no finding at position {finding} (findings are at: {where})")
    if at is None:
        at = finding if finding is not None else (found_at[0] if found_at else last)
    if not 0 <= at <= last:
        raise ReportError(f"position {at} is outside this game's positions 0–{last}")
    state = rp.state_at(at)
    first = events[0]
    assert isinstance(first, GameStarted)
    labels = [_side_label(final, s, _) for s in range(final.n_sides)]
    rewound = rewound_by(events)
    rulings = _rulings(events, final, findings, _)
    ruled_by: dict[int, list[int]] = {}
    for r in rulings:
        for p in r["findings"]:
            ruled_by.setdefault(p, []).append(r["position"])

    lo, hi = max(0, at - MOVES_BEFORE), min(last, at + MOVES_AFTER)
    rules_at: dict[int, list[str]] = {}
    for f in findings:
        rules_at.setdefault(f.position, []).append(f.rule)
    moves = [{
        "pos": p,
        "text": move_line(events[p], final, _),
        "rules": rules_at.get(p, []),
        "current": p == at,
        "rewound_by": rewound.get(p),
        "note": events[p].note,
        "time": events[p].at,
    } for p in range(lo, hi + 1)]

    finding_rows = [{
        "position": f.position,
        "hand": f.hand,
        "seat": final.name(f.seat) if f.seat is not None else "",
        "rule": f.rule,
        "message": f.message,
        "disputed": finding is not None and f.position == finding,
        "ruled_by": ruled_by.get(f.position, []),
        "rewound_by": rewound.get(f.position),
    } for f in findings]
    cited = []
    for rule in [f.rule for f in findings] + [r["rule"] for r in rulings if r["rule"]]:
        if rule not in cited:
            cited.append(rule)

    meta = {k: getattr(first.meta, k) for k in META_LABELS if first.meta is not None and getattr(first.meta, k, None)}
    referees = [meta["referee"]] if "referee" in meta else []
    for r in rulings:
        if r["referee"] and r["referee"] not in referees:
            referees.append(r["referee"])
    sheet, played = score_sheet(final, adjudicated=True), score_sheet(final, adjudicated=False)
    return {
        "lang": lang,
        "game": {
            "id": first.game_id,
            "variant": VARIANT_NAMES.get(first.variant, first.variant),
            "ruleset": final.rules.ruleset,
            "meta": [(_(META_LABELS[k]), v) for k, v in meta.items() if k != "referee"],
            "events": len(events),
            "hands": len(rp.hand_starts()),
        },
        "players": [{"seat": p.seat, "name": p.name, "team": p.team} for p in first.players],
        "referees": referees,
        "at": at,
        "last": last,
        "at_move": move_line(events[at], final, _),
        "at_rules": rules_at.get(at, []),
        "at_rewound_by": rewound.get(at),
        "finding": finding,
        "table": _table(state, _),
        "moves": moves,
        "moves_range": (lo, hi),
        "findings": finding_rows,
        "rules": [{"id": r, "text": rule_text(r, lang) or ""} for r in cited],
        "rulings": rulings,
        "score": _score(sheet, played, labels, _),
        "claims": _claims(sheet, played, final, labels, _),
        "seal": seal_of(events),
    }


# --- rendering ------------------------------------------------------------------

@lru_cache(maxsize=None)
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
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["face"] = face
    env.filters["suits"] = suit_markup
    env.filters["code"] = _code_markup
    return env


def _code_markup(text: str) -> Any:
    """RULES.md's back-quoted names as ``<code>`` (the text escaped first)."""
    from markupsafe import Markup, escape

    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))


def report_css() -> str:
    """The report's stylesheet (screen and print)."""
    return CSS.read_text(encoding="utf-8")


def render_html(data: dict[str, Any], *, css_href: str | None = None, back_href: str | None = None) -> str:
    """The report page. ``css_href``: link the stylesheet there (the viewer,
    whose Content-Security-Policy allows no inline style); None: the
    stylesheet is inlined, so the file stands alone (``-o FILE.html``, PDF)."""
    template = _env(data["lang"]).get_template("report.html")
    return template.render(r=data, css_href=css_href, css_text=None if css_href else report_css(), back_href=back_href)


# --- the viewer's route -------------------------------------------------------------

def _whole(name: str) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.lstrip("-").isdigit()):
        abort(400, description=f"{name}={raw!r} is not a whole number")
    return int(raw)


def request_lang() -> str:
    """``?lang=it|en``, else the browser's ``Accept-Language``, else English;
    another ``lang`` value aborts with 400."""
    raw = request.args.get("lang")
    if raw:
        if raw not in LANGUAGES:
            abort(400, description=f"lang={raw!r}: the report is in {' or '.join(LANGUAGES)}")
        return raw
    best = request.accept_languages.best_match(LANGUAGES)
    return choose_lang(best) or DEFAULT_LANG


@bp.get("/games/<game_id>/report")
def report_page(game_id: str):  # type: ignore[no-untyped-def]
    """The printable dispute report (HTML): 404 for an unknown game, 400 for
    a bad ``at``, ``finding`` or ``lang``, 403 for an unfinished game without
    a referee's token (the report shows every card; :mod:`replay_web.access`)."""
    from replay_web import access

    game = params.load_game(game_id)
    if not access.reader_access(game).omniscient:
        abort(403, description="the dispute report of an unfinished game shows every card: it needs a referee's token "
                               "(Authorization: Bearer …); a finished game's report is public")
    at = params.position(request.args, game) if request.args.get("at") not in (None, "") else None
    finding = _whole("finding")
    lang = request_lang()
    try:
        data = build_report(game.events, at=at, finding=finding, lang=lang, replayer=game.replayer)
    except ReportError as exc:
        abort(400, description=str(exc))
    html = render_html(
        data,
        css_href=url_for("static", filename="report.css"),
        back_href=url_for("games.game_page", game_id=game_id, at=data["at"]),
    )
    response = make_response(html)
    response.headers["Content-Language"] = lang
    response.vary.add("Accept-Language")
    return response
