"""Italian and English in the whole viewer (issue 16): the one gettext catalog
(``ledger/translations/it``, its viewer layer: :mod:`replay_web.lang`) for the pages and
the dispute report; the language from ``?lang=`` (kept on the page's links),
else ``Accept-Language``, else English; the report link and its PDF; the
time per move; the print stylesheet.

Scenario: ``fixtures/burraco/dispute.jsonl`` (bur-dispute, Anna v Bruno,
findings at 4, 5, 7, 8, 15, 17; a penalty of −50 to Bruno at 10, a
restoration to 6 at 11), served from record files, and the same game with
``at`` times on every event (position p at 21:p:(7p mod 60)).
"""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import msgspec
import pytest

from ledger.i18n import DEAL, HEADING, po_path, translations
from ledger.record_files import read_record
from replay_web import create_app
from replay_web.lang import viewer_translations
from replay_web.store import RecordStore
from tests import catalog_sources

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


def dispute_events():
    return list(read_record(DISPUTE).events)


def timed_events():
    """bur-dispute as ``timed``, every event with ``at`` (game id ``bur-timed``)."""
    events = dispute_events()
    events[0] = msgspec.structs.replace(events[0], game_id="bur-timed")
    return [
        msgspec.structs.replace(e, at=f"2026-11-29T21:{p:02d}:{(p * 7) % 60:02d}+01:00") for p, e in enumerate(events)
    ]


def text_of(page: str, join_spans: bool = True) -> str:
    """The visible text, whitespace folded; ``join_spans``: inline spans
    (card faces, suit colours, badges) joined to their neighbours."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    if join_spans:
        page = re.sub(r"</?span[^>]*>", "", page)
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def part(page: str, start: str, end: str | None = None) -> str:
    i = page.index(start)
    return page[i : page.index(end, i)] if end else page[i:]


@pytest.fixture
def client(web_client):
    return web_client(dispute_events(), timed_events())


# --- the catalog ---------------------------------------------------------------------


def test_italian_catalog_covers_every_string_of_babel_cfg() -> None:
    """Every string ``pybabel extract -F babel.cfg`` finds (the command line, the viewer
    and the report) has an Italian translation, nothing stale is kept, placeholders agree;
    a msgctxt only for a word's second meaning."""
    from babel.messages.pofile import read_po

    extracted = catalog_sources.extracted()
    with po_path("it").open("rb") as fp:
        catalog = read_po(fp, locale="it")
    translated = {(m.id[0] if isinstance(m.id, tuple) else m.id, m.context): m for m in catalog if m.id}
    assert extracted - set(translated) == set()
    assert set(translated) - extracted == set()
    for m in translated.values():
        assert "fuzzy" not in m.flags, m.id
        assert all(m.string) if isinstance(m.string, tuple) else m.string, m.id
    assert [str(err) for m, errs in catalog.check() for err in errs] == []
    keys = [(m.id[0] if isinstance(m.id, tuple) else m.id, m.context or "") for m in catalog if m.id]
    assert keys == sorted(keys)  # as `pybabel extract --sort-output` writes them (fewer merge conflicts)
    contexts = {(k, ctx): m.string for (k, ctx), m in translated.items() if ctx}
    assert contexts == {  # one wording per msgid; a context only for a second meaning (issue 23)
        ("MP diff", HEADING): "Diff. MP",
        ("hand", DEAL): "smazzata",
        ("from %(place)s", "place read with a vowel"): "dall'%(place)s",
        ("to %(place)s", "place read with a vowel"): "all'%(place)s",
    }
    t = viewer_translations("it")
    assert t is translations("it")  # the viewer and the command line read the same catalog
    assert (
        t.pgettext(DEAL, "hand"),
        t.gettext("hand"),
        t.gettext("stalled"),
        t.gettext("target reached"),
        t.gettext("before the first deal"),
        t.gettext("melds"),
        t.gettext("stock"),
        t.gettext("discard pile"),
        t.gettext("referee"),
        t.gettext("penalty"),
    ) == (
        "smazzata",
        "carte in mano",
        "bloccata",
        "punteggio raggiunto",
        "prima della prima smazzata",
        "calate",
        "tallone",
        "pozzo (monte degli scarti)",
        "arbitro",
        "penalità",
    )
    assert t.ngettext("%(num)s meld", "%(num)s melds", 2) % {"num": 2} == "2 calate"


