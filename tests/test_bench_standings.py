"""The standings benchmark runs at a tiny size and prints every figure of one run (never timed here)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest


def test_bench_standings_prints_each_figure_beside_the_fold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = importlib.import_module("bench.bench_standings")
    bench.main(
        ["--entrants", "5", "--rounds", "2", "--requests", "4", "--folds", "2", "--repeat", "2", "--dir", str(tmp_path)]
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(
        "tournament: 5 pairs, 2 rounds, 4 games (1,964 events), a tournament record of 11 events; "
        "simulated and imported in "
    )
    assert out[1].startswith("load average: ") and out[1].endswith(" CPUs")
    assert out[2:4] == ["| measure | value | baseline (same run) | ratio / target |", "| --- | --- | --- | --- |"]
    cells = [line.split(" | ") for line in out[4:8]]
    assert [c[0] for c in cells] == [
        "| standings at random positions",
        "| standings at the last position",
        "| first standings (every game read)",
        "| cold standings at the last position, store opened afresh",
    ]
    assert all(c[2].startswith("fold of the 4 games: p95 ") and c[2].endswith(" ms (2)") for c in cells)
    assert cells[0][1].startswith("p95 ") and cells[0][1].endswith(" ms (4)")
    assert cells[3][1].endswith(" ms (2)")
    assert cells[0][3].endswith("x; p95 target ≤ 50 ms |")
    assert out[8] in ("OK", "TARGET MISSED") and len(out) == 9
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # the work folder is removed
