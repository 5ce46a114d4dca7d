"""Shared fixtures: real stores (a SQLite file, the PostgreSQL server named by
the environment), synthetic records, the viewer as a Flask app over records
in memory (:func:`records_app`, :func:`web_client`), the command line in process
(:func:`cli_invoker`, :func:`run` on the test's :func:`db`), and Debian's Chromium
driven by Playwright (:func:`browser`, :func:`open_page`; the real servers
they talk to are :mod:`ledger.testing.live`'s).

PostgreSQL: the tests read ``POSTGRES_HOST``, ``POSTGRES_PORT``,
``POSTGRES_USER``, ``POSTGRES_PASSWORD`` and ``POSTGRES_DBNAME`` (``.ci/run``
sets them for the server at 127.0.0.1:5432). Each test gets its own schema,
dropped afterwards. Without the variables the PostgreSQL tests skip, except
under ``CI=true``, where they fail; so do the browser tests without
``/usr/bin/chromium`` or Playwright, and the PDF tests without poppler-utils.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from click.testing import CliRunner, Result
from flask import Flask
from flask.testing import FlaskClient

from ledger.cli import cli
from ledger.events import Event
from ledger.records import encode_record
from ledger.store.application import LedgerApp
from ledger.synthetic import two_player_record
from replay_web import create_app
from replay_web.store import RecordStore

REPO = Path(__file__).resolve().parent.parent
PG_VARS = ("POSTGRES_HOST", "POSTGRES_USER", "POSTGRES_DBNAME")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def unavailable(message: str) -> NoReturn:
    """Skip the test for what this machine lacks (``message``); fail it under ``CI=true``."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {message}")
    pytest.skip(message)


def pg_settings() -> dict[str, str] | None:
    """The PostgreSQL connection settings from the environment, or None."""
    if not all(os.environ.get(k) for k in PG_VARS):
        return None
    return {
        "POSTGRES_HOST": os.environ["POSTGRES_HOST"],
        "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
        "POSTGRES_USER": os.environ["POSTGRES_USER"],
        "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "POSTGRES_DBNAME": os.environ["POSTGRES_DBNAME"],
        "POSTGRES_CONNECT_TIMEOUT": "5",
    }


def _pg_connect(settings: dict[str, str]):  # noqa: ANN202
    import psycopg

    return psycopg.connect(
        host=settings["POSTGRES_HOST"],
        port=settings["POSTGRES_PORT"],
        user=settings["POSTGRES_USER"],
        password=settings["POSTGRES_PASSWORD"] or None,
        dbname=settings["POSTGRES_DBNAME"],
        autocommit=True,
        connect_timeout=5,
    )


@pytest.fixture
def sqlite_env(tmp_path: Path) -> dict[str, str]:
    """eventsourcing settings for a fresh SQLite file."""
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "ledger.db")}


@pytest.fixture
def pg_env() -> Iterator[dict[str, str]]:
    """eventsourcing settings for a fresh schema on the PostgreSQL server."""
    settings = pg_settings()
    if settings is None:
        unavailable(f"PostgreSQL not configured: set {', '.join(PG_VARS)} (and POSTGRES_PORT, POSTGRES_PASSWORD)")
    schema = "t_" + uuid.uuid4().hex[:16]
    with _pg_connect(settings) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_SCHEMA": schema, **settings}
    finally:
        with _pg_connect(settings) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def pg_url(pg_env: dict[str, str]) -> str:
    """The same fresh schema as a ``postgresql://`` URL (for ``--db``)."""
    e = pg_env
    auth = e["POSTGRES_USER"] + (":" + e["POSTGRES_PASSWORD"] if e["POSTGRES_PASSWORD"] else "")
    return f"postgresql://{auth}@{e['POSTGRES_HOST']}:{e['POSTGRES_PORT']}/{e['POSTGRES_DBNAME']}?schema={e['POSTGRES_SCHEMA']}"


@pytest.fixture(params=["sqlite", pytest.param("pg", marks=pytest.mark.postgres)])
def store_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """Each store test runs once on SQLite and once on PostgreSQL."""
    return request.getfixturevalue(f"{request.param}_env")


@pytest.fixture
def open_store(store_env: dict[str, str]) -> Iterator[Callable[[], LedgerApp]]:
    """Opens (another) :class:`LedgerApp` on the test's store; all closed at teardown."""
    apps: list[LedgerApp] = []

    def opener() -> LedgerApp:
        apps.append(LedgerApp(env=store_env))
        return apps[-1]

    yield opener
    for app in apps:
        app.close()


@pytest.fixture
def app(open_store: Callable[[], LedgerApp]) -> LedgerApp:
    """A :class:`LedgerApp` on an empty store."""
    return open_store()


