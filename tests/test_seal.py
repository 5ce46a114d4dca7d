"""The seal chain and the RFC 6962 tree of ledger.sealing.chain (pure, no store).

The tree is checked against the Certificate Transparency reference vectors
of RFC 6962 (the eight inputs below, their tree heads for sizes 0..8 and
published audit paths), and against an independent bottom-up construction for
every size up to 70, so non-power-of-two sizes are covered."""

from __future__ import annotations

import hashlib

import pytest

from ledger.sealing import chain as seal

CT_INPUTS = [
    bytes.fromhex(h)
    for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f")
]
CT_ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# (0-based leaf index, tree size, audit path)
CT_PATHS = [
    (
        0,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        1,
        5,
        [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]


@pytest.mark.parametrize("size", range(9))
def test_tree_heads_match_rfc6962_reference(size: int) -> None:
    assert seal.merkle_root(CT_INPUTS[:size]).hex() == CT_ROOTS[size]


@pytest.mark.parametrize(("index", "size", "path"), CT_PATHS)
def test_audit_paths_match_rfc6962_reference(index: int, size: int, path: list[str]) -> None:
    leaves = CT_INPUTS[:size]
    got = seal.audit_path(index, leaves)
    assert [p.hex() for p in got] == path
    root = bytes.fromhex(CT_ROOTS[size])
    assert seal.verify_inclusion(seal.leaf_hash(leaves[index]), index, size, got, root)
    assert not seal.verify_inclusion(seal.leaf_hash(leaves[index]), index, size, got[:-1], root)
    assert not seal.verify_inclusion(seal.leaf_hash(leaves[index]), index, size * 2, got, root)
    assert not seal.verify_inclusion(seal.leaf_hash(b"other"), index, size, got, root)


def _bottom_up(leaves: list[bytes]) -> bytes:
    """RFC 6962's tree built level by level: pairs hashed, an odd last node carried up."""
    level = [hashlib.sha256(b"\x00" + d).digest() for d in leaves]
    while len(level) > 1:
        nxt = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 6, 7, 9, 13, 16, 17, 31, 33, 70])
def test_every_leaf_of_every_size_proves_and_nothing_else_does(size: int) -> None:
    leaves = [seal.leaf_data(f"g{i:03d}", i + 1, hashlib.sha256(bytes([i])).hexdigest()) for i in range(size)]
    root = seal.merkle_root(leaves)
    assert root == _bottom_up(leaves)
    for i in range(size):
        path = seal.audit_path(i, leaves)
        assert seal.verify_inclusion(seal.leaf_hash(leaves[i]), i, size, path, root)
        other = (i + 1) % size
        if other != i:
            assert not seal.verify_inclusion(seal.leaf_hash(leaves[other]), i, size, path, root)
            assert not seal.verify_inclusion(seal.leaf_hash(leaves[i]), other, size, path, root)


def test_chain_is_formats_definition() -> None:
    lines = [b'{"type":"game_started"}', b"x", b"y"]
    h0 = hashlib.sha256(b"rummy-ledger/1\n" + lines[0]).digest()
    h1 = hashlib.sha256(h0 + lines[1]).digest()
    h2 = hashlib.sha256(h1 + lines[2]).digest()
    assert list(seal.seals(lines)) == [h0, h1, h2]
    assert seal.seal_hex(lines) == h2.hex()
    assert seal.seal_hex(lines, at=1) == h1.hex()
    assert list(seal.seals(lines[1:], prev=h0)) == [h1, h2]
    assert seal.short_form(h2.hex()) == "-".join(h2.hex()[i : i + 4] for i in (0, 4, 8, 12))


def test_leaf_encoding() -> None:
    assert seal.leaf_data("club-1", 16, "ab" * 32) == b"club-1\x0016\x00" + b"ab" * 32
    with pytest.raises(ValueError, match="not a seal"):
        seal.leaf_data("g", 1, "AB" * 32)
    with pytest.raises(ValueError, match="at least one event"):
        seal.leaf_data("g", 0, "ab" * 32)


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="32-byte digest"):
        seal.chain(b"short", b"x")
    with pytest.raises(ValueError, match="no events"):
        seal.seal_hex([])
    with pytest.raises(ValueError, match="outside 0..1"):
        seal.seal_hex([b"a", b"b"], at=2)
    with pytest.raises(ValueError, match="outside 0..2"):
        seal.audit_path(3, [b"a", b"b", b"c"])
    assert seal.root_from_path(b"x" * 32, 0, 0, []) is None
