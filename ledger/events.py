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

import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta

from ledger import FORMAT, catalog
from ledger.cards import CARD_PATTERN, MAYBE_CARD_PATTERN

CardStr = Annotated[str, Meta(pattern=CARD_PATTERN, description="A card: rank A 2-10 J Q K and suit C D H S, or JK")]
#: the most cards one list can hold: every card of the biggest deck (Burraco's 108)
MAX_CARDS = 108
Cards = Annotated[tuple[CardStr, ...], Meta(max_length=MAX_CARDS)]
#: a card or ``??`` (unknown), in the fields FORMAT.md "Partial records" lists; ``??`` in a full record is REC-FORMAT
MaybeCard = Annotated[
    str, Meta(pattern=MAYBE_CARD_PATTERN, description="A card, or ?? for an unknown one (partial records only)")
]
MaybeCards = Annotated[tuple[MaybeCard, ...], Meta(max_length=MAX_CARDS)]
Seat = Annotated[int, Meta(ge=0, le=15, description="0-based seat, clockwise")]
MeldId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,16}(?!\n)$", description="Meld id, unique within the hand")]
GameId = Annotated[
    str,
    Meta(
        pattern=r"^[A-Za-z0-9._-]{1,64}(?!\n)$",
        extra_json_schema={"not": {"enum": [".", ".."]}},
        description="Game id; not . or .. (a URL path segment that a browser would resolve away)",
    ),
]
#: game points in one score line or penalty (bounded so that totals fit the analytics' 32-bit columns)
Points = Annotated[int, Meta(ge=-1_000_000, le=1_000_000)]
Note = Annotated[str, Meta(max_length=2000)]
Position = Annotated[int, Meta(ge=0, le=100_000_000)]
#: the referee who rules (``penalty_assessed`` / ``position_restored``)
Referee = Annotated[str, Meta(min_length=1, max_length=200)]

#: the years an ``at`` may name (FORMAT.md: a time at a table; anything else cannot be one)
AT_YEARS = (1900, 2200)
_AT_SHAPE = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)"
)
At = Annotated[
    str,
    Meta(
        max_length=40,
        extra_json_schema={"format": "date-time"},
        description="ISO-8601 time with a zone (Z or +hh:mm), years 1900-2200",
    ),
]


def check_at(at: str) -> datetime:
    """The moment an ``at`` names; raises :class:`ValueError` naming ``at``
    unless it is an ISO-8601 date and time in ASCII digits with a zone (``Z``
    or ``+hh:mm``) in the years 1900–2200.

    >>> check_at("2026-11-29T20:15:00+01:00").utcoffset()
    datetime.timedelta(seconds=3600)
    """
    try:
        moment = _parse_iso(at)
    except ValueError:
        raise ValueError(f"`at` is not an ISO-8601 time: {at!r}") from None
    if _AT_SHAPE.fullmatch(at) is None:
        if moment.tzinfo is None:
            raise ValueError(f"`at` {at!r} has no zone: end it with Z or an offset such as +01:00")
        raise ValueError(f"`at` is not an ISO-8601 time: {at!r} (date and time in ASCII digits, then Z or +hh:mm)")
    if not AT_YEARS[0] <= moment.year <= AT_YEARS[1]:
        raise ValueError(f"`at` {at!r} is outside the years {AT_YEARS[0]}–{AT_YEARS[1]}")
    return moment


def _parse_iso(at: str) -> datetime:
    """``datetime.fromisoformat`` with ``Z`` read as ``+00:00`` (the one parse of an ``at``)."""
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def at_moment(at: str) -> datetime:
    """The aware moment an ``at`` names, parsed as :func:`check_at` parses it;
    a time without a zone (which :func:`check_at` refuses) is taken as UTC.
    Raises :class:`ValueError` for a text that is no ISO-8601 time.

    >>> at_moment("2026-11-29T20:15:00Z").isoformat(), at_moment("2026-11-29T20:15:00").isoformat()
    ('2026-11-29T20:15:00+00:00', '2026-11-29T20:15:00+00:00')
    """
    moment = _parse_iso(at)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


