"""The pure domain imports no I/O layer (DESIGN.md, "Layers").

Each pure module is imported in a fresh interpreter and must not pull in
eventsourcing, DuckDB, Flask, click or psycopg.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

PURE = [
    "ledger.cards",
    "ledger.catalog",
    "ledger.events",
    "ledger.records",
    "ledger.melds",
    "ledger.state",
    "ledger.variants",
    "ledger.variants.outcome",
    "ledger.rule_ids",
    "ledger.rule_table",
    "ledger.rule_texts",
    "ledger.rule_messages",
    "ledger.replay",
    "ledger.audit",
    "ledger.game_summary",
    "ledger.scoring",
    "ledger.views",
    "ledger.redaction",
    "ledger.render",
    "ledger.sealing.chain",
    "ledger.rulings",
    "ledger.hand_history",
    "ledger.tournament.events",
    "ledger.tournament.records",
    "ledger.tournament.state",
    "ledger.tournament.vp",
    "ledger.tournament.results",
    "ledger.tournament.standings",
    "ledger.tournament.history",
    "ledger.tournament.pairing",
    "ledger.tournament.checker",
    "ledger.tournament.findings",
    "ledger.tournament.render",
    "ledger.testing.tournaments",
    "ledger.texts",
]
FORBIDDEN = ("eventsourcing", "duckdb", "flask", "click", "psycopg", "sqlite3")


@pytest.mark.parametrize("module", PURE)
def test_pure_module_imports_no_io_layer(module: str) -> None:
    code = "\n".join(
        [
            "import sys, importlib",
            f"importlib.import_module({module!r})",
            "import ledger.variants as v",
            "for name in v.REGISTRY:",
            "    try:",
            "        v.find_variant(name)",
            "    except ModuleNotFoundError:",
            "        pass",
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))",
        ]
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
