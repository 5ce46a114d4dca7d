"""Export the analytics view: one file per table, through DuckDB's own writers.

:func:`export_tables` writes ``games.parquet``, ``players.parquet``,
``hands.parquet``, ``events.parquet``, ``melds.parquet``, ``scores.parquet``
and ``findings.parquet`` (or ``.csv`` with a header, or ``.jsonl``, one JSON
object a line) for the games chosen by :class:`Selection`.

>>> Selection(variants=("ramino",), players=("Anna",)).where()
('(variant IN (SELECT unnest(?)) AND list_has_any(players, ?))', [['ramino'], ['Anna']])
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import duckdb
import msgspec

from ledger.projections.tables import TABLES

FORMATS = {
    "parquet": ("parquet", "(FORMAT parquet, COMPRESSION zstd)"),
    "csv": ("csv", "(FORMAT csv, HEADER)"),
    "jsonl": ("jsonl", "(FORMAT json)"),
}


class Selection(msgspec.Struct, frozen=True, kw_only=True):
    """Which games: explicit ids (empty: all), and filters that all apply.

    ``variants``: any of them; ``since``/``until``: ``games.date`` within the
    range (inclusive); ``tournaments``: ``meta.tournament`` any of them;
    ``players``: a player of that name at the table (any of them).
    """

    games: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None
    tournaments: tuple[str, ...] = ()
    players: tuple[str, ...] = ()

    def where(self) -> tuple[str, list[object]]:
        """The SQL condition on ``games`` and its parameters."""
        parts: list[str] = []
        params: list[object] = []
        if self.games:
            parts.append("game IN (SELECT unnest(?))")
            params.append(list(self.games))
        if self.variants:
            parts.append("variant IN (SELECT unnest(?))")
            params.append(list(self.variants))
        if self.since is not None:
            parts.append("date >= ?")
            params.append(self.since)
        if self.until is not None:
            parts.append("date <= ?")
            params.append(self.until)
        if self.tournaments:
            parts.append("tournament IN (SELECT unnest(?))")
            params.append(list(self.tournaments))
        if self.players:
            parts.append("list_has_any(players, ?)")
            params.append(list(self.players))
        return ("(" + " AND ".join(parts) + ")" if parts else "TRUE"), params


def select_games(con: duckdb.DuckDBPyConnection, selection: Selection) -> list[str]:
    """The ids of the chosen games present in the view, in id order."""
    cond, params = selection.where()
    return [r[0] for r in con.execute(f"SELECT game FROM games WHERE {cond} ORDER BY game", params).fetchall()]


def table_query(table: str, where: str = "TRUE", *, json_lists: bool = False) -> str:
    """The export's query of one table: rows ``where`` holds, by game then hand/position.

    With ``json_lists`` (CSV), list and map columns are written as JSON text,
    so that a name with a comma survives.

    >>> table_query("findings")
    'SELECT * FROM findings WHERE TRUE ORDER BY game, hand, position, seat'
    >>> table_query("players", json_lists=True)[:40]
    'SELECT game, seat, name, team, side FROM'
    """
    columns = TABLES[table]
    names = [c.name for c in columns]
    order = ", ".join(n for n in ("game", "hand", "position", "view", "side", "seat", "meld") if n in names)
    if json_lists:
        select = ", ".join(
            f"to_json({_q(c.name)})::VARCHAR AS {_q(c.name)}"
            if ("[]" in c.type or c.type.startswith("MAP"))
            else _q(c.name)
            for c in columns
        )
    else:
        select = "*"
    return f"SELECT {select} FROM {table} WHERE {where} ORDER BY {order}"


def _q(name: str) -> str:
    """A column name quoted where SQL needs it (``at``)."""
    return f'"{name}"' if name in ("at",) else name


def export_tables(
    con: duckdb.DuckDBPyConnection,
    out: Path,
    fmt: str = "parquet",
    selection: Selection | None = None,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, int]:
    """Write one file per table into ``out`` (created); returns ``{table: rows}``.

    ``fmt`` is ``parquet`` (zstd), ``csv`` (header) or ``jsonl``. Rows are
    ordered by game then position/hand. ``progress(table, rows)`` is called
    after each file. Raises ``ValueError`` for an unknown format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    ext, options = FORMATS[fmt]
    out.mkdir(parents=True, exist_ok=True)
    selection = selection or Selection()
    cond, params = selection.where()
    con.execute("CREATE OR REPLACE TEMP TABLE _chosen AS SELECT game FROM games WHERE " + cond, params)
    counts: dict[str, int] = {}
    for table in TABLES:
        target = out / f"{table}.{ext}"
        query = table_query(table, "game IN (SELECT game FROM _chosen)", json_lists=fmt == "csv")
        path = str(target).replace("'", "''")
        con.execute(f"COPY ({query}) TO '{path}' {options}")
        counts[table] = int(
            con.execute(f"SELECT count(*) FROM {table} WHERE game IN (SELECT game FROM _chosen)").fetchall()[0][0]
        )
        if progress is not None:
            progress(table, counts[table])
    con.execute("DROP TABLE _chosen")
    return counts
