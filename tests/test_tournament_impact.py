"""What a ruling does to a tournament (issue 25): MP, VP, places and band edges, from pure values."""

from __future__ import annotations

import msgspec

from ledger.i18n import translations
from ledger.testing.tournaments import Builder, game_result, started
from ledger.tournament.events import RoundPaired, Table
from ledger.tournament.impact import FROM_PLACE, TO_PLACE, Message, ordinal, place, read_with_a_vowel, ruling_impact


def _club() -> Builder:
    """6 pairs, round 1: p1 v p2 1300–1000 (11–9), p3 v p4 1400–1000 (12–8), p5 v p6 1000–1000 (10–10)."""
    b = Builder(started("club", "danese"))
    for i in range(1, 7):
        b.register(f"p{i}")
    tables = tuple(Table(table=t, entrants=(f"p{2 * t - 1}", f"p{2 * t}"), game_id=f"club-r1-t{t}") for t in (1, 2, 3))
    b.add(RoundPaired(round=1, tables=tables))
    for t, mp in zip(tables, ((1300, 1000), (1400, 1000), (1000, 1000))):
        b.results[t.game_id] = game_result(b.state, 1, t, mp)
    return b


def test_a_penalty_that_moves_two_pairs() -> None:
    b = _club()
    before = b.results["club-r1-t1"]
    after = game_result(b.state, 1, b.state.rounds[1].tables[0], (900, 1000))  # p1's side: -400
    impact = ruling_impact(b.state, b.results, before, after)
    assert impact is not None
    assert (impact.round, impact.table, impact.entrants) == (1, 1, ("p1", "p2"))
    assert (impact.mp_before, impact.mp_after) == ((1300, 1000), (900, 1000))
    assert (impact.vp_before, impact.vp_after) == ((11, 9), (10, 10))
    assert [(m.entrant, m.before, m.after) for m in impact.moves] == [("p1", 2, 5), ("p2", 5, 2)]
    assert [(e.entrant, e.mp, e.vp, e.now) for e in impact.edges] == [("p2", 5, (9, 11), (10, 10))]
    assert [m.english for m in impact.messages()] == [
        "club round 1, table 1 (p1 v p2): MP 1300–1000, now 900–1000",
        "VP p1 v p2: 11–9, now 10–10",
        "Pair p1 from 2nd to 5th",
        "Pair p2 from 5th to 2nd",
        "5 MP more for p2 would be 9–11, not 10–10",
    ]
    it = translations("it")
    assert [m.text(it) for m in impact.messages()] == [
        "club turno 1, tavolo 1 (p1 contro p2): MP 1300–1000, ora 900–1000",
        "PV p1 contro p2: 11–9, ora 10–10",
        "Coppia p1 dal 2° al 5° posto",
        "Coppia p2 dal 5° al 2° posto",
        "5 MP in più per p2 darebbero 9–11, non 10–10",
    ]
    assert impact.to_json()["moves"] == [
        {"entrant": "p1", "before": 2, "after": 5},
        {"entrant": "p2", "before": 5, "after": 2},
    ]


def test_a_ruling_that_moves_nobody_and_the_band_edge_it_leaves() -> None:
    """Legal twin: 11–9 stays 11–9 and no place changes; 1300–1000 is a difference of 300, the top
    of fibur-4's 11–9 band, so 5 MP more for p1 (305) would be 12–8; 1250–1000 is at no edge."""
    b = _club()
    before = b.results["club-r1-t1"]
    after = game_result(b.state, 1, b.state.rounds[1].tables[0], (1300, 1000))
    impact = ruling_impact(b.state, b.results, before, after)
    assert impact is not None and impact.moves == ()
    assert [m.english for m in impact.messages()][1:] == [
        "VP p1 v p2: 11–9, unchanged",
        "no place in the standings changed",
        "5 MP more for p1 would be 12–8, not 11–9",
    ]
    far = game_result(b.state, 1, b.state.rounds[1].tables[0], (1250, 1000))
    assert ruling_impact(b.state, b.results, before, far).edges == ()  # type: ignore[union-attr]


def test_a_ruling_during_the_game_and_a_game_of_no_round() -> None:
    b = _club()
    t = b.state.rounds[1].tables[0]
    playing = msgspec.structs.replace(game_result(b.state, 1, t, (300, 200)), finished=False)
    ruled = msgspec.structs.replace(playing, totals=(200, 200))
    impact = ruling_impact(b.state, b.results, playing, ruled)
    assert impact is not None and impact.vp_before is None and impact.vp_after is None
    assert impact.messages()[1].english == "the game is playing: it gives no VP yet"
    assert impact.moves == () and impact.edges == ()
    other = msgspec.structs.replace(playing, game_id="x")
    assert ruling_impact(b.state, b.results, other, other) is None


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
        "111th",
    ]
    assert ordinal(11, translations("it")) == "11°"


def test_an_italian_place_read_with_a_vowel_elides_its_article() -> None:
    it = translations("it")
    numbers = (1, 2, 8, 11, 18, 80, 88, 89, 90, 111, 800, 899, 1000, 8000, 11000, 18000)
    assert [n for n in numbers if read_with_a_vowel(n)] == [8, 11, 80, 88, 89, 800, 899, 8000, 11000]
    assert [place(n, FROM_PLACE, it) for n in (1, 8, 11, 18, 80)] == [
        "dal 1°",
        "dall'8°",
        "dall'11°",
        "dal 18°",
        "dall'80°",
    ]
    assert [place(n, TO_PLACE, it) for n in (3, 8, 11)] == ["al 3°", "all'8°", "all'11°"]
    assert [place(n, FROM_PLACE) for n in (8, 11)] == ["from 8th", "from 11th"]  # English: no elision
    moved = Message(
        "Pair %(entrant)s %(before)s %(after)s",
        {"entrant": "p7", "before": 8, "after": 11},
        {"before": FROM_PLACE, "after": TO_PLACE},
    )
    assert moved.english == "Pair p7 from 8th to 11th"
    assert moved.text(it) == "Coppia p7 dall'8° all'11° posto"
