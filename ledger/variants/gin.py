"""Gin Rummy, RULES.md "Gin Rummy (`gin`)".

52 cards, two players, 10 each, one upcard. Presets ``standard`` (game to
100 with game and box bonuses, big gin, undercut on equal deadwood, the card
taken from the discard pile may not be discarded) and ``openspiel`` (mirrors
OpenSpiel's ``gin_rummy``: one hand, equal deadwood is 0–0, no big gin, the
card taken from the pile may go back). Options: ``knock_card`` (10),
``gin_bonus`` (25), ``undercut_bonus`` (25), ``target`` (100).

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
* **Big gin** (``standard``): a gin whose eleven cards before the face-down
  discard are all in melds (the ledger checks this with
  :mod:`ledger.gin_deadwood`); it scores 31 instead of the gin bonus.

Scoring uses the melds each seat declared: a seat's deadwood is the value of
the cards left in its hand, plus the cards of its declared melds that are not
valid and of lay-offs that were not allowed (those cards do not leave the
deadwood). Knocker below the defender: the knocker scores the difference;
otherwise an undercut: the defender scores the difference plus the undercut
bonus (``openspiel``: equal deadwood scores 0–0). Gin: gin bonus plus the
defender's deadwood. In ``standard``, the hand in which a seat reaches the
target also carries the game bonus (100, to that seat) and the box bonuses
(25 per hand won, to each seat): breakdown ``game_bonus`` and ``box_bonus``.

Rule ids: GIN-KNOCK-1, GIN-KNOCK-2, GIN-LAY-1, GIN-DISC-1 (and the common
ALL-TURN-1 for play after a knock other than the defender's melds).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import msgspec

from ledger.cards import pretty, pretty_list
from ledger.events import Event, HandEnded, Knocked, MeldExtended, MeldLaid
from ledger.gin_deadwood import best_after_discard, best_arrangement, deadwood_value
from ledger.melds import FAULTS, MeldRules, analyze
from ledger.state import Meld, SideScore, TableState, replace
from ledger.variants.base import Rules

#: offer stages of the first-turn upcard (GinExtra.offer)
OFFER_NON_DEALER, OFFER_DEALER, OFFER_BOTH_PASSED, OFFER_OVER = 0, 1, 2, 3


class GinExtra(msgspec.Struct, frozen=True):
    """Per hand: the upcard offer stage, the knock, and per seat the cards
    that count as deadwood although they left the hand (``void``)."""

    offer: int = OFFER_NON_DEALER
    knocker: int | None = None
    gin: bool = False
    big_gin: bool = False
    void: tuple[tuple[str, ...], ...] = ((), ())


class GinRules(Rules):
    """Rules object for Gin Rummy (two seats)."""

    knocking = True

    variant = "gin"
    default_ruleset = "standard"
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25, "target": 100, "big_gin_bonus": 31,
                     "game_bonus": 100, "box_bonus": 25, "undercut_on_equal": True, "retake_forbidden": True},
        "openspiel": {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25, "target": 0, "big_gin_bonus": 0,
                      "game_bonus": 0, "box_bonus": 0, "undercut_on_equal": False, "retake_forbidden": False},
    }
    option_types: ClassVar[dict[str, Any]] = {
        "knock_card": (int,),
        "gin_bonus": (int,),
        "undercut_bonus": (int,),
        "target": (int,),
    }
    players_allowed = (2,)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        return 10

    def meld_rules(self) -> MeldRules:
        return MeldRules(jokers=False, max_wilds=0, ace_high=False, max_set=4, max_sequence=13)

    def new_extra(self, state: TableState) -> GinExtra:
        return GinExtra()

    # --- turns -----------------------------------------------------------------
    def act(self, state: TableState, seat: int, pos: int, kind: str, event: Event) -> TableState:
        """After a knock only the defender's melds and lay-offs remain: any
        draw or discard is out of turn (``ALL-TURN-1``); melds and lay-offs
        are judged by :meth:`check_meld` / :meth:`check_layoff`."""
        x: GinExtra = state.extra
        if x is None or x.knocker is None:
            return super().act(state, seat, pos, kind, event)
        self.in_hand(state, event, pos)
        self.check_seat(state, seat, pos)
        if kind != "play":
            verb = "drew" if kind == "draw" else "discarded"
            state = self.flag(state, pos, seat, "ALL-TURN-1",
                              f"{state.name(seat)} {verb} after {state.name(x.knocker)} knocked: only the defender's melds and lay-offs remain")
        return state

    def on_upcard_passed(self, state: TableState, e: Event, pos: int) -> TableState:
        """The first-turn offer: non-dealer, then dealer, may decline the upcard."""
        self.in_hand(state, e, pos)
        seat: int = e.seat  # type: ignore[attr-defined]
        self.check_seat(state, seat, pos)
        x: GinExtra = state.extra
        if x.knocker is not None or x.offer >= OFFER_BOTH_PASSED or state.phase != "draw":
            raise self.reject("REC-ORDER", "upcard_passed outside the first-turn upcard offer", pos, "type")
        if seat != state.turn:
            state = self.flag(state, pos, seat, "ALL-TURN-1", f"{state.name(seat)} passed the upcard out of turn: it was {state.name(state.turn)}'s turn")
        other = 1 - seat
        if x.offer == OFFER_NON_DEALER:
            state = self.start_turn(state, other, pos)
            return replace(state, extra=replace(x, offer=OFFER_DEALER))
        # both passed: the non-dealer draws from the stock
        return replace(state, turn=other, phase="draw", turn_start=pos, extra=replace(x, offer=OFFER_BOTH_PASSED))

    def after_draw(self, state: TableState, pos: int, seat: int) -> TableState:
        return self._offer_over(state)

    def on_discard_taken(self, state: TableState, e: Event, pos: int) -> TableState:
        return self._offer_over(super().on_discard_taken(state, e, pos))  # type: ignore[arg-type]

    @staticmethod
    def _offer_over(state: TableState) -> TableState:
        if state.extra.offer == OFFER_OVER:
            return state
        return replace(state, extra=replace(state.extra, offer=OFFER_OVER))

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """GIN-DISC-1 (``standard``): the card just taken from the discard pile discarded again."""
        if self.opt("retake_forbidden") and card in state.taken:
            state = self.flag(state, pos, seat, "GIN-DISC-1", f"{state.name(seat)} discarded {pretty(card)}, the card just taken from the discard pile")
        return state

    # --- the knock --------------------------------------------------------------
    def on_knocked(self, state: TableState, e: Knocked, pos: int) -> TableState:  # type: ignore[override]
        """A knock: the face-down discard goes on the pile, the declared melds
        on the table; GIN-DISC-1, GIN-KNOCK-2 (invalid melds, a declaration
        that is not the hand), GIN-KNOCK-1 (deadwood above the knock card)."""
        state = self.act(state, e.seat, pos, "discard", e)
        seat = e.seat
        eleven = state.hands[seat]
        hand = self.remove_from_hand(state, seat, (e.discard,), pos, "discard")
        state = self.set_hand(state, seat, hand)
        state = replace(state, discard=state.discard + (e.discard,))
        state = self.check_discard(state, pos, seat, e.discard)
        ids = [m.meld for m in e.melds]
        for i, mid in enumerate(ids):
            if mid in ids[:i] or state.meld(mid) is not None:
                raise self.reject("REC-REF", f"meld id {mid!r} is already used in hand {state.hand}", pos, f"melds[{i}].meld")
        left = Counter(hand)
        void: list[str] = []
        melds: list[Meld] = []
        for dm in e.melds:
            held = []
            for c in dm.cards:
                if left[c] > 0:
                    left[c] -= 1
                    held.append(c)
            info = analyze(held, self._meld_rules)
            melds.append(Meld(dm.meld, seat, state.sides[seat], tuple(held), info, pos))
            bad = analyze(dm.cards, self._meld_rules)
            if not bad.valid:
                state = self.flag(state, pos, seat, "GIN-KNOCK-2", f"declared meld {dm.meld} {pretty_list(dm.cards)}: {FAULTS[bad.faults[0]]}")
            if not info.valid:
                void.extend(held)
        declared = Counter(c for dm in e.melds for c in dm.cards) + Counter(e.deadwood)
        extra_cards = declared - Counter(hand)
        missing = Counter(hand) - declared
        if extra_cards or missing:
            parts = []
            if extra_cards:
                parts.append(f"declares {pretty_list(sorted(extra_cards.elements()))} beyond the cards held")
            if missing:
                parts.append(f"leaves out {pretty_list(sorted(missing.elements()))}")
            state = self.flag(state, pos, seat, "GIN-KNOCK-2", f"{state.name(seat)}'s knock {' and '.join(parts)}: melds and deadwood must be exactly the ten cards held")
        rest = tuple(c for c in hand if left[c] > 0)  # one deck: no face twice
        counted = deadwood_value(rest) + deadwood_value(void)
        limit = int(self.opt("knock_card"))
        if counted > limit:
            state = self.flag(state, pos, seat, "GIN-KNOCK-1",
                              f"{state.name(seat)} knocked with deadwood {counted} ({pretty_list(rest + tuple(void))}), above the knock card {limit}")
        gin = counted == 0
        big = gin and bool(self.opt("big_gin_bonus")) and best_arrangement(eleven).deadwood_value == 0
        voids = list(state.extra.void)
        voids[seat] = voids[seat] + tuple(void)
        state = self.set_hand(state, seat, rest)
        state = replace(state, melds=state.melds + tuple(melds))
        state = self.end_turn(state, pos)
        x = replace(state.extra, knocker=seat, gin=gin, big_gin=big, void=tuple(voids), offer=OFFER_OVER)
        state = self.start_turn(state, 1 - seat, pos)
        return replace(state, phase="play", extra=x)

    def _void(self, state: TableState, seat: int, cards: tuple[str, ...]) -> TableState:
        voids = list(state.extra.void)
        voids[seat] = voids[seat] + cards
        return replace(state, extra=replace(state.extra, void=tuple(voids)))

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:  # type: ignore[override]
        """After a knock: the defender's melds (invalid ones stay deadwood);
        a meld by the knocker after its knock is GIN-LAY-1."""
        x: GinExtra = state.extra
        if x.knocker is not None and seat == x.knocker:
            state = self.flag(state, pos, seat, "GIN-LAY-1", f"{state.name(seat)} laid {pretty_list(meld.cards)} after knocking: the knocker's melds are those declared with the knock")
            return self._void(state, seat, meld.cards)
        state = super().check_meld(state, pos, seat, meld, event)
        if not meld.info.valid:
            state = self._void(state, seat, meld.cards)
        return state

    def check_layoff(self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended) -> TableState:  # type: ignore[override]
        """GIN-LAY-1: a lay-off by the knocker, or onto the knocker's melds
        after gin; the cards stay deadwood. Other lay-offs must leave a valid meld."""
        x: GinExtra = state.extra
        cards = tuple(event.cards)
        if x.knocker is not None and seat == x.knocker:
            state = self.flag(state, pos, seat, "GIN-LAY-1", f"{state.name(seat)} laid off {pretty_list(cards)} on meld {before.id}: the knocker does not lay off")
            return self._void(state, seat, cards)
        if x.knocker is not None and x.gin and before.seat == x.knocker:
            state = self.flag(state, pos, seat, "GIN-LAY-1", f"{state.name(seat)} laid off {pretty_list(cards)} on meld {before.id} after {state.name(x.knocker)} went gin")
            return self._void(state, seat, cards)
        state = super().check_layoff(before, after, state, pos, seat, event)
        if not after.info.valid:
            state = self._void(state, seat, cards)
        return state

    # --- the end of a hand ----------------------------------------------------------
    def on_hand_ended(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        x: GinExtra | None = state.extra
        if e.reason == "knocked":
            self.in_hand(state, e, pos)
            if x is None or x.knocker is None:
                raise self.reject("REC-ORDER", "hand_ended reason knocked, but nobody knocked in this hand", pos, "reason")
            if e.seat is not None and e.seat != x.knocker:
                raise self.reject("REC-REF", f"hand_ended names seat {e.seat}, but {state.name(x.knocker)} (seat {x.knocker}) knocked", pos, "seat")
        return super().on_hand_ended(state, e, pos)

    def deadwood_of(self, state: TableState, seat: int) -> int:
        """A seat's counted deadwood after a knock: its hand plus its void cards."""
        return deadwood_value(state.hands[seat]) + deadwood_value(state.extra.void[seat])

    def game_end_reason(self, state: TableState) -> str | None:
        """Between hands: with a ``target`` (100, preset ``standard``) a seat
        at or above it, ``target_reached``; without one (``target`` 0, preset
        ``openspiel``: a single hand) ``hands_played`` after the first hand
        (RULES.md, Gin "Scoring")."""
        if state.phase == "over" and not int(self.opt("target") or 0):
            return "hands_played" if state.results else None
        return super().game_end_reason(state)

    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """Knock, gin, big gin, undercut; 0–0 for every other ending; the
        game and box bonuses on the hand that reaches the target."""
        x: GinExtra = state.extra
        points = [0, 0]
        breakdown: list[dict[str, int]] = [{}, {}]
        if e.reason == "knocked" and x.knocker is not None:
            k, d = x.knocker, 1 - x.knocker
            kd, dd = self.deadwood_of(state, k), self.deadwood_of(state, d)
            if x.gin:
                key, bonus = ("big_gin_bonus", int(self.opt("big_gin_bonus"))) if x.big_gin else ("gin_bonus", int(self.opt("gin_bonus")))
                points[k] = dd + bonus
                breakdown[k] = {"deadwood_difference": dd, key: bonus}
            elif kd < dd:
                points[k] = dd - kd
                breakdown[k] = {"deadwood_difference": dd - kd}
            elif kd > dd or self.opt("undercut_on_equal"):
                ub = int(self.opt("undercut_bonus"))
                points[d] = kd - dd + ub
                breakdown[d] = {"deadwood_difference": kd - dd, "undercut_bonus": ub}
        target = int(self.opt("target") or 0)
        if target:
            won = [sum(1 for r in state.results for s in r.scores if s.side == seat and "deadwood_difference" in s.breakdown)
                   + ("deadwood_difference" in breakdown[seat]) for seat in (0, 1)]
            for seat in (0, 1):
                if points[seat] > 0 and state.totals[seat] + points[seat] >= target:
                    breakdown[seat]["game_bonus"] = int(self.opt("game_bonus"))
                    for s in (0, 1):
                        box = int(self.opt("box_bonus")) * won[s]
                        if box:
                            breakdown[s]["box_bonus"] = box
                    break
            points = [sum(b.values()) if b else 0 for b in breakdown]
        return tuple(SideScore(seat, points[seat], breakdown[seat]) for seat in (0, 1))

    # --- views ---------------------------------------------------------------------
    def extra_view(self, state: TableState, pov: int | None) -> dict[str, Any]:
        """Every visible seat's best deadwood (:mod:`ledger.gin_deadwood`):
        ``{"deadwood": [{seat, best, could_knock, discard, melds}], "notes": [text]}``.
        After a knock: each seat's counted deadwood instead."""
        x: GinExtra | None = state.extra
        rows: list[dict[str, Any]] = []
        notes: list[str] = []
        if x is None or state.phase in ("setup",):
            return {"deadwood": rows, "notes": notes}
        limit = int(self.opt("knock_card"))
        for seat in range(state.n_seats):
            if pov is not None and pov != seat:
                continue
            hand = state.hands[seat]
            if x.knocker is not None:
                dw = self.deadwood_of(state, seat)
                rows.append({"seat": seat, "best": dw, "could_knock": None, "discard": None, "melds": []})
                notes.append(f"{state.name(seat)}: deadwood {dw}" + (" (knocked)" if seat == x.knocker else ""))
                continue
            discard = None
            if len(hand) > 10:
                choice = best_after_discard(hand)
                arr, discard = choice.arrangement, choice.discard
            else:
                arr = best_arrangement(hand)
            could = arr.deadwood_value <= limit
            rows.append({"seat": seat, "best": arr.deadwood_value, "could_knock": could, "discard": discard, "melds": [list(m) for m in arr.melds]})
            how = f" (discarding {pretty(discard)})" if discard and could else ""
            notes.append(f"{state.name(seat)}: best deadwood {arr.deadwood_value}, {'could knock' + how if could else 'could not knock'}")
        return {"deadwood": rows, "notes": notes}
