"""The simulated tournament the viewer's and the ruling's tests share: ``simulate
--tournament cup``, 12 pairs, 4 rounds, seed 1 (docs/tournaments.md's example)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result


def simulate_cup(run: Callable[..., Result], out: Path) -> None:
    """Write the cup's tournament record and games into the folder ``out`` with ``run``
    (a CLI invoker on a store, ``cli_invoker(db)``); asserts the command succeeded."""
    result = run(
        "simulate", "--tournament", "cup", "--entrants", "12", "--rounds", "4", "--seed", "1", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
