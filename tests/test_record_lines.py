"""A pretty-printed JSON file is not a JSON Lines record (issue 26): its
first line opens an event that goes on over the next lines, and the import
says so ("not a JSON Lines record: one event per line", REC-FORMAT, line 1),
not msgspec's "malformed JSON (Input data was truncated)"; a line merely cut
short keeps the malformed-JSON message (the legal twin of the rule's wording).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.errors import RecordError
from ledger.record_files import read_record

DISPUTE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"
EVENTS = [json.loads(line) for line in DISPUTE.read_text().splitlines()]


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(json.dumps(e, indent=2) for e in EVENTS),  # one object per block of lines
        "\n".join(json.dumps(e, separators=(",\n", ": ")) for e in EVENTS),  # a field per line
    ],
    ids=["indented", "field-per-line"],
)
def test_a_pretty_printed_file_is_not_json_lines(text: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(text.encode())
    assert info.value.as_json() == {
        "line": 1,
        "field": "",
        "rule": "REC-FORMAT",
        "message": "not a JSON Lines record: one event per line (this line only opens a pretty-printed JSON value)",
    }


def test_a_line_cut_short_is_malformed_json() -> None:
    with pytest.raises(RecordError) as info:
        read_record(DISPUTE.read_bytes().splitlines()[0][:-5] + b"\n")
    assert info.value.message == "malformed JSON (Input data was truncated)"


def test_the_import_says_so_in_both_languages(run: Callable[..., Result], tmp_path: Path) -> None:
    pretty = tmp_path / "dispute.json"
    pretty.write_text("\n".join(json.dumps(e, indent=2) for e in EVENTS))
    en = run("import", "--no-analytics", str(pretty))
    assert en.exit_code == 1 and f"{pretty}:1: REC-FORMAT: not a JSON Lines record: one event per line" in en.output
    it = run("--lang", "it", "import", "--no-analytics", str(pretty))
    assert f"{pretty}:1: REC-FORMAT: non è un registro JSON Lines: un evento per riga" in it.output
