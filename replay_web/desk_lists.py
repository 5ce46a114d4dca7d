"""The game page's desk lists of a whole game, kept with its replay and extended as it grows (issue 27).

The game page (:func:`replay_web.desk.context`) showed, up to the last
position it may show, the rulings by finding
(:func:`ledger.rulings.by_finding`), the moves rewound
(:func:`ledger.rulings.rewound_by`) and the time of each move
(:func:`replay_web.tempo.move_seconds`), each computed over every event of
the game on every request: 0.1 s for 100,000 events. :class:`DeskLists`
holds them for the whole game (:attr:`replay_web.cache.GameData.desk_lists`),
gives those of a prefix (:meth:`DeskLists.upto`: the same as computed over
the prefix, since each entry depends only on the events up to it) and is
extended by a live game's new events alone (:meth:`DeskLists.extended`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ledger.events import Event, PositionRestored
from ledger.rulings import RULING_EVENTS, Ruling, ruling_of
from ledger.state import Log
from replay_web.tempo import seconds_since, tempo_text


class DeskLists:
    """``index`` (finding position -> its rulings, record order), ``rewound``
    (position -> the first ``position_restored`` that rewound it) and
    ``tempo`` (per position the move's time text, a :class:`~ledger.state.Log`
    that a newer version's shares: appended in place) of ``length`` events."""

    def __init__(
        self,
        index: dict[int, tuple[Ruling, ...]],
        rewound: dict[int, int],
        tempo: Log[str],
        previous: datetime | None,
    ) -> None:
        self.index = index
        self.rewound = rewound
        self.tempo = tempo
        self._previous = previous

    @classmethod
    def of(cls, events: Sequence[Event]) -> DeskLists:
        """The lists of a whole game."""
        return cls({}, {}, Log(), None).extended(events)

    def extended(self, events: Sequence[Event]) -> DeskLists:
        """The lists of ``events``, the events these are of and then more (a
        record only grows): a new object; only the new events are read."""
        first = len(self.tempo)
        index, rewound = dict(self.index), dict(self.rewound)
        for pos in range(first, len(events)):
            e = events[pos]
            r = ruling_of(e, pos)
            if r is not None:
                index[r.finding] = (*index.get(r.finding, ()), r)
            if isinstance(e, PositionRestored):
                for p in range(e.target + 1, pos):
                    if events[p].type not in RULING_EVENTS:
                        rewound.setdefault(p, pos)
        seconds, previous = seconds_since(events[first:], self._previous)
        return DeskLists(index, rewound, self.tempo + [tempo_text(t) for t in seconds], previous)

    def upto(self, horizon: int) -> tuple[dict[int, tuple[Ruling, ...]], dict[int, int], Sequence[str]]:
        """``(index, rewound, tempo)`` of the events up to ``horizon``, as
        :func:`~ledger.rulings.by_finding`, :func:`~ledger.rulings.rewound_by`
        and the tempo texts give them over those events."""
        if horizon + 1 >= len(self.tempo):
            return self.index, self.rewound, self.tempo
        index = {}
        for finding, rulings in self.index.items():
            kept = tuple(r for r in rulings if r.position <= horizon)
            if kept:
                index[finding] = kept
        rewound = {p: by for p, by in self.rewound.items() if by <= horizon}
        return index, rewound, self.tempo[: horizon + 1]
