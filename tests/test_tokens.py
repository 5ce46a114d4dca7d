"""Bearer tokens (issue 14, "Tokens and roles"): the CLI prints a token once,
the store keeps only its SHA-256, list never shows it, revoke refuses it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.store.application import LedgerApp
from ledger.tokens import Token, TokenStore
from tests.conftest import REPO


def cli(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ledger.cli", "--db", db, *args], cwd=REPO, capture_output=True, text=True
    )


def test_cli_create_list_revoke_sqlite(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    made = cli(db, "token", "create", "--name", "Mario Rossi", "--role", "recorder", "--tournament", "Club night")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    token_id, _, secret = token.partition(".")
    assert len(token_id) == 12 and len(secret) == 43  # token_urlsafe(32): 256 bits
    assert (
        made.stderr.strip()
        == f"token {token_id}: recorder 'Mario Rossi', tournament 'Club night'; shown once, keep it secret"
    )
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, hash, name, role, tournament, game, revoked_at FROM rummy_tokens").fetchall()
    assert rows == [
        (token_id, hashlib.sha256(token.encode()).hexdigest(), "Mario Rossi", "recorder", "Club night", None, None)
    ]
    assert secret not in Path(db).read_bytes().decode("latin-1")
    listed = cli(db, "token", "list")
    assert listed.returncode == 0 and secret not in listed.stdout
    assert listed.stdout.startswith(f"{token_id}  recorder  Mario Rossi  (tournament 'Club night')  created ")
    assert listed.stdout.rstrip().endswith("active")
    as_json = [json.loads(line) for line in cli(db, "token", "list", "--json").stdout.splitlines()]
    assert [(t["id"], t["role"], t["revoked_at"]) for t in as_json] == [(token_id, "recorder", None)]
    revoked = cli(db, "token", "revoke", token_id)
    assert revoked.returncode == 0 and revoked.stdout.startswith(f"token {token_id} (Mario Rossi) revoked at ")
    at = revoked.stdout.removeprefix(f"token {token_id} (Mario Rossi) revoked at ")
    again = cli(db, "token", "revoke", token_id)  # the first revocation time kept, and said to be the first
    assert (again.returncode, again.stdout) == (0, f"token {token_id} (Mario Rossi) already revoked at {at}")
    italian = cli(db, "--lang", "it", "token", "revoke", token_id)
    assert italian.stdout == f"token {token_id} (Mario Rossi) già revocato il {at}"
    unknown = cli(db, "token", "revoke", "000000000000")
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "rummy-ledger: error: no token '000000000000' (see rummy-ledger token list)\n",
    )
    bad_role = cli(db, "token", "create", "--name", "X", "--role", "boss")
    assert bad_role.returncode == 2 and "'boss' is not one of 'recorder', 'referee', 'admin'" in bad_role.stderr


def test_check_is_exact(store_env: dict[str, str]) -> None:
    app = LedgerApp(env=store_env)
    try:
        tokens = TokenStore(app)
        token, row = tokens.create("Rita", "referee", game="g1")
        assert tokens.check(token) == row
        assert tokens.check(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
        assert tokens.check(row.id + ".short") is None
        assert tokens.check("") is None and tokens.check(token + "x") is None
        assert tokens.check("ffffffffffff." + token.split(".")[1]) is None
        assert tokens.revoke(row.id).revoked_at is not None
        assert tokens.check(token) is None
        assert [t.id for t in tokens.list()] == [row.id]
        with pytest.raises(ValueError, match="role 'boss'"):
            tokens.create("X", "boss")
    finally:
        app.close()


def test_scope_and_roles() -> None:
    def tok(role: str, tournament: str | None = None, game: str | None = None) -> Token:
        return Token(id="0" * 12, name="n", role=role, tournament=tournament, game=game, created_at="", revoked_at=None)

    assert tok("recorder").covers("g", None) and not tok("recorder").may_rule
    assert tok("recorder", game="g").covers("g", "T") and not tok("recorder", game="g").covers("h", "T")
    assert tok("referee", tournament="T").covers("h", "T") and not tok("referee", tournament="T").covers("h", None)
    assert tok("admin", game="g").covers("h", None) and tok("admin").may_rule and tok("referee").may_read_all
    assert tok("recorder", game="g").label == "n"
