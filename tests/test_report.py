"""The dispute report (issue 16): its data, its HTML in English and Italian,
the viewer's route, the ``report`` command, and the PDF through Debian's
chromium with its text read back by pdftotext (poppler-utils).

Scenario: ``fixtures/burraco/dispute.jsonl`` (bur-dispute, FIBur Burraco,
Anna v Bruno): six findings (ALL-MELD-1 at 4, BUR-PILE-1 at 5, BUR-TURN-1 at
7, ALL-TURN-2 at 8, ALL-TURN-1 at 15, ALL-SCORE-1 at 17), a penalty of −50
to Bruno citing BUR-TURN-1 at 10, a restoration to 6 at 11 (moves 7–9
rewound), and a claimed sheet at 17: Anna 0 (computed −70: melds +55, hand
−25, no pozzetto −100), Bruno −235 (computed −235 with the penalty, −185 as
played).
"""

from __future__ import annotations

import base64
import hashlib
import html as html_lib
import os
import re
import subprocess
from pathlib import Path

import msgspec
import pytest

from ledger.events import encode_event
from ledger.record_files import read_record
from ledger.rulings import rewound_by
from replay_web.report import render_html
from replay_web.report_data import ReportError, build_report, seal_of
from tests.conftest import NO_LOCALE
from tests.webgames import small_game

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
EVIL = "<script>alert(1)</script>"


def dispute_events():
    return list(read_record(DISPUTE).events)


