"""The Hive-partitioned, incremental Parquet export (issue 29, item 2).

Scenario: synthetic two-player games (classic Ramino and Gin) dated in three
months go into a SQLite store; ``export --partition variant,month`` writes
one dataset per table; more games come (a new month of Gin, one more
January Ramino game, and a stored game that grows by its last events); a
second export rewrites exactly the partitions those games are in (the other
files keep their bytes and their mtime) and the dataset reads back with the
view's row counts through DuckDB's ``read_parquet(..., hive_partitioning =
true)`` and through ``pyarrow.dataset``. ``RUMMY_LEDGER_SLOW=1`` exports
10,000 games, then 100 more.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import duckdb
import msgspec
import pyarrow as pa
import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner

from ledger.cli import cli
from ledger.events import Event, GameMeta
from ledger.projections import update
from ledger.projections.export import Selection
from ledger.projections.partitioned import NULL_PARTITION, PartitionError, export_partitioned
from ledger.projections.tables import TABLES
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.store.application import LedgerApp
from ledger.synthetic import two_player_record

SLOW = os.environ.get("RUMMY_LEDGER_SLOW") == "1"
N = 10_000 if SLOW else 36
MORE = 100 if SLOW else 6
MONTHS = ("2026-01", "2026-02", "2026-03")
KEYS = ("variant", "month")


def game(i: int, variant: str, month: str | None, *, hands: int = 1) -> list[Event]:
    events = two_player_record(f"{variant}-{i:05d}", variant=variant, hands=hands, turns=4, seed=i)
    meta = GameMeta(date=f"{month}-{i % 28 + 1:02d}") if month else None
    return [msgspec.structs.replace(events[0], meta=meta), *events[1:]]


def store(app: LedgerApp, events: list[Event]) -> None:
    app.import_record(read_record(encode_record(events)))


def files(out: Path) -> dict[str, tuple[int, str]]:
    """``{relative path: (mtime_ns, sha256)}`` of every Parquet file."""
    return {
        str(p.relative_to(out)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(out.rglob("*.parquet"))
    }


def counts_in_view(view: str) -> dict[str, int]:
    con = duckdb.connect(view, read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}  # type: ignore[index]
    finally:
        con.close()


def counts_read_back(out: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Rows per table through DuckDB and through pyarrow.dataset (hive partitioning)."""
    con = duckdb.connect()
    by_duckdb = {
        t: con.execute(
            f"SELECT count(*) FROM read_parquet('{out}/{t}/**/*.parquet', hive_partitioning = true)"
        ).fetchone()[0]  # type: ignore[index]
        for t in TABLES
    }
    hive = ds.partitioning(pa.schema([("variant", pa.string()), ("month", pa.string())]), flavor="hive")
    by_arrow = {t: ds.dataset(out / t, format="parquet", partitioning=hive).count_rows() for t in TABLES}
    return by_duckdb, by_arrow


@pytest.fixture
def app(tmp_path: Path) -> LedgerApp:
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "ledger.db")})
    yield app
    app.close()


def export(view: str, out: Path, selection: Selection | None = None):  # noqa: ANN201
    con = duckdb.connect(view, read_only=True)
    try:
        return export_partitioned(con, out, KEYS, selection)
    finally:
        con.close()


