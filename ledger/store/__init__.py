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
- :mod:`ledger.store.sealstore` — the seal chain in the store: sealing on
  append, verify, checkpoints, the backfill of stores older than the chain;
- :mod:`ledger.store.probe` — whether the named store exists and answers.
"""
