"""Partial records on the command line (FORMAT.md, "Partial records"):
``redact GAME|FILE --as scorer|seat:N`` (a full record cut down to what a
scorer or one seat saw, :mod:`ledger.partial`) and ``record-scores GAME
--players A,B --variant V [--csv FILE]`` (a score-only game from a paper score
sheet, :mod:`ledger.score_only`, stored like an import).

Exit status: 0 done, 2 bad input (a rejected record, a bad sheet, a bad
``--as``), as the other commands.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import click

from ledger.cli.context import CliState, TranslatedCommand, error_line, load
from ledger.errors import RecordError
from ledger.i18n import N_
from ledger.partial import parse_viewer, redact
from ledger.records import Record, encode_record, parse_record
from ledger.score_only import MAX_HANDS, parse_line, parse_sheet, score_only_game, side_count


@click.command(
    "redact",
    cls=TranslatedCommand,
    help=N_(
        "Cut a full record (stored id or record file) down to what a scorer (face-up cards only) or one "
        "seat saw: a partial record with ?? for every card not seen and cards_shown at each hand's end. "
        "Writes the record to stdout (or -o FILE). Exit 2 when the record is rejected."
    ),
)
@click.argument("target")
@click.option(
    "--as",
    "viewer",
    default="scorer",
    show_default=True,
    metavar="scorer|seat:N",
    help=N_("Who saw the game: the scorer (face up only) or seat N (its own hand too)."),
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, help=N_("Write to FILE.")
)
@click.pass_obj
def redact_cmd(state: CliState, target: str, viewer: str, output: Path | None) -> None:
    seat = parse_viewer(viewer)
    try:
        _, events = load(state, target)
        cut = redact(events, seat)
    except RecordError as exc:
        click.echo(error_line(exc, target, state.tr), err=True)
        sys.exit(2)
    data = encode_record(cut.events)
    if output is None:
        click.echo(data.decode(), nl=False)
    else:
        output.write_bytes(data)


@click.command(
    "record-scores",
    cls=TranslatedCommand,
    help=N_(
        "Store a score-only game from a paper score sheet: one line per hand, one score per side (seats, "
        "or teams 0 and 1 with four Burraco players), from --csv FILE ('-': stdin) or, on a terminal, "
        "asked hand by hand (an empty line ends). A game a stored tournament's pairing names (a table's "
        "sheet) takes its meta (tournament, round, table) from that pairing. Exit 2 for a bad sheet."
    ),
)
@click.argument("game")
@click.option("--players", required=True, metavar="A,B[,C,D]", help=N_("The players' names, in seat order."))
@click.option("--variant", required=True, help=N_("burraco, scala40, ramino, ramino51 or gin."))
@click.option("--ruleset", default=None, help=N_("The ruleset (default: the variant's)."))
@click.option(
    "--csv",
    "csv_file",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help=N_(
        "The sheet as CSV: the scores separated by commas; a first line of the players' names (or one name "
        "per side) is a header."
    ),
)
@click.option(
    "--ask",
    is_flag=True,
    help=N_(
        "Ask hand by hand, the scores separated by commas or spaces; a bad line is refused at once and the "
        "hand asked again (the default without --csv on a terminal)."
    ),
)
@click.pass_obj
def record_scores_cmd(
    state: CliState, game: str, players: str, variant: str, ruleset: str | None, csv_file: TextIO | None, ask: bool
) -> None:
    names = [p.strip() for p in players.split(",")]
    _, ngettext = state.tr.gettext, state.tr.ngettext
    where = csv_file.name if csv_file is not None else game
    try:
        sides = side_count(variant, names, ruleset)  # bad names or variant: refused before a line is read or typed
        if csv_file is not None:
            rows = parse_sheet(csv_file.read(), sides=sides, names=names)
        elif ask or sys.stdin.isatty():
            parse_record(encode_record(score_only_game(game, variant, names, [], ruleset)), path=None)  # the id
            app = state.app(create=True)
            if app.has_game(game):  # refused before typing, not after: nothing typed is lost
                click.echo(_("%(game)s is already stored: nothing was asked") % {"game": game}, err=True)
                sys.exit(2)
            rows = _ask_rows(state, sides)
            if not rows:
                click.echo(_("%(game)s: no hands typed, nothing stored") % {"game": game}, err=True)
                sys.exit(2)
        else:
            raise click.UsageError(_("give the sheet with --csv FILE (or run on a terminal to type it)"))
        app = state.app(create=True)
        events = score_only_game(game, variant, names, rows, ruleset, meta=app.pairing_meta(game))
        data = encode_record(events)
        record: Record = parse_record(data, path=None)
        result = app.import_record(record, appended_by=f"record-scores:{game}")
    except RecordError as exc:
        click.echo(error_line(exc, where, state.tr), err=True)
        sys.exit(2)
    if result.status == "stored":
        n = len(rows)
        click.echo(
            ngettext("%(game)s: stored, %(num)s hand (score-only)", "%(game)s: stored, %(num)s hands (score-only)", n)
            % {"game": result.game_id, "num": n}
        )
    else:
        click.echo(_("%(game)s: already stored with these hands") % {"game": result.game_id})


def _ask_rows(state: CliState, sides: int) -> list[tuple[int, ...]]:
    """The sheet typed on a terminal: a prompt per hand, ``sides`` scores
    separated by commas or spaces. Each line is checked as it is typed
    (:func:`~ledger.score_only.parse_line`): a bad one is refused at once with
    its reason and the same hand is asked again, the hands before it kept. No
    line is a header (the names are ``--players``). An empty line ends."""
    _ = state.tr.gettext
    rows: list[tuple[int, ...]] = []
    while True:
        hand = len(rows) + 1
        text = click.prompt(
            _("hand %(hand)s (scores per side, empty to end)") % {"hand": hand}, default="", show_default=False
        )
        if not text.strip():
            return rows
        if len(rows) >= MAX_HANDS:
            full = _("hand %(hand)s not taken: a sheet holds at most %(most)s hands; an empty line stores them")
            click.echo(full % {"hand": hand, "most": MAX_HANDS}, err=True)
            continue
        try:
            rows.append(parse_line(text, hand, sides=sides))
        except RecordError as exc:
            reason = exc.text(state.tr)
            click.echo(
                _("hand %(hand)s not taken: %(reason)s; type it again") % {"hand": hand, "reason": reason}, err=True
            )


def register(cli_group: click.Group) -> None:
    """Add ``redact`` and ``record-scores`` to the ``rummy-ledger`` group."""
    cli_group.add_command(redact_cmd)
    cli_group.add_command(record_scores_cmd)
