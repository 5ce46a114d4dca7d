"""``rummy-ledger simulate``: complete games played by simple heuristic
players (:mod:`ledger.simulate`), written as record files with the full deal
and stock order, optionally with injected rule violations.
"""

from __future__ import annotations

from pathlib import Path

import click

from ledger.cli.context import TranslatedCommand, paragraphs, tr_of
from ledger.i18n import N_
from ledger.params import ASCII_INT, AsciiInt, VariantChoice


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
@click.option("--variant", required=True, type=VariantChoice(simulated=True), help=N_("Variant to play."))
@click.option("--ruleset", default=None, help=N_("Preset (default: the variant's)."))
@click.option("--players", type=AsciiInt(2, 6), default=2, show_default=True, help=N_("Seats at the table."))
@click.option("--games", type=AsciiInt(min=1), required=True, help=N_("How many complete games to write."))
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
    "--knowledge",
    default="full",
    show_default=True,
    metavar="full|scorer|seat:N",
    help=N_("Write each game as a partial record: what the scorer (face up only) or seat N saw."),
)
def simulate_cmd(
    variant: str, ruleset: str | None, players: int, games: int, seed: int, out: Path, violations: float, knowledge: str
) -> None:
    from ledger.simulate import simulate_main
    from ledger.variants import find_variant

    _ = tr_of().gettext
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


def register(cli_group: click.Group) -> None:
    """Add ``simulate`` to the ``rummy-ledger`` group."""
    cli_group.add_command(simulate_cmd)
