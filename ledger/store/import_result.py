"""What one record's import checks and answers (layer 2): :func:`checked`, the
fold's validation before anything is stored, and :class:`ImportResult`, the
outcome; shared by the one-process path (:mod:`ledger.store.importing`), a
worker of a parallel import (:mod:`ledger.store.parallel`) and a streamed
file (:mod:`ledger.store.streamed`).
"""

from __future__ import annotations

import msgspec

from ledger import replay as _replay
from ledger.errors import RecordError, RuleViolationError
from ledger.events import GameStarted
from ledger.records import Record
from ledger.state import TableState


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of :meth:`LedgerApp.import_record`.

    ``status`` is ``"stored"`` (a new game), ``"appended"`` (the file began
    with the stored game's events; its tail was appended, ``previous`` is the
    stored length before) or ``"already_stored"``; ``events`` is the number of
    events of the record (the game's length afterwards).
    """

    game_id: str
    events: int
    status: str
    path: str | None = None
    previous: int | None = None

    @property
    def appended(self) -> int:
        """Events this import added to the store (0 when already stored)."""
        if self.status == "stored":
            return self.events
        if self.status == "appended":
            return self.events - (self.previous or 0)
        return 0


def checked(record: Record, strict: bool) -> tuple[TableState, str]:
    """The record validated by the fold: its final state and game id (the
    checks of :meth:`GameImports.import_record`, before anything is stored;
    also a worker's of a parallel import, :mod:`ledger.store.parallel`)."""
    final = _replay.validate(record)
    if strict and final.findings:
        earliest = min(final.findings, key=lambda f: f.position)
        raise RuleViolationError(
            earliest, len(final.findings), line=record.line_of(earliest.position), path=record.path
        )
    first = record.events[0] if record.events else None
    if not isinstance(first, GameStarted):
        raise RecordError(
            "REC-ORDER",
            "a record starts with game_started",
            line=record.line_of(0),
            field="type",
            position=0,
            path=record.path,
        )
    return final, first.game_id