def test_babel_cfg_names_the_commands_the_docs_give() -> None:
    """babel.cfg's first lines are the two commands that keep the one catalog in step;
    ledger/i18n.py and docs/texts.md give the same ones."""
    commands = [
        line.removeprefix("#").strip()
        for line in (REPO / "babel.cfg").read_text(encoding="utf-8").splitlines()
        if line.startswith("#   pybabel ")
    ]
    assert commands == [
        "pybabel extract -F babel.cfg -k N_ -k C_:1c,2 --no-location --sort-output --no-wrap -o /tmp/ledger.pot .",
        "pybabel update -D ledger -i /tmp/ledger.pot -d ledger/translations --no-fuzzy-matching --ignore-obsolete "
        "--no-wrap",
    ]
    for doc in (REPO / "ledger" / "i18n.py", REPO / "docs" / "texts.md"):
        text = doc.read_text(encoding="utf-8")
        assert [c for c in commands if c not in text] == [], doc
    assert not (REPO / "ledger" / "babel.cfg").exists() and not (REPO / "replay_web" / "translations").exists()


# --- choosing the language ----------------------------------------------------------------


def test_games_list_in_italian(client) -> None:
    resp = client.get("/games?lang=it")
    assert resp.status_code == 200 and resp.headers["Content-Language"] == "it"
    page = resp.get_data(as_text=True)
    assert '<html lang="it">' in page
    text = text_of(page)
    assert text.startswith(
        "Partite · visore rummy-ledger rummy-ledger visore dell'arbitro English · Italiano accesso dell'arbitro Partite"
    )
    assert "Id partita Variante tutte burraco Giocatore Torneo Filtra azzera 2 partite" in text
    assert "Partita Variante Regolamento Giocatori Data Torneo Tavolo Smazzate Mosse Irregolarità rilevate" in text
    assert 'href="/games/bur-dispute?lang=it"' in page  # the language is kept on the page's links
    assert '<input type="hidden" name="lang" value="it">' in page  # and by the filter form
    assert 'href="/games"' not in part(page, "<main>")  # no link of the page drops it ("azzera" included)


def test_game_page_in_italian(client) -> None:
    page = client.get("/games/bur-dispute?at=7&lang=it").get_data(as_text=True)
    text = text_of(page)
    assert "<title>bur-dispute alla mossa 7 · visore rummy-ledger</title>" in page
    assert '<span class="card red " data-card="JH" title="fante di cuori">' in page  # a face's name too
    assert '<span class="card joker small" data-card="JK" title="jolly">' in page
    for phrase in (
        "vista di: arbitro · Anna · Bruno · spettatore",
        "« prima ⇤ smazzata ◁ irregolarità ◀ precedente seguente ▶ irregolarità ▷ smazzata ⇥ ultima »",
        "Rapporto PDF posizione 7 / 18",
        "smazzata 1 Bruno attacca 6♥ a [a] BUR-TURN-1 mani: per seme · come distribuite Bruno (posto 1) deve "
        "calare, attaccare o scartare",
        "tallone 62 carte",
        "pozzo (monte degli scarti) 9♣ 1 carta",
        "Calate di Anna [a] scala 3♥4♥5♥6♥ punti: 20 [k] non valida K♣K♦K♠Q♠ punti: 40non valida",
        # the variant's notes
        "irregolarità finora: 3 Anna: pozzetto non ancora preso Bruno: pozzetto non ancora preso",
        "Mosse 0 inizia la partita bur-dispute: Burraco (fibur), Anna, Bruno 1 smazzata 1, mazziere Bruno; "
        "carta scoperta 9♣",
        "2 Anna prende 9♣ dal pozzo",
        "7 Bruno attacca 6♥ a [a] annullata alla 11BUR-TURN-1",
        "10 arbitro: penalità -50 a carico di Bruno (BUR-TURN-1) nota: laid off on the opponents' meld",
        "Verifica 6 irregolarità pos. smazzata posto regola descrizione stato",
        # the audit's message in Italian (ledger/texts), the rule's Italian text beside it
        "BUR-TURN-1 Bruno ha attaccato 6♥ alla combinazione a di Anna: si attacca solo alle proprie combinazioni "
        "o a quelle del compagno Attacco su una combinazione della coppia avversaria. aperta mossa annullata alla 11",
    ):
        assert phrase in text, phrase
    # (the audit's finding messages stay the audit's own words, in English)
    before_audit = text_of(part(page, "<body", 'class="panel audit-panel"')) + text_of(
        part(page, '<section class="panel score-panel"')
    )
    for english in (
        "view as",
        "first",
        "Moves",
        "stock",
        "discard pile",
        "Audit",
        "Scores",
        "referee sign-in",
        "position",
    ):
        assert english not in before_audit, english


