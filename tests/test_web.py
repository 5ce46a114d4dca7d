"""The viewer's pages through Flask's test client (issue 6).

Scenario: a two-hand classic-Ramino game (``tests/webgames.small_game``)
with three findings (RAM-DISC-1 at 6, ALL-SCORE-1 at 12, ALL-TURN-1 at 15),
a referee's penalty and a note; a second game whose players, meta and notes
are hostile HTML.
"""

from __future__ import annotations

import re

import pytest

from ledger.cards import pretty
from replay_web import cache_of, create_app
from replay_web.store import RecordStore
from tests.webgames import BRUNO, small_game

EVIL = "<script>alert(1)</script>"


def evil_game():
    return small_game(
        "evil-1",
        names=(EVIL, 'Bo "&" <b>bold</b>'),
        meta={"tournament": "<img src=x onerror=alert(2)>", "table": "<i>7</i>", "date": "2026-11-30"},
        note="<script>steal()</script>",
    )


@pytest.fixture
def app(records_app):
    return records_app(small_game(), evil_game())


@pytest.fixture
def client(app):
    return app.test_client()


def html(resp) -> str:
    assert resp.content_type.startswith("text/html")
    return resp.get_data(as_text=True)


def cards_in(fragment: str) -> list[str]:
    """Every card face (data-card) in an HTML fragment, in order."""
    return re.findall(r'data-card="([^"]+)"', fragment)


def element(page: str, ident: str) -> str:
    """The HTML of a seat (``id=ident``) up to the next seat or table area."""
    start = page.index(f'id="{ident}"')
    m = re.compile(r'<div class="(seat[ "]|area )').search(page, start)
    return page[start : m.start() if m else None]


# --- the games page ------------------------------------------------------------


def test_index_redirects_to_games(client):
    resp = client.get("/")
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith("/games")


def test_games_page_lists_each_game_with_its_columns(client):
    page = html(client.get("/games"))
    row = page[page.index('data-game="web-1"') : page.index("</tr>", page.index('data-game="web-1"'))]
    cells = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    ]
    # the result (issue 16): the winner, then the totals as adjudicated
    assert cells == [
        "web-1 ramino · Anna, Bruno · 2026-11-29",  # the id, and under it what a phone's columns leave out
        "ramino",
        "seed",
        "Anna, Bruno",
        "2026-11-29",
        "Club night",
        "3",
        "2",
        "19",
        "3",
        "Anna Anna 66 · Bruno -10",
    ]
    assert "2 games" in page


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        ("", ["web-1", "evil-1"]),
        ("?variant=ramino", ["web-1", "evil-1"]),
        ("?variant=burraco", []),
        ("?player=anna", ["web-1"]),
        ("?player=bold", ["evil-1"]),
        ("?tournament=club", ["web-1"]),
        ("?q=EVIL", ["evil-1"]),
        ("?q=web&player=bruno", ["web-1"]),
    ],
)
def test_games_page_filters(client, query, ids):
    page = html(client.get("/games" + query))
    assert re.findall(r'data-game="([^"]+)"', page) == ids
    if not ids:
        assert "No games match." in page


# --- the game page ----------------------------------------------------------------


def test_game_page_defaults_to_the_last_position(client):
    page = html(client.get("/games/web-1"))
    assert 'data-position="18"' in page
    assert "game over: hands played" in page


def test_game_page_at_a_position_shows_the_table(client):
    page = html(client.get("/games/web-1?at=9"))
    assert 'data-position="9"' in page
    # the referee sees both hands, face up, by suit (♠ ♥ ♣ ♦) and rank (issue 16)
    assert cards_in(element(page, "seat-1")) == ["AS", "4S", "5S", "8H", "7C", "10C", "QC", "6D", "7D", "8D"]
    assert cards_in(element(page, "seat-0")) == ["2S", "JH", "JC", "JD"]
    # melds of Anna: the run with the laid-off 6♥, then the set of nines
    melds = page[page.index('class="melds"') : page.index('class="at-position"')]
    assert "Melds of Anna" in melds
    assert cards_in(melds) == ["3H", "4H", "5H", "6H", "9C", "9D", "9S"]
    # discard pile top card only (Ramino), stock count, whose turn
    pile = page[page.index('class="pile discard"') : page.index('class="melds"')]
    assert cards_in(pile) == ["KD"] and "2 cards" in pile
    assert "29 cards" in page
    assert "Anna (seat 0) to meld, lay off or discard" in page
    # suits coloured: red hearts, black spades
    assert (
        '<span class="card red " data-card="3H" title="3 of hearts"><span class="rank">3</span><span '
        'class="suit">♥</span></span>' in page
    )
    assert '<span class="card black " data-card="9S" title="9 of spades">' in page


