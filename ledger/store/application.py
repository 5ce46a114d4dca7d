"""The event store of game records: an ``eventsourcing`` application (DESIGN.md, layer 2).

:class:`LedgerApp` is the store handle, in three layers, one module each:
its reads and the live games' states (:class:`ledger.store.reads.GameReads`),
the append path (:class:`ledger.store.append.GameAppends`) and the import
path (:class:`ledger.store.importing.GameImports`). :func:`open_app` opens
the store named by ``--db`` or the environment (:mod:`ledger.store.settings`),
checked first by :mod:`ledger.store.probe`. The rows it writes are in the
stored form of :mod:`ledger.stored`; the seal of each append, ``verify`` and
``backfill`` are the seal wing's (:mod:`ledger.sealing`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ledger.store.probe import check_store
from ledger.store.settings import store_env
from ledger.store.tournaments import TournamentStore


class LedgerApp(TournamentStore):
    """The store of game records (one sequence per game): reads
    (:class:`~ledger.store.reads.GameReads`), appends
    (:class:`~ledger.store.append.GameAppends`), imports
    (:class:`~ledger.store.importing.GameImports`) and tournament records
    (:class:`~ledger.store.tournaments.TournamentStore`).

    Use :func:`open_app` to pick the store from the CLI option or environment,
    or pass an eventsourcing ``env`` mapping directly.
    """

    name = "LedgerApp"


def open_app(db: str | None = None, env: Mapping[str, str] | None = None, *, create: bool = True) -> LedgerApp:
    """The :class:`LedgerApp` on the store named by ``db`` (path or URL) or the
    environment (see the module docstring); ``env`` adds eventsourcing settings.

    Checked first by :func:`ledger.store.probe.check_store`: with
    ``create=False`` (commands that only read) a SQLite file that does not
    exist raises :class:`~ledger.store.probe.StoreMissingError` instead of
    being created; a PostgreSQL database that does not exist or a server that
    does not answer raises :class:`~ledger.store.probe.StoreUnreachableError`
    at once."""
    settings = store_env(db)
    if env:
        settings.update(env)
    check_store(settings, create=create)
    return LedgerApp(env=settings)
