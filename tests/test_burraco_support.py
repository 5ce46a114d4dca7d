"""Helpers for the Burraco tests: stacked deals and records from plain dicts.

``deal`` builds a complete ``hand_dealt`` whose named cards are where the
test puts them and whose other cards (hand fillers, pozzetti, stock) come
from the rest of the deck in a fixed shuffled order, so every record is a
physically possible one (REC-DECK holds).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from ledger.cards import deck_counter
from ledger.record_files import read_record
from ledger.replay import validate
from ledger.scoring import score_sheet
from ledger.state import TableState
from tests.recordkit import findings_of

NAMES = ("Anna", "Bruno", "Carla", "Dario")


def start(
    n: int = 2, ruleset: str = "fibur", options: dict | None = None, teams: bool | None = None, game_id: str = "t"
) -> dict:
    """A ``game_started`` line for ``n`` players (teams for 4 unless ``teams`` is False)."""
    players = []
    for seat in range(n):
        p: dict[str, Any] = {"seat": seat, "name": NAMES[seat]}
        if n == 4 and teams is not False:
            p["team"] = seat % 2
        players.append(p)
    ev: dict[str, Any] = {
        "type": "game_started",
        "format": "rummy-ledger/1",
        "game_id": game_id,
        "variant": "burraco",
        "ruleset": ruleset,
        "players": players,
    }
    if options:
        ev["options"] = options
    return ev


def deal(
    hands: list[list[str]],
    *,
    hand: int = 1,
    dealer: int | None = None,
    discard: list[str] | None = None,
    pozzetti: list[list[str]] | None = None,
    stock_top: list[str] | None = None,
    jokers: int = 4,
    seed: int = 1,
    stock_size: int | None = None,
    list_pozzetti: bool = True,
) -> dict:
    """A full ``hand_dealt``: each hand, pozzetto and the stock top are
    completed from the rest of the deck (shuffled with ``seed``).

    ``stock_size`` trims the stock (the trimmed cards are then not in play:
    only for records that omit the stock order, so it is never used with a
    given stock). ``list_pozzetti`` False leaves the pozzetti out of the deal.
    """
    n = len(hands)
    dealer = (n - 1) if dealer is None else dealer
    discard = list(discard or [])
    pozzetti = [list(p) for p in (pozzetti or [[], []])]
    stock_top = list(stock_top or [])
    rest = deck_counter(2, jokers)
    named = Counter()
    for cards in [*hands, discard, *pozzetti, stock_top]:
        named.update(cards)
    for card, k in named.items():
        assert rest[card] >= k, f"too many {card} in the test deal"
    rest.subtract(named)
    pool = sorted(rest.elements())
    random.Random(seed).shuffle(pool)
    out_hands = []
    for h in hands:
        h = list(h)
        while len(h) < 11:
            h.append(pool.pop())
        out_hands.append(h)
    if not discard:
        discard = [pool.pop()]
    for p in pozzetti:
        while len(p) < 11:
            p.append(pool.pop())
    stock = stock_top + pool
    ev: dict[str, Any] = {
        "type": "hand_dealt",
        "hand": hand,
        "dealer": dealer,
        "hands": out_hands,
        "discard": discard,
        "stock": stock,
    }
    if list_pozzetti:
        ev["pozzetti"] = pozzetti
    return ev


def text(events: list[dict]) -> bytes:
    """The record as JSON Lines."""
    return b"".join(json.dumps(e).encode() + b"\n" for e in events)


def run(events: list[dict]) -> TableState:
    """Replay a record given as dicts (through the file reader)."""
    return validate(read_record(text(events)))


#: findings as ``(position, hand, seat, rule, message)`` tuples
findings = findings_of


def rules_of(state: TableState) -> list[str]:
    """Just the rule ids of the findings, in order."""
    return [f[3] for f in findings(state)]


def scores(state: TableState) -> dict:
    """The ``score --json`` object."""
    return score_sheet(state).to_json()
