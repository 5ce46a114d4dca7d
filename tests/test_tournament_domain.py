"""The tournament's pure domain (TOURNAMENT.md): the record's reader and refusals, the fold,
VP tables, standings and their JSON shape."""

from __future__ import annotations

import json

import pytest

from ledger.errors import RecordError
from ledger.events import encode_event
from ledger.testing.tournaments import Builder, game_result, started
from ledger.tournament.events import RoundClosed, RoundPaired, Scoring, Table, VpAdjusted
from ledger.tournament.records import parse_tournament
from ledger.tournament.standings import standings
from ledger.tournament.state import fold
from ledger.tournament.vp import score_round, vp_of, vp_table

HEAD = (
    '{"type":"tournament_started","format":"rummy-ledger/1","tournament_id":"club","name":"Club night",'
    '"hands_per_match":4,"scoring":{"kind":"vp","table":"fibur-4"},"movement":"danese"}'
)


def text(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def test_a_record_reads_and_folds() -> None:
    rec = parse_tournament(
        text(
            HEAD,
            '{"type":"entrant_registered","entrant":"p1","players":["Anna","Carla"]}',
            "// a comment",
            '{"type":"entrant_registered","entrant":"p2","players":["Bruno","Dario"]}',
            '{"type":"round_paired","round":1,"tables":[{"table":1,"entrants":["p1","p2"],"game_id":"club-r1-t1"}]}',
        )
    )
    assert rec.lines == (1, 2, 4, 5)
    assert list(rec.state.entrants) == ["p1", "p2"]
    assert rec.state.games == {"club-r1-t1": (1, 1)}
    assert encode_event(rec.events[0]).decode() == HEAD


@pytest.mark.parametrize(
    ("lines", "where"),
    [
        (['{"type":"entrant_registered","entrant":"p1","players":["A"]}'], "line 1: type: REC-ORDER: a tournament"),
        ([HEAD, '{"type":"entrant_registered","entrant":"p 1","players":["A"]}'], "line 2: entrant: REC-FORMAT: value"),
        (
            [HEAD, '{"type":"entrant_registered","entrant":"p1","players":["A"],"x":1}'],
            "line 2: x: REC-FORMAT: unknown",
        ),
        ([HEAD, '{"type":"card_drawn","seat":0,"card":"6H"}'], "line 2: type: REC-FORMAT: unknown event type"),
        ([HEAD, '{"type":"entrant_withdrawn","entrant":"p9","reason":"ill"}'], "line 2: entrant: REC-REF: no entrant"),
        ([HEAD, '{"type":"round_closed","round":1}'], "line 2: round: REC-ORDER: round 1 is not paired"),
        ([HEAD, '{"type":"round_paired","round":2,"tables":[]}'], "line 2: round: REC-ORDER: round 2 paired after"),
        (
            [
                HEAD,
                '{"type":"entrant_registered","entrant":"p1","players":["A"]}',
                '{"type":"round_paired","round":1,"tables":[{"table":1,"entrants":["p1","p2"],"game_id":"g"}]}',
            ],
            "line 3: tables[0].entrants[1]: REC-REF: no entrant 'p2'",
        ),
        ([HEAD, '{"type":"tournament_ended","reason":"abandoned"}', HEAD], "line 3: type: REC-ORDER"),
        (
            [HEAD.replace('"movement":"danese"', '"movement":"danese","movement":"swiss"')],
            "line 1: movement: REC-FORMAT",
        ),
    ],
)
def test_refusals_name_line_field_and_rule(lines: list[str], where: str) -> None:
    with pytest.raises(RecordError) as exc:
        parse_tournament(text(*lines))
    assert exc.value.describe().startswith(where), exc.value.describe()


def test_scoring_must_be_one_kind() -> None:
    bad = HEAD.replace('"table":"fibur-4"', '"table":"fibur-4","win":2')
    with pytest.raises(RecordError, match="kind vp has no win"):
        parse_tournament(text(bad))


def test_fibur_tables_as_published() -> None:
    four, three = vp_table("fibur-4"), vp_table("fibur-3")
    assert [vp_of(four, d, 0) for d in (0, 100, 105, 300, 305, 1100, 1700, 1705, 2000, 2005, 9000)] == [
        (10, 10), (10, 10), (11, 9), (11, 9), (12, 8), (15, 5), (18, 2), (19, 1), (19, 1), (20, 0), (20, 0)
    ]  # fmt: skip
    assert vp_of(three, 0, 55) == (9, 11) and vp_of(three, 52, 0) == (10, 10) and vp_of(three, 1505, 0) == (20, 0)
    assert vp_of(four, -200, -50) == (11, 9)[::-1]


def test_match_and_inline_scoring() -> None:
    match = Scoring(kind="match", win=2, draw=1, loss=0)
    assert [score_round(match, a, b) for a, b in ((5, 0), (0, 0), (0, 5))] == [(2, 0), (1, 1), (0, 2)]
    rec = parse_tournament(
        text(
            HEAD.replace(
                '"table":"fibur-4"',
                '"bands":[{"from":0,"to":9,"winner":1.5,"loser":1.5},{"from":10,"winner":3,"loser":0}]',
            )
        )
    )
    assert score_round(rec.state.started.scoring, 10, 0) == (3, 0)
    assert score_round(rec.state.started.scoring, 3, 0) == (1.5, 1.5)


def _four(movement: str = "danese", **more: object) -> Builder:
    b = Builder(started("t", movement, 3, **more))
    for e in ("p1", "p2", "p3", "p4", "p5"):
        b.register(e)
    return b


def test_standings_vp_bye_shared_places_and_json() -> None:
    b = _four()
    b.add(
        RoundPaired(
            round=1,
            tables=(
                Table(table=1, entrants=("p1", "p2"), game_id="g1"),
                Table(table=2, entrants=("p3", "p4"), game_id="g2"),
            ),
            bye="p5",
        )
    )
    for t, mp in zip(b.state.rounds[1].tables, ((1500, 990), (990, 1500))):
        b.results[t.game_id] = game_result(b.state, 1, t, mp)
    s = standings(b.state, b.results)
    # 510 MP: band 505-700, 13-7; p1 and p4 equal on vp, mp_diff, mp: place 1 shared, listed by id
    assert [(ln.place, ln.entrant, ln.vp, ln.mp_diff, ln.mp) for ln in s.lines] == [
        (1, "p1", 13, 510, 1500),
        (1, "p4", 13, 510, 1500),
        (3, "p5", 12, 0, 0),
        (4, "p2", 7, -510, 990),
        (4, "p3", 7, -510, 990),
    ]
    doc = s.to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["after_round"] == 1 and doc["tournament_id"] == "t"
    assert doc["standings"][2] == {
        "place": 3, "entrant": "p5", "vp": 12, "mp_diff": 0, "mp": 0,
        "rounds": [{"round": 1, "opponent": None, "game_id": None, "mp": 0, "mp_against": 0, "vp": 12}],
    }  # fmt: skip
    assert doc["standings"][0]["rounds"] == [
        {"round": 1, "opponent": "p2", "game_id": "g1", "mp": 1500, "mp_against": 990, "vp": 13}
    ]


def test_unfinished_game_is_playing_and_adjustments_count() -> None:
    b = _four(bye_vp=10, tiebreak=("vp", "mp"))
    b.add(RoundPaired(round=1, tables=(Table(table=1, entrants=("p1", "p2"), game_id="g1"),), bye="p5"))
    b.add(VpAdjusted(entrant="p3", vp=-1.5, rule="TOUR-WARN-2", round=1))
    s = standings(b.state, {})
    assert s.to_json()["standings"][0]["entrant"] == "p5" and s.lines[0].vp == 10
    p1 = next(ln for ln in s.to_json()["standings"] if ln["entrant"] == "p1")
    assert p1["rounds"] == [
        {"round": 1, "opponent": "p2", "game_id": "g1", "mp": 0, "mp_against": 0, "vp": 0, "playing": True}
    ]
    assert p1["vp"] == 0 and next(ln for ln in s.lines if ln.entrant == "p3").vp == -1.5
    assert standings(b.state, {}, after_round=0).lines[0].vp == 0  # before round 1: nothing counted


def test_state_at_a_position() -> None:
    b = _four()
    b.add(RoundPaired(round=1, tables=(Table(table=1, entrants=("p1", "p2"), game_id="g1"),), bye="p5"))
    b.add(RoundClosed(round=1))
    assert fold(b.events, upto=3).entrants.keys() == {"p1", "p2", "p3"}
    assert fold(b.events, upto=6).rounds[1].closed_at is None
    assert fold(b.events).closed_rounds == [1]


def test_schema_accepts_a_tournament_and_refuses_unknown_fields() -> None:
    import random

    import jsonschema

    from ledger import schema
    from ledger.testing.tournaments import random_tournament

    assert schema.check_schemas() == []
    document = json.loads((schema.default_dir() / schema.TOURNAMENT_FILE).read_text())
    jsonschema.Draft202012Validator.check_schema(document)
    validator = jsonschema.Draft202012Validator(document)
    for e in random_tournament(random.Random(3)).events:
        validator.validate(json.loads(encode_event(e)))
    bad = {"type": "entrant_withdrawn", "entrant": "p1", "reason": "ill", "colour": "red"}
    assert not validator.is_valid(bad)
    assert not validator.is_valid({"type": "entrant_registered", "entrant": "p 1", "players": ["A"]})


def test_hostile_lines_are_refusals_not_crashes() -> None:
    deep = HEAD[:-1] + ',"meta":{"site":' + "[" * 5000 + "]" * 5000 + "}}"
    with pytest.raises(RecordError) as exc:
        parse_tournament(text(deep))
    assert exc.value.describe() == "line 1: meta.site: REC-FORMAT: Expected `str | null`, got `array`"
    poker = HEAD.replace('"movement":"danese"', '"movement":"danese","variant":"poker"')
    with pytest.raises(RecordError, match="line 1: variant: REC-FORMAT: unknown value 'poker'"):
        parse_tournament(text(poker))
    with pytest.raises(RecordError, match="line 1: REC-FORMAT: the line is longer than"):
        parse_tournament(text(HEAD[:-1] + ',"note":"' + "x" * 300_000 + '"}'))
    with pytest.raises(RecordError, match=r"line 1: note: REC-FORMAT: Expected `str` of length <= 2000"):
        parse_tournament(text(HEAD[:-1] + ',"note":"' + "x" * 3000 + '"}'))
    twice = HEAD.replace('"movement":"danese"', '"movement":"danese"').replace(
        '"name":"Club night"', '"name":"A","name":"B"'
    )
    with pytest.raises(RecordError, match="line 1: name: REC-FORMAT: field 'name' written twice"):
        parse_tournament(text(twice))
    with pytest.raises(RecordError, match=r"line 1: REC-FORMAT: malformed JSON \(JSON is malformed: invalid character"):
        parse_tournament(b"\xff\xfe\n")
