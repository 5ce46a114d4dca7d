"""The rule-id registry matches RULES.md, and every finding the fold makes cites a registered id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.rule_ids import RULE_IDS, RULES_BY_FAMILY

RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
#: the rule-id families (the shared ones and the catalog's), as a regex alternation
FAMILIES = "|".join(RULES_BY_FAMILY)


@pytest.mark.skipif(not RULES_MD.exists(), reason="../shared/RULES.md is not beside this checkout")
def test_registry_is_rules_md() -> None:
    ids = re.findall(rf"^\| ((?:{FAMILIES})-[A-Z0-9-]+) \|", RULES_MD.read_text(), re.M)
    assert tuple(ids) == tuple(r for family in RULES_BY_FAMILY.values() for r in family)
    # and no family of RULES.md is missing from the catalog (the regex above only sees the known ones)
    assert set(re.findall(r"^\| ([A-Z][A-Z0-9]+)-[A-Z0-9-]+ \|", RULES_MD.read_text(), re.M)) == set(RULES_BY_FAMILY)


def test_every_rule_id_in_the_code_is_registered() -> None:
    source = "\n".join(p.read_text() for p in (Path(__file__).resolve().parent.parent / "ledger").rglob("*.py"))
    cited = set(re.findall(rf'"((?:{FAMILIES})-[A-Z0-9]+(?:-[0-9]+)?)"', source))
    assert cited - RULE_IDS == set()
