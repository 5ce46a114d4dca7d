"""Turn times, where events carry ``at`` (FORMAT.md "Events"): each seat's longest turns
(FIBur art. 15, time-outs) for the dispute report, and the time per move for the report's
and the desk's move lists. Pure: events in, numbers and short text out.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ledger.events import Event, at_moment
from ledger.state import TableState


def _when(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return at_moment(value)
    except ValueError:
        return None


def longest_turns(events: Sequence[Event], state: TableState, top: int = 3) -> list[dict[str, Any]]:
    """Each seat's longest turns where events carry ``at`` (FIBur's time-outs):
    a turn is a run of consecutive events by one seat; its time runs from the
    last timed event before it to its last timed event. Returns ``[{seat,
    name, turns: [{start, end, seconds}]}]`` (longest first, at most ``top``
    per seat; seats with no timed turn are left out).

    >>> from ledger.events import CardDrawn, CardDiscarded, GameStarted, Player
    >>> evs = [GameStarted(game_id="g", variant="gin", players=(Player(seat=0, name="A"), Player(seat=1, name="B")),
    ...                    at="2026-11-29T20:00:00Z"),
    ...        CardDrawn(seat=0, card="7H", at="2026-11-29T20:00:20Z"),
    ...        CardDiscarded(seat=0, card="7H", at="2026-11-29T20:01:05Z"),
    ...        CardDrawn(seat=1, card="8H", at="2026-11-29T20:01:15Z"),
    ...        CardDiscarded(seat=1, card="8H", at="2026-11-29T20:01:20Z")]
    >>> from ledger.replay import replay
    >>> [(r["name"], r["turns"]) for r in longest_turns(evs, replay(evs[:1]))]
    [('A', [{'start': 1, 'end': 2, 'seconds': 65}]), ('B', [{'start': 3, 'end': 4, 'seconds': 15}])]
    """
    runs: dict[int, list[dict[str, Any]]] = {}
    previous: datetime | None = None
    run_seat: int | None = None
    run_start = run_end = -1
    run_from: datetime | None = None
    run_last: datetime | None = None

    def close() -> None:
        if run_seat is not None and run_from is not None and run_last is not None and run_last >= run_from:
            runs.setdefault(run_seat, []).append(
                {"start": run_start, "end": run_end, "seconds": int((run_last - run_from).total_seconds())}
            )

    for pos, e in enumerate(events):
        seat = getattr(e, "seat", None) if e.type not in ("hand_ended", "penalty_assessed") else None
        when = _when(e.at)
        if seat is None or seat != run_seat:
            close()
            run_seat, run_start, run_from, run_last = seat, pos, previous, None
        if seat is not None:
            run_end = pos
            if when is not None:
                run_last = when
        if when is not None:
            previous = when
    close()
    out = []
    for seat in sorted(runs):
        turns = sorted(runs[seat], key=lambda t: (-t["seconds"], t["start"]))[:top]
        out.append({"seat": seat, "name": state.name(seat), "turns": turns})
    return out


def move_seconds(events: Sequence[Event]) -> list[int | None]:
    """Per position, the seconds since the previous event that carries
    ``at`` (FORMAT.md "Events": ``at``, ISO 8601), or None where this event
    or every one before it has no time.

    >>> from ledger.events import CardDrawn
    >>> move_seconds([CardDrawn(seat=0, card="7H", at="2026-11-29T20:00:00Z"), CardDrawn(seat=1, card="8H"),
    ...               CardDrawn(seat=0, card="9H", at="2026-11-29T20:00:12Z")])
    [None, None, 12]
    """
    return seconds_since(events)[0]


def seconds_since(
    events: Sequence[Event], previous: datetime | None = None
) -> tuple[list[int | None], datetime | None]:
    """:func:`move_seconds` of ``events`` that follow an event timed
    ``previous`` (None: no earlier timed event), and the time of the last
    timed event then (a live game's new events: :mod:`replay_web.desk_lists`)."""
    out: list[int | None] = []
    for e in events:
        when = _when(e.at)
        out.append(int((when - previous).total_seconds()) if when is not None and previous is not None else None)
        if when is not None:
            previous = when
    return out, previous


def tempo_text(seconds: int | None) -> str:
    """A move's time as the move list shows it: ``+12 s``, ``+1:05`` from a minute on, ``""`` without one.

    >>> tempo_text(12), tempo_text(65), tempo_text(None)
    ('+12 s', '+1:05', '')
    """
    if seconds is None:
        return ""
    return f"+{seconds} s" if seconds < 60 else f"+{duration(seconds)}"


def duration(seconds: int) -> str:
    """``1:05`` (minutes:seconds), ``1:02:03`` past an hour.

    >>> duration(65), duration(3723)
    ('1:05', '1:02:03')
    """
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
