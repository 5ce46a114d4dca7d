"""A game's line of the games list, from the fold's final state (issue 27, "keep the games list off the fold").

What the viewer's games list shows of a game beyond its ``game_started``
and counts: the number of findings, whether the game is over, its result
and the first ``at`` of its events. The store keeps it per game and
version (:mod:`ledger.stored.summaries`), written by the paths that fold
the events to check them (append, import, bulk and streamed import), so
that listing games folds none. Pure: no I/O.

>>> UNREADABLE
ListSummary(findings=None, finished=True, result=None, first_at=None, standing=None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any

import msgspec

from ledger.events import Event, at_moment
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import TableState


class ListSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One game's line of the games list at one stored version.

    Attributes:
        findings: the number of findings (RULES.md ids) of the whole game;
            None when the record cannot be replayed.
        finished: the game is over (:func:`finished`).
        result: :func:`game_result` of a finished game, None while it is in play.
        first_at: the first ``at`` of its events (FORMAT.md "File"), None when none has one.
        standing: what a tournament's standings read of a game whose
            ``game_ended`` is stored, beside ``result``'s adjudicated totals
            (:func:`standing`): ``{"played": [totals as played], "hands": n}``;
            None for a game not ended, and in a line stored before it was kept.
    """

    findings: int | None
    finished: bool
    result: dict[str, Any] | None
    first_at: str | None
    standing: dict[str, Any] | None = None


#: the line of a record that cannot be replayed (listed, not counted)
UNREADABLE = ListSummary(findings=None, finished=True, result=None, first_at=None)


def finished(state: TableState) -> bool:
    """The game is over: ``game_ended`` stored, or the table state says so."""
    return bool(state.ended) or bool(getattr(state, "game_over", False))


def game_result(state: TableState, sheet: ScoreSheet | None = None) -> dict[str, Any]:
    """A finished game's result for the games list, from its score sheet as
    adjudicated (:func:`ledger.scoring.score_sheet`; the variant's
    ``winner``, RULES.md): ``{"winner": label or None (a tie, or no
    game_ended stored yet), "totals": [{"side": label, "points": n}] in side
    order, "reason": the game_ended reason or None}``; a label is the seat's
    name or ``team N (A & B)`` (:meth:`ledger.state.TableState.side_label`),
    English. As data for other languages: ``winner_side`` (the winning side's
    number or None) and each total's ``players`` (its seats' names, in seat
    order; :func:`ledger.render.side_name` names the side from them).
    ``sheet``: the game's adjudicated score sheet when the caller has it."""
    sheet = sheet if sheet is not None else score_sheet(state, adjudicated=True)
    labels = [state.side_label(s) for s in range(state.n_sides)]
    return {
        "winner": labels[sheet.winner] if sheet.winner is not None else None,
        "winner_side": sheet.winner,
        "totals": [
            {"side": labels[s], "points": t, "players": [state.name(p) for p in state.seats_of(s)]}
            for s, t in enumerate(sheet.totals)
        ],
        "reason": state.ended,
    }


def played_totals(state: TableState, sheet: ScoreSheet) -> tuple[int, ...]:
    """Each side's total as played (the referee's penalties left out): ``sheet``'s
    (the adjudicated one) when no penalty was given, else a sheet without them."""
    return tuple(score_sheet(state, adjudicated=False).totals) if state.penalties else tuple(sheet.totals)


def standing(state: TableState, sheet: ScoreSheet | None = None) -> dict[str, Any] | None:
    """A game's ``standing`` (:class:`ListSummary`): its totals as played
    (:func:`played_totals`) and its number of scored hands, once its
    ``game_ended`` is stored (:func:`ledger.tournament.results.result_of`
    reads the same of a fold); None before. ``sheet``: as for :func:`game_result`."""
    if state.ended is None:
        return None
    played = played_totals(state, sheet if sheet is not None else score_sheet(state, adjudicated=True))
    return {"played": list(played), "hands": len({r.hand for r in state.results})}


def first_at(events: Iterable[Event]) -> str | None:
    """The ``at`` of the first event that has one, else None."""
    return next((e.at for e in events if e.at), None)


#: an ISO calendar date as ``meta.date`` should hold it (FORMAT.md: ``YYYY-MM-DD``)
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def utc_day(at: str | datetime | None) -> date | None:
    """The UTC day of an ``at`` (a time with a zone is converted to UTC
    first; one without is taken as UTC, :func:`ledger.events.at_moment`), or
    None for no time or a text that is no ISO-8601 time.

    >>> utc_day("2026-11-29T23:30:00-02:00"), utc_day("2026-11-30T00:30:00+01:00"), utc_day("soon")
    (datetime.date(2026, 11, 30), datetime.date(2026, 11, 29), None)
    """
    if not at:
        return None
    if isinstance(at, str):
        try:
            at = at_moment(at)
        except ValueError:
            return None
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC).date()


def game_date(meta_date: str | None, first: str | datetime | None) -> date | None:
    """The date of a game, the one rule of the games list (viewer, ``/api/games``)
    and of the analytics' ``games.date``: ``meta.date`` when it is an ISO
    date (``YYYY-MM-DD``), else the UTC day of its first ``at`` (``first``:
    :func:`first_at`, or that time parsed), else None (the record names no date).

    >>> game_date("2026-11-29", "2026-12-01T10:00:00Z"), game_date("29/11/2026", "2026-12-01T23:00:00-05:00")
    (datetime.date(2026, 11, 29), datetime.date(2026, 12, 2))
    >>> game_date("2026-02-30", None), game_date(None, None)
    (None, None)
    """
    if meta_date and _ISO_DATE.fullmatch(meta_date):
        try:
            return date.fromisoformat(meta_date)
        except ValueError:  # 2026-02-30: not a day
            pass
    return utc_day(first)


def summarize(state: TableState, first: str | None) -> ListSummary:
    """The line of a game whose fold ended in ``state`` (after its last
    event), its first ``at`` being ``first`` (:func:`first_at`)."""
    over = finished(state)
    sheet = score_sheet(state, adjudicated=True) if over else None  # one sheet for the result and the standing
    return ListSummary(
        findings=len(state.findings),
        finished=over,
        result=game_result(state, sheet) if over else None,
        first_at=first,
        standing=standing(state, sheet),
    )
