"""The ``rummy-ledger`` group loads a command's module only when the command runs
(:class:`ledger.cli.LazyGroup`, issue 28): a command that is not an analytics one
does not import DuckDB, PyArrow or NumPy, and the group's ``--help`` lists every
command from :data:`ledger.cli.command_table.COMMANDS`, as the commands' own help."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from ledger.cli import cli
from ledger.cli.command_table import COMMANDS
from ledger.cli.context import TranslatedCommand
from ledger.cli.reading import export_cmd as record_export
from ledger.records import encode_record
from ledger.synthetic import two_player_record

HEAVY = ("duckdb", "pyarrow", "numpy")

PROBE = """
import json, sys
from ledger.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "heavy": sorted(m for m in HEAVY if m in sys.modules)}))
""".replace("HEAVY", repr(HEAVY))


def probe(*args: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


@pytest.fixture
def store(tmp_path: Path) -> str:
    record = tmp_path / "s.jsonl"
    record.write_bytes(encode_record(two_player_record("syn-1", hands=1, turns=2, seed=3)))
    db = str(tmp_path / "ledger.db")
    assert probe("--db", db, "import", "--no-analytics", str(record))["code"] == 0
    return db


def test_verify_and_help_do_not_import_the_analytics_libraries(store: str) -> None:
    assert probe("--db", store, "verify") == {"code": 0, "heavy": []}
    assert probe("--db", store, "list") == {"code": 0, "heavy": []}
    assert probe("--help") == {"code": 0, "heavy": []}
    assert probe("verify", "--help") == {"code": 0, "heavy": []}


def test_an_analytics_command_still_loads_them(store: str) -> None:
    assert probe("--db", store, "query", "--json", "SELECT 1 AS n") == {
        "code": 0,
        "heavy": ["duckdb", "numpy", "pyarrow"],
    }


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("limit", [20, 45, 72])
def test_the_table_gives_each_command_its_own_short_help(lang: str, limit: int) -> None:
    ctx = click.Context(cli, info_name="rummy-ledger")
    ctx.params["lang"] = lang
    group = copy.copy(cli)
    group.commands = {}
    with ctx:
        assert group.list_commands(ctx) == sorted(COMMANDS)
        for name, (_, text) in COMMANDS.items():
            command = group.get_command(ctx, name)
            assert command is not None
            listed = TranslatedCommand(name, help=text).get_short_help_str(limit)
            assert listed == command.get_short_help_str(limit), name


def test_export_keeps_the_record_export_whichever_command_loads_first() -> None:
    ctx = click.Context(cli, info_name="rummy-ledger")
    for first in ("query", "list", "export"):
        group = copy.copy(cli)
        group.commands = {}
        group.get_command(ctx, first)
        export = group.get_command(ctx, "export")
        assert export is not None
        assert getattr(export, "record_export", None) is record_export, first
