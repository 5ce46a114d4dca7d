"""How the CLI words a finding and the referee's rulings on it, in the
language of a gettext translations object (English when None): the lines of
``audit``, of ``show --at N`` and of ``append``/``rule``.
"""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any

from ledger.rulings import Ruling
from ledger.state import Finding

_ENGLISH = NullTranslations()


def finding_status(
    position: int, index: dict[int, tuple[Ruling, ...]], rewound: dict[int, int], state: Any, tr: Any
) -> str:
    """``open``, ``ruled at position P by NAME: what``, then ``; move rewound
    by position R`` when the finding's move was rewound (as ``audit`` prints it)."""
    found = index.get(position)
    text = found[0].line(state, tr) if found else tr.gettext("open")
    if position in rewound:
        text += tr.gettext("; move rewound by position %(by)s") % {"by": rewound[position]}
    return text


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
