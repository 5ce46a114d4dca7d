"""One game's analytics rows built event by event (issue 17; pure: no DuckDB, no store).

:class:`GameRowsBuilder` gives the rows of :func:`ledger.projections.rows.game_rows`
for a game too long to hold: it keeps the current state only, hands out the
``events`` and ``melds`` rows as it goes (:meth:`~GameRowsBuilder.take`),
and gives the rest (:meth:`~GameRowsBuilder.finish`) with the ``undone``
ranges, which only later events decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ledger.events import Event, GameStarted, Player, PositionRestored
from ledger.projections.rows import (
    REPLAY_ERRORS,
    HandSpan,
    Rows,
    empty_rows,
    event_row,
    game_row,
    hand_rows,
    meld_row,
    outcome_rows,
)
from ledger.replay import evolve
from ledger.state import TableState
from ledger.variants.presentation import presentation


class GameRowsBuilder:
    """One game's rows (those of :func:`game_rows`), built one event at a time.

    :meth:`add` each ``(event, canonical JSON)`` in position order; :meth:`take`
    at any time returns the ``events`` and ``melds`` rows made since the last
    take (``events.undone`` still false); :meth:`finish` returns the
    ``games``, ``players``, ``hands``, ``scores`` and ``findings`` rows and
    the ``(first, last)`` position ranges (inclusive, disjoint, ascending)
    whose ``events.undone`` is true; it may be called again after more
    events (the rows of the game so far, each time). Memory: the current state, the previous
    one, one short tuple per hand and the rows not yet taken. When the fold
    rejects the game (:attr:`error` set) the ``melds`` rows already taken do
    not belong to the game (:func:`game_rows` gives none). ``add`` raises
    ``ValueError`` when position 0 is not ``game_started``.
    """

    def __init__(self, stream: str) -> None:
        self.stream = stream
        self.first: GameStarted | None = None
        self.game = ""
        #: events added (the next position)
        self.count = 0
        #: why the fold stopped (``"Type: message"``), or None
        self.error: str | None = None
        self.started_at: datetime | None = None
        self._state: TableState | None = None  # after the last event (None once the fold failed)
        self._before: TableState | None = None  # after the one before it
        self._last_type: str | None = None
        self._ranges: list[tuple[int, int]] = []
        self._hand: list[Any] | None = None  # the open hand: [hand, dealer, first position, restored]
        self._hands: list[HandSpan] = []  # closed hands, without the columns the final state gives
        self._events: list[tuple[object, ...]] = []
        self._melds: list[tuple[object, ...]] = []

    def add(self, e: Event, raw: str) -> None:
        """Fold one more event and make its ``events`` row (see the class)."""
        pos = self.count
        if pos == 0:
            if not isinstance(e, GameStarted):
                raise ValueError(f"stream {self.stream}: the first event is not game_started")
            self.first, self.game = e, e.game_id
        if e.type == "hand_dealt" and self._hand is not None and self.error is None:
            self._close_hand(pos - 1)
        state = None
        if self.error is None:
            try:
                state = evolve(self._state, e)
            except REPLAY_ERRORS as exc:
                self.error = f"{type(exc).__name__}: {exc}"
        self._before, self._state = self._state, state
        if state is not None:
            if e.type == "hand_dealt":
                self._hand = [state.hand, state.dealer, pos, 0]
            elif e.type == "position_restored" and self._hand is not None:
                self._hand[3] += 1
        if isinstance(e, PositionRestored) and e.target + 1 < pos:
            self._ranges.append((e.target + 1, pos - 1))
        row = event_row(self.game, pos, e, raw, state, undone=False)
        self.started_at = self.started_at or row[7]
        self._events.append(row)
        self._last_type = e.type
        self.count = pos + 1

    def _close_hand(self, last_pos: int) -> None:
        """Close the open hand at ``last_pos`` (the event before the next deal)."""
        row, melds = self._hand_end(last_pos)
        self._hands.append(row)
        self._melds += melds
        self._hand = None

    def _hand_end(self, last_pos: int) -> tuple[HandSpan, list[tuple[object, ...]]]:
        """The open hand ended at ``last_pos``: its row without the columns
        the final state gives (a :data:`~ledger.projections.rows.HandSpan`), and its ``melds`` rows."""
        hand, dealer, first_pos, restored = self._hand  # type: ignore[misc]  # called with a hand open
        end = self._state
        if last_pos > first_pos and self._last_type == "game_ended":
            last_pos, end = last_pos - 1, self._before
        assert end is not None  # the fold got here (no error)
        label = presentation(end.rules).meld_extras if end.rules is not None else None
        return (
            (hand, dealer, first_pos, last_pos, restored, sum(end.turns), end.stock_count),
            [meld_row(self.game, hand, m, label) for m in end.melds],
        )

    @property
    def hands(self) -> int:
        """Hands dealt so far."""
        return len(self._hands) + (self._hand is not None)

    @property
    def open_hand(self) -> int | None:
        """The number of the hand in play (its ``melds`` rows come with :meth:`finish`), or None."""
        return self._hand[0] if self._hand is not None and self.error is None else None

    def take(self) -> Rows:
        """The ``events`` and ``melds`` rows made since the last take."""
        rows = empty_rows()
        rows["events"], rows["melds"] = self._events, self._melds
        self._events, self._melds = [], []
        return rows

    def finish(self) -> tuple[Rows, list[tuple[int, int]]]:
        """The game's other rows and its undone ranges (see the class), as
        the game stands (more events may be added after): the ``events`` and
        ``melds`` rows not taken yet are in the rows too, and the ``melds``
        rows of the hand in play (:attr:`open_hand`), which are not taken."""
        first = self.first
        if first is None:
            raise ValueError(f"stream {self.stream}: no events")
        final = self._state if self.error is None else None
        rows = self.take()
        hands = self._hands
        if final is not None and self._hand is not None:
            row, melds = self._hand_end(self.count - 1)
            hands, rows["melds"] = [*hands, row], rows["melds"] + melds
        game, players = self.game, sorted(first.players, key=lambda p: p.seat)
        sides = final.sides if final is not None else tuple(p.seat for p in players)
        for p in players:
            rows["players"].append((game, p.seat, p.name, p.team, sides[p.seat] if p.seat < len(sides) else None))
        if final is None:
            rows["melds"] = []
            rows["games"].append(game_row(first, self.stream, players, self.started_at, self.count, error=self.error))
            return rows, _merged(self._ranges)
        _final_rows(self.stream, first, players, self.started_at, self.count, final, hands, rows)
        return rows, _merged(self._ranges)


def _final_rows(
    stream: str,
    first: GameStarted,
    players: Sequence[Player],
    started_at: datetime | None,
    n_events: int,
    final: TableState,
    hands: Sequence[HandSpan],
    rows: Rows,
) -> None:
    """Add the ``games``, ``findings``, ``scores`` rows
    (:func:`ledger.projections.rows.outcome_rows`) and the ``hands`` rows of a
    game the fold got through to ``rows`` (``hands``: the builder's hand
    tuples; the final state gives their result and findings columns)."""
    findings = outcome_rows(first, stream, players, started_at, n_events, final, rows)
    rows["hands"] = hand_rows(first.game_id, final, hands, findings)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Inclusive ranges as disjoint ones, ascending (overlapping or adjacent ones joined).

    >>> _merged([(5, 7), (1, 2), (3, 3), (6, 9)])
    [(1, 3), (5, 9)]
    """
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out
