"""The text of a ``rummy-ledger/1`` record (FORMAT.md, "File"): parsed into
events and encoded back, with no file-system work (opening paths, writing
files and searching folders is :mod:`ledger.record_files`).

A record is UTF-8 JSON Lines: one event per line, blank lines and lines
starting with ``//`` ignored. The reader streams: it holds one line at a time
and yields ``(line_number, event)``; a line that cannot be an event raises
:class:`~ledger.errors.RecordError` with rule ``REC-FORMAT``, the line number
and the field path.

>>> import io
>>> text = b'// a comment\\n\\n{"type":"card_drawn","seat":0,"card":"6H"}\\n'
>>> [(n, e.type) for n, e in iter_events(io.BytesIO(text))]
[(3, 'card_drawn')]
>>> list(iter_events(io.BytesIO(b'{"type":"card_drawn","seat":0,"card":"1H"}')))
Traceback (most recent call last):
...
ledger.errors.RecordError: line 1: card: REC-FORMAT: bad card string '1H' (expected e.g. 10H, AS, JK)
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import msgspec

from ledger.errors import RecordError
from ledger.events import Event, OptionValue, decode_event, encode_event
from ledger.texts import N_, Message

_AT_PATH = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_AT_KEY = re.compile(r" - at `key` in `\$(?P<path>[^`]*)`$")
_UNKNOWN_FIELD = re.compile(r"unknown field `(?P<name>[^`]*)`")
_MISSING_FIELD = re.compile(r"missing required field `(?P<name>[^`]+)`")
_NAMED_FIELD = re.compile(r"^`(?P<name>[a-z_]+)` ")
_CARD_REGEX_MSG = re.compile(r"Expected `str` matching regex '\^\(\?:\(\?:A\|")


def _field_path(path: str) -> str:
    """``$.hands[0][1]`` -> ``hands[0][1]``."""
    return path[1:] if path.startswith(".") else path


def format_error(exc: Exception, line_text: bytes | str = b"", line: int | None = None) -> RecordError:
    """Translate a msgspec decode/validation error into a ``REC-FORMAT`` error.

    The field is the JSON path inside the event (``cards[2]``); the message
    says what was expected, in plain words. ``line``: the line's number in
    its file (a first line that opens an event it does not close is a
    pretty-printed file: :data:`NOT_JSON_LINES`).
    """
    text, field, named = _located(str(exc), line_text)
    if isinstance(exc, msgspec.DecodeError) and "truncated" in text and _opens_a_value(line_text, line):
        return RecordError("REC-FORMAT", NOT_JSON_LINES, field=field)
    return RecordError("REC-FORMAT", _plain_message(exc, text, field, named, line_text), field=field)


def _located(text: str, line_text: bytes | str) -> tuple[str, str, str | None]:
    """``(text, field, named)`` of msgspec's message ``text``: the text
    without its `` - at `$...``` suffix, the field's path (``cards[2]``,
    ``options.target``; empty when unknown) and the name an unknown or
    missing field's message gives (None when it gives none)."""
    field = ""
    m = _AT_PATH.search(text)
    if m:
        field = _field_path(m.group("path"))
        text = text[: m.start()]
    else:
        m = _AT_KEY.search(text)  # a bad key of an object: "- at `key` in `$.options`"
        if m:
            field = _field_path(m.group("path"))
            text = text[: m.start()] + " (a key)"
    m2 = _UNKNOWN_FIELD.search(text) or _MISSING_FIELD.search(text)
    if m2:
        name = m2.group("name") or '""'  # a key that is the empty string
        field = f"{field}.{name}" if field else name
    m3 = _NAMED_FIELD.match(text)
    if m3 and not field:  # a check in __post_init__ naming its field: "`at` is not ..."
        field = m3.group("name")
    if not field and "exactly one of `seat` or `team`" in text:
        field = "seat"  # both or neither: name the first of the two
    if "[...]" in field:
        field = _name_dict_key(line_text, field)
    return text, field, m2.group("name") if m2 else None


#: a line that only opens a JSON value (``{`` or ``[``): a pretty-printed JSON file, not JSON Lines
NOT_JSON_LINES = Message(
    N_("not a JSON Lines record: one event per line (this line only opens a pretty-printed JSON value)")
)


def _opens_a_value(line_text: bytes | str, line: int | None) -> bool:
    """The line opens a JSON object or array that goes on over the next
    lines: ``{`` or ``[`` alone, or a file's first line that stops after
    ``,``, ``:``, ``{`` or ``[`` (``{"type": "game_started",``): a
    pretty-printed file. A later line cut short stays malformed JSON."""
    text = line_text.decode("utf-8", "replace") if isinstance(line_text, bytes) else line_text
    text = text.strip()
    if text in ("{", "["):
        return True
    return line == 1 and text[:1] in ("{", "[") and text[-1:] in ("{", "[", ",", ":")


