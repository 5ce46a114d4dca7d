"""Gin Rummy, RULES.md "Gin Rummy (`gin`)".

52 cards, two players, 10 each, one upcard. Presets ``standard`` (game to
100 with game and box bonuses, big gin, undercut on equal deadwood, the card
taken from the discard pile may not be discarded) and ``openspiel`` (mirrors
OpenSpiel's ``gin_rummy``: one hand, equal deadwood is 0–0, no big gin, the
card taken from the pile may go back). Options: ``knock_card`` (10),
``gin_bonus`` (25), ``undercut_bonus`` (25), ``target`` (100) and
``oklahoma`` (False: when True, each hand's first upcard sets its knock limit,
its value, an ace 0 so only gin may knock, as OpenSpiel's ``oklahoma=true``;
scores are not doubled).

How a hand reads in a record (FORMAT.md events):

* ``hand_dealt`` (the non-dealer plays first), then the first-turn upcard
  offer: the non-dealer ``discard_taken`` (the upcard) or ``upcard_passed``;
  after a pass the dealer takes it or passes; after two passes the
  non-dealer draws from the stock (``card_drawn``). ``upcard_passed``
  anywhere else is rejected (``REC-ORDER``): it has no meaning there.
* Ordinary turns: ``card_drawn`` or ``discard_taken``, then
  ``card_discarded`` or ``knocked``.
* ``knocked`` {seat, discard (face down, onto the pile), melds, deadwood}:
  the declared melds go on the table under their ids, owned by the knocker.
* **The defender's melds and lay-offs** follow the knock as ordinary events
  by the defender: ``meld_laid`` (its own melds, new ids) and
  ``meld_extended`` onto the knocker's meld ids (the lay-offs), in any order;
  no draw or discard. Then ``hand_ended`` reason ``knocked``, ``seat`` the
  knocker.
* The wall (two stock cards left after a discard): ``hand_ended`` reason
  ``stock_exhausted`` (0–0). In ``openspiel`` the seat to play may instead
  take the upcard (``discard_taken``) and knock at once.
* **Hand endings the record may play past** (GIN-WALL-1, GIN-STALL-1): the
  first play event (draw, upcard pass, discard, knock, meld, lay-off) after
  the hand was over is flagged once; it and every later play of the hand do
  not count (their other findings are not reported, the cards still move so
  the record is still checked for ``REC-…``) and the hand scores 0–0 whatever
  its ``hand_ended`` says. ``standard``: the hand is over at the discard that
  leaves two stock cards (GIN-WALL-1 at the first play after it, normally a
  draw). ``openspiel``: at the wall a stock draw is GIN-WALL-1, and so is the
  event after an upcard take that is not that seat's ``knocked`` (a
  ``hand_ended`` included); the repeated-move rule (two turns in a row take
  the upcard and discard it again) ends the hand at the second such discard,
  and the 50th upcard draw after the first turn is itself play after the end
  (GIN-STALL-1). In both presets a stock draw that takes one of the last two
  stock cards is GIN-WALL-1.
* **Big gin** (``standard``): a gin whose eleven cards before the face-down
  discard are all in melds (the ledger checks this with
  :mod:`ledger.variants.gin.deadwood`); it scores 31 instead of the gin bonus.

Scoring uses the melds each seat declared: a seat's deadwood is the value of
the cards left in its hand, plus the cards of its declared melds that are not
valid and of lay-offs that were not allowed (those cards do not leave the
deadwood). Knocker below the defender: the knocker scores the difference;
otherwise an undercut: the defender scores the difference plus the undercut
bonus (``openspiel``: equal deadwood scores 0–0). Gin: gin bonus plus the
defender's deadwood. In ``standard``, the hand in which a seat reaches the
target also carries the game bonus (100, to that seat) and the box bonuses
(25 per hand won, to each seat): breakdown ``game_bonus`` and ``box_bonus``.

Rule ids: GIN-KNOCK-1, GIN-KNOCK-2, GIN-LAY-1, GIN-DISC-1, GIN-WALL-1,
GIN-STALL-1 (and the common ALL-TURN-1 for play after a knock other than the
defender's melds).

Modules: this one is the rules object (options, turns, the knock, lay-offs);
the hand's endings are :mod:`ledger.variants.gin.endings`, the scoring
:mod:`ledger.variants.gin.scoring`, the best arrangement of a hand
:mod:`ledger.variants.gin.deadwood`, the per-hand state
:mod:`ledger.variants.gin.state`; what the views add is
:mod:`ledger.variants.gin.presentation`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from ledger.cards import UNKNOWN, pretty, pretty_list
from ledger.events import DiscardTaken, Event, HandEnded, Knocked, MeldExtended, MeldLaid, UpcardPassed
from ledger.melds import FAULTS, MeldRules, analyze
from ledger.state import Meld, SideScore, TableState, replace, variant_state
from ledger.texts import N_, Message
from ledger.variants.base import Rules
from ledger.variants.core import meld_id_used
from ledger.variants.gin.deadwood import big_gin, card_value, deadwood_value
from ledger.variants.gin.endings import ending_finding, knock_cards, past_the_end, quiet_play, track_endings
from ledger.variants.gin.scoring import counted_deadwood, hand_scores, unknown_seats
from ledger.variants.gin.state import (
    OFFER_BOTH_PASSED,
    OFFER_DEALER,
    OFFER_NON_DEALER,
    OFFER_OVER,
    PLAY_EVENT_CLASSES,
    GinExtra,
    GinOptions,
)
from ledger.variants.gin.words import AFTER_KNOCK, declaration_message, limit_source
from ledger.variants.outcome import target_reached


class GinRules(Rules):
    """Rules object for Gin Rummy (two seats)."""

    knocking = True

    variant = "gin"
    default_ruleset = "standard"
    options_type = GinOptions
    settings: GinOptions  # the record's options, typed (set by Rules.__init__)
    presets: ClassVar[dict[str, GinOptions]] = {
        "standard": GinOptions(
            target=100,
            big_gin_bonus=31,
            game_bonus=100,
            box_bonus=25,
            undercut_on_equal=True,
            retake_forbidden=True,
            openspiel_endings=False,
        ),
        "openspiel": GinOptions(
            target=0,
            big_gin_bonus=0,
            game_bonus=0,
            box_bonus=0,
            undercut_on_equal=False,
            retake_forbidden=False,
            openspiel_endings=True,
        ),
    }
    players_allowed = (2,)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        return 10

    def meld_rules(self) -> MeldRules:
        return MeldRules(max_wilds=0, ace_high=False, max_set=4, max_sequence=13)

    def new_extra(self, state: TableState) -> GinExtra:
        return GinExtra(
            limit=self.hand_knock_limit(state.discard[:1]), first_upcard=state.discard[0] if state.discard else ""
        )

    @staticmethod
    def ex(state: TableState) -> GinExtra:
        """The hand's :class:`GinExtra` (raises :class:`TypeError` before the first deal)."""
        x = state.extra
        return x if isinstance(x, GinExtra) else variant_state(state, GinExtra)

    def hand_knock_limit(self, upcard: tuple[str, ...]) -> int:
        """The knock limit of a hand whose first upcard is ``upcard`` (a
        1-tuple, or empty): option ``knock_card``; under ``oklahoma`` the
        upcard's value (face cards 10), an ace 0 (gin only), RULES.md."""
        if self.settings.oklahoma and upcard:
            value = card_value(upcard[0])
            return 0 if value == 1 else value
        return self.settings.knock_card

    def knock_limit(self, state: TableState) -> int:
        """The knock limit in force in the current hand."""
        x = state.extra
        return x.limit if isinstance(x, GinExtra) else self.settings.knock_card

    # --- the hand's endings: the wall, OpenSpiel's stalls (GIN-WALL-1, GIN-STALL-1) ---
    def apply(self, state: TableState, event: Event) -> TableState:
        """Play after the end of a hand (:mod:`ledger.variants.gin.endings`): see the
        module docstring. Other events, and draws and discards that neither end the
        hand nor move a track (:func:`quiet_play`), go to the handlers unchanged."""
        x = state.extra
        if type(event) not in PLAY_EVENT_CLASSES or not isinstance(x, GinExtra) or state.phase not in ("draw", "play"):
            return Rules.apply(self, state, event)  # named, not super(): its lookup costs a struct copy per event
        openspiel = self.settings.openspiel_endings
        if x.over is None and quiet_play(state, x, event, openspiel):
            return Rules.apply(self, state, event)
        pos = state.position + 1
        if x.over is None:
            fault = past_the_end(state, x, event, pos, openspiel)
            if fault is not None:
                x = replace(x, over=fault[0], over_at=fault[1])
                state = replace(state, extra=x)
        if x.over is not None:
            after = super().apply(state, event)
            after = replace(
                after,
                findings=state.findings,
                extra=replace(self.ex(after), over=x.over, over_at=x.over_at, reported=True),
            )
            if not x.reported:
                after = self.flag(after, pos, *ending_finding(state, x, event, openspiel))
            return after
        after = super().apply(state, event)
        return track_endings(state, after, event, pos, openspiel)

    # --- turns -----------------------------------------------------------------
    _meld_fused = True  # the seat due's melds and lay-offs pass act unchanged (fused paths), knock or not

    def act(self, state: TableState, seat: int, pos: int, kind: str, event: Event) -> TableState:
        """After a knock only the defender's melds and lay-offs remain: any
        draw or discard is out of turn (``ALL-TURN-1``); melds and lay-offs
        are judged by :meth:`check_meld` / :meth:`check_layoff`."""
        x = state.extra
        if not isinstance(x, GinExtra) or x.knocker is None:
            return super().act(state, seat, pos, kind, event)
        self.in_hand(state, event, pos)
        self.check_seat(state, seat, pos)
        if kind != "play":
            state = self.flag(
                state,
                pos,
                seat,
                "ALL-TURN-1",
                AFTER_KNOCK[kind == "draw"],
                who=state.name(seat),
                knocker=state.name(x.knocker),
            )
        return state

    def on_upcard_passed(self, state: TableState, e: UpcardPassed, pos: int) -> TableState:
        """The first-turn offer: non-dealer, then dealer, may decline the upcard."""
        self.in_hand(state, e, pos)
        seat = e.seat
        self.check_seat(state, seat, pos)
        x = self.ex(state)
        if x.knocker is not None or x.offer >= OFFER_BOTH_PASSED or state.phase != "draw":
            raise self.reject("REC-ORDER", "upcard_passed outside the first-turn upcard offer", pos, "type")
        if seat != state.turn:
            state = self.flag(
                state,
                pos,
                seat,
                "ALL-TURN-1",
                N_("%(who)s passed the upcard out of turn: it was %(due)s's turn"),
                who=state.name(seat),
                due=state.name(state.turn),
            )
        other = 1 - seat
        if x.offer == OFFER_NON_DEALER:
            state = self.start_turn(state, other, pos)
            return replace(state, extra=replace(x, offer=OFFER_DEALER))
        # both passed: the non-dealer draws from the stock
        return replace(state, turn=other, phase="draw", turn_start=pos, extra=replace(x, offer=OFFER_BOTH_PASSED))

    def after_draw(self, state: TableState, pos: int, seat: int) -> TableState:
        return self._offer_over(state)

    def on_discard_taken(self, state: TableState, e: DiscardTaken, pos: int) -> TableState:
        return self._offer_over(super().on_discard_taken(state, e, pos))

    @staticmethod
    def _offer_over(state: TableState) -> TableState:
        x = GinRules.ex(state)
        if x.offer == OFFER_OVER:
            return state
        return replace(state, extra=replace(x, offer=OFFER_OVER))

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """GIN-DISC-1 (``standard``): the card just taken from the discard pile discarded again."""
        if self.settings.retake_forbidden and card in state.taken:
            state = self.flag(
                state,
                pos,
                seat,
                "GIN-DISC-1",
                N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),
                who=state.name(seat),
                card=pretty(card),
            )
        return state

    def _draw_extra(self, state: TableState, seat: int) -> GinExtra | Literal[False]:
        """The fused draw: False after a knock (:meth:`act`), else the extra, offer over (:meth:`after_draw`)."""
        x = state.extra
        if not isinstance(x, GinExtra) or x.knocker is not None:
            return False
        return x if x.offer == OFFER_OVER else replace(x, offer=OFFER_OVER)

    def _discard_extra(self, state: TableState, pos: int, seat: int, card: str) -> GinExtra | Literal[False]:
        """The fused discard: False after a knock (:meth:`act`) or for a GIN-DISC-1 (:meth:`check_discard`)."""
        x = state.extra
        retake = self.settings.retake_forbidden and card in state.taken
        return False if not isinstance(x, GinExtra) or x.knocker is not None or retake else x

    # --- the knock --------------------------------------------------------------
    def on_knocked(self, state: TableState, e: Knocked, pos: int) -> TableState:
        """A knock: the face-down discard goes on the pile, the declared melds
        on the table; GIN-DISC-1, GIN-KNOCK-2 (invalid melds, a declaration
        that is not the hand), GIN-KNOCK-1 (deadwood above the knock card)."""
        state = self.act(state, e.seat, pos, "discard", e)
        seat = e.seat
        state, discard, eleven = knock_cards(self, state, e, pos)  # partial records: ?? known from the declaration
        hand = self.remove_from_hand(state, seat, (discard,), pos, "discard")
        state = replace(self.set_hand(state, seat, hand), discard=state.discard + (discard,))
        state = self.check_discard(state, pos, seat, discard)
        ids = [m.meld for m in e.melds]
        for i, mid in enumerate(ids):
            if mid in ids[:i] or state.meld(mid) is not None:
                raise self.reject("REC-REF", meld_id_used(mid, state.hand), pos, f"melds[{i}].meld")
        left = dict.fromkeys(hand, 0)  # each card held -> copies not yet placed in a meld
        for c in hand:
            left[c] += 1
        state, melds, void = self._declared_melds(state, e, pos, left)
        state = self._check_declaration(state, e, pos, hand)
        rest = tuple(c for c in hand if left[c] > 0)  # one deck: no face twice
        counted = deadwood_value(tuple(c for c in rest if c != UNKNOWN)) + deadwood_value(void)  # ??: a lower bound
        limit = self.knock_limit(state)
        if counted > limit:
            state = self.flag(
                state,
                pos,
                seat,
                "GIN-KNOCK-1",
                N_("%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s"),
                who=state.name(seat),
                n=counted,
                cards=pretty_list(rest + tuple(void)),
                limit=limit,
                source=self._limit_source(state),
            )
        gin = counted == 0
        big = big_gin(eleven, discard) if gin and self.settings.big_gin_bonus else {}
        voids = list(self.ex(state).void)
        voids[seat] = voids[seat] + tuple(void)
        state = replace(self.set_hand(state, seat, rest), melds=state.melds + tuple(melds))
        state = self.end_turn(state, pos)
        x = replace(self.ex(state), knocker=seat, gin=gin, void=tuple(voids), offer=OFFER_OVER, **big)
        state = self.start_turn(state, 1 - seat, pos)
        return replace(state, phase="play", extra=x)

    def _declared_melds(
        self, state: TableState, e: Knocked, pos: int, left: dict[str, int]
    ) -> tuple[TableState, list[Meld], list[str]]:
        """The knock's melds as the cards held make them (``left``: the
        cards not yet placed, updated), the cards of invalid ones (they stay
        deadwood), and GIN-KNOCK-2 for each declared meld that is not valid."""
        void: list[str] = []
        melds: list[Meld] = []
        for dm in e.melds:
            held = []
            for c in dm.cards:
                if left.get(c, 0) > 0:
                    left[c] -= 1
                    held.append(c)
            info = analyze(held, self._meld_rules)
            melds.append(Meld(dm.meld, e.seat, state.sides[e.seat], tuple(held), info, pos))
            bad = info if len(held) == len(dm.cards) else analyze(dm.cards, self._meld_rules)  # all held: the same
            if not bad.valid:
                state = self.flag(
                    state,
                    pos,
                    e.seat,
                    "GIN-KNOCK-2",
                    N_("declared meld %(meld)s %(cards)s: %(fault)s"),
                    meld=dm.meld,
                    cards=pretty_list(dm.cards),
                    fault=Message(FAULTS[bad.faults[0]]),
                )
            if not info.valid:
                void.extend(held)
        return state, melds, void

    def _check_declaration(self, state: TableState, e: Knocked, pos: int, hand: tuple[str, ...]) -> TableState:
        """GIN-KNOCK-2: the declared melds and deadwood are not exactly the ten cards held."""
        found = declaration_message(state.name(e.seat), e, hand)
        return self.flag(state, pos, e.seat, "GIN-KNOCK-2", found) if found else state

    def _limit_source(self, state: TableState) -> str | Message:
        """`` (oklahoma: the first upcard K♦)`` when the upcard set the limit, else ``""``."""
        upcard = self.ex(state).first_upcard
        return limit_source(upcard) if self.settings.oklahoma and upcard else ""

    def _void(self, state: TableState, seat: int, cards: tuple[str, ...]) -> TableState:
        voids = list(self.ex(state).void)
        voids[seat] = voids[seat] + cards
        return self.set_extra(state, void=tuple(voids))

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:
        """After a knock: the defender's melds (invalid ones stay deadwood);
        a meld by the knocker after its knock is GIN-LAY-1."""
        x = self.ex(state)
        if x.knocker is not None and seat == x.knocker:
            state = self.flag(
                state,
                pos,
                seat,
                "GIN-LAY-1",
                N_("%(who)s laid %(cards)s after knocking: the knocker's melds are those declared with the knock"),
                who=state.name(seat),
                cards=pretty_list(meld.cards),
            )
            return self._void(state, seat, meld.cards)
        state = super().check_meld(state, pos, seat, meld, event)
        if not meld.info.valid:
            state = self._void(state, seat, meld.cards)
        return state

    def check_layoff(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended
    ) -> TableState:
        """GIN-LAY-1: a lay-off by the knocker, or onto the knocker's melds
        after gin; the cards stay deadwood. Other lay-offs must leave a valid meld."""
        x = self.ex(state)
        cards = tuple(event.cards)
        if x.knocker is not None and seat == x.knocker:
            state = self.flag(
                state,
                pos,
                seat,
                "GIN-LAY-1",
                N_("%(who)s laid off %(cards)s on meld %(meld)s: the knocker does not lay off"),
                who=state.name(seat),
                cards=pretty_list(cards),
                meld=before.id,
            )
            return self._void(state, seat, cards)
        if x.knocker is not None and x.gin and before.seat == x.knocker:
            state = self.flag(
                state,
                pos,
                seat,
                "GIN-LAY-1",
                N_("%(who)s laid off %(cards)s on meld %(meld)s after %(knocker)s went gin"),
                who=state.name(seat),
                cards=pretty_list(cards),
                meld=before.id,
                knocker=state.name(x.knocker),
            )
            return self._void(state, seat, cards)
        state = super().check_layoff(before, after, state, pos, seat, event)
        if not after.info.valid:
            state = self._void(state, seat, cards)
        return state

    # --- the end of a hand ----------------------------------------------------------
    def on_hand_ended(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        x = state.extra if isinstance(state.extra, GinExtra) else None
        if (
            x is not None
            and state.phase in ("draw", "play")
            and x.over is None
            and x.wall_take is not None
            and x.knocker is None
        ):
            # openspiel: the upcard taken at the wall, and the hand ends without the knock
            state = self.flag(
                state,
                pos,
                x.wall_take,
                "GIN-WALL-1",
                N_(
                    "%(who)s took the upcard at the wall without knocking with it: at the wall the upcard is taken "
                    "only to knock; the hand is a 0–0 draw"
                ),
                who=state.name(x.wall_take),
            )
            x = replace(x, over="wall", over_at=x.wall, reported=True)
            state = replace(state, extra=x)
        if e.reason == "knocked":
            self.in_hand(state, e, pos)
            if x is None or x.knocker is None:
                raise self.reject(
                    "REC-ORDER", N_("hand_ended reason knocked, but nobody knocked in this hand"), pos, "reason"
                )
            if e.seat is not None and e.seat != x.knocker:
                raise self.reject(
                    "REC-REF",
                    f"hand_ended names seat {e.seat}, but {state.name(x.knocker)} (seat {x.knocker}) knocked",
                    pos,
                    "seat",
                )
        return super().on_hand_ended(state, e, pos)

    def deadwood_of(self, state: TableState, seat: int) -> int:
        """A seat's counted deadwood after a knock: its hand plus its void cards."""
        return counted_deadwood(state, self.ex(state), seat)

    def hand_over(self, state: TableState) -> bool:
        """Also True once the hand is over by the rules though ``hand_ended``
        is not recorded yet: the wall (preset ``standard``), OpenSpiel's
        repeated-move rule or upcard-draw cap (RULES.md GIN-WALL-1, GIN-STALL-1)."""
        x = state.extra
        return super().hand_over(state) or (isinstance(x, GinExtra) and x.over is not None)

    def game_end_reason(self, state: TableState) -> str | None:
        """Between hands: with a ``target`` (100, preset ``standard``) a seat
        at or above it, ``target_reached``; without one (``target`` 0, preset
        ``openspiel``: a single hand) ``hands_played`` after the first hand
        (RULES.md, Gin "Scoring")."""
        if state.phase != "over":
            return super().game_end_reason(state)
        if not self.settings.target:
            return "hands_played" if state.results else None
        return target_reached(state, self.settings.target)

    def unknown_sides(self, state: TableState, e: HandEnded) -> frozenset[int]:
        """Both seats or neither (:func:`~ledger.variants.gin.scoring.unknown_seats`)."""
        return unknown_seats(self.ex(state), bool(super().unknown_sides(state, e)))

    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """Knock, gin, big gin, undercut, the game and box bonuses
        (:func:`~ledger.variants.gin.scoring.hand_scores`)."""
        return hand_scores(self.settings, state, self.ex(state), e.reason)
