"""A Hive-partitioned, incremental Parquet export of the analytics view (issue 29).

:func:`export_partitioned` writes each table as its own dataset under
``DIR/<table>/``, one Parquet file per partition
(``DIR/events/variant=burraco/month=2026-11/part-0.parquet``), partitioned by
``variant`` and/or ``month`` (``YYYY-MM`` of ``games.date``; a game without a
date is in Hive's null partition ``__HIVE_DEFAULT_PARTITION__``). The
partition columns are in the paths, not in the files (Hive's layout: the
``games`` files leave ``variant`` out when it is a partition key), so
``read_parquet('DIR/games/**/*.parquet', hive_partitioning = true)``,
``pyarrow.dataset.dataset('DIR/games', partitioning='hive')``, Spark and
Trino give the columns back.

``DIR/_manifest.json`` records the partition keys and each exported game's
version (its number of events: a stored game only grows) and partition. A
later run rewrites only the partitions that hold a new game, a game whose
version changed, or a game no longer chosen; the others' files are not
touched. Each file is written beside its target and renamed over it, and the
manifest last, so an interrupted run leaves the old files or the new ones,
and the next run redoes the partitions the manifest does not yet record.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from ledger.errors import LedgerError
from ledger.projections.export import Selection, table_query
from ledger.projections.tables import TABLES

#: the partition keys ``--partition`` accepts
KEYS = ("variant", "month")
MANIFEST = "_manifest.json"
MANIFEST_FORMAT = 1
#: Hive's name for the partition of a NULL value (DuckDB, pyarrow and Spark read it as NULL)
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
_KEY_SQL = {"variant": "variant", "month": "strftime(date, '%Y-%m')"}


class PartitionError(LedgerError, ValueError):
    """A partition spec that is not ``variant``/``month``, or an output folder
    that holds a dataset partitioned otherwise."""


class PartitionedResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a run did: games chosen, games new or changed, games dropped,
    partitions rewritten and removed (their relative paths), partitions kept."""

    games: int
    changed: int
    dropped: int
    rewritten: tuple[str, ...]
    removed: tuple[str, ...]
    kept: int


def parse_keys(spec: str) -> tuple[str, ...]:
    """``"variant,month"`` -> ``("variant", "month")``; raises :class:`PartitionError`
    for an unknown or repeated key.

    >>> parse_keys("month, variant")
    ('month', 'variant')
    """
    keys = tuple(k.strip() for k in spec.split(",") if k.strip())
    bad = [k for k in keys if k not in KEYS]
    if not keys or bad or len(set(keys)) != len(keys):
        raise PartitionError(f"--partition {spec!r}: give one or both of {', '.join(KEYS)}, comma-separated, each once")
    return keys


def partition_path(keys: Sequence[str], values: Sequence[str | None]) -> str:
    """``variant=gin/month=2026-11``: the Hive folder of a partition (None: Hive's null partition)."""
    return "/".join(f"{k}={NULL_PARTITION if v is None else v}" for k, v in zip(keys, values))


def _read_manifest(out: Path, keys: tuple[str, ...]) -> dict[str, list[Any]]:
    """The manifest's ``{game: [version, partition]}``; empty when there is none."""
    path = out / MANIFEST
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        games = data["games"]
        found = tuple(data["partition"])
    except (ValueError, KeyError, TypeError) as exc:
        raise PartitionError(f"{path}: not a manifest of rummy-ledger's partitioned export ({exc})") from None
    if found != keys:
        raise PartitionError(
            f"{out} holds a dataset partitioned by {','.join(found)}: export with --partition "
            f"{','.join(found)}, or into another folder"
        )
    return {str(g): list(v) for g, v in games.items()}


def _chosen(con: duckdb.DuckDBPyConnection, keys: tuple[str, ...], selection: Selection) -> dict[str, list[Any]]:
    """``{game: [version, partition]}`` of the chosen games in the view."""
    cond, params = selection.where()
    cols = ", ".join(_KEY_SQL[k] for k in keys)
    rows = con.execute(f"SELECT game, events, {cols} FROM games WHERE {cond}", params).fetchall()
    return {r[0]: [int(r[1] or 0), partition_path(keys, r[2:])] for r in rows}


def export_partitioned(
    con: duckdb.DuckDBPyConnection,
    out: Path,
    keys: tuple[str, ...],
    selection: Selection | None = None,
    *,
    progress: Callable[[str, int], None] | None = None,
) -> PartitionedResult:
    """Bring the dataset in ``out`` up to the view's chosen games (module
    docstring); ``con`` is the view (read-only is enough). ``progress(partition,
    done)`` is called after each partition written. Raises
    :class:`PartitionError` when ``out`` holds a dataset of other keys."""
    out.mkdir(parents=True, exist_ok=True)
    old = _read_manifest(out, keys)
    new = _chosen(con, keys, selection or Selection())
    changed = {g for g, v in new.items() if old.get(g) != v}
    dropped = set(old) - set(new)
    touched = {new[g][1] for g in changed} | {old[g][1] for g in changed | dropped if g in old}
    by_partition: dict[str, list[str]] = {}
    for game, (_version, part) in new.items():
        by_partition.setdefault(part, []).append(game)
    rewritten, removed = [], []
    for done, part in enumerate(sorted(touched), 1):
        games = sorted(by_partition.get(part, []))
        if games:
            _write_partition(con, out, keys, part, games)
            rewritten.append(part)
        else:
            _remove_partition(out, part)
            removed.append(part)
        if progress is not None:
            progress(part, done)
    _write_manifest(out, keys, new)
    return PartitionedResult(
        games=len(new),
        changed=len(changed),
        dropped=len(dropped),
        rewritten=tuple(rewritten),
        removed=tuple(removed),
        kept=len(by_partition) - len(rewritten),
    )


def _write_partition(
    con: duckdb.DuckDBPyConnection, out: Path, keys: tuple[str, ...], part: str, games: list[str]
) -> None:
    """Every table's file of one partition, holding ``games``."""
    con.execute("CREATE OR REPLACE TEMP TABLE _part AS SELECT unnest(?) AS game", [games])
    try:
        for table in TABLES:
            folder = out / table / part
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / "part-0.parquet"
            tmp = folder / ".part-0.parquet.tmp"
            query = table_query(table, "game IN (SELECT game FROM _part)")
            dropped = [k for k in keys if k in {c.name for c in TABLES[table]}]
            if dropped:  # a partition key is in the path, not in the file (Hive)
                query = query.replace("SELECT *", f"SELECT * EXCLUDE ({', '.join(dropped)})", 1)
            path = str(tmp).replace("'", "''")
            con.execute(f"COPY ({query}) TO '{path}' (FORMAT parquet, COMPRESSION zstd)")
            os.replace(tmp, target)
    finally:
        con.execute("DROP TABLE IF EXISTS _part")


def _remove_partition(out: Path, part: str) -> None:
    """Remove a partition's files and the folders left empty."""
    for table in TABLES:
        folder = out / table / part
        if folder.exists():
            shutil.rmtree(folder)
        parent = folder.parent
        while parent != out / table and parent.exists() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def _write_manifest(out: Path, keys: tuple[str, ...], games: dict[str, list[Any]]) -> None:
    data: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "partition": list(keys),
        "tables": list(TABLES),
        "games": {g: games[g] for g in sorted(games)},
    }
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    os.replace(tmp, out / MANIFEST)
