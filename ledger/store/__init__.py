"""The store layer (DESIGN.md, layer 2): the game records on an ``eventsourcing`` store.

Data flow: the pure domain (:mod:`ledger.events`, :mod:`ledger.replay`) →
this package → the projections (:mod:`ledger.projections`) and the
interfaces (the CLI, :mod:`replay_web`).

- :mod:`ledger.store.application` — :class:`~ledger.store.application.LedgerApp`,
  the store handle, and :func:`~ledger.store.application.open_app`;
- :mod:`ledger.store.persistence` — the msgspec mapper: stored bytes = the
  canonical JSON of the record event; topics; game ids to originator ids;
- :mod:`ledger.store.journal` — the ``rummy_journal`` side table (who
  appended each event, when, its seals);
- the seal chain in the store: :mod:`ledger.store.sealing` (the seals of
  each append), :mod:`ledger.store.seal_sql` (the two tables by SQL, the
  stored seals), :mod:`ledger.store.verify` (verify and checkpoint checks:
  the fast read :mod:`ledger.store.verify_fast`, the row-by-row check
  :mod:`ledger.store.verify_rows`) and :mod:`ledger.store.backfill` (stores
  from before the chain, sealed once);
- :mod:`ledger.store.probe` — whether the named store exists and answers.
"""
