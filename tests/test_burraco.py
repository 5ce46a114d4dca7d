"""Burraco rules: every BUR-* rule id triggered, and its legal case next to it,
with the exact findings (RULES.md, "Burraco")."""

from __future__ import annotations

from ledger.testing.records import (
    burraco_started,
    discard,
    draw,
    extend,
    findings,
    hand_ended,
    meld,
    pozzetto,
    replayed,
    restored,
    stacked_deal,
    take,
)

ANNA = ["3H", "4H", "5H", "6H", "7C", "7D", "7S", "2C", "2D", "2H", "JK"]
BRUNO = ["4C", "4D", "9S", "9D", "JD", "JH", "QD", "QH", "6C", "6D", "8C"]


def game(
    *moves,
    anna=ANNA,
    bruno=BRUNO,
    stock=("KS", "KD", "KC", "5S"),
    discard=("10C",),
    ruleset="fibur",
    options=None,
    pozzetti=None,
):
    """Two players, Anna (seat 0) first: game_started is position 0,
    hand_dealt position 1, ``moves`` from position 2."""
    jokers = 2 if ruleset == "seed" else 4
    return [
        burraco_started(2, ruleset, options),
        stacked_deal(
            [list(anna), list(bruno)], up=list(discard), stock_top=list(stock), jokers=jokers, pozzetti=pozzetti
        ),
    ] + list(moves)


# --- BUR-TURN-1 -------------------------------------------------------------------
def test_BUR_TURN_1_layoff_on_the_other_sides_meld():
    bruno = ["4C", "4D", "9S", "9D", "JD", "JH", "QD", "QH", "6C", "6D", "2S"]
    s = replayed(
        game(
            draw(0, "KS"),
            meld(0, "a", ["3H", "4H", "5H"]),
            discard(0, "KS"),
            draw(1, "KD"),
            extend(1, "a", ["2S"], ["3H", "4H", "5H", "2S"]),
            discard(1, "KD"),
            bruno=bruno,
        )
    )
    assert findings(s) == [
        (6, 1, 1, "BUR-TURN-1", "Bruno laid off 2♠ on meld a of Anna: lay-offs go only on one's own side's melds")
    ]


def test_BUR_TURN_1_legal_layoff_on_own_meld():
    s = replayed(game(draw(0, "KS"), meld(0, "a", ["3H", "4H", "5H"]), extend(0, "a", ["6H"]), discard(0, "KS")))
    assert findings(s) == []
    assert s.meld("a").cards == ("3H", "4H", "5H", "6H")


def test_BUR_TURN_1_partners_share_melds_but_not_the_opponents():
    hands = [
        list(ANNA),
        list(BRUNO),
        ["7H", "9C", "9H", "10D", "10S", "JC", "JS", "QC", "QS", "KH", "AD"],
        ["8H", "3D", "3S", "4S", "5C", "5D", "6S", "8D", "8S", "10H", "AC"],
    ]
    ev = [
        burraco_started(4),
        stacked_deal(hands, dealer=3, up=["10C"], stock_top=["KS", "KD", "KC", "5S"]),
        draw(0, "KS"),
        meld(0, "a", ["3H", "4H", "5H", "6H"]),
        discard(0, "KS"),
        draw(1, "KD"),
        discard(1, "KD"),
        draw(2, "KC"),
        extend(2, "a", ["7H"]),
        discard(2, "KC"),  # Carla on her partner's meld: legal
        draw(3, "5S"),
        extend(3, "a", ["8H"]),
        discard(3, "5S"),
    ]  # 11: Dario on team 0's meld
    s = replayed(ev)
    assert s.sides == (0, 1, 0, 1)
    assert findings(s) == [
        (
            11,
            1,
            3,
            "BUR-TURN-1",
            "Dario laid off 8♥ on meld a of team 0 (Anna & Carla): lay-offs go only on one's own side's melds",
        )
    ]


