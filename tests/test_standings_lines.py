"""The standings read each game's result from its games-list line, not its fold (issue 25: a cold
``tournament standings`` refolded all 180 games of a 60-pair tournament, about 1.1 s).

The store's ``rummy_game_summary`` line of an ended game also keeps its totals as played and its
number of hands (``ListSummary.standing``), beside its adjudicated totals: a fresh process builds
every GameResult from those (no ``table_state``) and gets exactly what the fold gives. A line is
used only when its version is the game's stored length; a stale line, a line stored before
``standing`` was kept and a game not ended are folded, as before. On SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from click.testing import Result

from ledger.events import PenaltyAssessed
from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from ledger.store.tournaments import import_tournament_file
from ledger.stored.persistence import game_uuid
from ledger.tournament.results import GameResult, result_of


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, cli_invoker: Callable[..., Callable[..., Result]]) -> Path:
    out = tmp_path_factory.mktemp("lines") / "sim"
    run = cli_invoker(out.parent / "unused.db")
    assert run("simulate", "--tournament", "cup", "--entrants", "6", "--rounds", "2", "--hands", "2", "--seed", "4",
               "--out", str(out)).exit_code == 0  # fmt: skip
    return out


def _stored(app: LedgerApp, folder: Path, cut: str | None = None) -> None:
    """The cup and its games imported; game ``cut`` without its last event (game_ended)."""
    for path in sorted(folder.glob("*.jsonl")):
        if path.name == "cup.jsonl":
            continue
        data = path.read_bytes()
        if path.stem == cut:
            data = b"".join(data.splitlines(keepends=True)[:-1])
        assert app.import_record(read_record(data)).status == "stored"
    assert not isinstance(import_tournament_file(app, folder / "cup.jsonl"), Exception)


def _results(open_store: Callable[[], LedgerApp]) -> tuple[dict[str, GameResult], int, dict[str, GameResult]]:
    """A fresh process's results, how many games it folded for them, and every game's result by its fold."""
    app = open_store()
    folded = []
    table_state = app.table_state
    app.table_state = lambda gid, *a, **k: folded.append(gid) or table_state(gid, *a, **k)  # type: ignore[method-assign]
    state = app.tournament_state("cup")
    got = app.tournament_results(state)
    by_fold = {gid: result_of(app.game_started(gid), table_state(gid)) for gid in state.games if app.has_game(gid)}
    return got, len(folded), by_fold


def test_a_fresh_process_folds_no_ended_game(open_store: Callable[[], LedgerApp], folder: Path) -> None:
    writer = open_store()
    _stored(writer, folder, cut="cup-r2-t2")
    # a ruling after game_ended (FORMAT.md "Rulings after the game"): the append writes the line again
    ruled = PenaltyAssessed(team=0, points=-150, rule="BUR-PILE-1", referee="Ada")
    writer.append_events("cup-r1-t1", [ruled], expected=writer.game_length("cup-r1-t1"), appended_by="test")
    got, folded, by_fold = _results(open_store)
    assert got == by_fold and len(got) == 6
    assert folded == 1  # only the game still playing (cup-r2-t2, no game_ended): nothing else refolded
    one = got["cup-r1-t1"]
    assert one.finished and one.totals[0] == one.played[0] - 150 and one.totals[1] == one.played[1]
    assert got["cup-r2-t2"].finished is False


def test_a_stale_or_older_line_is_folded(open_store: Callable[[], LedgerApp], folder: Path) -> None:
    writer = open_store()
    _stored(writer, folder)
    version, line = writer.list_summaries(["cup-r1-t2"])["cup-r1-t2"]
    assert line.standing is not None and version == writer.game_length("cup-r1-t2")
    # an older line (as a store made before standing was kept holds): same version, no standing
    writer.put_summary("cup-r1-t2", version, msgspec.structs.replace(line, standing=None))
    # a stale line (a crash between the commit and the line): of an earlier version, with other totals
    lied = {**line.result, "totals": [{**t, "points": 0} for t in line.result["totals"]]}
    oid = game_uuid("cup-r2-t1")
    stale = writer.list_summaries(["cup-r2-t1"])["cup-r2-t1"][1]
    writer._summaries._memory.pop(oid.hex, None)  # the in-memory store (no SQL): replace by hand
    if writer._summaries.sql:
        writer._summaries._execute(f"DELETE FROM {writer._summaries.table} WHERE originator_id = ?",
                                   [(oid.hex if writer._summaries.sqlite else oid,)])  # fmt: skip
    writer.put_summary("cup-r2-t1", writer.game_length("cup-r2-t1") - 1, msgspec.structs.replace(stale, result=lied))
    got, folded, by_fold = _results(open_store)
    assert got == by_fold
    assert folded == 2  # those two, and only those
    assert got["cup-r2-t1"].totals != (0, 0)
