"""Generated records, of any length, for the tests and the benchmarks (never committed).

- :func:`long_ramino`: a physically possible classic-Ramino game of many
  hands of random draws, pile takes, sets and discards (the viewer's and the
  live service's benchmarks, ``bench/bench_web_state.py``, ``bench/bench_live.py``);
- :func:`turn_spam`: valid but costly (issue 13): one Ramino hand in which
  seat 0 draws and discards every turn, about one ``ALL-TURN-1`` finding per
  two events, optionally with a ``position_restored`` after the draws
  (``bench/bench_hostile.py``);
- :func:`gin_stock_hog`: Gin, seat 0 draws the whole stock without
  discarding, then knocks (the deadwood search's worst case);
- :func:`unknown_hands_pair`: a long Scala 40 hand as a full record and as
  a partial one whose every hand, draw and restock is ``??`` and every
  discard a named card played from an unknown hand (issue 24's hostile
  partial record, ``tests/test_partial_cost.py``).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from ledger.cards import RANK, standard_deck
from ledger.events import (
    CardDiscarded,
    CardDrawn,
    DiscardTaken,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    MeldLaid,
    Player,
)
from ledger.testing.records import (
    RAMINO_UPCARD,
    discard,
    draw,
    game_ended,
    game_started,
    hand_dealt,
    hand_ended,
    knocked,
    lines,
    ramino_deal,
    ramino_stock,
    upcard_passed,
)


def long_ramino(game_id: str = "long-1", min_events: int = 3001, seed: int = 1) -> list[Event]:
    """A classic-Ramino record of at least ``min_events`` events: hand after
    hand of 2 players drawing (from the stock, or the discard pile a quarter
    of the time), laying any set of three they hold, and discarding a random
    card (not the one just taken); each hand ends ``stalled`` before the stock
    runs out. Deterministic for a ``seed``."""
    rng = random.Random(seed)
    events: list[Event] = [
        GameStarted(
            game_id=game_id, variant="ramino", players=(Player(seat=0, name="Anna"), Player(seat=1, name="Bruno"))
        )
    ]
    hand = 0
    while len(events) < min_events - 2:
        hand += 1
        dealer = (hand - 1) % 2
        deck = standard_deck()
        rng.shuffle(deck)
        held = [deck[0:10], deck[10:20]]
        pile = [deck[20]]
        stock = deck[21:]
        events.append(
            HandDealt(
                hand=hand, dealer=dealer, hands=(tuple(held[0]), tuple(held[1])), discard=(pile[0],), stock=tuple(stock)
            )
        )
        seat = 1 - dealer
        melds = 0
        while len(stock) > 2 and len(events) < min_events - 2:
            taken = None
            if pile and rng.random() < 0.25:
                taken = pile.pop()
                held[seat].append(taken)
                events.append(DiscardTaken(seat=seat, cards=(taken,)))
            else:
                card = stock.pop(0)
                held[seat].append(card)
                events.append(CardDrawn(seat=seat, card=card))
            by_rank = Counter(RANK[c] for c in held[seat])
            for rank, k in by_rank.items():
                if k >= 3 and len(held[seat]) > 4:
                    cards = tuple(c for c in held[seat] if RANK[c] == rank)[:3]
                    for c in cards:
                        held[seat].remove(c)
                    melds += 1
                    events.append(MeldLaid(seat=seat, meld=f"m{melds}", cards=cards))
                    break
            choices = [c for c in held[seat] if c != taken] or held[seat]
            out = rng.choice(choices)
            held[seat].remove(out)
            pile.append(out)
            events.append(CardDiscarded(seat=seat, card=out))
            seat = 1 - seat
        events.append(HandEnded(reason="stalled"))
    events.append(GameEnded(reason="abandoned"))
    return events


def turn_spam(events: int, game_id: str = "spam-1", restore_every: int = 0) -> bytes:
    """A Ramino record of about ``events`` events: the deal, then seat 0 draws
    and discards the drawn card, again and again (out of turn from its second
    turn on); an empty stock is restocked from the discard pile. With
    ``restore_every`` > 0, a ``position_restored`` back to just before the
    draw follows every ``restore_every``-th draw."""
    out = [lines(game_started(game_id=game_id), ramino_deal())]
    stock = ramino_stock()
    pile = list(RAMINO_UPCARD)
    pos = 1
    draws = 0
    while pos < events - 1:
        if not stock:
            stock = list(reversed(pile[:-1]))
            out.append(lines({"type": "stock_restocked", "cards": stock}))
            pile = pile[-1:]
            pos += 1
            continue
        card = stock[0]
        out.append(lines(draw(0, card)))
        pos += 1
        draws += 1
        if restore_every and draws % restore_every == 0:
            out.append(
                lines({"type": "position_restored", "target": pos - 1, "reason": "a draw out of turn is taken back"})
            )
            pos += 1
            continue
        stock.pop(0)
        out.append(lines(discard(0, card)))
        pile.append(card)
        pos += 1
    return b"".join(out)


def gin_stock_hog(game_id: str = "hog-1") -> bytes:
    """A 36-line Gin record: Anna (seat 0) is dealt A♣–10♣, draws 29 cards
    without discarding (J♣ Q♣ K♣, then every diamond and heart), holds 39
    cards and goes gin discarding K♥: sequences A–K♣, A–K♦, A–Q♥."""
    clubs = [r + "C" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    diamonds = [c[:-1] + "D" for c in clubs]
    hearts = [c[:-1] + "H" for c in clubs]
    spades = [c[:-1] + "S" for c in clubs]
    stock = clubs[10:] + diamonds + hearts + spades[11:]
    out = [
        lines(game_started("gin", game_id=game_id)),
        lines(hand_dealt([clubs[:10], spades[:10]], up=[spades[10]], stock=stock)),
        lines(upcard_passed(0), upcard_passed(1)),
    ]
    out += [lines(draw(0, c)) for c in stock[:29]]
    melds = [{"meld": "c", "cards": clubs}, {"meld": "d", "cards": diamonds}, {"meld": "h", "cards": hearts[:12]}]
    out.append(lines(knocked(0, "KH", melds, []), hand_ended("knocked", 0), game_ended("abandoned")))
    return b"".join(out)


def unknown_hands_pair(events: int, seats: int = 4, seed: int = 24) -> tuple[bytes, bytes]:
    """``(full, partial)``: one Scala 40 hand of about ``events`` events at
    ``seats`` seats, in turn: each seat draws from the stock and discards a
    random card of its hand (the one just drawn now and then); an empty stock
    is restocked from the pile, shuffled. The full record names every card,
    the stock's order and each restocked stock's included. The partial one
    writes every hand, the stock, every draw and every restocked stock as
    ``??`` (no stock order): each named discard is played from a hand of
    unknown cards only, so the fold takes it from an unknown one and counts
    it against the deck (FORMAT.md, "Partial records"). Deterministic for a
    ``seed``; no finding in either."""
    rng = random.Random(seed)
    deck = standard_deck(decks=2, jokers=4)
    rng.shuffle(deck)
    hands = [deck[13 * s : 13 * s + 13] for s in range(seats)]
    upcard, stock = deck[13 * seats], deck[13 * seats + 1 :]
    players = [{"seat": s, "name": f"P{s}"} for s in range(seats)]
    start = {"type": "game_started", "format": "rummy-ledger/1", "game_id": "unknown-hands", "variant": "scala40"}
    deal = {"type": "hand_dealt", "hand": 1, "dealer": seats - 1}
    full: list[dict[str, object]] = [
        {**start, "players": players},
        {**deal, "hands": [list(h) for h in hands], "discard": [upcard], "stock": list(stock)},
    ]
    part: list[dict[str, object]] = [
        {**start, "players": players, "knowledge": "partial"},
        {**deal, "hands": [["??"] * 13] * seats, "discard": [upcard]},
    ]
    pile, seat = [upcard], 0
    while len(full) < events:
        if not stock:
            stock, pile = pile[:-1], pile[-1:]
            rng.shuffle(stock)
            full.append({"type": "stock_restocked", "cards": list(stock)})
            part.append({"type": "stock_restocked", "cards": ["??"] * len(stock)})
            continue
        card = stock.pop(0)
        hands[seat].append(card)
        full.append({"type": "card_drawn", "seat": seat, "card": card})
        part.append({"type": "card_drawn", "seat": seat, "card": "??"})
        out = hands[seat].pop(rng.randrange(len(hands[seat])))
        full.append({"type": "card_discarded", "seat": seat, "card": out})
        part.append({"type": "card_discarded", "seat": seat, "card": out})
        pile.append(out)
        seat = (seat + 1) % seats

    def text(rows: list[dict[str, object]]) -> bytes:
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows).encode()

    return text(full), text(part)
