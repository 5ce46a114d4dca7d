"""Every bundled fixture replays, audits and scores exactly as its expected file says.

A fixture is ``fixtures/<variant>/NAME.jsonl`` with ``NAME.expected.json``
beside it: ``{"audit": <audit --json object>, "score": <score --json object>}``
(or ``{"error": {...}}`` for a record that must be rejected).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.audit import report
from ledger.errors import RecordError
from ledger.record_files import read_record
from ledger.replay import validate
from ledger.scoring import score_sheet

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = sorted(FIXTURES.rglob("*.jsonl"))


def expected_for(path: Path) -> dict:
    return json.loads(path.with_name(path.name[: -len(".jsonl")] + ".expected.json").read_text())


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_fixture_matches_expected(path: Path) -> None:
    expected = expected_for(path)
    if "error" in expected:
        with pytest.raises(RecordError) as info:
            validate(read_record(path))
        assert info.value.as_json() == expected["error"]
        return
    state = validate(read_record(path))
    assert report(state).to_json() == expected["audit"]
    assert score_sheet(state).to_json() == expected["score"]


def test_every_fixture_has_an_expected_file() -> None:
    missing = [str(p) for p in CASES if not p.with_name(p.name[: -len(".jsonl")] + ".expected.json").exists()]
    assert missing == []
