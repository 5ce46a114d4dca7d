"""The page a referee reads, server side (issue 26): the viewer's 404 names
the nearest game ids, the games list's Date column (``meta.date``, else the
day of the first ``at``) and an abandoned game's reason, and a just-imported
unfinished game seen by a visitor (the live note, no control that leads
nowhere). The layout itself is checked in Chromium in tests/test_layout_desk.py.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from ledger.record_files import read_record
from ledger.store.application import open_app
from ledger.store.journal import select_journal
from ledger.stored.persistence import game_uuid
from ledger.testing.records import game_ended, game_started, hand_ended, lines, ramino_deal
from replay_web import create_app

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"


def record(game_id: str, *, meta: dict | None = None, at: str | None = None, reason: str = "abandoned") -> list:
    deal = ramino_deal()
    if at is not None:
        deal["at"] = at
    started = game_started(game_id=game_id)
    if meta is not None:
        started["meta"] = meta
    return list(read_record(lines(started, deal, hand_ended("abandoned"), game_ended(reason))).events)


def cell(page: str, game_id: str, cls: str) -> str:
    row = page[page.index(f'data-game="{game_id}"') :]
    m = re.search(rf'<td class="{cls}">(.*?)</td>', row[: row.index("</tr>")], re.S)
    assert m, (game_id, cls)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", m.group(1)))).strip()


def test_the_404_of_a_game_id_names_the_nearest(records_app) -> None:
    client = records_app(record("bur-dispute"), record("gin-knock")).test_client()
    resp = client.get("/games/bur-disput")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 404
    assert re.search(r'<p class="error-message">(.*?)</p>', page).group(1) == (
        "no game &#39;bur-disput&#39; in the store; did you mean bur-dispute?"
    )
    assert '<p class="error-link"><a href="/games/bur-dispute">bur-dispute</a></p>' in page
    italian = client.get("/games/bur-disput?lang=it").get_data(as_text=True)
    assert "; forse bur-dispute?" in italian
    api = client.get("/api/games/bur-disput").get_json()["error"]
    assert (api["message"], api["did_you_mean"]) == (
        "no game 'bur-disput' in the store; did you mean bur-dispute?",
        ["bur-dispute"],
    )
    nothing = client.get("/games/zzz")  # nothing near: the plain 404
    assert nothing.status_code == 404 and "did you mean" not in nothing.get_data(as_text=True)
    assert "did_you_mean" not in client.get("/api/games/zzz").get_json()["error"]


def test_the_date_column_and_an_abandoned_games_reason(records_app) -> None:
    client = records_app(
        record("dated", meta={"date": "2026-11-29"}, at="2026-12-01T20:15:00Z"),
        record("timed", at="2026-12-01T20:15:00Z", reason="hands_played"),
        record("undated"),
    ).test_client()
    page = client.get("/games").get_data(as_text=True)
    assert [cell(page, g, "date") for g in ("dated", "timed", "undated")] == ["2026-11-29", "2026-12-01", ""]
    assert cell(page, "dated", "result") == "no winner (abandoned) Anna 0 · Bruno 0"
    assert cell(page, "timed", "result") == "no winner (hands played) Anna 0 · Bruno 0"
    assert "(abbandonata)" in client.get("/games?lang=it").get_data(as_text=True)
    rows = {r["game_id"]: r for r in client.get("/api/games?sort=date").get_json()["games"]}
    assert (rows["timed"]["date"], rows["dated"]["result"]["reason"]) == ("2026-12-01", "abandoned")
    order = [r["game_id"] for r in client.get("/api/games?sort=date").get_json()["games"]]
    assert order == ["dated", "timed", "undated"]


def test_a_just_imported_live_game_seen_by_a_visitor(tmp_path: Path) -> None:
    db = str(tmp_path / "live.db")
    ledger = open_app(db)
    ledger.append_events("bur-dispute", list(read_record(FIXTURE).events)[:10], expected=0, appended_by="t")
    ledger.close()
    client = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 60}).test_client()
    page = client.get("/games/bur-dispute").get_data(as_text=True)
    note = re.search(r'<p class="live-note" id="live-note" role="status">(.*?)</p>', page, re.S)
    assert note is not None
    assert re.sub(r"<[^>]+>", "", note.group(1)) == (
        "live: moves show 60 s after they are played; sign in as referee to see all · referee sign-in"
    )
    assert 'href="/signin?next=/games/bur-dispute"' in note.group(1)
    assert '<span class="pos">position <b id="pos-now">0</b> / 0</span>' in page
    # at 0 / 0 no control leads anywhere: every one is disabled
    for control in ("first", "prev", "next", "last", "prev-hand", "next-hand", "prev-violation", "next-violation"):
        assert f'<span class="ctl disabled" id="nav-{control}" aria-disabled="true"' in page, control
    italian = client.get("/games/bur-dispute?lang=it").get_data(as_text=True)
    assert "in diretta: le mosse si vedono 60 s dopo essere state giocate; accedi come arbitro" in italian
    finished = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0}).test_client().get("/games/bur-dispute?at=5")
    text = finished.get_data(as_text=True)
    assert 'id="live-note"' in text  # still live (no game_ended), the delay is 0 s
    assert '<a class="ctl" id="nav-next" href="/games/bur-dispute?at=6"' in text


# --- hands in one order everywhere ---------------------------------------------------------

SORTED = "seat 0 Anna: 5 cards: 7♠ 8♥ 4♣ Q♣ 6♦"  # by suit (♠ ♥ ♣ ♦), then rank: the viewer's default
DEALT = "seat 0 Anna: 5 cards: 8♥ 4♣ 6♦ 7♠ Q♣"  # as the record holds it


def test_show_at_and_the_report_sort_hands_as_the_viewer(run, tmp_path: Path, records_app) -> None:
    shown = run("show", str(FIXTURE), "--at", "15")
    assert shown.exit_code == 0 and f"  {SORTED}\n" in shown.stdout
    assert f"  {DEALT}\n" in run("show", str(FIXTURE), "--at", "15", "--order", "dealt").stdout
    bad = run("show", str(FIXTURE), "--at", "15", "--order", "rank")
    assert bad.exit_code == 2 and "'rank' is not one of 'suit', 'dealt'" in bad.stderr
    out = tmp_path / "r.html"
    assert run("report", str(FIXTURE), "--at", "15", "-o", str(out)).exit_code == 0
    cards = re.findall(r'data-card="([^"]+)"', out.read_text())  # Anna's hand comes first
    assert cards[:5] == ["7S", "8H", "4C", "QC", "6D"]
    assert run("report", str(FIXTURE), "--at", "15", "--order", "dealt", "-o", str(out)).exit_code == 0
    cards = re.findall(r'data-card="([^"]+)"', out.read_text())
    assert cards[:5] == ["8H", "4C", "6D", "7S", "QC"]
    client = records_app(list(read_record(FIXTURE).events)).test_client()
    viewer = client.get("/games/bur-dispute?at=15").get_data(as_text=True)
    hand = viewer[viewer.index('id="seat-0"') :]
    assert re.findall(r'data-card="([^"]+)"', hand)[:5] == ["7S", "8H", "4C", "QC", "6D"]
    report = client.get("/games/bur-dispute/report?at=15&order=dealt").get_data(as_text=True)
    cards = re.findall(r'data-card="([^"]+)"', report)
    assert cards[:5] == ["8H", "4C", "6D", "7S", "QC"]
    assert 'href="/games/bur-dispute/report?at=15&amp;order=dealt"' in client.get(
        "/games/bur-dispute?at=15&order=dealt"
    ).get_data(as_text=True)


def test_the_date_column_of_a_stored_game(tmp_path: Path) -> None:
    """The Date column of games in a store (not only record files): ``meta.date``,
    else the day of the first ``at``, else (the shipped fixtures have neither:
    FORMAT.md makes both optional, and none was recorded) the day the game was
    stored, marked as such (tests/test_games_list_dates.py has the rule's cases)."""
    db = str(tmp_path / "dates.db")
    ledger = open_app(db)
    for game_id, kw in (("dated", {"meta": {"date": "2026-11-29"}}), ("timed", {"at": "2026-12-01T20:15:00Z"})):
        ledger.append_events(game_id, record(game_id, **kw), expected=0, appended_by="t")
    ledger.append_events("bur-dispute", list(read_record(FIXTURE).events), expected=0, appended_by="t")
    stored = select_journal(ledger.recorder, game_uuid("bur-dispute"))[0].received_at[:10]
    ledger.close()
    client = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0}).test_client()
    page = client.get("/games").get_data(as_text=True)
    assert [cell(page, g, "date") for g in ("dated", "timed")] == ["2026-11-29", "2026-12-01"]
    row = page[page.index('data-game="bur-dispute"') :]
    assert f'<td class="date stored" title="stored on this day; the record names no date">{stored}</td>' in row
    rows = {r["game_id"]: (r["date"], r["stored_on"]) for r in client.get("/api/games").get_json()["games"]}
    assert rows == {"dated": ("2026-11-29", stored), "timed": ("2026-12-01", stored), "bur-dispute": (None, stored)}
