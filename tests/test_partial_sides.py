"""Partial records scored per side (issue 24; FORMAT.md "Partial records",
RULES.md ALL-SCORE-2): a side whose count depends on unknown cards scores its
``claimed`` points, marked as claimed; every other side is computed from the
cards, and its claim still checked (ALL-SCORE-1); ALL-SCORE-2 names only the
affected sides without a claim. A side whose unknown cards do not count (the
seat that went out, a fixed penalty, a hand that did not end by going out) is
computed, not claimed.

The records are fixtures cut down to what a scorer saw (:func:`ledger.partial.redact`),
with the hands of some seats left unshown (their ``cards_shown`` dropped).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec
from click.testing import Result

from ledger.events import CardsShown, ClaimedScore, Event, HandEnded
from ledger.partial import redact
from ledger.record_files import read_record
from ledger.records import encode_record, parse_record
from ledger.render import render_score
from ledger.replay import replay
from ledger.scoring import score_sheet
from ledger.state import TableState
from replay_web.report import render_html
from replay_web.report_data import build_report

ROOT = Path(__file__).resolve().parent.parent


def scorer_cut(
    path: str, unshown: set[int], claims: Sequence[tuple[ClaimedScore, ...] | None] | None = None
) -> list[Event]:
    """The fixture ``path`` as a scorer recorded it, the hands of the seats
    ``unshown`` never shown; with ``claims``, each ``hand_ended``'s claim in
    turn replaced (None: no claim)."""
    events = read_record(ROOT / "fixtures" / path).events
    cut = [e for e in redact(events, None).events if not (type(e) is CardsShown and e.seat in unshown)]
    if claims is not None:
        ends = [i for i, e in enumerate(cut) if type(e) is HandEnded]
        assert len(ends) == len(claims)
        for i, claim in zip(ends, claims, strict=True):
            cut[i] = msgspec.structs.replace(cut[i], claimed=claim)
    return cut


def hands(state: TableState) -> list[Any]:
    return [h["scores"] for h in score_sheet(state).to_json()["hands"]]


def findings(state: TableState) -> list[tuple[int, int | None, str, str, tuple[Any, ...]]]:
    return [(f.position, f.seat, f.rule, f.msgid, f.params) for f in state.findings]


ALL_SCORE_2 = (
    "hand %(hand)s cannot be scored: the count of %(sides)s depends on unknown cards and no points were claimed"
)
ANNA_555 = {
    "seat": 0,
    "points": 555,
    "breakdown": {
        "melds": 205,
        "burraco_clean": 0,
        "burraco_semi_clean": 150,
        "burraco_dirty": 100,
        "closing": 100,
        "hand": 0,
        "no_pozzetto": 0,
    },
}


# --- Burraco: each side on its own hands ----------------------------------------------------------
def test_burraco_the_side_whose_hand_is_unknown_scores_as_claimed_the_other_from_its_cards() -> None:
    """Anna (seat 0) closes; Bruno's eleven cards are never shown. Anna's 555
    is computed, with its breakdown; Bruno's -185 is his claim, as claimed."""
    claim = (ClaimedScore(seat=0, points=555), ClaimedScore(seat=1, points=-185))
    state = replay(scorer_cut("burraco/semi_clean_and_dirty.jsonl", {1}, [claim]))
    assert state.hands[1] == ("??",) * 11
    assert hands(state) == [[ANNA_555, {"seat": 1, "points": -185, "breakdown": {"claimed": -185}, "as_claimed": True}]]
    assert state.findings == ()
    assert state.totals == (555, -185)


def test_burraco_the_computed_side_keeps_all_score_1_and_the_claimed_one_has_none() -> None:
    claim = (ClaimedScore(seat=0, points=500), ClaimedScore(seat=1, points=40))
    state = replay(scorer_cut("burraco/semi_clean_and_dirty.jsonl", {1}, [claim]))
    assert hands(state) == [[ANNA_555, {"seat": 1, "points": 40, "breakdown": {"claimed": 40}, "as_claimed": True}]]
    assert [(f.position, f.seat, f.rule, f.message) for f in state.findings] == [
        (
            14,
            0,
            "ALL-SCORE-1",
            "hand 1: claimed 500 for Anna, computed 555 (difference -55); computed as melds +205, "
            "burraco_semi_clean +150, burraco_dirty +100, closing +100",
        )
    ]


