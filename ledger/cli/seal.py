"""Command bodies of the seal chain (FORMAT.md "Seal (tamper evidence)").

:func:`register` adds to the ``rummy-ledger`` click group (:mod:`ledger.cli`):

- ``seal GAME|FILE [--at N] [--json]``: the seal (full and short form) of a
  stored game (its stored seal) or of a record file (computed);
- ``keygen KEYFILE``: an Ed25519 key pair (KEYFILE mode 0600, KEYFILE.pub);
- ``checkpoint -o FILE [--tournament T] [--sign KEYFILE]``: the stored games'
  ``(game_id, length, seal)`` with their RFC 6962 root, optionally signed;
- ``prove GAME --checkpoint FILE [-o FILE]``: one game's inclusion proof.

``verify``, which checks the store, a checkpoint or a proof, is
:mod:`ledger.cli.verify`'s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ledger.cli.context import TranslatedCommand, load, tr_of
from ledger.cli.trust import refuse_broken
from ledger.i18n import N_
from ledger.params import ASCII_INT
from ledger.sealing import chain as _seal
from ledger.sealing import checkpoint as _cp
from ledger.sealing.tables import head, stored_seals
from ledger.texts import Message


def _state(ctx: click.Context) -> Any:
    return ctx.obj


def _file_lines(target: str) -> tuple[str, list[bytes]] | None:
    """``(game_id, canonical lines)`` of a record file, or None when ``target``
    is not a file. The file is read and checked like ``show``/``score`` do,
    and each event re-encoded canonically (so a hand-formatted file gets the
    seal of its export)."""
    path = Path(target)
    if not path.is_file():
        return None
    from ledger.events import encode_event

    game_id, events = load(_state(click.get_current_context()), target)
    return game_id, [encode_event(e) for e in events]


def seal_list(state: Any, target: str, events: list[Any]) -> list[str]:
    """The seal after each position of ``events`` loaded from ``target``: a
    record file's computed from its canonical lines, a stored game's as
    stored (never recomputed on read; None where none is stored). For
    ``score``, ``audit`` and ``show``."""
    if Path(target).is_file():
        from ledger.events import encode_event

        return [h.hex() for h in _seal.seals(encode_event(e) for e in events)]
    return stored_seals(state.app(), target, strict=False)[1][: len(events)]


def short_or_missing(value: str | None) -> str:
    """A seal's short form, or where none is stored, a word saying so."""
    return _seal.short_form(value) if value else "none stored (run rummy-ledger verify)"


def _outside(at: int, last: int) -> str:
    """``--at`` past the game, worded as ``show``, ``report`` and the viewer word it."""
    return str(
        tr_of().gettext("position %(at)s is outside this game's positions 0–%(last)s") % {"at": at, "last": last}
    )


@click.command(
    "seal",
    cls=TranslatedCommand,
    help=N_(
        "Print the seal of a game: the stored seal of a stored game, or the seal computed from a record "
        "file, after position N (default: the last event), in full (64 hex digits) and short form "
        '(FORMAT.md "Seal").'
    ),
)
@click.argument("target", metavar="GAME|FILE")
@click.option(
    "--at",
    "at",
    type=ASCII_INT,
    default=None,
    metavar="N",
    help=N_("The seal after event position N (default: the last event)."),
)
@click.option(
    "--json", "as_json", is_flag=True, help=N_('One JSON object {"game_id","position","length","seal","short"}.')
)
@click.pass_context
def seal_cmd(ctx: click.Context, target: str, at: int | None, as_json: bool) -> None:
    from_file = _file_lines(target)
    if from_file is not None:
        game_id, lines = from_file
        if at is not None and not 0 <= at < len(lines):
            raise click.BadParameter(_outside(at, len(lines) - 1), param_hint="--at")
        position = len(lines) - 1 if at is None else at
        value = _seal.seal_hex(lines, at=position)
        length = len(lines)
    else:
        game_id = target
        length, stored = stored_seals(_state(ctx).app(), game_id)
        if at is not None and not 0 <= at < length:
            raise click.BadParameter(_outside(at, length - 1), param_hint="--at")
        position = length - 1 if at is None else at
        value = stored[position]
        refuse_broken(_state(ctx), game_id, length, tr_of(ctx))  # the chain checked first (issue 26)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "game_id": game_id,
                    "position": position,
                    "length": length,
                    "seal": value,
                    "short": _seal.short_form(value),
                }
            )
        )
        return
    click.echo(
        tr_of(ctx).ngettext(
            "%(game)s at position %(at)s (%(num)s event): %(seal)s",
            "%(game)s at position %(at)s (%(num)s events): %(seal)s",
            length,
        )
        % {"game": game_id, "at": position, "num": length, "seal": _seal.short_form(value)}
    )
    click.echo(value)


