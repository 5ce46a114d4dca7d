"""Ramino 51 play (RULES.md "Ramino 51"): 51-point openings with a clean
meld, no melding in the first turn, going out by melding or discarding.
See :mod:`ledger.simulate.threshold` for the shared play.
"""

from __future__ import annotations

from ledger.events import HandEnded
from ledger.simulate.table import Table
from ledger.simulate.threshold import ThresholdStrategy


class Ramino51Strategy(ThresholdStrategy):
    """Heuristic Ramino 51."""

    variant = "ramino51"
    retake_rule = "R51-PILE-2"
    short_rule = "R51-OPEN-2"

    def on_empty(self, t: Table, seat: int) -> bool:
        """A seat with no cards left wins the hand, by melding too."""
        return t.try_(HandEnded(reason="went_out", seat=seat))
