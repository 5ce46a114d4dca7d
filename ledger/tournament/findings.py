"""A tournament finding: a TOUR-… rule id at a position, its message as a msgid and parameters.

The shape is a game's finding (FORMAT.md "Machine-readable outputs":
``{position, hand: null, seat: null, rule, message}``); the message is data:
English is ``msgid % params``, another language renders the msgid from the
catalog (``ledger/translations``, domain ``ledger``) with the same
parameters (:meth:`TourFinding.text`).

>>> f = TourFinding(3, "TOUR-WARN-1", N_("warning to %(entrant)s"), {"entrant": "p7"})
>>> f.to_json()
{'position': 3, 'hand': None, 'seat': None, 'rule': 'TOUR-WARN-1', 'message': 'warning to p7'}
"""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any

import msgspec

from ledger.i18n import N_

#: the tournament's rule ids (TOURNAMENT.md "Rule ids (tournament)"), in order
TOUR_RULES: tuple[str, ...] = (
    "TOUR-PAIR-1",
    "TOUR-PAIR-2",
    "TOUR-GAME-1",
    "TOUR-GAME-2",
    "TOUR-WARN-1",
    "TOUR-WARN-2",
)


class TourFinding(msgspec.Struct, frozen=True):
    """A finding of the checker: ``position`` in the tournament record, ``rule``, ``msgid`` % ``params``."""

    position: int
    rule: str
    msgid: str
    params: dict[str, Any] = {}

    @property
    def message(self) -> str:
        """The English message: ``msgid % params``."""
        return self.msgid % self.params

    def text(self, tr: NullTranslations | None = None) -> str:
        """The message in the language of ``tr`` (English without one)."""
        return (tr.gettext(self.msgid) if tr is not None else self.msgid) % self.params

    def to_json(self) -> dict[str, Any]:
        """``{position, hand: null, seat: null, rule, message}`` (the English message)."""
        return {"position": self.position, "hand": None, "seat": None, "rule": self.rule, "message": self.message}


__all__ = ["N_", "TOUR_RULES", "TourFinding"]
