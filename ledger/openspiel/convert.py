"""The record of an OpenSpiel ``gin_rummy`` game: OpenSpiel's state machine, phase by phase, emitting ledger events.

Seats: OpenSpiel's player 0 always acts first, so seat 0 is the non-dealer
and seat 1 the dealer. The stock order is not known beyond the cards drawn,
so ``hand_dealt`` omits ``stock``. The knocker's melds get ids ``k1``,
``k2`` …, the defender's ``d1`` …; each lay-off is one ``meld_extended`` of
one card onto the knocker's meld it fits (chosen so every later lay-off
fits too). Endings: knock or gin -> ``hand_ended`` ``knocked``; pass at the
wall -> ``stock_exhausted``; the repeated-move rule and the 50th upcard draw
-> ``stalled`` (that draw is not recorded); then ``game_ended``
``hands_played``.

An incomplete history (one that stops before OpenSpiel's terminal state) is
refused, saying where it stops; ``partial=True`` (``--partial``) converts
what it holds, without ``hand_ended`` / ``game_ended``, once the deal is
complete; a history that stops during the deal becomes a partial record
(``"knowledge": "partial"``, the cards not dealt yet ``??``: FORMAT.md,
"Partial records"). The action ids: :mod:`ledger.openspiel.actions`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import msgspec

from ledger.events import (
    CardDiscarded,
    CardDrawn,
    DeclaredMeld,
    DiscardTaken,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    Knocked,
    MeldExtended,
    MeldLaid,
    Player,
    UpcardPassed,
)
from ledger.melds import MeldRules, layoff_candidates
from ledger.openspiel.actions import DRAW_STOCK, DRAW_UPCARD, KNOCK, MELD_BASE, PASS, card, meld_cards
from ledger.openspiel.params import Params, record_options
from ledger.variants.gin.deadwood import deadwood_value

MAX_UPCARD_DRAWS = 50
WALL = 2
_RULES = MeldRules(max_wilds=0, ace_high=False, max_set=4, max_sequence=13)


def place_layoffs(melds: dict[str, tuple[str, ...]], layoffs: Sequence[str]) -> list[str]:
    """The meld id each lay-off card goes onto, in order, so that every one
    fits (depth-first). Raises :class:`ValueError` when none does.

    >>> place_layoffs({"k1": ("5C", "5D", "5S"), "k2": ("6H", "7H", "8H")}, ["5H", "4H"])
    ['k2', 'k2']
    """
    ids = list(melds)

    def search(i: int, current: dict[str, tuple[str, ...]]) -> list[str] | None:
        if i == len(layoffs):
            return []
        for mid in ids:
            options = layoff_candidates(current[mid], (layoffs[i],), _RULES)
            if options:
                rest = search(i + 1, {**current, mid: options[0]})
                if rest is not None:
                    return [mid] + rest
        return None

    found = search(0, dict(melds))
    if found is None:
        raise ValueError(f"the lay-offs {layoffs} fit no arrangement of the knocker's melds")
    return found


class _Hand:
    """OpenSpiel's gin_rummy state machine, emitting ledger events."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.hands: list[list[str]] = [[], []]
        self.upcard: str | None = None
        self.prev_upcard: str | None = None
        self.phase = "deal"
        self.cur = 0
        self.passed = [False, False]
        self.stock = 52
        self.repeated = False
        self.upcard_draws = 0
        self.knocker: int | None = None
        self.knock_discard: str | None = None
        self.knock_melds: list[tuple[str, ...]] = []
        self.layoffs: list[str] = []
        self.defender_melds: list[tuple[str, ...]] = []
        self.finished_layoffs = False
        self.ending: str | None = None
        self.seen: set[str] = set()

    def chance(self, i: int, a: int) -> str:
        c = card(a)
        if c in self.seen:
            raise ValueError(f"action {i}: {c} dealt twice")
        self.seen.add(c)
        self.stock -= 1
        return c

    def take(self, seat: int, c: str, i: int) -> None:
        if c not in self.hands[seat]:
            raise ValueError(f"action {i}: player {seat} does not hold {c}")
        self.hands[seat].remove(c)

    def step(self, i: int, a: int) -> None:
        """Apply action ``a``, the ``i``-th of the history, in the current
        phase (:data:`_STEPS`); raises :class:`ValueError` naming ``i`` for an
        action OpenSpiel would not accept there."""
        handler = _STEPS.get(self.phase)
        if handler is None:
            raise ValueError(f"action {i}: the game is over")
        handler(self, i, a)

    def deal_step(self, i: int, a: int) -> None:
        """The deal: 10 cards to player 0, 10 to player 1, then the upcard."""
        c = self.chance(i, a)
        if i < 10:
            self.hands[0].append(c)
        elif i < 20:
            self.hands[1].append(c)
        else:
            self.upcard = c
            self.events.append(
                HandDealt(hand=1, dealer=1, hands=(tuple(self.hands[0]), tuple(self.hands[1])), discard=(c,))
            )
            self.phase = "first"

    def partial_deal(self) -> HandDealt:
        """The deal so far, the cards not dealt yet ``??`` (10 a hand and the upcard)."""
        hands = tuple(tuple(h) + ("??",) * (10 - len(h)) for h in self.hands)
        return HandDealt(hand=1, dealer=1, hands=hands, discard=(self.upcard or "??",))

    def stock_step(self, i: int, a: int) -> None:
        """The card of a stock draw (a chance action)."""
        c = self.chance(i, a)
        self.hands[self.cur].append(c)
        self.events.append(CardDrawn(seat=self.cur, card=c))
        self.phase = "discard"

    def draw_step(self, i: int, a: int) -> None:
        """A draw (phase ``draw``), or the first-turn upcard offer (``first``):
        the upcard, the stock, or a pass of the offer."""
        p = self.phase
        if a == DRAW_UPCARD:
            if p == "draw":
                self.upcard_draws += 1
                if self.upcard_draws == MAX_UPCARD_DRAWS:
                    self.ending = "stalled"
                    return
            assert self.upcard is not None
            self.events.append(DiscardTaken(seat=self.cur, cards=(self.upcard,)))
            self.hands[self.cur].append(self.upcard)
            self.prev_upcard, self.upcard = self.upcard, None
            self.phase = "discard"
        elif a == DRAW_STOCK and (p == "draw" or all(self.passed)):
            self.prev_upcard, self.upcard = self.upcard, None
            self.phase = "stock"
        elif a == PASS and p == "first" and not all(self.passed):
            self.events.append(UpcardPassed(seat=self.cur))
            self.passed[self.cur] = True
            self.cur = 1 - self.cur
        else:
            raise ValueError(f"action {i}: {a} is not a legal draw")

    def discard_step(self, i: int, a: int) -> None:
        """A discard (the repeated-move rule stalls the hand) or a knock."""
        if a == KNOCK:
            self.knocker, self.phase = self.cur, "knock"
            return
        c = card(a)
        self.take(self.cur, c, i)
        self.events.append(CardDiscarded(seat=self.cur, card=c))
        self.upcard = c
        self.cur = 1 - self.cur
        if c == self.prev_upcard:
            if self.repeated:
                self.ending = "stalled"
                return
            self.repeated = True
        else:
            self.repeated = False
        self.phase = "wall" if self.stock == WALL else "draw"

    def wall_step(self, i: int, a: int) -> None:
        """At the wall: a pass ends the hand, a knock takes the upcard first."""
        if a == PASS:
            self.ending = "stock_exhausted"
        elif a == KNOCK:
            assert self.upcard is not None
            self.events.append(DiscardTaken(seat=self.cur, cards=(self.upcard,)))
            self.hands[self.cur].append(self.upcard)
            self.upcard = None
            self.knocker, self.phase = self.cur, "knock"
        else:
            raise ValueError(f"action {i}: {a} is not legal at the wall")

    def knock_step(self, i: int, a: int) -> None:
        k = self.knocker
        assert k is not None
        if self.knock_discard is None:
            c = card(a)
            self.take(k, c, i)
            self.knock_discard = c
        elif a >= MELD_BASE:
            cards = meld_cards(a - MELD_BASE)
            for c in cards:
                self.take(k, c, i)
            self.knock_melds.append(cards)
        elif a == PASS:
            melds = tuple(DeclaredMeld(meld=f"k{n + 1}", cards=m) for n, m in enumerate(self.knock_melds))
            self.events.append(Knocked(seat=k, discard=self.knock_discard, melds=melds, deadwood=tuple(self.hands[k])))
            self.finished_layoffs = deadwood_value(self.hands[k]) == 0
            self.cur, self.phase = 1 - k, "layoff"
        else:
            raise ValueError(f"action {i}: {a} is not legal in a knock")

    def layoff_step(self, i: int, a: int) -> None:
        d = self.cur
        if not self.finished_layoffs and a < 52:
            c = card(a)
            self.take(d, c, i)
            self.layoffs.append(c)
        elif a >= MELD_BASE and self.finished_layoffs:
            cards = meld_cards(a - MELD_BASE)
            for c in cards:
                self.take(d, c, i)
            self.defender_melds.append(cards)
        elif a == PASS and not self.finished_layoffs:
            self.finished_layoffs = True
        elif a == PASS:
            knocker_melds = {f"k{n + 1}": m for n, m in enumerate(self.knock_melds)}
            for mid, c in zip(place_layoffs(knocker_melds, self.layoffs), self.layoffs):
                self.events.append(MeldExtended(seat=d, meld=mid, cards=(c,)))
            for n, m in enumerate(self.defender_melds):
                self.events.append(MeldLaid(seat=d, meld=f"d{n + 1}", cards=m))
            self.ending = "knocked"
        else:
            raise ValueError(f"action {i}: {a} is not legal after the knock")


