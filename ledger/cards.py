"""Cards, their canonical notation and the decks of each variant.

The canonical notation (FORMAT.md, "Cards") is rank ``A 2 … 10 J Q K`` followed by
suit ``C D H S``, or ``JK`` for a joker. Inside the ledger a card is that
string: events, states and melds hold ``str`` values, and the tables below map
them to ranks and suits in O(1). :class:`Card` is the value type for code that
wants an object, with a lenient parser for human input.

>>> Card.parse("10H")
Card.parse('10H')
>>> Card.parse_lenient("t♥").code
'10H'
>>> rank_of("QS"), suit_of("QS"), is_joker("JK")
(12, 'S', True)
>>> len(standard_deck(decks=2, jokers=4))
108
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ledger.errors import RecordError
from ledger.texts import N_, Message

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
JOKER = "JK"
#: the card pattern of FORMAT.md; ``(?!\n)`` keeps Python's ``$`` from
#: accepting a trailing newline (it means the same in JSON Schema)
CARD_PATTERN = r"^(?:(?:A|[2-9]|10|J|Q|K)[CDHS]|JK)(?!\n)$"
_CARD_RE = re.compile(CARD_PATTERN)
#: an unknown card of a partial record (FORMAT.md, "Partial records"): PHH's ``??``
UNKNOWN = "??"
#: :data:`CARD_PATTERN` or :data:`UNKNOWN`: the fields FORMAT.md lets a partial record leave unnamed
MAYBE_CARD_PATTERN = r"^(?:(?:A|[2-9]|10|J|Q|K)[CDHS]|JK|\?\?)(?!\n)$"

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()} | {"♡": "H", "♢": "D", "♤": "S", "♧": "C"}

#: every canonical face of a 52-card deck, in rank-major order (AC AD AH AS 2C …)
FACES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)

#: card string -> rank number (A=1 … K=13, joker 0)
RANK: dict[str, int] = {r + s: i + 1 for i, r in enumerate(RANKS) for s in SUITS} | {JOKER: 0}
#: card string -> suit letter (joker: "")
SUIT: dict[str, str] = {r + s: s for r in RANKS for s in SUITS} | {JOKER: ""}
#: how a hand is laid out for a reader: ``suit`` (by suit, then rank; the default of the viewer,
#: ``show --at`` and the report) or ``dealt`` (as the record holds it)
HAND_ORDERS: tuple[str, ...] = ("suit", "dealt")
#: suit order of a sorted hand: black and red alternate (♠ ♥ ♣ ♦), jokers last
_SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}


def sorted_hand(cards: Iterable[str]) -> list[str]:
    """A hand as a reader sees it by default: by suit (♠ ♥ ♣ ♦, black and
    red alternating), within a suit by rank A 2 … 10 J Q K (FORMAT.md
    "Cards": A=1), jokers last; equal cards (two decks) stay together; an
    unknown card (``??``) after the jokers.

    >>> sorted_hand(["KD", "JK", "3S", "AH", "10S", "2H", "QC", "AS", "3S"])
    ['AS', '3S', '3S', '10S', 'AH', '2H', 'QC', 'KD', 'JK']
    """
    return sorted(cards, key=lambda c: (_SUIT_ORDER.get(SUIT.get(c, ""), 4), RANK.get(c, 99)))


#: rank number -> rank text
RANK_TEXT: dict[int, str] = {i + 1: r for i, r in enumerate(RANKS)}
#: card string -> its value in a hand's count in Ramino and Gin: A 1, 2–10 face, J Q K 10 (joker 0)
#: (RULES.md, "Ramino" and "Gin Rummy": scoring, deadwood)
LOW_VALUE: dict[str, int] = {card: min(rank, 10) for card, rank in RANK.items()}


def is_card(text: str) -> bool:
    """True when ``text`` is a canonical card string.

    >>> is_card("10H"), is_card("1H"), is_card("jk")
    (True, False, False)
    """
    return text in RANK


def rank_of(card: str) -> int:
    """Rank number of a canonical card: A=1, 2…10, J=11, Q=12, K=13, joker 0."""
    return RANK[card]


def suit_of(card: str) -> str:
    """Suit letter of a canonical card (``""`` for a joker)."""
    return SUIT[card]


def is_joker(card: str) -> bool:
    """True for the jolly ``JK``."""
    return card == JOKER


def make(rank: int, suit: str) -> str:
    """The card string for a rank number and suit letter.

    >>> make(1, "S"), make(10, "H")
    ('AS', '10H')
    """
    return RANK_TEXT[rank] + suit


def pretty(card: str) -> str:
    """Human notation with suit symbols: ``7♥``, ``10♠``, ``🃏`` shown as ``JK``,
    an unknown card (partial records) as ``??``.

    >>> pretty("7H"), pretty("JK")
    ('7♥', 'JK')
    """
    if card == JOKER or card == UNKNOWN:
        return card
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def pretty_list(cards: Iterable[str]) -> str:
    """Cards in human notation separated by spaces."""
    return " ".join(pretty(c) for c in cards)


class Card:
    """A card face as a value: ``Card.parse("10H")``.

    Equal cards compare and hash equal; ``str()`` gives the canonical form and
    ``repr()`` an expression that rebuilds the card.
    """

    __slots__ = ("code",)

    def __init__(self, code: str) -> None:
        if code not in RANK:
            raise ValueError(f"not a card: {code!r} (expected e.g. 10H, AS, JK)")
        self.code = code

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse canonical notation; raises :class:`ValueError` otherwise."""
        return cls(text)

    @classmethod
    def parse_lenient(cls, text: str) -> Card:
        """Parse human input: ``T`` or ``10``, any case, suit letters or ``♥♦♣♠``,
        ``joker``/``jolly``/``*`` for a joker. Raises :class:`ValueError`.

        >>> [Card.parse_lenient(t).code for t in ("th", "10♠", "a♦", "Jolly", "qc")]
        ['10H', '10S', 'AD', 'JK', 'QC']
        """
        return cls(normalize(text))

    @property
    def rank(self) -> int:
        """Rank number (A=1 … K=13, joker 0)."""
        return RANK[self.code]

    @property
    def suit(self) -> str:
        """Suit letter, ``""`` for a joker."""
        return SUIT[self.code]

    @property
    def is_joker(self) -> bool:
        """True for the jolly."""
        return self.code == JOKER

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)


