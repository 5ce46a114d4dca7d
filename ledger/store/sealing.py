"""The seal chain on write: each event's seals, computed as it is appended (FORMAT.md "Seal", layer 2).

Each event's seal ``hN`` is computed when the event is appended (:func:`link`,
from the previous event's *stored* seal) and kept in ``rummy_journal.seal``
in the same transaction as the event row. The journal entry itself (who
appended, when) is covered by a second chain kept in
``rummy_journal.journal_seal``: ``jN = SHA-256(jN-1 + hN + journal lineN)``
(:func:`ledger.seal.journal_chain`). The append and import paths
(:meth:`ledger.store.append.GameAppends._rows_for`) ask :func:`seal_batch`
for the seals of the events they store; :mod:`ledger.store.verify`
recomputes both chains from the stored bytes and compares.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

import msgspec

from ledger import seal as _seal
from ledger.errors import LedgerError
from ledger.store.seal_sql import is_sql, tables


def link(
    prev_seal: str | None, prev_journal: str | None, position: int, line: bytes, appended_by: str, received_at: str
) -> tuple[str, str]:
    """The ``(seal, journal_seal)`` hex of the event at ``position`` with
    canonical ``line``, from the previous event's stored ones (None at
    position 0). Raises ``ValueError`` when a previous seal is missing."""
    if position and (prev_seal is None or prev_journal is None):
        raise ValueError(f"position {position}: the previous event has no stored seal")
    h = _seal.chain(bytes.fromhex(prev_seal) if position and prev_seal is not None else None, line)
    j = _seal.journal_chain(
        bytes.fromhex(prev_journal) if position and prev_journal is not None else None,
        h,
        _seal.journal_line(position, appended_by, received_at),
    )
    return h.hex(), j.hex()


def seal_batch(
    app: Any,
    oid: UUID,
    first: int,
    lines: Sequence[bytes],
    appended_by: str,
    received_at: str,
    previous: tuple[str | None, str | None] | None = None,
) -> Iterable[tuple[str | None, str | None]]:
    """The ``(seal, journal_seal)`` of events about to be stored at
    positions ``first``… of game ``oid``, in order, to iterate once (the
    append path, before its transaction), continuing from the previous event's *stored* seals,
    or from ``previous`` (the seals of position ``first - 1``) when the caller
    holds them (a streamed import's previous chunk, not committed yet).
    Raises :class:`SealError` when the previous event has none (an event
    written into the database directly: ``verify`` names it)."""
    prev_seal = prev_journal = None
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
            from ledger.store.journal import select_journal

            rows = [(j.seal, j.journal_seal) for j in select_journal(app.recorder, oid) if j.position == first - 1]
        if not rows or not rows[0][0] or not rows[0][1]:
            raise SealError(
                f"cannot append at position {first}: the event at position {first - 1} has no stored seal "
                "(written into the database directly? run rummy-ledger verify)"
            )
        prev_seal, prev_journal = rows[0]
    if link is not _link:  # bench/bench_seal.py swaps ``link`` to time it or switch it off
        out: list[tuple[str | None, str | None]] = []
        for i, line in enumerate(lines):
            pair = link(prev_seal, prev_journal, first + i, line, appended_by, received_at)
            out.append(pair)
            prev_seal, prev_journal = pair
        return out
    return _links(prev_seal, prev_journal, first, lines, appended_by, received_at)


def _links(
    prev_seal: str | None,
    prev_journal: str | None,
    first: int,
    lines: Sequence[bytes],
    appended_by: str,
    received_at: str,
) -> Iterable[tuple[str | None, str | None]]:
    """:func:`link` over a batch, keeping the raw digests between events: the
    journal lines of the batch (one author and time) made at once from
    :func:`witness`, the same bytes as :func:`ledger.seal.journal_line`
    (tests/test_seal_property.py), and the digests turned to hex at once."""
    if not lines:
        return []
    sha = hashlib.sha256
    h = bytes.fromhex(prev_seal) if first else _seal.CHAIN_PREFIX  # type: ignore[arg-type]  # links() passes the previous seals when first > 0
    j = bytes.fromhex(prev_journal) if first else _seal.JOURNAL_PREFIX  # type: ignore[arg-type]  # as above
    hs = [h := sha(h + line).digest() for line in lines]
    js = [j := sha(j + x + y).digest() for x, y in zip(hs, journal_lines(first, len(lines), appended_by, received_at))]
    return zip(b"".join(hs).hex(",", 32).split(","), b"".join(js).hex(",", 32).split(","))


def journal_lines(first: int, n: int, appended_by: str, received_at: str) -> list[bytes]:
    """The journal lines of positions ``first``… ``first + n - 1`` with one
    author and time: ``{"position":p,"by":…,"received_at":…}`` each, made
    with one ``replace`` over ``"first,first+1,…"`` (no ``\\n`` can occur in
    the JSON, so the split is exact).

    >>> journal_lines(7, 2, "cli:anna", "t") == [_seal.journal_line(p, "cli:anna", "t") for p in (7, 8)]
    True
    """
    tail = b"," + _encode({"by": appended_by, "received_at": received_at})[1:]
    return (b'{"position":' + witness(first, n).encode().replace(b",", tail + b'\n{"position":') + tail).split(b"\n")


_link = link


class SealError(LedgerError, RuntimeError):
    """The seal chain of a stored game cannot be continued."""


_encode = msgspec.json.encode


@lru_cache(maxsize=1024)
def witness(first: int, n: int) -> str:
    """``"first,first+1,…,first+n-1"``: with ``first`` 1 or 0 what SQLite's
    ``group_concat`` of the versions or positions of an intact game of ``n``
    events gives.

    >>> witness(1, 3), witness(0, 1), witness(5, 0)
    ('1,2,3', '0', '')
    """
    return ",".join(map(str, range(first, first + n)))
