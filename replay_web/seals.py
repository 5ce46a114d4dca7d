"""The seals the viewer's game page shows (FORMAT.md "Seal"), once the chain is checked (issue 26).

:func:`seal_context` gives the board's seal after the position and the
record's seal under the scores, only in the referee's whole view, and only
when the stored chain verifies (:attr:`replay_web.cache.GameData.broken`):
otherwise a red banner's data instead.
"""

from __future__ import annotations

from typing import Any

from ledger.redaction import Pov
from ledger.sealing.chain import short_form
from replay_web import access
from replay_web.lang import current_lang


def seal_context(full: Any, at: int, pov: Pov, acc: access.Access) -> dict[str, Any]:
    """The seal after position ``at`` (FORMAT.md "Seal": the store's stored
    seal; computed for games served from record files), for the board.

    Only the referee's whole view shows seals: a seal is a hash of every
    card of the record, hidden ones too, so a seat that knows all but an
    opponent's hand could search the few hands left for the one that gives
    the seal (and the record's seal tells the record's length). Also the
    record's seal (``record_seal``) under the scores.

    A stored game's chain is checked first (``full.broken``, once per
    version): broken, there is no seal but ``chain_broken``, a red banner."""
    none = {"seal_at": None, "seal_at_short": None, "record_seal": None, "record_seal_short": None}
    if pov is not None or not acc.omniscient:
        return none | {"chain_broken": None}
    if full.broken:
        from replay_web.report_data import chain_banner

        return none | {"chain_broken": chain_banner(full.broken, current_lang())}
    seal, last = full.seals[at], full.seals[-1]
    return {"seal_at": seal, "seal_at_short": _short(seal), "record_seal": last, "record_seal_short": _short(last)} | {
        "chain_broken": None
    }


def _short(seal: str | None) -> str:
    """The seal's short form; a stored event without a seal (the store was
    edited behind the product's back) shows as such: ``rummy-ledger verify`` says more."""
    return short_form(seal) if seal else "none stored"


__all__ = ["seal_context"]
