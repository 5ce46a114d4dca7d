"""Best deadwood in Gin Rummy: the optimal meld partition of a hand (pure).

RULES.md, "Gin Rummy": a seat's **deadwood** is the value of its unmatched
cards after the best arrangement of the hand into melds (sets of 3–4 of one
rank, sequences of 3+ of one suit, ace low only); card values are A 1,
2–10 face, J Q K 10. A seat may knock when its deadwood is at most the knock
card (10 by default); deadwood 0 is gin.

:func:`best_arrangement` finds the arrangement with the least deadwood of any
hand (10 or 11 cards in play, any size works) by a memoised search over the
melds the hand contains: the first card not yet placed is either deadwood or
part of one of the melds that hold it. A 10-card hand takes well under a
millisecond. :func:`best_after_discard` is the same for the 11 cards a seat
holds in the middle of its turn: the best of the eleven discards.

>>> a = best_arrangement(["AS", "2S", "3S", "7C", "7D", "7H", "KC", "QD", "9H", "4C"])
>>> a.deadwood_value, a.deadwood
(33, ('KC', 'QD', '9H', '4C'))
>>> a.melds
(('AS', '2S', '3S'), ('7C', '7D', '7H'))
>>> best_arrangement(["5H", "6H", "7H", "7C", "7D"]).deadwood_value  # the 7H serves once: set, 5 6 dead
11
>>> d = best_after_discard(["AS", "2S", "3S", "7C", "7D", "7H", "8H", "9H", "10H", "KC", "4C"])
>>> d.discard, d.arrangement.deadwood_value
('KC', 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

import msgspec

from ledger.cards import RANK, SUIT


def card_value(card: str) -> int:
    """Deadwood value of one card: A 1, 2–10 face, J Q K 10.

    >>> card_value("AS"), card_value("10C"), card_value("QD")
    (1, 10, 10)
    """
    return min(RANK[card], 10)


def deadwood_value(cards: Sequence[str]) -> int:
    """The summed value of ``cards``.

    >>> deadwood_value(("KC", "2D"))
    12
    """
    return sum(card_value(c) for c in cards)


class Arrangement(msgspec.Struct, frozen=True):
    """An arrangement of a hand: ``melds`` (each a tuple of cards, sequences
    ascending), the ``deadwood`` cards (in hand order) and their value."""

    melds: tuple[tuple[str, ...], ...]
    deadwood: tuple[str, ...]
    deadwood_value: int


class DiscardChoice(msgspec.Struct, frozen=True):
    """The best discard from an 11-card hand and the arrangement left."""

    discard: str
    arrangement: Arrangement


def hand_melds(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every meld (set of 3–4, sequence of 3+ ace low) inside ``cards``.

    >>> hand_melds(["5H", "6H", "7H", "8H"])
    [('5H', '6H', '7H'), ('5H', '6H', '7H', '8H'), ('6H', '7H', '8H')]
    """
    melds: list[tuple[str, ...]] = []
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, dict[int, str]] = {}
    for c in dict.fromkeys(cards):
        by_rank.setdefault(RANK[c], []).append(c)
        by_suit.setdefault(SUIT[c], {})[RANK[c]] = c
    for rank in sorted(by_rank):
        group = by_rank[rank]
        for size in (3, 4):
            melds.extend(combinations(group, size))
    for suit in sorted(by_suit):
        ranks = by_suit[suit]
        for low in range(1, 12):
            run: list[str] = []
            for r in range(low, 14):
                if r not in ranks:
                    break
                run.append(ranks[r])
                if len(run) >= 3:
                    melds.append(tuple(run))
    return melds


def best_arrangement(cards: Sequence[str]) -> Arrangement:
    """The arrangement of ``cards`` with the least deadwood (ties: fewest melds
    found first). Cards are canonical strings of a single 52-card deck.

    >>> best_arrangement(["KS", "KH", "KD", "KC", "QS", "JS"]).melds  # the K♠ goes to the sequence
    (('JS', 'QS', 'KS'), ('KH', 'KD', 'KC'))
    >>> best_arrangement([]).deadwood_value
    0
    """
    cards = tuple(cards)
    index = {c: i for i, c in enumerate(cards)}
    masks: list[tuple[int, int]] = []  # (meld mask, melded value)
    meld_list = hand_melds(cards)
    for m in meld_list:
        mask = 0
        for c in m:
            mask |= 1 << index[c]
        masks.append((mask, deadwood_value(m)))
    values = [card_value(c) for c in cards]
    by_first: dict[int, list[int]] = {}
    for k, (mask, _) in enumerate(masks):
        # a meld fits only when its lowest card is the first card left
        by_first.setdefault((mask & -mask).bit_length() - 1, []).append(k)

    @lru_cache(maxsize=None)
    def solve(left: int) -> tuple[int, tuple[int, ...]]:
        """Least deadwood of the cards in ``left`` and the melds used."""
        if not left:
            return 0, ()
        i = (left & -left).bit_length() - 1
        rest = left & ~(1 << i)
        best_dw, used = solve(rest)
        best = (best_dw + values[i], used)
        for k in by_first.get(i, ()):
            mask = masks[k][0]
            if mask & left == mask:
                dw, more = solve(left & ~mask)
                if dw < best[0]:
                    best = (dw, (k,) + more)
        return best

    value, used = solve((1 << len(cards)) - 1)
    melded = 0
    for k in used:
        melded |= masks[k][0]
    dead = tuple(c for i, c in enumerate(cards) if not melded >> i & 1)
    return Arrangement(tuple(meld_list[k] for k in used), dead, value)


def best_after_discard(cards: Sequence[str]) -> DiscardChoice:
    """For an 11-card hand: the discard leaving the least deadwood (ties: the
    higher card goes), with the arrangement of the ten cards left.

    Raises :class:`ValueError` for an empty hand.
    """
    cards = tuple(cards)
    if not cards:
        raise ValueError("no cards to discard")
    best: DiscardChoice | None = None
    for i, c in enumerate(cards):
        arr = best_arrangement(cards[:i] + cards[i + 1 :])
        if best is None or (arr.deadwood_value, -card_value(c)) < (best.arrangement.deadwood_value, -card_value(best.discard)):
            best = DiscardChoice(c, arr)
    assert best is not None
    return best


def best_deadwood(cards: Sequence[str], hand_size: int = 10) -> int:
    """The least deadwood a seat holding ``cards`` could knock with: with more
    than ``hand_size`` cards (mid-turn), after the best discard.

    >>> best_deadwood(["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "KD"])
    0
    """
    if len(cards) > hand_size:
        return best_after_discard(cards).arrangement.deadwood_value
    return best_arrangement(cards).deadwood_value