def test_score_panel_in_italian(client) -> None:
    mid = text_of(
        part(
            client.get("/games/bur-dispute?at=7&lang=it").get_data(as_text=True), '<section class="panel score-panel"'
        ),
        False,
    )
    assert mid.startswith(
        "Punteggi alla posizione 7 smazzata Anna Bruno 1 in corso, come è ora il tavolo "
        "-65 calate +60 carte in mano -25 pozzetto non preso -100 4 carte in mano · 2 calate "
        "-185 carte in mano -85 pozzetto non preso -100 11 carte in mano · 0 calate totali 0 0 "
        "smazzata 1: il punteggio della smazzata se finisse qui (senza chiusura)"
    )
    end = text_of(
        part(client.get("/games/bur-dispute?lang=it").get_data(as_text=True), '<section class="panel score-panel"'),
        False,
    )
    assert end.startswith(
        "Punteggi foglio finale smazzata Anna Bruno 1 bloccata -70 calate +55 carte in mano -25 "
        "pozzetto non preso -100 dichiarato 0 ≠ -70 Σ -70 -235 (giocato -185) carte in mano -85 pozzetto non "
        "preso -100 "
        "penalità -50 dichiarato -235 Σ -235 dopo le decisioni arbitrali -70 -235 come giocato -70 -185 vincitore: Anna"
    )
    # the board fragment the script swaps in keeps the language of its URL
    fragment = text_of(client.get("/games/bur-dispute/board?at=12&lang=it").get_data(as_text=True))
    assert fragment.startswith("posizione 12 / 18")
    assert "Punteggi alla posizione 12" in fragment


