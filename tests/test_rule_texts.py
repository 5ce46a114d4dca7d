"""Every RULES.md rule has an English text (RULES.md's own) and an Italian one (issue 16)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.rule_ids import RULE_IDS, RULES_BY_FAMILY
from ledger.rule_texts import LANGUAGES, RULE_TEXTS, rule_text

RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
ROW = re.compile(r"^\| ((?:REC|ALL|BUR|S40|R51|RAM|GIN)-[A-Z0-9-]+) \| (.*) \|$", re.M)


def test_every_registered_rule_has_both_texts_in_rules_md_order() -> None:
    assert list(RULE_TEXTS) == [r for family in RULES_BY_FAMILY.values() for r in family]
    assert set(RULE_TEXTS) == RULE_IDS
    assert LANGUAGES == ("en", "it")
    for rule, texts in RULE_TEXTS.items():
        assert sorted(texts) == ["en", "it"], rule
        assert texts["en"].strip() and texts["it"].strip(), rule
        assert texts["it"] != texts["en"], f"{rule}: the Italian text is the English one"


@pytest.mark.skipif(not RULES_MD.exists(), reason="../shared/RULES.md is not beside this checkout")
def test_english_texts_are_rules_md_verbatim() -> None:
    rows = dict(ROW.findall(RULES_MD.read_text(encoding="utf-8")))
    assert list(rows) == list(RULE_TEXTS)  # every RULES.md id, nothing else
    for rule, text in rows.items():
        assert RULE_TEXTS[rule]["en"] == text, rule


def test_italian_keeps_the_record_names_and_numbers() -> None:
    for rule, texts in RULE_TEXTS.items():
        assert re.findall(r"`[^`]+`", texts["it"]) == re.findall(r"`[^`]+`", texts["en"]), rule
        assert re.findall(r"\d+", texts["it"]) == re.findall(r"\d+", texts["en"]), rule


def test_field_terms_in_the_italian_texts() -> None:
    it = {r: t["it"] for r, t in RULE_TEXTS.items()}
    assert (
        it["BUR-PILE-1"] == "Il pozzo era di una sola carta e quella stessa carta è stata scartata nello stesso turno."
    )
    assert (
        it["BUR-MELD-1"]
        == "Tris di 2 (pinelle), combinazione di sole matte, tris di più di 9 carte o scala di più di 14."
    )
    assert it["BUR-CLOSE-1"] == "Chiusura senza aver preso il pozzetto della coppia."
    assert "tallone" in it["BUR-STOCK-1"] and "smazzata" in it["BUR-STOCK-1"]


def test_rule_text_lookup() -> None:
    assert rule_text("BUR-TURN-1", "it") == "Attacco su una combinazione della coppia avversaria."
    assert rule_text("BUR-TURN-1", "en") == "Lay-off onto a meld of the other side."
    assert rule_text("BUR-TURN-1", "fr") == "Lay-off onto a meld of the other side."  # falls back to English
    assert rule_text("BUR-TURN-9", "it") is None
