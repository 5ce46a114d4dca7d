"""The games list off the fold (issue 27, "keep the games list off the fold"):
each game's line (findings, finished, result, first ``at``) is kept by the
store (``rummy_game_summary``, :mod:`ledger.stored.summaries`), written by the
write paths from the fold that checked the events, and the list reads it in
one query. SQLite and PostgreSQL; the folds are counted by the viewer's cache
(:attr:`replay_web.cache.ReplayCache.folds`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ledger.game_summary import ListSummary, first_at, summarize
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.replay import replay
from ledger.store.application import LedgerApp
from ledger.store.journal import select_journal
from ledger.stored.persistence import game_uuid
from ledger.stored.summaries import SUMMARY_TABLE, SummaryTable
from ledger.testing.games import long_ramino
from ledger.testing.records import decoded, penalty
from replay_web import cache_of, create_app
from replay_web.store import LedgerStore
from tests.test_web_store import FIXTURES

DISPUTE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"


def listed(ledger: LedgerApp) -> tuple[list[dict[str, Any]], int, int]:
    """``/api/games`` of a fresh viewer on ``ledger`` (a cold cache), and the
    cache's folds and misses after it."""
    app = create_app({"TESTING": True, "LEDGER_STORE": LedgerStore(app=ledger)})
    resp = app.test_client().get("/api/games")
    assert resp.status_code == 200, resp.get_json()
    cache = cache_of(app)
    return resp.get_json()["games"], cache.folds, cache.misses


def sql(ledger: LedgerApp, statement: str) -> None:
    """Run one statement on the store, committed: ``{table}`` is the summary
    table's name there, ``{events}`` the events table's."""
    table = SummaryTable(ledger.recorder)
    events = ledger.recorder.events_table_name
    if not table.sqlite:
        events = f'"{ledger.recorder.datastore.schema}"."{events}"'
    statement = statement.format(table=table.table, events=events)
    if table.sqlite:
        with ledger.recorder.datastore.transaction(commit=True) as c:
            c.execute(statement)
    else:
        with ledger.recorder.datastore.get_connection() as conn:
            conn.execute(statement)


def drop_lines(ledger: LedgerApp) -> None:
    """The store as one made before the lines were kept: no summary table, no trigger."""
    sql(ledger, "DROP TABLE {table}")
    if SummaryTable(ledger.recorder).sqlite:
        for which in ("updated", "deleted", "inserted"):
            sql(ledger, f"DROP TRIGGER IF EXISTS {SUMMARY_TABLE}_{ledger.recorder.events_table_name}_{which}")
    else:
        for which in ("edited", "inserted"):
            sql(ledger, f"DROP TRIGGER IF EXISTS {SUMMARY_TABLE}_{which} ON {{events}}")


def test_a_warm_store_lists_every_fixture_with_no_fold_and_an_old_one_is_filled_once(open_store) -> None:
    assert len(FIXTURES) == 18
    ledger = open_store()
    first, *rest = FIXTURES
    ledger.import_record(read_record(first))  # one file alone (the append path's _put)
    outcomes = list(ledger.import_records(rest))  # the others in batches (bulk rows)
    assert all(not isinstance(r, Exception) for _, r in outcomes)

    warm, folds, misses = listed(open_store())
    assert (len(warm), folds, misses) == (18, 0, 0)  # every fixture is finished: no game replayed at all
    assert (
        warm[0]
        == {
            "game_id": "bur-dispute",
            "variant": "burraco",
            "ruleset": "fibur",
            "players": ["Anna", "Bruno"],
            "meta": {"tournament": "fixtures", "table": "1"},
            "hands": 1,
            "events": 19,
            "findings": 6,
            "finished": True,
            "result": {
                "winner": "Anna",
                "winner_side": 0,
                "totals": [
                    {"side": "Anna", "points": -70, "players": ["Anna"]},
                    {"side": "Bruno", "points": -235, "players": ["Bruno"]},
                ],
                "reason": "hands_played",
            },
            "date": None,  # the record names no date: the day it was stored, from the journal (issue 26)
            "stored_on": select_journal(ledger.recorder, game_uuid("bur-dispute"))[0].received_at[:10],
        }
    )

    drop_lines(ledger)
    old, folds, _ = listed(open_store())
    assert (old, folds) == (warm, 18)  # the fold's columns are the stored lines' columns, exactly
    again, folds, _ = listed(open_store())
    assert (again, folds) == (warm, 0)  # filled by that first list, once
    assert sorted(v for v, _ in ledger.list_summaries(g["game_id"] for g in warm).values()) == sorted(
        g["events"] for g in warm
    )


def test_a_ruling_after_the_game_rewrites_its_line(open_store) -> None:
    ledger = open_store()
    ledger.import_record(read_record(DISPUTE))
    before, _, _ = listed(open_store())
    assert [t["points"] for t in before[0]["result"]["totals"]] == [-70, -235]
    ruling = decoded(penalty(1, -30, "ALL-TURN-1"))[0]
    ledger.append_events("bur-dispute", [ruling], expected=19, appended_by="referee")
    after, folds, misses = listed(open_store())
    assert (folds, misses) == (0, 0)
    assert (after[0]["events"], after[0]["findings"], after[0]["finished"]) == (20, 6, True)
    assert after[0]["result"] == {
        "winner": "Anna",
        "winner_side": 0,
        "totals": [
            {"side": "Anna", "points": -70, "players": ["Anna"]},
            {"side": "Bruno", "points": -265, "players": ["Bruno"]},
        ],
        "reason": "hands_played",
    }
    assert ledger.list_summaries(["bur-dispute"])["bur-dispute"][0] == 20