def text_of(page: str) -> str:
    """The visible text of an HTML page, whitespace folded (tags and the style sheet dropped)."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    page = re.sub(r"</?span[^>]*>", "", page)  # inline: card faces and suit colours
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --- the report's data --------------------------------------------------------------


def test_report_data_of_the_dispute() -> None:
    r = build_report(dispute_events(), finding=7, lang="en")
    assert (r["at"], r["last"], r["finding"]) == (7, 18, 7)
    assert r["at_move"] == "Bruno lays off 6♥ on [a]"
    assert r["at_rules"] == ["BUR-TURN-1"]
    assert r["at_rewound_by"] == 11
    assert r["game"]["meta"] == [("tournament", "fixtures"), ("table", "1")]
    assert (r["game"]["variant"], r["game"]["ruleset"], r["game"]["events"], r["game"]["hands"]) == (
        "Burraco",
        "fibur",
        19,
        1,
    )
    assert [(f["position"], f["rule"], f["disputed"], f["ruled_by"], f["rewound_by"]) for f in r["findings"]] == [
        (4, "ALL-MELD-1", False, [], None),
        (5, "BUR-PILE-1", False, [], None),
        (7, "BUR-TURN-1", True, [], 11),  # the penalty at 10 names no finding (ledger.rulings: it answers none)
        (8, "ALL-TURN-2", False, [], 11),
        (15, "ALL-TURN-1", False, [], None),
        (17, "ALL-SCORE-1", False, [], None),
    ]
    assert [x["id"] for x in r["rules"]] == [
        "ALL-MELD-1",
        "BUR-PILE-1",
        "BUR-TURN-1",
        "ALL-TURN-2",
        "ALL-TURN-1",
        "ALL-SCORE-1",
    ]
    assert r["rules"][2]["text"] == "Lay-off onto a meld of the other side."
    assert [(x["position"], x["kind"], x["findings"], x["text"]) for x in r["rulings"]] == [
        (10, "penalty", [], "referee: penalty -50 to Bruno (BUR-TURN-1)"),
        (11, "restore", [], "referee restores the table to move 6: lay-off on the other side and second draw undone"),
    ]
    assert r["moves_range"] == (1, 11)
    assert [(m["pos"], m["rewound_by"]) for m in r["moves"] if m["rewound_by"] is not None] == [
        (7, 11),
        (8, 11),
        (9, 11),
    ]
    # the table just after the lay-off: Anna's 4 cards, Bruno's 11, meld a of 4 cards
    seats = r["table"]["seats"]
    assert [(s["name"], s["count"]) for s in seats] == [("Anna", 4), ("Bruno", 11)]
    assert seats[0]["cards"] == ["7S", "8H", "4C", "6D"]  # by suit and rank (♠ ♥ ♣ ♦), as the viewer
    melds = {m["id"]: m["cards"] for g in r["table"]["sides"] for m in g["melds"]}
    assert melds == {"a": ["3H", "4H", "5H", "6H"], "k": ["KC", "KD", "KS", "QS"]}
    assert (r["table"]["stock_count"], r["table"]["discard"], r["table"]["turn"]) == (
        62,
        ["9C"],
        "Bruno (seat 1) to meld, lay off or discard",
    )
    # the score sheet: claimed against computed, the difference explained
    s = r["score"]
    assert (s["totals"], s["played_totals"], s["winner"]) == ([-70, -235], [-70, -185], "Anna")
    assert [(c["side"], c["claimed"], c["computed"], c["played"], c["difference"]) for c in r["claims"]] == [
        ("Anna", 0, -70, -70, "+70"),
        ("Bruno", -235, -235, -185, "0"),
    ]
    assert r["claims"][0]["explanation"] == "The claim is 70 points higher than the computed score."
    assert r["claims"][0]["breakdown"] == "melds +55, cards in hand −25, no pozzetto −100"
    assert r["claims"][1]["explanation"] == (
        "The claim agrees with the computed score. It includes the referee's rulings: "
        "penalty −50 at position 10 (BUR-TURN-1)."
    )


def test_position_defaults_and_bad_positions() -> None:
    events = dispute_events()
    assert build_report(events)["at"] == 4  # the first finding
    assert build_report(events, at=12)["finding"] is None
    assert build_report(small_game(), finding=6)["at"] == 6
    with pytest.raises(ReportError, match=r"^no finding at position 3 \(findings are at: 4, 5, 7, 8, 15, 17\)$"):
        build_report(events, finding=3)
    with pytest.raises(ReportError, match="^position 19 is outside this game's positions 0–18$"):
        build_report(events, at=19)
    with pytest.raises(ValueError, match="the report is in en, it"):
        build_report(events, lang="fr")


def test_rewound_moves_and_a_claim_made_before_the_penalty() -> None:
    assert rewound_by(dispute_events()) == {7: 11, 8: 11, 9: 11}
    r = build_report(small_game(), at=13)
    assert r["rulings"][0]["findings"] == []  # the penalty cites RAM-DISC-1 but names no finding: it answers none
    assert [(c["side"], c["claimed"], c["computed"], c["played"], c["difference"]) for c in r["claims"]] == [
        ("Anna", 70, 66, 66, "+4"),
        ("Bruno", 0, -10, 0, "+10"),
    ]
    assert r["claims"][1]["explanation"] == (
        "The claim agrees with the score as played; the referee's rulings make the "
        "difference: penalty −10 at position 13 (RAM-DISC-1)."
    )


def test_seal_on_the_report() -> None:
    events = dispute_events()
    seal = seal_of(events)
    h = None
    for e in events:  # FORMAT.md "Seal", computed here by hand
        line = encode_event(e)
        h = hashlib.sha256((b"rummy-ledger/1\n" if h is None else h) + line).digest()
    full = h.hex()
    assert seal == {
        "short": "-".join(full[i : i + 4] for i in range(0, 16, 4)),
        "full": full,
        "position": 18,
        "source": "computed",
    }
    assert seal["short"] in text_of(render_html(build_report(events, lang="en")))


# --- the HTML, English and Italian ----------------------------------------------------


def test_report_html_in_english() -> None:
    page = text_of(render_html(build_report(dispute_events(), finding=7, lang="en")))
    for phrase in (
        "Dispute report bur-dispute",
        "Burraco (rules fibur) · tournament: fixtures · table: 1 · 19 events, 1 hand",
        "Position in dispute: 7 of 18 · hand 1",
        "Bruno lays off 6♥ on [a] BUR-TURN-1 rewound by the ruling at position 11",
        "stock 62 cards",
        "discard pile 9♣ (1 card, top last)",
        "7 1 Bruno BUR-TURN-1 Bruno laid off 6♥ on meld a of Anna: lay-offs go only on one's own side's melds "
        "open; rewound at 11 · in dispute",
        "BUR-TURN-1 Lay-off onto a meld of the other side.",
        "10 referee: penalty -50 to Bruno (BUR-TURN-1) note: laid off on the opponents' meld — —",
        "total (adjudicated) -70 -235 total (as played) -70 -185 Winner: Anna",
        "1 Anna 0 -70 +70 The claim is 70 points higher than the computed score. Computed as: melds +55, cards "
        "in hand −25, no pozzetto −100.",
        "The referee",
        "Bruno (seat 1)",
    ):
        assert phrase in page, phrase


def test_report_html_in_italian() -> None:
    page = text_of(render_html(build_report(dispute_events(), finding=7, lang="it")))
    for phrase in (
        "Verbale di contestazione bur-dispute",
        "Burraco (regolamento fibur) · torneo: fixtures · tavolo: 1 · 19 eventi, 1 smazzata",
        "Giocatori: posto 0 Anna , posto 1 Bruno · Arbitro: —",
        "Posizione contestata: 7 di 18 · smazzata 1",
        "Bruno attacca 6♥ a [a] BUR-TURN-1 annullata dalla decisione alla posizione 11",
        "Turno: Bruno (posto 1) deve calare, attaccare o scartare",
        "tallone 62 carte",
        "pozzo (monte degli scarti) 9♣ (1 carta)",
        "pozzetto 0 non preso",
        "Calate di Anna",
        "2 Anna prende 9♣ dal pozzo",
        "3 Anna cala 3♥ 4♥ 5♥ [a]",
        "Irregolarità rilevate (6)",
        "BUR-TURN-1 Bruno ha attaccato 6♥ alla combinazione a di Anna: si attacca solo alle proprie "
        "combinazioni o a quelle del compagno",
        "17 1 Anna ALL-SCORE-1 smazzata 1: dichiarati 0 per Anna, calcolati -70 (differenza +70); calcolo: "
        "calate +55, carte in mano -25, senza pozzetto -100",
        "BUR-TURN-1 Attacco su una combinazione della coppia avversaria.",
        "aperta; annullata alla 11 · contestata",
        "Decisioni arbitrali (2)",
        "10 arbitro: penalità -50 a carico di Bruno (BUR-TURN-1)",
        "11 l'arbitro riporta il tavolo alla mossa 6",
        "Foglio dei punti",
        "1 bloccata -70 calate +55, carte in mano −25, pozzetto non preso −100 dichiarato 0",
        "totale (dopo le decisioni arbitrali) -70 -235 totale (come giocato) -70 -185 Vincitore: Anna",
        "1 Anna 0 -70 +70 Il punteggio dichiarato supera di 70 punti quello calcolato.",
        "Il punteggio dichiarato coincide con quello calcolato. Comprende le decisioni dell'arbitro: penalità "
        "−50 alla posizione 10 (BUR-TURN-1).",
        "Firme L'arbitro",
        "Bruno (posto 1)",
    ):
        assert phrase in page, phrase
    for english in (
        "Dispute report",
        "stock 62",
        "Findings",
        "Score sheet",
        "Signatures",
        "Rulings",
        "lay-offs go",
        "claimed 0",
    ):  # the audit's messages too
        assert english not in page, english


def test_report_escapes_names_and_notes() -> None:
    events = small_game(
        "evil-1",
        names=(EVIL, "Bo"),
        meta={"tournament": "<img src=x onerror=alert(2)>"},
        note="<script>steal()</script>",
    )
    page = render_html(build_report(events, at=13, lang="it"))
    # the one image is the score chart (an SVG data URI), whose names matplotlib escapes as XML
    chart = re.search(
        r'<figure class="score-chart" id="score-chart"><img src="data:image/svg\+xml;base64,([^"]+)"', page
    )
    assert chart is not None and "&lt;script&gt;alert(1)" in base64.b64decode(chart.group(1)).decode()
    page = page.replace(chart.group(0), "")
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;script&gt;steal()&lt;/script&gt;" in page


# --- the viewer's route ------------------------------------------------------------------


@pytest.fixture
def client(web_client):
    return web_client(dispute_events(), small_game())


def test_route_in_both_languages(client) -> None:
    resp = client.get("/games/bur-dispute/report?at=7&finding=7&lang=it")
    assert resp.status_code == 200
    assert resp.headers["Content-Language"] == "it"
    assert "Accept-Language" in resp.headers["Vary"]
    page = resp.get_data(as_text=True)
    assert '<html lang="it">' in page
    assert (
        '<link rel="stylesheet" href="/static/report.css">' in page and "<style>" not in page
    )  # the CSP allows no inline style
    assert "style-src 'self'" in resp.headers["Content-Security-Policy"]
    assert "Posizione contestata: 7 di 18" in text_of(page)
    assert 'href="/games/bur-dispute?at=7&amp;lang=it"' in page  # ?lang= is kept on the page's links
    en = client.get("/games/bur-dispute/report?finding=7")
    assert en.headers["Content-Language"] == "en" and "Position in dispute: 7 of 18" in text_of(
        en.get_data(as_text=True)
    )
    by_browser = client.get("/games/bur-dispute/report", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert by_browser.headers["Content-Language"] == "it" and "Posizione contestata: 4 di 18" in text_of(
        by_browser.get_data(as_text=True)
    )
    css = client.get("/static/report.css")
    assert css.status_code == 200 and b"@page { size: A4;" in css.data and b"@media print" in css.data


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("", 200, None),
        ("?at=18", 200, None),
        ("?at=abc", 400, "at='abc' is not a whole number"),
        ("?at=19", 400, "position 19 is outside this game's positions 0–18"),
        ("?at=-1", 400, "position -1 is outside this game's positions 0–18"),
        ("?finding=3", 400, "no finding at position 3 (findings are at: 4, 5, 7, 8, 15, 17)"),
        ("?finding=x", 400, "finding='x' is not a whole number"),
        ("?finding=--7", 400, "finding='--7' is not a whole number"),  # was a 500: int() after lstrip("-")
        ("?finding=%EF%BC%97", 400, "finding='７' is not a whole number"),
        (
            "?lang=fr",
            400,
            "lang='fr': the viewer is in en or it",
        ),  # one language choice for every page (replay_web/i18n.py)
    ],
)
def test_route_status_codes(client, query: str, status: int, message: str | None) -> None:
    resp = client.get(f"/games/bur-dispute/report{query}")
    assert resp.status_code == status
    if message:
        assert message in html_lib.unescape(resp.get_data(as_text=True))


def test_route_unknown_game_is_404(client) -> None:
    resp = client.get("/games/no-such-game/report?lang=it")
    assert resp.status_code == 404
    assert "nessuna partita 'no-such-game' nell'archivio" in html_lib.unescape(resp.get_data(as_text=True))


# --- the command line -----------------------------------------------------------------------


@pytest.fixture
def run(cli_invoker, tmp_path: Path):
    return cli_invoker(tmp_path / "ledger.db", NO_LOCALE, catch_exceptions=True)


def test_cli_html_report_of_a_stored_game(run, tmp_path: Path) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    out = tmp_path / "r.html"
    res = run("report", "bur-dispute", "--finding", "7", "--lang", "it", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert res.stderr == f"wrote the report of bur-dispute at position 7 (it) to {out}\n"
    page = out.read_text(encoding="utf-8")
    assert "<style>" in page and "@page { size: A4;" in page and "<link" not in page  # a file that stands alone
    assert "Posizione contestata: 7 di 18" in text_of(page)
    assert f"{seal_of(dispute_events())['short']} (letto dall'archivio, scritto con l'evento)" in text_of(
        page
    )  # the stored seal
    # the language from LANG when --lang is not given
    res = run("report", "bur-dispute", "-o", str(out), env={"LANG": "it_IT.UTF-8"})
    assert res.exit_code == 0 and "Posizione contestata: 4 di 18" in text_of(out.read_text(encoding="utf-8"))
    res = run("report", "bur-dispute", "--at", "12", "-o", str(out))
    assert res.exit_code == 0 and "Position in dispute: 12 of 18" in text_of(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--finding", "3", "-o", "x.html"],
            "Invalid value for --finding: no finding at position 3 (findings are at: 4, 5, 7, 8, 15, 17)",
        ),
        (["--at", "40", "-o", "x.html"], "Invalid value for --at: position 40 is outside this game's positions 0–18"),
        (["-o", "x.txt"], "Invalid value for -o: x.txt: the report is written as .pdf or .html"),
        (["--lang", "fr", "-o", "x.html"], "Invalid value for '--lang': 'fr' is not one of 'it', 'en'."),
    ],
)
def test_cli_bad_arguments(run, tmp_path: Path, args: list[str], message: str) -> None:
    os.chdir(tmp_path)
    res = run("report", str(DISPUTE), *args)
    assert res.exit_code == 2
    assert message in folded(res.stderr)
    assert not (tmp_path / "x.html").exists()


def test_cli_unknown_game(run, tmp_path: Path) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    res = run("report", "no-such-game", "-o", str(tmp_path / "x.html"))
    assert res.exit_code == 2
    assert res.stderr.startswith("rummy-ledger: error: ") and "no-such-game" in res.stderr


# --- the PDF: headless chromium, read back with pdftotext --------------------------------------


def _pdf_text(path: Path) -> tuple[int, str]:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)$", info, re.M).group(1))
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.M)
    assert (round(float(size.group(1))), round(float(size.group(2)))) == (595, 842)  # A4
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return pages, folded(text)


@pytest.mark.browser
def test_pdf_report_holds_the_finding_the_ruling_and_the_score(pdf_tools, run, tmp_path: Path) -> None:
    out = tmp_path / "dispute.pdf"
    res = run("report", str(DISPUTE), "--finding", "7", "--lang", "en", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(b"%PDF-")
    pages, text = _pdf_text(out)
    assert pages in (1, 2)
    for phrase in (
        "Dispute report bur-dispute",
        "Position in dispute: 7 of 18",
        "BUR-TURN-1",
        "Bruno laid off 6♥ on meld a of Anna: lay-offs go only on one's own side's melds",
        "Lay-off onto a meld of the other side.",
        "referee: penalty -50 to Bruno (BUR-TURN-1)",
        "The claim is 70 points higher than the computed score.",
        "Winner: Anna",
    ):
        assert phrase in text, phrase
    assert re.search(r"total \(adjudicated\) -70 -235", text)


@pytest.mark.browser
def test_pdf_report_in_italian(pdf_tools, run, tmp_path: Path) -> None:
    out = tmp_path / "verbale.pdf"
    res = run("report", str(DISPUTE), "--finding", "7", "--lang", "it", "-o", str(out))
    assert res.exit_code == 0, res.output
    pages, text = _pdf_text(out)
    assert pages in (1, 2)
    for phrase in (
        "Verbale di contestazione bur-dispute",
        "Posizione contestata: 7 di 18",
        "Attacco su una combinazione della coppia avversaria.",
        "arbitro: penalità -50 a carico di Bruno (BUR-TURN-1)",
        "Il punteggio dichiarato supera di 70 punti quello calcolato.",
        "Vincitore: Anna",
        "L'arbitro",
    ):
        assert phrase in text, phrase


def test_route_unfinished_game_needs_a_referee(records_app) -> None:
    live = small_game("live-1")[:10]  # no game_ended yet: the report would show hidden hands
    app = records_app(live)
    resp = app.test_client().get("/games/live-1/report?lang=it")
    assert resp.status_code == 403
    assert "the dispute report of an unfinished game shows every card" in html_lib.unescape(resp.get_data(as_text=True))


def ruled_dispute_events():
    """bur-dispute with the rulings' ``finding`` and ``referee`` fields and a
    referee in the meta (FORMAT.md, ``penalty_assessed`` / ``position_restored``)."""
    text = DISPUTE.read_text(encoding="utf-8")
    text = text.replace(
        '"meta":{"tournament":"fixtures","table":"1"}',
        '"meta":{"tournament":"fixtures","table":"1","referee":"Carla Rossi"}',
    )
    text = text.replace('"rule":"BUR-TURN-1","note"', '"rule":"BUR-TURN-1","finding":7,"referee":"Carla Rossi","note"')
    text = text.replace('"target":6,"reason"', '"target":6,"finding":8,"referee":"Dario Neri","reason"')
    return list(read_record(text.encode("utf-8")).events)


def test_rulings_with_their_finding_and_referee() -> None:
    r = build_report(ruled_dispute_events(), finding=7, lang="it")
    assert r["referees"] == ["Carla Rossi", "Dario Neri"]
    assert [(x["position"], x["findings"], x["referee"]) for x in r["rulings"]] == [
        (10, [7], "Carla Rossi"),
        (11, [8], "Dario Neri"),
    ]
    assert [(f["position"], f["ruled_by"]) for f in r["findings"] if f["ruled_by"]] == [(7, [10]), (8, [11])]
    page = text_of(render_html(r))
    assert "Arbitro: Carla Rossi, Dario Neri" in page
    assert (
        "10 arbitro: penalità -50 a carico di Bruno (BUR-TURN-1) nota: laid off on the opponents' meld 7 Carla Rossi"
        in page
    )
    assert "L'arbitro: Carla Rossi, Dario Neri" in page


def test_longest_turns_when_events_carry_times() -> None:
    events = dispute_events()
    timed = [
        msgspec.structs.replace(e, at=f"2026-11-29T21:{p:02d}:{(p * 7) % 60:02d}+01:00") for p, e in enumerate(events)
    ]
    r = build_report(timed, finding=7, lang="en")
    # position p at 21:p:(7p mod 60): a turn runs from the event before it to its last event
    assert [(row["name"], [(t["start"], t["end"], t["time"]) for t in row["turns"]]) for row in r["tempo"]] == [
        ("Anna", [(2, 5, "4:28"), (13, 16, "4:28")]),  # 21:01:07 -> 21:05:35, 21:12:24 -> 21:16:52
        ("Bruno", [(6, 9, "3:28"), (12, 12, "1:07")]),  # 21:05:35 -> 21:09:03, 21:11:17 -> 21:12:24
    ]
    assert (
        "Longest turns player turns (positions, minutes:seconds) Anna 2–5: 4:28 · 13–16: 4:28 Bruno 6–9: 3:28 "
        "· 12–12: 1:07" in text_of(render_html(r))
    )
    assert "Turni più lunghi" in text_of(render_html(build_report(timed, lang="it")))
    assert build_report(events)["tempo"] == []
