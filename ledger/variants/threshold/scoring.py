"""What the threshold games' scoring reads (pure): a losing seat's hand
value (:func:`hand_cards_value`) and, in a partial record, which seats'
penalty reads unknown cards (:func:`unknown_penalties`; FORMAT.md "Partial
records"). The scoring itself is :meth:`.rules.ThresholdRules.score_hand`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ledger.cards import JOKER, RANK, UNKNOWN
from ledger.events import HandEnded
from ledger.state import TableState
from ledger.variants.outcome import going_out_unseen


def hand_cards_value(cards: Iterable[str]) -> int:
    """Natural cards left in hand: ace 11, 2–10 face, J Q K 10; jokers not counted.

    >>> hand_cards_value(("AS", "7H", "KD", "JK"))
    28
    """
    return sum(11 if RANK[c] == 1 else min(RANK[c], 10) for c in cards if c != JOKER)


def unknown_penalties(
    state: TableState, e: HandEnded, active: Sequence[int], counts_cards: Callable[[int, int], bool]
) -> frozenset[int]:
    """The sides of the seats whose points for the hand ``e`` ends depend
    on an unknown card (``??``). Each loser pays from its own hand, so: the
    seats still in the game (``active``), other than the one that went out,
    whose hand holds ``??`` and whose penalty reads cards
    (``counts_cards(seat, winner)``, False for a fixed penalty). Not the
    seat that went out (it scores 0), nor any seat of a hand that ends
    another way (0 for every seat). When the record does not say who went
    out (no ``seat``, as in a score-only game), the winner, and so each
    penalty, is unknown: every seat, as soon as a hand holds ``??`` (as
    :meth:`~ledger.variants.outcome.OutcomeRules.unknown_sides`).

    >>> from ledger.variants.threshold.scala40 import Scala40Rules
    >>> s = TableState(rules=Scala40Rules(), game_id="g", players=(), sides=(0, 1, 2), hands=((), ("??",), ("??",)))
    >>> out = HandEnded(reason="went_out", seat=0)
    >>> sorted(unknown_penalties(s, out, (0, 1, 2), lambda seat, winner: seat != 2))
    [1]
    >>> sorted(unknown_penalties(s, out, (0, 2), lambda seat, winner: True))  # seat 1 is out of the game
    [2]
    >>> sorted(unknown_penalties(s, HandEnded(reason="went_out"), (0, 1), lambda seat, winner: True))
    [0, 1, 2]
    >>> sorted(unknown_penalties(s, HandEnded(reason="stalled"), (0, 1, 2), lambda seat, winner: True))
    []
    """
    if e.reason != "went_out":
        return frozenset()
    if going_out_unseen(e):
        return frozenset(state.sides) if any(UNKNOWN in h for h in state.hands) else frozenset()
    winner = e.seat
    assert winner is not None
    return frozenset(
        state.sides[s] for s in active if s != winner and UNKNOWN in state.hands[s] and counts_cards(s, winner)
    )
