"""Reading the store and record files: ``list`` (the stored games), ``show
GAME|FILE [--at N [--pov SEAT|spectator]]`` (a record, or the table at a
position with its move, findings, rulings and seal), ``export GAME`` (a
stored game's canonical record) and ``schema`` (the record format's JSON
Schema files).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from ledger.cards import HAND_ORDERS
from ledger.cli.context import CliState, TranslatedCommand, console, load, tr_of
from ledger.cli.findings import finding_status
from ledger.cli.seal import seal_list, short_or_missing
from ledger.cli.trust import broken_chain, not_valid, warn
from ledger.errors import PovError
from ledger.events import Event
from ledger.i18n import N_, translations
from ledger.notation import notation
from ledger.params import ASCII_INT, ascii_int
from ledger.records import encode_record
from ledger.redaction import visible_findings
from ledger.render import render_state
from ledger.replay import Replayer
from ledger.rule_texts import rule_text
from ledger.rulings import by_finding, rewound_by
from ledger.sealing.verify_rows import GameCheck


@click.command(
    "list",
    cls=TranslatedCommand,
    help=N_("List stored games: id, variant, players, hands, events."),
)
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON object per game."))
@click.pass_obj
def list_cmd(state: CliState, as_json: bool) -> None:
    games = state.app().list_games()
    if as_json:
        for g in games:
            click.echo(json.dumps(g.to_json(), ensure_ascii=False))
        return
    _, ngettext = state.tr.gettext, state.tr.ngettext
    if not games:
        click.echo(_("no games in %(store)s") % {"store": state.store})
        return
    title = ngettext("%(num)s game in %(store)s", "%(num)s games in %(store)s", len(games)) % {
        "num": len(games),
        "store": state.store,
    }
    click.echo(title)  # its own line: a long store path neither wraps nor pads
    table = Table()
    table.add_column(_("game"), overflow="fold")
    table.add_column(_("variant"))
    table.add_column(_("players"), overflow="fold")
    table.add_column(_("hands"), justify="right")
    table.add_column(_("events"), justify="right")
    for g in games:
        table.add_row(
            Text(g.game_id),
            Text(g.variant + (f" ({g.ruleset})" if g.ruleset else "")),
            Text(", ".join(g.players)),
            str(g.hands),
            str(g.events),
        )
    console().print(table)


@click.command(
    "show",
    cls=TranslatedCommand,
    help=N_(
        "Print a game's record (GAME is a stored game id or a record file), or with --at N the table "
        "state after position N (and the moves a referee's position_restored rewound, which no longer "
        "count)."
    ),
)
@click.argument("game")
@click.option(
    "--at", "at", type=ASCII_INT, default=None, metavar="N", help=N_("Show the table state after event position N.")
)
@click.option(
    "--pov",
    default=None,
    metavar="SEAT|spectator",
    help=N_("With --at: only what that seat (or a spectator, at no seat) could know then."),
)
@click.option(
    "--order",
    type=click.Choice(HAND_ORDERS),
    default="suit",
    show_default=True,
    help=N_("With --at: the hands by suit and rank (as the viewer and the report show them) or as dealt."),
)
@click.pass_obj
def show_cmd(state: CliState, game: str, at: int | None, pov: str | None, order: str) -> None:
    if pov is not None and at is None:
        raise click.BadParameter(
            state.tr.gettext("--pov needs --at N (a seat's view of the table at a position)"), param_hint="--pov"
        )
    seat = pov_arg(pov)
    _, events = load(state, game)
    if at is None:
        sys.stdout.buffer.write(encode_record(events))
        sys.stdout.flush()
        return
    tr = state.tr
    _ = tr.gettext
    if seat is not None and at >= len(events):  # as the viewer: a seat's view does not tell how long the game is
        raise click.BadParameter(_("position %(at)s is not recorded (yet)") % {"at": at}, param_hint="--at")
    if not 0 <= at < len(events):
        raise click.BadParameter(
            _("position %(at)s is outside this game's positions 0–%(last)s") % {"at": at, "last": len(events) - 1},
            param_hint="--at",
        )
    table = Replayer(events).state_at(at)
    known = (
        events if seat is None else events[: at + 1]
    )  # a seat's view knows no later ruling (FORMAT.md "Per-seat views")
    every = rewound_by(known)
    try:
        header = move_lines(known, at, table, seat, state.lang, every)
        body = render_state(table, pov=seat, tr=tr, order=order)
    except PovError as err:
        raise click.BadParameter(err.text(tr), param_hint="--pov") from None
    click.echo("\n".join(header) + "\n")
    click.echo(body)
    broken = _seal_line(state, game, events, at) if seat is None else None  # a seat's view shows no seal
    if at in every:
        click.echo(
            _("move %(at)s is rewound by the referee at position %(by)s: it no longer counts")
            % {"at": at, "by": every[at]}
        )
    rewound = {p: by for p, by in every.items() if by <= at}
    if rewound:
        by: dict[int, list[int]] = {}
        for p, r in sorted(rewound.items()):
            by.setdefault(r, []).append(p)
        for r, moves in by.items():
            click.echo(
                _("rewound at position %(by)s: moves %(moves)s no longer count") % {"by": r, "moves": _ranges(moves)}
            )
    if broken is not None:
        warn(broken, tr)
        sys.exit(1)


def pov_arg(pov: str | None) -> int | str | None:
    """A ``--pov`` value (``show --at``, ``export --format text``): a seat
    number, ``"spectator"`` (any case), or None when not given; raises
    :class:`click.BadParameter` for anything else."""
    if pov is None:
        return None
    if pov.strip().lower() == "spectator":
        return "spectator"
    try:
        return ascii_int(pov)
    except ValueError:
        text = tr_of().gettext("%(value)s is neither a seat number nor 'spectator'") % {"value": repr(pov)}
        raise click.BadParameter(text, param_hint="--pov") from None


def _seal_line(state: CliState, game: str, events: list[Event], at: int) -> GameCheck | None:
    """Print ``show --at``'s seal line (a seal hashes hidden cards too: only
    the whole view shows it); a stored game's chain is checked first
    (:mod:`ledger.cli.trust`): when it does not verify the line says NOT
    VALID, and the failed check is returned."""
    _ = state.tr.gettext
    broken = broken_chain(state, game, len(events))
    value = None if broken is not None else seal_list(state, game, events)[at]
    if broken is not None:
        short = not_valid(broken, state.tr)
    else:
        short = short_or_missing(value) if value else _("none stored (run rummy-ledger verify)")
    click.echo(
        "\n" + _("seal at position %(at)s: %(seal)s") % {"at": at, "seal": short} + (f" ({value})" if value else "")
    )
    return broken


def move_lines(
    events: list[Event], at: int, after: Any, pov: int | str | None, lang: str, rewound: dict[int, int]
) -> list[str]:
    """The head of ``show --at N``: the move at N in move notation (as
    ``pov`` may read it), its findings with their status and rule text
    (RULES.md, :mod:`ledger.rule_texts`), its note (not in a seat's view:
    free text may name any card) and its time (``at``) when recorded;
    ``after`` is the table after the move, ``lang`` the language."""
    tr = translations(lang)
    _ = tr.gettext
    event = events[at]
    lines = [_("move %(at)s: %(text)s") % {"at": at, "text": notation(event, after, pov, tr)}]
    found = [f for f in (after.findings if pov is None else visible_findings(after, pov)) if f.position == at]
    index = by_finding(events)
    for f in found:
        status = finding_status(f.position, index, rewound, after, tr)
        lines.append(
            _("  finding %(rule)s: %(message)s  [%(status)s]")
            % {"rule": f.rule, "message": f.text(tr), "status": status}
        )
        text = rule_text(f.rule, lang)
        if text:
            lines.append("    " + _("rule %(rule)s: %(text)s") % {"rule": f.rule, "text": text})
    if event.note and pov is None:
        lines.append(_("  note: %(note)s") % {"note": event.note})
    if event.at:
        lines.append(_("  at: %(at)s") % {"at": event.at})
    return lines


def _ranges(positions: list[int]) -> str:
    """``[7, 8, 9, 12]`` -> ``"7–9, 12"``."""
    out: list[str] = []
    start = prev = positions[0]
    for p in positions[1:] + [None]:
        if p is not None and p == prev + 1:
            prev = p
            continue
        out.append(str(start) if start == prev else f"{start}–{prev}")
        if p is not None:
            start = prev = p
    return ", ".join(out)


@click.command(
    "export",
    cls=TranslatedCommand,
    help=N_(
        "Write a stored game back as a canonical JSON Lines record (with --with-journal, plus // "
        'journal {"position","by","received_at"} comment lines).'
    ),
)
@click.argument("game")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("Write to FILE instead of stdout."),
)
@click.option(
    "--with-journal",
    is_flag=True,
    help=N_("Precede each event with a // journal comment: who appended it and when (readers ignore it)."),
)
@click.pass_obj
def export_cmd(state: CliState, game: str, output: Path | None, with_journal: bool = False) -> None:
    data = state.app().export_record(game, with_journal=with_journal)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        output.write_bytes(data)
        count = sum(1 for line in data.splitlines() if not line.startswith(b"//"))
        click.echo(
            state.tr.ngettext(
                "wrote %(num)s event of %(game)s to %(path)s", "wrote %(num)s events of %(game)s to %(path)s", count
            )
            % {"num": count, "game": game, "path": output},
            err=True,
        )


@click.command(
    "schema",
    cls=TranslatedCommand,
    help=N_("Generate the JSON Schema (2020-12) files of the record format."),
)
@click.option("--check", is_flag=True, help=N_("Exit 1 when the files differ from the generated schema."))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=N_("Folder (default: the checkout's schemas/)."),
)
def schema_cmd(check: bool, out: Path | None) -> None:
    from ledger import schema

    sys.exit(schema.main((["--check"] if check else []) + (["--out", str(out)] if out else [])))


def register(cli_group: click.Group) -> None:
    """Add ``list``, ``show``, ``export`` (a game's record) and ``schema``."""
    for command in (list_cmd, show_cmd, export_cmd, schema_cmd):
        cli_group.add_command(command)
