"""Meld analysis: is an ordered list of cards a set, a sequence, or invalid?

The record's card order is authoritative (RULES.md, "The record's card order
is authoritative"): a sequence lists its cards ascending with each wild in the
place it fills, and this module never re-sorts a meld into a more favourable
reading. A variant describes its meld rules with :class:`MeldRules`;
:func:`analyze` returns a :class:`MeldInfo` that says what each wild stands
for, which 2s are natural, and which faults (if any) the meld has. Variants
map the fault codes to their rule ids.

>>> burraco = MeldRules(wild_twos=True, max_wilds=1, natural_two_bonus=True, max_set=9, max_sequence=14)
>>> info = analyze(("3H", "4H", "5H", "6H", "7H", "8H", "2H"), burraco)
>>> info.kind, info.stands_for[-1], info.wild_count
('sequence', '9H', 1)
>>> analyze(("2H", "3H", "4H", "5H", "6H", "7H", "8H"), burraco).wild_count
0
>>> analyze(("7C", "7D", "JK", "2S"), burraco).faults
('too_many_wilds',)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import msgspec

from ledger.cards import JOKER, RANK, RANK_TEXT, SUIT, make
from ledger.texts import N_

#: fault codes :func:`analyze` may report (variants map them to rule ids) -> their words (msgids)
FAULTS = {
    "invalid": N_("neither a set nor a sequence"),
    "too_short": N_("fewer than 3 cards"),
    "too_many_wilds": N_("more wild cards than allowed"),
    "wilds_only": N_("only wild cards"),
    "set_of_wild_rank": N_("a set of wild-rank cards (2s)"),
    "set_repeated_suit": N_("a set with a repeated suit"),
    "set_too_long": N_("a set with too many cards"),
    "sequence_too_long": N_("a sequence with too many cards"),
    "wild_inside": N_("a wild inside a sequence (only at either end)"),
    "wraps": N_("a sequence round the corner (K-A-2)"),
    "ace_high_forbidden": N_("an ace high where only ace low is allowed"),
    "ace_low_forbidden": N_("an ace low where only ace high is allowed"),
}


class MeldRules(msgspec.Struct, frozen=True, kw_only=True):
    """A variant's meld parameters.

    Attributes:
        wild_twos: every 2 is wild (Burraco's pinella) besides the jolly.
        max_wilds: most wilds a meld may hold (natural 2s do not count).
        natural_two_bonus: a 2 of the sequence's suit in its natural place is
            a natural card, not a wild, so such a sequence may still hold one
            wild besides it (Burraco; the 2 never uses up ``max_wilds``).
        ace_low, ace_high: where an ace may stand in a sequence.
        max_set: most cards in a set; ``set_distinct_suits``: suits must differ.
        max_sequence: most cards in a sequence.
        wild_ends_only: a wild in a sequence only at either end (Ramino 51).
    """

    wild_twos: bool = False
    max_wilds: int = 1
    natural_two_bonus: bool = False
    ace_low: bool = True
    ace_high: bool = True
    max_set: int = 4
    set_distinct_suits: bool = False
    max_sequence: int = 14
    wild_ends_only: bool = False


class MeldInfo(msgspec.Struct, frozen=True, gc=False):
    """What :func:`analyze` found.

    Attributes:
        kind: ``"set"``, ``"sequence"`` or ``"invalid"``.
        cards: the cards as laid.
        stands_for: per card, the natural card a wild stands for (a set's
            wild: rank with suit ``""``, e.g. ``"7"``), ``None`` for naturals.
        wild_count: wilds that count against the limit (natural 2s excluded).
        rank: a set's rank number, a sequence's suit letter in ``suit``.
        low: rank number of a sequence's first position (1 = ace low; the
            ace high counts as 14).
        faults: fault codes (keys of :data:`FAULTS`), empty when legal.
    """

    kind: str
    cards: tuple[str, ...]
    stands_for: tuple[str | None, ...]
    wild_count: int
    rank: int = 0
    suit: str = ""
    low: int = 0
    faults: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        """True when the meld has no fault."""
        return not self.faults

    def natural_ranks(self) -> tuple[int, ...]:
        """The rank each position counts as (sequence: 1..14; set: its rank)."""
        if self.kind == "sequence":
            return tuple(range(self.low, self.low + len(self.cards)))
        return tuple(self.rank for _ in self.cards)


def is_wild(card: str, rules: MeldRules) -> bool:
    """True for a jolly, and for a 2 where 2s are wild (before placement)."""
    return card == JOKER or (rules.wild_twos and RANK[card] == 2)


def analyze(cards: Sequence[str], rules: MeldRules) -> MeldInfo:
    """Classify ``cards`` (in the order laid) under ``rules``; results are
    cached (melds repeat across positions and games).

    See :func:`_analyze` for the doctests.
    """
    return _analyze_cached(tuple(cards), rules)


def _analyze(cards: tuple[str, ...], rules: MeldRules) -> MeldInfo:
    """Classify ``cards`` (in the order laid) under ``rules``.

    Returns a :class:`MeldInfo`; never raises for a bad meld (its faults say
    why). A meld that could be read both as a set and a sequence is read as
    whichever is legal, the sequence first.

    >>> _analyze(("QS", "KS", "AS"), MeldRules()).low
    12
    >>> _analyze(("KS", "AS", "2S"), MeldRules()).faults
    ('invalid',)
    >>> _analyze(("5C", "5D", "5C"), MeldRules(set_distinct_suits=True)).faults
    ('set_repeated_suit',)
    """
    seq = _as_sequence(cards, rules)
    if seq is not None and not seq.faults:
        return seq
    st = _as_set(cards, rules)
    if st is not None and not st.faults:
        return st
    # Prefer the reading that got furthest: a set-shaped meld reports set faults.
    for candidate in (st, seq):
        if candidate is not None:
            return candidate
    wilds = sum(1 for c in cards if is_wild(c, rules))
    suits = {SUIT[c] for c in cards if not is_wild(c, rules)}
    if len(cards) > rules.max_sequence and len(suits) == 1:
        # more cards of one suit than any sequence can hold (13 naturals + 1 wild)
        return MeldInfo(
            "invalid", cards, tuple(None for _ in cards), wilds, suit=suits.pop(), faults=("sequence_too_long",)
        )
    faults: tuple[str, ...] = ("wilds_only",) if cards and wilds == len(cards) else ("invalid",)
    if len(cards) < 3:
        faults = ("too_short",) + tuple(f for f in faults if f != "invalid")
    return MeldInfo("invalid", cards, tuple(None for _ in cards), wilds, faults=faults)


def _as_set(cards: tuple[str, ...], rules: MeldRules) -> MeldInfo | None:
    """Read ``cards`` as a set, or None when the naturals do not share a rank."""
    naturals = [c for c in cards if not is_wild(c, rules)]
    if not naturals:
        twos = [c for c in cards if c != JOKER]
        if rules.wild_twos and twos and len(twos) >= 2:
            # A set of 2s (with or without a jolly) is a set-shaped meld of wild rank.
            return MeldInfo("set", cards, tuple(None for _ in cards), 0, rank=2, faults=("set_of_wild_rank",))
        return None
    rank = RANK[naturals[0]]
    if any(RANK[c] != rank for c in naturals):
        return None
    stands = tuple(None if not is_wild(c, rules) else RANK_TEXT[rank] for c in cards)
    wilds = sum(1 for s in stands if s is not None)
    faults: list[str] = []
    if len(cards) < 3:
        faults.append("too_short")
    if rules.set_distinct_suits and len({SUIT[c] for c in naturals}) != len(naturals):
        faults.append("set_repeated_suit")
    if len(cards) > rules.max_set:
        faults.append("set_too_long")
    if wilds > rules.max_wilds:
        faults.append("too_many_wilds")
    return MeldInfo("set", cards, stands, wilds, rank=rank, faults=tuple(faults))


def _as_sequence(cards: tuple[str, ...], rules: MeldRules) -> MeldInfo | None:
    """Read ``cards`` as an ascending sequence, or None when the naturals are
    not of one suit or cannot stand in the places the order gives them."""
    start = _sequence_start(cards, rules)
    if start is None:
        return None
    low, suit = start
    placed = _place_sequence(cards, rules, low, suit)
    if placed is None:
        return None
    stands, wild_positions, natural_twos = placed
    high = low + len(cards) - 1
    if low < 1 or high > 14:
        return None
    faults = _sequence_faults(cards, rules, low, stands, wild_positions, natural_twos)
    return MeldInfo("sequence", cards, stands, len(wild_positions), suit=suit, low=low, faults=faults)


def _sequence_start(cards: tuple[str, ...], rules: MeldRules) -> tuple[int, str] | None:
    """The rank of a would-be sequence's first place and its suit, from its
    anchor: the first card that is surely natural (not a jolly, not a 2 when
    2s are wild, not an ace); with only aces, 2s and jokers, the first ace
    (low at the start, else high at the end). None without an anchor."""
    for i, c in enumerate(cards):
        if c != JOKER and not (rules.wild_twos and RANK[c] == 2) and RANK[c] != 1:
            return RANK[c] - i, SUIT[c]
    aces = [i for i, c in enumerate(cards) if c != JOKER and RANK[c] == 1]
    if not aces:
        return None
    anchor = aces[0]
    low = 14 - anchor if (anchor == len(cards) - 1 and anchor != 0) else 1 - anchor
    return low, SUIT[cards[anchor]]


def _place_sequence(
    cards: tuple[str, ...], rules: MeldRules, low: int, suit: str
) -> tuple[tuple[str | None, ...], list[int], int] | None:
    """Each card in its place from ``low``: what each wild stands for, the
    wilds' positions and the count of natural 2s (Burraco's bonus); None
    when a natural is not the card of its place."""
    stands: list[str | None] = []
    wild_positions: list[int] = []
    natural_twos = 0
    for i, c in enumerate(cards):
        want = low + i
        if c == JOKER or (rules.wild_twos and RANK[c] == 2):
            if c != JOKER and rules.natural_two_bonus and SUIT[c] == suit and want == 2:
                stands.append(None)
                natural_twos += 1
                continue
            if not (1 <= want <= 14):
                return None
            stands.append("A" + suit if want in (1, 14) else make(want, suit))
            wild_positions.append(i)
            continue
        if SUIT[c] != suit or (RANK[c] != want and not (RANK[c] == 1 and want == 14)):
            return None
        stands.append(None)
    return tuple(stands), wild_positions, natural_twos


def _sequence_faults(
    cards: tuple[str, ...],
    rules: MeldRules,
    low: int,
    stands: tuple[str | None, ...],
    wild_positions: list[int],
    natural_twos: int,
) -> tuple[str, ...]:
    """The faults of a sequence placed from ``low`` (keys of :data:`FAULTS`)."""
    high = low + len(cards) - 1
    wilds = len(wild_positions)
    faults: list[str] = []
    if len(cards) < 3:
        faults.append("too_short")
    if low == 1 and high == 14 and stands[0] is None and stands[-1] is None:
        faults.append("wraps")  # a natural ace at both ends: one ace low and one high
    if low == 1 and not rules.ace_low:
        faults.append("ace_low_forbidden")
    if high == 14 and not rules.ace_high:
        faults.append("ace_high_forbidden")
    if len(cards) > rules.max_sequence:
        faults.append("sequence_too_long")
    # Natural 2s are not wilds (not in ``wilds``); the limit applies to the real wilds only.
    if wilds > rules.max_wilds:
        faults.append("too_many_wilds")
    if wilds and not [c for c in cards if not is_wild(c, rules)] and not natural_twos:
        faults.append("wilds_only")
    if rules.wild_ends_only and any(0 < p < len(cards) - 1 for p in wild_positions):
        faults.append("wild_inside")
    return tuple(faults)


def layoff_candidates(meld: Sequence[str], added: Sequence[str], rules: MeldRules) -> list[tuple[str, ...]]:
    """Cached :func:`_layoff_candidates` (see there)."""
    return list(_layoff_cached(tuple(meld), tuple(added), rules))


def _layoff_candidates(meld: tuple[str, ...], added: tuple[str, ...], rules: MeldRules) -> list[tuple[str, ...]]:
    """The distinct legal orders of ``meld`` plus ``added``: the added cards
    at the ends (low end and/or high end, in every split), and, when an added
    natural is the card a wild of the sequence stands for, that natural in
    the wild's place with the wild moved to an end (RULES.md, Burraco "A wild
    never goes back to the hand").

    Used to place a lay-off whose ``result`` the record does not give; more
    than one candidate means the placement is ambiguous.

    >>> _layoff_candidates(("5H", "6H", "7H"), ("8H",), MeldRules())
    [('5H', '6H', '7H', '8H')]
    >>> _layoff_candidates(("5H", "6H", "7H"), ("JK",), MeldRules())
    [('5H', '6H', '7H', 'JK'), ('JK', '5H', '6H', '7H')]
    >>> _layoff_candidates(("5H", "JK", "7H"), ("6H",), MeldRules())
    [('5H', '6H', '7H', 'JK'), ('JK', '5H', '6H', '7H')]
    >>> _layoff_candidates(("QH", "KH", "JK"), ("AH",), MeldRules())
    [('JK', 'QH', 'KH', 'AH')]
    """
    base = analyze(meld, rules)
    if base.kind == "set":
        cand = meld + added
        return [cand] if analyze(cand, rules).valid else []
    found = _end_placements(meld, added, rules)
    if base.kind == "sequence":
        for i, natural in enumerate(base.stands_for):
            if natural is None or natural not in added:
                continue
            rest = list(added)
            rest.remove(natural)
            for cand in _end_placements(meld[:i] + (natural,) + meld[i + 1 :], tuple(rest) + (meld[i],), rules):
                if cand not in found:
                    found.append(cand)
    return sorted(found)


def _end_placements(meld: tuple[str, ...], added: tuple[str, ...], rules: MeldRules) -> list[tuple[str, ...]]:
    """Legal orders of ``meld`` with ``added`` split between its two ends."""
    from itertools import permutations

    found: list[tuple[str, ...]] = []
    orders = sorted(set(permutations(added))) if len(added) <= 5 else [tuple(sorted(added, key=lambda c: RANK[c]))]
    for order in orders:
        for split in range(len(order) + 1):
            cand = order[:split] + meld + order[split:]
            if cand not in found and analyze(cand, rules).valid:
                found.append(cand)
    return found


_analyze_cached = lru_cache(maxsize=1 << 16)(_analyze)
_layoff_cached = lru_cache(maxsize=1 << 14)(lambda meld, added, rules: tuple(_layoff_candidates(meld, added, rules)))
