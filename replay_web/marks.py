"""The ends and knocks of a hand's line of play, kept state by state for
the live stream (:class:`replay_web.stream.Feed`), so that deciding whether
a spectator may see a waiting finding costs one step per event
(:func:`ledger.redaction.finding_visible`; RULES.md BUR-PILE-1 is one that
waits for the end of its hand)."""

from __future__ import annotations

from ledger.redaction import SPECTATOR, Sight
from ledger.state import TableState

_OVER = ("over", "ended")


class Marks:
    """The ends and knocks of each state's line of play, one step per state.

    :func:`ledger.redaction.finding_visible` reads only these two fields of a
    spectator's :class:`~ledger.redaction.Sight` (``ends``: positions where
    the hand ended, ``knocks``: positions of a knock, in the line of play
    that leads to the state). :func:`~ledger.redaction.sight` finds them by
    walking the hand from its deal, one step per position so far: once per
    event that made a stream of a long hand quadratic (a finding waiting for
    the end of its hand, such as BUR-PILE-1, asks at every event). Here the
    marks of each state are kept, so a new state costs one step from its
    ``history`` (the previous state, or a rewind's target), as in ``sight``.
    """

    def __init__(self) -> None:
        #: id(state) -> (state, ends, knocks); the state is held so its id stays its own
        self._known: dict[int, tuple[TableState, tuple[int, ...], tuple[int, ...]]] = {}
        self.steps = 0  # states walked so far (one per new state when they come in order)

    def _get(self, state: TableState) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        entry = self._known.get(id(state))
        return None if entry is None or entry[0] is not state else (entry[1], entry[2])

    def of(self, state: TableState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(ends, knocks)`` of ``state``'s line of play, as ``sight(state, pov).ends/.knocks``."""
        walk: list[TableState] = []
        cur: TableState | None = state
        marks = None
        while cur is not None:
            marks = self._get(cur)
            if marks is not None:
                break
            walk.append(cur)
            cur = cur.history
        if cur is None:  # nothing known of this line (a new hand): what is known belongs to hands gone by
            self._known.clear()
            marks = ((), ())
        assert marks is not None
        ends, knocks = marks
        n = state.n_seats
        for s in reversed(walk):
            self.steps += 1
            prev = s.history
            if prev is None:
                ends, knocks = (), ()
            else:
                knocker = getattr(s.extra, "knocker", None)
                if knocker is not None and getattr(prev.extra, "knocker", None) is None and 0 <= knocker < n:
                    knocks = knocks + (s.position,)
                if s.phase in _OVER and prev.phase not in _OVER:
                    ends = ends + (s.position,)
            self._known[id(s)] = (s, ends, knocks)
        return ends, knocks

    def sight(self, state: TableState) -> Sight:
        """A spectator's :class:`~ledger.redaction.Sight` at ``state`` with the
        fields :func:`~ledger.redaction.finding_visible` reads (``ends``,
        ``knocks``); the others (seen cards, face-down discards) stay empty."""
        ends, knocks = self.of(state)
        return Sight(SPECTATOR, state.position, ends=ends, knocks=knocks)
