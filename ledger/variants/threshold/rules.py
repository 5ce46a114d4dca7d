"""What the two threshold games share: Scala 40 and Ramino 51.

RULES.md, "Scala 40 (`scala40`)" and "Ramino 51, as on ClubdelGioco
(`ramino51`)". Both games open with a minimum of points, allow lay-offs and
joker swaps only after opening, score penalty points per hand for the seats
that did not go out, and eliminate a seat whose total reaches the
``elimination`` option; the last seat left wins. Each of these rules is
written once here, in :class:`ThresholdRules`; the variants
(:mod:`ledger.variants.threshold.scala40`, :mod:`ledger.variants.threshold.ramino51`) add their
own per-turn rules (``end_turn``), hand values and rule ids.

Opening value (RULES.md, both games): 2–10 face value, J Q K 10, an ace 1
low (A-2-3) and 11 high (Q-K-A) or in a set, a joker worth the card it
stands for.

>>> from ledger.melds import MeldRules, analyze
>>> meld_points(analyze(("7H", "8H", "9H"), MeldRules()))
24
>>> meld_points(analyze(("AS", "2S", "3S"), MeldRules())), meld_points(analyze(("QS", "KS", "AS"), MeldRules()))
(6, 31)
>>> meld_points(analyze(("AC", "AD", "JK"), MeldRules()))
33
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import ClassVar, Literal, Protocol

from ledger.cards import JOKER, RANK_TEXT, SUIT, SUITS, pretty, pretty_list
from ledger.events import DiscardTaken, HandEnded, JokerSwapped, MeldExtended, MeldLaid, PenaltyAssessed
from ledger.melds import MeldInfo, analyze
from ledger.state import Meld, SideScore, TableState, VariantState, replace, variant_state
from ledger.texts import N_, Message, and_, or_, render
from ledger.variants.base import Rules
from ledger.variants.threshold.scoring import unknown_penalties


def rank_points(rank: int, in_set: bool = False) -> int:
    """Value of one position in a meld: ``rank`` 1 (ace low) … 14 (ace high).

    >>> rank_points(1), rank_points(1, in_set=True), rank_points(14), rank_points(12), rank_points(7)
    (1, 11, 11, 10, 7)
    """
    if rank == 1:
        return 11 if in_set else 1
    if rank == 14:
        return 11
    return min(rank, 10)


def meld_points(info: MeldInfo) -> int:
    """Opening value of a meld (a joker counts as the card it stands for); a
    card list that is neither a set nor a sequence counts 0."""
    if info.kind == "sequence":
        return sum(rank_points(r) for r in info.natural_ranks())
    if info.kind == "set":
        return len(info.cards) * rank_points(info.rank, in_set=True)
    return 0


def compact(cards: Iterable[str]) -> str:
    """Cards run together as in score sheets: ``7♥8♥9♥``."""
    return "".join(pretty(c) for c in cards)


def opening_summary(melds: Iterable[Meld]) -> tuple[int, str]:
    """Total opening value of ``melds`` and its itemised text
    (``"7♥8♥9♥ = 24, Q♠Q♥Q♣ = 30"``)."""
    total, items = opening_items(melds)
    return total, render(items)


def opening_items(melds: Iterable[Meld]) -> tuple[int, tuple[Message, ...]]:
    """Total opening value of ``melds`` and its items as messages (each
    ``7♥8♥9♥ = 24``, or ``… (not a meld)``), for audit messages."""
    total, parts = 0, []
    for m in melds:
        points = meld_points(m.info)
        total += points
        msgid = "%(cards)s = %(n)s" if m.info.kind != "invalid" else N_("%(cards)s = %(n)s (not a meld)")
        parts.append(Message(msgid, cards=compact(m.cards), n=points))
    return total, tuple(parts)


#: ALL-MELD-1 for a lay-off whose ``result`` moves a joker: by whether it still stands for a card
_JOKER_MOVED = {
    True: N_(
        "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it now stands for %(now)s; "
        "a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
    ),
    False: N_(
        "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it moved; "
        "a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
    ),
}

#: the clean meld an opening lacks (R51-OPEN-2, ``opening_clean``), by the kinds that count
_CLEAN_OPENING = {
    ("sequence", "set"): N_("the opening needs a clean sequence or set (no joker)"),
    ("sequence",): N_("the opening needs a clean sequence (no joker)"),
}


def swap_targets(meld: Meld, joker: str) -> tuple[str, ...]:
    """The natural cards a ``joker`` in ``meld`` stands for (what a
    ``joker_swapped`` must put in): one card in a sequence; in a set, every
    suit the set's naturals do not yet show. Empty when ``joker`` is not a
    wild of the meld.

    >>> from ledger.melds import MeldRules, analyze
    >>> m = Meld("a", 0, 0, ("5H", "6H", "JK"), analyze(("5H", "6H", "JK"), MeldRules()), 1)
    >>> swap_targets(m, "JK")
    ('7H',)
    >>> m = Meld("b", 0, 0, ("9C", "9D", "JK"), analyze(("9C", "9D", "JK"), MeldRules()), 1)
    >>> swap_targets(m, "JK")
    ('9H', '9S')
    """
    info = meld.info
    found: list[str] = []
    for card, stands in zip(meld.cards, info.stands_for):
        if card != joker or stands is None:
            continue
        if info.kind == "set":
            shown = {SUIT[c] for c, s in zip(meld.cards, info.stands_for) if s is None}
            found += [RANK_TEXT[info.rank] + s for s in SUITS if s not in shown]
        else:
            found.append(stands)
    return tuple(dict.fromkeys(found))


def cards_minus(cards: Sequence[str], less: Sequence[str]) -> tuple[str, ...]:
    """The multiset ``cards`` less ``less``, each face as often as it is left,
    the faces in the order they first appear in ``cards``: the same as
    ``tuple((Counter(cards) - Counter(less)).elements())``, without the two
    counters (this runs at every meld and lay-off): each card of ``less``
    takes one copy out, and what is left is grouped by face in the order of
    each face's first place in ``cards``.

    >>> cards_minus(("5H", "KD", "5H", "QS"), ("KD", "5H", "7C"))
    ('5H', 'QS')
    >>> cards_minus(("5H", "KD", "5H", "QS"), ("QS",))
    ('5H', '5H', 'KD')
    """
    out = list(cards)
    for card in less:
        try:  # one scan of ``out``, not two (``in``, then ``remove``)
            out.remove(card)
        except ValueError:
            pass
    if len(out) > 1:
        out.sort(key=cards.index)  # stable: each face's copies together, faces by first place
    return tuple(out)


def moved_wilds(before: MeldInfo, after: MeldInfo) -> tuple[tuple[str, str | None], ...]:
    """The wilds of the sequence ``before`` that stand for another card in
    ``after`` (RULES.md, Scala 40: "A joker never moves once laid"), as
    ``(card it stood for, card it stands for now or None)`` pairs. Empty when
    ``before`` is not a sequence or ``after`` is not a valid sequence (an
    invalid meld is judged as such).

    >>> from ledger.melds import MeldRules, analyze
    >>> mr = MeldRules()
    >>> moved_wilds(analyze(("5H", "JK", "7H"), mr), analyze(("5H", "6H", "7H", "JK"), mr))
    (('6H', '8H'),)
    >>> moved_wilds(analyze(("5H", "JK", "7H"), mr), analyze(("4H", "5H", "JK", "7H"), mr))
    ()
    """
    if before.kind != "sequence" or after.kind != "sequence" or not after.valid:
        return ()
    now = Counter(s for s in after.stands_for if s is not None)
    moved = []
    for stood in before.stands_for:
        if stood is None:
            continue
        if now[stood]:
            now[stood] -= 1
        else:
            moved.append(stood)
    gained = [s for s in after.stands_for if s is not None and now[s] > 0]
    return tuple((stood, gained[i] if i < len(gained) else None) for i, stood in enumerate(moved))


class ThresholdExtra(VariantState, frozen=True):
    """Per-hand state of a threshold game.

    Attributes:
        opened_turn: per seat, the number of its turn in which it first
            melded (``TableState.turns`` numbering), 0 while it has not.
        played: cards the seat due moved from its hand to the table this turn.
        freed: jokers the seat due took back by swaps this turn.
        taken_opened: the seat had opened when it took the top discard this turn.
        taken_had_copy: it already held another copy of that face then.
        discarded: the card it discarded this turn, if any.
        melded_out: position of the meld or lay-off that emptied the hand of
            the seat due (Scala 40: ``S40-OUT-1`` reported there), else None.
    """

    opened_turn: tuple[int, ...]
    played: tuple[str, ...] = ()
    freed: int = 0
    taken_opened: bool = False
    taken_had_copy: bool = False
    discarded: str | None = None
    melded_out: int | None = None


class ThresholdSettings(Protocol):
    """What the shared half reads of a threshold game's options (Scala40Options, Ramino51Options)."""

    @property
    def elimination(self) -> int:
        """A seat at or above this total is out of the game."""
        ...


