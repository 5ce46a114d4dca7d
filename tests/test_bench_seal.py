"""The seal benchmark runs at a tiny size and prints every figure of one run."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest


def test_bench_seal_prints_verify_and_import_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = importlib.import_module("bench.bench_seal")
    assert bench.main(["--events", "1500", "--import-events", "500", "--rounds", "1", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"built {tmp_path / 'verify.db'}: 1,924 events in ") and out[0].endswith(
        "ev/s, import with the seal chain)"
    )
    assert out[1] == "verify: 2 games, 1,924 events, 0 MB of canonical lines"
    assert [line.split("  ")[1] for line in out[2:9]] == [
        "verify (fast read, both chains, checks)",
        "row-by-row check alone (verify before)",
        "baseline: sha256(line) per event, in memory",
        "seal chain alone, in memory",
        "seal and journal chains, in memory",
        "one SHA-256 over all bytes (sha256sum)",
        "SQL of the fast read alone",
    ]
    assert all(line.endswith(" s") and " ev/s  " in line for line in out[2:9])
    assert out[9].startswith("  ratio verify / baseline: ") and "x (target >= 0.5x); both chains / baseline: " in out[9]
    assert out[10] == "import: 962 events per round, 1 rounds each, alternating"
    assert out[11].startswith("  with the chain     median ") and out[12].startswith("  without the chain  median ")
    assert (
        out[13].startswith("  overhead: ")
        and " CPU (medians, target <= 10 %); time inside the chain itself: " in out[13]
    )
    assert len(out) == 14