def normalize(text: str) -> str:
    """Canonical card string for lenient human input; raises :class:`ValueError`.

    >>> normalize(" 10h "), normalize("T♣"), normalize("*")
    ('10H', '10C', 'JK')
    """
    t = text.strip()
    low = t.lower()
    if low in ("jk", "joker", "jolly", "*", "🃏"):
        return JOKER
    if not t:
        raise ValueError("empty card")
    suit_part = t[-1]
    rank_part = t[:-1].upper()
    suit = _SYMBOL_TO_SUIT.get(suit_part, suit_part.upper())
    if rank_part == "T":
        rank_part = "10"
    if rank_part == "1":
        rank_part = "A"
    code = rank_part + suit
    if code not in RANK or code == JOKER:
        raise ValueError(f"not a card: {text!r} (expected e.g. 10H, T♥, as, JK)")
    return code


def check_card(text: object, field: str = "card") -> str:
    """Return ``text`` when it is a canonical card, else raise ``REC-FORMAT``."""
    if isinstance(text, str) and _CARD_RE.match(text):
        return text
    raise RecordError(
        "REC-FORMAT", Message(N_("bad card string %(text)s (expected e.g. 10H, AS, JK)"), text=repr(text)), field=field
    )


def standard_deck(decks: int = 1, jokers: int = 0) -> list[str]:
    """All cards of ``decks`` 52-card decks plus ``jokers`` jokers, rank-major order.

    >>> len(standard_deck()), standard_deck()[:4]
    (52, ['AC', 'AD', 'AH', 'AS'])
    """
    return [c for _ in range(decks) for c in FACES] + [JOKER] * jokers


def deck_counter(decks: int = 1, jokers: int = 0) -> Counter[str]:
    """How many copies of each face the deck holds (a multiset)."""
    counts: Counter[str] = Counter({c: decks for c in FACES})
    if jokers:
        counts[JOKER] = jokers
    return counts