class ThresholdRules(Rules):
    """Shared half of Scala 40 and Ramino 51 (subclassed, never used alone).

    Class attributes a subclass sets: ``early_play_rule`` (lay-off or swap
    before opening: S40-OPEN-2 / R51-OPEN-3) and ``swap_rule`` (a swap with
    the wrong card: S40-SWAP-1 / R51-SWAP-1).
    """

    early_play_rule: ClassVar[str] = ""
    swap_rule: ClassVar[str] = ""
    players_allowed = (2, 3, 4, 5, 6)
    settings: ThresholdSettings  # the subclass's options struct (set by Rules.__init__)

    # --- per-hand and per-turn bookkeeping ------------------------------------
    def new_extra(self, state: TableState) -> ThresholdExtra:
        return ThresholdExtra(opened_turn=tuple(0 for _ in range(state.n_seats)))

    @staticmethod
    def ex(state: TableState) -> ThresholdExtra:
        """The hand's :class:`ThresholdExtra` (raises :class:`TypeError` before the first deal)."""
        x = state.extra
        return x if isinstance(x, ThresholdExtra) else variant_state(state, ThresholdExtra)

    def start_turn(self, state: TableState, seat: int, pos: int) -> TableState:
        """The base's turn start, plus the turn-local fields of the extra reset."""
        state = Rules.start_turn(self, state, seat, pos)  # named: see check_meld
        x = state.extra
        if isinstance(x, ThresholdExtra) and (
            x.played or x.freed or x.taken_opened or x.taken_had_copy or x.discarded is not None
        ):  # (already reset: the same value)
            state = self.set_extra(state, played=(), freed=0, taken_opened=False, taken_had_copy=False, discarded=None)
        return state

    def opened_this_turn(self, state: TableState, seat: int) -> bool:
        """True when ``seat`` first melded in its current (or last) turn."""
        first = self.ex(state).opened_turn[seat]
        return first != 0 and first == state.turns[seat]

    def melds_this_turn(self, state: TableState, seat: int) -> tuple[Meld, ...]:
        """The melds ``seat`` laid in the current turn, as they stand now."""
        return tuple(m for m in state.melds if m.seat == seat and m.laid_at >= state.turn_start)

    def went_out_at_once(self, state: TableState, seat: int) -> bool:
        """Chiusura in mano: ``seat`` went out in the turn it first melded."""
        return self.opened_this_turn(state, seat)

    def on_discard_taken(self, state: TableState, e: DiscardTaken, pos: int) -> TableState:
        """The base's pile take; remembers whether the seat had opened and
        already held that face (RULES.md: "card just taken" rules)."""
        opened = bool(state.opened[e.seat]) if 0 <= e.seat < len(state.opened) else False
        had_copy = bool(e.cards) and e.cards[-1] in (state.hands[e.seat] if 0 <= e.seat < len(state.hands) else ())
        state = Rules.on_discard_taken(self, state, e, pos)  # named: see check_meld
        return self.set_extra(state, taken_opened=opened, taken_had_copy=had_copy)

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """Records the cards that went from the hand to the table this turn."""
        if seat != state.turn:
            return state
        moved = cards_minus(before.hands[seat], state.hands[seat])
        if not moved:
            return state
        x = state.extra  # self.ex(state), written out: read at every meld and lay-off
        played = x.played if isinstance(x, ThresholdExtra) else variant_state(state, ThresholdExtra).played
        return self.set_extra(state, played=played + moved)

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:
        """Meld validity (the variant's ids), and the turn a seat opens in."""
        # Rules by name, not super(): both subclasses derive from this class
        # alone, so Rules's MRO is theirs past it; super() costs an object per call.
        state = Rules.check_meld(self, state, pos, seat, meld, event)
        x = state.extra  # self.ex(state), written out
        opened_turn = (x if isinstance(x, ThresholdExtra) else variant_state(state, ThresholdExtra)).opened_turn
        if opened_turn[seat] == 0:
            opened = list(opened_turn)
            opened[seat] = state.turns[seat]
            state = self.set_extra(state, opened_turn=tuple(opened))
        return state

    def layoff_options(self, meld: Meld, cards: Sequence[str]) -> list[tuple[str, ...]]:
        """The base's lay-off orders less those that move a joker: a joker
        never moves once laid; the natural card it stands for takes its place
        only by ``joker_swapped`` (RULES.md, Scala 40 and Ramino 51)."""
        options = super().layoff_options(meld, cards)
        return [o for o in options if not moved_wilds(meld.info, analyze(o, self._meld_rules))]

    def check_layoff(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended
    ) -> TableState:
        """Lay-off before opening (``early_play_rule``), meld validity, and
        ``ALL-MELD-1`` for a ``result`` that moves a joker."""
        if not state.opened[seat]:
            state = self.flag(
                state,
                pos,
                seat,
                self.early_play_rule,
                N_("%(who)s laid off %(cards)s on meld %(meld)s before opening"),
                who=state.name(seat),
                cards=compact(event.cards),
                meld=after.id,
            )
        state = Rules.check_layoff(self, before, after, state, pos, seat, event)  # named: see check_meld
        for stood, now in moved_wilds(before.info, after.info):
            state = self.flag(
                state,
                pos,
                seat,
                "ALL-MELD-1",
                _JOKER_MOVED[bool(now)],
                meld=after.id,
                cards=pretty_list(after.cards),
                stood=pretty(stood),
                **({"now": pretty(now)} if now else {}),
            )
        return state

    def check_swap(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: JokerSwapped
    ) -> TableState:
        """Swap before opening (``early_play_rule``); a card other than the
        one the joker stands for (``swap_rule``)."""
        name = state.name(seat)
        if not state.opened[seat]:
            state = self.flag(
                state,
                pos,
                seat,
                self.early_play_rule,
                N_("%(who)s swapped the %(joker)s in meld %(meld)s before opening"),
                who=name,
                joker=pretty(event.joker),
                meld=before.id,
            )
        targets = swap_targets(before, event.joker)
        if event.card not in targets:
            if targets:
                why = Message(N_("it stands for %(options)s"), options=or_(*(pretty(c) for c in targets)))
            else:
                why = Message(N_("%(card)s is not a wild there"), card=pretty(event.joker))
            state = self.flag(
                state,
                pos,
                seat,
                self.swap_rule,
                N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s"),
                who=name,
                card=pretty(event.card),
                joker=pretty(event.joker),
                meld=before.id,
                cards=compact(before.cards),
                why=why,
            )
        return self.set_extra(state, freed=self.ex(state).freed + 1)

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """Remembers the discard for the per-turn rules."""
        return self.set_extra(state, discarded=card)

    def _discard_extra(self, state: TableState, pos: int, seat: int, card: str) -> ThresholdExtra | Literal[False]:
        """The fused discard (``TurnRules.fast_card_discarded``): False in a
        turn that took from the pile or opened (what both games' ``end_turn``
        judges), else the extra once :meth:`check_discard` has remembered the
        card and :meth:`start_turn` has reset the turn-local fields for the
        next seat. A variant with more per-turn rules says False first when
        they may flag."""
        x = state.extra  # self.ex(state), written out: read at every discard
        if not isinstance(x, ThresholdExtra):
            x = variant_state(state, ThresholdExtra)
        first = x.opened_turn[seat]  # opened_this_turn, written out
        if (state.drew == "pile" and state.taken) or (first != 0 and first == state.turns[seat]):
            return False
        if not (x.played or x.freed or x.taken_opened or x.taken_had_copy or x.discarded is not None):
            return x  # (already the reset values)
        return replace(x, played=(), freed=0, taken_opened=False, taken_had_copy=False, discarded=None)

    def check_opening(
        self, state: TableState, pos: int, seat: int, rule: str, needed: int, clean: tuple[str, ...] = ()
    ) -> TableState:
        """The melds ``seat`` laid this turn (its opening) total under
        ``needed`` points, or (when ``clean`` names meld kinds) hold no valid
        meld of those kinds without a joker: one ``rule`` finding with the
        itemised value (S40-OPEN-1, R51-OPEN-2)."""
        melds = self.melds_this_turn(state, seat)
        total = sum(meld_points(m.info) for m in melds)
        faults: list[Message] = []
        if total < needed:
            faults.append(Message(N_("the opening needs %(n)s"), n=needed))
        if clean and not any(m.info.valid and m.info.kind in clean and JOKER not in m.cards for m in melds):
            faults.append(Message(_CLEAN_OPENING[clean]))
        if faults:
            state = self.flag(
                state,
                pos,
                seat,
                rule,
                N_("%(who)s opened with %(total)s points: %(items)s; %(need)s"),
                who=state.name(seat),
                total=total,
                items=opening_items(melds)[1],
                need=and_(*faults),
            )
        return state

    # --- scoring, elimination, the winner ---------------------------------------
    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """Penalty points: the seat that went out scores 0, every other seat
        still in the game its :meth:`penalty` breakdown; a hand that ends
        any other way scores 0 for every seat (RULES.md)."""
        winner = e.seat if e.reason == "went_out" else None
        scores = []
        for seat in range(state.n_seats):
            if winner is None or seat == winner or not self.active(state, seat):
                scores.append(SideScore(seat, 0, {}))
                continue
            parts = self.penalty(state, seat, winner)
            scores.append(SideScore(seat, sum(parts.values()), parts))
        return tuple(scores)

    def penalty(self, state: TableState, seat: int, winner: int) -> dict[str, int]:
        """A losing seat's breakdown (component -> points)."""
        raise NotImplementedError

    def counts_cards(self, state: TableState, seat: int, winner: int) -> bool:
        """True when the losing ``seat``'s :meth:`penalty` reads its cards (False: a fixed penalty)."""
        return True

    def unknown_sides(self, state: TableState, e: HandEnded) -> frozenset[int]:
        """Partial records: the losers whose penalty reads unknown cards (:func:`.scoring.unknown_penalties`)."""
        active = [s for s in range(state.n_seats) if self.active(state, s)]
        return unknown_penalties(state, e, active, lambda seat, winner: self.counts_cards(state, seat, winner))

    def eliminate(self, state: TableState) -> TableState:
        """Seats whose total reached the ``elimination`` option are out."""
        limit = self.settings.elimination
        out = tuple(
            s for s in range(state.n_seats) if s not in state.eliminated and state.totals[state.sides[s]] >= limit
        )
        if out:
            state = replace(state, eliminated=state.eliminated + out)
        return state

    def after_hand(self, state: TableState, pos: int) -> TableState:
        return self.eliminate(state)

    def on_penalty_assessed(self, state: TableState, e: PenaltyAssessed, pos: int) -> TableState:
        """A referee's penalty between hands may also eliminate a seat."""
        state = super().on_penalty_assessed(state, e, pos)
        return self.eliminate(state) if state.phase == "over" else state

    def game_end_reason(self, state: TableState) -> str | None:
        """Between hands: ``elimination`` once one seat (or none) is left in
        the game (RULES.md, Scala 40 / Ramino 51 "Scoring")."""
        if state.phase != "over":
            return super().game_end_reason(state)
        left = [s for s in range(state.n_seats) if self.active(state, s)]
        return "elimination" if len(left) <= 1 else None

    def winner(self, state: TableState) -> int | None:
        """The last seat left; when the game ends with more seats in, the
        lowest total among them (None on a tie or before the end)."""
        if state.ended is None:
            return None
        left = [s for s in range(state.n_seats) if s not in state.eliminated]
        if len(left) == 1:
            return left[0]
        if not left:
            return None
        best = min(state.totals[s] for s in left)
        leaders = [s for s in left if state.totals[s] == best]
        return leaders[0] if len(leaders) == 1 else None
