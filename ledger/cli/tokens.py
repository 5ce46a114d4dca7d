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

from ledger.cli.context import TranslatedGroup, tr_of
from ledger.errors import LedgerError
from ledger.i18n import N_
from ledger.tokens import ROLES, TokenStore, UnknownTokenError


def _tokens(ctx: click.Context, create: bool = False) -> TokenStore:
    """The token table of the store; only ``create`` may make a new store."""
    return TokenStore(ctx.obj.app(create=create))


def _scope(t: Any, tr: Any) -> str:
    _ = tr.gettext
    parts = [
        _("game %(game)s") % {"game": t.game} if t.game else "",
        _("tournament %(tournament)s") % {"tournament": repr(t.tournament)} if t.tournament else "",
    ]
    return ", ".join(p for p in parts if p) or _("every game")


@click.group("token", cls=TranslatedGroup, help=N_("Bearer tokens of the HTTP write API (stored hashed in the store)."))
def token_group() -> None:
    pass


@token_group.command("create", help=N_("Create a token and print it once (only its SHA-256 is kept)."))
@click.option("--name", required=True, help=N_("Who uses it (a person or device); recorded as appended_by."))
@click.option(
    "--role",
    required=True,
    type=click.Choice(ROLES),
    help=N_(
        "recorder: play events, and reads its games whole (scope it with --game where other tables' deals "
        "must stay hidden); referee: also rulings; admin: everything."
    ),
)
@click.option("--tournament", default=None, help=N_("Only games whose game_started meta.tournament is this."))
@click.option("--game", "game", default=None, help=N_("Only this game id."))
@click.pass_context
def create(ctx: click.Context, name: str, role: str, tournament: str | None, game: str | None) -> None:
    tr = tr_of(ctx)
    if not name.strip():
        raise ValueError(tr.gettext("a token needs a --name (the person or device using it)"))
    secret, t = _tokens(ctx, create=True).create(name, role, tournament=tournament, game=game)
    click.echo(secret)
    click.echo(
        tr.gettext("token %(id)s: %(role)s %(name)s, %(scope)s; shown once, keep it secret")
        % {"id": t.id, "role": t.role, "name": repr(t.name), "scope": _scope(t, tr)},
        err=True,
    )


@token_group.command("list", help=N_("List tokens (ids, names, roles, scopes; never the tokens)."))
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON object per token."))
@click.pass_context
def list_cmd(ctx: click.Context, as_json: bool) -> None:
    rows = _tokens(ctx).list()
    if as_json:
        for t in rows:
            click.echo(json.dumps(t.to_json(), ensure_ascii=False))
        return
    tr = tr_of(ctx)
    _ = tr.gettext
    if not rows:
        click.echo(_("no tokens"))
        return
    for t in rows:
        state = _("revoked %(at)s") % {"at": t.revoked_at} if t.revoked_at else _("active")
        click.echo(
            _("%(id)s  %(role)s  %(name)s  (%(scope)s)  created %(at)s  %(state)s")
            % {
                "id": t.id,
                "role": f"{t.role:<8}",
                "name": t.name,
                "scope": _scope(t, tr),
                "at": t.created_at,
                "state": state,
            }
        )


@token_group.command(
    "revoke",
    help=N_(
        "Revoke a token by its id (from token list); it is refused from then on. A token revoked already "
        "stays as it was (its first revocation time is kept and said); exit 0 either way."
    ),
)
@click.argument("token_id")
@click.pass_context
def revoke(ctx: click.Context, token_id: str) -> None:
    _ = tr_of(ctx).gettext
    store = _tokens(ctx)
    revoked_before = {t.id for t in store.list() if t.revoked_at}
    try:
        t = store.revoke(token_id)
    except UnknownTokenError as exc:
        raise LedgerError(_("no token %(id)s (see rummy-ledger token list)") % {"id": repr(exc.token_id)}) from None
    said = _("token %(id)s (%(name)s) already revoked at %(at)s") if t.id in revoked_before else None
    said = said or _("token %(id)s (%(name)s) revoked at %(at)s")
    click.echo(said % {"id": t.id, "name": t.name, "at": t.revoked_at})


def register(cli_group: click.Group) -> None:
    """Add the ``token`` group to the ``rummy-ledger`` click group."""
    cli_group.add_command(token_group)
