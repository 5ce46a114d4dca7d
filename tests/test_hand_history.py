"""Hand histories a person reads (issue 29): ``export --format text``.

Every fixture that imports has its history, in English and Italian, in
``tests/expected/hand_history/{en,it}/<variant>-<name>.txt``
(``python tools/make_hand_histories.py`` writes them; review the diff by
hand); the ``rejected_*`` records are refused. ``--pov`` keeps only what one
seat saw; partial records and score-only games print what they know; the
command writes to stdout, to ``-o FILE`` and, with ``--all``, one file per game.

Scenario of the view tests: ``fixtures/burraco/dispute.jsonl`` (bur-dispute,
Anna seat 0 v Bruno seat 1, dealt by Bruno; Anna's hand is 3♥ 4♥ 5♥ 8♥ K♣ K♦
K♠ Q♠ 4♣ 6♦ 7♠; at 13 Anna draws 10♠, at 15 Q♣; the referee's note at 10 and
the reason of the restoration at 11 are free text).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

import ledger.hand_history as hh
from ledger.errors import RecordError
from ledger.hand_history import hand_history
from ledger.i18n import translations
from ledger.partial import redact
from ledger.record_files import read_record
from ledger.score_only import score_only_game
from tools.make_hand_histories import LANGS, TARGET, cases, history

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
GIN = REPO / "fixtures" / "gin" / "standard-game.jsonl"
IMPORTED = [(name, path) for name, path in cases() if not path.name.startswith("rejected_")]
REJECTED = [(name, path) for name, path in cases() if path.name.startswith("rejected_")]


def events_of(path: Path) -> list:
    return list(read_record(path).events)


def lines_of(text: str) -> list[str]:
    return text.split("\n")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "path"), IMPORTED, ids=[n for n, _ in IMPORTED])
def test_every_fixture_has_its_history_in_english_and_italian(name: str, path: Path, lang: str) -> None:
    expected = (TARGET / lang / f"{name}.txt").read_text(encoding="utf-8")
    assert history(path, lang) == expected, f"run python tools/make_hand_histories.py and review {name}"


def test_the_expected_files_are_the_fixtures_that_import_and_no_other() -> None:
    assert len(IMPORTED) == 18 and [n for n, _ in REJECTED] == [
        "burraco-rejected_bad_card",
        "burraco-rejected_card_not_in_hand",
    ]
    for lang in LANGS:
        assert sorted(p.stem for p in (TARGET / lang).glob("*.txt")) == sorted(n for n, _ in IMPORTED)
    assert [history(path, "en") for _, path in REJECTED] == [None, None]


def test_the_referee_history_of_the_dispute() -> None:
    """The head, the deal, a rewound move, the referee's note, the findings with their status, the score."""
    lines = lines_of(hand_history(events_of(DISPUTE)))
    assert lines[:8] == [
        "rummy-ledger hand history · bur-dispute · Burraco (fibur) · tournament fixtures · table 1",
        "Seen by: the referee (every card)",
        "Seats: 0 Anna · 1 Bruno",
        "",
        "--- Hand 1 ---",
        " 1. hand 1 dealt by Bruno; upcard 9♣",
        "       Dealt: Anna  7♠ Q♠ K♠ 3♥ 4♥ 5♥ 8♥ 4♣ K♣ 6♦ K♦",
        "              Bruno 9♠ J♥ Q♥ 4♣ 6♣ 7♣ 4♦ 6♦ 9♦ J♦ Q♦",
    ]
    assert " 7. Bruno lays off 6♥ on [a]  [rewound by position 11]" in lines
    at = lines.index("10. referee: penalty -50 to Bruno (BUR-TURN-1)")
    assert lines[at + 1 : at + 3] == [
        "      note: laid off on the opponents' meld",
        "11. referee restores the table to move 6: lay-off on the other side and second draw undone",
    ]
    assert "13. Anna draws 10♠ from the stock" in lines
    at = lines.index("  position 8: ALL-TURN-2: Bruno drew a second time in the same turn (card_drawn)")
    assert lines[at + 1] == "      [open; move rewound by position 11]"
    assert lines[-9:] == [
        "Score:",
        "  Anna     -70   total    -70   melds +55, hand -25, no_pozzetto -100  [claimed 0: differs]",
        "  Bruno   -235   total   -235   hand -85, no_pozzetto -100, penalty -50",
        "",
        "--- End of the game ---",
        "18. game ends: hands played",
        "totals: Anna -70, Bruno -235",
        "as played (no referee penalties): Anna -70, Bruno -185",
        "winner: Anna",
    ]


