"""``rummy-ledger/1`` record files on disk (FORMAT.md, "File"): reading a
record from a path (or a stream, or bytes), writing one to a file and
finding the record files of folders.

The parsing itself is pure and lives in :mod:`ledger.records`
(:func:`~ledger.records.parse_record`); this module does the file-system
work around it, for the store's imports, the CLI, the viewer's record store,
the simulator and the tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from ledger.events import Event, encode_event
from ledger.records import Record, parse_record


def read_record(source: str | os.PathLike[str] | BinaryIO | bytes) -> Record:
    """Read a whole record file (path, binary stream or bytes).

    Returns a :class:`~ledger.records.Record` (its ``path`` the file's, or
    the stream's ``name``); raises :class:`~ledger.errors.RecordError`
    (``REC-FORMAT``, with the line) for a bad line or an empty file, and
    ``OSError`` when the file cannot be opened.
    """
    if isinstance(source, bytes):
        return parse_record(source)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        with open(path, "rb") as fh:
            return parse_record(fh, path)
    return parse_record(source, getattr(source, "name", None))


def write_record(events: Iterable[Event], target: str | os.PathLike[str] | BinaryIO) -> int:
    """Write events in canonical form to a path or binary stream; returns the
    number of events written."""
    count = 0
    if isinstance(target, (str, os.PathLike)):
        with open(target, "wb") as fh:
            return write_record(events, fh)
    for e in events:
        target.write(encode_event(e) + b"\n")
        count += 1
    return count


def find_record_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Expand files and folders into the sorted list of ``*.jsonl`` record
    files (folders are searched recursively). A named file is kept whatever
    its extension; a missing path raises :class:`FileNotFoundError`."""
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.extend(sorted(q for q in path.rglob("*.jsonl") if q.is_file()))
        elif path.exists():
            found.append(path)
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return found
