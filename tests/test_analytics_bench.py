"""The analytics benchmark runs (tiny size by default; 10,000 games under ``-m slow``)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest


def load_bench():  # noqa: ANN201
    bench = importlib.import_module("bench.bench_export")
    return bench


def test_bench_export_reports_export_next_to_arrow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rates = load_bench().run(4, 1, 3, tmp_path, batch=7)
    assert set(rates) == {"store events/s", "update events/s", "update games/s", "export rows/s", "arrow rows/s"}
    out = capsys.readouterr().out
    # per game: game_started, hand_dealt, 3 x (draw, discard), hand_ended, game_ended = 10 events;
    # rows: 4 games, 8 players, 4 hands, 40 events, 0 melds, 16 scores (1 hand x 2 seats x 2 views)
    assert out.startswith(
        "rummy-ledger analytics benchmark: 4 generated classic-Ramino games, 40 events, 72 rows in 7 tables\n"
    )
    assert "  rows: games 4, players 8, hands 4, events 40, melds 0, scores 16, findings 0\n" in out
    assert (
        "Parquet export (COPY view)" in out
        and "Parquet from Arrow tables" in out
        and "ratio export / from-Arrow" in out
    )


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RUMMY_LEDGER_SLOW"), reason="10,000 games: set RUMMY_LEDGER_SLOW=1")
def test_ten_thousand_games_update_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rates = load_bench().run(10_000, 2, 20, tmp_path)
    out = capsys.readouterr().out
    assert out.startswith("rummy-ledger analytics benchmark: 10000 generated classic-Ramino games, 860000 events, ")
    assert rates["export rows/s"] > 0 and rates["update events/s"] > 0
