"""A DuckDB-backed eventsourcing ``TrackingRecorder``: the analytics view's storage.

:class:`DuckDBTrackingRecorder` keeps the tables of
:mod:`ledger.projections.tables` and a ``tracking`` table (one row per
upstream application: the last notification id applied, like eventsourcing's
single-row tracking). :meth:`~DuckDBTrackingRecorder.replace_games` writes a
batch's rows *and* the tracking position in one DuckDB transaction, and
refuses a position that is not past the recorded one
(:class:`eventsourcing.persistence.IntegrityError`), so every notification
is applied exactly once and an interrupted update resumes where it stopped.

Concurrency: DuckDB lets one process open a database file for writing.
Opening waits up to ``wait`` seconds for another process to let go, then
raises :class:`AnalyticsBusyError` naming the file and the holder. Within one
process, connections to the same file share the database; their write
transactions are serialised by a per-file lock, and a batch that finds the
tracking position moved by another update is refused (nothing of it is kept).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import EllipsisType
from typing import Any

import duckdb
import pyarrow as pa
from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder

from ledger.errors import LedgerError
from ledger.projections.stats import create_views
from ledger.projections.tables import SCHEMA_VERSION, TABLES, create_statement, to_arrow


class AnalyticsError(LedgerError, RuntimeError):
    """The analytics view cannot be opened or written."""


class AnalyticsBusyError(AnalyticsError):
    """Another process holds the analytics file (DuckDB allows one writer)."""


#: DuckDB settings of a connection that runs SQL typed by a user (``query``):
#: no file, network or extension access beyond the view itself, and settings
#: that SQL cannot change back (DuckDB's "Securing DuckDB" page)
SANDBOX: dict[str, Any] = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "allow_community_extensions": False,
    "lock_configuration": True,
}


def open_duckdb(
    path: str, *, read_only: bool = False, wait: float = 0.0, sandbox: bool = False, memory_limit: int | None = None
) -> duckdb.DuckDBPyConnection:
    """Connect to the DuckDB file ``path``, waiting up to ``wait`` seconds while
    another process holds it. Raises :class:`AnalyticsBusyError` when it stays
    locked and :class:`AnalyticsError` for other failures (a read-only open of
    a file that does not exist, a file that is not DuckDB).

    ``sandbox``: open with :data:`SANDBOX` (for SQL from a user: no
    ``read_text``/``COPY ... TO``/``ATTACH``/``INSTALL``, no ``SET``);
    ``memory_limit``: DuckDB's ``memory_limit`` in bytes (its default is
    80 % of the machine's memory)."""
    if read_only and path != ":memory:" and not os.path.exists(path):
        raise AnalyticsError(f"analytics view {path} does not exist yet: run `rummy-ledger analytics update`")
    deadline = time.monotonic() + max(wait, 0.0)
    delay = 0.05
    while True:
        try:
            config: dict[str, Any] = dict(SANDBOX) if sandbox else {}
            if memory_limit is not None:
                config["memory_limit"] = f"{memory_limit}B"
            if config:
                return duckdb.connect(path, read_only=read_only, config=config)
            return duckdb.connect(path, read_only=read_only)
        except duckdb.IOException as exc:
            text = str(exc)
            if "lock" not in text.lower():
                raise AnalyticsError(f"analytics view {path}: {text}") from None
            if time.monotonic() >= deadline:
                holder = text.split("Conflicting lock is held in", 1)[-1].split(". See also", 1)[0].strip()
                waited = f" after waiting {wait:g}s" if wait > 0 else ""
                raise AnalyticsBusyError(
                    f"analytics view {path} is in use by another process ({holder}){waited}; "
                    "another `analytics update`, `export` or `query` is running: try again when it ends, or "
                    "pass --wait SECONDS"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.5)
        except duckdb.Error as exc:
            raise AnalyticsError(f"analytics view {path}: {exc}") from None


_FILE_LOCKS: dict[str, threading.Lock] = {}
_FILE_LOCKS_GUARD = threading.Lock()


