"""The player page (issue 29, item 3): statistics and matplotlib plots, in the real browser.

The store holds the hand-checked records of tests/test_stats.py; the viewer
runs for real (werkzeug on a free port) over the SQLite store and its
analytics view, and Debian's Chromium opens ``/players/Anna`` at desktop
and phone widths and in print. The page's server-side parts (filters,
errors, only finished games, Italian) are checked with Flask's client.
Screenshots and the printed PDF go under ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.projections import update
from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from ledger.testing.live import serve
from replay_web import create_app, plots
from tests.test_stats import FIXTURES, REPO, irregular_closing

ARTIFACTS = REPO / "artifacts"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("players")
    path = str(tmp / "ledger.db")
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})
    try:
        app.import_record(read_record(irregular_closing()))
        for name in FIXTURES:
            app.import_record(read_record((REPO / "fixtures" / f"{name}.jsonl").read_bytes()))
        # a game still being played: not on the page (only finished games are public)
        unfinished = (REPO / "fixtures" / "ramino" / "in-mano.jsonl").read_bytes().splitlines()[:-1]
        app.import_record(read_record(b"\n".join(unfinished)))
        update(app, str(tmp / "ledger.analytics.duckdb"))
    finally:
        app.close()
    return path


@pytest.fixture(scope="module")
def client(db: str):  # noqa: ANN201
    return create_app({"TESTING": True, "LEDGER_DB": db}).test_client()


def test_page_shows_each_variant_with_its_statistics_and_three_plots(client) -> None:  # noqa: ANN001
    page = client.get("/players/Anna")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for variant in ("burraco", "scala40", "ramino51", "gin"):
        assert f'id="variant-{variant}"' in html
    assert 'id="variant-ramino"' not in html  # Anna's only Ramino game has not ended
    assert (
        '<tr data-stat="irregular_closings"><td>irregular closings (no closing bonus)</td><td class="num">1</td>'
        in html
    )
    assert '<tr data-stat="knock_deadwood"><td>deadwood at the knock (mean)</td><td class="num">9.00</td>' in html
    assert html.count('<img src="data:image/svg+xml;base64,') == 12  # 4 variants x (distribution, time, rates)
    assert "<svg" not in html  # the plots are matplotlib's SVG files, as images


def test_filters_errors_and_italian(client) -> None:  # noqa: ANN001
    gin = client.get("/players/Anna?variant=gin&lang=it").get_data(as_text=True)
    assert "<h1>Giocatore Anna</h1>" in gin and 'id="variant-burraco"' not in gin
    assert "percentuale di gin (sulle bussate)" in gin
    club = client.get("/players/Anna?tournament=Club&opponent=Carla").get_data(as_text=True)
    assert 'id="variant-burraco"' in club and 'id="variant-gin"' not in club
    assert client.get("/players/Nobody").status_code == 404
    assert client.get("/players/a/b%27%3B--").status_code == 404  # a name is any text: a slash, a quote
    bad = client.get("/players/Anna?since=yesterday")
    assert bad.status_code == 400 and "since=&#39;yesterday&#39;: a date YYYY-MM-DD" in bad.get_data(as_text=True)
    no_view = create_app({"TESTING": True, "LEDGER_RECORDS": str(REPO / "fixtures" / "gin")}).test_client()
    assert no_view.get("/players/Anna").status_code == 503


def test_the_plots_are_deterministic_svg() -> None:
    one = plots.distribution([10, 20, 20, -5], title="t", xlabel="x", ylabel="y")
    assert one == plots.distribution([10, 20, 20, -5], title="t", xlabel="x", ylabel="y")
    assert one.startswith("<?xml") and "<svg" in one and "matplotlib" in one
    bars = plots.rates(["win rate"], [0.75], [0.5], title="rates", names=("Anna", "field"))
    assert "win rate" in bars and "Anna" in bars  # text stays text (svg.fonttype none)


# --- the real browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_url(db: str) -> Iterator[str]:
    with serve(create_app({"LEDGER_DB": db})) as url:
        yield url


def _loaded_images(pg) -> list[dict]:  # noqa: ANN001
    return pg.eval_on_selector_all(
        ".plot img", "els => els.map(e => ({ok: e.complete && e.naturalWidth > 0, w: e.getBoundingClientRect().width}))"
    )


def _no_sideways_scroll(pg) -> bool:  # noqa: ANN001
    return pg.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height", "name"), [(1400, 1000, "desktop"), (390, 844, "phone")])
def test_player_page_in_the_browser(open_page, base_url: str, width: int, height: int, name: str) -> None:  # noqa: ANN001
    pg, errors = open_page(base_url, width, height)
    pg.goto("/players/Anna")
    pg.wait_for_load_state("load")
    images = _loaded_images(pg)
    assert len(images) == 12 and all(i["ok"] for i in images), images
    assert all(150 < i["w"] <= width for i in images), images
    assert _no_sideways_scroll(pg)
    cell = pg.inner_text("#variant-burraco tr[data-stat='pozzetto_by_turn'] td:nth-child(2)")
    assert cell == "75.0 %"
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"player-page-{name}.png"), full_page=True)
    assert errors == []  # no CSP violation, no broken image


@pytest.mark.browser
def test_player_page_prints(open_page, base_url: str) -> None:  # noqa: ANN001
    pg, errors = open_page(base_url, 1400, 1000)
    pg.goto("/players/Anna")
    pg.emulate_media(media="print")
    images = _loaded_images(pg)
    assert len(images) == 12 and all(i["ok"] and i["w"] > 150 for i in images), images
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = pg.pdf(path=str(ARTIFACTS / "player-page.pdf"), format="A4")
    assert pdf.startswith(b"%PDF")
    assert errors == []
