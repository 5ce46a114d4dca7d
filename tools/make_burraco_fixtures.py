"""Write the Burraco fixture records in ``fixtures/burraco/`` (scripted play).

Usage: ``python tools/make_burraco_fixtures.py`` then
``python tools/make_expected.py fixtures/burraco/*.jsonl``. Deterministic:
every hand's named cards are scripted below, and the rest of the deck (the
stock and any unnamed pozzetto cards) comes from a shuffle with a fixed seed,
so each record is physically possible. The expected scores are checked by
hand in ``tests/test_burraco_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from ledger.testing.records import (
    burraco_started,
    discard,
    draw,
    extend,
    game_ended,
    hand_ended,
    meld,
    penalty,
    pozzetto,
    restored,
    stacked_deal,
    take,
)

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "burraco"
NAMES = ("Anna", "Bruno", "Carla", "Dario")
BRUNO = ["4C", "4D", "9S", "9D", "JD", "JH", "QD", "QH", "6C", "6D", "7C"]  # 85 points in hand


FIXTURE_META = {"tournament": "fixtures", "table": "1"}


def start(game_id: str, n: int = 2, ruleset: str = "fibur", options: dict | None = None) -> dict:
    """The fixtures' ``game_started`` (partnerships with 4 players)."""
    return burraco_started(n, ruleset, options, game_id=game_id, meta=FIXTURE_META)


def deal(
    hand: int,
    dealer: int,
    hands: list[list[str]],
    up: list[str],
    pozzetti: list[list[str]],
    stock_top: list[str],
    jokers: int = 4,
) -> dict:
    """A full deal: the named cards where given, the rest of the deck shuffled (seed 7 + hand) into the stock."""
    return stacked_deal(
        hands, hand=hand, dealer=dealer, up=up, pozzetti=pozzetti, stock_top=stock_top, jokers=jokers, seed=7 + hand
    )


