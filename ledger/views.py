"""Typed views of a table state (pure, no I/O).

:func:`state_view` (a :class:`StateView`, frozen msgspec structs; plain data
by :meth:`StateView.to_json`) is what the viewer's state API returns;
with ``pov=<seat>`` (or ``pov="spectator"``) it is redacted to what that seat
(or a reader at no seat) could see, by :mod:`ledger.redaction` (FORMAT.md,
"Per-seat views"): other hands become counts plus the cards seen face up, the
stock order is never shown. Records stay omniscient; redaction happens only
here, at the edge (DESIGN.md, "Decisions already taken"). Move notation,
redacted the same way, is :mod:`ledger.notation`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from ledger.cards import sorted_hand
from ledger.redaction import Pov, Sight, seat_cards, sight, visible_discard, visible_findings
from ledger.state import Meld, TableState
from ledger.texts import N_
from ledger.variants.presentation import MeldBadges, TableNotes, presentation

PHASES = {
    "setup": N_("before the first deal"),
    "draw": N_("to draw"),
    "play": N_("to meld, lay off or discard"),
    "over": N_("hand over"),
    "ended": N_("game over"),
}


#: score breakdown components (README, "breakdown components"), one table for the command line
#: and the viewer/report: key -> the msgid of the words the viewer's Italian page and the dispute
#: report show (:func:`replay_web.words.component`). The key is itself the command line's msgid
#: (``score`` prints the key in English, as ``score --json`` has it, and the key's msgstr in
#: Italian: :func:`ledger.render.component_text`). The two wordings differ today and are kept
#: as they are: in English ``closing`` / ``going out``, ``hand`` / ``cards in hand``, …; in
#: Italian ``senza pozzetto`` / ``pozzetto non preso``, ``ramino doppio`` / ``raddoppio
#: (chiusura in mano)``, …; ``big_gin_bonus`` is no command-line msgid (its key in Italian too).
COMPONENTS: dict[str, str] = {
    N_("melds"): N_("melds"),
    N_("burraco_clean"): N_("clean burraco"),
    N_("burraco_semi_clean"): N_("semi-clean burraco"),
    N_("burraco_dirty"): N_("dirty burraco"),
    N_("closing"): N_("going out"),
    N_("hand"): N_("cards in hand"),
    N_("no_pozzetto"): N_("no pozzetto"),
    N_("penalty"): N_("penalty"),
    N_("cards"): N_("cards in hand"),
    N_("jokers"): N_("jokers in hand"),
    N_("unopened"): N_("not opened"),
    N_("chiusura_in_mano"): N_("chiusura in mano"),
    N_("joker_double"): N_("joker double"),
    N_("all_at_once"): N_("all at once"),
    N_("hands_collected"): N_("hands collected"),
    N_("rummy_double"): N_("rummy double"),
    N_("deadwood_difference"): N_("deadwood difference"),
    N_("gin_bonus"): N_("gin bonus"),
    "big_gin_bonus": N_("big gin bonus"),
    N_("undercut_bonus"): N_("undercut bonus"),
    N_("game_bonus"): N_("game bonus"),
    N_("box_bonus"): N_("box bonus"),
    N_("claimed"): N_("claimed"),  # partial records: the points as claimed (FORMAT.md "Partial records")
    # partial records: the side's penalties of the hand, counted in its claim, taken out of the hand's points
    N_("penalty_in_claim"): N_("penalty counted in the claim"),
}


class SeatView(msgspec.Struct, frozen=True, gc=False):
    """One seat of a :class:`StateView`: ``seat``, ``name``, ``team`` (None:
    no teams), ``side``, ``cards`` (the whole hand when the viewer may see
    it, else None), ``seen`` (the cards of that hand seen face up; None when
    the whole hand is shown), ``count`` (cards held), ``opened``,
    ``eliminated``."""

    seat: int
    name: str
    team: int | None
    side: int
    cards: list[str] | None
    seen: list[str] | None
    count: int
    opened: bool
    eliminated: bool


class MeldView(msgspec.Struct, frozen=True, gc=False):
    """One meld of a :class:`StateView`: ``id``, ``seat``, ``side``,
    ``kind``, ``cards``, ``stands_for`` (what each wild stands for, None for a
    natural card), ``valid``, then the variant's badges
    (:class:`~ledger.variants.presentation.MeldBadges`: ``burraco``, ``points``;
    ``UNSET``, no key, where the variant shows none)."""

    id: str
    seat: int
    side: int
    kind: str
    cards: list[str]
    stands_for: list[str | None]
    valid: bool
    burraco: str | None | UnsetType = UNSET
    points: int | UnsetType = UNSET


class PozzettoView(msgspec.Struct, frozen=True, gc=False):
    """One pozzetto (Burraco) of a :class:`StateView`: ``index``,
    ``taken_by`` (a seat, None while not taken), ``count`` (None once taken
    into a hand), ``cards`` (the referee's view only, else None)."""

    index: int
    taken_by: int | None
    count: int | None
    cards: list[str] | None


class StateView(msgspec.Struct, frozen=True, gc=False):
    """The table as :func:`state_view` shows it to one viewer (FORMAT.md
    "Per-seat views"). ``spectator`` is True on the copy given to a reader
    who may see only the spectator's view (``UNSET`` otherwise);
    ``variant_notes`` is the variant's data about the table
    (:meth:`~ledger.variants.presentation.VariantPresentation.table_notes`), None
    when it has none. :meth:`to_json` gives the plain data. The view
    structs hold no reference cycle, hence ``gc=False`` (cheaper to build)."""

    game_id: str
    variant: str
    ruleset: str
    position: int
    hand: int
    dealer: int | None
    turn: int | None
    phase: str
    pov: Pov
    seats: list[SeatView]
    stock_count: int
    stock: list[str] | None
    discard: list[str]
    discard_hidden: int
    melds: list[MeldView]
    pozzetti: list[PozzettoView]
    totals: list[int]
    findings: int
    ended: str | None
    spectator: bool | UnsetType = UNSET
    variant_notes: TableNotes | None = None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready builtins, the one conversion (the viewer's
        state API): the fields in order, a field left ``UNSET`` no key,
        ``variant_notes``' fields as keys of the view itself, after the
        others (FORMAT.md "Per-seat views")."""
        out: dict[str, Any] = msgspec.to_builtins(self, enc_hook=str)  # a note (a Message): its English
        notes = out.pop("variant_notes")
        if notes is not None:
            out.update(notes)
        return out


def meld_view(meld: Meld, state: TableState) -> MeldView:
    """One meld: id, seat, side, kind, cards, what each wild stands for, the
    variant's badges for it (``burraco`` kind, points) when it has them."""
    badges = presentation(state.rules).meld_badges(meld) if state.rules is not None else None
    if badges is None:
        badges = _NO_BADGES
    return MeldView(
        meld.id,
        meld.seat,
        meld.side,
        meld.info.kind,
        list(meld.cards),
        list(meld.info.stands_for),
        meld.info.valid,
        badges.burraco,
        badges.points,
    )


_NO_BADGES = MeldBadges()


def state_view(state: TableState, pov: Pov = None, seen: Sight | None = None) -> StateView:
    """The table as a :class:`StateView` (:meth:`StateView.to_json`: JSON-ready).

    ``pov=None`` is the referee's view (everything); ``pov=seat`` or
    ``pov="spectator"`` shows only what that seat (or a reader at no seat)
    could know at ``state.position`` (FORMAT.md "Per-seat views",
    :mod:`ledger.redaction`): per seat ``cards`` is the whole hand when it is
    shown (its own; the Gin knocker's from the knock; every hand once the
    hand has ended), else None, with ``seen`` the cards of that hand seen
    face up (taken from the discard pile) and ``count``; ``discard`` holds
    the face-up cards and ``discard_hidden`` counts the face-down ones (the
    knock's discard); ``stock`` and pozzetto ``cards`` are None; ``findings``
    counts the findings that viewer may see. ``seen`` (a
    :class:`~ledger.redaction.Sight` of the same state and pov) saves
    recomputing it. Raises :class:`ValueError` for a seat that is not at the
    table.
    """
    s = seen if seen is not None else sight(state, pov)
    discard, hidden = visible_discard(state, s)
    notes = None
    if state.rules is not None:
        # a variant's extra data about hands: the viewer's own (no seat's for a
        # spectator, -1), every seat's once every hand is shown
        notes = presentation(state.rules).table_notes(
            state, None if (pov is None or s.revealed) else (pov if isinstance(pov, int) and s.own else -1)
        )
    return StateView(
        game_id=state.game_id,
        variant=state.rules.variant,
        ruleset=state.rules.ruleset,
        position=state.position,
        hand=state.hand,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        pov=pov,
        seats=_seat_views(state, s),
        stock_count=state.stock_count,
        stock=list(state.stock) if (state.stock is not None and pov is None) else None,
        discard=discard,
        discard_hidden=hidden,
        melds=[meld_view(m, state) for m in state.melds],
        pozzetti=_pozzetto_views(state, pov),
        totals=list(state.totals),
        findings=len(state.findings) if pov is None else len(visible_findings(state, pov, s)),
        ended=state.ended,
        variant_notes=notes,
    )


def _seat_views(state: TableState, s: Sight) -> list[SeatView]:
    """:func:`state_view`'s ``seats``: each seat's name, side, cards as ``s`` shows them, count."""
    seats = []
    for seat, player in enumerate(state.players):
        hand = state.hands[seat] if seat < len(state.hands) else ()
        cards, seen_cards = seat_cards(state, seat, s)
        seats.append(
            SeatView(
                seat,
                player.name,
                player.team,
                state.sides[seat],
                cards,
                seen_cards,
                len(hand),
                state.opened[seat] if seat < len(state.opened) else False,
                seat in state.eliminated,
            )
        )
    return seats


def _pozzetto_views(state: TableState, pov: Pov) -> list[PozzettoView]:
    """:func:`state_view`'s ``pozzetti`` (Burraco): who took each, its count, its cards for the referee only."""
    return [
        PozzettoView(
            i,
            state.pozzetto_by[i] if i < len(state.pozzetto_by) else None,
            len(p) if p is not None else None,
            list(p) if (p is not None and pov is None) else None,
        )
        for i, p in enumerate(state.pozzetti)
    ]


def sorted_view(view: StateView) -> StateView:
    """``view`` with each hand's cards, and the cards seen face up, by
    :func:`ledger.cards.sorted_hand` (the readers' default hand order)."""
    replace = msgspec.structs.replace
    seats = [
        replace(
            s, cards=None if s.cards is None else sorted_hand(s.cards), seen=sorted_hand(s.seen) if s.seen else s.seen
        )
        for s in view.seats
    ]
    return replace(view, seats=seats)
