"""The record reader and writer (FORMAT.md "File"): REC-FORMAT rejections with
their exact line, field and message; comments and blank lines; streaming; the
canonical writer.

The fold's rejections (REC-DECK, REC-WHERE, REC-REF, REC-ORDER) are tested
with the fold (tests/test_fold_*.py).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.events import CardDrawn, GameStarted
from ledger.record_files import find_record_files, read_record, write_record
from ledger.records import encode_record, iter_events

GAME = (
    b'{"type":"game_started","format":"rummy-ledger/1","game_id":"g1","variant":"ramino","players":[{"seat":0,'
    b'"name":"Anna"},{"seat":1,"name":"Bruno"}]}\n'
)
CARD = "(expected e.g. 10H, AS, JK)"


def reject(line: bytes) -> RecordError:
    """The error for ``line`` placed at line 4 (after a comment and a blank line)."""
    with pytest.raises(RecordError) as info:
        read_record(GAME + b"// referee: table 3\n\n" + line + b"\n")
    return info.value


# (event line, field, message): every one is REC-FORMAT at line 4
BAD_LINES = [
    pytest.param(
        b'{"type":"card_drawn","seat":0,', "", "malformed JSON (Input data was truncated)", id="truncated-json"
    ),
    pytest.param(
        b"card_drawn 0 6H", "", "malformed JSON (JSON is malformed: invalid character (byte 0))", id="not-json"
    ),
    pytest.param(b"[1,2]", "", "an event is a JSON object, got array", id="not-an-object"),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"6H","colour":"red"}',
        "colour",
        "unknown field 'colour'",
        id="unknown-field",
    ),
    pytest.param(b'{"type":"card_flipped","seat":0}', "type", "unknown event type 'card_flipped'", id="unknown-type"),
    pytest.param(b'{"seat":0,"card":"6H"}', "type", "missing required field 'type'", id="no-type"),
    pytest.param(b'{"type":"card_drawn","seat":0}', "card", "missing required field 'card'", id="missing-field"),
    pytest.param(b'{"type":"card_drawn","seat":0,"card":"1H"}', "card", f"bad card string '1H' {CARD}", id="bad-card"),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"6h"}', "card", f"bad card string '6h' {CARD}", id="lower-case-card"
    ),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"T\\u2665"}',
        "card",
        f"bad card string 'T\u2665' {CARD}",
        id="lenient-card",
    ),
    pytest.param(
        b'{"type":"discard_taken","seat":0,"cards":["6C","11H"]}',
        "cards[1]",
        f"bad card string '11H' {CARD}",
        id="bad-card-in-list",
    ),
    pytest.param(
        b'{"type":"knocked","seat":0,"discard":"5C","melds":[{"meld":"a","cards":["AH","2H","ZZ"]}],"deadwood":[]}',
        "melds[0].cards[2]",
        f"bad card string 'ZZ' {CARD}",
        id="bad-card-nested",
    ),
    pytest.param(b'{"type":"card_drawn","seat":"0","card":"6H"}', "seat", "Expected `int`, got `str`", id="wrong-type"),
    pytest.param(b'{"type":"card_drawn","seat":-1,"card":"6H"}', "seat", "Expected `int` >= 0", id="negative-seat"),
    pytest.param(
        b'{"type":"discard_taken","seat":0,"cards":[]}', "cards", "Expected `array` of length >= 1", id="empty-cards"
    ),
    pytest.param(b'{"type":"hand_ended","reason":"bored"}', "reason", "unknown value 'bored'", id="bad-reason"),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"6H","at":"yesterday"}',
        "at",
        "`at` is not an ISO-8601 time: 'yesterday'",
        id="at-not-iso",
    ),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"6H","at":20261129}',
        "at",
        "Expected `str | null`, got `int`",
        id="at-not-string",
    ),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"6H","note":"' + b"x" * 2001 + b'"}',
        "note",
        "Expected `str` of length <= 2000",
        id="long-note",
    ),
    pytest.param(
        b'{"type":"meld_laid","seat":0,"meld":"a b","cards":["3H","4H","5H"]}',
        "meld",
        "value 'a b' does not match the pattern '^[A-Za-z0-9_-]{1,16}$'",
        id="bad-meld-id",
    ),
    pytest.param(
        b'{"type":"penalty_assessed","seat":0,"team":1,"points":-50,"rule":"BUR-CLOSE-1"}',
        "seat",  # every rejection names a field (issue 13's fuzz test)
        "a penalty names exactly one of `seat` or `team`",
        id="penalty-seat-and-team",
    ),
    pytest.param(
        b'{"type":"card_drawn","seat":0,"card":"6H","note":"\xff"}',
        "",
        "malformed JSON (Invalid UTF-8 encoded string)",
        id="not-utf8",
    ),
]


@pytest.mark.parametrize(("line", "field", "message"), BAD_LINES)
def test_bad_line_is_rec_format_with_line_field_and_message(line: bytes, field: str, message: str) -> None:
    err = reject(line)
    assert (err.rule, err.line, err.field, err.message) == ("REC-FORMAT", 4, field, message)


def test_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "club.jsonl"
    path.write_bytes(GAME + b'{"type":"card_drawn","seat":0,"card":"1H"}\n')
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.path == str(path)
    assert info.value.as_json() == {
        "line": 2,
        "field": "card",
        "rule": "REC-FORMAT",
        "message": f"bad card string '1H' {CARD}",
    }


@pytest.mark.parametrize(
    ("first", "field", "message"),
    [
        (GAME.replace(b'"ramino"', b'"poker"'), "variant", "unknown value 'poker'"),
        (GAME.replace(b"rummy-ledger/1", b"rummy-ledger/2"), "format", "unknown value 'rummy-ledger/2'"),
        (GAME.replace(b'"format":"rummy-ledger/1",', b""), "format", "missing required field 'format'"),
        (GAME.replace(b'"g1"', b'"g 1"'), "game_id", "value 'g 1' does not match the pattern '^[A-Za-z0-9._-]{1,64}$'"),
        (GAME.replace(b'"name":"Anna"', b'"name":"Anna","age":3'), "players[0].age", "unknown field 'age'"),
        (
            GAME.replace(b'"players":[', b'"meta":{"tournament":"Club","weather":"rain"},"players":['),
            "meta.weather",
            "unknown field 'weather'",
        ),
    ],
)
def test_bad_game_started(first: bytes, field: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(b"// header\n" + first)
    assert (info.value.rule, info.value.line, info.value.field, info.value.message) == ("REC-FORMAT", 2, field, message)


def test_empty_record_is_rejected() -> None:
    with pytest.raises(RecordError) as info:
        read_record(b"// only a comment\n\n   \n")
    assert (info.value.rule, info.value.line, info.value.message) == (
        "REC-FORMAT",
        1,
        "no events: a record starts with game_started",
    )


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_record(tmp_path / "nope.jsonl")


def test_comments_blank_lines_and_bom_are_skipped_and_lines_counted() -> None:
    data = (
        b"\xef\xbb\xbf// made by hand\n\n"
        + GAME.replace(b"\n", b"\r\n")
        + b"   \n// 2nd\n"
        + b'{"type":"card_drawn","seat":0,"card":"6H","at":"2026-11-29T20:15:00Z"}\n'
    )
    record = read_record(data)
    assert record.lines == (3, 6)
    assert record.game_id == "g1"
    assert record.events[1] == CardDrawn(seat=0, card="6H", at="2026-11-29T20:15:00Z")


def test_reader_streams_one_line_at_a_time() -> None:
    """``iter_events`` yields the first event before a bad line further on is read."""
    read: list[int] = []

    def source() -> Iterator[bytes]:
        for i, line in enumerate([GAME, b'{"type":"card_drawn","seat":0,"card":"6H"}\n', b"garbage\n"]):
            read.append(i)
            yield line

    events = iter_events(source())
    number, first = next(events)
    assert (number, type(first), read) == (1, GameStarted, [0])
    next(events)
    assert read == [0, 1]
    with pytest.raises(RecordError):
        next(events)


def test_writer_is_canonical_and_round_trips(tmp_path: Path) -> None:
    messy = b'{ "card": "6H",  "seat": 0, "type": "card_drawn" }\n'
    record = read_record(GAME + messy)
    canonical = GAME + b'{"type":"card_drawn","seat":0,"card":"6H"}\n'
    assert encode_record(record.events) == canonical
    out = io.BytesIO()
    assert write_record(record.events, out) == 2
    assert out.getvalue() == canonical
    path = tmp_path / "out.jsonl"
    write_record(record.events, path)
    assert path.read_bytes() == canonical
    assert read_record(path).events == record.events


def test_find_record_files(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/2.jsonl", "a/b/1.jsonl", "a/notes.txt", "x.json"):
        (tmp_path / name).write_text("")
    assert find_record_files([tmp_path / "a", tmp_path / "x.json"]) == [
        tmp_path / "a/2.jsonl",
        tmp_path / "a/b/1.jsonl",
        tmp_path / "x.json",
    ]
    with pytest.raises(FileNotFoundError):
        find_record_files([tmp_path / "missing"])


def test_a_field_written_twice_is_rejected_not_silently_dropped() -> None:
    with pytest.raises(RecordError) as info:
        read_record(GAME + b'{"type":"card_drawn","seat":1,"seat":0,"card":"6H"}\n')
    assert info.value.as_json() == {
        "line": 2,
        "field": "seat",
        "rule": "REC-FORMAT",
        "message": "field 'seat' written twice",
    }
    with pytest.raises(RecordError) as info:
        read_record(GAME.replace(b'"name":"Anna"', b'"name":"Anna","name":"Anne"'))
    assert info.value.as_json() == {
        "line": 1,
        "field": "players[0].name",
        "rule": "REC-FORMAT",
        "message": "field 'name' written twice",
    }
    # the same key in different objects is fine
    assert read_record(GAME).events[0].players[1].name == "Bruno"
