"""The viewer in a real headless Chromium, driven by Playwright (issue 6).

The app runs for real (werkzeug's threaded server on a free localhost port)
over the records of ``tests/webgames.small_game``; Chromium is Debian's
``/usr/bin/chromium``. The board's screenshot is saved under ``artifacts/``.
Without Chromium or Playwright these tests skip, except under ``CI=true``,
where they fail.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.cards import pretty
from ledger.record_files import read_record
from ledger.testing.live import serve
from tests.webgames import BRUNO, small_game

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "artifacts"
JOKER_FIXTURE = REPO / "fixtures" / "burraco" / "semi_clean_and_dirty.jsonl"
#: the layout's games (issue 16): a 2-seat Burraco and a 6-seat Scala 40
LAYOUT_FIXTURES = [
    REPO / "fixtures" / "burraco" / "dispute.jsonl",
    REPO / "fixtures" / "scala40" / "stock_restock.jsonl",
]


@pytest.fixture(scope="module")
def base_url(records_app) -> Iterator[str]:  # type: ignore[no-untyped-def]
    records = [small_game(), list(read_record(JOKER_FIXTURE).events)]
    records += [list(read_record(p).events) for p in LAYOUT_FIXTURES]
    with serve(records_app(*records, testing=False)) as url:
        yield url


@pytest.fixture
def page(open_page, base_url):
    pg, errors = open_page(base_url, 1400, 1000)
    yield pg
    assert errors == []


@pytest.fixture
def phone(open_page, base_url):
    """A page at 390×844 (a phone held upright)."""
    pg, errors = open_page(base_url, 390, 844)
    yield pg
    assert errors == []


def position(pg) -> int:
    return int(pg.get_attribute("#board", "data-position"))


def wait_position(pg, n: int) -> None:
    pg.wait_for_selector(f'#board[data-position="{n}"]')
    pg.wait_for_function(f"() => new URLSearchParams(location.search).get('at') === '{n}'")
    assert "current" in pg.get_attribute(f"#move-{n}", "class").split()
    assert pg.input_value("#slider") == str(n)


def test_game_page_renders_cards(page):
    page.goto("/games/web-1?at=9")
    faces = page.eval_on_selector_all("#seat-1 .card[data-card]", "els => els.map(e => e.dataset.card)")
    assert faces == ["AS", "4S", "5S", "8H", "7C", "10C", "QC", "6D", "7D", "8D"]  # by suit and rank (issue 16)
    assert sorted(faces) == sorted(BRUNO)
    assert page.inner_text("#seat-1 .card[data-card='8H']").split() == ["8", "♥"]
    red = page.eval_on_selector(".card[data-card='8H']", "e => getComputedStyle(e).color")
    black = page.eval_on_selector(".card[data-card='AS']", "e => getComputedStyle(e).color")
    assert red == "rgb(200, 16, 46)" and black == "rgb(17, 20, 24)"
    assert page.locator(".melds .card[data-card]").count() == 7


def test_jokers_look_different(page):
    game_id = read_record(JOKER_FIXTURE).game_id
    page.goto(f"/games/{game_id}?at=1")
    joker = page.locator(".card.joker").first
    assert joker.count() == 1
    assert joker.evaluate("e => getComputedStyle(e).backgroundImage").startswith("linear-gradient")
    assert joker.evaluate("e => getComputedStyle(e).color") == "rgb(255, 255, 255)"


def test_arrow_right_advances_the_position_and_the_url(page):
    page.goto("/games/web-1?at=9")
    page.keyboard.press("ArrowRight")
    wait_position(page, 10)
    assert "Anna melds J" in page.inner_text("#board .move-now")
    page.keyboard.press("ArrowRight")
    wait_position(page, 11)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_position(page, 8)
    page.keyboard.press("End")
    wait_position(page, 18)
    page.keyboard.press("Home")
    wait_position(page, 0)
    page.go_back()
    wait_position(page, 18)


def test_a_deep_link_opens_at_its_position(page):
    page.goto("/games/web-1?at=12")
    assert position(page) == 12
    assert page.input_value("#slider") == "12"
    assert "current" in page.get_attribute("#move-12", "class")
    assert page.inner_text("#board .move-now") == "hand ends: went out (Anna)"
    assert page.inner_text("#board .rule-badge") == "ALL-SCORE-1"


def test_a_page_opened_without_a_position_names_it_in_the_url(page):
    page.goto("/games/web-1")
    assert re.search(r"[?&]at=18$", page.url)


def test_n_and_p_jump_between_violations(page):
    page.goto("/games/web-1?at=0")
    page.keyboard.press("n")
    wait_position(page, 6)
    assert "RAM-DISC-1" in page.inner_text("#board .board-head")
    page.keyboard.press("n")
    wait_position(page, 12)
    page.keyboard.press("n")
    wait_position(page, 15)
    page.keyboard.press("n")  # no violation after 15: stays
    page.keyboard.press("p")
    wait_position(page, 12)


def test_controls_slider_and_move_list(page):
    page.goto("/games/web-1?at=2")
    page.click("#nav-next-hand")
    wait_position(page, 14)
    page.click("#nav-prev-hand")
    wait_position(page, 1)
    page.locator("#slider").fill("5")
    wait_position(page, 5)
    page.click("#move-9 a")
    wait_position(page, 9)
    page.click(".audit-panel a[data-at='15']")
    wait_position(page, 15)


def test_pov_0_shows_none_of_seat_1s_cards(page):
    page.goto("/games/web-1?at=3&pov=0")
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    assert shown and not shown & set(BRUNO)
    assert page.locator("#seat-1 .card.back").count() == 10
    text = page.inner_text("body")
    assert [c for c in BRUNO if pretty(c) in text] == []
    html = page.content()
    assert not any(f'"{c}"' in html for c in BRUNO)
    # stepping in a seat's view keeps the seat's view
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"at=4&pov=0$"))
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    assert not shown & set(BRUNO)


def test_v_switches_between_the_referee_the_seats_and_the_spectator(page):
    """One key (issue 16): v goes referee → seat 0 → seat 1 → spectator →
    referee, keeping the position reached by stepping."""
    page.goto("/games/web-1?at=3")
    page.keyboard.press("ArrowRight")
    wait_position(page, 4)
    seen = []
    for _ in range(4):
        with page.expect_navigation():  # a new page: the server decides what the view shows
            page.keyboard.press("v")
        page.wait_for_selector("#board")
        seen.append((page.url.split("?", 1)[1], page.inner_text("nav.pov b")))
    assert seen == [
        ("at=4&pov=0", "Anna"),
        ("at=4&pov=1", "Bruno"),
        ("at=4&pov=spectator", "spectator"),
        ("at=4", "referee"),
    ]
    assert page.locator("#seat-1 .card.back").count() == 0  # the referee's view again: every card face up


def test_spectator_steps_page_by_page_and_sees_no_hand(page):
    page.goto("/games/web-1?at=3&pov=spectator")
    assert page.locator("#seat-0 .card.back").count() == 8 and page.locator("#seat-1 .card.back").count() == 10
    assert page.get_attribute("#game", "data-last") == ""
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"at=4&pov=spectator$"))
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    assert shown == {"3H", "4H", "5H", "KD"}  # the meld and the top of the discard pile: nothing hidden
    assert page.locator("#moves li").count() == 5


def _png_colours(data: bytes, limit: int = 64) -> int:
    """Distinct pixel colours of an 8-bit RGB/RGBA PNG (stops counting at ``limit``)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, ctype = header[:4]
    assert depth == 8 and ctype in (2, 6), header
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours: set[bytes] = set()
    i = 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):
            colours.add(bytes(line[x : x + 3]))
        if len(colours) >= limit:
            return len(colours)
        prev = line
    return len(colours)


