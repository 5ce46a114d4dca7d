"""Move notation: one line per event, the one wording of every reader (pure, no I/O).

:func:`move` is the line as data (a :class:`~ledger.texts.Message`: msgid
and params, Italian in the catalog ``ledger/translations``);
:func:`notation` renders it with the translations object it is given
(English when None). ``show --at``, the viewer's move list and board, the
dispute report, the live stream and the analytics ``events.text`` column all
call it, so they all say ``"Anna draws 7♥ from the stock"`` and ``"Bruno
takes the discard pile: 5♣ 5♦"`` (issue 23, "One notation").

``pov`` is who reads the line (FORMAT.md "Per-seat views"): None for the
referee (everything), a seat, or ``"spectator"``. :func:`hidden_part` is the
one rule of what such a reader may not read: another seat's stock draw (the
card), a Gin knock's face-down discard, a referee's free-text reason. An
unknown card of a partial record (``??``, FORMAT.md "Partial records") is
never named either: a draw of ``??`` reads as a draw of a card, a knock
discarding ``??`` as discarding face down. ``state`` (before or after the
event) supplies the player names; without it a seat is ``"seat 0"``.

>>> from ledger.events import CardDrawn
>>> notation(CardDrawn(seat=0, card="7H"))
'seat 0 draws 7♥ from the stock'
>>> notation(CardDrawn(seat=0, card="7H"), pov=1), notation(CardDrawn(seat=0, card="??"))
('seat 0 draws a card from the stock', 'seat 0 draws a card from the stock')
"""

from __future__ import annotations

from typing import Any

from ledger import catalog
from ledger.cards import UNKNOWN, pretty, pretty_list
from ledger.events import Event
from ledger.redaction import Pov
from ledger.state import TableState
from ledger.texts import N_, Message, Param, Translator, render

#: how hands end (events.py HandEndReason), as words
HAND_END_REASONS = {
    "went_out": N_("went out"),
    "knocked": N_("knocked"),
    "stock_exhausted": N_("stock exhausted"),
    "time_out": N_("time out"),
    "stalled": N_("stalled"),
    "abandoned": N_("abandoned"),
}

#: how games end (events.py GameEndReason), as words
GAME_END_REASONS = {
    "target_reached": N_("target reached"),
    "hands_played": N_("hands played"),
    "elimination": N_("elimination"),
    "abandoned": N_("abandoned"),
    "time_out": N_("time out"),
}

#: every ending, of a hand or a game, as words
REASONS = HAND_END_REASONS | GAME_END_REASONS


def reason_words(value: str) -> Message | str:
    """An ending (``went_out``, ``target_reached``) as words to translate; an
    unknown value with its underscores as spaces."""
    words = REASONS.get(value)
    return Message(words) if words else value.replace("_", " ")


def hidden_part(event: Event, pov: Pov) -> str | None:
    """What of ``event`` a reader at ``pov`` may not read (FORMAT.md
    "Per-seat views"): ``"draw"`` another seat's stock draw (the card),
    ``"gin"`` / ``"knock"`` another seat's face-down discard, ``"restore"``
    a referee's free-text reason (it may name any card); None when the
    whole move may be read (always for the referee, ``pov`` None).

    >>> from ledger.events import CardDrawn
    >>> hidden_part(CardDrawn(seat=0, card="7H"), pov=1), hidden_part(CardDrawn(seat=0, card="7H"), pov=0)
    ('draw', None)
    """
    if pov is None:
        return None
    if getattr(event, "seat", None) != pov:
        if event.type == "card_drawn":
            return "draw"
        if event.type == "knocked":
            return "knock" if getattr(event, "deadwood", ()) else "gin"
    if event.type == "position_restored":
        return "restore"
    return None


def notation(event: Event, state: TableState | None = None, pov: Pov = None, tr: Translator | None = None) -> str:
    """:func:`move` rendered in the language of ``tr`` (English when None)."""
    return render(move(event, state, pov), tr)


def move(event: Event, state: TableState | None = None, pov: Pov = None) -> Message:
    """The line of ``event`` as ``pov`` may read it, as data (module docstring)."""

    def who(seat: int | None) -> Param:
        return (
            state.name(seat) if state is not None and seat is not None else Message(N_("seat %(seat)s"), seat=str(seat))
        )

    hidden = hidden_part(event, pov)
    line = _seat_move(event, who, hidden)
    return line if line is not None else _table_event(event, state, who, hidden)


