"""A seal is printed only after the stored chain is checked (issue 26).

The README's own tampering (section "Seals"): ``bur-dispute`` and the Gin
fixtures imported into a real SQLite file, then the ``sqlite3`` UPDATE that
turns the penalty of −50 at position 10 into −5. ``score``, ``score --json``,
``audit --json``, ``show --at`` and ``report`` (HTML and PDF) then print no
seal but a warning naming position 10 and exit 1; the viewer's game page,
board fragment and report show a red banner. An untouched game of the same
store keeps its seal (the legal twin). The check runs once per game version.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.events import PenaltyAssessed
from ledger.sealing.chain_check import chain_check
from ledger.store.application import open_app
from replay_web import create_app
from tests.conftest import REPO

FIXTURES = [REPO / "fixtures" / "burraco" / "dispute.jsonl", REPO / "fixtures" / "gin"]
#: README "Seals": the edit that verify catches
TAMPER = (
    "UPDATE stored_events SET state = CAST(replace(CAST(state AS TEXT), '\"points\":-50', '\"points\":-5') AS BLOB) "
    "WHERE topic = 'ledger.events:PenaltyAssessed'"
)
WHY = "event bytes differ from those sealed (stored seal 825f-3e41-daaf-5479, the bytes give 4573-690a-c81e-c9fb)"
#: the record seal of ``gin-standard-1`` (89 events), untouched in the tampered store
GIN_SEAL = "1f5ede7a5c6df7d306532d4dee858ff38dda04377f49699a103bbe03c4db9088"
WARNING = (
    f"rummy-ledger: warning: the stored chain of bur-dispute does not verify from position 10 ({WHY}): "
    "its seal is not valid; rummy-ledger verify bur-dispute says more\n"
)


def tamper(db: str) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute(TAMPER).rowcount == 1


@pytest.fixture
def tampered(run: Callable[..., Result], db: str) -> str:
    assert run("import", "--no-analytics", *map(str, FIXTURES)).exit_code == 0
    tamper(db)
    return db


def test_score_of_a_tampered_game_says_so_and_exits_1(run: Callable[..., Result], tampered: str) -> None:
    res = run("score", "bur-dispute")
    assert res.exit_code == 1
    assert res.stdout.splitlines()[-2:] == [
        "winner: Anna",
        "seal: NOT VALID: the stored chain is broken at position 10 (after 19 events)",
    ]
    assert "050b-3d21" not in res.stdout
    assert res.stderr == WARNING
    as_json = run("score", "--json", "bur-dispute")
    out = json.loads(as_json.stdout)
    assert as_json.exit_code == 1
    assert (out["seal"], out["chain_verified"], out["chain_broken"]) == (
        None,
        False,
        {"position": 10, "differs": "event", "message": WHY},
    )


def test_an_untouched_game_of_the_same_store_keeps_its_seal(run: Callable[..., Result], tampered: str) -> None:
    res = run("score", "gin-standard-1")
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[-1] == "seal: 1f5e-de7a-5c6d-f7d3 (after 89 events)"
    out = json.loads(run("score", "--json", "gin-standard-1").stdout)
    assert (out["seal"][:8], out["chain_verified"], "chain_broken" in out) == ("1f5ede7a", True, False)


def test_show_at_and_audit_json_of_a_tampered_game(run: Callable[..., Result], tampered: str) -> None:
    show = run("show", "bur-dispute", "--at", "5")
    assert show.exit_code == 1
    assert "seal at position 5: NOT VALID: the stored chain is broken at position 10" in show.stdout
    assert show.stderr == WARNING
    audit = run("audit", "--json", "bur-dispute")
    out = json.loads(audit.stdout)
    assert (audit.exit_code, out["seal"], out["chain_verified"], out["chain_broken"]["position"]) == (
        1,
        None,
        False,
        10,
    )
    fine = json.loads(run("audit", "--json", "gin-standard-1").stdout)
    assert fine["chain_verified"] is True and len(fine["seal"]) == 64


def test_seal_of_a_tampered_game_is_refused(run: Callable[..., Result], tampered: str) -> None:
    res = run("seal", "bur-dispute")
    assert (res.exit_code, res.stdout, res.stderr) == (1, "", WARNING)
    assert run("seal", "--json", "bur-dispute").exit_code == 1
    fine = run("seal", "gin-standard-1")
    assert fine.exit_code == 0 and fine.stdout.startswith(
        "gin-standard-1 at position 88 (89 events): 1f5e-de7a-5c6d-f7d3"
    )


def test_show_at_in_italian(run: Callable[..., Result], tampered: str) -> None:
    show = run("--lang", "it", "show", "bur-dispute", "--at", "5")
    assert show.exit_code == 1
    assert "NON VALIDO: la catena registrata è rotta alla posizione 10" in show.stdout
    assert show.stderr.startswith(
        "rummy-ledger: attenzione: la catena registrata di bur-dispute non si verifica dalla posizione 10 ("
    )


def test_report_of_a_tampered_game_has_the_banner(run: Callable[..., Result], tampered: str, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    res = run("report", "bur-dispute", "--lang", "en", "-o", str(out))
    assert res.exit_code == 1
    assert res.stderr.endswith(WARNING)
    page = out.read_text()
    banner = re.search(r'<p class="chain-broken" role="alert" id="chain-broken">(.*?)</p>', page, re.S)
    assert banner is not None
    assert banner.group(1) == (
        f"The stored record does not verify: its chain is broken at position 10 ({WHY}). The seal is not "
        "valid and this report must not be signed; run rummy-ledger verify bur-dispute."
    )
    assert 'class="seal-short"' not in page and "NOT VALID: the stored chain is broken at position 10" in page


def test_report_of_an_untouched_game_has_its_seal(run: Callable[..., Result], tampered: str, tmp_path: Path) -> None:
    out = tmp_path / "g.html"
    assert run("report", "gin-standard-1", "-o", str(out)).exit_code == 0
    page = out.read_text()
    assert 'id="chain-broken"' not in page and '<b class="seal-short">1f5e-de7a-5c6d-f7d3</b>' in page


@pytest.mark.browser
def test_pdf_of_a_tampered_game_has_the_banner(
    pdf_tools: None, run: Callable[..., Result], tampered: str, tmp_path: Path
) -> None:
    out = tmp_path / "r.pdf"
    assert run("report", "bur-dispute", "--lang", "en", "-o", str(out)).exit_code == 1
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    text = re.sub(r"\s+", " ", text)
    assert "The stored record does not verify: its chain is broken at position 10" in text
    assert "050b-3d21-0db6-36a0" not in text


def test_the_viewer_shows_the_banner_and_no_seal(run: Callable[..., Result], tampered: str) -> None:
    client = create_app({"LEDGER_DB": tampered, "SPECTATOR_DELAY": 0}).test_client()
    page = client.get("/games/bur-dispute?at=5").get_data(as_text=True)
    assert (
        '<p class="chain-broken" role="alert" id="chain-broken">The stored record does not verify: its chain ' in page
    )
    assert "broken at position 10" in page and "record seal: NOT VALID" in page
    assert 'class="seal"' not in page and "050b-3d21" not in page
    board = client.get("/games/bur-dispute/board?at=5").get_data(as_text=True)
    assert "seal: NOT VALID" in board and "<code>" not in board.split("board-head", 1)[1].split("</div>", 1)[0]
    report = client.get("/games/bur-dispute/report").get_data(as_text=True)
    assert 'id="chain-broken"' in report and "seal-short" not in report
    italian = client.get("/games/bur-dispute?lang=it").get_data(as_text=True)
    assert "Il registro in archivio non si verifica: la sua catena è rotta alla posizione 10 (i byte dell" in italian
    fine = client.get("/games/gin-standard-1").get_data(as_text=True)
    assert "chain-broken" not in fine and "1f5e-de7a-5c6d-f7d3" in fine


@pytest.mark.parametrize("recheck", [0.0, 300.0])
def test_the_check_runs_once_per_game_version(
    run: Callable[..., Result], db: str, recheck: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new version is checked again: whole once ``RECHECK_SECONDS`` have
    passed since the last whole check, else its new rows only (issue 27: an
    old row edited meanwhile is found by the next whole check)."""
    import ledger.sealing.chain_check

    monkeypatch.setattr(ledger.sealing.chain_check, "RECHECK_SECONDS", recheck)
    assert run("import", "--no-analytics", str(FIXTURES[0])).exit_code == 0
    app = open_app(db)
    try:
        first = chain_check(app, "bur-dispute", 19)
        assert first.ok and chain_check(app, "bur-dispute", 19) is first  # kept for this version
        tamper(db)
        assert chain_check(app, "bur-dispute", 19) is first  # same version: not read again
        app.append_events("bur-dispute", [PenaltyAssessed(seat=0, points=0, rule="ALL-SCORE-1")], appended_by="t")
        again = chain_check(app, "bur-dispute", 20)  # a new version is checked again
        if recheck:  # within the recheck time: its new row only, which verifies
            assert (again.ok, again.length) == (True, 20)
            monkeypatch.setattr(ledger.sealing.chain_check, "RECHECK_SECONDS", 0.0)
            app.append_events("bur-dispute", [PenaltyAssessed(seat=0, points=0, rule="ALL-SCORE-1")], appended_by="t")
            again = chain_check(app, "bur-dispute", 21)
        assert (again.ok, again.position, again.kind) == (False, 10, "event")
    finally:
        app.close()


