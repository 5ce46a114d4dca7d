"""Scala 40 play (RULES.md "Scala 40"): 40-point openings, jolly swaps.

Going out needs a discard (``S40-OUT-1``), so a meld that would empty the
hand is undone. See :mod:`ledger.simulate.threshold` for the shared play.
"""

from __future__ import annotations

from ledger.simulate.threshold import ThresholdStrategy


class Scala40Strategy(ThresholdStrategy):
    """Heuristic Scala 40."""

    variant = "scala40"
    retake_rule = "S40-PILE-2"
    short_rule = "S40-OPEN-1"
