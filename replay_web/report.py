"""The dispute report: one or two A4 pages a referee prints, signs and hands out.

``rummy-ledger report GAME|FILE [--at N] [--finding POS] [--lang it|en] -o
FILE.pdf|FILE.html`` (:mod:`ledger.cli.report`) and the viewer's
``/games/<id>/report?at=N&finding=POS&lang=it|en`` and its PDF download
``/games/<id>/report.pdf`` (or ``report?format=pdf``) (:data:`bp`; the game
page links both at its position) build
the report with :func:`build_report` and render it with :func:`render_html`
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
a record file, and the report says which: :func:`seal_of`); lines for the
signatures of the referee and of every player.

Everything comes from the fold (:class:`~ledger.replay.Replayer`,
:func:`ledger.audit.report`, :func:`ledger.scoring.score_sheet`,
:func:`replay_web.present.board`); no rule is evaluated here. The text is
English or Italian (:mod:`replay_web.i18n`); finding messages are the
audit's own words in the report's language
(:func:`ledger.finding_texts.finding_text`, with the CLI's catalog), next
to the rule's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, make_response, request, url_for
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ledger.audit import report as audit_report
from ledger.events import Event, GameStarted, PenaltyAssessed, PositionRestored, at_moment, encode_event
from ledger.finding_texts import finding_text
from ledger.i18n import translations as ledger_translations
from ledger.replay import Replayer
from ledger.rule_texts import rule_text
from ledger.rulings import by_finding, rewound_by
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import TableState
from replay_web import params
from replay_web.i18n import DEFAULT_LANG, N_, translations
from replay_web.present import board, face, suit_markup
from replay_web.words import (
    BREAKDOWN,
    GAME_END_REASONS,
    HAND_END_REASONS,
    META_LABELS,
    PHASES,
    VARIANT_NAMES,
    Gettext,
    _signed,
    card_title,
    code_markup,
    move_line,
    side_label,
)

__all__ = [
    "bp",
    "build_report",
    "render_html",
    "report_css",
    "seal_of",
    "rewound_by",
    "move_line",
    "ReportError",
    "MOVES_BEFORE",
    "MOVES_AFTER",
]

#: moves shown before and after the position in dispute
MOVES_BEFORE = 6
MOVES_AFTER = 4

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
CSS = HERE / "static" / "report.css"

bp = Blueprint("report", __name__)


class ReportError(ValueError):
    """A report that cannot be made as asked (a position outside the game, a
    ``finding`` position without a finding); the message says what is allowed."""


# --- the seal (FORMAT.md "Seal") ------------------------------------------------

#: where the report's seal comes from
SEAL_STORED, SEAL_COMPUTED = "store", "computed"


def seal_of(events: Sequence[Event], stored: Sequence[str | None] | None = None) -> dict[str, Any] | None:
    """The game's seal after its last event: ``{"short", "full", "position",
    "source"}`` (FORMAT.md "Seal": SHA-256 chain over the canonical lines).

    ``stored``: the seals the store wrote with the events (the viewer's
    :attr:`replay_web.cache.GameData.seals`, :func:`ledger.store.seal_sql.stored_seals`):
    the last one is **read**, not recomputed (``source`` ``"store"``; None
    when the store holds no seal for the last event: ``rummy-ledger verify``
    says why). Without them (a record file) the chain is computed from the
    events by :mod:`ledger.seal` (``source`` ``"computed"``)."""
    from ledger import seal as seal_module

    position = len(events) - 1
    if stored is not None:
        full = stored[position] if len(stored) > position else None
        if not full:
            return None
        return {"short": seal_module.short_form(full), "full": full, "position": position, "source": SEAL_STORED}
    full = seal_module.seal_hex([encode_event(e) for e in events])
    return {"short": seal_module.short_form(full), "full": full, "position": position, "source": SEAL_COMPUTED}


def _when(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return at_moment(value)
    except ValueError:
        return None


def longest_turns(events: Sequence[Event], state: TableState, top: int = 3) -> list[dict[str, Any]]:
    """Each seat's longest turns where events carry ``at`` (FIBur's time-outs):
    a turn is a run of consecutive events by one seat; its time runs from the
    last timed event before it to its last timed event. Returns ``[{seat,
    name, turns: [{start, end, seconds}]}]`` (longest first, at most ``top``
    per seat; seats with no timed turn are left out).

    >>> from ledger.events import CardDrawn, CardDiscarded, GameStarted, Player
    >>> evs = [GameStarted(game_id="g", variant="gin", players=(Player(seat=0, name="A"), Player(seat=1, name="B")),
    ...                    at="2026-11-29T20:00:00Z"),
    ...        CardDrawn(seat=0, card="7H", at="2026-11-29T20:00:20Z"),
    ...        CardDiscarded(seat=0, card="7H", at="2026-11-29T20:01:05Z"),
    ...        CardDrawn(seat=1, card="8H", at="2026-11-29T20:01:15Z"),
    ...        CardDiscarded(seat=1, card="8H", at="2026-11-29T20:01:20Z")]
    >>> from ledger.replay import replay
    >>> [(r["name"], r["turns"]) for r in longest_turns(evs, replay(evs[:1]))]
    [('A', [{'start': 1, 'end': 2, 'seconds': 65}]), ('B', [{'start': 3, 'end': 4, 'seconds': 15}])]
    """
    runs: dict[int, list[dict[str, Any]]] = {}
    previous: datetime | None = None
    run_seat: int | None = None
    run_start = run_end = -1
    run_from: datetime | None = None
    run_last: datetime | None = None

    def close() -> None:
        if run_seat is not None and run_from is not None and run_last is not None and run_last >= run_from:
            runs.setdefault(run_seat, []).append(
                {"start": run_start, "end": run_end, "seconds": int((run_last - run_from).total_seconds())}
            )

    for pos, e in enumerate(events):
        seat = getattr(e, "seat", None) if e.type not in ("hand_ended", "penalty_assessed") else None
        when = _when(e.at)
        if seat is None or seat != run_seat:
            close()
            run_seat, run_start, run_from, run_last = seat, pos, previous, None
        if seat is not None:
            run_end = pos
            if when is not None:
                run_last = when
        if when is not None:
            previous = when
    close()
    out = []
    for seat in sorted(runs):
        turns = sorted(runs[seat], key=lambda t: (-t["seconds"], t["start"]))[:top]
        out.append({"seat": seat, "name": state.name(seat), "turns": turns})
    return out


def move_seconds(events: Sequence[Event]) -> list[int | None]:
    """Per position, the seconds since the previous event that carries
    ``at`` (FORMAT.md "Events": ``at``, ISO 8601), or None where this event
    or every one before it has no time.

    >>> from ledger.events import CardDrawn
    >>> move_seconds([CardDrawn(seat=0, card="7H", at="2026-11-29T20:00:00Z"), CardDrawn(seat=1, card="8H"),
    ...               CardDrawn(seat=0, card="9H", at="2026-11-29T20:00:12Z")])
    [None, None, 12]
    """
    out: list[int | None] = []
    previous: datetime | None = None
    for e in events:
        when = _when(e.at)
        out.append(int((when - previous).total_seconds()) if when is not None and previous is not None else None)
        if when is not None:
            previous = when
    return out


def tempo_text(seconds: int | None) -> str:
    """A move's time as the move list shows it: ``+12 s``, ``+1:05`` from a minute on, ``""`` without one.

    >>> tempo_text(12), tempo_text(65), tempo_text(None)
    ('+12 s', '+1:05', '')
    """
    if seconds is None:
        return ""
    return f"+{seconds} s" if seconds < 60 else f"+{_duration(seconds)}"


def _duration(seconds: int) -> str:
    """``1:05`` (minutes:seconds), ``1:02:03`` past an hour.

    >>> _duration(65), _duration(3723)
    ('1:05', '1:02:03')
    """
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# --- the report's data ----------------------------------------------------------


def _rulings(events: Sequence[Event], final: TableState, _: Gettext) -> list[dict[str, Any]]:
    """The referee's ``penalty_assessed`` / ``position_restored`` events in
    record order, each with the finding it rules on: its ``finding`` field
    (:mod:`ledger.rulings`, the same answer the viewer and ``audit`` give;
    a ruling without ``finding`` answers none)."""
    out = []
    for pos, e in enumerate(events):
        if not isinstance(e, (PenaltyAssessed, PositionRestored)):
            continue
        row: dict[str, Any] = {
            "position": pos,
            "kind": "penalty" if isinstance(e, PenaltyAssessed) else "restore",
            "text": move_line(e, final, _),
            "referee": e.referee,
            "findings": [e.finding] if e.finding is not None else [],
            "note": e.note,
        }
        if isinstance(e, PenaltyAssessed):
            row.update(
                rule=e.rule,
                points=_signed(e.points),
                target=final.name(e.seat) if e.seat is not None else _("team %(n)s") % {"n": e.team},
            )
        else:
            row.update(rule=None, target=None, reason=e.reason, restored_to=e.target)
        out.append(row)
    return out


def _claims(
    sheet: ScoreSheet, played: ScoreSheet, final: TableState, labels: list[str], _: Gettext
) -> list[dict[str, Any]]:
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
            parts = ", ".join(
                f"{_(BREAKDOWN.get(k, k.replace('_', ' ')))} {_signed(v)}" for k, v in ln.breakdown.items() if v
            )
            pen_text = "; ".join(
                _("penalty %(points)s at position %(pos)s (%(rule)s)")
                % {"points": _signed(p.points), "pos": p.position, "rule": p.rule}
                for p in penalties
            )
            if diff == 0:
                why = _("The claim agrees with the computed score.")
                if pen_text:
                    why += " " + _("It includes the referee's rulings: %(penalties)s.") % {"penalties": pen_text}
            elif penalties and ln.claimed == as_played:
                why = _(
                    "The claim agrees with the score as played; the referee's rulings make the difference: "
                    "%(penalties)s."
                ) % {"penalties": pen_text}
            else:
                key = (
                    N_("The claim is %(n)s points higher than the computed score.")
                    if diff > 0
                    else N_("The claim is %(n)s points lower than the computed score.")
                )
                why = _(key) % {"n": abs(diff)}
                if pen_text:
                    why += " " + _("The computed score includes the referee's rulings: %(penalties)s.") % {
                        "penalties": pen_text
                    }
            out.append(
                {
                    "hand": h.hand,
                    "side": labels[ln.side],
                    "claimed": ln.claimed,
                    "computed": ln.points,
                    "played": as_played,
                    "difference": _signed(diff),
                    "differs": diff != 0,
                    "breakdown": parts,
                    "explanation": why,
                }
            )
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
            cells.append(
                {
                    "points": points,
                    "played": lp.points if lp else 0,
                    "claimed": ln.claimed if ln else None,
                    "breakdown": [
                        (_(BREAKDOWN.get(k, k.replace("_", " "))), _signed(v))
                        for k, v in (ln.breakdown if ln else {}).items()
                        if v
                    ],
                    "total": running[side],
                }
            )
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
        turn = _("%(who)s (seat %(seat)s) %(phase)s") % {
            "who": state.name(v["turn"]),
            "seat": v["turn"],
            "phase": _(PHASES.get(v["phase"], v["phase"])),
        }
    else:
        turn = _(PHASES.get(v["phase"], v["phase"]))
    for g in b["sides"]:
        g["label"] = side_label(state, g["side"], _)
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


def build_report(
    events: Sequence[Event],
    *,
    at: int | None = None,
    finding: int | None = None,
    lang: str = DEFAULT_LANG,
    replayer: Replayer | None = None,
    seals: Sequence[str | None] | None = None,
) -> dict[str, Any]:
    """The report's data (the template's context) for a validated record.

    ``at``: the position in dispute (default: ``finding``, else the first
    finding's position, else the last position); ``finding``: the position
    of the finding(s) in dispute, highlighted (None: all findings alike).
    ``replayer``: an existing :class:`Replayer` over ``events`` (the viewer's
    cache), else one is made. ``seals``: the store's seal after each
    position (read, not recomputed: :func:`seal_of`); None for a record
    file (the seal is computed). Raises :class:`ReportError` for an ``at``
    outside ``0..last`` or a ``finding`` position that has no finding,
    ``ValueError`` for a language that is not ``it``/``en``, and
    :class:`~ledger.errors.RecordError` for an impossible record.
    """
    t = translations(lang)
    _ = t.gettext
    finding_words = ledger_translations(lang)
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
    labels = [side_label(final, s, _) for s in range(final.n_sides)]
    rewound = rewound_by(events)
    rulings = _rulings(events, final, _)
    ruled_by = {p: [r.position for r in rs] for p, rs in by_finding(events).items()}

    lo, hi = max(0, at - MOVES_BEFORE), min(last, at + MOVES_AFTER)
    since = move_seconds(events)
    rules_at: dict[int, list[str]] = {}
    for f in findings:
        rules_at.setdefault(f.position, []).append(f.rule)
    moves = [
        {
            "pos": p,
            "text": move_line(events[p], final, _),
            "rules": rules_at.get(p, []),
            "current": p == at,
            "rewound_by": rewound.get(p),
            "note": events[p].note,
            "time": events[p].at,
            "tempo": tempo_text(since[p]),
        }
        for p in range(lo, hi + 1)
    ]

    finding_rows = [
        {
            "position": f.position,
            "hand": f.hand,
            "seat": final.name(f.seat) if f.seat is not None else "",
            "rule": f.rule,
            "message": finding_text(f.message, finding_words),
            "disputed": finding is not None and f.position == finding,
            "ruled_by": ruled_by.get(f.position, []),
            "rewound_by": rewound.get(f.position),
        }
        for f in findings
    ]
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
        "seal": seal_of(events, seals),
        "seal_stored": seals is not None,
        "tempo": [
            {**row, "turns": [{**t, "time": _duration(t["seconds"])} for t in row["turns"]]}
            for row in longest_turns(events, final)
        ],
    }


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
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    env.globals["face"] = face
    env.globals["card_title"] = lambda code, english: card_title(code, english, lang)
    env.filters["suits"] = suit_markup
    env.filters["code"] = code_markup
    return env


def report_css() -> str:
    """The report's stylesheet (screen and print)."""
    return CSS.read_text(encoding="utf-8")


def render_html(
    data: dict[str, Any], *, css_href: str | None = None, back_href: str | None = None, pdf_href: str | None = None
) -> str:
    """The report page. ``css_href``: link the stylesheet there (the viewer,
    whose Content-Security-Policy allows no inline style); None: the
    stylesheet is inlined, so the file stands alone (``-o FILE.html``, PDF)."""
    template = _env(data["lang"]).get_template("report.html")
    return template.render(
        r=data, css_href=css_href, css_text=None if css_href else report_css(), back_href=back_href, pdf_href=pdf_href
    )


# --- the viewer's route -------------------------------------------------------------


def _whole(name: str) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.lstrip("-").isdigit()):
        abort(400, description=f"{name}={raw!r} is not a whole number")
    return int(raw)


