"""Every rule id of RULES.md, the ids findings and referees' rulings cite,
and the views of the rule tables that follow the catalog.

A rule's facts are its row in its family's table (:class:`ledger.rule_table.RuleEntry`):
the shared families' (``REC`` rejections, ``ALL`` rules of every game) is
:data:`ledger.rule_table.SHARED_TABLE`, each variant's is named by its catalog
entry (:attr:`ledger.catalog.VariantEntry.rule_table`). What is derived here
follows the catalog, games registered at run time included: :data:`RULE_TABLE`
(id -> entry), :data:`RULES_BY_FAMILY`, :data:`RULE_IDS` and
:data:`NEEDS_HIDDEN_EVIDENCE`; :class:`RuleSet` and :class:`RuleMap` make such
views of one column (the rule texts, the msgids, what a view shows at once).

>>> "BUR-PILE-1" in RULE_IDS, "NOPE-1" in RULE_IDS
(True, False)
>>> list(RULES_BY_FAMILY)
['REC', 'ALL', 'BUR', 'S40', 'R51', 'RAM', 'GIN']
>>> prefix_of("S40-OPEN-1"), RULE_TABLE["S40-OPEN-1"].view
('S40', 'public')
>>> sorted(NEEDS_HIDDEN_EVIDENCE)
['BUR-PILE-1', 'GIN-DISC-1', 'RAM-DISC-1', 'S40-PILE-2']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from typing import Generic, TypeVar

from ledger import catalog
from ledger.rule_table import SHARED_TABLE, RuleEntry

V = TypeVar("V")

#: the rule ids no variant owns, by family, in RULES.md order (from :data:`~ledger.rule_table.SHARED_TABLE`)
SHARED_RULES: dict[str, tuple[str, ...]] = {
    family: tuple(r.id for r in SHARED_TABLE if r.family == family) for family in catalog.SHARED_FAMILIES
}


class _Index:
    """The rule tables of one state of the catalog: ``entries`` (rule id ->
    entry, RULES.md order: the shared table, then each catalog entry's) and
    ``families`` (family -> its ids)."""

    def __init__(self, games: tuple[catalog.VariantEntry, ...]) -> None:
        self.games = games
        self.entries: dict[str, RuleEntry] = {r.id: r for r in SHARED_TABLE}
        for game in games:
            for r in game.table():
                if r.id in self.entries:
                    raise ValueError(f"rule id {r.id} of {game.id} is in two tables")
                self.entries[r.id] = r
        families: dict[str, list[str]] = {f: [] for f in (*catalog.SHARED_FAMILIES, *(g.family for g in games))}
        for rule in self.entries:
            families[prefix_of(rule)].append(rule)
        self.families = {family: tuple(ids) for family, ids in families.items()}


_INDEX: list[_Index] = []


def _current() -> _Index:
    """The index of the catalog as it is (made again only when the catalog changed)."""
    games = tuple(catalog.CATALOG.values())
    if not _INDEX or _INDEX[0].games != games:
        _INDEX[:] = [_Index(games)]
    return _INDEX[0]


def _entries() -> dict[str, RuleEntry]:
    return _current().entries


def _families() -> dict[str, tuple[str, ...]]:
    return _current().families


class RuleMap(Mapping[str, V], Generic[V]):
    """rule id -> one column of its table entry (``column(entry)``; rules
    whose column is None are left out), in RULES.md order, following the
    catalog (made again when it changed)."""

    def __init__(self, column: Callable[[RuleEntry], V | None]) -> None:
        self._column = column
        self._of: dict[str, RuleEntry] | None = None
        self._map: dict[str, V] = {}

    def _current(self) -> dict[str, V]:
        entries = _entries()
        if entries is not self._of:
            self._map = {rule: v for rule, e in entries.items() if (v := self._column(e)) is not None}
            self._of = entries
        return self._map

    def __getitem__(self, rule: str) -> V:
        return self._current()[rule]

    def __contains__(self, rule: object) -> bool:
        return rule in self._current()

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())

    def __repr__(self) -> str:
        return repr(self._current())


class RuleSet(Set[str]):
    """The rule ids whose table entry ``keep(entry)`` is true, in RULES.md
    order, following the catalog (made again when it changed); set
    operations give frozensets."""

    def __init__(self, name: str, keep: Callable[[RuleEntry], bool]) -> None:
        self._name = name
        self._keep = keep
        self._of: dict[str, RuleEntry] | None = None
        self._order: tuple[str, ...] = ()
        self._ids: frozenset[str] = frozenset()

    def _current(self) -> frozenset[str]:
        entries = _entries()
        if entries is not self._of:
            self._order = tuple(rule for rule, e in entries.items() if self._keep(e))
            self._ids = frozenset(self._order)
            self._of = entries
        return self._ids

    def __contains__(self, rule: object) -> bool:
        return rule in self._current()

    def __iter__(self) -> Iterator[str]:
        self._current()
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._current())

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> frozenset[str]:  # type: ignore[override]  # set operations give frozensets
        return frozenset(it)

    def __repr__(self) -> str:
        return f"{self._name}({sorted(self._current())!r})"


class _RulesByFamily(Mapping[str, tuple[str, ...]]):
    """family -> its rule ids, the shared families first, then the catalog's (RULES.md order)."""

    def __getitem__(self, family: str) -> tuple[str, ...]:
        return _families()[family]

    def __iter__(self) -> Iterator[str]:
        return iter(_families())

    def __len__(self) -> int:
        return len(_families())

    def __repr__(self) -> str:
        return repr(_families())


#: rule id -> its table entry (RULES.md order: the shared families, then the catalog's)
RULE_TABLE: Mapping[str, RuleEntry] = RuleMap(lambda e: e)

#: rule ids by family, in RULES.md order (REC: rejections; the rest: violations)
RULES_BY_FAMILY: Mapping[str, tuple[str, ...]] = _RulesByFamily()

#: every rule id of RULES.md (and of any variant registered in the catalog)
RULE_IDS: Set[str] = RuleSet("RULE_IDS", lambda e: True)

#: the rules whose decision can need hidden cards (FORMAT.md, "Partial records"), with why
#: (each entry's ``hidden_evidence``). In a partial record such a rule is judged only where
#: the known cards decide it: its finding about a seat that holds unknown cards (``??``) is
#: not reported, never a guess. Every other rule is decided by what is face up (melds,
#: discards, the pile, counts, the order of play, the cards shown at a hand's end) and is
#: checked in every record. (Which findings a *view* may show is another column of the
#: same tables: ``ledger.redaction.PUBLIC_RULES``.)
NEEDS_HIDDEN_EVIDENCE: Mapping[str, str] = RuleMap(lambda e: e.hidden_evidence)


def prefix_of(rule: str) -> str:
    """The family of a rule id (``REC``, ``ALL``, ``BUR``, ``S40``, ``R51``, ``RAM``, ``GIN``)."""
    return rule.split("-", 1)[0]


__all__ = [
    "NEEDS_HIDDEN_EVIDENCE",
    "RULES_BY_FAMILY",
    "RULE_IDS",
    "RULE_TABLE",
    "SHARED_RULES",
    "RuleMap",
    "RuleSet",
    "prefix_of",
]
