"""The seal chain and checkpoint Merkle tree (FORMAT.md "Seal (tamper evidence)").

Pure domain, ``hashlib`` only: a third party can check a record file with
this module (or the README's ten-line script) and no store.

**Chain.** Each event's *canonical line* is the compact JSON ``export``
writes for it (:func:`ledger.events.encode_event`, UTF-8, no newline).
``h0 = SHA-256(b"rummy-ledger/1\\n" + line0)`` and
``hN = SHA-256(hN-1 + lineN)`` over the raw 32-byte digest ``hN-1``. The
*seal* at position N is ``hN`` in lower-case hex (64 digits); its *short
form* is the first 16 hex digits in groups of four.

>>> lines = [b'{"type":"game_started"}', b'{"type":"card_drawn","seat":0,"card":"6H"}']
>>> h0 = chain(None, lines[0])
>>> h0 == hashlib.sha256(b"rummy-ledger/1\\n" + lines[0]).digest()
True
>>> chain(h0, lines[1]) == hashlib.sha256(h0 + lines[1]).digest()
True
>>> seal_hex(lines) == chain(h0, lines[1]).hex()
True
>>> short_form("3f2a91c07d440b1e" + "0" * 48)
'3f2a-91c0-7d44-0b1e'

**Checkpoint tree.** The Merkle Tree Hash of RFC 6962 section 2.1 over the
games in ``game_id`` order; each game's leaf data is
``game_id + 0x00 + length + 0x00 + seal`` with ``game_id`` in UTF-8,
``length`` (events in the game) in decimal ASCII and ``seal`` (the seal at
position ``length - 1``) as its 64 lower-case hex ASCII digits. Leaf hash
``SHA-256(0x00 + data)``, node hash ``SHA-256(0x01 + left + right)``; the
empty tree's hash is ``SHA-256(b"")``.

>>> leaves = [leaf_data(f"g{i}", 3, "ab" * 32) for i in range(5)]
>>> root = merkle_root(leaves)
>>> proof = audit_path(3, leaves)
>>> len(proof), verify_inclusion(leaf_hash(leaves[3]), 3, 5, proof, root)
(3, True)
>>> verify_inclusion(leaf_hash(leaves[2]), 3, 5, proof, root)
False
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Sequence

#: bytes hashed before the first canonical line (FORMAT.md "Seal")
CHAIN_PREFIX = b"rummy-ledger/1\n"
SEAL_RE = re.compile(r"^[0-9a-f]{64}$")
LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"


def chain(prev: bytes | None, line: bytes) -> bytes:
    """The next link: ``SHA-256(prev + line)``, or ``h0`` when ``prev`` is None.

    ``prev`` is the previous event's raw 32-byte digest (not hex), ``line``
    the event's canonical line (bytes, no newline). Returns 32 bytes. Raises
    ``ValueError`` when ``prev`` is not 32 bytes long.
    """
    if prev is None:
        return hashlib.sha256(CHAIN_PREFIX + line).digest()
    if len(prev) != 32:
        raise ValueError(f"previous seal must be a 32-byte digest, got {len(prev)} bytes")
    return hashlib.sha256(prev + line).digest()


def seals(lines: Iterable[bytes], prev: bytes | None = None) -> Iterator[bytes]:
    """The raw digests ``h0, h1, ...`` of ``lines`` (canonical lines in
    position order); ``prev`` continues a chain whose last digest is known.

    >>> [d.hex()[:8] for d in seals([b"a", b"b"])]
    ['0de4c0c3', '8af69e95']
    """
    h = prev
    for line in lines:
        h = chain(h, line)
        yield h


def seal_hex(lines: Iterable[bytes], at: int | None = None) -> str:
    """The seal (64 lower-case hex digits) after position ``at`` (default:
    the last line). Raises ``ValueError`` when there are no lines or ``at``
    is outside ``0..len-1``.

    >>> seal_hex([b"a", b"b"], at=0) == hashlib.sha256(b"rummy-ledger/1\\na").hexdigest()
    True
    >>> seal_hex([b"a"], at=1)
    Traceback (most recent call last):
    ...
    ValueError: position 1 is outside 0..0
    """
    h: bytes | None = None
    n = -1
    for n, h in enumerate(seals(lines)):
        if at is not None and n == at:
            return h.hex()
    if h is None:
        raise ValueError("no events: an empty record has no seal")
    if at is not None and not 0 <= at <= n:
        raise ValueError(f"position {at} is outside 0..{n}")
    return h.hex()


def short_form(seal: str) -> str:
    """The first 16 hex digits of ``seal`` in groups of four, e.g.
    ``3f2a-91c0-7d44-0b1e`` (FORMAT.md "Seal"). Raises ``ValueError`` for a
    string that is not a seal (64 lower-case hex digits)."""
    if not SEAL_RE.match(seal):
        raise ValueError(f"not a seal (64 lower-case hex digits): {seal!r}")
    return "-".join(seal[i : i + 4] for i in range(0, 16, 4))


def canonical_lines(data: bytes) -> list[bytes]:
    """The event lines of an exported record file: each line without its
    ``\\n`` (and a ``\\r`` before it), blank lines and ``//`` comment lines
    left out (FORMAT.md "File"). The lines are taken as they are: for a file
    that is not canonical (spaces, other field order) parse and re-encode it
    first (:func:`ledger.events.encode_event`).

    >>> canonical_lines(b'// journal\\n{"a":1}\\r\\n\\n{"b":2}')
    [b'{"a":1}', b'{"b":2}']
    """
    out = []
    for raw in data.split(b"\n"):
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if not line.strip() or line.lstrip().startswith(b"//"):
            continue
        out.append(line)
    return out


# --- RFC 6962 section 2.1: Merkle Tree Hash, audit paths ---


def leaf_data(game_id: str, length: int, seal: str) -> bytes:
    """A checkpoint leaf's data: ``game_id 0x00 length 0x00 seal``.

    >>> leaf_data("g", 12, "0" * 64)[:6]
    b'g\\x0012\\x000'
    """
    if not SEAL_RE.match(seal):
        raise ValueError(f"not a seal (64 lower-case hex digits): {seal!r}")
    if length < 1:
        raise ValueError(f"a game has at least one event, got length {length}")
    return game_id.encode("utf-8") + b"\x00" + str(length).encode("ascii") + b"\x00" + seal.encode("ascii")


def leaf_hash(data: bytes) -> bytes:
    """``SHA-256(0x00 + data)`` (RFC 6962 2.1)."""
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 + left + right)`` (RFC 6962 2.1)."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n >= 2``).

    >>> [_split(n) for n in (2, 3, 4, 5, 8, 9)]
    [1, 2, 2, 4, 4, 8]
    """
    return 1 << ((n - 1).bit_length() - 1)