#: a record's ``variant``: a name of the variant catalog (:mod:`ledger.catalog`). Not a
#: ``Literal``, so that a game registered at run time is accepted: :func:`decode_event`
#: checks it against the catalog, and ``ledger.schema`` writes the catalog's names as
#: its JSON Schema ``enum``.
Variant = str
OptionValue = Union[bool, Annotated[int, Meta(ge=0, le=1_000_000)], Annotated[str, Meta(max_length=64)]]  # noqa: UP007 (a typing.Union, as EventUnion)
#: a name of the format's vocabulary: a ruleset, an option key
Name = Annotated[str, Meta(max_length=64)]
#: a value of ``meta`` (tournament, round, table, date, referee, site)
MetaText = Annotated[str, Meta(max_length=200)]


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

    at: At | None = None
    note: Note | None = None

    def __post_init__(self) -> None:
        if self.at is not None:
            check_at(self.at)

    @property
    def type(self) -> str:
        """The event's ``type`` tag, e.g. ``"card_drawn"``."""
        return type(self).__struct_config__.tag  # type: ignore[return-value]  # every event class has a str tag


class Player(_Struct, frozen=True, kw_only=True):
    """A seat at the table: ``{seat, name, team?}``."""

    seat: Seat
    name: Annotated[str, Meta(min_length=1, max_length=200)]
    team: Annotated[int, Meta(ge=0, le=7)] | None = None


class GameMeta(_Struct, frozen=True, kw_only=True):
    """Descriptive strings about a game (all optional)."""

    tournament: MetaText | None = None
    round: MetaText | None = None
    table: MetaText | None = None
    date: MetaText | None = None
    referee: MetaText | None = None
    site: MetaText | None = None


class ClaimedScore(_Struct, frozen=True, kw_only=True):
    """One line of a score sheet: ``{seat or team, points}``."""

    seat: Seat | None = None
    team: Annotated[int, Meta(ge=0, le=7)] | None = None
    points: Points

    def __post_init__(self) -> None:
        if (self.seat is None) == (self.team is None):
            raise ValueError("a claimed score names exactly one of `seat` or `team`")


class DeclaredMeld(_Struct, frozen=True, kw_only=True):
    """A meld declared by a knock: ``{meld, cards}``."""

    meld: MeldId
    cards: Cards


class GameStarted(Event, tag="game_started", frozen=True, kw_only=True):
    """Opens the record (position 0)."""

    format: Literal["rummy-ledger/1"] = FORMAT  # type: ignore[assignment]  # FORMAT is that literal, typed str in ledger/__init__
    game_id: GameId
    variant: Variant
    ruleset: Name | None = None
    options: Annotated[dict[Name, OptionValue], Meta(max_length=64)] | None = None
    players: Annotated[tuple[Player, ...], Meta(min_length=1, max_length=16)]
    knowledge: Literal["full", "partial"] | None = None
    meta: GameMeta | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.game_id in (".", ".."):
            raise ValueError(
                f"`game_id` {self.game_id!r} is not a usable id: . and .. are path segments a browser resolves away"
            )


class HandDealt(Event, tag="hand_dealt", frozen=True, kw_only=True):
    """A new hand: each seat's cards, the face-up discard(s), the stock (top first)."""

    hand: Annotated[int, Meta(ge=1, le=10_000)]
    dealer: Seat
    hands: Annotated[tuple[MaybeCards, ...], Meta(max_length=16)]
    discard: MaybeCards
    stock: MaybeCards | None = None
    pozzetti: Annotated[tuple[MaybeCards, ...], Meta(max_length=2)] | None = None


class CardDrawn(Event, tag="card_drawn", frozen=True, kw_only=True):
    """The top card of the stock goes into ``seat``'s hand (``??`` in a partial record: unseen)."""

    seat: Seat
    card: MaybeCard


class UpcardPassed(Event, tag="upcard_passed", frozen=True, kw_only=True):
    """Gin, first turn: the seat declines the upcard."""

    seat: Seat


class DiscardTaken(Event, tag="discard_taken", frozen=True, kw_only=True):
    """Cards taken from the discard pile (bottom first): the top card, or in Burraco the whole pile."""

    seat: Seat
    cards: Annotated[MaybeCards, Meta(min_length=1)]


