"""Write ``NAME.expected.json`` beside fixture records from the current code.

Usage: ``python tools/make_expected.py fixtures/burraco/NAME.jsonl ...``.
Review every diff by hand: the expected files are the test's truth, and a
fixture's expected values must be checked against RULES.md, not just the code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ledger.audit import report
from ledger.errors import RecordError
from ledger.record_files import read_record
from ledger.replay import validate
from ledger.scoring import score_sheet


def main(paths: list[str]) -> int:
    for p in map(Path, paths):
        try:
            state = validate(read_record(p))
            out = {"audit": report(state).to_json(), "score": score_sheet(state).to_json()}
        except RecordError as err:
            out = {"error": err.as_json()}
        target = p.with_name(p.name[: -len(".jsonl")] + ".expected.json")
        target.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
        print(
            f"{target}: {len(out.get('audit', {}).get('findings', []))} findings"
            if "audit" in out
            else f"{target}: rejected"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
