"""Burraco, RULES.md "Burraco (`burraco`)": the variant's half of the fold.

Presets: ``fibur`` (default; 108 cards with 4 jokers; at the end of the stock
the last two cards are never drawn, ``BUR-STOCK-1``) and ``seed`` (106 cards
with 2 jokers; an untaken pozzetto becomes the new stock). Options (RULES.md):
``players`` (2, 3 or 4; must match the record's players), ``duplicate_sets``
(False: a side may not hold two sets of one rank), ``semi_clean`` (True),
``closing_requires`` (``any``, ``clean``, ``clean_or_semi``), ``target``
(2005) and ``hands`` (0: play to the target; N: a fixed number of hands).

Seats and sides: 2 players or 3 players each alone (side = seat); 4 players in
partnerships, side = the players' ``team`` (seats 0 and 2 team 0, seats 1 and
3 team 1; without ``team`` the same split is assumed). Partners share melds
and one pozzetto per side.

How the record shows Burraco's moves:

- ``discard_taken`` takes the whole discard pile (``cards`` = the pile,
  bottom first).
- ``pozzetto_taken`` by the seat whose hand is empty: during its turn after
  the meld or lay-off that emptied it (*al volo*: play continues), or right
  after the discard that emptied it (*con lo scarto*: the pozzetto is played
  from the seat's next turn, ``BUR-POZZ-2``). It is not a turn action, so it
  never raises ``ALL-TURN-…``.
- Preset ``seed``, stock exhausted: the record shows ``stock_restocked``
  (``cards``, top first, optional) when an untaken pozzetto becomes the stock:
  its ``cards`` must be one untaken pozzetto's cards (any order); without
  ``cards`` the lowest-numbered untaken pozzetto becomes the stock in the
  order the deal listed it (first card on top). A ``card_drawn`` from an
  empty stock while a pozzetto is untaken does the same implicitly (the
  pozzetto whose first card is the card drawn, else the lowest-numbered one).
  A pozzetto that became the stock is not *taken*: its side still scores
  −100. In ``fibur`` a ``stock_restocked`` is rejected (``REC-ORDER``).

Scoring (per side, as played; ``Rules.score_hand``), breakdown components:

- ``melds``: the card values of the side's melds (every meld on the table,
  valid or not);
- ``burraco_clean`` (+200 each), ``burraco_semi_clean`` (+150 each),
  ``burraco_dirty`` (+100 each): bonuses of the side's valid melds of 7+;
- ``closing``: +100 to the side that went out (``hand_ended`` reason
  ``went_out`` with its ``seat``), only for a regular closing: a going out
  that breaks BUR-CLOSE-1, -2 or -3 earns none (RULES.md), so +100 never
  comes with the −100 of a side that never took its pozzetto;
- ``hand``: minus the card values left in the side's hands (a pozzetto taken
  and not played is there);
- ``no_pozzetto``: −100 when the side took no pozzetto this hand;
- ``penalty`` (added by the score sheet): referee penalties of the hand.

Any other ending (``stock_exhausted``, ``stalled``, ``time_out``,
``abandoned``) scores the same way without the closing bonus.

Where the closing rules are reported (RULES.md: a finding belongs to the
event that breaks the rule, even when a later ``position_restored`` rewinds
it): a seat whose side has already taken its pozzetto goes out at the event
that empties its hand, so BUR-CLOSE-2 (no burraco of the required kind) and
BUR-CLOSE-3 (the last card melded or laid off, or a wild discarded) are
reported at that meld, lay-off or discard. Emptying the hand before the
side has its pozzetto is the pozzetto pick-up; when ``hand_ended``
``went_out`` follows without it, BUR-CLOSE-1 (and -2, -3 as they apply) is
reported at ``hand_ended``.

Stock exhausted, preset ``fibur``: the discard that leaves two cards (or
fewer) in the stock ends the hand. Any play after it (a draw, taking the
pile, a meld, a lay-off, a discard, a pozzetto other than the one the
discarding seat takes with that discard) is BUR-STOCK-1, reported once at
the first such event; the table follows the record, but those plays do not
count: their own faults are not reported and the hand is scored on the
table as it stood after that discard.

The game ends when a side reaches ``target`` at the end of a hand (or
after ``hands`` hands); the higher total wins, a tie has no winner.

Rule ids: BUR-TURN-1, BUR-MELD-1/2/3, BUR-PILE-1, BUR-POZZ-1/2,
BUR-CLOSE-1/2/3, BUR-STOCK-1, plus the ALL-/REC- rules of the base.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar, Literal

from ledger.cards import JOKER, RANK, pretty, pretty_list
from ledger.errors import RecordError
from ledger.events import (
    CardDiscarded,
    DiscardTaken,
    Event,
    HandEnded,
    JokerSwapped,
    MeldExtended,
    MeldLaid,
    PenaltyAssessed,
    PozzettoTaken,
)
from ledger.state import Meld, SideScore, TableState, VariantState, replace
from ledger.texts import N_, Message
from ledger.variants.base import Handler
from ledger.variants.burraco.pozzetto import BurracoPozzetti
from ledger.variants.burraco.scoring import burraco_kind, burraco_rank, side_breakdown
from ledger.variants.burraco.state import PLAY_EVENTS, BurracoExtra, BurracoOptions, TableAtEnd
from ledger.variants.burraco.words import WITHOUT_BURRACO, WITHOUT_POZZETTO, late_play_message
from ledger.variants.core import after_game_ended


def is_wild_card(card: str) -> bool:
    """A jolly or a 2 (as a card on its own, before placement in a meld).

    >>> is_wild_card("JK"), is_wild_card("2C"), is_wild_card("3C")
    (True, True, False)
    """
    return card == JOKER or RANK[card] == 2


class BurracoRules(BurracoPozzetti):
    """Rules object for Burraco (see the module docstring); the table's
    parameters and its state are :class:`~ledger.variants.burraco.table.BurracoTable`'s,
    the pozzetti :class:`~ledger.variants.burraco.pozzetto.BurracoPozzetti`'s."""

    variant = "burraco"
    default_ruleset = "fibur"
    options_type = BurracoOptions
    settings: BurracoOptions  # the record's options, typed (set by Rules.__init__)
    presets: ClassVar[dict[str, BurracoOptions]] = {
        "fibur": BurracoOptions(jokers=4, stock_end="last_two"),
        "seed": BurracoOptions(jokers=2, stock_end="pozzetto"),
    }
    players_allowed = (2, 3, 4)

    def __init__(self, ruleset: str | None = None, options: dict[str, Any] | None = None, n_players: int = 2):
        super().__init__(ruleset, options, n_players)
        want = self.settings.players
        if want is not None and want != n_players:
            raise RecordError(
                "REC-REF",
                f"option players is {want} but the record seats {n_players} players",
                field="options.players",
                position=0,
            )

    # --- play after the hand ended at the stock's end (fibur) -------------------
    def apply(self, state: TableState, event: Event) -> TableState:
        """The base's dispatch; after the discard that ended a ``fibur`` hand
        at the stock's end, play is BUR-STOCK-1 (once) and does not count
        (see the module docstring). Rejections (``REC-…``) still apply."""
        x = state.extra  # self.ex(state), written out: read at every event
        end = x.stock_end if isinstance(x, BurracoExtra) else None
        if end is None or event.type not in PLAY_EVENTS or state.phase not in ("draw", "play"):
            # Rules.apply's body, written out (a call less at every event; kept in step with it)
            pos = state.position + 1
            if state.phase == "ended" and type(event) is not PenaltyAssessed:  # FORMAT.md "Rulings after the game"
                raise RecordError("REC-ORDER", after_game_ended(event.type), field="type", position=pos)
            kind = type(event)
            fast = self._fast.get(kind)
            if fast is not None and (done := fast(self, state, event, pos)) is not None:
                return done
            return self._handlers[kind](self, replace(state, position=pos, history=state), event, pos)
        new = super().apply(state, event)
        if isinstance(event, PozzettoTaken) and event.seat == end.seat and not end.hands[end.seat]:
            # the pozzetto taken with the discard that ended the hand (RULES.md, "Pozzetto": taken then)
            got = Counter(new.hands[event.seat]) - Counter(state.hands[event.seat])
            hands = list(end.hands)
            hands[event.seat] = end.hands[event.seat] + tuple(got.elements())
            return self.set_extra(new, stock_end=replace(end, hands=tuple(hands), pozzetto_by=new.pozzetto_by))
        new = replace(new, findings=state.findings)  # a play that does not count: its own faults are not reported
        ex = self.ex(state)
        if ex.late_play is not None:
            return new
        pos = new.position
        new = self.flag(new, pos, getattr(event, "seat", None), "BUR-STOCK-1", self.late_play_text(state, event, end))
        return self.set_extra(new, late_play=pos)

    @staticmethod
    def late_play_text(state: TableState, event: Event, end: TableAtEnd) -> Message:
        """The BUR-STOCK-1 message for play after the discard that ended the hand."""
        return late_play_message(state, event, end.position)

    # --- melds ----------------------------------------------------------------
    def check_duplicate_sets(
        self, before: Meld | None, after: Meld, state: TableState, pos: int, seat: int
    ) -> TableState:
        """BUR-MELD-2: the meld just laid or extended (``before`` -> ``after``)
        made its side hold two sets of one rank (unless ``duplicate_sets``)."""
        if self.settings.duplicate_sets or after.info.kind != "set" or after.info.rank == 2:
            return state
        rank = after.info.rank
        if before is not None and before.info.kind == "set" and before.info.rank == rank:
            return state  # it was already a set of that rank: nothing new
        sets = [m for m in state.melds if m.side == after.side and m.info.kind == "set" and m.info.rank == rank]
        if len(sets) < 2:
            return state
        shown = "; ".join(f"{m.id}: {pretty_list(m.cards)}" for m in sets)
        return self.flag(
            state,
            pos,
            seat,
            "BUR-MELD-2",
            N_("%(side)s holds two sets of the same rank (%(melds)s)"),
            side=state.side_message(after.side),
            melds=shown,
        )

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:
        """Meld validity (BUR-MELD-1, ALL-MELD-1/2) and BUR-MELD-2."""
        # BurracoPozzetti by name, not super() (here and in the hot hooks
        # below): this class derives from it alone, so its MRO is this one's
        # past BurracoRules; super() costs an object per call.
        state = BurracoPozzetti.check_meld(self, state, pos, seat, meld, event)
        return self.check_duplicate_sets(None, meld, state, pos, seat)

    def check_layoff(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended
    ) -> TableState:
        """BUR-TURN-1 (lay-off on the other side's meld), validity, BUR-MELD-2."""
        side = state.sides[seat]
        if before.side != side:
            state = self.flag(
                state,
                pos,
                seat,
                "BUR-TURN-1",
                N_(
                    "%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own "
                    "side's melds"
                ),
                who=state.name(seat),
                cards=pretty_list(event.cards),
                meld=before.id,
                side=state.side_message(before.side),
            )
        state = BurracoPozzetti.check_layoff(self, before, after, state, pos, seat, event)
        return self.check_duplicate_sets(before, after, state, pos, seat)

    def check_swap(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: JokerSwapped
    ) -> TableState:
        """BUR-MELD-3: a wild never goes back to the hand."""
        return self.flag(
            state,
            pos,
            seat,
            "BUR-MELD-3",
            N_(
                "%(who)s took the wild %(joker)s back into the hand from meld %(meld)s (put in %(card)s): in "
                "Burraco a wild never leaves the table"
            ),
            who=state.name(seat),
            joker=pretty(event.joker),
            meld=before.id,
            card=pretty(event.card),
        )

    # --- going out ----------------------------------------------------------------
    def closing_faults(self, state: TableState, seat: int, melded: bool, last: str | None) -> list[tuple[str, Message]]:
        """``(rule, message)`` of each BUR-CLOSE rule that ``seat`` breaks by
        going out now: without its side's pozzetto (1), without a burraco of
        the required kind (2), by melding the last card or discarding a wild
        (3; ``melded``: the hand emptied by a meld or lay-off, ``last``: the
        card discarded last)."""
        name, side = state.name(seat), state.sides[seat]
        faults = []
        if not self.side_took_pozzetto(state, side):
            faults.append(("BUR-CLOSE-1", Message(WITHOUT_POZZETTO, who=name, side=state.side_message(side))))
        requires = self.settings.closing_requires
        kinds = [burraco_kind(m.info, self.settings.semi_clean) for m in state.side_melds(side)]
        if not any(burraco_rank(k, requires) for k in kinds):
            msgid = WITHOUT_BURRACO[requires]
            faults.append(("BUR-CLOSE-2", Message(msgid, who=name, side=state.side_message(side))))
        if melded:
            faults.append(
                (
                    "BUR-CLOSE-3",
                    Message(N_("%(who)s went out by melding the last card instead of discarding it"), who=name),
                )
            )
        elif last is not None and is_wild_card(last):
            faults.append(
                (
                    "BUR-CLOSE-3",
                    Message(N_("%(who)s went out by discarding a wild (%(card)s)"), who=name, card=pretty(last)),
                )
            )
        return faults

    def judge_going_out(self, state: TableState, pos: int, seat: int, melded: bool, last: str | None) -> TableState:
        """Flag the BUR-CLOSE faults of a going out at ``pos`` and remember it (``going_out``)."""
        faults = self.closing_faults(state, seat, melded, last)
        for rule, message in faults:
            state = self.flag(state, pos, seat, rule, message)
        return self.set_extra(state, going_out=(pos, seat, tuple(r for r, _ in faults)))

    def goes_out_now(self, before: TableState, state: TableState, seat: int) -> bool:
        """True when this event emptied ``seat``'s hand while its side already
        had its pozzetto: that is going out (RULES.md, BUR-CLOSE-3)."""
        return bool(before.hands[seat]) and not state.hands[seat] and self.side_took_pozzetto(state, state.sides[seat])

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """A meld or lay-off that empties the hand of a seat whose side has
        its pozzetto goes out by melding: BUR-CLOSE-3 (and -2) here."""
        state = BurracoPozzetti.after_meld(self, before, state, pos, seat)
        if self.goes_out_now(before, state, seat):
            state = self.judge_going_out(state, pos, seat, melded=True, last=None)
        return state

    def _early_play(
        self, state: TableState, e: MeldLaid | MeldExtended | CardDiscarded, pos: int, handler: Handler
    ) -> TableState:
        """BUR-POZZ-2: the seat that took a pozzetto with its discard plays
        before its next turn. Flagged instead of ALL-TURN-1; the play is
        applied and the turn stays with the seat due. ``handler``: the base's
        unbound handler (by name, not ``super()``: see :meth:`check_meld`)."""
        x = state.extra  # self.ex(state), written out: read at every play
        if (
            not isinstance(x, BurracoExtra)
            or x.early_seat != e.seat
            or state.turn == e.seat
            or state.phase not in ("draw", "play")
        ):
            return handler(self, state, e, pos)
        cards = e.cards if not isinstance(e, CardDiscarded) else (e.card,)
        state = self.flag(
            state,
            pos,
            e.seat,
            "BUR-POZZ-2",
            N_("%(who)s played %(cards)s from the pozzetto taken with the discard before its next turn"),
            who=state.name(e.seat),
            cards=pretty_list(cards),
        )
        keep = {
            "turn": state.turn,
            "phase": state.phase,
            "drew": state.drew,
            "taken": state.taken,
            "turn_start": state.turn_start,
            "turn_melds": state.turn_melds,
            "turns": state.turns,
        }
        new = handler(self, replace(state, turn=e.seat, phase="play"), e, pos)
        return replace(new, **keep)

    #: the seat due's melds and lay-offs are the base's (:meth:`_early_play` is only for another seat)
    _meld_fused = True

    def on_meld_laid(self, state: TableState, e: MeldLaid, pos: int) -> TableState:
        return self._early_play(state, e, pos, BurracoPozzetti.on_meld_laid)

    def on_meld_extended(self, state: TableState, e: MeldExtended, pos: int) -> TableState:
        return self._early_play(state, e, pos, BurracoPozzetti.on_meld_extended)

    def on_card_discarded(self, state: TableState, e: CardDiscarded, pos: int) -> TableState:
        """The discard; going out when it empties the hand of a seat whose
        side has its pozzetto (BUR-CLOSE-2/-3 here); under ``fibur`` the
        discard that leaves two stock cards ends the hand (``stock_end``)."""
        before = state
        state = self._early_play(state, e, pos, BurracoPozzetti.on_card_discarded)
        if 0 <= e.seat < state.n_seats and self.goes_out_now(before, state, e.seat):
            state = self.judge_going_out(state, pos, e.seat, melded=False, last=e.card)
        if self.settings.stock_end == "last_two" and state.stock_count <= 2 and self.ex(state).stock_end is None:
            end = TableAtEnd(pos, e.seat, state.hands, state.melds, state.pozzetto_by)
            state = self.set_extra(state, stock_end=end)
        return state

    # --- drawing and discarding -------------------------------------------------
    def on_discard_taken(self, state: TableState, e: DiscardTaken, pos: int) -> TableState:
        held = state.hands[e.seat] if 0 <= e.seat < len(state.hands) else ()
        state = BurracoPozzetti.on_discard_taken(self, state, e, pos)
        single = (pos, e.cards[0]) if len(e.cards) == 1 and e.cards[0] not in held else None
        return self.set_extra(state, single_take=single)

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """BUR-PILE-1: a one-card pile taken and that card discarded in the same turn."""
        took = self.ex(state).single_take
        if took is not None and took[0] >= state.turn_start and took[1] == card and state.turn == seat:
            state = self.flag(
                state,
                pos,
                seat,
                "BUR-PILE-1",
                N_("%(who)s discarded %(card)s, the single card just taken from the discard pile"),
                who=state.name(seat),
                card=pretty(card),
            )
        return self.set_extra(state, last_discard=(pos, seat, card), single_take=None)

    def _discard_extra(self, state: TableState, pos: int, seat: int, card: str) -> BurracoExtra | Literal[False]:
        """The fused discard: False for a discard that empties the hand (going
        out), reaches the stock's end (``fibur``) or may be BUR-PILE-1, else the
        extra :meth:`check_discard` and :meth:`start_turn` leave."""
        x = state.extra
        if (
            not isinstance(x, BurracoExtra)
            or len(state.hands[seat]) <= 1
            or (self.settings.stock_end == "last_two" and state.stock_count <= 2)
            or ((took := x.single_take) is not None and took[0] >= state.turn_start and took[1] == card)
        ):
            return False
        early = x.early_seat
        if early is not None and early == self.next_seat(state, seat):
            early = None
        return replace(x, last_discard=(pos, seat, card), single_take=None, early_seat=early)

    def _draw_extra(self, state: TableState, seat: int) -> VariantState | None | Literal[False]:
        """The fused draw: False when it may be BUR-STOCK-1 (:meth:`after_draw`)."""
        if self.settings.stock_end == "last_two" and state.stock_count < 3:
            return False
        return state.extra

    def after_draw(self, state: TableState, pos: int, seat: int) -> TableState:
        """BUR-STOCK-1 (preset fibur): a draw from the last two stock cards."""
        if self.settings.stock_end == "last_two" and state.stock_count < 2:
            drawn = state.hands[seat][-1]
            state = self.flag(
                state,
                pos,
                seat,
                "BUR-STOCK-1",
                N_("%(who)s drew %(card)s from the last two stock cards, which are never drawn"),
                who=state.name(seat),
                card=pretty(drawn),
            )
        return state

    # --- the end of a hand --------------------------------------------------------
    def check_closing(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        """BUR-CLOSE-1/2/3 for ``hand_ended`` reason ``went_out``, unless the
        going out was already judged at the event that emptied the hand; a
        going out after the hand ended at the stock's end does not count."""
        seat = e.seat
        if e.reason != "went_out" or seat is None or not 0 <= seat < state.n_seats or state.hands[seat]:
            return state
        ex = self.ex(state)
        if ex.going_out is not None and ex.going_out[1] == seat:
            return state
        if ex.stock_end is not None and ex.stock_end.hands[seat]:
            return state  # the hand emptied by play that does not count (BUR-STOCK-1)
        melded = state.phase == "play" and state.turn == seat
        last = ex.last_discard[2] if ex.last_discard is not None and ex.last_discard[1] == seat and not melded else None
        return self.judge_going_out(state, pos, seat, melded, last)

    def closing_side(self, state: TableState, e: HandEnded) -> int | None:
        """The side that earns the closing bonus: it went out, regularly
        (no BUR-CLOSE finding), and not by play after the stock's end."""
        going = self.ex(state).going_out
        if e.reason != "went_out" or e.seat is None or going is None or going[1] != e.seat or going[2]:
            return None
        end = self.ex(state).stock_end
        if end is not None and going[0] > end.position:
            return None
        return state.sides[e.seat]

    def on_hand_ended(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        self.in_hand(state, e, pos)
        if e.seat is not None:
            self.check_seat(state, e.seat, pos)
        state = self.check_closing(state, e, pos)
        return super().on_hand_ended(state, e, pos)

    def hand_over(self, state: TableState) -> bool:
        """Also True after the discard that ended the hand at the stock's end
        (preset ``fibur``: the last two stock cards are never drawn; RULES.md
        BUR-STOCK-1), before ``hand_ended`` is recorded."""
        x = state.extra
        return super().hand_over(state) or (isinstance(x, BurracoExtra) and x.stock_end is not None)

    def game_end_reason(self, state: TableState) -> str | None:
        """Between hands: ``hands_played`` once the ``hands`` option's number
        of hands is played, else ``target_reached`` once a side is at or
        above ``target`` (2005 by default) (RULES.md, Burraco "Scoring")."""
        if state.phase != "over":
            return super().game_end_reason(state)
        hands = self.settings.hands
        if hands:
            return "hands_played" if len({r.hand for r in state.results}) >= hands else None
        return "target_reached" if any(t >= self.settings.target for t in state.totals) else None

    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """Each side's score with the breakdown of the module docstring (the
        closing bonus only for a regular closing; after the stock's end under
        ``fibur``, on the table as it stood after the discard that ended the hand)."""
        closer = self.closing_side(state, e)
        end = self.ex(state).stock_end
        if end is not None:  # fibur: the table as it stood after the discard that ended the hand
            state = replace(state, hands=end.hands, melds=end.melds, pozzetto_by=end.pozzetto_by)
        scores = []
        for side in range(state.n_sides):
            breakdown = side_breakdown(
                (m.info for m in state.side_melds(side)),
                (state.hands[s] for s in state.seats_of(side)),
                closed=side == closer,
                took_pozzetto=self.side_took_pozzetto(state, side),
                semi_clean=self.settings.semi_clean,
            )
            scores.append(SideScore(side, sum(breakdown.values()), breakdown))
        return tuple(scores)