def test_a_seats_history_holds_only_what_that_seat_saw() -> None:
    """--pov 1 (Bruno): Anna's dealt cards and her stock draws are hidden, his own are there; no free text."""
    text = hand_history(events_of(DISPUTE), pov=1)
    lines = lines_of(text)
    assert lines[1] == "Seen by: Bruno (seat 1): own cards and what was face up"
    assert lines[6:8] == [
        "       Dealt: Anna  11 cards",
        "              Bruno 9♠ J♥ Q♥ 4♣ 6♣ 7♣ 4♦ 6♦ 9♦ J♦ Q♦",
    ]
    assert "13. Anna draws a card from the stock" in lines and "15. Anna draws a card from the stock" in lines
    assert "Anna draws 10♠" not in text and "Anna draws Q♣" not in text
    assert " 6. Bruno draws 6♥ from the stock" in lines  # his own draw
    assert "11. referee restores the table to move 6" in lines
    assert "laid off on the opponents' meld" not in text and "second draw undone" not in text
    # once the hand has ended every hand is shown, to every seat (FORMAT.md "Per-seat views")
    assert "       Held at the end: Anna  7♠ 8♥ 4♣ 6♦" in lines
    # the same seat seen from the other side: Anna's cards, not Bruno's draws
    anna = hand_history(events_of(DISPUTE), pov=0)
    assert "       Dealt: Anna  7♠ Q♠ K♠ 3♥ 4♥ 5♥ 8♥ 4♣ K♣ 6♦ K♦" in lines_of(anna)
    assert "              Bruno 11 cards" in lines_of(anna) and " 6. Bruno draws a card from the stock" in lines_of(
        anna
    )


def test_a_spectator_sees_no_hand_and_no_face_down_discard() -> None:
    lines = lines_of(hand_history(events_of(GIN), pov="spectator"))
    assert lines[1:2] + lines[5:8] == [
        "Seen by: a spectator (what was face up)",
        " 1. hand 1 dealt by Bruno; upcard K♦",
        "       Dealt: Anna  10 cards",
        "              Bruno 10 cards",
    ]
    assert " 5. Anna knocks with deadwood 9♣, discarding face down" in lines
    knocker = lines_of(hand_history(events_of(GIN), pov=0))
    assert " 5. Anna knocks with deadwood 9♣, discarding K♣ face down" in knocker


def test_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no seat 2 at this table \(seats 0–1, or 'spectator'\)"):
        hand_history(events_of(DISPUTE), pov=2)


def test_the_history_is_one_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    """One evolve per event, not a replay per move."""
    calls = []
    real = hh.evolve

    def counted(state, event):  # type: ignore[no-untyped-def]
        calls.append(event)
        return real(state, event)

    monkeypatch.setattr(hh, "evolve", counted)
    events = events_of(REPO / "fixtures" / "burraco" / "stock_exhausted_seed.jsonl")
    hand_history(events, pov=1)
    assert len(calls) == len(events) == 173


def test_a_partial_record_prints_unknown_cards_as_unknown() -> None:
    """The dispute as Bruno's own app recorded it (``redact --as seat:1``): Anna's cards are ``??``."""
    cut = redact(events_of(DISPUTE), 1).events
    lines = lines_of(hand_history(cut))
    assert lines[6:8] == [
        "       Dealt: Anna  11 cards",
        "              Bruno 9♠ J♥ Q♥ 4♣ 6♣ 7♣ 4♦ 6♦ 9♦ J♦ Q♦",
    ]
    assert "13. Anna draws a card from the stock" in lines
    assert "17. Anna shows 8♥ 4♣ 6♦ 7♠" in lines  # the hands counted face up at the end (FORMAT.md)
    assert "       Held at the end: Anna  7♠ 8♥ 4♣ 6♦" in lines
    scorer = lines_of(hand_history(redact(events_of(DISPUTE)).events))  # a scorer's record: no hand named at the deal
    assert scorer[5:7] == [" 1. hand 1 dealt by Bruno; upcard 9♣", " 2. Anna takes 9♣ from the discard pile"]


