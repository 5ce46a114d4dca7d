"""Presentation helpers of the viewer: card faces, redacted notation, the
board and scoreboard as template data. Pure functions over the fold's outputs
(:func:`ledger.views.state_view`, :class:`ledger.scoring.ScoreSheet`); no
rule is evaluated here.

>>> face("10H")["colour"], face("QS")["colour"], face("JK")["colour"]
('red', 'black', 'joker')
>>> str(suit_markup("Anna draws 7♥ & <b>"))
'Anna draws 7<span class="suit-red">♥</span> &amp; &lt;b&gt;'
"""

from __future__ import annotations

from collections.abc import Sequence
from gettext import NullTranslations
from typing import Any, TypeVar

import msgspec
from markupsafe import Markup, escape
from msgspec import UNSET

from ledger.cards import HAND_ORDERS, JOKER, SUIT_NAMES, SUIT_SYMBOLS, UNKNOWN, pretty, sorted_hand
from ledger.game_summary import game_result  # the games list's result (moved to the pure layer: the store keeps it)
from ledger.redaction import Pov, Sight, sight
from ledger.render import side_text
from ledger.scoring import ScoreSheet
from ledger.state import TableState
from ledger.variants.presentation import MeldBadges
from ledger.variants.threshold.rules import ThresholdRules
from ledger.views import PHASES, StateView, sorted_view, state_view

T = TypeVar("T")

__all__ = [
    "AREAS",
    "ORDERS",
    "around",
    "board",
    "face",
    "game_result",
    "has_opening",
    "scoreboard",
    "sorted_hand",
    "stands_for_text",
    "suit_markup",
]

#: how the viewer lays out a hand: ``suit`` (by suit, then rank) or ``dealt`` (as the record holds it)
ORDERS = HAND_ORDERS

_RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}

#: the fields of a meld's variant badges (:class:`ledger.variants.presentation.MeldBadges`), shown as badges
_BADGES = MeldBadges.__struct_fields__


def face(card: str) -> dict[str, str]:
    """What a card face shows: ``{code, rank, suit, colour, title}``;
    ``colour`` is ``red`` (hearts, diamonds), ``black`` (clubs, spades) or
    ``joker``."""
    if card == JOKER:
        return {"code": card, "rank": "JK", "suit": "★", "colour": "joker", "title": "joker"}
    if card == UNKNOWN:  # partial records: a card nobody saw, drawn as a back
        return {"code": card, "rank": "", "suit": "", "colour": "back", "title": "unknown card"}
    rank, suit = card[:-1], card[-1]
    colour = "red" if suit in "HD" else "black"
    title = f"{_RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"
    return {"code": card, "rank": rank, "suit": SUIT_SYMBOLS[suit], "colour": colour, "title": title}


def suit_markup(text: str) -> Markup:
    """Escape ``text`` and colour its suit symbols (red ♥♦, black ♣♠)."""
    out = str(escape(text))
    for sym, colour in (("♥", "red"), ("♦", "red"), ("♣", "black"), ("♠", "black")):
        out = out.replace(sym, f'<span class="suit-{colour}">{sym}</span>')
    return Markup(out)


def stands_for_text(value: str | None) -> str:
    """What a wild stands for, readably: ``"9H"`` -> ``9♥``, a set's ``"7"`` -> ``7``."""
    if not value:
        return ""
    return pretty(value) if len(value) > 1 and value[-1] in SUIT_SYMBOLS else value


def has_opening(state: TableState) -> bool:
    """True where the variant has an opening requirement, so a seat's
    "opened" matters: Scala 40 (40 points) and Ramino 51 (51 points),
    RULES.md "Opening"; Burraco ("No opening minimum"), classic Ramino and
    Gin have none."""
    return isinstance(state.rules, ThresholdRules)


def _turn_text(state: TableState, view: StateView) -> str:
    """The board's line of whose turn and what to do, in English (or the game's end)."""
    if view.ended:
        return f"game over: {view.ended.replace('_', ' ')}"
    if view.turn is not None:
        return f"{state.name(view.turn)} (seat {view.turn}) {PHASES.get(view.phase, view.phase)}"
    return PHASES.get(view.phase, view.phase)


