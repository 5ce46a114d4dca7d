"""Checking games: ``audit [GAME|FILE|FOLDER...]`` (the findings of each
game, with their rulings and rule texts) and ``score GAME|FILE`` (the score
sheet as adjudicated, with the seal).

Exit status of ``audit``: 0 no findings, 1 findings, 2 a record rejected;
of ``score``: 2 when the record is rejected. Both check a stored game's
chain before printing its seal (``score``, ``audit --json``;
:mod:`ledger.cli.trust`): a chain that does not verify is a warning naming
the first broken position, no seal, and exit 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ledger.audit import report as audit_report
from ledger.cli.context import CliState, TranslatedCommand, error_line, load
from ledger.cli.findings import finding_status
from ledger.cli.seal import seal_list, short_or_missing
from ledger.cli.trust import broken_chain, not_valid, warn
from ledger.errors import RecordError
from ledger.i18n import N_
from ledger.record_files import find_record_files
from ledger.render import render_score
from ledger.replay import replay
from ledger.rule_texts import rule_text
from ledger.rulings import by_finding, rewound_by
from ledger.scoring import score_sheet
from ledger.sealing.verify_rows import sealed_json


def _targets(state: CliState, targets: tuple[str, ...]) -> list[str]:
    """Stored game ids and record files; folders expand to their ``*.jsonl``
    files; no target means every stored game."""
    if not targets:
        return [g.game_id for g in state.app().list_games()]
    found: list[str] = []
    for t in targets:
        found.extend(str(f) for f in find_record_files([t])) if Path(t).is_dir() else found.append(t)
    return found


def _is_stored_tournament(state: CliState, target: str) -> bool:
    """``target`` is a tournament record file, or names no file and is a stored tournament's id."""
    if Path(target).is_file():
        from ledger.store.tournaments import is_tournament_file

        return is_tournament_file(target)
    if Path(target).exists() or "/" in target or target.endswith(".jsonl"):
        return False
    try:
        return state.app().is_tournament(target)
    except Exception:  # noqa: BLE001 - no store: the game path says why
        return False


@click.command(
    "audit",
    cls=TranslatedCommand,
    help=N_(
        "Audit games (stored ids or record files; default: every stored game). Exit 0 no findings, 1 "
        "findings, 2 a record rejected."
    ),
)
@click.argument("targets", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON object per game (FORMAT.md)."))
@click.pass_obj
def audit_cmd(state: CliState, targets: tuple[str, ...], as_json: bool) -> None:
    status = 0
    for target in _targets(state, targets):
        if _is_stored_tournament(state, target):  # a tournament's TOUR-… findings (TOURNAMENT.md)
            from ledger.cli.tournament import audit_tournament

            status = max(status, audit_tournament(state, target, as_json))
            continue
        try:
            game_id, events = load(state, target)
            final = replay(events)
            index = by_finding(events)
            audited = audit_report(final)
            report = audited.to_json(index)
        except RecordError as exc:
            status = 2
            if as_json:
                click.echo(json.dumps({"error": exc.as_json()}, ensure_ascii=False))
            else:
                click.echo(error_line(exc, target, state.tr), err=True)
            continue
        report.setdefault("game_id", game_id)
        findings = report.get("findings", [])
        status = max(status, 1 if findings else 0)
        if as_json:
            broken = broken_chain(state, target, len(events))
            seals = seal_list(state, target, events)
            report = sealed_json(report, seals[-1], broken, len(seals))  # as the HTTP API's /audit
            if broken is not None:
                warn(broken, state.tr)
                status = max(status, 1)
            click.echo(json.dumps(report, ensure_ascii=False))
            continue
        _, ngettext = state.tr.gettext, state.tr.ngettext
        click.echo(
            ngettext("%(game)s: %(num)s finding", "%(game)s: %(num)s findings", len(findings))
            % {"game": report["game_id"], "num": len(findings)}
        )
        rewound = rewound_by(events)
        for found, f in zip(audited.findings, findings, strict=True):
            parts = (
                f.get("hand") is not None and _("hand %(hand)s") % {"hand": f["hand"]},
                f.get("seat") is not None and _("seat %(seat)s") % {"seat": f["seat"]},
            )
            who = ", ".join(p for p in parts if p)
            ruled = finding_status(f["position"], index, rewound, final, state.tr)
            where = _("position %(at)s") % {"at": f["position"]} + (f" ({who})" if who else "")
            click.echo(f"  {where}: {f['rule']}: {found.text(state.tr)}  [{ruled}]")
            if state.lang != "en" and rule_text(
                f["rule"], state.lang
            ):  # beside the message, the rule in the reader's words
                click.echo(
                    "      "
                    + _("rule %(rule)s: %(text)s") % {"rule": f["rule"], "text": rule_text(f["rule"], state.lang)}
                )
    sys.exit(status)


@click.command(
    "score",
    cls=TranslatedCommand,
    help=N_(
        "Score a game (stored id or record file): each hand with the breakdown, claimed points that "
        "differ, running totals and the winner. Exit 2 when the record is rejected."
    ),
)
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help=N_("The score sheet as JSON (FORMAT.md)."))
@click.pass_obj
def score_cmd(state: CliState, target: str, as_json: bool) -> None:
    try:
        game_id, events = load(state, target)
        final = replay(events)
    except RecordError as exc:
        if as_json:
            click.echo(json.dumps({"error": exc.as_json()}, ensure_ascii=False))
        else:
            click.echo(error_line(exc, target, state.tr), err=True)
        sys.exit(2)
    sheet = score_sheet(final)
    broken = broken_chain(state, target, len(events))  # a seal is printed only after its chain is checked
    seals = seal_list(state, target, events)
    if as_json:
        click.echo(json.dumps(sealed_json(sheet.to_json(), seals[-1], broken), ensure_ascii=False))
    else:
        _ = state.tr.gettext
        click.echo(render_score(sheet, final, played=score_sheet(final, adjudicated=False), tr=state.tr))
        if broken is not None:
            short = not_valid(broken, state.tr)
        else:
            short = short_or_missing(seals[-1]) if seals[-1] else _("none stored (run rummy-ledger verify)")
        click.echo(
            state.tr.ngettext(
                "seal: %(seal)s (after %(num)s event)", "seal: %(seal)s (after %(num)s events)", len(seals)
            )
            % {"seal": short, "num": len(seals)}
        )
    if broken is not None:
        warn(broken, state.tr)
        sys.exit(1)


def register(cli_group: click.Group) -> None:
    """Add ``audit`` and ``score`` to the ``rummy-ledger`` group."""
    cli_group.add_command(audit_cmd)
    cli_group.add_command(score_cmd)
