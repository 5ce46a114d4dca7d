"""The viewer's layout through Flask's test client (issue 16, "Viewer and CLI
clarity"): seats clockwise for 2 to 6 seats, hands sorted by suit and rank
with ``?order=dealt`` kept across every link, the "opened" badge only where
RULES.md has an opening rule.

Records: ``tests/webgames.small_game`` (classic Ramino, two seats, hands
known), the bundled fixtures, and simulated Scala 40 games of 3 to 6 seats
(:func:`ledger.simulate.simulate_game`, deterministic for a seed).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from ledger.record_files import read_record
from ledger.replay import replay
from ledger.simulate import simulate_game
from replay_web.present import around
from tests.webgames import BRUNO, small_game

REPO = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (REPO / "fixtures").glob("*/*.jsonl") if not p.name.startswith("rejected"))
SIX = "scala40-stock-restock"  # fixtures/scala40/stock_restock.jsonl: six seats


def sim(n: int) -> list:
    return simulate_game("scala40", None, n, 1)[0]


@pytest.fixture(scope="module")
def client(records_app):
    records = [small_game(), list(read_record(REPO / "fixtures/scala40/stock_restock.jsonl").events), sim(5), sim(3)]
    return records_app(*records).test_client()


def page_of(client, url: str) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_data(as_text=True)


def seat_cards(page: str, seat: int) -> list[str]:
    start = page.index(f'id="seat-{seat}"')
    end = page.index('<div class="hand">', start)
    end = page.index("</div>", end)
    return re.findall(r'data-card="([^"]+)"', page[start:end])


def areas(page: str) -> list[tuple[str, list[int]]]:
    """The felt's areas in page order, each with the seats in it."""
    felt = page[page.index('class="felt"') : page.index("area-center")]
    out = []
    for m in re.finditer(r'<div class="area area-([a-z]+)">(.*?)(?=<div class="area |$)', felt, re.S):
        out.append((m.group(1), [int(s) for s in re.findall(r'data-seat="(\d+)"', m.group(2))]))
    return out


# --- seating --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "pov", "expected"),
    [
        (2, None, {"south": [0], "north": [1]}),
        (2, 1, {"south": [1], "north": [0]}),
        (3, None, {"south": [0], "west": [1], "east": [2]}),
        (4, 1, {"south": [1], "west": [2], "north": [3], "east": [0]}),
        (5, None, {"south": [0], "west": [1], "northwest": [2], "northeast": [3], "east": [4]}),
        (6, None, {"south": [0], "west": [1], "northwest": [2], "north": [3], "northeast": [4], "east": [5]}),
        (6, 4, {"south": [4], "west": [5], "northwest": [0], "north": [1], "northeast": [2], "east": [3]}),
        (7, None, {"south": [0], "west": [1], "north": [2, 3, 4, 5], "east": [6]}),
    ],
)
def test_seats_go_clockwise_from_the_viewers_own(n, pov, expected):
    placed = {
        area: [s["seat"] for s in seats]
        for area, seats in around([{"seat": i} for i in range(n)], pov).items()
        if seats
    }
    assert placed == expected


def test_six_seats_one_to_an_area_on_the_page(client):
    page = page_of(client, f"/games/{SIX}?at=3")
    assert 'class="felt" data-seats="6"' in page
    assert areas(page) == [
        ("northwest", [2]),
        ("north", [3]),
        ("northeast", [4]),
        ("west", [1]),
        ("east", [5]),
        ("south", [0]),
    ]
    seat3 = page_of(client, f"/games/{SIX}?at=3&pov=3")
    assert areas(seat3) == [
        ("northwest", [5]),
        ("north", [0]),
        ("northeast", [1]),
        ("west", [4]),
        ("east", [2]),
        ("south", [3]),
    ]


def test_five_and_three_seats_on_the_page(client):
    five = page_of(client, "/games/sim-scala40-fisca-5p-1?at=3")
    assert 'data-seats="5"' in five
    assert areas(five) == [("northwest", [2]), ("northeast", [3]), ("west", [1]), ("east", [4]), ("south", [0])]
    three = page_of(client, "/games/sim-scala40-fisca-3p-1?at=3")
    assert areas(three) == [("west", [1]), ("east", [2]), ("south", [0])]
    two = page_of(client, "/games/web-1?at=3")
    assert areas(two) == [("north", [1]), ("south", [0])]


