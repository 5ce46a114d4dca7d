"""The referee's desk in a real headless Chromium (issue 16), driven by Playwright.

Each test serves a fresh SQLite store on 127.0.0.1 (werkzeug's threaded
server, :func:`ledger.testing.live.serve`) holding ``fixtures/burraco/dispute.jsonl``
up to position 9 (unfinished: findings at 4, 5, 7, 8) and the whole record
as ``bur-dispute-full`` (its ``position_restored`` at 11 rewinds moves 7–9).
Chromium is Debian's ``/usr/bin/chromium``; without it (or Playwright) these
tests skip, except under ``CI=true``, where they fail.
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
GAME = "bur-dispute"
FULL = "bur-dispute-full"


class Site:
    def __init__(self, url: str, ledger: Any, tokens: dict[str, str]) -> None:
        self.url, self.ledger, self.tokens = url, ledger, tokens

    def length(self, game: str = GAME) -> int:
        return len(self.ledger.get_events(game))


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    db = str(tmp_path / "desk.db")
    ledger = open_app(db)
    events = list(read_record(FIXTURE).events)
    ledger.append_events(GAME, events[:10], expected=0, appended_by="test")
    full = [msgspec.structs.replace(events[0], game_id=FULL), *events[1:]]
    ledger.append_events(FULL, full, expected=0, appended_by="test")
    store = TokenStore(ledger)
    tokens = {
        "referee": store.create("Rita Arbitro", "referee")[0],
        "recorder": store.create("Mario Rossi", "recorder")[0],
    }
    with serve(create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0})) as url:
        yield Site(url, ledger, tokens)
    ledger.close()


@pytest.fixture
def page(open_page, site):  # type: ignore[no-untyped-def]
    return open_page(site.url)[0]


def sign_in(pg: Any, token: str) -> None:
    pg.goto(f"/games/{GAME}")
    pg.click("#signin-link")
    pg.fill("#token", token)
    pg.click("#signin-submit")
    pg.wait_for_url(re.compile(rf"/games/{GAME}$|/games/{GAME}\?at=\d+$"))


def squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def forge(pg: Any, action: str, fields: dict[str, Any]) -> None:
    """Put a form the server did not make into the page and submit it (what a
    hostile page or a hand-made request would send)."""
    pg.evaluate(
        """([action, fields]) => {
            const f = document.createElement('form');
            f.method = 'post'; f.action = action;
            for (const [k, v] of Object.entries(fields)) {
                const i = document.createElement('input');
                i.type = 'hidden'; i.name = k; i.value = String(v); f.appendChild(i);
            }
            document.body.appendChild(f); f.submit();
        }""",
        [action, fields],
    )
    pg.wait_for_load_state()


PENALTY = {"finding": 7, "expected": 10, "side": "seat:1", "points": -50, "rule": "BUR-TURN-1"}


def test_referee_signs_in_rules_and_the_finding_shows_ruled_and_the_score_changes(page, site) -> None:  # type: ignore[no-untyped-def]
    sign_in(page, site.tokens["referee"])
    assert page.inner_text("#signed-in-name") == "Rita Arbitro"
    cookie = next(c for c in page.context.cookies() if c["name"] == "session")
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
    assert squash(page.inner_text("#score-panel tfoot")) == "totals 0 0"
    assert page.inner_text("#status-7-BUR-TURN-1").startswith("open")
    page.click("#rule-7-BUR-TURN-1 summary")
    form = page.locator("#rule-7-BUR-TURN-1 form.penalty-form")
    assert form.locator("select[name=side]").input_value() == "seat:1"  # prefilled from the finding
    assert form.locator("input[name=rule]").input_value() == "BUR-TURN-1"
    form.locator("input[name=points]").fill("-50")
    form.locator("button.assess").click()
    page.wait_for_url(re.compile(rf"/games/{GAME}\?at=10$"))
    assert "penalty stored at position 10" in page.inner_text(".flashes")
    assert page.inner_text("#status-7-BUR-TURN-1").startswith(
        "ruled at position 10 by Rita Arbitro: penalty -50 to Bruno (BUR-TURN-1)"
    )
    assert page.inner_text("#status-8-ALL-TURN-2").startswith("open")
    assert squash(page.inner_text("#score-panel tfoot")) == "as adjudicated 0 -50 as played 0 0"
    assert site.length() == 11
    e = site.ledger.get_events(GAME)[10]
    assert (e.type, e.seat, e.points, e.rule, e.finding, e.referee) == (
        "penalty_assessed",
        1,
        -50,
        "BUR-TURN-1",
        7,
        "Rita Arbitro",
    )
    assert site.ledger.journal(GAME)[10].appended_by == "Rita Arbitro"
    # the restore form on the next finding rewinds the moves
    page.click("#rule-8-ALL-TURN-2 summary")
    restore = page.locator("#rule-8-ALL-TURN-2 form.restore-form")
    restore.locator("input[name=target]").fill("6")
    restore.locator("button.restore").click()
    page.wait_for_url(re.compile(rf"/games/{GAME}\?at=11$"))
    assert page.inner_text("#status-8-ALL-TURN-2").startswith(
        "ruled at position 11 by Rita Arbitro: table restored to move 6"
    )
    assert page.eval_on_selector_all("#moves li.rewound", "els => els.map(e => e.dataset.pos)") == ["7", "8", "9"]
    page.click("#signout")
    page.wait_for_load_state()
    assert page.locator("#signin-link").count() == 1


def test_a_player_without_a_token_cannot_post_a_ruling(page, site) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"/games/{GAME}")
    assert page.locator(".rule-form").count() == 0
    assert page.inner_text("#status-7-BUR-TURN-1") == "open"
    # a valid CSRF token (from the sign-in page) but no session: 401
    page.goto("/signin")
    csrf = page.get_attribute("input[name=csrf_token]", "value")
    with page.expect_navigation() as nav:
        forge(page, f"/games/{GAME}/rulings/penalty", {**PENALTY, "csrf_token": csrf})
    assert nav.value.status == 401
    assert "sign in with a referee token" in page.inner_text(".error-message")
    # a recorder's session: 403, no forms
    sign_in(page, site.tokens["recorder"])
    assert page.locator(".rule-form").count() == 0
    page.goto("/signin")
    csrf = page.get_attribute("input[name=csrf_token]", "value")
    with page.expect_navigation() as nav:
        forge(page, f"/games/{GAME}/rulings/penalty", {**PENALTY, "csrf_token": csrf})
    assert nav.value.status == 403
    assert site.length() == 10


def test_a_forged_form_without_the_csrf_token_is_refused(page, site) -> None:  # type: ignore[no-untyped-def]
    sign_in(page, site.tokens["referee"])  # the referee's session cookie is there
    with page.expect_navigation() as nav:
        forge(page, f"/games/{GAME}/rulings/penalty", PENALTY)
    assert nav.value.status == 400
    assert page.inner_text(".error-message") == "The CSRF token is missing."
    with page.expect_navigation() as nav:
        forge(
            page,
            f"/games/{GAME}/rulings/restore",
            {"finding": 8, "expected": 10, "target": 6, "reason": "x", "csrf_token": "forged"},
        )
    assert nav.value.status == 400
    assert site.length() == 10


def test_rewound_moves_are_marked(page, site) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"/games/{FULL}?at=12")
    assert page.eval_on_selector_all("#moves li.rewound", "els => els.map(e => e.dataset.pos)") == ["7", "8", "9"]
    assert page.inner_text("#move-8 .rewound-by") == "rewound at 11"
    struck = page.eval_on_selector("#move-8 .mtext", "e => getComputedStyle(e).textDecorationLine")
    assert struck == "line-through"
    live = page.eval_on_selector("#move-12 .mtext", "e => getComputedStyle(e).textDecorationLine")
    assert live == "none"
    assert "rewound" not in page.get_attribute("#move-10", "class")  # the referee's penalty still counts
    assert "move rewound at 11" in page.inner_text("#status-7-BUR-TURN-1")


def test_score_panel_at_a_mid_hand_position(page, site) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"/games/{FULL}?at=5")
    assert page.get_attribute("#score-panel", "data-position") == "5"
    row = page.locator("#running-hand td")
    assert [squash(row.nth(i).inner_text()) for i in range(3)] == [
        "1 in play, as the table stands",
        "-70 melds +55 hand -25 no pozzetto -100 4 cards in hand · 2 melds",
        "-185 hand -85 no pozzetto -100 11 cards in hand · 0 melds",
    ]
    assert squash(page.inner_text("#score-panel tfoot")) == "totals 0 0"
    assert page.locator("#score-panel .winner-line").count() == 0
    # stepping swaps the panel with the board: Bruno has drawn 6♥ at 6
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#score-panel[data-position="6"]')
    assert (
        squash(page.locator("#running-hand td").nth(2).inner_text())
        == "-190 hand -90 no pozzetto -100 12 cards in hand · 0 melds"
    )
    # the referee's penalty at 10: as adjudicated beside as played
    page.goto(f"/games/{FULL}?at=10")
    assert squash(page.locator("#running-hand td").nth(2).inner_text()) == (
        "-235 (played -185) hand -85 no pozzetto -100 penalty -50 11 cards in hand · 0 melds"
    )
    assert squash(page.inner_text("#score-panel tfoot")) == "as adjudicated 0 -50 as played 0 0"
    # the finished sheet only at the end
    page.keyboard.press("End")
    page.wait_for_selector('#score-panel[data-position="18"]')
    assert page.inner_text("#score-panel h2") == "Scores final sheet"
    assert page.inner_text("#score-panel .winner-line") == "winner: Anna"
