"""The events of a tournament record, as msgspec structs (TOURNAMENT.md, "The record").

The same policy as a game's events (:mod:`ledger.events`): frozen,
keyword-only, tagged by ``type``, unknown fields refused, defaults omitted
when encoding, optional ``at`` and ``note`` on every event (each class
derives from :class:`ledger.events.Event`, so the store, the seal chain and
the exporter treat a tournament's events as they treat a game's).
:data:`TournamentEventUnion` is the tagged union and
:func:`decode_tournament_event` the decoder.

Class names are stored as topics in the event store: never rename one.

>>> e = decode_tournament_event(b'{"type":"entrant_withdrawn","entrant":"p7","reason":"ill"}')
>>> e
EntrantWithdrawn(at=None, note=None, entrant='p7', reason='ill')
>>> from ledger.events import encode_event
>>> encode_event(e)
b'{"type":"entrant_withdrawn","entrant":"p7","reason":"ill"}'
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec
from msgspec import Meta

from ledger import catalog
from ledger.events import Event, GameId, MetaText, Name, OptionValue, Referee

EntrantId = Annotated[
    str, Meta(pattern=r"^[A-Za-z0-9._-]{1,32}(?!\n)$", description="Entrant id: a pair ('coppia') or a player")
]
#: victory points (a table's figure or an adjustment): whole or fractional
VP = Annotated[float, Meta(ge=-1000, le=1000)] | Annotated[int, Meta(ge=-1000, le=1000)]
RoundNo = Annotated[int, Meta(ge=1, le=1000, description="1-based round number")]
TableNo = Annotated[int, Meta(ge=1, le=10_000, description="1-based table number")]
MP = Annotated[int, Meta(ge=0, le=1_000_000)]
Movement = Literal["mitchell", "danese", "danese_modificato", "italiana", "swiss"]
Tiebreak = Literal["vp", "mp_diff", "mp"]
RuleId = Annotated[str, Meta(pattern=r"^[A-Z0-9]+-[A-Z0-9-]+(?!\n)$", max_length=32)]
Checkpoint = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}(?!\n)$", description="RFC 6962 root, 64 hex digits")]
#: the default tiebreak list (TOURNAMENT.md "Standings")
DEFAULT_TIEBREAK: tuple[Tiebreak, ...] = ("vp", "mp_diff", "mp")
#: the product's bye score when ``bye_vp`` is not given (the bridge convention, of 20)
DEFAULT_BYE_VP = 12


class _Struct(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Policy for the value structs nested inside tournament events."""


class Band(_Struct, frozen=True, kw_only=True):
    """One band of a VP table: MP differences ``from``…``to`` (``to`` None: no bound) give the
    winner ``winner`` VP and the loser ``loser`` VP."""

    from_: MP = msgspec.field(name="from")
    to: MP | None = None
    winner: VP
    loser: VP


class Scoring(_Struct, frozen=True, kw_only=True):
    """How a round's result scores: ``{"kind": "vp", "table": ID}``, ``{"kind": "vp", "bands": [...]}``
    or ``{"kind": "match", "win": 2, "draw": 1, "loss": 0}``."""

    kind: Literal["vp", "match"]
    table: Annotated[str, Meta(pattern=r"^[A-Za-z0-9._-]{1,32}(?!\n)$")] | None = None
    bands: Annotated[tuple[Band, ...], Meta(min_length=1, max_length=100)] | None = None
    win: VP | None = None
    draw: VP | None = None
    loss: VP | None = None

    def __post_init__(self) -> None:
        if self.kind == "vp":
            if (self.table is None) == (self.bands is None):
                raise ValueError("`scoring` of kind vp names exactly one of `table` or `bands`")
            if self.win is not None or self.draw is not None or self.loss is not None:
                raise ValueError("`scoring` of kind vp has no win, draw or loss")
        elif self.win is None or self.draw is None or self.loss is None or self.table or self.bands:
            raise ValueError("`scoring` of kind match names win, draw and loss (and no table or bands)")


class TournamentMeta(_Struct, frozen=True, kw_only=True):
    """Descriptive strings about a tournament (all optional)."""

    date: MetaText | None = None
    site: MetaText | None = None
    referee: MetaText | None = None
    federation: MetaText | None = None


class TournamentEvent(Event, frozen=True, kw_only=True):
    """Base of the tournament record's events (optional ``at`` and ``note``, as a game's)."""


