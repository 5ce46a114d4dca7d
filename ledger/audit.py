"""The rule-violation audit of a record (FORMAT.md, "Machine-readable outputs").

The audit is the findings the fold (:mod:`ledger.replay`) collected while it
rebuilt the table: every finding cites a RULES.md id. An impossible record is
not audited but rejected (:class:`~ledger.errors.RecordError`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from ledger.events import Event
from ledger.replay import replay
from ledger.state import Finding, TableState


class AuditReport(msgspec.Struct, frozen=True):
    """``{"game_id", "findings"}``: the findings ordered by position."""

    game_id: str
    findings: tuple[Finding, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``rummy-ledger audit --json`` object of FORMAT.md."""
        return {
            "game_id": self.game_id,
            "findings": [
                {"position": f.position, "hand": f.hand, "seat": f.seat, "rule": f.rule, "message": f.message}
                for f in self.findings
            ],
        }


def report(state: TableState) -> AuditReport:
    """The audit of a replayed game (its final state), findings by position."""
    findings = tuple(sorted(state.findings, key=lambda f: f.position))
    return AuditReport(state.game_id, findings)


def audit(events: Iterable[Event]) -> AuditReport:
    """Replay ``events`` and return their :class:`AuditReport`.

    Raises :class:`~ledger.errors.RecordError` for an impossible record.
    """
    return report(replay(events))
