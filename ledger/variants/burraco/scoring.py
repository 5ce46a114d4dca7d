"""Burraco card values, burraco kinds and the hand score (RULES.md, "Burraco").

Pure functions over cards and :class:`~ledger.melds.MeldInfo`; the fold
(:class:`ledger.variants.burraco.rules.BurracoRules`) calls them when a hand ends.

Card values, in melds and in hand: jolly 30, 2 20, ace 15, K Q J 10 9 8 10,
7 6 5 4 3 5.

>>> card_value("JK"), card_value("2S"), card_value("AH"), card_value("8C"), card_value("7D")
(30, 20, 15, 10, 5)
>>> cards_value(("3H", "4H", "5H"))
15

Burraco kinds: a *valid* meld of 7+ cards. ``"clean"`` (no wild; a natural 2
is no wild) 200; ``"semi-clean"`` (8+ cards: in a sequence the one wild at an
end next to 7+ consecutive naturals, in a set 7+ naturals plus the wild) 150
when the ``semi_clean`` option is on; ``"dirty"`` (any other with a wild) 100.

>>> from ledger.melds import analyze
>>> from ledger.variants.burraco.scoring import BURRACO_MELDS
>>> burraco_kind(analyze(("AH", "2H", "3H", "4H", "5H", "6H", "7H"), BURRACO_MELDS))
'clean'
>>> burraco_kind(analyze(("3H", "4H", "5H", "6H", "7H", "8H", "9H", "JK"), BURRACO_MELDS))
'semi-clean'
>>> burraco_kind(analyze(("3H", "4H", "5H", "6H", "7H", "8H", "9H", "JK"), BURRACO_MELDS), semi_clean=False)
'dirty'
>>> burraco_kind(analyze(("3H", "4H", "JK", "6H", "7H", "8H", "9H", "10H"), BURRACO_MELDS))
'dirty'
>>> burraco_kind(analyze(("3H", "4H", "5H", "6H", "7H", "8H"), BURRACO_MELDS)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.cards import JOKER, RANK
from ledger.melds import MeldInfo, MeldRules

#: Burraco's meld parameters: every 2 wild (pinella) unless natural in a
#: sequence, one wild per meld, sets up to 9, sequences up to 14, ace low or high.
BURRACO_MELDS = MeldRules(
    wild_twos=True,
    max_wilds=1,
    natural_two_bonus=True,
    ace_low=True,
    ace_high=True,
    max_set=9,
    set_distinct_suits=False,
    max_sequence=14,
)

#: burraco kind -> bonus points
BURRACO_BONUS = {"clean": 200, "semi-clean": 150, "dirty": 100}

#: breakdown component names of a Burraco hand score, in order
COMPONENTS = ("melds", "burraco_clean", "burraco_semi_clean", "burraco_dirty", "closing", "hand", "no_pozzetto")

CLOSING_BONUS = 100
NO_POZZETTO = -100


def card_value(card: str) -> int:
    """Points of one card, the same in a meld and in hand."""
    if card == JOKER:
        return 30
    rank = RANK[card]
    if rank == 2:
        return 20
    if rank == 1:
        return 15
    return 10 if rank >= 8 else 5


#: :func:`card_value` of every card (the keys of :data:`~ledger.cards.RANK`), for :func:`cards_value`
CARD_VALUES: dict[str, int] = {card: card_value(card) for card in RANK}


def cards_value(cards: Iterable[str]) -> int:
    """Sum of :func:`card_value` over ``cards`` (read from :data:`CARD_VALUES`)."""
    return sum(map(CARD_VALUES.__getitem__, cards))


def burraco_kind(info: MeldInfo, semi_clean: bool = True) -> str | None:
    """``"clean"``, ``"semi-clean"``, ``"dirty"`` or None (not a burraco:
    fewer than 7 cards, or an invalid meld)."""
    n = len(info.cards)
    if n < 7 or not info.valid:
        return None
    if info.wild_count == 0:
        return "clean"
    if semi_clean and n >= 8 and info.wild_count == 1:
        wild_at = [i for i, s in enumerate(info.stands_for) if s is not None]
        if info.kind == "set":
            return "semi-clean"
        if info.kind == "sequence" and wild_at and wild_at[0] in (0, n - 1):
            return "semi-clean"
    return "dirty"


def burraco_rank(kind: str | None, requires: str) -> bool:
    """True when a burraco of ``kind`` satisfies ``closing_requires``
    (``any``, ``clean``, ``clean_or_semi``).

    >>> burraco_rank("dirty", "any"), burraco_rank("dirty", "clean_or_semi"), burraco_rank("semi-clean", "clean")
    (True, False, False)
    """
    if kind is None:
        return False
    if requires == "clean":
        return kind == "clean"
    if requires == "clean_or_semi":
        return kind in ("clean", "semi-clean")
    return True


def side_breakdown(
    melds: Iterable[MeldInfo],
    hands: Iterable[Iterable[str]],
    *,
    closed: bool,
    took_pozzetto: bool,
    semi_clean: bool = True,
) -> dict[str, int]:
    """One side's hand score by component (:data:`COMPONENTS`).

    ``melds``: the side's melds; ``hands``: the cards left in each of its
    seats' hands (a pozzetto taken and not played is there); ``closed``: the
    side went out; ``took_pozzetto``: the side took a pozzetto this hand.

    >>> from ledger.melds import analyze
    >>> m = analyze(("3H", "4H", "5H", "6H", "7H", "8H", "9H"), BURRACO_MELDS)
    >>> side_breakdown([m], [("KS", "JK")], closed=False, took_pozzetto=False)
    {'melds': 45, 'burraco_clean': 200, 'burraco_semi_clean': 0, 'burraco_dirty': 0, 'closing': 0, 'hand': -40, 'no_pozzetto': -100}
    """  # noqa: E501 (a doctest's output line)
    out = dict.fromkeys(COMPONENTS, 0)
    for info in melds:
        out["melds"] += cards_value(info.cards)
        kind = burraco_kind(info, semi_clean)
        if kind is not None:
            out["burraco_" + kind.replace("-", "_")] += BURRACO_BONUS[kind]
    out["closing"] = CLOSING_BONUS if closed else 0
    out["hand"] = -sum(cards_value(h) for h in hands)
    out["no_pozzetto"] = 0 if took_pozzetto else NO_POZZETTO
    return out
