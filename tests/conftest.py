"""Shared fixtures: real stores (a SQLite file, the PostgreSQL server named by
the environment) and synthetic records.

PostgreSQL: the tests read ``POSTGRES_HOST``, ``POSTGRES_PORT``,
``POSTGRES_USER``, ``POSTGRES_PASSWORD`` and ``POSTGRES_DBNAME`` (``.ci/run``
sets them for the server at 127.0.0.1:5432). Each test gets its own schema,
dropped afterwards. Without the variables the PostgreSQL tests skip, except
under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ledger.records import encode_record
from ledger.store.application import LedgerApp
from ledger.synthetic import two_player_record

REPO = Path(__file__).resolve().parent.parent
PG_VARS = ("POSTGRES_HOST", "POSTGRES_USER", "POSTGRES_DBNAME")


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
        message = f"PostgreSQL not configured: set {', '.join(PG_VARS)} (and POSTGRES_PORT, POSTGRES_PASSWORD)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {message}")
        pytest.skip(message)
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
