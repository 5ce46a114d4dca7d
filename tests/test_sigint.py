"""The SIGINT memory (ledger.sigint, issue 23): the CLI reads it without importing the console
script, which imports the CLI; the circle cli <-> console is gone."""

from __future__ import annotations

import ast
import subprocess
import sys
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
    assert imported(ROOT / "ledger" / "sigint.py") == {
        "__future__",
        "collections.abc",
        "contextlib",
        "signal",
        "threading",
        "typing",
    }
    assert console.interrupted is sigint.interrupted


def test_a_ctrl_c_during_a_deferred_block_comes_as_it_ends() -> None:
    """``ledger.sigint.deferred`` (the import of a command's modules): the block runs to
    its end, then the Ctrl-C is Python's ``KeyboardInterrupt``."""
    code = (
        "import os, signal\n"
        "from ledger.sigint import deferred\n"
        "done = []\n"
        "try:\n"
        "    with deferred():\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        done.append('block ran on')\n"
        "except KeyboardInterrupt:\n"
        "    print(done, 'then interrupted')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout == "['block ran on'] then interrupted\n"