def _seat_move(event: Event, who: Any, hidden: str | None) -> Message | None:
    """:func:`move` for a seat's own moves (draws, melds, lay-offs, discards, knocks); None for other events."""
    t = event.type
    e: Any = event
    if t == "card_drawn":
        if hidden is not None or e.card == UNKNOWN:
            return Message(N_("%(who)s draws a card from the stock"), who=who(e.seat))
        return Message(N_("%(who)s draws %(card)s from the stock"), who=who(e.seat), card=pretty(e.card))
    if t == "upcard_passed":
        return Message(N_("%(who)s passes the upcard"), who=who(e.seat))
    if t == "discard_taken":
        if len(e.cards) == 1:
            return Message(N_("%(who)s takes %(card)s from the discard pile"), who=who(e.seat), card=pretty(e.cards[0]))
        return Message(N_("%(who)s takes the discard pile: %(cards)s"), who=who(e.seat), cards=pretty_list(e.cards))
    if t == "meld_laid":
        return Message(
            N_("%(who)s melds %(cards)s [%(meld)s]"), who=who(e.seat), cards=pretty_list(e.cards), meld=e.meld
        )
    if t == "meld_extended":
        return Message(
            N_("%(who)s lays off %(cards)s on [%(meld)s]"), who=who(e.seat), cards=pretty_list(e.cards), meld=e.meld
        )
    if t == "joker_swapped":
        return Message(
            N_("%(who)s swaps %(card)s for the %(joker)s in [%(meld)s]"),
            who=who(e.seat),
            card=pretty(e.card),
            joker=pretty(e.joker),
            meld=e.meld,
        )
    if t == "pozzetto_taken":
        return Message(N_("%(who)s takes pozzetto %(n)s"), who=who(e.seat), n=e.pozzetto)
    if t == "card_discarded":
        return Message(N_("%(who)s discards %(card)s"), who=who(e.seat), card=pretty(e.card))
    if t == "cards_shown":  # partial records
        return Message(N_("%(who)s shows %(cards)s"), who=who(e.seat), cards=pretty_list(e.cards))
    if t == "knocked":
        return _knock(e, who(e.seat), hidden is None and e.discard != UNKNOWN)
    return None


def _knock(e: Any, who: Param, face: bool) -> Message:
    """:func:`move` for ``knocked``: gin without deadwood, else a knock naming
    the deadwood (laid face up); the face-down discard named when ``face``."""
    if not e.deadwood:
        if face:
            return Message(N_("%(who)s goes gin, discarding %(card)s face down"), who=who, card=pretty(e.discard))
        return Message(N_("%(who)s goes gin, discarding face down"), who=who)
    deadwood = pretty_list(e.deadwood)
    if face:
        return Message(
            N_("%(who)s knocks with deadwood %(cards)s, discarding %(card)s face down"),
            who=who,
            cards=deadwood,
            card=pretty(e.discard),
        )
    return Message(N_("%(who)s knocks with deadwood %(cards)s, discarding face down"), who=who, cards=deadwood)


def _table_event(event: Event, state: TableState | None, who: Any, hidden: str | None) -> Message:
    """:func:`move` for the events of the table and the referee (start, deals, restocks,
    endings, penalties, restorations); the event type itself for any other."""
    t = event.type
    e: Any = event
    if t == "game_started":
        ruleset: Param = e.ruleset or (state.rules.ruleset if state is not None else Message(N_("default rules")))
        return Message(
            N_("game %(game)s starts: %(variant)s (%(ruleset)s), %(names)s"),
            game=e.game_id,
            variant=catalog.LABELS.get(e.variant, e.variant),
            ruleset=ruleset,
            names=", ".join(p.name for p in e.players),
        )
    if t == "hand_dealt":
        return Message(
            N_("hand %(hand)s dealt by %(dealer)s; upcard %(cards)s"),
            hand=e.hand,
            dealer=who(e.dealer),
            cards=pretty_list(e.discard),
        )
    if t == "stock_restocked":
        return Message(N_("the discard pile becomes the stock"))
    if t == "hand_ended":
        if e.seat is not None:
            return Message(N_("hand ends: %(reason)s (%(who)s)"), reason=reason_words(e.reason), who=who(e.seat))
        return Message(N_("hand ends: %(reason)s"), reason=reason_words(e.reason))
    if t == "penalty_assessed":
        target = who(e.seat) if e.seat is not None else Message(N_("team %(team)s"), team=e.team)
        return Message(
            N_("referee: penalty %(points)s to %(target)s (%(rule)s)"),
            points=f"{e.points:+d}",
            target=target,
            rule=e.rule,
        )
    if t == "position_restored":
        if hidden is not None:
            return Message(N_("referee restores the table to move %(target)s"), target=e.target)
        return Message(
            N_("referee restores the table to move %(target)s: %(reason)s"), target=e.target, reason=e.reason
        )
    if t == "game_ended":
        return Message(N_("game ends: %(reason)s"), reason=reason_words(e.reason))
    return Message.of(t, ())
