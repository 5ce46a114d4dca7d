"""What a ruling does to a stored tournament (issue 25): ``rule``'s lines and the dispute report's
section, on a real SQLite store. The game cup-r4-t2 (c11 v c6, 1955–1670, 11–9) is stored without
its ``game_ended``; a ruling during the game (team 1: -300) is appended with ``rule``, then the
game's end: the report then shows c6 from 5th to 6th, c3 from 6th to 5th (585 MP: no band edge within 5 MP)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from replay_web import create_app
from tests.cups import simulate_cup


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory, cli_invoker: Callable[..., Callable[..., Result]]) -> tuple:
    where = tmp_path_factory.mktemp("ruling")
    out, db = where / "sim", where / "cup.db"
    run = cli_invoker(db)
    simulate_cup(run, out)
    game = out / "cup-r4-t2.jsonl"
    lines = game.read_text().splitlines()
    game.write_text("\n".join(lines[:-1]) + "\n")
    (where / "end.jsonl").write_text(lines[-1] + "\n")
    assert run("import", "--no-analytics", str(out)).exit_code == 0
    return run, db, where / "end.jsonl"


def test_rule_says_what_it_did_to_the_tournament(cup) -> None:
    run, db, end = cup
    ruled = run("rule", "cup-r4-t2", "--penalty", "team:1", "-300", "--rule", "BUR-PILE-1", "--referee", "Ada")
    assert ruled.exit_code == 0, ruled.output
    assert ruled.output.splitlines()[2:] == [
        "in the tournament:",
        "  cup round 4, table 2 (c11 v c6): MP 1955–1670, now 1955–1370",
        "  the game is playing: it gives no VP yet",
        "  no place in the standings changed",
    ]
    assert run("append", "cup-r4-t2", str(end)).exit_code == 0
    # a ruling after game_ended (FORMAT.md "Rulings after the game") says what it did too
    after = run("rule", "cup-r1-t1", "--penalty", "0", "-5", "--rule", "BUR-PILE-1")
    assert after.exit_code == 0
    assert after.output.splitlines()[2:] == [
        "in the tournament:",
        "  cup round 1, table 1 (c1 v c2): MP 2295–1640, now 2290–1640",
        "  VP c1 v c2: 13–7, unchanged",  # fibur-4: a difference of 655 and of 650 are both 505–700
        "  no place in the standings changed",
    ]

    app = create_app({"LEDGER_DB": str(db), "TESTING": True, "SPECTATOR_DELAY": 0})
    page = app.test_client().get("/games/cup-r4-t2/report?lang=en")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    section = html[html.index("What the rulings did to the tournament") :]
    items = [li.split("</li>")[0] for li in section.split("</ul>")[0].split("<li>")[1:]]
    assert items == [
        "cup round 4, table 2 (c11 v c6): MP 1955–1670, now 1955–1370",
        "VP c11 v c6: 11–9, now 13–7",
        "Pair c6 from 5th to 6th",
        "Pair c3 from 6th to 5th",
    ]
    it = app.test_client().get("/games/cup-r4-t2/report?lang=it").get_data(as_text=True)
    assert "Che cosa le decisioni arbitrali hanno cambiato nel torneo" in it
    assert "<li>Coppia c6 dal 5° al 6° posto</li>" in it
    assert "<li>PV c11 contro c6: 11–9, ora 13–7</li>" in it
    # the command line's report of the stored game has the same section (it had none)
    written = run("report", "cup-r4-t2", "-o", str(db.parent / "r.html"))
    assert written.exit_code == 0, written.output
    cli_html = (db.parent / "r.html").read_text()
    cli_section = cli_html[cli_html.index("What the rulings did to the tournament") :]
    assert [li.split("</li>")[0] for li in cli_section.split("</ul>")[0].split("<li>")[1:]] == items
    assert run("--lang", "it", "report", "cup-r4-t2", "-o", str(db.parent / "r-it.html")).exit_code == 0
    assert "<li>Coppia c6 dal 5° al 6° posto</li>" in (db.parent / "r-it.html").read_text()


def test_a_game_of_no_tournament_has_no_section(tmp_path: Path, cli_invoker) -> None:
    """Legal twin: the same ruling in a game outside any tournament prints no tournament lines."""
    run = cli_invoker(tmp_path / "g.db")
    assert (
        run("simulate", "--variant", "burraco", "--games", "1", "--seed", "2", "--out", str(tmp_path / "g")).exit_code
        == 0
    )
    files = sorted((tmp_path / "g").glob("*.jsonl"))
    lines = files[0].read_text().splitlines()
    files[0].write_text("\n".join(lines[:-1]) + "\n")
    assert run("import", "--no-analytics", str(tmp_path / "g")).exit_code == 0
    gid = files[0].stem
    ruled = run("rule", gid, "--penalty", "1", "-100", "--rule", "BUR-PILE-1")
    assert ruled.exit_code == 0, ruled.output
    assert "in the tournament" not in ruled.output and len(ruled.output.splitlines()) == 2
    assert run("report", gid, "-o", str(tmp_path / "r.html")).exit_code == 0
    assert "What the rulings did to the tournament" not in (tmp_path / "r.html").read_text()
