"""How the CLI words a finding and the referee's rulings on it, in the
language of a gettext translations object (English when None): the lines of
``audit``, of ``show --at N`` and of ``append``/``rule`` (a finding's status,
:func:`~ledger.rulings.finding_status`, is the pure domain's: the hand history prints it too).
"""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any

from ledger.rulings import finding_status
from ledger.state import Finding

_ENGLISH = NullTranslations()

__all__ = ["finding_line", "finding_status"]


def finding_line(f: Finding, tr: Any = None) -> str:
    """``  position P (hand H, seat S): RULE: message``, as ``audit`` prints
    it (``tr``: the language, a gettext translations object; English when None)."""
    _ = (tr if tr is not None else _ENGLISH).gettext
    parts = (
        f.hand is not None and _("hand %(hand)s") % {"hand": f.hand},
        f.seat is not None and _("seat %(seat)s") % {"seat": f.seat},
    )
    who = ", ".join(p for p in parts if p)
    return "  " + _("position %(at)s") % {"at": f.position} + (f" ({who})" if who else "") + f": {f.rule}: {f.text(tr)}"