def test_a_second_export_rewrites_only_the_changed_partitions(app: LedgerApp, tmp_path: Path) -> None:
    growing = game(9_999, "ramino", "2026-02", hands=2)
    for i in range(N):
        store(app, game(i, ("ramino", "gin")[i % 2], MONTHS[i % 3]))
    store(app, growing[:-6])  # the second hand is still being played
    view, out = str(tmp_path / "view.duckdb"), tmp_path / "dataset"
    update(app, view)
    first = export(view, out)
    assert (first.games, first.changed, first.dropped, first.kept) == (N + 1, N + 1, 0, 0)
    assert sorted(first.rewritten) == [f"variant={v}/month={m}" for v in ("gin", "ramino") for m in MONTHS]
    before = files(out)
    assert len(before) == 6 * len(TABLES)
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["partition"] == ["variant", "month"]
    assert manifest["games"]["ramino-09999"] == [len(growing) - 6, "variant=ramino/month=2026-02"]

    # more games: a new month of Gin, one more January Ramino game, and the growing game's last events
    for i in range(N, N + MORE - 1):
        store(app, game(i, "gin", "2026-04"))
    store(app, game(N + MORE, "ramino", "2026-01"))
    store(app, growing)
    update(app, view)
    second = export(view, out)
    changed = {"variant=gin/month=2026-04", "variant=ramino/month=2026-01", "variant=ramino/month=2026-02"}
    assert (second.games, second.changed, second.dropped) == (N + 1 + MORE, MORE + 1, 0)
    assert set(second.rewritten) == changed and second.kept == 4
    after = files(out)
    for path, stamp in after.items():
        part = path.split("/", 1)[1].rsplit("/", 1)[0]
        if part in changed:
            assert before.get(path) != stamp, path  # rewritten (or new)
        else:
            assert before[path] == stamp, path  # not touched: same bytes, same mtime
    assert len(after) == 7 * len(TABLES)

    by_duckdb, by_arrow = counts_read_back(out)
    assert by_duckdb == by_arrow == counts_in_view(view)
    con = duckdb.connect()
    per_partition = con.execute(
        f"SELECT variant, month, count(*) FROM read_parquet('{out}/games/**/*.parquet', hive_partitioning = true) "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    gin_n = (N + 1) // 2
    assert sum(n for *_, n in per_partition) == N + 1 + MORE
    assert per_partition[3] == ("gin", "2026-04", MORE - 1)
    assert sum(n for v, _, n in per_partition if v == "gin") == gin_n + MORE - 1
    # a third run with nothing new writes nothing
    third = export(view, out)
    assert (third.changed, third.rewritten, third.kept) == (0, (), 7)
    assert files(out) == after


def test_games_no_longer_chosen_leave_the_dataset(app: LedgerApp, tmp_path: Path) -> None:
    store(app, game(1, "ramino", "2026-01"))
    store(app, game(2, "gin", "2026-01"))
    store(app, game(3, "gin", None))  # no date: Hive's null partition
    view, out = str(tmp_path / "view.duckdb"), tmp_path / "dataset"
    update(app, view)
    export(view, out)
    assert (out / "events" / "variant=gin" / f"month={NULL_PARTITION}" / "part-0.parquet").exists()
    again = export(view, out, Selection(variants=("ramino",)))
    assert (again.games, again.dropped, again.rewritten, again.kept) == (1, 2, (), 1)
    assert sorted(again.removed) == ["variant=gin/month=2026-01", f"variant=gin/month={NULL_PARTITION}"]
    assert not (out / "events" / "variant=gin").exists()
    by_duckdb, by_arrow = counts_read_back(out)
    assert by_duckdb["games"] == by_arrow["games"] == 1
    with pytest.raises(PartitionError, match="partitioned by variant,month"):
        con = duckdb.connect(view, read_only=True)
        try:
            export_partitioned(con, out, ("month",))
        finally:
            con.close()


def test_export_partition_command(app: LedgerApp, tmp_path: Path) -> None:
    store(app, game(1, "ramino", "2026-01"))
    store(app, game(2, "gin", "2026-02"))
    app.close()
    db, out = str(tmp_path / "ledger.db"), tmp_path / "dataset"
    runner = CliRunner()
    first = runner.invoke(cli, ["--db", db, "export", "--all", "--partition", "variant,month", "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert first.output.splitlines()[-1] == (
        f"exported 2 games to {out} partitioned by variant,month: 2 new or changed, 0 dropped; "
        "2 partitions written, 0 removed, 0 unchanged"
    )
    second = runner.invoke(cli, ["--db", db, "export", "--all", "--partition", "variant,month", "--out", str(out)])
    assert second.output.splitlines()[-1].endswith(
        "0 new or changed, 0 dropped; 0 partitions written, 0 removed, 2 unchanged"
    )
    other = runner.invoke(cli, ["--db", db, "export", "--all", "--partition", "month", "--out", str(out)])
    assert (other.exit_code, other.output) == (
        2,
        f"rummy-ledger: error: {out} holds a dataset partitioned by variant,month: export with --partition "
        "variant,month, or into another folder\n",
    )
    csv = runner.invoke(cli, ["--db", db, "export", "--all", "--format", "csv", "--partition", "month", "--out", "x"])
    assert csv.exit_code == 2 and "--partition writes Parquet" in csv.output
    bad = runner.invoke(cli, ["--db", db, "export", "--all", "--partition", "variant,variant", "--out", "x"])
    assert bad.exit_code == 2 and "Invalid value for '--partition'" in bad.output
