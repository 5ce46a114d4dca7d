"""Every rule id of RULES.md, the ids findings and referees' rulings cite.

>>> "BUR-PILE-1" in RULE_IDS, "NOPE-1" in RULE_IDS
(True, False)
>>> prefix_of("S40-OPEN-1")
'S40'
"""

from __future__ import annotations

#: rule ids by family, in RULES.md order (REC: rejections; the rest: violations)
RULES_BY_FAMILY: dict[str, tuple[str, ...]] = {
    "REC": ("REC-FORMAT", "REC-DECK", "REC-WHERE", "REC-REF", "REC-ORDER"),
    "ALL": ("ALL-TURN-1", "ALL-TURN-2", "ALL-TURN-3", "ALL-MELD-1", "ALL-MELD-2", "ALL-DEAL-1", "ALL-SCORE-1"),
    "BUR": ("BUR-TURN-1", "BUR-MELD-1", "BUR-MELD-2", "BUR-MELD-3", "BUR-PILE-1", "BUR-POZZ-1", "BUR-POZZ-2",
            "BUR-CLOSE-1", "BUR-CLOSE-2", "BUR-CLOSE-3", "BUR-STOCK-1"),
    "S40": ("S40-OPEN-1", "S40-OPEN-2", "S40-PILE-1", "S40-PILE-2", "S40-MELD-1", "S40-SWAP-1", "S40-SWAP-2",
            "S40-DISC-1", "S40-OUT-1"),
    "R51": ("R51-PILE-1", "R51-PILE-2", "R51-OPEN-1", "R51-OPEN-2", "R51-OPEN-3", "R51-MELD-1", "R51-SWAP-1"),
    "RAM": ("RAM-DISC-1", "RAM-MELD-1", "RAM-OUT-1"),
    "GIN": ("GIN-KNOCK-1", "GIN-KNOCK-2", "GIN-LAY-1", "GIN-DISC-1", "GIN-WALL-1", "GIN-STALL-1"),
}

#: every rule id of RULES.md
RULE_IDS: frozenset[str] = frozenset(r for ids in RULES_BY_FAMILY.values() for r in ids)


def prefix_of(rule: str) -> str:
    """The family of a rule id (``REC``, ``ALL``, ``BUR``, ``S40``, ``R51``, ``RAM``, ``GIN``)."""
    return rule.split("-", 1)[0]