def test_the_api_score_is_score_json_with_its_chain_checked(run: Callable[..., Result], tampered: str) -> None:
    """``/api/games/<id>/score`` is the ``score --json`` object (docs/api.md),
    seal and chain fields included (docs/seals.md); only the whole view shows
    a seal, and ``?at=`` gives the seal after that position."""
    client = create_app({"LEDGER_DB": tampered, "SPECTATOR_DELAY": 0}).test_client()
    for game in ("bur-dispute", "gin-standard-1"):
        assert client.get(f"/api/games/{game}/score").get_json() == json.loads(run("score", "--json", game).stdout)
    broken = client.get("/api/games/bur-dispute/score").get_json()
    assert (broken["seal"], broken["chain_verified"], broken["chain_broken"]) == (
        None,
        False,
        {"position": 10, "differs": "event", "message": WHY},
    )
    fine = client.get("/api/games/gin-standard-1/score").get_json()
    assert (fine["seal"], fine["chain_verified"], "chain_broken" in fine) == (GIN_SEAL, True, False)
    at5 = client.get("/api/games/gin-standard-1/score?at=5").get_json()
    assert (at5["seal"], at5["chain_verified"]) == (
        json.loads(run("seal", "gin-standard-1", "--at", "5", "--json").stdout)["seal"],
        True,
    )
    seat = client.get("/api/games/gin-standard-1/score?pov=0").get_json()
    assert (seat["seal"], seat["chain_verified"]) == (None, True)


