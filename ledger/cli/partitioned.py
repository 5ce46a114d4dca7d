"""``export --format parquet --partition variant,month --out DIR``: the Hive-partitioned, incremental export.

The option is one of ``export``'s (:mod:`ledger.cli.analytics`);
:func:`export_or_partitioned` runs the partitioned export when it is given
(:func:`ledger.projections.partitioned.export_partitioned`: one dataset per
table under ``DIR/<table>/``, a manifest of game versions, only the changed
partitions rewritten) and the one-file-per-table export otherwise. It prints
one line on stderr: games chosen, new or changed, partitions rewritten,
removed and kept. ``--partition`` with ``--format csv``/``jsonl`` is a usage
error (exit 2), and so is an output folder partitioned by other keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ledger.cli.context import tr_of
from ledger.cli.view_update import run_update, view_path
from ledger.i18n import N_
from ledger.projections.export import Selection
from ledger.projections.partitioned import PartitionError, export_partitioned, parse_keys


def _keys(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    try:
        return parse_keys(value)
    except PartitionError:
        raise click.BadParameter(
            tr_of().gettext("give variant, month or variant,month (comma-separated, each once)")
        ) from None


PARTITION_OPTION = click.option(
    "--partition",
    "partition",
    metavar="KEYS",
    default=None,
    callback=_keys,
    help=N_(
        "Parquet only: a Hive-partitioned dataset by these keys (variant, month), one folder per table; "
        "a later run rewrites only the partitions whose games changed."
    ),
)


def export_or_partitioned(ctx: click.Context, kw: dict[str, Any], export: Callable[..., None]) -> None:
    """``export``'s table body: ``export(ctx, **kw)`` without ``--partition``, else the partitioned export."""
    keys = kw.pop("partition", None)
    if keys is None:
        export(ctx, **kw)
        return
    from ledger.projections.duckdb_recorder import default_wait, open_duckdb

    tr = tr_of(ctx)
    if kw["fmt"] not in (None, "parquet"):
        raise click.UsageError(tr.gettext("--partition writes Parquet: leave out --format or give --format parquet"))
    if kw["out"] is None:
        raise click.UsageError(tr.gettext("--out DIR is required for a table export"))
    if bool(kw["games"]) == kw["all_games"]:
        raise click.UsageError(tr.gettext("name the games to export, or pass --all"))
    path = view_path(ctx, kw["analytics"])
    if not kw["no_update"]:
        run_update(ctx.obj.app(), path, wait=kw["wait"])
    selection = Selection(
        games=kw["games"],
        variants=kw["variants"],
        since=kw["since"].date() if kw["since"] else None,
        until=kw["until"].date() if kw["until"] else None,
        tournaments=kw["tournaments"],
        players=kw["players"],
    )
    wait = kw["wait"]
    con = open_duckdb(path, read_only=True, wait=default_wait() if wait is None else wait)
    try:
        result = export_partitioned(con, kw["out"], keys, selection)
    finally:
        con.close()
    click.echo(
        tr.gettext(
            "exported %(games)s games to %(out)s partitioned by %(keys)s: %(changed)s new or changed, "
            "%(dropped)s dropped; %(rewritten)s partitions written, %(removed)s removed, %(kept)s unchanged"
        )
        % {
            "games": result.games,
            "out": kw["out"],
            "keys": ",".join(keys),
            "changed": result.changed,
            "dropped": result.dropped,
            "rewritten": len(result.rewritten),
            "removed": len(result.removed),
            "kept": result.kept,
        },
        err=True,
    )


__all__ = ["PARTITION_OPTION", "export_or_partitioned"]
