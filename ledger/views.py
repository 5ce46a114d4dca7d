"""Plain-data views of a table state and readable move notation (pure, no I/O).

:func:`state_view` is what ``show --json`` and the viewer's state API return;
with ``pov=<seat>`` (or ``pov="spectator"``) it is redacted to what that seat
(or a reader at no seat) could see, by :mod:`ledger.redaction` (FORMAT.md,
"Per-seat views"): other hands become counts plus the cards seen face up, the
stock order is never shown. :func:`move_text` is the notation redacted the
same way. Records stay omniscient; redaction happens only here, at the edge
(DESIGN.md, "Decisions already taken").

:func:`describe` turns an event into one line of move notation
("Anna draws 7♥", "Bruno takes the pile (5 cards)").
"""

from __future__ import annotations

from typing import Any

from ledger.cards import pretty, pretty_list
from ledger.events import Event
from ledger.redaction import SPECTATOR, Pov, Sight, seat_cards, sight, visible_discard, visible_findings
from ledger.state import Meld, TableState

PHASES = {
    "setup": "before the first deal",
    "draw": "to draw",
    "play": "to meld, lay off or discard",
    "over": "hand over",
    "ended": "game over",
}


def meld_view(meld: Meld, state: TableState) -> dict[str, Any]:
    """One meld: id, seat, side, kind, cards, what each wild stands for, the
    variant's label for it (``burraco`` kind, points) when it has one."""
    view: dict[str, Any] = {
        "id": meld.id,
        "seat": meld.seat,
        "side": meld.side,
        "kind": meld.info.kind,
        "cards": list(meld.cards),
        "stands_for": list(meld.info.stands_for),
        "valid": meld.info.valid,
    }
    label = getattr(state.rules, "meld_label", None)
    if label is not None:
        view.update(label(meld))
    return view


def state_view(state: TableState, pov: Pov = None, seen: Sight | None = None) -> dict[str, Any]:
    """The table as plain data (JSON-ready).

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
    seats = []
    for seat, player in enumerate(state.players):
        hand = state.hands[seat] if seat < len(state.hands) else ()
        cards, seen_cards = seat_cards(state, seat, s)
        seats.append({
            "seat": seat,
            "name": player.name,
            "team": player.team,
            "side": state.sides[seat],
            "cards": cards,
            "seen": seen_cards,
            "count": len(hand),
            "opened": state.opened[seat] if seat < len(state.opened) else False,
            "eliminated": seat in state.eliminated,
        })
    pozzetti = []
    for i, p in enumerate(state.pozzetti):
        pozzetti.append({
            "index": i,
            "taken_by": state.pozzetto_by[i] if i < len(state.pozzetto_by) else None,
            "count": len(p) if p is not None else None,
            "cards": list(p) if (p is not None and pov is None) else None,
        })
    discard, hidden = visible_discard(state, s)
    view: dict[str, Any] = {
        "game_id": state.game_id,
        "variant": state.rules.variant,
        "ruleset": state.rules.ruleset,
        "position": state.position,
        "hand": state.hand,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "pov": pov,
        "seats": seats,
        "stock_count": state.stock_count,
        "stock": list(state.stock) if (state.stock is not None and pov is None) else None,
        "discard": discard,
        "discard_hidden": hidden,
        "melds": [meld_view(m, state) for m in state.melds],
        "pozzetti": pozzetti,
        "totals": list(state.totals),
        "findings": len(state.findings) if pov is None else len(visible_findings(state, pov, s)),
        "ended": state.ended,
    }
    extra = getattr(state.rules, "extra_view", None)
    if extra is not None:
        # a variant's extra data about hands: the viewer's own (no seat's for a
        # spectator, -1), every seat's once every hand is shown
        view.update(extra(state, None if (pov is None or s.revealed) else (-1 if pov == SPECTATOR else pov)))
    return view


def move_text(event: Event, state: TableState | None = None, pov: Pov = None) -> str:
    """Move notation (:func:`describe`) as ``pov`` may read it: another
    seat's stock draw is "draws a card from the stock", a knock's face-down
    discard is not named, and a referee's free-text reason is left out (it
    may name any card). ``state`` supplies the player names.

    >>> from ledger.events import CardDrawn
    >>> move_text(CardDrawn(seat=0, card="7H"), pov="spectator")
    'seat 0 draws a card from the stock'
    """
    if pov is None:
        return describe(event, state)
    seat = getattr(event, "seat", None)
    name = state.name(seat) if state is not None else f"seat {seat}"
    if seat != pov:
        if event.type == "card_drawn":
            return f"{name} draws a card from the stock"
        if event.type == "knocked":
            deadwood = getattr(event, "deadwood", ())
            kind = "goes gin" if not deadwood else f"knocks with {len(deadwood)} deadwood card(s)"
            return f"{name} {kind}, discarding face down"
    if event.type == "position_restored":
        return f"referee restores the table to move {getattr(event, 'target')}"
    return describe(event, state)


def describe(event: Event, state: TableState | None = None) -> str:
    """One line of move notation for ``event``; ``state`` (before or after
    the event) supplies player names.

    >>> from ledger.events import CardDrawn
    >>> describe(CardDrawn(seat=0, card="7H"))
    'seat 0 draws 7♥'
    """

    def who(seat: int | None) -> str:
        return state.name(seat) if state is not None else f"seat {seat}"

    t = event.type
    e: Any = event
    if t == "game_started":
        names = ", ".join(p.name for p in e.players)
        ruleset = e.ruleset or (state.rules.ruleset if state is not None else "default rules")
        return f"game {e.game_id} starts: {e.variant} ({ruleset}), {names}"
    if t == "hand_dealt":
        return f"hand {e.hand} dealt by {who(e.dealer)}; upcard {pretty_list(e.discard)}"
    if t == "card_drawn":
        return f"{who(e.seat)} draws {pretty(e.card)}"
    if t == "upcard_passed":
        return f"{who(e.seat)} passes the upcard"
    if t == "discard_taken":
        if len(e.cards) == 1:
            return f"{who(e.seat)} takes {pretty(e.cards[0])} from the discard pile"
        return f"{who(e.seat)} takes the pile ({len(e.cards)} cards)"
    if t == "meld_laid":
        return f"{who(e.seat)} melds {pretty_list(e.cards)} [{e.meld}]"
    if t == "meld_extended":
        return f"{who(e.seat)} lays off {pretty_list(e.cards)} on [{e.meld}]"
    if t == "joker_swapped":
        return f"{who(e.seat)} swaps {pretty(e.card)} for the {pretty(e.joker)} in [{e.meld}]"
    if t == "pozzetto_taken":
        return f"{who(e.seat)} takes pozzetto {e.pozzetto}"
    if t == "card_discarded":
        return f"{who(e.seat)} discards {pretty(e.card)}"
    if t == "knocked":
        kind = "goes gin" if not e.deadwood else f"knocks with {len(e.deadwood)} deadwood card(s)"
        return f"{who(e.seat)} {kind}, discarding {pretty(e.discard)} face down"
    if t == "stock_restocked":
        return "the discard pile becomes the stock"
    if t == "hand_ended":
        by = f" ({who(e.seat)})" if e.seat is not None else ""
        return f"hand ends: {e.reason.replace('_', ' ')}{by}"
    if t == "penalty_assessed":
        target = who(e.seat) if e.seat is not None else f"team {e.team}"
        return f"referee: {e.points:+d} to {target} ({e.rule})"
    if t == "position_restored":
        return f"referee restores the table to move {e.target}: {e.reason}"
    if t == "game_ended":
        return f"game ends: {e.reason.replace('_', ' ')}"
    return t
