"""Long games are cheap to read (issue 27, defect 4): the game page shows one
page of its move list and of its findings, the API pages its events as
``/audit`` pages its findings, the score panel and its chart stay small,
and the games list reads each game's length from the index.

The sizes: a 3,001-event game in the regular set; the 100,000-event game of
the issue in the slow set (``-m slow``) with the page bound (≤ 2 MB). Cost
ratios are measured by ``bench/bench_long_game.py`` (never timed here).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.store.application import open_app
from ledger.testing.games import long_ramino, turn_spam
from replay_web import create_app
from replay_web.store import RecordStore


def _client(events: list) -> object:
    return create_app({"LEDGER_STORE": RecordStore(records=[events]), "TESTING": True}).test_client()


def _move_positions(html: str) -> list[int]:
    return [int(p) for p in re.findall(r'<li id="move-(\d+)"', html)]


@pytest.fixture(scope="module")
def long_game() -> list:
    return long_ramino("long-3k", min_events=3001, seed=3)


def test_the_move_list_is_one_page_holding_at(long_game: list) -> None:
    client = _client(long_game)
    html = client.get("/games/long-3k?at=1200").get_data(as_text=True)
    assert _move_positions(html) == list(range(1000, 1500))  # page 3 of 500 moves holds 1200
    assert 'class="moves" start="1000"' in html
    assert 'rel="prev" href="/games/long-3k?at=1200&amp;moves_page=2"' in html
    assert 'rel="next" href="/games/long-3k?at=1200&amp;moves_page=4"' in html
    assert "1000–1499 of 3001 · page 3 of 7" in html
    html = client.get("/games/long-3k?at=1200&moves_page=7&moves_size=450").get_data(as_text=True)
    assert _move_positions(html) == list(range(2700, 3001))
    assert 'rel="prev" href="/games/long-3k?at=1200&amp;moves_page=6&amp;moves_size=450"' in html
    assert 'rel="next"' not in html.split('id="moves-pager"')[1].split("</nav>")[0]


def test_bad_page_arguments_are_400_naming_them(long_game: list) -> None:
    client = _client(long_game)
    cases = {
        "moves_page=8": "moves_page=8: pages 1–7",
        "moves_page=0": "moves_page=0: pages 1–7",
        "moves_size=2001": "moves_size=2001: give 1 to 2000 per page",
        "findings_size=0": "findings_size=0: give 1 to 1000 per page",
        "moves_page=x": "moves_page=&#39;x&#39; is not a whole number",
    }
    for query, message in cases.items():
        resp = client.get(f"/games/long-3k?{query}")
        assert resp.status_code == 400, query
        assert message in resp.get_data(as_text=True), query


def test_a_short_game_has_no_pager(long_game: list) -> None:
    html = _client(long_game[:300]).get("/games/long-3k").get_data(as_text=True)
    assert _move_positions(html) == list(range(300)) and 'class="pager"' not in html


def test_the_findings_are_paged_on_the_page() -> None:
    record = read_record(turn_spam(3000, game_id="spam-3k"))
    client = _client(list(record.events))
    whole = client.get("/api/games/spam-3k/audit?limit=10000").get_json()["findings"]
    assert len(whole) > 1000
    html = client.get("/games/spam-3k?findings_page=2&findings_size=200").get_data(as_text=True)
    rows = re.findall(r'<tr class="finding" data-pos="(\d+)"', html)
    assert [int(p) for p in rows] == [f["position"] for f in whole[200:400]]
    assert f"<small>{len(whole)} findings</small>" in html
    assert f"200–399 of {len(whole)} · page 2 of {-(-len(whole) // 200)}" in html


def test_the_api_pages_the_events(long_game: list) -> None:
    client = _client(long_game)
    first = client.get("/api/games/long-3k")
    body = first.get_json()
    assert [e["position"] for e in body["events"]] == list(range(1000))
    assert (body["total"], body["offset"], body["limit"]) == (3001, 0, 1000)
    assert first.headers["Link"] == '</api/games/long-3k?offset=1000&limit=1000>; rel="next"'
    last = client.get("/api/games/long-3k?offset=2500&limit=1000")
    assert [e["position"] for e in last.get_json()["events"]] == list(range(2500, 3001))
    assert "Link" not in last.headers
    assert client.get("/api/games/long-3k?limit=10001").status_code == 400
    assert client.get("/api/games/long-3k?offset=-1").status_code == 400
    short = _client(long_game[:300]).get("/api/games/long-3k").get_json()
    assert set(short) == {"game", "events"} and len(short["events"]) == 300  # one page: as before


def test_the_score_panel_shows_the_last_40_hands() -> None:
    game = long_ramino("long-6k", min_events=6001, seed=3)
    html = _client(game).get("/games/long-6k").get_data(as_text=True)
    hands = html.count('<tr class="score-hand">')
    total = sum(1 for e in game if e.type == "hand_ended")
    assert total > 40 and hands == 40
    assert f"{total - 40} earlier hands: the whole sheet is in the report" in html


def test_the_games_list_reads_lengths_from_the_index(tmp_path: Path, long_game: list) -> None:
    """The lengths and hands of the list are those stored, one lookup per game."""
    db = str(tmp_path / "g.db")
    app = open_app(db)
    app.import_record(read_record(encode_record(long_game)))
    short = long_ramino("short", min_events=200, seed=4)
    app.import_record(read_record(encode_record(short)))
    listed = {g.game_id: (g.events, g.hands) for g in app.list_games()}
    app.close()
    hands = sum(1 for e in long_game if e.type == "hand_dealt")
    assert listed == {
        "long-3k": (len(long_game), hands),
        "short": (len(short), sum(1 for e in short if e.type == "hand_dealt")),
    }
    assert listed["long-3k"] == (3001, 37) and listed["short"][0] == 201


@pytest.mark.slow
def test_a_100k_event_game_page_is_under_2_mb() -> None:
    events = long_ramino("long-100k", min_events=100_001, seed=3)
    client = _client(events)
    page = client.get("/games/long-100k")
    assert page.status_code == 200 and len(page.data) <= 2_000_000
    assert _move_positions(page.get_data(as_text=True)) == [100_000]  # the last page holds the last move
    api = client.get("/api/games/long-100k")
    assert len(api.get_json()["events"]) == 1000 and len(api.data) <= 2_000_000