# --- BUR-MELD-1/2/3 and ALL-MELD-2 ------------------------------------------------------
def test_BUR_MELD_1_set_of_twos():
    s = replayed(game(draw(0, "KS"), meld(0, "a", ["2C", "2D", "2H"]), discard(0, "KS")))
    assert findings(s) == [(3, 1, 0, "BUR-MELD-1", "meld a 2♣ 2♦ 2♥: a set of wild-rank cards (2s)")]


def test_BUR_MELD_1_meld_of_wilds_only():
    anna = ["3H", "4H", "5H", "6H", "7C", "7D", "7S", "2C", "JK", "JK", "2H"]
    s = replayed(game(draw(0, "KS"), meld(0, "a", ["JK", "2C", "JK"]), discard(0, "KS"), anna=anna))
    assert findings(s) == [(3, 1, 0, "BUR-MELD-1", "meld a JK 2♣ JK: only wild cards")]


def test_BUR_MELD_1_legal_set_with_one_pinella():
    s = replayed(game(draw(0, "KS"), meld(0, "a", ["7C", "7D", "2C"]), discard(0, "KS")))
    assert findings(s) == []
    assert s.meld("a").info.stands_for == (None, None, "7")


def test_ALL_MELD_2_two_wilds_in_a_meld():
    s = replayed(game(draw(0, "KS"), meld(0, "a", ["7C", "7D", "2C", "JK"]), discard(0, "KS")))
    assert findings(s) == [(3, 1, 0, "ALL-MELD-2", "meld a 7♣ 7♦ 2♣ JK: more wild cards than allowed")]


def test_ALL_MELD_2_natural_pinella_plus_two_wilds():
    anna = ["2H", "3H", "4H", "5H", "6H", "JK", "2C", "7C", "7D", "7S", "9D"]
    s = replayed(
        game(draw(0, "KS"), meld(0, "a", ["2H", "3H", "4H", "5H", "6H", "JK", "2C"]), discard(0, "KS"), anna=anna)
    )
    assert findings(s) == [(3, 1, 0, "ALL-MELD-2", "meld a 2♥ 3♥ 4♥ 5♥ 6♥ JK 2♣: more wild cards than allowed")]


def test_ALL_MELD_2_legal_natural_pinella_and_one_more_wild():
    anna = ["2H", "3H", "4H", "5H", "6H", "JK", "2C", "7C", "7D", "7S", "9D"]
    s = replayed(game(draw(0, "KS"), meld(0, "a", ["2H", "3H", "4H", "5H", "6H", "JK"]), discard(0, "KS"), anna=anna))
    assert findings(s) == []
    info = s.meld("a").info
    assert info.stands_for == (None, None, None, None, None, "7H")
    assert info.wild_count == 1


def test_BUR_MELD_2_two_sets_of_one_rank():
    anna = ["7C", "7D", "7S", "7H", "7C", "2D", "3H", "4H", "5H", "6H", "JK"]
    s = replayed(
        game(
            draw(0, "KS"),
            meld(0, "a", ["7C", "7D", "7S"]),
            meld(0, "b", ["7H", "7C", "2D"]),
            discard(0, "KS"),
            anna=anna,
        )
    )
    assert findings(s) == [(4, 1, 0, "BUR-MELD-2", "Anna holds two sets of the same rank (a: 7♣ 7♦ 7♠; b: 7♥ 7♣ 2♦)")]


def test_BUR_MELD_2_legal_with_the_option_or_on_the_other_side():
    anna = ["7C", "7D", "7S", "7H", "7C", "2D", "3H", "4H", "5H", "6H", "JK"]
    ev = game(
        draw(0, "KS"),
        meld(0, "a", ["7C", "7D", "7S"]),
        meld(0, "b", ["7H", "7C", "2D"]),
        discard(0, "KS"),
        anna=anna,
        options={"duplicate_sets": True},
    )
    assert findings(replayed(ev)) == []
    bruno = ["7H", "7D", "7S", "9D", "JD", "JH", "QD", "QH", "6C", "6D", "8C"]
    ev = game(
        draw(0, "KS"),
        meld(0, "a", ["7C", "7D", "2C"]),
        discard(0, "KS"),
        draw(1, "KD"),
        meld(1, "b", ["7H", "7D", "7S"]),
        discard(1, "KD"),
        bruno=bruno,
    )
    assert findings(replayed(ev)) == []


