"""Ramino 51 as played on ClubdelGioco, RULES.md "Ramino 51, as on
ClubdelGioco (`ramino51`)".

Two 54-card decks (108 cards, 4 jokers), 2–6 players, 14 cards each
(``hand_size``). The top discard may be taken except in a seat's first turn,
and must go into a meld on the table that turn. No melding in a seat's first
turn; the first melds total 51+ points and include a clean meld (no joker):
a sequence or a set (``opening_clean``: ``run_or_set``) or a sequence only
(``run``). In the opening turn no lay-off except a joker swap; lay-offs and
swaps only after opening. Sets of 3–4 of different suits; sequences ace low
or high, never K-A-2; one joker per meld, in a sequence only at either end
(``joker_ends_only``); a joker never moves once laid (``ALL-MELD-1`` for a
lay-off whose ``result`` moves it; the natural card takes its place only by
``joker_swapped``). A seat goes out by discarding or melding its last card.

Options: ``hand_size`` (int, 14), ``opening_clean`` (``run_or_set``,
``run``), ``joker_ends_only`` (bool, on), ``elimination`` (int, 101).

Score breakdown components (penalty points of each seat that did not go out;
the seat that went out scores 0 with an empty breakdown):

- ``cards``: cards left in hand, ace 11, J Q K 10, 2–10 face value (a joker
  has no value of its own);
- ``joker_double``: as much again when the hand holds a joker (once,
  however many);
- ``unopened``: 100 for a seat that never opened, instead of the above;
- ``all_at_once``: 200 for every seat when nobody had melded before the
  winner went out all at once, instead of the above.

A seat whose total reaches ``elimination`` is out; the last seat left wins.

Rule ids: R51-PILE-1, R51-PILE-2, R51-OPEN-1, R51-OPEN-2, R51-OPEN-3,
R51-MELD-1, R51-SWAP-1.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar, Literal

from ledger.cards import JOKER, deck_counter, pretty
from ledger.events import DiscardTaken, MeldExtended
from ledger.melds import MeldRules
from ledger.state import Meld, TableState
from ledger.texts import N_
from ledger.variants.options import Options
from ledger.variants.threshold.rules import ThresholdRules, compact
from ledger.variants.threshold.scoring import hand_cards_value

OPENING_POINTS = 51
UNOPENED = 100
ALL_AT_ONCE = 200


class Ramino51Options(Options, frozen=True, kw_only=True):
    """Ramino 51's options (RULES.md, "Ramino 51, as on ClubdelGioco")."""

    #: cards dealt to each seat
    hand_size: int = 14
    #: the clean meld an opening needs: ``run_or_set`` or ``run`` (R51-OPEN-2)
    opening_clean: Literal["run_or_set", "run"] = "run_or_set"
    #: a joker only at either end of a sequence
    joker_ends_only: bool = True
    #: a seat at or above this total is out of the game
    elimination: int = 101


