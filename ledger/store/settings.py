"""Which store: the eventsourcing settings named by ``--db`` or the environment (DESIGN.md, layer 2).

Which store (first that applies):

1. ``db`` passed to :func:`ledger.store.application.open_app` (the CLI's
   global ``--db``);
2. the ``RUMMY_LEDGER_DB`` environment variable;
3. eventsourcing's own ``PERSISTENCE_MODULE`` (+ ``POSTGRES_*`` or
   ``SQLITE_DBNAME``) environment variables, as they are;
4. the SQLite file ``./ledger.db``.

``db`` and ``RUMMY_LEDGER_DB`` are a SQLite file path or a URL
``postgresql://user[:password]@host[:port]/dbname[?schema=name]``.

>>> store_env("games.db")["SQLITE_DBNAME"]
'games.db'
>>> env = store_env("postgresql://postgres@127.0.0.1:5432/test?schema=s1")
>>> env["PERSISTENCE_MODULE"], env["POSTGRES_HOST"], env["POSTGRES_DBNAME"], env["POSTGRES_SCHEMA"]
('eventsourcing.postgres', '127.0.0.1', 'test', 's1')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_DB = "ledger.db"
DB_ENV_VAR = "RUMMY_LEDGER_DB"


def store_env(db: str | None = None, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The eventsourcing settings for the store named by ``db`` or ``environ``.

    Returns the keys to lay over ``os.environ`` (empty when eventsourcing's own
    ``PERSISTENCE_MODULE`` variables are to be used as they are). Raises
    ``ValueError`` for a URL that is not ``postgresql://``, and for a ``db``
    that is empty or blank (``--db ""``: not the default ``./ledger.db``).

    >>> store_env("  ")
    Traceback (most recent call last):
    ...
    ValueError: --db '  ' names no store: give a SQLite file path or a postgresql:// URL
    """
    if db is not None and not db.strip():
        raise ValueError(f"--db {db!r} names no store: give a SQLite file path or a postgresql:// URL")
    environ = os.environ if environ is None else environ
    target = db or environ.get(DB_ENV_VAR) or None
    if target is None and environ.get("PERSISTENCE_MODULE"):
        return {}
    target = target or os.path.join(".", DEFAULT_DB)
    if "://" in target:
        return _postgres_env(target, environ)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": target,
        "SQLITE_LOCK_TIMEOUT": environ.get("SQLITE_LOCK_TIMEOUT", "10"),
    }


def _postgres_env(url: str, environ: Mapping[str, str]) -> dict[str, str]:
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ValueError(f"unsupported store URL {url!r}: use a SQLite file path or postgresql://user@host:port/dbname")
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise ValueError(f"store URL {url!r} names no database (postgresql://user@host:port/dbname)")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or environ.get("POSTGRES_USER", "postgres")),
        "POSTGRES_PASSWORD": unquote(parts.password) if parts.password else environ.get("POSTGRES_PASSWORD", ""),
        "POSTGRES_CONNECT_TIMEOUT": environ.get("POSTGRES_CONNECT_TIMEOUT", "5"),
    }
    schema = parse_qs(parts.query).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema[-1]
    return env


def describe_store(env: Mapping[str, str]) -> str:
    """A short human name of the store configured by ``env`` over ``os.environ``.

    >>> describe_store({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "x.db"})
    'SQLite x.db'
    """
    merged = {**os.environ, **env}
    module = merged.get("PERSISTENCE_MODULE", "")
    if module.endswith("postgres"):
        schema = merged.get("POSTGRES_SCHEMA")
        return (
            f"PostgreSQL {merged.get('POSTGRES_USER', '')}@{merged.get('POSTGRES_HOST', '')}:"
            f"{merged.get('POSTGRES_PORT', '5432')}/{merged.get('POSTGRES_DBNAME', '')}"
            + (f" (schema {schema})" if schema else "")
        )
    if module.endswith("sqlite"):
        return f"SQLite {merged.get('SQLITE_DBNAME', '')}"
    return module or "in-memory store"
