"""``rummy-ledger tournament …``: a tournament record kept in the store (TOURNAMENT.md).

``create`` opens it (``tournament_started``), ``register`` / ``withdraw``
add or remove an entrant, ``pair --round R`` proposes a round by the
tournament's movement and records it on confirmation (``--yes`` for
scripts), ``adjust`` records a referee's ``vp_adjusted``, ``close --round R``
closes a round with the RFC 6962 root over its games, ``standings`` prints
the standings (``--json`` as TOURNAMENT.md "Machine-readable outputs") and
``report`` the rounds, tables, results, standings and findings. Every
figure is recomputed from the events and the games' totals as adjudicated.

Exit status: 0 done; 1 ``report`` found TOUR-… findings; 2 bad input (a
REC-… refusal, an unknown tournament, a round that cannot be paired).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ledger.cli.context import CliState, TranslatedGroup, error_line, paragraphs
from ledger.errors import RecordError
from ledger.i18n import N_
from ledger.store.probe import StoreMissingError
from ledger.store.tournaments import TournamentNotFoundError, round_checkpoint, tournament_targets
from ledger.texts import Translator, render
from ledger.tournament.checker import check
from ledger.tournament.events import (
    EntrantRegistered,
    EntrantWithdrawn,
    RoundClosed,
    RoundPaired,
    Scoring,
    Table,
    TournamentEvent,
    TournamentMeta,
    TournamentStarted,
    VpAdjusted,
)
from ledger.tournament.impact import ruling_impact
from ledger.tournament.pairing import propose
from ledger.tournament.records import parse_tournament
from ledger.tournament.render import render_findings, render_round, render_standings
from ledger.tournament.results import GameResult, result_of
from ledger.tournament.standings import standings
from ledger.tournament.state import TournamentState

MOVEMENTS = ("mitchell", "danese", "danese_modificato", "italiana", "swiss")


@click.group(
    "tournament",
    cls=TranslatedGroup,
    help=paragraphs(
        N_("Tournaments: entrants, rounds, tables, victory points and standings, recorded as events (TOURNAMENT.md)."),
        N_("Every figure is recomputed from the events and the games' totals as adjudicated."),
    ),
)
def tournament_group() -> None:
    pass


def _fail(state: CliState, text: str) -> None:
    click.echo(state.tr.gettext("rummy-ledger: error: %(message)s") % {"message": text}, err=True)
    sys.exit(2)


def _state(state: CliState, tid: str, upto: int | None = None) -> TournamentState:
    try:
        return state.app().tournament_state(tid, upto)
    except TournamentNotFoundError:
        _fail(state, state.tr.gettext("no tournament %(tournament)s in the store") % {"tournament": repr(tid)})
        raise  # not reached


def _append(state: CliState, tid: str, events: list[TournamentEvent], create: bool = False) -> TournamentState:
    app = state.app(create=create)
    if not create and not app.is_tournament(tid):
        _state(state, tid)
    return app.append_tournament(tid, events, appended_by=f"cli:{_user()}")


def _user() -> str:
    from ledger.store.journal import os_user

    return os_user()


@tournament_group.command("create", help=N_("Open a tournament record (tournament_started)."))
@click.argument("tournament")
@click.option("--name", required=True, help=N_("The tournament's name."))
@click.option("--movement", type=click.Choice(MOVEMENTS), required=True, help=N_("Who meets whom."))
@click.option("--hands", "hands", type=click.IntRange(1, 100), required=True, help=N_("Hands of a match."))
@click.option("--table", "vp_table", default=None, help=N_("VP table: fibur-3 or fibur-4 (default: by --hands)."))
@click.option("--match", "match", default=None, metavar="W,D,L", help=N_("Match points instead of VP, e.g. 2,1,0."))
@click.option("--rounds", type=click.IntRange(1, 1000), default=None, help=N_("Number of rounds."))
@click.option("--bye-vp", type=float, default=None, help=N_("VP of a bye (default 12)."))
@click.option("--variant", default="burraco", show_default=True, help=N_("Variant of the games."))
@click.option("--date", default=None, help=N_("Date (meta)."))
@click.option("--site", default=None, help=N_("Site (meta)."))
@click.option("--referee", default=None, help=N_("Referee (meta)."))
@click.pass_obj
def create_cmd(state: CliState, /, tournament: str, **opts: Any) -> None:
    scoring = _scoring(opts["match"], opts["vp_table"], opts["hands"])
    meta = {k: opts[k] for k in ("date", "site", "referee") if opts[k]}
    bye = opts["bye_vp"]
    event = TournamentStarted(
        format="rummy-ledger/1",
        tournament_id=tournament,
        name=opts["name"],
        variant=opts["variant"],
        hands_per_match=opts["hands"],
        scoring=scoring,
        movement=opts["movement"],
        rounds=opts["rounds"],
        bye_vp=int(bye) if bye is not None and float(bye).is_integer() else bye,
        meta=TournamentMeta(**meta) if meta else None,
    )
    if state.app(create=True).has_game(tournament):
        _fail(state, state.tr.gettext("%(tournament)s is stored already") % {"tournament": repr(tournament)})
    _append(state, tournament, [event], create=True)
    click.echo(state.tr.gettext("tournament %(tournament)s created") % {"tournament": tournament})


def _scoring(match: str | None, table: str | None, hands: int) -> Scoring:
    if match:
        try:
            win, draw, loss = (float(x) if "." in x else int(x) for x in match.split(","))
        except ValueError:
            raise click.BadParameter("W,D,L, e.g. 2,1,0", param_hint="--match") from None
        return Scoring(kind="match", win=win, draw=draw, loss=loss)
    return Scoring(kind="vp", table=table or ("fibur-3" if hands == 3 else "fibur-4"))


@tournament_group.command("register", help=N_("Register an entrant: a pair (two players) or a player."))
@click.argument("tournament")
@click.argument("entrant")
@click.argument("players", nargs=-1, required=True)
@click.pass_obj
def register_cmd(state: CliState, tournament: str, entrant: str, players: tuple[str, ...]) -> None:
    _append(state, tournament, [EntrantRegistered(entrant=entrant, players=players)])
    click.echo(state.tr.gettext("%(entrant)s registered") % {"entrant": entrant})


@tournament_group.command("withdraw", help=N_("Withdraw an entrant from the later rounds."))
@click.argument("tournament")
@click.argument("entrant")
@click.option("--reason", required=True, help=N_("Why."))
@click.pass_obj
def withdraw_cmd(state: CliState, tournament: str, entrant: str, reason: str) -> None:
    _append(state, tournament, [EntrantWithdrawn(entrant=entrant, reason=reason)])
    click.echo(state.tr.gettext("%(entrant)s withdrawn") % {"entrant": entrant})


@tournament_group.command("adjust", help=N_("Record a referee's VP penalty or award (0 VP: a warning)."))
@click.argument("tournament")
@click.argument("entrant")
@click.argument("vp", type=float)
@click.option("--rule", required=True, help=N_("Rule id, e.g. TOUR-WARN-1 or TOUR-WARN-2."))
@click.option("--round", "rnd", type=click.IntRange(1, 1000), default=None, help=N_("The round it concerns."))
@click.option("--referee", default=None, help=N_("Who rules."))
@click.option("--note", default=None, help=N_("Why."))
@click.pass_obj
def adjust_cmd(state: CliState, /, tournament: str, entrant: str, vp: float, **opts: Any) -> None:
    value: float | int = int(vp) if vp.is_integer() else vp
    event = VpAdjusted(
        entrant=entrant, vp=value, rule=opts["rule"], round=opts["rnd"], referee=opts["referee"], note=opts["note"]
    )
    _append(state, tournament, [event])
    click.echo(state.tr.gettext("%(vp)s VP for %(entrant)s recorded") % {"vp": value, "entrant": entrant})


@tournament_group.command("pair", help=N_("Propose round R by the movement; record it on confirmation."))
@click.argument("tournament")
@click.option("--round", "rnd", type=click.IntRange(1, 1000), required=True, help=N_("The round to pair."))
@click.option("--seed", type=click.IntRange(0, 2**62), default=None, help=N_("Round 1: draw the order by this seed."))
@click.option("--yes", is_flag=True, help=N_("Record the proposal without asking."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the proposal as JSON (recorded only with --yes)."))
@click.pass_obj
def pair_cmd(state: CliState, tournament: str, rnd: int, seed: int | None, yes: bool, as_json: bool) -> None:
    t = _state(state, tournament)
    _ = state.tr.gettext
    if rnd != t.last_round + 1:
        _fail(
            state,
            _("round %(round)s cannot be paired next: the next is %(next)s") % {"round": rnd, "next": t.last_round + 1},
        )
    results = state.app().tournament_results(t)
    order = standings(t, results, rnd - 1).order() if rnd > 1 else None
    p = propose(t, rnd, order, seed)
    event = RoundPaired(
        round=rnd,
        tables=tuple(Table(table=n, entrants=(a, b), game_id=f"{tournament}-r{rnd}-t{n}") for n, a, b in p.tables),
        bye=p.bye,
        seed=p.seed,
    )
    if as_json:
        click.echo(json.dumps({"tournament_id": tournament, **msgspec_builtins(event)}, ensure_ascii=False))
    else:
        click.echo(
            _("proposed pairing of round %(round)s (%(movement)s):") % {"round": rnd, "movement": t.started.movement}
        )
        for tb in event.tables:
            click.echo(
                "  " + _("table %(table)s") % {"table": tb.table} + f": {tb.entrants[0]} v {tb.entrants[1]}"
                f"  ({tb.game_id})"
            )
        if event.bye:
            click.echo("  " + _("bye") + f": {event.bye}")
    if not yes and (as_json or not click.confirm(_("Record this round?"), default=False)):
        return
    _append(state, tournament, [event])
    if not as_json:
        click.echo(_("round %(round)s recorded") % {"round": rnd})


def msgspec_builtins(event: TournamentEvent) -> dict[str, Any]:
    import msgspec

    out: dict[str, Any] = msgspec.to_builtins(event)
    return out


@tournament_group.command(
    "close", help=N_("Close round R, sealed by the RFC 6962 root over its games (round_closed.checkpoint).")
)
@click.argument("tournament")
@click.option("--round", "rnd", type=click.IntRange(1, 1000), required=True, help=N_("The round to close."))
@click.pass_obj
def close_cmd(state: CliState, tournament: str, rnd: int) -> None:
    t = _state(state, tournament)
    _ = state.tr.gettext
    if rnd not in t.rounds:
        _fail(state, _("round %(round)s is not paired") % {"round": rnd})
    root = round_checkpoint(state.app(), t, rnd)
    after = _append(state, tournament, [RoundClosed(round=rnd, checkpoint=root)])
    click.echo(_("round %(round)s closed, checkpoint %(root)s") % {"round": rnd, "root": root[:16]})
    late = [f for f in check(after, state.app().tournament_results(after)) if f.rule == "TOUR-GAME-2"]
    for f in late:
        click.echo(f"{f.rule}: {f.text(state.tr)}", err=True)


@tournament_group.command(
    "standings", help=N_("The standings after a round (default: the last paired) or at a position.")
)
@click.argument("tournament")
@click.option("--after-round", type=click.IntRange(0, 1000), default=None, help=N_("After this round."))
@click.option("--at", "at", type=click.IntRange(0), default=None, help=N_("At this position of the tournament."))
@click.option("--json", "as_json", is_flag=True, help=N_("As JSON (TOURNAMENT.md)."))
@click.pass_obj
def standings_cmd(state: CliState, tournament: str, after_round: int | None, at: int | None, as_json: bool) -> None:
    t = _state(state, tournament, at)
    rounds = t.started.rounds or t.last_round  # the rounds planned, else those paired (TOURNAMENT.md)
    if after_round is not None and after_round > rounds:  # a later round is not clamped to the last (issue 25)
        _fail(
            state,
            state.tr.gettext("--after-round %(round)s: the tournament has %(rounds)s rounds")
            % {"round": after_round, "rounds": rounds},
        )
    s = standings(t, state.app().tournament_results(t), after_round)
    if as_json:
        click.echo(json.dumps(s.to_json(), ensure_ascii=False))
        return
    click.echo(render_standings(t, s, state.tr), nl=False)


@tournament_group.command(
    "report", help=N_("The rounds, tables and results, the standings and the findings. Exit 1 with findings.")
)
@click.argument("tournament")
@click.option("--json", "as_json", is_flag=True, help=N_("As JSON: standings and findings."))
@click.pass_obj
def report_cmd(state: CliState, tournament: str, as_json: bool) -> None:
    t = _state(state, tournament)
    results = state.app().tournament_results(t)
    found = check(t, results)
    s = standings(t, results)
    if as_json:
        doc = {"standings": s.to_json(), "findings": [f.to_json() for f in found]}
        click.echo(json.dumps(doc, ensure_ascii=False))
    else:
        _ = state.tr.gettext
        click.echo(
            f"{t.started.name} ({t.tournament_id}): {t.started.movement}, "
            + _("%(hands)s hands a match") % {"hands": t.started.hands_per_match}
        )
        for rnd in sorted(t.rounds):
            click.echo(render_round(t, rnd, results, state.tr), nl=False)
        click.echo(render_standings(t, s, state.tr), nl=False)
        click.echo(render_findings(found, state.tr), nl=False)
    sys.exit(1 if found else 0)


def audit_tournament(state: CliState, tid: str, as_json: bool) -> int:
    """``audit [--json] T`` of a stored tournament or a tournament record file: its
    TOUR-… findings (0 none, 1 some, 2 a file refused); a file's games are read from the store when there is one."""
    if Path(tid).is_file():
        try:
            with open(tid, "rb") as fh:
                t = parse_tournament(fh, tid).state
        except RecordError as exc:
            if as_json:
                click.echo(json.dumps({"error": exc.as_json()}, ensure_ascii=False))
            else:
                click.echo(error_line(exc, tid, state.tr), err=True)
            return 2
        try:
            results = state.app().tournament_results(t)
        except (StoreMissingError, OSError):
            results = {}
        tid = t.tournament_id
    else:
        t = _state(state, tid)
        results = state.app().tournament_results(t)
    found = check(t, results)
    if as_json:
        click.echo(json.dumps({"game_id": tid, "findings": [f.to_json() for f in found]}, ensure_ascii=False))
    else:
        n = len(found)
        click.echo(
            state.tr.ngettext("%(game)s: %(num)s finding", "%(game)s: %(num)s findings", n) % {"game": tid, "num": n}
        )
        for f in found:
            click.echo(
                "  " + state.tr.gettext("position %(at)s") % {"at": f.position} + f": {f.rule}: {f.text(state.tr)}"
            )
    return 1 if found else 0