def test_burraco_an_unclaimed_unknown_side_is_all_score_2_naming_it_alone() -> None:
    """No claim for Bruno: ALL-SCORE-2 names Bruno only, Anna is still scored."""
    state = replay(scorer_cut("burraco/semi_clean_and_dirty.jsonl", {1}, [(ClaimedScore(seat=0, points=555),)]))
    assert findings(state) == [(14, None, "ALL-SCORE-2", ALL_SCORE_2, (1, ("Bruno",)))]
    assert state.findings[0].message == (
        "hand 1 cannot be scored: the count of Bruno depends on unknown cards and no points were claimed"
    )
    assert hands(state) == [[ANNA_555, {"seat": 1, "points": 0, "breakdown": {}, "unscored": True}]]
    assert state.totals == (555, 0)
    bare = replay(scorer_cut("burraco/semi_clean_and_dirty.jsonl", {1}, [None]))  # no claim at all
    assert findings(bare) == findings(state) and hands(bare) == hands(state)


def test_burraco_partnership_a_team_whose_hands_are_shown_is_computed() -> None:
    """Four players: Carla's last 10♠ is shown, Bruno's and Dario's hands are
    not. Team 0 is computed (hand -10), team 1 takes the fixture's claim."""
    state = replay(scorer_cut("burraco/four_player_partnership.jsonl", {1, 3}))
    assert hands(state) == [
        [
            {
                "team": 0,
                "points": 770,
                "breakdown": {
                    "melds": 330,
                    "burraco_clean": 200,
                    "burraco_semi_clean": 150,
                    "burraco_dirty": 0,
                    "closing": 100,
                    "hand": -10,
                    "no_pozzetto": 0,
                },
            },
            {"team": 1, "points": -170, "breakdown": {"claimed": -170}, "as_claimed": True},
        ]
    ]
    assert state.findings == ()
    only_dario = replay(scorer_cut("burraco/four_player_partnership.jsonl", {3}))  # Bruno shown, his partner not
    assert hands(only_dario) == hands(state)


def test_score_json_marks_as_claimed_only_the_affected_side(run: Callable[..., Result], tmp_path: Path) -> None:
    claim = (ClaimedScore(seat=0, points=555), ClaimedScore(seat=1, points=-185))
    path = tmp_path / "cut.jsonl"
    path.write_bytes(encode_record(scorer_cut("burraco/semi_clean_and_dirty.jsonl", {1}, [claim])))
    done = run("score", "--json", str(path))
    assert done.exit_code == 0, done.output
    scored = json.loads(done.stdout)
    bruno = {"seat": 1, "points": -185, "breakdown": {"claimed": -185}, "as_claimed": True}
    assert scored["hands"] == [{"hand": 1, "scores": [ANNA_555, bruno]}]
    assert scored["totals"] == [{"seat": 0, "points": 555}, {"seat": 1, "points": -185}]


# --- Scala 40, Ramino 51: only a loser whose cards count ------------------------------------------------
def test_scala40_the_seat_that_went_out_and_a_fixed_penalty_are_not_claimed() -> None:
    """No hand is shown. Hand 1: Anna went out (0, computed), Bruno's cards
    count (68, as claimed), Carla never opened (100, the fixed penalty,
    computed). Hand 2: Carla is out of the game; Bruno never opened and Anna
    went out at once: 100 doubled, computed from no card at all."""
    state = replay(scorer_cut("scala40/elimination.jsonl", {0, 1, 2}))
    assert state.findings == ()
    assert hands(state) == [
        [
            {"seat": 0, "points": 0, "breakdown": {}},
            {"seat": 1, "points": 68, "breakdown": {"claimed": 68}, "as_claimed": True},
            {"seat": 2, "points": 100, "breakdown": {"unopened": 100}},
        ],
        [
            {"seat": 0, "points": 0, "breakdown": {}},
            {"seat": 1, "points": 200, "breakdown": {"unopened": 100, "chiusura_in_mano": 100}},
            {"seat": 2, "points": 0, "breakdown": {}},
        ],
    ]
    assert state.totals == (0, 268, 100)


