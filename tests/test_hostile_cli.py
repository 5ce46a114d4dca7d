"""Hostile input at the command line and in the viewer's parameters (issue 13,
items 4, 5 and 9): a sandboxed ``query``, user strings printed as text, and
whole numbers in ASCII digits only."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ledger.cli import cli as base_cli
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.synthetic import two_player_record
from ledger.testing.records import game_started, lines, ramino_deal

MARKUP_NAME = "[/x] :100: [bold red]Anna"


@pytest.fixture
def cli() -> click.Group:
    group = copy.copy(base_cli)
    group.commands = {}  # a group of its own: its commands registered afresh as they are asked for
    return group


def run(cli: click.Group, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.fixture
def store(tmp_path: Path, cli: click.Group) -> str:
    """A SQLite store with two games whose player names are rich markup, and its view."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "m.jsonl").write_bytes(
        lines(game_started(game_id="markup-1", players=(MARKUP_NAME, "[b]Marco")), ramino_deal())
    )
    (records / "s.jsonl").write_bytes(encode_record(two_player_record("syn-1", hands=1, turns=2, seed=3)))
    db = str(tmp_path / "ledger.db")
    code, out = run(cli, "--db", db, "import", str(records))
    assert code == 0, out
    return db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- item 4: query runs in DuckDB's sandbox ------------------------------------------

DISABLED = "file system operations are disabled by configuration"


def test_query_cannot_read_files_or_the_environment(cli: click.Group, store: str) -> None:
    example = "SELECT * FROM read_text('/proc/self/environ')"
    analytics = Path(__file__).parents[1] / "docs" / "analytics.md"
    assert f"`{example}`" in analytics.read_text(encoding="utf-8")  # as docs/analytics.md has it
    code, out = run(cli, "--db", store, "query", "--no-update", example)
    assert code == 2
    assert (
        out.splitlines()[0]
        == f'Error: query failed: Permission Error: Cannot access file "/proc/self/environ" - {DISABLED}'
    )
    assert "PATH=" not in out
    code, out = run(cli, "--db", store, "query", "--no-update", "SELECT * FROM read_csv('/etc/passwd')")
    assert (code, out.splitlines()[0]) == (
        2,
        f'Error: query failed: Permission Error: Cannot access file "/etc/passwd" - {DISABLED}',
    )


def test_query_cannot_write_files(cli: click.Group, store: str, tmp_path: Path) -> None:
    before = digest(Path(store)), digest(tmp_path / "ledger.analytics.duckdb")
    code, out = run(cli, "--db", store, "query", "--no-update", f"COPY games TO '{store}'")
    assert (code, out) == (2, f'Error: query failed: Permission Error: Cannot access file "{store}" - {DISABLED}\n')
    target = tmp_path / "out.csv"
    code, out = run(cli, "--db", store, "query", "--no-update", f"COPY (SELECT * FROM players) TO '{target}'")
    assert (code, out) == (2, f'Error: query failed: Permission Error: Cannot access file "{target}" - {DISABLED}\n')
    assert not target.exists()
    assert (digest(Path(store)), digest(tmp_path / "ledger.analytics.duckdb")) == before
    code, out = run(cli, "--db", store, "query", "--json", "--no-update", "SELECT count(*) AS n FROM games")
    assert (code, json.loads(out)) == (0, {"n": 2})


def test_query_cannot_attach_install_or_unlock(cli: click.Group, store: str, tmp_path: Path) -> None:
    other = tmp_path / "other.duckdb"
    code, out = run(cli, "--db", store, "query", "--no-update", f"ATTACH '{other}' AS o (READ_WRITE)")
    assert (code, out) == (2, f'Error: query failed: Permission Error: Cannot access file "{other}" - {DISABLED}\n')
    assert not other.exists()
    code, out = run(cli, "--db", store, "query", "--no-update", "INSTALL httpfs")
    assert code == 2
    assert out.startswith('Error: query failed: Permission Error: Cannot access directory "')
    assert out.endswith(f" - {DISABLED}\n")
    code, out = run(cli, "--db", store, "query", "--no-update", "LOAD httpfs")
    assert (code, out) == (
        2,
        "Error: query failed: Permission Error: Loading external extensions is disabled through configuration\n",
    )
    code, out = run(cli, "--db", store, "query", "--no-update", "SET enable_external_access = true")
    assert (code, out) == (
        2,
        'Error: query failed: Invalid Input Error: Cannot change configuration option "enable_external_access" '
        "- the configuration has been locked\n",
    )
    code, out = run(cli, "--db", store, "query", "--no-update", "DROP TABLE games")
    assert code == 2 and "read-only mode" in out
    code, out = run(cli, "--db", store, "query", "--json", "--no-update", "SELECT count(*) AS n FROM players")
    assert (code, json.loads(out)) == (0, {"n": 4})


def test_export_still_writes_its_files(cli: click.Group, store: str, tmp_path: Path) -> None:
    code, out = run(
        cli, "--db", store, "export", "--all", "--format", "csv", "--out", str(tmp_path / "x"), "--no-update"
    )
    assert code == 0, out
    assert (tmp_path / "x" / "players.csv").read_text().count("\n") == 5


