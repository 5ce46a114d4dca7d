"""Command bodies of the analytics view: ``analytics update``, ``export``, ``query``.

:func:`register` adds them to the ``rummy-ledger`` click group (:mod:`ledger.cli`):

- ``rummy-ledger analytics update [--rebuild] [--jobs N]``: bring the DuckDB view up to date (the
  games folded by N worker processes, default the usable cores);
- ``rummy-ledger analytics export`` and ``rummy-ledger export --all|GAME... --format
  parquet|csv|jsonl --out DIR`` (with ``--variant``, ``--since``, ``--until``, ``--tournament``,
  ``--player``): one file per table (``--partition``: a Hive dataset, :mod:`ledger.cli.partitioned`).
  The top-level ``export GAME [-o FILE]`` without ``--format``/``--out``/``--all`` still writes the
  game's record (the command it replaces is called);
- ``rummy-ledger query "SQL" [--csv|--json] [--max-rows N] [--timeout SECONDS]`` (also
  ``analytics query``): rows streamed from DuckDB, a runaway query stopped;
- ``rummy-ledger analytics tables``: the tables and columns with units.

:func:`update_after_import` is what ``import`` calls unless ``--no-analytics``. The view is
:func:`ledger.projections.analytics_path` of the store unless ``--analytics PATH`` (or
``RUMMY_LEDGER_ANALYTICS``) says otherwise. Errors are :class:`ledger.errors.LedgerError`
subclasses, which the CLI group turns into one line on stderr and exit status 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ledger.cli.context import TranslatedCommand, TranslatedGroup, paragraphs, tr_of
from ledger.cli.histories import POV_OPTION, text_export
from ledger.cli.partitioned import PARTITION_OPTION, export_or_partitioned
from ledger.cli.query import LIMIT_OPTIONS, require_statement, run_sql
from ledger.cli.view_update import err_console, run_update, view_path
from ledger.errors import LedgerError
from ledger.i18n import N_
from ledger.params import AsciiInt, VariantChoice
from ledger.projections import analytics_path
from ledger.projections.analytics import DEFAULT_BATCH, UpdateResult
from ledger.projections.duckdb_recorder import AnalyticsBusyError, AnalyticsError, default_wait, open_duckdb
from ledger.projections.export import FORMATS, Selection, export_tables, select_games
from ledger.projections.tables import TABLES, markdown
from ledger.workers import usable_cores


def _summary(result: UpdateResult) -> str:
    _ = tr_of().gettext
    skipped = "".join(
        "\n" + _("analytics: game %(game)s skipped: %(why)s") % {"game": game, "why": why}
        for game, why in result.skipped
    )
    return _counts(result) + skipped


def _counts(result: UpdateResult) -> str:
    tr = tr_of()
    _, ngettext = tr.gettext, tr.ngettext
    if not result.notifications:
        return _("analytics view %(path)s is up to date (event %(position)s)") % {
            "path": result.path,
            "position": result.position or 0,
        }
    n, games, batches = result.notifications, result.games, result.batches  # games: all the view had behind
    text = _("analytics view %(path)s: %(games)s updated (%(events)s in %(transactions)s)") % {
        "path": result.path,
        "events": ngettext("%(num)s event applied", "%(num)s events applied", n) % {"num": n},
        "games": ngettext("%(num)s game", "%(num)s games", games) % {"num": games},
        "transactions": ngettext("%(num)s transaction", "%(num)s transactions", batches) % {"num": batches},
    }
    return _("%(summary)s (rebuilt from scratch)") % {"summary": text} if result.rebuilt else text


def update_after_import(
    app: Any, db_path: str | None, *, analytics: str | None = None, quiet: bool = False, jobs: int = 1
) -> UpdateResult | None:
    """Bring the analytics view of the store ``db_path`` (the ``--db`` value;
    None: the configured store) up to date after an import; ``analytics``
    overrides the view's path; ``jobs``: worker processes folding the games
    (the import's ``--jobs``). Prints one line on stderr. Returns None (with a
    warning, the import stands) when another process holds the view or it
    cannot be written.
    """
    path = analytics or analytics_path(db_path)
    try:
        result = run_update(app, path, jobs=jobs)
    except AnalyticsError as exc:
        click.echo(
            tr_of().gettext("rummy-ledger: warning: analytics not updated: %(reason)s") % {"reason": exc.text(tr_of())},
            err=True,
        )
        return None
    if not quiet:
        click.echo(_summary(result), err=True)
    return result


# --- options shared by the commands ----------------------------------------------

_analytics_opt = click.option(
    "--analytics",
    "analytics",
    metavar="PATH",
    default=None,
    help=N_("DuckDB file of the view (default: beside the store, or $RUMMY_LEDGER_ANALYTICS)."),
)
_wait_opt = click.option(
    "--wait",
    type=float,
    default=None,
    metavar="SECONDS",
    help=N_("Wait this long for another process using the view (default $RUMMY_LEDGER_ANALYTICS_WAIT or 10)."),
)
_no_update_opt = click.option(
    "--no-update", is_flag=True, help=N_("Use the view as it is; do not apply new events first.")
)


def _export_options(f: Callable[..., Any], formats: tuple[str, ...] = tuple(FORMATS)) -> Callable[..., Any]:
    for option in reversed(
        (
            click.argument("games", nargs=-1),
            click.option("--all", "all_games", is_flag=True, help=N_("Every game (the filters still apply).")),
            click.option(
                "--format",
                "fmt",
                type=click.Choice(list(formats)),
                default=None,
                help=N_("File format (default parquet)."),
            ),
            click.option(
                "--out",
                type=click.Path(file_okay=False, path_type=Path),
                default=None,
                help=N_("Folder for the files (one per table)."),
            ),
            click.option(
                "--variant",
                "variants",
                multiple=True,
                type=VariantChoice(),
                help=N_("Only games of this variant (repeatable)."),
            ),
            click.option(
                "--since",
                type=click.DateTime(["%Y-%m-%d"]),
                default=None,
                metavar="DATE",
                help=N_("Only games on or after this date (YYYY-MM-DD)."),
            ),
            click.option(
                "--until",
                type=click.DateTime(["%Y-%m-%d"]),
                default=None,
                metavar="DATE",
                help=N_("Only games on or before this date."),
            ),
            click.option(
                "--tournament",
                "tournaments",
                multiple=True,
                help=N_("Only games of this tournament (meta.tournament; repeatable)."),
            ),
            click.option(
                "--player", "players", multiple=True, help=N_("Only games with a player of this name (repeatable).")
            ),
            _analytics_opt,
            _wait_opt,
            _no_update_opt,
            PARTITION_OPTION,
        )
    ):
        f = option(f)
    return f


def _export(
    ctx: click.Context,
    games: tuple[str, ...],
    all_games: bool,
    fmt: str | None,
    out: Path | None,
    variants: tuple[str, ...],
    since: datetime | None,
    until: datetime | None,
    tournaments: tuple[str, ...],
    players: tuple[str, ...],
    analytics: str | None,
    wait: float | None,
    no_update: bool,
) -> None:
    if out is None:
        raise click.UsageError(tr_of(ctx).gettext("--out DIR is required for a table export"))
    if bool(games) == all_games:
        raise click.UsageError(tr_of(ctx).gettext("name the games to export, or pass --all"))
    path = view_path(ctx, analytics)
    if not no_update:
        run_update(ctx.obj.app(), path, wait=wait)
    selection = Selection(
        games=games,
        variants=variants,
        since=since.date() if since else None,
        until=until.date() if until else None,
        tournaments=tournaments,
        players=players,
    )
    fmt = fmt or "parquet"
    con = open_duckdb(path, read_only=True, wait=default_wait() if wait is None else wait)
    try:
        if games:
            missing = sorted(set(games) - set(select_games(con, Selection(games=games))))
            if missing:
                _refuse_missing(ctx, missing)
        with _progress_tables(len(TABLES)) as advance:
            counts = export_tables(con, out, fmt, selection, progress=advance)
    finally:
        con.close()
    ext = FORMATS[fmt][0]
    click.echo(
        tr_of(ctx).ngettext(
            "exported %(num)s game to %(out)s: %(files)s",
            "exported %(num)s games to %(out)s: %(files)s",
            counts["games"],
        )
        % {"num": counts["games"], "out": out, "files": ", ".join(f"{t}.{ext} {n}" for t, n in counts.items())},
        err=True,
    )


def _refuse_missing(ctx: click.Context, missing: list[str]) -> None:
    """Games named to ``export --format`` that the view lacks, refused as every command refuses (exit 2): one
    the store lacks too by :class:`~ledger.errors.GameNotFoundError` ("did you mean"), else "not in the view"."""
    app = ctx.obj.app()
    for game in missing:
        if not app.has_game(game):
            raise app.not_found(game)
    raise LedgerError(
        tr_of(ctx).gettext("not in the analytics view: %(games)s (import them, or run `analytics update`)")
        % {"games": ", ".join(missing)}
    )


@contextmanager
def _progress_tables(n: int) -> Iterator[Callable[[str, int], None] | None]:
    console = err_console()
    if not console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn("export {task.fields[table]}"), BarColumn(), MofNCompleteColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task("export", total=n, table="")

        def advance(table: str, rows: int) -> None:
            shown = tr_of().ngettext("%(table)s (%(num)s row)", "%(table)s (%(num)s rows)", rows)
            bar.update(task, advance=1, table=shown % {"table": table, "num": rows})

        yield advance


def _query(
    ctx: click.Context,
    sql: str,
    as_csv: bool,
    as_json: bool,
    analytics: str | None,
    wait: float | None,
    no_update: bool,
    max_rows: int,
    timeout: float,
    memory_limit: int,
    max_cell: int,
    max_output: int,
) -> None:
    if as_csv and as_json:
        raise click.UsageError(tr_of(ctx).gettext("choose one of --csv and --json"))
    require_statement(sql)
    path = view_path(ctx, analytics)
    if not no_update:
        run_update(ctx.obj.app(), path, wait=wait)
    con = open_duckdb(
        path, read_only=True, wait=default_wait() if wait is None else wait, sandbox=True, memory_limit=memory_limit
    )
    limits = {"max_cell": max_cell, "max_output": max_output, "memory_limit": memory_limit}
    run_sql(con, sql, as_csv=as_csv, as_json=as_json, max_rows=max_rows, timeout=timeout, **limits)


_query_args = (
    click.argument("sql"),
    click.option("--csv", "as_csv", is_flag=True, help=N_("CSV with a header row.")),
    click.option("--json", "as_json", is_flag=True, help=N_("One JSON object per row.")),
    _analytics_opt,
    _wait_opt,
    _no_update_opt,
    *LIMIT_OPTIONS,
)


def _with(options: tuple[Callable[..., Any], ...]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            f = option(f)
        return f

    return wrap


def _query_command(name: str) -> click.Command:
    @click.command(
        name,
        cls=TranslatedCommand,
        help=paragraphs(
            N_("Run SQL against the analytics view and print a table (or --csv/--json)."),
            N_(
                "Tables: games, players, hands, events, melds, scores, findings (`rummy-ledger analytics "
                "tables` lists the columns). The view is brought up to date first unless --no-update; it is "
                "opened read-only."
            ),
        ),
    )
    @_with(_query_args)
    @click.pass_context
    def query_cmd(ctx: click.Context, /, **kw: Any) -> None:
        _query(ctx, **kw)

    return query_cmd


def _analytics_group() -> click.Group:
    @click.group("analytics", cls=TranslatedGroup, help=N_("The DuckDB analytics view: update, export, query."))
    def analytics_group() -> None:
        pass

    @analytics_group.command(
        "update",
        help=N_("Apply the store's new events to the analytics view (resumes where the last run stopped)."),
    )
    @click.option("--rebuild", is_flag=True, help=N_("Drop the view and build it again from the first event."))
    @click.option(
        "--batch", type=AsciiInt(min=1), default=DEFAULT_BATCH, show_default=True, help=N_("Events per transaction.")
    )
    @click.option(
        "--jobs",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help=N_(
            "Worker processes that fold the games while this one writes them, in order "
            "(default: the usable cores; 1: this process alone)."
        ),
    )
    @_analytics_opt
    @_wait_opt
    @click.pass_context
    def update_cmd(
        ctx: click.Context, rebuild: bool, batch: int, jobs: int | None, analytics: str | None, wait: float | None
    ) -> None:
        path = view_path(ctx, analytics)
        jobs = usable_cores() if jobs is None else jobs
        click.echo(_summary(run_update(ctx.obj.app(), path, rebuild=rebuild, batch=batch, wait=wait, jobs=jobs)))

    @analytics_group.command(
        "export",
        help=N_("Export the view: one file per table (games, players, hands, events, melds, scores, findings)."),
    )
    @_export_options
    @click.pass_context
    def export_cmd(ctx: click.Context, /, **kw: Any) -> None:
        export_or_partitioned(ctx, kw, _export)

    @analytics_group.command("tables", help=N_("Print the tables and their columns (Markdown)."))
    def tables_cmd() -> None:
        click.echo(markdown())

    analytics_group.add_command(_query_command("query"))
    return analytics_group


#: the top-level ``export``'s options of a record export (kept when it replaces the record ``export``)
_RECORD_OPTIONS = (
    click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=N_("Record export: write to FILE instead of stdout."),
    ),
    click.option(
        "--with-journal",
        is_flag=True,
        help=N_("Record export: precede each event with a // journal comment (who appended it, when)."),
    ),
)


def _merged_export(original: click.Command | None) -> click.Command:
    """The top-level ``export``: tables when ``--format``/``--out``/``--all`` is
    given, else the ``original`` command (one game's record)."""
    record_option = _RECORD_OPTIONS if original is not None else ()

    @click.command(
        "export",
        cls=TranslatedCommand,
        help=paragraphs(
            N_(
                "Export a game's record (GAME [-o FILE]), or with --format/--out/--all the analytics "
                "tables, one file per table:"
            ),
            "rummy-ledger export --all --format parquet --out DIR [--partition variant,month] [--variant V] "
            "[--since D] [--until D] [--tournament T] [--player NAME]",
        ),
    )
    @partial(_export_options, formats=(*FORMATS, "text"))
    @_with((*record_option, POV_OPTION))
    @click.pass_context
    def export_cmd(
        ctx: click.Context, /, output: Path | None = None, with_journal: bool = False, pov: str | None = None, **kw: Any
    ) -> None:
        if kw["fmt"] == "text" or pov is not None:
            text_export(ctx, kw, output, with_journal, pov)
            return
        tables = kw["all_games"] or kw["fmt"] is not None or kw["out"] is not None
        if tables or original is None:
            if output is not None or with_journal:
                raise click.UsageError(
                    tr_of(ctx).gettext(
                        "-o/--output and --with-journal are for a record export; a table export writes into --out DIR"
                    )
                )
            export_or_partitioned(ctx, kw, _export)
            return
        filters = any(kw[k] for k in ("variants", "since", "until", "tournaments", "players"))
        if len(kw["games"]) != 1 or filters:
            raise click.UsageError(
                tr_of(ctx).gettext("a record export takes one GAME; for tables pass --format and --out DIR")
            )
        ctx.invoke(original, game=kw["games"][0], output=output, with_journal=with_journal)

    export_cmd.record_export = original  # type: ignore[attr-defined]  # our mark on the click.Command, read back by register()
    return export_cmd


def register(cli_group: click.Group) -> None:
    """Add the analytics commands to the ``rummy-ledger`` group: ``analytics``
    (``update``, ``export``, ``query``, ``tables``), ``query`` and the merged
    ``export`` (keeps the group's existing record ``export``)."""
    cli_group.add_command(_analytics_group())
    cli_group.add_command(_query_command("query"))
    existing = cli_group.commands.get("export")
    original = getattr(existing, "record_export", existing)  # registering twice keeps the record export
    cli_group.add_command(_merged_export(original))


__all__ = ["register", "run_update", "update_after_import", "AnalyticsBusyError"]
