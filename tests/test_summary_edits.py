"""The games list's stored lines under direct edits of the store (issue 27, "keep the games list off the fold").

``rummy_game_summary`` (:mod:`ledger.store.summaries`) keeps each game's line
of the list. A line whose version is the game's length is trusted by the
list, so every way of changing a game's event rows behind the store must
leave its line absent or stale: an ``UPDATE`` of any column, a ``DELETE``,
an ``INSERT`` under the game's id (at a version the line counts: above it
the line is stale by its version). Each is done here as an attacker with
database access would (:class:`tests.test_seal_store.Raw`), on SQLite and
PostgreSQL, and the list must then show what a fold of the stored rows shows.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.errors import RecordError
from ledger.game_summary import UNREADABLE, summarize
from ledger.replay import replay
from ledger.store.application import LedgerApp
from ledger.store.persistence import StoredEventError
from tests.test_list_summaries import listed
from tests.test_seal_store import store  # noqa: F401 - the fixture

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