def _plain_message(exc: Exception, text: str, field: str, named: str | None, line_text: bytes | str) -> str | Message:
    """What msgspec's ``text`` says was expected at ``field``, in plain words
    (``named``: the field an unknown or missing field's message names)."""
    if not isinstance(exc, msgspec.ValidationError):
        if text.startswith("Input data was truncated") and line_text.strip() in (b"{", b"[", "{", "["):
            return NOT_JSON_LINES  # a pretty-printed file: its first line opens an event spread over several
        return f"malformed JSON ({text.rstrip('.')})"
    if _CARD_REGEX_MSG.match(text):
        bad = _value_at(line_text, field)
        return (
            "bad card string (expected e.g. 10H, AS, JK)"
            if bad is None
            else Message(N_("bad card string %(text)s (expected e.g. 10H, AS, JK)"), text=repr(bad))
        )
    if field == "type" and text.startswith("Invalid value"):
        return f"unknown event type {text.split('Invalid value ', 1)[1].strip()}"
    if text.startswith("Object contains unknown field"):
        return f"unknown field {named!r}" if named is not None else text
    if text.startswith("Invalid enum value"):
        return f"unknown value {text.split('Invalid enum value ', 1)[1].strip()}"
    if text.startswith("Object missing required field") and named is not None:
        return f"missing required field {named!r}"
    if not field and text.startswith("Expected `object`, got"):
        if line_text.strip() in (b"[", "["):
            return NOT_JSON_LINES  # a pretty-printed array of events
        return f"an event is a JSON object, got {text.rsplit('got ', 1)[1].strip('`')}"
    if text.startswith("Expected `str` matching regex"):
        bad = _value_at(line_text, field)
        pattern = text.split("regex ", 1)[1].replace("(?!\\\\n)", "")  # the newline guard is not part of the format
        return f"value {bad!r} does not match the pattern {pattern}"
    return text


def _name_dict_key(line_text: bytes | str, field: str) -> str:
    """``options[...]`` -> ``options.target``: the key of the first value of
    that object that is not a valid option value (msgspec does not name it)."""
    head = field.split("[...]", 1)[0]
    obj = _value_at(line_text, head)
    if isinstance(obj, dict):
        for key, value in obj.items():
            try:
                msgspec.convert(value, OptionValue)
            except msgspec.ValidationError:
                return field.replace("[...]", f".{key}", 1)
    return field


def _value_at(line_text: bytes | str, field: str) -> object | None:
    """The JSON value at ``field`` (``cards[1]``) in ``line_text``, or None."""
    try:
        obj: object = msgspec.json.decode(line_text)
    except Exception:
        return None
    for part in re.findall(r"[^.\[\]]+", field):
        try:
            obj = obj[int(part)] if part.isdigit() else obj[part]  # type: ignore[index]  # decoded JSON; a wrong shape is the TypeError caught
        except (KeyError, IndexError, TypeError):
            return None
    return obj


