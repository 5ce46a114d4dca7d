"""The generic player and game driver; variants subclass :class:`Strategy`.

A turn is played as a *plan* (how to draw, whether to meld): the player
draws, lays every meld it finds and lays off what it can, then discards its
worst card. Each event is tried on the fold (:class:`Table.try_`) and kept
only when clean; rules judged over a whole turn (an opening below the
threshold, a pile card not used) show up at the discard, and then the turn
is rolled back and the next, more modest plan is tried. The last plan (draw
from the stock, no melds, any clean discard) always exists in every variant.

Variants override the small hooks: ``draw_plans`` (when to take the pile or
upcard), ``on_empty`` (the hand emptied by melding: go out, take a
pozzetto, or not allowed), ``after_discard`` (the hand emptied by the
discard), ``stock_low`` / ``on_stock_low`` (restock or end the hand),
``game_over`` (target, elimination, single hand).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Self

from ledger.events import (
    CardDiscarded,
    CardDrawn,
    DiscardTaken,
    Event,
    GameStarted,
    HandDealt,
    HandEnded,
    MeldLaid,
    Player,
)
from ledger.melds import MeldRules
from ledger.simulate.players import discard_order, find_melds, layoffs, may_lay_off
from ledger.simulate.table import Table
from ledger.state import TableState

if TYPE_CHECKING:
    from ledger.simulate.inject import Injector, Kind

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")


class SimulationError(RuntimeError):
    """The simulator found no clean move (a bug in a strategy or in the fold)."""


class Strategy:
    """Heuristic play of one variant through the fold.

    ``rng`` drives the shuffles and every random choice, so a seed gives the
    same game. ``max_turns`` caps a hand (it then ends ``stalled``, which
    every variant accepts); ``max_hands`` caps a game (``hands_played``).
    """

    variant = ""
    max_turns = 400
    max_hands = 60
    #: rule id for discarding the card just taken from the pile (inject.py), if any
    retake_rule: str | None = None
    #: the generic violation kinds of inject.py that make sense in the variant
    generic_kinds: tuple[str, ...] = ("out_of_turn", "invalid_meld", "retake")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.injector: Injector | None = None  # set by simulate_game when violations are asked for

    # --- the game -----------------------------------------------------------------
    def players(self, n: int) -> tuple[Player, ...]:
        """The seats (names; teams where the variant has partnerships)."""
        return tuple(Player(seat=i, name=NAMES[i % len(NAMES)]) for i in range(n))

    def game_started(self, game_id: str, ruleset: str | None, n: int) -> GameStarted:
        return GameStarted(game_id=game_id, variant=self.variant, ruleset=ruleset, players=self.players(n))

    def play_game(self, game_id: str, ruleset: str | None, n: int) -> Table:
        """A complete game: hands until :meth:`game_over` (or ``max_hands``)."""
        t = Table([self.game_started(game_id, ruleset, n)])
        self.mr: MeldRules = t.rules.meld_rules()
        reason = "hands_played"
        for hand_no in range(1, self.max_hands + 1):
            if not t.try_(self.deal(t, hand_no)):
                raise SimulationError(f"hand {hand_no}: the deal is not clean")
            self.play_hand(t)
            over = self.game_over(t.state)
            if over:
                reason = over
                break
        if not t.try_(self.game_ended(t, reason)):
            raise SimulationError(f"game_ended ({reason}) is not clean")
        return t

    def game_ended(self, t: Table, reason: str) -> Event:
        from ledger.events import GameEnded

        return GameEnded(reason=reason)  # type: ignore[arg-type]  # the strategies give a GameEndReason

    def game_over(self, state: TableState) -> str | None:
        """The ``game_ended`` reason once the game is over, else None: the
        variant's own answer (:attr:`~ledger.state.TableState.game_end_reason`)."""
        return state.game_end_reason

    def deal(self, t: Table, hand_no: int) -> HandDealt:
        """A shuffled deal with the whole stock order (omniscient record)."""
        state, rules = t.state, t.rules
        n = state.n_seats
        dealer = rules.expected_dealer(state)
        if dealer is None:
            dealer = self.rng.randrange(n)
        deck = sorted(rules.deck().elements())
        self.rng.shuffle(deck)
        hands = []
        for seat in range(n):
            k = rules.hand_size(n, seat, dealer) if rules.active(state, seat) else 0
            hands.append(tuple(deck[:k]))
            del deck[:k]
        pozzetti = None
        size = rules.pozzetto_size()
        if size:
            pozzetti = (tuple(deck[:size]), tuple(deck[size : 2 * size]))
            del deck[: 2 * size]
        upcard = (deck.pop(0),)
        return HandDealt(
            hand=hand_no, dealer=dealer, hands=tuple(hands), discard=upcard, stock=tuple(deck), pozzetti=pozzetti
        )

    # --- the hand -------------------------------------------------------------------
    def play_hand(self, t: Table) -> None:
        """Turns until the hand ends (going out, the stock, or ``max_turns``)."""
        turns = 0
        while t.state.phase in ("draw", "play"):
            if turns >= self.max_turns:
                self.stall(t)
                return
            if self.stock_low(t.state):
                self.on_stock_low(t)
                continue
            seat = t.state.turn
            assert seat is not None
            turns += 1
            if self.injector is not None and self.injector.maybe(self, t, seat):
                continue
            self.play_turn(t, seat)

    def stall(self, t: Table) -> None:
        if not t.try_(HandEnded(reason="stalled")):
            raise SimulationError("hand_ended (stalled) is not clean")

    def stock_low(self, state: TableState) -> bool:
        """True when the stock can no longer be drawn from (default: empty)."""
        return state.phase == "draw" and state.stock_count <= 0

    def on_stock_low(self, t: Table) -> None:
        """Default: the hand ends (``stock_exhausted``)."""
        if not t.try_(HandEnded(reason="stock_exhausted")):
            raise SimulationError("hand_ended (stock_exhausted) is not clean")

    # --- the turn -----------------------------------------------------------------------
    def draw_plans(self, state: TableState, seat: int) -> list[tuple[str, bool]]:
        """``(draw, meld)`` plans to try in order: ``draw`` is ``"pile"`` or
        ``"stock"``; ``meld`` whether to meld and lay off this turn."""
        plans = [("stock", True), ("stock", False)]
        if state.discard and self.pile_helps(state, seat):
            plans.insert(0, ("pile", True))
        return plans

    def pile_helps(self, state: TableState, seat: int) -> bool:
        """True when the pile's top card makes a new meld with the hand."""
        top = state.discard[-1]
        hand = state.hands[seat] + (top,)
        return any(top in m for m in find_melds(hand, self.mr, use_wilds=False))

    def play_turn(self, t: Table, seat: int, expect_first: Sequence[str] = ()) -> None:
        """Play ``seat``'s turn by the first plan that is clean.

        ``expect_first``: the findings the first event must produce (an
        injected out-of-turn play); everything else must be clean.
        """
        mark = t.mark()
        for draw, meld in self.draw_plans(t.state, seat):
            if self.attempt(t, seat, draw, meld, expect_first):
                return
            t.rollback(mark)
        raise SimulationError(f"no clean turn for seat {seat} at position {mark}")

    def attempt(self, t: Table, seat: int, draw: str, meld: bool, expect_first: Sequence[str] = ()) -> bool:
        """One plan: draw, (meld and lay off), discard. True when all clean."""
        if not self.draw(t, seat, draw, expect_first):
            return False
        if t.state.phase not in ("draw", "play"):
            return True
        if meld and self.play(t, seat):
            return True
        return self.discard(t, seat)

    def draw(self, t: Table, seat: int, draw: str, expect: Sequence[str] = ()) -> bool:
        state = t.state
        if draw == "pile":
            if not state.discard:
                return False
            k = t.rules.pile_take_count(state)
            cards = state.discard if k is None else state.discard[-k:]
            return t.try_(DiscardTaken(seat=seat, cards=cards), expect)
        if state.stock_count <= 0 or state.stock is None:
            return False
        return t.try_(CardDrawn(seat=seat, card=state.stock[0]), expect)

    def meld_candidates(self, state: TableState, seat: int) -> Iterator[Event]:
        """New melds, then lay-offs, for ``seat`` now."""
        hand = state.hands[seat]
        n = len(state.melds)
        for cards in find_melds(hand, self.mr):
            n += 1
            yield MeldLaid(seat=seat, meld=f"m{n}", cards=cards)
        yield from layoffs(seat, hand, state.melds, self.mr)

    def play(self, t: Table, seat: int) -> bool:
        """Meld and lay off greedily. Returns True when the hand ended."""
        progress = True
        while progress:
            progress = False
            for ev in self.meld_candidates(t.state, seat):
                mark = t.mark()
                if not t.try_(ev):
                    continue
                if not t.state.hands[seat]:
                    if not self.on_empty(t, seat):
                        t.rollback(mark)
                        continue
                    if t.state.phase not in ("draw", "play"):
                        return True
                progress = True
                break
        return False

    def on_empty(self, t: Table, seat: int) -> bool:
        """The seat's hand emptied by melding: return False when that is not
        allowed (the meld is undone), else record what follows."""
        return False

    def discard(self, t: Table, seat: int) -> bool:
        """The first clean discard (and what follows an empty hand)."""
        state = t.state
        for card in discard_order(state.hands[seat], self.mr, self.avoid(state, seat)):
            mark = t.mark()
            if t.try_(CardDiscarded(seat=seat, card=card)):
                if t.state.hands[seat] and self.after_turn(t, seat):
                    return True
                if not t.state.hands[seat] and self.after_discard(t, seat):
                    return True
                t.rollback(mark)
        return False

    def avoid(self, state: TableState, seat: int) -> Sequence[str]:
        """Cards not to discard if possible (default: cards that lay off on the table)."""
        return may_lay_off(state.hands[seat], state.melds, self.mr)

    def after_turn(self, t: Table, seat: int) -> bool:
        """Hook after a discard that left cards in hand (True: fine)."""
        return True

    # --- injections (inject.py) -------------------------------------------------------
    def injections(self) -> list[Kind[Self]]:
        """Variant-specific violation kinds (see :mod:`ledger.simulate.inject`)."""
        return []

    def can_inject_out_of_turn(self, state: TableState) -> bool:
        """Whether an out-of-turn play may be injected now."""
        return True

    def can_retake(self, state: TableState, seat: int) -> bool:
        """Whether taking the pile's top and discarding it again may be injected now."""
        return True

    def after_discard(self, t: Table, seat: int) -> bool:
        """The hand emptied by the discard: by default the seat went out."""
        return t.try_(HandEnded(reason="went_out", seat=seat))
