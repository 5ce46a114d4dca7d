"""The interface a variant's rules class implements: the hooks it may override.

:class:`ledger.variants.base.Rules` implements every hook with the behaviour
RULES.md gives to all games (``ALL-…``); a variant (``burraco.py``,
``gin.py`` …) overrides the ones its rules change and calls ``super()`` for
the shared part. This Protocol is the list, for readers and type checkers
(``Rules`` is checked against it in :mod:`ledger.variants.base`); the whole
handlers ``on_<event type>`` may be overridden too (their table:
:func:`ledger.variants.base.handler_table`).

Not hooks: ``_draw_extra`` and ``_discard_extra``, the private predicates
of the fused paths of ``card_drawn`` and ``card_discarded``, and the marker
``_meld_fused`` of those of ``meld_laid`` and ``meld_extended``
(:func:`ledger.variants.base.fused_table`). A variant whose ``after_draw``,
``check_discard``, ``end_turn`` or ``start_turn`` has something to say
restates when it has not there (one that overrides a meld handler or
``act``, that its override adds nothing for the seat due); one that does
not keeps the general handler for that event, with the same result.

Shapes: ``state`` is a :class:`~ledger.state.TableState`, ``pos`` the
0-based position of the event being applied (the one a finding is reported
at), ``seat`` a 0-based seat. A hook that returns a state returns it with
its findings appended (:meth:`Rules.flag`); a rejection raises
:class:`~ledger.errors.RecordError` (``REC-…``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ledger.events import HandDealt, HandEnded, JokerSwapped, MeldExtended, MeldLaid
    from ledger.melds import MeldRules
    from ledger.state import Meld, SideScore, TableState, VariantState
    from ledger.variants.options import RestockMode


class VariantHooks(Protocol):
    """What a variant decides, in the order a game meets it."""

    # --- the table and the deal ----------------------------------------------
    def deck(self) -> Counter[str]:
        """The deck as a multiset, face -> copies (``REC-DECK`` checks against it)."""
        ...

    def hand_size(self, n_seats: int, seat: int, dealer: int) -> int:
        """Cards dealt to ``seat`` (``ALL-DEAL-1``); every variant must say."""
        ...

    def meld_rules(self) -> MeldRules:
        """Meld parameters under these options (wilds, ace high, sizes): ``ALL-MELD-1/2``."""
        ...

    def sides_for(self, players: Sequence[Any]) -> tuple[int, ...]:
        """The scoring side of each seat (Burraco's partnerships: the team)."""
        ...

    def first_seat(self, dealer: int, state: TableState) -> int:
        """The seat that plays first in a hand (default: after the dealer)."""
        ...

    def expected_dealer(self, state: TableState) -> int | None:
        """The dealer the rotation calls for in the next hand, None for any (``ALL-DEAL-1``)."""
        ...

    def pile_take_count(self, state: TableState) -> int | None:
        """Cards a ``discard_taken`` takes: 1 (the top) or None (the whole pile, Burraco)."""
        ...

    def pozzetto_size(self) -> int:
        """Cards in each pozzetto; 0 when the variant has none."""
        ...

    def restock_mode(self) -> RestockMode:
        """How an empty stock is renewed (``stock_restocked``): ``shuffle``, ``turn_over`` or ``end_hand``."""
        ...

    def active(self, state: TableState, seat: int) -> bool:
        """True while ``seat`` plays (False once eliminated)."""
        ...

    def new_extra(self, state: TableState) -> VariantState | None:
        """The variant's own state for a new hand (``TableState.extra``, a frozen struct)."""
        ...

    def check_deal(self, before: TableState, state: TableState, e: HandDealt, pos: int) -> TableState:
        """Findings on a deal: cards per seat, pozzetti, rotation (``ALL-DEAL-1``)."""
        ...

    # --- the turn ------------------------------------------------------------------
    def start_turn(self, state: TableState, seat: int, pos: int) -> TableState:
        """``seat``'s turn begins at ``pos``: phase ``draw``, turn-local data reset."""
        ...

    def act(self, state: TableState, seat: int, pos: int, kind: str, event: Any) -> TableState:
        """Whose turn and which phase (``ALL-TURN-1/2/3``) before ``kind`` (draw, play, discard)."""
        ...

    def after_draw(self, state: TableState, pos: int, seat: int) -> TableState:
        """After a stock draw (Burraco: the last two cards, ``BUR-STOCK-1``)."""
        ...

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:
        """After a new meld is on the table: its validity and the variant's opening rules."""
        ...

    def meld_rule_ids(self) -> dict[str, str]:
        """Meld fault code -> the rule id it is reported by (default ``ALL-MELD-1/2``)."""
        ...

    def layoff_options(self, meld: Meld, cards: Sequence[str]) -> list[tuple[str, ...]]:
        """The legal card orders of ``meld`` with ``cards`` laid off (placing a lay-off)."""
        ...

    def check_layoff(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended
    ) -> TableState:
        """After a lay-off: the meld's validity afterwards, the variant's rules on lay-offs."""
        ...

    def check_swap(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: JokerSwapped
    ) -> TableState:
        """After a joker swap (Scala 40, Ramino 51: ``…-SWAP-…``)."""
        ...

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """After any meld, lay-off or swap changed the seat's hand (Burraco's pozzetto al volo)."""
        ...

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        """After a discard, before the turn passes (``RAM-DISC-1``, ``S40-DISC-1`` …)."""
        ...

    def end_turn(self, state: TableState, pos: int) -> TableState:
        """Rules judged over a whole turn, reported at ``pos``, the event that ends it."""
        ...

    # --- the hand's and the game's end ---------------------------------------------
    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """Each side's points for the hand that ``e`` ends (RULES.md, the variant's "Scoring")."""
        ...

    def counted_hands(self, state: TableState) -> tuple[tuple[str, ...], ...]:
        """The hands the hand's scoring counts (partial records: a hand with an
        unknown card among them scores as claimed; Burraco ``fibur``: as at the stock's end)."""
        ...

    def unknown_sides(self, state: TableState, e: HandEnded) -> frozenset[int]:
        """Partial records (FORMAT.md): the sides whose count for the hand ``e``
        ends depends on an unknown card; they score as claimed, the others are
        computed. Default: each side on its own hands (Burraco), every side
        when the went_out names no seat; Scala 40 / Ramino 51: the losers whose
        cards count; Ramino: the winner, who collects the others' hands; Gin:
        both seats (one deadwood count), also when the face-down ``??``
        discard could make big gin."""
        ...

    def without_hands(self, state: TableState, seats: frozenset[int]) -> TableState:
        """``state`` with the counted hands of ``seats`` emptied, for scoring the
        sides whose count is known while those hands hold unknown cards."""
        ...

    def after_hand(self, state: TableState, pos: int) -> TableState:
        """After a hand is scored (elimination in Scala 40 and Ramino 51)."""
        ...

    def hand_over(self, state: TableState) -> bool:
        """True when the hand in play has ended (or cannot go on)."""
        ...

    def game_end_reason(self, state: TableState) -> str | None:
        """Why the game is over at ``state`` (a ``game_ended`` reason), None while it goes on."""
        ...

    def winner(self, state: TableState) -> int | None:
        """The winning side at the end, None for none (a tie, an abandoned game)."""
        ...


__all__ = ["VariantHooks"]