def board(
    state: TableState,
    pov: Pov,
    seen: Sight | None = None,
    order: str = "dealt",
    tr: NullTranslations | None = None,
) -> dict[str, Any]:
    """Template data of the table at ``state.position`` seen from ``pov``
    (a seat, ``"spectator"`` or None for the referee; ``seen`` its
    :class:`~ledger.redaction.Sight`, computed when not given); ``order``
    (:data:`ORDERS`) ``suit`` shows each hand's cards (and the cards seen
    face up) by :func:`sorted_hand`, ``dealt`` as the record holds them;
    ``tr``: the page's translations, in which the sides are named
    (:func:`ledger.render.side_text`; English when None).

    Keys: ``view`` (:func:`state_view`, a :class:`~ledger.views.StateView`), ``turn_text``, ``sides`` (melds
    grouped per side in table order: ``[{side, label, melds}]``, each meld
    with ``marks``, the variant's badges), ``pile_whole`` (show the whole
    discard pile: the variant takes it whole, as in Burraco), ``extra``
    (variant data ``[(key, value)]``), ``opening`` (:func:`has_opening`),
    ``order``. Raises ``ValueError`` for a bad seat.
    """
    view = state_view(state, pov, seen if seen is not None else sight(state, pov))
    if order == "suit":
        view = sorted_view(view)
    sides: dict[int, list[dict[str, Any]]] = {}
    for m in view.melds:
        data: dict[str, Any] = msgspec.to_builtins(m)
        data["badges"] = [
            (k, v) for k in _BADGES if (v := getattr(m, k)) is not UNSET and v not in (None, False, "", [], {})
        ]
        data["wilds"] = [stands_for_text(s) for s in m.stands_for]
        sides.setdefault(m.side, []).append(data)
    labels = [side_text(state, s, tr) for s in range(state.n_sides)]
    groups = [{"side": s, "label": labels[s], "melds": ms} for s, ms in sorted(sides.items())]
    try:
        pile_whole = state.rules.pile_take_count(state) is None
    except Exception:  # a variant hook that needs a hand in progress
        pile_whole = False
    notes = view.variant_notes
    extra = []
    if notes is not None:  # the notes stay messages (the page renders them in its language), the rest plain data
        data = msgspec.to_builtins(notes, enc_hook=str)
        data.update({"notes": list(getattr(notes, "notes", ()))} if "notes" in data else {})
        extra = list(data.items())
    return {
        "view": view,
        "around": around(view.seats, pov if isinstance(pov, int) else None),
        "turn_text": _turn_text(state, view),
        "sides": groups,
        "pile_whole": pile_whole,
        "extra": extra,
        "side_labels": labels,
        "opening": has_opening(state),
        "order": order,
    }


#: the table's areas, as ``_board.html`` draws them (a grid, viewer.css ``.felt``)
AREAS = ("northwest", "north", "northeast", "west", "east", "south")
#: table areas of the seats in clockwise order from the viewer's own seat
#: (south): south, then west, round the top from left to right, east
_AREAS = {
    1: ("south",),
    2: ("south", "north"),
    3: ("south", "west", "east"),
    4: ("south", "west", "north", "east"),
    5: ("south", "west", "northwest", "northeast", "east"),
    6: ("south", "west", "northwest", "north", "northeast", "east"),
}


def around(seats: Sequence[T], pov: int | None) -> dict[str, list[T]]:
    """Seats placed around the table (:data:`AREAS`): the ``pov`` seat (else
    seat 0) south, the others clockwise: west, along the top from left to
    right, east. Five seats take north-west and north-east, six also north;
    more than six share the north area, left to right.

    >>> a = around([{"seat": i} for i in range(4)], pov=2)
    >>> [(k, [s["seat"] for s in v]) for k, v in a.items() if v]
    [('north', [0]), ('west', [3]), ('east', [1]), ('south', [2])]
    >>> a = around([{"seat": i} for i in range(6)], pov=None)
    >>> [(k, [s["seat"] for s in v]) for k, v in a.items() if v]
    [('northwest', [2]), ('north', [3]), ('northeast', [4]), ('west', [1]), ('east', [5]), ('south', [0])]
    """
    n = len(seats)
    start = pov if pov is not None else 0
    areas = _AREAS.get(n, ("south", "west") + ("north",) * max(n - 3, 0) + ("east",))
    out: dict[str, list[T]] = {a: [] for a in AREAS}
    for k in range(n):
        out[areas[k]].append(seats[(start + k) % n])
    return out


def scoreboard(sheet: ScoreSheet, played: ScoreSheet, labels: list[str]) -> dict[str, Any]:
    """Rows of the scoreboard: per hand and side, the points as adjudicated
    and as played, the breakdown, the running total, and the claimed score
    with ``claim_differs`` when it matches neither the adjudicated nor the
    as-played points.

    Returns ``{labels, hands: [{hand, reason, cells: [{points, played,
    breakdown, claimed, claim_differs, total}]}], totals, played_totals,
    winner}``.
    """
    n = len(labels)
    running = [0] * n
    hands = []
    for h, hp in zip(sheet.hands, played.hands):
        by_side = {ln.side: ln for ln in h.lines}
        played_side = {ln.side: ln for ln in hp.lines}
        cells = []
        for side in range(n):
            ln = by_side.get(side)
            lp = played_side.get(side)
            points = ln.points if ln else 0
            running[side] += points
            claimed = ln.claimed if ln else None
            cells.append(
                {
                    "points": points,
                    "played": lp.points if lp else 0,
                    "breakdown": [(k, v) for k, v in (ln.breakdown if ln else {}).items() if v],
                    "claimed": claimed,
                    "claim_differs": claimed is not None and claimed != points and claimed != (lp.points if lp else 0),
                    "as_claimed": bool(ln and ln.as_claimed),
                    "unscored": bool(ln and ln.unscored),
                    "total": running[side],
                }
            )
        hands.append({"hand": h.hand, "reason": h.reason.replace("_", " "), "seat": h.seat, "cells": cells})
    return {
        "labels": labels,
        "hands": hands,
        "totals": list(sheet.totals),
        "played_totals": list(played.totals),
        "winner": sheet.winner,
    }
