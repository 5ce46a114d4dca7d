"""The live service's benchmark runs and reports every figure (issue 14); its
targets are checked by running ``bench/bench_live.py`` itself, not here."""

from __future__ import annotations

import importlib
import re


def test_bench_live_runs_and_reports(capsys):
    module = importlib.import_module("bench.bench_live")
    status = module.main(
        ["--store", "sqlite", "--events", "20", "--readers", "5", "--rounds", "2", "--noop-rounds", "1"]
    )
    out = capsys.readouterr().out
    assert status in (0, 1)
    assert re.search(
        r"^1 sqlite: HTTP append one event: p50 [0-9.]+ ms, p99 [0-9.]+ ms \(inside the app p50 [0-9.]+ ms, "
        r"p99 [0-9.]+ ms\) \| in-process p50",
        out,
        re.M,
    )
    assert re.search(r"^2 sqlite: 4 writers on 4 games: HTTP [0-9]+ ev/s \| in-process [0-9]+ ev/s \| ratio", out, re.M)
    assert re.search(r"^3 sqlite: SSE to 5/5 readers, 2 events: p50", out, re.M)
    assert re.search(
        r"^4 sqlite: 4 writers on 4 games: HTTP append [0-9]+ ev/s \(p50 [0-9.]+ ms, p99 [0-9.]+ ms\) \| no-op route "
        r"[0-9]+ req/s \(p99 [0-9.]+ ms\) \| bare route [0-9]+ req/s \(p99 [0-9.]+ ms\) \| ratio [0-9.]+x of no-op",
        out,
        re.M,
    )
    assert module.pct([float(i) for i in range(1, 101)], 0.99) == 99.0
