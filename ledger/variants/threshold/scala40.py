"""Scala 40, RULES.md "Scala 40 (`scala40`)".

Two decks with jokers (preset ``fisca``: 4 jokers, 108 cards; ``seed``: 2
jokers, 106), 2–6 players, 13 cards each. Sequences of 3–14 cards, ace low or
high (``seed``: ace high only); sets of 3–4 cards of different suits; at most
one joker per meld. The first melds of a seat must total 40+ points
(``opening_points``) unless it goes out at once (*chiusura in mano*); the top
discard only to open with it, or after opening to meld it that turn
(``seed``: unrestricted after opening), never discarded again the same turn;
lay-offs and joker swaps only after opening; a discard every turn, the
going-out turn included (``S40-OUT-1`` is reported at the meld or lay-off
that empties the hand). A joker never moves once laid: a ``meld_extended``
whose ``result`` moves one is ``ALL-MELD-1``; the card it stands for takes
its place only by ``joker_swapped``.

Options: ``opening_points`` (int, 40), ``freed_joker_must_be_melded`` (bool,
off), ``forbid_discard_of_attachable`` (``never``, ``always``,
``multiplayer_only``: with more than two seats still playing; it binds
opened and unopened seats, never the closing discard, and a card that fits
only a joker's place is not attachable),
``unopened_penalty`` (int, 100; 0 turns the rule off), ``elimination`` (int,
101).

Score breakdown components (penalty points of each seat that did not go out;
the seat that went out scores 0 with an empty breakdown):

- ``cards``: natural cards left in hand, ace 11, J Q K 10, 2–10 face value;
- ``jokers``: 25 per joker left in hand;
- ``unopened``: the ``unopened_penalty`` (100) of a seat that never opened,
  instead of ``cards`` and ``jokers``;
- ``chiusura_in_mano``: after a chiusura in mano, the extra points: as much
  again (the points are doubled, ``fisca``) or 25 (``seed``).

A seat whose total reaches ``elimination`` is out (dealt an empty hand,
skipped); the last seat left wins.

Rule ids: S40-OPEN-1, S40-OPEN-2, S40-PILE-1, S40-PILE-2, S40-MELD-1,
S40-SWAP-1, S40-SWAP-2, S40-DISC-1, S40-OUT-1.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, ClassVar, Literal

from ledger.cards import JOKER, deck_counter, pretty
from ledger.events import HandEnded
from ledger.melds import MeldRules
from ledger.state import TableState
from ledger.texts import N_
from ledger.variants.options import FIXED, Options
from ledger.variants.threshold.rules import ThresholdExtra, ThresholdRules, compact
from ledger.variants.threshold.scoring import hand_cards_value

JOKER_IN_HAND = 25


class Scala40Options(Options, frozen=True, kw_only=True):
    """Scala 40's options (RULES.md, "Scala 40"); ``jokers``, ``ace_low``,
    ``pile_after_opening`` and ``chiusura`` are fixed by the preset."""

    #: the least points of an opening (S40-OPEN-1)
    opening_points: int = 40
    #: a joker freed by a swap must be melded in the same turn (S40-SWAP-2)
    freed_joker_must_be_melded: bool = False
    #: discarding a card that could be laid off: ``never``, ``always`` or ``multiplayer_only`` refused (S40-DISC-1)
    forbid_discard_of_attachable: Literal["never", "always", "multiplayer_only"] = "never"
    #: the points a seat that never opened adds instead of its hand (0: off)
    unopened_penalty: int = 100
    #: a seat at or above this total is out of the game
    elimination: int = 101
    #: jokers in the two decks
    jokers: Annotated[int, FIXED]
    #: an ace may stand below the 2 in a sequence
    ace_low: Annotated[bool, FIXED]
    #: a card taken from the pile after opening: ``meld`` (must be melded at once, S40-PILE-2) or ``free``
    pile_after_opening: Annotated[Literal["meld", "free"], FIXED]
    #: going out in one turn (chiusura in mano): ``double`` the points or ``plus25``
    chiusura: Annotated[Literal["double", "plus25"], FIXED]


class Scala40Rules(ThresholdRules):
    """Rules object for Scala 40 (presets ``fisca``, ``seed``)."""

    variant = "scala40"
    default_ruleset = "fisca"
    options_type = Scala40Options
    settings: Scala40Options  # the record's options, typed (set by Rules.__init__)
    presets: ClassVar[dict[str, Scala40Options]] = {
        "fisca": Scala40Options(jokers=4, ace_low=True, pile_after_opening="meld", chiusura="double"),
        "seed": Scala40Options(jokers=2, ace_low=False, pile_after_opening="free", chiusura="plus25"),
    }
    early_play_rule = "S40-OPEN-2"
    swap_rule = "S40-SWAP-1"

    def deck(self) -> Counter[str]:
        return deck_counter(2, self.settings.jokers)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        return 13

    def meld_rules(self) -> MeldRules:
        return MeldRules(
            max_wilds=1,
            ace_low=self.settings.ace_low,
            ace_high=True,
            max_set=4,
            set_distinct_suits=True,
            max_sequence=14,
        )

    def meld_rule_ids(self) -> dict[str, str]:
        """S40-MELD-1 for repeated suits, long sets and extra jokers; ALL-MELD-1 otherwise."""
        return {
            "set_repeated_suit": "S40-MELD-1",
            "set_too_long": "S40-MELD-1",
            "too_many_wilds": "S40-MELD-1",
            "wilds_only": "S40-MELD-1",
        }

    # --- per-turn rules ----------------------------------------------------------
    def end_turn(self, state: TableState, pos: int) -> TableState:
        """S40-OPEN-1, S40-PILE-1, S40-PILE-2, S40-SWAP-2, reported at ``pos``."""
        seat = state.turn
        x = state.extra
        if seat is None or not isinstance(x, ThresholdExtra):  # before the first deal
            return state
        name = state.name(seat)
        if self.opened_this_turn(state, seat) and state.hands[seat]:
            state = self.check_opening(state, pos, seat, "S40-OPEN-1", self.settings.opening_points)
        if state.drew == "pile" and state.taken:
            card = state.taken[-1]
            if not x.taken_opened:
                laid = Counter(c for m in self.melds_this_turn(state, seat) for c in m.cards)
                if not (self.opened_this_turn(state, seat) and laid[card]):
                    state = self.flag(
                        state,
                        pos,
                        seat,
                        "S40-PILE-1",
                        N_(
                            "%(who)s took %(card)s from the discard pile without having opened and did not open with it"
                        ),
                        who=name,
                        card=pretty(card),
                    )
            elif card not in x.played and self.settings.pile_after_opening == "meld":
                # judged on the face: when no card of that face went into a meld, neither copy was used (RULES.md)
                state = self.flag(
                    state,
                    pos,
                    seat,
                    "S40-PILE-2",
                    N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),
                    who=name,
                    card=pretty(card),
                )
            elif x.discarded == card and not x.taken_had_copy:
                # RULES.md: not raised when the seat already held another copy of that face
                state = self.flag(
                    state,
                    pos,
                    seat,
                    "S40-PILE-2",
                    N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),
                    who=name,
                    card=pretty(card),
                )
        if self.settings.freed_joker_must_be_melded and x.freed > x.played.count(JOKER):
            state = self.flag(
                state,
                pos,
                seat,
                "S40-SWAP-2",
                N_("%(who)s took a joker from a meld and did not meld it in the same turn"),
                who=name,
            )
        return state

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """S40-DISC-1: a card that could be laid off discarded while the
        ``forbid_discard_of_attachable`` option forbids it. It binds every
        seat, opened or not; the closing discard (the seat's last card) is
        exempt; a card that fits only a joker's place (a swap, not a
        lay-off: jokers never move) is not attachable (RULES.md)."""
        state = ThresholdRules.check_discard(self, state, pos, seat, card)  # named, not super(): a hot hook
        mode = self.settings.forbid_discard_of_attachable
        if mode == "never" or (
            mode == "multiplayer_only" and sum(1 for s in range(state.n_seats) if self.active(state, s)) <= 2
        ):
            return state
        if not state.hands[seat]:
            return state
        for m in state.melds:
            if self.layoff_options(m, (card,)):
                return self.flag(
                    state,
                    pos,
                    seat,
                    "S40-DISC-1",
                    N_("%(who)s discarded %(card)s, which could be laid off on meld %(meld)s (%(cards)s)"),
                    who=state.name(seat),
                    card=pretty(card),
                    meld=m.id,
                    cards=compact(m.cards),
                )
        return state

    def _discard_extra(self, state: TableState, pos: int, seat: int, card: str) -> ThresholdExtra | Literal[False]:
        """The fused discard: False when S40-DISC-1 is in force or
        :meth:`end_turn` may flag a freed joker (an opening this turn and a
        pile take: the threshold games' check), else the threshold games' extra."""
        x = self.ex(state)
        if self.settings.forbid_discard_of_attachable != "never" or (
            self.settings.freed_joker_must_be_melded and x.freed > x.played.count(JOKER)
        ):
            return False
        return ThresholdRules._discard_extra(self, state, pos, seat, card)  # named: read at every discard

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """S40-OUT-1 at the meld or lay-off that empties the hand of the seat
        due: it can no longer discard, so it goes out without a discard
        (RULES.md: a finding belongs to the event that breaks the rule)."""
        state = ThresholdRules.after_meld(self, before, state, pos, seat)  # named: a hot hook
        if seat == state.turn and before.hands[seat] and not state.hands[seat] and self.ex(state).melded_out is None:
            state = self.flag(
                state,
                pos,
                seat,
                "S40-OUT-1",
                N_("%(who)s went out without a discard: the last card went into a meld"),
                who=state.name(seat),
            )
            state = self.set_extra(state, melded_out=pos)
        return state

    def on_hand_ended(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        """S40-OUT-1: the seat that went out did so without a discard (when
        not already reported at the meld that emptied its hand)."""
        if (
            e.reason == "went_out"
            and e.seat is not None
            and state.phase == "play"
            and state.turn == e.seat
            and state.extra is not None
            and self.ex(state).melded_out is None
        ):
            state = self.flag(
                state, pos, e.seat, "S40-OUT-1", N_("%(who)s went out without a discard"), who=state.name(e.seat)
            )
        return super().on_hand_ended(state, e, pos)

    # --- scoring -------------------------------------------------------------------
    def penalty(self, state: TableState, seat: int, winner: int) -> dict[str, int]:
        """``unopened`` or ``cards`` + ``jokers``, plus ``chiusura_in_mano``."""
        unopened = self.settings.unopened_penalty
        hand = state.hands[seat]
        if unopened and not state.opened[seat]:
            parts = {"unopened": unopened}
        else:
            parts = {"cards": hand_cards_value(hand)}
            jokers = hand.count(JOKER) * JOKER_IN_HAND
            if jokers:
                parts["jokers"] = jokers
        if self.went_out_at_once(state, winner):
            parts["chiusura_in_mano"] = sum(parts.values()) if self.settings.chiusura == "double" else 25
        return parts

    def counts_cards(self, state: TableState, seat: int, winner: int) -> bool:
        """Not for an unopened seat under an ``unopened_penalty`` (a fixed penalty)."""
        return not (self.settings.unopened_penalty and not state.opened[seat])
