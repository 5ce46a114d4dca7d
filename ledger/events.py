"""The events of a ``rummy-ledger/1`` record, as msgspec structs (FORMAT.md, "Events").

One base struct carries the policy: frozen, keyword-only, tagged by ``type``,
unknown fields forbidden, defaults omitted when encoding (so an event encodes
back to the canonical form of its line). :data:`Event` is the tagged union and
:func:`decode_event` / :func:`encode_event` the one codec.

Class names are stored as topics in the event store: never rename one without
registering an alias.

>>> e = decode_event(b'{"type":"card_drawn","seat":0,"card":"6H"}')
>>> e
CardDrawn(at=None, note=None, seat=0, card='6H')
>>> encode_event(e)
b'{"type":"card_drawn","seat":0,"card":"6H"}'
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta

from ledger import FORMAT
from ledger.cards import CARD_PATTERN

CardStr = Annotated[str, Meta(pattern=CARD_PATTERN, description="A card: rank A 2-10 J Q K and suit C D H S, or JK")]
Cards = tuple[CardStr, ...]
Seat = Annotated[int, Meta(ge=0, le=15, description="0-based seat, clockwise")]
MeldId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,16}(?!\n)$", description="Meld id, unique within the hand")]
GameId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9._-]{1,64}(?!\n)$")]
#: game points in one score line or penalty (bounded so that totals fit the analytics' 32-bit columns)
Points = Annotated[int, Meta(ge=-1_000_000, le=1_000_000)]
Note = Annotated[str, Meta(max_length=2000)]
Position = Annotated[int, Meta(ge=0, le=100_000_000)]
#: the referee who rules (``penalty_assessed`` / ``position_restored``)
Referee = Annotated[str, Meta(min_length=1, max_length=200)]

VARIANTS = ("burraco", "scala40", "ramino", "ramino51", "gin")
Variant = Literal["burraco", "scala40", "ramino", "ramino51", "gin"]
OptionValue = Union[bool, Annotated[int, Meta(ge=0, le=1_000_000)], Annotated[str, Meta(max_length=64)]]


class _Struct(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Policy for the value structs nested inside events."""


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    tag_field="type",
):
    """Base of every record event: optional ``at`` (ISO-8601) and ``note``."""

    at: str | None = None
    note: Note | None = None

    def __post_init__(self) -> None:
        if self.at is not None:
            try:
                datetime.fromisoformat(self.at.replace("Z", "+00:00"))
            except ValueError:
                raise ValueError(f"`at` is not an ISO-8601 time: {self.at!r}") from None

    @property
    def type(self) -> str:
        """The event's ``type`` tag, e.g. ``"card_drawn"``."""
        return type(self).__struct_config__.tag  # type: ignore[return-value]


class Player(_Struct, kw_only=True):
    """A seat at the table: ``{seat, name, team?}``."""

    seat: Seat
    name: Annotated[str, Meta(min_length=1, max_length=200)]
    team: Annotated[int, Meta(ge=0, le=7)] | None = None


class GameMeta(_Struct, kw_only=True):
    """Descriptive strings about a game (all optional)."""

    tournament: str | None = None
    round: str | None = None
    table: str | None = None
    date: str | None = None
    referee: str | None = None
    site: str | None = None


class ClaimedScore(_Struct, kw_only=True):
    """One line of a score sheet: ``{seat or team, points}``."""

    seat: Seat | None = None
    team: Annotated[int, Meta(ge=0, le=7)] | None = None
    points: Points

    def __post_init__(self) -> None:
        if (self.seat is None) == (self.team is None):
            raise ValueError("a claimed score names exactly one of `seat` or `team`")


class DeclaredMeld(_Struct, kw_only=True):
    """A meld declared by a knock: ``{meld, cards}``."""

    meld: MeldId
    cards: Cards


class GameStarted(Event, tag="game_started", kw_only=True):
    """Opens the record (position 0)."""

    format: Literal["rummy-ledger/1"] = FORMAT  # type: ignore[assignment]
    game_id: GameId
    variant: Variant
    ruleset: str | None = None
    options: dict[str, OptionValue] | None = None
    players: Annotated[tuple[Player, ...], Meta(min_length=1, max_length=16)]
    meta: GameMeta | None = None


class HandDealt(Event, tag="hand_dealt", kw_only=True):
    """A new hand: each seat's cards, the face-up discard(s), the stock (top first)."""

    hand: Annotated[int, Meta(ge=1, le=10_000)]
    dealer: Seat
    hands: tuple[Cards, ...]
    discard: Cards
    stock: Cards | None = None
    pozzetti: tuple[Cards, ...] | None = None


class CardDrawn(Event, tag="card_drawn", kw_only=True):
    """The top card of the stock goes into ``seat``'s hand."""

    seat: Seat
    card: CardStr


class UpcardPassed(Event, tag="upcard_passed", kw_only=True):
    """Gin, first turn: the seat declines the upcard."""

    seat: Seat


class DiscardTaken(Event, tag="discard_taken", kw_only=True):
    """Cards taken from the discard pile (bottom first): the top card, or in Burraco the whole pile."""

    seat: Seat
    cards: Annotated[Cards, Meta(min_length=1)]


class MeldLaid(Event, tag="meld_laid", kw_only=True):
    """A new meld on the table, cards as laid (sequences ascending, wilds in place)."""

    seat: Seat
    meld: MeldId
    cards: Annotated[Cards, Meta(min_length=1)]


