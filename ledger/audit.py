"""The rule-violation audit of a record (FORMAT.md, "Machine-readable outputs").

The audit is the findings the fold (:mod:`ledger.replay`) collected while it
rebuilt the table: every finding cites a RULES.md id. An impossible record is
not audited but rejected (:class:`~ledger.errors.RecordError`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from ledger.events import Event
from ledger.replay import replay
from ledger.state import Finding, TableState

if TYPE_CHECKING:
    from ledger.rulings import Ruling


class AuditReport(msgspec.Struct, frozen=True):
    """``{"game_id", "findings"}``: the findings ordered by position."""

    game_id: str
    findings: tuple[Finding, ...]

    def to_json(self, rulings: Mapping[int, Sequence[Ruling]] | None = None) -> dict[str, Any]:
        """The ``rummy-ledger audit --json`` object of FORMAT.md.

        With ``rulings`` (:func:`ledger.rulings.by_finding`) every finding
        gets the added key ``"ruling"``: the first ruling that answers it
        (:meth:`ledger.rulings.Ruling.to_json`), or null while it is open.
        """
        out = []
        for f in self.findings:
            item: dict[str, Any] = {
                "position": f.position,
                "hand": f.hand,
                "seat": f.seat,
                "rule": f.rule,
                "message": f.message,
            }
            if rulings is not None:
                found = rulings.get(f.position)
                item["ruling"] = found[0].to_json() if found else None
            out.append(item)
        return {"game_id": self.game_id, "findings": out}


def report(state: TableState) -> AuditReport:
    """The audit of a replayed game (its final state), findings by position."""
    findings = tuple(sorted(state.findings, key=lambda f: f.position))
    return AuditReport(state.game_id, findings)


def audit(events: Iterable[Event]) -> AuditReport:
    """Replay ``events`` and return their :class:`AuditReport`.

    Raises :class:`~ledger.errors.RecordError` for an impossible record.
    """
    return report(replay(events))
