"""The player page's plots, drawn by matplotlib on the server as SVG (issue 29).

Pure functions of the numbers to plot (no request, no store): each returns
the SVG document as text, drawn with matplotlib's object API
(:class:`matplotlib.figure.Figure` on the SVG backend: no pyplot state, no
display, no network) with fixed ids and no timestamp, so the same numbers
give the same bytes. Texts (titles, axis labels) come translated from the
caller; text is kept as SVG text (``svg.fonttype = none``), so a reader
can select it and the file stays small.

- :func:`distribution`: a histogram of points per hand;
- :func:`over_time`: each game's total in order, the marker telling won,
  lost or tied;
- :func:`rates`: horizontal bars of rates, the player beside the field.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from matplotlib import rc_context
from matplotlib.figure import Figure  # the object API: no pyplot, no GUI backend; savefig picks the SVG canvas
from matplotlib.ticker import MaxNLocator

#: the page's colours (viewer.css): the player, the field, won / lost / tied
PLAYER = "#1f5fa8"
FIELD = "#9aa3ad"
RESULT_COLOURS = {"won": "#1e7b34", "lost": "#b3261e", "tied": "#6b7280", None: "#6b7280"}
_RC: Any = {"svg.fonttype": "none", "svg.hashsalt": "rummy-ledger", "font.size": 9, "axes.titlesize": 10}


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": "rummy-ledger (matplotlib)"})
    return out.getvalue()


def distribution(points: Sequence[int], *, title: str, xlabel: str, ylabel: str) -> str:
    """A histogram of ``points`` (one value per hand), at most 20 bins."""
    with rc_context(_RC):
        fig = Figure(figsize=(5.2, 2.8), layout="constrained")
        ax = fig.add_subplot()
        values = list(points)
        bins = min(20, max(1, len(set(values))))
        ax.hist(values, bins=bins, color=PLAYER, edgecolor="white")
        ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        return _svg(fig)


def over_time(
    games: Sequence[tuple[Any, int | None, str | None]], *, title: str, xlabel: str, ylabel: str, legend: dict[str, str]
) -> str:
    """Each game's total (``(date, total, result)`` in order) as a line with
    markers coloured by result; ``legend`` names ``won``/``lost``/``tied``."""
    with rc_context(_RC):
        fig = Figure(figsize=(5.2, 2.8), layout="constrained")
        ax = fig.add_subplot()
        xs = list(range(1, len(games) + 1))
        totals = [t if t is not None else 0 for _, t, _ in games]
        ax.plot(xs, totals, color=FIELD, linewidth=1, zorder=1)
        for result, label in legend.items():
            at = [x for x, (_, _, r) in zip(xs, games) if r == result]
            if at:
                ax.scatter(at, [totals[x - 1] for x in at], color=RESULT_COLOURS[result], label=label, zorder=2, s=18)
        ax.axhline(0, color="#d0d4d9", linewidth=0.8, zorder=0)
        ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if any(r in legend for _, _, r in games):
            ax.legend(loc="best", frameon=False)
        return _svg(fig)


def rates(
    labels: Sequence[str],
    player: Sequence[float | None],
    field: Sequence[float | None],
    *,
    title: str,
    names: tuple[str, str],
) -> str:
    """Horizontal bars of rates (0..1, drawn in per cent): ``player`` and
    ``field`` per label; ``names``: the two series' names."""
    with rc_context(_RC):
        fig = Figure(figsize=(5.2, 0.8 + 0.42 * max(1, len(labels))), layout="constrained")
        ax = fig.add_subplot()
        ys = list(range(len(labels)))
        mine = [100 * (v or 0) for v in player]
        theirs = [100 * (v or 0) for v in field]
        ax.barh([y - 0.2 for y in ys], mine, height=0.38, color=PLAYER, label=names[0])
        ax.barh([y + 0.2 for y in ys], theirs, height=0.38, color=FIELD, label=names[1])
        ax.set_yticks(ys, labels=list(labels))
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.xaxis.set_major_formatter("{x:.0f} %")
        ax.set_title(title)
        fig.legend(loc="outside lower center", ncols=2, frameon=False)
        return _svg(fig)
