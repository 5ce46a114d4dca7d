"""The rules object every variant builds on, and the generic half of the fold.

:class:`Rules` holds a variant's parameters with the record's ruleset and
options resolved, and applies one event to a :class:`~ledger.state.TableState`
(:meth:`Rules.apply`). The generic handlers here do what all five games share:
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
when the class is created (``Rules._handlers``).

Rejections raise :class:`~ledger.errors.RecordError` with the event's
``position``; violations are appended to ``state.findings``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from ledger.cards import deck_counter, pretty_list
from ledger.errors import RecordError
from ledger.events import (
    EVENT_TYPES,
    CardDiscarded,
    CardDrawn,
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
from ledger.melds import FAULTS, MeldInfo, MeldRules, analyze, layoff_candidates
from ledger.state import Finding, Meld, TableState, VariantState, replace
from ledger.variants.options import Options, OptionSpec, option_specs, preset_values
from ledger.variants.outcome import OutcomeRules

if TYPE_CHECKING:
    from ledger.variants.hooks import VariantHooks

#: a handler: ``(rules, state, event, position) -> state`` (an unbound ``Rules.on_…``)
Handler = Callable[[Any, TableState, Any, int], TableState]


class Rules(OutcomeRules):
    """A variant's rules under one ruleset (preset) and options.

    Class attributes a variant sets:
        variant: the FORMAT.md variant name.
        options_type: its options struct (:mod:`ledger.variants.options`), from
            which ``option_types`` is made; or ``option_types`` written out.
        presets: ruleset name -> its options (an ``options_type`` instance, or a dict).
        default_ruleset: the preset used when the record names none.
        option_types: option name -> allowed type(s) or allowed strings.
        players_allowed: the player counts the variant is played with.
        discard_required: a turn must end with a discard (``ALL-TURN-3``).

    Raises :class:`RecordError` (``REC-FORMAT``) on an unknown ruleset or option.
    """

    variant: ClassVar[str] = ""
    options_type: ClassVar[type[Options] | None] = None
    presets: ClassVar[dict[str, Any]] = {}
    default_ruleset: ClassVar[str] = ""
    option_types: ClassVar[dict[str, OptionSpec]] = {}
    players_allowed: ClassVar[tuple[int, ...]] = (2,)
    discard_required: ClassVar[bool] = True
    #: event class -> this class's handler of it (:func:`handler_table`, set when the class is made)
    _handlers: ClassVar[dict[type[Event], Handler]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "options_type" in vars(cls) and cls.options_type is not None:
            cls.option_types = option_specs(cls.options_type)
        cls._handlers = handler_table(cls)

    def __init__(self, ruleset: str | None = None, options: dict[str, Any] | None = None, n_players: int = 2):
        self.ruleset = ruleset or self.default_ruleset
        if self.ruleset not in self.presets:
            known = ", ".join(sorted(self.presets))
            raise RecordError("REC-FORMAT", f"unknown ruleset {self.ruleset!r} for {self.variant} (known: {known})", field="ruleset", position=0)
        self.n_players = n_players
        preset = self.presets[self.ruleset]
        resolved = preset_values(preset) if isinstance(preset, Options) else dict(preset)
        for key, value in (options or {}).items():
            spec = self.option_types.get(key)
            if spec is None:
                known = ", ".join(sorted(self.option_types)) or "none"
                raise RecordError("REC-FORMAT", f"unknown option {key!r} for {self.variant} (known: {known})", field=f"options.{key}", position=0)
            if spec and isinstance(spec[0], str):
                ok = value in spec
            else:
                ok = isinstance(value, spec) and not (bool not in spec and isinstance(value, bool))  # type: ignore[arg-type]  # spec is a tuple of types here
            if not ok:
                raise RecordError("REC-FORMAT", f"option {key!r} cannot be {value!r} (allowed: {_spec_text(spec)})", field=f"options.{key}", position=0)
            resolved[key] = value
        self.options = resolved
        #: the same options as the variant's typed struct (None for a variant without ``options_type``);
        #: each variant declares its type (``settings: RaminoOptions``)
        self.settings: Any = msgspec.structs.replace(preset, **(options or {})) if isinstance(preset, Options) else None
        self._meld_rules = self.meld_rules()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(ruleset={self.ruleset!r}, options={self.options!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (other.ruleset, other.options, other.n_players) == (self.ruleset, self.options, self.n_players)

    def __hash__(self) -> int:
        return hash((type(self), self.ruleset, tuple(sorted(self.options.items())), self.n_players))

    # --- parameters a variant overrides ------------------------------------
    def opt(self, key: str, default: Any = None) -> Any:
        """The resolved value of an option."""
        return self.options.get(key, default)

    def deck(self) -> Counter[str]:
        """The deck as a multiset (face -> copies)."""
        return deck_counter(1, 0)

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        """Cards dealt to ``seat``."""
        raise NotImplementedError

    def meld_rules(self) -> MeldRules:
        """Meld parameters of the variant under these options."""
        return MeldRules()

    def sides_for(self, players: Sequence[Any]) -> tuple[int, ...]:
        """The scoring side of each seat: the seat itself unless partnerships."""
        return tuple(range(len(players)))

    def first_seat(self, dealer: int, state: TableState) -> int:
        """The seat that plays first in a hand: the next active seat after the dealer."""
        return self.next_seat(state, dealer)

    def expected_dealer(self, state: TableState) -> int | None:
        """The dealer the rotation calls for in the next hand (None: any)."""
        if state.dealer is None:
            return None
        return self.next_seat(state, state.dealer)

    def pile_take_count(self, state: TableState) -> int | None:
        """How many cards a ``discard_taken`` takes: 1 (the top), None (the whole pile)."""
        return 1

    def pozzetto_size(self) -> int:
        """Cards in each pozzetto (0: the variant has none)."""
        return 0

    def active(self, state: TableState, seat: int) -> bool:
        """True when ``seat`` still plays (not eliminated)."""
        return seat not in state.eliminated

    def next_seat(self, state: TableState, seat: int) -> int:
        """The next active seat clockwise after ``seat``."""
        n = state.n_seats
        for step in range(1, n + 1):
            cand = (seat + step) % n
            if self.active(state, cand):
                return cand
        return (seat + 1) % n

    def new_extra(self, state: TableState) -> VariantState | None:
        """The variant's own state for a new hand (a :class:`~ledger.state.VariantState`; None by default)."""
        return None

    # --- presentation (what the views add; to move out of the rules, issue 11) ----
    def meld_label(self, meld: Meld) -> dict[str, Any]:
        """Keys a variant adds to a meld's view (Burraco: ``burraco`` kind and
        ``points``; the threshold games: ``points``); none by default."""
        return {}

    def extra_view(self, state: TableState, pov: int | None) -> dict[str, Any]:
        """Keys a variant adds to the table's view as ``pov`` (None: every
        seat's; -1: no seat's) sees it (Burraco's pozzetti, Gin's deadwood,
        ``notes``); none by default."""
        return {}

    def set_extra(self, state: TableState, **changes: Any) -> TableState:
        """``state`` with fields of its variant state (``state.extra``, the
        :class:`~ledger.state.VariantState` made by :meth:`new_extra`)
        changed: the one way the variants update it. Raises
        :class:`TypeError` when the table holds none (before a deal)."""
        x = state.extra
        if x is None:
            raise TypeError(f"no variant state at position {state.position} to change")
        return replace(state, extra=replace(x, **changes))

    # --- dispatch -------------------------------------------------------------
    def apply(self, state: TableState, event: Event) -> TableState:
        """Apply one event; returns the state at the next position.

        Raises :class:`RecordError` (``REC-…``, with ``position``) when the
        event is impossible at this point of the record.
        """
        pos = state.position + 1
        if state.phase == "ended":
            raise RecordError("REC-ORDER", f"{event.type} after game_ended", field="type", position=pos)
        return self._handlers[type(event)](self, replace(state, position=pos, history=state), event, pos)

    # --- finding and rejection helpers ---------------------------------------
    @staticmethod
    def reject(rule: str, message: str, pos: int, field: str = "") -> RecordError:
        """A :class:`RecordError` at ``pos`` (to ``raise``)."""
        return RecordError(rule, message, field=field, position=pos)

    @staticmethod
    def flag(state: TableState, pos: int, seat: int | None, rule: str, message: str) -> TableState:
        """``state`` with one more finding at ``pos``; its ``hand`` is the hand
        in play (None before the first deal and at ``game_ended``)."""
        hand = state.hand if state.hand and state.phase != "ended" else None
        return replace(state, findings=state.findings.appended(Finding(pos, hand, seat, rule, message)))

    def check_seat(self, state: TableState, seat: int, pos: int, field: str = "seat") -> None:
        """Raise ``REC-REF`` for a seat that is not at the table."""
        if not 0 <= seat < state.n_seats:
            raise self.reject("REC-REF", f"unknown seat {seat} (the table has seats 0–{state.n_seats - 1})", pos, field)

    def remove_from_hand(self, state: TableState, seat: int, cards: Iterable[str], pos: int, field: str) -> tuple[str, ...]:
        """``seat``'s hand without ``cards``; raises ``REC-WHERE`` naming the
        first card the seat does not hold."""
        hand = list(state.hands[seat])
        for i, card in enumerate(cards):
            try:
                hand.remove(card)
            except ValueError:
                f = field if field.endswith("card") or field == "discard" else f"{field}[{i}]"
                raise self.reject("REC-WHERE", f"{state.name(seat)} (seat {seat}) does not hold {card}", pos, f) from None
        return tuple(hand)

    def set_hand(self, state: TableState, seat: int, hand: tuple[str, ...]) -> TableState:
        """``state`` with seat ``seat`` holding ``hand``."""
        hands = list(state.hands)
        hands[seat] = hand
        return replace(state, hands=tuple(hands))

    def cards_in_play(self, state: TableState) -> Counter[str]:
        """Every card the state knows the place of (hands, pile, melds, stock, pozzetti)."""
        counts: Counter[str] = Counter()
        for h in state.hands:
            counts.update(h)
        counts.update(state.discard)
        for m in state.melds:
            counts.update(m.cards)
        if state.stock:
            counts.update(state.stock)
        for p in state.pozzetti:
            if p:
                counts.update(p)
        return counts

    def check_deck_room(self, state: TableState, cards: Iterable[str], pos: int, field: str) -> None:
        """Raise ``REC-DECK`` when adding ``cards`` (from an unknown place)
        would put more copies in play than the deck holds."""
        deck = self.deck()
        counts = self.cards_in_play(state)
        for card in cards:
            counts[card] += 1
            if counts[card] > deck.get(card, 0):
                raise self.reject("REC-DECK", f"a copy of {card} too many: the deck holds {deck.get(card, 0)}", pos, field)

    # --- turn bookkeeping --------------------------------------------------------
    def in_hand(self, state: TableState, event: Event, pos: int) -> None:
        """Raise ``REC-ORDER`` unless a hand is in progress."""
        if state.phase == "setup":
            raise self.reject("REC-ORDER", f"{event.type} before the first hand_dealt", pos, "type")
        if state.phase == "over":
            raise self.reject("REC-ORDER", f"{event.type} after hand_ended (hand {state.hand})", pos, "type")

    def start_turn(self, state: TableState, seat: int, pos: int) -> TableState:
        """``seat`` begins a turn at ``pos``: phase ``draw``, turn-local data reset."""
        turns = list(state.turns)
        turns[seat] += 1
        return replace(state, turn=seat, phase="draw", drew=None, taken=(), turn_start=pos, turn_melds=(), turns=tuple(turns))

    def act(self, state: TableState, seat: int, pos: int, kind: str, event: Event) -> TableState:
        """Check that ``seat`` may ``kind`` (``"draw"``, ``"play"``, ``"discard"``) now.

        Flags ``ALL-TURN-3`` (the seat due drew but did not discard and the
        next seat acts), ``ALL-TURN-1`` (any other seat acting out of turn),
        ``ALL-TURN-2`` (a second draw, or play before drawing). The state
        follows the record: the acting seat's turn begins.
        """
        self.in_hand(state, event, pos)
        self.check_seat(state, seat, pos)
        if seat != state.turn:
            due = state.turn
            assert due is not None
            if state.phase == "play" and self.discard_required and seat == self.next_seat(state, due):
                state = self.end_turn(state, pos)
                state = self.flag(state, pos, due, "ALL-TURN-3", f"{state.name(due)}'s turn ended without a discard: {state.name(seat)} acted next")
            else:
                if state.phase == "play":
                    state = self.end_turn(state, pos)
                state = self.flag(state, pos, seat, "ALL-TURN-1", f"{state.name(seat)} played out of turn: it was {state.name(due)}'s turn")
                # The seat's turn begins at this event (not drawn yet); one fault per event: not also "before drawing".
                return self.start_turn(state, seat, pos)
            state = self.start_turn(state, seat, pos)
        if kind == "draw" and state.phase == "play":
            state = self.flag(state, pos, seat, "ALL-TURN-2", f"{state.name(seat)} drew a second time in the same turn ({event.type})")
        elif kind != "draw" and state.phase == "draw":
            state = self.flag(state, pos, seat, "ALL-TURN-2", f"{state.name(seat)} {_VERB.get(kind, kind)} before drawing")
        return state

    def end_turn(self, state: TableState, pos: int) -> TableState:
        """Hook: rules judged over a whole turn, reported at ``pos`` (the event
        that ends the turn). The base has none."""
        return state

    def pass_turn(self, state: TableState, pos: int) -> TableState:
        """After a discard: the next active seat's turn begins."""
        assert state.turn is not None
        return self.start_turn(state, self.next_seat(state, state.turn), pos)

    # --- meld hooks -----------------------------------------------------------------
    def meld_rule_ids(self) -> dict[str, str]:
        """Fault code -> rule id. Default: wild faults ``ALL-MELD-2``, the rest ``ALL-MELD-1``."""
        return {"too_many_wilds": "ALL-MELD-2", "wild_inside": "ALL-MELD-2"}

    def meld_findings(self, state: TableState, pos: int, seat: int, info: MeldInfo, what: str) -> TableState:
        """Flag each fault of a meld once, by the variant's rule id for it."""
        ids = self.meld_rule_ids()
        rules = [ids.get(fault, "ALL-MELD-1") for fault in info.faults]
        own = any(not r.startswith("ALL-") for r in rules)  # RULES.md: the variant's id instead of ALL-MELD-1/2, never both
        seen: set[str] = set()
        for fault, rule in zip(info.faults, rules):
            if rule in seen or (own and rule.startswith("ALL-")):
                continue
            seen.add(rule)
            state = self.flag(state, pos, seat, rule, f"{what} {pretty_list(info.cards)}: {FAULTS[fault]}")
        return state

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:
        """Hook after a new meld is on the table: validity findings by default."""
        return self.meld_findings(state, pos, seat, meld.info, f"meld {meld.id}")

    def layoff_options(self, meld: Meld, cards: Sequence[str]) -> list[tuple[str, ...]]:
        """The legal card orders of ``meld`` after laying off ``cards``
        (:func:`~ledger.melds.layoff_candidates`); a variant whose wilds never
        move drops the orders that move one. Used to place a lay-off whose
        ``result`` the record does not give, and to judge whether a card could
        be laid off."""
        return layoff_candidates(meld.cards, tuple(cards), self._meld_rules)

    def check_layoff(self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended) -> TableState:
        """Hook after a lay-off: validity of the meld afterwards by default."""
        return self.meld_findings(state, pos, seat, after.info, f"meld {after.id} after the lay-off")

    def check_swap(self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: JokerSwapped) -> TableState:
        """Hook after a joker swap (none in the base)."""
        return state

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """Hook after a discard, before the turn passes (none in the base)."""
        return state

    # --- handlers --------------------------------------------------------------------
    def on_game_started(self, state: TableState, event: GameStarted, pos: int) -> TableState:
        raise self.reject("REC-ORDER", "a second game_started", pos, "type")

    def on_hand_dealt(self, state: TableState, e: HandDealt, pos: int) -> TableState:
        if state.phase in ("draw", "play"):
            raise self.reject("REC-ORDER", f"hand_dealt while hand {state.hand} has not ended", pos, "type")
        if e.hand != state.hand + 1:
            raise self.reject("REC-ORDER", f"hand {e.hand} dealt after hand {state.hand} (expected hand {state.hand + 1})", pos, "hand")
        n = state.n_seats
        self.check_seat(state, e.dealer, pos, "dealer")
        if len(e.hands) != n:
            raise self.reject("REC-REF", f"{len(e.hands)} hands dealt for {n} seats", pos, "hands")
        size = self.pozzetto_size()
        pozzetti: tuple[tuple[str, ...] | None, ...] = ()
        if size:
            pozzetti = tuple(e.pozzetti) if e.pozzetti is not None else (None, None)
            if len(pozzetti) != 2:
                raise self.reject("REC-REF", f"{len(pozzetti)} pozzetti (Burraco has 2)", pos, "pozzetti")
        elif e.pozzetti is not None:
            raise self.reject("REC-FORMAT", f"{self.variant} has no pozzetti", pos, "pozzetti")
        deck = self.deck()
        counts: Counter[str] = Counter()
        for h in e.hands:
            counts.update(h)
        counts.update(e.discard)
        for p in pozzetti:
            counts.update(p or ())
        counts.update(e.stock or ())
        for card, k in counts.items():
            if k > deck.get(card, 0):
                raise self.reject("REC-DECK", f"{k} copies of {card} dealt; the {self.variant} deck holds {deck.get(card, 0)}", pos, "hands")
        dealt = sum(counts.values())
        total = sum(deck.values())
        unknown_pozzetti = sum(size for p in pozzetti if p is None)
        if e.stock is not None and dealt + unknown_pozzetti != total:
            raise self.reject("REC-DECK", f"the deal holds {dealt + unknown_pozzetti} cards; the deck has {total}", pos, "stock")
        stock_count = len(e.stock) if e.stock is not None else total - dealt - unknown_pozzetti
        if stock_count < 0:
            raise self.reject("REC-DECK", f"the deal holds more than the deck's {total} cards", pos, "hands")
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
            pozzetto_by=tuple(None for _ in pozzetti),
            opened=tuple(False for _ in range(n)),
            turns=tuple(0 for _ in range(n)),
            history=None,
        )
        fresh = replace(fresh, extra=self.new_extra(fresh))
        fresh = self.check_deal(state, fresh, e, pos)
        return self.start_turn(fresh, self.first_seat(e.dealer, fresh), pos)

    def check_deal(self, before: TableState, state: TableState, e: HandDealt, pos: int) -> TableState:
        """``ALL-DEAL-1``: cards per seat, pozzetto sizes, dealer rotation."""
        for seat, cards in enumerate(e.hands):
            want = self.hand_size(state.n_seats, seat, e.dealer) if self.active(state, seat) else 0
            if len(cards) != want:
                state = self.flag(state, pos, seat, "ALL-DEAL-1", f"{state.name(seat)} was dealt {len(cards)} cards instead of {want}")
        size = self.pozzetto_size()
        for i, p in enumerate(state.pozzetti):
            if p is not None and len(p) != size:
                state = self.flag(state, pos, None, "ALL-DEAL-1", f"pozzetto {i} holds {len(p)} cards instead of {size}")
        want_dealer = self.expected_dealer(before)
        if want_dealer is not None and e.dealer != want_dealer:
            state = self.flag(state, pos, e.dealer, "ALL-DEAL-1", f"{state.name(e.dealer)} dealt hand {e.hand}; the rotation called for {state.name(want_dealer)}")
        return state

    def on_card_drawn(self, state: TableState, e: CardDrawn, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "draw", e)
        if state.stock_count <= 0:
            raise self.reject("REC-WHERE", f"{state.name(e.seat)} drew {e.card} from an empty stock", pos, "card")
        if state.stock is not None:
            if state.stock[0] != e.card:
                raise self.reject("REC-WHERE", f"the top of the stock is {state.stock[0]}, not {e.card}", pos, "card")
            stock: tuple[str, ...] | None = state.stock[1:]
        else:
            self.check_deck_room(state, (e.card,), pos, "card")
            stock = None
        hands = list(state.hands)
        hands[e.seat] = hands[e.seat] + (e.card,)
        state = replace(state, hands=tuple(hands), stock=stock, stock_count=state.stock_count - 1, drew="stock", phase="play")
        return self.after_draw(state, pos, e.seat)

    def after_draw(self, state: TableState, pos: int, seat: int) -> TableState:
        """Hook after a stock draw (Burraco's last-two-cards rule)."""
        return state

    def on_upcard_passed(self, state: TableState, e: UpcardPassed, pos: int) -> TableState:
        raise self.reject("REC-FORMAT", f"upcard_passed is a Gin event, not {self.variant}", pos, "type")

    def on_discard_taken(self, state: TableState, e: DiscardTaken, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "draw", e)
        pile = state.discard
        want = self.pile_take_count(state)
        k = len(e.cards)
        expected = pile if want is None else pile[-want:] if pile else ()
        if not pile:
            raise self.reject("REC-WHERE", "the discard pile is empty", pos, "cards")
        if tuple(e.cards) != tuple(expected):
            what = "the whole pile" if want is None else "the top card"
            raise self.reject("REC-WHERE", f"taken {pretty_list(e.cards)} but {what} is {pretty_list(expected)}", pos, "cards")
        hands = list(state.hands)
        hands[e.seat] = hands[e.seat] + tuple(e.cards)
        return replace(state, hands=tuple(hands), discard=pile[:-k], drew="pile", taken=state.taken + tuple(e.cards), phase="play")

    def on_meld_laid(self, state: TableState, e: MeldLaid, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "play", e)
        if state.meld(e.meld) is not None:
            raise self.reject("REC-REF", f"meld id {e.meld!r} is already used in hand {state.hand}", pos, "meld")
        hand = self.remove_from_hand(state, e.seat, e.cards, pos, "cards")
        info = analyze(e.cards, self._meld_rules)
        meld = Meld(e.meld, e.seat, state.sides[e.seat], tuple(e.cards), info, pos)
        before = state
        hands = list(state.hands)
        hands[e.seat] = hand
        state = replace(state, hands=tuple(hands), melds=state.melds + (meld,), turn_melds=state.turn_melds + (e.meld,))
        state = self.check_meld(state, pos, e.seat, meld, e)
        opened = list(state.opened)
        opened[e.seat] = True
        state = replace(state, opened=tuple(opened))
        return self.after_meld(before, state, pos, e.seat)

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """Hook after any meld or lay-off changed the seat's hand (pozzetto al volo)."""
        return state

    def find_meld(self, state: TableState, meld_id: str, pos: int) -> Meld:
        """The meld with that id in this hand; raises ``REC-REF``."""
        meld = state.meld(meld_id)
        if meld is None:
            raise self.reject("REC-REF", f"no meld {meld_id!r} on the table in hand {state.hand}", pos, "meld")
        return meld

    def replace_meld(self, state: TableState, meld: Meld) -> TableState:
        """``state`` with ``meld`` in place of the meld with its id."""
        return replace(state, melds=tuple(meld if m.id == meld.id else m for m in state.melds))

    def check_result(self, result: Sequence[str], expected: Counter[str], pos: int) -> None:
        """Raise ``REC-WHERE`` when ``result`` is not exactly the expected cards."""
        if Counter(result) != expected:
            raise self.reject("REC-WHERE", f"result {pretty_list(result)} is not the meld's cards ({pretty_list(sorted(expected.elements()))})", pos, "result")

    def on_meld_extended(self, state: TableState, e: MeldExtended, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "play", e)
        meld = self.find_meld(state, e.meld, pos)
        hand = self.remove_from_hand(state, e.seat, e.cards, pos, "cards")
        if e.result is not None:
            self.check_result(e.result, Counter(meld.cards) + Counter(e.cards), pos)
            cards = tuple(e.result)
        else:
            options = self.layoff_options(meld, e.cards)
            if len(options) > 1:
                shown = " or ".join(pretty_list(o) for o in options[:3])
                raise self.reject("REC-FORMAT", f"ambiguous lay-off of {pretty_list(e.cards)} on meld {e.meld}: the record must give " f"`result` ({shown})", pos, "result")
            cards = options[0] if options else meld.cards + tuple(e.cards)
        after = replace(meld, cards=cards, info=analyze(cards, self._meld_rules))
        before = state
        hands = list(state.hands)
        hands[e.seat] = hand
        melds = tuple(after if m.id == after.id else m for m in state.melds)  # as replace_meld
        state = replace(state, hands=tuple(hands), melds=melds, turn_melds=state.turn_melds + (e.meld,))
        state = self.check_layoff(meld, after, state, pos, e.seat, e)
        return self.after_meld(before, state, pos, e.seat)

    def on_joker_swapped(self, state: TableState, e: JokerSwapped, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "play", e)
        meld = self.find_meld(state, e.meld, pos)
        hand = self.remove_from_hand(state, e.seat, (e.card,), pos, "card")
        if e.joker not in meld.cards:
            raise self.reject("REC-WHERE", f"meld {e.meld} holds no {e.joker}", pos, "joker")
        if e.result is not None:
            self.check_result(e.result, Counter(meld.cards) - Counter((e.joker,)) + Counter((e.card,)), pos)
            cards = tuple(e.result)
        else:
            i = meld.cards.index(e.joker)
            cards = meld.cards[:i] + (e.card,) + meld.cards[i + 1 :]
        after = replace(meld, cards=cards, info=analyze(cards, self._meld_rules))
        before = state
        state = self.set_hand(state, e.seat, hand + (e.joker,))
        state = self.replace_meld(state, after)
        state = replace(state, turn_melds=state.turn_melds + (e.meld,))
        state = self.check_swap(meld, after, state, pos, e.seat, e)
        return self.after_meld(before, state, pos, e.seat)

    def on_pozzetto_taken(self, state: TableState, e: PozzettoTaken, pos: int) -> TableState:
        raise self.reject("REC-FORMAT", f"pozzetto_taken is a Burraco event, not {self.variant}", pos, "type")

    def on_knocked(self, state: TableState, e: Knocked, pos: int) -> TableState:
        raise self.reject("REC-FORMAT", f"knocked is a Gin event, not {self.variant}", pos, "type")

    def on_card_discarded(self, state: TableState, e: CardDiscarded, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "discard", e)
        hands = list(state.hands)
        hands[e.seat] = self.remove_from_hand(state, e.seat, (e.card,), pos, "card")
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
            raise self.reject("REC-ORDER", f"stock_restocked while the stock still holds {state.stock_count} cards", pos, "type")
        under = state.discard[:-1]
        if not under:
            raise self.reject("REC-WHERE", "nothing to restock: the discard pile holds only its top card", pos, "type")
        if e.cards is not None:
            if Counter(e.cards) != Counter(under):
                raise self.reject("REC-WHERE", f"the new stock {pretty_list(e.cards)} is not the discard pile less its top card", pos, "cards")
            stock: tuple[str, ...] | None = tuple(e.cards)
        elif self.opt("restock", "shuffle") == "turn_over":
            stock = under
        else:
            stock = None
        return replace(state, stock=stock, stock_count=len(under), discard=state.discard[-1:])


_VERB = {"play": "melded or laid off", "discard": "discarded"}


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


Rules._handlers = handler_table(Rules)


def _spec_text(spec: OptionSpec) -> str:
    if spec and isinstance(spec[0], str):
        return ", ".join(spec)
    return " or ".join(t.__name__ for t in spec)  # type: ignore[union-attr]  # spec is a tuple of types here


if TYPE_CHECKING:  # Rules implements every hook of the declared interface (checked by mypy)
    _RULES_ARE_HOOKS: type[VariantHooks] = Rules
