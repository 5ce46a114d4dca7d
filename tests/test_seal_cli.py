"""``seal``, ``keygen``, ``prove`` and ``verify --proof`` on the command line, and
the stand-alone seal script of docs/seals.md (the README's walkthrough until issue 26) run on real
``export`` output."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from ledger.cli import cli
from ledger.sealing import chain as _seal
from ledger.sealing import checkpoint as cp

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


def readme_script() -> str:
    """The python block after the ``seal-script`` marker in docs/seals.md."""
    text = (REPO / "docs" / "seals.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- seal-script[^>]*-->\n```python\n(.*?)```\n", text, re.S)
    assert m, "docs/seals.md has no seal-script block"
    return m.group(1)


def test_readme_script_is_ten_lines_of_hashlib() -> None:
    script = readme_script()
    assert len(script.splitlines()) <= 10
    assert re.findall(r"^import (.*?)(?:  #.*)?$", script, re.M) == ["hashlib, sys"]


def test_readme_script_gives_the_seal_of_the_export(run: Callable[..., Result], tmp_path: Path) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    exported = tmp_path / "dispute.export.jsonl"
    assert run("export", "bur-dispute", "-o", str(exported)).exit_code == 0
    script = tmp_path / "seal.py"
    script.write_text(readme_script())
    out = subprocess.run(
        [sys.executable, str(script), str(exported)], capture_output=True, text=True, check=True
    ).stdout
    full, short = out.split()
    assert full == _seal.seal_hex(exported.read_bytes().splitlines())
    assert short == _seal.short_form(full)
    assert run("seal", str(exported)).stdout == f"bur-dispute at position 18 (19 events): {short}\n{full}\n"


def test_seal_of_a_file_at_a_position(run: Callable[..., Result]) -> None:
    from ledger.events import encode_event
    from ledger.record_files import read_record

    lines = [encode_event(e) for e in read_record(DISPUTE).events]
    result = run("seal", str(DISPUTE), "--at", "3", "--json")
    assert json.loads(result.stdout) == {
        "game_id": "bur-dispute",
        "position": 3,
        "length": 19,
        "seal": _seal.seal_hex(lines, at=3),
        "short": _seal.short_form(_seal.seal_hex(lines, at=3)),
    }
    bad = run("seal", str(DISPUTE), "--at", "19")
    assert (
        bad.exit_code == 2 and "Invalid value for --at: position 19 is outside this game's positions 0–18" in bad.stderr
    )


def test_keygen_files_and_mode(run: Callable[..., Result], tmp_path: Path) -> None:
    result = run("keygen", str(tmp_path / "club.key"))
    assert result.exit_code == 0
    kid = cp.key_id(cp.load_public_key(tmp_path / "club.key.pub"))
    assert (
        result.stdout
        == f"wrote private key {tmp_path / 'club.key'} (mode 0600) and public key {tmp_path / 'club.key.pub'}; "
        f"key id {kid}\n"
    )
    assert stat.S_IMODE(os.stat(tmp_path / "club.key").st_mode) == 0o600
    key, pub = tmp_path / "club.key", tmp_path / "club.key.pub"
    before = key.read_bytes(), pub.read_bytes()
    again = run("keygen", str(key))
    assert (again.exit_code, again.stderr) == (
        2,
        f"rummy-ledger: error: {key}, {pub}: private and public key files exist (not overwritten)\n",
    )
    pub.unlink()
    assert run("keygen", str(key)).stderr == f"rummy-ledger: error: {key}: private key file exists (not overwritten)\n"
    pub.write_bytes(before[1])
    key.unlink()
    assert run("keygen", str(key)).stderr == f"rummy-ledger: error: {pub}: public key file exists (not overwritten)\n"
    assert not key.exists() and pub.read_bytes() == before[1]  # nothing written, nothing overwritten


def test_prove_and_verify_a_proof_without_the_store(run: Callable[..., Result], tmp_path: Path) -> None:
    run("keygen", str(tmp_path / "k"))
    key = cp.load_private_key(tmp_path / "k")
    from ledger.events import encode_event
    from ledger.record_files import read_record

    lines = [encode_event(e) for e in read_record(DISPUTE).events]
    entries = [cp.Entry("bur-dispute", len(lines), _seal.seal_hex(lines))] + [
        cp.Entry(f"g{i}", 3, "ab" * 32) for i in range(4)
    ]
    (tmp_path / "c.json").write_text(cp.dumps(cp.build(entries, key=key)))
    proof = tmp_path / "p.json"
    result = run("prove", "bur-dispute", "--checkpoint", str(tmp_path / "c.json"), "-o", str(proof))
    assert (result.exit_code, result.stderr) == (
        0,
        f"wrote the inclusion proof of bur-dispute (leaf 0 of 5) to {proof}\n",
    )
    ok = CliRunner().invoke(
        cli,
        [
            "--db",
            str(tmp_path / "never" / "x.db"),
            "verify",
            "--proof",
            str(proof),
            "--key",
            str(tmp_path / "k.pub"),
            "--record",
            str(DISPUTE),
        ],
    )
    short = _seal.short_form(entries[0].seal)
    assert (ok.exit_code, ok.stdout) == (
        0,
        f"{proof}: bur-dispute (19 events, seal {short}) is in the checkpoint; signed by key "
        f"{cp.key_id(key.public_key())}; {DISPUTE} has that seal\n",
    )
    assert not (tmp_path / "never").exists()  # no store was opened
    doc = json.loads(proof.read_text())
    doc["length"] = 18
    proof.write_text(json.dumps(doc))
    bad = run("verify", "--proof", str(proof))
    assert bad.exit_code == 1
    assert bad.stderr.startswith(
        f"{proof}: proof does not verify: the audit path does not lead from game 'bur-dispute' (length 18, "
        f"seal {short}) to the root"
    )


def test_verify_option_combinations_are_usage_errors(run: Callable[..., Result], tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{}")
    assert run("verify", "--record", str(tmp_path / "x.json")).exit_code == 2
    assert run("verify", "g1", "--checkpoint", str(tmp_path / "x.json")).exit_code == 2
    result = run("verify", "--proof", str(tmp_path / "x.json"))
    assert (result.exit_code, result.stderr) == (
        1,
        f"{tmp_path / 'x.json'}: proof does not verify: not a rummy-ledger-proof/1 file (format field)\n",
    )


def test_a_file_that_is_no_checkpoint_is_named_once(run: Callable[..., Result], tmp_path: Path) -> None:
    bad = tmp_path / "passwd"
    bad.write_text("root:x:0:0:root:/root:/bin/bash\n")
    result = run("verify", "--checkpoint", str(bad))
    assert (result.exit_code, result.stderr) == (
        1,
        f"{bad}: checkpoint does not verify: not JSON (Expecting value: line 1 column 1 (char 0))\n",
    )
    proved = run("prove", "g1", "--checkpoint", str(bad))
    assert (proved.exit_code, proved.stderr) == (
        2,
        f"rummy-ledger: error: {bad}: not JSON (Expecting value: line 1 column 1 (char 0))\n",
    )


def test_seal_at_takes_ascii_digits_only(run: Callable[..., Result]) -> None:
    for value in ("３", "1_0", "+3"):
        result = run("seal", str(DISPUTE), "--at", value)
        assert result.exit_code == 2, value
        assert f"Invalid value for '--at': '{value}' is not a whole number (ASCII digits 0-9)" in result.output


def test_summary_headings_keep_a_long_store_path_on_one_line(tmp_path: Path) -> None:
    db = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "ledger.db"
    db.parent.mkdir()
    runner = CliRunner()
    imported = runner.invoke(cli, ["--db", str(db), "import", "--no-analytics", str(DISPUTE)])
    listed = runner.invoke(cli, ["--db", str(db), "list"])
    assert imported.output.splitlines()[0] == f"import into SQLite {db}"
    assert listed.output.splitlines()[0] == f"1 game in SQLite {db}"