class TournamentStarted(TournamentEvent, tag="tournament_started", frozen=True, kw_only=True):
    """Opens the tournament record (position 0)."""

    #: required (no default), so that the canonical line always carries it, as ``game_started``'s
    format: Literal["rummy-ledger/1"]
    tournament_id: GameId
    name: Annotated[str, Meta(min_length=1, max_length=200)]
    variant: str = "burraco"
    ruleset: Name | None = None
    options: Annotated[dict[Name, OptionValue], Meta(max_length=64)] | None = None
    hands_per_match: Annotated[int, Meta(ge=1, le=100)]
    scoring: Scoring
    movement: Movement
    rounds: RoundNo | None = None
    bye_vp: VP | None = None
    tiebreak: Annotated[tuple[Tiebreak, ...], Meta(min_length=1, max_length=3)] | None = None
    meta: TournamentMeta | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.tournament_id in (".", ".."):
            raise ValueError(f"`tournament_id` {self.tournament_id!r} is not a usable id")
        if self.tiebreak is not None and len(set(self.tiebreak)) != len(self.tiebreak):
            raise ValueError("`tiebreak` names a criterion twice")

    @property
    def bye_score(self) -> float | int:
        """``bye_vp``, or the product's default :data:`DEFAULT_BYE_VP`."""
        return DEFAULT_BYE_VP if self.bye_vp is None else self.bye_vp

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        """``tiebreak``, or :data:`DEFAULT_TIEBREAK`."""
        return self.tiebreak or DEFAULT_TIEBREAK


class EntrantRegistered(TournamentEvent, tag="entrant_registered", frozen=True, kw_only=True):
    """An entrant: a pair ("coppia", two players) or a player."""

    entrant: EntrantId
    players: Annotated[tuple[Annotated[str, Meta(min_length=1, max_length=200)], ...], Meta(min_length=1, max_length=8)]


class EntrantWithdrawn(TournamentEvent, tag="entrant_withdrawn", frozen=True, kw_only=True):
    """The entrant takes no part in later rounds."""

    entrant: EntrantId
    reason: Annotated[str, Meta(min_length=1, max_length=2000)]


class Table(_Struct, frozen=True, kw_only=True):
    """One table of a round: ``entrants`` ``[A, B]`` (A sits North–South, seat 0) in game ``game_id``."""

    table: TableNo
    entrants: Annotated[tuple[EntrantId, ...], Meta(min_length=2, max_length=2)]
    game_id: GameId


class RoundPaired(TournamentEvent, tag="round_paired", frozen=True, kw_only=True):
    """Who plays whom in round ``round``, at which table, in which game record."""

    round: RoundNo
    tables: Annotated[tuple[Table, ...], Meta(max_length=5000)]
    bye: EntrantId | None = None
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None


class VpAdjusted(TournamentEvent, tag="vp_adjusted", frozen=True, kw_only=True):
    """A referee's VP penalty or award outside a game (``vp`` signed; 0 is a warning)."""

    entrant: EntrantId
    vp: VP
    rule: RuleId
    referee: Referee | None = None
    round: RoundNo | None = None


class RoundClosed(TournamentEvent, tag="round_closed", frozen=True, kw_only=True):
    """Every game of the round is finished; ``checkpoint``: the RFC 6962 root over its games."""

    round: RoundNo
    checkpoint: Checkpoint | None = None


class TournamentEnded(TournamentEvent, tag="tournament_ended", frozen=True, kw_only=True):
    """Closes the record."""

    reason: Literal["rounds_played", "abandoned"]


TournamentEventUnion = Union[  # noqa: UP007 (TOURNAMENT_EVENT_TYPES reads a typing.Union's __args__)
    TournamentStarted,
    EntrantRegistered,
    EntrantWithdrawn,
    RoundPaired,
    VpAdjusted,
    RoundClosed,
    TournamentEnded,
]
#: every tournament event class, in TOURNAMENT.md order
TOURNAMENT_EVENT_TYPES: tuple[type[TournamentEvent], ...] = TournamentEventUnion.__args__  # type: ignore[attr-defined]
#: the ``type`` tags of the tournament events
TOURNAMENT_TAGS: frozenset[str] = frozenset(cls.__struct_config__.tag for cls in TOURNAMENT_EVENT_TYPES)  # type: ignore[misc]

_decoder = msgspec.json.Decoder(TournamentEventUnion)


def decode_tournament_event(data: bytes | str) -> TournamentEvent:
    """Decode one JSON tournament event; raises :class:`msgspec.ValidationError`
    or :class:`msgspec.DecodeError` (the reader makes them ``REC-FORMAT``).
    ``tournament_started``'s ``variant`` must be in the catalog."""
    try:
        event = _decoder.decode(data)
    except RecursionError:
        raise msgspec.DecodeError("JSON is nested too deeply") from None
    if type(event) is TournamentStarted:
        if event.variant not in catalog.CATALOG:
            raise msgspec.ValidationError(f"Invalid enum value {event.variant!r} - at `$.variant`")
    return event