class MeldExtended(Event, tag="meld_extended", kw_only=True):
    """A lay-off onto a meld; ``result`` is the whole meld afterwards when the placement is ambiguous."""

    seat: Seat
    meld: MeldId
    cards: Annotated[Cards, Meta(min_length=1)]
    result: Cards | None = None


class JokerSwapped(Event, tag="joker_swapped", kw_only=True):
    """A natural ``card`` replaces the wild ``joker`` in a meld; the wild goes to the hand."""

    seat: Seat
    meld: MeldId
    card: CardStr
    joker: CardStr
    result: Cards | None = None


class PozzettoTaken(Event, tag="pozzetto_taken", kw_only=True):
    """Burraco: a seat takes pozzetto 0 or 1 into its hand."""

    seat: Seat
    pozzetto: Annotated[int, Meta(ge=0, le=1)]
    cards: Cards | None = None


class CardDiscarded(Event, tag="card_discarded", kw_only=True):
    """A card onto the discard pile; ends the turn."""

    seat: Seat
    card: CardStr


class Knocked(Event, tag="knocked", kw_only=True):
    """Gin: a knock (or gin when ``deadwood`` is empty) with the declared melds."""

    seat: Seat
    discard: CardStr
    melds: tuple[DeclaredMeld, ...]
    deadwood: Cards


class StockRestocked(Event, tag="stock_restocked", kw_only=True):
    """The discard pile less its top card becomes the stock (top first, when known)."""

    cards: Cards | None = None


HandEndReason = Literal["went_out", "knocked", "stock_exhausted", "time_out", "stalled", "abandoned"]
GameEndReason = Literal["target_reached", "hands_played", "elimination", "abandoned", "time_out"]


class HandEnded(Event, tag="hand_ended", kw_only=True):
    """Closes the hand, with the score sheet's claim when there is one."""

    reason: HandEndReason
    seat: Seat | None = None
    claimed: tuple[ClaimedScore, ...] | None = None


class PenaltyAssessed(Event, tag="penalty_assessed", kw_only=True):
    """A referee's ruling: ``points`` (signed) added to a seat's or team's score;
    ``finding``: the position of the finding it rules on (it must carry one,
    else ``REC-REF``); ``referee``: who rules."""

    seat: Seat | None = None
    team: Annotated[int, Meta(ge=0, le=7)] | None = None
    points: Points
    rule: Annotated[str, Meta(pattern=r"^[A-Z0-9]+-[A-Z0-9-]+(?!\n)$")]
    finding: Position | None = None
    referee: Referee | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if (self.seat is None) == (self.team is None):
            raise ValueError("a penalty names exactly one of `seat` or `team`")


class PositionRestored(Event, tag="position_restored", kw_only=True):
    """A referee rewinds the hand to just after position ``target``;
    ``finding``: the position of the finding it rules on (it must carry one,
    else ``REC-REF``); ``referee``: who rules."""

    target: Position
    reason: Annotated[str, Meta(min_length=1, max_length=2000)]
    finding: Position | None = None
    referee: Referee | None = None


class GameEnded(Event, tag="game_ended", kw_only=True):
    """Closes the record."""

    reason: GameEndReason
    claimed: tuple[ClaimedScore, ...] | None = None


EventUnion = Union[
    GameStarted,
    HandDealt,
    CardDrawn,
    UpcardPassed,
    DiscardTaken,
    MeldLaid,
    MeldExtended,
    JokerSwapped,
    PozzettoTaken,
    CardDiscarded,
    Knocked,
    StockRestocked,
    HandEnded,
    PenaltyAssessed,
    PositionRestored,
    GameEnded,
]

#: every event class, in FORMAT.md order
EVENT_TYPES: tuple[type[Event], ...] = EventUnion.__args__  # type: ignore[attr-defined]
#: ``type`` tag -> event class
BY_TAG: dict[str, type[Event]] = {cls.__struct_config__.tag: cls for cls in EVENT_TYPES}  # type: ignore[misc]

_decoder = msgspec.json.Decoder(EventUnion)
_encoder = msgspec.json.Encoder()


def decode_event(data: bytes | str) -> Event:
    """Decode one JSON event; raises :class:`msgspec.ValidationError` or
    :class:`msgspec.DecodeError` (the record reader turns them into ``REC-FORMAT``).

    ``game_started`` must carry ``format`` (FORMAT.md: it is required even
    though the struct fills it in for code that builds events).
    """
    event = _decoder.decode(data)
    if type(event) is GameStarted and "format" not in msgspec.json.decode(data):
        raise msgspec.ValidationError("Object missing required field `format`")
    return event


_FORMAT_PREFIX = b'{"type":"game_started",'


def encode_event(event: Event) -> bytes:
    """The canonical JSON of an event: tag first, fields in struct order, no
    defaults, except that ``game_started`` always writes its ``format``.

    >>> encode_event(GameStarted(game_id="g", variant="gin", players=(Player(seat=0, name="A"),)))[:60]
    b'{"type":"game_started","format":"rummy-ledger/1","game_id":"'
    """
    data = _encoder.encode(event)
    if type(event) is GameStarted and b'"format":' not in data[:80]:
        data = _FORMAT_PREFIX + b'"format":"rummy-ledger/1",' + data[len(_FORMAT_PREFIX):]
    return data


def to_builtins(event: Event) -> dict[str, Any]:
    """The event as a plain ``dict`` (with its ``type``)."""
    return msgspec.to_builtins(event)
