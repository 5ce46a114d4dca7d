"""Burraco's options and per-hand table state (RULES.md "Burraco (`burraco`)").

:class:`BurracoOptions` is the record's options (presets in
:class:`~ledger.variants.burraco.rules.BurracoRules`), :class:`BurracoExtra` the
state the fold keeps per hand (``TableState.extra``) besides the pozzetti,
which are fields of the table itself; :class:`TableAtEnd` the table a
``fibur`` hand is scored on after the stock's end.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ledger.state import Meld, VariantState
from ledger.variants.options import FIXED, Options


class TableAtEnd(msgspec.Struct, frozen=True):
    """The table as it stood after the discard that ended a ``fibur`` hand at
    the stock's end (``position``): what the hand is scored on."""

    position: int
    seat: int
    hands: tuple[tuple[str, ...], ...]
    melds: tuple[Meld, ...]
    pozzetto_by: tuple[int | None, ...]


class BurracoExtra(VariantState, frozen=True):
    """Burraco's per-hand state (``TableState.extra``).

    Attributes:
        single_take: ``(position, card)`` of a ``discard_taken`` of a one-card
            pile whose face the seat did not already hold (``BUR-PILE-1``).
        early_seat: the seat that took a pozzetto with its discard; cleared
            when that seat's next turn begins (``BUR-POZZ-2``).
        last_discard: ``(position, seat, card)`` of the last discard.
        restocked_from: pozzetti that became the stock (preset ``seed``).
        going_out: ``(position, seat, rule ids)`` of the going out once
            judged: the event that emptied the hand of a seat whose side had
            its pozzetto, or ``hand_ended``; the rule ids are the BUR-CLOSE
            findings it broke (empty: a regular closing).
        stock_end: the table after the discard that ended the hand at the
            stock's end (preset ``fibur``), else None.
        late_play: position of the BUR-STOCK-1 reported for play after
            that discard, else None.
    """

    single_take: tuple[int, str] | None = None
    early_seat: int | None = None
    last_discard: tuple[int, int, str] | None = None
    restocked_from: tuple[int, ...] = ()
    going_out: tuple[int, int, tuple[str, ...]] | None = None
    stock_end: TableAtEnd | None = None
    late_play: int | None = None


#: event types that are play at the table (BUR-STOCK-1 after the stock's end)
PLAY_EVENTS = frozenset(
    {"card_drawn", "discard_taken", "meld_laid", "meld_extended", "joker_swapped", "card_discarded", "pozzetto_taken"}
)


class BurracoOptions(Options, frozen=True, kw_only=True):
    """Burraco's options (RULES.md, "Burraco": presets and options)."""

    #: jokers in the two decks (preset only)
    jokers: Annotated[int, FIXED]
    #: the end of the stock: ``last_two`` (FIBUR) or ``pozzetto`` (an untaken pozzetto is the new stock; preset only)
    stock_end: Annotated[Literal["last_two", "pozzetto"], FIXED]
    #: two sets of the same rank may be on a side's table
    duplicate_sets: bool = False
    #: the semi-clean burraco (150: the wild at one end of 7+ naturals) is a kind of its own
    semi_clean: bool = True
    #: the burraco closing requires: ``any``, ``clean`` or ``clean_or_semi``
    closing_requires: Literal["any", "clean", "clean_or_semi"] = "any"
    #: the game ends when a side reaches this total
    target: int = 2005
    #: a fixed number of hands instead of the target, as in tournaments (0: the target)
    hands: int = 0
    #: the player count the record must seat, 2, 3 or 4 (unset: any the variant allows)
    players: int | None = None