def parse_line(raw: bytes, line: int) -> Event:
    """Decode one line to an event or raise ``REC-FORMAT`` located at ``line``
    (also for a field written twice in one object: JSON parsers keep the last
    value silently, and a typo must not be dropped)."""
    if len(raw) > MAX_LINE_BYTES:
        raise RecordError("REC-FORMAT", f"the line is longer than {MAX_LINE_BYTES:,} bytes (no event is)", line=line)
    try:
        event = decode_event(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise format_error(exc, raw, line).with_location(line=line) from None
    if encode_event(event) == raw:  # canonical text (writes each field once): no key can be twice
        return event
    try:  # the schema bounds every string and list, so this pass is bounded too
        json.loads(raw, object_pairs_hook=_distinct_keys)
    except _KeyTwice:
        twice = duplicate_key(raw)
        if twice is not None:
            where, name = twice
            raise RecordError(
                "REC-FORMAT", Message(N_("field %(name)s written twice"), name=repr(name)), field=where, line=line
            ) from None
    return event


#: the longest line a record may have: the longest valid event (16 players,
#: every string at its bound, every character escaped) is well under it
MAX_LINE_BYTES = 256 * 1024


class _KeyTwice(Exception):
    pass


def _distinct_keys(pairs: list[tuple[str, object]]) -> None:
    """``object_pairs_hook``: raise :class:`_KeyTwice` when a key repeats (builds nothing)."""
    if len(pairs) > 1 and len({k for k, _ in pairs}) != len(pairs):
        raise _KeyTwice


def duplicate_key(raw: bytes) -> tuple[str, str] | None:
    """``(path, key)`` of the first key written twice in one JSON object, or None.

    >>> duplicate_key(b'{"type":"card_drawn","seat":1,"seat":0}')
    ('seat', 'seat')
    >>> duplicate_key(b'{"players":[{"seat":0},{"seat":1}]}') is None
    True
    """
    found: list[tuple[str, str]] = []

    def walk(value: object, path: str) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")
        elif isinstance(value, tuple) and value[:1] == ("__pairs__",):
            seen: set[str] = set()
            for key, item in value[1]:
                where = f"{path}.{key}" if path else key
                if key in seen and not found:
                    found.append((where, key))
                seen.add(key)
                walk(item, where)

    walk(json.loads(raw, object_pairs_hook=lambda pairs: ("__pairs__", pairs)), "")
    return found[0] if found else None


def _bounded(stream: BinaryIO | Iterable[bytes]) -> Iterator[bytes]:
    """The lines of ``stream``; from a file, a line longer than
    :data:`MAX_LINE_BYTES` is cut there (the rest of it is skipped, never held)."""
    readline = getattr(stream, "readline", None)
    if readline is None:
        yield from stream
        return
    while True:
        raw = readline(MAX_LINE_BYTES + 2)
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES + 1 and not raw.endswith(b"\n"):
            while True:  # skip the rest of the over-long line
                more = readline(1 << 20)
                if not more or more.endswith(b"\n"):
                    break
        yield raw


def iter_lines(stream: BinaryIO | Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line_number, bytes)`` for each event line (1-based), skipping
    blank lines and ``//`` comments. Reads one line at a time, at most
    :data:`MAX_LINE_BYTES` (+2) of it."""
    for number, raw in enumerate(_bounded(stream), start=1):
        stripped = raw.strip()
        if number == 1 and stripped.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark
            stripped = stripped[3:].strip()
        if not stripped or stripped.startswith(b"//"):
            continue
        yield number, stripped


def iter_events(stream: BinaryIO | Iterable[bytes]) -> Iterator[tuple[int, Event]]:
    """Yield ``(line_number, event)`` for each event line; raises
    :class:`RecordError` (``REC-FORMAT``) at the first bad line."""
    for number, raw in iter_lines(stream):
        yield number, parse_line(raw, number)


@dataclass(frozen=True)
class Record:
    """A parsed record: its events in order and the line each came from.

    ``lines[i]`` is the 1-based file line of ``events[i]`` (position ``i``).
    """

    events: tuple[Event, ...]
    lines: tuple[int, ...]
    path: str | None = None

    @property
    def game_id(self) -> str | None:
        """The ``game_id`` of the first event when it is ``game_started``."""
        first = self.events[0] if self.events else None
        return getattr(first, "game_id", None)

    def line_of(self, position: int | None) -> int | None:
        """File line of the event at ``position`` (None when unknown)."""
        if position is None or not (0 <= position < len(self.lines)):
            return None
        return self.lines[position]


def parse_record(source: BinaryIO | Iterable[bytes] | bytes, path: str | None = None) -> Record:
    """Parse a whole record from its text (bytes) or an open binary stream
    (or any iterable of lines); ``path`` names it in errors.

    Returns a :class:`Record`; raises :class:`RecordError` (``REC-FORMAT``,
    with the line and ``path``) for a bad line, text that is not UTF-8 or a
    record without events.

    >>> parse_record(b'{"type":"card_drawn","seat":0,"card":"6H"}\\n').lines
    (1,)
    >>> parse_record(b"// nothing\\n", "a.jsonl")
    Traceback (most recent call last):
    ...
    ledger.errors.RecordError: a.jsonl:1: REC-FORMAT: no events: a record starts with game_started
    """
    stream = io.BytesIO(source) if isinstance(source, bytes) else source
    events: list[Event] = []
    lines: list[int] = []
    try:
        for number, event in iter_events(stream):
            events.append(event)
            lines.append(number)
    except RecordError as err:
        raise err.with_location(path=path) from None
    except UnicodeDecodeError as err:
        raise RecordError(
            "REC-FORMAT", Message(N_("not UTF-8 text (%(reason)s)"), reason=err.reason), path=path
        ) from None
    if not events:
        raise RecordError("REC-FORMAT", N_("no events: a record starts with game_started"), line=1, path=path)
    return Record(tuple(events), tuple(lines), path)


def encode_record(events: Iterable[Event]) -> bytes:
    """The canonical text of a record: one canonical JSON event per line."""
    return b"".join(encode_event(e) + b"\n" for e in events)