def test_game_page_move_list_marks_position_and_violations(client):
    page = html(client.get("/games/web-1?at=9"))
    current = re.findall(r'<li id="move-(\d+)"[^>]*class="move[^"]*current', page)
    assert current == ["9"]
    violations = re.findall(r'<li id="move-(\d+)"[^>]*class="move[^"]*violation', page)
    assert violations == ["6", "12", "15"]
    assert (
        'Anna melds 9<span class="suit-black">♣</span> 9<span class="suit-red">♦</span> 9<span '
        'class="suit-black">♠</span> [b]' in page
    )
    assert 'Bruno takes K<span class="suit-red">♦</span> from the discard pile' in page
    assert "note: referee: checked the discard" in page


def test_game_page_controls_point_at_their_positions(client):
    page = html(client.get("/games/web-1?at=9"))
    targets = dict(re.findall(r'class="ctl" id="nav-([a-z-]+)" href="[^"]*" data-at="(\d+)"', page))
    assert targets == {
        "first": "0",
        "prev-hand": "1",
        "prev-violation": "6",
        "prev": "8",
        "next": "10",
        "next-violation": "12",
        "next-hand": "14",
        "last": "18",
    }
    first = html(client.get("/games/web-1?at=0"))
    assert 'id="nav-prev-violation" aria-disabled="true"' in first
    assert 'id="nav-prev-hand" aria-disabled="true"' in first


def test_game_page_audit_panel_links_each_finding(client):
    page = html(client.get("/games/web-1"))
    audit = page[page.index('class="panel audit-panel"') : page.index('class="side-col"')]  # under the board
    rows = re.findall(r'<tr class="finding" data-pos="(\d+)">.*?<td class="rule">([A-Z0-9-]+)</td>', audit, re.S)
    assert rows == [("6", "RAM-DISC-1"), ("12", "ALL-SCORE-1"), ("15", "ALL-TURN-1")]
    assert 'href="/games/web-1?at=12"' in audit
    assert "claimed 70 for Anna, computed 66 (difference +4)" in audit


def test_game_page_scoreboard_as_played_and_adjudicated(client):
    page = html(client.get("/games/web-1"))
    score = page[page.index('class="panel score-panel"') :]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", score))
    # hand 1: Anna 66 (claimed 70 marked), Bruno -10 adjudicated, 0 as played
    assert "66 hands collected +66 claimed 70 ≠ 66 Σ 66" in text
    assert "-10 (played 0) penalty -10 claimed 0 Σ -10" in text
    assert "as adjudicated 66 -10 as played 66 0" in text
    assert "winner: Anna" in text
    assert score.count("claim-differs") == 1


def test_board_fragment_is_the_board_alone(client):
    resp = client.get("/games/web-1/board?at=5")
    page = html(resp)
    assert page.lstrip().startswith('<section id="board"')
    assert 'data-position="5"' in page
    assert "Bruno takes K" in page
    assert "<html" not in page


# --- perspective ------------------------------------------------------------------


def test_pov_0_shows_none_of_seat_1s_cards(client):
    page = html(client.get("/games/web-1?at=3&pov=0"))
    shown = set(cards_in(page))
    assert not shown & set(BRUNO)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    assert [c for c in BRUNO if pretty(c) in text] == []
    seat1 = element(page, "seat-1")
    assert seat1.count('class="card back"') == 10 and "10 cards" in seat1
    assert cards_in(element(page, "seat-0")) == ["2S", "9S", "JH", "9C", "JC", "9D", "JD", "KD"]
    assert "order (top first)" not in page  # never the stock order
    # nothing after the position: the move list ends at 3, no future findings or scores
    assert re.findall(r'<li id="move-(\d+)"', page) == ["0", "1", "2", "3"]
    assert "No findings so far." in page and "No hand scored yet." in page


def test_pov_hides_another_seats_stock_draw(client):
    page = html(client.get("/games/web-1?at=7&pov=1"))
    assert "Anna draws a card from the stock" in page
    assert "6♥" not in page and 'data-card="6H"' not in page
    own = html(client.get("/games/web-1?at=7&pov=0"))
    assert 'Anna draws 6<span class="suit-red">♥</span>' in own


def test_pov_findings_and_scores_up_to_the_position(client):
    page = html(client.get("/games/web-1?at=13&pov=1"))
    audit = page[page.index('class="panel audit-panel"') : page.index('class="side-col"')]  # under the board
    assert re.findall(r'data-pos="(\d+)"', audit) == ["6", "12"]
    assert "note:" not in page  # notes are the referee's
    assert "winner:" not in page