def test_BUR_MELD_3_wild_taken_back():
    ev = game(
        draw(0, "KS"),
        meld(0, "a", ["3H", "4H", "JK"]),
        discard(0, "KS"),
        draw(1, "KD"),
        discard(1, "KD"),
        draw(0, "KC"),
        {"type": "joker_swapped", "seat": 0, "meld": "a", "card": "5H", "joker": "JK"},
        discard(0, "KC"),
    )
    s = replayed(ev)
    assert findings(s) == [
        (
            8,
            1,
            0,
            "BUR-MELD-3",
            "Anna took the wild JK back into the hand from meld a (put in 5♥): in Burraco a wild never leaves "
            "the table",
        )
    ]
    assert s.meld("a").cards == ("3H", "4H", "5H")


def test_BUR_MELD_3_legal_wild_moves_to_an_end():
    s = replayed(
        game(
            draw(0, "KS"),
            meld(0, "a", ["3H", "4H", "JK"]),
            extend(0, "a", ["5H"], ["3H", "4H", "5H", "JK"]),
            discard(0, "KS"),
        )
    )
    assert findings(s) == []
    assert s.meld("a").info.stands_for == (None, None, None, "6H")


# --- BUR-PILE-1 -------------------------------------------------------------------------
def test_BUR_PILE_1_single_card_pile_discarded_again():
    s = replayed(game(take(0, ["10C"]), meld(0, "a", ["3H", "4H", "5H"]), discard(0, "10C")))
    assert findings(s) == [
        (4, 1, 0, "BUR-PILE-1", "Anna discarded 10♣, the single card just taken from the discard pile")
    ]


def test_BUR_PILE_1_legal_cases():
    # a pile of two cards: discarding one of them is allowed
    assert findings(replayed(game(draw(0, "KS"), discard(0, "KS"), take(1, ["10C", "KS"]), discard(1, "KS")))) == []
    # the seat already held another 10C: the record cannot prove it is the same card
    anna = ["3H", "4H", "5H", "6H", "7C", "7D", "7S", "2C", "2D", "2H", "10C"]
    assert findings(replayed(game(take(0, ["10C"]), discard(0, "10C"), anna=anna))) == []


# --- pozzetti: BUR-POZZ-1/2 ---------------------------------------------------------------
ANNA_P = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "9D", "9S", "9C", "2C"]
POZZ = [["JC", "QC", "KC", "5D", "6D", "7D", "8D", "AS", "AD", "AC", "AH"], []]
CLEAN = ["3H", "4H", "5H", "6H", "7H", "8H", "9H"]
NINES = ["9D", "9S", "9C", "2C"]


def pgame(*moves, stock=("QH", "KD", "5C"), **kw):
    """Anna holds a clean 3H..9H and 9 9 9 2: with the stock's QH she empties
    her hand by the discard; with 10H first she empties it by melding."""
    return game(*moves, anna=ANNA_P, pozzetti=POZZ, stock=stock, discard=("10D",), **kw)


CON_LO_SCARTO = [
    draw(0, "QH"),
    meld(0, "a", CLEAN),
    meld(0, "b", NINES),
    discard(0, "QH"),
    pozzetto(0, 0),
]  # positions 2-6
PLAY_POZZETTO = [
    meld(0, "c", ["5D", "6D", "7D", "8D"]),
    meld(0, "d", ["AS", "AD", "AC", "AH"]),
    meld(0, "e", ["JC", "QC", "KC"]),
]


def test_BUR_POZZ_1_hand_not_empty():
    s = replayed(pgame(draw(0, "QH"), pozzetto(0, 0), discard(0, "QH")))
    assert findings(s) == [
        (
            3,
            1,
            0,
            "BUR-POZZ-1",
            "Anna took pozzetto 0, but Anna still held 12 card(s) (3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 9♦ 9♠ 9♣ 2♣ Q♥)",
        )
    ]


