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
from functools import cache
from itertools import combinations
from typing import Any

import msgspec

from ledger.cards import LOW_VALUE, RANK, RANKS, SUIT, UNKNOWN, standard_deck


def card_value(card: str) -> int:
    """Deadwood value of one card: A 1, 2–10 face, J Q K 10.

    >>> card_value("AS"), card_value("10C"), card_value("QD")
    (1, 10, 10)
    """
    return LOW_VALUE[card]


def deadwood_value(cards: Sequence[str]) -> int:
    """The summed value of ``cards``.

    >>> deadwood_value(("KC", "2D"))
    12
    """
    return sum(map(LOW_VALUE.__getitem__, cards))


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


#: hands up to this many cards use the subset search (exact, and the same
#: arrangement as always); bigger ones, which only an irregular record holds
#: (ALL-TURN-3), the dynamic programme over ranks: same least deadwood, in
#: time linear in the ranks whatever the hand
SUBSET_SEARCH_MAX = 12


def best_arrangement(cards: Sequence[str]) -> Arrangement:
    """The arrangement of ``cards`` with the least deadwood (ties: fewest melds
    found first). Cards are canonical strings of a single 52-card deck.

    >>> best_arrangement(["KS", "KH", "KD", "KC", "QS", "JS"]).melds  # the K♠ goes to the sequence
    (('JS', 'QS', 'KS'), ('KH', 'KD', 'KC'))
    >>> best_arrangement([]).deadwood_value
    0
    """
    cards = tuple(cards)
    if len(cards) > SUBSET_SEARCH_MAX:
        arrangement, _ = _by_ranks(cards, discard=False)
        return arrangement
    return _subset_search(cards)


def no_deadwood(cards: Sequence[str], card: str) -> bool:
    """Whether ``cards`` arrange with no deadwood at all (big gin, RULES.md):
    :func:`best_arrangement`'s deadwood is 0. ``card``, one of ``cards``
    (a knock's discard), is looked at first: when no meld of
    :func:`hand_melds` can hold it, it is deadwood of value at least 1 and
    the answer is no without the search.

    >>> no_deadwood(["5H", "6H", "7H", "9C"], "9C"), no_deadwood(["5H", "6H", "7H"], "7H")
    (False, True)
    """
    if LOW_VALUE[card] and not _in_a_meld(card, frozenset(cards)):
        return False
    return best_arrangement(cards).deadwood_value == 0


def big_gin(eleven: Sequence[str], discard: str) -> dict[str, bool]:
    """A gin's big-gin flags for :class:`~ledger.variants.gin.state.GinExtra`:
    ``big_gin`` when the eleven cards (the knock's ``discard`` among them) all
    meld (:func:`no_deadwood`); in a partial record whose discard is ``??``,
    ``big_gin_open`` when some card in its place would (:func:`big_gin_possible`).

    >>> big_gin(["5H", "6H", "7H", "8H"], "8H"), big_gin(["5H", "6H", "7H", "??"], "??")
    ({'big_gin': True}, {'big_gin_open': True})
    """
    if UNKNOWN in eleven:
        return {"big_gin_open": big_gin_possible(eleven)}
    return {"big_gin": no_deadwood(eleven, discard)}


def big_gin_possible(cards: Sequence[str]) -> bool:
    """Partial records: whether ``cards`` (a gin's eleven, one of them the
    ``??`` face-down discard) could be big gin: some face of the deck not
    among the known cards, in place of the ``??``, makes all eleven melds
    (:func:`no_deadwood`). False only when no card could: then "not big gin"
    is decided by the known cards alone, never guessed.

    >>> big_gin_possible(["5H", "6H", "7H", "??"]), big_gin_possible(["AS", "2S", "3S", "4S", "??"])
    (True, True)
    >>> big_gin_possible(["AS", "AH", "AD", "AC", "??"])
    False
    """
    known = [c for c in cards if c != UNKNOWN]
    if len(known) != len(cards) - 1:
        return True  # more than one unknown card: not decided here
    taken = set(known)
    return any(no_deadwood((*known, c), c) for c in standard_deck() if c not in taken)


def _in_a_meld(card: str, held: frozenset[str]) -> bool:
    """Whether ``card`` makes a set of 3+ or a sequence of 3+ (ace low) with cards of ``held``."""
    rank, suit = RANK[card], SUIT[card]
    if sum(1 for c in held if RANK[c] == rank) >= 3:
        return True
    near = [1 <= r <= 13 and RANKS[r - 1] + suit in held for r in range(rank - 2, rank + 3)]
    return (near[0] and near[1]) or (near[1] and near[3]) or (near[3] and near[4])


