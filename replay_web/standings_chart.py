"""The standings chart (issue 26): each entrant's victory points total round by round.

Drawn by matplotlib on the server (SVG backend: no network, no script,
prints as it shows) from :func:`ledger.tournament.progress.progress` (the
totals as the standings compute them after each round); no VP is computed
here. On the tournament page, the printable standings sheet and its PDF.

Readable with many entrants (60 pairs): the leaders (the first
:data:`LEADERS` of the standings) are drawn in colour and named in the
legend with their place; the others are thin grey lines, one legend entry
for them all. A round whose VP a ruling changed is marked as the game
chart marks a ruling (:mod:`replay_web.chart`): an x at the total as
played, a diamond at the total as adjudicated, an arrow between; the
leaders' marks are labelled with the round's VP (``11→13``). The cost is
bounded: one line per entrant of at most rounds + 1 points, drawn once per
distinct chart (an LRU cache of the SVG).
"""

from __future__ import annotations

import io
import textwrap
from functools import lru_cache
from typing import Any

from ledger.i18n import translations
from ledger.tournament.progress import Progress
from ledger.tournament.render import number
from replay_web.chart import COLOURS, MPL_LOCK

#: entrants drawn in colour and named in the legend; the rest are grey
LEADERS = 8
OTHERS = "#b0b4ba"
LEADER_COLOURS = (*COLOURS, "#e377c2", "#17becf")

#: one entrant's series: (its legend label, its totals after round 0..R, its marks (round, as played, as ruled))
Series = tuple[str, tuple[float, ...], tuple[tuple[int, float, float, str], ...]]


def series_of(data: Progress) -> tuple[Series, ...]:
    """The chart's input from :func:`~ledger.tournament.progress.progress`, in standings order: each
    entrant's label (``"1 · c7"``), its totals, and each ruling mark at the round's total as played
    and as adjudicated, labelled with the round's VP as played and as adjudicated."""
    out = []
    for e in data.entrants:
        marks = tuple(
            (m.round, e.vp[m.round] - m.vp + m.vp_as_played, e.vp[m.round], f"{number(m.vp_as_played)}→{number(m.vp)}")
            for m in e.rulings
        )
        out.append((f"{e.place} · {e.entrant}", tuple(float(v) for v in e.vp), marks))
    return tuple(out)


def standings_chart(data: Progress, words: dict[str, str]) -> str | None:
    """The SVG (text) of the chart; ``words``: its texts in the page's language
    (:func:`chart_words`). None before the first round is paired."""
    if data.after_round < 1 or not data.entrants:
        return None
    return _draw(series_of(data), tuple(sorted(words.items())))


def chart_words(lang: str) -> dict[str, str]:
    """The chart's texts in ``lang`` (the page's or the sheet's language), as
    :func:`replay_web.chart.chart_words` gives the game chart's: one way for both charts.

    Raises ``ValueError`` for a language not in :data:`ledger.i18n.LANGUAGES`.

    >>> chart_words("it")["round"], chart_words("en")["others"]
    ('turno', 'the others')
    """
    gettext = translations(lang).gettext
    return {
        "title": gettext("Victory points by round"),
        "round": gettext("round"),
        "vp": gettext("victory points"),
        "others": gettext("the others"),
        "ruling": gettext("a ruling changed the round's VP"),
    }


@lru_cache(maxsize=64)
def _draw(series: tuple[Series, ...], word_items: tuple[tuple[str, str], ...]) -> str:
    words = dict(word_items)
    import matplotlib

    matplotlib.use("svg", force=False)
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    rounds = list(range(len(series[0][1])))
    with MPL_LOCK, matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "rummy-ledger"}):
        fig = Figure(figsize=(6.4, 3.2), dpi=100)
        ax = fig.add_subplot()
        for i, (label, totals, marks) in reversed(list(enumerate(series))):  # the leaders drawn last, on top
            leader = i < LEADERS
            colour = LEADER_COLOURS[i % len(LEADER_COLOURS)] if leader else OTHERS
            ax.plot(
                rounds,
                list(totals),
                color=colour,
                linewidth=1.6 if leader else 0.7,
                marker="o" if leader else None,
                markersize=3,
                zorder=3 if leader else 2,
                label=label if leader else None,
            )
            _marks(ax, marks, colour, leader)
        handles, labels = ax.get_legend_handles_labels()
        handles, labels = handles[::-1], labels[::-1]  # drawn in reverse: the legend in standings order
        if len(series) > LEADERS:
            handles.append(Line2D([], [], color=OTHERS, linewidth=0.7))
            labels.append(words["others"])
        if any(marks for _l, _t, marks in series):
            handles.append(Line2D([], [], color="#333333", marker="D", markersize=4, linestyle="none"))
            labels.append(textwrap.fill(words["ruling"], 24))  # two short lines: the axes keep their width
        ax.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        ax.set_xlabel(words["round"], fontsize=8)
        ax.set_ylabel(words["vp"], fontsize=8)
        if len(rounds) <= 20:
            ax.set_xticks(rounds)
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(labelsize=7)
        ax.grid(True, linewidth=0.3)
        ax.set_title(words["title"], fontsize=9)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})  # the same standings give the same bytes
    svg = out.getvalue()
    return svg[svg.index("<svg") :]


def _marks(ax: Any, marks: tuple[tuple[int, float, float, str], ...], colour: str, leader: bool) -> None:
    """Each ruling of one entrant: x as played, a diamond as adjudicated, an arrow; a leader's labelled."""
    for x, as_played, as_ruled, text in marks:
        ax.plot([x], [as_played], marker="x", markersize=5, color=colour, linestyle="none", zorder=4)
        ax.plot([x], [as_ruled], marker="D", markersize=4, color=colour, linestyle="none", zorder=4)
        ax.annotate(
            "", xy=(x, as_ruled), xytext=(x, as_played),
            arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 0.8},
        )  # fmt: skip
        if leader:
            ax.annotate(text, xy=(x, max(as_ruled, as_played)), xytext=(-4, 5), textcoords="offset points",
                        ha="right", fontsize=6, color=colour)  # fmt: skip


__all__ = ["LEADERS", "chart_words", "series_of", "standings_chart"]