def test_BUR_POZZ_1_side_already_had_one():
    s = replayed(pgame(*CON_LO_SCARTO, pozzetto(0, 1)))
    # one finding per event, naming both faults
    assert findings(s) == [
        (
            7,
            1,
            0,
            "BUR-POZZ-1",
            "Anna took pozzetto 1, but Anna already had its pozzetto and Anna still held 11 card(s) (J♣ Q♣ K♣ "
            "5♦ 6♦ 7♦ 8♦ A♠ A♦ A♣ A♥)",
        ),
    ]


def test_BUR_POZZ_1_not_raised_for_the_right_seat_taking_it_late():
    # RULES.md lists: already had one, hand not empty, wrong seat. Late is none of them.
    s = replayed(
        pgame(
            draw(0, "QH"),
            meld(0, "a", CLEAN),
            meld(0, "b", NINES),
            discard(0, "QH"),
            draw(1, "KD"),
            pozzetto(0, 0),
            discard(1, "KD"),
        )
    )
    assert findings(s) == []
    assert s.pozzetto_by == (0, None) and len(s.hands[0]) == 11


def test_BUR_POZZ_1_legal_al_volo_and_con_lo_scarto():
    al_volo = pgame(
        draw(0, "10H"),
        meld(0, "a", CLEAN + ["10H"]),
        meld(0, "b", NINES),
        pozzetto(0, 0),
        *PLAY_POZZETTO[:2],
        discard(0, "JC"),
        stock=("10H", "KD"),
    )
    s = replayed(al_volo)
    assert findings(s) == []
    assert s.pozzetto_by == (0, None) and s.hands[0] == ("QC", "KC")
    s = replayed(
        pgame(*CON_LO_SCARTO, draw(1, "KD"), discard(1, "KD"), draw(0, "5C"), *PLAY_POZZETTO[:1], discard(0, "5C"))
    )
    assert findings(s) == []


def test_BUR_POZZ_2_play_from_pozzetto_before_next_turn():
    s = replayed(pgame(*CON_LO_SCARTO, meld(0, "c", ["5D", "6D", "7D", "8D"]), draw(1, "KD"), discard(1, "KD")))
    assert findings(s) == [
        (7, 1, 0, "BUR-POZZ-2", "Anna played 5♦ 6♦ 7♦ 8♦ from the pozzetto taken with the discard before its next turn")
    ]
    assert s.turn == 0 and s.phase == "draw"


def test_BUR_POZZ_2_legal_play_on_the_next_turn():
    s = replayed(
        pgame(
            *CON_LO_SCARTO,
            draw(1, "KD"),
            discard(1, "KD"),
            draw(0, "5C"),
            meld(0, "c", ["5D", "6D", "7D", "8D"]),
            discard(0, "5C"),
        )
    )
    assert findings(s) == []


# --- closing: BUR-CLOSE-1/2/3 -------------------------------------------------------------
def closing(drawn="5C", melds=PLAY_POZZETTO, last=None, prefix=CON_LO_SCARTO, **kw):
    """Anna's con-lo-scarto hand, Bruno's turn, then Anna plays the pozzetto and goes out."""
    moves = list(prefix) + [draw(1, "KD"), discard(1, "KD"), draw(0, drawn), *melds]
    moves += [discard(0, last or drawn)] if last is not False else []
    return pgame(*moves, hand_ended("went_out", 0), stock=("QH", "KD", drawn), **kw)


def test_BUR_CLOSE_legal_closing_scores_100():
    s = replayed(closing())
    assert findings(s) == []
    assert s.results[-1].scores[0].breakdown["closing"] == 100


def test_BUR_CLOSE_1_went_out_without_the_pozzetto():
    s = replayed(
        pgame(draw(0, "QH"), meld(0, "a", CLEAN), meld(0, "b", NINES), discard(0, "QH"), hand_ended("went_out", 0))
    )
    assert findings(s) == [(6, 1, 0, "BUR-CLOSE-1", "Anna went out without Anna's pozzetto")]


