"""Gin Rummy's hand endings the record may play past (RULES.md GIN-WALL-1,
GIN-STALL-1; pure).

The wall (two stock cards left after a discard) and, under OpenSpiel's
endings (option ``openspiel_endings``, preset ``openspiel``), the upcard
taken at the wall only to knock, the repeated-move rule and the cap on
upcard draws: what :meth:`ledger.variants.gin.rules.GinRules.apply` asks before
and after each play event of a hand (:data:`~ledger.variants.gin.state.PLAY_EVENTS`).
The hand's :class:`~ledger.variants.gin.state.GinExtra` records the ending
(``over``, ``over_at``) and the wall's and the stall's tracks.
"""

from __future__ import annotations

from collections import Counter

from ledger.cards import UNKNOWN, pretty, pretty_list
from ledger.events import CardDiscarded, CardDrawn, DiscardTaken, Event, Knocked
from ledger.state import TableState, replace, variant_state
from ledger.texts import N_, Message
from ledger.variants.core import TableRules
from ledger.variants.gin.state import MAX_UPCARD_DRAWS, OFFER_OVER, WALL, GinExtra


def past_the_end(state: TableState, x: GinExtra, event: Event, pos: int, openspiel: bool) -> tuple[str, int] | None:
    """``(over, position)`` when ``event`` (at ``pos``) is the first play
    after the hand's end (found only at this event), else None."""
    if x.knocker is not None:
        return None
    if isinstance(event, CardDrawn) and state.stock_count <= WALL:
        return ("wall", x.wall if x.wall is not None else pos)
    if openspiel and x.wall is not None:
        if x.wall_take is None:
            return None if isinstance(event, DiscardTaken) else ("wall", x.wall)
        return None if isinstance(event, Knocked) and event.seat == x.wall_take else ("wall", x.wall)
    if (
        openspiel
        and isinstance(event, DiscardTaken)
        and x.offer == OFFER_OVER
        and x.upcard_draws + 1 >= MAX_UPCARD_DRAWS
    ):
        return ("cap", pos)
    return None


def quiet_play(state: TableState, x: GinExtra, event: Event, openspiel: bool) -> bool:
    """True when ``event``, a play of the hand in progress (the ending not
    yet found: ``x.over`` is None), is a draw or a discard that neither ends
    the hand (:func:`past_the_end` says None) nor moves a track
    (:func:`track_endings` leaves the state after it as it is): most of a
    hand's events, which then skip both."""
    if openspiel and x.wall is not None and x.knocker is None:
        return False
    kind = type(event)
    if kind is CardDrawn:
        return x.knocker is not None or state.stock_count > WALL
    if isinstance(event, CardDiscarded):
        return not x.repeat and state.stock_count > WALL and not (state.drew == "pile" and event.card in state.taken)
    return False


def track_endings(before: TableState, state: TableState, event: Event, pos: int, openspiel: bool) -> TableState:
    """``state`` after a counted play (``before`` the table before it): the
    wall, the repeated-move rule, the upcard-draw count."""
    x = state.extra
    assert isinstance(x, GinExtra)  # in a hand (apply checked); written out: read at every play
    if isinstance(event, DiscardTaken):
        if x.wall is not None:
            x = replace(x, wall_take=event.seat)
        elif variant_state(before, GinExtra).offer == OFFER_OVER:
            x = replace(x, upcard_draws=x.upcard_draws + 1)
    elif isinstance(event, CardDiscarded):
        card: str = event.card
        again = before.drew == "pile" and card in before.taken
        if openspiel and again and x.repeat:
            return replace(state, extra=replace(x, over="repeat", over_at=pos, repeat=x.repeat + (pos,)))
        repeat = (pos,) if again else ()
        if x.repeat != repeat:
            x = replace(x, repeat=repeat)
        if state.stock_count <= WALL and x.knocker is None:
            x = replace(x, wall=pos, over="wall" if not openspiel else None, over_at=pos if not openspiel else None)
    return state if x is state.extra else replace(state, extra=x)


