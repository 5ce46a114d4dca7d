"""The player page: a player's statistics and plots from the analytics view (issue 29).

Route (GET only): ``/players/<name>?variant=&ruleset=&tournament=&since=&until=&opponent=``
(each filter repeatable, as ``rummy-ledger stats``; dates ``YYYY-MM-DD``).

The numbers are :func:`ledger.projections.stats.player_stats` and
:func:`~ledger.projections.stats.player_series` over the DuckDB view, opened
read-only (config ``LEDGER_ANALYTICS``, else the view beside ``LEDGER_DB``:
:func:`ledger.projections.analytics_path`; the viewer never updates it:
``rummy-ledger analytics update`` does). Only **finished** games count: a
finished game is public (FORMAT.md "Who may read what"), so the page shows
the same to every reader. The plots are matplotlib's SVG
(:mod:`replay_web.plots`), embedded as ``data:`` images (the page's CSP
allows them; an SVG image keeps its own styles), so they print with the
page. 404 when the player has no finished game among the chosen ones, 503
when there is no view or another process holds it, 400 for a bad filter.
"""

from __future__ import annotations

import base64
from datetime import date
from typing import Any

from flask import Blueprint, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue

from ledger.i18n import translations as ledger_translations
from ledger.projections.stats import BY_TURN, Filters, Series, VariantStats, cell, stat_label, stats_of
from replay_web.lang import current_lang
from replay_web.lang import gettext as _

bp = Blueprint("players", __name__)

#: seconds the page waits for the view while another process writes it
VIEW_WAIT = 1.0


def view_path() -> str | None:
    """The DuckDB file of the view, or None when the app serves no store."""
    config = current_app.config
    if config.get("LEDGER_ANALYTICS"):
        return str(config["LEDGER_ANALYTICS"])
    if config.get("LEDGER_STORE") is not None or config.get("LEDGER_RECORDS"):
        return None
    from ledger.projections import analytics_path

    return analytics_path(config.get("LEDGER_DB"))


def _dates(name: str) -> date | None:
    raw = request.args.get(name)
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        abort(400, description=_("%(name)s=%(value)s: a date YYYY-MM-DD", name=name, value=repr(raw)))


def filters_of_request() -> Filters:
    """The page's filters from its query string (finished games only)."""
    args = request.args
    return Filters(
        variants=tuple(args.getlist("variant")),
        rulesets=tuple(args.getlist("ruleset")),
        tournaments=tuple(args.getlist("tournament")),
        since=_dates("since"),
        until=_dates("until"),
        opponents=tuple(args.getlist("opponent")),
        finished=True,
    )


def _read(name: str, filters: Filters) -> tuple[list[VariantStats], dict[str, Series]]:
    from ledger.projections.duckdb_recorder import AnalyticsError, open_duckdb
    from ledger.projections.stats import player_series, player_stats

    path = view_path()
    if path is None:
        abort(503, description=_("no analytics view: this viewer serves record files, not a store"))
    try:
        con = open_duckdb(path, read_only=True, wait=VIEW_WAIT)
    except AnalyticsError:
        abort(503, description=_("the analytics view cannot be read now: run rummy-ledger analytics update, or retry"))
    try:
        return player_stats(con, name, filters), player_series(con, name, filters)
    finally:
        con.close()


def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _plots(name: str, block: VariantStats, series: Series | None, labels: Any) -> list[dict[str, str]]:
    """The variant's three plots as ``{title, src}`` (``src`` a data: URI)."""
    from replay_web import plots

    out: list[dict[str, str]] = []
    if series is not None and series.hand_points:
        title = _("points per hand")
        svg = plots.distribution(series.hand_points, title=title, xlabel=_("points"), ylabel=_("hands"))
        out.append({"title": title, "src": _data_uri(svg)})
    if series is not None and series.games:
        title = _("results over time")
        legend = {"won": _("won"), "lost": _("lost"), "tied": _("tied")}
        svg = plots.over_time(series.games, title=title, xlabel=_("game"), ylabel=_("side total"), legend=legend)
        out.append({"title": title, "src": _data_uri(svg)})
    chosen = [s for s in stats_of(block.variant) if s.kind == "rate"]
    if chosen:
        title = _("rates against the field")
        svg = plots.rates(
            [labels(s) for s in chosen],
            [block.player.get(s.key) for s in chosen],
            [block.field.get(s.key) for s in chosen],
            title=title,
            names=(name, _("field")),
        )
        out.append({"title": title, "src": _data_uri(svg)})
    return out


@bp.get("/players/<path:name>")
def player_page(name: str) -> ResponseReturnValue:
    filters = filters_of_request()
    found, series = _read(name, filters)
    if not found:
        abort(404, description=_("no finished game of %(player)s in the analytics view", player=name))
    tr = ledger_translations(current_lang())

    def label(stat: Any) -> str:
        return stat_label(tr, stat, BY_TURN)

    sections = []
    for block in found:
        rows = [
            {
                "key": s.key,
                "label": label(s),
                "player": cell(s, block.player.get(s.key)),
                "field": cell(s, block.field.get(s.key)),
            }
            for s in stats_of(block.variant)
        ]
        sections.append(
            {
                "variant": block.variant,
                "rows": rows,
                "findings": block.findings,
                "plots": _plots(name, block, series.get(block.variant), label),
            }
        )
    return render_template("player.html", name=name, sections=sections, filters=filters)