def test_BUR_CLOSE_2_went_out_without_a_burraco():
    prefix = [
        draw(0, "QH"),
        meld(0, "a", CLEAN[:6]),
        meld(0, "b", ["9D", "9S", "9C", "9H", "2C"]),
        discard(0, "QH"),
        pozzetto(0, 0),
    ]
    s = replayed(closing(prefix=prefix))
    # reported at the closing discard (13), the event that breaks the rule, not at hand_ended (14)
    assert findings(s) == [(13, 1, 0, "BUR-CLOSE-2", "Anna went out without a burraco for Anna")]


def test_BUR_CLOSE_2_closing_requires_option():
    # 3H..9H + 2C standing for 10H: a semi-clean burraco, the only one
    prefix = [
        draw(0, "QH"),
        meld(0, "a", CLEAN + ["2C"]),
        meld(0, "b", ["9D", "9S", "9C"]),
        discard(0, "QH"),
        pozzetto(0, 0),
    ]
    s = replayed(closing(prefix=prefix, options={"closing_requires": "clean"}))
    assert findings(s) == [(13, 1, 0, "BUR-CLOSE-2", "Anna went out without a clean burraco for Anna")]
    assert findings(replayed(closing(prefix=prefix, options={"closing_requires": "clean_or_semi"}))) == []


def test_BUR_CLOSE_3_went_out_by_discarding_a_wild():
    s = replayed(closing(drawn="2D"))
    # at the discard of the wild (13), not at hand_ended (14)
    assert findings(s) == [(13, 1, 0, "BUR-CLOSE-3", "Anna went out by discarding a wild (2♦)")]


def test_BUR_CLOSE_3_went_out_by_melding_the_last_card():
    melds = [meld(0, "c", ["4D", "5D", "6D", "7D", "8D"]), *PLAY_POZZETTO[1:]]
    s = replayed(closing(drawn="4D", melds=melds, last=False))
    # at the meld that empties the hand (12), not at hand_ended (13)
    assert findings(s) == [(12, 1, 0, "BUR-CLOSE-3", "Anna went out by melding the last card instead of discarding it")]


# --- stock: BUR-STOCK-1 and the seed preset ---------------------------------------------------
def play_out(ev, keep, extra_draw=False):
    """Both seats draw the stock top and discard it until ``keep`` cards are left."""
    stock = list(ev[1]["stock"])
    seat = 0
    while len(stock) > keep:
        card = stock.pop(0)
        ev += [draw(seat, card), discard(seat, card)]
        seat = 1 - seat
    if extra_draw:
        card = stock.pop(0)
        ev += [draw(seat, card), discard(seat, card)]
    return ev


def test_BUR_STOCK_1_draw_from_the_last_two_cards():
    ev = play_out(game(), 2, extra_draw=True)
    s = replayed(ev + [hand_ended("stock_exhausted")])
    last = ev[-2]
    assert findings(s) == [
        (
            len(ev) - 2,
            1,
            1,
            "BUR-STOCK-1",
            f"Bruno drew {last['card'][:-1]}{'♣♦♥♠'['CDHS'.index(last['card'][-1])]} from the last two stock "
            "cards, which are never drawn",
        )
    ]


def test_BUR_STOCK_1_legal_end_with_two_cards_left():
    s = replayed(play_out(game(), 2) + [hand_ended("stock_exhausted")])
    assert findings(s) == []
    assert s.stock_count == 2


def test_seed_the_last_stock_cards_are_drawn_and_a_pozzetto_becomes_the_stock():
    ev = play_out(game(ruleset="seed"), 0)
    s = replayed(ev)
    assert s.stock_count == 0
    pozzetto0 = ev[1]["pozzetti"][0]
    seat = s.turn
    ev += [{"type": "stock_restocked"}, draw(seat, pozzetto0[0]), discard(seat, pozzetto0[0])]
    s = replayed(ev)
    assert findings(s) == []
    assert s.stock_count == 10 and s.pozzetti[0] is None and s.extra.restocked_from == (0,)
    s = replayed(ev + [hand_ended("stock_exhausted")])
    assert [sc.breakdown["no_pozzetto"] for sc in s.results[0].scores] == [-100, -100]


