"""Checkpoint and proof refusals, and who signed, as data (issue 23, "A message is data"):
:mod:`ledger.sealing.checkpoint` raises each :class:`~ledger.sealing.checkpoint.CheckpointError`
with a msgid and its parameters and returns who signed as a :class:`ledger.texts.Text`, so that
the English (``str()``, ``--json``) stays as it was and ``--lang it`` says it in Italian; no
English sentence is parsed back."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.events import encode_event
from ledger.i18n import translations
from ledger.record_files import read_record
from ledger.sealing import chain as _seal
from ledger.sealing import checkpoint as cp
from ledger.texts import Message, Text

IT = translations("it")
REPO = Path(__file__).resolve().parents[1]
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


def _entries(n: int) -> list[cp.Entry]:
    return [cp.Entry(f"game-{i:02d}", 10 + i, f"{i:02x}" * 32) for i in range(n)]


def _refused(call: Callable[[], object]) -> tuple[str, str]:
    """The English and the Italian of the :class:`CheckpointError` ``call`` raises, its message data."""
    with pytest.raises(cp.CheckpointError) as caught:
        call()
    exc = caught.value
    assert isinstance(exc.msg, Message) and str(exc) == str(exc.msg) == exc.text()
    return str(exc), exc.text(IT)


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, Path, str]:
    pub, kid = cp.generate_key(tmp_path / "club.key")
    return tmp_path / "club.key", pub, kid


def test_not_json_and_not_a_checkpoint_in_italian(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("garbage\n")
    assert _refused(lambda: cp.load(bad)) == (
        "not JSON (Expecting value: line 1 column 1 (char 0))",
        "non è JSON (Expecting value: line 1 column 1 (char 0))",
    )
    bad.write_text("{}")
    assert _refused(lambda: cp.load(bad, cp.PROOF_FORMAT)) == (
        "not a rummy-ledger-proof/1 file (format field)",
        "non è un file rummy-ledger-proof/1 (campo format)",
    )
    doc = cp.build(_entries(2))
    del doc["tournament"]
    assert _refused(lambda: cp.check_checkpoint(doc)) == (
        "checkpoint fields are not those of the format (unknown: [], missing: ['tournament'])",
        "i campi del checkpoint non sono quelli del formato (sconosciuti: [], mancanti: ['tournament'])",
    )


def test_a_wrong_key_and_a_missing_signature_in_italian(keys: tuple[Path, Path, str], tmp_path: Path) -> None:
    _, other_kid = cp.generate_key(tmp_path / "other.key")
    mine = cp.load_public_key(keys[1])
    signed = cp.build(_entries(3), key=cp.load_private_key(tmp_path / "other.key"))
    assert _refused(lambda: cp.check_checkpoint(signed, mine)) == (
        f"signed by key {other_kid}, not by the given key {keys[2]}",
        f"firmato con la chiave {other_kid}, non con la chiave indicata {keys[2]}",
    )
    assert _refused(lambda: cp.check_checkpoint(cp.build(_entries(3)), mine)) == (
        f"not signed, but a key was given (key id {keys[2]})",
        f"non firmato, ma è stata indicata una chiave (id della chiave {keys[2]})",
    )
    changed = dict(signed, created_at="2030-01-01T00:00:00Z")
    assert _refused(lambda: cp.check_checkpoint(changed)) == (
        f"signature by key {other_kid} does not verify: the signed head (time, tournament, size, root) was changed",
        f"la firma con la chiave {other_kid} non è valida: la testa firmata (ora, torneo, dimensione, radice) è "
        "stata modificata",
    )
    (tmp_path / "plain.pem").write_text("not a key\n")
    english, italian = _refused(lambda: cp.load_public_key(tmp_path / "plain.pem"))
    assert english.startswith(f"{tmp_path / 'plain.pem'}: not a PEM public key (")
    assert italian == english.replace(": not a PEM public key (", ": non è una chiave pubblica PEM (")


def test_a_tampered_root_size_and_game_in_italian() -> None:
    doc = cp.build(_entries(3))
    root = doc["root"]
    edited = dict(doc, games=[*doc["games"][:2], dict(doc["games"][2], length=99)])
    computed = _seal.merkle_root([e.leaf() for e in cp.entries(edited)]).hex()
    assert _refused(lambda: cp.check_checkpoint(edited)) == (
        f"root {root[:16]}… is not the Merkle root of the games listed ({computed[:16]}…): the file was edited",
        f"la radice {root[:16]}… non è la radice di Merkle delle partite elencate ({computed[:16]}…): il file è "
        "stato modificato",
    )
    assert _refused(lambda: cp.check_checkpoint(dict(doc, size=4))) == (
        "size 4 but 3 games listed",
        "size 4 ma partite elencate: 3",
    )
    swapped = dict(doc, games=doc["games"][::-1])
    assert _refused(lambda: cp.check_checkpoint(swapped)) == (
        "games[1] ('game-01') is out of game_id order or listed twice",
        "games[1] ('game-01') è fuori dall'ordine di game_id o elencata due volte",
    )
    assert _refused(lambda: cp.check_checkpoint(dict(doc, root="AB" * 32))) == (
        "root is not 64 lower-case hex digits",
        "root non è di 64 cifre esadecimali minuscole",
    )
    assert _refused(lambda: cp.make_proof(doc, "nobody")) == (
        "game 'nobody' is not in the checkpoint",
        "la partita 'nobody' non è nel checkpoint",
    )


def test_an_edited_proof_in_italian() -> None:
    proof = cp.make_proof(cp.build(_entries(5)), "game-03")
    edited = dict(proof, length=proof["length"] + 1)
    short = _seal.short_form(proof["seal"])
    assert _refused(lambda: cp.check_proof(edited)) == (
        f"the audit path does not lead from game 'game-03' (length 14, seal {short}) to the root: the proof was edited",
        f"il percorso di verifica non porta dalla partita 'game-03' (lunghezza 14, sigillo {short}) alla radice: la "
        "prova è stata modificata",
    )
    assert _refused(lambda: cp.check_proof(dict(proof, path=proof["path"][:1]))) == (
        "path of 1 hashes does not fit leaf 3 of a tree of 5",
        "un path di 1 hash non corrisponde alla foglia 3 di un albero di 5",
    )


def test_who_signed_is_data(keys: tuple[Path, Path, str]) -> None:
    """The English stays the string ``--json`` shows; the Italian is rendered from the message."""
    private, public, kid = keys
    doc = cp.build(_entries(2), key=cp.load_private_key(private))
    pinned = cp.check_checkpoint(doc, cp.load_public_key(public))[1]
    unpinned = cp.check_proof(cp.make_proof(doc, "game-01"))[1]
    unsigned = cp.check_checkpoint(cp.build(_entries(2)))[1]
    for who in (pinned, unpinned, unsigned):
        assert isinstance(who, Text) and json.dumps(who) == json.dumps(str(who.msg))
    assert (pinned, pinned.msg.render(IT)) == (f"signed by key {kid}", f"firmato con la chiave {kid}")
    assert (unpinned, unpinned.msg.render(IT)) == (
        f"signed by key {kid} (key not pinned: pass --key to check who signed)",
        f"firmato con la chiave {kid} (chiave non indicata: --key per controllare chi ha firmato)",
    )
    assert (unsigned, unsigned.msg.render(IT)) == ("not signed", "non firmato")


@pytest.fixture
def proved(run: Callable[..., Result], tmp_path: Path) -> tuple[Path, Path, str]:
    """``(checkpoint, proof, key id)``: bur-dispute stored, a signed checkpoint and its proof."""
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    assert run("keygen", str(tmp_path / "k")).exit_code == 0
    kid = cp.key_id(cp.load_public_key(tmp_path / "k.pub"))
    cp_file, proof = tmp_path / "c.json", tmp_path / "p.json"
    assert run("checkpoint", "-o", str(cp_file), "--sign", str(tmp_path / "k")).exit_code == 0
    assert run("prove", "bur-dispute", "--checkpoint", str(cp_file), "-o", str(proof)).exit_code == 0
    return cp_file, proof, kid


def test_verify_says_who_signed_in_italian(run: Callable[..., Result], proved: tuple[Path, Path, str]) -> None:
    cp_file, proof, kid = proved
    short = _seal.short_form(json.loads(proof.read_text(encoding="utf-8"))["seal"])
    said = run("--lang", "it", "verify", "--proof", str(proof))
    assert (said.exit_code, said.stdout) == (
        0,
        f"{proof}: bur-dispute (19 eventi, sigillo {short}) è nel checkpoint; firmato con la chiave {kid} "
        "(chiave non indicata: --key per controllare chi ha firmato)\n",
    )
    said = run("--lang", "it", "verify", "--checkpoint", str(cp_file))
    assert (said.exit_code, said.stdout) == (
        0,
        f"{cp_file}: l'archivio è coerente con il checkpoint (1 partita, radice verificata); firmato con la chiave "
        f"{kid} (chiave non indicata: --key per controllare chi ha firmato)\n",
    )
    english = run("verify", "--json", "--checkpoint", str(cp_file)).stdout
    assert run("--lang", "it", "verify", "--json", "--checkpoint", str(cp_file)).stdout == english
    assert json.loads(english)["signature"] == f"signed by key {kid} (key not pinned: pass --key to check who signed)"


def test_verify_refusals_in_italian(run: Callable[..., Result], proved: tuple[Path, Path, str], tmp_path: Path) -> None:
    cp_file, proof, kid = proved
    _, other = cp.generate_key(tmp_path / "o")
    said = run("--lang", "it", "verify", "--proof", str(proof), "--key", str(tmp_path / "o.pub"))
    assert (said.exit_code, said.stderr) == (
        1,
        f"{proof}: la prova non è valida: firmato con la chiave {kid}, non con la chiave indicata {other}\n",
    )
    as_json = run("--lang", "it", "verify", "--json", "--checkpoint", str(cp_file), "--key", str(tmp_path / "o.pub"))
    assert json.loads(as_json.stdout)["reason"] == f"signed by key {kid}, not by the given key {other}"
    doc = json.loads(cp_file.read_text(encoding="utf-8"))
    doc["root"] = "0" * 64
    cp_file.write_text(json.dumps(doc), encoding="utf-8")
    said = run("--lang", "it", "verify", "--checkpoint", str(cp_file))
    assert said.exit_code == 1
    assert said.stderr.startswith(f"{cp_file}: il checkpoint non è valido: la radice 0000000000000000… non è la ")
    assert said.stderr.endswith("…): il file è stato modificato\n")
    said = run("--lang", "it", "prove", "nobody", "--checkpoint", str(proof))
    assert (said.exit_code, said.stderr) == (
        2,
        f"rummy-ledger: errore: {proof}: non è un file rummy-ledger-checkpoint/1 (campo format)\n",
    )


def test_a_proof_that_does_not_match_the_record_in_italian(
    run: Callable[..., Result], proved: tuple[Path, Path, str], tmp_path: Path
) -> None:
    _, proof, _ = proved
    lines = DISPUTE.read_text(encoding="utf-8").splitlines(keepends=True)
    rewritten, short = tmp_path / "rewritten.jsonl", tmp_path / "short.jsonl"
    rewritten.write_text("".join(lines).replace('"points":-50', '"points":-5'), encoding="utf-8")
    short.write_text("".join(lines[:-1]), encoding="utf-8")
    events = [encode_event(e) for e in read_record(rewritten).events]
    got = _seal.short_form(_seal.seal_hex(events, at=18))
    seal = _seal.short_form(json.loads(proof.read_text(encoding="utf-8"))["seal"])
    assert got != seal
    said = run("--lang", "it", "verify", "--proof", str(proof), "--record", str(rewritten))
    assert (said.exit_code, said.stderr) == (
        1,
        f"{proof}: la prova non è valida: {rewritten}: il sigillo alla posizione 18 è {got}, quello della prova è "
        f"{seal}\n",
    )
    assert run("verify", "--proof", str(proof), "--record", str(rewritten)).stderr == (
        f"{proof}: proof does not verify: {rewritten}: seal at position 18 is {got}, the proof's is {seal}\n"
    )
    said = run("--lang", "it", "verify", "--proof", str(proof), "--record", str(short))
    assert (said.exit_code, said.stderr) == (
        1,
        f"{proof}: la prova non è valida: {short}: eventi nel file: 18, la prova è per 19\n",
    )


def test_verify_usage_errors_in_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{}")
    for args, english, italian in (
        (
            ("g1", "--checkpoint", str(tmp_path / "x.json")),
            "give GAME ids, --checkpoint FILE or --proof FILE, not several",
            "indica gli id delle partite (GAME), --checkpoint FILE o --proof FILE, non più d'uno",
        ),
        (("--record", str(tmp_path / "x.json")), "--record goes with --proof", "--record va con --proof"),
        (
            ("--key", str(tmp_path / "x.json")),
            "--key goes with --checkpoint or --proof",
            "--key va con --checkpoint o --proof",
        ),
    ):
        said = run("--lang", "it", "verify", *args)
        assert said.exit_code == 2 and said.stderr.endswith(f"{italian}\n"), said.stderr
        assert run("verify", *args).stderr.endswith(f"Error: {english}\n")
