"""Twin records for the per-seat view tests (FORMAT.md, "Per-seat views").

An oracle written apart from :mod:`ledger.redaction`: it follows every
physical card of a record (an *instance*: two copies of 7♥ are two
instances) from the deal through each event, and marks the instances a
viewer has seen by position N, by FORMAT.md's list:

- its own hand (everything that entered it);
- every card face up: the upcard and each discard (the discard pile), every
  card laid in a meld or laid off;
- Gin: the knocker's hand from the knock (its melds and deadwood are laid
  face up); the face-down discard only by the knocker;
- when a hand ends, every card in every hand and on the discard pile.

Never: the stock, an untaken pozzetto, another seat's stock draws, a
pozzetto another seat took, the face-down discard before the hand ends.

:func:`twin` then gives the record up to N with the unseen instances' faces
shuffled among themselves (a consistent renaming: each unseen physical card
gets another unseen card's face everywhere it appears, so the twin is a
record that could have been played and the viewer could not tell the two
apart). A viewer's state, board and page at N must be the same for both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from ledger.events import DeclaredMeld, Event

replace = msgspec.structs.replace


class Tracker:
    """Where every instance is after each event, and which ones ``viewer``
    (a seat, or None for a spectator) has seen."""

    def __init__(self, n_seats: int, viewer: int | None, variant: str) -> None:
        self.n = n_seats
        self.viewer = viewer
        self.variant = variant
        self.face: list[str] = []
        self.deal_of: list[int] = []  # instance -> the hand (deal count) it belongs to
        self.deals = 0
        self.seen: set[int] = set()
        self.hands: list[list[int]] = [[] for _ in range(n_seats)]
        self.pile: list[int] = []
        self.stock: list[int] | None = []  # top first; None: order unknown
        self.pool: list[int] = []  # stock instances whose order is unknown
        self.melds: dict[str, list[int]] = {}
        self.pozzetti: list[list[int] | None] = []
        self.history: dict[int, Any] = {}
        #: per event position: field name -> instance ids (the renameable card fields)
        self.refs: dict[int, dict[str, Any]] = {}

    # --- instances ------------------------------------------------------------
    def new(self, card: str) -> int:
        self.face.append(card)
        self.deal_of.append(self.deals)
        return len(self.face) - 1

    def take(self, where: list[int], card: str) -> int:
        """Remove an instance of ``card`` from ``where``: a seen one first."""
        cands = [i for i in where if self.face[i] == card]
        assert cands, f"no {card} where the event takes it from"
        pick = next((i for i in cands if i in self.seen), cands[0])
        where.remove(pick)
        return pick

    def show(self, *ids: int) -> None:
        self.seen.update(ids)

    def to_hand(self, seat: int, i: int) -> None:
        self.hands[seat].append(i)
        if seat == self.viewer:
            self.show(i)

    def snapshot(self) -> Any:
        return (
            [list(h) for h in self.hands],
            list(self.pile),
            None if self.stock is None else list(self.stock),
            list(self.pool),
            {k: list(v) for k, v in self.melds.items()},
            [None if p is None else list(p) for p in self.pozzetti],
        )

    def restore(self, snap: Any) -> None:
        hands, pile, stock, pool, melds, pozzetti = snap
        self.hands = [list(h) for h in hands]
        self.pile, self.pool = list(pile), list(pool)
        self.stock = None if stock is None else list(stock)
        self.melds = {k: list(v) for k, v in melds.items()}
        self.pozzetti = [None if p is None else list(p) for p in pozzetti]

    def draw_instance(self, card: str) -> int:
        if self.stock:
            i = self.stock.pop(0)
            assert self.face[i] == card, (self.face[i], card)
            return i
        if self.pool and any(self.face[i] == card for i in self.pool):
            return self.take(self.pool, card)
        if self.variant == "burraco" and any(p is not None for p in self.pozzetti):
            left = [k for k, p in enumerate(self.pozzetti) if p is not None]
            first = [k for k in left if self.pozzetti[k] and self.face[self.pozzetti[k][0]] == card]  # type: ignore[index]
            k = first[0] if first else left[0]
            self.stock, self.pozzetti[k] = self.pozzetti[k], None
            return self.draw_instance(card)
        return self.new(card)

    # --- events ---------------------------------------------------------------
    def step(self, pos: int, e: Event) -> None:
        t, ev = e.type, e  # type: Any
        ev = e
        if t == "hand_dealt":
            self.history = {}
            self.deals += 1
            hands = [[self.new(c) for c in h] for h in ev.hands]
            self.hands = hands
            self.pile = [self.new(c) for c in ev.discard]
            self.stock = [self.new(c) for c in ev.stock] if ev.stock is not None else []
            self.pool = []
            self.melds = {}
            self.pozzetti = (
                [[self.new(c) for c in p] for p in ev.pozzetti]
                if ev.pozzetti is not None
                else ([None, None] if self.variant == "burraco" else [])
            )
            self.pozzetti_unknown = ev.pozzetti is None and self.variant == "burraco"
            self.show(*self.pile)
            if self.viewer is not None and self.viewer < len(hands):
                self.show(*hands[self.viewer])
            self.refs[pos] = {
                "hands": [list(h) for h in hands],
                "stock": list(self.stock) if ev.stock is not None else None,
                "pozzetti": [list(p) for p in self.pozzetti] if ev.pozzetti is not None else None,
            }
        elif t == "card_drawn":
            i = self.draw_instance(ev.card)
            self.to_hand(ev.seat, i)
            self.refs[pos] = {"card": i}
        elif t == "discard_taken":
            k = len(ev.cards)
            taken, self.pile = self.pile[-k:], self.pile[:-k]
            assert [self.face[i] for i in taken] == list(ev.cards)
            for i in taken:
                self.to_hand(ev.seat, i)
        elif t == "meld_laid":
            ids = [self.take(self.hands[ev.seat], c) for c in ev.cards]
            self.melds[ev.meld] = ids
            self.show(*ids)
        elif t == "meld_extended":
            ids = [self.take(self.hands[ev.seat], c) for c in ev.cards]
            self.melds.setdefault(ev.meld, []).extend(ids)
            self.show(*ids)
        elif t == "joker_swapped":
            i = self.take(self.hands[ev.seat], ev.card)
            j = self.take(self.melds[ev.meld], ev.joker)
            self.melds[ev.meld].append(i)
            self.show(i, j)
            self.to_hand(ev.seat, j)
        elif t == "pozzetto_taken":
            p = self.pozzetti[ev.pozzetto] if ev.pozzetto < len(self.pozzetti) else None
            ids = list(p) if p is not None else [self.new(c) for c in (ev.cards or ())]
            if ev.pozzetto < len(self.pozzetti):
                self.pozzetti[ev.pozzetto] = None
            for i in ids:
                self.to_hand(ev.seat, i)
            if ev.cards is not None:
                by_face: dict[str, list[int]] = {}
                for i in ids:
                    by_face.setdefault(self.face[i], []).append(i)
                self.refs[pos] = {"cards": [by_face[c].pop(0) for c in ev.cards]}
        elif t == "card_discarded":
            i = self.take(self.hands[ev.seat], ev.card)
            self.pile.append(i)
            self.show(i)
        elif t == "knocked":
            hand = self.hands[ev.seat]
            d = self.take(hand, ev.discard)
            self.pile.append(d)
            if ev.seat == self.viewer:
                self.show(d)
            self.refs[pos] = {"discard": d}
            for dm in ev.melds:
                ids = [self.take(hand, c) for c in dm.cards if any(self.face[i] == c for i in hand)]
                self.melds[dm.meld] = ids
            self.show(*hand)  # the deadwood and whatever else is left: laid face up
            for ids in self.melds.values():
                self.show(*ids)
        elif t == "stock_restocked":
            if self.variant == "burraco":
                left = [k for k, p in enumerate(self.pozzetti) if p is not None]
                k = left[0]
                if ev.cards is not None:
                    match = [q for q in left if sorted(self.face[i] for i in self.pozzetti[q]) == sorted(ev.cards)]  # type: ignore[union-attr]
                    k = match[0] if match else k
                src = list(self.pozzetti[k] or [])
                self.pozzetti[k] = None
            else:
                src, self.pile = self.pile[:-1], self.pile[-1:]
            if ev.cards is not None:
                by_face = {}
                for i in src:
                    by_face.setdefault(self.face[i], []).append(i)
                self.stock = [by_face[c].pop(0) for c in ev.cards]
                self.refs[pos] = {"cards": list(self.stock)}
            else:
                self.stock, self.pool = [], src
        elif t == "hand_ended":
            for h in self.hands:
                self.show(*h)
            self.show(*self.pile)
        elif t == "position_restored":
            self.restore(self.history[ev.target])
        self.history[pos] = self.snapshot()


def track(events: Sequence[Event], upto: int, viewer: int | None) -> Tracker:
    """Follow ``events[0..upto]`` for ``viewer`` (a seat or None: spectator)."""
    first: Any = events[0]
    t = Tracker(len(first.players), viewer, first.variant)
    for pos in range(1, upto + 1):
        t.step(pos, events[pos])
    return t


def twin(events: Sequence[Event], upto: int, viewer: int | None, seed: int = 0) -> tuple[list[Event], int]:
    """``events[0..upto]`` with every instance ``viewer`` has not seen by
    ``upto`` renamed (their faces shuffled among them). Returns the twin
    and how many cards changed face."""
    t = track(events, upto, viewer)
    rng = random.Random(seed * 7919 + upto)
    name = list(t.face)
    changed = 0
    for deal in range(1, t.deals + 1):  # each hand's cards among themselves (every deal is the whole deck)
        hidden = [i for i in range(len(t.face)) if i not in t.seen and t.deal_of[i] == deal]
        faces = [t.face[i] for i in hidden]
        shuffled = faces[:]
        rng.shuffle(shuffled)
        for i, f in zip(hidden, shuffled):
            name[i] = f
        changed += sum(1 for a, b in zip(faces, shuffled) if a != b)

    def faces_of(ids: Any) -> Any:
        return tuple(name[i] for i in ids)

    out: list[Event] = [events[0]]
    for pos in range(1, upto + 1):
        e: Any = events[pos]
        refs = t.refs.get(pos)
        if refs is None:
            out.append(e)
            continue
        if e.type == "hand_dealt":
            out.append(
                replace(
                    e,
                    hands=tuple(faces_of(h) for h in refs["hands"]),
                    discard=e.discard,
                    stock=faces_of(refs["stock"]) if refs["stock"] is not None else None,
                    pozzetti=tuple(faces_of(p) for p in refs["pozzetti"]) if refs["pozzetti"] is not None else None,
                )
            )
        elif e.type == "card_drawn":
            out.append(replace(e, card=name[refs["card"]]))
        elif e.type == "knocked":
            out.append(
                replace(
                    e,
                    discard=name[refs["discard"]],
                    melds=tuple(DeclaredMeld(meld=m.meld, cards=m.cards) for m in e.melds),
                )
            )
        elif e.type in ("pozzetto_taken", "stock_restocked"):
            out.append(replace(e, cards=faces_of(refs["cards"])))
        else:
            out.append(e)
    return out, changed