def _report(game_id: str) -> tuple[Any, dict[str, Any]]:
    from replay_web import access
    from replay_web.i18n import current_lang

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
        )
    except ReportError as exc:
        abort(400, description=str(exc))
    return game, data


@bp.get("/games/<game_id>/report")
def report_page(game_id: str):
    """The printable dispute report, HTML (or ``format=pdf``: :func:`report_pdf`).
    The language is the page's (:mod:`replay_web.i18n`: ``?lang=it|en``,
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
def report_pdf(game_id: str):
    """The dispute report as a PDF download (A4, :func:`replay_web.pdf.html_to_pdf`:
    headless Chromium's print-to-PDF), same arguments and errors as
    :func:`report_page`; 503 (HTML, or JSON when the client asks for JSON)
    when this server has no Chromium or Playwright, naming what to install."""
    from flask import jsonify

    from replay_web.pdf import PdfUnavailableError, html_to_pdf

    _game, data = _report(game_id)
    try:
        pdf = html_to_pdf(render_html(data))
    except PdfUnavailableError as exc:
        message = f"no PDF on this server: {exc}"
        if request.accept_mimetypes.best == "application/json":
            return jsonify({"error": {"status": 503, "title": "Service Unavailable", "message": message}}), 503
        abort(503, description=message)
    response = make_response(pdf)
    response.mimetype = "application/pdf"
    name = f"report-{data['game']['id']}-{data['at']}-{data['lang']}.pdf"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Content-Language"] = data["lang"]
    response.vary.add("Accept-Language")
    return response
