"""``rummy-ledger query "SQL"``: a user's SQL run on the analytics view, its rows printed.

The view is opened read-only and sandboxed by the caller
(:func:`ledger.projections.open_duckdb` with ``sandbox=True``; README
"Analytics"); here the rows are written as DuckDB streams them (JSON lines,
CSV, or a table of the first ``--max-rows`` with the rest counted), so a
result of millions of rows never sits in memory, and a query running past
its ``--timeout`` is interrupted (:meth:`duckdb.DuckDBPyConnection.interrupt`).
"""

from __future__ import annotations

import csv
import json
import re
import sys
import threading
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import click
import duckdb
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ledger.cli.context import tr_of

#: ``query --timeout``'s default, seconds: a runaway query (``range(1000000000000)``) stops with exit 2
DEFAULT_TIMEOUT = 60.0
#: rows fetched from DuckDB at a time by ``query`` (its output is written as they arrive)
FETCH_ROWS = 2_000


class QueryError(click.ClickException):
    """A query DuckDB rejects: exit status 2, bad input, as everywhere in the CLI."""

    exit_code = 2


def require_statement(sql: str) -> None:
    """Refuse ``sql`` that holds no statement (blanks, comments, ``;`` only):
    :class:`click.UsageError`, exit status 2. SQL DuckDB cannot parse is left
    to :func:`run_sql`, which reports DuckDB's error."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error:
        return
    if not statements:
        raise click.UsageError(
            tr_of().gettext('no SQL statement to run (e.g. rummy-ledger query "SELECT count(*) FROM games")')
        )


def run_sql(
    con: duckdb.DuckDBPyConnection, sql: str, *, as_csv: bool, as_json: bool, max_rows: int, timeout: float
) -> None:
    """Run a user's ``sql`` on ``con`` (the view opened read-only and sandboxed,
    :func:`ledger.projections.open_duckdb`) and print its rows; close ``con``.

    A query still running after ``timeout`` seconds (0: no limit) is
    interrupted. Raises :class:`QueryError` (exit status 2) for a query DuckDB
    refuses or that ran out of time."""
    timer = threading.Timer(timeout, con.interrupt) if timeout > 0 else None
    try:
        if timer is not None:
            timer.daemon = True
            timer.start()
        _run_query(con, sql, as_csv, as_json, max_rows)
    except duckdb.InterruptException:
        raise QueryError(
            tr_of().gettext("query stopped after %(seconds)s s (--timeout SECONDS; 0 for none)")
            % {"seconds": f"{timeout:g}"}
        ) from None
    except duckdb.Error as exc:
        raise QueryError(tr_of().gettext("query failed: %(error)s") % {"error": _error_text(exc)}) from None
    finally:
        if timer is not None:
            timer.cancel()
        con.close()


_SUGGESTION = re.compile(r'Did you mean "(?P<name>[^"]*)"\?')


def _error_text(exc: duckdb.Error) -> str:
    """DuckDB's error, but a "Did you mean" naming one of DuckDB's own catalog tables (``pg_sequences``
    for ``nosuch``) names the view's tables instead (:data:`ledger.projections.tables.TABLES`)."""
    from ledger.projections.tables import TABLES

    text = str(exc)
    m = _SUGGESTION.search(text)
    if m is None or not isinstance(exc, duckdb.CatalogException) or m.group("name") in TABLES:
        return text
    listed = tr_of().gettext("the view's tables are %(tables)s") % {"tables": ", ".join(TABLES)}
    return text[: m.start()] + listed + text[m.end() :]


def _batches(cur: duckdb.DuckDBPyConnection) -> Iterator[list[Any]]:
    """The result rows in batches of :data:`FETCH_ROWS` (DuckDB streams them: a
    large result never sits in memory whole)."""
    while batch := cur.fetchmany(FETCH_ROWS):
        yield batch


def _run_query(con: duckdb.DuckDBPyConnection, sql: str, as_csv: bool, as_json: bool, max_rows: int) -> None:
    """Run ``sql`` and write its rows as they arrive: JSON lines, CSV, or a
    table of the first ``max_rows`` (the others counted, not kept)."""
    cur = con.execute(sql)
    if cur.description is None:
        return
    names = [d[0] for d in cur.description]
    if as_json:
        for batch in _batches(cur):
            for row in batch:
                click.echo(json.dumps(dict(zip(names, row)), ensure_ascii=False, default=_jsonable))
        return
    if as_csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(names)
        for batch in _batches(cur):
            writer.writerows([[_cell(v) if isinstance(v, (list, dict)) else v for v in row] for row in batch])
        return
    rows: list[Any] = []
    total = 0
    for batch in _batches(cur):
        total += len(batch)
        rows.extend(batch[: max(0, max_rows - len(rows))])
    _print_table(names, rows, total, max_rows)


def _print_table(names: list[str], rows: list[Any], total: int, max_rows: int) -> None:
    """The first ``max_rows`` rows of ``total`` as a table, numbers right-aligned."""
    table = Table()
    for i, name in enumerate(names):
        numeric = bool(rows) and all(
            isinstance(r[i], (int, float)) and not isinstance(r[i], bool) for r in rows if r[i] is not None
        )
        table.add_column(Text(name), justify="right" if numeric else "left", overflow="fold")
    for row in rows:
        table.add_row(*(Text(_cell(v)) for v in row))
    # cells are the view's data (names, messages): printed as they are, no [markup], no :emoji:
    Console(width=None if sys.stdout.isatty() else 200, highlight=False, markup=False, emoji=False).print(table)
    # the count on its own line under the table (a caption would wrap at a narrow table's width)
    tr = tr_of()
    counted = tr.ngettext("%(num)s row", "%(num)s rows", total) % {"num": total}
    if total > max_rows:
        counted = tr.gettext("%(rows)s (first %(shown)s shown)") % {"rows": counted, "shown": max_rows}
    click.echo(counted)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e15 else str(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=_jsonable)
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return str(value)


__all__ = ["DEFAULT_TIMEOUT", "FETCH_ROWS", "QueryError", "require_statement", "run_sql"]
