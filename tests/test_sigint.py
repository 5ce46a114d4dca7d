"""The SIGINT memory (ledger.sigint, issue 23): the CLI reads it without importing the console
script, which imports the CLI; the circle cli <-> console is gone."""

from __future__ import annotations

import ast
from pathlib import Path

from ledger import console, sigint

ROOT = Path(__file__).resolve().parent.parent


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports (at the top or inside a function)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_cli_reads_the_sigint_memory_not_the_console_script() -> None:
    assert "ledger.console" not in imported(ROOT / "ledger" / "cli" / "__init__.py")
    assert "ledger.sigint" in imported(ROOT / "ledger" / "cli" / "__init__.py")
    assert imported(ROOT / "ledger" / "sigint.py") == {"__future__", "signal", "typing"}
    assert console.interrupted is sigint.interrupted