def _mth(hashes: Sequence[bytes]) -> bytes:
    n = len(hashes)
    if n == 1:
        return hashes[0]
    k = _split(n)
    return node_hash(_mth(hashes[:k]), _mth(hashes[k:]))


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) of RFC 6962 2.1 over the leaf *data* ``leaves`` (not yet
    hashed); 32 bytes. The empty list gives ``SHA-256(b"")``.

    >>> merkle_root([]) == hashlib.sha256(b"").digest()
    True
    >>> merkle_root([b"x"]) == leaf_hash(b"x")
    True
    >>> a, b, c = (leaf_hash(x) for x in (b"a", b"b", b"c"))
    >>> merkle_root([b"a", b"b", b"c"]) == node_hash(node_hash(a, b), c)
    True
    """
    if not leaves:
        return hashlib.sha256(b"").digest()
    return _mth([leaf_hash(d) for d in leaves])


def _path(m: int, hashes: Sequence[bytes]) -> list[bytes]:
    n = len(hashes)
    if n == 1:
        return []
    k = _split(n)
    if m < k:
        return _path(m, hashes[:k]) + [_mth(hashes[k:])]
    return _path(m - k, hashes[k:]) + [_mth(hashes[:k])]


def audit_path(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) of RFC 6962 2.1.1: the sibling hashes, from the leaf up,
    that prove leaf ``index`` is in the tree of ``leaves`` (leaf data).
    Raises ``ValueError`` for an index outside ``0..n-1``."""
    if not 0 <= index < len(leaves):
        raise ValueError(f"leaf index {index} is outside 0..{len(leaves) - 1}")
    return _path(index, [leaf_hash(d) for d in leaves])


def root_from_path(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root that ``path`` leads to from the leaf *hash* ``leaf`` at
    ``index`` in a tree of ``size`` leaves (RFC 9162 2.1.3.2, the algorithm
    that checks an RFC 6962 audit path); None when the path has the wrong
    length for that index and size."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], root: bytes) -> bool:
    """True when ``path`` proves the leaf hash ``leaf`` is leaf ``index`` of
    the tree of ``size`` leaves whose root is ``root``."""
    return root_from_path(leaf, index, size, path) == root


# --- checkpoints: the pure part (the file and signature are ledger.sealing.checkpoint) ---


def signed_message(created_at: str, tournament: str | None, size: int, root: str) -> bytes:
    """The bytes an Ed25519 checkpoint signature covers (a signed tree head):
    ``rummy-ledger-checkpoint/1``, time, tournament (empty when none), number
    of games and root hex, one per line, each ending in ``\\n``.

    >>> signed_message("2026-12-01T08:00:00Z", None, 2, "ab")
    b'rummy-ledger-checkpoint/1\\n2026-12-01T08:00:00Z\\n\\n2\\nab\\n'
    """
    parts = ["rummy-ledger-checkpoint/1", created_at, tournament or "", str(size), root]
    if any("\n" in p for p in parts):
        raise ValueError("checkpoint fields must not contain a newline")
    return ("\n".join(parts) + "\n").encode("utf-8")


# --- the journal chain (README "Seal and verify"): who appended each event, when ---

#: bytes hashed before the first journal link (version 2: one link per append call)
JOURNAL_PREFIX = b"rummy-ledger/journal/2\n"


def journal_line(first: int, last: int, appended_by: str, received_at: str) -> bytes:
    """The journal entry of one append call, which stored the events at
    positions ``first``..``last`` (inclusive) with one author and one receive
    time, as compact JSON.

    >>> journal_line(3, 5, "cli:anna", "2026-12-01T08:15:02.123456Z")
    b'{"first":3,"last":5,"by":"cli:anna","received_at":"2026-12-01T08:15:02.123456Z"}'
    """
    return json.dumps(
        {"first": first, "last": last, "by": appended_by, "received_at": received_at},
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8")


def journal_chain(prev: bytes | None, seal: bytes, line: bytes) -> bytes:
    """``jK = SHA-256(jK-1 + hL + journal lineK)``, one link per append call
    ``K`` (``j-1`` is :data:`JOURNAL_PREFIX`): ``hL`` is the seal (raw 32
    bytes) of the call's last event at position ``L``, which the seal chain
    ties to every event before it, and the line names the call's positions,
    author and time (:func:`journal_line`), so an edited entry, a moved call
    boundary or an edited seal breaks it. Raises ``ValueError`` when ``seal``
    is not 32 bytes."""
    if len(seal) != 32:
        raise ValueError(f"seal must be a 32-byte digest, got {len(seal)} bytes")
    return hashlib.sha256((JOURNAL_PREFIX if prev is None else prev) + seal + line).digest()
