"""Generic heuristic players: candidate melds, lay-offs and discards from a hand.

These functions only *propose* moves; whether a move is legal is decided by
the fold when the simulator tries it (:class:`~ledger.simulate.table.Table`).
They read a variant's :class:`~ledger.melds.MeldRules` to propose sensible
candidates (distinct suits in sets, one wild, ace low/high), never to judge.

>>> from ledger.melds import MeldRules
>>> find_melds(("3H", "4H", "5H", "9C", "9D", "9S", "KS"), MeldRules(max_wilds=0))
[('9C', '9D', '9S'), ('3H', '4H', '5H')]
>>> discard_order(("3H", "4H", "KS", "9C"), MeldRules())[0]
'KS'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ledger.cards import JOKER, RANK, SUIT, SUITS, make
from ledger.events import MeldExtended
from ledger.melds import MeldRules, is_wild, layoff_candidates
from ledger.state import Meld


def split_wilds(hand: Sequence[str], mr: MeldRules) -> tuple[list[str], list[str]]:
    """``(naturals, wilds)`` of a hand, each sorted by rank then suit."""
    nat = sorted((c for c in hand if not is_wild(c, mr)), key=_order)
    wild = sorted((c for c in hand if is_wild(c, mr)), key=lambda c: (c != JOKER, _order(c)))
    return nat, wild


def _order(card: str) -> tuple[int, str]:
    return (RANK[card], SUIT[card])


def find_melds(hand: Sequence[str], mr: MeldRules, use_wilds: bool = True) -> list[tuple[str, ...]]:
    """Candidate new melds from ``hand``: natural sets and sequences first
    (longest first), then ones completed by a single wild.

    Each candidate lists its cards as a record would (sequences ascending,
    the wild in the place it fills). Candidates may overlap: lay one, then
    ask again with the rest of the hand.
    """
    nat, wilds = split_wilds(hand, mr)
    w = wilds[0] if (wilds and use_wilds and mr.max_wilds >= 1) else None
    natural, wild_ones = _set_candidates(nat, mr, w)
    for suit in SUITS:
        seq_natural, seq_wild = _sequence_candidates([c for c in nat if SUIT[c] == suit], suit, mr, w)
        natural += seq_natural
        wild_ones += seq_wild
    natural.sort(key=len, reverse=True)
    return natural + wild_ones


_Candidates = tuple[list[tuple[str, ...]], list[tuple[str, ...]]]


def _set_candidates(nat: list[str], mr: MeldRules, w: str | None) -> _Candidates:
    """``(natural sets, sets of two naturals and the wild w)`` from the
    naturals ``nat``, by rank."""
    natural: list[tuple[str, ...]] = []
    wild_ones: list[tuple[str, ...]] = []
    by_rank: dict[int, list[str]] = {}
    for c in nat:
        by_rank.setdefault(RANK[c], []).append(c)
    for _rank, cards in sorted(by_rank.items()):
        if mr.set_distinct_suits:
            seen: dict[str, str] = {}
            for c in cards:
                seen.setdefault(SUIT[c], c)
            cards = list(seen.values())
        take = cards[: mr.max_set]
        if len(take) >= 3:
            natural.append(tuple(take))
        elif len(take) == 2 and w is not None:
            wild_ones.append((take[0], take[1], w))
    return natural, wild_ones


def _sequence_candidates(of_suit: list[str], suit: str, mr: MeldRules, w: str | None) -> _Candidates:
    """``(natural sequences, sequences completed by the wild w)`` of one
    suit from its naturals ``of_suit``: the wild fills a gap of one, or
    extends a run of two at the high end (else the low end)."""
    ranks = {RANK[c] for c in of_suit}
    if not ranks:
        return [], []
    if 1 in ranks and mr.ace_high:
        ranks.add(14)
    if not mr.ace_low:
        ranks.discard(1)
    runs = _runs(sorted(ranks))

    def cards_of(lo: int, hi: int) -> list[str]:
        return [make(1 if r == 14 else r, suit) for r in range(lo, hi + 1)]

    natural = [tuple(cards_of(lo, min(hi, lo + mr.max_sequence - 1))) for lo, hi in runs if hi - lo + 1 >= 3]
    if w is None:
        return natural, []
    wild_ones: list[tuple[str, ...]] = []
    for (lo, hi), (lo2, hi2) in zip(runs, runs[1:]):
        if lo2 == hi + 2 and hi2 - lo + 1 >= 3 and not mr.wild_ends_only:
            wild_ones.append((*cards_of(lo, hi), w, *cards_of(lo2, hi2)))
    for lo, hi in runs:
        if hi - lo + 1 == 2:
            if hi < 14 and not (hi == 13 and not mr.ace_high):
                wild_ones.append((*cards_of(lo, hi), w))
            elif lo > 1:
                wild_ones.append((w, *cards_of(lo, hi)))
    return natural, wild_ones


def _runs(ranks: list[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive numbers: ``[1, 2, 3, 7, 8] -> [(1, 3), (7, 8)]``."""
    out: list[tuple[int, int]] = []
    for r in ranks:
        if out and r == out[-1][1] + 1:
            out[-1] = (out[-1][0], r)
        else:
            out.append((r, r))
    return out


