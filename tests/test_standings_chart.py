"""The standings chart (issue 26): each entrant's VP total round by round, as the standings compute
them, with the rounds whose VP a ruling changed marked (ledger/tournament/progress.py, pure), drawn by
matplotlib as SVG (replay_web/standings_chart.py) on the tournament page, the standings sheet and
its PDF (real server)."""

from __future__ import annotations

import base64
import html
import random
import re
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest
from click.testing import Result

from ledger.testing.live import call, serve
from ledger.testing.tournaments import Builder, game_result, started
from ledger.tournament.events import EntrantRegistered, RoundClosed, RoundPaired, Table, VpAdjusted
from ledger.tournament.progress import EntrantProgress, RulingMark, progress
from ledger.tournament.standings import standings
from replay_web import create_app
from replay_web.standings_chart import LEADERS, chart_words, standings_chart
from tests.cups import simulate_cup


def small() -> Builder:
    """Five pairs, two rounds of fibur-4, a bye each round, a ruling that moves a VP, a warning's VP off.

    Round 1: a 1200–600 b (difference 600: 13–7), c 500–500 d (10–10), e the bye (12).
    Round 2: a 300–900 c (7–13); e 1000–400 b as adjudicated (600: 13–7), 1000–700 as played
    (300: 11–9: a penalty of -300 on b's side); d the bye (12) and 1 VP off (TOUR-WARN-2).
    """
    b = Builder(started("club", "danese", 2))
    for e in "abcde":
        b.add(EntrantRegistered(entrant=e, players=(f"{e}-N", f"{e}-S")))
    pairings = {1: ((("a", "b"), (1200, 600)), (("c", "d"), (500, 500)), "e"),
                2: ((("a", "c"), (300, 900)), (("e", "b"), (1000, 400)), "d")}  # fmt: skip
    for rnd, (one, two, bye) in pairings.items():
        tables = tuple(
            Table(table=i + 1, entrants=p, game_id=f"club-r{rnd}-t{i + 1}") for i, (p, _) in enumerate((one, two))
        )
        b.add(RoundPaired(round=rnd, tables=tables, bye=bye))
        for t, (_, mp) in zip(tables, (one, two), strict=True):
            b.results[t.game_id] = game_result(b.state, rnd, t, mp)
        b.add(RoundClosed(round=rnd))
    ruled = b.results["club-r2-t2"]
    b.results["club-r2-t2"] = msgspec.structs.replace(ruled, played=(1000, 700))
    b.add(VpAdjusted(entrant="d", vp=-1, rule="TOUR-WARN-2", round=2))
    return b


def test_vp_totals_round_by_round_with_the_ruling_marked() -> None:
    b = small()
    got = progress(b.state, b.results)
    assert (got.tournament_id, got.after_round) == ("club", 2)
    assert got.entrants == (
        EntrantProgress("e", 1, (0, 12, 25), (RulingMark(2, "club-r2-t2", 11, 13),)),
        EntrantProgress("c", 2, (0, 10, 23)),
        EntrantProgress("d", 3, (0, 10, 21)),
        EntrantProgress("a", 4, (0, 13, 20)),
        EntrantProgress("b", 5, (0, 7, 14), (RulingMark(2, "club-r2-t2", 9, 7),)),
    )
    final = standings(b.state, b.results)  # the last point of each line is the standings' total
    assert [(ln.entrant, ln.vp) for ln in final.lines] == [(p.entrant, p.vp[-1]) for p in got.entrants]


def test_after_a_round_and_a_game_still_playing() -> None:
    b = small()
    assert progress(b.state, b.results, 1).entrants == (
        EntrantProgress("a", 1, (0, 13)),
        EntrantProgress("e", 2, (0, 12)),
        EntrantProgress("c", 3, (0, 10)),
        EntrantProgress("d", 3, (0, 10)),
        EntrantProgress("b", 5, (0, 7)),
    )
    unfinished = msgspec.structs.replace(b.results["club-r2-t2"], finished=False)
    b.results["club-r2-t2"] = unfinished  # playing: counts nothing, and no mark until it ends
    by = {p.entrant: p for p in progress(b.state, b.results).entrants}
    assert (by["e"].vp, by["e"].rulings, by["b"].vp, by["b"].rulings) == ((0, 12, 12), (), (0, 7, 7), ())