def test_a_score_only_game_prints_its_scores() -> None:
    events = score_only_game("club-1", "scala40", ["Anna", "Bruno"], [(0, 35), (12, 0)])
    assert hand_history(events, tr=translations("it")) == "\n".join(
        [
            "rummy-ledger cronologia delle smazzate · club-1 · Scala 40 (fisca)",
            "Vista dell'arbitro (tutte le carte)",
            "Posti: 0 Anna · 1 Bruno",
            "",
            "--- Smazzata 1 ---",
            "1. smazzata 1, mazziere Anna; carta scoperta ??",
            "2. fine smazzata: chiusura",
            "Punteggio:",
            "  Anna       0   totale      0     [come dichiarato: il conto dipende da carte sconosciute]",
            "  Bruno     35   totale     35   dichiarato +35  [come dichiarato: il conto dipende da carte sconosciute]",
            "",
            "--- Smazzata 2 ---",
            "3. smazzata 2, mazziere Bruno; carta scoperta ??",
            "4. fine smazzata: chiusura",
            "Punteggio:",
            "  Anna      12   totale     12   dichiarato +12  [come dichiarato: il conto dipende da carte sconosciute]",
            "  Bruno      0   totale     35     [come dichiarato: il conto dipende da carte sconosciute]",
            "",
            "--- Fine della partita ---",
            "5. fine partita: smazzate giocate",
            "totali: Anna 12, Bruno 35",
            "vincitore: Anna",
        ]
    )


def test_an_impossible_record_is_refused() -> None:
    with pytest.raises(RecordError, match="no events"):
        hand_history([])
    with pytest.raises(RecordError, match="a record starts with game_started"):
        hand_history(events_of(DISPUTE)[1:])


# --- the command ---------------------------------------------------------------------------


def test_export_format_text_prints_a_stored_game_or_a_record_file(run: Callable[..., Result]) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    stored = run("export", "bur-dispute", "--format", "text")
    assert (stored.exit_code, stored.stderr) == (0, "")
    assert stored.stdout == (TARGET / "en" / "burraco-dispute.txt").read_text(encoding="utf-8")
    italian = run("--lang", "it", "export", str(DISPUTE), "--format", "text")
    assert italian.stdout == (TARGET / "it" / "burraco-dispute.txt").read_text(encoding="utf-8")
    seat = run("export", "bur-dispute", "--format", "text", "--pov", "1")
    assert seat.stdout == hand_history(events_of(DISPUTE), pov=1) + "\n"
    spectator = run("export", "bur-dispute", "--format", "text", "--pov", "Spectator")
    assert spectator.stdout == hand_history(events_of(DISPUTE), pov="spectator") + "\n"
    # the record export is as it was
    assert run("export", "bur-dispute").stdout.startswith('{"type":"game_started"')