def verify_targets(app: Any, ids: tuple[str, ...], as_json: bool, tr: Translator) -> tuple[list[str], list[str]]:
    """``verify ID…``: each tournament among ``ids`` followed by its games; its rounds' checkpoint
    problems printed (stderr in the language of ``tr``, or a JSON object each with ``--json``,
    its ``reason`` English) and returned."""
    named, problems = tournament_targets(app, ids)
    for p in problems:
        click.echo(json.dumps({"ok": False, "reason": p}) if as_json else render(p, tr), err=not as_json)
    return named, problems


def register(cli_group: click.Group) -> None:
    """Add the ``tournament`` group to the ``rummy-ledger`` group."""
    cli_group.add_command(tournament_group)


def before_ruling(app: Any, game: str) -> tuple[TournamentState, GameResult] | None:
    """The tournament that names ``game`` and the game's result before a ruling
    appended to it now (None for a game of no stored tournament)."""
    tstate = app.tournament_of_game(game)
    if tstate is None:
        return None
    return tstate, result_of(app.game_started(game), app.table_state(game))


def impact_lines(app: Any, game: str, before: tuple[TournamentState, GameResult] | None, tr: Any) -> list[str]:
    """``rule``'s lines on what the ruling did to the tournament (:mod:`ledger.tournament.impact`):
    totals, the round's VP, the places that changed, the band edges; none outside a tournament."""
    if before is None:
        return []
    tstate, old = before
    new = result_of(app.game_started(game), app.table_state(game))
    impact = ruling_impact(tstate, app.tournament_results(tstate), old, new)
    if impact is None:
        return []
    return [tr.gettext("in the tournament:")] + ["  " + m.text(tr) for m in impact.messages()]