def test_seed_implicit_restock_by_the_draw():
    ev = play_out(game(ruleset="seed"), 0)
    seat = replayed(ev).turn
    pozzetto1 = ev[1]["pozzetti"][1]
    s = replayed(ev + [draw(seat, pozzetto1[0])])
    assert findings(s) == []
    assert s.extra.restocked_from == (1,) and s.stock_count == 10


def test_BUR_POZZ_2_discard_from_the_pozzetto_before_next_turn():
    # found in review: a discard is play from the pozzetto too (not ALL-TURN-1/2)
    s = replayed(pgame(*CON_LO_SCARTO, discard(0, "5D"), draw(1, "KD"), discard(1, "KD")))
    assert findings(s) == [
        (7, 1, 0, "BUR-POZZ-2", "Anna played 5♦ from the pozzetto taken with the discard before its next turn")
    ]
    assert s.turn == 0 and s.phase == "draw" and s.discard[-2:] == ("5D", "KD")


# --- issue 12: closings judged at the event, the closing bonus, the stock's end (fibur) ----------
def restore(target):
    return restored(target, "the referee rewinds")


def breakdowns(s):
    return [(sc.points, sc.breakdown) for sc in s.results[-1].scores]


# Bruno's 11 cards left in hand: 4♣ 4♦ 6♣ 6♦ 5 each, 9♠ 9♦ J♦ J♥ Q♦ Q♥ 8♣ 10 each = 90
BRUNO_LEFT = (
    -190,
    {
        "melds": 0,
        "burraco_clean": 0,
        "burraco_semi_clean": 0,
        "burraco_dirty": 0,
        "closing": 0,
        "hand": -90,
        "no_pozzetto": -100,
    },
)


def test_legal_closing_full_breakdown():
    # melds 3♥..9♥ 45, 9 9 9 2 50, 5♦..8♦ 25, four aces 60, J♣ Q♣ K♣ 30 = 210; clean burraco 200; closing 100
    s = replayed(closing())
    assert breakdowns(s) == [
        (
            510,
            {
                "melds": 210,
                "burraco_clean": 200,
                "burraco_semi_clean": 0,
                "burraco_dirty": 0,
                "closing": 100,
                "hand": 0,
                "no_pozzetto": 0,
            },
        ),
        BRUNO_LEFT,
    ]


def test_BUR_CLOSE_3_wild_discard_reported_at_the_discard_and_kept_when_rewound():
    # the closing discard of the 2♦ is position 13; the referee rewinds to 12 at once, no hand_ended
    moves = closing(drawn="2D")[:-1]
    s = replayed(moves + [restore(12)])
    assert findings(s) == [(13, 1, 0, "BUR-CLOSE-3", "Anna went out by discarding a wild (2♦)")]
    assert s.hands[0] == ("2D",) and s.phase == "play"
    # legal twin: the natural 5♣ discarded, rewound the same way: nothing to report
    assert findings(replayed(closing()[:-1] + [restore(12)])) == []


def test_BUR_CLOSE_3_meld_that_empties_the_hand_reported_at_the_meld_and_kept_when_rewound():
    melds = [meld(0, "c", ["4D", "5D", "6D", "7D", "8D"]), *PLAY_POZZETTO[1:]]
    moves = closing(drawn="4D", melds=melds, last=False)[:-1]
    s = replayed(moves + [restore(11)])
    assert findings(s) == [(12, 1, 0, "BUR-CLOSE-3", "Anna went out by melding the last card instead of discarding it")]
    assert s.hands[0] == ("JC", "QC", "KC")
    # legal twin: emptying the hand by melding before the side has its pozzetto is the al volo pick-up
    al_volo = pgame(draw(0, "10H"), meld(0, "a", CLEAN + ["10H"]), meld(0, "b", NINES), restore(3), stock=("10H", "KD"))
    assert findings(replayed(al_volo)) == []


