"""Entering a score-only game (issue 24, the tester's input findings 4 and 5):
``record-scores --ask`` checks each typed line as it is typed and asks the
same hand again after a bad one (nothing typed is lost, no typed line is a
header); a CSV sheet or the viewer's form takes a first line as a header only
when it is one, and a line whose scores are not separated by commas says so,
naming its line; "1 hand" is singular. English and Italian."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger import score_only
from ledger.errors import RecordError

PROMPT = "hand %s (scores per side, empty to end): "


def refusal(text: str, sides: int = 2, names: tuple[str, ...] = ()) -> tuple[int | None, str]:
    with pytest.raises(RecordError) as info:
        score_only.parse_sheet(text, sides=sides, names=names)
    return info.value.line, info.value.text()


# --- the sheet's text ------------------------------------------------------------------------------
def test_a_first_line_is_a_header_only_when_it_names_the_players_or_one_name_per_side() -> None:
    four = ("Anna", "Bruno", "Carla", "Dario")
    assert score_only.parse_sheet("Anna,Bruno\n10,0\n", sides=2, names=("Anna", "Bruno")) == [(10, 0)]
    assert score_only.parse_sheet("Anna & Carla,Bruno & Dario\n420,-35\n", sides=2, names=four) == [(420, -35)]
    assert score_only.parse_sheet("anna, bruno, carla, dario\n420,-35\n", sides=2, names=four) == [(420, -35)]
    assert score_only.parse_sheet("# club night\n\n420,-35\n", sides=2) == [(420, -35)]
    assert refusal("Anna,Bruno,Carla\n420,-35\n", names=four) == (
        1,
        "score sheet: this first line is not numbers, nor a header: one name per side (2) or the players' names, "
        "separated by commas",
    )
    assert refusal("Anna,Bruno\nAnna,Bruno\n10,0\n") == (2, "score sheet: 'Anna' is not a number of points")


def test_scores_separated_by_something_else_than_commas_are_refused_on_their_line() -> None:
    separated = "score sheet: '420;-35' is not one number: the scores on a line are separated by commas (420,-35)"
    assert refusal("420;-35\n310,605\n") == (1, separated)
    assert refusal("Anna,Bruno\n420;-35\n") == (2, separated)
    assert refusal("# sheet\n420\t-35\n")[0] == 2
    assert refusal("10,0\n5 5\n") == (
        2,
        "score sheet: '5 5' is not one number: the scores on a line are separated by commas (5,5)",
    )
    assert refusal("10,0\n1,2,3\n") == (2, "score sheet: one score per side, 2 on a line; this line has 3")
    assert refusal("# nothing\n") == (None, "score sheet: no hand lines")


def test_a_typed_line_is_never_a_header() -> None:
    assert score_only.parse_line(" 10  -20 ", 1, sides=2) == (10, -20)
    assert score_only.parse_line("10,-20", 1, sides=2) == (10, -20)
    with pytest.raises(RecordError) as info:
        score_only.parse_line("Anna,Bruno", 1, sides=2)
    assert (info.value.line, info.value.text()) == (1, "score sheet: 'Anna' is not a number of points")


# --- record-scores --csv -------------------------------------------------------------------------------
def test_a_csv_sheet_with_semicolons_names_line_1_in_english_and_italian(
    run: Callable[..., Result], tmp_path: Path
) -> None:
    sheet = tmp_path / "semi.csv"
    sheet.write_text("420;-35\n310,605\n")
    args = ("record-scores", "club-8", "--players", "Anna,Bruno", "--variant", "burraco", "--csv", str(sheet))
    refused = run(*args)
    assert (refused.exit_code, refused.stderr) == (
        2,
        f"{sheet}:1: points: REC-FORMAT: score sheet: '420;-35' is not one number: the scores on a line are "
        "separated by commas (420,-35)\n",
    )
    italian = run("--lang", "it", *args)
    assert (italian.exit_code, italian.stderr) == (
        2,
        f"{sheet}:1: points: REC-FORMAT: foglio segnapunti: '420;-35' non è un solo numero: i punteggi di una riga "
        "sono separati da virgole (420,-35)\n",
    )
    assert run("list").stdout.count("club-8") == 0


def test_one_hand_is_singular_in_english_and_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    sheet = tmp_path / "one.csv"
    sheet.write_text("Anna,Bruno\n120,-40\n")
    done = run("record-scores", "one-en", "--players", "Anna,Bruno", "--variant", "burraco", "--csv", str(sheet))
    assert (done.exit_code, done.stdout) == (0, "one-en: stored, 1 hand (score-only)\n")
    it = run(
        "--lang",
        "it",
        "record-scores",
        "one-it",
        "--players",
        "Anna,Bruno",
        "--variant",
        "burraco",
        "--csv",
        str(sheet),
    )
    assert (it.exit_code, it.stdout) == (0, "one-it: archiviata, 1 smazzata (soli punteggi)\n")
    sheet.write_text("120,-40\n5,5\n")
    two = run(
        "--lang",
        "it",
        "record-scores",
        "two-it",
        "--players",
        "Anna,Bruno",
        "--variant",
        "burraco",
        "--csv",
        str(sheet),
    )
    assert (two.exit_code, two.stdout) == (0, "two-it: archiviata, 2 smazzate (soli punteggi)\n")


# --- record-scores --ask --------------------------------------------------------------------------------------
def test_ask_refuses_a_bad_line_at_once_and_asks_the_same_hand_again(run: Callable[..., Result]) -> None:
    typed = "10,0\nabc\n5 5\nAnna,Bruno\n25;0\n1,2,3\n7,7\n\n"
    done = run("record-scores", "gin-a", "--players", "Anna,Bruno", "--variant", "gin", "--ask", input=typed)
    assert done.exit_code == 0, done.output
    asked = [int(n) for n in re.findall(r"hand (\d+) \(scores per side", done.stdout)]
    assert asked == [1, 2, 2, 3, 3, 3, 3, 4]
    assert done.stdout.endswith(PROMPT % 4 + "\ngin-a: stored, 3 hands (score-only)\n")
    assert done.stderr == (
        "hand 2 not taken: score sheet: 'abc' is not a number of points; type it again\n"
        "hand 3 not taken: score sheet: 'Anna' is not a number of points; type it again\n"
        "hand 3 not taken: score sheet: '25;0' is not one number: the scores on a line are separated by commas "
        "(25,0); type it again\n"
        "hand 3 not taken: score sheet: one score per side, 2 on a line; this line has 3; type it again\n"
    )
    scored = json.loads(run("score", "--json", "gin-a").stdout)
    assert [[s["points"] for s in h["scores"]] for h in scored["hands"]] == [[10, 0], [5, 5], [7, 7]]


def test_ask_takes_no_names_header_and_stores_one_hand(run: Callable[..., Result]) -> None:
    typed = "Anna,Bruno\n10,0\n\n"
    done = run("record-scores", "gin-h", "--players", "Anna,Bruno", "--variant", "gin", "--ask", input=typed)
    assert (done.exit_code, done.stderr) == (
        0,
        "hand 1 not taken: score sheet: 'Anna' is not a number of points; type it again\n",
    )
    prompts = PROMPT % 1 + "Anna,Bruno\n" + PROMPT % 1 + "10,0\n" + PROMPT % 2 + "\n"  # the runner echoes input
    assert done.stdout == prompts + "gin-h: stored, 1 hand (score-only)\n"


def test_ask_in_italian_refuses_in_italian(run: Callable[..., Result]) -> None:
    typed = "25;0\n25,0\n\n"
    done = run(
        "--lang", "it", "record-scores", "gin-i", "--players", "Anna,Bruno", "--variant", "gin", "--ask", input=typed
    )
    assert (done.exit_code, done.stderr) == (
        0,
        "smazzata 1 non accettata: foglio segnapunti: '25;0' non è un solo numero: i punteggi di una riga sono "
        "separati da virgole (25,0); riscrivila\n",
    )
    assert done.stdout.endswith("gin-i: archiviata, 1 smazzata (soli punteggi)\n")


def test_ask_refuses_before_typing_what_it_would_refuse_after(run: Callable[..., Result], tmp_path: Path) -> None:
    sheet = tmp_path / "s.csv"
    sheet.write_text("10,0\n")
    assert (
        run("record-scores", "gin-s", "--players", "Anna,Bruno", "--variant", "gin", "--csv", str(sheet)).exit_code == 0
    )
    taken = run("record-scores", "gin-s", "--players", "Anna,Bruno", "--variant", "gin", "--ask", input="5,5\n\n")
    assert (taken.exit_code, taken.stdout, taken.stderr) == (2, "", "gin-s is already stored: nothing was asked\n")
    alone = run("record-scores", "gin-t", "--players", "Anna", "--variant", "gin", "--ask", input="5,5\n\n")
    assert (alone.exit_code, alone.stdout) == (2, "")
    assert alone.stderr == "gin-t: position 0: players: REC-REF: 1 players: gin is played by 2\n"
    empty = run("record-scores", "gin-e", "--players", "Anna,Bruno", "--variant", "gin", "--ask", input="\n")
    assert (empty.exit_code, empty.stderr) == (2, "gin-e: no hands typed, nothing stored\n")
    assert [g for g in run("list").stdout.split() if g.startswith("gin-")] == ["gin-s"]


# --- the viewer's form -----------------------------------------------------------------------------------------------
def test_the_viewers_form_refuses_semicolons_on_line_1_in_english_and_italian(tmp_path: Path) -> None:
    from ledger.store.application import open_app
    from ledger.tokens import TokenStore
    from replay_web import create_app

    db = str(tmp_path / "sheet.db")
    ledger = open_app(db)
    recorder = TokenStore(ledger).create("Mario Rossi", "recorder")[0]
    client = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0}).test_client()

    def csrf(page: str) -> str:
        m = re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', page)
        assert m
        return m.group(1)

    page = client.get("/signin").get_data(as_text=True)
    assert client.post("/signin", data={"csrf_token": csrf(page), "token": recorder, "next": "/"}).status_code == 303
    fields = {"csrf_token": csrf(client.get("/score-sheets/new").get_data(as_text=True)), "game_id": "club-5"}
    fields |= {"variant": "burraco", "players": "Anna, Bruno", "lines": "420;-35\n310,605\n"}
    bad = client.post("/score-sheets", data=fields)
    assert bad.status_code == 400
    assert (
        'id="score-sheet-error">the score sheet was not stored: line 1: REC-FORMAT: score sheet: &#39;420;-35&#39; '
        "is not one number: the scores on a line are separated by commas (420,-35)</p>"
    ) in bad.get_data(as_text=True)
    italian = client.post("/score-sheets?lang=it", data=fields)
    assert italian.status_code == 400
    assert (
        'id="score-sheet-error">il foglio segnapunti non è stato archiviato: riga 1: REC-FORMAT: foglio segnapunti: '
        "&#39;420;-35&#39; non è un solo numero: i punteggi di una riga sono separati da virgole (420,-35)</p>"
    ) in italian.get_data(as_text=True)
    header = client.post("/score-sheets", data={**fields, "lines": "Anna,Bruno\n420,-35\n"})
    assert (header.status_code, header.headers["Location"]) == (303, "/games/club-5")
    assert [e.type for e in ledger.get_events("club-5")] == ["game_started", "hand_dealt", "hand_ended", "game_ended"]
    ledger.close()


def test_on_a_terminal_a_bad_line_is_refused_before_the_next_one_is_typed(run: Callable[..., Result], db: str) -> None:
    """A real terminal (a pty), no --ask (its default there): the refusal is on the screen, and the same hand
    asked again, before anything more is typed; the hands typed before it are stored at the end."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUMMY_LEDGER", "PERSISTENCE", "LANG", "LC_"))}
    env.update(LANG="C.UTF-8", COLUMNS="200")
    exe = str(Path(sys.executable).parent / "rummy-ledger")
    args = [exe, "--db", db, "record-scores", "gin-p", "--players", "Anna,Bruno", "--variant", "gin"]
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen, shown_to = "", 0  # all the terminal showed; how much of it until() has returned

    def until(text: str) -> str:
        """What the terminal shows after the last until() up to ``text`` (included)."""
        nonlocal seen, shown_to
        deadline = time.monotonic() + 60
        while text not in seen[shown_to:]:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"waited for {text!r}; the terminal shows {seen!r}"
            try:
                chunk = os.read(master, 4096).decode()
            except OSError:  # the child closed the terminal
                chunk = ""
            assert chunk, f"the terminal closed before {text!r}; it shows {seen!r}"
            seen += chunk
        start, shown_to = shown_to, seen.index(text, shown_to) + len(text)
        return seen[start:shown_to]

    try:
        assert until(PROMPT % 1) == PROMPT % 1
        os.write(master, b"10,0\n")
        assert until(PROMPT % 2) == "10,0\r\n" + PROMPT % 2
        os.write(master, b"abc\n")
        refused = "hand 2 not taken: score sheet: 'abc' is not a number of points; type it again\r\n"
        assert until(PROMPT % 2) == "abc\r\n" + refused + PROMPT % 2
        os.write(master, b"5 5\n")
        assert until(PROMPT % 3) == "5 5\r\n" + PROMPT % 3
        os.write(master, b"\n")
        assert until("(score-only)\r\n") == "\r\ngin-p: stored, 2 hands (score-only)\r\n"
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    scored = json.loads(run("score", "--json", "gin-p").stdout)
    assert [[s["points"] for s in h["scores"]] for h in scored["hands"]] == [[10, 0], [5, 5]]
