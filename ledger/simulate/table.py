"""The simulator's table: a record being written, checked event by event by THE fold.

A :class:`Table` holds the events written so far and the state after each
(:func:`ledger.replay.evolve`). A candidate move is *tried*: the fold applies
it, and the move is kept only when it is possible (no
:class:`~ledger.errors.RecordError`) and produces exactly the findings the
caller expects (none, for legal play). The simulator never decides a rule
itself: the fold is the only referee.

>>> from ledger.events import GameStarted, Player
>>> t = Table([GameStarted(game_id="g", variant="ramino",
...     players=(Player(seat=0, name="A"), Player(seat=1, name="B")))])
>>> t.state.phase, len(t)
('setup', 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.errors import RecordError
from ledger.events import Event
from ledger.replay import evolve
from ledger.state import TableState
from ledger.variants.base import Rules


class Table:
    """Events plus the state after each; supports :meth:`mark`/:meth:`rollback`.

    ``states[i]`` is the state at position ``i``; :attr:`state` the last one.
    """

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self.events: list[Event] = []
        self.states: list[TableState] = []
        for e in events:
            if not self.try_(e):
                raise RecordError("REC-FORMAT", f"the opening event {e.type} is not possible or not clean")

    def __len__(self) -> int:
        return len(self.events)

    @property
    def state(self) -> TableState:
        """The state after the last event."""
        return self.states[-1]

    @property
    def rules(self) -> Rules:
        """The variant's rules object."""
        return self.states[-1].rules

    def probe(self, event: Event) -> TableState | None:
        """The state after ``event`` (not kept), or None when the fold rejects it."""
        try:
            return evolve(self.states[-1] if self.states else None, event)
        except RecordError:
            return None

    def try_(self, event: Event, expect: Sequence[str] = ()) -> bool:
        """Apply ``event`` and keep it when its new findings' rule ids are
        exactly ``expect`` (in order); otherwise leave the table unchanged.

        Returns True when kept.
        """
        before = self.states[-1] if self.states else None
        try:
            after = evolve(before, event)
        except RecordError:
            return False
        n = len(before.findings) if before is not None else 0
        new = after.findings[n:]
        if len(new) != len(expect) or any(f.rule != r for f, r in zip(new, expect)):
            return False
        self.events.append(event)
        self.states.append(after)
        return True

    def mark(self) -> int:
        """A point to :meth:`rollback` to (the current length)."""
        return len(self.events)

    def rollback(self, mark: int) -> None:
        """Forget every event after ``mark``."""
        del self.events[mark:]
        del self.states[mark:]

    def findings_since(self, mark: int) -> list[tuple[int, str, int | None]]:
        """``(position, rule, seat)`` of every finding added after ``mark``."""
        n = len(self.states[mark - 1].findings) if mark > 0 else 0
        return [(f.position, f.rule, f.seat) for f in self.state.findings[n:]]
