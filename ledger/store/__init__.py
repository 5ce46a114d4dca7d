"""The store layer (DESIGN.md, layer 2): the game records on an ``eventsourcing`` store.

Data flow: the pure domain (:mod:`ledger.events`, :mod:`ledger.replay`) and
the stored form (:mod:`ledger.stored`) → the seal (:mod:`ledger.sealing`) →
this package → the projections (:mod:`ledger.projections`) and the
interfaces (the CLI, :mod:`replay_web`).

- :mod:`ledger.store.application` — :class:`~ledger.store.application.LedgerApp`,
  the store handle, and :func:`~ledger.store.application.open_app`;
- :mod:`ledger.store.journal` — the ``rummy_journal`` side table (who
  appended each event, when, its seals);
- the seal of each append call: :mod:`ledger.sealing.witness` (the seal
  wing, :mod:`ledger.sealing`, holds the chain, verify and backfill);
- :mod:`ledger.store.probe` — whether the named store exists and answers.
"""
