"""``seal-backfill``: seal, when asked, the events of a store written before the seal chain (README "Seals").

No read or ``verify`` ever seals an event (issue 27: two SQL statements and
a ``verify`` laundered any edit). An old store's events get their seals from
this command alone: it names every game it seals and how many events, gives
each event a journal row ``backfill:<os user>`` at the time of sealing (the
entry that shows it happened, which ``show`` and the viewer print), and
refuses a store whose journal holds any row or which was sealed once already
(:func:`ledger.sealing.backfill.backfill`). Exit 0 sealed (or nothing to
seal), 1 refused.
"""

from __future__ import annotations

import sys

import click

from ledger.cli.context import TranslatedCommand, tr_of
from ledger.i18n import N_
from ledger.sealing.backfill import BackfillRefused, backfill
from ledger.store.journal import os_user, received_now

#: the refusals of :class:`BackfillRefused`, by kind
REFUSALS = {
    "sealed": N_(
        "refused: this store's events were sealed once already (%(when)s); an event without a seal now was "
        "written into the database directly, and rummy-ledger verify names it"
    ),
    "journal": N_(
        "refused: the journal holds %(num)s rows, so this store's events were stored by a version that seals "
        "them; an event without a seal here was written into the database directly (rummy-ledger verify names "
        "it), and sealing it would hide that. To keep such games, export them and import them into a new store"
    ),
}


@click.command(
    "seal-backfill",
    cls=TranslatedCommand,
    help=N_(
        "Seal the events of a store written before the seal chain existed: every event gets its seal, "
        "computed from its stored bytes, and a journal row naming backfill:<os user> at this time. Refused "
        "where the journal holds any row or the store was sealed before: there an event without a seal was "
        "written into the database directly. No other command ever seals a stored event."
    ),
)
@click.pass_context
def seal_backfill_cmd(ctx: click.Context) -> None:
    tr = tr_of(ctx)
    app = ctx.obj.app()
    by, now = f"backfill:{os_user()}", received_now()
    try:
        sealed = backfill(app, by, now)
    except BackfillRefused as exc:
        click.echo(tr.gettext(REFUSALS[exc.kind]) % exc.params, err=True)
        sys.exit(1)
    for game, n in sealed:
        click.echo(
            tr.ngettext("sealed %(game)s: %(num)s event", "sealed %(game)s: %(num)s events", n)
            % {"game": game, "num": n}
        )
    events = sum(n for _k, n in sealed)
    click.echo(
        tr.ngettext(
            "sealed %(num)s event of %(games)s games stored before the seal chain, journal entry %(by)s at %(at)s; "
            "rummy-ledger verify checks them",
            "sealed %(num)s events of %(games)s games stored before the seal chain, journal entry %(by)s at "
            "%(at)s; rummy-ledger verify checks them",
            events,
        )
        % {"num": events, "games": len(sealed), "by": by, "at": now}
    )


def register(cli_group: click.Group) -> None:
    """Add ``seal-backfill``."""
    cli_group.add_command(seal_backfill_cmd)


__all__ = ["register"]