def test_BUR_CLOSE_2_reported_at_the_closing_discard():
    prefix = [
        draw(0, "QH"),
        meld(0, "a", CLEAN[:6]),
        meld(0, "b", ["9D", "9S", "9C", "9H", "2C"]),
        discard(0, "QH"),
        pozzetto(0, 0),
    ]
    s = replayed(closing(prefix=prefix)[:-1] + [restore(12)])
    assert findings(s) == [(13, 1, 0, "BUR-CLOSE-2", "Anna went out without a burraco for Anna")]


def test_no_closing_bonus_for_an_irregular_going_out():
    # BUR-CLOSE-1: the side never took its pozzetto: -100 and no +100 (never both)
    s = replayed(
        pgame(draw(0, "QH"), meld(0, "a", CLEAN), meld(0, "b", NINES), discard(0, "QH"), hand_ended("went_out", 0))
    )
    assert findings(s) == [(6, 1, 0, "BUR-CLOSE-1", "Anna went out without Anna's pozzetto")]
    assert breakdowns(s)[0] == (
        195,
        {
            "melds": 95,
            "burraco_clean": 200,
            "burraco_semi_clean": 0,
            "burraco_dirty": 0,
            "closing": 0,
            "hand": 0,
            "no_pozzetto": -100,
        },
    )
    # BUR-CLOSE-2: melds 3♥..8♥ 35, 9 9 9 9 2 60, 25 + 60 + 30 = 210, no burraco, no closing bonus
    prefix = [
        draw(0, "QH"),
        meld(0, "a", CLEAN[:6]),
        meld(0, "b", ["9D", "9S", "9C", "9H", "2C"]),
        discard(0, "QH"),
        pozzetto(0, 0),
    ]
    s = replayed(closing(prefix=prefix))
    assert breakdowns(s)[0] == (
        210,
        {
            "melds": 210,
            "burraco_clean": 0,
            "burraco_semi_clean": 0,
            "burraco_dirty": 0,
            "closing": 0,
            "hand": 0,
            "no_pozzetto": 0,
        },
    )
    # BUR-CLOSE-3 by a wild: melds 210 + the clean burraco, the 2♦ on the pile, no closing bonus
    s = replayed(closing(drawn="2D"))
    assert findings(s) == [(13, 1, 0, "BUR-CLOSE-3", "Anna went out by discarding a wild (2♦)")]
    assert breakdowns(s) == [
        (
            410,
            {
                "melds": 210,
                "burraco_clean": 200,
                "burraco_semi_clean": 0,
                "burraco_dirty": 0,
                "closing": 0,
                "hand": 0,
                "no_pozzetto": 0,
            },
        ),
        BRUNO_LEFT,
    ]


def stock_end():
    """Both seats draw and discard until the stock holds two cards: Anna's
    discard of 4♦ at position 123 ends the hand; Bruno is due."""
    return play_out(game(), 2)


# Anna: 3♥ 4♥ 6♥ 7♠ 7♦ 7♣ 5♥ 5 each, 2♣ 2♦ 2♥ 20 each, JK 30 = 125; Bruno: 9♠ 9♦ J♦ J♥ 8♣ Q♥ Q♦ 10 each, 4♦ 6♣ 4♣ 6♦ 5
# each = 90
STOCK_END_SCORES = [
    (
        -225,
        {
            "melds": 0,
            "burraco_clean": 0,
            "burraco_semi_clean": 0,
            "burraco_dirty": 0,
            "closing": 0,
            "hand": -125,
            "no_pozzetto": -100,
        },
    ),
    (
        -190,
        {
            "melds": 0,
            "burraco_clean": 0,
            "burraco_semi_clean": 0,
            "burraco_dirty": 0,
            "closing": 0,
            "hand": -90,
            "no_pozzetto": -100,
        },
    ),
]


