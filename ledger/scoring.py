"""Score sheets: per hand, per side, with the breakdown; running totals; the winner.

The points come from the fold: each variant scores a hand when the fold
applies ``hand_ended`` (``Rules.score_hand``), *as played*. The sheet adds
the referee's ``penalty_assessed`` points to give the *adjudicated* view
(``position_restored`` always applies: later events continue from the
restored table). FORMAT.md, "Machine-readable outputs", fixes the JSON shape.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import msgspec

from ledger.events import Event
from ledger.replay import replay
from ledger.state import TableState


class SheetLine(msgspec.Struct, frozen=True):
    """One side's points in one hand: ``points`` is adjudicated when the sheet is."""

    side: int
    points: int
    breakdown: dict[str, int]
    claimed: int | None = None
    #: partial records: the points are the claimed ones (FORMAT.md, "Partial records")
    as_claimed: bool = False
    #: partial records: no points, the count depended on unknown cards and nothing was claimed (ALL-SCORE-2)
    unscored: bool = False

    @property
    def as_played(self) -> int:
        """The hand's points without the referee's penalty (the breakdown's ``penalty``)."""
        return self.points - self.breakdown.get("penalty", 0)

    @property
    def claim_differs(self) -> bool:
        """The recorded claim (``hand_ended.claimed``) is neither the hand's
        points as adjudicated nor as played: a claim that counts a penalty
        assessed during the hand, or one written before a later penalty, is
        no difference (the viewer's score panel compares the same way)."""
        return self.claimed is not None and self.claimed not in (self.points, self.as_played)


class SheetHand(msgspec.Struct, frozen=True):
    """A scored hand: how it ended and each side's line."""

    hand: int
    reason: str
    seat: int | None
    lines: tuple[SheetLine, ...]


class ScoreSheet(msgspec.Struct, frozen=True):
    """The whole game's scores.

    ``unit`` is ``"seat"`` or ``"team"`` (what a side is); ``totals`` per side;
    ``winner`` the winning side once the game has ended (None while it goes on,
    on a tie, or when it ended ``abandoned``, even after a ruling: FORMAT.md
    "Rulings after the game" and ``game_ended.reason``).
    """

    game_id: str
    unit: str
    adjudicated: bool
    hands: tuple[SheetHand, ...]
    totals: tuple[int, ...]
    winner: int | None
    ended: str | None

    def to_json(self) -> dict[str, Any]:
        """The ``rummy-ledger score --json`` object of FORMAT.md."""
        key = self.unit
        return {
            "game_id": self.game_id,
            "hands": [
                {
                    "hand": h.hand,
                    "scores": [_line_json(key, ln) for ln in h.lines],
                }
                for h in self.hands
            ],
            "totals": [{key: side, "points": pts} for side, pts in enumerate(self.totals)],
            "winner": self.winner,
            "winner_kind": key if self.winner is not None else None,
        }


def _line_json(key: str, ln: SheetLine) -> dict[str, Any]:
    """One side's line of ``score --json``; ``as_claimed`` and ``unscored`` only when true
    (FORMAT.md, "Partial records"; docs/partial-records.md)."""
    line: dict[str, Any] = {key: ln.side, "points": ln.points, "breakdown": dict(ln.breakdown)}
    if ln.as_claimed:
        line["as_claimed"] = True
    if ln.unscored:
        line["unscored"] = True
    return line


def score_sheet(state: TableState, adjudicated: bool = True) -> ScoreSheet:
    """The score sheet of a replayed game (its final state, or any position).

    With ``adjudicated`` (default) each hand's lines include the referee's
    penalties of that hand (breakdown component ``penalty``) and the totals
    are the adjudicated totals; without it, penalties are left out.
    """
    unit = "team" if state.n_sides < state.n_seats else "seat"
    hands = _sheet_hands(state, adjudicated)
    if adjudicated:
        totals = tuple(state.totals)
    else:
        t = [0] * state.n_sides
        for r in state.results:
            for s in r.scores:
                t[s.side] += s.points
        totals = tuple(t)
    # an abandoned game has no winner, whatever a ruling after it did to the
    # totals (FORMAT.md "Rulings after the game": the game stays as it ended)
    winner = state.rules.winner(state) if state.ended not in (None, "abandoned") else None
    return ScoreSheet(state.game_id, unit, adjudicated, hands, totals, winner, state.ended)


#: the hands of the last sheets made, by the identity of the state's ``results`` and ``penalties``
#: (:func:`_sheet_hands`; each entry keeps both, so an id is never another object's)
_HANDS: OrderedDict[tuple[int, int, bool], tuple[Any, Any, tuple[SheetHand, ...]]] = OrderedDict()
_HANDS_LOCK = threading.Lock()