def test_scala40_a_fixed_penalty_is_checked_against_its_claim() -> None:
    claims = [
        (ClaimedScore(seat=0, points=0), ClaimedScore(seat=1, points=68), ClaimedScore(seat=2, points=90)),
        None,
    ]
    state = replay(scorer_cut("scala40/elimination.jsonl", {0, 1, 2}, claims))
    assert [(f.position, f.seat, f.rule, f.message) for f in state.findings] == [
        (16, 2, "ALL-SCORE-1", "hand 1: claimed 90 for Carla, computed 100 (difference -10); computed as unopened +100")
    ]


def test_scala40_a_hand_that_did_not_end_by_going_out_counts_no_card() -> None:
    """Stalled: every seat scores 0 whatever it holds, so nothing is claimed
    and a claim of points is ALL-SCORE-1."""
    claim = (ClaimedScore(seat=0, points=0), ClaimedScore(seat=1, points=15))
    state = replay(scorer_cut("scala40/jolly_swap.jsonl", {0, 1}, [claim]))
    assert "??" in state.hands[1]
    assert hands(state) == [[{"seat": 0, "points": 0, "breakdown": {}}, {"seat": 1, "points": 0, "breakdown": {}}]]
    assert [(f.seat, f.rule, f.message) for f in state.findings if f.rule.startswith("ALL-SCORE")] == [
        (1, "ALL-SCORE-1", "hand 1: claimed 15 for Bruno, computed 0 (difference +15)")
    ]


def test_ramino51_all_at_once_and_unopened_are_fixed_penalties() -> None:
    state = replay(scorer_cut("ramino51/elimination.jsonl", {0, 1, 2}))
    assert state.findings == ()
    assert hands(state) == [
        [
            {"seat": 0, "points": 0, "breakdown": {}},
            {"seat": 1, "points": 78, "breakdown": {"claimed": 78}, "as_claimed": True},
            {"seat": 2, "points": 100, "breakdown": {"unopened": 100}},
        ],
        [
            {"seat": 0, "points": 0, "breakdown": {}},
            {"seat": 1, "points": 200, "breakdown": {"all_at_once": 200}},
            {"seat": 2, "points": 200, "breakdown": {"all_at_once": 200}},
        ],
    ]


# --- Ramino: the winner collects the others' hands ------------------------------------------------------
def test_ramino_the_winner_collecting_an_unknown_hand_is_claimed_the_loser_computed() -> None:
    claim = (ClaimedScore(seat=0, points=112), ClaimedScore(seat=1, points=0))
    state = replay(scorer_cut("ramino/in-mano.jsonl", {0, 1}, [claim]))
    assert hands(state) == [
        [
            {"seat": 0, "points": 112, "breakdown": {"claimed": 112}, "as_claimed": True},
            {"seat": 1, "points": 0, "breakdown": {}},
        ]
    ]
    assert state.findings == ()
    unclaimed = replay(scorer_cut("ramino/in-mano.jsonl", {0, 1}, [(ClaimedScore(seat=1, points=0),)]))
    assert findings(unclaimed)[0] == (7, None, "ALL-SCORE-2", ALL_SCORE_2, (1, ("Anna",)))
    # no ALL-SCORE-1 for the final totals' 112: Anna's total holds an unscored hand (no cascade)
    assert [f.rule for f in unclaimed.findings] == ["ALL-SCORE-2"]


# --- when the going out is not shown: every side -----------------------------------------------------------
def test_a_score_only_hand_is_claimed_for_every_side() -> None:
    """A score-only game (``went_out`` naming no seat): who went out is
    unknown, so every side's count depends on the unknown cards."""
    from ledger.score_only import score_only_game

    state = replay(score_only_game("club-1", "scala40", ["Anna", "Bruno", "Carla"], [(0, 35, 100)]))
    assert [(s.points, s.as_claimed) for s in state.results[0].scores] == [(0, True), (35, True), (100, True)]
    assert state.findings == ()