def test_a_live_game_keeps_its_line_at_each_append(open_store) -> None:
    ledger = open_store()
    events = list(read_record(DISPUTE).events)
    ledger.import_record(read_record(encode_record(events[:5])))
    for position in range(5, len(events)):
        ledger.append_event("bur-dispute", events[position], expected_position=position)
        version, line = ledger.list_summaries(["bur-dispute"])["bur-dispute"]
        upto = events[: position + 1]
        assert (version, line) == (position + 1, summarize(replay(upto), first_at(upto)))
    assert line.findings == 6 and line.finished


def test_a_stale_line_is_folded_once_and_written_again(open_store) -> None:
    ledger = open_store()
    ledger.import_record(read_record(DISPUTE))
    sql(ledger, "UPDATE {table} SET version = 3, findings = 99")  # a line of another version
    rows, folds, _ = listed(open_store())
    assert (rows[0]["findings"], folds) == (6, 1)
    assert ledger.list_summaries(["bur-dispute"])["bur-dispute"][0] == 19
    rows, folds, _ = listed(open_store())
    assert (rows[0]["findings"], folds) == (6, 0)


def test_an_event_row_edited_behind_the_store_drops_its_line(open_store) -> None:
    ledger = open_store()
    ledger.import_record(read_record(DISPUTE))
    ledger.import_record(read_record(FIXTURES[1]))
    assert len(ledger.list_summaries(g.game_id for g in ledger.list_games())) == 2
    sql(ledger, "UPDATE {events} SET topic = topic WHERE originator_version = 3")  # every game's row 3, unchanged
    assert ledger.list_summaries(g.game_id for g in ledger.list_games()) == {}
    rows, folds, _ = listed(open_store())
    assert ([r["findings"] for r in rows if r["game_id"] == "bur-dispute"], folds) == ([6], 2)
    sql(ledger, "DELETE FROM {events} WHERE originator_version = 19")  # the last event of bur-dispute
    assert [g for g in ledger.list_summaries(["bur-dispute"])] == []


def test_a_line_is_never_replaced_by_an_older_one(app: LedgerApp) -> None:
    app.import_record(read_record(DISPUTE))
    line = app.list_summaries(["bur-dispute"])["bur-dispute"]
    app.put_summary("bur-dispute", 10, ListSummary(findings=1, finished=False, result=None, first_at=None))
    assert app.list_summaries(["bur-dispute"])["bur-dispute"] == line


def test_a_long_file_streamed_and_an_appended_tail_write_their_lines(app: LedgerApp, tmp_path: Path) -> None:
    events = long_ramino("long-1", min_events=300)
    path = tmp_path / "long.jsonl"
    path.write_bytes(encode_record(events[:200]))
    [(_, result)] = list(app.import_records([path], stream_bytes=1))
    assert not isinstance(result, Exception) and result.status == "stored"
    assert app.list_summaries(["long-1"])["long-1"] == (200, summarize(replay(events[:200]), first_at(events)))
    path.write_bytes(encode_record(events))
    [(_, result)] = list(app.import_records([path], stream_bytes=1))
    assert not isinstance(result, Exception) and result.status == "appended"
    assert app.list_summaries(["long-1"])["long-1"] == (len(events), summarize(replay(events), first_at(events)))


def test_a_store_without_the_table_reads_no_lines_and_the_first_write_creates_it(app: LedgerApp) -> None:
    app.import_record(read_record(DISPUTE))
    line = app.list_summaries(["bur-dispute"])["bur-dispute"]
    drop_lines(app)
    assert app.list_summaries(["bur-dispute"]) == {}
    app.put_summary("bur-dispute", *line)
    assert app.list_summaries(["bur-dispute"]) == {"bur-dispute": line}
    assert SUMMARY_TABLE == "rummy_game_summary"


def test_an_old_game_appended_to_gets_its_line_from_the_list_then_keeps_it(open_store) -> None:
    ledger = open_store()
    ledger.import_record(read_record(DISPUTE))
    drop_lines(ledger)
    old = open_store()  # opening makes the table again, empty
    ruling = decoded(penalty(1, 0, "ALL-TURN-1"))[0]
    old.append_events("bur-dispute", [ruling], expected=19, appended_by="referee")
    assert old.list_summaries(["bur-dispute"]) == {}  # no line before, no `at` anywhere: the first `at` is unknown
    rows, folds, _ = listed(open_store())
    assert (rows[0]["events"], folds) == (20, 1)
    old.append_events("bur-dispute", [ruling], expected=20, appended_by="referee")
    rows, folds, _ = listed(open_store())
    assert (rows[0]["events"], folds) == (21, 0)  # the list's line, continued by the append path


@pytest.mark.parametrize("jobs", [2])
def test_a_folder_imported_by_worker_processes_writes_their_lines(app: LedgerApp, jobs: int) -> None:
    paths = FIXTURES[:4]
    outcomes = list(app.import_records(paths, jobs=jobs))
    assert all(not isinstance(r, Exception) for _, r in outcomes)
    ids = [r.game_id for _, r in outcomes if not isinstance(r, Exception)]
    lines = app.list_summaries(ids)
    for path, game_id in zip(paths, ids):
        events = read_record(path).events
        assert lines[game_id] == (len(events), summarize(replay(events), first_at(events)))
