"""The score chart (issue 26): each side's cumulative score by hand, the
game's target marked, and where a referee's ruling changed a total the line
as played beside the line as adjudicated, and at that hand a mark on each
(x as played, a diamond as adjudicated) joined by an arrow labelled with the
penalty's rule id and points.

Drawn by matplotlib on the server (its SVG backend: no network, no script,
prints as it shows), from the score sheets of :func:`ledger.scoring.score_sheet`
(as adjudicated and as played); no rule is evaluated here. The viewer's score
panel shows it at its position (the hands completed by then), the dispute
report and its PDF for the whole game. :func:`score_chart` returns the SVG
text, or None when no hand is scored yet.
"""

from __future__ import annotations

import base64
import io
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from ledger.i18n import translations
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import TableState

#: matplotlib's pyplot state is global: one chart drawn at a time per process
MPL_LOCK = threading.Lock()
#: the sides' colours (matplotlib's tab10), the target's
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
TARGET_COLOUR = "#555555"
#: past this many hands the chart has no dot per hand and about a dozen ticks, not one per hand
MANY_HANDS = 40


def target_of(state: TableState) -> tuple[int, str] | None:
    """The game's mark: ``(points, kind)`` with kind ``target`` (Burraco 2005,
    Ramino 100, Gin 100: the game ends when a side reaches it) or
    ``elimination`` (Scala 40, Ramino 51: 101, a seat at it is out); None
    for a game without one."""
    settings = getattr(state.rules, "settings", None)
    for name in ("target", "elimination"):
        value = getattr(settings, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value, name
    return None


def _cumulative(sheet: Any, n_sides: int) -> list[list[int]]:
    """Per side, the running total after each hand (0 before the first)."""
    runs = [[0] for _ in range(n_sides)]
    for hand in sheet.hands:
        points = {line.side: line.points for line in hand.lines}
        for side in range(n_sides):
            runs[side].append(runs[side][-1] + points.get(side, 0))
    return runs


#: the score sheets of the last few states asked (:func:`sheets_of`), by ``id`` (the state kept, so the id is its)
_SHEETS: OrderedDict[int, tuple[TableState, ScoreSheet, ScoreSheet]] = OrderedDict()
_SHEETS_LOCK = threading.Lock()


def sheets_of(state: TableState) -> tuple[ScoreSheet, ScoreSheet]:
    """``score_sheet(state)`` as adjudicated and as played, kept for the
    last 8 states asked: a game page asks both for its score panel and its
    chart, and a live game's page at its last position asks them of the
    cached game's final state on every request (O(hands): 1,212 hands of a
    100k-event game, issue 27). States are immutable, so are the sheets."""
    key = id(state)
    with _SHEETS_LOCK:
        hit = _SHEETS.get(key)
        if hit is not None and hit[0] is state:
            _SHEETS.move_to_end(key)
            return hit[1], hit[2]
    adjudicated, played = score_sheet(state, adjudicated=True), score_sheet(state, adjudicated=False)
    with _SHEETS_LOCK:
        _SHEETS[key] = (state, adjudicated, played)
        while len(_SHEETS) > 8:
            _SHEETS.popitem(last=False)
    return adjudicated, played


def score_chart(state: TableState, labels: list[str], words: dict[str, str]) -> str | None:
    """The SVG (text) of the cumulative scores at ``state``: one line per
    side (``labels``) as adjudicated, dashed as played where a ruling made it
    differ, the target a dotted horizontal line; ``words``: the chart's
    texts in the page's language (``hand``, ``points``, ``as_played``,
    ``target``, ``elimination``, ``title``). None before the first scored hand."""
    adjudicated, played = sheets_of(state)
    if not adjudicated.hands:
        return None
    n = state.n_sides
    runs = tuple(map(tuple, _cumulative(adjudicated, n)))
    played_runs = tuple(map(tuple, _cumulative(played, n)))
    marks = ruling_marks(state, runs, played_runs)
    return _draw(runs, played_runs, tuple(labels), target_of(state), tuple(sorted(words.items())), marks)


#: one ruling mark: ``(x, side, as played, as adjudicated, label)``; x is the
#: chart's hand index (1 = the first scored hand), the two totals are the
#: side's cumulative points after that hand, the label the rule ids and points
Mark = tuple[int, int, int, int, str]


def ruling_marks(
    state: TableState, runs: tuple[tuple[int, ...], ...], played_runs: tuple[tuple[int, ...], ...]
) -> tuple[Mark, ...]:
    """Where a referee's penalty (FORMAT.md "Rulings", ``penalty_assessed``)
    changed a side's total in a scored hand: one mark per (hand, side), its
    label the penalties' rule ids and signed points in record order
    (``"BUR-TURN-1 -50"``). A penalty of a hand not scored yet at ``state``
    is not on the chart (nor on its sheet)."""
    x_of = {r.hand: i + 1 for i, r in enumerate(state.results)}
    labels: dict[tuple[int, int], list[str]] = {}
    for p in state.penalties:
        x = x_of.get(p.hand)
        if x is not None and p.points:
            labels.setdefault((x, p.side), []).append(f"{p.rule} {p.points:+d}")
    return tuple(
        (x, side, played_runs[side][x], runs[side][x], ", ".join(texts))
        for (x, side), texts in sorted(labels.items())
        if side < len(runs)
    )


@lru_cache(maxsize=256)
def _draw(
    runs: tuple[tuple[int, ...], ...],
    played_runs: tuple[tuple[int, ...], ...],
    labels: tuple[str, ...],
    mark: tuple[int, str] | None,
    word_items: tuple[tuple[str, str], ...],
    marks: tuple[Mark, ...] = (),
) -> str:
    """The SVG of :func:`score_chart`, drawn once per distinct chart (the
    viewer asks again at every position of a hand)."""
    words = dict(word_items)
    n = len(runs)
    hands = list(range(len(runs[0])))
    import matplotlib

    matplotlib.use("svg", force=False)
    from matplotlib.figure import Figure

    with MPL_LOCK, matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "rummy-ledger"}):  # text as text
        fig = Figure(figsize=(5.2, 2.6), dpi=100)
        ax = fig.add_subplot()
        for side in range(n):
            colour = COLOURS[side % len(COLOURS)]
            label = labels[side] if side < len(labels) else str(side)
            dots = "o" if len(hands) <= MANY_HANDS else None  # a dot per hand: 2,400 of them made a 1.6 MB chart
            ax.plot(hands, list(runs[side]), marker=dots, markersize=3, color=colour, label=label)
            if played_runs[side] != runs[side]:
                ax.plot(
                    hands,
                    list(played_runs[side]),
                    linestyle="--",
                    color=colour,
                    alpha=0.6,
                    label=f"{label} ({words['as_played']})",
                )
        _draw_marks(ax, marks, len(hands))
        if mark is not None:
            ax.axhline(mark[0], linestyle=":", color=TARGET_COLOUR, linewidth=1)
            ax.annotate(
                f"{words[mark[1]]} {mark[0]}",
                xy=(0, mark[0]),
                xytext=(2, 2),
                textcoords="offset points",
                fontsize=7,
                color=TARGET_COLOUR,
            )
        ax.set_xlabel(words["hand"], fontsize=8)
        ax.set_ylabel(words["points"], fontsize=8)
        _hand_ticks(ax, hands)
        ax.tick_params(labelsize=7)
        ax.grid(True, linewidth=0.3)
        ax.legend(fontsize=7, loc="best", frameon=False)
        ax.set_title(words["title"], fontsize=9)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})  # the same game gives the same bytes
    svg = out.getvalue()
    return svg[svg.index("<svg") :]  # inline in the page: no XML prolog or doctype


