"""A seal is printed only after the stored chain is checked (issue 26, README "Seals").

``score``, ``audit --json``, ``show --at`` and ``report`` print a stored
game's seal; each first asks :func:`broken_chain`, which checks that game's
stored chain with ``verify``'s code (:func:`ledger.sealing.chain_check.chain_check`,
read-only, once per game version). When it does not verify the command says
so on stderr (:func:`warn`: the first broken position and what differs),
prints :func:`not_valid` where the seal would stand, and exits 1. A record
file's seal is computed from its own lines: nothing to check.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ledger.i18n import N_
from ledger.sealing.verify_rows import GameCheck
from ledger.texts import Translator
from ledger.texts import render as render_text

#: the warning on stderr
BROKEN = N_(
    "the stored chain of %(game)s does not verify from position %(position)s (%(why)s): "
    "its seal is not valid; rummy-ledger verify %(game)s says more"
)
#: where the seal would be printed
NOT_VALID = N_("NOT VALID: the stored chain is broken at position %(position)s")


def broken_chain(state: Any, target: str, length: int) -> GameCheck | None:
    """The failed check of a stored game's chain, or None when it verifies
    (or ``target`` is a record file). ``length``: the events loaded."""
    if Path(target).is_file():
        return None
    from ledger.sealing.chain_check import chain_check

    check = chain_check(state.app(), target, length)
    return None if check.ok else check


def _position(check: GameCheck) -> str:
    return "?" if check.position is None else str(check.position)


def warn(check: GameCheck, tr: Any) -> None:
    """The loud line on stderr: ``rummy-ledger: warning: the stored chain of …``."""
    text = tr.gettext(BROKEN) % {
        "game": check.game_id,
        "position": _position(check),
        "why": render_text(check.message, tr),
    }
    click.echo(tr.gettext("rummy-ledger: warning: %(message)s") % {"message": text}, err=True)


def not_valid(check: GameCheck, tr: Translator) -> str:
    """What stands where the seal would: ``NOT VALID: … position N``."""
    return tr.gettext(NOT_VALID) % {"position": _position(check)}


def refuse_broken(state: Any, game_id: str, length: int, tr: Any) -> None:
    """For ``seal GAME``: when the stored chain does not verify, the warning
    (:func:`warn`) instead of the seal, and exit 1."""
    broken = broken_chain(state, game_id, length)
    if broken is not None:
        warn(broken, tr)
        sys.exit(1)


__all__ = ["BROKEN", "NOT_VALID", "broken_chain", "not_valid", "refuse_broken", "warn"]
