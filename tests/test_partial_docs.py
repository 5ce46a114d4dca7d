"""docs/partial-records.md runs as printed: every ``console`` block is run,
command by command, in an empty folder (with the checkout's ``fixtures``), by
the installed ``rummy-ledger`` in a real shell, and each command's output
(stdout and stderr) must be the text under it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "partial-records.md"


def blocks() -> list[list[tuple[str, str]]]:
    """Each console block as ``[(command, expected output)]``."""
    found = []
    for body in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        found.append([(cmd, "\n".join(out).strip("\n")) for cmd, out in steps])
    return found


@pytest.mark.parametrize("index", range(len(blocks())))
def test_the_console_blocks_run_as_printed(index: int, tmp_path: Path) -> None:
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUMMY_LEDGER", "PERSISTENCE", "LANG", "LC_"))}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", LANG="C.UTF-8", COLUMNS="80")
    for command, expected in blocks()[index]:
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert (done.stdout + done.stderr).strip("\n") == expected, command


def test_the_doc_shows_a_partial_record_and_a_score_only_game() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert '"card":"??"' in text and "cards_shown" in text and "record-scores" in text
    assert len(blocks()) == 2