class MeldLaid(Event, tag="meld_laid", frozen=True, kw_only=True):
    """A new meld on the table, cards as laid (sequences ascending, wilds in place)."""

    seat: Seat
    meld: MeldId
    cards: Annotated[Cards, Meta(min_length=1)]


class MeldExtended(Event, tag="meld_extended", frozen=True, kw_only=True):
    """A lay-off onto a meld; ``result`` is the whole meld afterwards when the placement is ambiguous."""

    seat: Seat
    meld: MeldId
    cards: Annotated[Cards, Meta(min_length=1)]
    result: Cards | None = None


class JokerSwapped(Event, tag="joker_swapped", frozen=True, kw_only=True):
    """A natural ``card`` replaces the wild ``joker`` in a meld; the wild goes to the hand."""

    seat: Seat
    meld: MeldId
    card: CardStr
    joker: CardStr
    result: Cards | None = None


class PozzettoTaken(Event, tag="pozzetto_taken", frozen=True, kw_only=True):
    """Burraco: a seat takes pozzetto 0 or 1 into its hand."""

    seat: Seat
    pozzetto: Annotated[int, Meta(ge=0, le=1)]
    cards: MaybeCards | None = None


class CardDiscarded(Event, tag="card_discarded", frozen=True, kw_only=True):
    """A card onto the discard pile; ends the turn."""

    seat: Seat
    card: CardStr


class CardsShown(Event, tag="cards_shown", frozen=True, kw_only=True):
    """Partial records: ``cards`` were seen in ``seat``'s hand (counted face up
    at a hand's end, or shown at the table). FORMAT.md, "Partial records"."""

    seat: Seat
    cards: Annotated[Cards, Meta(min_length=1)]


class Knocked(Event, tag="knocked", frozen=True, kw_only=True):
    """Gin: a knock (or gin when ``deadwood`` is empty) with the declared melds."""

    seat: Seat
    discard: MaybeCard
    melds: Annotated[tuple[DeclaredMeld, ...], Meta(max_length=52)]
    deadwood: Cards


class StockRestocked(Event, tag="stock_restocked", frozen=True, kw_only=True):
    """The discard pile less its top card becomes the stock (top first, when known)."""

    cards: MaybeCards | None = None


HandEndReason = Literal["went_out", "knocked", "stock_exhausted", "time_out", "stalled", "abandoned"]
GameEndReason = Literal["target_reached", "hands_played", "elimination", "abandoned", "time_out"]


class HandEnded(Event, tag="hand_ended", frozen=True, kw_only=True):
    """Closes the hand, with the score sheet's claim when there is one."""

    reason: HandEndReason
    seat: Seat | None = None
    claimed: Annotated[tuple[ClaimedScore, ...], Meta(max_length=16)] | None = None


class PenaltyAssessed(Event, tag="penalty_assessed", frozen=True, kw_only=True):
    """A referee's ruling: ``points`` (signed) added to a seat's or team's score;
    ``finding``: the position of the finding it rules on (it must carry one,
    else ``REC-REF``); ``referee``: who rules."""

    seat: Seat | None = None
    team: Annotated[int, Meta(ge=0, le=7)] | None = None
    points: Points
    rule: Annotated[str, Meta(pattern=r"^[A-Z0-9]+-[A-Z0-9-]+(?!\n)$", max_length=32)]
    finding: Position | None = None
    referee: Referee | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if (self.seat is None) == (self.team is None):
            raise ValueError("a penalty names exactly one of `seat` or `team`")


class PositionRestored(Event, tag="position_restored", frozen=True, kw_only=True):
    """A referee rewinds the hand to just after position ``target``;
    ``finding``: the position of the finding it rules on (it must carry one,
    else ``REC-REF``); ``referee``: who rules."""

    target: Position
    reason: Annotated[str, Meta(min_length=1, max_length=2000)]
    finding: Position | None = None
    referee: Referee | None = None


class GameEnded(Event, tag="game_ended", frozen=True, kw_only=True):
    """Closes the record."""

    reason: GameEndReason
    claimed: Annotated[tuple[ClaimedScore, ...], Meta(max_length=16)] | None = None


