"""Partial records (FORMAT.md, "Partial records"; issue 24): ``knowledge``,
``??`` where FORMAT.md allows it and nowhere else, ``cards_shown``, the fold
of unknown cards (REC-WHERE, REC-DECK), scoring as claimed and ALL-SCORE-2,
score-only games (``record-scores``), ``redact`` and ``export`` byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from ledger.errors import RecordError
from ledger.records import encode_record, parse_record
from ledger.replay import validate
from ledger.scoring import score_sheet

ROOT = Path(__file__).resolve().parent.parent
U10 = '["??","??","??","??","??","??","??","??","??","??"]'


def lines(*events: str) -> bytes:
    return "".join(e + "\n" for e in events).encode()


def gin_start(knowledge: str = ',"knowledge":"partial"') -> str:
    return (
        '{"type":"game_started","format":"rummy-ledger/1","game_id":"p-gin","variant":"gin","ruleset":"openspiel",'
        f'"players":[{{"seat":0,"name":"Anna"}},{{"seat":1,"name":"Bruno"}}]{knowledge}}}'
    )


GIN_DEAL = f'{{"type":"hand_dealt","hand":1,"dealer":0,"hands":[{U10},{U10}],"discard":["5C"]}}'
PASSES = ('{"type":"upcard_passed","seat":1}', '{"type":"upcard_passed","seat":0}')


def fold(data: bytes):  # noqa: ANN201
    return validate(parse_record(data))


def rejected(data: bytes) -> tuple[str, int | None, str]:
    with pytest.raises(RecordError) as info:
        fold(data)
    return info.value.rule, info.value.line, info.value.field


# --- the fold ------------------------------------------------------------------------------------
def test_a_card_played_from_unknown_cards_becomes_known_and_the_hand_shrinks() -> None:
    state = fold(
        lines(
            gin_start(),
            GIN_DEAL,
            *PASSES,
            '{"type":"card_drawn","seat":1,"card":"??"}',
            '{"type":"card_discarded","seat":1,"card":"KD"}',
            '{"type":"discard_taken","seat":0,"cards":["KD"]}',
            '{"type":"card_discarded","seat":0,"card":"QS"}',
        )
    )
    assert state.hands == (("??",) * 9 + ("KD",) + (), ("??",) * 10)
    assert list(state.discard) == ["5C", "QS"]
    assert state.stock_count == 30  # 52 less 20 dealt, the upcard and one drawn
    assert state.findings == ()


def test_a_card_the_deck_cannot_spare_is_rec_deck_and_its_legal_twin_is_accepted() -> None:
    head = (gin_start(), GIN_DEAL, *PASSES, '{"type":"card_drawn","seat":1,"card":"??"}')
    # the only 5C of Gin's one deck is the upcard, face up on the pile
    assert rejected(lines(*head, '{"type":"card_discarded","seat":1,"card":"5C"}')) == ("REC-DECK", 6, "card")
    assert fold(lines(*head, '{"type":"card_discarded","seat":1,"card":"6C"}')).discard == ("5C", "6C")


def test_a_named_draw_from_a_stock_of_unknown_cards_is_counted_against_the_deck() -> None:
    stock = json.dumps(["??"] * 31)  # the order given, every card unknown
    deal = f'{{"type":"hand_dealt","hand":1,"dealer":0,"hands":[{U10},{U10}],"discard":["5C"],"stock":{stock}}}'
    head = (gin_start(), deal, *PASSES)
    assert rejected(lines(*head, '{"type":"card_drawn","seat":1,"card":"5C"}')) == ("REC-DECK", 5, "card")
    state = fold(
        lines(*head, '{"type":"card_drawn","seat":1,"card":"6C"}', '{"type":"card_discarded","seat":1,"card":"6C"}')
    )
    assert (state.hands[1], state.stock, state.stock_count, state.discard) == (
        ("??",) * 10,
        ("??",) * 30,
        30,
        ("5C", "6C"),
    )
    drawn = fold(lines(gin_start(), GIN_DEAL, *PASSES, '{"type":"card_drawn","seat":1,"card":"6C"}'))
    assert (drawn.hands[1][-1], drawn.stock, drawn.stock_count) == ("6C", None, 30)
    assert rejected(lines(gin_start(), GIN_DEAL, *PASSES, '{"type":"card_drawn","seat":1,"card":"5C"}')) == (
        "REC-DECK",
        5,
        "card",
    )


def test_rec_where_only_when_the_seat_can_hold_the_card_neither_way() -> None:
    known = '["AS","2S","3S","4S","5S","6S","7S","8S","9S","10S"]'
    deal = f'{{"type":"hand_dealt","hand":1,"dealer":0,"hands":[{U10},{known}],"discard":["5C"]}}'
    head = (gin_start(), deal, *PASSES, '{"type":"card_drawn","seat":1,"card":"JS"}')
    assert rejected(lines(*head, '{"type":"card_discarded","seat":1,"card":"KD"}')) == ("REC-WHERE", 6, "card")
    assert fold(lines(*head, '{"type":"card_discarded","seat":1,"card":"JS"}')).hands[1] == tuple(json.loads(known))


def test_cards_shown_turns_unknown_cards_into_known_ones_and_not_more() -> None:
    head = (gin_start(), GIN_DEAL)
    shown = fold(lines(*head, '{"type":"cards_shown","seat":0,"cards":["AH","2H"]}'))
    assert shown.hands[0] == ("AH", "2H") + ("??",) * 8
    again = fold(
        lines(
            *head,
            '{"type":"cards_shown","seat":0,"cards":["AH"]}',
            '{"type":"cards_shown","seat":0,"cards":["AH","3H"]}',
        )
    )
    assert again.hands[0] == ("AH", "3H") + ("??",) * 8  # a known card stays known
    eleven = json.dumps(["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"])
    assert rejected(lines(*head, f'{{"type":"cards_shown","seat":0,"cards":{eleven}}}')) == (
        "REC-WHERE",
        3,
        "cards[10]",
    )


# --- format: ?? only where FORMAT.md lets it, and only in partial records --------------------------------
@pytest.mark.parametrize(
    ("event", "field"),
    [
        ('{"type":"card_drawn","seat":1,"card":"??"}', "card"),
        ('{"type":"discard_taken","seat":1,"cards":["??"]}', "cards[0]"),
    ],
)
def test_unknown_cards_in_a_full_record_are_rec_format_naming_line_and_field(event: str, field: str) -> None:
    deal = GIN_DEAL.replace(U10, '["AS","2S","3S","4S","5S","6S","7S","8S","9S","10S"]', 1).replace(
        U10, '["AH","2H","3H","4H","5H","6H","7H","8H","9H","10H"]'
    )
    full = gin_start("")
    assert rejected(
        lines(full, deal, '{"type":"upcard_passed","seat":1}', '{"type":"upcard_passed","seat":0}', event)
    ) == (
        "REC-FORMAT",
        5,
        field,
    )
    assert rejected(lines(full, GIN_DEAL)) == ("REC-FORMAT", 2, "hands[0][0]")
    assert rejected(lines(full, deal, '{"type":"cards_shown","seat":0,"cards":["AS"]}')) == ("REC-FORMAT", 3, "type")
    # the twin: the same events in a partial record are accepted
    assert fold(lines(gin_start(), GIN_DEAL, *PASSES, event.replace('"cards":["??"]', '"cards":["5C"]'))).position == 4


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ('{"type":"card_discarded","seat":1,"card":"??"}', "card"),
        ('{"type":"meld_laid","seat":1,"meld":"a","cards":["AS","??","3S"]}', "cards[1]"),
        ('{"type":"cards_shown","seat":1,"cards":["??"]}', "cards[0]"),
    ],
)
def test_unknown_cards_where_a_card_is_face_up_are_rec_format_even_in_a_partial_record(event: str, field: str) -> None:
    assert rejected(lines(gin_start(), GIN_DEAL, *PASSES, event)) == ("REC-FORMAT", 5, field)


def test_export_round_trips_a_partial_record_byte_for_byte(run: Callable[..., Result], tmp_path: Path) -> None:
    data = lines(
        gin_start(),
        GIN_DEAL,
        *PASSES,
        '{"type":"card_drawn","seat":1,"card":"??"}',
        '{"type":"card_discarded","seat":1,"card":"KD"}',
        '{"type":"cards_shown","seat":0,"cards":["AH","2H"]}',
    )
    assert encode_record(parse_record(data).events) == data
    path = tmp_path / "p-gin.jsonl"
    path.write_bytes(data)
    assert run("import", str(path)).exit_code == 0
    exported = run("export", "p-gin")
    assert (exported.exit_code, exported.stdout_bytes) == (0, data)


# --- scoring ----------------------------------------------------------------------------------------
def test_a_hand_with_unknown_cards_scores_as_claimed_and_without_a_claim_is_all_score_2() -> None:
    head = (gin_start(), GIN_DEAL, *PASSES)
    claimed = '{"type":"hand_ended","reason":"stalled","claimed":[{"seat":0,"points":12},{"seat":1,"points":0}]}'
    state = fold(lines(*head, claimed))
    sheet = score_sheet(state).to_json()
    assert sheet["hands"] == [
        {
            "hand": 1,
            "scores": [
                {"seat": 0, "points": 12, "breakdown": {"claimed": 12}, "as_claimed": True},
                {"seat": 1, "points": 0, "breakdown": {"claimed": 0}, "as_claimed": True},
            ],
        }
    ]
    assert state.findings == ()
    half = fold(lines(*head, '{"type":"hand_ended","reason":"stalled","claimed":[{"seat":0,"points":12}]}'))
    assert [(f.position, f.rule, f.message) for f in half.findings] == [
        (
            4,
            "ALL-SCORE-2",
            "hand 1 cannot be scored: the count of Bruno depends on unknown cards and no points were claimed",
        )
    ]
    assert score_sheet(half).totals == (12, 0)


def test_hands_shown_at_the_end_are_computed_not_claimed() -> None:
    a = json.dumps(["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"])
    b = json.dumps(["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"])
    state = fold(
        lines(
            gin_start(),
            GIN_DEAL,
            *PASSES,
            f'{{"type":"cards_shown","seat":0,"cards":{a}}}',
            f'{{"type":"cards_shown","seat":1,"cards":{b}}}',
            '{"type":"hand_ended","reason":"stalled"}',
        )
    )
    assert [(s.points, s.as_claimed) for s in state.results[0].scores] == [(0, False), (0, False)]
    assert state.findings == ()


# --- score-only games ---------------------------------------------------------------------------------
def test_record_scores_stores_a_score_only_game_that_audits_and_scores(
    run: Callable[..., Result], tmp_path: Path
) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Anna & Carla,Bruno & Dario\n# hand 1\n420,-35\n310,605\n")
    done = run(
        "record-scores", "club-7", "--players", "Anna,Bruno,Carla,Dario", "--variant", "burraco", "--csv", str(sheet)
    )
    assert (done.exit_code, done.stdout) == (0, "club-7: stored, 2 hands (score-only)\n")
    scored = json.loads(run("score", "--json", "club-7").stdout)
    assert scored["totals"] == [{"team": 0, "points": 730}, {"team": 1, "points": 570}]
    assert [ln["as_claimed"] for h in scored["hands"] for ln in h["scores"]] == [True] * 4
    audit = run("audit", "--json", "club-7")
    assert (audit.exit_code, json.loads(audit.stdout)["findings"]) == (0, [])
    bad = tmp_path / "bad.csv"
    bad.write_text("420,-35\n310,x\n")
    refused = run("record-scores", "club-8", "--players", "Anna,Bruno", "--variant", "burraco", "--csv", str(bad))
    assert refused.exit_code == 2
    assert refused.stderr == f"{bad}:2: points: REC-FORMAT: score sheet: 'x' is not a number of points\n"


def test_record_scores_asks_hand_by_hand_on_a_terminal(run: Callable[..., Result]) -> None:
    done = run(
        "record-scores", "club-9", "--players", "Anna,Bruno", "--variant", "scala40", "--ask", input="10 -20\n0,35\n\n"
    )
    assert done.exit_code == 0, done.output
    assert json.loads(run("score", "--json", "club-9").stdout)["totals"] == [
        {"seat": 0, "points": 10},
        {"seat": 1, "points": 15},
    ]


# --- redact -----------------------------------------------------------------------------------------------
def test_redact_cuts_a_fixture_to_the_scorers_view(run: Callable[..., Result]) -> None:
    fixture = ROOT / "fixtures" / "ramino" / "in-mano.jsonl"
    cut = run("redact", str(fixture), "--as", "scorer")
    assert cut.exit_code == 0
    events = [json.loads(x) for x in cut.stdout.splitlines()]
    assert events[0]["knowledge"] == "partial"
    assert events[1]["hands"] == [["??"] * 10, ["??"] * 10] and events[1]["discard"] == ["KD"]
    assert events[2] == {"type": "card_drawn", "seat": 0, "card": "??"}
    assert [e["type"] for e in events].count("cards_shown") >= 1
    assert fold(cut.stdout_bytes).position == len(events) - 1
    seat = run("redact", str(fixture), "--as", "seat:0")
    assert json.loads(seat.stdout.splitlines()[1])["hands"][0][:3] == ["AS", "2S", "3S"]
    bad = run("redact", str(fixture), "--as", "north")
    assert bad.exit_code == 2 and "scorer or seat:N" in bad.stderr


# --- the viewer -----------------------------------------------------------------------------------------
def test_the_viewer_shows_unknown_cards_as_backs_and_scores_as_claimed(
    web_client: Callable[..., Any],
) -> None:
    from ledger.partial import redact
    from ledger.score_only import score_only_game
    from ledger.simulate import simulate_game

    cut = list(redact(simulate_game("burraco", None, 2, 1, 0.1)[0]).events)
    sheet = score_only_game("club-1", "burraco", ["Anna", "Bruno"], [(120, -40), (300, 95)])
    client = web_client(cut, sheet)
    page = client.get("/games/club-1")
    assert page.status_code == 200
    assert page.data.count(b'<span class="card back " title="unknown card"></span>') == 22  # two hands of 11
    assert page.data.count(b">as claimed<") == 4
    assert client.get("/games/club-1/report").data.count(b"as claimed (the count depends on unknown cards)") == 4
    for url in (
        f"/games/{cut[0].game_id}?at=5",
        f"/games/{cut[0].game_id}?at=5&pov=0",
        f"/games/{cut[0].game_id}/report",
    ):
        assert client.get(url).status_code == 200, url
    state = client.get(f"/api/games/{cut[0].game_id}/state?at=1&pov=0").get_json()
    assert [(s["cards"], s["count"]) for s in state["seats"]] == [(None, 11), (None, 11)]


# --- simulate --knowledge -----------------------------------------------------------------------------------
@pytest.mark.parametrize("knowledge", ["scorer", "seat:1"])
def test_simulate_writes_partial_games_whose_audit_is_the_injected_list(
    run: Callable[..., Result], tmp_path: Path, knowledge: str
) -> None:
    out = tmp_path / "sim"
    done = run(
        "simulate", "--variant", "ramino", "--games", "2", "--seed", "3", "--out", str(out), "--violations", "0.2",
        "--knowledge", knowledge,
    )  # fmt: skip
    assert (done.exit_code, done.stdout) == (0, f"2 games written to {out}\n")
    for record in sorted(out.glob("*.jsonl")):
        events = [json.loads(x) for x in record.read_text().splitlines()]
        assert events[0]["knowledge"] == "partial" and "cards_shown" in {e["type"] for e in events}
        audit = json.loads(run("audit", "--json", str(record)).stdout)["findings"]
        injected = json.loads(record.with_suffix("").with_suffix(".injected.json").read_text())["findings"]
        assert sorted((f["position"], f["rule"]) for f in audit) == sorted((f["position"], f["rule"]) for f in injected)
        assert injected
    bad = run(
        "simulate", "--variant", "ramino", "--games", "1", "--seed", "3", "--out", str(out), "--knowledge", "seat:4"
    )
    assert bad.exit_code == 2 and "no seat 4 at this table" in bad.stderr


# --- the viewer's score-sheet form -------------------------------------------------------------------------
def test_the_viewer_stores_a_score_sheet_entered_line_by_line(tmp_path: Path) -> None:
    import re

    from ledger.store.application import open_app
    from ledger.tokens import TokenStore
    from replay_web import create_app

    db = str(tmp_path / "sheet.db")
    ledger = open_app(db)
    tokens = TokenStore(ledger)
    recorder = tokens.create("Mario Rossi", "recorder")[0]
    elsewhere = tokens.create("Gino", "recorder", game="another-game")[0]
    client = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0}).test_client()
    assert client.get("/score-sheets/new").status_code == 401

    def csrf(page: str) -> str:
        m = re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', page)
        assert m
        return m.group(1)

    def sign_in(token: str) -> None:
        page = client.get("/signin").get_data(as_text=True)
        assert client.post("/signin", data={"csrf_token": csrf(page), "token": token, "next": "/"}).status_code == 303

    sign_in(recorder)
    form = client.get("/score-sheets/new")
    assert form.status_code == 200
    fields = {"csrf_token": csrf(form.get_data(as_text=True)), "game_id": "club-3", "variant": "burraco"}
    fields |= {"players": "Anna, Bruno", "lines": "120,-40\n300,95\n"}
    assert client.post("/score-sheets", data={**fields, "csrf_token": ""}).status_code == 400  # no CSRF
    bad = client.post("/score-sheets", data={**fields, "lines": "120,-40\n300,x\n"})
    assert bad.status_code == 400 and "line 2: REC-FORMAT" in bad.get_data(as_text=True)
    # the form comes back as typed, the refusal above it: the scorer corrects line 2, nothing stored
    again = bad.get_data(as_text=True)
    assert re.search(r'id="score-sheet-error">the score sheet was not stored: line 2: REC-FORMAT: ', again)
    typed = '<textarea cols="30" id="lines" maxlength="20000" name="lines" required rows="12">'
    assert typed + "\r\n120,-40\n300,x\n</textarea>" in again
    assert 'id="players" maxlength="900" name="players" required size="50" type="text" value="Anna, Bruno"' in again
    assert "club-3" not in [g.game_id for g in ledger.list_games()]
    stored = client.post("/score-sheets", data=fields)
    assert (stored.status_code, stored.headers["Location"]) == (303, "/games/club-3")
    assert [e.type for e in ledger.get_events("club-3")] == [
        "game_started", "hand_dealt", "hand_ended", "hand_dealt", "hand_ended", "game_ended",
    ]  # fmt: skip
    taken = client.post("/score-sheets", data={**fields, "lines": "1,2\n"})
    assert taken.status_code == 409
    assert 'id="score-sheet-error">the score sheet was not stored: game club-3 is already stored</p>' in taken.get_data(
        as_text=True
    )
    assert client.get("/games/club-3").get_data(as_text=True).count(">as claimed<") == 4
    sign_in(elsewhere)  # a new session: a new CSRF token
    fields["csrf_token"] = csrf(client.get("/score-sheets/new").get_data(as_text=True))
    assert client.post("/score-sheets", data={**fields, "game_id": "club-4"}).status_code == 403
    assert "club-4" not in [g.game_id for g in ledger.list_games()]
    ledger.close()


def test_a_penalty_during_a_hand_scored_as_claimed_is_no_all_score_1() -> None:
    head = (gin_start(), GIN_DEAL, *PASSES)
    penalty = '{"type":"penalty_assessed","seat":1,"points":-10,"rule":"ALL-TURN-1","finding":4}'
    turn = '{"type":"card_drawn","seat":0,"card":"??"}'  # out of turn: Bruno (seat 1) is to draw
    claimed = '{"type":"hand_ended","reason":"stalled","claimed":[{"seat":0,"points":12},{"seat":1,"points":0}]}'
    state = fold(lines(*head, turn, penalty, claimed))
    assert [(f.position, f.rule) for f in state.findings] == [(4, "ALL-TURN-1")]
    # Bruno's claim 0 counts his -10 of the hand (as a full record's claim does): his total is 0
    assert state.totals == (12, 0)
    assert [(s.points, s.breakdown) for s in state.results[0].scores] == [
        (12, {"claimed": 12}),
        (10, {"claimed": 0, "penalty_in_claim": 10}),
    ]


def _with(path: str, line: int, change: dict[str, Any], partial: bool = False) -> bytes:
    """A fixture with ``change`` made to the event on file line ``line`` (and ``knowledge`` partial)."""
    rows = (ROOT / "fixtures" / path).read_text().splitlines()
    out = []
    for number, text in enumerate(rows, start=1):
        if number == line:
            text = json.dumps({**json.loads(text), **change}, separators=(",", ":"))
        elif partial and text.startswith('{"type":"game_started"'):
            text = json.dumps({**json.loads(text), "knowledge": "partial"}, separators=(",", ":"))
        out.append(text)
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize(
    ("path", "line", "change", "field"),
    [
        ("burraco/pozzetto_al_volo_con_lo_scarto.jsonl", 6, {"cards": ["??"] * 11}, "cards[0]"),
        ("gin/standard-game.jsonl", 7, {"discard": "??"}, "discard"),
        ("ramino/restock.jsonl", 66, {"cards": ["4C", "??"]}, "cards[1]"),
    ],
)
def test_the_other_fields_that_may_be_unknown_are_rec_format_in_a_full_record(
    path: str, line: int, change: dict[str, Any], field: str
) -> None:
    assert rejected(_with(path, line, change)) == ("REC-FORMAT", line, field)


def test_a_gin_knock_with_a_face_down_unknown_discard_names_the_knockers_hand() -> None:
    runs = (["AS", "2S", "3S"], ["4H", "5H", "6H"], ["7C", "8C", "9C"])
    melds = json.dumps([{"meld": f"k{i}", "cards": c} for i, c in enumerate(runs, 1)], separators=(",", ":"))
    defender = json.dumps(["AH", "2H", "3H", "QS", "QC", "QD", "JD", "10D", "9D", "5S"])
    state = fold(
        lines(
            gin_start(),
            GIN_DEAL,
            *PASSES,
            '{"type":"card_drawn","seat":1,"card":"??"}',
            f'{{"type":"knocked","seat":1,"discard":"??","melds":{melds},"deadwood":["KD"]}}',
            f'{{"type":"cards_shown","seat":0,"cards":{defender}}}',
            '{"type":"hand_ended","reason":"knocked","seat":1}',
        )
    )
    assert state.findings == ()
    assert state.discard == ("5C", "??")  # face down, never named
    assert state.hands[1] == ("KD",)
    assert [(s.side, s.points, s.as_claimed) for s in state.results[0].scores] == [(0, 0, False), (1, 60, False)]