def test_screenshot_of_the_board_is_saved_and_not_blank(page):
    page.goto("/games/web-1?at=9")
    ARTIFACTS.mkdir(exist_ok=True)
    target = ARTIFACTS / "board.png"
    data = page.locator("#board").screenshot(path=str(target))
    assert target.exists() and target.stat().st_size == len(data)
    assert _png_colours(data) >= 16
    page.screenshot(path=str(ARTIFACTS / "game-page.png"), full_page=True)


def test_png_check_sees_a_blank_image():
    blank = zlib.compress(b"".join(b"\x00" + b"\xff\xff\xff" * 4 for _ in range(4)))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", blank)
        + chunk(b"IEND", b"")
    )
    assert _png_colours(png) == 1


# --- layout (issue 16): phone and desktop, seating, sorting, hand order ----------------

VIEWPORTS = {"phone": (390, 844), "desktop": (1400, 1000)}
GAME_PAGES = {"burraco-2": "/games/bur-dispute?at=3", "scala40-6": "/games/scala40-stock-restock?at=2"}


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """Where the layout tests save their screenshots (a temporary folder, not committed)."""
    return tmp_path_factory.mktemp("screenshots")


def _fits(pg) -> dict:  # type: ignore[no-untyped-def,type-arg]
    return pg.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth})")