# --- hand order -------------------------------------------------------------------

BRUNO_BY_SUIT = ["AS", "4S", "5S", "8H", "7C", "10C", "QC", "6D", "7D", "8D"]


def test_hands_are_sorted_by_suit_and_rank_unless_order_dealt(client):
    assert sorted(BRUNO_BY_SUIT) == sorted(BRUNO) and BRUNO_BY_SUIT != list(BRUNO)
    assert seat_cards(page_of(client, "/games/web-1?at=9"), 1) == BRUNO_BY_SUIT
    assert seat_cards(page_of(client, "/games/web-1?at=9&order=suit"), 1) == BRUNO_BY_SUIT
    assert seat_cards(page_of(client, "/games/web-1?at=9&order=dealt"), 1) == list(BRUNO)
    # the board fragment the script swaps in follows the same order
    assert seat_cards(page_of(client, "/games/web-1/board?at=9&order=dealt"), 1) == list(BRUNO)
    assert seat_cards(page_of(client, "/games/web-1/board?at=9"), 1) == BRUNO_BY_SUIT
    # a seat's own hand, a seat's view
    assert seat_cards(page_of(client, "/games/web-1?at=3&pov=1"), 1) == BRUNO_BY_SUIT
    assert seat_cards(page_of(client, "/games/web-1?at=3&pov=1&order=dealt"), 1) == list(BRUNO)


def test_jokers_go_last_in_a_sorted_hand(client):
    events = list(read_record(REPO / "fixtures/scala40/stock_restock.jsonl").events)
    state = replay(events[:3])
    dealt = list(state.hands[3])
    shown = seat_cards(page_of(client, f"/games/{SIX}?at=2"), 3)
    assert "JK" in dealt and dealt[-1] != "JK"
    assert sorted(shown) == sorted(dealt) and shown[-1] == "JK"
    assert shown == ["4S", "6S", "8S", "5H", "9H", "10H", "10H", "QH", "AC", "6C", "2D", "5D", "JK"]


def test_order_dealt_is_kept_by_every_link(client):
    page = page_of(client, "/games/web-1?at=9&order=dealt")
    assert 'data-order="dealt"' in page
    controls = re.findall(r'class="ctl" id="nav-[a-z-]+" href="([^"]+)"', page)
    assert len(controls) == 8 and all(h.endswith("&amp;order=dealt") for h in controls)
    moves = re.findall(r'<li id="move-\d+"[^>]*>\s*<a href="([^"]+)"', page)
    assert len(moves) == 19 and all(h.endswith("&amp;order=dealt") for h in moves)
    assert moves[4] == "?at=4&amp;order=dealt"
    audit = re.findall(r'<tr class="finding" data-pos="\d+">\s*<td><a href="([^"]+)"', page)
    assert audit == [
        "/games/web-1?at=6&amp;order=dealt",
        "/games/web-1?at=12&amp;order=dealt",
        "/games/web-1?at=15&amp;order=dealt",
    ]
    povs = re.findall(r'class="pov-link" href="([^"]+)"', page)
    assert povs == [
        "/games/web-1?at=9&amp;pov=0&amp;order=dealt",
        "/games/web-1?at=9&amp;pov=1&amp;order=dealt",
        "/games/web-1?at=9&amp;pov=spectator&amp;order=dealt",
    ]
    # the toggle: back to by suit, at the same position and view
    toggle = page[page.index('id="hand-order"') :]
    toggle = toggle[: toggle.index("</span>")]
    assert re.findall(r'href="([^"]+)"', toggle) == ["/games/web-1?at=9"]
    assert "<b>as dealt</b>" in toggle


