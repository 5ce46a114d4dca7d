"""rummy-ledger: event-sourced game records and replays for the Italian rummy family.

The pure domain (cards, events, records, melds, variants, the fold, audit and
scoring) lives in this package and does no I/O; :mod:`ledger.store.application` and
:mod:`ledger.stored.persistence` put it on an ``eventsourcing`` store, and
:mod:`ledger.cli` is the ``rummy-ledger`` command.
"""

__version__ = "0.1.0"
FORMAT = "rummy-ledger/1"
