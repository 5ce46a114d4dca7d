"""Readable text of a table state, for ``rummy-ledger show GAME --at N``.

Pure rendering over :func:`ledger.views.state_view`: each seat's hand, the
melds per side (with the variant's marks, e.g. burraco kind), the top of the
discard pile (the whole pile in Burraco), the stock count and whose turn it is.
"""

from __future__ import annotations

from typing import Any

from ledger.cards import pretty, pretty_list
from ledger.scoring import ScoreSheet
from ledger.state import TableState
from ledger.views import PHASES, state_view


def _n(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``.

    >>> _n(1, "card"), _n(0, "card")
    ('1 card', '0 cards')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _meld_line(m: dict[str, Any]) -> str:
    marks = []
    if m.get("burraco"):
        marks.append(f"burraco {m['burraco']}")
    if not m["valid"]:
        marks.append("INVALID")
    wilds = [f"{pretty(c)}={pretty(s) if len(s) > 1 else s}" for c, s in zip(m["cards"], m["stands_for"]) if s]
    if wilds:
        marks.append("wild " + ", ".join(wilds))
    tail = f"  ({'; '.join(marks)})" if marks else ""
    return f"    [{m['id']}] {m['kind']:<8} {pretty_list(m['cards'])}{tail}"


def render_state(state: TableState, pov: int | str | None = None) -> str:
    """Multi-line text of the table at ``state.position`` (``pov``: redacted
    to one seat, or ``"spectator"``, by :func:`ledger.views.state_view`)."""
    v = state_view(state, pov)
    lines = [f"{v['game_id']} — {v['variant']} ({v['ruleset']}) — position {v['position']}, hand {v['hand']}"]
    if v["ended"]:
        lines.append(f"game over: {v['ended'].replace('_', ' ')}")
    elif v["turn"] is not None:
        lines.append(f"turn: {state.name(v['turn'])} (seat {v['turn']}), {PHASES.get(v['phase'], v['phase'])}")
    else:
        lines.append(PHASES.get(v["phase"], v["phase"]))
    lines.append("")
    for s in v["seats"]:
        team = f", team {s['team']}" if s["team"] is not None else ""
        dealer = " (dealer)" if s["seat"] == v["dealer"] else ""
        cards = pretty_list(s["cards"]) if s["cards"] is not None else "hidden"
        if s["cards"] is None and s.get("seen"):
            cards += f" (seen: {pretty_list(s['seen'])})"
        flag = " — out" if s["eliminated"] else ""
        lines.append(f"  seat {s['seat']} {s['name']}{team}{dealer}: {_n(s['count'], 'card')}: {cards}{flag}")
    sides = sorted({m["side"] for m in v["melds"]})
    if sides:
        lines.append("")
        lines.append("melds:")
        for side in sides:
            lines.append(f"  side {side} ({state.rules.side_label(state, side)}):")
            lines.extend(_meld_line(m) for m in v["melds"] if m["side"] == side)
    lines.append("")
    pile = v["discard"]
    if state.rules.pile_take_count(state) is None:
        lines.append(f"discard pile ({len(pile)}): {pretty_list(pile) or 'empty'}")
    else:
        hidden = v.get("discard_hidden", 0)
        if hidden:
            lines.append(f"discard pile: face down on top ({_n(len(pile) + hidden, 'card')})")
        else:
            lines.append(f"discard pile: {pretty(pile[-1]) if pile else 'empty'} on top ({_n(len(pile), 'card')})")
    lines.append(f"stock: {_n(v['stock_count'], 'card')}")
    for p in v["pozzetti"]:
        taken = f"taken by {state.name(p['taken_by'])}" if p["taken_by"] is not None else "not taken"
        lines.append(f"pozzetto {p['index']}: {taken}")
    lines.extend(v.get("notes", ()))  # a variant's extra_view lines (Gin: best deadwood per seat)
    if v["totals"] and any(v["totals"]):
        lines.append("totals: " + ", ".join(f"{state.rules.side_label(state, i)} {t}" for i, t in enumerate(v["totals"])))
    if v["findings"]:
        lines.append(f"findings so far: {v['findings']}")
    return "\n".join(lines)


def render_score(sheet: ScoreSheet, state: TableState, played: ScoreSheet | None = None) -> str:
    """Multi-line text of a score sheet: each hand with how it ended, each
    side's points and breakdown, claimed points where they differ, the
    running totals, and the winner (``played``: the as-played sheet, shown
    when its totals differ from the adjudicated ones)."""
    rules = state.rules
    label = {i: rules.side_label(state, i) for i in range(state.n_sides)}
    width = max((len(v) for v in label.values()), default=4)
    kind = "as adjudicated" if sheet.adjudicated else "as played"
    lines = [f"score of {sheet.game_id} — {rules.variant} ({rules.ruleset}), {kind}"]
    running = [0] * state.n_sides
    for h in sheet.hands:
        by = f", {state.name(h.seat)}" if h.seat is not None else ""
        lines.append(f"hand {h.hand} ({h.reason.replace('_', ' ')}{by})")
        for ln in h.lines:
            running[ln.side] += ln.points
            parts = ", ".join(f"{k} {v:+d}" for k, v in ln.breakdown.items() if v)
            claim = f"  [claimed {ln.claimed}: differs]" if ln.claim_differs else ""
            lines.append(f"  {label[ln.side]:<{width}} {ln.points:>6}   total {running[ln.side]:>6}   {parts}{claim}".rstrip())
    lines.append("totals: " + ", ".join(f"{label[i]} {t}" for i, t in enumerate(sheet.totals)))
    if played is not None and played.totals != sheet.totals:
        lines.append("as played (no referee penalties): " + ", ".join(f"{label[i]} {t}" for i, t in enumerate(played.totals)))
    if sheet.ended is None:
        lines.append("game not over")
    elif sheet.winner is not None:
        lines.append(f"winner: {label[sheet.winner]}")
    else:
        lines.append("no winner (tie or no result)")
    return "\n".join(lines)
