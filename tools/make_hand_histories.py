"""Write the expected hand histories of the fixtures from the current code (issue 29).

Usage: ``python tools/make_hand_histories.py`` writes
``tests/expected/hand_history/{en,it}/<variant>-<name>.txt`` for every
``fixtures/<variant>/<name>.jsonl`` that imports (the ``rejected_*`` records are
refused and get none), as ``rummy-ledger --lang LANG export FILE --format text``
prints it (the referee's view). ``tests/test_hand_history.py`` compares them
byte for byte. Review every diff by hand: the files are the test's truth.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ledger.errors import RecordError
from ledger.hand_history import hand_history
from ledger.i18n import translations
from ledger.record_files import read_record
from ledger.replay import validate

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
TARGET = REPO / "tests" / "expected" / "hand_history"
LANGS = ("en", "it")


def cases() -> list[tuple[str, Path]]:
    """``(name, record file)`` of every fixture, named ``<variant>-<stem>`` (two variants have an elimination)."""
    return [(f"{p.parent.name}-{p.stem}", p) for p in sorted(FIXTURES.rglob("*.jsonl"))]


def history(path: Path, lang: str) -> str | None:
    """The text the expected file holds (the command's stdout), or None for a record the fold refuses."""
    try:
        record = read_record(path)
        validate(record)
    except RecordError:
        return None
    return hand_history(list(record.events), None, translations(lang)) + "\n"


def main() -> int:
    written = 0
    for lang in LANGS:
        (TARGET / lang).mkdir(parents=True, exist_ok=True)
        for name, path in cases():
            text = history(path, lang)
            if text is None:
                print(f"{path.relative_to(REPO)}: rejected, no history")
                continue
            (TARGET / lang / f"{name}.txt").write_text(text, encoding="utf-8")
            written += 1
    print(f"wrote {written} hand histories under {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
