"""Projections of the store (DESIGN.md, layer 3): the DuckDB analytics view.

- :mod:`ledger.projections.tables`: the tables and their columns (with units);
- :mod:`ledger.projections.rows`: a game's rows from the one fold (pure);
- :mod:`ledger.projections.duckdb_recorder`: the DuckDB ``TrackingRecorder``;
- :mod:`ledger.projections.analytics`: the ``Projection``, the catch-up loop,
  :func:`update`, :func:`follow`, :func:`analytics_path`;
- :mod:`ledger.projections.export`: Parquet/CSV/JSON Lines export with filters.

For notebooks, :func:`relation` gives a DuckDB relation on the view::

    from ledger.projections import relation
    relation("SELECT variant, avg(points) FROM scores JOIN games USING (game) GROUP BY ALL").df()
"""

from __future__ import annotations

import duckdb

from ledger.projections.analytics import (
    ANALYTICS_ENV_VAR,
    AnalyticsProjection,
    UpdateResult,
    analytics_path,
    catch_up,
    follow,
    update,
)
from ledger.projections.duckdb_recorder import (
    AnalyticsBusyError,
    AnalyticsError,
    DuckDBTrackingRecorder,
    default_wait,
    open_duckdb,
)
from ledger.projections.tables import TABLES


def connect(db: str | None = None, *, read_only: bool = True, wait: float | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection to the analytics view.

    ``db`` is the DuckDB file itself (a path ending in ``.duckdb``) or the
    store it belongs to (a SQLite path or ``postgresql://`` URL, as for
    ``--db``; None: the configured store). Read-only by default; DuckDB lets
    one process write the file, so close the connection before running
    ``analytics update`` elsewhere. Raises
    :class:`~ledger.projections.duckdb_recorder.AnalyticsError` when the view
    does not exist yet (run ``rummy-ledger analytics update``) and
    :class:`AnalyticsBusyError` when another process holds it.
    """
    path = db if db is not None and db.endswith(".duckdb") else analytics_path(db)
    return open_duckdb(path, read_only=read_only, wait=default_wait() if wait is None else wait)


def relation(sql: str | None = None, db: str | None = None) -> duckdb.DuckDBPyRelation:
    """A DuckDB relation on the analytics view, for notebooks.

    ``sql``: a query over the tables (``games``, ``players``, ``hands``,
    ``events``, ``melds``, ``scores``, ``findings``); None gives the ``games``
    table. ``db`` as in :func:`connect`. The relation keeps its read-only
    connection open while it lives; call ``.df()``, ``.arrow()``,
    ``.fetchall()`` or ``.show()`` on it.
    """
    con = connect(db)
    return con.sql(sql) if sql is not None else con.table("games")


__all__ = [
    "ANALYTICS_ENV_VAR",
    "TABLES",
    "AnalyticsBusyError",
    "AnalyticsError",
    "AnalyticsProjection",
    "DuckDBTrackingRecorder",
    "UpdateResult",
    "analytics_path",
    "catch_up",
    "connect",
    "follow",
    "relation",
    "update",
]
