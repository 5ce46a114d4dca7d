"""The rules object every variant builds on, and the generic half of the fold.

:class:`Rules` holds a variant's parameters with the record's ruleset and
options resolved, and applies one event to a :class:`~ledger.state.TableState`
(:meth:`Rules.apply`). The generic handlers do what all five games share, in
the layers :class:`Rules` is made of, one module each (``core``, ``turns``,
``melding``, ``outcome``; the class docstring lists them):
moving cards (and rejecting a card that is not where an event takes it from,
``REC-WHERE``), the deck check (``REC-DECK``), references (``REC-REF``), the
order of events (``REC-ORDER``), whose turn it is (``ALL-TURN-1/2/3``), meld
validity (``ALL-MELD-1/2``), deals (``ALL-DEAL-1``) and claimed scores
(``ALL-SCORE-1``). A variant subclass overrides the hooks (``check_meld``,
``check_layoff``, ``check_discard``, ``end_turn``, ``score_hand`` …; the whole
list, with what each is for, is :class:`ledger.variants.hooks.VariantHooks`) or
a whole handler (``on_<event type>``), calling ``super()`` for the shared part.

Dispatch is explicit: :func:`handler_table` names the handler of each event
class, and every rules class gets its table, with its own overrides, once
when the class is created (``Rules._handlers``). The two commonest events,
``card_drawn`` and ``card_discarded``, first try a fused path that makes the
next state in one step when the variant's hooks have nothing to say, and
melds and lay-offs by the seat due one that skips the dispatch's copy
(:func:`fused_table`, ``Rules._fast``); any other case goes to the handler.

Rejections raise :class:`~ledger.errors.RecordError` with the event's
``position``; violations are appended to ``state.findings``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ledger.errors import RecordError
from ledger.events import (
    EVENT_TYPES,
    CardDiscarded,
    CardDrawn,
    CardsShown,
    DiscardTaken,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    JokerSwapped,
    Knocked,
    MeldExtended,
    MeldLaid,
    PenaltyAssessed,
    PositionRestored,
    PozzettoTaken,
    StockRestocked,
    UpcardPassed,
)
from ledger.state import TableState, replace
from ledger.variants.core import after_game_ended
from ledger.variants.options import option_specs
from ledger.variants.outcome import OutcomeRules

if TYPE_CHECKING:
    from ledger.variants.hooks import VariantHooks

#: a handler: ``(rules, state, event, position) -> state`` (an unbound ``Rules.on_…``)
Handler = Callable[[Any, TableState, Any, int], TableState]
#: a fused path: ``(rules, state before, event, position) -> state, or None for the handler``
FastPath = Callable[[Any, TableState, Any, int], TableState | None]


class Rules(OutcomeRules):
    """A variant's rules under one ruleset (preset) and options: the class
    every variant subclasses.

    The layers it is made of, one concept each: :class:`~ledger.variants.core.TableRules`
    (parameters, options, helpers; its docstring lists the class attributes
    a variant sets), :class:`~ledger.variants.turns.TurnRules` (the deal and
    the turn), :class:`~ledger.variants.melding.MeldingRules` (melds),
    :class:`~ledger.variants.outcome.OutcomeRules` (the end of hands and
    games); this class adds the dispatch (:meth:`apply`).

    Raises :class:`RecordError` (``REC-FORMAT``) on an unknown ruleset or option.
    """

    #: event class -> this class's handler of it (:func:`handler_table`, set when the class is made)
    _handlers: ClassVar[dict[type[Event], Handler]]
    #: event class -> this class's fused path for it (:func:`fused_table`), tried before the handler
    _fast: ClassVar[dict[type[Event], FastPath]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "options_type" in vars(cls) and cls.options_type is not None:
            cls.option_types = option_specs(cls.options_type)
        cls._handlers = handler_table(cls)
        cls._fast = fused_table(cls)

    # --- dispatch -------------------------------------------------------------
    def apply(self, state: TableState, event: Event) -> TableState:
        """Apply one event; returns the state at the next position.

        Raises :class:`RecordError` (``REC-…``, with ``position``) when the
        event is impossible at this point of the record.
        """
        pos = state.position + 1  # (BurracoRules.apply writes this body out: change both)
        if state.phase == "ended" and type(event) is not PenaltyAssessed:  # FORMAT.md "Rulings after the game"
            raise RecordError("REC-ORDER", after_game_ended(event.type), field="type", position=pos)
        kind = type(event)
        fast = self._fast.get(kind)
        if fast is not None and (new := fast(self, state, event, pos)) is not None:
            return new
        return self._handlers[kind](self, replace(state, position=pos, history=state), event, pos)


def handler_table(cls: type[Rules]) -> dict[type[Event], Handler]:
    """Event class -> ``cls``'s handler of it (its own override or the one it
    inherits): the fold's dispatch (:meth:`Rules.apply`), one entry per event
    of FORMAT.md. Raises :class:`TypeError` when an event class has none."""
    table: dict[type[Event], Handler] = {
        GameStarted: cls.on_game_started,
        HandDealt: cls.on_hand_dealt,
        CardDrawn: cls.on_card_drawn,
        UpcardPassed: cls.on_upcard_passed,
        DiscardTaken: cls.on_discard_taken,
        MeldLaid: cls.on_meld_laid,
        MeldExtended: cls.on_meld_extended,
        JokerSwapped: cls.on_joker_swapped,
        PozzettoTaken: cls.on_pozzetto_taken,
        CardDiscarded: cls.on_card_discarded,
        CardsShown: cls.on_cards_shown,
        Knocked: cls.on_knocked,
        StockRestocked: cls.on_stock_restocked,
        HandEnded: cls.on_hand_ended,
        PenaltyAssessed: cls.on_penalty_assessed,
        PositionRestored: cls.on_position_restored,
        GameEnded: cls.on_game_ended,
    }
    missing = [t.__name__ for t in EVENT_TYPES if t not in table]
    if missing:
        raise TypeError(f"no handler in {cls.__name__} for {', '.join(missing)}")
    return table


#: event class -> (its fused path, the private predicate the path asks, the methods it stands for)
FUSED: dict[type[Event], tuple[str, str, tuple[str, ...]]] = {
    CardDrawn: ("fast_card_drawn", "_draw_extra", ("on_card_drawn", "act", "after_draw")),
    CardDiscarded: (
        "fast_card_discarded",
        "_discard_extra",
        ("on_card_discarded", "act", "check_discard", "end_turn", "pass_turn", "start_turn"),
    ),
    MeldLaid: ("fast_meld_laid", "_meld_fused", ("on_meld_laid", "lay_meld", "act")),
    MeldExtended: ("fast_meld_extended", "_meld_fused", ("on_meld_extended", "lay_off", "act")),
}


def fused_table(cls: type[Rules]) -> dict[type[Event], FastPath]:
    """Event class -> ``cls``'s fused path for it (``TurnRules.fast_card_drawn``
    and ``fast_card_discarded``, ``MeldingRules.fast_meld_laid`` and
    ``fast_meld_extended``): only where the class that defines the path's
    predicate (a method, or the marker ``_meld_fused``, not False) is the
    class, or a subclass of the class, that defines each method the path
    stands for (:data:`FUSED`). A variant that overrides ``check_discard``
    (say) without its own ``_discard_extra`` keeps the general handler for
    discards."""

    def owner(name: str) -> type:
        return next(k for k in cls.__mro__ if name in vars(k))

    table: dict[type[Event], FastPath] = {}
    for kind, (path, predicate, covers) in FUSED.items():
        if getattr(cls, predicate) is not False and all(
            issubclass(owner(predicate), owner(name)) for name in (path, *covers)
        ):
            table[kind] = getattr(cls, path)
    return table


Rules._handlers = handler_table(Rules)
Rules._fast = fused_table(Rules)


if TYPE_CHECKING:  # Rules implements every hook of the declared interface (checked by mypy)
    _RULES_ARE_HOOKS: type[VariantHooks] = Rules