@pytest.mark.parametrize("played", [(1000, 400), (1000, 420)])
def test_a_ruling_that_moves_no_vp_has_no_mark(played: tuple[int, int]) -> None:
    b = small()
    b.results["club-r2-t2"] = msgspec.structs.replace(b.results["club-r2-t2"], played=played)
    assert all(p.rulings == () for p in progress(b.state, b.results).entrants)


def svg_texts(svg: str) -> list[str]:
    """The chart's texts in drawing order (matplotlib keeps text as SVG text)."""
    return [html.unescape(t) for t in re.findall(r"<text [^>]*>([^<]*)</text>", svg)]


def uri_svg(page: str) -> str:
    """The SVG of the page's standings chart (an ``<img>`` of a data URI)."""
    found = re.search(r'id="standings-chart"><img src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert found is not None
    return base64.b64decode(found.group(1)).decode()


def test_sixty_pairs_leaders_named_the_rest_grey_and_bounded() -> None:
    b = Builder(started("big", "danese", 6))
    for i in range(60):
        b.register(f"p{i + 1}")
    rng = random.Random(7)
    for rnd in range(1, 7):
        b.pair(rnd)
        b.play(rnd, rng)
        b.add(RoundClosed(round=rnd))
    data = progress(b.state, b.results)
    assert len(data.entrants) == 60 and all(len(p.vp) == 7 for p in data.entrants)
    started_at = time.perf_counter()
    svg = standings_chart(data, chart_words("en"))
    took = time.perf_counter() - started_at
    assert svg is not None and svg.startswith("<svg")
    leaders = [f"{p.place} · {p.entrant}" for p in data.entrants[:LEADERS]]
    texts = svg_texts(svg)
    assert texts[-(LEADERS + 1) :] == [*leaders, "the others"]  # the legend: 8 named, one entry for the 52 others
    assert not any(t.endswith(f"· {p.entrant}") for p in data.entrants[LEADERS:] for t in texts)
    assert len(svg) < 200_000, len(svg)
    assert took < 5, took  # one draw (the first pays matplotlib's import); the second is the cache's
    again = time.perf_counter()
    assert standings_chart(data, chart_words("en")) == svg
    assert time.perf_counter() - again < 0.05


def test_no_chart_before_the_first_round() -> None:
    b = small()
    assert standings_chart(progress(b.state, b.results, 0), chart_words("en")) is None


def test_both_charts_take_their_words_one_way() -> None:
    """The game chart's and the standings chart's words are made the same way: from a language."""
    from replay_web import chart

    assert chart_words("it") == {
        "title": "Punti vittoria per turno",
        "round": "turno",
        "vp": "punti vittoria",
        "others": "gli altri",
        "ruling": "una decisione dell'arbitro ha cambiato i PV del turno",
    }
    assert chart_words("en")["title"] == "Victory points by round"
    assert chart.chart_words("it")["title"] == "Punteggio cumulato per smazzata"
    with pytest.raises(ValueError):
        chart_words("fr")
    with pytest.raises(ValueError):
        chart.chart_words("fr")


@pytest.fixture(scope="module")
def cup_url(
    tmp_path_factory: pytest.TempPathFactory, cli_invoker: Callable[..., Callable[..., Result]]
) -> Iterator[str]:
    where = tmp_path_factory.mktemp("chart")
    out, db = where / "sim", where / "cup.db"
    run = cli_invoker(db)
    simulate_cup(run, out)
    assert run("import", "--no-analytics", str(out)).exit_code == 0
    # after game_ended: c1 v c2 2295–1640 (13–7) becomes 1895–1640 (a difference of 255: 11–9)
    ruled = run("rule", "cup-r1-t1", "--penalty", "0", "-400", "--rule", "BUR-PILE-1", "--referee", "Ada")
    assert ruled.exit_code == 0, ruled.output
    assert "  VP c1 v c2: 13–7, now 11–9" in ruled.output.splitlines()
    with serve(create_app({"LEDGER_DB": str(db), "SPECTATOR_DELAY": 0})) as url:
        yield url


def test_the_tournament_page_shows_the_chart(cup_url: str) -> None:
    status, _h, page = call("GET", cup_url + "/tournaments/cup?lang=it")
    assert status == 200
    assert 'alt="Punti vittoria per turno"' in page
    texts = svg_texts(uri_svg(page))
    standings_ = call("GET", cup_url + "/api/tournaments/cup/standings")[2]["standings"]
    leaders = [f"{s['place']} · {s['entrant']}" for s in standings_[:LEADERS]]
    ruling = ["una decisione", "dell'arbitro ha cambiato", "i PV del turno"]  # the ruling's entry on three lines
    assert texts[-(LEADERS + 4) :] == [*leaders, "gli altri", *ruling]
    assert {"Punti vittoria per turno", "turno", "punti vittoria"} <= set(texts)
    status, _h, first = call("GET", cup_url + "/tournaments/cup?after_round=1&lang=en")
    round_one = svg_texts(uri_svg(first))
    assert round_one[:2] == ["0", "1"] and "2" not in round_one[:3]  # rounds 0 and 1 only
    assert "Victory points by round" in round_one
    assert '"standings-chart"' not in call("GET", cup_url + "/tournaments/cup?after_round=0")[2]


def test_the_chart_alone_is_the_pages_chart_for_the_live_page(cup_url: str) -> None:
    """``GET /tournaments/<id>/standings.svg``: the page's chart, which the live page loads again
    after each standings message (tests/test_tournament_live.py); the page of an earlier round,
    which does not follow the stream, has no live URL."""
    status, _h, page = call("GET", cup_url + "/tournaments/cup?lang=it")
    found = re.search(r'id="standings-chart"><img [^>]*data-live="([^"]+)"', page)
    assert status == 200 and found is not None
    live = html.unescape(found.group(1))
    assert live == "/tournaments/cup/standings.svg?lang=it"
    status, headers, svg = call("GET", cup_url + live)
    assert (status, headers["content-type"], headers["cache-control"]) == (
        200,
        "image/svg+xml; charset=utf-8",
        "no-cache",
    )
    assert svg == uri_svg(page)
    first = call("GET", cup_url + "/tournaments/cup?after_round=1&lang=en")[2]
    assert "data-live" not in first
    assert call("GET", cup_url + "/tournaments/cup/standings.svg?after_round=1&lang=en")[2] == uri_svg(first)
    status, _h, err = call("GET", cup_url + "/tournaments/cup/standings.svg?after_round=0")
    assert status == 404 and "no standings chart before the first round is paired" in err  # the viewer's 404 page
    assert call("GET", cup_url + "/tournaments/cup/standings.svg?after_round=x")[0] == 400
    assert call("GET", cup_url + "/tournaments/nope/standings.svg")[0] == 404


def test_the_sheet_and_its_pdf_show_the_chart(cup_url: str, tmp_path: Path, pdf_tools) -> None:
    status, _h, sheet = call("GET", cup_url + "/tournaments/cup/sheet?lang=en")
    assert status == 200 and "Victory points by round" in svg_texts(uri_svg(sheet))
    with urllib.request.urlopen(cup_url + "/tournaments/cup/sheet?format=pdf&lang=it", timeout=60) as resp:
        body = resp.read()
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(body)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Punti vittoria per turno" in text and "gli altri" in text
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages: +1$", info, re.M)  # 12 pairs and the chart on one A4 page