def test_default_order_adds_nothing_to_the_links(client):
    page = page_of(client, "/games/web-1?at=9&pov=0")
    assert 'data-order=""' in page
    hrefs = re.findall(r'href="([^"]+)"', page)
    assert [h for h in hrefs if "order=" in h] == ["/games/web-1?at=9&amp;pov=0&amp;order=dealt"]  # the toggle only
    toggle = page[page.index('id="hand-order"') :]
    toggle = toggle[: toggle.index("</span>")]
    assert re.findall(r'href="([^"]+)"', toggle) == ["/games/web-1?at=9&amp;pov=0&amp;order=dealt"]
    assert "<b>by suit</b>" in toggle
    referee = re.findall(
        r'view as:\s*<a href="([^"]+)">referee</a>', page_of(client, "/games/web-1?at=9&pov=0&order=dealt")
    )
    assert referee == ["/games/web-1?at=9&amp;order=dealt"]


@pytest.mark.parametrize("url", ["/games/web-1?order=rank", "/games/web-1/board?at=3&order=DEALT!"])
def test_a_bad_order_is_a_400_naming_both(client, url):
    resp = client.get(url)
    assert resp.status_code == 400
    assert "order=suit (by suit and rank, the default) or order=dealt (as dealt and drawn)" in resp.get_data(
        as_text=True
    )


# --- one source for the controls' targets ---------------------------------------------


def test_the_board_fragment_carries_the_pages_control_targets(client):
    """The script sets the controls from the fragment's data-nav: for every
    position they are the targets the page itself renders (games.navigation)."""
    keys = {
        "first": "first",
        "prev": "prev",
        "next": "next",
        "last": "last",
        "prev-hand": "prev_hand",
        "next-hand": "next_hand",
        "prev-violation": "prev_violation",
        "next-violation": "next_violation",
    }
    for at in range(19):
        page = page_of(client, f"/games/web-1?at={at}")
        shown = dict(re.findall(r'class="ctl" id="nav-([a-z-]+)" href="[^"]*" data-at="(\d+)"', page))
        fragment = page_of(client, f"/games/web-1/board?at={at}")
        nav = json.loads(html.unescape(re.search(r'data-nav="([^"]*)"', fragment).group(1)))
        assert {k: str(nav[v]) for k, v in keys.items() if nav[v] is not None} == shown
    nav = json.loads(
        html.unescape(re.search(r'data-nav="([^"]*)"', page_of(client, "/games/web-1/board?at=9")).group(1))
    )
    assert nav == {
        "first": 0,
        "prev": 8,
        "next": 10,
        "last": 18,
        "prev_hand": 1,
        "next_hand": 14,
        "prev_violation": 6,
        "next_violation": 12,
    }
    seat = json.loads(
        html.unescape(re.search(r'data-nav="([^"]*)"', page_of(client, "/games/web-1?at=3&pov=0")).group(1))
    )
    assert seat == {
        "first": 0,
        "prev": 2,
        "next": 4,
        "last": None,
        "prev_hand": 1,
        "next_hand": None,
        "prev_violation": None,
        "next_violation": None,
    }


# --- the "opened" badge -------------------------------------------------------------

#: variants with an opening requirement (RULES.md: Scala 40 "Opening" 40+, Ramino 51 "Opening" 51+);
#: Burraco says "No opening minimum", classic Ramino and Gin have no opening rule
OPENING = {"scala40", "ramino51"}
#: the fixtures in which some seat melds (in stock_restock.jsonl nobody does)
MELDING = [p for p in FIXTURES if p.name != "stock_restock.jsonl"]


@pytest.mark.parametrize("path", MELDING, ids=[str(p.relative_to(REPO)) for p in MELDING])
def test_opened_badge_only_where_the_rules_have_an_opening(records_app, path):
    record = read_record(path)
    events = list(record.events)
    client = records_app(events).test_client()
    # the position where the most seats have melded
    at, most = max(
        ((i, sum(replay(events[: i + 1]).opened)) for i in range(0, len(events), max(len(events) // 40, 1))),
        key=lambda t: (t[1], -t[0]),
    )
    assert most > 0  # some seat has melded, so a badge could show
    page = page_of(client, f"/games/{record.game_id}?at={at}")
    badges = page.count('class="badge opened"')
    assert badges == (most if events[0].variant in OPENING else 0)