def _file_lock(path: str) -> threading.Lock:
    """One lock per database file in this process: writers to the same file
    take turns instead of failing on DuckDB's write-write conflicts."""
    key = path if path == ":memory:" else os.path.realpath(path)
    with _FILE_LOCKS_GUARD:
        return _FILE_LOCKS.setdefault(key, threading.Lock())


class DuckDBTrackingRecorder(TrackingRecorder):
    """The analytics tables and the tracking position in one DuckDB database.

    ``path`` is a file (``":memory:"`` for tests). ``wait``: seconds to wait for
    another process's lock (see :func:`open_duckdb`). Creates the tables when
    missing; a view built by an older :data:`~ledger.projections.tables.SCHEMA_VERSION`
    is dropped and rebuilt from scratch (its tracking is reset too), as is any
    view when ``rebuild`` is true.
    """

    def __init__(self, path: str = ":memory:", *, wait: float = 0.0, rebuild: bool = False) -> None:
        self.path = path
        self.connection = open_duckdb(path, wait=wait)
        self._lock = threading.Lock()
        self.rebuilt = False
        try:
            for attempt in range(5):
                try:
                    self._create_tables(rebuild)
                    break
                except duckdb.TransactionException:  # another connection in this process created them first
                    with contextlib.suppress(duckdb.Error):
                        self.connection.execute("ROLLBACK")
                    if attempt == 4:
                        raise
                    time.sleep(0.05 * (attempt + 1))
        except BaseException:
            self.connection.close()
            raise

    # --- schema ---------------------------------------------------------------

    def _create_tables(self, rebuild: bool) -> None:
        con = self.connection
        con.execute("CREATE TABLE IF NOT EXISTS view_info (key VARCHAR PRIMARY KEY, value VARCHAR)")
        found = con.execute("SELECT value FROM view_info WHERE key = 'schema_version'").fetchall()
        row = found[0] if found else None
        if rebuild or (row is not None and row[0] != str(SCHEMA_VERSION)):
            con.execute("BEGIN")
            for table in TABLES:
                con.execute(f"DROP TABLE IF EXISTS {table}")
            con.execute("DROP TABLE IF EXISTS tracking")
            con.execute("DELETE FROM view_info")
            con.execute("COMMIT")
            self.rebuilt = True
        con.execute("BEGIN")
        con.execute(
            "CREATE TABLE IF NOT EXISTS tracking (application_name VARCHAR PRIMARY KEY, notification_id BIGINT "
            "NOT NULL)"
        )
        for table in TABLES:
            con.execute(create_statement(table))
        create_views(con)
        con.execute(
            "INSERT INTO view_info VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [str(SCHEMA_VERSION)],
        )
        con.execute("COMMIT")

    def close(self) -> None:
        """Close the connection (releases the file for other processes)."""
        self.connection.close()

    def __enter__(self) -> DuckDBTrackingRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- TrackingRecorder -----------------------------------------------------

    def insert_tracking(self, tracking: Tracking) -> None:
        """Record ``tracking`` alone (no rows); raises ``IntegrityError`` when
        it is not past the recorded position."""
        self.replace_games((), {}, tracking)

    def max_tracking_id(self, application_name: str) -> int | None:
        """The last notification id of ``application_name`` applied, or None."""
        with self._lock:
            cur = self.connection.cursor()
            try:
                return self._max_tracking_id(cur, application_name)
            finally:
                cur.close()

    @staticmethod
    def _max_tracking_id(cur: duckdb.DuckDBPyConnection, application_name: str) -> int | None:
        found = cur.execute(
            "SELECT notification_id FROM tracking WHERE application_name = ?", [application_name]
        ).fetchall()
        return int(found[0][0]) if found else None

    # --- the view's own API ---------------------------------------------------

    def stored_events(self, streams: Iterable[str]) -> dict[str, list[tuple[int, str]]]:
        """``{stream: [(position, json), ...]}`` of the games already in the view
        with those store sequence ids (hex), positions in order."""
        keys = sorted(set(streams))
        if not keys:
            return {}
        with self._lock:
            cur = self.connection.cursor()
            try:
                # constant IN-lists let DuckDB skip row groups by their min/max (zonemaps)
                marks = ", ".join("?" * len(keys))
                ids = cur.execute(f"SELECT game, stream FROM games WHERE stream IN ({marks})", keys).fetchall()
                stream_of = dict(ids)
                found = []
                if ids:
                    marks = ", ".join("?" * len(ids))
                    found = [
                        (stream_of[game], position, raw)
                        for game, position, raw in cur.execute(
                            f"SELECT game, position, json FROM events WHERE game IN ({marks}) ORDER BY game, position",
                            list(stream_of),
                        ).fetchall()
                    ]
            finally:
                cur.close()
        out: dict[str, list[tuple[int, str]]] = {}
        for stream, position, raw in found:
            out.setdefault(stream, []).append((position, raw))
        return out

    def replace_games(
        self,
        games: Iterable[str],
        rows: Mapping[str, Sequence[tuple[object, ...]] | pa.Table],
        tracking: Tracking,
        *,
        after: int | None | EllipsisType = ...,
    ) -> None:
        """In one transaction: delete every row of ``games`` (game ids), insert
        ``rows`` (``{table: [row tuple, ...]}``, or an Arrow table of
        :func:`~ledger.projections.tables.to_arrow`'s schema) and move the tracking position of
        ``tracking.application_name`` to ``tracking.notification_id``.

        Raises :class:`IntegrityError` (nothing written) when the recorded
        position is already at or past ``tracking.notification_id``, or, when
        ``after`` is given, is not exactly ``after`` (the id the batch was read
        after; None: nothing tracked yet). Lets DuckDB errors through after
        rolling back.
        """
        old = sorted(set(games))
        with self.transaction() as writer:
            current = writer.checked_position(tracking, after)
            _swap_rows(writer.cursor, old, rows)
            writer.track(tracking, current)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[ViewWriter]:
        """One write transaction on the view, committed when the block ends
        (rolled back, and the error let through, when it raises): a
        :class:`ViewWriter` for a batch too large for one
        :meth:`replace_games` (one long game, issue 17). Holds this
        recorder's and the file's locks meanwhile."""
        with self._lock, _file_lock(self.path):
            cur = self.connection.cursor()
            try:
                cur.execute("BEGIN TRANSACTION")
                try:
                    yield ViewWriter(self, cur)
                    cur.execute("COMMIT")
                except BaseException:
                    with contextlib.suppress(duckdb.Error):  # a failed COMMIT has rolled back already
                        cur.execute("ROLLBACK")
                    raise
            finally:
                cur.close()

    @contextlib.contextmanager
    def memory_limit(self, limit: str) -> Iterator[None]:
        """DuckDB's ``memory_limit`` of the view's database set to ``limit``
        (a DuckDB size such as ``"64MB"``) while the block runs, DuckDB's
        default again after it (nothing else sets it). The limit applies to
        DuckDB's buffer manager only (DuckDB's "Limits" page): the blocks read
        back and the rows committed since the last checkpoint, not what a
        checkpoint or an insert allocates outside it."""
        cur = self.connection.cursor()
        try:
            cur.execute(f"SET memory_limit = '{limit}'")
            yield
        finally:
            cur.execute("RESET memory_limit")
            cur.close()

    def _checked_position(
        self, cur: duckdb.DuckDBPyConnection, tracking: Tracking, after: int | None | EllipsisType
    ) -> int | None:
        """The view's tracking position of ``tracking.application_name`` (None:
        nothing tracked yet), checked for :meth:`replace_games`: raises
        :class:`IntegrityError` when it is not ``after`` (unless ``...``) or is
        already at or past ``tracking.notification_id``."""
        current = self._max_tracking_id(cur, tracking.application_name)
        if after is not ... and current != after:
            raise IntegrityError(
                f"tracking {tracking.application_name}: batch read after {after}, "
                f"but the view is at {current} (another update moved it)"
            )
        if current is not None and current >= tracking.notification_id:
            raise IntegrityError(
                f"tracking {tracking.application_name} {tracking.notification_id}: "
                f"already at {current} (applied by another update)"
            )
        return current

    def row_counts(self) -> dict[str, int]:
        """``{table: rows}`` for every table."""
        with self._lock:
            cur = self.connection.cursor()
            try:
                return {t: int(cur.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in TABLES}  # type: ignore[index]  # count(*) always returns a row
            finally:
                cur.close()


class ViewWriter:
    """Writes inside one :meth:`DuckDBTrackingRecorder.transaction`: rows,
    deletions and the tracking position (checked as :meth:`~DuckDBTrackingRecorder.replace_games` does)."""

    def __init__(self, view: DuckDBTrackingRecorder, cursor: duckdb.DuckDBPyConnection) -> None:
        self.view = view
        self.cursor = cursor

    def checked_position(self, tracking: Tracking, after: int | None | EllipsisType = ...) -> int | None:
        """The tracked position, checked against ``tracking`` and ``after`` (raises ``IntegrityError``)."""
        return self.view._checked_position(self.cursor, tracking, after)  # noqa: SLF001 - its own transaction

    def track(self, tracking: Tracking, current: int | None) -> None:
        """Move the tracking position (``current``: the one :meth:`checked_position` gave)."""
        _track(self.cursor, tracking, current)

    def insert(self, rows: Mapping[str, Sequence[tuple[object, ...]]]) -> None:
        """Insert ``rows`` (``{table: [row tuple, ...]}``): all converted first, so
        a value the columns cannot hold raises before anything is inserted."""
        tables = [(table, to_arrow(table, batch)) for table in TABLES if (batch := rows.get(table))]
        for table, arrow in tables:
            self.cursor.register("_rows", arrow)
            self.cursor.execute(f"INSERT INTO {table} SELECT * FROM _rows")
            self.cursor.unregister("_rows")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement in the transaction; its rows."""
        return self.cursor.execute(sql, list(params)).fetchall()


def default_wait(environ: Mapping[str, Any] | None = None) -> float:
    """Seconds to wait for the analytics file lock: ``RUMMY_LEDGER_ANALYTICS_WAIT`` or 10."""
    environ = os.environ if environ is None else environ
    try:
        return float(environ.get("RUMMY_LEDGER_ANALYTICS_WAIT", "10"))
    except ValueError:
        return 10.0


def _swap_rows(
    cur: duckdb.DuckDBPyConnection, games: Sequence[str], rows: Mapping[str, Sequence[tuple[object, ...]] | pa.Table]
) -> None:
    """Inside :meth:`DuckDBTrackingRecorder.replace_games`' transaction: delete
    every row of ``games`` from every table, then insert ``rows`` (one Arrow
    table per view table, :func:`~ledger.projections.tables.to_arrow`, unless given as one)."""
    if games:
        marks = ", ".join("?" * len(games))
        for table in TABLES:
            cur.execute(f"DELETE FROM {table} WHERE game IN ({marks})", games)
    for table in TABLES:
        batch = rows.get(table)
        if batch is not None and len(batch):
            cur.register("_rows", batch if isinstance(batch, pa.Table) else to_arrow(table, batch))
            cur.execute(f"INSERT INTO {table} SELECT * FROM _rows")
            cur.unregister("_rows")


def _track(cur: duckdb.DuckDBPyConnection, tracking: Tracking, current: int | None) -> None:
    """Move the tracking position of ``tracking.application_name`` (now
    ``current``, None: no row yet) to ``tracking.notification_id``."""
    if current is None:
        cur.execute("INSERT INTO tracking VALUES (?, ?)", [tracking.application_name, tracking.notification_id])
    else:
        cur.execute(
            "UPDATE tracking SET notification_id = ? WHERE application_name = ?",
            [tracking.notification_id, tracking.application_name],
        )
