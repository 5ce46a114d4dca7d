"""``python -m ledger.projections [--db PATH|URL] [--analytics PATH] [--rebuild] [--batch N] [--wait S]``.

Brings the analytics view up to date without the full CLI (cron jobs,
workers). Prints ``N events applied, G games (re)built; view PATH at event ID``;
exit status 2 with one line on stderr when the view or the store cannot be opened.
"""

from __future__ import annotations

import sys

import click

from ledger.errors import LedgerError
from ledger.projections.analytics import DEFAULT_BATCH, analytics_path, update
from ledger.store.application import open_app


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", default=None, metavar="PATH|URL", help="The store (as rummy-ledger --db).")
@click.option("--analytics", default=None, metavar="PATH", help="The DuckDB file (default: beside the store).")
@click.option("--rebuild", is_flag=True, help="Drop the view and build it again.")
@click.option(
    "--batch", type=click.IntRange(1), default=DEFAULT_BATCH, show_default=True, help="Events per transaction."
)
@click.option("--wait", type=float, default=None, help="Seconds to wait for another process using the view.")
def main(db: str | None, analytics: str | None, rebuild: bool, batch: int, wait: float | None) -> None:
    """Apply the store's new events to the analytics view."""
    path = analytics or analytics_path(db)
    app = open_app(db)
    try:
        result = update(app, path, batch_size=batch, wait=wait, rebuild=rebuild)
    except LedgerError as exc:
        click.echo(f"rummy-ledger: error: {exc}", err=True)
        sys.exit(2)
    finally:
        app.close()
    click.echo(
        f"{result.notifications} events applied, {result.games} games (re)built; view {path} at event "
        f"{result.position or 0}"
    )


if __name__ == "__main__":
    main(prog_name="python -m ledger.projections")
