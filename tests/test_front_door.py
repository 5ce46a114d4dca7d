"""Issue 26, "The front door": the smaller items a newcomer meets first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result

REPO = Path(__file__).resolve().parents[1]
#: 19, 16 and 13 events: with --batch 25 the second game is cut by the first transaction's end
THREE = [
    REPO / "fixtures" / "burraco" / "dispute.jsonl",
    REPO / "fixtures" / "scala40" / "jolly_swap.jsonl",
    REPO / "examples" / "live" / "club-live.jsonl",
]


def test_analytics_update_counts_each_game_once_however_the_batches_cut_it(run: Callable[..., Result]) -> None:
    """A game whose events fall into two transactions is one game updated (it was counted per transaction:
    "166 games updated" for a store of 150)."""
    assert run("import", "--no-analytics", *map(str, THREE)).exit_code == 0
    cut = run("analytics", "update", "--batch", "25")
    assert cut.exit_code == 0, cut.output
    assert cut.stdout.split(": ", 1)[1] == "3 games updated (48 events applied in 2 transactions)\n"
    # the twin: one transaction, the same three games
    whole = run("analytics", "update", "--rebuild")
    rebuilt = "3 games updated (48 events applied in 1 transaction) (rebuilt from scratch)\n"
    assert whole.stdout.split(": ", 1)[1] == rebuilt
    assert run("query", "--no-update", "--csv", "SELECT count(*) AS n FROM games").stdout == "n\n3\n"
