"""The immutable table state that the fold (:mod:`ledger.replay`) rebuilds.

A :class:`TableState` is a frozen msgspec struct: every event gives a new
state (``msgspec.structs.replace``), sharing the unchanged tuples with the one
before. It holds the table *as the record says it happened*: hands, stock,
discard pile, pozzetti, melds, turn and phase, and the findings (rule
violations) and hand scores found so far, so the state at position N is also
the audit and the score sheet up to N.

Cards are canonical strings (:mod:`ledger.cards`); a hand is a tuple of cards
in the order they arrived.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import msgspec

from ledger.events import Player
from ledger.melds import MeldInfo
from ledger.texts import N_, Message, Translator, text

if TYPE_CHECKING:  # for the checker only: the rules import this module
    from ledger.variants.base import Rules

replace = msgspec.structs.replace

T = TypeVar("T")


class Log(Sequence[T], Generic[T]):
    """An immutable sequence that grows by sharing: ``log.appended(x)`` is a
    new log of ``len(log) + 1`` items that shares its storage with ``log``.

    The fold gives a new state for every event; the findings, scores and
    penalties so far are part of each state. A tuple there would be copied at
    every finding, so a record with ``n`` findings would cost ``n²`` (and the
    states stay linked through ``history``). A log is a view of the first
    ``len`` items of one append-only list: appending to the longest view
    appends in place (O(1)); appending to an older view (a replay from a
    checkpoint) copies its items once. It compares equal to the tuple of its
    items, and slices give tuples.

    >>> a = Log(("x",)); b = a.appended("y"); c = a.appended("z")
    >>> a, b, c, b[-1], c[1:]
    (('x',), ('x', 'y'), ('x', 'z'), 'y', ('z',))
    >>> b == ("x", "y") and len(c) == 2
    True
    """

    __slots__ = ("_items", "_n")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._n = len(self._items)

    @classmethod
    def _view(cls, items: list[T], n: int) -> Log[T]:
        log: Log[T] = object.__new__(cls)
        log._items = items
        log._n = n
        return log

    def appended(self, item: T) -> Log[T]:
        """This log with ``item`` at the end (``self`` is unchanged)."""
        items, n = self._items, self._n
        if len(items) == n:
            items.append(item)
            if items[n] is item:  # no other view appended in between (viewer threads)
                return self._view(items, n + 1)
        fresh = items[:n]
        fresh.append(item)
        return self._view(fresh, n + 1)

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[T]:
        return islice(self._items, self._n)

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        return (items[i] for i in range(self._n - 1, -1, -1))

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            items = self._items
            return tuple(items[i] for i in range(self._n)[index])
        i = index + self._n if index < 0 else index
        if not 0 <= i < self._n:
            raise IndexError("log index out of range")
        return self._items[i]

    def __add__(self, other: Iterable[T]) -> Log[T]:
        log = self
        for item in other:
            log = log.appended(item)
        return log

    def __radd__(self, other: tuple[T, ...]) -> tuple[T, ...]:
        return tuple(other) + tuple(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return self._n == other._n and (self._items is other._items or tuple(self) == tuple(other))
        if isinstance(other, (tuple, list)):
            return len(other) == self._n and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def _log() -> Log[Any]:
    return Log()


class Finding(msgspec.Struct, frozen=True, gc=False):
    """A rule violation: ``{position, hand, seat, rule, message}`` (FORMAT.md).

    ``rule`` is a RULES.md id. The message is data: ``msgid`` (the English
    sentence with ``%(name)s`` placeholders, marked ``N_``) and ``params``,
    its values in the order of :func:`ledger.texts.placeholders` (plain
    values, nested :class:`~ledger.texts.Message` pieces, tuples). The
    English :attr:`message` is ``msgid % params``; :meth:`text` renders it in
    another language. Two findings are equal when position, hand, seat, rule
    and English message are.
    """

    position: int
    hand: int | None
    seat: int | None
    rule: str
    msgid: str
    params: tuple[Any, ...] = ()

    @property
    def message(self) -> str:
        """The English text (FORMAT.md "Findings"): ``msgid % params``."""
        return text(self.msgid, self.params)

    def text(self, tr: Translator | None = None) -> str:
        """The message in the language of ``tr`` (English when None)."""
        return text(self.msgid, self.params, tr)

    def as_message(self) -> Message:
        """The message as a :class:`~ledger.texts.Message`."""
        return Message.of(self.msgid, self.params)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[Any, ...]:
        return (self.position, self.hand, self.seat, self.rule, self.message)


class Meld(msgspec.Struct, frozen=True, gc=False):
    """A meld on the table.

    Attributes:
        id: the record's meld id (unique within the hand).
        seat: who laid it; ``side``: the seat's side (team in partnerships).
        cards: the cards in table order.
        info: the analysis of ``cards`` (:class:`~ledger.melds.MeldInfo`).
        laid_at: position of the ``meld_laid`` event.
    """

    id: str
    seat: int
    side: int
    cards: tuple[str, ...]
    info: MeldInfo
    laid_at: int


class SideScore(msgspec.Struct, frozen=True):
    """One side's (seat's or team's) points for a hand, with the breakdown
    (component name -> points; the README lists the names)."""

    side: int
    points: int
    breakdown: dict[str, int]
    #: partial records: the points are the side's ``claimed`` ones (its count
    #: depended on unknown cards; breakdown ``claimed``): FORMAT.md, "Partial records"
    as_claimed: bool = False
    #: partial records: the side's count depended on unknown cards and it claimed nothing, so the
    #: hand is not scored for it (0 points, ALL-SCORE-2): RULES.md ALL-SCORE-2
    unscored: bool = False


class HandResult(msgspec.Struct, frozen=True):
    """A scored hand: ``reason`` and ``seat`` from ``hand_ended``, the
    computed scores per side *as played* (no referee penalties), and the
    claimed sheet when the record had one."""

    hand: int
    position: int
    reason: str
    seat: int | None
    scores: tuple[SideScore, ...]
    claimed: tuple[tuple[int, int], ...] | None = None


class Penalty(msgspec.Struct, frozen=True):
    """A referee's ``penalty_assessed``: points added to ``side`` in ``hand``."""

    position: int
    hand: int
    side: int
    points: int
    rule: str


