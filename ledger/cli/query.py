"""``rummy-ledger query "SQL"``: a user's SQL run on the analytics view, its rows printed, within bounds.

The view is opened read-only and sandboxed by the caller
(:func:`ledger.projections.open_duckdb` with ``sandbox=True`` and DuckDB's
``memory_limit`` of ``--memory-limit``; README "Analytics"); here the rows
are written as DuckDB streams them (JSON lines, CSV, or a table of the first
``--max-rows`` with the rest counted), so a result of millions of rows never
sits in memory. Every bound is on hostile valid SQL too (issue 27, defect 2):

- memory: DuckDB's ``memory_limit``, and the process's data size
  (``RLIMIT_DATA``) capped at what it holds plus the limit plus
  :data:`HEADROOM`, because some functions (``repeat``) build a string
  outside DuckDB's buffer manager (:func:`limit_memory`);
- time: ``--timeout`` covers the query and its output: at the deadline
  DuckDB is interrupted (:meth:`duckdb.DuckDBPyConnection.interrupt`, from
  a timer thread) and the printing stops; a process still running
  :data:`GRACE` seconds later (a function DuckDB cannot interrupt) says so
  and exits 2 (:class:`Deadline`);
- output: a table cell shows at most ``--max-cell`` characters (the rest
  counted), and the output stops with exit 2 past ``--max-output`` bytes.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import resource
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
from ledger.i18n import N_
from ledger.params import AsciiInt

#: ``query --timeout``'s default, seconds: a runaway query (``range(1000000000000)``) stops with exit 2
DEFAULT_TIMEOUT = 60.0
#: rows fetched from DuckDB at a time by ``query`` (its output is written as they arrive)
FETCH_ROWS = 2_000
#: ``--memory-limit``'s default: DuckDB's own default is 80 % of the machine's memory
DEFAULT_MEMORY = "512MB"
#: the process's data beyond what it holds and the DuckDB limit (Python's copy of a result batch, the table)
HEADROOM = 256 * 1024**2
#: ``--max-cell``'s default, characters of one table cell (rich lays out a 10 MB cell for seconds)
DEFAULT_MAX_CELL = 1_000
#: ``--max-output``'s default, bytes written
DEFAULT_MAX_OUTPUT = "100MB"
#: seconds past ``--timeout`` a query DuckDB cannot interrupt is given before the process exits
GRACE = 1.0
#: whether :class:`Deadline` may end the process: the console script's (:mod:`ledger.console`) only,
#: never a process that runs the CLI inside itself (click's test runner)
HARD_EXIT = False
_SIZE = re.compile(r"(\d+)\s*(B|KB|MB|GB|KIB|MIB|GIB)?", re.I)
_UNITS = {"B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3, "KIB": 1024, "MIB": 1024**2, "GIB": 1024**3}


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


def parse_size(text: str) -> int:
    """Bytes of a size such as ``512MB``, ``1GB``, ``64KiB`` or ``1000`` (a
    DuckDB ``memory_limit``); raises :class:`click.BadParameter`.

    >>> parse_size("512MB"), parse_size("1 GiB"), parse_size("100")
    (512000000, 1073741824, 100)
    """
    m = _SIZE.fullmatch(text.strip())
    if m is None or int(m.group(1)) <= 0:
        raise click.BadParameter(tr_of().gettext("%(text)s is not a size (e.g. 512MB, 1GB)") % {"text": text[:40]})
    return int(m.group(1)) * _UNITS[(m.group(2) or "B").upper()]


def _size(_ctx: click.Context, _param: click.Parameter, value: str) -> int:
    return parse_size(value)


#: ``query --timeout``'s largest value, seconds (a day: a timer beyond the platform's time range fails)
MAX_TIMEOUT = 86_400.0


def _a_number(_ctx: click.Context, _param: click.Parameter, value: float) -> float:
    """``--timeout nan`` passes every range check: refused here as click refuses -1."""
    if math.isnan(value):
        raise click.BadParameter(tr_of().gettext("nan is not a number of seconds"))
    return value


#: the options that bound ``query`` (ledger.cli.analytics adds them after its own)
LIMIT_OPTIONS = (
    click.option(
        "--max-rows",
        type=AsciiInt(min=1),
        default=200,
        show_default=True,
        help=N_("Rows shown in the table (all rows with --csv/--json)."),
    ),
    click.option(
        "--timeout",
        type=click.FloatRange(min=0, max=MAX_TIMEOUT),
        callback=_a_number,
        default=DEFAULT_TIMEOUT,
        show_default=True,
        metavar="SECONDS",
        help=N_("Stop the query and its output after this many seconds (0: no limit)."),
    ),
    click.option(
        "--memory-limit",
        default=DEFAULT_MEMORY,
        show_default=True,
        callback=_size,
        metavar="SIZE",
        help=N_("Stop a query that needs more memory than this (DuckDB's memory_limit; e.g. 256MB, 2GB)."),
    ),
    click.option(
        "--max-cell",
        type=AsciiInt(min=1),
        default=DEFAULT_MAX_CELL,
        show_default=True,
        metavar="CHARS",
        help=N_("Characters of a cell shown in the table (the rest counted; --csv/--json write cells whole)."),
    ),
    click.option(
        "--max-output",
        default=DEFAULT_MAX_OUTPUT,
        show_default=True,
        callback=_size,
        metavar="SIZE",
        help=N_("Stop with exit 2 once the output passes this size."),
    ),
)


def limit_memory(memory_limit: int) -> tuple[int, int] | None:
    """Cap this process's data size (``RLIMIT_DATA``, soft limit only) at
    what it holds now (``VmData``) plus ``memory_limit`` plus
    :data:`HEADROOM`: DuckDB's ``memory_limit`` does not cover a string a
    function builds outside its buffer manager (``repeat('ab', 500000000)``
    peaked at 2 GB under a 256 MB limit); past the cap an allocation fails
    and DuckDB reports it as out of memory. Returns the limits it replaced
    (``resource.setrlimit`` them back when the query is done: a process
    that goes on, a test run, keeps its own), or None where the platform
    has no such limit or no ``/proc`` (nothing changed)."""
    try:
        status = open("/proc/self/status", encoding="ascii").read()  # noqa: SIM115 - one read
    except OSError:
        return None
    m = re.search(r"^VmData:\s+(\d+) kB", status, re.M)
    if m is None:
        return None
    want = int(m.group(1)) * 1024 + memory_limit + HEADROOM
    before = resource.getrlimit(resource.RLIMIT_DATA)
    soft, hard = before
    if soft != resource.RLIM_INFINITY:
        want = min(want, soft)
    resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
    return before


class Deadline:
    """``--timeout`` over a query and its output: at ``timeout`` seconds
    (0: none) DuckDB is interrupted from a timer thread and :attr:`expired`
    is set (the printing loops check it); :data:`GRACE` seconds later a
    process still running (a function DuckDB does not interrupt, a cell
    being laid out) writes ``message`` and exits 2 (with :data:`HARD_EXIT`:
    the console script; else it interrupts DuckDB once more)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, timeout: float, message: str) -> None:
        self.expired = threading.Event()
        self._con = con
        self._message = message
        self._timers = (
            [threading.Timer(timeout, self._fire), threading.Timer(timeout + GRACE, self._exit)] if timeout > 0 else []
        )
        for t in self._timers:
            t.daemon = True
            t.start()

    def _fire(self) -> None:
        self.expired.set()
        self._con.interrupt()

    def _exit(self) -> None:
        if not HARD_EXIT:
            self._con.interrupt()
            return
        sys.stderr.write(f"Error: {self._message}\n")
        sys.stderr.flush()
        os._exit(2)

    def check(self) -> None:
        """Raise :class:`duckdb.InterruptException` once the deadline has passed."""
        if self.expired.is_set():
            raise duckdb.InterruptException("deadline")

    def cancel(self) -> None:
        for t in self._timers:
            t.cancel()