# --- Gin: one count of both hands -------------------------------------------------------------------------
def test_gin_a_knock_against_an_unknown_hand_is_claimed_for_both_seats() -> None:
    """Bruno knocks (deadwood K♦) and Anna's hand is never shown: the deadwood
    difference is one count of both hands, so both seats score as claimed
    (FORMAT.md); without a claim ALL-SCORE-2 names both."""
    unknown = json.dumps(["??"] * 10)
    runs = (["AS", "2S", "3S"], ["4H", "5H", "6H"], ["7C", "8C", "9C"])
    melds = json.dumps([{"meld": f"k{i}", "cards": c} for i, c in enumerate(runs, 1)], separators=(",", ":"))
    head = [
        '{"type":"game_started","format":"rummy-ledger/1","game_id":"p-gin","variant":"gin","ruleset":"openspiel",'
        '"players":[{"seat":0,"name":"Anna"},{"seat":1,"name":"Bruno"}],"knowledge":"partial"}',
        f'{{"type":"hand_dealt","hand":1,"dealer":0,"hands":[{unknown},{unknown}],"discard":["5C"]}}',
        '{"type":"upcard_passed","seat":1}',
        '{"type":"upcard_passed","seat":0}',
        '{"type":"card_drawn","seat":1,"card":"??"}',
        f'{{"type":"knocked","seat":1,"discard":"QD","melds":{melds},"deadwood":["KD"]}}',
    ]

    def fold(end: str) -> TableState:
        return replay(parse_record("".join(x + "\n" for x in (*head, end)).encode()).events)

    claimed = fold(
        '{"type":"hand_ended","reason":"knocked","seat":1,"claimed":[{"seat":0,"points":0},{"seat":1,"points":30}]}'
    )
    assert hands(claimed) == [
        [
            {"seat": 0, "points": 0, "breakdown": {"claimed": 0}, "as_claimed": True},
            {"seat": 1, "points": 30, "breakdown": {"claimed": 30}, "as_claimed": True},
        ]
    ]
    assert claimed.findings == ()
    bare = fold('{"type":"hand_ended","reason":"knocked","seat":1}')
    assert findings(bare) == [(6, None, "ALL-SCORE-2", ALL_SCORE_2, (1, ("Anna", "Bruno")))]


# --- a claim counts the side's penalties of the hand, as in a full record (issue 24, tester's bug 1) ---------
def dispute_without_brunos_hand() -> list[Event]:
    """The README's dispute cut for the scorer, Bruno's hand never shown: his
    claim -235 counts the referee's -50 of the hand (the full record's
    ALL-SCORE-1 check reads it so, and accepts it)."""
    return scorer_cut("burraco/dispute.jsonl", {1})


def test_an_as_claimed_side_totals_its_claim_the_penalty_counted_once() -> None:
    full = replay(read_record(ROOT / "fixtures" / "burraco" / "dispute.jsonl").events)
    state = replay(dispute_without_brunos_hand())
    assert state.totals == full.totals == (-70, -235)
    bruno = {
        "seat": 1,
        "points": -235,
        "breakdown": {"claimed": -235, "penalty_in_claim": 50, "penalty": -50},
        "as_claimed": True,
    }
    assert hands(state)[0][1] == bruno
    # as played, Bruno's -185 is the full record's: his claim less the penalty it counts
    assert score_sheet(state, adjudicated=False).totals == score_sheet(full, adjudicated=False).totals == (-70, -185)
    assert [f.rule for f in state.findings if f.rule.startswith("ALL-SCORE")] == ["ALL-SCORE-1"]  # Anna's 0 only
    lines = render_score(score_sheet(state), state, score_sheet(state, adjudicated=False)).splitlines()
    assert lines[3] == (
        "  Bruno   -235   total   -235   claimed -235, penalty_in_claim +50, penalty -50"
        "  [as claimed: the count depends on unknown cards]"
    )


