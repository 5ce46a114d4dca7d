"""Per-seat views: what a seat, or a spectator, could know at a position
(FORMAT.md, "Per-seat views"). Pure functions of the fold's state; the stored
record stays omniscient and is redacted only here, at the edge (DESIGN.md).

Who looks (``pov``):

- ``None``: the referee, who sees everything;
- a seat number ``0..n-1``: that seat's view;
- :data:`SPECTATOR` (``"spectator"``): a reader at no seat, who sees only what
  was face up and the counts (no hand at all while a hand is in play).

A view at position N depends only on the state at N and the states before
it in the same hand (``TableState.history``), never on later events, and only
on what the viewer saw:

- its own hand (a seat; a spectator has none);
- every meld, the face-up discard pile, the upcard;
- of another hand: the cards it took face up (from the discard pile, or a
  wild freed from a meld) that it still holds (:attr:`Sight.seen`), and its
  count; the stock and the pozzetti as counts;
- Gin: the knocker's whole hand from the knock (its melds and deadwood are
  laid face up, :attr:`Sight.open`); the knock's face-down discard is hidden
  from everyone but the knocker (:attr:`Sight.face_down`) until the hand ends;
- once a hand has ended (``hand_ended``), every hand and the face-down
  discard (:attr:`Sight.revealed`), until the next ``hand_dealt`` or a
  ``position_restored`` that reopens the hand.

Knowledge from a line of play that a referee rewound (``position_restored``)
is dropped with it: after a rewind a seat knows what it knew at the target.
That is never more than the seat saw.

Findings (:func:`finding_visible`): a finding whose rule depends only on face
up information (:data:`PUBLIC_RULES`) is shown at once; any other finding
(e.g. BUR-PILE-1, whose existence tells whether the seat holds a twin, or
GIN-WALL-1, whose message names the card drawn) only to the seat it is
about, and to everyone once its hand has ended (GIN-DISC-1 is public but at
a knock, :data:`PUBLIC_UNLESS_KNOCK`). Which it is, is the ``view`` of the
rule's table entry (:class:`ledger.rule_table.RuleEntry`, ``hidden`` when
not said); a rule id in no table is treated as hidden.

>>> SPECTATOR
'spectator'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set

import msgspec

from ledger.cards import UNKNOWN
from ledger.errors import PovError
from ledger.rule_ids import RuleSet
from ledger.state import Finding, TableState
from ledger.texts import N_, Message

#: the ``pov`` of a reader at no seat
SPECTATOR = "spectator"

#: ``pov`` values: a seat, :data:`SPECTATOR`, or None (the referee)
Pov = int | str | None

#: rule ids (RULES.md) whose findings depend only on what every seat saw face
#: up, on counts and on the order of play, and whose messages name only such
#: cards (each rule table entry's ``view``, ``public``). Any other rule's finding
#: waits for the end of its hand (except for the seat it is about).
PUBLIC_RULES: Set[str] = RuleSet("PUBLIC_RULES", lambda e: e.view == "public")
#: rules public except at a knock, whose discard is face down (``view``
#: ``unless_knock``; GIN-DISC-1: the card just taken discarded again is plain
#: to see, unless face down)
PUBLIC_UNLESS_KNOCK: Set[str] = RuleSet("PUBLIC_UNLESS_KNOCK", lambda e: e.view == "unless_knock")


class Sight(msgspec.Struct, frozen=True):
    """What ``pov`` knows of the hands at ``position`` (see the module docstring).

    Attributes:
        pov: the viewer (a seat or :data:`SPECTATOR`; None for the referee).
        position: the position this is the sight at.
        seen: per seat, the cards of its hand seen face up that it still
            holds (in the order seen); empty for hands shown whole.
        open: per seat, is its whole hand face up (the Gin knocker).
        face_down: indices into the discard pile of cards hidden from ``pov``.
        revealed: the hand has ended: every hand is shown.
        ends: positions in this hand's line of play where it ended.
        knocks: positions in this hand's line of play of a knock.
        own: the viewing seat knows its own hand: always in a full record; in
            a partial one only when the record was dealt its cards named
            (a scorer's record knows no hand: each seat sees what a spectator sees).
    """

    pov: Pov
    position: int
    seen: tuple[tuple[str, ...], ...] = ()
    open: tuple[bool, ...] = ()
    face_down: tuple[int, ...] = ()
    revealed: bool = False
    ends: tuple[int, ...] = ()
    knocks: tuple[int, ...] = ()
    own: bool = True

    def shows_hand(self, seat: int) -> bool:
        """True when ``seat``'s whole hand is shown to the viewer."""
        return (
            self.pov is None
            or (self.pov == seat and self.own)
            or self.revealed
            or (seat < len(self.open) and self.open[seat])
        )

    def hand_over(self, position: int) -> bool:
        """True when the hand holding ``position`` ended at or after it in this line of play."""
        return any(q >= position for q in self.ends)


def check_pov(state: TableState, pov: Pov) -> None:
    """Raise :class:`~ledger.errors.PovError` (a :class:`ValueError`) unless
    ``pov`` is None, :data:`SPECTATOR` or a seat at the table.

    >>> from ledger.score_only import score_only_game
    >>> from ledger.replay import evolve
    >>> check_pov(evolve(None, score_only_game("g", "burraco", ["A", "B"], [(1, 0)])[0]), 2)
    Traceback (most recent call last):
    ledger.errors.PovError: no seat 2 at this table (seats 0–1, or 'spectator')
    """
    if pov is None or pov == SPECTATOR:
        return
    if isinstance(pov, bool) or not isinstance(pov, int) or not 0 <= pov < state.n_seats:
        msgid = N_("no seat %(seat)s at this table (seats 0–%(last)s, or 'spectator')")
        raise PovError(Message(msgid, seat=repr(pov), last=state.n_seats - 1))


def _minus(cards: tuple[str, ...], gone: Counter[str]) -> tuple[str, ...]:
    """``cards`` without the multiset ``gone`` (first copies first)."""
    if not gone:
        return cards
    left = Counter(gone)
    out = []
    for c in cards:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return tuple(out)


def _meld_cards(state: TableState) -> Counter[str]:
    counts: Counter[str] = Counter()
    for m in state.melds:
        counts.update(m.cards)
    return counts


def _line(state: TableState) -> list[TableState]:
    """The states of the current hand's line of play, oldest first, ending at ``state``."""
    chain = [state]
    while chain[-1].history is not None:
        chain.append(chain[-1].history)
    chain.reverse()
    return chain


def sight(state: TableState, pov: Pov) -> Sight:
    """What ``pov`` knows at ``state.position`` (from ``state`` and its history).

    Raises :class:`ValueError` for a ``pov`` that is not a seat, None or
    :data:`SPECTATOR`. Cost: one step per position of the hand so far.
    """
    check_pov(state, pov)
    n = state.n_seats
    if pov is None:
        return Sight(None, state.position, tuple(() for _ in range(n)), tuple(True for _ in range(n)), (), True, ())
    chain = _line(state)
    own = not getattr(state.rules, "partial", False) or (isinstance(pov, int) and _dealt_known(chain[0], pov))
    seen: list[tuple[str, ...]] = [() for _ in range(n)]
    opened = [False] * n
    face_down: tuple[int, ...] = ()
    ends: list[int] = []
    knocks: list[int] = []
    revealed = chain[0].phase in ("over", "ended")
    for prev, cur in zip(chain, chain[1:]):
        # cards that left the discard pile face up (a rewind's target is the
        # previous state of the chain, so a rewind itself changes nothing here)
        pile, before = cur.discard, prev.discard
        if len(pile) <= len(before) and before[: len(pile)] == pile:
            left_pile = [c for i, c in enumerate(before[len(pile) :], start=len(pile)) if i not in face_down]
            face_down = tuple(i for i in face_down if i < len(pile))
        else:
            left_pile = []
            if len(pile) == 1 and len(before) > 1 and pile[0] == before[-1]:  # restocked: the top stays
                face_down = (0,) if len(before) - 1 in face_down else ()
            elif before != pile[: len(before)]:
                face_down = ()
        freed = Counter() if cur.melds is prev.melds else _meld_cards(prev) - _meld_cards(cur)  # a wild taken back
        source = left_pile + sorted(freed.elements())
        for seat in range(min(n, len(cur.hands))):
            if seat < len(prev.hands) and cur.hands[seat] is prev.hands[seat]:
                continue
            old = Counter(prev.hands[seat]) if seat < len(prev.hands) else Counter()
            new = Counter(cur.hands[seat])
            kept = _minus(seen[seat], old - new) if seen[seat] else ()
            if source:
                took = (new - old) & Counter(source)
                for c in source:
                    if took[c] > 0:
                        took[c] -= 1
                        kept += (c,)
            seen[seat] = kept
        knocker = getattr(cur.extra, "knocker", None)
        if knocker is not None and getattr(prev.extra, "knocker", None) is None and 0 <= knocker < n:
            opened[knocker] = True  # Gin: the knocker lays its hand face up
            knocks.append(cur.position)
            seen[knocker] = ()
            if (knocker != pov or not own) and len(pile) == len(before) + 1:
                face_down = face_down + (len(pile) - 1,)
        revealed = cur.phase in ("over", "ended")
        if revealed and prev.phase not in ("over", "ended"):
            ends.append(cur.position)
    return Sight(pov, state.position, tuple(seen), tuple(opened), face_down, revealed, tuple(ends), tuple(knocks), own)


def _dealt_known(deal: TableState, seat: int) -> bool:
    """Partial records: the hand's first state (its deal) names ``seat``'s cards."""
    return (
        deal.phase != "setup" and seat < len(deal.hands) and bool(deal.hands[seat]) and UNKNOWN not in deal.hands[seat]
    )


def finding_visible(f: Finding, state: TableState, pov: Pov, seen: Sight | None = None) -> bool:
    """True when finding ``f`` may be shown to ``pov`` at ``state.position``:
    never after the position; at once for the referee and for
    :data:`PUBLIC_RULES`; else to the seat it is about, and to everyone once
    its hand has ended."""
    if f.position > state.position:
        return False
    if pov is None or f.rule in PUBLIC_RULES:
        return True
    if f.seat is not None and f.seat == pov:
        return True
    if f.hand is None or f.hand < state.hand:
        return True
    s = seen if seen is not None else sight(state, pov)
    if f.rule in PUBLIC_UNLESS_KNOCK and f.position not in s.knocks:
        return True
    return s.hand_over(f.position)


def visible_findings(state: TableState, pov: Pov, seen: Sight | None = None) -> tuple[Finding, ...]:
    """The findings ``pov`` may see at ``state.position``, by position
    (all of them for the referee). Raises ``ValueError`` for a bad ``pov``."""
    check_pov(state, pov)
    s = seen if (seen is not None or pov is None) else sight(state, pov)
    found = (f for f in state.findings if finding_visible(f, state, pov, s))
    return tuple(sorted(found, key=lambda f: f.position))


def seat_cards(state: TableState, seat: int, s: Sight) -> tuple[list[str] | None, list[str] | None]:
    """``(cards, seen)`` of ``seat``'s hand for the viewer of ``s``: the
    whole hand when shown (another seat's hand sorted, so that the order
    cards arrived in stays hidden), else None and the cards seen face up."""
    hand = state.hands[seat] if seat < len(state.hands) else ()
    if s.pov is None or (s.pov == seat and s.own):
        return list(hand), None
    if s.shows_hand(seat):
        return sorted(hand, key=_card_order), None
    return None, list(s.seen[seat]) if seat < len(s.seen) else []


def visible_discard(state: TableState, s: Sight) -> tuple[list[str], int]:
    """``(face-up cards of the discard pile bottom first, cards hidden)``."""
    if s.pov is None or s.revealed or not s.face_down:
        return list(state.discard), 0
    hidden = set(s.face_down)
    return [c for i, c in enumerate(state.discard) if i not in hidden], len(hidden & set(range(len(state.discard))))


_RANKS = {r: i for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))}


def _card_order(card: str) -> tuple[int, int, str]:
    if card == "JK":
        return (1, 0, card)
    return (0, _RANKS.get(card[:-1], 99), card[-1])
