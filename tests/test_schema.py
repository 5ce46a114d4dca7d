"""schemas/ is generated from the structs and committed: the committed files must
be what ``python -m ledger.schema`` writes, and valid JSON Schema 2020-12 that
accepts the format's events and refuses what the reader refuses."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from ledger import schema
from ledger.events import EVENT_TYPES
from ledger.records import encode_record
from ledger.synthetic import two_player_record

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def test_committed_schema_is_the_generated_one() -> None:
    stale = schema.check_schemas(SCHEMAS)
    assert stale == [], f"run `python -m ledger.schema`: {stale} differ from the structs"


def test_every_event_type_has_a_file() -> None:
    names = sorted(p.name for p in (SCHEMAS / "events").glob("*.schema.json"))
    assert names == sorted(f"{cls.__struct_config__.tag}.schema.json" for cls in EVENT_TYPES)


def test_check_reports_missing_changed_and_stale_files(tmp_path: Path) -> None:
    schema.write_schemas(tmp_path)
    assert schema.check_schemas(tmp_path) == []
    (tmp_path / "events" / "card_drawn.schema.json").write_text("{}")
    (tmp_path / "events" / "card_flipped.schema.json").write_text("{}")
    (tmp_path / schema.UNION_FILE).unlink()
    assert schema.check_schemas(tmp_path) == [
        schema.UNION_FILE,
        "events/card_drawn.schema.json",
        "events/card_flipped.schema.json",
    ]
    assert schema.main(["--check", "--out", str(tmp_path)]) == 1
    assert schema.main(["--out", str(tmp_path)]) == 0
    assert schema.check_schemas(tmp_path) == []
    assert not (tmp_path / "events" / "card_flipped.schema.json").exists()


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    document = json.loads((SCHEMAS / schema.UNION_FILE).read_text())
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document)


def test_schema_accepts_every_event_of_a_record(validator: jsonschema.Draft202012Validator) -> None:
    for line in encode_record(two_player_record("g", variant="gin", hands=2, turns=29)).splitlines():
        validator.validate(json.loads(line))


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ({"type": "card_drawn", "seat": 0, "card": "1H"}, "'1H' does not match"),
        (
            {"type": "card_drawn", "seat": 0, "card": "6H", "colour": "red"},
            "Additional properties are not allowed ('colour' was unexpected)",
        ),
        ({"type": "card_flipped", "seat": 0}, "is not valid under any of the given schemas"),
        ({"type": "card_drawn", "seat": 0}, "'card' is a required property"),
        ({"type": "card_drawn", "seat": -1, "card": "6H"}, "-1 is less than the minimum of 0"),
    ],
)
def test_schema_refuses_what_the_reader_refuses(
    validator: jsonschema.Draft202012Validator, event: dict, error: str
) -> None:
    messages = [e.message for e in validator.iter_errors(event)] + [
        c.message for e in validator.iter_errors(event) for c in e.context or []
    ]
    assert any(error in m for m in messages), messages


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda c: c.__struct_config__.tag)
def test_per_type_files_are_valid_2020_12(cls: type) -> None:
    document = json.loads((SCHEMAS / "events" / f"{cls.__struct_config__.tag}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$ref"] == f"#/$defs/{cls.__name__}"
