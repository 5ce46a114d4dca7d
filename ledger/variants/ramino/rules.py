"""Classic Ramino (Rummy), RULES.md "Ramino, classic Rummy (`ramino`)".

One 52-card deck, no wilds; 10 cards each with 2 players, 7 with 3–4, 6 with
5–6. Sets of 3–4, sequences ace low (``ace_high`` option). Presets ``seed``
(going out by discarding, restock by shuffling) and ``pagat`` (going out by
melding, laying off or discarding; the pile is turned over). The winner
scores the other hands (A 1, 2–10 face, J Q K 10), doubled after going
rummy (*chiudere in mano*).

Stock exhausted (option ``restock``): ``shuffle`` (``seed``) and
``turn_over`` (``pagat``) make the discard pile less its top card the new
stock (``stock_restocked``; the base fold keeps the turned-over order, or the
order the event gives); ``end_hand`` ends the hand (``hand_ended``
``stock_exhausted``, 0 for every seat). A ``stock_restocked`` under
``end_hand`` is accepted as recorded: RULES.md has no id for it.

Rule ids: RAM-DISC-1, RAM-MELD-1, RAM-OUT-1.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from ledger.cards import LOW_VALUE, UNKNOWN, pretty
from ledger.events import HandEnded
from ledger.melds import MeldRules
from ledger.state import SideScore, TableState, VariantState, replace, variant_state
from ledger.texts import N_
from ledger.variants.base import Rules
from ledger.variants.options import Options, RestockMode
from ledger.variants.outcome import going_out_unseen, target_reached


def hand_value(cards: tuple[str, ...]) -> int:
    """Penalty value of cards left in hand: A 1, 2–10 face, J Q K 10.

    >>> hand_value(("AS", "7H", "KD"))
    18
    """
    return sum(LOW_VALUE[c] for c in cards)


class RaminoExtra(VariantState, frozen=True):
    """Per hand: the seats that melded or laid off before their going-out
    turn; ``melded_out``: position of the meld or lay-off that emptied the
    hand of the seat due where the preset requires a discard (``RAM-OUT-1``
    reported there), else None."""

    melded_before: tuple[int, ...] = ()
    melded_out: int | None = None


class RaminoOptions(Options, frozen=True, kw_only=True):
    """Classic Ramino's options (RULES.md, "Ramino": options and presets)."""

    #: going out: ``discard`` (the last card must be discarded) or ``any`` (melding it too)
    going_out: Literal["discard", "any"]
    #: an empty stock: the pile ``shuffle``d or ``turn_over``ed into a new stock, or ``end_hand``
    restock: RestockMode
    #: most new melds in one turn (0: no limit; RAM-MELD-1)
    max_new_melds_per_turn: int = 0
    #: an ace may stand above the king in a sequence
    ace_high: bool = False
    #: going rummy (all cards in one turn) doubles the winner's points
    rummy_doubles: bool = True
    #: the game ends when a seat reaches this total
    target: int = 100


