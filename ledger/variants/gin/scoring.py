"""Gin Rummy's scoring of a hand (RULES.md, Gin "Scoring"; pure).

Knock, gin, big gin, undercut (:func:`hand_scores`), with the game and box
bonuses on the hand that reaches the target (preset ``standard``). A seat's
deadwood is the value of the cards left in its hand plus its void cards:
the cards of its invalid declared melds and of lay-offs that were not
allowed (:func:`counted_deadwood`).
"""

from __future__ import annotations

from ledger.state import SideScore, TableState
from ledger.variants.gin.deadwood import deadwood_value
from ledger.variants.gin.state import GinExtra, GinOptions


def counted_deadwood(state: TableState, x: GinExtra, seat: int) -> int:
    """A seat's counted deadwood after a knock: its hand plus its void cards."""
    return deadwood_value(state.hands[seat]) + deadwood_value(x.void[seat])


def hand_scores(settings: GinOptions, state: TableState, x: GinExtra, reason: str) -> tuple[SideScore, ...]:
    """Each seat's points for the hand that ends with ``reason``: knock,
    gin, big gin, undercut; 0–0 for every other ending and for a hand
    played past its end (GIN-WALL-1, GIN-STALL-1); the game and box bonuses
    on the hand that reaches ``target``."""
    if x.over is not None:  # GIN-WALL-1 / GIN-STALL-1: later play does not count
        return tuple(SideScore(seat, 0, {}) for seat in (0, 1))
    points = [0, 0]
    breakdown: list[dict[str, int]] = [{}, {}]
    if reason == "knocked" and x.knocker is not None:
        k, d = x.knocker, 1 - x.knocker
        kd, dd = counted_deadwood(state, x, k), counted_deadwood(state, x, d)
        if x.gin:
            key, bonus = ("big_gin_bonus", settings.big_gin_bonus) if x.big_gin else ("gin_bonus", settings.gin_bonus)
            points[k] = dd + bonus
            breakdown[k] = {"deadwood_difference": dd, key: bonus}
        elif kd < dd:
            points[k] = dd - kd
            breakdown[k] = {"deadwood_difference": dd - kd}
        elif kd > dd or settings.undercut_on_equal:
            ub = settings.undercut_bonus
            points[d] = kd - dd + ub
            breakdown[d] = {"deadwood_difference": kd - dd, "undercut_bonus": ub}
    if settings.target:
        _add_game_bonuses(settings, state, points, breakdown)
        points = [sum(b.values()) if b else 0 for b in breakdown]
    return tuple(SideScore(seat, points[seat], breakdown[seat]) for seat in (0, 1))


def unknown_seats(x: GinExtra, hand_unknown: bool) -> frozenset[int]:
    """Partial records: the seats whose points depend on an unknown card,
    both or neither. A knock's points are one count of both hands (the
    deadwood difference goes to the knocker, or with the undercut bonus to
    the defender; the game and box bonuses follow), so an unknown card in
    either hand (``hand_unknown``) leaves both seats' points unknown; so
    does a gin whose face-down ``??`` discard could make big gin
    (``big_gin_open``: the bonus, and with it the hand's one count), unless
    the hand was over by the rules before (0–0).

    >>> sorted(unknown_seats(GinExtra(), True)), sorted(unknown_seats(GinExtra(big_gin_open=True), False))
    ([0, 1], [0, 1])
    >>> sorted(unknown_seats(GinExtra(), False))
    []
    """
    return frozenset((0, 1)) if hand_unknown or (x.big_gin_open and x.over is None) else frozenset()


def _add_game_bonuses(
    settings: GinOptions, state: TableState, points: list[int], breakdown: list[dict[str, int]]
) -> None:
    """When this hand's ``points`` take a seat to the target: its game bonus
    and each seat's box bonus (per hand won, this one included; a hand
    scored as claimed in a partial record is won by the side claiming
    points), added to ``breakdown`` in place."""
    for seat in (0, 1):
        if points[seat] > 0 and state.totals[seat] + points[seat] >= settings.target:
            won = [  # counted only on the hand that ends the game: the results are the whole game's
                sum(
                    1
                    for r in state.results
                    for s in r.scores
                    if s.side == side
                    and ("deadwood_difference" in s.breakdown or (s.as_claimed and s.breakdown["claimed"] > 0))
                )
                + ("deadwood_difference" in breakdown[side])
                for side in (0, 1)
            ]
            breakdown[seat]["game_bonus"] = settings.game_bonus
            for s in (0, 1):
                box = settings.box_bonus * won[s]
                if box:
                    breakdown[s]["box_bonus"] = box
            break