def _hand_on_screen(pg, seat: int) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """Where seat ``seat``'s hand is: its box, the window, the sticky controls'
    bottom edge, and whether the element at the hand's centre is in the hand."""
    return pg.evaluate(
        """(seat) => {
            const hand = document.querySelector('#seat-' + seat + ' .hand');
            const b = hand.getBoundingClientRect();
            const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            const controls = document.querySelector('.controls').getBoundingClientRect();
            return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: innerWidth, height: innerHeight,
                    controls: controls.bottom, hit: hand.contains(at), scrollY: scrollY};
        }""",
        seat,
    )


@pytest.mark.parametrize("view", VIEWPORTS)
@pytest.mark.parametrize("which", GAME_PAGES)
def test_the_game_page_opens_at_the_table_with_the_hand_in_view(open_page, base_url, screenshots, view, which):
    pg, errors = open_page(base_url, *VIEWPORTS[view])
    pg.goto(GAME_PAGES[which])
    pg.screenshot(path=str(screenshots / f"game-{which}-{view}.png"))
    assert (screenshots / f"game-{which}-{view}.png").stat().st_size > 10_000
    fit = _fits(pg)
    assert fit["scroll"] <= fit["inner"], fit
    hand = _hand_on_screen(pg, 0)  # the referee's page: seat 0 sits south
    assert hand["scrollY"] == 0  # not scrolled down to the move list
    assert 0 <= hand["left"] and hand["right"] <= hand["width"], hand
    assert hand["controls"] <= hand["top"] and hand["bottom"] <= hand["height"], hand
    assert hand["hit"] is True, hand
    # stepping keeps the page where it is (the move list scrolls, not the page)
    start = position(pg)
    for n in (start + 1, start + 2, start + 3):
        pg.keyboard.press("ArrowRight")
        pg.wait_for_selector(f'#board[data-position="{n}"]')
    hand = _hand_on_screen(pg, 0)
    assert hand["scrollY"] == 0 and hand["hit"] is True and hand["bottom"] <= hand["height"], hand
    assert errors == []


@pytest.mark.parametrize("view", VIEWPORTS)
def test_the_games_list_fits_without_scrolling_sideways(open_page, base_url, screenshots, view):
    pg, errors = open_page(base_url, *VIEWPORTS[view])
    pg.goto("/games")
    pg.screenshot(path=str(screenshots / f"games-{view}.png"), full_page=True)
    fit = _fits(pg)
    assert fit["scroll"] <= fit["inner"], fit
    assert pg.locator("tr.game-row").count() == 4
    # the result column is there at both widths
    assert pg.inner_text('tr[data-game="bur-dispute"] td.result .winner') == "Anna"
    right = pg.evaluate(
        "() => Math.max(...[...document.querySelectorAll('table.games td.result')].map(e => "
        "e.getBoundingClientRect().right))"
    )
    assert right <= VIEWPORTS[view][0]
    assert errors == []


