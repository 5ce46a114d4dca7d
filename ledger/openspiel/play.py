"""Seeded OpenSpiel ``gin_rummy`` games, for the oracle test and the bench (needs ``pyspiel``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.openspiel.actions import CARD_ID, DRAW_STOCK, DRAW_UPCARD, KNOCK, PASS, card
from ledger.openspiel.params import Params

if TYPE_CHECKING:
    import pyspiel  # OpenSpiel's C++ extension, untyped (pyproject's mypy overrides)


def play_gin(seed: int, knock: str = "always", epsilon: float = 0.15) -> tuple[list[int], list[float]]:
    """Play one OpenSpiel ``gin_rummy`` game (default parameters) with a
    fixed seed (needs ``pyspiel``; for the oracle test and the bench).
    Returns the action history and OpenSpiel's ``returns()``; the policy is
    :func:`play_gin_state`'s."""
    state = play_gin_state(seed, knock, epsilon)
    return list(state.history()), list(state.returns())


def play_gin_state(
    seed: int, knock: str = "always", epsilon: float = 0.15, params: Params | None = None
) -> pyspiel.State:
    """Play one OpenSpiel ``gin_rummy`` game with a fixed seed under the
    game parameters ``params`` (default: none) and return its terminal
    ``pyspiel`` state (``pyspiel.serialize_game_and_state(state.get_game(),
    state)`` gives its text with the parameters).

    Policy: knock whenever it may (``knock="gin"``: only with deadwood 0;
    ``"never"``: the hand reaches the wall or stalls); otherwise discard the highest deadwood card
    of the best arrangement (a random card with probability ``epsilon``);
    draw the upcard when it would join a meld, else the stock; after a knock,
    a lay-off or meld when there is one (a pass with probability 0.15, so
    both full and partial declarations occur).
    """
    import random

    import pyspiel  # a test dependency: imported only here

    from ledger.variants.gin.deadwood import best_arrangement, card_value

    rng = random.Random(seed)
    state = pyspiel.load_game("gin_rummy", dict(params or {})).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
            continue
        legal = state.legal_actions()
        p = state.current_player()
        hand = [card(c) for c in state.hands()[p]]
        if KNOCK in legal and (knock == "always" or knock == "gin" and state.deadwood()[p] == 0):
            action = KNOCK
        elif KNOCK in legal and PASS in legal:  # at the wall, not knocking
            action = PASS
        elif DRAW_UPCARD in legal and (DRAW_STOCK in legal or PASS in legal):
            up = card(state.upcard())
            joins = up not in best_arrangement(hand + [up]).deadwood
            if joins or rng.random() < 0.1:
                action = DRAW_UPCARD
            else:
                action = DRAW_STOCK if DRAW_STOCK in legal else PASS
        elif len(hand) == 11 and all(a < 52 for a in legal if a != KNOCK):
            dead = best_arrangement(hand).deadwood
            pick = CARD_ID[max(dead, key=card_value)] if dead else -1
            action = pick if pick in legal and rng.random() >= epsilon else rng.choice([a for a in legal if a != KNOCK])
        else:
            plays = [a for a in legal if a != PASS]
            action = (
                rng.choice(plays) if plays and rng.random() >= 0.15 else PASS if PASS in legal else rng.choice(legal)
            )
        state.apply_action(action)
    return state
