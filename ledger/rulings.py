"""The referee's rulings against the findings, and the moves they rewound (pure).

A ruling is a ``penalty_assessed`` or ``position_restored`` event (FORMAT.md,
"Events"). It answers a finding when its ``finding`` field names the
finding's position (the fold has already checked that that position carries
a finding: ``REC-REF``); a ruling without ``finding`` answers none. A finding
is **open** until a ruling answers it, then **ruled** by the first one (a
referee may rule more than once on the same finding: all are kept, in record
order).

A ``position_restored`` at position P with ``target`` T **rewinds** the moves
at T+1 .. P-1: they stay in the record but no longer count (FORMAT.md). The
referee's own rulings in that range are not rewound (a penalty stays, the
fold keeps it).

>>> from ledger.events import CardDrawn, PenaltyAssessed, PositionRestored
>>> evs = [CardDrawn(seat=0, card="7H")] * 3 + [
...     PenaltyAssessed(seat=0, points=-5, rule="ALL-TURN-2", finding=2, referee="Rita"),
...     PositionRestored(target=1, reason="two draws", finding=2, referee="Rita")]
>>> rewound_by(evs)
{2: 4}
>>> [(r.position, r.kind, r.finding) for r in rulings(evs)]
[(3, 'penalty_assessed', 2), (4, 'position_restored', 2)]
>>> by_finding(evs)[2][0].line(None)
'ruled at position 3 by Rita: penalty -5 to seat 0 (ALL-TURN-2)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from ledger.events import Event, PenaltyAssessed, PositionRestored
from ledger.state import TableState
from ledger.texts import N_, Message, Translator, render

#: event types that are a referee's ruling
RULING_EVENTS = ("penalty_assessed", "position_restored")


#: the ruling line's words (one line for the CLI and the viewer: :meth:`Ruling.status_message`)
RULED_BY = N_("ruled at position %(at)s by %(referee)s: %(what)s")
RULED = N_("ruled at position %(at)s: %(what)s")
PENALTY = N_("penalty %(points)s to %(who)s (%(rule)s)")
RESTORED = N_("table restored to move %(target)s")
SEAT = N_("seat %(n)s")


class Ruling(msgspec.Struct, frozen=True, kw_only=True):
    """One ruling on a finding.

    ``position``: the ruling event's position; ``kind``: its type
    (``penalty_assessed`` or ``position_restored``); ``finding``: the
    position of the finding it answers; ``referee``: who ruled (None when
    the record does not say). A penalty has ``seat`` or ``team``, ``points``
    (signed, added to that score) and ``rule``; a restoration ``target``
    (the position the hand was rewound to) and ``reason``.
    """

    position: int
    kind: str
    finding: int
    referee: str | None = None
    seat: int | None = None
    team: int | None = None
    points: int | None = None
    rule: str | None = None
    target: int | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"position", "kind", "referee", ...}``: for a penalty ``seat`` or
        ``team``, ``points``, ``rule``; for a restoration ``target``, ``reason``
        (the ``"ruling"`` object of ``audit --json``, README "Rulings")."""
        out: dict[str, Any] = {"position": self.position, "kind": self.kind, "referee": self.referee}
        if self.kind == "penalty_assessed":
            out["seat" if self.seat is not None else "team"] = self.seat if self.seat is not None else self.team
            out["points"] = self.points
            out["rule"] = self.rule
        else:
            out["target"] = self.target
            out["reason"] = self.reason
        return out

    def what_message(self, state: TableState | None) -> Message:
        """What was ruled, as data (``state`` supplies the names): in English
        ``"penalty -50 to Bruno (BUR-TURN-1)"``, ``"table restored to move 6"``."""
        if self.kind == "penalty_assessed":
            if self.seat is not None:
                who: str | Message = state.name(self.seat) if state is not None else Message(SEAT, n=self.seat)
            else:
                who = Message(N_("team %(team)s"), team=f"{self.team}")
            return Message(PENALTY, points=f"{self.points:+d}", who=who, rule=f"{self.rule}")
        return Message(RESTORED, target=f"{self.target}")

    def line(self, state: TableState | None, tr: Translator | None = None) -> str:
        """The one ruling line, as ``audit``, ``show --at`` and the viewer's
        finding status all print it, in the language of ``tr`` (English when
        None): ``"ruled at position 20 by Rita: penalty -50 to Bruno (BUR-TURN-1)"``."""
        return render(self.status_message(state), tr)

    def status_message(self, state: TableState | None) -> Message:
        """:meth:`line` as data (:mod:`ledger.texts`)."""
        what = self.what_message(state)
        if self.referee:
            return Message(RULED_BY, at=self.position, referee=self.referee, what=what)
        return Message(RULED, at=self.position, what=what)


def ruling_of(event: Event, position: int) -> Ruling | None:
    """The :class:`Ruling` an event is, or None (not a ruling, or one
    without ``finding``)."""
    if isinstance(event, PenaltyAssessed) and event.finding is not None:
        return Ruling(
            position=position,
            kind="penalty_assessed",
            finding=event.finding,
            referee=event.referee,
            seat=event.seat,
            team=event.team,
            points=event.points,
            rule=event.rule,
        )
    if isinstance(event, PositionRestored) and event.finding is not None:
        return Ruling(
            position=position,
            kind="position_restored",
            finding=event.finding,
            referee=event.referee,
            target=event.target,
            reason=event.reason,
        )
    return None


def rulings(events: Iterable[Event]) -> tuple[Ruling, ...]:
    """Every ruling that names a finding, in record order."""
    out = []
    for pos, e in enumerate(events):
        r = ruling_of(e, pos)
        if r is not None:
            out.append(r)
    return tuple(out)


def by_finding(events: Iterable[Event]) -> dict[int, tuple[Ruling, ...]]:
    """Finding position -> the rulings that answer it, in record order (a
    finding position not in the dict is open)."""
    out: dict[int, list[Ruling]] = {}
    for r in rulings(events):
        out.setdefault(r.finding, []).append(r)
    return {k: tuple(v) for k, v in out.items()}


def first_ruling(index: Mapping[int, Sequence[Ruling]], position: int) -> Ruling | None:
    """The ruling that closed the finding at ``position`` (the first), or None when open."""
    found = index.get(position)
    return found[0] if found else None


def rewound_by(events: Sequence[Event]) -> dict[int, int]:
    """Position -> position of the ``position_restored`` that rewound it (the
    first one that did): the moves after its ``target`` and before it, not
    counting the referee's own rulings in between."""
    out: dict[int, int] = {}
    for pos, e in enumerate(events):
        if isinstance(e, PositionRestored):
            for p in range(e.target + 1, pos):
                if events[p].type not in RULING_EVENTS:
                    out.setdefault(p, pos)
    return out


def finding_status(
    position: int, index: Mapping[int, Sequence[Ruling]], rewound: Mapping[int, int], state: Any, tr: Any
) -> str:
    """``open``, ``ruled at position P by NAME: what``, then ``; move rewound
    by position R`` when the finding's move was rewound (as ``audit``, ``show
    --at`` and the hand history print it); ``index``: :func:`by_finding`,
    ``rewound``: :func:`rewound_by`, ``state`` supplies the names, ``tr`` the
    language (a gettext translations object)."""
    found = index.get(position)
    text = found[0].line(state, tr) if found else tr.gettext("open")
    if position in rewound:
        text += tr.gettext("; move rewound by position %(by)s") % {"by": rewound[position]}
    return text
