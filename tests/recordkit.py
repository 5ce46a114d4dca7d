"""Small helpers for tests that write records inline.

``lines(*dicts)`` turns event dicts into record bytes; ``ramino_game`` gives a
two-player classic-Ramino opening with a known stock so that tests can append
events and check exact findings.
"""

from __future__ import annotations

import json
from typing import Any

from ledger.audit import report
from ledger.cards import standard_deck
from ledger.events import Event
from ledger.replay import replay
from ledger.state import TableState


def lines(*events: dict[str, Any]) -> bytes:
    """Record bytes, one compact JSON event per line."""
    return b"".join(json.dumps(e, separators=(",", ":")).encode() + b"\n" for e in events)


def game_started(variant: str = "ramino", players: tuple[str, ...] = ("Anna", "Bruno"), **extra: Any) -> dict[str, Any]:
    """A ``game_started`` event dict."""
    ev: dict[str, Any] = {
        "type": "game_started",
        "format": "rummy-ledger/1",
        "game_id": extra.pop("game_id", "t-1"),
        "variant": variant,
        "players": [{"seat": i, "name": n} for i, n in enumerate(players)],
    }
    ev.update(extra)
    return ev


#: a fixed two-player Ramino deal: Anna (seat 0) and Bruno (seat 1), dealer Bruno
RAMINO_HANDS = [
    ["3H", "4H", "5H", "9C", "9D", "9S", "KS", "2D", "7C", "QH"],
    ["AS", "6D", "7D", "8D", "10C", "JC", "QC", "4S", "5S", "8H"],
]
RAMINO_UPCARD = ["6C"]


def ramino_stock() -> list[str]:
    """The rest of the 52-card deck, in a fixed order (top first): 6H, 7H, KD, …"""
    used = {c for h in RAMINO_HANDS for c in h} | set(RAMINO_UPCARD)
    rest = [c for c in standard_deck() if c not in used]
    first = ["6H", "7H", "KD", "2C", "3C"]
    return first + [c for c in rest if c not in first]


def ramino_deal(hand: int = 1, dealer: int = 1, with_stock: bool = True) -> dict[str, Any]:
    """The ``hand_dealt`` of the fixed deal."""
    ev: dict[str, Any] = {
        "type": "hand_dealt",
        "hand": hand,
        "dealer": dealer,
        "hands": RAMINO_HANDS,
        "discard": RAMINO_UPCARD,
    }
    if with_stock:
        ev["stock"] = ramino_stock()
    return ev


def ramino_game(*events: dict[str, Any], with_stock: bool = True) -> bytes:
    """A Ramino record: game_started, the fixed deal, then ``events``."""
    return lines(game_started(), ramino_deal(with_stock=with_stock), *events)


def findings_of(state: TableState) -> list[tuple[Any, ...]]:
    """The audit's findings of a replayed game as ``(position, hand, seat, rule, message)``, by position."""
    return [(f["position"], f["hand"], f["seat"], f["rule"], f["message"]) for f in report(state).to_json()["findings"]]


def seat_findings(events: list[Event]) -> list[tuple[Any, ...]]:
    """The audit's findings of ``events`` (replayed) as ``(position, seat, rule, message)``, by position."""
    return [(f["position"], f["seat"], f["rule"], f["message"]) for f in report(replay(events)).to_json()["findings"]]
