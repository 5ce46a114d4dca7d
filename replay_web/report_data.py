"""The dispute report's data (:func:`build_report`): the template's context, built from the
fold for a validated record; rendered by :mod:`replay_web.report`.

What it holds (issue 16) is listed in :mod:`replay_web.report`; the seal is the store's
stored seal for a stored game, computed for a record file, and the report says which
(:func:`seal_of`); the turn times come from :mod:`replay_web.tempo`. No rule is evaluated
here: everything comes from :class:`~ledger.replay.Replayer`, :func:`ledger.audit.report`,
:func:`ledger.scoring.score_sheet` and :func:`replay_web.present.board`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ledger.audit import report as audit_report
from ledger.events import Event, GameStarted, PenaltyAssessed, PositionRestored, encode_event
from ledger.i18n import DEFAULT_LANG
from ledger.i18n import translations as ledger_translations
from ledger.notation import GAME_END_REASONS, HAND_END_REASONS, notation
from ledger.render import NO_RESULT_REASONS, side_text
from ledger.replay import Replayer
from ledger.rule_texts import rule_text
from ledger.rulings import by_finding, rewound_by
from ledger.scoring import ScoreSheet, SheetLine, score_sheet
from ledger.state import Finding, TableState
from ledger.texts import N_, Message, Translator, render
from ledger.texts import render as render_text
from ledger.texts.refusals import NO_FINDING_AT, NO_FINDING_AT_NONE
from ledger.views import COMPONENTS, PHASES, StateView
from replay_web.lang import viewer_translations
from replay_web.present import board
from replay_web.tempo import duration, longest_turns, move_seconds, tempo_text
from replay_web.words import (
    META_LABELS,
    VARIANT_NAMES,
    Gettext,
    signed,
)

#: moves shown before and after the position in dispute
MOVES_BEFORE = 6
MOVES_AFTER = 4


class ReportError(ValueError):
    """A report that cannot be made as asked (a position outside the game, a
    ``finding`` position without a finding); the message says what is allowed
    (``msg``: as data, :mod:`ledger.texts`; :meth:`text` in a reader's language)."""

    def __init__(self, message: str | Message) -> None:
        self.msg = message if isinstance(message, Message) else Message.of(message, ())
        super().__init__(str(self.msg))

    def text(self, tr: Translator | None = None) -> str:
        """The message in the language of ``tr`` (English when None)."""
        return render(self.msg, tr)


# --- the seal (FORMAT.md "Seal") ------------------------------------------------

#: where the report's seal comes from
SEAL_STORED, SEAL_COMPUTED = "store", "computed"


def seal_of(events: Sequence[Event], stored: Sequence[str | None] | None = None) -> dict[str, Any] | None:
    """The game's seal after its last event: ``{"short", "full", "position",
    "source"}`` (FORMAT.md "Seal": SHA-256 chain over the canonical lines).

    ``stored``: the seals the store wrote with the events (the viewer's
    :attr:`replay_web.cache.GameData.seals`, :func:`ledger.sealing.tables.stored_seals`):
    the last one is **read**, not recomputed (``source`` ``"store"``; None
    when the store holds no seal for the last event: ``rummy-ledger verify``
    says why). Without them (a record file) the chain is computed from the
    events by :mod:`ledger.sealing.chain` (``source`` ``"computed"``)."""
    from ledger.sealing import chain as seal_module

    position = len(events) - 1
    if stored is not None:
        full = stored[position] if len(stored) > position else None
        if not full:
            return None
        return {"short": seal_module.short_form(full), "full": full, "position": position, "source": SEAL_STORED}
    full = seal_module.seal_hex([encode_event(e) for e in events])
    return {"short": seal_module.short_form(full), "full": full, "position": position, "source": SEAL_COMPUTED}


# --- the report's data ----------------------------------------------------------


def _rulings(events: Sequence[Event], final: TableState, _: Gettext, tr: Translator) -> list[dict[str, Any]]:
    """The referee's ``penalty_assessed`` / ``position_restored`` events in
    record order, each with the finding it rules on: its ``finding`` field
    (:mod:`ledger.rulings`, the same answer the viewer and ``audit`` give;
    a ruling without ``finding`` answers none); ``tr``: the notation's language."""
    out = []
    for pos, e in enumerate(events):
        if not isinstance(e, (PenaltyAssessed, PositionRestored)):
            continue
        row: dict[str, Any] = {
            "position": pos,
            "kind": "penalty" if isinstance(e, PenaltyAssessed) else "restore",
            "text": notation(e, final, None, tr),
            "referee": e.referee,
            "findings": [e.finding] if e.finding is not None else [],
            "note": e.note,
        }
        if isinstance(e, PenaltyAssessed):
            row.update(
                rule=e.rule,
                points=signed(e.points),
                target=final.name(e.seat) if e.seat is not None else _("team %(n)s") % {"n": e.team},
            )
        else:
            row.update(rule=None, target=None, reason=e.reason, restored_to=e.target)
        out.append(row)
    return out


def _claims(
    sheet: ScoreSheet, played: ScoreSheet, final: TableState, labels: list[str], _: Gettext
) -> list[dict[str, Any]]:
    """Every claimed score against the computed one, with the difference explained (:func:`_why`)."""
    out = []
    for h, hp in zip(sheet.hands, played.hands):
        by_played = {ln.side: ln for ln in hp.lines}
        for ln in h.lines:
            if ln.claimed is None:
                continue
            lp = by_played.get(ln.side)
            as_played = lp.points if lp else 0
            diff = ln.claimed - ln.points
            parts = ", ".join(
                f"{_(COMPONENTS.get(k, k.replace('_', ' ')))} {signed(v)}" for k, v in ln.breakdown.items() if v
            )
            pen_text = "; ".join(
                _("penalty %(points)s at position %(pos)s (%(rule)s)")
                % {"points": signed(p.points), "pos": p.position, "rule": p.rule}
                for p in final.penalties
                if p.hand == h.hand and p.side == ln.side
            )
            out.append(
                {
                    "hand": h.hand,
                    "side": labels[ln.side],
                    "claimed": ln.claimed,
                    # an as-claimed side was not computed: no figure, no "Computed as" (its breakdown is its claim)
                    "computed": None if ln.as_claimed else ln.points,
                    "played": as_played,
                    "difference": None if ln.as_claimed else signed(diff),
                    "differs": diff != 0 and not ln.as_claimed,
                    "breakdown": "" if ln.as_claimed else parts,
                    "explanation": _why(ln, diff, as_played, pen_text, _),
                    "as_claimed": ln.as_claimed,
                }
            )
    return out


def _why(ln: SheetLine, diff: int, as_played: int, pen_text: str, _: Gettext) -> str:
    """A claim against the computed score, explained (``pen_text``: the side's penalties of the hand)."""
    rulings = " " + _("It includes the referee's rulings: %(penalties)s.") % {"penalties": pen_text} if pen_text else ""
    if ln.as_claimed:  # partial records: nothing was computed to agree with (FORMAT.md "Partial records")
        return _("The count depends on unknown cards: the score is taken as claimed, not computed.") + rulings
    if diff == 0:
        return _("The claim agrees with the computed score.") + rulings
    if pen_text and ln.claimed == as_played:
        return _(
            "The claim agrees with the score as played; the referee's rulings make the difference: %(penalties)s."
        ) % {"penalties": pen_text}
    key = (
        N_("The claim is %(n)s points higher than the computed score.")
        if diff > 0
        else N_("The claim is %(n)s points lower than the computed score.")
    )
    why = _(key) % {"n": abs(diff)}
    if pen_text:
        why += " " + _("The computed score includes the referee's rulings: %(penalties)s.") % {"penalties": pen_text}
    return why


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
                    "as_claimed": bool(ln and ln.as_claimed),
                    "unscored": bool(ln and ln.unscored),
                    "breakdown": [
                        (_(COMPONENTS.get(k, k.replace("_", " "))), signed(v))
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
        # a game ended without a result (abandoned, time out) names the reason beside "no winner" (issue 26)
        "no_result": _(GAME_END_REASONS[sheet.ended]) if sheet.ended in NO_RESULT_REASONS else None,
    }


def _table(state: TableState, lang: str, order: str = "suit") -> dict[str, Any]:
    """The table at the position in dispute, as the referee sees it (every
    card), the hands in ``order`` (by suit and rank, as the viewer; or ``dealt``)."""
    tr = viewer_translations(lang)
    _ = tr.gettext
    b = board(state, None, order=order, tr=tr)
    v: StateView = b["view"]
    if v.ended:
        turn = _("game over: %(reason)s") % {"reason": _(GAME_END_REASONS.get(v.ended, v.ended))}
    elif v.turn is not None:
        turn = _("%(who)s (seat %(seat)s) %(phase)s") % {
            "who": state.name(v.turn),
            "seat": v.turn,
            "phase": _(PHASES.get(v.phase, v.phase)),
        }
    else:
        turn = _(PHASES.get(v.phase, v.phase))
    return {
        "seats": msgspec.to_builtins(v.seats),
        "dealer": v.dealer,
        "turn_seat": v.turn,
        "turn": turn,
        "sides": b["sides"],
        "discard": v.discard,
        "pile_whole": b["pile_whole"],
        "stock_count": v.stock_count,
        "pozzetti": msgspec.to_builtins(v.pozzetti),
        "hand": state.hand,
    }


def chain_banner(broken: dict[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """The report's red banner when the stored chain does not verify:
    ``broken`` (``{"position", "message"}``, the first broken position and
    what differs, :func:`ledger.sealing.chain_check.chain_check`) with the
    message in ``lang``; None when it verifies (issue 26)."""
    if broken is None:
        return None
    return {**broken, "message": render_text(broken["message"], ledger_translations(lang))}


def build_report(
    events: Sequence[Event],
    *,
    at: int | None = None,
    finding: int | None = None,
    lang: str = DEFAULT_LANG,
    replayer: Replayer | None = None,
    seals: Sequence[str | None] | None = None,
    broken: dict[str, Any] | None = None,
    order: str = "suit",
) -> dict[str, Any]:
    """The report's data (the template's context) for a validated record.

    ``at``: the position in dispute (default: ``finding``, else the first
    finding's position, else the last position); ``finding``: the position
    of the finding(s) in dispute, highlighted (None: all findings alike).
    ``replayer``: an existing :class:`Replayer` over ``events`` (the viewer's cache), else one is made.
    ``seals``: the store's seal after each position (read, not recomputed: :func:`seal_of`); None for a
    record file (computed). ``broken``: its chain's break (:func:`chain_banner`); ``order`` the hands'.
    Raises :class:`ReportError` for an ``at`` outside ``0..last`` or a ``finding`` position that has no finding,
    ``ValueError`` for a language that is not ``it``/``en``, and
    :class:`~ledger.errors.RecordError` for an impossible record.
    """
    _ = viewer_translations(lang).gettext
    rp = replayer if replayer is not None else Replayer(events)
    events = rp.events
    last = len(events) - 1
    final = rp.final
    findings = list(audit_report(final).findings)
    at = _disputed_position(findings, at, finding, last)
    first = events[0]
    assert isinstance(first, GameStarted)
    rewound = rewound_by(events)
    rulings = _rulings(events, final, _, moves_tr := ledger_translations(lang))
    lo, hi = max(0, at - MOVES_BEFORE), min(last, at + MOVES_AFTER)
    rules_at = _rules_at(findings)
    meta = {k: getattr(first.meta, k) for k in META_LABELS if first.meta is not None and getattr(first.meta, k, None)}
    return {
        "lang": lang,
        "game": _game_info(rp, meta, _),
        "players": [{"seat": p.seat, "name": p.name, "team": p.team} for p in first.players],
        "referees": _referees(meta, rulings),
        "at": at,
        "last": last,
        "at_move": notation(events[at], final, None, moves_tr),
        "at_rules": rules_at.get(at, []),
        "at_rewound_by": rewound.get(at),
        "finding": finding,
        "table": _table(rp.state_at(at), lang, order),
        "moves": _move_rows(events, final, range(lo, hi + 1), at, rules_at, rewound, moves_tr),
        "moves_range": (lo, hi),
        **_findings(_finding_rows(events, final, findings, finding, rewound, lang)),
        "rules": [{"id": r, "text": rule_text(r, lang) or ""} for r in _cited(findings, rulings)],
        "rulings": rulings,
        **_scores(final, _, lang),
        "seal": None if broken else seal_of(events, seals),
        "seal_stored": seals is not None,
        "chain_broken": chain_banner(broken, lang),
        "tempo": _tempo(events, final),
    }


def _rules_at(findings: list[Finding]) -> dict[int, list[str]]:
    """Position -> the rule ids of the findings there, in order."""
    rules_at: dict[int, list[str]] = {}
    for f in findings:
        rules_at.setdefault(f.position, []).append(f.rule)
    return rules_at


def _scores(final: TableState, _: Gettext, lang: str) -> dict[str, Any]:
    """The report's ``score`` (as adjudicated, beside as played), ``claims`` (each claimed
    score against the computed one) and ``chart`` (the cumulative scores by hand, an SVG data
    URI: :func:`replay_web.chart.chart_uri`; None before a hand is scored)."""
    from replay_web.chart import chart_uri, chart_words

    sheet, played = score_sheet(final, adjudicated=True), score_sheet(final, adjudicated=False)
    labels = [side_text(final, s, viewer_translations(lang)) for s in range(final.n_sides)]
    return {
        "score": _score(sheet, played, labels, _),
        "claims": _claims(sheet, played, final, labels, _),
        "chart": chart_uri(final, labels, chart_words(lang)),
    }


def _tempo(events: Sequence[Event], final: TableState) -> list[dict[str, Any]]:
    """Each player's longest turns (:func:`longest_turns`), their times as minutes:seconds."""
    return [
        {**row, "turns": [{**t, "time": duration(t["seconds"])} for t in row["turns"]]}
        for row in longest_turns(events, final)
    ]


def _game_info(rp: Replayer, meta: dict[str, Any], _: Gettext) -> dict[str, Any]:
    """The report's heading: the game's id, variant, ruleset, labelled ``meta`` (its referee
    apart), and how many events and hands it has."""
    first = rp.events[0]
    assert isinstance(first, GameStarted)
    return {
        "id": first.game_id,
        "variant": VARIANT_NAMES.get(first.variant, first.variant),
        "ruleset": rp.final.rules.ruleset,
        "meta": [(_(META_LABELS[k]), v) for k, v in meta.items() if k != "referee"],
        "events": len(rp.events),
        "hands": len(rp.hand_starts()),
    }


def _disputed_position(findings: list[Finding], at: int | None, finding: int | None, last: int) -> int:
    """:func:`build_report`'s position in dispute: ``at``, else ``finding``, else the first
    finding's, else ``last``; ReportError for a ``finding`` with no finding or an ``at`` off the record."""
    found_at = sorted({f.position for f in findings})
    if finding is not None and finding not in found_at:
        if not found_at:
            raise ReportError(Message(NO_FINDING_AT_NONE, pos=finding))
        where = ", ".join(str(p) for p in found_at)
        raise ReportError(Message(NO_FINDING_AT, pos=finding, where=where))
    if at is None:
        at = finding if finding is not None else (found_at[0] if found_at else last)
    if not 0 <= at <= last:
        raise ReportError(f"position {at} is outside this game's positions 0–{last}")
    return at


def _move_rows(
    events: Sequence[Event],
    final: TableState,
    positions: range,
    at: int,
    rules_at: dict[int, list[str]],
    rewound: dict[int, int],
    tr: Translator,
) -> list[dict[str, Any]]:
    """The report's moves around the position in dispute: notation (in the language of ``tr``),
    rule ids found, rewinds, notes, times."""
    since = move_seconds(events)
    return [
        {
            "pos": p,
            "text": notation(events[p], final, None, tr),
            "rules": rules_at.get(p, []),
            "current": p == at,
            "rewound_by": rewound.get(p),
            "note": events[p].note,
            "time": events[p].at,
            "tempo": tempo_text(since[p]),
        }
        for p in positions
    ]


def _finding_rows(
    events: Sequence[Event],
    final: TableState,
    findings: list[Finding],
    finding: int | None,
    rewound: dict[int, int],
    lang: str,
) -> list[dict[str, Any]]:
    """The report's findings, in the report's language, with the rulings on each and its rewind."""
    finding_words = ledger_translations(lang)
    ruled_by = {p: [r.position for r in rs] for p, rs in by_finding(events).items()}
    return [
        {
            "position": f.position,
            "hand": f.hand,
            "seat": final.name(f.seat) if f.seat is not None else "",
            "rule": f.rule,
            "message": f.text(finding_words),
            "disputed": finding is not None and f.position == finding,
            "ruled_by": ruled_by.get(f.position, []),
            "rewound_by": rewound.get(f.position),
        }
        for f in findings
    ]


#: findings of one rule the report shows in full; the rest are counted (a 120k-event game had 49k rows, 13 MB)
FINDINGS_PER_RULE = 20


def _findings(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``findings`` (every row, for ``--json``), ``findings_shown`` (the
    first :data:`FINDINGS_PER_RULE` of each rule, and the one in dispute,
    in position order) and ``findings_more`` (``{rule, count, shown}`` of
    each rule with rows left out, first citation first): the page stays
    short however many findings a game has (issue 27, defect 4)."""
    seen: dict[str, int] = {}
    shown = []
    for row in rows:
        n = seen[row["rule"]] = seen.get(row["rule"], 0) + 1
        if n <= FINDINGS_PER_RULE or row["disputed"]:
            shown.append(row)
    kept: dict[str, int] = {}
    for row in shown:
        kept[row["rule"]] = kept.get(row["rule"], 0) + 1
    more = [{"rule": r, "count": n, "shown": kept.get(r, 0)} for r, n in seen.items() if n > kept.get(r, 0)]
    return {"findings": rows, "findings_shown": shown, "findings_more": more}


def _cited(findings: list[Finding], rulings: list[dict[str, Any]]) -> list[str]:
    """The rule ids the findings and rulings cite, first citation first, once each."""
    cited: list[str] = []
    for rule in [f.rule for f in findings] + [r["rule"] for r in rulings if r["rule"]]:
        if rule not in cited:
            cited.append(rule)
    return cited


def _referees(meta: dict[str, Any], rulings: list[dict[str, Any]]) -> list[str]:
    """The game's referee (``meta``) and then each ruling's, once each."""
    referees = [meta["referee"]] if "referee" in meta else []
    for r in rulings:
        if r["referee"] and r["referee"] not in referees:
            referees.append(r["referee"])
    return referees


def tournament_impact(ledger: Any, events: Sequence[Event], lang: str) -> list[dict[str, Any]]:
    """What each ruling of a game of a stored tournament did to it (issue 25,
    :func:`ledger.tournament.impact.game_impacts`): ``[{"position", "lines"}]``,
    the lines in ``lang``; empty for a game of no tournament. ``ledger``: the
    store's application (the CLI's ``report`` and the viewer's both call this)."""
    from ledger.tournament.impact import game_impacts

    first = events[0] if events else None
    if not isinstance(first, GameStarted):
        return []
    state = ledger.tournament_of_game(first.game_id)
    if state is None:
        return []
    tr = ledger_translations(lang)
    return [
        {"position": pos, "lines": [m.text(tr) for m in impact.messages()]}
        for pos, impact in game_impacts(state, ledger.tournament_results(state), events)
    ]
