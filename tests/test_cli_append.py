"""The CLI's write path: ``import`` of a longer file, ``append``, ``rule``,
``export --with-journal`` (click's CliRunner on a real SQLite file; one run
on PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ledger.application import LedgerApp, os_user
from ledger.cli import cli

MakeRecord = Callable[..., bytes]
WriteRecord = Callable[..., Path]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


@pytest.fixture
def run(db: str) -> Callable[..., Result]:
    runner = CliRunner(env={"RUMMY_LEDGER_DB": None, "PERSISTENCE_MODULE": None})

    def invoke(*args: str, store: str | None = None, input: bytes | None = None) -> Result:
        return runner.invoke(cli, ["--db", store or db, *args], input=input, catch_exceptions=False)

    return invoke


def summary_row(output: str, name: str) -> list[str]:
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if cells and cells[0] == name:
            return cells[1:]
    raise AssertionError(f"no row {name!r} in:\n{output}")


def stored(db: str, game_id: str) -> tuple[bytes, list]:
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
    try:
        return app.export_record(game_id), app.journal(game_id)
    finally:
        app.close()


def test_import_of_a_longer_file_appends_the_tail(run: Callable[..., Result], write_record_file: WriteRecord, make_record: MakeRecord, db: str) -> None:
    data = make_record("club-t2", turns=6)  # 16 events
    lines = data.splitlines(keepends=True)
    first = write_record_file("club-t2", b"".join(lines[:11]), name="first")
    assert run("import", "--no-analytics", str(first)).exit_code == 0
    full = write_record_file("club-t2", data, name="full")
    result = run("import", "--no-analytics", str(full))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "club-t2: 5 events appended (11 → 16)"
    assert summary_row(result.stdout, "appended") == ["1", "1", "5"]
    assert summary_row(result.stdout, "stored") == ["0", "0", "0"]
    record, journal = stored(db, "club-t2")
    assert record == data
    assert [j.appended_by for j in journal] == [f"import:{os_user()}"] * 16


def test_import_of_a_file_differing_inside_the_stored_part_names_the_line(
    run: Callable[..., Result], write_record_file: WriteRecord, make_record: MakeRecord
) -> None:
    data = make_record("club-t3", turns=6)
    lines = data.splitlines(keepends=True)
    assert run("import", "--no-analytics", str(write_record_file("club-t3", b"".join(lines[:11]), name="first"))).exit_code == 0
    other = write_record_file("club-t3", make_record("club-t3", turns=6, seed=4), name="other")  # another deal
    result = run("import", "--no-analytics", str(other))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"{other}: game 'club-t3' is already stored with different events "
        "(11 events stored, 16 in this record, first difference at position 1, line 2); refused"
    )