def test_the_report_says_an_as_claimed_side_is_taken_as_claimed_not_verified() -> None:
    """Not "The claim agrees with the computed score. Computed as: claimed
    +68", nor "the referee's rulings make the difference": nothing was
    computed for Bruno."""
    claims = build_report(dispute_without_brunos_hand(), lang="en")["claims"]
    assert [
        (c["side"], c["claimed"], c["computed"], c["difference"], c["differs"], c["breakdown"]) for c in claims
    ] == [
        ("Anna", 0, -70, "+70", True, "melds +55, cards in hand −25, no pozzetto −100"),
        ("Bruno", -235, None, None, False, ""),
    ]
    assert claims[1]["explanation"] == (
        "The count depends on unknown cards: the score is taken as claimed, not computed. "
        "It includes the referee's rulings: penalty −50 at position 10 (BUR-TURN-1)."
    )
    italian = build_report(dispute_without_brunos_hand(), lang="it")["claims"][1]["explanation"]
    assert italian.startswith("Il conto dipende da carte sconosciute: il punteggio è preso come dichiarato")
    page = render_html(build_report(dispute_without_brunos_hand(), lang="en"))
    assert "taken as claimed, not computed." in page and "Computed as: claimed" not in page


# --- a named seat that went out holds nothing (tester's bug 2) ---------------------------------------------
def named_winner(variant: str, players: list[str], claim: tuple[int, ...]) -> TableState:
    """A score-only hand whose ``went_out`` names Anna (seat 0), every hand dealt ``??``."""
    from ledger.score_only import score_only_game

    events = list(score_only_game("club-1", variant, players, [claim]))
    end = next(i for i, e in enumerate(events) if type(e) is HandEnded)
    events[end] = msgspec.structs.replace(events[end], seat=0)
    return replay(events)


def test_scala40_and_ramino51_a_named_winner_scores_0_computed_and_its_claim_is_checked() -> None:
    for variant in ("scala40", "ramino51"):
        state = named_winner(variant, ["Anna", "Bruno"], (7, 40))
        assert state.hands[0] == ()
        assert hands(state) == [
            [{"seat": 0, "points": 0, "breakdown": {}}, {"seat": 1, "points": 100, "breakdown": {"unopened": 100}}]
        ], variant
        assert [(f.seat, f.rule, f.message) for f in state.findings] == [
            (0, "ALL-SCORE-1", "hand 1: claimed 7 for Anna, computed 0 (difference +7)"),
            (
                1,
                "ALL-SCORE-1",
                "hand 1: claimed 40 for Bruno, computed 100 (difference -60); computed as unopened +100",
            ),
        ], variant


def test_burraco_a_named_seat_that_went_out_holds_nothing_its_partners_hand_may_still_be_unknown() -> None:
    alone = named_winner("burraco", ["Anna", "Bruno"], (7, 40))
    assert hands(alone)[0] == [
        {
            "seat": 0,
            "points": -100,
            "breakdown": {
                "melds": 0,
                "burraco_clean": 0,
                "burraco_semi_clean": 0,
                "burraco_dirty": 0,
                "closing": 0,
                "hand": 0,
                "no_pozzetto": -100,
            },
        },
        {"seat": 1, "points": 40, "breakdown": {"claimed": 40}, "as_claimed": True},
    ]
    assert [(f.seat, f.rule) for f in alone.findings] == [(0, "ALL-SCORE-1")]
    pairs = named_winner("burraco", ["Anna", "Bruno", "Carla", "Dario"], (7, 40))  # Carla's hand is unknown
    assert [(s.points, s.as_claimed) for s in pairs.results[0].scores] == [(7, True), (40, True)]
    assert pairs.findings == ()


# --- an unscored side is marked as such everywhere (tester's bug 3) ---------------------------------------
def dispute_bruno_unscored() -> list[Event]:
    """Bruno's hand never shown and his claim dropped: ALL-SCORE-2 for him."""
    return scorer_cut("burraco/dispute.jsonl", {1}, [(ClaimedScore(seat=0, points=0),)])


