"""Checkpoint files, inclusion proofs and Ed25519 signatures (ledger.sealing.checkpoint), no store."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from ledger.sealing import chain as seal
from ledger.sealing import checkpoint as cp


def _entries(n: int) -> list[cp.Entry]:
    return [cp.Entry(f"game-{i:02d}", 10 + i, hashlib.sha256(str(i).encode()).hexdigest()) for i in range(n)]


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, Path]:
    pub, kid = cp.generate_key(tmp_path / "club.key")
    assert len(kid) == 16 and pub == tmp_path / "club.key.pub"
    return tmp_path / "club.key", pub


def test_keygen_writes_a_private_file_only_its_owner_reads(keys: tuple[Path, Path]) -> None:
    private, public = keys
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    assert private.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert public.read_bytes().startswith(b"-----BEGIN PUBLIC KEY-----")
    with pytest.raises(FileExistsError):
        cp.generate_key(private)
    assert cp.key_id(cp.load_public_key(public)) == cp.key_id(cp.load_private_key(private).public_key())


def test_a_signed_checkpoint_verifies_with_its_key(keys: tuple[Path, Path]) -> None:
    private, public = keys
    doc = cp.build(
        _entries(5)[::-1], tournament="Club night", created_at="2026-12-01T08:00:00Z", key=cp.load_private_key(private)
    )
    assert [g["game_id"] for g in doc["games"]] == [f"game-{i:02d}" for i in range(5)]
    assert doc["root"] == seal.merkle_root([e.leaf() for e in _entries(5)]).hex()
    games, who = cp.check_checkpoint(json.loads(cp.dumps(doc)), cp.load_public_key(public))
    assert games == _entries(5)
    assert who == f"signed by key {doc['signature']['key_id']}"
    assert cp.check_checkpoint(doc)[1].endswith("(key not pinned: pass --key to check who signed)")


def test_unsigned_checkpoint_with_a_key_given_fails(keys: tuple[Path, Path]) -> None:
    doc = cp.build(_entries(3))
    assert cp.check_checkpoint(doc)[1] == "not signed"
    with pytest.raises(cp.CheckpointError, match="not signed, but a key was given"):
        cp.check_checkpoint(doc, cp.load_public_key(keys[1]))


def test_signed_by_another_key_fails(keys: tuple[Path, Path], tmp_path: Path) -> None:
    other_pub, other_id = cp.generate_key(tmp_path / "other.key")
    doc = cp.build(_entries(3), key=cp.load_private_key(tmp_path / "other.key"))
    mine = cp.load_public_key(keys[1])
    with pytest.raises(cp.CheckpointError, match=f"signed by key {other_id}, not by the given key {cp.key_id(mine)}"):
        cp.check_checkpoint(doc, mine)
    # and a signature swapped in from another key does not verify for the embedded key
    forged = dict(doc, signature=dict(doc["signature"], public_key=cp._raw(mine).hex(), key_id=cp.key_id(mine)))
    with pytest.raises(cp.CheckpointError, match="does not verify"):
        cp.check_checkpoint(forged, mine)


def test_every_single_byte_edit_of_a_signed_checkpoint_fails(keys: tuple[Path, Path]) -> None:
    """Change each byte of the file's values (not layout): the root, the
    signature or the parse refuses it."""
    private, public = keys
    text = cp.dumps(cp.build(_entries(3), created_at="2026-12-01T08:00:00Z", key=cp.load_private_key(private))).encode()
    key = cp.load_public_key(public)
    hexdigits = b"0123456789abcdef"
    failures = 0
    for i, b in enumerate(text):
        if b not in hexdigits:
            continue
        edited = text[:i] + bytes([hexdigits[(hexdigits.index(b) + 1) % 16]]) + text[i + 1 :]
        with pytest.raises(cp.CheckpointError):
            cp.check_checkpoint(json.loads(edited), key)
        failures += 1
    assert failures == sum(b in hexdigits for b in text) > 500


def test_edited_game_names_the_root(keys: tuple[Path, Path]) -> None:
    doc = cp.build(_entries(4))
    doc["games"][2]["length"] += 1
    with pytest.raises(cp.CheckpointError, match=r"is not the Merkle root of the games listed .*: the file was edited"):
        cp.check_checkpoint(doc)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(size=4), r"size 4 but 3 games listed"),
        (lambda d: d["games"].append(d["games"][-1]), r"games\[3\] .* listed twice"),
        (lambda d: d["games"].reverse(), r"out of game_id order"),
        (lambda d: d["games"][0].update(seal="X" * 64), r"games\[0\].seal is not 64 lower-case hex"),
        (lambda d: d["games"][0].update(length=0), r"games\[0\].length is not a positive integer"),
        (lambda d: d.update(games="no"), r"games is not a list"),
    ],
)
def test_malformed_checkpoints_are_named(edit, message: str) -> None:  # noqa: ANN001
    doc = cp.build(_entries(3))
    edit(doc)
    with pytest.raises(cp.CheckpointError, match=message):
        cp.check_checkpoint(doc)


def test_load_refuses_what_is_not_a_checkpoint(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{nope")
    with pytest.raises(cp.CheckpointError, match="not JSON"):
        cp.load(tmp_path / "a.json")
    (tmp_path / "b.json").write_text('{"format": "other"}')
    with pytest.raises(cp.CheckpointError, match="not a rummy-ledger-checkpoint/1 file"):
        cp.load(tmp_path / "b.json")


@pytest.mark.parametrize("n", [1, 2, 3, 7, 12])
def test_every_game_has_a_proof_that_checks_without_the_others(keys: tuple[Path, Path], n: int) -> None:
    private, public = keys
    doc = cp.build(_entries(n), key=cp.load_private_key(private))
    key = cp.load_public_key(public)
    for e in _entries(n):
        proof = json.loads(json.dumps(cp.make_proof(doc, e.game_id)))
        assert "games" not in proof
        assert cp.check_proof(proof, key) == (e, f"signed by key {cp.key_id(key)}")
        lie = dict(proof, length=e.length + 1)
        with pytest.raises(cp.CheckpointError, match="does not lead from game"):
            cp.check_proof(lie, key)
        if n > 1:
            shifted = (
                dict(proof, path=proof["path"][::-1])
                if len(proof["path"]) > 1
                else dict(proof, index=(proof["index"] + 1) % n)
            )
            with pytest.raises(cp.CheckpointError):
                cp.check_proof(shifted, key)
    with pytest.raises(cp.CheckpointError, match="is not in the checkpoint"):
        cp.make_proof(doc, "nope")


def test_proof_with_a_changed_root_fails_the_signature(keys: tuple[Path, Path]) -> None:
    """Whoever rebuilds the path to a root of their own still needs the signature."""
    private, public = keys
    doc = cp.build(_entries(1), key=cp.load_private_key(private))
    proof = cp.make_proof(doc, "game-00")
    fake = cp.Entry("game-00", 99, "ab" * 32)
    proof.update(length=99, seal="ab" * 32, root=seal.leaf_hash(fake.leaf()).hex())
    with pytest.raises(cp.CheckpointError, match="does not verify: the signed head"):
        cp.check_proof(proof, cp.load_public_key(public))