def _draw_marks(ax: Any, marks: tuple[Mark, ...], n_hands: int) -> None:
    """Each ruling mark of :func:`ruling_marks` on ``ax``: x as played, a
    diamond as adjudicated, an arrow between them and the label above."""
    for x, side, as_played, as_ruled, text in marks:  # a ruling: x as played, diamond as adjudicated
        colour = COLOURS[side % len(COLOURS)]
        ax.plot([x], [as_played], marker="x", markersize=6, color=colour, linestyle="none")
        ax.plot([x], [as_ruled], marker="D", markersize=5, color=colour, linestyle="none")
        ax.annotate(
            "",
            xy=(x, as_ruled),
            xytext=(x, as_played),
            arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 0.8},
        )
        right = x * 2 > n_hands - 1  # the label inside the axes: left of a mark in the chart's right half
        ax.annotate(
            text,
            xy=(x, max(as_ruled, as_played)),  # above the higher of the two marks, on a white ground
            xytext=(-4 if right else 4, 6),
            textcoords="offset points",
            ha="right" if right else "left",
            va="bottom",
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85},
            fontsize=7,
            color=colour,
        )


def _hand_ticks(ax: Any, hands: list[int]) -> None:
    """A tick per hand, or about a dozen past :data:`MANY_HANDS` (a tick per
    hand of a 1,200-hand game drew 1,200 labels; issue 27, defect 4)."""
    if len(hands) <= MANY_HANDS:
        ax.set_xticks(hands)
        return
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))


def chart_uri(state: TableState, labels: list[str], words: dict[str, str]) -> str | None:
    """:func:`score_chart` as a ``data:image/svg+xml;base64,…`` URI for an
    ``<img>``: matplotlib's SVG styles its marks with inline ``style``
    attributes, which the viewer's Content-Security-Policy (``style-src
    'self'``) blocks in the page but not in an image (``img-src data:``)."""
    svg = score_chart(state, labels, words)
    return None if svg is None else svg_uri(svg)


def svg_uri(svg: str) -> str:
    """SVG text as a ``data:image/svg+xml;base64,…`` URI for an ``<img>`` (this
    chart's and the standings chart's: :mod:`replay_web.standings_chart`)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def chart_words(lang: str) -> dict[str, str]:
    """The chart's texts in ``lang`` (the page's or the report's language)."""
    tr = translations(lang)
    gettext = tr.gettext
    return {
        "hand": tr.pgettext("a deal of the game", "hand"),  # ledger.i18n.DEAL
        "points": gettext("points"),
        "as_played": gettext("as played"),
        "target": gettext("target"),
        "elimination": gettext("elimination"),
        "title": gettext("Cumulative score by hand"),
    }


__all__ = ["Mark", "chart_uri", "chart_words", "ruling_marks", "score_chart", "svg_uri", "target_of"]
