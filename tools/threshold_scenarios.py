"""Scenario builders for Scala 40 / Ramino 51 records (tests and fixtures).

A scenario is a list of event dicts written with the short helpers below;
:func:`record_lines` turns it into the JSON lines of a record, filling each
``deal`` hand up to the hand size with cards named nowhere else in that hand
(two copies of each such face at most, so the filler never meets the story
and the deck is never exceeded). :func:`play` replays it.

Deterministic: the same scenario always gives the same record.
"""

from __future__ import annotations

import json
import re

from ledger.cards import FACES
from ledger.record_files import read_record
from ledger.replay import validate

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def deal(*hands: str, up: str = "10C", dealer: int | None = None, hand: int = 1, fill: bool = True) -> dict:
    """A ``hand_dealt`` (dealer: the last seat by default, so seat 0 starts)."""
    return {
        "type": "hand_dealt",
        "hand": hand,
        "dealer": dealer,
        "hands": [h.split() for h in hands],
        "discard": [up],
        "_fill": fill,
    }


def draw(seat: int, card: str) -> dict:
    return {"type": "card_drawn", "seat": seat, "card": card}


def take(seat: int, card: str) -> dict:
    return {"type": "discard_taken", "seat": seat, "cards": [card]}


def meld(seat: int, mid: str, cards: str) -> dict:
    return {"type": "meld_laid", "seat": seat, "meld": mid, "cards": cards.split()}


def extend(seat: int, mid: str, cards: str, result: str | None = None) -> dict:
    e = {"type": "meld_extended", "seat": seat, "meld": mid, "cards": cards.split()}
    if result:
        e["result"] = result.split()
    return e


def swap(seat: int, mid: str, card: str, joker: str = "JK") -> dict:
    return {"type": "joker_swapped", "seat": seat, "meld": mid, "card": card, "joker": joker}


def discard(seat: int, card: str) -> dict:
    return {"type": "card_discarded", "seat": seat, "card": card}


def went_out(seat: int, claimed: list | None = None) -> dict:
    e = {"type": "hand_ended", "reason": "went_out", "seat": seat}
    if claimed is not None:
        e["claimed"] = claimed
    return e


def record_lines(
    events: list[dict],
    *,
    players: int = 2,
    size: int = 13,
    variant: str = "scala40",
    ruleset: str | None = None,
    options: dict | None = None,
    game_id: str = "t",
    names: tuple[str, ...] | None = None,
) -> list[str]:
    """The record's JSON lines (``game_started`` first)."""
    head = {
        "type": "game_started",
        "format": "rummy-ledger/1",
        "game_id": game_id,
        "variant": variant,
        "players": [{"seat": i, "name": (names or NAMES)[i]} for i in range(players)],
    }
    if ruleset:
        head["ruleset"] = ruleset
    if options:
        head["options"] = options
    out = [head]
    spare: list[str] = []
    for i, e in enumerate(events):
        e = dict(e)
        if e["type"] == "hand_dealt":
            # filler: faces named nowhere in this hand (up to the next deal), two copies each
            nxt = next((j for j in range(i + 1, len(events)) if events[j]["type"] == "hand_dealt"), len(events))
            named = set(re.findall(r'"((?:A|[2-9]|10|J|Q|K)[CDHS])"', json.dumps(events[i:nxt])))
            spare = [c for c in FACES if c not in named] * 2
            e["hands"] = e["hands"] + [[] for _ in range(players - len(e["hands"]))]
            if e["dealer"] is None:
                e["dealer"] = players - 1
        if e.pop("_fill", False):
            e["hands"] = [[] if h == ["-"] else h + [spare.pop() for _ in range(size - len(h))] for h in e["hands"]]
        out.append(e)
    return [json.dumps(e, ensure_ascii=False) for e in out]


def play(events: list[dict], **kw):
    """Replay the scenario (keywords as :func:`record_lines`); the final state."""
    return validate(read_record("\n".join(record_lines(events, **kw)).encode()))


def three_player_hand(claimed: list | None = None) -> list[dict]:
    """Anna opens (60) and goes out in her second turn; Bruno opened (45) and
    keeps A♠ K♥ JK 2♣ 9♦ 8♦ 3♦; Carla never opens (her cards: 101 points)."""
    return [
        deal(
            "6H 7H 8H 9H QS QH QC 2D 3D 4D 5S 5H 5D",
            "JS JH JD 4C 5C 6C 7C AS KH JK 2C 9D 8D",
            "2H 3H 4H 6D 7D 10H JC QD KC AC AD 9C 8C",
            up="10C",
        ),
        draw(0, "KD"),
        meld(0, "a", "6H 7H 8H 9H"),
        meld(0, "b", "QS QH QC"),
        discard(0, "KD"),
        draw(1, "3D"),
        meld(1, "c", "JS JH JD"),
        meld(1, "d", "4C 5C 6C"),
        discard(1, "7C"),
        draw(2, "KS"),
        discard(2, "KS"),
        draw(0, "10S"),
        meld(0, "e", "2D 3D 4D"),
        meld(0, "f", "5S 5H 5D"),
        discard(0, "10S"),
        went_out(0, claimed),
    ]