class Ramino51Rules(ThresholdRules):
    """Rules object for Ramino 51 (preset ``clubdelgioco``)."""

    variant = "ramino51"
    default_ruleset = "clubdelgioco"
    options_type = Ramino51Options
    settings: Ramino51Options  # the record's options, typed (set by Rules.__init__)
    presets: ClassVar[dict[str, Ramino51Options]] = {"clubdelgioco": Ramino51Options()}
    early_play_rule = "R51-OPEN-3"
    swap_rule = "R51-SWAP-1"

    def deck(self) -> Counter[str]:
        return deck_counter(2, 4)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        return self.settings.hand_size

    def meld_rules(self) -> MeldRules:
        return MeldRules(
            max_wilds=1,
            ace_low=True,
            ace_high=True,
            max_set=4,
            set_distinct_suits=True,
            max_sequence=14,
            wild_ends_only=self.settings.joker_ends_only,
        )

    def meld_rule_ids(self) -> dict[str, str]:
        """R51-MELD-1 for repeated suits, long sets, a joker inside a sequence
        and extra jokers; ALL-MELD-1 otherwise."""
        return {
            "set_repeated_suit": "R51-MELD-1",
            "set_too_long": "R51-MELD-1",
            "wild_inside": "R51-MELD-1",
            "too_many_wilds": "R51-MELD-1",
            "wilds_only": "R51-MELD-1",
        }

    # --- rules at the event ----------------------------------------------------------
    def on_discard_taken(self, state: TableState, e: DiscardTaken, pos: int) -> TableState:
        """R51-PILE-1: the top discard taken in the seat's first turn."""
        state = ThresholdRules.on_discard_taken(self, state, e, pos)  # named, not super(): a hot hook
        if state.turns[e.seat] == 1:
            state = self.flag(
                state,
                pos,
                e.seat,
                "R51-PILE-1",
                N_("%(who)s took %(cards)s from the discard pile in its first turn"),
                who=state.name(e.seat),
                cards=compact(e.cards),
            )
        return state

    def check_layoff(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended
    ) -> TableState:
        """R51-OPEN-3 also for a lay-off in the opening turn."""
        if state.opened[seat] and self.opened_this_turn(state, seat):
            state = self.flag(
                state,
                pos,
                seat,
                "R51-OPEN-3",
                N_("%(who)s laid off %(cards)s on meld %(meld)s in its opening turn (only a joker swap is allowed)"),
                who=state.name(seat),
                cards=compact(event.cards),
                meld=after.id,
            )
        return ThresholdRules.check_layoff(self, before, after, state, pos, seat, event)  # named: a hot hook

    # --- per-turn rules ----------------------------------------------------------------
    def end_turn(self, state: TableState, pos: int) -> TableState:
        """R51-OPEN-1, R51-OPEN-2, R51-PILE-2, reported at ``pos``."""
        seat = state.turn
        if seat is None or state.extra is None:
            return state
        name = state.name(seat)
        if self.opened_this_turn(state, seat):
            if state.turns[seat] == 1:
                state = self.flag(state, pos, seat, "R51-OPEN-1", N_("%(who)s melded in its first turn"), who=name)
            state = self.check_open(state, pos, seat)
        if state.drew == "pile" and state.taken:
            card = state.taken[-1]
            if card not in self.ex(state).played:
                state = self.flag(
                    state,
                    pos,
                    seat,
                    "R51-PILE-2",
                    N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),
                    who=name,
                    card=pretty(card),
                )
        return state

    #: the fused discard's predicate: :meth:`end_turn` judges only what the shared one checks (an opening, a pile take)
    _discard_extra = ThresholdRules._discard_extra

    def check_open(self, state: TableState, pos: int, seat: int) -> TableState:
        """R51-OPEN-2: under 51 points, or no clean meld of the required kind."""
        clean = ("sequence",) if self.settings.opening_clean == "run" else ("sequence", "set")
        return self.check_opening(state, pos, seat, "R51-OPEN-2", OPENING_POINTS, clean)

    # --- scoring -------------------------------------------------------------------------
    def penalty(self, state: TableState, seat: int, winner: int) -> dict[str, int]:
        """``all_at_once``, ``unopened``, or ``cards`` + ``joker_double``."""
        nobody_before = self.went_out_at_once(state, winner) and not any(
            state.opened[s] for s in range(state.n_seats) if s != winner
        )
        if nobody_before:
            return {"all_at_once": ALL_AT_ONCE}
        if not state.opened[seat]:
            return {"unopened": UNOPENED}
        hand = state.hands[seat]
        cards = hand_cards_value(hand)
        parts = {"cards": cards}
        if JOKER in hand:
            parts["joker_double"] = cards
        return parts

    def counts_cards(self, state: TableState, seat: int, winner: int) -> bool:
        """Not for the fixed penalties: all at once, unopened (:meth:`penalty`)."""
        nobody_before = self.went_out_at_once(state, winner) and not any(
            state.opened[s] for s in range(state.n_seats) if s != winner
        )
        return not nobody_before and bool(state.opened[seat])
