"""Live standings over SSE (issue 25), on a real server (127.0.0.1, werkzeug's threaded server)
over a real SQLite file: the 12-pair cup of docs/tournaments.md stored with table 2 of round 4
(c11 v c6, 1955–1670 as played) still playing; a referee's ruling in that game and then its
last event are appended over HTTP, and the standings stream sends the new standings within 1 s."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from ledger.store.application import open_app
from ledger.testing.live import Stream, call, serve
from ledger.tokens import TokenStore
from replay_web import create_app
from tests.cups import simulate_cup


def _store(tmp_path: Path, run_for: Callable[..., Callable[..., Result]]) -> tuple[Path, str]:
    out, db = tmp_path / "sim", tmp_path / "cup.db"
    run = run_for(db)
    simulate_cup(run, out)
    game = out / "cup-r4-t2.jsonl"
    lines = game.read_text().splitlines()
    game.write_text("\n".join(lines[:-1]) + "\n")
    assert run("import", "--no-analytics", str(out)).exit_code == 0
    return db, lines[-1]


def _places(doc: dict) -> list[tuple[int, str, int]]:
    return [(ln["place"], ln["entrant"], ln["vp"]) for ln in doc["standings"]]


def test_a_ruling_and_a_game_end_over_http_update_the_standings_stream(tmp_path: Path, cli_invoker) -> None:
    db, end = _store(tmp_path, cli_invoker)
    ledger = open_app(str(db))
    referee = TokenStore(ledger).create("Rita Arbitro", "referee")[0]
    app = create_app({"LEDGER_DB": str(db), "SPECTATOR_DELAY": 0, "STREAM_HEARTBEAT": 0.5})
    with serve(app) as url:
        stream = Stream(url + "/api/tournaments/cup/standings/stream")
        assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
        [(name, ident, first, _t)] = stream.take(1)
        assert (name, ident, first["after_round"]) == ("standings", "1", 4)
        c6 = next(ln for ln in first["standings"] if ln["entrant"] == "c6")
        assert c6["rounds"][3] == {"round": 4, "opponent": "c11", "game_id": "cup-r4-t2", "mp": 0, "mp_against": 0,
                                   "vp": 0, "playing": True}  # fmt: skip
        length = call("GET", f"{url}/api/games/cup-r4-t2", token=referee)[2]["game"]["events"]
        ruling = b'{"type":"penalty_assessed","team":1,"points":-300,"rule":"BUR-PILE-1","referee":"Rita Arbitro"}'
        status, _h, body = call("POST", f"{url}/api/games/cup-r4-t2/events", ruling, token=referee,
                                headers={"If-Match": f'"{length}"'})  # fmt: skip
        assert status == 201, body
        sent = time.monotonic()
        status, _h, body = call("POST", f"{url}/api/games/cup-r4-t2/events", end.encode(), token=referee,
                                headers={"If-Match": f'"{length + 1}"'})  # fmt: skip
        assert status == 201, body
        [(name, ident, doc, received)] = stream.take(1, timeout=5)
        assert (name, ident) == ("standings", "2")
        assert received - sent < 1.0
        assert _places(doc)[:7] == [(1, "c12", 56), (2, "c7", 48), (3, "c11", 48), (4, "c2", 44), (5, "c3", 42),
                                    (6, "c6", 41), (7, "c5", 40)]  # fmt: skip
        stream.conn.close()
        status, _h, _b = call("GET", f"{url}/api/tournaments/nope/standings/stream")
        assert status == 404
    ledger.close()


def test_streams_are_bounded_and_beat_on_a_fixed_clock(tmp_path: Path, cli_invoker) -> None:
    db, _end = _store(tmp_path, cli_invoker)
    app = create_app({"LEDGER_DB": str(db), "SPECTATOR_DELAY": 0, "STREAM_MAX": 1, "STREAM_HEARTBEAT": 0.2,
                      "STREAM_MAX_SECONDS": 1.0})  # fmt: skip
    with serve(app) as url:
        one = Stream(url + "/api/tournaments/cup/standings/stream?after_round=1")
        [(name, _i, doc, _t)] = one.take(1)
        assert (name, doc["after_round"]) == ("standings", 1)
        two = Stream(url + "/api/tournaments/cup/standings/stream")
        assert two.status == 503 and two.headers["retry-after"] == "5"
        [(name, _i, _d, _t)] = one.take(1, timeout=5)
        assert name == "timeout"
        bad = Stream(url + "/api/tournaments/cup/standings/stream?after_round=x")
        assert bad.status == 400
        one.conn.close()
        time.sleep(0.3)  # the slot is given back once the closed stream notices
        raw = urllib.request.urlopen(url + "/api/tournaments/cup/standings/stream", timeout=10).read().decode()
        assert raw.startswith("retry: 2000\n: standings of tournament cup\n\nid: 1\nevent: standings\n")
        assert raw.endswith("event: timeout\ndata: {}\n\n")
        assert raw.count(": keep-alive\n\n") in (4, 5)  # every 0.2 s of a 1 s stream (the last may meet the end)


def _wait_updated(page, count: str, seconds: float) -> None:  # type: ignore[no-untyped-def]
    """Until the page has applied ``count`` standings messages (the CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + seconds
    while page.evaluate("document.getElementById('standings').dataset.updated") != count:
        assert time.monotonic() < deadline, f"the page did not apply standings message {count} in {seconds} s"
        time.sleep(0.02)


def test_the_tournament_page_follows_the_standings(tmp_path: Path, cli_invoker, open_page) -> None:
    """Real chromium: the page's table is reordered when the game ends (c6 back to 5th, 43 VP), and
    again within 1 s when a referee rules after game_ended at another table (c2 from 4th to 5th),
    whose report then says the places before and after (issue 25, "Done when")."""
    db, end = _store(tmp_path, cli_invoker)
    ledger = open_app(str(db))
    recorder = TokenStore(ledger).create("Mario Rossi", "recorder")[0]
    app = create_app({"LEDGER_DB": str(db), "SPECTATOR_DELAY": 0})
    with serve(app) as url:
        page, errors = open_page(url)
        page.goto("/tournaments/cup?lang=en")
        _wait_updated(page, "1", 10)
        assert page.locator("#standings-chart img").get_attribute("src").startswith("data:image/svg+xml;base64,")
        before = call("GET", f"{url}/tournaments/cup/standings.svg?lang=en")[2]
        order = "Array.from(document.querySelectorAll('#standings tbody tr')).map(r => r.dataset.entrant)"
        api = call("GET", f"{url}/api/tournaments/cup/standings")[2]
        assert page.evaluate(order) == [ln["entrant"] for ln in api["standings"]]  # round 4 table 2 playing
        assert page.locator("#standings tbody tr[data-entrant=c6]").get_attribute("class") == "playing"
        assert page.locator("#standings-legend").is_visible()  # "*": a game of this entrant is still playing
        served = call("GET", f"{url}/tournaments/cup?lang=en")[2]  # marked by the server, before any script
        assert (
            '<tr data-entrant="c6" class="playing">' in served and '<tr data-entrant="c11" class="playing">' in served
        )
        assert served.count('class="playing"') == 2
        length = call("GET", f"{url}/api/games/cup-r4-t2", token=recorder)[2]["game"]["events"]
        status, _h, body = call("POST", f"{url}/api/games/cup-r4-t2/events", end.encode(), token=recorder,
                                headers={"If-Match": f'"{length}"'})  # fmt: skip
        assert status == 201, body
        _wait_updated(page, "2", 1.0)  # within 1 s of the append
        assert page.evaluate(order) == ["c12", "c7", "c11", "c2", "c6", "c3", "c5", "c1", "c9", "c8", "c10", "c4"]
        assert page.locator("#standings tbody tr[data-entrant=c6]").get_attribute("class") == ""
        assert page.locator("#standings-legend").is_hidden()  # no game is playing any more
        cells = "Array.from(document.querySelectorAll('tr.table-row[data-game=G] td')).map(c => c.textContent)"
        tables = {t["game_id"]: t for r in call("GET", f"{url}/api/tournaments/cup")[2]["rounds"] for t in r["tables"]}
        t2 = tables["cup-r4-t2"]
        assert page.evaluate(cells.replace("G", "cup-r4-t2")) == [
            "2", "c11 v c6", f"{t2['mp'][0]}\u2013{t2['mp'][1]}", f"{t2['vp'][0]}\u2013{t2['vp'][1]}", "cup-r4-t2"
        ]  # fmt: skip
        assert t2["mp"] == [1955, 1670]
        assert page.locator("#standings tbody tr[data-entrant=c6] td").nth(3).inner_text() == "43"
        # a ruling after game_ended at another table (docs/tournaments.md's dispute): c2 from 4th to 5th
        referee = TokenStore(ledger).create("Carla Bianchi", "referee")[0]
        length = call("GET", f"{url}/api/games/cup-r4-t3", token=referee)[2]["game"]["events"]
        ruling = b'{"type":"penalty_assessed","team":1,"points":-200,"rule":"BUR-TURN-1","referee":"Carla Bianchi"}'
        status, _h, body = call("POST", f"{url}/api/games/cup-r4-t3/events", ruling, token=referee,
                                headers={"If-Match": f'"{length}"'})  # fmt: skip
        assert status == 201, body
        _wait_updated(page, "3", 1.0)  # within 1 s of the ruling
        # the chart follows: loaded again from its own URL after each message, as the server draws it now
        chart = page.locator("#standings-chart img")
        assert chart.get_attribute("src") == "/tournaments/cup/standings.svg?lang=en&v=3"
        deadline = time.monotonic() + 5
        while not page.evaluate("document.querySelector('#standings-chart img').naturalWidth > 0"):
            assert time.monotonic() < deadline, "the live chart did not load"
            time.sleep(0.02)
        assert call("GET", f"{url}/tournaments/cup/standings.svg?lang=en")[2] != before
        assert page.evaluate(order) == ["c12", "c7", "c11", "c6", "c2", "c3", "c5", "c1", "c9", "c8", "c10", "c4"]
        assert page.locator("#standings tbody tr[data-entrant=c2] td").nth(3).inner_text() == "43"
        # the round's table row shows the ruling too (as the report below words it), without a reload
        assert page.evaluate(cells.replace("G", "cup-r4-t3"))[2:4] == ["1610\u20131955", "8\u201312"]
        status, _h, report = call("GET", f"{url}/games/cup-r4-t3/report?lang=en")
        assert status == 200
        section = report[report.index("What the rulings did to the tournament") :].split("</ul>")[0]
        assert [li.split("</li>")[0] for li in section.split("<li>")[1:]] == [
            "cup round 4, table 3 (c1 v c2): MP 1610–2155, now 1610–1955",
            "VP c1 v c2: 7–13, now 8–12",
            "Pair c2 from 4th to 5th",
            "Pair c6 from 5th to 4th",
        ]
        assert errors == []
        page.close()
    ledger.close()