# --- the 2-player game to 2005 ------------------------------------------------
ANNA_CLEAN = ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AC", "AD", "AS", "QC"]
POZZ_SPADES = ["5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "4D"]


def anna_720(hand: int, opp_turns: list[list[dict]]) -> list[dict]:
    """Anna: clean 7H..AH and AC AD AS, discard QC, pozzetto con lo scarto;
    next turn 4S..AS clean, discard 4D: closes. 720 points."""
    t1 = [
        draw(0, "AH"),
        meld(0, f"h{hand}a", ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]),
        meld(0, f"h{hand}b", ["AC", "AD", "AS"]),
        discard(0, "QC"),
        pozzetto(0, 0),
    ]
    t2 = [
        draw(0, "4S"),
        meld(0, f"h{hand}c", ["4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]),
        discard(0, "4D"),
    ]
    return t1, t2


def game_2005() -> list[dict]:
    ev = [start("bur-2p-2005")]
    # hand 1: dealer Bruno, Anna first.
    ev.append(deal(1, 1, [ANNA_CLEAN, BRUNO], ["8C"], [POZZ_SPADES, []], ["AH", "5C", "4S"]))
    t1, t2 = anna_720(1, [])
    ev += t1 + [draw(1, "5C"), discard(1, "5C")] + t2
    ev.append(hand_ended("went_out", 0, [{"seat": 0, "points": 720}, {"seat": 1, "points": -185}]))
    # hand 2: dealer Anna, Bruno first; Bruno melds Q Q 2 (dirty set, no burraco).
    bruno2 = ["4C", "4D", "9S", "9D", "JD", "JH", "QD", "QH", "2C", "6D", "7C"]
    ev.append(deal(2, 0, [ANNA_CLEAN, bruno2], ["8C"], [POZZ_SPADES, []], ["5D", "AH", "5C", "4S"]))
    t1, t2 = anna_720(2, [])
    ev += (
        [draw(1, "5D"), meld(1, "h2q", ["QD", "QH", "2C"]), discard(1, "5D")]
        + t1
        + [draw(1, "5C"), discard(1, "5C")]
        + t2
    )
    ev.append(hand_ended("went_out", 0))
    # hand 3: dealer Bruno, Anna first; semi-clean JK 7H..AH, aces, empty by melding:
    # pozzetto al volo, 5S..AS clean, discard 4D: closes in her first turn.
    anna3 = ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "JK", "AC", "AD", "AS"]
    pozz3 = ["5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "4D"]
    ev.append(deal(3, 1, [anna3, BRUNO], ["8C"], [pozz3, []], ["AH"]))
    ev += [
        draw(0, "AH"),
        meld(0, "h3a", ["JK", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]),
        meld(0, "h3b", ["AC", "AD", "AS"]),
        pozzetto(0, 0),
        meld(0, "h3c", ["5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]),
        discard(0, "4D"),
    ]
    ev.append(hand_ended("went_out", 0, [{"seat": 0, "points": 695}, {"seat": 1, "points": -185}]))
    ev.append(game_ended("target_reached", [{"seat": 0, "points": 2135}, {"seat": 1, "points": -490}]))
    return ev


def four_players() -> list[dict]:
    ev = [start("bur-4p-teams", 4, options={"hands": 1})]
    anna = ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "QC", "QD", "4D", "AH"]
    bruno = ["5C", "5D", "5S", "3C", "8C", "10C", "JC", "KC", "7D", "8D", "9H"]
    carla = ["9D", "9S", "3D", "4C", "6C", "7C", "10S", "JS", "QS", "KS", "2D"]
    dario = ["5H", "3S", "4S", "6D", "7S", "8S", "10D", "JD", "AC", "AD", "AS"]
    pozz0 = ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "JK", "KC", "KS", "10H"]
    ev.append(
        deal(1, 3, [anna, bruno, carla, dario], ["9C"], [pozz0, []], ["KD", "6H", "2H", "QS", "4H", "AS", "3C", "KH"])
    )
    ev += [draw(0, "KD"), meld(0, "a", ["7H", "8H", "9H", "10H", "JH", "QH", "KH"]), discard(0, "4D")]
    ev += [draw(1, "6H"), meld(1, "b", ["5C", "5D", "5S"]), discard(1, "6H")]
    ev += [
        take(2, ["9C", "4D", "6H"]),
        extend(2, "a", ["6H"]),
        meld(2, "c", ["9C", "9D", "9S"]),
        meld(2, "d", ["4C", "2D", "6C", "7C"]),
        discard(2, "3D"),
    ]
    ev += [draw(3, "2H"), extend(3, "b", ["5H"]), meld(3, "e", ["AC", "AD", "AS"]), discard(3, "6D")]
    ev += [draw(0, "QS"), meld(0, "f", ["QC", "QD", "QS"]), extend(0, "a", ["AH"]), discard(0, "KD"), pozzetto(0, 0)]
    ev += [draw(1, "4H"), discard(1, "4H")]
    ev += [draw(2, "AS"), meld(2, "g", ["JS", "QS", "KS", "AS"]), discard(2, "4D")]
    ev += [draw(3, "3C"), discard(3, "3C")]
    ev += [
        draw(0, "KH"),
        meld(0, "h", ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "JK"]),
        meld(0, "i", ["KC", "KS", "KH"]),
        discard(0, "10H"),
    ]
    ev.append(hand_ended("went_out", 0, [{"team": 0, "points": 770}, {"team": 1, "points": -170}]))
    ev.append(game_ended("hands_played", [{"team": 0, "points": 770}, {"team": 1, "points": -170}]))
    return ev


def natural_pinella() -> list[dict]:
    ev = [start("bur-natural-pinella", options={"hands": 1})]
    anna = ["AH", "2H", "3H", "4H", "JK", "6H", "7H", "2C", "3C", "4C", "KD"]
    bruno = ["3S", "4S", "6S", "8S", "10S", "JS", "KS", "5D", "7D", "9C", "JC"]
    pozz = ["6C", "7C", "8C", "2S", "9S", "9D", "9H", "QS", "QD", "QC", "8H"]
    ev.append(deal(1, 1, [anna, bruno], ["10D"], [pozz, []], ["5C", "KC", "JD"]))
    ev += [
        draw(0, "5C"),
        meld(0, "a", ["AH", "2H", "3H", "4H", "JK", "6H", "7H"]),
        meld(0, "b", ["2C", "3C", "4C", "5C"]),
        discard(0, "KD"),
        pozzetto(0, 0),
    ]
    ev += [draw(1, "KC"), discard(1, "KC")]
    ev += [
        draw(0, "JD"),
        extend(0, "b", ["6C", "7C", "8C"]),
        meld(0, "c", ["9S", "9D", "9H", "2S"]),
        meld(0, "d", ["QS", "QD", "QC"]),
        extend(0, "a", ["8H"]),
        discard(0, "JD"),
    ]
    ev.append(hand_ended("went_out", 0))
    ev.append(game_ended("hands_played"))
    return ev


def semi_clean_and_dirty() -> list[dict]:
    ev = [start("bur-semi-dirty", options={"hands": 1})]
    anna = ["5D", "6D", "7D", "8D", "9D", "10D", "JD", "JK", "KC", "KD", "KH"]
    bruno = ["3S", "4S", "6S", "8S", "10S", "JS", "KS", "5D", "6C", "9C", "JC"]
    pozz = ["7S", "7C", "7H", "7D", "7S", "7C", "2D", "QS", "QH", "QD", "KS"]
    ev.append(deal(1, 1, [anna, bruno], ["10H"], [pozz, []], ["5C", "4H", "AS"]))
    ev += [
        draw(0, "5C"),
        meld(0, "a", ["5D", "6D", "7D", "8D", "9D", "10D", "JD", "JK"]),
        meld(0, "b", ["KC", "KD", "KH"]),
        discard(0, "5C"),
        pozzetto(0, 0),
    ]
    ev += [draw(1, "4H"), discard(1, "4H")]
    ev += [
        draw(0, "AS"),
        meld(0, "c", ["7S", "7C", "7H", "7D", "7S", "7C", "2D"]),
        meld(0, "d", ["QS", "QH", "QD"]),
        extend(0, "b", ["KS"]),
        discard(0, "AS"),
    ]
    ev.append(hand_ended("went_out", 0))
    ev.append(game_ended("hands_played"))
    return ev


def al_volo_con_lo_scarto() -> list[dict]:
    ev = [start("bur-pozzetti", options={"hands": 1})]
    anna = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "JD", "JH", "JS", "2S"]
    bruno = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "QC", "QD", "QS"]
    pozz0 = ["AD", "AC", "AH", "5D", "6D", "7D", "KS", "KH", "8S", "9S", "4H"]
    pozz1 = ["4S", "5S", "6S", "7S", "10D", "JD", "QD", "3S", "3D", "3C", "5H"]
    ev.append(deal(1, 1, [anna, bruno], ["KC"], [pozz0, pozz1], ["10C", "KD", "9D", "JH"]))
    # Anna empties her hand by melding: pozzetto al volo, play goes on.
    ev += [
        draw(0, "10C"),
        meld(0, "a", ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]),
        meld(0, "b", ["JD", "JH", "JS", "2S"]),
        pozzetto(0, 0),
        meld(0, "c", ["AD", "AC", "AH"]),
        meld(0, "d", ["5D", "6D", "7D"]),
        discard(0, "4H"),
    ]
    # Bruno empties his hand by the discard: pozzetto con lo scarto, played next turn.
    ev += [
        draw(1, "KD"),
        meld(1, "e", ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]),
        meld(1, "f", ["QC", "QD", "QS"]),
        discard(1, "KD"),
        pozzetto(1, 1),
    ]
    ev += [draw(0, "9D"), discard(0, "9D")]
    ev += [
        draw(1, "JH"),
        meld(1, "g", ["4S", "5S", "6S", "7S"]),
        meld(1, "h", ["10D", "JD", "QD"]),
        meld(1, "i", ["3S", "3D", "3C"]),
        extend(1, "e", ["JH"]),
        discard(1, "5H"),
    ]
    ev.append(hand_ended("went_out", 1, [{"seat": 0, "points": 325}, {"seat": 1, "points": 460}]))
    ev.append(game_ended("hands_played", [{"seat": 0, "points": 325}, {"seat": 1, "points": 460}]))
    return ev


