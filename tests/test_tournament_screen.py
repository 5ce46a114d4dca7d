"""The hall's big screen and the printable standings sheet (issue 25), on a real server and
real chromium: at 1920 and 390 px wide neither scrolls sideways; the big screen follows the
live standings; the sheet prints as an A4 PDF (the report's chromium printing)."""

from __future__ import annotations

import re
import subprocess
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from ledger.testing.live import call, serve
from replay_web import create_app
from tests.cups import simulate_cup


@pytest.fixture(scope="module")
def cup_url(
    tmp_path_factory: pytest.TempPathFactory, cli_invoker: Callable[..., Callable[..., Result]]
) -> Iterator[str]:
    where = tmp_path_factory.mktemp("screen")
    out, db = where / "sim", where / "cup.db"
    run = cli_invoker(db)
    simulate_cup(run, out)
    assert run("import", "--no-analytics", str(out)).exit_code == 0
    with serve(create_app({"LEDGER_DB": str(db), "SPECTATOR_DELAY": 0})) as url:
        yield url


def _fits(page) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return page.evaluate("[document.documentElement.scrollWidth, innerWidth]")


@pytest.mark.parametrize("width", [1920, 390])
@pytest.mark.parametrize("path", ["/tournaments/cup/screen", "/tournaments/cup/sheet"])
def test_no_horizontal_scroll(cup_url: str, open_page, width: int, path: str) -> None:
    page, errors = open_page(cup_url, width=width, height=1080 if width > 1000 else 844)
    page.goto(path + "?lang=it")
    scroll, inner = _fits(page)
    assert scroll <= inner, (path, width, scroll, inner)
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 12
    assert rows.first.locator("td").first.inner_text() == "1"
    assert page.locator("html").get_attribute("lang") == "it"
    if path.endswith("screen"):
        assert page.locator("p.sub").inner_text() == "Classifica dopo il turno 4"
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('table.big')).fontSize)")
        assert size >= (40 if width == 1920 else 19)  # large type
        page.wait_for_timeout(300)
        assert page.evaluate("document.getElementById('standings').dataset.updated") == "1"  # live
        # every game of the cup is over: no "playing" mark, so no legend of it (issue 25)
        assert (
            page.locator("tr.playing").count() == 0
            and page.locator("p.legend").count() == 1
            and page.locator("p.legend").is_hidden()
        )
    else:
        head = page.locator("table.standings thead th").all_inner_texts()
        assert head[-4:] == ["T1", "T2", "T3", "T4"]
    assert errors == []


def test_the_sheet_as_pdf(cup_url: str, tmp_path: Path, pdf_tools) -> None:
    with urllib.request.urlopen(cup_url + "/tournaments/cup/sheet?format=pdf&lang=en", timeout=60) as resp:
        assert resp.status == 200 and resp.headers["content-type"] == "application/pdf"
        assert resp.headers["content-disposition"] == 'attachment; filename="standings-cup-4-en.pdf"'
        body = resp.read()
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(body)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Standings after round 4" in text and "Dora 12 & Enzo 12" in text
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "(A4)" in info and re.search(r"^Pages: +1$", info, re.M)
    assert call("GET", cup_url + "/tournaments/cup/sheet?format=doc")[0] == 400
    assert call("GET", cup_url + "/tournaments/nope/screen")[0] == 404


def test_the_tournament_page_links_both(cup_url: str) -> None:
    status, _h, html = call("GET", cup_url + "/tournaments/cup?lang=it")
    assert status == 200
    assert '<a id="screen-link" href="/tournaments/cup/screen?lang=it">Schermo grande (sala)</a>' in html
    assert 'id="sheet-link" href="/tournaments/cup/sheet?after_round=4&amp;lang=it">Foglio della classifica</a>' in html
    assert 'href="/tournaments/cup/sheet?after_round=4&amp;format=pdf&amp;lang=it">PDF</a>' in html
