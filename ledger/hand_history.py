"""Hand histories: a game as a plain-text transcript a person reads, as poker
hand histories are (issue 29, "Hand histories a person can read"). Pure, no I/O.

:func:`hand_history` folds the record once (:func:`ledger.replay.evolve`)
and writes, in the language of ``tr`` (English when None; Italian from the
CLI's catalog, ``ledger/translations``):

- a head line (game id, variant and ruleset, the ``meta`` date, tournament,
  round and table when recorded), who the history is seen by, the seats;
- per hand (``--- Hand N ---``): every event in the one move notation
  (:func:`ledger.notation.notation`), numbered by its record position, a move
  a referee's ``position_restored`` rewound marked so (:func:`ledger.rulings.rewound_by`),
  a note under its event (the referee's view only: free text may name any card);
  after the deal the cards each seat was dealt, after the hand's end the cards
  each seat still held; then the hand's findings with their status (open, or
  ruled: :func:`ledger.rulings.finding_status`; every later ruling on the same
  finding under it, :meth:`ledger.rulings.Ruling.line`) and the hand's score
  as adjudicated (:func:`ledger.scoring.score_sheet`, the lines of ``score``:
  :func:`ledger.render.score_lines`);
- from ``game_ended`` on (``--- End of the game ---``): its events, and last
  the totals and the winner (:func:`ledger.render.score_tail`). A referee's
  penalty there (FORMAT.md "Rulings after the game") says where it counts,
  as ``score`` counts it: in the score of the last hand (whose lines above
  include it), or in the totals only when no hand was scored.

``pov`` keeps only what one reader saw (FORMAT.md "Per-seat views", the rule
of ``show --at N --pov``, :mod:`ledger.redaction`): None is the referee (every
card), a seat number that seat (its own cards, what was face up, and every
hand once a hand has ended), ``"spectator"`` a reader at no seat. Another
seat's hidden hand is its count of cards; a finding is listed when that reader
may see it at the end of its hand (:func:`ledger.redaction.visible_findings`).

Partial records (FORMAT.md "Partial records") print an unknown card as ``??``
and a hand dealt with no card known as its count; a score-only game is its
hands' deals, endings and scores. The history is for reading: nothing parses it.

>>> from ledger.score_only import score_only_game
>>> print(hand_history(score_only_game("club-1", "burraco", ["Anna", "Bruno"], [(120, -40)]), pov=1))
rummy-ledger hand history · club-1 · Burraco (fibur)
Seen by: Bruno (seat 1): own cards and what was face up
Seats: 0 Anna · 1 Bruno
<BLANKLINE>
--- Hand 1 ---
1. hand 1 dealt by Anna; upcard ??
2. hand ends: went out
Score:
  Anna     120   total    120   claimed +120  [as claimed: the count depends on unknown cards]
  Bruno    -40   total    -40   claimed -40  [as claimed: the count depends on unknown cards]
<BLANKLINE>
--- End of the game ---
3. game ends: hands played
totals: Anna 120, Bruno -40
winner: Anna
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from gettext import NullTranslations
from typing import Any

from ledger import catalog
from ledger.cards import UNKNOWN, pretty_list, sorted_hand
from ledger.errors import RecordError
from ledger.events import Event, GameStarted
from ledger.notation import notation
from ledger.redaction import Pov, check_pov, seat_cards, sight, visible_findings
from ledger.render import score_lines, score_tail
from ledger.replay import evolve
from ledger.rulings import by_finding, finding_status, rewound_by
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import TableState
from ledger.texts import N_, Translator

_ENGLISH = NullTranslations()
#: the columns a finding's line is folded at
WIDTH = 80


class _Section:
    """One part of the history: a hand (``hand`` its number), the end of the
    game (``hand`` None), or what comes before the first deal (``first`` 1,
    no heading); ``lines`` its events, ``last`` the table at its last position."""

    def __init__(self, hand: int | None, first: int, lines: list[str], last: TableState) -> None:
        self.hand = hand
        self.first = first
        self.lines = lines
        self.last = last


def hand_history(events: Sequence[Event], pov: Pov = None, tr: Translator | None = None) -> str:
    """The hand history of ``events`` (a valid record, position 0 its
    ``game_started``) as ``pov`` saw it (module docstring), in the language of
    ``tr`` (a gettext translations object; English when None): lines of
    80 columns or so, ending with a newline-less last line.

    Raises :class:`~ledger.errors.RecordError` for an impossible record (as
    the fold raises it) and :class:`ValueError` for a ``pov`` that is not a
    seat at the table, ``"spectator"`` or None.
    """
    t: Any = tr or _ENGLISH
    if not events:
        raise RecordError("REC-FORMAT", N_("no events: a record starts with game_started"), position=0)
    state = evolve(None, events[0])  # REC-ORDER unless a game_started
    started: Any = events[0]
    check_pov(state, pov)
    rewound = rewound_by(events)
    width = len(str(len(events) - 1))
    sections: list[_Section] = []
    current = _Section(0, 1, [], state)
    for position in range(1, len(events)):
        event = events[position]
        state = evolve(state, event)
        if event.type == "hand_dealt" or (event.type == "game_ended" and current.hand is not None):
            sections.append(current)
            current = _Section(state.hand if event.type == "hand_dealt" else None, position, [], state)
        current.lines.extend(_event_lines(event, position, state, pov, t, width, rewound))
        current.last = state
    sections.append(current)
    return "\n".join(_head(started, state, pov, t) + _body(sections, events, state, pov, t, rewound))


def _head(started: GameStarted, state: TableState, pov: Pov, tr: Any) -> list[str]:
    """The head lines: the game, who the history is seen by, the seats."""
    _ = tr.gettext
    parts = [
        _("rummy-ledger hand history"),
        started.game_id,
        f"{catalog.LABELS.get(started.variant, started.variant)} ({state.rules.ruleset})",
    ]
    meta = started.meta
    if meta is not None:
        labels = (
            (meta.date, None),
            (meta.tournament, N_("tournament %(name)s")),
            (meta.round, N_("round %(name)s")),
            (meta.table, N_("table %(name)s")),
        )
        parts.extend(_(label) % {"name": value} if label else value for value, label in labels if value)
    if pov is None:
        seen = _("Seen by: the referee (every card)")
    elif isinstance(pov, int):
        seen = _("Seen by: %(who)s (seat %(seat)s): own cards and what was face up") % {
            "who": state.name(pov),
            "seat": pov,
        }
    else:
        seen = _("Seen by: a spectator (what was face up)")
    teams = state.n_sides < state.n_seats
    seats = [
        f"{p.seat} {p.name}" + (" (" + _("team %(team)s") % {"team": state.sides[p.seat]} + ")" if teams else "")
        for p in state.players
    ]
    return [" · ".join(parts), seen, _("Seats: %(seats)s") % {"seats": " · ".join(seats)}]


def _event_lines(
    event: Event, position: int, state: TableState, pov: Pov, tr: Any, width: int, rewound: dict[int, int]
) -> list[str]:
    """An event's line (its position, its notation, rewound or not), its note
    for the referee, and after a deal or a hand's end the seats' cards."""
    _ = tr.gettext
    text = notation(event, state, pov, tr)
    if position in rewound:
        text += "  [" + _("rewound by position %(by)s") % {"by": rewound[position]} + "]"
    if event.type == "penalty_assessed" and state.ended is not None:
        text += "  [" + _counted_in(state, tr) + "]"
    lines = [f"{position:>{width}}. {text}"]
    pad = " " * (width + 2)
    if event.note and pov is None:
        lines.append(pad + _("  note: %(note)s") % {"note": event.note})
    if event.type == "hand_dealt":
        lines.extend(_cards_lines(_("Dealt:"), state, pov, tr, pad))
    elif event.type == "hand_ended":
        lines.extend(_cards_lines(_("Held at the end:"), state, pov, tr, pad))
    return lines


def _counted_in(state: TableState, tr: Translator) -> str:
    """Where a penalty assessed after ``game_ended`` (the last of ``state``'s
    penalties) counts, as ``score`` counts it: in the score of the hand it
    was assessed in (the last hand dealt, listed above with that penalty in
    its lines), or in the totals only when that hand has no score (a game
    that ended before any hand)."""
    hand = state.penalties[-1].hand
    if any(r.hand == hand for r in state.results):
        return tr.gettext("counted in the score of hand %(hand)s") % {"hand": hand}
    return tr.gettext("counted in the totals only: no hand was scored")


def _cards_lines(label: str, state: TableState, pov: Pov, tr: Any, pad: str) -> list[str]:
    """``label`` and each seat's cards as ``pov`` may see them at ``state``
    (another seat's hidden hand, or a hand of unknown cards, as its count)."""
    seen = sight(state, pov)
    width = max((len(p.name) for p in state.players), default=0)
    shown = []
    known = False
    for seat, player in enumerate(state.players):
        if seat in state.eliminated and not (seat < len(state.hands) and state.hands[seat]):
            continue  # out of the game (Scala 40, Ramino 51): no cards to show
        cards, _seen = seat_cards(state, seat, seen)
        if cards is not None and cards and any(c != UNKNOWN for c in cards):
            text = pretty_list(sorted_hand(cards))
            known = True
        else:
            n = len(state.hands[seat]) if seat < len(state.hands) else 0
            text = tr.ngettext("%(num)s card", "%(num)s cards", n) % {"num": n}
        shown.append(f"{player.name:<{width}} {text}")
    if not known and getattr(state.rules, "partial", False):
        return []  # a partial record that names none of these cards (a score-only game): nothing to show
    head = f"{pad}   {label} "
    return [(head if i == 0 else " " * len(head)) + line for i, line in enumerate(shown)]


def _body(
    sections: list[_Section], events: Sequence[Event], final: TableState, pov: Pov, tr: Any, rewound: dict[int, int]
) -> list[str]:
    """The sections, each with its heading, its events and its trailer
    (findings, score), then the totals and the winner."""
    _ = tr.gettext
    sheet = score_sheet(final)
    index = by_finding(events)
    running = [0] * final.n_sides
    ends = [s.first for s in sections[1:]] + [len(events)]
    lines: list[str] = []
    for section, end in zip(sections, ends, strict=True):
        if section.hand == 0 and not section.lines:
            continue
        lines.append("")
        if section.hand is None:
            lines.append("--- " + _("End of the game") + " ---")
        elif section.hand:
            lines.append("--- " + _("Hand %(hand)s") % {"hand": section.hand} + " ---")
        lines.extend(section.lines)
        lines.extend(_findings_lines(section, end, final, pov, tr, index, rewound))
        if section.hand:
            lines.extend(_score_lines(sheet, section.hand, final, running, tr))
    if sections[-1].hand is not None:
        lines.append("")
    return lines + score_tail(sheet, final, score_sheet(final, adjudicated=False), tr)


def _findings_lines(
    section: _Section, end: int, final: TableState, pov: Pov, tr: Any, index: dict[int, Any], rewound: dict[int, int]
) -> list[str]:
    """The findings at the section's positions that ``pov`` may see at its
    end, each with its status, then every later ruling on it."""
    _ = tr.gettext
    found = final.findings if pov is None else visible_findings(section.last, pov)
    mine = [f for f in found if section.first <= f.position < end]
    if not mine:
        return []
    lines = [_("Findings:")]
    for f in mine:
        status = finding_status(f.position, index, rewound, final, tr)
        where = _("position %(at)s") % {"at": f.position}
        lines.append(_wrap(f"  {where}: {f.rule}: {f.text(tr)}  [{status}]"))
        lines.extend(_wrap("    " + r.line(final, tr)) for r in index.get(f.position, ())[1:])
    return lines


def _wrap(line: str) -> str:
    """A long line folded at :data:`WIDTH` columns, the next lines indented under it."""
    return textwrap.fill(line, WIDTH, subsequent_indent="      ", break_long_words=False, break_on_hyphens=False)


def _score_lines(sheet: ScoreSheet, hand: int, final: TableState, running: list[int], tr: Any) -> list[str]:
    """The hand's score as adjudicated (the lines of ``score``), or that it did not end."""
    _ = tr.gettext
    scored = [h for h in sheet.hands if h.hand == hand]
    if not scored:
        return [_("Score: the hand did not end")]
    lines = [_("Score:")]
    for h in scored:
        lines.extend(score_lines(h, final, running, tr))
    return lines


__all__ = ["hand_history"]