def layoffs(
    seat: int, hand: Sequence[str], melds: Sequence[Meld], mr: MeldRules, wilds: bool = False
) -> Iterator[MeldExtended]:
    """Candidate single-card lay-offs of ``hand`` onto valid ``melds``
    (``result`` given when the placement is ambiguous). Wilds only with ``wilds``."""
    seen: set[tuple[str, str]] = set()
    for card in hand:
        if is_wild(card, mr) and not wilds:
            continue
        for m in melds:
            if (card, m.id) in seen or not m.info.valid:
                continue
            seen.add((card, m.id))
            if is_wild(card, mr):
                if m.info.wild_count:
                    continue
            elif not _may_fit(card, m):
                continue
            options = layoff_candidates(m.cards, (card,), mr)
            if options:
                yield MeldExtended(seat=seat, meld=m.id, cards=(card,), result=options[0] if len(options) > 1 else None)


def _may_fit(card: str, m: Meld) -> bool:
    """Cheap pre-check: a natural card can only extend a set of its rank or
    a sequence of its suit at either end."""
    info = m.info
    if info.kind == "set":
        return RANK[card] == info.rank
    if info.kind != "sequence" or SUIT[card] != info.suit:
        return False
    r = RANK[card]
    high = info.low + len(m.cards) - 1
    return r == info.low - 1 or r == high + 1 or (r == 1 and high == 13)


def may_lay_off(hand: Sequence[str], melds: Sequence[Meld], mr: MeldRules) -> tuple[str, ...]:
    """Natural cards of ``hand`` that look as if they extend one of ``melds``
    (a cheap guess, for discard choice)."""
    return tuple(c for c in hand if not is_wild(c, mr) and any(m.info.valid and _may_fit(c, m) for m in melds))


def card_points(card: str) -> int:
    """A rough cost of holding a card (for discard choice): A 1, 2–10 face, J Q K 10."""
    return min(RANK[card], 10) if card != JOKER else 25


def discard_order(hand: Sequence[str], mr: MeldRules, avoid: Sequence[str] = ()) -> list[str]:
    """The hand's distinct cards, best discard first: isolated high cards
    before cards that pair or nearly run with others; wilds last, and the
    cards in ``avoid`` (e.g. ones an opponent could use) just before them."""
    faces = list(dict.fromkeys(sorted(hand, key=_order)))

    def cost(card: str) -> tuple[int, int, tuple[int, str]]:
        if is_wild(card, mr):
            return (2, 0, _order(card))
        links = 0
        for other in hand:
            if other is card or is_wild(other, mr):
                continue
            if RANK[other] == RANK[card] and other != card:
                links += 2
            elif SUIT[other] == SUIT[card] and 0 < abs(RANK[other] - RANK[card]) <= 2:
                links += 1
        return (1 if card in avoid else 0, 6 * links - card_points(card), _order(card))

    return sorted(faces, key=cost)