def _subset_search(cards: tuple[str, ...]) -> Arrangement:
    """The memoised search over the melds of the hand (exponential in the
    hand's size: used up to :data:`SUBSET_SEARCH_MAX` cards)."""
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

    @cache
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
    if len(cards) > SUBSET_SEARCH_MAX + 1:
        arrangement, discard = _by_ranks(cards, discard=True)
        assert discard is not None
        return DiscardChoice(discard, arrangement)
    best: DiscardChoice | None = None
    for i, c in enumerate(cards):
        arr = best_arrangement(cards[:i] + cards[i + 1 :])
        if best is None or (arr.deadwood_value, -card_value(c)) < (
            best.arrangement.deadwood_value,
            -card_value(best.discard),
        ):
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


# --- the dynamic programme over ranks (any hand size) -------------------------------
#
# Ranks are taken from ace to king. Before rank r the state says, per suit, how
# long the sequence running into r is (0, 1, 2, or 3 for "three or more") and,
# for best_after_discard, whether the discard is chosen yet. At rank r each
# card present is deadwood, part of a set of that rank (3 or 4 cards), the
# next card of its suit's sequence, or the discard. A sequence of 1 or 2 may
# not stop. That is at most 13 x 512 states x 25 choices, whatever the hand.

_D, _S, _R, _X = 0, 1, 2, 3  # deadwood, set, sequence, the discard

#: the search state before a rank: per suit the length of the sequence running
#: into it (0-3), and whether the discard is chosen yet (0 or 1)
_State = tuple[int, int, int, int, int]
#: (deadwood, -discard value): ties between discards go to the higher card
_Cost = tuple[int, int]
#: one layer of the programme: state -> (least cost, (previous state, choice at this rank))
_Layer = dict[_State, tuple[_Cost, Any]]
_SUITS = ("C", "D", "H", "S")


def _choices(n: int, discard: bool) -> list[tuple[int, ...]]:
    """Every assignment of the ``n`` cards of one rank (sets of 3 or 4 only)."""
    out: list[tuple[int, ...]] = []
    options = (_D, _S, _R, _X) if discard else (_D, _S, _R)

    def walk(prefix: tuple[int, ...]) -> None:
        if len(prefix) == n:
            if prefix.count(_S) in (0, 3, 4) and prefix.count(_X) <= 1:
                out.append(prefix)
            return
        for o in options:
            walk(prefix + (o,))

    walk(())
    return out


_CHOICES = {(n, d): _choices(n, d) for n in range(5) for d in (False, True)}


def _by_ranks(cards: tuple[str, ...], *, discard: bool) -> tuple[Arrangement, str | None]:
    """Least deadwood of ``cards`` (with ``discard``: after the best discard,
    ties to the higher card) and one arrangement that reaches it."""
    first_seen: dict[str, int] = {}
    for i, c in enumerate(cards):
        first_seen.setdefault(c, i)
    at_rank, loose = _sort_by_rank(cards, first_seen)
    layers = _rank_layers(at_rank, discard)
    best_key, best_cost, best_loose = _best_end(layers[-1], loose, discard)
    chosen = _walk_back(layers, best_key)
    melds, gone_card = _melds_chosen(at_rank, chosen, best_loose)
    rest = list(cards)
    if gone_card is not None:
        rest.remove(gone_card)
    melded = {c for m in melds for c in m}
    dead_list: list[str] = []
    for c in rest:
        if c in melded:
            melded.discard(c)  # a second copy of a melded card is deadwood
        else:
            dead_list.append(c)
    melds.sort(key=lambda m: min(first_seen[c] for c in m))
    arrangement = Arrangement(tuple(melds), tuple(dead_list), deadwood_value(dead_list))
    assert arrangement.deadwood_value == best_cost[0]
    return arrangement, gone_card


def _sort_by_rank(cards: tuple[str, ...], first_seen: dict[str, int]) -> tuple[list[list[tuple[int, str]]], list[str]]:
    """The cards by rank (rank -> [(suit index, card)], in hand order) and the
    loose ones: a second copy or a card of no rank (JK), deadwood or the discard."""
    at_rank: list[list[tuple[int, str]]] = [[] for _ in range(14)]
    loose: list[str] = []
    for c in first_seen:  # a dict keeps the order of first sight
        rank, letter = RANK.get(c, 0), SUIT.get(c, "")
        if 1 <= rank <= 13 and letter in _SUITS:
            at_rank[rank].append((_SUITS.index(letter), c))
        else:
            loose.append(c)
    loose += [c for i, c in enumerate(cards) if first_seen[c] != i]
    return at_rank, loose


