"""How a page lays out the hands: the ``order`` query argument, read and kept
by the links (:mod:`replay_web.games`, the desk's redirects, the report).
"""

from __future__ import annotations

from typing import Any

from flask import abort

from replay_web.lang import gettext as _
from replay_web.present import ORDERS


def hand_order(args: Any) -> str:
    """``order``: how hands are laid out, ``suit`` (the default: by suit and
    rank, :func:`replay_web.present.sorted_hand`) or ``dealt`` (the record's
    order); anything else is a 400 naming both."""
    raw = (args.get("order") or "suit").strip().lower()
    if raw not in ORDERS:
        abort(
            400,
            description=_(
                "order=%(value)s: order=suit (by suit and rank, the default) or order=dealt (as dealt and drawn)",
                value=repr(args.get("order")),
            ),
        )
    return raw


def order_args(order: str) -> dict[str, str]:
    """The ``order`` query argument every link of the page keeps, and the
    redirect after a ruling (:mod:`replay_web.desk`): ``{"order": "dealt"}``,
    ``{}`` for the default ``suit``."""
    return {} if order == ORDERS[0] else {"order": order}