EventUnion = Union[  # noqa: UP007 (EVENT_TYPES reads a typing.Union's __args__)
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
    CardsShown,
    Knocked,
    StockRestocked,
    HandEnded,
    PenaltyAssessed,
    PositionRestored,
    GameEnded,
]

#: every event class, in FORMAT.md order
EVENT_TYPES: tuple[type[Event], ...] = EventUnion.__args__  # type: ignore[attr-defined]  # a typing.Union's __args__
#: ``type`` tag -> event class
BY_TAG: dict[str, type[Event]] = {cls.__struct_config__.tag: cls for cls in EVENT_TYPES}  # type: ignore[misc]  # every event class has a str tag

_decoder = msgspec.json.Decoder(EventUnion)
_encoder = msgspec.json.Encoder()


def decode_event(data: bytes | str) -> Event:
    """Decode one JSON event; raises :class:`msgspec.ValidationError` or
    :class:`msgspec.DecodeError` (the record reader turns them into ``REC-FORMAT``).

    ``game_started`` must carry ``format`` (FORMAT.md: it is required even
    though the struct fills it in for code that builds events), and its
    ``variant`` must be in the catalog (``Invalid enum value 'poker' - at
    `$.variant```, as msgspec words it for a ``Literal``).

    JSON nested deeper than the interpreter's recursion limit (about 1,000
    levels, e.g. in ``meta``) is a :class:`msgspec.DecodeError` too, not the
    ``RecursionError`` msgspec raises for it.
    """
    try:
        return _decode_event(data)
    except RecursionError:
        raise msgspec.DecodeError("JSON is nested too deeply") from None


def _decode_event(data: bytes | str) -> Event:
    try:
        event = _decoder.decode(data)
    except msgspec.ValidationError as exc:
        _raise_variant_first(data, exc)
        raise
    if type(event) is GameStarted:
        if event.variant not in catalog.CATALOG:
            raise _unknown_variant(event.variant)
        if "format" not in msgspec.json.decode(data):
            raise msgspec.ValidationError("Object missing required field `format`")
    return event


def _unknown_variant(variant: str) -> msgspec.ValidationError:
    return msgspec.ValidationError(f"Invalid enum value {variant!r} - at `$.variant`")


_ERROR_KEY = re.compile(r" - at `\$\.(?P<path>[^.`\[]+)|^Object contains unknown field `(?P<field>[^`]*)`$")


def _raise_variant_first(data: bytes | str, exc: msgspec.ValidationError) -> None:
    """Raise the unknown-variant error where msgspec, checking ``variant`` as
    a ``Literal`` while it read the object, would have met it before ``exc``:
    ``variant`` comes before the failing key, or ``exc`` is found only once
    the object is read (a missing field, a ``__post_init__`` check)."""
    if b'"game_started"' not in (data.encode() if isinstance(data, str) else data):
        return
    try:
        obj = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return
    if not isinstance(obj, dict) or obj.get("type") != "game_started":
        return
    variant = obj.get("variant")
    if not isinstance(variant, str) or variant in catalog.CATALOG:
        return
    m = _ERROR_KEY.search(str(exc))
    key = (m.group("path") or m.group("field")) if m else None
    keys = list(obj)
    if key is None or key not in keys or keys.index(key) > keys.index("variant"):
        raise _unknown_variant(variant) from None


_FORMAT_PREFIX = b'{"type":"game_started",'


def encode_event(event: Event) -> bytes:
    """The canonical JSON of an event: tag first, fields in struct order, no
    defaults, except that ``game_started`` always writes its ``format``.

    >>> encode_event(GameStarted(game_id="g", variant="gin", players=(Player(seat=0, name="A"),)))[:60]
    b'{"type":"game_started","format":"rummy-ledger/1","game_id":"'
    """
    data = _encoder.encode(event)
    if type(event) is GameStarted and b'"format":' not in data[:80]:
        data = _FORMAT_PREFIX + b'"format":"rummy-ledger/1",' + data[len(_FORMAT_PREFIX) :]
    return data


def to_builtins(event: Event) -> dict[str, Any]:
    """The event as a plain ``dict`` (with its ``type``)."""
    out: dict[str, Any] = msgspec.to_builtins(event)
    return out
