"""Tournament records in the store and on the command line (TOURNAMENT.md): import beside the
games (before or after them), export, verify with the rounds' checkpoints, audit, standings,
and the director's commands create / register / pair / close / adjust / standings / report."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.record_files import read_record
from ledger.scoring import score
from ledger.store.application import LedgerApp
from ledger.store.tournaments import round_checkpoint
from ledger.tournament.vp import vp_of, vp_table


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, cli_invoker: Callable[..., Callable[..., Result]]) -> Path:
    out = tmp_path_factory.mktemp("tour") / "sim"
    run = cli_invoker(out.parent / "unused.db")
    made = run("simulate", "--tournament", "cup", "--entrants", "7", "--rounds", "3", "--hands", "2", "--seed", "5",
               "--out", str(out))  # fmt: skip
    assert (made.exit_code, made.output) == (0, f"tournament cup and its 9 games written to {out}\n")
    return out


def _games(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.jsonl") if p.name != "cup.jsonl")


def test_import_export_verify_audit(run: Callable[..., Result], folder: Path, db: str) -> None:
    first = run("import", "--no-analytics", str(folder))
    assert first.exit_code == 0, first.output
    assert "│ stored         │    10 │    10 │" in first.output
    again = run("import", "--no-analytics", str(folder / "cup.jsonl"))
    assert "│ already stored │     1 │     1 │" in again.output
    assert run("export", "cup").stdout_bytes == (folder / "cup.jsonl").read_bytes()
    verified = run("verify", "cup")
    assert (verified.exit_code, verified.output) == (0, verified.output)
    assert verified.output.startswith("10 of 10 games verified")
    audited = run("audit", "--json", "cup")
    assert (audited.exit_code, json.loads(audited.output)) == (0, {"game_id": "cup", "findings": []})
    assert "cup" not in [ln.split()[1] for ln in run("list").output.splitlines() if ln.startswith("│")]
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
    try:
        state = app.tournament_state("cup")
        for rnd, info in state.rounds.items():
            assert info.checkpoint == round_checkpoint(app, state, rnd)
    finally:
        app.close()


def test_games_before_or_after_their_tournament_give_the_same_standings(
    cli_invoker: Callable[..., Callable[..., Result]], folder: Path, tmp_path: Path
) -> None:
    before, after = cli_invoker(tmp_path / "a.db"), cli_invoker(tmp_path / "b.db")
    for p in _games(folder):
        assert before("import", "--no-analytics", str(p)).exit_code == 0
    assert before("import", "--no-analytics", str(folder / "cup.jsonl")).exit_code == 0
    assert after("import", "--no-analytics", str(folder / "cup.jsonl")).exit_code == 0
    alone = json.loads(after("tournament", "standings", "cup", "--json").output)
    assert all(r.get("playing") for ln in alone["standings"] for r in ln["rounds"] if r["opponent"])
    for p in _games(folder):
        assert after("import", "--no-analytics", str(p)).exit_code == 0
    a = before("tournament", "standings", "cup", "--json", "--after-round", "2").output
    assert a == after("tournament", "standings", "cup", "--json", "--after-round", "2").output


def test_standings_are_the_games_vp_by_hand(run: Callable[..., Result], folder: Path) -> None:
    """Every table's VP from its game's adjudicated totals through fibur-4, and the bye's 12."""
    run("import", "--no-analytics", str(folder))
    doc = json.loads(run("tournament", "standings", "cup", "--json").output)
    assert doc["after_round"] == 3 and doc["tournament_id"] == "cup"
    table = vp_table("fibur-4")
    totals: dict[str, float] = {}
    for line in doc["standings"]:
        for r in line["rounds"]:
            if r["game_id"] is None:
                assert (r["opponent"], r["vp"]) == (None, 12)
                continue
            sheet = score(read_record(folder / f"{r['game_id']}.jsonl").events)
            a_side = r["game_id"] and _side_of(folder, r["game_id"], line["entrant"])
            mine, theirs = sheet.totals[a_side], sheet.totals[1 - a_side]
            assert (r["mp"], r["mp_against"], r["vp"]) == (mine, theirs, vp_of(table, mine, theirs)[0])
        totals[line["entrant"]] = sum(r["vp"] for r in line["rounds"])
        assert line["vp"] == totals[line["entrant"]]
    vps = [ln["vp"] for ln in doc["standings"]]
    assert vps == sorted(vps, reverse=True) and len(doc["standings"]) == 7


