"""Bench: the same Gin hands through the ledger and through OpenSpiel.

Plays ``N`` OpenSpiel ``gin_rummy`` hands with fixed seeds (the oracle
test's policy), converts them once, then times

* the ledger: fold (``replay``) + audit (``report``) + scoring
  (``score_sheet``) of every converted record, and
* OpenSpiel: a fresh state and ``apply_action`` over every history,

and prints both rates (hands per second, events/actions per second) and
their ratio. Usage: ``python bench/bench_gin_oracle.py [N] [REPEAT]``.
"""

from __future__ import annotations

import argparse
import time

import pyspiel

from ledger.audit import report
from ledger.openspiel.convert import convert_actions
from ledger.openspiel.play import play_gin
from ledger.replay import replay
from ledger.scoring import score_sheet


def oracle_hands(n: int) -> list[tuple[list[int], object]]:
    """``n`` seeded OpenSpiel hands: the oracle test's policy (mostly knock
    when possible, some only gin, some never knocking so they reach the wall)."""
    return [
        play_gin(seed, knock="never" if seed % 10 == 0 else "gin" if seed % 10 in (1, 2) else "always")
        for seed in range(n)
    ]


def time_openspiel(games: list[tuple[list[int], object]], repeat: int = 3) -> float:
    """Best time (s) over ``repeat`` runs of a fresh state + ``apply_action``
    over every history, then ``returns()``."""
    game = pyspiel.load_game("gin_rummy")
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for history, _ in games:
            state = game.new_initial_state()
            for a in history:
                state.apply_action(a)
            state.returns()
        best = min(best, time.perf_counter() - t)
    return best


def main(n: int = 300, repeat: int = 3) -> None:
    games = oracle_hands(n)
    records = [convert_actions(history, game_id=f"bench-{i}") for i, (history, _) in enumerate(games)]
    events = sum(len(r) for r in records)
    actions = sum(len(h) for h, _ in games)

    best_ledger = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for record in records:
            state = replay(record)
            report(state)
            score_sheet(state)
        best_ledger = min(best_ledger, time.perf_counter() - t)

    best_os = time_openspiel(games, repeat)

    print(f"{n} hands: {events} ledger events, {actions} OpenSpiel actions (best of {repeat})")
    print(f"ledger fold+audit+score: {n / best_ledger:10.1f} hands/s  {events / best_ledger:12.0f} events/s")
    print(f"OpenSpiel apply_action:  {n / best_os:10.1f} hands/s  {actions / best_os:12.0f} actions/s")
    print(f"ratio (ledger hands/s ÷ OpenSpiel hands/s): {best_os / best_ledger:.2f}x (target ≥ 3x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "hands", nargs="?", type=int, default=300, help="OpenSpiel hands to play and convert (default 300)"
    )
    parser.add_argument(
        "repeat", nargs="?", type=int, default=3, help="timed runs of each side; the best counts (default 3)"
    )
    args = parser.parse_args()
    main(args.hands, args.repeat)
