"""Every rule id of RULES.md, the ids findings and referees' rulings cite.

The shared families (``REC`` rejections, ``ALL`` rules of every game) are
written here; each variant's family comes from its catalog entry
(:mod:`ledger.catalog`), so both views follow the catalog, games registered
at run time included.

>>> "BUR-PILE-1" in RULE_IDS, "NOPE-1" in RULE_IDS
(True, False)
>>> list(RULES_BY_FAMILY)
['REC', 'ALL', 'BUR', 'S40', 'R51', 'RAM', 'GIN']
>>> prefix_of("S40-OPEN-1")
'S40'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Set

from ledger import catalog

#: the rule ids no variant owns, by family, in RULES.md order
SHARED_RULES: dict[str, tuple[str, ...]] = {
    "REC": ("REC-FORMAT", "REC-DECK", "REC-WHERE", "REC-REF", "REC-ORDER"),
    "ALL": (
        "ALL-TURN-1",
        "ALL-TURN-2",
        "ALL-TURN-3",
        "ALL-MELD-1",
        "ALL-MELD-2",
        "ALL-DEAL-1",
        "ALL-SCORE-1",
        "ALL-SCORE-2",
    ),
}

#: the rules whose decision can need hidden cards (FORMAT.md, "Partial records"), with why.
#: In a partial record such a rule is judged only where the known cards decide it: its
#: finding about a seat that holds unknown cards (``??``) is not reported, never a guess.
#: Every other rule is decided by what is face up (melds, discards, the pile, counts, the
#: order of play, the cards shown at a hand's end) and is checked in every record.
#: (Which findings a *view* may show is another table: ``ledger.redaction.PUBLIC_RULES``.)
NEEDS_HIDDEN_EVIDENCE: dict[str, str] = {
    "BUR-PILE-1": "whether the seat held another copy of the card it took",
    "S40-PILE-2": "whether the seat held another copy of the card it took",
    "RAM-DISC-1": "whether the seat held another copy of the card it took",
    "GIN-DISC-1": "whether the seat held another copy of the card it took (and a knock's discard is face down)",
}


def _families() -> dict[str, tuple[str, ...]]:
    return {**SHARED_RULES, **{e.family: e.rule_ids for e in catalog.CATALOG.values()}}


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


class _RuleIds(Set[str]):
    """Every rule id (a set that follows the catalog)."""

    def __contains__(self, rule: object) -> bool:
        return isinstance(rule, str) and rule in _families().get(prefix_of(rule), ())

    def __iter__(self) -> Iterator[str]:
        return (r for ids in _families().values() for r in ids)

    def __len__(self) -> int:
        return sum(len(ids) for ids in _families().values())

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> frozenset[str]:  # type: ignore[override]  # set operations give frozensets
        return frozenset(it)

    def __repr__(self) -> str:
        return f"RULE_IDS({sorted(self)!r})"


#: rule ids by family, in RULES.md order (REC: rejections; the rest: violations)
RULES_BY_FAMILY: Mapping[str, tuple[str, ...]] = _RulesByFamily()

#: every rule id of RULES.md (and of any variant registered in the catalog)
RULE_IDS: Set[str] = _RuleIds()


def prefix_of(rule: str) -> str:
    """The family of a rule id (``REC``, ``ALL``, ``BUR``, ``S40``, ``R51``, ``RAM``, ``GIN``)."""
    return rule.split("-", 1)[0]
