"""No private cross-module names (issue 23): no module of ``ledger`` or
``replay_web`` imports another module's ``_name``, or reads one through the
module (``access._parse_time``); ``from ledger.sealing import chain as _seal`` (a
private alias of a public module) is fine."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OURS = ("ledger", "replay_web")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    modules: set[str] = set()  # local names bound to one of our modules
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in OURS:
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                full = f"{node.module}.{alias.name}"
                if (REPO / (full.replace(".", "/") + ".py")).exists() or (REPO / full.replace(".", "/")).is_dir():
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OURS:
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and _private(node.attr)
        ):
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names() -> None:
    found = {
        str(p.relative_to(REPO)): uses
        for root in OURS
        for p in sorted((REPO / root).rglob("*.py"))
        if (uses := _uses(p))
    }
    assert found == {}


def test_the_check_sees_both_forms(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from replay_web.words import _signed\nfrom replay_web import access\naccess._parse_time('x')\n")
    assert _uses(bad) == ["1: from replay_web.words import _signed", "3: access._parse_time"]