@pytest.fixture(scope="module")
def every_fixture_url(records_app) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The viewer over every valid record of fixtures/ (18 games: long ids,
    six-seat tables, team results), for the phone-width checks."""
    from ledger.errors import RecordError
    from ledger.replay import validate

    records = []
    for path in sorted((REPO / "fixtures").rglob("*.jsonl")):
        try:
            record = read_record(path)
            validate(record)
        except RecordError:
            continue  # the fixtures that are refused on purpose
        records.append(list(record.events))
    with serve(records_app(*records, testing=False)) as url:
        yield url


@pytest.mark.parametrize(
    "path", ["/games", "/games?lang=it", "/games/bur-dispute?at=7&lang=it", "/games/bur-4p-teams?lang=it"]
)
def test_every_fixture_fits_a_phone_in_both_languages(open_page, every_fixture_url, screenshots, path):
    """Found by a new user: the full games list (result column, Italian
    headers) and the Italian audit table were wider than a phone."""
    pg, errors = open_page(every_fixture_url, *VIEWPORTS["phone"])
    pg.goto(path)
    pg.screenshot(path=str(screenshots / f"phone-{re.sub(r'[^a-z0-9]+', '-', path)}.png"), full_page=True)
    fit = _fits(pg)
    assert fit == {"scroll": 390, "inner": 390}, fit
    if path.startswith("/games?") or path == "/games":
        assert pg.locator("tr.game-row").count() == 18
    assert errors == []


def _seat_centres(pg) -> dict[int, tuple[float, float]]:  # type: ignore[no-untyped-def]
    boxes = pg.evaluate(
        "() => [...document.querySelectorAll('.felt .seat')].map(e => { const b = e.getBoundingClientRect(); "
        "return [Number(e.dataset.seat), b.left + b.width / 2, b.top + b.height / 2]; })"
    )
    return {s: (x, y) for s, x, y in boxes}


@pytest.mark.parametrize("view", VIEWPORTS)
def test_six_seats_read_clockwise_around_the_table(open_page, base_url, view):
    import math

    pg, errors = open_page(base_url, *VIEWPORTS[view])
    pg.goto("/games/scala40-stock-restock?at=2")
    centres = _seat_centres(pg)
    felt = pg.locator(".felt").bounding_box()
    cx, cy = felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2

    def clockwise_from_south(p: tuple[float, float]) -> float:  # screen y grows downwards
        return (math.degrees(math.atan2(p[1] - cy, p[0] - cx)) - 90) % 360

    angles = {s: clockwise_from_south(p) for s, p in centres.items()}
    assert sorted(angles, key=angles.get) == [0, 1, 2, 3, 4, 5], angles
    # three seats along the top, left to right, in one row; one each side; one south
    x, y = {s: p[0] for s, p in centres.items()}, {s: p[1] for s, p in centres.items()}
    assert y[2] == y[3] == y[4] and x[2] < x[3] < x[4]
    assert y[1] == y[5] and x[1] < x[3] < x[5] and y[1] > y[3]
    assert y[0] > y[1] and abs(x[0] - x[3]) < 1
    # seen from seat 3 (south), seat 4 sits to its left
    pg.goto("/games/scala40-stock-restock?at=2&pov=3")
    seat3 = _seat_centres(pg)
    angles = {s: clockwise_from_south(p) for s, p in seat3.items()}
    assert sorted(angles, key=angles.get) == [3, 4, 5, 0, 1, 2], angles
    assert errors == []


def test_sorting_the_games_list_by_a_column(page):
    page.goto("/games")
    before = page.eval_on_selector_all("tr.game-row", "rows => rows.map(r => r.dataset.game)")
    page.click("th >> text=Moves")
    page.wait_for_url(re.compile(r"/games\?sort=moves&dir=asc$"))
    rows = page.eval_on_selector_all("tr.game-row", "rows => rows.map(r => r.dataset.game)")
    assert rows == ["bur-semi-dirty", "web-1", "bur-dispute", "scala40-stock-restock"]  # 19 and 19: the store's order
    assert sorted(rows) == sorted(before)
    moves = [
        int(t) for t in page.eval_on_selector_all("tr.game-row td:nth-child(9)", "cells => cells.map(c => c.innerText)")
    ]
    assert moves == [16, 19, 19, 65]
    assert page.get_attribute("th[aria-sort]", "aria-sort") == "ascending"
    page.click("th >> text=Moves")
    page.wait_for_url(re.compile(r"/games\?sort=moves&dir=desc$"))
    assert page.eval_on_selector_all("tr.game-row", "rows => rows.map(r => r.dataset.game)") == [
        "scala40-stock-restock",
        "web-1",
        "bur-dispute",
        "bur-semi-dirty",
    ]
    assert page.get_attribute("th[aria-sort]", "aria-sort") == "descending"
    # a filter keeps the sort
    page.fill("input[name=player]", "Fabio")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"sort=moves&dir=desc"))
    assert page.eval_on_selector_all("tr.game-row", "rows => rows.map(r => r.dataset.game)") == [
        "scala40-stock-restock"
    ]


BRUNO_BY_SUIT = ["AS", "4S", "5S", "8H", "7C", "10C", "QC", "6D", "7D", "8D"]


def test_dealt_order_toggle_is_kept_across_navigation(page):
    def bruno() -> list[str]:
        return page.eval_on_selector_all("#seat-1 .card[data-card]", "els => els.map(e => e.dataset.card)")

    page.goto("/games/web-1?at=9")
    assert bruno() == BRUNO_BY_SUIT
    page.click("#hand-order >> text=as dealt")
    page.wait_for_url(re.compile(r"\?at=9&order=dealt$"))
    assert bruno() == list(BRUNO)
    # stepping in place (the board fragment) and by the controls keeps the order
    page.keyboard.press("ArrowRight")
    wait_position(page, 10)
    assert page.url.endswith("?at=10&order=dealt") and bruno() == list(BRUNO)
    page.click("#nav-prev")
    wait_position(page, 9)
    assert page.url.endswith("?at=9&order=dealt") and bruno() == list(BRUNO)
    assert page.get_attribute("#nav-next", "href").endswith("?at=10&order=dealt")
    # a seat's view keeps it too
    page.click("a.pov-link >> text=Bruno")
    page.wait_for_url(re.compile(r"\?at=9&pov=1&order=dealt$"))
    assert bruno() == list(BRUNO)
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"\?at=8&pov=1&order=dealt$"))
    page.click("#hand-order >> text=by suit")
    page.wait_for_url(re.compile(r"\?at=8&pov=1$"))
    assert bruno() == BRUNO_BY_SUIT


def test_controls_take_their_targets_from_the_server(page, base_url):
    """Keys pressed faster than the board arrives each move one step, and the
    controls end with the targets the server renders for that position."""
    page.goto("/games/web-1?at=2")
    for _ in range(4):
        page.keyboard.press("n")  # violations at 6, 12, 15; none after
    wait_position(page, 15)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("PageUp")
    wait_position(page, 1)
    shown = page.eval_on_selector_all(
        ".controls .ctl", "els => els.map(e => [e.id, e.dataset.at === undefined ? null : Number(e.dataset.at)])"
    )
    import json
    import urllib.request

    fragment = urllib.request.urlopen(base_url + "/games/web-1/board?at=1").read().decode()
    nav = json.loads(__import__("html").unescape(re.search(r'data-nav="([^"]*)"', fragment).group(1)))
    ids = {
        "nav-first": "first",
        "nav-prev-hand": "prev_hand",
        "nav-prev-violation": "prev_violation",
        "nav-prev": "prev",
        "nav-next": "next",
        "nav-next-violation": "next_violation",
        "nav-next-hand": "next_hand",
        "nav-last": "last",
    }
    assert dict(shown) == {i: nav[k] for i, k in ids.items()}
    assert dict(shown) == {
        "nav-first": 0,
        "nav-prev-hand": None,
        "nav-prev-violation": None,
        "nav-prev": 0,
        "nav-next": 2,
        "nav-next-violation": 6,
        "nav-next-hand": 14,
        "nav-last": 18,
    }
