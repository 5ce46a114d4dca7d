"""The text of a tournament record: parsed into events, checked by the fold (TOURNAMENT.md, "The record").

The file rules are a game record's (FORMAT.md "File": UTF-8 JSON Lines,
blank lines and ``//`` comments ignored, the same line bound, a field
written twice refused) and the refusals read the same: ``REC-FORMAT`` for a
line that is no tournament event, naming the line and the field's path;
``REC-ORDER`` / ``REC-REF`` from the fold (:mod:`ledger.tournament.state`),
naming the line of the event. Pure: bytes or a stream in, no file-system work.

>>> rec = parse_tournament(b'{"type":"tournament_started","format":"rummy-ledger/1","tournament_id":"t",'
...     b'"name":"T","hands_per_match":4,"scoring":{"kind":"vp","table":"fibur-4"},"movement":"swiss"}\\n')
>>> rec.tournament_id, rec.lines
('t', (1,))
>>> parse_tournament(b'{"type":"tournament_started","format":"rummy-ledger/1","tournament_id":"t",'
...     b'"name":"T","hands_per_match":4,"scoring":{"kind":"vp","table":"nope"},"movement":"swiss"}\\n')
Traceback (most recent call last):
...
ledger.errors.RecordError: line 1: scoring.table: REC-REF: no VP table 'nope' (known: fibur-3, fibur-4)
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import BinaryIO

import msgspec

from ledger.errors import RecordError
from ledger.events import encode_event
from ledger.records import MAX_LINE_BYTES, duplicate_key, format_error, iter_lines
from ledger.tournament.events import TOURNAMENT_TAGS, TournamentEvent, decode_tournament_event
from ledger.tournament.state import TournamentState, evolve

#: the bytes that begin the canonical first line of a tournament record
STARTED_PREFIX = b'{"type":"tournament_started"'


def parse_tournament_line(raw: bytes, line: int) -> TournamentEvent:
    """Decode one line to a tournament event or raise ``REC-FORMAT`` at ``line``."""
    if len(raw) > MAX_LINE_BYTES:
        raise RecordError("REC-FORMAT", f"the line is longer than {MAX_LINE_BYTES:,} bytes (no event is)", line=line)
    try:
        event = decode_tournament_event(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        err = format_error(exc, raw).with_location(line=line)
        if err.field == "type" and "unknown event type" in err.message:
            err = RecordError(
                "REC-FORMAT",
                f"{err.message}: a tournament record holds {', '.join(sorted(TOURNAMENT_TAGS))}",
                line=line,
                field="type",
            )
        raise err from None
    if encode_event(event) != raw:  # not canonical: a key may be written twice (the game reader's check)
        twice = duplicate_key(raw)
        if twice is not None:
            where, name = twice
            raise RecordError("REC-FORMAT", f"field {name!r} written twice", field=where, line=line)
    return event


@dataclass(frozen=True)
class TournamentRecord:
    """A parsed tournament record: its events, the line of each, its final state."""

    events: tuple[TournamentEvent, ...]
    lines: tuple[int, ...]
    state: TournamentState
    path: str | None = None

    @property
    def tournament_id(self) -> str:
        return self.state.tournament_id

    def line_of(self, position: int | None) -> int | None:
        """File line of the event at ``position`` (None when unknown)."""
        if position is None or not (0 <= position < len(self.lines)):
            return None
        return self.lines[position]


def parse_tournament(source: BinaryIO | Iterable[bytes] | bytes, path: str | None = None) -> TournamentRecord:
    """Parse and fold a whole tournament record; raises :class:`RecordError`
    (REC-FORMAT, REC-ORDER, REC-REF) naming the line, the field and ``path``."""
    stream = io.BytesIO(source) if isinstance(source, bytes) else source
    events: list[TournamentEvent] = []
    lines: list[int] = []
    state: TournamentState | None = None
    try:
        for number, raw in iter_lines(stream):
            event = parse_tournament_line(raw, number)
            try:
                state = evolve(state, event, len(events))
            except RecordError as err:
                raise err.with_location(line=number) from None
            events.append(event)
            lines.append(number)
    except RecordError as err:
        raise err.with_location(path=path) from None
    except UnicodeDecodeError as err:
        raise RecordError("REC-FORMAT", f"not UTF-8 text ({err.reason})", path=path) from None
    if state is None:
        raise RecordError("REC-FORMAT", "no events: a record starts with tournament_started", line=1, path=path)
    return TournamentRecord(tuple(events), tuple(lines), state, path)


def is_tournament_text(first_line: bytes) -> bool:
    """Whether a record's first event line is a ``tournament_started`` (the import's sniff)."""
    try:
        value = msgspec.json.decode(first_line)
    except (msgspec.DecodeError, RecursionError):  # nested too deeply: the game reader refuses it (REC-FORMAT)
        return first_line.lstrip().startswith(STARTED_PREFIX)
    return isinstance(value, dict) and value.get("type") == "tournament_started"