class _Output:
    """Writes the output, counting bytes: past ``limit`` it raises :class:`QueryError`."""

    def __init__(self, limit: int, deadline: Deadline) -> None:
        self.limit = limit
        self.written = 0
        self.deadline = deadline

    def write(self, text: str) -> None:
        self.deadline.check()
        self.written += len(text.encode("utf-8", "surrogatepass"))
        if self.written > self.limit:
            raise QueryError(
                tr_of().gettext("output stopped after %(bytes)s bytes (--max-output SIZE)") % {"bytes": self.limit}
            )
        sys.stdout.write(text)

    def flush(self) -> None:
        sys.stdout.flush()


def run_sql(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    *,
    as_csv: bool,
    as_json: bool,
    max_rows: int,
    timeout: float,
    max_cell: int = DEFAULT_MAX_CELL,
    max_output: int = 100 * 1000**2,
    memory_limit: int | None = None,
) -> None:
    """Run a user's ``sql`` on ``con`` (the view opened read-only and sandboxed,
    :func:`ledger.projections.open_duckdb`) and print its rows; close ``con``.

    A query still running, or printing, after ``timeout`` seconds (0: no
    limit) is stopped (:class:`Deadline`); table cells are cut at
    ``max_cell`` characters and the output at ``max_output`` bytes; with
    ``memory_limit`` (bytes) the process's data is capped
    (:func:`limit_memory`). Raises :class:`QueryError` (exit status 2) for a
    query DuckDB refuses, that ran out of time or memory, or whose output
    is too long."""
    tr = tr_of()
    stopped = tr.gettext("query stopped after %(seconds)s s (--timeout SECONDS; 0 for none)") % {
        "seconds": f"{timeout:g}"
    }
    before = limit_memory(memory_limit) if memory_limit is not None else None
    deadline = Deadline(con, timeout, stopped)
    try:
        _run_query(con, sql, as_csv, as_json, max_rows, max_cell, _Output(max_output, deadline))
        sys.stdout.flush()
    except duckdb.InterruptException:
        raise QueryError(stopped) from None
    except (duckdb.OutOfMemoryException, MemoryError) as exc:
        raise QueryError(
            tr.gettext("query stopped: it needs more memory than --memory-limit allows (%(error)s)")
            % {"error": str(exc).split("\n", 1)[0][:200]}
        ) from None
    except duckdb.Error as exc:
        raise QueryError(tr.gettext("query failed: %(error)s") % {"error": _error_text(exc)}) from None
    finally:
        deadline.cancel()
        con.close()
        if before is not None:
            resource.setrlimit(resource.RLIMIT_DATA, before)


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


