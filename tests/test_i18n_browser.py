"""The viewer in Italian, the report from the game page and the print
stylesheet, in a real headless Chromium (Playwright, Debian's
``/usr/bin/chromium``) against a real server (:func:`ledger.testing.live.serve`).

Scenario: ``fixtures/burraco/dispute.jsonl`` (bur-dispute, Anna v Bruno,
findings at 4, 5, 7, 8, 15, 17; a penalty of −50 to Bruno at 10, a
restoration to 6 at 11; Anna −70, Bruno −235, Anna wins) from record files.
Without Chromium or Playwright these tests skip, except under ``CI=true``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.record_files import read_record
from ledger.testing.live import serve
from tests.test_report import _pdf_text  # pdftotext / pdfinfo, A4 checked

pytestmark = pytest.mark.browser

DISPUTE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"


@pytest.fixture(scope="module")
def site(records_app) -> Iterator[str]:  # type: ignore[no-untyped-def]
    with serve(records_app(list(read_record(DISPUTE).events), testing=False)) as url:
        yield url


@pytest.fixture
def page(open_page, site):  # type: ignore[no-untyped-def]
    pg, errors = open_page(site)
    yield pg
    assert errors == []


def squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def text(pg, selector: str) -> str:  # type: ignore[no-untyped-def]
    return squash(pg.locator(selector).first.inner_text())


def test_lang_it_games_list_game_page_score_panel_and_report(page) -> None:  # type: ignore[no-untyped-def]
    page.goto("/games?lang=it")
    assert page.get_attribute("html", "lang") == "it"
    assert text(page, "main h1") == "Partite"
    assert [squash(t) for t in page.locator("table.games thead th").all_inner_texts()] == [
        "Partita",
        "Variante",
        "Regolamento",
        "Giocatori",
        "Data",
        "Torneo",
        "Tavolo",
        "Smazzate",
        "Mosse",
        "Irregolarità rilevate",
        "Risultato",
    ]
    assert text(page, "p.count") == "1 partita"
    page.click("a[href^='/games/bur-dispute']")
    page.wait_for_url(re.compile(r"/games/bur-dispute\?(.*&)?lang=it"))
    assert text(page, "#board .pos") == "posizione 18 / 18"
    assert text(page, "#score-panel h2") == "Punteggi foglio finale"
    assert text(page, "#score-panel .winner-line") == "vincitore: Anna"
    assert text(page, ".moves-panel h2") == "Mosse"
    assert text(page, "#move-17 .mtext") == "fine smazzata: bloccata"
    # stepping swaps the board and the score panel in, still in Italian, and the URL keeps the language
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board[data-position="17"]')
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === '17'")
    assert "lang=it" in page.url
    assert text(page, "#board .pos") == "posizione 17 / 18"
    assert text(page, "#board .move-now") == "fine smazzata: bloccata"
    assert text(page, "#score-panel h2") == "Punteggi alla posizione 17"
    # the report link follows the position and opens the report there, in Italian
    assert page.get_attribute("#report-link", "href") == "/games/bur-dispute/report?at=17&lang=it"
    assert text(page, "#report-link") == "Rapporto"
    page.click("#report-link")
    page.wait_for_url(re.compile(r"/games/bur-dispute/report\?at=17&lang=it$"))
    assert text(page, "header.rhead h1") == "Verbale di contestazione bur-dispute"
    assert text(page, "section.dispute h2") == "Posizione contestata: 17 di 18 · smazzata 1"
    assert text(page, "section.score h2") == "Foglio dei punti"
    assert text(page, "section.signatures h2") == "Firme"


def test_accept_language_it_chooses_italian(browser, site) -> None:  # type: ignore[no-untyped-def]
    ctx = browser.new_context(locale="it-IT", base_url=site)  # Chromium sends Accept-Language: it-IT,it
    try:
        pg = ctx.new_page()
        pg.goto("/games/bur-dispute?at=7")
        assert pg.get_attribute("html", "lang") == "it"
        assert text(pg, "#board .move-now") == "Bruno attacca 6♥ a [a]"
        assert text(pg, "#board .turn-line") == "Bruno (posto 1) deve calare, attaccare o scartare"
        assert "lang=" not in pg.get_attribute("#report-link", "href")  # the browser chose: links need not say it
        pg.click("#lang-en")
        pg.wait_for_url(re.compile(r"lang=en"))
        assert text(pg, "#board .move-now") == "Bruno lays off 6♥ on [a]"
    finally:
        ctx.close()


def test_the_report_link_opens_the_report_at_the_position_reached(page) -> None:  # type: ignore[no-untyped-def]
    page.goto("/games/bur-dispute?at=7")
    assert text(page, "#report-link") == "Report"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#board[data-position="8"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#board[data-position="9"]')
    assert page.get_attribute("#report-link", "href") == "/games/bur-dispute/report?at=9"
    assert page.get_attribute("#report-pdf-link", "href") == "/games/bur-dispute/report.pdf?at=9"
    page.click("#report-link")
    page.wait_for_url(re.compile(r"/games/bur-dispute/report\?at=9$"))
    assert text(page, "section.dispute h2") == "Position in dispute: 9 of 18 · hand 1"
    assert text(page, "p.at-move") == "Bruno discards 10♠ rewound by the ruling at position 11"
    page.click("#report-back")
    page.wait_for_url(re.compile(r"/games/bur-dispute\?at=9$"))


def test_the_pdf_from_the_viewer_in_italian(page, pdf_tools, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto("/games/bur-dispute/report?at=7&finding=7&lang=it")
    with page.expect_download() as info:
        page.click("#report-pdf")
    download = info.value
    assert download.suggested_filename == "report-bur-dispute-7-it.pdf"
    out = tmp_path / "verbale.pdf"
    download.save_as(out)
    assert out.read_bytes().startswith(b"%PDF-")
    pages, pdf = _pdf_text(out)
    assert pages in (1, 2)
    for phrase in (
        "Verbale di contestazione bur-dispute",
        "Posizione contestata: 7 di 18",
        "BUR-TURN-1",  # the finding
        "Attacco su una combinazione della coppia avversaria.",  # its rule, in Italian
        "arbitro: penalità -50 a carico di Bruno (BUR-TURN-1)",  # the ruling
        "Il punteggio dichiarato supera di 70 punti quello calcolato.",  # the score: claimed against computed
        "Vincitore: Anna",
        "L'arbitro",
    ):
        assert phrase in pdf, phrase
    assert re.search(r"totale \(dopo le decisioni arbitrali\) -70 -235", pdf)


def test_print_layout_of_the_game_page(page, pdf_tools, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto("/games/bur-dispute?at=7")
    page.emulate_media(media="print")
    for hidden in (".controls", "#nav-next", "#report-link", ".lang-switch", "#signin-link", "nav.pov"):
        assert not page.locator(hidden).first.is_visible(), hidden
    moves = page.evaluate("""() => { const m = document.getElementById('moves'); const s = getComputedStyle(m);
        return [s.maxHeight, s.overflowY, m.scrollHeight <= m.clientHeight + 1, m.querySelectorAll('li').length]; }""")
    assert moves == ["none", "visible", True, 19]  # the whole move list, not a scroll box
    felt = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('.felt')); return [s.backgroundImage, "
        "s.backgroundColor]; }"
    )
    assert felt == ["none", "rgb(255, 255, 255)"]
    colours = page.evaluate("""() => ['.card.red', '.card.black', '.card.back'].map(q => {
        const s = getComputedStyle(document.querySelector(q));
        return [s.color, s.backgroundColor, s.backgroundImage]; })""")
    assert colours == [
        ["rgb(200, 16, 46)", "rgb(255, 255, 255)", "none"],
        ["rgb(0, 0, 0)", "rgb(255, 255, 255)", "none"],
        ["rgb(0, 0, 0)", "rgb(255, 255, 255)", "none"],
    ]
    out = tmp_path / "game.pdf"
    out.write_bytes(page.pdf(format="A4", print_background=True, prefer_css_page_size=True))  # print.css: @page A4
    _pages, pdf = _pdf_text(out)
    assert "0 game bur-dispute starts: Burraco (fibur), Anna, Bruno" in pdf
    assert "18 game ends: hands played" in pdf  # the last move printed too
    for control in ("first", "next ▶", "referee sign-in", "Report PDF", "English · Italiano"):
        assert control not in pdf, control


def test_print_layout_of_the_games_list(page) -> None:  # type: ignore[no-untyped-def]
    page.goto("/games?lang=it")
    page.emulate_media(media="print")
    assert not page.locator("form.filters").is_visible()
    assert page.locator("table.games").is_visible()
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('header.top')).backgroundColor")
        == "rgb(255, 255, 255)"
    )