# --- item 5: markup in names is printed as text ------------------------------------


def test_list_prints_markup_names_as_text(cli: click.Group, store: str) -> None:
    code, out = run(cli, "--db", store, "list")
    assert code == 0, out
    row = next(ln for ln in out.splitlines() if "markup-1" in ln)
    assert f"{MARKUP_NAME}, [b]Marco" in row


def test_query_prints_markup_cells_as_text(cli: click.Group, store: str) -> None:
    code, out = run(
        cli,
        "--db",
        store,
        "query",
        "--no-update",
        "SELECT name AS \"[red]who\" FROM players WHERE game = 'markup-1' ORDER BY seat",
    )
    assert code == 0, out
    assert [ln.strip("┃│ ") for ln in out.splitlines() if "│" in ln or "┃" in ln] == [
        "[red]who",
        MARKUP_NAME,
        "[b]Marco",
    ]


def test_error_lines_keep_emoji_codes_and_brackets(cli: click.Group, tmp_path: Path) -> None:
    bad = tmp_path / ":100: [bold]x.jsonl"
    bad.write_bytes(b'{"type":"card_drawn","seat":0,"card":"6H"}\n')
    code, out = run(cli, "--db", str(tmp_path / "l.db"), "import", "--no-analytics", str(bad))
    assert code == 1
    assert f"{bad}:1: type: REC-ORDER: a record starts with game_started, not card_drawn" in out.replace("\n", "")
    assert "💯" not in out


# --- item 9: ASCII digits only; game ids usable in a URL ---------------------------


@pytest.mark.parametrize("value", ["٣", "３", "+3", "3_0", " 3", "3.0"])
def test_show_at_takes_ascii_digits_only(cli: click.Group, store: str, value: str) -> None:
    code, out = run(cli, "--db", store, "show", "syn-1", "--at", value)
    assert code == 2
    assert f"Invalid value for '--at': {value!r} is not a whole number (ASCII digits 0-9)" in out


def test_show_at_ascii_still_works(cli: click.Group, store: str) -> None:
    code, out = run(cli, "--db", store, "show", "syn-1", "--at", "3")
    assert code == 0 and out.startswith("move 3: Bruno discards 7♣\n\nsyn-1 — ramino (seed) — position 3, hand 1"), out


def test_batch_option_range(cli: click.Group, store: str) -> None:
    code, out = run(cli, "--db", store, "analytics", "update", "--batch", "0")
    assert code == 2 and "Invalid value for '--batch': 0 is not in the range 1<=x" in out
    code, out = run(cli, "--db", store, "analytics", "update", "--batch", "١")
    assert code == 2 and "Invalid value for '--batch': '١' is not a whole number (ASCII digits 0-9)" in out


@pytest.mark.parametrize("value", ["٣", "３", "+3", "3_0"])
def test_viewer_at_takes_ascii_digits_only(store: str, value: str) -> None:
    from replay_web import create_app

    client = create_app({"LEDGER_DB": store, "TESTING": True}).test_client()
    resp = client.get("/api/games/syn-1/state", query_string={"at": value})
    assert resp.status_code == 400
    assert f"at={value!r} is not a whole number" in resp.get_data(as_text=True)
    assert client.get("/api/games/syn-1/state?at=3").status_code == 200


@pytest.mark.parametrize("game_id", [".", ".."])
def test_dot_game_ids_are_refused(game_id: str) -> None:
    from ledger.errors import RecordError

    with pytest.raises(RecordError) as err:
        read_record(lines(game_started(game_id=game_id)))
    assert str(err.value) == (
        f"line 1: game_id: REC-FORMAT: `game_id` {game_id!r} is not a usable id: . and .. are path segments a "
        "browser resolves away"
    )


def test_dotted_game_ids_are_still_fine() -> None:
    assert read_record(lines(game_started(game_id="..a"))).game_id == "..a"
    assert read_record(lines(game_started(game_id="a.b"))).game_id == "a.b"


@pytest.mark.parametrize("value", ["٣", "３", "+3", "3_0"])
def test_live_api_positions_take_ascii_digits_only(value: str) -> None:
    from werkzeug.exceptions import BadRequest

    from replay_web import create_app
    from replay_web.stream import _after
    from replay_web.write import ApiError, _expected

    app = create_app({"TESTING": True})
    with app.test_request_context("/", query_string={"after": value}):
        with pytest.raises(BadRequest) as bad:
            _after()
        assert bad.value.description == f"after={value!r}: give the last position already seen (-1 for all)"
    with app.test_request_context("/", query_string={"expected": value}):
        with pytest.raises(ApiError) as err:
            _expected()
        assert err.value.description == f"expected={value!r} is not a position (a whole number ≥ 0)"
    with app.test_request_context("/", headers={"If-Match": f'"{value}"'}):
        with pytest.raises(ApiError) as err:
            _expected()
        assert err.value.code == 400
    with app.test_request_context("/", query_string={"after": "3", "expected": "4"}):
        assert (_after(), _expected()) == (3, 4)
