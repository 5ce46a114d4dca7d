"""``rummy-ledger simulate``: complete games played by simple heuristic
players (:mod:`ledger.simulate`), written as record files with the full deal
and stock order, optionally with injected rule violations.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ledger.cli.context import TranslatedCommand, paragraphs, tr_of
from ledger.i18n import N_
from ledger.params import ASCII_INT, AsciiInt, VariantChoice


class _UnlessTournament(click.Option):
    """A required option that ``--tournament`` makes optional (a tournament is Burraco, its games its own)."""

    def handle_parse_result(self, ctx: click.Context, opts: Any, args: list[str]) -> Any:
        required = self.required
        try:
            self.required = required and opts.get("tournament") is None
            return super().handle_parse_result(ctx, opts, args)
        finally:
            self.required = required


@click.command(
    "simulate",
    cls=TranslatedCommand,
    help=paragraphs(
        N_("Write simulated complete games played by simple heuristic players."),
        N_(
            "Every record has the full deal and stock order; with --violations the injected rule ids "
            "and positions are written beside each record."
        ),
    ),
)
@click.option(
    "--variant", cls=_UnlessTournament, required=True, type=VariantChoice(simulated=True), help=N_("Variant to play.")
)
@click.option("--ruleset", default=None, help=N_("Preset (default: the variant's)."))
@click.option("--players", type=AsciiInt(2, 6), default=2, show_default=True, help=N_("Seats at the table."))
@click.option(
    "--games", cls=_UnlessTournament, type=AsciiInt(min=1), required=True, help=N_("How many complete games to write.")
)
@click.option("--seed", type=ASCII_INT, required=True, help=N_("Random seed: the same seed writes the same games."))
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), required=True, help=N_("Folder for the .jsonl records.")
)
@click.option(
    "--violations",
    type=click.FloatRange(0.0, 1.0),
    default=0.0,
    show_default=True,
    help=N_("Per-turn rate of injected rule violations (written beside each record as NAME.injected.json)."),
)
@click.option(
    "--tournament",
    default=None,
    metavar="ID",
    help=N_(
        "Write a whole Burraco tournament of pairs instead: its record ID.jsonl and every game of it "
        "(TOURNAMENT.md), a folder that import takes."
    ),
)
@click.option("--entrants", type=AsciiInt(2, 200), default=12, show_default=True, help=N_("Tournament: pairs."))
@click.option("--rounds", type=AsciiInt(1, 50), default=4, show_default=True, help=N_("Tournament: rounds."))
@click.option(
    "--movement",
    type=click.Choice(("mitchell", "danese", "danese_modificato", "italiana", "swiss")),
    default="danese_modificato",
    show_default=True,
    help=N_("Tournament: the movement."),
)
@click.option("--hands", type=AsciiInt(1, 20), default=4, show_default=True, help=N_("Tournament: hands a match."))
@click.option(
    "--knowledge",
    default="full",
    show_default=True,
    metavar="full|scorer|seat:N",
    help=N_("Write each game as a partial record: what the scorer (face up only) or seat N saw."),
)
def simulate_cmd(
    variant: str | None,
    ruleset: str | None,
    players: int,
    games: int | None,
    seed: int,
    out: Path,
    violations: float,
    knowledge: str,
    **tour: object,
) -> None:
    from ledger.simulate import simulate_main
    from ledger.variants import find_variant

    _ = tr_of().gettext
    if tour["tournament"] is not None:
        _simulate_tournament(seed, out, tour)
        return
    assert variant is not None and games is not None  # required unless --tournament (_UnlessTournament)
    rules = find_variant(variant)
    if ruleset is not None and ruleset not in rules.presets:
        raise click.BadParameter(
            _("%(ruleset)s is not a %(variant)s preset (known: %(known)s)")
            % {"ruleset": repr(ruleset), "variant": variant, "known": ", ".join(sorted(rules.presets))},
            param_hint="--ruleset",
        )
    if players not in rules.players_allowed:
        allowed = ", ".join(str(n) for n in rules.players_allowed)
        raise click.BadParameter(
            _("%(variant)s is played by %(allowed)s players") % {"variant": variant, "allowed": allowed},
            param_hint="--players",
        )
    if knowledge != "full":
        from ledger.partial import parse_viewer

        viewer = parse_viewer(knowledge)
        if viewer is not None and viewer >= players:
            raise click.BadParameter(_("no seat %(seat)s at this table") % {"seat": viewer}, param_hint="--knowledge")
    paths = simulate_main(variant, ruleset, players, games, seed, out, violations, knowledge=knowledge)
    click.echo(
        tr_of().ngettext("%(num)s game written to %(out)s", "%(num)s games written to %(out)s", len(paths))
        % {"num": len(paths), "out": out}
    )


def _simulate_tournament(seed: int, out: Path, tour: dict[str, object]) -> None:
    from ledger.simulate.tournament import simulate_tournament, write_tournament

    events, games = simulate_tournament(
        str(tour["tournament"]),
        int(tour["entrants"]),  # type: ignore[call-overload]  # click gives ints
        int(tour["rounds"]),  # type: ignore[call-overload]
        str(tour["movement"]),
        int(tour["hands"]),  # type: ignore[call-overload]
        seed,
    )
    write_tournament(out, events, games)
    click.echo(
        tr_of().gettext("tournament %(tournament)s and its %(num)s games written to %(out)s")
        % {"tournament": tour["tournament"], "num": len(games), "out": out}
    )


def register(cli_group: click.Group) -> None:
    """Add ``simulate`` to the ``rummy-ledger`` group."""
    cli_group.add_command(simulate_cmd)