#: the step of each phase of :class:`_Hand`
_STEPS: dict[str, Callable[[_Hand, int, int], None]] = {
    "deal": _Hand.deal_step,
    "stock": _Hand.stock_step,
    "first": _Hand.draw_step,
    "draw": _Hand.draw_step,
    "discard": _Hand.discard_step,
    "wall": _Hand.wall_step,
    "knock": _Hand.knock_step,
    "layoff": _Hand.layoff_step,
}

#: where a history can stop, in words (the phases of :class:`_Hand`)
_PHASES = {
    "deal": "during the deal (the hands and the upcard take 21 chance actions)",
    "first": "at the first-turn upcard offer",
    "draw": "before a draw",
    "stock": "before the card of a stock draw",
    "discard": "before a discard or knock",
    "wall": "at the wall (pass or knock)",
    "knock": "during the knocker's declaration",
    "layoff": "during the defender's lay-offs and melds",
}


def convert_actions(
    actions: Iterable[int],
    game_id: str = "openspiel-gin",
    names: tuple[str, str] = ("Player 0", "Player 1"),
    params: Params | None = None,
    partial: bool = False,
) -> list[Event]:
    """The record events of one OpenSpiel ``gin_rummy`` game given its
    action history and its parameters (``params``, see :func:`~ledger.openspiel.params.record_options`;
    none: the defaults).

    Returns ``game_started`` (with the mapped options), the hand,
    ``hand_ended`` and ``game_ended``. Raises :class:`ValueError` naming the
    action index for a history OpenSpiel would not accept (an illegal action
    in its phase, a card not held, actions after the end), naming the
    parameter that cannot be represented, and for a history that stops
    before the end of the game, unless ``partial`` (then the events so far,
    without an ending, provided the deal is complete).
    """
    options = record_options(dict(params or {}))
    players = (Player(seat=0, name=names[0]), Player(seat=1, name=names[1]))
    events: list[Event] = [
        GameStarted(game_id=game_id, variant="gin", ruleset="openspiel", options=options or None, players=players)
    ]
    hand = _Hand()
    n = 0
    for i, a in enumerate(actions):
        if hand.ending is not None:
            raise ValueError(f"action {i}: {a} after the end of the game")
        hand.step(i, int(a))
        n = i + 1
    events.extend(hand.events)
    if hand.ending is None:
        where = _PHASES.get(hand.phase, hand.phase)
        if not partial:
            raise ValueError(
                f"the history stops after {n} action{'s' if n != 1 else ''}, {where}: it is not a finished game "
                "(--partial converts what it holds)"
            )
        if hand.phase == "deal" and n == 0:
            raise ValueError(f"the history stops after {n} actions, {where}: nothing to convert")
        if hand.phase == "deal":  # the cards not dealt yet are unknown: a partial record (FORMAT.md)
            return [msgspec.structs.replace(events[0], knowledge="partial"), hand.partial_deal()]
        return events
    seat = hand.knocker if hand.ending == "knocked" else None
    events.append(HandEnded(reason=hand.ending, seat=seat))  # type: ignore[arg-type]  # hand.ending is a HandEndReason once the hand is over
    events.append(GameEnded(reason="hands_played"))
    return events
