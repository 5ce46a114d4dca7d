"""Records that are valid but were costly (issue 13), generated, never committed.

- :func:`turn_spam` — classic Ramino, one hand in which seat 0 draws and
  discards every turn: about one ``ALL-TURN-1`` finding per two events
  (item 1: findings memory). Used by the tests and by ``bench/bench_hostile.py``.
- :func:`restore_spam` — the same with a ``position_restored`` after every
  draw (item 8: the analytics' undone positions).
- :func:`gin_stock_hog` — Gin: seat 0 draws the whole stock without
  discarding, then knocks (item 2: the deadwood search).
"""

from __future__ import annotations

import json
from typing import Any

from tests.recordkit import RAMINO_HANDS, RAMINO_UPCARD, game_started, ramino_stock


def _line(event: dict[str, Any]) -> bytes:
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


def turn_spam(events: int, game_id: str = "spam-1", restore_every: int = 0) -> bytes:
    """A Ramino record of about ``events`` events: the deal, then seat 0 draws
    and discards the drawn card, again and again (out of turn from its second
    turn on); an empty stock is restocked from the discard pile. With
    ``restore_every`` > 0, a ``position_restored`` back to just before the
    draw follows every ``restore_every``-th draw."""
    out = [
        _line(game_started(game_id=game_id)),
        _line(
            {
                "type": "hand_dealt",
                "hand": 1,
                "dealer": 1,
                "hands": RAMINO_HANDS,
                "discard": RAMINO_UPCARD,
                "stock": ramino_stock(),
            }
        ),
    ]
    stock = list(ramino_stock())
    discard = list(RAMINO_UPCARD)
    pos = 1
    draws = 0
    while pos < events - 1:
        if not stock:
            stock = list(reversed(discard[:-1]))
            out.append(_line({"type": "stock_restocked", "cards": stock}))
            discard = discard[-1:]
            pos += 1
            continue
        card = stock[0]
        out.append(_line({"type": "card_drawn", "seat": 0, "card": card}))
        pos += 1
        draws += 1
        if restore_every and draws % restore_every == 0:
            out.append(
                _line({"type": "position_restored", "target": pos - 1, "reason": "a draw out of turn is taken back"})
            )
            pos += 1
            continue
        stock.pop(0)
        out.append(_line({"type": "card_discarded", "seat": 0, "card": card}))
        discard.append(card)
        pos += 1
    return b"".join(out)


def gin_stock_hog(game_id: str = "hog-1") -> bytes:
    """A 36-line Gin record: Anna (seat 0) is dealt A♣–10♣, draws 29 cards
    without discarding (J♣ Q♣ K♣, then every diamond and heart), holds 39
    cards and goes gin discarding K♥: sequences A–K♣, A–K♦, A–Q♥."""
    clubs = [r + "C" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    diamonds = [c[:-1] + "D" for c in clubs]
    hearts = [c[:-1] + "H" for c in clubs]
    spades = [c[:-1] + "S" for c in clubs]
    stock = clubs[10:] + diamonds + hearts + spades[11:]
    out = [
        _line(game_started("gin", game_id=game_id)),
        _line(
            {
                "type": "hand_dealt",
                "hand": 1,
                "dealer": 1,
                "hands": [clubs[:10], spades[:10]],
                "discard": [spades[10]],
                "stock": stock,
            }
        ),
        _line({"type": "upcard_passed", "seat": 0}),
        _line({"type": "upcard_passed", "seat": 1}),
    ]
    out += [_line({"type": "card_drawn", "seat": 0, "card": c}) for c in stock[:29]]
    out.append(
        _line(
            {
                "type": "knocked",
                "seat": 0,
                "discard": "KH",
                "deadwood": [],
                "melds": [
                    {"meld": "c", "cards": clubs},
                    {"meld": "d", "cards": diamonds},
                    {"meld": "h", "cards": hearts[:12]},
                ],
            }
        )
    )
    out.append(_line({"type": "hand_ended", "reason": "knocked", "seat": 0}))
    out.append(_line({"type": "game_ended", "reason": "abandoned"}))
    return b"".join(out)