def test_BUR_STOCK_1_taking_the_pile_after_the_hand_ended():
    ev = stock_end()
    before = replayed(ev)
    assert len(ev) - 1 == 123 and before.stock_count == 2 and before.turn == 1 and len(before.discard) == 62
    pile = list(before.discard)
    # Bruno takes the whole pile (62 cards) and discards: once BUR-STOCK-1, at the take
    s = replayed(ev + [take(1, pile), discard(1, "4D"), hand_ended("stock_exhausted")])
    assert [f[:4] for f in findings(s)] == [(124, 1, 1, "BUR-STOCK-1")]
    assert findings(s)[0][4] == (
        "Bruno took the discard pile ("
        + " ".join(f"{c[:-1]}{'♣♦♥♠'['CDHS'.index(c[-1])]}" if c != "JK" else c for c in pile)
        + ") after the hand had ended at the stock's end (the discard at position 123 left the last two stock "
        "cards): play after it does not count"
    )
    # scored on the table after position 123 (the pile is not in Bruno's hand): the same as the legal twin that ends
    # there
    twin = replayed(ev + [hand_ended("stock_exhausted")])
    assert findings(twin) == []
    assert breakdowns(s) == breakdowns(twin) == STOCK_END_SCORES


def test_BUR_STOCK_1_reported_once_and_kept_when_rewound():
    ev = stock_end()
    # Bruno draws J♥ from the last two, melds J♦ J♥ J♥ and discards: one finding, at the draw
    late = [draw(1, "JH"), meld(1, "z", ["JD", "JH", "JH"]), discard(1, "8C")]
    s = replayed(ev + late + [restore(123)])
    assert findings(s) == [
        (124, 1, 1, "BUR-STOCK-1", "Bruno drew J♥ from the last two stock cards, which are never drawn")
    ]
    assert s.stock_count == 2 and s.melds == ()
    s = replayed(ev + late + [hand_ended("stock_exhausted")])
    assert findings(s) == [
        (124, 1, 1, "BUR-STOCK-1", "Bruno drew J♥ from the last two stock cards, which are never drawn")
    ]
    assert breakdowns(s) == STOCK_END_SCORES


def test_BUR_STOCK_1_the_pozzetto_taken_with_the_ending_discard_counts_any_other_does_not():
    # Anna draws the third-to-last card (122), melds her whole hand and empties it with the
    # discard at 125 that leaves two stock cards: she takes her pozzetto "then" (RULES.md, Pozzetto)
    ev = play_out(pgame(), 3)
    card = replayed(ev).stock[0]
    ev += [draw(0, card), meld(0, "a", CLEAN), meld(0, "b", NINES), discard(0, card)]
    assert len(ev) - 1 == 125 and replayed(ev).stock_count == 2
    # Anna: melds 45 + 50, clean burraco 200, the pozzetto in hand J♣ Q♣ K♣ 8♦ 10 each, 5♦ 6♦ 7♦ 5 each, four aces 60 =
    # -115
    anna = (
        180,
        {
            "melds": 95,
            "burraco_clean": 200,
            "burraco_semi_clean": 0,
            "burraco_dirty": 0,
            "closing": 0,
            "hand": -115,
            "no_pozzetto": 0,
        },
    )
    s = replayed(ev + [pozzetto(0, 0), hand_ended("stock_exhausted")])
    assert findings(s) == []
    assert breakdowns(s) == [anna, BRUNO_LEFT]
    # Bruno's pozzetto after that discard is play after the end: BUR-STOCK-1 (not BUR-POZZ-1), and it does not count
    s = replayed(ev + [pozzetto(0, 0), pozzetto(1, 1), hand_ended("stock_exhausted")])
    assert findings(s) == [
        (
            127,
            1,
            1,
            "BUR-STOCK-1",
            "Bruno took pozzetto 1 after the hand had ended at the stock's end "
            "(the discard at position 125 left the last two stock cards): play after it does not count",
        )
    ]
    assert breakdowns(s) == [anna, BRUNO_LEFT]
