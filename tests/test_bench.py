"""The import benchmark runs (tiny sizes) and reports both mappers from one run."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest


def test_bench_import_reports_both_mappers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = importlib.import_module("bench.bench_import")
    rates = bench.run(3, 1, 1, tmp_path)
    assert set(rates) == {"msgspec", "json", "msgspec map", "json map"}
    out = capsys.readouterr().out
    assert out.startswith("rummy-ledger import benchmark: 3 games, 186 events, SQLite in ")
    assert "ratio msgspec / JSON" in out


def test_bench_hostile_runs_small_sizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = importlib.import_module("bench.bench_hostile")
    assert bench.main(["--sizes", "1000,3000", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "| events | findings | import: peak RSS | import: CPU | audit: peak RSS | audit: CPU |"
    assert out[2].startswith("| 1,000 | 491 | ") and out[3].startswith("| 3,000 | 1,475 | ")
    assert out[-1] == "linear: met"


def test_the_essential_import_folds_every_file_and_figure_12_compares_the_cli_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bench/essential_import.py (issue 28, target 1) on 3 simulated games, and
    run_all's figure 12 on the same 3 games with one counted pair."""
    run_all = importlib.import_module("bench.run_all")
    essential = importlib.import_module("bench.essential_import")
    folder = tmp_path / "corpus-burraco-3"
    paths = run_all.corpus(folder, 3)
    events = sum(p.read_bytes().count(b"\n") for p in paths)
    assert essential.main([str(folder)]) == 0
    assert capsys.readouterr().out == f"3 {events}\n"
    assert run_all.main(["--only", "12", "--essential-games", "3", "--pairs", "1", "--dir", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("| 12 |"))
    assert f"import --no-analytics --jobs 1, 3 Burraco games ({events:,} events), fresh SQLite" in line
    assert line.endswith("target ≤1.5x |")
