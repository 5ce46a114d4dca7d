"""``rummy-ledger stats PLAYER``: a player's statistics from the analytics view (issue 29).

The statistics and their SQL are :mod:`ledger.projections.stats` (docs/stats.md);
this module chooses the games (``--variant``, ``--ruleset``, ``--tournament``,
``--since``/``--until``, ``--opponent``), brings the view up to date (unless
``--no-update``), and prints a table per variant (the player beside the
field: every player of the same games) or, with ``--json``, one object:
``{"player": str, "filters": {...}, "by_turn": int, "variants": [{"variant",
"player": {key: value}, "field": {key: value}, "findings": [{"rule",
"findings", "per_100_turns"}]}]}`` (rates 0..1, means and rates rounded to 4
decimals, None where nothing was counted). A player without games in the
chosen set is an error (exit status 2).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from ledger.cli.context import CliState, TranslatedCommand, console, paragraphs
from ledger.cli.view_update import run_update
from ledger.errors import LedgerError
from ledger.i18n import N_, translations
from ledger.params import AsciiInt, VariantChoice
from ledger.projections import analytics_path
from ledger.projections.duckdb_recorder import default_wait, open_duckdb
from ledger.projections.stats import BY_TURN, Filters, VariantStats, cell, player_stats, stat_label, stats_of


def _date(value: datetime | None) -> Any:
    return value.date() if value is not None else None


@click.command(
    "stats",
    cls=TranslatedCommand,
    help=paragraphs(
        N_("A player's statistics per variant, beside the field's (every player of the same games)."),
        N_(
            "Computed in DuckDB from the analytics view (brought up to date first unless --no-update); "
            "docs/stats.md defines each statistic with its SQL. Filters combine with AND; a repeated "
            "filter is an OR."
        ),
    ),
)
@click.argument("player")
@click.option(
    "--variant", "variants", multiple=True, type=VariantChoice(), help=N_("Only games of this variant (repeatable).")
)
@click.option("--ruleset", "rulesets", multiple=True, help=N_("Only games of this ruleset (repeatable)."))
@click.option(
    "--tournament",
    "tournaments",
    multiple=True,
    help=N_("Only games of this tournament (meta.tournament; repeatable)."),
)
@click.option(
    "--since",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    metavar="DATE",
    help=N_("Only games on or after this date (YYYY-MM-DD)."),
)
@click.option(
    "--until",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    metavar="DATE",
    help=N_("Only games on or before this date."),
)
@click.option(
    "--opponent",
    "opponents",
    multiple=True,
    help=N_("Only games against a player of this name (another side; repeatable)."),
)
@click.option(
    "--by-turn",
    type=AsciiInt(min=1),
    default=BY_TURN,
    show_default=True,
    metavar="N",
    help=N_("Burraco: the turn N of the statistic 'pozzetto taken by turn N'."),
)
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON object (never translated)."))
@click.option(
    "--lang",
    type=click.Choice(["it", "en"]),
    default=None,
    help=N_("Language of the table (default: the global --lang)."),
)
@click.option(
    "--analytics",
    metavar="PATH",
    default=None,
    help=N_("DuckDB file of the view (default: beside the store, or $RUMMY_LEDGER_ANALYTICS)."),
)
@click.option("--no-update", is_flag=True, help=N_("Use the view as it is; do not apply new events first."))
@click.pass_obj
def stats_cmd(state: CliState, /, player: str, **kw: Any) -> None:
    filters = Filters(
        variants=kw["variants"],
        rulesets=kw["rulesets"],
        tournaments=kw["tournaments"],
        since=_date(kw["since"]),
        until=_date(kw["until"]),
        opponents=kw["opponents"],
    )
    path = kw["analytics"] or analytics_path(state.db)
    if not kw["no_update"]:
        run_update(state.app(), path)
    con = open_duckdb(path, read_only=True, wait=default_wait())
    try:
        found = player_stats(con, player, filters, by_turn=kw["by_turn"])
    finally:
        con.close()
    tr = translations(kw["lang"]) if kw["lang"] else state.tr
    if not found:
        raise LedgerError(
            tr.gettext("no games of %(player)s in the analytics view with these filters") % {"player": player}
        )
    if kw["as_json"]:
        click.echo(json.dumps(stats_json(player, filters, kw["by_turn"], found), ensure_ascii=False))
        return
    for block in found:
        _print_variant(tr, player, block, kw["by_turn"])


def stats_json(player: str, filters: Filters, by_turn: int, found: list[VariantStats]) -> dict[str, Any]:
    """The ``--json`` object (module docstring)."""
    chosen = {k: (v.isoformat() if hasattr(v, "isoformat") else list(v)) for k, v in _filters(filters).items()}
    return {
        "player": player,
        "filters": chosen,
        "by_turn": by_turn,
        "variants": [
            {
                "variant": b.variant,
                "player": _rounded(b.player),
                "field": _rounded(b.field),
                "findings": [{**f, "per_100_turns": _round(f["per_100_turns"])} for f in b.findings],
            }
            for b in found
        ],
    }


def _filters(filters: Filters) -> dict[str, Any]:
    return {
        k: v
        for k, v in (
            ("variants", filters.variants),
            ("rulesets", filters.rulesets),
            ("tournaments", filters.tournaments),
            ("since", filters.since),
            ("until", filters.until),
            ("opponents", filters.opponents),
        )
        if v
    }


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def _rounded(values: dict[str, Any]) -> dict[str, Any]:
    return {k: _round(v) for k, v in values.items()}


def _print_variant(tr: Any, player: str, block: VariantStats, by_turn: int) -> None:
    _ = tr.gettext
    click.echo(_("statistics of %(player)s: %(variant)s") % {"player": player, "variant": block.variant})
    table = Table()
    table.add_column(_("statistic"))
    table.add_column(Text(player), justify="right")
    table.add_column(_("field"), justify="right")
    for stat in stats_of(block.variant):
        table.add_row(
            Text(stat_label(tr, stat, by_turn)),
            cell(stat, block.player.get(stat.key)),
            cell(stat, block.field.get(stat.key)),
        )
    console().print(table)
    if block.findings:
        rules = ", ".join(f"{f['rule']} {f['findings']} ({f['per_100_turns'] or 0:.2f})" for f in block.findings)
        click.echo(_("findings by rule (per 100 turns): %(rules)s") % {"rules": rules})


def register(cli_group: click.Group) -> None:
    """Add ``stats`` to the ``rummy-ledger`` group."""
    cli_group.add_command(stats_cmd)


__all__ = ["register", "stats_json"]
