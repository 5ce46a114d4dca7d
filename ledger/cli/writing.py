"""The CLI's write commands over the one append path
(:meth:`ledger.store.application.LedgerApp.append_events`): ``append`` and ``rule``.

``rummy-ledger append GAME FILE|-`` appends JSON Lines events (a file, or
standard input for ``-``) to a stored game, or creates it when the first
event is its ``game_started``. ``rummy-ledger rule GAME --penalty ...`` /
``--restore ...`` writes a referee's ``penalty_assessed`` /
``position_restored`` (FORMAT.md "Events", with the optional ``finding`` and
``referee``). The journal names the writer ``"cli:<os user>"``.

Exit status: 0 stored; 2 refused (nothing stored): one line on stderr, for an
event ``file:line: field: RULE: message``, for a ruling
``GAME: position N: field: RULE: message``; an unknown game, a stale or
conflicting writer and bad options as the other commands do.
"""

from __future__ import annotations

import sys
from gettext import NullTranslations
from pathlib import Path
from typing import Any

import click
import msgspec

from ledger.cli.context import TranslatedCommand, error_line, paragraphs
from ledger.cli.findings import finding_line
from ledger.cli.tournament import before_ruling, impact_lines
from ledger.errors import RecordError
from ledger.events import Event, decode_event
from ledger.params import AsciiInt
from ledger.record_files import read_record
from ledger.records import Record, format_error
from ledger.render import reason_text, side_text
from ledger.state import TableState
from ledger.store.append import AppendResult
from ledger.store.application import LedgerApp
from ledger.store.journal import os_user
from ledger.texts import N_

_ENGLISH = NullTranslations()


def _tr(tr: NullTranslations | None) -> NullTranslations:
    return tr if tr is not None else _ENGLISH


def _reason(value: str | None, tr: Any) -> str | None:
    """A game's end reason: the record's word in English (``hands_played``), in words in another language."""
    if tr is None or type(tr) is NullTranslations or value is None:
        return value
    return reason_text(value, tr)


def outcome_lines(result: AppendResult, state: TableState, tr: Any = None) -> list[str]:
    """What an append stored and what it raised: the count and positions,
    each finding, whether the hand or the game is over."""
    _, ngettext = _tr(tr).gettext, _tr(tr).ngettext
    n = result.length - result.first
    lines = [
        ngettext(
            "%(game)s: %(num)s event appended (%(first)s → %(length)s)",
            "%(game)s: %(num)s events appended (%(first)s → %(length)s)",
            n,
        )
        % {"game": result.game_id, "num": n, "first": result.first, "length": result.length}
    ]
    lines += [finding_line(f, tr) for f in result.findings]
    if state.ended is not None:
        lines.append(_("game ended (%(reason)s)") % {"reason": _reason(state.ended, tr)})
    elif result.game_over:
        lines.append(_("game over (%(reason)s): game_ended is next") % {"reason": _reason(state.game_end_reason, tr)})
    elif result.hand_over and state.phase in ("draw", "play"):
        lines.append(_("hand %(hand)s is over by the rules: hand_ended is next") % {"hand": state.hand})
    elif result.hand_over and state.hand:
        lines.append(_("hand %(hand)s over") % {"hand": state.hand})
    return lines


def totals_line(state: TableState, tr: NullTranslations | None = None) -> str:
    """``totals: Anna -70, Bruno -285`` (as adjudicated)."""
    totals = ", ".join(f"{side_text(state, side, _tr(tr))} {points}" for side, points in enumerate(state.totals))
    return _tr(tr).gettext("totals: %(totals)s") % {"totals": totals}


def _append(app: LedgerApp, game: str, events: list[Event] | Record) -> tuple[AppendResult, TableState]:
    result = app.append_events(game, events, appended_by=f"cli:{os_user()}")
    return result, app.table_state(game)


@click.command(
    "append",
    cls=TranslatedCommand,
    help=paragraphs(
        N_(
            "Append JSON Lines events (FILE, or - for standard input) to the stored game GAME, checked "
            "against its table as it stands; a first event game_started for GAME creates it."
        ),
        N_(
            "Prints how many events were stored, the findings they raised and whether the hand or the "
            "game is over. A refused event prints file:line: field: RULE: message and nothing is stored "
            "(exit 2); no events for a game that is not stored names the unknown game (exit 2)."
        ),
    ),
)
@click.argument("game")
@click.argument("source", metavar="FILE|-")
@click.pass_obj
def append_cmd(state: Any, game: str, source: str) -> None:
    try:
        record = read_record(sys.stdin.buffer if source == "-" else Path(source))
    except RecordError as exc:
        if exc.message.startswith("no events"):
            app = state.app()
            if not app.has_game(game):
                raise app.not_found(game) from None  # the unknown game first: nothing could create it
            exc = RecordError("REC-FORMAT", N_("no events to append"), path=exc.path)
        _refuse(exc.with_location(path=exc.path or ("<stdin>" if source == "-" else source)), state.tr)
    if record.path is None or source == "-":
        record = Record(record.events, record.lines, "<stdin>" if source == "-" else source)
    try:
        result, table = _append(state.app(create=True), game, record)
    except RecordError as exc:
        _refuse(exc if exc.path else exc.with_location(path=record.path), state.tr)
    for line in outcome_lines(result, table, getattr(state, "tr", None)):
        click.echo(line)


def _refuse(err: RecordError, tr: Any) -> None:
    click.echo(error_line(err, tr=tr), err=True)
    sys.exit(2)