def test_an_unscored_side_is_marked_in_score_json_and_on_the_sheet(run: Callable[..., Result], tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(encode_record(dispute_bruno_unscored()))
    done = run("score", "--json", str(path))
    assert done.exit_code == 0, done.output
    scores = json.loads(done.stdout)["hands"][0]["scores"]
    assert scores[1] == {"seat": 1, "points": -50, "breakdown": {"penalty": -50}, "unscored": True}
    assert "unscored" not in scores[0]
    sheet = run("score", str(path))
    assert (
        "  Bruno    -50   total    -50   penalty -50"
        "  [unscored: the count depends on unknown cards and nothing was claimed]" in sheet.stdout
    )
    italian = run("--lang", "it", "score", str(path))
    assert "[non conteggiata: il conto dipende da carte sconosciute e non è stato dichiarato nulla]" in italian.stdout


def test_an_unscored_side_is_marked_in_the_viewer_and_the_report(web_client: Callable[..., Any]) -> None:
    cut = dispute_bruno_unscored()
    client = web_client(cut)
    page = client.get("/games/bur-dispute").get_data(as_text=True)
    assert page.count('<div class="claimed unscored"') == 1
    assert ">unscored</div>" in page
    api = client.get("/api/games/bur-dispute/score").get_json()  # the score --json object
    assert api["hands"][0]["scores"][1] == {"seat": 1, "points": -50, "breakdown": {"penalty": -50}, "unscored": True}
    report = client.get("/games/bur-dispute/report").get_data(as_text=True)
    assert report.count("unscored (the count depends on unknown cards and nothing was claimed)") == 1
    cells = build_report(cut, lang="en")["score"]["hands"][0]["cells"]
    assert [(c["points"], c["as_claimed"], c["unscored"]) for c in cells] == [(-70, False, False), (-50, False, True)]
    italian = build_report(cut, lang="it")
    assert "non conteggiata (il conto dipende" in render_html(italian)


# --- the final totals' check (tester's "confusing for a referee" items) ------------------------------------
def test_a_side_whose_total_holds_an_unscored_hand_has_no_final_totals_check() -> None:
    """Bruno's 68 of hand 1 is unscored (ALL-SCORE-2): the final totals'
    claimed 268 for him is not compared with a total that lacks it (it was
    "final totals: claimed 268 for Bruno, computed 200"); Anna and Carla are."""
    state = replay(scorer_cut("scala40/elimination.jsonl", {0, 1, 2}, [(ClaimedScore(seat=0, points=0),), None]))
    assert findings(state) == [(16, None, "ALL-SCORE-2", ALL_SCORE_2, (1, ("Bruno",)))]
    assert state.totals == (0, 200, 100)
    end = len(state.findings)
    events = scorer_cut("scala40/elimination.jsonl", {0, 1, 2}, [(ClaimedScore(seat=0, points=0),), None])
    last = events[-1]
    claims = (ClaimedScore(seat=0, points=5), ClaimedScore(seat=1, points=268), ClaimedScore(seat=2, points=100))
    wrong = replay([*events[:-1], msgspec.structs.replace(last, claimed=claims)])
    assert [(f.seat, f.rule, f.message) for f in wrong.findings[end:]] == [
        (0, "ALL-SCORE-1", "final totals: claimed 5 for Anna, computed 0 (difference +5)")
    ]


def test_the_final_totals_message_explains_the_total_not_the_last_hand() -> None:
    """A full record: the final totals claimed without Bruno's -50 penalty.
    The message said "computed as hand -85, no_pozzetto -100" (the last
    hand's breakdown); the total is its hands and its penalties."""
    events = list(read_record(ROOT / "fixtures" / "burraco" / "dispute.jsonl").events)
    claims = (ClaimedScore(seat=0, points=-70), ClaimedScore(seat=1, points=-185))
    state = replay([*events[:-1], msgspec.structs.replace(events[-1], claimed=claims)])
    final = state.findings[-1]
    assert (final.position, final.seat, final.rule) == (18, 1, "ALL-SCORE-1")
    assert final.message == (
        "final totals: claimed -185 for Bruno, computed -235 (difference +50); computed as hands -185, penalties -50"
    )
    from ledger.i18n import translations

    assert final.text(translations("it")) == (
        "totali finali: dichiarati -185 per Bruno, calcolati -235 (differenza +50); calcolo: smazzate -185, "
        "penalità -50"
    )