def test_the_api_audit_is_audit_json_with_its_chain_checked(run: Callable[..., Result], tampered: str) -> None:
    """``/api/games/<id>/audit`` is the ``audit --json`` object (docs/api.md),
    rulings, seal, length and chain fields included, built by the same
    function (:func:`ledger.sealing.verify_rows.sealed_json`): the tampered game
    names its first broken position, the untouched one keeps its seal."""
    client = create_app({"LEDGER_DB": tampered, "SPECTATOR_DELAY": 0}).test_client()
    for game in ("bur-dispute", "gin-standard-1"):
        assert client.get(f"/api/games/{game}/audit").get_json() == json.loads(run("audit", "--json", game).stdout)
    broken = client.get("/api/games/bur-dispute/audit").get_json()
    assert (broken["seal"], broken["length"], broken["chain_verified"], broken["chain_broken"]) == (
        None,
        19,
        False,
        {"position": 10, "differs": "event", "message": WHY},
    )
    assert [(f["position"], f["rule"], f["ruling"]) for f in broken["findings"]][:2] == [
        (4, "ALL-MELD-1", None),
        (5, "BUR-PILE-1", None),
    ]
    at5 = client.get("/api/games/bur-dispute/audit?at=5").get_json()
    assert (at5["seal"], at5["length"], at5["chain_verified"], at5["chain_broken"]["position"]) == (None, 6, False, 10)
    fine = client.get("/api/games/gin-standard-1/audit").get_json()
    assert (fine["seal"], fine["length"], fine["chain_verified"], "chain_broken" in fine) == (GIN_SEAL, 89, True, False)
