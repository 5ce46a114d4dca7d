"""The plain reference of issue 28, target 3: one ``SELECT`` of the stored
events' canonical bytes, ``hashlib.sha256`` over each, no checks.

    .venv/bin/python bench/verify_reference.py STORE.db

Reads every row of the events table (``state``, in primary-key order: the
rows ``rummy-ledger verify`` reads) with one query and hashes each line's
bytes; nothing is chained or compared. Timed as a whole process beside
``rummy-ledger --db STORE.db verify`` in the same run: ``verify`` must reach
≥ 0.67× of this one's rate (issue 28, target 3). Prints the number of rows.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys


def main(argv: list[str]) -> int:
    conn = sqlite3.connect(argv[0])
    sha = hashlib.sha256
    n = 0
    for (state,) in conn.execute("SELECT state FROM stored_events ORDER BY originator_id, originator_version"):
        sha(state).digest()
        n += 1
    print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
