"""OpenSpiel ``gin_rummy`` action ids: what each id means, cards and melds decoded (``gin_rummy.h``).

Action ids::

    0..51   a card: suit-major in the order s c d h, ace low:
            id = 13 * suit + (rank - 1); 0 = AS, 12 = KS, 13 = AC, 51 = KH.
            Chance: the deal (10 to player 0, 10 to player 1, then the
            upcard) and every stock draw; player: a discard, the knocker's
            face-down discard, or a lay-off by the defender.
    52      draw the upcard                 -> discard_taken
    53      draw from the stock             -> card_drawn (the card is the
                                               next chance action)
    54      pass: first-turn upcard offer   -> upcard_passed
                  end of the knocker's melds -> knocked
                  end of lay-offs / of the defender's melds
                  at the wall               -> hand_ended stock_exhausted
    55      knock                           -> knocked (at the wall: the
                                               upcard is taken first,
                                               discard_taken + knocked)
    56..240 lay a meld: index = id - 56 (:func:`meld_cards`): 0..64 sets
            (5 per rank, ace first: the four 3-card sets ordered by the
            missing suit s c d h, then the 4-card set), 65..108 sequences
            of 3, 109..148 of 4, 149..184 of 5, each ordered by suit
            (s c d h) then by lowest rank.
"""

from __future__ import annotations

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
NUM_MELDS = 185
_SUITS = "SCDH"  # OpenSpiel's suit order s c d h
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def card(action: int) -> str:
    """The canonical card of an OpenSpiel card id.

    >>> card(0), card(12), card(13), card(51)
    ('AS', 'KS', 'AC', 'KH')
    """
    if not 0 <= action < 52:
        raise ValueError(f"{action} is not an OpenSpiel card id (0..51)")
    return _RANKS[action % 13] + _SUITS[action // 13]


def meld_cards(index: int) -> tuple[str, ...]:
    """The cards of OpenSpiel meld ``index`` (0..184; action ``56 + index``),
    sets in suit order s c d h, sequences ascending.

    >>> meld_cards(0), meld_cards(4), meld_cards(184)
    (('AC', 'AD', 'AH'), ('AS', 'AC', 'AD', 'AH'), ('9H', '10H', 'JH', 'QH', 'KH'))
    """
    if not 0 <= index < NUM_MELDS:
        raise ValueError(f"{index} is not an OpenSpiel meld index (0..184)")
    if index < 65:
        rank, k = divmod(index, 5)
        suits = [s for i, s in enumerate(_SUITS) if i != k]
        return tuple(_RANKS[rank] + s for s in suits)
    index -= 65
    for size, count in ((3, 11), (4, 10), (5, 9)):
        if index < 4 * count:
            suit, low = divmod(index, count)
            return tuple(_RANKS[low + i] + _SUITS[suit] for i in range(size))
        index -= 4 * count
    raise AssertionError("unreachable")


#: the OpenSpiel card id of each canonical card (``"AS"`` -> 0)
CARD_ID = {card(i): i for i in range(52)}