def _at_next_position(app: Any, game: str, err: RecordError) -> RecordError:
    """``err`` (a ruling's payload refused) as ``GAME: position N: field: RULE: message``, N the position the
    ruling would have been stored at; an unknown game raises its not-found error instead."""
    if not app.has_game(game):
        raise app.not_found(game)
    return RecordError(err.rule, err.msg, field=err.field, position=app.game_length(game), path=game)


def _side(value: str) -> dict[str, int]:
    """``"1"`` -> ``{"seat": 1}``, ``"team:0"`` -> ``{"team": 0}``."""
    text = value.strip()
    kind, _, number = text.partition(":") if ":" in text else ("seat", "", text)
    if kind not in ("seat", "team") or not number.isascii() or not number.isdigit():
        raise click.BadParameter(f"{value!r}: give a seat number (0, 1, ...) or team:T", param_hint="--penalty")
    return {kind: int(number)}


def _event(payload: dict[str, Any]) -> Event:
    """The event of a ruling, validated as a record line is (REC-FORMAT)."""
    raw = msgspec.json.encode(payload)
    try:
        return decode_event(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise format_error(exc, raw) from None


@click.command(
    "rule",
    cls=TranslatedCommand,
    help=paragraphs(
        N_("Append a referee's ruling to GAME (a penalty or a rewind)."),
        "\b\n"
        "rummy-ledger rule GAME --penalty SEAT|team:T POINTS --rule ID [--finding POS] [--note ...] [--referee NAME]\n"
        "rummy-ledger rule GAME --restore TARGET --reason ... [--finding POS] [--referee NAME]",
        N_(
            "Prints where it was stored and the totals as adjudicated. A ruling the game refuses (an "
            "unknown seat or rule id, a --finding that names no finding: REC-REF) prints GAME: position "
            "N: field: RULE: message (exit 2)."
        ),
    ),
)
@click.argument("game")
@click.option(
    "--penalty",
    nargs=2,
    metavar="SEAT|team:T POINTS",
    default=None,
    help=N_("A penalty_assessed: the seat (or team:T) and the signed points added to its score."),
)
@click.option(
    "--rule",
    "rule_id",
    metavar="ID",
    default=None,
    help=N_("With --penalty: the RULES.md rule id it applies (e.g. BUR-PILE-1)."),
)
@click.option(
    "--restore",
    "target",
    metavar="TARGET",
    type=AsciiInt(min=0),
    default=None,
    help=N_("A position_restored: rewind the hand to just after position TARGET."),
)
@click.option("--reason", default=None, help=N_("With --restore: why (required)."))
@click.option(
    "--finding",
    type=AsciiInt(min=0),
    metavar="POS",
    default=None,
    help=N_("The position of the finding this rules on."),
)
@click.option("--note", default=None, help=N_("Free text stored with the event."))
@click.option("--referee", default=None, metavar="NAME", help=N_("Who rules (the event's referee field)."))
@click.pass_obj
def rule_cmd(
    state: Any,
    game: str,
    penalty: tuple[str, str] | None,
    rule_id: str | None,
    target: int | None,
    reason: str | None,
    finding: int | None,
    note: str | None,
    referee: str | None,
) -> None:
    tr = _tr(getattr(state, "tr", None))
    _ = tr.gettext
    if (penalty is None) == (target is None):
        raise click.UsageError(
            _("give one ruling: --penalty SEAT|team:T POINTS --rule ID, or --restore TARGET --reason TEXT")
        )
    payload: dict[str, Any]
    if penalty is not None:
        if rule_id is None:
            raise click.UsageError(_("--penalty needs --rule ID (the RULES.md rule it applies)"))
        if reason is not None:
            raise click.UsageError(_("--reason goes with --restore; a penalty's words go in --note"))
        who, points = penalty
        text = points.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            raise click.BadParameter(
                _("%(points)s is not a whole number of points") % {"points": repr(points)}, param_hint="--penalty"
            )
        payload = {"type": "penalty_assessed", **_side(who), "points": int(text), "rule": rule_id}
    else:
        if reason is None:
            raise click.UsageError(_("--restore needs --reason TEXT"))
        if rule_id is not None:
            raise click.UsageError(_("--rule goes with --penalty"))
        payload = {"type": "position_restored", "target": target, "reason": reason}
    for key, value in (("finding", finding), ("referee", referee), ("note", note)):
        if value is not None:
            payload[key] = value
    try:
        event = _event(payload)
    except RecordError as exc:  # refused before the store is asked: at the position it would have had
        _refuse(_at_next_position(state.app(create=True), game, exc), tr)
    app = state.app(create=True)
    before = before_ruling(app, game)
    try:
        result, table = _append(app, game, [event])
    except RecordError as exc:
        _refuse(exc.with_location(path=game), tr)
    click.echo(
        tr.gettext("%(game)s: %(type)s stored at position %(at)s")
        % {"game": game, "type": event.type, "at": result.first}
    )
    for f in result.findings:
        click.echo(finding_line(f, tr))
    click.echo(totals_line(table, tr))
    for line in impact_lines(app, game, before, tr):
        click.echo(line)


def register(cli_group: click.Group) -> None:
    """Add ``append`` and ``rule`` to the ``rummy-ledger`` group."""
    cli_group.add_command(append_cmd)
    cli_group.add_command(rule_cmd)


__all__ = ["register", "append_cmd", "rule_cmd", "outcome_lines"]
