"""The games list's Date column (issue 26, "the games list"): one rule with the analytics.

A game's date is ``meta.date`` when it is an ISO date (``YYYY-MM-DD``), else
the UTC day of its first ``at`` (:func:`ledger.game_summary.game_date`, which
the analytics' ``games.date`` uses too); a record that names no date (every
shipped fixture) is listed with the UTC day it was stored (the journal's time
of position 0) in a cell marked ``stored``, and ``/api/games`` gives that day
as ``stored_on`` beside ``date`` (null then). The three cases, in English and
Italian, from a SQLite store whose journal time is fixed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import msgspec
import pytest

from ledger.events import Event, encode_event
from ledger.game_summary import game_date
from ledger.projections.rows import game_rows
from ledger.records import Record
from ledger.store import append, bulk_rows
from ledger.store.application import LedgerApp
from replay_web import cache_of, create_app
from replay_web.store import LedgerStore
from tests.webgames import small_game

#: the journal's time of every event stored here: late on 5 October, UTC
RECEIVED = "2026-10-05T23:59:59.000000Z"


def _with_first_at(events: list[Event], at: str) -> list[Event]:
    return [msgspec.structs.replace(events[0], at=at), *events[1:]]


def _games() -> dict[str, list[Event]]:
    """``iso``: meta.date 2026-11-29; ``local``: meta.date not ISO and a first
    ``at`` of 22:30 in New York on 30 November (1 December in UTC); ``none``:
    no date and no ``at``."""
    return {
        "iso": small_game("d-iso"),
        "local": _with_first_at(
            small_game("d-local", meta={"date": "30/11/2026", "table": "2"}), "2026-11-30T22:30:00-05:00"
        ),
        "none": small_game("d-none", meta={"table": "1"}),
    }


@pytest.fixture
def client(open_store: Callable[[], LedgerApp], monkeypatch: pytest.MonkeyPatch) -> Any:
    """The viewer over a store (SQLite, and PostgreSQL when one is set) holding the three games."""
    monkeypatch.setattr(append, "received_now", lambda: RECEIVED)
    monkeypatch.setattr(bulk_rows, "received_now", lambda: RECEIVED)
    ledger = open_store()
    for events in _games().values():
        ledger.import_record(Record(events=tuple(events), lines=tuple(range(1, len(events) + 1))))
    return create_app({"LEDGER_STORE": LedgerStore(app=open_store()), "SPECTATOR_DELAY": 0}).test_client()


def test_the_rule() -> None:
    assert game_date("2026-11-29", "2026-12-01T10:00:00Z") == date(2026, 11, 29)
    assert game_date("30/11/2026", "2026-11-30T22:30:00-05:00") == date(2026, 12, 1)  # not ISO: the UTC day
    assert game_date("2026-11-29 evening", "2026-11-30T00:30:00+01:00") == date(2026, 11, 29)
    assert game_date("2026-02-30", None) is None and game_date(None, None) is None
    assert game_date(None, datetime(2026, 11, 30, 23, 0, tzinfo=UTC)) == date(2026, 11, 30)


def test_the_analytics_date_is_the_lists(client: Any) -> None:
    """``games.date`` of the analytics: the same three answers as ``/api/games``'s ``date``."""
    dates = {}
    for name, events in _games().items():
        rows = game_rows("s", [(e, encode_event(e).decode()) for e in events])
        dates[name] = rows["games"][0][10]
    listed = {g["game_id"][2:]: g["date"] for g in client.get("/api/games").get_json()["games"]}
    assert dates == {"iso": date(2026, 11, 29), "local": date(2026, 12, 1), "none": None}
    assert listed == {"iso": "2026-11-29", "local": "2026-12-01", "none": None}


def test_api_games_gives_the_date_and_the_stored_day(client: Any) -> None:
    games = client.get("/api/games").get_json()["games"]
    assert [(g["game_id"], g["date"], g["stored_on"]) for g in games] == [
        ("d-iso", "2026-11-29", "2026-10-05"),
        ("d-local", "2026-12-01", "2026-10-05"),
        ("d-none", None, "2026-10-05"),
    ]
    by_date = [g["game_id"] for g in client.get("/api/games?sort=date").get_json()["games"]]
    assert by_date == ["d-none", "d-iso", "d-local"]  # the day shown: the stored day of d-none first


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("en", "stored on this day; the record names no date"),
        ("it", "registrata in questo giorno; la registrazione non indica una data"),
    ],
)
def test_the_list_marks_the_stored_day(client: Any, lang: str, title: str) -> None:
    page = client.get(f"/games?lang={lang}").get_data(as_text=True)
    cells = re.findall(r'<td class="date[^"]*"[^>]*>[^<]*</td>', page)
    assert cells == [
        '<td class="date">2026-11-29</td>',
        '<td class="date">2026-12-01</td>',
        f'<td class="date stored" title="{title}">2026-10-05</td>',
    ]
    assert "30/11/2026" not in page.split("<tbody>", 1)[1]  # a date that is no ISO date is not the game's date
    # on a phone the Date column folds away: the line under the game's id says the same
    subs = re.findall(r'<div class="row-sub">.*?</div>', page)
    assert [s.rsplit(" · ", 1)[1] for s in subs] == [
        "2026-11-29</div>",
        "2026-12-01</div>",
        f'<span class="stored" title="{title}">2026-10-05</span></div>',
    ]


def test_the_stored_days_come_in_one_query(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The list reads no game's journal (a per-game read would cost a query per
    game; bench/RESULTS.md "Long games cheap to read"): one query for all."""
    recorder = type(cache_of(client.application).store.app.recorder)
    calls: list[str] = []
    real = recorder.select_first_received

    def counted(self: Any, topic: str) -> dict[str, str]:
        calls.append(topic)
        return real(self, topic)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the games list read a game's journal")

    monkeypatch.setattr(recorder, "select_first_received", counted)
    monkeypatch.setattr(recorder, "select_journal", refused)
    assert client.get("/games").status_code == 200
    assert calls == ["ledger.events:GameStarted"]


def test_a_record_file_has_no_stored_day(web_client: Any) -> None:
    """Games served from record files were never stored: ``stored_on`` null, an empty cell."""
    events = small_game("d-none", meta={"table": "1"})
    client = web_client(events)
    assert [(g["date"], g["stored_on"]) for g in client.get("/api/games").get_json()["games"]] == [(None, None)]
    assert '<td class="date"></td>' in client.get("/games").get_data(as_text=True)