def draw_discard_until(ev: list[dict], stock: list[str], first: int, keep: int) -> int:
    """Seats alternately draw the stock top and discard it until ``keep`` cards are left; returns the next seat."""
    seat = first
    while len(stock) > keep:
        card = stock.pop(0)
        ev += [draw(seat, card), discard(seat, card)]
        seat = 1 - seat
    return seat


def stock_fibur() -> list[dict]:
    ev = [start("bur-stock-fibur", options={"hands": 1})]
    anna = ["3H", "4H", "5H", "KC", "KD", "QS", "9C", "8D", "7S", "6S", "AS"]
    bruno = ["10C", "JC", "QC", "4D", "4S", "9H", "JS", "JD", "7D", "5C", "2C"]
    d = deal(1, 1, [anna, bruno], ["3D"], [[], []], [])
    ev.append(d)
    stock = list(d["stock"])
    card = stock.pop(0)
    ev += [draw(0, card), meld(0, "a", ["3H", "4H", "5H"]), discard(0, card)]
    card = stock.pop(0)
    ev += [draw(1, card), meld(1, "b", ["10C", "JC", "QC"]), discard(1, card)]
    draw_discard_until(ev, stock, 0, 2)
    ev.append(hand_ended("stock_exhausted"))
    ev.append(game_ended("hands_played"))
    return ev


