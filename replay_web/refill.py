"""A ruling refused as stale (409) comes back filled in (issue 26).

When the game grew after the referee's page was drawn, the ruling is not
stored (:func:`replay_web.desk._store_ruling`: 409). The error page then links
back to the game at the finding's position with the same ruling in the
query (:func:`refill_args`: ``ruling``, ``ruling_finding`` and the form's
fields, ``ruling_side``, ``ruling_points``, ...); the game page opens that
finding's "rule on it" with the fields filled again (:func:`refill_of`), on
the current page (its ``expected`` is the game's length now), so one press
of the button rules again. Nothing here is trusted: the form is checked
again when it is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.params import ascii_int

#: the form fields of each ruling carried in the link (``ruling_<field>``)
FIELDS = {"penalty": ("side", "points", "rule", "note"), "restore": ("target", "reason", "note")}
#: the longest value carried (a note is at most 2000 characters, FORMAT.md)
MAX_VALUE = 2000


def refill_args(kind: str, finding: int, form: Mapping[str, Any]) -> dict[str, str]:
    """The query of the link back: ``{"ruling": kind, "ruling_finding": "7",
    "ruling_side": "seat:1", ...}`` from the form sent (``form``: its fields
    by name; empty ones left out)."""
    out = {"ruling": kind, "ruling_finding": str(finding)}
    for name in FIELDS[kind]:
        value = form.get(name)
        if value not in (None, ""):
            out[f"ruling_{name}"] = str(value)[:MAX_VALUE]
    return out


def refill_of(args: Mapping[str, str]) -> dict[str, Any] | None:
    """The ruling to fill in again, from a game page's query: ``{"kind",
    "finding", <field>: str}``, or None (no ruling, an unknown kind or a
    finding that is no whole number)."""
    kind = args.get("ruling")
    if kind not in FIELDS:
        return None
    try:
        finding = ascii_int(args.get("ruling_finding", ""))
    except ValueError:
        return None
    out: dict[str, Any] = {"kind": kind, "finding": finding}
    for name in FIELDS[kind]:
        value = args.get(f"ruling_{name}")
        if value is not None:
            out[name] = value[:MAX_VALUE]
    return out


__all__ = ["FIELDS", "refill_args", "refill_of"]
