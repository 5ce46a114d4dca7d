"""The games list's stored lines under direct edits of the store (issue 27, "keep the games list off the fold").

``rummy_game_summary`` (:mod:`ledger.stored.summaries`) keeps each game's line
of the list. A line whose version is the game's length is trusted by the
list, so every way of changing a game's event rows behind the store must
leave its line absent or stale: an ``UPDATE`` of any column, a ``DELETE``,
an ``INSERT`` under the game's id (at a version the line counts: above it
the line is stale by its version). Each is done here as an attacker with
database access would (:class:`tests.test_seal_store.Raw`), on SQLite and
PostgreSQL, and the list must then show what a fold of the stored rows shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ledger.errors import RecordError
from ledger.game_summary import UNREADABLE, summarize
from ledger.replay import replay
from ledger.store.application import LedgerApp
from ledger.stored.persistence import StoredEventError
from ledger.stored.summaries import SUMMARY_TABLE
from tests.test_list_summaries import listed
from tests.test_seal_store import Raw, store  # noqa: F401 - the fixture

#: (what is done, the statement, its parameters by name, the games whose line must go)
EDITS: list[tuple[str, str, tuple[str, ...], set[str]]] = [
    (
        "UPDATE state",
        "UPDATE {events} SET state = state WHERE originator_id = ? AND originator_version = 5",
        ("g1",),
        {"g1"},
    ),
    (
        "UPDATE topic",
        "UPDATE {events} SET topic = topic WHERE originator_id = ? AND originator_version = 5",
        ("g1",),
        {"g1"},
    ),
    (
        "UPDATE originator_version",
        "UPDATE {events} SET originator_version = 0 WHERE originator_id = ? AND originator_version = 5",
        ("g1",),
        {"g1"},
    ),
    (
        "UPDATE originator_id",
        "UPDATE {events} SET originator_id = ? WHERE originator_id = ? AND originator_version = 17",
        ("g1", "bur-dispute"),
        {"g1", "bur-dispute"},
    ),
    ("DELETE", "DELETE FROM {events} WHERE originator_id = ? AND originator_version = 5", ("g1",), {"g1"}),
    (
        "INSERT under the id, at a version the line counts",
        "INSERT INTO {events} (originator_id, originator_version, topic, state) "
        "SELECT originator_id, 0, topic, state FROM {events} WHERE originator_id = ? AND originator_version = 2",
        ("g1",),
        {"g1"},
    ),
]


def lines(app: LedgerApp) -> dict[str, int]:
    """The stored lines' versions by game id."""
    return {g: v for g, (v, _line) in app.list_summaries(["g1", "bur-dispute"]).items()}


@pytest.mark.parametrize(("what", "statement", "games", "dropped"), EDITS, ids=[e[0] for e in EDITS])
def test_every_edit_of_a_games_event_rows_drops_its_line(
    store: Any,  # noqa: F811 - the fixture
    what: str,
    statement: str,
    games: tuple[str, ...],
    dropped: set[str],
) -> None:
    app, raw, _run = store
    assert lines(app) == {"g1": 16, "bur-dispute": 19}
    raw.run(statement, *(raw.oid(g) for g in games))
    assert set(lines(app)) == {"g1", "bur-dispute"} - dropped, what
    rows, folds, _ = listed(app)
    assert folds == len(dropped)
    shown = {r["game_id"]: (r["findings"], r["finished"], r["result"]) for r in rows}
    assert shown == {g: folded(app, g) for g in shown}, what


def folded(app: LedgerApp, game_id: str) -> tuple[int | None, bool, dict[str, Any] | None]:
    """What a fold of the game's stored rows gives the list (findings, finished, result)."""
    try:
        line = summarize(replay(app.get_events(game_id)), None)
    except (RecordError, StoredEventError):
        line = UNREADABLE
    return line.findings, line.finished, line.result


def test_a_row_inserted_past_the_games_length_leaves_its_line_stale(store: Any) -> None:  # noqa: F811
    app, raw, _run = store
    raw.run(
        "INSERT INTO {events} (originator_id, originator_version, topic, state) "
        "SELECT originator_id, 17, topic, state FROM {events} WHERE originator_id = ? AND originator_version = 16",
        raw.oid("g1"),
    )
    assert lines(app)["g1"] == 16  # kept, but of 16 events where 17 are stored: the list folds the game
    rows, folds, _ = listed(app)
    assert folds == 1
    assert [r["events"] for r in rows if r["game_id"] == "g1"] == [17]


def stored_bytes(env: dict[str, str]) -> bytes | None:
    """The SQLite file's bytes (None on PostgreSQL, where verify's reads are its only statements)."""
    return Path(env["SQLITE_DBNAME"]).read_bytes() if "SQLITE_DBNAME" in env else None


def summary_sql(raw: Raw, statement: str, *params: Any) -> None:
    """``statement`` on the games list's table (``{table}``) as an attacker with database access."""
    raw.run(statement.replace("{table}", SUMMARY_TABLE), *params)


def test_a_line_edited_in_the_database_is_found_by_verify_deep_and_the_file_is_unchanged(
    store: Any,  # noqa: F811 - the fixture
    store_env: dict[str, str],
) -> None:
    app, raw, run = store
    summary_sql(
        raw,
        "UPDATE {table} SET findings = 0, result = NULL, finished = ? WHERE originator_id = ?",
        0 if raw.sqlite else False,
        raw.oid("bur-dispute"),
    )
    rows, folds, _ = listed(app)
    assert ([r["findings"] for r in rows if r["game_id"] == "bur-dispute"], folds) == ([0], 0)  # the list shows it
    before = stored_bytes(store_env)
    assert run("verify").exit_code == 0  # the chains alone: the events are intact
    result = run("verify", "--deep")
    assert (result.exit_code, result.stdout) == (
        1,
        "bur-dispute: its line in the games list is not what a replay of its events gives (columns findings, "
        "finished, result differ; findings 0, the replay's 6): the line was written into the database directly\n",
    )
    assert result.stderr == "1 of 2 games verified (35 events); 1 broken\n"
    out = [json.loads(line) for line in run("verify", "--deep", "--json", "bur-dispute").stdout.splitlines()]
    assert [(o["game_id"], o["ok"], o["differs"], o["position"]) for o in out] == [
        ("bur-dispute", False, "summary", None)
    ]
    assert stored_bytes(store_env) == before  # verify wrote nothing


def test_a_line_of_more_events_than_stored_is_found_by_verify(store: Any) -> None:  # noqa: F811
    _app, raw, run = store
    summary_sql(raw, "UPDATE {table} SET version = 40 WHERE originator_id = ?", raw.oid("g1"))
    result = run("verify")
    assert (result.exit_code, result.stdout) == (
        1,
        "g1: its line in the games list is of 40 events, 16 are stored: the line was written into the database "
        "directly\n",
    )


def test_a_stale_or_missing_line_is_no_finding(store: Any) -> None:  # noqa: F811
    _app, raw, run = store
    summary_sql(raw, "UPDATE {table} SET version = 3, findings = 99 WHERE originator_id = ?", raw.oid("g1"))
    summary_sql(raw, "DELETE FROM {table} WHERE originator_id = ?", raw.oid("bur-dispute"))
    result = run("verify", "--deep")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "2 of 2 games verified (35 events)\n", "")