def record_bytes(game_id: str, *, hands: int = 1, turns: int = 6, seed: int = 0, variant: str = "ramino") -> bytes:
    """A valid synthetic record (canonical JSON Lines)."""
    return encode_record(two_player_record(game_id, variant=variant, hands=hands, turns=turns, seed=seed))


@pytest.fixture
def write_record_file(tmp_path: Path) -> Callable[..., Path]:
    """Writes a synthetic record (or given bytes) to ``tmp_path/records/NAME.jsonl``."""

    def write(game_id: str, data: bytes | None = None, *, name: str | None = None, **kw: int) -> Path:
        path = tmp_path / "records" / f"{name or game_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(record_bytes(game_id, **kw) if data is None else data)
        return path

    return write


@pytest.fixture
def make_record() -> Callable[..., bytes]:
    """:func:`record_bytes`: ``make_record(game_id, hands=1, turns=6, seed=0, variant="ramino")``."""
    return record_bytes


# --- the viewer over records in memory ----------------------------------------------------------


@pytest.fixture(scope="session")
def records_app() -> Callable[..., Flask]:
    """``records_app(*records, testing=True, **config)``: the viewer's Flask app over
    ``records`` (each a list of events) held in memory; ``config`` adds to the app's."""

    def make(*records: list[Event], testing: bool = True, **config: Any) -> Flask:
        return create_app(
            {**({"TESTING": True} if testing else {}), "LEDGER_STORE": RecordStore(records=list(records)), **config}
        )

    return make


@pytest.fixture
def web_client(records_app: Callable[..., Flask]) -> Callable[..., FlaskClient]:
    """``web_client(*records, **config)``: a test client of :func:`records_app`."""
    return lambda *records, **config: records_app(*records, **config).test_client()


# --- Chromium (Playwright) and the PDF tools ------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, launched once per test module (not once per session:
    while Playwright's sync API runs, the report's own PDF printing cannot start it)."""
    if not os.path.exists(CHROMIUM):
        unavailable(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., tuple[Any, list[str]]]]:
    """``open_page(base_url, width=1400, height=1000)``: a page in a new browser context and
    the list that collects its uncaught exceptions and console errors; the contexts close at
    teardown."""
    contexts: list[Any] = []

    def opener(base_url: str, width: int = 1400, height: int = 1000) -> tuple[Any, list[str]]:
        contexts.append(browser.new_context(viewport={"width": width, "height": height}, base_url=base_url))
        page = contexts[-1].new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        return page, errors

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture
def pdf_tools() -> None:
    """The report's PDF tests need Chromium, Playwright, and poppler-utils' pdftotext and pdfinfo."""
    from replay_web.pdf import chromium_path

    if chromium_path() is None:
        unavailable("no Chromium (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("playwright is not installed")
    for tool in ("pdftotext", "pdfinfo"):
        if shutil.which(tool) is None:
            unavailable(f"{tool} is not installed (apt-get install poppler-utils)")


# --- the command line, in process ------------------------------------------------------------------

#: what a CLI test's environment drops: a store or persistence module named by the caller's shell
CLI_ENV: dict[str, str | None] = {"RUMMY_LEDGER_DB": None, "PERSISTENCE_MODULE": None}
#: ... and the caller's locale too (English, UTF-8)
NO_LOCALE: dict[str, str | None] = {
    **CLI_ENV,
    "LANG": "C.UTF-8",
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANGUAGE": None,
}


@pytest.fixture(scope="session")
def cli_invoker() -> Callable[..., Callable[..., Result]]:
    """``cli_invoker(db, env=CLI_ENV, catch_exceptions=False)``: a function
    ``run(*args, store=None, input=None, env=None)`` that runs ``rummy-ledger --db STORE ARGS``
    in process (click's CliRunner) on ``db`` unless ``store`` names another, in ``env`` updated
    by the call's own; exceptions propagate unless ``catch_exceptions``."""

    def make(
        db: str | Path, env: dict[str, str | None] = CLI_ENV, catch_exceptions: bool = False
    ) -> Callable[..., Result]:
        def run(
            *args: str, store: str | None = None, input: str | bytes | None = None, env: dict[str, Any] | None = None
        ) -> Result:
            runner = CliRunner(env={**base, **(env or {})})
            return runner.invoke(cli, ["--db", store or str(db), *args], input=input, catch_exceptions=catch_exceptions)

        base = env
        return run

    return make


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The test's store: a SQLite file not made yet."""
    return str(tmp_path / "cli.db")


@pytest.fixture
def run(cli_invoker: Callable[..., Callable[..., Result]], db: str) -> Callable[..., Result]:
    """``run(*args, store=None, input=None, env=None)``: ``rummy-ledger --db DB ARGS`` (:func:`cli_invoker`)."""
    return cli_invoker(db)
