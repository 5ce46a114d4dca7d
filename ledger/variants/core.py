"""The first layer of the rules object: a variant's parameters and the shared helpers.

:class:`TableRules` holds a variant's parameters with the record's ruleset
and options resolved (``REC-FORMAT`` for an unknown one), the table's shape
(deck, hand size, sides, seat rotation, pozzetti), the variant's own state
for a new hand (:class:`~ledger.state.VariantState`), and the helpers every
handler uses: rejections (``REC-…``), findings, seat and card checks
(``REC-REF``, ``REC-WHERE``, ``REC-DECK``). The layers above it, each in a
module of its own, are :class:`~ledger.variants.turns.TurnRules` (the deal
and the turn), :class:`~ledger.variants.melding.MeldingRules` (melds, lay-offs,
swaps), :class:`~ledger.variants.outcome.OutcomeRules` (the end of hands
and games) and :class:`~ledger.variants.base.Rules` (the dispatch), the
class every variant subclasses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import msgspec

from ledger.cards import UNKNOWN, deck_counter
from ledger.errors import RecordError
from ledger.melds import MeldRules
from ledger.rule_ids import NEEDS_HIDDEN_EVIDENCE
from ledger.state import Finding, TableState, VariantState, replace
from ledger.texts import N_, Message, Param
from ledger.variants.options import Options, OptionSpec, RestockMode, preset_values


class TableRules:
    """A variant's parameters under one ruleset (preset) and options, and the
    helpers of every handler (the first layer of :class:`~ledger.variants.base.Rules`).

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
    #: the record says ``"knowledge": "partial"`` (FORMAT.md, "Partial records"): ``??`` stands
    #: for unknown cards; set by the fold from ``game_started`` (``ledger.replay.start``)
    partial: bool = False

    def __init__(self, ruleset: str | None = None, options: dict[str, Any] | None = None, n_players: int = 2):
        self.ruleset = ruleset or self.default_ruleset
        if self.ruleset not in self.presets:
            known = ", ".join(sorted(self.presets))
            raise RecordError(
                "REC-FORMAT",
                f"unknown ruleset {self.ruleset!r} for {self.variant} (known: {known})",
                field="ruleset",
                position=0,
            )
        self.n_players = n_players
        preset = self.presets[self.ruleset]
        resolved = preset_values(preset) if isinstance(preset, Options) else dict(preset)
        for key, value in (options or {}).items():
            spec = self.option_types.get(key)
            if spec is None:
                known = ", ".join(sorted(self.option_types)) or "none"
                raise RecordError(
                    "REC-FORMAT",
                    f"unknown option {key!r} for {self.variant} (known: {known})",
                    field=f"options.{key}",
                    position=0,
                )
            if spec and isinstance(spec[0], str):
                ok = value in spec
            else:
                ok = isinstance(value, spec) and not (bool not in spec and isinstance(value, bool))  # type: ignore[arg-type]  # spec is a tuple of types here
            if not ok:
                raise RecordError(
                    "REC-FORMAT",
                    f"option {key!r} cannot be {value!r} (allowed: {_spec_text(spec)})",
                    field=f"options.{key}",
                    position=0,
                )
            resolved[key] = value
        self.options = resolved
        #: the same options as the variant's typed struct (None for a variant without ``options_type``);
        #: each variant declares its type (``settings: RaminoOptions``)
        self.settings: Any = msgspec.structs.replace(preset, **(options or {})) if isinstance(preset, Options) else None
        self._meld_rules = self.meld_rules()
        self._deck_counts: tuple[Counter[str], int] | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(ruleset={self.ruleset!r}, options={self.options!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (other.ruleset, other.options, other.n_players) == (
            self.ruleset,
            self.options,
            self.n_players,
        )

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

    def deck_counts(self) -> tuple[Counter[str], int]:
        """``(self.deck(), its number of cards)``, made once per rules object
        (the deck depends on the options only); read it, never change it."""
        if self._deck_counts is None:
            deck = self.deck()
            self._deck_counts = (deck, sum(deck.values()))
        return self._deck_counts

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

    def restock_mode(self) -> RestockMode:
        """How an empty stock is renewed: the discard pile less its top card
        shuffled into the new stock (a variant with a ``restock`` option says)."""
        return "shuffle"

    def active(self, state: TableState, seat: int) -> bool:
        """True when ``seat`` still plays (not eliminated)."""
        return seat not in state.eliminated

    def next_seat(self, state: TableState, seat: int) -> int:
        """The next active seat clockwise after ``seat``."""
        n = len(state.players)
        if not state.eliminated and type(self).active is TableRules.active:
            return (seat + 1) % n  # every seat plays: the next one
        for step in range(1, n + 1):
            cand = (seat + step) % n
            if self.active(state, cand):
                return cand
        return (seat + 1) % n

    def new_extra(self, state: TableState) -> VariantState | None:
        """The variant's own state for a new hand (a :class:`~ledger.state.VariantState`; None by default)."""
        return None

    # --- the variant's own state -----------------------------------------------
    def set_extra(self, state: TableState, **changes: Any) -> TableState:
        """``state`` with fields of its variant state (``state.extra``, the
        :class:`~ledger.state.VariantState` made by :meth:`new_extra`)
        changed: the one way the variants update it. Raises
        :class:`TypeError` when the table holds none (before a deal)."""
        x = state.extra
        if x is None:
            raise TypeError(f"no variant state at position {state.position} to change")
        return replace(state, extra=replace(x, **changes))

    # --- finding and rejection helpers ---------------------------------------
    @staticmethod
    def reject(rule: str, message: str | Message, pos: int, field: str = "") -> RecordError:
        """A :class:`RecordError` at ``pos`` (to ``raise``)."""
        return RecordError(rule, message, field=field, position=pos)

    @staticmethod
    def flag(
        state: TableState, pos: int, seat: int | None, rule: str, msgid: str | Message, /, **params: Param
    ) -> TableState:
        """``state`` with one more finding at ``pos``; its ``hand`` is the hand
        in play (None before the first deal and at ``game_ended``).

        The message is data: ``msgid`` (marked ``N_``, with ``%(name)s``
        placeholders) and ``params`` filling them (plain values, nested
        :class:`~ledger.texts.Message` pieces, tuples), or a ready
        :class:`~ledger.texts.Message` and no params:
        ``self.flag(state, pos, seat, "ALL-TURN-1", N_("%(who)s played out of turn"), who=name)``.

        In a partial record a rule of :data:`~ledger.rule_ids.NEEDS_HIDDEN_EVIDENCE`
        about a seat that holds unknown cards is not reported (the audit
        decides only on evidence: FORMAT.md, "Partial records")."""
        if state.rules.partial and rule in NEEDS_HIDDEN_EVIDENCE and _unsure(state, seat):
            return state
        m = msgid if isinstance(msgid, Message) else Message(msgid, **params)
        hand = state.hand if state.hand and state.phase != "ended" else None
        return replace(state, findings=state.findings.appended(Finding(pos, hand, seat, rule, m.msgid, m.args)))

    def not_partial(self, pos: int, field: str) -> RecordError:
        """``REC-FORMAT`` at ``pos``: ``??`` (or ``cards_shown``, ``field``
        ``type``) in a record that is not partial (FORMAT.md, "Cards")."""
        knowledge = '"knowledge": "partial"'
        if field == "type":
            return self.reject(
                "REC-FORMAT",
                Message(
                    N_("cards_shown is an event of partial records only (game_started %(knowledge)s)"),
                    knowledge=knowledge,
                ),
                pos,
                field,
            )
        return self.reject(
            "REC-FORMAT",
            Message(
                N_("an unknown card ?? is allowed only in a partial record (game_started %(knowledge)s)"),
                knowledge=knowledge,
            ),
            pos,
            field,
        )

    def check_seat(self, state: TableState, seat: int, pos: int, field: str = "seat") -> None:
        """Raise ``REC-REF`` for a seat that is not at the table."""
        if not 0 <= seat < len(state.players):
            raise self.reject(
                "REC-REF",
                Message(
                    N_("unknown seat %(seat)s (the table has seats 0–%(last)s)"), seat=seat, last=state.n_seats - 1
                ),
                pos,
                field,
            )

    def remove_from_hand(
        self, state: TableState, seat: int, cards: Iterable[str], pos: int, field: str
    ) -> tuple[str, ...]:
        """``seat``'s hand without ``cards``; raises ``REC-WHERE`` naming the
        first card the seat does not hold.

        In a partial record a card the seat does not hold known comes from
        one of its unknown cards (``??``), which was that card: ``REC-DECK``
        when the deck has no copy of it left to be (FORMAT.md, "Partial records")."""
        hand = list(state.hands[seat])
        revealed: list[str] | None = None  # partial records: the cards played from unknown ones
        for i, card in enumerate(cards):
            try:
                hand.remove(card)
            except ValueError:
                f = field if field.endswith("card") or field == "discard" else f"{field}[{i}]"
                if self.partial and UNKNOWN in hand:
                    revealed = [*(revealed or ()), card]
                    self.check_deck_room(state, revealed, pos, f)
                    hand.remove(UNKNOWN)
                    continue
                raise self.reject(
                    "REC-WHERE",
                    Message(
                        N_("%(who)s (seat %(seat)s) does not hold %(card)s"), who=state.name(seat), seat=seat, card=card
                    ),
                    pos,
                    f,
                ) from None
        return tuple(hand)

    def reveal(
        self, state: TableState, seat: int, cards: Iterable[str], pos: int, field: str, strict: bool = True
    ) -> tuple[str, ...]:
        """``seat``'s hand with ``cards`` known in it (partial records,
        ``cards_shown``, a Gin knock's declaration): a card it holds known
        stays, any other is one of its unknown cards (``??``), which becomes
        that card. Raises ``REC-WHERE`` when the seat has no unknown card
        left for one (not ``strict``: that card is left out, as a knock that
        declares a card not held is judged, not refused), ``REC-DECK`` when
        the deck has no copy of it to spare (FORMAT.md, "Partial records")."""
        hand = list(state.hands[seat])
        known = Counter(hand)
        revealed: list[str] = []
        for i, card in enumerate(cards):
            if known[card] > 0:
                known[card] -= 1
                continue
            f = f"{field}[{i}]"
            if UNKNOWN not in hand and not strict:
                continue
            if UNKNOWN not in hand:
                raise self.reject("REC-WHERE", f"{state.name(seat)} (seat {seat}) does not hold {card}", pos, f)
            revealed.append(card)
            self.check_deck_room(state, revealed, pos, f)
            hand[hand.index(UNKNOWN)] = card
        return tuple(hand)

    def set_hand(self, state: TableState, seat: int, hand: tuple[str, ...]) -> TableState:
        """``state`` with seat ``seat`` holding ``hand``."""
        hands = list(state.hands)
        hands[seat] = hand
        return replace(state, hands=tuple(hands))

    def cards_in_play(self, state: TableState) -> Counter[str]:
        """Every card the state knows the place of (hands, pile, melds, stock,
        pozzetti); unknown cards (``??``, partial records) are counted under ``??``."""
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

    def copies_in_play(self, state: TableState, card: str) -> int:
        """How many copies of ``card`` the state knows the place of (hands,
        pile, melds, stock, pozzetti): one card of :meth:`cards_in_play`,
        counted without building the whole multiset (the deck check of each
        card played from an unknown one, :meth:`check_deck_room`)."""
        n = state.discard.count(card)
        for h in state.hands:
            n += h.count(card)
        for m in state.melds:
            n += m.cards.count(card)
        if state.stock:
            n += state.stock.count(card)
        for p in state.pozzetti:
            if p:
                n += p.count(card)
        return n

    def check_card_room(self, state: TableState, card: str, pos: int, field: str) -> None:
        """:meth:`check_deck_room` of one card (the fused draw and discard of
        a partial record: nothing allocated)."""
        if card != UNKNOWN and self.copies_in_play(state, card) >= self.deck_counts()[0].get(card, 0):
            self.check_deck_room(state, (card,), pos, field)  # raises REC-DECK

    def check_deck_room(self, state: TableState, cards: Iterable[str], pos: int, field: str) -> None:
        """Raise ``REC-DECK`` when adding ``cards`` (from an unknown place)
        would put more copies in play than the deck holds (the first card, in
        order, that has no copy left to be); unknown cards (``??``) only fill
        the totals."""
        deck = self.deck_counts()[0]
        added: dict[str, int] = {}
        for card in cards:
            if card == UNKNOWN:
                continue
            k = added.get(card)
            k = self.copies_in_play(state, card) + 1 if k is None else k + 1
            added[card] = k
            if k > deck.get(card, 0):
                raise self.reject(
                    "REC-DECK",
                    Message(
                        N_("a copy of %(card)s too many: the deck holds %(num)s"), card=card, num=deck.get(card, 0)
                    ),
                    pos,
                    field,
                )


def fill_unknown(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    """``hand`` with its unknown cards (``??``) become those of ``cards`` it
    does not hold known, as far as it has unknown cards (no check: the
    shown hand was checked on the live table; Burraco's table at the stock's end).

    >>> fill_unknown(("5H", "??", "??"), ("5H", "7C"))
    ('5H', '7C', '??')
    """
    out = list(hand)
    known = Counter(hand)
    for card in cards:
        if known[card] > 0:
            known[card] -= 1
        elif UNKNOWN in out:
            out[out.index(UNKNOWN)] = card
    return tuple(out)


def _unsure(state: TableState, seat: int | None) -> bool:
    """True when ``seat``'s hand holds an unknown card (or no seat is named)."""
    return seat is None or not 0 <= seat < len(state.hands) or UNKNOWN in state.hands[seat]


def _spec_text(spec: OptionSpec) -> str:
    if spec and isinstance(spec[0], str):
        return ", ".join(spec)
    return " or ".join(t.__name__ for t in spec)  # type: ignore[union-attr]  # spec is a tuple of types here


def after_game_ended(event_type: str) -> Message:
    """REC-ORDER's words for an event after ``game_ended``."""
    return Message(N_("%(type)s after game_ended"), type=event_type)


def meld_id_used(meld_id: str, hand: int) -> Message:
    """REC-REF's words for a meld id already used in the hand."""
    return Message(N_("meld id %(meld)s is already used in hand %(hand)s"), meld=repr(meld_id), hand=hand)
