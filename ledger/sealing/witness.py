"""The seal chain on write: each event's seal and each append call's journal link (FORMAT.md "Seal", layer 2).

Each event's seal ``hN`` is computed when the event is appended, from the
previous event's *stored* seal, and kept as its raw 32 bytes in
``rummy_journal.seal`` in the same transaction as the event row. The journal
entries (who appended, when: one author and one time per append call) are
covered by a second chain with **one link per append call**, kept (32 bytes)
in ``rummy_journal.journal_seal`` of the call's last row, NULL on its other
rows: ``jK = SHA-256(jK-1 + hL + journal lineK)`` over the seal ``hL`` of
the call's last event and the line ``{"first":F,"last":L,"by":…,"received_at":…}``
(:func:`ledger.sealing.chain.journal_chain`, :func:`ledger.sealing.chain.journal_line`). The
append and import paths (:meth:`ledger.store.append.GameAppends.rows_for`)
ask :func:`seal_batch` for the seals of the events they store;
:mod:`ledger.sealing.verify` recomputes both chains from the stored bytes and
compares.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

from ledger.errors import LedgerError
from ledger.sealing import chain as _seal
from ledger.sealing.tables import tables
from ledger.stored.persistence import is_sql

#: ``(the seal of each event, the call's journal link)`` as :func:`seal_batch` gives them (raw 32 bytes)
Sealed = tuple[Sequence[bytes | None], bytes | None]


def seal_batch(
    app: Any,
    oid: UUID,
    first: int,
    lines: Sequence[bytes],
    appended_by: str,
    received_at: str,
    previous: tuple[bytes | None, bytes | None] | None = None,
) -> Sealed:
    """The seals of the events about to be stored at positions ``first``…
    of game ``oid`` by one append call (canonical ``lines`` in order, one
    author and receive time), and the call's journal link, continuing from
    the previous event's *stored* seal and journal link (the append path,
    before its transaction), or from ``previous`` (the seal and journal link
    of position ``first - 1``) when the caller holds them (a streamed
    import's previous chunk, not committed yet: each chunk is a call of its
    own). Raises :class:`SealError` when the previous event has no stored
    seal or is not the end of an append call (an event written into the
    database directly, or a truncated call: ``verify`` names it)."""
    prev_seal: bytes | None = None
    prev_journal: bytes | None = None
    if first and previous is not None:
        prev_seal, prev_journal = previous
    elif first:
        rows: list[tuple[Any, ...]]
        if is_sql(app.recorder):
            t = tables(app)
            rows = t.query(
                f"SELECT seal, journal_seal FROM {t.journal} WHERE originator_id = ? AND position = ?",
                [t.key(oid), first - 1],
            )
        else:  # the in-memory journal (tests, examples)
            row = app.recorder.stored_row(oid, first - 1)
            rows = [(row.seal, row.journal_seal)] if row is not None else []
        if not rows or not _is_digest(rows[0][0]) or not _is_digest(rows[0][1]):
            raise SealError(
                f"cannot append at position {first}: the event at position {first - 1} has no stored seal "
                "(written into the database directly? run rummy-ledger verify)"
            )
        prev_seal, prev_journal = bytes(rows[0][0]), bytes(rows[0][1])
    return _links(prev_seal, prev_journal, first, lines, appended_by, received_at)


def _is_digest(value: Any) -> bool:
    return isinstance(value, (bytes, bytearray, memoryview)) and len(value) == 32


def _links(
    prev_seal: bytes | None,
    prev_journal: bytes | None,
    first: int,
    lines: Sequence[bytes],
    appended_by: str,
    received_at: str,
) -> Sealed:
    """The seal chain over ``lines`` from ``prev_seal`` (None at position 0)
    and the one journal link of the call from ``prev_journal``: one SHA-256
    per event, one more per call (bench/bench_seal.py swaps this function to
    time it or switch it off)."""
    if not lines:
        return [], None
    sha = hashlib.sha256
    h = prev_seal if prev_seal is not None else _seal.CHAIN_PREFIX
    hs = [h := sha(h + line).digest() for line in lines]
    line = _seal.journal_line(first, first + len(lines) - 1, appended_by, received_at)
    return hs, _seal.journal_chain(prev_journal, h, line)


class SealError(LedgerError, RuntimeError):
    """The seal chain of a stored game cannot be continued."""


@lru_cache(maxsize=1024)
def witness(first: int, n: int) -> str:
    """``"first,first+1,…,first+n-1"``: with ``first`` 1 or 0 what SQLite's
    ``group_concat`` of the versions or positions of an intact game of ``n``
    events gives.

    >>> witness(1, 3), witness(0, 1), witness(5, 0)
    ('1,2,3', '0', '')
    """
    return ",".join(map(str, range(first, first + n)))
