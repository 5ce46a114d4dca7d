"""``rummy-ledger token create|list|revoke``: the bearer tokens of the write API.

:func:`register` adds the ``token`` group to the ``rummy-ledger`` click group
(:mod:`ledger.cli`). Tokens are stored hashed in the store's ``rummy_tokens``
table (:mod:`ledger.tokens`); ``create`` prints the token once, on stdout
alone (so ``TOKEN=$(rummy-ledger token create ...)`` works), and a note on
stderr; ``list`` never shows a token, only its id.
"""

from __future__ import annotations

import json
from typing import Any

import click

from ledger.tokens import ROLES, TokenStore


def _tokens(ctx: click.Context, create: bool = False) -> TokenStore:
    """The token table of the store; only ``create`` may make a new store."""
    return TokenStore(ctx.obj.app(create=create))


def _scope(t: Any) -> str:
    parts = [f"game {t.game}" if t.game else "", f"tournament {t.tournament!r}" if t.tournament else ""]
    return ", ".join(p for p in parts if p) or "every game"


def _group() -> click.Group:
    @click.group("token")
    def token() -> None:
        """Bearer tokens of the HTTP write API (stored hashed in the store)."""

    @token.command("create")
    @click.option("--name", required=True, help="Who uses it (a person or device); recorded as appended_by.")
    @click.option(
        "--role",
        required=True,
        type=click.Choice(ROLES),
        help="recorder: play events; referee: also rulings and the omniscient view; admin: everything.",
    )
    @click.option("--tournament", default=None, help="Only games whose game_started meta.tournament is this.")
    @click.option("--game", "game", default=None, help="Only this game id.")
    @click.pass_context
    def create(ctx: click.Context, name: str, role: str, tournament: str | None, game: str | None) -> None:
        """Create a token and print it once (only its SHA-256 is kept)."""
        secret, t = _tokens(ctx, create=True).create(name, role, tournament=tournament, game=game)
        click.echo(secret)
        click.echo(f"token {t.id}: {t.role} {t.name!r}, {_scope(t)}; shown once, keep it secret", err=True)

    @token.command("list")
    @click.option("--json", "as_json", is_flag=True, help="One JSON object per token.")
    @click.pass_context
    def list_cmd(ctx: click.Context, as_json: bool) -> None:
        """List tokens (ids, names, roles, scopes; never the tokens)."""
        rows = _tokens(ctx).list()
        if as_json:
            for t in rows:
                click.echo(json.dumps(t.to_json(), ensure_ascii=False))
            return
        if not rows:
            click.echo("no tokens")
            return
        for t in rows:
            state = f"revoked {t.revoked_at}" if t.revoked_at else "active"
            click.echo(f"{t.id}  {t.role:<8}  {t.name}  ({_scope(t)})  created {t.created_at}  {state}")

    @token.command("revoke")
    @click.argument("token_id")
    @click.pass_context
    def revoke(ctx: click.Context, token_id: str) -> None:
        """Revoke a token by its id (from token list); it is refused from then on."""
        t = _tokens(ctx).revoke(token_id)
        click.echo(f"token {t.id} ({t.name}) revoked at {t.revoked_at}")

    return token


def register(cli_group: click.Group) -> None:
    """Add the ``token`` group to the ``rummy-ledger`` click group."""
    cli_group.add_command(_group())