# --- errors and safety ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/games/nope", 404, "no game &#39;nope&#39; in the store"),
        ("/games/web-1?at=19", 400, "position 19 is outside this game&#39;s positions 0–18"),
        ("/games/web-1?at=-1", 400, "position -1 is outside"),
        ("/games/web-1?at=abc", 400, "at=&#39;abc&#39; is not a whole number"),
        ("/games/web-1?pov=2", 400, "pov=2: no such seat at this table (seats 0–1)"),
        ("/games/web-1?pov=x", 400, "pov=&#39;x&#39; is not a whole number"),
        ("/games/web-1/board?at=99", 400, "position 99 is outside"),
        ("/games/nope/board", 404, "no game"),
        ("/nowhere", 404, "Not Found"),
    ],
)
def test_error_pages_are_clear_and_html(client, url, status, message):
    resp = client.get(url)
    assert resp.status_code == status
    page = html(resp)
    assert message in page
    assert "Traceback" not in page


def test_viewer_is_read_only(client):
    assert client.post("/games/web-1").status_code == 405
    assert client.delete("/api/games/web-1").status_code == 405
    assert client.put("/api/games/web-1/state").status_code == 405


def test_names_meta_and_notes_are_escaped(client):
    for url in (
        "/games",
        "/games/evil-1",
        "/games/evil-1?at=13",
        "/games/evil-1?at=13&pov=0",
        "/games/evil-1/board?at=6",
    ):
        page = html(client.get(url))
        assert "<script>alert" not in page, url
        assert "<script>steal" not in page, url
        assert "<img src=x" not in page, url
        assert "<b>bold</b>" not in page and "<i>7</i>" not in page, url
    page = html(client.get("/games/evil-1?at=13"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "note: &lt;script&gt;steal()&lt;/script&gt;" in page
    assert "tournament: &lt;img src=x onerror=alert(2)&gt;" in page
    assert "Bo &#34;&amp;&#34; &lt;b&gt;bold&lt;/b&gt;" in page
    listing = html(client.get("/games"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;, Bo &#34;&amp;&#34; &lt;b&gt;bold&lt;/b&gt;" in listing


def test_security_headers(client):
    resp = client.get("/games/web-1")
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_a_record_that_cannot_be_replayed_is_a_422_page(records_app):
    bad = small_game("bad-1")
    from ledger.events import CardDrawn

    bad[2] = CardDrawn(seat=0, card="QS")  # the stock's top card is K♦
    app = records_app(bad)
    client = app.test_client()
    resp = client.get("/games/bad-1")
    assert resp.status_code == 422
    assert (
        "the stored record cannot be replayed: position 2: card: REC-WHERE: the top of the stock is KD, not QS"
        in html(resp)
    )
    listing = html(client.get("/games"))
    assert "unreadable" in listing


def test_static_files_are_served(client):
    assert client.get("/static/viewer.js").status_code == 200
    css = client.get("/static/viewer.css")
    assert css.status_code == 200 and b"--red" in css.data


# --- the replay cache ----------------------------------------------------------


def test_cache_replays_a_game_once_per_store_version(app, client):
    cache = cache_of(app)
    cache.clear()
    cache.hits = cache.misses = 0
    for at in (1, 5, 9, 18):
        assert client.get(f"/api/games/web-1/state?at={at}").status_code == 200
    assert (cache.misses, cache.hits) == (1, 3)
    store = cache.store
    assert isinstance(store, RecordStore)
    store.add(small_game()[:10])  # the game now has 10 events: a new version
    resp = client.get("/api/games/web-1/state")
    assert resp.get_json()["position"] == 9
    assert cache.misses == 2


def test_cache_is_bounded(records_app):
    games = [small_game(f"g{i}") for i in range(5)]
    app = records_app(*games, REPLAY_CACHE_SIZE=2)
    client = app.test_client()
    for i in range(5):
        client.get(f"/api/games/g{i}/state?at=3")
    assert len(cache_of(app)._games) == 2


class _BrokenStore(RecordStore):
    def events(self, game_id):
        raise RuntimeError("disk on fire: /secret/path")


def test_a_failing_store_is_a_500_without_details():
    app = create_app({"TESTING": True, "LEDGER_STORE": _BrokenStore(records=[small_game()])})
    client = app.test_client()
    page = client.get("/games/web-1")
    assert page.status_code == 500
    text = html(page)
    assert "the viewer failed on this request; the record is unchanged" in text
    assert "secret" not in text and "Traceback" not in text
    api = client.get("/api/games/web-1/state")
    assert api.status_code == 500
    assert api.get_json() == {
        "error": {
            "status": 500,
            "title": "Internal Server Error",
            "message": "the viewer failed on this request; the record is unchanged",
        }
    }


def test_variant_notes_are_readable_lines_not_raw_data(records_app) -> None:
    from pathlib import Path

    from ledger.record_files import read_record

    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "pozzetto_al_volo_con_lo_scarto.jsonl"
    record = read_record(fixture)
    client = records_app(record.events).test_client()
    page = html(client.get(f"/games/{record.game_id}?at=2"))
    notes = element(page, "variant-data") if 'id="variant-data"' in page else page[page.index('class="variant-data"') :]
    assert "Anna: pozzetto not taken yet" in notes and "Bruno: pozzetto not taken yet" in notes
    assert "pozzetto_taken_by_side" not in page
