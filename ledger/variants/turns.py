"""The deal and the turn: the second layer of the rules object.

:class:`TurnRules` applies ``hand_dealt`` (the deck check ``REC-DECK``,
``ALL-DEAL-1``), the draws (``card_drawn``, ``discard_taken``), the discard
and ``stock_restocked``, and keeps the turn: whose it is and which phase
(``ALL-TURN-1/2/3``, :meth:`TurnRules.act`). It rejects the events of other
variants (``pozzetto_taken``, ``knocked``, ``upcard_passed``: ``REC-FORMAT``);
Burraco and Gin override those handlers.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from ledger.cards import UNKNOWN, pretty_list
from ledger.events import (
    CardDiscarded,
    CardDrawn,
    CardsShown,
    DiscardTaken,
    Event,
    GameStarted,
    HandDealt,
    Knocked,
    PozzettoTaken,
    StockRestocked,
    UpcardPassed,
)
from ledger.state import TableState, VariantState, replace
from ledger.texts import N_, Message
from ledger.variants.core import TableRules
from ledger.variants.dealing import DealRules


class TurnRules(DealRules):
    """The deal, the draws, the discard, the restock and the turn (RULES.md
    ``ALL-DEAL-1``, ``ALL-TURN-1/2/3``), between :class:`~ledger.variants.dealing.DealRules` and
    :class:`~ledger.variants.melding.MeldingRules`."""

    # --- turn bookkeeping --------------------------------------------------------
    def in_hand(self, state: TableState, event: Event, pos: int) -> None:
        """Raise ``REC-ORDER`` unless a hand is in progress."""
        if state.phase == "setup":
            raise self.reject(
                "REC-ORDER", Message(N_("%(type)s before the first hand_dealt"), type=event.type), pos, "type"
            )
        if state.phase == "over":
            raise self.reject(
                "REC-ORDER",
                Message(N_("%(type)s after hand_ended (hand %(hand)s)"), type=event.type, hand=state.hand),
                pos,
                "type",
            )

    def start_turn(self, state: TableState, seat: int, pos: int) -> TableState:
        """``seat`` begins a turn at ``pos``: phase ``draw``, turn-local data reset."""
        turns = list(state.turns)
        turns[seat] += 1
        return replace(
            state, turn=seat, phase="draw", drew=None, taken=(), turn_start=pos, turn_melds=(), turns=tuple(turns)
        )

    def act(self, state: TableState, seat: int, pos: int, kind: str, event: Event) -> TableState:
        """Check that ``seat`` may ``kind`` (``"draw"``, ``"play"``, ``"discard"``) now.

        Flags ``ALL-TURN-3`` (the seat due drew but did not discard and the
        next seat acts), ``ALL-TURN-1`` (any other seat acting out of turn),
        ``ALL-TURN-2`` (a second draw, or play before drawing). The state
        follows the record: the acting seat's turn begins.
        """
        if seat == state.turn and state.phase == ("draw" if kind == "draw" else "play"):
            return state  # the seat due, in its phase (a hand is in progress, the seat is at the table)
        self.in_hand(state, event, pos)
        self.check_seat(state, seat, pos)
        if seat != state.turn:
            due = state.turn
            assert due is not None
            if state.phase == "play" and self.discard_required and seat == self.next_seat(state, due):
                state = self.end_turn(state, pos)
                state = self.flag(
                    state,
                    pos,
                    due,
                    "ALL-TURN-3",
                    N_("%(who)s's turn ended without a discard: %(next)s acted next"),
                    who=state.name(due),
                    next=state.name(seat),
                )
            else:
                if state.phase == "play":
                    state = self.end_turn(state, pos)
                state = self.flag(
                    state,
                    pos,
                    seat,
                    "ALL-TURN-1",
                    N_("%(who)s played out of turn: it was %(due)s's turn"),
                    who=state.name(seat),
                    due=state.name(due),
                )
                # The seat's turn begins at this event (not drawn yet); one fault per event: not also "before drawing".
                return self.start_turn(state, seat, pos)
            state = self.start_turn(state, seat, pos)
        if kind == "draw" and state.phase == "play":
            state = self.flag(
                state,
                pos,
                seat,
                "ALL-TURN-2",
                N_("%(who)s drew a second time in the same turn (%(event)s)"),
                who=state.name(seat),
                event=Message(event.type),
            )
        elif kind != "draw" and state.phase == "draw":
            state = self.flag(state, pos, seat, "ALL-TURN-2", _BEFORE_DRAWING[kind], who=state.name(seat))
        return state

    def end_turn(self, state: TableState, pos: int) -> TableState:
        """Hook: rules judged over a whole turn, reported at ``pos`` (the event
        that ends the turn). The base has none."""
        return state

    def pass_turn(self, state: TableState, pos: int) -> TableState:
        """After a discard: the next active seat's turn begins."""
        assert state.turn is not None
        return self.start_turn(state, self.next_seat(state, state.turn), pos)

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """Hook after a discard, before the turn passes (none in the base)."""
        return state

    # --- the fused paths of the two commonest events ---------------------------------
    # ``Rules.apply`` tries these first (``Rules._fast``): the event's whole effect in one
    # ``replace`` of the state before it, when its hooks have nothing to say; None sends the
    # event to the general handler. A class gets a fused path only when the private predicate
    # it asks (``_draw_extra`` / ``_discard_extra``) is defined at least as low in its MRO as
    # every method the path stands for (``FUSED`` in ``ledger.variants.base``), so a variant
    # that overrides one of those hooks without the predicate keeps the general path.
    def fast_card_drawn(self, state: TableState, e: CardDrawn, pos: int) -> TableState | None:
        """``card_drawn`` by the seat due in its draw phase, of the stock's top
        card (known, or in a partial record an unknown one on either side; a
        named card from a stock of unknown order is checked against the deck):
        the state at ``pos`` as :meth:`on_card_drawn` makes it (``state`` is
        the one before the event), or None for the general handler."""
        seat = e.seat
        stock = state.stock
        card = e.card
        if seat != state.turn or state.phase != "draw" or state.stock_count <= 0:
            return None
        if stock and stock[0] == card:  # the known top (in a partial record, ?? drawn as ??)
            extra = self._draw_extra(state, seat)
            if extra is False:
                return None
            stock = stock[1:]
        else:  # a named card of a stock of unknown cards or order is counted against the deck
            if stock is None:
                if card == UNKNOWN and not self.partial:
                    return None
                seen = card != UNKNOWN
            elif not stock or not self.partial or UNKNOWN not in (top := stock[0], card):
                return None
            else:
                seen = top == UNKNOWN
                card = top if card == UNKNOWN else card
                stock = stock[1:]
            extra = self._draw_extra(state, seat)
            if extra is False:
                return None
            if seen:
                self.check_card_room(state, card, pos, "card")
        hands = list(state.hands)
        hands[seat] = hands[seat] + (card,)
        return replace(
            state,
            position=pos,
            history=state,
            hands=tuple(hands),
            stock=stock,
            stock_count=state.stock_count - 1,
            drew="stock",
            phase="play",
            extra=extra,
        )

    def _draw_extra(self, state: TableState, seat: int) -> VariantState | None | Literal[False]:
        """The variant state after ``seat``'s stock draw from ``state`` when
        :meth:`after_draw` has nothing to say, else False (the base: unchanged)."""
        return state.extra

    def fast_card_discarded(self, state: TableState, e: CardDiscarded, pos: int) -> TableState | None:
        """``card_discarded`` by the seat due in its play phase of a card it
        holds (in a partial record, known or else as one of its unknown cards,
        checked against the deck): the state at ``pos`` as
        :meth:`on_card_discarded` makes it (the discard, :meth:`check_discard`,
        :meth:`end_turn`, :meth:`pass_turn`), or None for the general handler."""
        seat = e.seat
        card = e.card
        if seat != state.turn or state.phase != "play":
            return None
        held = state.hands[seat]
        try:
            i = held.index(card)
        except ValueError:
            if not self.partial or UNKNOWN not in held:
                return None
            i = -1  # played from one of its unknown cards (remove_from_hand)
        extra = self._discard_extra(state, pos, seat, card)
        if extra is False:
            return None
        if i < 0:
            self.check_card_room(state, card, pos, "card")  # REC-DECK, as remove_from_hand
            i = held.index(UNKNOWN)
        hands = list(state.hands)
        hands[seat] = held[:i] + held[i + 1 :]
        if not state.eliminated and type(self).active is TableRules.active:
            nxt = (seat + 1) % len(state.players)  # next_seat, written out: every seat plays
        else:
            nxt = self.next_seat(state, seat)
        turns = list(state.turns)
        turns[nxt] += 1
        return replace(
            state,
            position=pos,
            history=state,
            hands=tuple(hands),
            discard=state.discard + (card,),
            turn=nxt,
            phase="draw",
            drew=None,
            taken=(),
            turn_start=pos,
            turn_melds=(),
            turns=tuple(turns),
            extra=extra,
        )

    def _discard_extra(self, state: TableState, pos: int, seat: int, card: str) -> VariantState | None | Literal[False]:
        """The variant state once ``seat``'s discard of ``card`` at ``pos`` has
        passed the turn, when :meth:`check_discard`, :meth:`end_turn` and
        :meth:`start_turn` have no finding to add, else False (the base: unchanged)."""
        return state.extra

    # --- handlers --------------------------------------------------------------------
    def on_game_started(self, state: TableState, event: GameStarted, pos: int) -> TableState:
        raise self.reject("REC-ORDER", N_("a second game_started"), pos, "type")

    def on_hand_dealt(self, state: TableState, e: HandDealt, pos: int) -> TableState:
        if state.phase in ("draw", "play"):
            raise self.reject(
                "REC-ORDER",
                Message(N_("%(type)s while hand %(hand)s has not ended"), type="hand_dealt", hand=state.hand),
                pos,
                "type",
            )
        if e.hand != state.hand + 1:
            raise self.reject(
                "REC-ORDER",
                f"hand {e.hand} dealt after hand {state.hand} (expected hand {state.hand + 1})",
                pos,
                "hand",
            )
        n = state.n_seats
        self.check_seat(state, e.dealer, pos, "dealer")
        if len(e.hands) != n:
            raise self.reject(
                "REC-REF",
                Message(N_("%(num)s hands dealt for %(seats)s seats"), num=len(e.hands), seats=n),
                pos,
                "hands",
            )
        pozzetti = self._dealt_pozzetti(e, pos)
        stock_count = self._dealt_stock_count(e, pozzetti, pos)
        fresh = replace(
            state,
            hand=e.hand,
            dealer=e.dealer,
            hands=tuple(tuple(h) for h in e.hands),
            stock=tuple(e.stock) if e.stock is not None else None,
            stock_count=stock_count,
            discard=tuple(e.discard),
            melds=(),
            pozzetti=pozzetti,
            pozzetto_by=(None,) * len(pozzetti),
            opened=(False,) * n,
            turns=(0,) * n,
            history=None,
        )
        fresh = replace(fresh, extra=self.new_extra(fresh))
        fresh = self.check_deal(state, fresh, e, pos)
        return self.start_turn(fresh, self.first_seat(e.dealer, fresh), pos)

    def on_card_drawn(self, state: TableState, e: CardDrawn, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "draw", e)
        if state.stock_count <= 0:
            raise self.reject(
                "REC-WHERE",
                Message(N_("%(who)s drew %(card)s from an empty stock"), who=state.name(e.seat), card=e.card),
                pos,
                "card",
            )
        card = e.card
        if card == UNKNOWN and not self.partial:
            raise self.not_partial(pos, "card")
        if state.stock is not None:
            top = state.stock[0]
            if top != card and UNKNOWN not in (top, card):
                raise self.reject(
                    "REC-WHERE",
                    Message(N_("the top of the stock is %(top)s, not %(card)s"), top=top, card=card),
                    pos,
                    "card",
                )
            if top == UNKNOWN and card != UNKNOWN:
                self.check_card_room(state, card, pos, "card")  # an unknown stock card seen drawn
            card = top if card == UNKNOWN else card
            stock: tuple[str, ...] | None = state.stock[1:]
        else:
            if card != UNKNOWN:
                self.check_deck_room(state, (card,), pos, "card")
            stock = None
        hands = list(state.hands)
        hands[e.seat] = hands[e.seat] + (card,)
        state = replace(
            state, hands=tuple(hands), stock=stock, stock_count=state.stock_count - 1, drew="stock", phase="play"
        )
        return self.after_draw(state, pos, e.seat)

    def after_draw(self, state: TableState, pos: int, seat: int) -> TableState:
        """Hook after a stock draw (Burraco's last-two-cards rule)."""
        return state

    def on_upcard_passed(self, state: TableState, e: UpcardPassed, pos: int) -> TableState:
        raise self.reject(
            "REC-FORMAT",
            Message(
                N_("%(type)s is a %(game)s event, not %(variant)s"),
                type="upcard_passed",
                game="Gin",
                variant=self.variant,
            ),
            pos,
            "type",
        )

    def on_discard_taken(self, state: TableState, e: DiscardTaken, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "draw", e)
        pile = state.discard
        want = self.pile_take_count(state)
        k = len(e.cards)
        expected = pile if want is None else pile[-want:] if pile else ()
        if not pile:
            raise self.reject("REC-WHERE", N_("the discard pile is empty"), pos, "cards")
        if tuple(e.cards) != tuple(expected) and not self._pile_seen(state, e, tuple(expected), pos):
            what = "the whole pile" if want is None else "the top card"
            raise self.reject(
                "REC-WHERE", f"taken {pretty_list(e.cards)} but {what} is {pretty_list(expected)}", pos, "cards"
            )
        hands = list(state.hands)
        hands[e.seat] = hands[e.seat] + tuple(e.cards)
        return replace(
            state, hands=tuple(hands), discard=pile[:-k], drew="pile", taken=state.taken + tuple(e.cards), phase="play"
        )

    def _pile_seen(self, state: TableState, e: DiscardTaken, expected: tuple[str, ...], pos: int) -> bool:
        """Partial records: True when ``e.cards`` is the pile ``expected``
        as the table saw it, an unknown pile card (``??``) taken named or
        unknown; ``REC-FORMAT`` for ``??`` in a full record, ``REC-DECK``
        for a pile card named now that the deck cannot spare."""
        if UNKNOWN in e.cards and not self.partial:
            raise self.not_partial(pos, f"cards[{e.cards.index(UNKNOWN)}]")
        if not self.partial or len(e.cards) != len(expected):
            return False
        if any(got != was and was != UNKNOWN for got, was in zip(e.cards, expected, strict=True)):
            return False
        named = [got for got, was in zip(e.cards, expected, strict=True) if was == UNKNOWN and got != UNKNOWN]
        if named:
            self.check_deck_room(state, named, pos, "cards")
        return True

    def on_cards_shown(self, state: TableState, e: CardsShown, pos: int) -> TableState:
        """Partial records: ``e.cards`` seen in the seat's hand; unknown
        cards become them (:meth:`~ledger.variants.core.TableRules.reveal`).
        ``REC-FORMAT`` in a full record, ``REC-ORDER`` outside a hand."""
        if not self.partial:
            raise self.not_partial(pos, "type")
        self.in_hand(state, e, pos)
        self.check_seat(state, e.seat, pos)
        return self.set_hand(state, e.seat, self.reveal(state, e.seat, e.cards, pos, "cards"))

    def on_pozzetto_taken(self, state: TableState, e: PozzettoTaken, pos: int) -> TableState:
        raise self.reject(
            "REC-FORMAT",
            Message(
                N_("%(type)s is a %(game)s event, not %(variant)s"),
                type="pozzetto_taken",
                game="Burraco",
                variant=self.variant,
            ),
            pos,
            "type",
        )

    def on_knocked(self, state: TableState, e: Knocked, pos: int) -> TableState:
        raise self.reject(
            "REC-FORMAT",
            Message(
                N_("%(type)s is a %(game)s event, not %(variant)s"), type="knocked", game="Gin", variant=self.variant
            ),
            pos,
            "type",
        )

    def on_card_discarded(self, state: TableState, e: CardDiscarded, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "discard", e)
        hands = list(state.hands)
        held = hands[e.seat]
        if e.card in held:
            i = held.index(e.card)
            hands[e.seat] = held[:i] + held[i + 1 :]
        else:
            hands[e.seat] = self.remove_from_hand(state, e.seat, (e.card,), pos, "card")  # raises REC-WHERE
        state = replace(state, hands=tuple(hands), discard=state.discard + (e.card,))
        state = self.check_discard(state, pos, e.seat, e.card)
        state = self.end_turn(state, pos)
        return self.pass_turn(state, pos)

    def on_stock_restocked(self, state: TableState, e: StockRestocked, pos: int) -> TableState:
        """The discard pile less its top card becomes the stock (``restock``
        option: ``turn_over`` keeps the pile's order, bottom card on top;
        ``shuffle`` leaves the order unknown unless ``cards`` gives it)."""
        self.in_hand(state, e, pos)
        if state.stock_count > 0:
            raise self.reject(
                "REC-ORDER",
                Message(N_("stock_restocked while the stock still holds %(num)s cards"), num=state.stock_count),
                pos,
                "type",
            )
        under = state.discard[:-1]
        if not under:
            raise self.reject(
                "REC-WHERE", N_("nothing to restock: the discard pile holds only its top card"), pos, "type"
            )
        if e.cards is not None and UNKNOWN in e.cards and not self.partial:
            raise self.not_partial(pos, f"cards[{e.cards.index(UNKNOWN)}]")
        if e.cards is not None and self.partial and (UNKNOWN in e.cards or UNKNOWN in under):
            named = Counter(c for c in e.cards if c != UNKNOWN)
            if len(e.cards) != len(under) or (named - Counter(under) and UNKNOWN not in under):
                raise self.reject(
                    "REC-WHERE",
                    f"the new stock {pretty_list(e.cards)} is not the discard pile less its top card",
                    pos,
                    "cards",
                )
            stock: tuple[str, ...] | None = tuple(e.cards)
        elif e.cards is not None:
            if Counter(e.cards) != Counter(under):
                raise self.reject(
                    "REC-WHERE",
                    f"the new stock {pretty_list(e.cards)} is not the discard pile less its top card",
                    pos,
                    "cards",
                )
            stock = tuple(e.cards)
        elif self.restock_mode() == "turn_over":
            stock = under
        else:
            stock = None
        return replace(state, stock=stock, stock_count=len(under), discard=state.discard[-1:])


#: ALL-TURN-2's second draw: the event type, its msgid (Italian: "dal tallone"...)
DRAW_EVENTS = (N_("card_drawn"), N_("discard_taken"), N_("pozzetto_taken"))

#: ALL-TURN-2 before the draw, by the kind of act (turns.py ``act``)
_BEFORE_DRAWING = {
    "play": N_("%(who)s melded or laid off before drawing"),
    "discard": N_("%(who)s discarded before drawing"),
}
