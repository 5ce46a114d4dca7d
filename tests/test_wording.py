"""Findings and messages word players without "his"/"her" (issue 16): a seat,
a player, a name, "their"; checked on every string in the rule modules and on
every finding message the fixtures expect."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

GENDERED = re.compile(r"\b(he|she|him|his|her|hers|himself|herself)\b", re.IGNORECASE)
MODULES = sorted((REPO / "ledger").rglob("*.py"))  # every module of the package, subpackages too


def _strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant in the module (f-strings' literal parts too), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(REPO)))
def test_rule_modules_say_no_his_or_her(path: Path) -> None:
    assert [(line, text) for line, text in _strings(path) if GENDERED.search(text)] == []


def test_expected_finding_messages_say_no_his_or_her() -> None:
    messages = []
    for expected in sorted(REPO.glob("fixtures/**/*expected*.json")):
        data = json.loads(expected.read_text(encoding="utf-8"))
        messages += [(expected.name, f["message"]) for f in data.get("audit", {}).get("findings", [])]
        if "error" in data:
            messages.append((expected.name, data["error"]["message"]))
    assert len(messages) >= 15  # the fixtures carry 13 findings and 2 rejections: the check reads them
    assert [m for m in messages if GENDERED.search(m[1])] == []
