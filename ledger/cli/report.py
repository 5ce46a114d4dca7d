"""``rummy-ledger report``: the printable dispute report of a game, as PDF or HTML.

``rummy-ledger report GAME|FILE [--at N] [--finding POS] [--lang it|en] -o
FILE.pdf|FILE.html``. The report is built and rendered by
:mod:`replay_web.report` (the same page as the viewer's
``/games/<id>/report``); a ``.pdf`` is that page printed by headless
Chromium (:mod:`replay_web.pdf`, needs the ``pdf`` extra: Playwright).

The language is ``--lang`` (the report's), else the CLI's own
(:class:`ledger.cli.context.CliState`: the global ``rummy-ledger --lang``,
else the locale variables as :func:`ledger.i18n.env_lang` reads them), so a
report is always in the language of the lines the CLI prints around it.
Errors (unknown game, bad position, no finding at POS, PDF tools missing)
are one line on stderr and exit status 2, as everywhere in the CLI. A
stored game's chain is checked first (:mod:`ledger.cli.trust`): when it does
not verify, the report carries a red banner naming the first broken position
instead of the seal, the CLI warns on stderr and exits 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ledger.cards import HAND_ORDERS
from ledger.cli.context import CliState, TranslatedCommand, load
from ledger.cli.trust import broken_chain, warn
from ledger.i18n import N_
from ledger.params import ASCII_INT


def _stored_seals(state: CliState, target: str, game_id: str) -> list[str | None] | None:
    """The stored seals of a stored game (read from the store, not
    recomputed); None for a record file (the report computes them)."""
    if Path(target).is_file():
        return None
    from ledger.sealing.tables import stored_seals

    return stored_seals(state.app(), game_id, strict=False)[1]


def _write(html: str, output: Path) -> None:
    """``html`` to ``output``: as is for ``.html``/``.htm``, printed by
    headless Chromium for ``.pdf``."""
    if output.suffix.lower() == ".pdf":
        from replay_web.pdf import html_to_pdf

        output.write_bytes(html_to_pdf(html))
    else:
        output.write_text(html, encoding="utf-8")


@click.command(
    "report",
    cls=TranslatedCommand,
    help=N_(
        "Write the dispute report of a game (stored id or record file): the game, the table at the "
        "position in dispute, the moves around it, the findings with their rules, the rulings, the "
        "score sheet (claimed against computed), the seal and lines for the signatures."
    ),
)
@click.argument("game")
@click.option(
    "--at",
    "at",
    type=ASCII_INT,
    default=None,
    metavar="N",
    help=N_("The position in dispute (default: --finding's, else the first finding's, else the last)."),
)
@click.option(
    "--finding",
    type=ASCII_INT,
    default=None,
    metavar="POS",
    help=N_("Position of the finding in dispute (highlighted)."),
)
@click.option(
    "--lang",
    type=click.Choice(["it", "en"]),
    default=None,
    help=N_("Language of the report (default: the global --lang, else the locale variables; else en)."),
)
@click.option(
    "--order",
    type=click.Choice(HAND_ORDERS),
    default="suit",
    show_default=True,
    help=N_("The hands by suit and rank (as the viewer and show --at) or as dealt."),
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help=N_("FILE.pdf (headless Chromium) or FILE.html (printable page)."),
)
@click.pass_obj
def report_cmd(
    state: CliState, game: str, at: int | None, finding: int | None, lang: str | None, order: str, output: Path
) -> None:
    if output.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise click.BadParameter(
            state.tr.gettext("%(path)s: the report is written as .pdf or .html") % {"path": output}, param_hint="-o"
        )
    from replay_web.report import render_html
    from replay_web.report_data import ReportError, build_report

    language = lang or state.lang
    game_id, events = load(state, game)
    seals = _stored_seals(state, game, game_id)
    broken = broken_chain(state, game, len(events))  # checked before the seal is printed
    try:
        data = build_report(
            events,
            at=at,
            finding=finding,
            lang=language,
            seals=seals,
            broken=None if broken is None else {"position": broken.position, "message": broken.message},
            order=order,
        )
    except ReportError as exc:
        raise click.BadParameter(
            exc.text(state.tr), param_hint="--finding" if "finding" in str(exc) else "--at"
        ) from None
    if not Path(game).is_file():  # a stored game: what its rulings did to its tournament, as the viewer's report
        from replay_web.report_data import tournament_impact

        data["tournament"] = tournament_impact(state.app(), events, language)
    _write(render_html(data), output)
    _ = state.tr.gettext if hasattr(state, "tr") else str
    click.echo(
        _("wrote the report of %(game)s at position %(at)s (%(lang)s) to %(path)s")
        % {"game": game_id, "at": data["at"], "lang": language, "path": output},
        err=True,
    )
    if broken is not None:
        warn(broken, state.tr)
        sys.exit(1)


def register(cli_group: click.Group) -> None:
    """Add ``report`` to the ``rummy-ledger`` group."""
    cli_group.add_command(report_cmd)


__all__ = ["register"]