def ending_finding(state: TableState, x: GinExtra, event: Event, openspiel: bool) -> tuple[int, str, Message]:
    """``(seat, rule, message)`` of the first play after the hand's end."""
    seat: int = event.seat  # type: ignore[attr-defined]  # only PLAY_EVENTS reach here, all with a seat
    play = act_message(state.name(seat), event)
    if x.over == "repeat":
        a, b = x.repeat[-2:]
        return (
            seat,
            "GIN-STALL-1",
            Message(
                N_(
                    "%(play)s after the hand was over by OpenSpiel's repeated-move rule (the discards at positions "
                    "%(first)s and %(second)s "
                    "each gave back the upcard just taken): the hand is a 0–0 draw and later play does not count"
                ),
                play=play,
                first=a,
                second=b,
            ),
        )
    if x.over == "cap":
        return (
            seat,
            "GIN-STALL-1",
            Message(
                N_(
                    "%(play)s, the %(n)sth upcard draw after the first turn: OpenSpiel ends the hand before that draw; "
                    "the hand is a 0–0 draw and later play does not count"
                ),
                play=play,
                n=MAX_UPCARD_DRAWS,
            ),
        )
    return seat, "GIN-WALL-1", _wall_message(x, event, state.name(seat), play, openspiel)


def _wall_message(x: GinExtra, event: Event, who: str, play: Message, openspiel: bool) -> Message:
    """The GIN-WALL-1 message of the first play past the wall."""
    if x.wall_take is not None and event.type != "card_drawn":
        return Message(
            N_(
                "%(play)s instead of knocking with the upcard taken at the wall: at the wall the upcard is taken "
                "only to knock; "
                "the hand is a 0–0 draw and later play does not count"
            ),
            play=play,
        )
    if x.wall is None:
        return Message(
            N_(
                "%(who)s drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and "
                "later play does not count"
            ),
            who=who,
        )
    if openspiel:
        return Message(
            N_(
                "%(play)s past the wall: the discard at position %(position)s left two stock cards, where only "
                "taking the upcard to knock, "
                "or passing, is allowed; the hand is a 0–0 draw and later play does not count"
            ),
            play=play,
            position=x.wall,
        )
    return Message(
        N_(
            "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the "
            "hand (0–0); later play does not count"
        ),
        play=play,
        position=x.wall,
    )


#: what a play event did (by event type), naming only face-up cards
_ACTS = {
    "card_drawn": N_("%(who)s drew from the stock"),
    "knocked": N_("%(who)s knocked"),
    "meld_laid": N_("%(who)s laid a meld"),
    "meld_extended": N_("%(who)s laid off"),
    "upcard_passed": N_("%(who)s passed the upcard"),
    "joker_swapped": N_("%(who)s swapped a joker"),
}


def act_message(who: str, event: Event) -> Message:
    """What ``who``'s play event did, in words, naming only face-up cards."""
    if isinstance(event, DiscardTaken):
        return Message(N_("%(who)s took %(cards)s from the discard pile"), who=who, cards=pretty_list(event.cards))
    if isinstance(event, CardDiscarded):
        return Message(N_("%(who)s discarded %(card)s"), who=who, card=pretty(event.card))
    msgid = _ACTS.get(event.type)
    return Message(msgid, who=who) if msgid else Message("%(who)s %(act)s", who=who, act=event.type)


def knock_cards(rules: TableRules, state: TableState, e: Knocked, pos: int) -> tuple[TableState, str, tuple[str, ...]]:
    """``(state, discard, eleven)`` for a knock: the table, the card discarded
    face down and the knocker's eleven cards before it. In a full record
    these are the event's (``??`` is ``REC-FORMAT``); in a partial one the
    declared melds and deadwood (and a named discard) become known in the hand
    (:meth:`~ledger.variants.core.TableRules.reveal`, not strict: a card declared
    but not held is GIN-KNOCK-2, not a refusal), and a ``??`` discard is the one
    card left undeclared when that is known (FORMAT.md, "Partial records")."""
    if not rules.partial or UNKNOWN not in state.hands[e.seat]:
        if e.discard == UNKNOWN and not rules.partial:
            raise rules.not_partial(pos, "discard")
        return state, e.discard, state.hands[e.seat]
    declared = [c for dm in e.melds for c in dm.cards] + list(e.deadwood)
    named = [e.discard] if e.discard != UNKNOWN else []
    hand = rules.reveal(state, e.seat, declared + named, pos, "melds", strict=False)
    state = rules.set_hand(state, e.seat, hand)
    if named:
        return state, e.discard, hand
    left = Counter(hand) - Counter(declared)
    return state, (next(iter(left)) if len(left) == 1 and UNKNOWN not in left else UNKNOWN), hand
