"""The page a referee reads, in a real headless Chromium (issue 26), at 390,
1366 and 1920 px, English and Italian.

- the audit panel gives each finding's message at least 320 px on desktop
  (it sits under the board, in the wide column), and no page scrolls sideways;
- opening "rule on it" does not widen the page (the forms wrap in their cell);
- the dispute report does not overflow a phone (390 px).
- a just-imported live game seen by a visitor (0 / 0): the slider is disabled,
  as next and last.

A fresh SQLite store served on 127.0.0.1 (:func:`ledger.testing.live.serve`)
holds ``fixtures/burraco/dispute.jsonl`` up to position 9 (unfinished:
findings at 4, 5, 7, 8, so the referee's forms are there) and the whole
record as ``bur-dispute-full`` (for the report). Chromium is Debian's
``/usr/bin/chromium`` (Playwright), as in tests/test_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ledger.record_files import read_record
from ledger.store.application import open_app
from ledger.testing.live import serve
from ledger.tokens import TokenStore
from replay_web import create_app

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"
GAME, FULL = "bur-dispute", "bur-dispute-full"
WIDTHS = {"phone": (390, 844), "laptop": (1366, 768), "desktop": (1920, 1080)}
MEASURE = """() => ({
    scroll: document.documentElement.scrollWidth,
    inner: innerWidth,
    message: Math.min(...[...document.querySelectorAll('tr.finding td:nth-child(5)')]
        .map(e => e.getBoundingClientRect().width)),
})"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = str(tmp_path_factory.mktemp("layout-desk") / "desk.db")
    ledger = open_app(db)
    events = list(read_record(FIXTURE).events)
    ledger.append_events(GAME, events[:10], expected=0, appended_by="test")
    ledger.append_events(FULL, [msgspec.structs.replace(events[0], game_id=FULL), *events[1:]], appended_by="test")
    token = TokenStore(ledger).create("Rita Arbitro", "referee")[0]
    with serve(create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0})) as url:
        yield url, token
    ledger.close()


def signed_in(open_page: Any, site: tuple[str, str], width: int, height: int) -> Any:
    url, token = site
    pg, errors = open_page(url, width, height)
    pg.goto(f"/games/{GAME}")
    pg.click("#signin-link")
    pg.fill("#token", token)
    pg.click("#signin-submit")
    pg.wait_for_url(re.compile(rf"/games/{GAME}"))
    return pg, errors


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("view", WIDTHS)
def test_the_audit_has_room_and_rule_on_it_does_not_widen_the_page(open_page, site, view, lang) -> None:
    width, height = WIDTHS[view]
    pg, errors = signed_in(open_page, site, width, height)
    pg.goto(f"/games/{GAME}?at=7&lang={lang}")
    before = pg.evaluate(MEASURE)
    assert before["scroll"] <= width, before
    # every finding's message is wide enough to read: 320 px on desktop, the whole row on a phone
    assert before["message"] >= (320 if width >= 1366 else 300), before
    for n in range(pg.locator("details.rule-forms").count()):
        pg.locator("details.rule-forms summary").nth(n).click()
    opened = pg.evaluate(MEASURE)
    assert pg.locator("details.rule-forms[open]").count() == 4
    assert opened["scroll"] <= width, opened
    assert pg.locator("form.penalty-form").first.bounding_box()["x"] >= 0
    box = pg.locator("form.restore-form").first.bounding_box()
    assert box["x"] + box["width"] <= width, box
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_report_fits_a_phone(open_page, site, lang) -> None:
    pg, errors = open_page(site[0], *WIDTHS["phone"])
    pg.goto(f"/games/{FULL}/report?lang={lang}")
    fit = pg.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth})")
    assert fit["scroll"] <= fit["inner"] == 390, fit
    assert errors == []


# --- the games list on a phone -------------------------------------------------------------

#: the lines a cell's text takes: its text boxes grouped by vertical overlap
LINES = """(sel) => [...document.querySelectorAll(sel)].map(e => {
    const r = document.createRange(); r.selectNodeContents(e);
    const boxes = [...r.getClientRects()].filter(x => x.width > 0 && x.height > 0).sort((a, b) => a.top - b.top);
    let lines = 0, bottom = -Infinity;
    for (const b of boxes) {
        if (b.top >= bottom - 2) { lines += 1; bottom = b.bottom; } else { bottom = Math.max(bottom, b.bottom); }
    }
    return [e.closest('tr').dataset.game, lines];
})"""


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_score_sheet_form_fits_a_phone(open_page, site, lang) -> None:
    """Issue 24's paper-sheet form at 390 px: the players field stayed 50 characters wide (396 px)."""
    pg, errors = signed_in(open_page, site, *WIDTHS["phone"])
    pg.goto(f"/score-sheets/new?lang={lang}")
    fit = pg.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth})")
    assert fit["scroll"] <= fit["inner"] == 390, fit
    assert pg.locator("#players").bounding_box()["width"] <= 390
    assert errors == []


@pytest.fixture(scope="module")
def fixtures_url() -> Iterator[str]:
    """The viewer over every record file of fixtures/ (one of them unreadable on purpose)."""
    with serve(create_app({"LEDGER_RECORDS": [str(FIXTURE.parent.parent)]})) as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "it"])
def test_results_take_at_most_three_lines_on_a_phone(open_page, fixtures_url, lang) -> None:
    pg, errors = open_page(fixtures_url, *WIDTHS["phone"])
    pg.goto(f"/games?lang={lang}")
    fit = pg.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth})")
    assert fit["scroll"] <= fit["inner"], fit
    lines = dict(pg.evaluate(LINES, "tr.game-row td.result"))
    assert len(lines) == 19 and max(lines.values()) <= 3, lines  # were up to 9 in a 63 px column
    assert lines["bur-dispute"] == 2, lines  # the winner, then the totals
    # the columns left out on a phone are under the game id
    assert pg.inner_text('tr[data-game="gin-standard-1"] .row-sub') == "gin · Anna, Bruno"
    assert errors == []


@pytest.fixture(scope="module")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A just-imported unfinished game (10 events of the dispute) and the whole
    record, served with the 60 s spectator delay: a visitor sees the first at 0 / 0."""
    db = str(tmp_path_factory.mktemp("layout-live") / "live.db")
    ledger = open_app(db)
    events = list(read_record(FIXTURE).events)
    ledger.append_events(GAME, events[:10], expected=0, appended_by="test")
    ledger.append_events(FULL, [msgspec.structs.replace(events[0], game_id=FULL), *events[1:]], appended_by="test")
    ledger.close()
    with serve(create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 60})) as url:
        yield url


def test_the_slider_at_0_of_0_is_disabled(open_page, live_url) -> None:
    """At position 0 / 0 the slider leads nowhere, as next and last: it is
    disabled, and the keys that move a slider do not move the position."""
    pg, errors = open_page(live_url, 1366, 768)
    pg.goto(f"/games/{GAME}")
    assert pg.inner_text("#pos-now") == "0"
    assert pg.locator("#slider").is_disabled()
    assert [pg.get_attribute(f"#nav-{c}", "aria-disabled") for c in ("next", "last")] == ["true", "true"]
    pg.locator("#slider").focus()
    pg.keyboard.press("End")
    pg.keyboard.press("ArrowRight")
    assert (pg.inner_text("#pos-now"), pg.url) == ("0", f"{live_url}/games/{GAME}?at=0")
    pg.goto(f"/games/{FULL}?at=0")  # a finished game at position 0: the slider leads somewhere
    assert pg.locator("#slider").is_enabled() and pg.get_attribute("#slider", "max") == "18"
    assert errors == []
