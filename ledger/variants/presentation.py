"""What a variant adds to the views of its table (the presentation side of
the rules, kept out of them: issue 11).

Each game of the catalog (:mod:`ledger.catalog`) may name a
:class:`VariantPresentation` subclass (``VariantEntry.presentation``); a
game that names none gets this base, which adds nothing. The additions are
typed (msgspec structs): :meth:`VariantPresentation.meld_badges` for a meld
(Burraco's burraco kind, the card points), :meth:`VariantPresentation.table_notes`
for the table (Burraco's pozzetti, Gin's deadwood, the elimination
threshold, with English ``notes`` lines: a :class:`TableNotes`), which
:func:`ledger.views.state_view` puts in its typed view.
:meth:`~VariantPresentation.meld_extras` gives a meld's badges as plain keys
(JSON-ready; a field left ``UNSET`` is no key).

>>> from ledger.variants.ramino.rules import RaminoRules
>>> type(presentation(RaminoRules())).__name__, presentation(RaminoRules()).meld_extras(None)
('VariantPresentation', {})
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from ledger import catalog
from ledger.state import Meld, TableState
from ledger.variants.base import Rules


class MeldBadges(msgspec.Struct, frozen=True):
    """What a variant shows on a meld: ``burraco`` (Burraco: ``"clean"``,
    ``"semi-clean"``, ``"dirty"``, or None for a meld that is no burraco)
    and ``points`` (the meld's card points, Burraco; its opening value, the
    threshold games). A field a variant does not show is ``UNSET``."""

    burraco: str | None | UnsetType = UNSET
    points: int | UnsetType = UNSET


class TableNotes(msgspec.Struct, frozen=True):
    """The base of a variant's data about the table (:meth:`VariantPresentation.table_notes`):
    Burraco's ``PozzettoNotes``, Gin's ``DeadwoodNotes``, the threshold games'
    ``EliminationNotes``; it has no field of its own, so each subclass's
    fields keep their order."""


class VariantPresentation:
    """A variant's additions to the views: none (the default for a game
    whose catalog entry names no presentation). Built for the rules object
    of one record (``rules``: its ruleset and options)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def meld_badges(self, meld: Meld) -> MeldBadges | None:
        """What the variant shows on ``meld``; None: nothing."""
        return None

    def table_notes(self, state: TableState, pov: int | None) -> TableNotes | None:
        """The variant's data about the table as ``pov`` sees it (None: every
        seat's; -1: no seat's), a struct whose fields become keys of the
        table's JSON (:meth:`ledger.views.StateView.to_json`); None: nothing."""
        return None

    def meld_extras(self, meld: Meld) -> dict[str, Any]:
        """:meth:`meld_badges` as the keys a meld's view adds (``{}`` for none)."""
        return _keys(self.meld_badges(meld))


def _keys(data: msgspec.Struct | None) -> dict[str, Any]:
    """A struct's set fields, in field order, as plain data (nested structs as dicts)."""
    if data is None:
        return {}
    out: dict[str, Any] = msgspec.to_builtins(data)
    return out


#: ``"module:Class"`` -> the class, once imported
_LOADED: dict[str, type[VariantPresentation]] = {}
#: the last presentation made, with its rules object and catalog target: the
#: views ask at every meld of a table, for the same rules
_last: tuple[Rules, str | type | None, VariantPresentation] | None = None


def presentation(rules: Rules) -> VariantPresentation:
    """The presentation of ``rules``' variant (its catalog entry's, else the
    default :class:`VariantPresentation`)."""
    global _last
    entry = catalog.CATALOG.get(rules.variant)
    target = entry.presentation if entry is not None else None
    last = _last
    if last is not None and last[0] is rules and last[1] is target:
        return last[2]
    if target is None:
        made = VariantPresentation(rules)
    elif isinstance(target, str):
        cls = _LOADED.get(target)
        if cls is None:
            cls = _LOADED[target] = catalog.load(target)
        made = cls(rules)
    else:
        made = target(rules)
    _last = (rules, target, made)
    return made


__all__ = ["MeldBadges", "TableNotes", "VariantPresentation", "presentation"]
