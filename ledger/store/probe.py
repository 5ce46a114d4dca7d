"""Is the store there? Checked before the eventsourcing application is built.

Two questions eventsourcing answers badly:

- a command that only reads, on a SQLite path where no file exists, would
  create an empty store there (``list`` from another folder made a new
  ``./ledger.db``): :func:`check_store` with ``create=False`` raises
  :class:`StoreMissingError` instead;
- a PostgreSQL database that does not exist, or a server that does not
  answer, shows up as "couldn't get a connection after 5.00 sec" from the
  connection pool: :func:`probe_postgres` makes one ``psycopg`` connection
  with a short ``connect_timeout`` first and raises
  :class:`StoreUnreachableError` saying what is wrong.

``env`` is eventsourcing's settings (``PERSISTENCE_MODULE``,
``SQLITE_DBNAME``, ``POSTGRES_*``) laid over ``os.environ``, as
:func:`ledger.store.application.store_env` returns them.

>>> check_store({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "/no/such/x.db"}, create=False)
Traceback (most recent call last):
...
ledger.store.probe.StoreMissingError: no store at /no/such/x.db (import a record first: rummy-ledger import FILE)
>>> str(StoreUnreachableError(*_pg_reason(
...     'connection failed: connection to server at "h", port 5432 failed: FATAL:  database "nosuch" does not exist',
...     "nosuch", "h:5432")))
"database 'nosuch' does not exist on h:5432"
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from ledger.errors import LedgerError
from ledger.store.settings import store_env
from ledger.texts import N_

#: seconds the probe waits for a PostgreSQL server (eventsourcing's pool waits 5 s, then says only that)
PROBE_TIMEOUT = 3


class StoreMissingError(LedgerError, LookupError):
    """No store at ``path`` and the command only reads (nothing was created)."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"no store at {path} (import a record first: rummy-ledger import FILE)")


class StoreIsFolderError(LedgerError, IsADirectoryError):
    """The SQLite store's ``path`` is a folder (``--db ./games/``)."""

    def __init__(self, path: str) -> None:
        self.path = path
        example = os.path.join(path, "ledger.db")
        super().__init__(f"{path} is a folder, not a store file (give a SQLite file path, e.g. {example})")


#: what can be wrong with a PostgreSQL store -> the sentence (``%``-formatted with ``params``)
REASONS = {
    "no_database": N_("database %(db)s does not exist on %(where)s"),
    "refused": N_("no PostgreSQL server answers at %(where)s: connection refused"),
    "timeout": N_("no PostgreSQL server answers at %(where)s within %(wait)s s"),
    "no_role": N_("PostgreSQL at %(where)s: role %(role)s does not exist"),
    "other": N_("PostgreSQL at %(where)s (database %(db)s): %(detail)s"),
    "id_type": N_(
        "%(setting)s=%(value)s is not supported on a PostgreSQL store: its game ids are uuid; unset %(setting)s or "
        "set it to uuid"
    ),
}

#: eventsourcing's setting of the originator id column type, plain and prefixed by the application's name
#: (``LedgerApp``; eventsourcing reads the prefixed one first)
ID_TYPE_SETTINGS = ("LEDGERAPP_ORIGINATOR_ID_TYPE", "ORIGINATOR_ID_TYPE")


class StoreUnreachableError(LedgerError, ConnectionError):
    """The PostgreSQL store cannot be used: ``kind`` (a key of
    :data:`REASONS`) and ``params`` say why, naming the database and
    ``host:port``; ``reason`` is the English sentence."""

    def __init__(self, kind: str, params: Mapping[str, object]) -> None:
        self.kind, self.params = kind, dict(params)
        self.reason = REASONS[kind] % self.params
        super().__init__(self.reason)


def _merged(env: Mapping[str, str]) -> dict[str, str]:
    return {**os.environ, **env}


def check_store(env: Mapping[str, str], *, create: bool) -> None:
    """Raise unless the store named by ``env`` can be used as asked.

    SQLite: the path must not be a folder (:class:`StoreIsFolderError`),
    and with ``create=False`` the file must exist (``:memory:`` and
    ``file:`` URIs are not checked), else :class:`StoreMissingError`.
    PostgreSQL: :func:`check_settings`, then :func:`probe_postgres`
    (their errors), whatever ``create`` is: a database is never created
    here. Other modules are not checked.
    """
    merged = _merged(env)
    module = merged.get("PERSISTENCE_MODULE", "")
    if module.endswith("sqlite"):
        name = merged.get("SQLITE_DBNAME", "")
        if name and os.path.isdir(name):
            raise StoreIsFolderError(name)
        if not create and name and name != ":memory:" and not name.startswith("file:") and not os.path.exists(name):
            raise StoreMissingError(name)
    elif module.endswith("postgres"):
        check_settings(env)
        probe_postgres(merged)


