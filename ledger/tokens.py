"""Bearer tokens of the live record service: who may append to which games.

A token is ``<id>.<secret>``: ``id`` is 12 hex digits naming the token (for
``token list``/``token revoke`` and the journal), ``secret`` is
``secrets.token_urlsafe(32)`` (256 random bits). Only the SHA-256 of the
whole token is stored, in the table ``rummy_tokens`` beside the event store's
tables (the same SQLite file, the same PostgreSQL schema); the token itself is
printed once by ``rummy-ledger token create`` and never again. A presented
token is looked up by its id and its hash compared with
:func:`hmac.compare_digest` (constant time).

Roles (issue 14, "Tokens and roles"):

- ``recorder``: appends play events (everything but ``penalty_assessed`` and
  ``position_restored``) and creates games, within its scope, and reads
  those games whole (it enters their deals: FORMAT.md "Who may read what";
  scope it to one game with ``--game`` where other tables' deals must stay
  hidden);
- ``referee``: what a recorder may, plus rulings;
- ``admin``: everything, every game.

Scope: ``game`` (one game id) and/or ``tournament`` (the game's
``meta.tournament``); a token without either covers every game.

>>> t = Token(id="0a1b2c3d4e5f", name="Mario Rossi", role="recorder", tournament="Club night",
...           game=None, created_at="", revoked_at=None)
>>> t.covers("g1", "Club night"), t.covers("g1", "Other"), t.may_rule, t.may_read_all
(True, False, False, True)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import UTC, datetime
from typing import Any

import msgspec

from ledger.errors import LedgerError

ROLES = ("recorder", "referee", "admin")
TABLE = "rummy_tokens"
#: ruling events: only a referee or admin appends them
RULING_TYPES = frozenset({"penalty_assessed", "position_restored"})
_TOKEN_RE = re.compile(r"^([0-9a-f]{12})\.([A-Za-z0-9_-]{16,128})$")


class Token(msgspec.Struct, frozen=True, kw_only=True):
    """A stored token (never the secret): ``id``, ``name`` (a person, shown in
    the journal), ``role`` (:data:`ROLES`), scope ``tournament``/``game``
    (None: any), ``created_at``/``revoked_at`` (ISO-8601 UTC)."""

    id: str
    name: str
    role: str
    tournament: str | None
    game: str | None
    created_at: str
    revoked_at: str | None

    def covers(self, game_id: str, tournament: str | None) -> bool:
        """True when the game (its id and ``meta.tournament``) is in this token's scope."""
        if self.role == "admin":
            return True
        if self.game is not None and self.game != game_id:
            return False
        if self.tournament is not None and self.tournament != tournament:
            return False
        return True

    @property
    def may_rule(self) -> bool:
        """May append ``penalty_assessed`` / ``position_restored``."""
        return self.role in ("referee", "admin")

    @property
    def may_read_all(self) -> bool:
        """May see an unfinished game omnisciently (within its scope): every
        role, since a recorder enters the deals (FORMAT.md "Who may read what")."""
        return self.role in ("recorder", "referee", "admin")

    @property
    def label(self) -> str:
        """``appended_by`` of the journal: the token's name (CONTRACT: "token name")."""
        return self.name

    def to_json(self) -> dict[str, Any]:
        """``{id, name, role, tournament, game, created_at, revoked_at}``."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out


class UnknownTokenError(LedgerError, LookupError):
    """No token with that id (``token revoke``); ``token_id`` is the id asked for."""

    def __init__(self, token_id: str) -> None:
        super().__init__(f"no token {token_id!r} (see rummy-ledger token list)")
        self.token_id = token_id


def digest(token: str) -> str:
    """SHA-256 of the token's UTF-8 bytes, lower-case hex (what is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class TokenStore:
    """The ``rummy_tokens`` table in the store of a :class:`ledger.store.application.LedgerApp`.

    Works on eventsourcing's SQLite and PostgreSQL recorders (their
    ``datastore.transaction``); the table is created on first use
    (``CREATE TABLE IF NOT EXISTS``, safe when several processes start at once).
    Raises ``TypeError`` for another kind of store.
    """

    def __init__(self, app: Any) -> None:
        recorder = app.recorder
        self._datastore = recorder.datastore
        from eventsourcing.sqlite import SQLiteDatastore

        if isinstance(self._datastore, SQLiteDatastore):
            self._ph = "?"
            self._table = TABLE
        else:
            from eventsourcing.postgres import PostgresDatastore

            if not isinstance(self._datastore, PostgresDatastore):
                raise TypeError("tokens need a SQLite or PostgreSQL store")
            self._ph = "%s"
            self._table = f'"{self._datastore.schema}"."{TABLE}"'
        self._created = False

    def _sql(self, statement: str) -> str:
        return statement.replace("{t}", self._table).replace("?", self._ph)

    def _ensure(self) -> None:
        if self._created:
            return
        statement = self._sql(
            "CREATE TABLE IF NOT EXISTS {t} (id TEXT PRIMARY KEY, hash TEXT NOT NULL, name TEXT NOT NULL,"
            " role TEXT NOT NULL, tournament TEXT, game TEXT, created_at TEXT NOT NULL, revoked_at TEXT)"
        )
        try:
            with self._datastore.transaction(commit=True) as c:
                c.execute(statement)
        except Exception:
            # PostgreSQL: two processes creating the table at once; the loser
            # fails on the catalog's unique index, and the table is there.
            with self._datastore.transaction(commit=True) as c:
                c.execute(statement)
        self._created = True

    def create(
        self, name: str, role: str, *, tournament: str | None = None, game: str | None = None
    ) -> tuple[str, Token]:
        """A new token: returns ``(token, Token)``; the token string is not
        kept anywhere. Raises ``ValueError`` for an unknown role or an empty name."""
        if role not in ROLES:
            raise ValueError(f"role {role!r}: use one of {', '.join(ROLES)}")
        name = name.strip()
        if not name:
            raise ValueError("a token needs a --name (the person or device using it)")
        self._ensure()
        token_id = secrets.token_hex(6)
        token = f"{token_id}.{secrets.token_urlsafe(32)}"
        row = Token(
            id=token_id, name=name, role=role, tournament=tournament, game=game, created_at=_now(), revoked_at=None
        )
        with self._datastore.transaction(commit=True) as c:
            c.execute(
                self._sql(
                    "INSERT INTO {t} (id, hash, name, role, tournament, game, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                ),
                (row.id, digest(token), row.name, row.role, row.tournament, row.game, row.created_at),
            )
        return token, row

    def list(self) -> list[Token]:
        """Every token, oldest first (revoked ones too)."""
        self._ensure()
        with self._datastore.transaction(commit=False) as c:
            c.execute(
                self._sql(
                    "SELECT id, name, role, tournament, game, created_at, revoked_at FROM {t} ORDER BY created_at, id"
                )
            )
            return [_token(r) for r in c.fetchall()]

    def revoke(self, token_id: str) -> Token:
        """Revoke by id (or by the whole token); returns it. :class:`UnknownTokenError` when unknown."""
        self._ensure()
        m = _TOKEN_RE.match(token_id)
        token_id = m.group(1) if m else token_id
        with self._datastore.transaction(commit=True) as c:
            c.execute(
                self._sql("UPDATE {t} SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"), (_now(), token_id)
            )
        found = [t for t in self.list() if t.id == token_id]
        if not found:
            raise UnknownTokenError(token_id)
        return found[0]

    def check(self, presented: str) -> Token | None:
        """The live token matching ``presented``, or None (unknown, malformed,
        revoked). The stored hash is compared in constant time."""
        m = _TOKEN_RE.match(presented)
        if m is None:
            return None
        self._ensure()
        with self._datastore.transaction(commit=False) as c:
            c.execute(
                self._sql(
                    "SELECT id, hash, name, role, tournament, game, created_at, revoked_at FROM {t} WHERE id = ?"
                ),
                (m.group(1),),
            )
            rows = c.fetchall()
        if not rows:
            hmac.compare_digest(digest(presented), "0" * 64)  # same work for an unknown id
            return None
        row = rows[0]
        if not hmac.compare_digest(digest(presented), str(row["hash"])):
            return None
        token = _token(row)
        return None if token.revoked_at is not None else token


def _token(row: Any) -> Token:
    return Token(
        id=row["id"],
        name=row["name"],
        role=row["role"],
        tournament=row["tournament"],
        game=row["game"],
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
    )
