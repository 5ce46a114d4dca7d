"""The viewer in a real headless Chromium, driven by Playwright (issue 6).

The app runs for real (werkzeug's threaded server on a free localhost port)
over the records of ``tests/webgames.small_game``; Chromium is Debian's
``/usr/bin/chromium``. The board's screenshot is saved under ``artifacts/``.
Without Chromium or Playwright these tests skip, except under ``CI=true``,
where they fail.
"""

from __future__ import annotations

import os
import re
import struct
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.cards import pretty
from ledger.records import read_record
from replay_web import create_app
from replay_web.store import RecordStore
from tests.webgames import BRUNO, small_game

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "artifacts"
JOKER_FIXTURE = REPO / "fixtures" / "burraco" / "semi_clean_and_dirty.jsonl"


def _unavailable() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    from werkzeug.serving import make_server

    records = [small_game()]
    if JOKER_FIXTURE.exists():
        records.append(list(read_record(JOKER_FIXTURE).events))
    app = create_app({"LEDGER_STORE": RecordStore(records=records)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def browser():
    missing = _unavailable()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, base_url=base_url)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield pg
    context.close()
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


@pytest.mark.skipif(not JOKER_FIXTURE.exists(), reason="no Burraco fixture with a joker")
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
        length, kind = struct.unpack(">I4s", data[pos: pos + 8])
        body = data[pos + 8: pos + 8 + length]
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
        ftype, line = raw[i], bytearray(raw[i + 1: i + 1 + stride])
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
            colours.add(bytes(line[x: x + 3]))
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

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)) + chunk(b"IDAT", blank) + chunk(b"IEND", b"")
    assert _png_colours(png) == 1
