"""The variant catalog: one entry per game, the one list everything else derives from.

Each :class:`VariantEntry` names a variant's record id (FORMAT.md, the
``variant`` of ``game_started``), its label, its rules class, its rule-id
family with the table of that family's rules (RULES.md: each rule's id,
texts, view, evidence and msgids, :class:`ledger.rule_table.RuleEntry`),
its simulator strategy and what its views add (its presentation).
From the catalog come: the values :mod:`ledger.events` accepts for
``variant`` and the JSON Schema's ``enum`` of them, the rules registry
(:func:`ledger.variants.find_variant`), the simulator's strategies
(:func:`ledger.simulate.find_strategy`), the rule ids and all else of the
rules (:mod:`ledger.rule_ids`, :mod:`ledger.rule_texts`,
:mod:`ledger.rule_messages`, :data:`ledger.redaction.PUBLIC_RULES`), the
CLI's ``--variant`` choices and the views' additions
(:func:`ledger.variants.presentation.presentation`).

Adding a game is one package under ``ledger/variants/`` (its rules, its
``rule_table`` module and, when its views show more than the table, its
``presentation`` module beside them, on
:mod:`ledger.variants.presentation`'s base), a module under
``ledger/simulate/`` (strategy), plus one entry in :data:`BUILTIN`; a test
or a plug-in may :func:`register` one at run time (and :func:`unregister`
it). Adding a rule is one entry in its family's table, its check, its tests
and its Italian msgstr.

Classes and rule tables are named by ``"module:Name"`` and imported only
when asked for (:func:`load`), so this module imports nothing of the
project: the record format (:mod:`ledger.events`) can depend on it without
a cycle.

>>> ids()
('burraco', 'scala40', 'ramino51', 'ramino', 'gin')
>>> entry("scala40").label, entry("scala40").family, entry("scala40").rule_ids[:2]
('Scala 40', 'S40', ('S40-OPEN-1', 'S40-OPEN-2'))
>>> entry("poker")
Traceback (most recent call last):
...
KeyError: "unknown variant 'poker' (known: burraco, gin, ramino, ramino51, scala40)"
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.rule_table import RuleEntry

#: a variant id: what a record's ``variant`` may be (lower-case ASCII name)
_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: a rule-id family: the prefix of its ids (``BUR`` in ``BUR-PILE-1``)
_FAMILY = re.compile(r"[A-Z][A-Z0-9]{1,7}")
#: families of the rule ids no variant owns (RULES.md: rejections, rules of every game)
SHARED_FAMILIES = ("REC", "ALL")


@dataclass(frozen=True)
class VariantEntry:
    """One game of the catalog.

    ``id``: the record's ``variant`` (FORMAT.md); ``label``: its name as
    shown to people (viewer, report); ``rules``: ``"module:Class"`` of its
    :class:`ledger.variants.base.Rules` subclass; ``family``: the prefix of
    its own rule ids; ``rule_table``: ``"module:NAME"`` of its rule table
    (a tuple of :class:`ledger.rule_table.RuleEntry`, RULES.md order;
    :meth:`table`, :attr:`rule_ids`);
    ``strategy``: ``"module:Class"`` of its simulator
    (:class:`ledger.simulate.strategy.Strategy`), or None when it has none;
    ``presentation``: ``"module:Class"`` of what its views add
    (:class:`ledger.variants.presentation.VariantPresentation`), None for nothing.
    A game registered at run time may give the classes and the table themselves.
    Raises :class:`ValueError` for an id that is not a lower-case name, a
    family that is not an upper-case prefix of its own, or (a table given
    as itself) a rule id that is not ``FAMILY-WORD-N``.
    """

    id: str
    label: str
    rules: str | type
    family: str
    rule_table: str | tuple[RuleEntry, ...]
    strategy: str | type | None = None
    presentation: str | type | None = None

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.id):
            raise ValueError(f"variant id {self.id!r} is not a lower-case name")
        if not _FAMILY.fullmatch(self.family) or self.family in SHARED_FAMILIES:
            raise ValueError(f"rule-id family {self.family!r} of {self.id} is not an upper-case prefix of its own")
        if not isinstance(self.rule_table, str):
            self._checked(self.rule_table)

    def _checked(self, table: tuple[RuleEntry, ...]) -> tuple[RuleEntry, ...]:
        for rule in table:
            if not re.fullmatch(rf"{self.family}-[A-Z0-9]+-[0-9]+", rule.id):
                raise ValueError(f"rule id {rule.id!r} of {self.id} is not {self.family}-WORD-N")
        return table

    def table(self) -> tuple[RuleEntry, ...]:
        """Its rule table (imported on first use), RULES.md order; raises
        :class:`ValueError` for a rule id that is not ``FAMILY-WORD-N``."""
        if not isinstance(self.rule_table, str):
            return self.rule_table
        table: tuple[RuleEntry, ...] = load(self.rule_table)
        return self._checked(table)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The ids of its rules, RULES.md order (from :meth:`table`)."""
        return tuple(r.id for r in self.table())


