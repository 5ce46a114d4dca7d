"""The games list's result column and sorting (issue 16, "the game list with
result/winner and sortable columns"), as HTML and as ``/api/games``.

Records: bundled fixtures (a 2-seat and a 4-seat partnership Burraco, a
3-seat Scala 40, Gin, Ramino 51) and the Burraco dispute cut at position 9
(``bur-live``: no ``game_ended``, in play).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import msgspec
import pytest

from ledger.record_files import read_record

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def events(path: str) -> list:
    return list(read_record(FIXTURES / path).events)


@pytest.fixture(scope="module")
def client(records_app):
    dispute = events("burraco/dispute.jsonl")
    live = [msgspec.structs.replace(dispute[0], game_id="bur-live"), *dispute[1:10]]
    records = [
        dispute,
        live,
        events("burraco/four_player_partnership.jsonl"),
        events("scala40/elimination.jsonl"),
        events("gin/standard-game.jsonl"),
        events("ramino51/elimination.jsonl"),
    ]
    return records_app(*records).test_client()


STORE_ORDER = [
    "bur-dispute",
    "bur-live",
    "bur-4p-teams",
    "scala40-elimination",
    "gin-standard-1",
    "ramino51-elimination",
]


def api_ids(client, query: str = "") -> list[str]:
    resp = client.get("/api/games" + query)
    assert resp.status_code == 200, resp.get_json()
    return [g["game_id"] for g in resp.get_json()["games"]]


def page_ids(client, query: str = "") -> list[str]:
    resp = client.get("/games" + query)
    assert resp.status_code == 200
    return re.findall(r'<tr class="game-row" data-game="([^"]+)"', resp.get_data(as_text=True))


def result_cell(page: str, game: str) -> str:
    row = page[page.index(f'data-game="{game}"') :]
    row = row[: row.index("</tr>")]
    cell = re.search(r'<td class="result">(.*?)</td>', row, re.S).group(1)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip())


def test_the_result_column_names_the_winner_and_the_totals(client):
    page = client.get("/games").get_data(as_text=True)
    assert '<th><a href="/games?sort=result&amp;dir=asc">Result</a></th>' in page
    assert result_cell(page, "bur-dispute") == "Anna Anna -70 · Bruno -235"
    assert result_cell(page, "bur-live") == "in play"
    assert (
        result_cell(page, "bur-4p-teams")
        == "team 0 (Anna & Carla) team 0 (Anna & Carla) 770 · team 1 (Bruno & Dario) -170"
    )
    assert result_cell(page, "scala40-elimination") == "Anna Anna 0 · Bruno 268 · Carla 100"
    assert result_cell(page, "gin-standard-1") == "Bruno Anna 0 · Bruno 275"
    assert '<span class="winner">Bruno</span>' in page


def test_the_api_rows_carry_the_result(client):
    rows = {g["game_id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert rows["bur-live"]["finished"] is False and rows["bur-live"]["result"] is None
    assert rows["ramino51-elimination"]["result"] == {
        "winner": "Anna",
        "winner_side": 0,
        "totals": [
            {"side": "Anna", "points": 0, "players": ["Anna"]},
            {"side": "Bruno", "points": 278, "players": ["Bruno"]},
            {"side": "Carla", "points": 300, "players": ["Carla"]},
        ],
        "reason": "elimination",
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", STORE_ORDER),
        (
            "?sort=game",
            [
                "bur-4p-teams",
                "bur-dispute",
                "bur-live",
                "gin-standard-1",
                "ramino51-elimination",
                "scala40-elimination",
            ],
        ),
        (
            "?sort=game&dir=desc",
            [
                "scala40-elimination",
                "ramino51-elimination",
                "gin-standard-1",
                "bur-live",
                "bur-dispute",
                "bur-4p-teams",
            ],
        ),
        (
            "?sort=moves",
            [
                "bur-live",
                "bur-dispute",
                "scala40-elimination",
                "bur-4p-teams",
                "ramino51-elimination",
                "gin-standard-1",
            ],
        ),
        (
            "?sort=moves&dir=desc",
            [
                "gin-standard-1",
                "ramino51-elimination",
                "bur-4p-teams",
                "scala40-elimination",
                "bur-dispute",
                "bur-live",
            ],
        ),
        (
            "?sort=hands&dir=desc",
            [
                "gin-standard-1",
                "scala40-elimination",
                "ramino51-elimination",
                "bur-dispute",
                "bur-live",
                "bur-4p-teams",
            ],
        ),
        (
            "?sort=variant",
            [
                "bur-dispute",
                "bur-live",
                "bur-4p-teams",
                "gin-standard-1",
                "ramino51-elimination",
                "scala40-elimination",
            ],
        ),
        # games without a table (the Scala 40 and Ramino 51 fixtures) come last both ways
        (
            "?sort=table&dir=desc",
            [
                "bur-dispute",
                "bur-live",
                "bur-4p-teams",
                "gin-standard-1",
                "scala40-elimination",
                "ramino51-elimination",
            ],
        ),
        # winners by name, games in play last both ways
        (
            "?sort=result",
            [
                "bur-dispute",
                "scala40-elimination",
                "ramino51-elimination",
                "gin-standard-1",
                "bur-4p-teams",
                "bur-live",
            ],
        ),
        (
            "?sort=result&dir=desc",
            [
                "bur-4p-teams",
                "gin-standard-1",
                "bur-dispute",
                "scala40-elimination",
                "ramino51-elimination",
                "bur-live",
            ],
        ),
        ("?sort=players&dir=desc&variant=burraco", ["bur-4p-teams", "bur-dispute", "bur-live"]),
        ("?sort=findings&dir=desc&q=bur-d", ["bur-dispute"]),
    ],
)
def test_sorting_by_a_column_in_the_page_and_the_api(client, query, expected):
    assert page_ids(client, query) == expected
    assert api_ids(client, query) == expected


def test_headers_link_to_their_sort_keeping_the_filters(client):
    page = client.get("/games?variant=burraco&sort=moves").get_data(as_text=True)
    headers = re.findall(r"<th([^>]*)><a href=\"([^\"]+)\">([^<]+)</a></th>", page)
    assert [(attrs, href, label) for attrs, href, label in headers if label in ("Game", "Moves", "Result")] == [
        ("", "/games?variant=burraco&amp;sort=game&amp;dir=asc", "Game"),
        (' class="num" aria-sort="ascending"', "/games?variant=burraco&amp;sort=moves&amp;dir=desc", "Moves"),
        ("", "/games?variant=burraco&amp;sort=result&amp;dir=asc", "Result"),
    ]
    assert len(headers) == 11
    # the filter form keeps the sort
    assert '<input type="hidden" name="sort" value="moves"><input type="hidden" name="dir" value="asc">' in page
    down = client.get("/games?sort=moves&dir=desc").get_data(as_text=True)
    assert '<th class="num" aria-sort="descending"><a href="/games?sort=moves&amp;dir=asc">Moves</a></th>' in down


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            "?sort=winner",
            "sort=&#39;winner&#39;: one of game, variant, ruleset, players, date, tournament, table, hands, "
            "moves, findings, result",
        ),
        ("?sort=game&dir=up", "dir=&#39;up&#39;: asc or desc"),
    ],
)
def test_a_bad_sort_is_a_400_naming_the_choices(client, query, message):
    resp = client.get("/games" + query)
    assert resp.status_code == 400 and message in resp.get_data(as_text=True)
    api = client.get("/api/games" + query)
    assert api.status_code == 400
    assert api.get_json()["error"]["message"] == message.replace("&#39;", "'")


def test_the_result_column_names_a_team_in_the_page_language(client):
    """A team is named from the result's ``players`` (issue 23: no label read back):
    ``coppia 0 (Anna & Carla)`` on an Italian page, the winner too."""
    page = client.get("/games?lang=it").get_data(as_text=True)
    assert (
        result_cell(page, "bur-4p-teams")
        == "coppia 0 (Anna & Carla) coppia 0 (Anna & Carla) 770 · coppia 1 (Bruno & Dario) -170"
    )
    assert result_cell(page, "bur-dispute") == "Anna Anna -70 · Bruno -235"


def test_a_result_stored_before_players_shows_its_stored_labels():
    """A games-list line stored before results carried ``players``/``winner_side``
    shows its stored (English) labels as they are."""
    from replay_web.words import result_side, result_winner

    old = {"winner": "team 0 (Anna & Carla)", "totals": [{"side": "team 0 (Anna & Carla)", "points": 770}]}
    assert (result_winner(old), result_side(old, 0)) == ("team 0 (Anna & Carla)", "team 0 (Anna & Carla)")
    tie = {"winner": None, "winner_side": None, "totals": [{"side": "Anna", "points": 5, "players": ["Anna"]}]}
    assert (result_winner(tie), result_side(tie, 0)) == (None, "Anna")