def check_settings(env: Mapping[str, str]) -> None:
    """Raise :class:`StoreUnreachableError` (kind ``id_type``, naming the
    setting) when ``env`` (eventsourcing's settings, over ``os.environ``)
    asks a PostgreSQL store for another originator id type than ``uuid``:
    the ledger's own SQL and its recorder pass game ids as UUIDs, which a
    ``text`` column refuses at the first lookup (``text = uuid``). Reads no
    server and no file, so the viewer checks it at start
    (:func:`replay_web.store.open_store`), before its first request opens the store."""
    merged = _merged(env)
    if not merged.get("PERSISTENCE_MODULE", "").endswith("postgres"):
        return
    for setting in ID_TYPE_SETTINGS:
        value = merged.get(setting)
        if value is not None:
            if value.strip().lower() != "uuid":
                raise StoreUnreachableError("id_type", {"setting": setting, "value": repr(value)})
            return


def check_db(db: str) -> None:
    """Raise at once for a ``--db`` that no command can use, before any store
    is opened (the CLI's group, so that ``serve`` and the commands on record
    files refuse it too): empty or blank (``ValueError``, from
    :func:`ledger.store.settings.store_env`), or a folder
    (:class:`StoreIsFolderError`). URLs are checked when the store is opened."""
    if not db.strip():
        store_env(db)
    if "://" not in db and os.path.isdir(db):
        raise StoreIsFolderError(db)


def probe_postgres(settings: Mapping[str, str], timeout: int = PROBE_TIMEOUT) -> None:
    """One ``psycopg.connect`` to ``POSTGRES_HOST:POSTGRES_PORT/POSTGRES_DBNAME``
    as ``POSTGRES_USER`` with ``connect_timeout`` at most ``timeout`` seconds;
    raises :class:`StoreUnreachableError` ("database 'nosuch' does not exist on
    127.0.0.1:5432", "no PostgreSQL server answers at 127.0.0.1:5499: connection
    refused", ...) when it fails."""
    import psycopg

    host = settings.get("POSTGRES_HOST") or "localhost"
    port = settings.get("POSTGRES_PORT") or "5432"
    dbname = settings.get("POSTGRES_DBNAME", "")
    configured = settings.get("POSTGRES_CONNECT_TIMEOUT", "")
    wait = min(timeout, int(configured)) if configured.isdigit() and int(configured) > 0 else timeout
    try:
        conn = psycopg.connect(
            host=host,
            port=port,
            dbname=dbname,
            user=settings.get("POSTGRES_USER") or None,
            password=settings.get("POSTGRES_PASSWORD") or None,
            connect_timeout=wait,
        )
    except psycopg.OperationalError as exc:
        raise StoreUnreachableError(*_pg_reason(str(exc), dbname, f"{host}:{port}", wait)) from None
    conn.close()


def _pg_reason(text: str, dbname: str, where: str, wait: int = PROBE_TIMEOUT) -> tuple[str, dict[str, object]]:
    """``(kind, params)`` of :data:`REASONS` from libpq's connection error ``text``."""
    params: dict[str, object] = {"db": repr(dbname), "where": where}
    if re.search(r'database "[^"]*" does not exist', text):
        return "no_database", params
    if "Connection refused" in text:
        return "refused", params
    if "timeout expired" in text or "timed out" in text:
        return "timeout", {**params, "wait": wait}
    role = re.search(r'role "([^"]*)" does not exist', text)
    if role:
        return "no_role", {**params, "role": repr(role.group(1))}
    fatal = re.search(r"FATAL:\s+(.*)", text)
    detail = fatal.group(1) if fatal else text.removeprefix("connection failed: ")
    return "other", {**params, "detail": detail.splitlines()[0].strip()}


__all__ = [
    "ID_TYPE_SETTINGS",
    "PROBE_TIMEOUT",
    "REASONS",
    "StoreIsFolderError",
    "StoreMissingError",
    "StoreUnreachableError",
    "check_db",
    "check_settings",
    "check_store",
    "probe_postgres",
]