class VariantState(msgspec.Struct, frozen=True, gc=False):
    """A variant's own per-hand table state (``TableState.extra``).

    Each variant that keeps state of its own subclasses this frozen struct
    (``BurracoExtra``, ``GinExtra``, ``RaminoExtra``, ``ThresholdExtra`` for
    Scala 40 and Ramino 51), makes a fresh one at each deal
    (``Rules.new_extra``), reads it through its rules' typed accessor
    (``ex(state)``, :func:`variant_state`) and changes it with
    ``Rules.set_extra``. It is never stored: the fold rebuilds it. It is not
    tracked by the cycle collector (``gc=False``, which subclasses inherit):
    its fields are values (numbers, strings, tuples, frozen structs), never a
    list, a dict or a state.
    """


VS = TypeVar("VS", bound=VariantState)


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """The table at one position of a record.

    Unlike the findings, melds and variant states it holds, a state stays
    tracked by the cycle collector: ``history`` chains one state to the one
    before, and only a collector-tracked struct is freed without recursing
    once per link (a hand of 200,000 events freed with ``gc=False`` overflows
    the C stack: tests/test_hostile_cost.py).

    Attributes (sizes per seat are in seat order):
        rules: the variant's rules object with the record's ruleset/options.
        game_id, players: from ``game_started``.
        sides: the side of each seat (team in partnerships, else the seat).
        position: the position of the last event applied (-1 before any).
        hand: 1-based hand number (0 before the first deal); ``dealer``.
        phase: ``"setup"`` (no hand yet), ``"draw"`` (the seat due must draw),
            ``"play"`` (drawn; meld, lay off, discard), ``"over"`` (hand ended),
            ``"ended"`` (game ended).
        turn: the seat due to act (None outside a hand).
        hands: each seat's cards.
        stock: the stock top first when known, else None; ``stock_count``.
        discard: the discard pile, bottom first.
        melds: the melds on the table in the order laid.
        pozzetti: Burraco's two pozzetti (card tuples, None when unknown or
            taken); ``pozzetto_by``: the seat that took each, or None.
        opened: per seat, has it melded (opened) this hand.
        turns: per seat, turns begun this hand (1 during its first turn).
        drew: how the current turn drew: ``"stock"``, ``"pile"`` or None.
        taken: the cards taken from the discard pile this turn.
        turn_start: position where the current turn began.
        turn_melds: meld ids laid or extended this turn.
        findings: every finding so far, by position (a :class:`Log`, a
            sequence shared with the states before: never copied).
        results: scored hands so far; ``penalties``: referee penalties (logs too).
        totals: running totals per side *as adjudicated*.
        ended: the ``game_ended`` reason once ended.
        history: the state of the previous position within this hand (for
            ``position_restored``), None at a deal.
        extra: the variant's own state (a :class:`VariantState` subclass the
            variant defines; None for a variant without one or before a deal).
    """

    rules: Rules
    game_id: str
    players: tuple[Player, ...]
    sides: tuple[int, ...]
    position: int = -1
    hand: int = 0
    dealer: int | None = None
    phase: str = "setup"
    turn: int | None = None
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] | None = None
    stock_count: int = 0
    discard: tuple[str, ...] = ()
    melds: tuple[Meld, ...] = ()
    pozzetti: tuple[tuple[str, ...] | None, ...] = ()
    pozzetto_by: tuple[int | None, ...] = ()
    opened: tuple[bool, ...] = ()
    turns: tuple[int, ...] = ()
    drew: str | None = None
    taken: tuple[str, ...] = ()
    turn_start: int = -1
    turn_melds: tuple[str, ...] = ()
    findings: Log[Finding] = msgspec.field(default_factory=_log)
    results: Log[HandResult] = msgspec.field(default_factory=_log)
    penalties: Log[Penalty] = msgspec.field(default_factory=_log)
    totals: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    ended: str | None = None
    history: TableState | None = None
    extra: VariantState | None = None

    # --- derived views ---------------------------------------------------
    @property
    def n_seats(self) -> int:
        """Number of seats at the table."""
        return len(self.players)

    @property
    def n_sides(self) -> int:
        """Number of scoring sides (teams in partnerships, else seats)."""
        return max(self.sides) + 1 if self.sides else 0

    @property
    def top(self) -> str | None:
        """Top card of the discard pile, or None when empty."""
        return self.discard[-1] if self.discard else None

    def meld(self, meld_id: str) -> Meld | None:
        """The meld with that id in this hand, or None."""
        for m in self.melds:
            if m.id == meld_id:
                return m
        return None

    def side_melds(self, side: int) -> tuple[Meld, ...]:
        """The melds of one side, in the order laid."""
        return tuple(m for m in self.melds if m.side == side)

    def name(self, seat: int | None) -> str:
        """The player's name at ``seat`` (``"seat N"`` when unknown)."""
        if seat is not None and 0 <= seat < len(self.players):
            return self.players[seat].name
        return f"seat {seat}"

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that make up a side."""
        return tuple(s for s, sd in enumerate(self.sides) if sd == side)

    def side_label(self, side: int) -> str:
        """A side as findings and views name it: ``"Anna"`` for a seat
        alone, ``"team 0 (Anna & Carla)"`` for a team."""
        return str(self.side_message(side))

    def side_message(self, side: int) -> str | Message:
        """A side as data: the player's name for a seat alone, else the
        message ``team %(team)s (%(names)s)`` (Italian ``coppia 0 (Anna & Carla)``)."""
        seats = self.seats_of(side)
        if len(seats) == 1:
            return self.name(seats[0])
        return Message(N_("team %(team)s (%(names)s)"), team=side, names=" & ".join(self.name(s) for s in seats))

    # --- the end of a hand and of the game (the variant's rules decide) ---
    @property
    def hand_over(self) -> bool:
        """True when the current hand is over: ``hand_ended`` (or
        ``game_ended``) applied, or the variant's rules end the hand here
        (:meth:`~ledger.variants.outcome.OutcomeRules.hand_over`)."""
        return bool(self.rules.hand_over(self))

    @property
    def game_end_reason(self) -> str | None:
        """The ``game_ended`` reason once the game is over (the stored one
        after ``game_ended``; else the one the variant's end condition gives:
        ``target_reached``, ``elimination``, ``hands_played``), None while
        the game goes on (RULES.md, each variant's scoring)."""
        return self.ended or self.rules.game_end_reason(self)

    @property
    def game_over(self) -> bool:
        """True once ``game_ended`` is applied or the variant's end condition
        holds after the last hand (no more hands are to be dealt)."""
        return self.game_end_reason is not None


def variant_state(state: TableState, kind: type[VS]) -> VS:
    """``state.extra`` as the variant state struct ``kind`` (what a variant's
    typed accessor returns). Raises :class:`TypeError` when the table holds
    another (or none, before the first deal): a rules error, never a
    record's. (The variants' accessors check ``isinstance`` in place and call
    this only to raise: they are read at nearly every event.)

    >>> class Toy(VariantState, frozen=True):
    ...     n: int = 0
    >>> variant_state(TableState(rules=None, game_id="g", players=(), sides=(), extra=Toy(3)), Toy).n
    3
    """
    x = state.extra
    if isinstance(x, kind):
        return x
    raise TypeError(f"the table at position {state.position} holds {type(x).__name__}, not {kind.__name__}")