class RaminoRules(Rules):
    """Rules object for classic Ramino."""

    variant = "ramino"
    default_ruleset = "seed"
    options_type = RaminoOptions
    settings: RaminoOptions  # the record's options, typed (set by Rules.__init__)
    presets: ClassVar[dict[str, RaminoOptions]] = {
        "seed": RaminoOptions(going_out="discard", restock="shuffle"),
        "pagat": RaminoOptions(going_out="any", restock="turn_over"),
    }
    players_allowed = (2, 3, 4, 5, 6)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        return 10 if n_seats == 2 else 7 if n_seats <= 4 else 6

    def meld_rules(self) -> MeldRules:
        return MeldRules(
            max_wilds=0, ace_high=self.settings.ace_high, max_set=4, max_sequence=14 if self.settings.ace_high else 13
        )

    def new_extra(self, state: TableState) -> RaminoExtra:
        return RaminoExtra()

    def restock_mode(self) -> RestockMode:
        """The ``restock`` option (``shuffle`` in ``seed``, ``turn_over`` in ``pagat``)."""
        return self.settings.restock

    def game_end_reason(self, state: TableState) -> str | None:
        """Between hands: ``target_reached`` once a seat is at or above
        ``target`` (100) (RULES.md, Ramino "Scoring")."""
        if state.phase != "over":
            return super().game_end_reason(state)
        return target_reached(state, self.settings.target)

    @staticmethod
    def ex(state: TableState) -> RaminoExtra:
        """The hand's :class:`RaminoExtra` (raises :class:`TypeError` before the first deal)."""
        x = state.extra
        return x if isinstance(x, RaminoExtra) else variant_state(state, RaminoExtra)

    def end_turn(self, state: TableState, pos: int) -> TableState:
        """RAM-MELD-1 (more new melds than allowed this turn); remembers who melded."""
        seat = state.turn
        if seat is None:
            return state
        limit = self.settings.max_new_melds_per_turn
        new = sum(1 for m in state.melds if m.laid_at >= state.turn_start and m.seat == seat) if limit else 0
        if limit and new > limit:
            state = self.flag(
                state,
                pos,
                seat,
                "RAM-MELD-1",
                N_("%(who)s laid %(n)s new melds in one turn; at most %(limit)s allowed"),
                who=state.name(seat),
                n=new,
                limit=limit,
            )
        if state.turn_melds and state.hands[seat] and seat not in (melded_before := self.ex(state).melded_before):
            state = self.set_extra(state, melded_before=melded_before + (seat,))
        return state

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """RAM-DISC-1: the card just taken from the discard pile discarded again."""
        if card in state.taken:
            state = self.flag(
                state,
                pos,
                seat,
                "RAM-DISC-1",
                N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),
                who=state.name(seat),
                card=pretty(card),
            )
        return state

    def _discard_extra(self, state: TableState, pos: int, seat: int, card: str) -> RaminoExtra | Literal[False]:
        """The fused discard (``TurnRules.fast_card_discarded``): False when
        :meth:`check_discard` or :meth:`end_turn` may flag (RAM-DISC-1, a turn
        limit), else the extra :meth:`end_turn` leaves."""
        if card in state.taken or self.settings.max_new_melds_per_turn:
            return False
        x = state.extra  # self.ex(state), written out: read at every discard
        if not isinstance(x, RaminoExtra):
            x = variant_state(state, RaminoExtra)
        if state.turn_melds and len(state.hands[seat]) > 1 and seat not in x.melded_before:
            return replace(x, melded_before=x.melded_before + (seat,))
        return x

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """RAM-OUT-1 at the meld or lay-off that empties the hand of the seat
        due when the preset requires going out by a discard (RULES.md: a
        finding belongs to the event that breaks the rule)."""
        if (
            self.settings.going_out == "discard"
            and seat == state.turn
            and before.hands[seat]
            and not state.hands[seat]
            and self.ex(state).melded_out is None
        ):
            state = self.flag(
                state,
                pos,
                seat,
                "RAM-OUT-1",
                N_(
                    "%(who)s went out without a discard (preset %(preset)s requires one): the last card went into "
                    "a meld"
                ),
                who=state.name(seat),
                preset=self.ruleset,
            )
            state = self.set_extra(state, melded_out=pos)
        return state

    def on_hand_ended(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        """RAM-OUT-1 for a going out without a discard not already reported at the meld that emptied the hand."""
        if (
            e.reason == "went_out"
            and e.seat is not None
            and self.settings.going_out == "discard"
            and state.phase == "play"
            and state.turn == e.seat
            and self.ex(state).melded_out is None
        ):
            state = self.flag(
                state,
                pos,
                e.seat,
                "RAM-OUT-1",
                N_("%(who)s went out without a discard (preset %(preset)s requires one)"),
                who=state.name(e.seat),
                preset=self.ruleset,
            )
        return super().on_hand_ended(state, e, pos)

    def went_rummy(self, state: TableState, seat: int) -> bool:
        """Going rummy: all cards in one turn with no earlier meld or lay-off."""
        return seat not in self.ex(state).melded_before and state.turns[seat] >= 1

    def unknown_sides(self, state: TableState, e: HandEnded) -> frozenset[int]:
        """Partial records: only the winner's points read hands, the others'
        (it collects their values; every other seat scores 0 whatever it
        holds): the winner's side when another seat's hand holds ``??``. A
        hand that ends another way counts no card (0 for every seat). When
        the went_out names no seat, the default (every side)."""
        if e.reason != "went_out":
            return frozenset()
        if going_out_unseen(e):
            return super().unknown_sides(state, e)
        assert e.seat is not None
        if any(UNKNOWN in h for s, h in enumerate(state.hands) if s != e.seat):
            return frozenset({state.sides[e.seat]})
        return frozenset()

    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """The winner scores the others' hand values (doubled after rummy); others 0."""
        winner = e.seat if e.reason == "went_out" else None
        scores = []
        for seat in range(state.n_seats):
            if seat != winner:
                scores.append(SideScore(seat, 0, {}))
                continue
            collected = sum(hand_value(state.hands[s]) for s in range(state.n_seats) if s != seat)
            bonus = collected if (self.settings.rummy_doubles and self.went_rummy(state, seat)) else 0
            scores.append(SideScore(seat, collected + bonus, {"hands_collected": collected, "rummy_double": bonus}))
        return tuple(scores)
