"""Which store, and what is said when it is not there (issue 16): commands
that only read never create a store; an unknown game id names the store and
the ids close to it; a PostgreSQL database that does not exist, or a server
that does not answer, says so at once. Real SQLite files, the real
PostgreSQL server of the environment, and the installed console script."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.errors import GameNotFoundError
from ledger.store.application import LedgerApp, open_app
from ledger.store.probe import StoreMissingError, StoreUnreachableError
from replay_web import create_app
from tests.conftest import CLI_ENV, REPO, pg_settings, unavailable

DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
NO_STORE = "rummy-ledger: error: no store at {db} (import a record first: rummy-ledger import FILE)\n"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "club.db"


@pytest.fixture
def run(cli_invoker: Callable[..., Callable[..., Result]], db: Path) -> Callable[..., Result]:
    return cli_invoker(db, {**CLI_ENV, "LANG": "C", "LC_ALL": None, "LANGUAGE": None})


READS = [
    ["list"],
    ["list", "--json"],
    ["show", "bur-dispute"],
    ["show", "bur-dispute", "--at", "3"],
    ["audit"],
    ["audit", "bur-dispute"],
    ["score", "bur-dispute"],
    ["export", "bur-dispute"],
    ["seal", "bur-dispute"],
    ["verify"],
    ["token", "list"],
    ["analytics", "update"],
    ["checkpoint", "-o", "cp.json"],
    ["report", "bur-dispute", "-o", "r.html"],
]


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a))
def test_a_read_on_a_path_without_a_store_creates_nothing(
    run: Callable[..., Result], db: Path, tmp_path: Path, args: list[str]
) -> None:
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", NO_STORE.format(db=db))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_record_file_needs_no_store(run: Callable[..., Result], tmp_path: Path) -> None:
    audit = run("audit", str(DISPUTE))
    assert audit.exit_code == 1 and audit.stdout.startswith("bur-dispute: 6 findings\n")
    assert run("score", str(DISPUTE)).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_writes_create_the_store(run: Callable[..., Result], db: Path, tmp_path: Path) -> None:
    token = run("token", "create", "--name", "desk", "--role", "referee", store=str(tmp_path / "tokens.db"))
    assert token.exit_code == 0 and (tmp_path / "tokens.db").is_file()
    imported = run("import", "--no-analytics", str(DISPUTE))
    assert imported.exit_code == 0 and db.is_file()
    assert run("list", "--json").stdout.count("\n") == 1


def test_list_from_another_folder_leaves_no_ledger_db(tmp_path: Path) -> None:
    exe = shutil.which("rummy-ledger", path=str(Path(sys.executable).parent))
    assert exe is not None
    env = {
        k: v for k, v in os.environ.items() if k not in ("RUMMY_LEDGER_DB", "PERSISTENCE_MODULE", "LANGUAGE", "LC_ALL")
    }
    done = subprocess.run(
        [exe, "list"], cwd=tmp_path, env={**env, "LANG": "C.UTF-8"}, capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout, done.stderr) == (2, "", NO_STORE.format(db="./ledger.db"))
    assert list(tmp_path.iterdir()) == []


def test_the_library_refuses_a_missing_store_only_when_reading(db: Path) -> None:
    with pytest.raises(
        StoreMissingError, match=r"^no store at .*club\.db \(import a record first: rummy-ledger import FILE\)$"
    ):
        open_app(str(db), create=False)
    assert not db.exists()
    open_app(str(db)).close()
    assert db.is_file()


@pytest.fixture
def stored(run: Callable[..., Result]) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    assert run("import", "--no-analytics", str(REPO / "fixtures" / "scala40" / "jolly_swap.jsonl")).exit_code == 0


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["show", "Bur-Dispute"], "; did you mean bur-dispute?"),
        (["score", "bur-disput"], "; did you mean bur-dispute?"),
        (["seal", "BUR-DISPUTE"], "; did you mean bur-dispute?"),  # raised by the seal store, named by the CLI
        (["export", "scala40-joly-swap"], "; did you mean scala40-jolly-swap?"),
        (["audit", "zzz"], ""),
    ],
)
def test_an_unknown_game_names_the_store_and_close_ids(
    run: Callable[..., Result], db: Path, stored: None, args: list[str], hint: str
) -> None:
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"rummy-ledger: error: no game {args[1]!r} in the store (SQLite {db}){hint}\n",
    )


def test_the_library_error_carries_the_store_and_the_suggestions(db: Path, stored: None) -> None:
    app = open_app(str(db), create=False)
    try:
        with pytest.raises(GameNotFoundError) as caught:
            app.get_events("Bur-Dispute")
    finally:
        app.close()
    err = caught.value
    assert (err.game_id, err.store, err.suggestions) == ("Bur-Dispute", f"SQLite {db}", ("bur-dispute",))
    assert str(err) == f"no game 'Bur-Dispute' in the store (SQLite {db}); did you mean bur-dispute?"


def _pg_url(dbname: str, port: str | None = None) -> str:
    settings = pg_settings()
    if settings is None:
        unavailable("PostgreSQL is not configured (POSTGRES_HOST, POSTGRES_USER, POSTGRES_DBNAME)")
    password = f":{settings['POSTGRES_PASSWORD']}" if settings["POSTGRES_PASSWORD"] else ""
    return (
        f"postgresql://{settings['POSTGRES_USER']}{password}@"
        f"{settings['POSTGRES_HOST']}:{port or settings['POSTGRES_PORT']}/{dbname}"
    )


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.postgres
def test_a_postgres_database_that_does_not_exist_says_so(run: Callable[..., Result]) -> None:
    settings = pg_settings() or {}
    url = _pg_url("nosuch")
    where = f"{settings.get('POSTGRES_HOST')}:{settings.get('POSTGRES_PORT')}"
    for args in (["list"], ["import", "--no-analytics", str(DISPUTE)]):
        result = run(*args, store=url)
        assert (result.exit_code, result.stdout, result.stderr) == (
            2,
            "",
            f"rummy-ledger: error: database 'nosuch' does not exist on {where}\n",
        )
    italian = run("--lang", "it", "list", store=url)
    assert (italian.exit_code, italian.stderr) == (
        2,
        f"rummy-ledger: errore: il database 'nosuch' non esiste su {where}\n",
    )
    with pytest.raises(StoreUnreachableError, match=f"^database 'nosuch' does not exist on {where}$") as caught:
        open_app(url)
    assert (caught.value.kind, caught.value.params) == ("no_database", {"db": "'nosuch'", "where": where})


@pytest.mark.postgres
def test_a_postgres_server_that_does_not_answer_says_so(run: Callable[..., Result]) -> None:
    port = _closed_port()
    host = (pg_settings() or {}).get("POSTGRES_HOST")
    result = run("list", store=_pg_url("test", port=port))
    assert (result.exit_code, result.stderr) == (
        2,
        f"rummy-ledger: error: no PostgreSQL server answers at {host}:{port}: connection refused\n",
    )


@pytest.mark.postgres
def test_an_existing_postgres_database_opens(pg_env: dict[str, str]) -> None:
    app = LedgerApp(env=pg_env)
    app.close()
    opened = open_app(None, env=pg_env, create=False)  # the probe passes; eventsourcing builds the app
    assert opened.list_games() == []
    opened.close()


@pytest.mark.postgres
def test_a_text_originator_id_type_on_postgres_is_refused_at_start(
    run: Callable[..., Result], pg_env: dict[str, str], pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """eventsourcing's ORIGINATOR_ID_TYPE=text made a store that failed at its
    first lookup (text = uuid): refused before anything is opened or created,
    naming the setting; uuid, said or not, opens."""
    refusal = (
        "{setting}='text' is not supported on a PostgreSQL store: its game ids are uuid; unset {setting} or set it "
        "to uuid"
    )
    for setting in ("ORIGINATOR_ID_TYPE", "LEDGERAPP_ORIGINATOR_ID_TYPE"):
        for args in (["list"], ["import", "--no-analytics", str(DISPUTE)], ["serve", "--port", "1"]):
            result = run(*args, store=pg_url, env={setting: "text"})
            assert (result.exit_code, result.stdout, result.stderr) == (
                2,
                "",
                "rummy-ledger: error: " + refusal.format(setting=setting) + "\n",
            )
    italian = run("--lang", "it", "list", store=pg_url, env={"ORIGINATOR_ID_TYPE": "text"})
    assert italian.stderr == (
        "rummy-ledger: errore: ORIGINATOR_ID_TYPE='text' non è supportato da un archivio PostgreSQL: i suoi id di "
        "partita sono uuid; togli ORIGINATOR_ID_TYPE o impostalo a uuid\n"
    )
    with pytest.raises(StoreUnreachableError) as caught:
        open_app(None, env={**pg_env, "ORIGINATOR_ID_TYPE": "text"})
    assert caught.value.params == {"setting": "ORIGINATOR_ID_TYPE", "value": "'text'"}
    monkeypatch.setenv("ORIGINATOR_ID_TYPE", "text")
    with pytest.raises(StoreUnreachableError, match="^ORIGINATOR_ID_TYPE='text' is not supported"):
        create_app({"LEDGER_DB": pg_url})  # the viewer at start, not at its first request
    monkeypatch.setenv("ORIGINATOR_ID_TYPE", "uuid")
    stored = run("import", "--no-analytics", str(DISPUTE), store=pg_url)
    assert stored.exit_code == 0, stored.output
    listed = run("list", "--json", store=pg_url)
    assert [json.loads(line)["game_id"] for line in listed.stdout.splitlines()] == ["bur-dispute"]


# --- a --db that names no store file (trial finding) ---


#: a read, a write, and a command that needs no store (``serve`` is refused the same way, before it serves)
NO_STORE_ARGS = [["list"], ["import", "--no-analytics", str(DISPUTE)], ["audit", str(DISPUTE)]]


@pytest.mark.parametrize("empty", ["", "  "], ids=["empty", "blank"])
@pytest.mark.parametrize("args", NO_STORE_ARGS, ids=["read", "write", "record-file"])
def test_an_empty_db_is_refused_not_the_default_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, empty: str, args: list[str]
) -> None:
    from click.testing import CliRunner

    from ledger.cli import cli

    monkeypatch.chdir(tmp_path)
    result = CliRunner(env={**CLI_ENV, "RUMMY_LEDGER_DB": str(tmp_path / "env.db")}).invoke(
        cli, ["--db", empty, *args], catch_exceptions=False
    )
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"rummy-ledger: error: --db {empty!r} names no store: give a SQLite file path or a postgresql:// URL\n",
    )
    assert list(tmp_path.iterdir()) == []  # neither ./ledger.db nor $RUMMY_LEDGER_DB


@pytest.mark.parametrize("args", NO_STORE_ARGS, ids=["read", "write", "record-file"])
def test_a_folder_as_db_says_so(run: Callable[..., Result], tmp_path: Path, args: list[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    result = run(*args, store=str(folder))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"rummy-ledger: error: {folder} is a folder, not a store file (give a SQLite file path, e.g. "
        f"{folder}/ledger.db)\n",
    )
    assert list(folder.iterdir()) == []


def test_the_cli_does_not_load_psycopg_for_a_sqlite_store(tmp_path: Path) -> None:
    """psycopg (~16 MB) is loaded only when a PostgreSQL store is opened, also by the CLI's start-up."""
    script = (
        "import sys\n"
        "from ledger.cli import main\n"
        "sys.argv = ['rummy-ledger', '--db', sys.argv[1], 'list']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('psycopg' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "none.db")], capture_output=True, text=True, check=False
    )
    assert done.stderr.splitlines()[-1] == "False", done.stderr
