"""The size of issue 27's attack classes in a run: ``RUMMY_LEDGER_ATTACKS=1``
(CI's slow set, which ``.ci/run`` sets) scales up the hostile fuzz, the
seat-view twin, the racing writers, the kill -9 runs and the concurrent
importers to a few minutes more on two workers, without the long non-hostile
tests ``RUMMY_LEDGER_SLOW=1`` turns on (10,000-game analytics, the 200-game
partial oracle). ``RUMMY_LEDGER_SLOW=1`` implies the attack set, at its own
larger sizes."""

from __future__ import annotations

import os

#: ``RUMMY_LEDGER_SLOW=1``: every slow test, the attack classes at their largest
SLOW = os.environ.get("RUMMY_LEDGER_SLOW") == "1"
#: ``RUMMY_LEDGER_ATTACKS=1`` (or ``SLOW``): the attack classes scaled up
ATTACKS = SLOW or os.environ.get("RUMMY_LEDGER_ATTACKS") == "1"


def scale(fast: int, attacks: int, slow: int | None = None) -> int:
    """The count for this run: ``fast`` by default, ``attacks`` under
    ``RUMMY_LEDGER_ATTACKS=1``, ``slow`` (else ``attacks``) under
    ``RUMMY_LEDGER_SLOW=1``.

    >>> scale(2, 3, 4) in (2, 3, 4)
    True
    """
    if SLOW:
        return attacks if slow is None else slow
    return attacks if ATTACKS else fast
