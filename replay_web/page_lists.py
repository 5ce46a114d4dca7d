"""The game page's two long lists, one page of each: the move list and the
findings (:mod:`replay_web.paging`; issue 27, defect 4). Used by
:func:`replay_web.games.game_page`."""

from __future__ import annotations

from typing import Any

from flask import request, url_for

from ledger.redaction import Pov
from ledger.state import TableState
from replay_web import paging
from replay_web.cache import GameData
from replay_web.lang import current_lang
from replay_web.words import move_words

#: the query arguments of the two pagers, kept by every pager link
PAGE_ARGS = ("moves_page", "moves_size", "findings_page", "findings_size")


def paged_lists(
    full: GameData,
    state: TableState,
    pov: Pov,
    horizon: int,
    at: int,
    findings: list[Any],
    rules_at: dict[int, list[str]],
    here: dict[str, Any],
) -> dict[str, Any]:
    """The page's move list and findings, one page of each
    (:func:`replay_web.paging.html_window`: the moves' page holding ``at``
    by default): ``moves`` (the rows of positions ``moves_window.start`` …),
    ``findings`` (that page's), ``findings_total``, the two windows and
    their pagers (``moves_pager``, ``findings_pager``: None for one page).
    Only the rows shown are written (issue 27, defect 4: a 100,000-event game
    made a 26 MB page)."""
    win = paging.html_window(request.args, "moves", horizon + 1, paging.MOVES, holding=at)
    fwin = paging.html_window(request.args, "findings", len(findings), paging.FINDINGS)
    keep = {k: request.args[k] for k in PAGE_ARGS if k in request.args}
    moves = []
    english_whole = pov is None and current_lang() == "en"  # the cached English notation serves it
    names = full.final if pov is None else state
    for i in range(win.start, win.stop):
        event = full.events[i]
        moves.append(
            {
                "pos": i,
                "text": full.moves[i] if english_whole else move_words(event, names, pov),
                "rules": rules_at.get(i, []),
                "deal": event.type == "hand_dealt",
                "note": event.note if pov is None else None,
            }
        )

    def url(**page: Any) -> str:
        return url_for("games.game_page", **{**here, **keep, **page})

    return {
        "moves": moves,
        "moves_window": win,
        "moves_pager": paging.pager(win, "moves", url),
        "findings": findings[fwin.start : fwin.stop],
        "findings_total": len(findings),
        "findings_pager": paging.pager(fwin, "findings", url),
    }