def test_export_format_text_writes_a_file_and_a_folder(run: Callable[..., Result], tmp_path: Path) -> None:
    assert run("import", "--no-analytics", str(DISPUTE), str(GIN)).exit_code == 0
    out = tmp_path / "anna.txt"
    one = run("--lang", "it", "export", "bur-dispute", "--format", "text", "--pov", "0", "-o", str(out))
    assert (one.exit_code, one.stdout) == (0, "")
    assert one.stderr == f"scritta la cronologia delle smazzate di bur-dispute in {out}\n"
    assert out.read_text(encoding="utf-8") == hand_history(events_of(DISPUTE), 0, translations("it")) + "\n"
    folder = tmp_path / "histories"
    every = run("export", "--all", "--format", "text", "--out", str(folder))
    assert (every.exit_code, every.stderr) == (0, f"wrote 2 hand histories to {folder}\n")
    assert sorted(p.name for p in folder.iterdir()) == ["bur-dispute.txt", "gin-standard-1.txt"]
    assert (folder / "gin-standard-1.txt").read_text(encoding="utf-8") == (
        TARGET / "en" / "gin-standard-game.txt"
    ).read_text(encoding="utf-8")
    named = run("export", "gin-standard-1", "--format", "text", "--out", str(tmp_path / "one"))
    assert named.stderr == f"wrote 1 hand history to {tmp_path / 'one'}\n"
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["gin-standard-1.txt"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bur-dispte", "--format", "text"], "no game 'bur-dispte' in the store"),
        (["bur-dispute", "--format", "text", "--pov", "4"], "Invalid value for --pov: no seat 4 at this table"),
        (["bur-dispute", "--format", "text", "--pov", "north"], "'north' is neither a seat number nor 'spectator'"),
        (["bur-dispute", "--pov", "1"], "--pov is for a hand history: add --format text"),
        (["bur-dispute", "--format", "text", "--with-journal"], "--with-journal is for a record export"),
        (["--all", "--format", "text"], "writes one GAME.txt each into --out DIR"),
        (["bur-dispute", "--format", "text", "--variant", "gin"], "the filters and --partition are for a table export"),
        (["bur-dispute", "--format", "text", "-o", "x.txt", "--out", "d"], "not both"),
        (["--all", "bur-dispute", "--format", "text", "--out", "d"], "name the games to export, or pass --all"),
    ],
)
def test_export_format_text_refuses_clearly(run: Callable[..., Result], args: list[str], message: str) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    result = run("export", *args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output, result.output
    assert result.stdout == ""


def test_export_format_text_of_a_rejected_record_is_its_error_line(run: Callable[..., Result]) -> None:
    bad = REPO / "fixtures" / "burraco" / "rejected_card_not_in_hand.jsonl"
    result = run("export", str(bad), "--format", "text")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{bad}:5: card: REC-WHERE: Anna (seat 0) does not hold 5S\n"
    unknown = run("import", "--no-analytics", str(DISPUTE)), run("export", "bur-dispte", "--format", "text")
    assert unknown[1].stderr.endswith("did you mean bur-dispute?\n")


def _with_tail(tmp_path: Path, *tail: str) -> list:
    path = tmp_path / "after.jsonl"
    path.write_text(DISPUTE.read_text(encoding="utf-8") + "".join(line + "\n" for line in tail), encoding="utf-8")
    return events_of(path)


def test_a_penalty_after_game_ended_says_the_hand_it_counts_in(run: Callable[..., Result], tmp_path: Path) -> None:
    """FORMAT.md "Rulings after the game": penalties after game_ended are printed under "End of the game"
    and counted, as ``score`` counts them, in the last hand's score (Anna's -30 is in hand 1's line)."""
    events = _with_tail(
        tmp_path,
        '{"type":"penalty_assessed","seat":0,"points":-30,"rule":"ALL-TURN-1","note":"late protest upheld"}',
        '{"type":"penalty_assessed","seat":1,"points":0,"rule":"BUR-TURN-1","finding":7}',
    )
    english = lines_of(hand_history(events))
    assert english[english.index("Score:") + 1 :] == [
        "  Anna    -100   total   -100   melds +55, hand -25, no_pozzetto -100, penalty -30  [claimed 0: differs]",
        "  Bruno   -235   total   -235   hand -85, no_pozzetto -100, penalty -50",
        "",
        "--- End of the game ---",
        "18. game ends: hands played",
        "19. referee: penalty -30 to Anna (ALL-TURN-1)  [counted in the score of hand 1]",
        "      note: late protest upheld",
        "20. referee: penalty +0 to Bruno (BUR-TURN-1)  [counted in the score of hand 1]",
        "totals: Anna -100, Bruno -235",
        "as played (no referee penalties): Anna -70, Bruno -185",
        "winner: Anna",
    ]
    italian = lines_of(hand_history(events, None, translations("it")))
    assert [line for line in italian if line.startswith(("19. ", "20. "))] == [
        "19. arbitro: penalità -30 a carico di Anna (ALL-TURN-1)  [contata nel punteggio della smazzata 1]",
        "20. arbitro: penalità +0 a carico di Bruno (BUR-TURN-1)  [contata nel punteggio della smazzata 1]",
    ]
    # the same hand line and totals as `score` prints
    score = run("score", str(tmp_path / "after.jsonl")).stdout.split("\n")
    assert english[english.index("Score:") + 1] in score and "totals: Anna -100, Bruno -235" in score
    # a penalty in a hand (position 10) says nothing of the kind
    assert "10. referee: penalty -50 to Bruno (BUR-TURN-1)" in english


def test_a_penalty_after_a_game_of_no_hand_counts_in_the_totals_only(tmp_path: Path) -> None:
    path = tmp_path / "none.jsonl"
    head = DISPUTE.read_text(encoding="utf-8").split("\n")[0]
    tail = [
        '{"type":"game_ended","reason":"abandoned"}',
        '{"type":"penalty_assessed","seat":0,"points":-30,"rule":"ALL-TURN-1"}',
    ]
    path.write_text("\n".join([head, *tail]) + "\n", encoding="utf-8")
    assert lines_of(hand_history(events_of(path)))[-5:] == [
        "1. game ends: abandoned",
        "2. referee: penalty -30 to Anna (ALL-TURN-1)  [counted in the totals only: no hand was scored]",
        "totals: Anna -30, Bruno 0",
        "as played (no referee penalties): Anna 0, Bruno 0",
        "no winner (abandoned)",  # no winner, whatever the ruling did to the totals; the reason said (issue 26)
    ]
    assert lines_of(hand_history(events_of(path), 1, translations("it")))[-1] == "nessun vincitore (abbandonata)"
    assert lines_of(hand_history(events_of(path), 1, translations("it")))[-4] == (
        "2. arbitro: penalità -30 a carico di Anna (ALL-TURN-1)  "
        "[contata solo nei totali: nessuna smazzata ha un punteggio]"
    )
