"""STUB (being written by the lead): the fold over a record.

API the rest of the code may rely on:

- ``replay(events, upto=None) -> TableState``: fold events[0..upto]; raises
  ``RecordError`` (rule REC-…, ``position`` set) for an impossible record.
- ``validate(record) -> TableState``: ``replay`` of a ``Record``, with the
  error located at the record's line.
- ``Replayer(events)``: ``.state_at(n)`` with checkpoints; ``.final``.
"""
from __future__ import annotations

from ledger.errors import RecordError


def replay(events, upto=None):
    return None


def validate(record):
    try:
        return replay(record.events)
    except RecordError as err:
        raise err.with_location(line=record.line_of(err.position), path=record.path) from None