#: the games of the format, in RULES.md order
BUILTIN: tuple[VariantEntry, ...] = (
    VariantEntry(
        "burraco",
        "Burraco",
        "ledger.variants.burraco.rules:BurracoRules",
        "BUR",
        "ledger.variants.burraco.rule_table:BUR_TABLE",
        "ledger.simulate.burraco:BurracoStrategy",
        "ledger.variants.burraco.presentation:BurracoPresentation",
    ),
    VariantEntry(
        "scala40",
        "Scala 40",
        "ledger.variants.threshold.scala40:Scala40Rules",
        "S40",
        "ledger.variants.threshold.rule_table:S40_TABLE",
        "ledger.simulate.scala40:Scala40Strategy",
        "ledger.variants.threshold.presentation:ThresholdPresentation",
    ),
    VariantEntry(
        "ramino51",
        "Ramino 51",
        "ledger.variants.threshold.ramino51:Ramino51Rules",
        "R51",
        "ledger.variants.threshold.rule_table:R51_TABLE",
        "ledger.simulate.ramino51:Ramino51Strategy",
        "ledger.variants.threshold.presentation:ThresholdPresentation",
    ),
    VariantEntry(
        "ramino",
        "Ramino",
        "ledger.variants.ramino.rules:RaminoRules",
        "RAM",
        "ledger.variants.ramino.rule_table:RAM_TABLE",
        "ledger.simulate.ramino:RaminoStrategy",
    ),
    VariantEntry(
        "gin",
        "Gin Rummy",
        "ledger.variants.gin.rules:GinRules",
        "GIN",
        "ledger.variants.gin.rule_table:GIN_TABLE",
        "ledger.simulate.gin:GinStrategy",
        "ledger.variants.gin.presentation:GinPresentation",
    ),
)

#: id -> entry, in catalog order (the built-in games, then any registered)
CATALOG: dict[str, VariantEntry] = {e.id: e for e in BUILTIN}


def ids() -> tuple[str, ...]:
    """The variant ids, in catalog order."""
    return tuple(CATALOG)


def entry(variant: str) -> VariantEntry:
    """The catalog entry of ``variant``; raises :class:`KeyError` naming the known ids."""
    try:
        return CATALOG[variant]
    except KeyError:
        raise KeyError(f"unknown variant {variant!r} (known: {', '.join(sorted(CATALOG))})") from None


def register(new: VariantEntry) -> None:
    """Add a game to the catalog; raises :class:`ValueError` when its id or
    its rule-id family is already taken."""
    if new.id in CATALOG:
        raise ValueError(f"variant {new.id!r} is already in the catalog")
    if any(e.family == new.family for e in CATALOG.values()):
        raise ValueError(f"rule-id family {new.family!r} is already taken")
    CATALOG[new.id] = new


def unregister(variant: str) -> None:
    """Remove a game added by :func:`register` (the built-in games stay)."""
    if any(e.id == variant for e in BUILTIN):
        raise ValueError(f"{variant!r} is a built-in variant")
    CATALOG.pop(variant, None)


class _Labels(Mapping[str, str]):
    """variant id -> its label (the viewer's and the report's name of the game)."""

    def __getitem__(self, variant: str) -> str:
        return CATALOG[variant].label

    def __iter__(self) -> Iterator[str]:
        return iter(CATALOG)

    def __len__(self) -> int:
        return len(CATALOG)


#: variant id -> label, following the catalog (``LABELS["scala40"] == "Scala 40"``)
LABELS: Mapping[str, str] = _Labels()


def load(target: str | type) -> Any:
    """The object a ``"module:Name"`` reference names (imported on first use);
    a class given as itself is returned as it is."""
    if not isinstance(target, str):
        return target
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)


__all__ = [
    "BUILTIN",
    "CATALOG",
    "LABELS",
    "SHARED_FAMILIES",
    "VariantEntry",
    "entry",
    "ids",
    "load",
    "register",
    "unregister",
]