def test_accept_language_chooses_italian_and_english_is_the_default(client) -> None:
    it = client.get("/games/bur-dispute?at=7", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert it.headers["Content-Language"] == "it" and "Accept-Language" in it.headers["Vary"]
    page = it.get_data(as_text=True)
    assert "Bruno attacca 6♥ a [a]" in text_of(page)
    assert "lang=it" not in page  # chosen by the browser: the links need not carry it
    fr = client.get("/games/bur-dispute?at=7", headers={"Accept-Language": "fr-FR,de;q=0.8"})
    assert fr.headers["Content-Language"] == "en" and "Bruno lays off 6♥ on [a]" in text_of(fr.get_data(as_text=True))
    # ?lang= wins over the browser
    en = client.get("/games/bur-dispute?at=7&lang=en", headers={"Accept-Language": "it"})
    assert en.headers["Content-Language"] == "en" and "Moves 0 game bur-dispute starts" in text_of(
        en.get_data(as_text=True)
    )


def test_an_unknown_language_is_400_and_the_api_stays_english(client) -> None:
    resp = client.get("/games/bur-dispute?lang=fr")
    assert resp.status_code == 400
    assert "lang='fr': the viewer is in en or it" in html_lib.unescape(resp.get_data(as_text=True))
    missing = client.get("/games/nope?lang=it")
    assert missing.status_code == 404
    assert "404 · Non trovato nessuna partita 'nope' nell'archivio Tutte le partite" in text_of(
        missing.get_data(as_text=True)
    )
    api = client.get("/api/games/nope?lang=it", headers={"Accept-Language": "it"})
    assert api.status_code == 404
    assert api.get_json()["error"]["message"] == "no game 'nope' in the store"
    assert "Content-Language" not in api.headers


def test_the_language_switch_keeps_the_page(client) -> None:
    page = client.get("/games/bur-dispute?at=7&pov=1").get_data(as_text=True)
    switch = part(page, 'class="lang-switch"', "</nav>")
    assert '<b lang="en">English</b>' in switch
    assert 'href="/games/bur-dispute?at=7&amp;pov=1&amp;lang=it">Italiano</a>' in switch
    seat = text_of(client.get("/games/bur-dispute?at=7&pov=1&lang=it").get_data(as_text=True))
    assert "6 Bruno pesca 6♥ dal tallone" in seat
    assert "Mosse (come le vede Bruno, fino a questa posizione)" in seat
    other = text_of(client.get("/games/bur-dispute?at=7&pov=0&lang=it").get_data(as_text=True))
    assert "6 Bruno pesca una carta dal tallone" in other and "6♥ dal tallone" not in other


# --- the report from the game page ---------------------------------------------------------


def test_the_game_page_links_the_report_at_its_position(client) -> None:
    page = client.get("/games/bur-dispute?at=7").get_data(as_text=True)
    assert (
        '<a id="report-link" class="report-link" href="/games/bur-dispute/report?at=7" '
        'data-report="/games/bur-dispute/report">Report</a>' in page
    )
    assert 'id="report-pdf-link" class="report-link" href="/games/bur-dispute/report.pdf?at=7"' in page
    it = client.get("/games/bur-dispute?at=7&lang=it").get_data(as_text=True)
    assert (
        'href="/games/bur-dispute/report?at=7&amp;lang=it" data-report="/games/bur-dispute/report">Rapporto</a>' in it
    )
    report = client.get("/games/bur-dispute/report?at=7&lang=it").get_data(as_text=True)
    assert "Posizione contestata: 7 di 18" in text_of(report)
    assert '<a href="/games/bur-dispute/report.pdf?at=7&amp;lang=it" id="report-pdf">Scarica il PDF</a>' in report


def test_the_report_reads_the_stored_seal_and_says_so(records_app, tmp_path: Path) -> None:
    from ledger.store.application import open_app
    from replay_web.report_data import seal_of

    db = str(tmp_path / "ledger.db")
    ledger = open_app(db)
    ledger.append_events("bur-dispute", dispute_events(), expected=0, appended_by="test")
    ledger.close()
    short = seal_of(dispute_events())["short"]  # the chain the store wrote is the record's (FORMAT.md "Seal")
    stored = create_app({"TESTING": True, "LEDGER_DB": db}).test_client()
    text = text_of(stored.get("/games/bur-dispute/report?lang=en").get_data(as_text=True))
    assert f"Seal of the record after position 18: {short} (read from the store, written with the event)" in text
    files = records_app(dispute_events()).test_client()
    text = text_of(files.get("/games/bur-dispute/report?lang=it").get_data(as_text=True))
    assert (
        f"Sigillo del registro dopo la posizione 18: {short} (calcolato dagli eventi della registrazione: non "
        "letto da un archivio)" in text
    )


def test_pdf_without_chromium_is_a_clear_503(client, monkeypatch) -> None:
    monkeypatch.setenv("RUMMY_LEDGER_CHROMIUM", "/nonexistent/chromium")
    resp = client.get("/games/bur-dispute/report.pdf?at=7&lang=it")
    assert resp.status_code == 503
    text = text_of(resp.get_data(as_text=True))
    assert "503 · Servizio non disponibile no PDF on this server: cannot start Chromium (/nonexistent/chromium)" in text
    assert "set RUMMY_LEDGER_CHROMIUM to a Chromium binary" in text
    js = client.get("/games/bur-dispute/report?format=pdf&at=7", headers={"Accept": "application/json"})
    assert js.status_code == 503
    assert js.get_json()["error"]["message"].startswith(
        "no PDF on this server: cannot start Chromium (/nonexistent/chromium)"
    )
    assert client.get("/games/bur-dispute/report?format=doc").status_code == 400


# --- tempo ------------------------------------------------------------------------------------


def test_the_move_list_shows_the_time_per_move(client) -> None:
    page = client.get("/games/bur-timed?at=7").get_data(as_text=True)
    tempo = re.findall(r'<li id="move-(\d+)".*?(?:<span class="tempo"[^>]*>([^<]*)</span>|</li>)', page, re.S)
    # position p at 21:p:(7p mod 60): 67 s a move, but 21:08:56 -> 21:09:03 (7 s) and 21:17:59 -> 21:18:06
    assert tempo == (
        [("0", "")]
        + [(str(p), "+1:07") for p in range(1, 9)]
        + [("9", "+7 s")]
        + [(str(p), "+1:07") for p in range(10, 18)]
        + [("18", "+7 s")]
    )
    assert "tempo" not in part(
        client.get("/games/bur-dispute").get_data(as_text=True), 'id="moves"', "</ol>"
    )  # no `at`, no time


def test_the_report_lists_the_longest_turns_in_both_languages(client) -> None:
    en = text_of(client.get("/games/bur-timed/report?finding=7&lang=en").get_data(as_text=True))
    assert (
        "Longest turns player turns (positions, minutes:seconds) Anna 2–5: 4:28 · 13–16: 4:28 Bruno 6–9: 3:28 "
        "· 12–12: 1:07 "
        "Each player's three longest turns: from the previous move to the player's last move of the turn "
        "(FIBur art. 15, time-outs)."
    ) in en
    assert "7 Bruno lays off 6♥ on [a] +1:07 2026-11-29T21:07:49+01:00" in en
    it = text_of(client.get("/games/bur-timed/report?finding=7&lang=it").get_data(as_text=True))
    assert "Turni più lunghi" in it and "Anna 2–5: 4:28 · 13–16: 4:28 Bruno 6–9: 3:28 · 12–12: 1:07" in it
    assert "(FIBur art. 15, tempi di gioco)" in it


# --- the print stylesheet ---------------------------------------------------------------------


def test_every_viewer_page_links_the_print_stylesheet(client) -> None:
    for url in ("/games", "/games/bur-dispute?at=7", "/signin", "/games/nope"):
        assert '<link rel="stylesheet" href="/static/print.css">' in client.get(url).get_data(as_text=True), url
    css = client.get("/static/print.css").get_data(as_text=True)
    assert "@media print" in css and ".moves { max-height: none !important; overflow: visible !important;" in css
    assert ".felt { background: #fff !important;" in css


def test_page_errors_and_the_spectators_placeholder_in_italian(client) -> None:
    from replay_web.access import HIDDEN_MESSAGE
    from replay_web.words import HIDDEN_FINDING

    assert HIDDEN_FINDING == HIDDEN_MESSAGE  # the catalog's copy of the placeholder is the one access.py shows
    bad = client.get("/games/bur-dispute?at=abc&lang=it")
    assert bad.status_code == 400
    assert "400 · Richiesta non valida at='abc' non è un numero intero" in text_of(bad.get_data(as_text=True))
    far = client.get("/games/bur-dispute?at=19&lang=it")
    assert "la posizione 19 è fuori dalle posizioni 0–18 di questa partita" in text_of(far.get_data(as_text=True))
    api = client.get("/api/games/bur-dispute/state?at=abc&lang=it")
    assert api.get_json()["error"]["message"] == "at='abc' is not a whole number"  # the API stays English
    live = create_app(
        {"TESTING": True, "SPECTATOR_DELAY": 0, "LEDGER_STORE": RecordStore(records=[dispute_events()[:10]])}
    ).test_client()  # unfinished: a spectator's view
    page = text_of(live.get("/games/bur-dispute?lang=it").get_data(as_text=True))
    assert "vista di: spettatore (partita in corso: nessuna carta coperta, eventi in differita)" in page
    assert (
        "BUR-TURN-1 (visibile all'arbitro, e a tutti a partita finita) Attacco su una combinazione della "
        "coppia avversaria." in page
    )
    seat = live.get("/games/bur-dispute?pov=1&lang=it")
    assert seat.status_code == 403
    assert (
        "la vista di un posto in una partita in corso richiede un token da arbitro; gli spettatori non vedono "
        "alcuna mano" in text_of(seat.get_data(as_text=True))
    )


def test_pdf_waits_for_a_free_chromium_slot_then_says_busy() -> None:
    from replay_web import pdf

    assert pdf.SLOTS.acquire(timeout=1)  # another PDF is being printed
    try:
        with pytest.raises(
            pdf.PdfUnavailableError,
            match=r"^every PDF slot of this server is busy \(waited 0.05 s\); try again in a moment$",
        ):
            pdf.html_to_pdf("<p>x</p>", wait=0.05)
    finally:
        pdf.SLOTS.release()