@click.command(
    "keygen",
    cls=TranslatedCommand,
    help=N_(
        "Make an Ed25519 key pair for signing checkpoints: KEYFILE (private, mode 0600, never "
        "overwritten) and KEYFILE.pub (public)."
    ),
)
@click.argument("keyfile", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def keygen_cmd(ctx: click.Context, keyfile: Path) -> None:
    pub, kid = _cp.generate_key(keyfile)
    click.echo(
        tr_of(ctx).gettext("wrote private key %(key)s (mode 0600) and public key %(pub)s; key id %(kid)s")
        % {"key": keyfile, "pub": pub, "kid": kid}
    )


@click.command(
    "checkpoint",
    cls=TranslatedCommand,
    help=N_(
        "Write a checkpoint: (game_id, length, seal) of every stored game (or one tournament's), their "
        "RFC 6962 Merkle root and the UTC time, signed with --sign KEYFILE. Check it later with `verify "
        "--checkpoint FILE`."
    ),
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help=N_("The checkpoint file to write."),
)
@click.option("--tournament", default=None, help=N_("Only the games whose game_started meta.tournament is T."))
@click.option(
    "--sign",
    "keyfile",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help=N_("Sign with this Ed25519 private key (rummy-ledger keygen)."),
)
@click.pass_context
def checkpoint_cmd(ctx: click.Context, output: Path, tournament: str | None, keyfile: Path | None) -> None:
    key = _cp.load_private_key(keyfile) if keyfile else None
    app = _state(ctx).app()
    games = [g.game_id for g in app.list_games() if tournament is None or g.meta.get("tournament") == tournament]
    entries = [_cp.Entry(gid, *head(app, gid)) for gid in games]
    doc = _cp.build(entries, tournament=tournament, key=key)
    output.write_text(_cp.dumps(doc), encoding="utf-8")
    tr = tr_of(ctx)
    signed = tr.gettext(", signed by key %(kid)s") % {"kid": doc["signature"]["key_id"]} if key else ""
    click.echo(
        tr.ngettext(
            "wrote checkpoint %(file)s: %(num)s game, root %(root)s…",
            "wrote checkpoint %(file)s: %(num)s games, root %(root)s…",
            len(entries),
        )
        % {"file": output, "num": len(entries), "root": doc["root"][:16]}
        + signed
    )


@click.command(
    "prove",
    cls=TranslatedCommand,
    help=N_(
        "Print the inclusion proof of GAME in a checkpoint (the RFC 6962 audit path, with the "
        "checkpoint's signed head). Needs only the checkpoint file; check the proof anywhere with "
        "`verify --proof FILE`."
    ),
)
@click.argument("game")
@click.option(
    "--checkpoint",
    "cp_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    required=True,
    help=N_("The checkpoint the game is in."),
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("Write the proof here (default: standard output)."),
)
@click.pass_context
def prove_cmd(ctx: click.Context, game: str, cp_file: Path, output: Path | None) -> None:
    try:
        proof = _cp.make_proof(_cp.load(cp_file), game)
    except _cp.CheckpointError as exc:
        raise _cp.CheckpointError(Message(N_("%(file)s: %(reason)s"), file=str(cp_file), reason=exc.msg)) from None
    text = json.dumps(proof, indent=1, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(
            tr_of(ctx).gettext("wrote the inclusion proof of %(game)s (leaf %(index)s of %(size)s) to %(file)s")
            % {"game": game, "index": proof["index"], "size": proof["size"], "file": output},
            err=True,
        )


def register(cli_group: click.Group) -> None:
    """Add ``seal``, ``keygen``, ``checkpoint`` and ``prove``."""
    for command in (seal_cmd, keygen_cmd, checkpoint_cmd, prove_cmd):
        cli_group.add_command(command)


__all__ = ["register", "seal_list", "short_or_missing"]
