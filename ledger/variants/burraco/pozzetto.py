"""Burraco's pozzetti: the second layer of its rules (RULES.md "Burraco",
"Pozzetto"; see :mod:`ledger.variants.burraco.rules` for how a record shows them).

:class:`BurracoPozzetti` takes a pozzetto into the hand (``pozzetto_taken``,
BUR-POZZ-1) and, in preset ``seed``, turns an untaken pozzetto into the
stock when the stock is exhausted (``stock_restocked``, or implicitly at a
draw from the empty stock). The play, the going out and the scoring are
:class:`~ledger.variants.burraco.rules.BurracoRules`, its subclass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ledger.cards import UNKNOWN, pretty_list
from ledger.events import CardDrawn, CardsShown, PozzettoTaken, StockRestocked
from ledger.state import TableState, replace
from ledger.texts import N_, Message, and_
from ledger.variants.burraco.table import BurracoTable
from ledger.variants.core import fill_unknown


class BurracoPozzetti(BurracoTable):
    """Burraco's pozzetti (subclassed by :class:`~ledger.variants.burraco.rules.BurracoRules`,
    never used alone)."""

    def on_card_drawn(self, state: TableState, e: CardDrawn, pos: int) -> TableState:
        if (
            state.stock_count <= 0
            and self.settings.stock_end == "pozzetto"
            and state.phase in ("draw", "play")
            and self.untaken(state)
        ):
            state = self.restock_from_pozzetto(state, None, pos, drawn=e.card)
        return super().on_card_drawn(state, e, pos)

    def untaken(self, state: TableState) -> list[int]:
        """Pozzetti neither taken nor turned into the stock."""
        gone = self.ex(state).restocked_from
        return [i for i, by in enumerate(state.pozzetto_by) if by is None and i not in gone]

    def restock_from_pozzetto(
        self, state: TableState, cards: Sequence[str] | None, pos: int, drawn: str | None = None
    ) -> TableState:
        """Preset seed: an untaken pozzetto becomes the stock (see the module docstring)."""
        left = self.untaken(state)
        if not left:
            raise self.reject(
                "REC-WHERE",
                "the stock is empty and no pozzetto is left to become the stock",
                pos,
                "cards" if cards is not None else "type",
            )
        index = left[0]
        if cards is not None:
            match = [i for i in left if state.pozzetti[i] is not None and Counter(state.pozzetti[i]) == Counter(cards)]
            if match:
                index = match[0]
            elif any(state.pozzetti[i] is not None for i in left):
                raise self.reject(
                    "REC-WHERE",
                    f"the new stock {pretty_list(cards)} is not the cards of an untaken pozzetto",
                    pos,
                    "cards",
                )
            else:
                self.check_deck_room(state, cards, pos, "cards")
            stock: tuple[str, ...] | None = tuple(cards)
        else:
            if drawn is not None:
                first = [i for i in left if (pozzetto := state.pozzetti[i]) and pozzetto[0] == drawn]
                index = first[0] if first else index
            known = state.pozzetti[index]
            stock = tuple(known) if known is not None else None
        count = len(stock) if stock is not None else self.pozzetto_size()
        pozzetti = list(state.pozzetti)
        pozzetti[index] = None
        state = replace(state, stock=stock, stock_count=count, pozzetti=tuple(pozzetti))
        return self.set_extra(state, restocked_from=self.ex(state).restocked_from + (index,))

    def on_stock_restocked(self, state: TableState, e: StockRestocked, pos: int) -> TableState:
        """Preset seed: an untaken pozzetto becomes the stock; fibur never restocks."""
        self.in_hand(state, e, pos)
        if self.settings.stock_end != "pozzetto":
            raise self.reject(
                "REC-ORDER",
                f"stock_restocked: preset {self.ruleset} never restocks (the hand ends with the stock)",
                pos,
                "type",
            )
        if state.stock_count > 0:
            raise self.reject(
                "REC-ORDER",
                Message(N_("stock_restocked while the stock still holds %(num)s cards"), num=state.stock_count),
                pos,
                "type",
            )
        return self.restock_from_pozzetto(state, e.cards, pos)

    def on_pozzetto_taken(self, state: TableState, e: PozzettoTaken, pos: int) -> TableState:
        """A seat takes pozzetto ``e.pozzetto`` into its (empty) hand.

        Raises ``REC-WHERE`` for a pozzetto already taken or turned into the
        stock, or ``cards`` that are not the dealt pozzetto; ``REC-FORMAT``
        when neither the deal nor the event lists its cards. Flags
        ``BUR-POZZ-1`` (side already had one, hand not empty, not the seat's
        moment) and ``ALL-DEAL-1`` (an unlisted pozzetto of the wrong size).
        """
        self.in_hand(state, e, pos)
        self.check_seat(state, e.seat, pos)
        i = e.pozzetto
        if i in self.ex(state).restocked_from:
            raise self.reject("REC-WHERE", Message(N_("pozzetto %(num)s became the stock"), num=i), pos, "pozzetto")
        by = state.pozzetto_by[i]
        if by is not None:
            raise self.reject(
                "REC-WHERE",
                Message(N_("pozzetto %(num)s was already taken by %(who)s"), num=i, who=state.name(by)),
                pos,
                "pozzetto",
            )
        state, cards = self._pozzetto_cards(state, e, pos)
        name, side = state.name(e.seat), state.sides[e.seat]
        held = state.hands[e.seat]
        last = self.ex(state).last_discard
        by_discard = last is not None and last[1] == e.seat and last[0] == state.turn_start and state.phase == "draw"
        faults = []
        if self.side_took_pozzetto(state, side):
            faults.append(Message(N_("%(side)s already had its pozzetto"), side=state.side_message(side)))
        if held:
            faults.append(_still_held(name, held))
        if faults:
            state = self.flag(
                state,
                pos,
                e.seat,
                "BUR-POZZ-1",
                N_("%(who)s took pozzetto %(pozzetto)s, but %(faults)s"),
                who=name,
                pozzetto=i,
                faults=and_(*faults),
            )
        pozzetti, taken_by = list(state.pozzetti), list(state.pozzetto_by)
        pozzetti[i], taken_by[i] = None, e.seat
        state = self.set_hand(state, e.seat, held + cards)
        state = replace(state, pozzetti=tuple(pozzetti), pozzetto_by=tuple(taken_by))
        if by_discard and not held:
            state = self.set_extra(state, early_seat=e.seat)
        return state

    def _partial_pozzetto(
        self, state: TableState, known: tuple[str, ...], e: PozzettoTaken, pos: int
    ) -> tuple[str, ...]:
        """Partial records: a pozzetto dealt with unknown cards (``??``) is
        taken as the event names it (``??`` still unknown); ``REC-WHERE``
        when the event's cards cannot be the dealt ones, ``REC-DECK`` when
        the deck cannot spare a card named now."""
        if e.cards is None:
            return known
        named = Counter(c for c in e.cards if c != UNKNOWN)
        was = Counter(c for c in known if c != UNKNOWN)
        if len(e.cards) != len(known) or was - named:
            raise self.reject(
                "REC-WHERE",
                f"pozzetto {e.pozzetto} holds {pretty_list(known)}, not {pretty_list(e.cards)}",
                pos,
                "cards",
            )
        self.check_deck_room(state, (named - was).elements(), pos, "cards")
        return tuple(e.cards)

    def _pozzetto_cards(self, state: TableState, e: PozzettoTaken, pos: int) -> tuple[TableState, tuple[str, ...]]:
        """The cards of the pozzetto taken: the dealt ones (the event's must
        match, ``REC-WHERE``), else the event's (``REC-FORMAT`` when it has
        none; ``ALL-DEAL-1`` for the wrong number)."""
        i = e.pozzetto
        known = state.pozzetti[i]
        if e.cards is not None and UNKNOWN in e.cards and not self.partial:
            raise self.not_partial(pos, f"cards[{e.cards.index(UNKNOWN)}]")
        if known is not None and self.partial and UNKNOWN in known:
            return state, self._partial_pozzetto(state, known, e, pos)
        if known is not None:
            if e.cards is not None and Counter(e.cards) != Counter(known):
                raise self.reject(
                    "REC-WHERE", f"pozzetto {i} holds {pretty_list(known)}, not {pretty_list(e.cards)}", pos, "cards"
                )
            return state, tuple(known)
        if e.cards is None:
            raise self.reject(
                "REC-FORMAT",
                f"pozzetto_taken must list the cards: the deal did not give pozzetto {i}",
                pos,
                "cards",
            )
        self.check_deck_room(state, e.cards, pos, "cards")
        cards = tuple(e.cards)
        if len(cards) != self.pozzetto_size():
            state = self.flag(
                state,
                pos,
                None,
                "ALL-DEAL-1",
                N_("pozzetto %(pozzetto)s holds %(n)s cards instead of %(want)s"),
                pozzetto=i,
                n=len(cards),
                want=self.pozzetto_size(),
            )
        return state, cards

    # --- partial records (FORMAT.md, "Partial records") ---------------------------
    def on_cards_shown(self, state: TableState, e: CardsShown, pos: int) -> TableState:
        """Also known in the table as it stood at the stock's end (``fibur``), which the hand scores."""
        state = super().on_cards_shown(state, e, pos)
        end = self.ex(state).stock_end
        if end is None or UNKNOWN not in end.hands[e.seat]:
            return state
        hands = list(end.hands)
        hands[e.seat] = fill_unknown(end.hands[e.seat], e.cards)
        return self.set_extra(state, stock_end=replace(end, hands=tuple(hands)))

    def counted_hands(self, state: TableState) -> tuple[tuple[str, ...], ...]:
        """The hands as they stood at the stock's end (``fibur``), else as they are."""
        end = self.ex(state).stock_end
        return end.hands if end is not None else state.hands

    def without_hands(self, state: TableState, seats: frozenset[int]) -> TableState:
        """Also in the table as it stood at the stock's end (``fibur``), which the hand scores."""
        state = super().without_hands(state, seats)
        end = self.ex(state).stock_end
        if end is None:
            return state
        hands = tuple(() if s in seats else h for s, h in enumerate(end.hands))
        return self.set_extra(state, stock_end=replace(end, hands=hands))


def _still_held(who: str, held: Sequence[str]) -> Message:
    """BUR-POZZ-1's "still held N card(s)" (one msgid for one card, one for more: Italian words them apart)."""
    if len(held) == 1:
        return Message(N_("%(who)s still held 1 card(s) (%(cards)s)"), who=who, cards=pretty_list(held))
    return Message(N_("%(who)s still held %(n)s card(s) (%(cards)s)"), who=who, n=len(held), cards=pretty_list(held))
