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
