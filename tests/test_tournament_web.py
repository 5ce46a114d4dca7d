"""The tournament's page and read API (replay_web/tournaments.py), on a real SQLite store:
rounds, tables and results linked to each game's final position, the standings, JSON errors,
and an unfinished game shown only as "playing"."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from replay_web import create_app


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, cli_invoker: Callable[..., Callable[..., Result]]) -> Path:
    where = tmp_path_factory.mktemp("web")
    out, db = where / "sim", where / "t.db"
    run = cli_invoker(db)
    assert run("simulate", "--tournament", "cup", "--entrants", "5", "--rounds", "2", "--hands", "2", "--seed", "3",
               "--out", str(out)).exit_code == 0  # fmt: skip
    unfinished = out / "cup-r2-t2.jsonl"  # the last round's second table: cut before its game_ended
    lines = unfinished.read_text().splitlines()
    unfinished.write_text("\n".join(lines[:-1]) + "\n")
    assert run("import", "--no-analytics", str(out)).exit_code == 0
    return db


@pytest.fixture
def client(stored: Path) -> Iterator:
    app = create_app({"LEDGER_DB": str(stored), "TESTING": True, "SPECTATOR_DELAY": 0})
    yield app.test_client()


def test_list_and_tournament_json(client) -> None:
    listed = client.get("/api/tournaments")
    assert listed.status_code == 200
    assert listed.json == {
        "tournaments": [{"tournament_id": "cup", "name": "Simulated danese_modificato cup", "variant": "burraco",
                         "movement": "danese_modificato", "rounds": 2}]
    }  # fmt: skip
    doc = client.get("/api/tournaments/cup").json
    assert [e["entrant"] for e in doc["entrants"]] == ["c1", "c2", "c3", "c4", "c5"]
    r2 = doc["rounds"][1]
    assert r2["closed"] is True and r2["bye"] is not None and r2["bye_vp"] == 12
    statuses = [t["status"] for t in r2["tables"]]
    assert statuses == ["finished", "playing"]
    assert "mp" not in r2["tables"][1] and "vp" not in r2["tables"][1]  # an unfinished game: no running totals
    first = doc["rounds"][0]["tables"][0]
    assert first["status"] == "finished" and len(first["mp"]) == 2 and sum(first["vp"]) == 20
    assert [f["rule"] for f in doc["findings"]] == ["TOUR-GAME-2"]  # round 2 closed with the game unfinished


def test_standings_json_and_errors(client) -> None:
    s = client.get("/api/tournaments/cup/standings?after_round=2").json
    assert s["tournament_id"] == "cup" and s["after_round"] == 2
    playing = [r for ln in s["standings"] for r in ln["rounds"] if r.get("playing")]
    assert len(playing) == 2 and all((r["mp"], r["vp"]) == (0, 0) for r in playing)
    assert client.get("/api/tournaments/cup/standings?after_round=1").json["after_round"] == 1
    bad = client.get("/api/tournaments/cup/standings?after_round=x")
    assert (bad.status_code, bad.json["error"]["message"]) == (400, "after_round is a round number (0, 1, 2, ...)")
    missing = client.get("/api/tournaments/nope")
    assert (missing.status_code, missing.json["error"]["message"]) == (404, "no tournament 'nope' in the store")


def test_the_page_links_each_result_to_its_final_position(client, stored: Path) -> None:
    page = client.get("/tournaments/cup?lang=it")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<h2>Classifica dopo il turno 2</h2>" in html and '<h2 id="round-1">Turno 1' in html
    events = len((stored.parent / "sim" / "cup-r1-t1.jsonl").read_text().splitlines())
    assert f'href="/games/cup-r1-t1?at={events - 1}&amp;lang=it"' in html
    assert '<span class="in-play">in gioco</span>' in html
    assert "TOUR-GAME-2: turno 2 chiuso con la partita cup-r2-t2" in html
    followed = client.get(f"/games/cup-r1-t1?at={events - 1}")
    assert followed.status_code == 200


def test_record_files_have_no_tournaments(tmp_path: Path) -> None:
    (tmp_path / "g.jsonl").write_text(
        json.dumps({"type": "game_started", "format": "rummy-ledger/1", "game_id": "g", "variant": "gin",
                    "players": [{"seat": 0, "name": "A"}, {"seat": 1, "name": "B"}]}) + "\n"
    )  # fmt: skip
    app = create_app({"LEDGER_RECORDS": str(tmp_path), "TESTING": True})
    c = app.test_client()
    assert c.get("/api/tournaments").json == {"tournaments": []}
    assert c.get("/api/tournaments/cup").status_code == 404


def test_the_list_of_tournaments(client, tmp_path: Path) -> None:
    page = client.get("/tournaments?lang=it").get_data(as_text=True)
    assert "<h1>Tornei</h1>" in page
    assert '<a href="/tournaments/cup?lang=it">Simulated danese_modificato cup</a>' in page
    (tmp_path / "none").mkdir()
    empty = create_app({"LEDGER_RECORDS": str(tmp_path / "none"), "TESTING": True}).test_client()
    assert "No tournaments are stored." in empty.get("/tournaments").get_data(as_text=True)
