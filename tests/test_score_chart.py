"""The score chart (issue 26): each side's cumulative score by hand drawn by
matplotlib as SVG on the server, the game's target marked, the line as played
beside the adjudicated one where a ruling changed a total; in the report (and
so its PDF) for the whole game, in the viewer's score panel at its position.

Records: ``fixtures/burraco/dispute.jsonl`` (one hand; Bruno −235 as
adjudicated, −185 as played; target 2005) and
``fixtures/gin/standard-game.jsonl`` (four hands, target 100, no ruling).
"""

from __future__ import annotations

import base64
import re
import subprocess
from pathlib import Path

import pytest

from ledger.record_files import read_record
from ledger.replay import replay
from replay_web.chart import ruling_marks, score_chart, target_of
from replay_web.report_data import build_report

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
GIN = REPO / "fixtures" / "gin" / "standard-game.jsonl"
WORDS = {
    "hand": "hand",
    "points": "points",
    "as_played": "as played",
    "target": "target",
    "elimination": "elimination",
    "title": "Cumulative score by hand",
}


def texts(svg: str) -> list[str]:
    """The chart's texts, from its SVG or its data URI (the pages show it as an image)."""
    prefix = "data:image/svg+xml;base64,"
    if svg.startswith(prefix):
        svg = base64.b64decode(svg[len(prefix) :]).decode()
    return re.findall(r">([^<>]+)</text>", svg)


def chart_in(page: str) -> str:
    """The chart's data URI in a page."""
    m = re.search(r'<figure class="score-chart" id="score-chart"><img src="([^"]+)"', page)
    assert m, "no chart in the page"
    return m.group(1)


def test_the_chart_marks_the_target_and_the_line_as_played() -> None:
    svg = score_chart(replay(read_record(DISPUTE).events), ["Anna", "Bruno"], WORDS)
    assert svg is not None and svg.startswith("<svg")
    assert {"target 2005", "Anna", "Bruno", "Bruno (as played)", "Cumulative score by hand"} <= set(texts(svg))
    gin = score_chart(replay(read_record(GIN).events), ["Anna", "Bruno"], WORDS)
    assert gin is not None and "target 100" in texts(gin) and not any("as played" in t for t in texts(gin))
    assert gin == score_chart(replay(read_record(GIN).events), ["Anna", "Bruno"], WORDS)  # the same bytes again


def test_a_ruling_is_marked_where_it_changed_a_total() -> None:
    state = replay(read_record(DISPUTE).events)
    runs = ((0, -70), (0, -235))  # as adjudicated: Anna, Bruno (BUR-TURN-1 -50 on Bruno at position 10)
    played = ((0, -70), (0, -185))
    assert ruling_marks(state, runs, played) == ((1, 1, -185, -235, "BUR-TURN-1 -50"),)
    svg = score_chart(state, ["Anna", "Bruno"], WORDS)
    assert svg is not None and texts(svg).count("BUR-TURN-1 -50") == 1
    gin = score_chart(replay(read_record(GIN).events), ["Anna", "Bruno"], WORDS)
    assert gin is not None and not any(re.match(r"[A-Z]+-[A-Z]+-\d", t) for t in texts(gin))  # no ruling, no mark
    assert ruling_marks(replay(read_record(GIN).events), ((0,),), ((0,),)) == ()


def test_no_chart_before_a_hand_is_scored_and_the_targets() -> None:
    events = list(read_record(DISPUTE).events)
    assert score_chart(replay(events[:10]), ["Anna", "Bruno"], WORDS) is None
    assert target_of(replay(events)) == (2005, "target")
    scala = replay(read_record(REPO / "fixtures" / "scala40" / "elimination.jsonl").events)
    assert target_of(scala) == (100, "elimination")  # that record's options (the preset is 101)


def test_the_report_holds_the_chart_in_both_languages() -> None:
    events = list(read_record(DISPUTE).events)
    data = build_report(events, lang="en")
    assert data["chart"] is not None and "Bruno (as played)" in texts(data["chart"])
    italian = build_report(events, lang="it")["chart"]
    assert "Punteggio cumulato per smazzata" in texts(italian) and "Bruno (come giocato)" in texts(italian)


def test_the_viewer_chart_follows_the_position(records_app) -> None:
    client = records_app(list(read_record(GIN).events)).test_client()
    first = client.get("/games/gin-standard-1?at=5").get_data(as_text=True)
    assert 'id="score-chart"' not in first  # no hand scored yet
    page = client.get("/games/gin-standard-1").get_data(as_text=True)
    assert "target 100" in texts(chart_in(page))
    fragment = client.get("/games/gin-standard-1/board?at=88").get_data(as_text=True)
    assert 'id="score-chart"' in fragment


@pytest.mark.browser
def test_the_pdf_holds_the_chart(pdf_tools: None, run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "dispute.pdf"
    assert run("report", str(DISPUTE), "--lang", "en", "-o", str(out)).exit_code == 0
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert {"Cumulative score by hand", "target 2005", "Bruno (as played)"} <= set(text.splitlines())