def _run_query(
    con: duckdb.DuckDBPyConnection, sql: str, as_csv: bool, as_json: bool, max_rows: int, max_cell: int, out: _Output
) -> None:
    """Run ``sql`` and write its rows as they arrive: JSON lines, CSV, or a
    table of the first ``max_rows`` (the others counted, not kept)."""
    cur = con.execute(sql)
    if cur.description is None:
        return
    names = [d[0] for d in cur.description]
    if as_json:
        for batch in _batches(cur):
            for row in batch:
                out.write(json.dumps(dict(zip(names, row)), ensure_ascii=False, default=_jsonable) + "\n")
        return
    if as_csv:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(names)
        for batch in _batches(cur):
            for row in batch:
                writer.writerow([_cell(v) if isinstance(v, (list, dict)) else v for v in row])
        return
    rows: list[Any] = []
    total = 0
    for batch in _batches(cur):
        out.deadline.check()
        total += len(batch)
        rows.extend([_cut(v, max_cell) for v in r] for r in batch[: max(0, max_rows - len(rows))])
    _print_table(names, rows, total, max_rows, out)


def _cut(value: Any, max_cell: int) -> Any:
    """``value`` as it is, or its text cut at ``max_cell`` characters with
    the rest counted (a number stays a number: it is right-aligned)."""
    if value is None or isinstance(value, (int, float)):
        return value
    text = _cell(value)
    if len(text) <= max_cell:
        return text
    return text[:max_cell] + tr_of().gettext("… (%(num)s more characters)") % {"num": len(text) - max_cell}


def _print_table(names: list[str], rows: list[Any], total: int, max_rows: int, out: _Output) -> None:
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
    console = Console(
        file=out,  # type: ignore[arg-type]  # a write() is all rich needs
        width=None if sys.stdout.isatty() else 200,
        force_terminal=sys.stdout.isatty(),
        highlight=False,
        markup=False,
        emoji=False,
    )
    console.print(table)
    # the count on its own line under the table (a caption would wrap at a narrow table's width)
    tr = tr_of()
    counted = tr.ngettext("%(num)s row", "%(num)s rows", total) % {"num": total}
    if total > max_rows:
        counted = tr.gettext("%(rows)s (first %(shown)s shown)") % {"rows": counted, "shown": max_rows}
    out.write(counted + "\n")


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


__all__ = [
    "DEFAULT_TIMEOUT",
    "FETCH_ROWS",
    "LIMIT_OPTIONS",
    "Deadline",
    "QueryError",
    "limit_memory",
    "parse_size",
    "require_statement",
    "run_sql",
]