def stock_seed() -> list[dict]:
    ev = [start("bur-stock-seed", ruleset="seed", options={"hands": 1})]
    anna = ["3H", "4H", "5H", "KC", "KD", "QS", "9C", "8D", "7S", "6S", "AS"]
    bruno = ["10C", "JC", "QC", "4D", "4S", "9H", "JS", "JD", "7D", "5C", "2C"]
    d = deal(1, 1, [anna, bruno], ["3D"], [[], []], [], jokers=2)
    ev.append(d)
    stock = list(d["stock"])
    card = stock.pop(0)
    ev += [draw(0, card), meld(0, "a", ["3H", "4H", "5H"]), discard(0, card)]
    card = stock.pop(0)
    ev += [draw(1, card), meld(1, "b", ["10C", "JC", "QC"]), discard(1, card)]
    seat = draw_discard_until(ev, stock, 0, 0)
    # The stock is empty: pozzetto 0 becomes the stock (shown with its new order) ...
    p0 = list(reversed(d["pozzetti"][0]))
    ev.append({"type": "stock_restocked", "cards": p0})
    seat = draw_discard_until(ev, list(p0), seat, 0)
    # ... and pozzetto 1 implicitly, by the next draw (dealt order, first card on top).
    draw_discard_until(ev, list(d["pozzetti"][1]), seat, 0)
    ev.append(hand_ended("stock_exhausted"))
    ev.append(game_ended("hands_played"))
    return ev


def dispute() -> list[dict]:
    ev = [start("bur-dispute", options={"hands": 1})]
    anna = ["3H", "4H", "5H", "8H", "KC", "KD", "KS", "QS", "4C", "6D", "7S"]
    bruno = BRUNO
    d = deal(1, 1, [anna, bruno], ["9C"], [[], []], ["6H", "10S", "QC"])
    ev.append(d)
    # 2 take the one-card pile; 4: ALL-MELD-1 (K K K Q); 5: BUR-PILE-1 (the 9C taken and discarded)
    ev += [take(0, ["9C"]), meld(0, "a", ["3H", "4H", "5H"]), meld(0, "k", ["KC", "KD", "KS", "QS"]), discard(0, "9C")]
    # 7: BUR-TURN-1 (lay-off on Anna's meld); 8: ALL-TURN-2 (a second draw)
    ev += [draw(1, "6H"), extend(1, "a", ["6H"]), draw(1, "10S"), discard(1, "10S")]
    ev.append(penalty(1, -50, "BUR-TURN-1", note="laid off on the opponents' meld"))
    # 11: back to just after Bruno's draw (position 6); the lay-off, the second draw and its discard no longer count
    ev.append(restored(6, "lay-off on the other side and second draw undone"))
    ev += [discard(1, "6H")]
    # 15: ALL-TURN-1 (Anna draws again when it is Bruno's turn)
    ev += [draw(0, "10S"), discard(0, "10S"), draw(0, "QC"), discard(0, "QC")]
    ev.append(hand_ended("stalled", None, [{"seat": 0, "points": 0}, {"seat": 1, "points": -235}]))
    ev.append(game_ended("hands_played"))
    return ev


def rejected_bad_card() -> str:
    lines = [start("bur-bad-card"), deal(1, 1, [ANNA_CLEAN, BRUNO], ["8C"], [[], []], ["AH"])]
    body = [json.dumps(x) for x in lines]
    body.append('{"type":"card_drawn","seat":0,"card":"AH"}')
    body.append('{"type":"card_discarded","seat":0,"card":"11H"}')
    return "\n".join(body) + "\n"


def rejected_not_in_hand() -> list[dict]:
    ev = [start("bur-not-in-hand"), deal(1, 1, [ANNA_CLEAN, BRUNO], ["8C"], [[], []], ["AH"])]
    ev += [draw(0, "AH"), meld(0, "a", ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]), discard(0, "5S")]
    return ev


FIXTURES = {
    "two_player_to_2005": game_2005,
    "four_player_partnership": four_players,
    "natural_pinella": natural_pinella,
    "semi_clean_and_dirty": semi_clean_and_dirty,
    "pozzetto_al_volo_con_lo_scarto": al_volo_con_lo_scarto,
    "stock_exhausted_fibur": stock_fibur,
    "stock_exhausted_seed": stock_seed,
    "dispute": dispute,
    "rejected_bad_card": rejected_bad_card,
    "rejected_card_not_in_hand": rejected_not_in_hand,
}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in FIXTURES.items():
        made = make()
        body = made if isinstance(made, str) else "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in made)
        (OUT / f"{name}.jsonl").write_text(body)
        print(f"fixtures/burraco/{name}.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