def _rank_layers(at_rank: list[list[tuple[int, str]]], discard: bool) -> list[_Layer]:
    """The programme's layers, one per rank from ace to king: the least cost
    of each state after that rank, with the step that reached it."""
    layer: _Layer = {(0, 0, 0, 0, 0): ((0, 0), None)}
    layers: list[_Layer] = []
    for rank in range(1, 14):
        layer = _next_layer(layer, at_rank[rank], discard)
        layers.append(layer)
    return layers


def _next_layer(layer: _Layer, present: list[tuple[int, str]], discard: bool) -> _Layer:
    """The states after one rank whose cards are ``present``: every choice
    for each card from every state before it."""
    nxt: _Layer = {}
    for state, (cost, _) in layer.items():
        used = state[4]
        for choice in _CHOICES[len(present), discard and not used]:
            step = _step(state, cost, present, choice)
            if step is None:
                continue
            runs, new_cost = step
            key = (runs[0], runs[1], runs[2], runs[3], used or (_X in choice))
            if key not in nxt or new_cost < nxt[key][0]:
                nxt[key] = (new_cost, (state, choice))
    return nxt


def _step(
    state: _State, cost: _Cost, present: list[tuple[int, str]], choice: tuple[int, ...]
) -> tuple[list[int], _Cost] | None:
    """The sequences running on and the cost after ``choice`` for the cards
    ``present``; None when it stops a sequence of one or two cards."""
    runs = [0, 0, 0, 0]
    dead, gone = cost
    for (suit, card), o in zip(present, choice):
        if o == _R:
            runs[suit] = min(state[suit] + 1, 3)
        elif o == _D:
            dead += card_value(card)
        elif o == _X:
            gone = -card_value(card)
    for suit in range(4):
        if runs[suit] == 0 and state[suit] in (1, 2):
            return None
    return runs, (dead, gone)


def _best_end(layer: _Layer, loose: list[str], discard: bool) -> tuple[_State, _Cost, str | None]:
    """The best final state with the loose cards added: each deadwood, or
    (when no card of a rank went) one of them the discard. Raises
    :class:`ValueError` when a discard is wanted and there is none."""
    best: tuple[_State, _Cost, str | None] | None = None
    loose_value = sum(card_value(c) for c in loose)
    for key, (cost, _) in layer.items():
        if any(k in (1, 2) for k in key[:4]):
            continue
        options: list[tuple[_Cost, str | None]] = [((cost[0] + loose_value, cost[1]), None)]
        if discard and not key[4]:
            options = [((cost[0] + loose_value - card_value(c), -card_value(c)), c) for c in loose]
        for total, out in options:
            if best is None or total < best[1]:
                best = (key, total, out)
    if best is None:
        raise ValueError("no cards to discard")
    return best


def _walk_back(layers: list[_Layer], key: _State) -> list[tuple[int, ...]]:
    """Each rank's choice (index = rank) on the way to the final state ``key``."""
    chosen: list[tuple[int, ...]] = [()] * 14
    for rank in range(13, 0, -1):
        _, back = layers[rank - 1][key]
        key, chosen[rank] = back
    return chosen


def _melds_chosen(
    at_rank: list[list[tuple[int, str]]], chosen: list[tuple[int, ...]], gone_card: str | None
) -> tuple[list[tuple[str, ...]], str | None]:
    """The melds the choices make (sets as they come, sequences when they
    stop) and the discard (``gone_card`` when it is a loose card)."""
    melds: list[tuple[str, ...]] = []
    run_cards: list[list[str]] = [[], [], [], []]
    for rank in range(1, 15):
        present = at_rank[rank] if rank <= 13 else []
        choice = chosen[rank] if rank <= 13 else ()
        in_run = {suit for (suit, _), o in zip(present, choice) if o == _R}
        for suit in range(4):
            if suit not in in_run and run_cards[suit]:
                melds.append(tuple(run_cards[suit]))
                run_cards[suit] = []
        group = [card for (_, card), o in zip(present, choice) if o == _S]
        if group:
            melds.append(tuple(group))
        for (suit, card), o in zip(present, choice):
            if o == _R:
                run_cards[suit].append(card)
            elif o == _X:
                gone_card = card
    return melds, gone_card