def _side_of(folder: Path, game_id: str, entrant: str) -> int:
    tour = [json.loads(x) for x in (folder / "cup.jsonl").read_text().splitlines()]
    for e in tour:
        for t in e.get("tables", []):
            if t["game_id"] == game_id:
                return t["entrants"].index(entrant)
    raise AssertionError(game_id)


def test_a_bad_tournament_line_is_refused_naming_line_and_field(run: Callable[..., Result], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type":"tournament_started","format":"rummy-ledger/1","tournament_id":"x","name":"X",'
        '"hands_per_match":4,"scoring":{"kind":"vp","table":"fibur-4"},"movement":"swiss"}\n'
        '{"type":"entrant_registered","entrant":"a","players":["A"]}\n'
        '{"type":"entrant_withdrawn","entrant":"b","reason":"ill"}\n'
    )
    out = run("import", "--no-analytics", str(bad))
    assert out.exit_code == 1
    assert f"{bad}:3: entrant: REC-REF: no entrant 'b' is registered" in out.output
    assert run("tournament", "standings", "x").exit_code == 2


def test_a_changed_checkpoint_fails_verify(run: Callable[..., Result], folder: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    text = (copy / "cup.jsonl").read_text()
    start = text.index('"checkpoint":"') + len('"checkpoint":"')
    edited = text[:start] + ("0" if text[start] != "0" else "1") + text[start + 1 :]
    (copy / "cup.jsonl").write_text(edited)
    assert run("import", "--no-analytics", str(copy)).exit_code == 0
    out = run("verify", "cup")
    assert out.exit_code == 1
    assert (
        "cup: round 1: the checkpoint" in out.output and "is not the root over the round's stored games" in out.output
    )
    head = edited[start : start + 16]  # the line and its Italian (issue 23: a message is data); --json stays English
    english = f"cup: round 1: the checkpoint {head} is not the root over the round's stored games"
    italian = run("--lang", "it", "verify", "cup")
    assert italian.exit_code == 1
    assert italian.stderr.splitlines()[0] == (
        f"cup: turno 1: il checkpoint {head} non è la radice delle partite registrate del turno"
    )
    assert english in out.stderr.splitlines()
    as_json = run("--lang", "it", "verify", "--json", "cup")
    assert json.loads(as_json.stdout.splitlines()[0]) == {"ok": False, "reason": english}


def test_the_director_commands(run: Callable[..., Result]) -> None:
    ok = run("tournament", "create", "club", "--name", "Club night", "--movement", "swiss", "--hands", "3",
             "--rounds", "2")  # fmt: skip
    assert (ok.exit_code, ok.output) == (0, "tournament club created\n")
    for i, (a, b) in enumerate((("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco")), start=1):
        assert run("tournament", "register", "club", f"c{i}", a, b).output == f"c{i} registered\n"
    declined = run("tournament", "pair", "club", "--round", "1", input="n\n")
    assert declined.output == (
        "proposed pairing of round 1 (swiss):\n  table 1: c1 v c2  (club-r1-t1)\n  bye: c3\n"
        "Record this round? [y/N]: n\n"
    )
    assert json.loads(run("tournament", "standings", "club", "--json").output)["after_round"] == 0
    assert run("tournament", "pair", "club", "--round", "1", "--yes").output.endswith("round 1 recorded\n")
    again = run("tournament", "pair", "club", "--round", "1", "--yes")
    assert again.exit_code == 2 and "the next is 2" in again.output
    closed = run("tournament", "close", "club", "--round", "1")
    assert closed.exit_code == 0
    assert "TOUR-GAME-2: round 1 closed with game club-r1-t1 at table 1 unfinished and no vp_adjusted" in closed.output
    assert run("tournament", "adjust", "club", "c1", "0", "--rule", "TOUR-WARN-1", "--note", "late").exit_code == 0
    report = run("--lang", "it", "tournament", "report", "club")
    assert report.exit_code == 1
    assert "turno 1 (chiuso)\n  tavolo 1  c1 v c2  in gioco" in report.output
    assert "  riposo    c3                 12" in report.output
    assert "classifica di club dopo il turno 1\n" in report.output
    assert "posizione 6: TOUR-WARN-1: ammonizione a c1: late" in report.output
    standings = run("tournament", "standings", "club")
    assert standings.output == (
        "standings of club after round 1\n"
        "place  pair  players         VP  MP diff  MP  rounds\n"
        "    1  c3    Elena & Franco  12       +0   0       1\n"
        "    2  c1*   Anna & Bruno     0       +0   0       0\n"
        "    2  c2*   Carla & Dario    0       +0   0       0\n"
        "* a game of this entrant is still playing: it counts once finished\n"
    )
    bad = run("tournament", "create", "bad id", "--name", "X", "--movement", "swiss", "--hands", "3")
    assert bad.exit_code == 2 and "tournament_id: REC-FORMAT" in bad.output
    late = run("tournament", "standings", "club", "--after-round", "9")  # refused, not clamped to round 1 (issue 25)
    assert (late.exit_code, late.output) == (
        2,
        "rummy-ledger: error: --after-round 9: the tournament has 2 rounds\n",
    )
    late_it = run("--lang", "it", "tournament", "standings", "club", "--after-round", "3")
    assert late_it.output == "rummy-ledger: errore: --after-round 3: il torneo ha 2 turni\n"
    missing = run("tournament", "standings", "nope")
    assert (missing.exit_code, missing.output) == (2, "rummy-ledger: error: no tournament 'nope' in the store\n")


@pytest.mark.postgres
def test_import_and_standings_on_postgresql(
    cli_invoker: Callable[..., Callable[..., Result]], folder: Path, pg_url: str
) -> None:
    run = cli_invoker(pg_url)
    assert run("import", "--no-analytics", str(folder)).exit_code == 0
    assert run("verify", "cup").output.startswith("10 of 10 games verified")
    assert json.loads(run("tournament", "standings", "cup", "--json").output)["after_round"] == 3


def test_the_analytics_view_holds_the_games_only(run: Callable[..., Result], folder: Path) -> None:
    out = run("import", str(folder))
    assert out.exit_code == 0
    assert "skipped" not in out.output, out.output
    rows = run("query", "--json", "--no-update", "select game from games order by game")
    assert [json.loads(x)["game"] for x in rows.output.splitlines()] == sorted(p.stem for p in _games(folder))


def test_withdraw_json_pairing_positions_and_italian_help(run: Callable[..., Result], folder: Path) -> None:
    run("import", "--no-analytics", str(folder))
    assert run("verify", "--deep", "cup").output.startswith("10 of 10 games verified")
    at_start = json.loads(run("tournament", "standings", "cup", "--json", "--at", "7").output)
    assert at_start["after_round"] == 0 and [ln["place"] for ln in at_start["standings"]] == [1] * 7
    run("tournament", "create", "sw", "--name", "S", "--movement", "swiss", "--hands", "4")
    for e in ("a", "b", "c", "d"):
        run("tournament", "register", "sw", e, e.upper())
    assert run("tournament", "withdraw", "sw", "d", "--reason", "ill").output == "d withdrawn\n"
    proposal = json.loads(run("tournament", "pair", "sw", "--round", "1", "--json").output)
    assert proposal == {
        "tournament_id": "sw",
        "type": "round_paired",
        "round": 1,
        "tables": [{"table": 1, "entrants": ["a", "b"], "game_id": "sw-r1-t1"}],
        "bye": "c",
    }
    assert json.loads(run("tournament", "standings", "sw", "--json").output)["after_round"] == 0  # not recorded
    helped = run("--lang", "it", "tournament", "pair", "--help")
    assert "Proponi il turno R secondo il movimento; registralo alla conferma." in helped.output
    assert "Registra la proposta senza chiedere." in helped.output


def test_a_game_that_ends_counts_at_once(run: Callable[..., Result], folder: Path, tmp_path: Path, db: str) -> None:
    """The results kept per process follow each game's stored length: the tail of a game imported
    later (its game_ended) is in the next standings of the same process."""
    copy = tmp_path / "half.jsonl"
    lines = (folder / "cup-r1-t1.jsonl").read_text().splitlines()
    copy.write_text("\n".join(lines[:-1]) + "\n")
    run("import", "--no-analytics", str(folder / "cup.jsonl"), str(copy))
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
    try:
        state = app.tournament_state("cup")
        assert app.tournament_results(state)["cup-r1-t1"].finished is False
        assert run("import", "--no-analytics", str(folder / "cup-r1-t1.jsonl")).exit_code == 0
        assert app.tournament_results(state)["cup-r1-t1"].finished is True
    finally:
        app.close()


def test_a_score_only_game_stands_for_a_table(run: Callable[..., Result], tmp_path: Path) -> None:
    """A table's paper sheet (``record-scores``, FORMAT.md "Partial records") is its round's result:
    it takes meta.tournament/round/table from the pairing that names it, so the checker finds
    nothing (before, TOUR-GAME-1 three times: meta None), and its claimed totals give the VP."""
    assert run("tournament", "create", "club", "--name", "Club", "--movement", "danese", "--hands", "2",
               "--rounds", "1").exit_code == 0  # fmt: skip
    run("tournament", "register", "club", "c1", "Anna", "Bruno")
    run("tournament", "register", "club", "c2", "Carla", "Dario")
    assert run("tournament", "pair", "club", "--round", "1", "--yes").exit_code == 0
    sheet = tmp_path / "t1.csv"
    sheet.write_text("team 0,team 1\n600,200\n500,-100\n")  # 1100–100: a difference of 1000, fibur-4's 15–5
    stored = run("record-scores", "club-r1-t1", "--players", "Anna,Carla,Bruno,Dario", "--variant", "burraco",
                 "--csv", str(sheet))  # fmt: skip
    assert stored.output == "club-r1-t1: stored, 2 hands (score-only)\n"
    first = json.loads(run("export", "club-r1-t1").output.splitlines()[0])
    assert first["meta"] == {"tournament": "club", "round": "1", "table": "1"}
    audited = run("audit", "--json", "club")
    assert (audited.exit_code, json.loads(audited.output)["findings"]) == (0, [])
    doc = json.loads(run("tournament", "standings", "club", "--json").output)
    assert [(ln["entrant"], ln["vp"], ln["mp_diff"], ln["mp"]) for ln in doc["standings"]] == [
        ("c1", 15, 1000, 1100),
        ("c2", 5, -1000, 100),
    ]
    # its twin: a sheet of a game no tournament names has no meta
    assert run("record-scores", "friendly", "--players", "Anna,Carla", "--variant", "burraco",
               "--csv", str(sheet)).exit_code == 0  # fmt: skip
    assert "meta" not in json.loads(run("export", "friendly").output.splitlines()[0])


def test_a_table_sheet_entered_in_the_viewer_by_the_tournament_s_scorer(run: Callable[..., Result], db: str) -> None:
    """The viewer's score-sheet form takes the pairing's meta too, so a recorder token scoped to the
    tournament (``--tournament club``: the games whose meta.tournament is club) may enter it."""
    import re

    from ledger.store.application import open_app
    from ledger.tokens import TokenStore
    from replay_web import create_app

    run("tournament", "create", "club", "--name", "Club", "--movement", "danese", "--hands", "2", "--rounds", "1")
    run("tournament", "register", "club", "c1", "Anna", "Bruno")
    run("tournament", "register", "club", "c2", "Carla", "Dario")
    assert run("tournament", "pair", "club", "--round", "1", "--yes").exit_code == 0
    ledger = open_app(db)
    scorer = TokenStore(ledger).create("Scorer", "recorder", tournament="club")[0]
    client = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0}).test_client()

    def csrf(page: str) -> str:
        found = re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', page)
        assert found
        return found.group(1)

    page = client.get("/signin").get_data(as_text=True)
    assert client.post("/signin", data={"csrf_token": csrf(page), "token": scorer, "next": "/"}).status_code == 303
    fields = {"csrf_token": csrf(client.get("/score-sheets/new").get_data(as_text=True)), "variant": "burraco",
              "players": "Anna, Carla, Bruno, Dario", "lines": "600,200\n500,-100\n"}  # fmt: skip
    stored = client.post("/score-sheets", data={**fields, "game_id": "club-r1-t1"})
    assert (stored.status_code, stored.headers["Location"]) == (303, "/games/club-r1-t1")
    meta = ledger.game_started("club-r1-t1").meta
    assert (meta.tournament, meta.round, meta.table) == ("club", "1", "1")
    assert client.post("/score-sheets", data={**fields, "game_id": "friendly"}).status_code == 403  # not club's
    ledger.close()
    assert json.loads(run("audit", "--json", "club").output)["findings"] == []
