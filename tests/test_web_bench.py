"""The viewer's speed benchmark runs (issue 6); its targets are checked by
running ``bench/bench_web_state.py`` itself, not here (timings on a shared
test machine are not a test)."""

from __future__ import annotations

import importlib
import re


def test_bench_web_state_runs_and_reports(capsys):
    module = importlib.import_module("bench.bench_web_state")
    status = module.main(["--events", "300", "--requests", "20", "--rounds", "1"])
    out = capsys.readouterr().out
    assert status in (0, 1)
    m = re.search(r"game: classic Ramino, (\d+) events", out)
    assert m and int(m.group(1)) >= 300
    late = int(m.group(1)) - 2
    for line in (
        "position 10: p95",
        f"position {late}: p95",
        "random positions: p95",
        f"p95 ratio position {late} / position 10",
        "worst p95",
    ):
        assert line in out
    assert module.p95([float(i) for i in range(1, 101)]) == 95.0
