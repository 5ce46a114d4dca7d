"""The essential work of an import (issue 28, target 1): read and decode
every line of every record file, then fold every game, nothing stored.

    .venv/bin/python bench/essential_import.py FOLDER

Each ``*.jsonl`` of ``FOLDER`` (sorted) is read and decoded
(:func:`ledger.record_files.read_record`) and folded with the import's own
checks (:func:`ledger.replay.validate`), one file after another in this one
process. Timed as a whole process beside ``rummy-ledger import --no-analytics
--jobs 1 FOLDER`` into a fresh store in the same run (``bench/run_all.py``
figure 12): the import must cost ≤ 1.5× this. Prints the files and events
folded.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ledger.record_files import read_record
from ledger.replay import validate


def main(argv: list[str]) -> int:
    files = events = 0
    for path in sorted(Path(argv[0]).glob("*.jsonl")):
        record = read_record(path)
        validate(record)
        files += 1
        events += len(record.events)
    print(files, events)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
