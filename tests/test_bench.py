"""The import benchmark runs (tiny sizes) and reports both mappers from one run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_import.py"


def test_bench_import_reports_both_mappers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_import", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rates = bench.run(3, 1, 1, tmp_path)
    assert set(rates) == {"msgspec", "json", "msgspec map", "json map"}
    out = capsys.readouterr().out
    assert out.startswith("rummy-ledger import benchmark: 3 games, 186 events, SQLite in ")
    assert "ratio msgspec / JSON" in out
