"""Checkpoints, inclusion proofs and their Ed25519 signatures (FORMAT.md "Seal").

A **checkpoint** is a JSON file listing ``(game_id, length, seal)`` for a set
of stored games at one time, with the RFC 6962 Merkle root over them
(:mod:`ledger.sealing.chain`) and optionally an Ed25519 signature::

    {"format": "rummy-ledger-checkpoint/1",
     "created_at": "2026-12-01T08:15:02Z",       # UTC, whole seconds
     "tournament": "Club night" | null,           # the --tournament filter, if any
     "size": 2,                                   # number of games
     "root": "<64 hex>",                          # MTH over the games, game_id order
     "games": [{"game_id": "a", "length": 16, "seal": "<64 hex>"}, ...],
     "signature": {"algorithm": "ed25519", "key_id": "<16 hex>",
                   "public_key": "<64 hex>", "value": "<128 hex>"}}   # optional

The signature covers :func:`ledger.sealing.chain.signed_message` (format, time,
tournament, size and root, like a Certificate Transparency signed tree head);
the root covers every listed game. ``key_id`` is the first 16 hex digits of
SHA-256 of the raw 32-byte public key.

An **inclusion proof** (``rummy-ledger prove``) is one game's entry with its
leaf index, the RFC 6962 audit path and the checkpoint's signed head, so that
it can be checked without the store or the other games::

    {"format": "rummy-ledger-proof/1", "game_id": ..., "length": ..., "seal": ...,
     "index": 3, "size": 12, "root": ..., "path": ["<64 hex>", ...],
     "created_at": ..., "tournament": ..., "signature": {...}}

Keys: ``rummy-ledger keygen KEYFILE`` writes the private key as PKCS#8 PEM
(file mode 0600) and the public key beside it as ``KEYFILE.pub``
(SubjectPublicKeyInfo PEM). The cryptography is the ``cryptography``
library's; nothing here is home-made except the RFC 6962 tree.

Errors: :class:`CheckpointError` (a :class:`~ledger.errors.LedgerError`)
with a one-line reason as data (its ``msg``, a :class:`ledger.texts.Message`:
``str()`` is the English, ``text(tr)`` another language). Who signed is data
too: a :class:`ledger.texts.Text` (the English ``"signed by key …"`` that
``--json`` shows, keeping its message for the human line).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ledger.errors import LedgerError
from ledger.sealing import chain as _seal
from ledger.texts import N_, Message, Text

CHECKPOINT_FORMAT = "rummy-ledger-checkpoint/1"
PROOF_FORMAT = "rummy-ledger-proof/1"
#: a checkpoint file larger than this is refused (about 10 million games)
MAX_FILE_BYTES = 2_000_000_000


class CheckpointError(LedgerError):
    """A checkpoint, proof or key file that is malformed or does not verify;
    ``msg`` is the reason as data (a :class:`ledger.texts.Message`)."""

    msg: Message


def _error(msgid: str, **params: Any) -> CheckpointError:
    return CheckpointError(Message(msgid, **params))


#: who signed (:func:`check_checkpoint`, :func:`check_proof`)
NOT_SIGNED = N_("not signed")
SIGNED_BY = N_("signed by key %(kid)s")
SIGNED_NOT_PINNED = N_("signed by key %(kid)s (key not pinned: pass --key to check who signed)")
#: the fields of a checkpoint, a proof or a signature are not the format's
_FIELDS = {
    "checkpoint": N_("checkpoint fields are not those of the format (unknown: %(unknown)s, missing: %(missing)s)"),
    "proof": N_("proof fields are not those of the format (unknown: %(unknown)s, missing: %(missing)s)"),
    "signature": N_("signature fields are not those of the format (unknown: %(unknown)s, missing: %(missing)s)"),
}
_NOT_ED25519 = N_("%(file)s: not an Ed25519 key")
_NOT_FORMAT = N_("not a %(kind)s object (format field)")


@dataclass(frozen=True)
class Entry:
    """One game of a checkpoint: its id, number of events and seal after the last."""

    game_id: str
    length: int
    seal: str

    def leaf(self) -> bytes:
        """The RFC 6962 leaf data of this game (:func:`ledger.sealing.chain.leaf_data`)."""
        return _seal.leaf_data(self.game_id, self.length, self.seal)


# --- keys ---


def key_id(public: Ed25519PublicKey) -> str:
    """First 16 hex digits of SHA-256 of the raw public key."""
    return hashlib.sha256(_raw(public)).hexdigest()[:16]


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def generate_key(path: Path) -> tuple[Path, str]:
    """Write a new Ed25519 key pair: ``path`` (private, PKCS#8 PEM, mode 0600,
    never overwritten) and ``path.pub`` (public, PEM). Returns the public key
    path and the key id. Raises ``FileExistsError`` when either file exists,
    naming those that do, the private key first (``club.key, club.key.pub:
    key files exist (not overwritten)``)."""
    pub_path = path.with_name(path.name + ".pub")
    existing = [p for p in (path, pub_path) if p.exists()]
    if existing:
        what = (
            "private and public key files exist (not overwritten)"
            if len(existing) == 2
            else f"{'private' if existing[0] == path else 'public'} key file exists (not overwritten)"
        )
        raise FileExistsError(17, what, ", ".join(str(p) for p in existing))
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private)
    os.chmod(path, 0o600)  # whatever the umask
    public = key.public_key()
    pub_path.write_bytes(
        public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return pub_path, key_id(public)


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in PEM file ``path``; :class:`CheckpointError` otherwise."""
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as exc:
        raise _error(
            N_("%(file)s: not an unencrypted PEM private key (%(reason)s)"), file=str(path), reason=str(exc)
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise _error(_NOT_ED25519, file=str(path))
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    """The Ed25519 public key in PEM file ``path`` (a private key file is
    accepted too: its public half is used); :class:`CheckpointError` otherwise."""
    data = path.read_bytes()
    try:
        key: Any = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        try:
            key = serialization.load_pem_private_key(data, password=None).public_key()
        except (ValueError, TypeError) as exc:
            raise _error(N_("%(file)s: not a PEM public key (%(reason)s)"), file=str(path), reason=str(exc)) from None
    if not isinstance(key, Ed25519PublicKey):
        raise _error(_NOT_ED25519, file=str(path))
    return key


# --- building ---


def utc_now() -> str:
    """The current UTC time, ISO-8601 with ``Z``, whole seconds."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def build(
    entries: Iterable[Entry],
    *,
    tournament: str | None = None,
    created_at: str | None = None,
    key: Ed25519PrivateKey | None = None,
) -> dict[str, Any]:
    """The checkpoint object over ``entries`` (sorted here by ``game_id``),
    signed with ``key`` when given."""
    games = sorted(entries, key=lambda e: e.game_id)
    created = created_at or utc_now()
    root = _seal.merkle_root([e.leaf() for e in games]).hex()
    doc: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "created_at": created,
        "tournament": tournament,
        "size": len(games),
        "root": root,
        "games": [{"game_id": e.game_id, "length": e.length, "seal": e.seal} for e in games],
    }
    if key is not None:
        doc["signature"] = sign(key, _seal.signed_message(created, tournament, len(games), root))
    return doc


def sign(key: Ed25519PrivateKey, message: bytes) -> dict[str, str]:
    """``{"algorithm": "ed25519", "key_id", "public_key", "value"}`` (hex)."""
    public = key.public_key()
    return {
        "algorithm": "ed25519",
        "key_id": key_id(public),
        "public_key": _raw(public).hex(),
        "value": key.sign(message).hex(),
    }


def dumps(doc: Mapping[str, Any]) -> str:
    """The file text: JSON, one game per line for large checkpoints to diff well."""
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


# --- reading and checking (no store) ---


def _require(cond: bool, msgid: str, **params: Any) -> None:
    """Raise :class:`CheckpointError` of ``msgid`` and ``params`` unless ``cond``."""
    if not cond:
        raise _error(msgid, **params)


_CHECKPOINT_KEYS = {"format", "created_at", "tournament", "size", "root", "games"}
_PROOF_KEYS = {"format", "game_id", "length", "seal", "index", "size", "root", "path", "created_at", "tournament"}


def _keys(doc: Mapping[str, Any], allowed: set[str], what: str) -> None:
    """Exactly the fields of the format (``signature`` optional): a renamed field is an edit."""
    have = set(doc) - {"signature"} if what != "signature" else set(doc)
    if have != allowed:
        raise _error(_FIELDS[what], unknown=str(sorted(have - allowed)), missing=str(sorted(allowed - have)))


def _hex(value: Any, digits: int, what: str) -> bytes:
    _require(
        isinstance(value, str) and len(value) == digits and all(c in "0123456789abcdef" for c in value),
        N_("%(field)s is not %(digits)s lower-case hex digits"),
        field=what,
        digits=digits,
    )
    return bytes.fromhex(value)


def load(path: Path, kind: str = CHECKPOINT_FORMAT) -> dict[str, Any]:
    """Parse a checkpoint (or, with ``kind=PROOF_FORMAT``, a proof) file.
    Raises :class:`CheckpointError` naming what is wrong (not the file: the
    caller's message names it once)."""
    size = path.stat().st_size
    _require(size <= MAX_FILE_BYTES, N_("%(size)s bytes is larger than a checkpoint can be"), size=size)
    try:
        doc: dict[str, Any] = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError) as exc:
        raise _error(N_("not JSON (%(reason)s)"), reason=str(exc)) from None
    _require(isinstance(doc, dict) and doc.get("format") == kind, N_("not a %(kind)s file (format field)"), kind=kind)
    return doc


def entries(doc: Mapping[str, Any]) -> list[Entry]:
    """The games of a checkpoint object, checked for shape, order and uniqueness."""
    games = doc.get("games")
    if not isinstance(games, list):  # raised here, not by _require, so that mypy narrows the type
        raise _error(N_("games is not a list"))
    out: list[Entry] = []
    for i, g in enumerate(games):
        _require(
            isinstance(g, dict) and set(g) == {"game_id", "length", "seal"},
            N_("games[%(i)s] is not {game_id, length, seal}"),
            i=i,
        )
        _require(isinstance(g["game_id"], str) and g["game_id"] != "", N_("games[%(i)s].game_id is not a game id"), i=i)
        _require(
            type(g["length"]) is int and g["length"] >= 1, N_("games[%(i)s].length is not a positive integer"), i=i
        )
        _hex(g["seal"], 64, f"games[{i}].seal")
        out.append(Entry(g["game_id"], g["length"], g["seal"]))
        if i:
            _require(
                out[i - 1].game_id < out[i].game_id,
                N_("games[%(i)s] (%(game)s) is out of game_id order or listed twice"),
                i=i,
                game=repr(g["game_id"]),
            )
    return out


def _check_head(doc: Mapping[str, Any], size: int, root: bytes, public: Ed25519PublicKey | None) -> Text:
    """Check the signed head (time, tournament, size, root) and the signature;
    returns who signed (:data:`NOT_SIGNED`, :data:`SIGNED_BY` or
    :data:`SIGNED_NOT_PINNED`, as a :class:`ledger.texts.Text`)."""
    created, tournament = doc.get("created_at"), doc.get("tournament")
    if not isinstance(created, str):
        raise _error(N_("created_at is missing"))
    _require(tournament is None or isinstance(tournament, str), N_("tournament is not a string"))
    signature = doc.get("signature")
    if signature is None:
        _require(
            public is None,
            N_("not signed, but a key was given (key id %(kid)s)"),
            kid=key_id(public) if public else "",
        )
        return Text.of(Message(NOT_SIGNED))
    _require(
        isinstance(signature, dict) and signature.get("algorithm") == "ed25519",
        N_("signature is not an ed25519 signature"),
    )
    _keys(signature, {"algorithm", "key_id", "public_key", "value"}, "signature")
    embedded_raw = _hex(signature.get("public_key"), 64, "signature.public_key")
    value = _hex(signature.get("value"), 128, "signature.value")
    embedded = Ed25519PublicKey.from_public_bytes(embedded_raw)
    _require(signature.get("key_id") == key_id(embedded), N_("signature.key_id does not match signature.public_key"))
    if public is not None and _raw(public) != embedded_raw:
        raise _error(
            N_("signed by key %(kid)s, not by the given key %(given)s"), kid=key_id(embedded), given=key_id(public)
        )
    try:
        embedded.verify(value, _seal.signed_message(created, tournament, size, root.hex()))
    except InvalidSignature:
        raise _error(
            N_("signature by key %(kid)s does not verify: the signed head (time, tournament, size, root) was changed"),
            kid=key_id(embedded),
        ) from None
    except ValueError as exc:
        raise _error(N_("signed head cannot be checked: %(reason)s"), reason=str(exc)) from None
    return Text.of(Message(SIGNED_BY if public is not None else SIGNED_NOT_PINNED, kid=key_id(embedded)))


def check_checkpoint(doc: Mapping[str, Any], public: Ed25519PublicKey | None = None) -> tuple[list[Entry], Text]:
    """Check a checkpoint object on its own: shape, size, root over the games,
    and the signature (with ``public`` when given: it must be that key's).
    Returns the games and who signed (a :class:`ledger.texts.Text`: the
    English, its message kept); raises :class:`CheckpointError`."""
    _require(doc.get("format") == CHECKPOINT_FORMAT, _NOT_FORMAT, kind=CHECKPOINT_FORMAT)
    _keys(doc, _CHECKPOINT_KEYS, "checkpoint")
    games = entries(doc)
    _require(
        doc.get("size") == len(games),
        N_("size %(size)s but %(num)s games listed"),
        size=repr(doc.get("size")),
        num=len(games),
    )
    root = _hex(doc.get("root"), 64, "root")
    computed = _seal.merkle_root([e.leaf() for e in games])
    _require(
        computed == root,
        N_("root %(root)s… is not the Merkle root of the games listed (%(computed)s…): the file was edited"),
        root=root.hex()[:16],
        computed=computed.hex()[:16],
    )
    return games, _check_head(doc, len(games), root, public)


def make_proof(doc: Mapping[str, Any], game_id: str) -> dict[str, Any]:
    """The inclusion proof of ``game_id`` in checkpoint ``doc`` (checked first)."""
    games, _ = check_checkpoint(doc)
    index = next((i for i, e in enumerate(games) if e.game_id == game_id), None)
    if index is None:
        raise _error(N_("game %(game)s is not in the checkpoint"), game=repr(game_id))
    e = games[index]
    proof: dict[str, Any] = {
        "format": PROOF_FORMAT,
        "game_id": e.game_id,
        "length": e.length,
        "seal": e.seal,
        "index": index,
        "size": len(games),
        "root": doc["root"],
        "path": [h.hex() for h in _seal.audit_path(index, [g.leaf() for g in games])],
        "created_at": doc["created_at"],
        "tournament": doc.get("tournament"),
    }
    if "signature" in doc:
        proof["signature"] = doc["signature"]
    return proof


def check_proof(doc: Mapping[str, Any], public: Ed25519PublicKey | None = None) -> tuple[Entry, Text]:
    """Check an inclusion proof without the store: the audit path leads from
    the game's leaf to the root, and the signed head checks out. Returns the
    game's entry and who signed (as :func:`check_checkpoint`); raises
    :class:`CheckpointError`."""
    _require(doc.get("format") == PROOF_FORMAT, _NOT_FORMAT, kind=PROOF_FORMAT)
    _keys(doc, _PROOF_KEYS, "proof")
    _require(
        isinstance(doc.get("game_id"), str) and type(doc.get("length")) is int and doc["length"] >= 1,
        N_("game_id or length missing"),
    )
    _hex(doc.get("seal"), 64, "seal")
    entry = Entry(doc["game_id"], doc["length"], doc["seal"])
    index, size = doc.get("index"), doc.get("size")
    if not (type(index) is int and type(size) is int and 0 <= index < size):
        raise _error(N_("index and size are not a leaf of a tree"))
    path = doc.get("path")
    if not (isinstance(path, list) and len(path) <= 64):
        raise _error(N_("path is not a list of hashes"))
    hashes = [_hex(p, 64, f"path[{i}]") for i, p in enumerate(path)]
    root = _hex(doc.get("root"), 64, "root")
    reached = _seal.root_from_path(_seal.leaf_hash(entry.leaf()), index, size, hashes)
    _require(
        reached is not None,
        N_("path of %(num)s hashes does not fit leaf %(index)s of a tree of %(size)s"),
        num=len(hashes),
        index=index,
        size=size,
    )
    _require(
        reached == root,
        N_(
            "the audit path does not lead from game %(game)s (length %(length)s, seal %(seal)s) to the root: the "
            "proof was edited"
        ),
        game=repr(entry.game_id),
        length=entry.length,
        seal=_seal.short_form(entry.seal),
    )
    return entry, _check_head(doc, size, root, public)