def _sheet_hands(state: TableState, adjudicated: bool) -> tuple[SheetHand, ...]:
    """The sheet's hands, which depend on ``state.results`` and
    ``state.penalties`` only: the same tuples (a later state of the same
    hand, a live game's next event) give the hands made before, kept for
    the last 16 (a 100k-event game's sheet has 1,212 hands, made again
    after each append: issue 27)."""
    key = (id(state.results), id(state.penalties), adjudicated)
    with _HANDS_LOCK:
        hit = _HANDS.get(key)
        if hit is not None and hit[0] is state.results and hit[1] is state.penalties:
            _HANDS.move_to_end(key)
            return hit[2]
    penalty: dict[tuple[int, int], int] = {}  # (hand, side) -> points: one pass, however many hands
    for p in state.penalties:
        penalty[p.hand, p.side] = penalty.get((p.hand, p.side), 0) + p.points
    hands = []
    for r in state.results:
        claimed = dict(r.claimed) if r.claimed else {}
        lines = []
        for s in r.scores:
            breakdown = dict(s.breakdown)
            points = s.points
            if adjudicated:
                pen = penalty.get((r.hand, s.side), 0)
                if pen:
                    breakdown["penalty"] = pen
                    points += pen
            lines.append(SheetLine(s.side, points, breakdown, claimed.get(s.side), s.as_claimed, s.unscored))
        hands.append(SheetHand(r.hand, r.reason, r.seat, tuple(lines)))
    made = tuple(hands)
    with _HANDS_LOCK:
        _HANDS[key] = (state.results, state.penalties, made)
        while len(_HANDS) > 16:
            _HANDS.popitem(last=False)
    return made


def score(events: Iterable[Event], adjudicated: bool = True) -> ScoreSheet:
    """Replay ``events`` and return the score sheet; raises ``RecordError``."""
    return score_sheet(replay(events), adjudicated)


class RunningLine(msgspec.Struct, frozen=True):
    """One side in the hand being played, as the table stands.

    ``cards``: cards held by the side's seats; ``melds``: the side's melds on
    the table; ``points``/``breakdown``: where the variant scores both sides
    at a hand's end whoever closes (Burraco), the hand's score were it to
    stop here without a closing (``hand_ended`` ``stalled``), else None/{}
    (Scala 40, Ramino 51, Ramino and Gin score the seat that goes out or
    knocks, so there is no score before that); ``penalty``: the referee's
    penalties of this hand so far (the adjudicated figure adds them).
    """

    side: int
    cards: int
    melds: int
    points: int | None
    breakdown: dict[str, int]
    penalty: int = 0

    @property
    def adjudicated(self) -> int | None:
        """``points`` plus this hand's penalties (None without points)."""
        return None if self.points is None else self.points + self.penalty


class RunningHand(msgspec.Struct, frozen=True):
    """The hand in play at a position: its number and each side's :class:`RunningLine`."""

    hand: int
    position: int
    lines: tuple[RunningLine, ...]


def running_hand(state: TableState) -> RunningHand | None:
    """The current hand's running figures at ``state`` (a hand dealt and not
    over), or None between hands and before the first deal.

    Burraco's figures come from the variant's own ``score_hand`` applied to
    the table as it stands (reason ``stalled``: no closing bonus), so they
    are the fold's scoring, not a second one (RULES.md, Burraco "Scoring").
    """
    if state.hand == 0 or state.phase not in ("draw", "play") or state.hand_over:
        return None
    points: dict[int, tuple[int, dict[str, int]]] = {}
    if state.rules.variant == "burraco":
        from ledger.events import HandEnded

        try:
            scores = state.rules.score_hand(state, HandEnded(reason="stalled"), state.position)
        except Exception:  # noqa: BLE001 - a state the variant cannot score yet: no figures
            scores = ()
        points = {s.side: (s.points, {k: v for k, v in s.breakdown.items() if v}) for s in scores}
    lines = []
    for side in range(state.n_sides):
        seats = state.seats_of(side)
        pen = sum(p.points for p in state.penalties if p.hand == state.hand and p.side == side)
        pts, breakdown = points.get(side, (None, {}))
        lines.append(
            RunningLine(
                side=side,
                cards=sum(len(state.hands[s]) for s in seats if s < len(state.hands)),
                melds=len(state.side_melds(side)),
                points=pts,
                breakdown=breakdown,
                penalty=pen,
            )
        )
    return RunningHand(state.hand, state.position, tuple(lines))
