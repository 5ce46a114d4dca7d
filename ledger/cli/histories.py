"""``export --format text``: hand histories a person reads (issue 29), the
text of :func:`ledger.hand_history.hand_history` in the invocation's language
(``--lang``).

- ``export GAME --format text [--pov SEAT|spectator] [-o FILE]``: one game
  (a stored id or a record file, as ``show``) on stdout, or into FILE;
- ``export GAME... --format text --out DIR`` and ``export --all --format text
  --out DIR``: one ``<game_id>.txt`` per game in DIR (made when missing).

``--pov`` keeps only what that seat (or a spectator) saw, as ``show --at N
--pov``. Exit 2, one line on stderr, for a rejected record, an unknown game
("did you mean"), a seat not at the table or options that do not go together
(the analytics filters and ``--partition`` are for a table export).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ledger.cli.context import CliState, error_line, load, tr_of
from ledger.cli.reading import pov_arg
from ledger.errors import PovError, RecordError
from ledger.hand_history import hand_history
from ledger.i18n import N_

#: the options of a table export that choose games from the analytics view
_FILTERS = ("variants", "since", "until", "tournaments", "players")

#: ``export``'s ``--pov``
POV_OPTION = click.option(
    "--pov",
    default=None,
    metavar="SEAT|spectator",
    help=N_(
        "With --format text (a hand history a person reads: GAME's on stdout or in -o FILE, or one GAME.txt "
        "per game in --out DIR): only what that seat, or a spectator at no seat, saw."
    ),
)


def text_export(
    ctx: click.Context, kw: dict[str, Any], output: Path | None, with_journal: bool, pov: str | None
) -> None:
    """``export`` given ``--format text`` or ``--pov``: refuses ``--pov``
    without ``--format text`` and ``--with-journal`` with it, else
    :func:`export_histories`."""
    _ = tr_of(ctx).gettext
    if kw["fmt"] != "text":
        raise click.UsageError(_("--pov is for a hand history: add --format text"))
    if with_journal:
        raise click.UsageError(_("--with-journal is for a record export, not for --format text"))
    export_histories(ctx, kw, output, pov)


def export_histories(ctx: click.Context, kw: dict[str, Any], output: Path | None, pov: str | None) -> None:
    """The body of ``export --format text`` (module docstring); ``kw``: the
    table export's parameters (``games``, ``all_games``, ``out``, filters)."""
    tr = tr_of(ctx)
    _ = tr.gettext
    state: CliState = ctx.obj
    seat = pov_arg(pov)
    if any(kw[k] for k in _FILTERS) or kw.get("partition") is not None:
        raise click.UsageError(_("the filters and --partition are for a table export, not for --format text"))
    games, out = kw["games"], kw["out"]
    if bool(games) == kw["all_games"]:
        raise click.UsageError(_("name the games to export, or pass --all"))
    if out is None and (kw["all_games"] or len(games) > 1):
        raise click.UsageError(_("--format text with --all or several games writes one GAME.txt each into --out DIR"))
    if out is not None and output is not None:
        raise click.UsageError(_("give -o FILE (one game) or --out DIR (one file per game), not both"))
    targets = list(games) if games else [g.game_id for g in state.app().list_games()]
    if out is None:
        game_id, text = _history(state, targets[0], seat)
        if output is None:
            click.echo(text)
            return
        output.write_text(text + "\n", encoding="utf-8")
        click.echo(_("wrote the hand history of %(game)s to %(path)s") % {"game": game_id, "path": output}, err=True)
        return
    out.mkdir(parents=True, exist_ok=True)
    for target in targets:
        game_id, text = _history(state, target, seat)
        (out / f"{game_id}.txt").write_text(text + "\n", encoding="utf-8")
    click.echo(
        tr.ngettext("wrote %(num)s hand history to %(out)s", "wrote %(num)s hand histories to %(out)s", len(targets))
        % {"num": len(targets), "out": out},
        err=True,
    )


def _history(state: CliState, target: str, seat: int | str | None) -> tuple[str, str]:
    """``(game id, hand history)`` of a stored game or a record file; a
    rejected record is its error line and exit 2, a seat not at the table a
    bad ``--pov``."""
    try:
        game_id, events = load(state, target)
        return game_id, hand_history(events, seat, state.tr)
    except RecordError as exc:
        click.echo(error_line(exc, target, state.tr), err=True)
        sys.exit(2)
    except PovError as err:  # check_pov: no such seat at this table
        raise click.BadParameter(err.text(state.tr), param_hint="--pov") from None


__all__ = ["POV_OPTION", "export_histories", "text_export"]
