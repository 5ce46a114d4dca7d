"""Gin Rummy's options and per-hand table state (RULES.md "Gin Rummy (`gin`)").

:class:`GinOptions` is the record's options (presets in
:class:`~ledger.variants.gin.rules.GinRules`), :class:`GinExtra` the state the fold
keeps per hand (``TableState.extra``): the first-turn upcard offer, the knock,
the cards that count as deadwood, the hand's endings (GIN-WALL-1,
GIN-STALL-1); with the constants both read.
"""

from __future__ import annotations

from typing import Annotated

from ledger.events import EVENT_TYPES
from ledger.state import VariantState
from ledger.variants.options import FIXED, Options

#: offer stages of the first-turn upcard (GinExtra.offer)
OFFER_NON_DEALER, OFFER_DEALER, OFFER_BOTH_PASSED, OFFER_OVER = 0, 1, 2, 3

#: OpenSpiel's cap: the hand is over when this upcard draw (after the first turn) would be made
MAX_UPCARD_DRAWS = 50
#: stock cards left at the wall
WALL = 2
#: the events that are play within a hand (what GIN-WALL-1 / GIN-STALL-1 judge)
PLAY_EVENTS = frozenset(
    {
        "card_drawn",
        "discard_taken",
        "card_discarded",
        "knocked",
        "meld_laid",
        "meld_extended",
        "upcard_passed",
        "joker_swapped",
    }
)


#: the event classes of :data:`PLAY_EVENTS` (what the fold tests at every event)
PLAY_EVENT_CLASSES = frozenset(t for t in EVENT_TYPES if t.__struct_config__.tag in PLAY_EVENTS)


class GinExtra(VariantState, frozen=True):
    """Per hand: the upcard offer stage, the knock, per seat the cards that
    count as deadwood although they left the hand (``void``), and the hand's
    endings (RULES.md GIN-WALL-1, GIN-STALL-1).

    ``limit``: the hand's knock limit (``knock_card``, or the first upcard's
    value under ``oklahoma``), ``first_upcard`` the hand's first upcard. ``wall``: position of the discard that left
    two stock cards. ``wall_take``: ``openspiel``, the seat that took the
    upcard at the wall (it must knock next). ``repeat``: position of the last
    discard of the card just taken from the upcard, when the turn before did
    not also do so (OpenSpiel's repeated-move rule). ``upcard_draws``: upcard
    draws after the first turn. ``over``: why the hand is over although
    play goes on (``"wall"``, ``"repeat"``, ``"cap"``), with ``over_at`` (the
    position where it ended) and ``reported`` (its finding was made).
    ``big_gin_open``: partial records, a gin whose face-down discard is ``??``
    and some card in its place would make it big gin: the knocker's count
    depends on that unknown card, so the hand is scored as claimed (FORMAT.md
    "Partial records", RULES.md ALL-SCORE-2).
    """

    offer: int = OFFER_NON_DEALER
    knocker: int | None = None
    gin: bool = False
    big_gin: bool = False
    big_gin_open: bool = False
    void: tuple[tuple[str, ...], ...] = ((), ())
    limit: int = 10
    first_upcard: str = ""
    wall: int | None = None
    wall_take: int | None = None
    repeat: tuple[int, ...] = ()
    upcard_draws: int = 0
    over: str | None = None
    over_at: int | None = None
    reported: bool = False


class GinOptions(Options, frozen=True, kw_only=True):
    """Gin Rummy's options (RULES.md, "Gin Rummy"); the bonuses past the first
    three and the endings are fixed by the preset."""

    #: the most deadwood a knock may leave (GIN-KNOCK-1)
    knock_card: int = 10
    #: the bonus for going gin
    gin_bonus: int = 25
    #: the bonus for an undercut
    undercut_bonus: int = 25
    #: the game ends when a seat reaches this total (0: one hand)
    target: int
    #: Oklahoma: the first upcard sets the knock limit
    oklahoma: bool = False
    #: the bonus for big gin (0: none)
    big_gin_bonus: Annotated[int, FIXED]
    #: the bonus for winning the game
    game_bonus: Annotated[int, FIXED]
    #: the bonus per hand won (the box)
    box_bonus: Annotated[int, FIXED]
    #: equal deadwood is an undercut
    undercut_on_equal: Annotated[bool, FIXED]
    #: the card just taken from the pile may not be discarded (GIN-DISC-1)
    retake_forbidden: Annotated[bool, FIXED]
    #: OpenSpiel's endings: the wall, the repeated move and the upcard cap (GIN-WALL-1, GIN-STALL-1)
    openspiel_endings: Annotated[bool, FIXED]
