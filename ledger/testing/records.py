"""Records written by hand: event dicts, stacked deals, and what the audit finds.

The one builder module of the tests, the fixture generators (``tools/``) and
the benchmarks (``bench/``); see :mod:`ledger.testing` for why it is in the
package. Events are plain dicts in the shapes of FORMAT.md "Events" (so a
test can also write a malformed one), keys in the order the fixtures have
them, turned into record bytes by :func:`lines` or into :class:`Event`
objects by :func:`decoded`. Cards are given as a list or as one string of
card codes separated by spaces (``"7H 8H 9H"``).

Deals:

- :func:`hand_dealt`: exactly the cards given (no stock unless given);
- :func:`stacked_deal`: the named cards where the test puts them, every
  other card of the deck (hand fillers, pozzetti, stock) from the rest in
  a fixed shuffled order, so the record is physically possible (REC-DECK);
- :func:`filled_deal` with :func:`scenario_lines`: each hand filled up to
  the hand size with faces named nowhere else in that hand (Scala 40,
  Ramino 51 scenarios);
- :func:`ramino_deal`: one fixed two-player classic-Ramino deal with a
  known stock (:data:`RAMINO_HANDS`).

Reading back: :func:`replayed` folds a record given as bytes, event dicts
or events; :func:`findings` and :func:`seat_findings` give the audit's
findings as tuples, by position.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ledger.audit import report
from ledger.cards import FACES, deck_counter, standard_deck
from ledger.events import Event, decode_event
from ledger.record_files import read_record
from ledger.replay import replay, validate
from ledger.state import TableState

#: an event in its JSON shape (FORMAT.md "Events")
EventDict = dict[str, Any]
#: cards as a list of codes, or one string of codes separated by spaces
Cards = str | Sequence[str]

#: the players' names by seat
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def card_list(cards: Cards) -> list[str]:
    """``cards`` as a list of codes: ``"7H 8H"`` -> ``["7H", "8H"]``."""
    return cards.split() if isinstance(cards, str) else list(cards)


# --- records -----------------------------------------------------------------------------------


def lines(*events: EventDict) -> bytes:
    """Record bytes, one compact JSON event per line (FORMAT.md "File")."""
    return b"".join(json.dumps(e, separators=(",", ":")).encode() + b"\n" for e in events)


def decoded(*events: EventDict) -> list[Event]:
    """The events as :class:`Event` objects; a malformed one raises RecordError (REC-FORMAT)."""
    return [decode_event(json.dumps(e)) for e in events]


def replayed(record: bytes | Sequence[EventDict] | Sequence[Event]) -> TableState:
    """The final state of a record given as bytes or event dicts (both through the file
    reader, so a rejection names its line) or as events (folded as they are)."""
    if isinstance(record, bytes):
        return validate(read_record(record))
    dicts = [e for e in record if isinstance(e, dict)]
    if dicts:
        return validate(read_record(lines(*dicts)))
    return replay(e for e in record if not isinstance(e, dict))


def findings(record: TableState | bytes | Sequence[EventDict] | Sequence[Event]) -> list[tuple[Any, ...]]:
    """The audit's findings as ``(position, hand, seat, rule, message)``, by position."""
    state = record if isinstance(record, TableState) else replayed(record)
    return [(f["position"], f["hand"], f["seat"], f["rule"], f["message"]) for f in report(state).to_json()["findings"]]


def seat_findings(record: TableState | bytes | Sequence[EventDict] | Sequence[Event]) -> list[tuple[Any, ...]]:
    """The audit's findings as ``(position, seat, rule, message)``, by position."""
    return [(p, seat, rule, message) for p, _hand, seat, rule, message in findings(record)]


# --- events (FORMAT.md "Events") ---------------------------------------------------------------


def game_started(
    variant: str = "ramino",
    players: int | Sequence[str] = ("Anna", "Bruno"),
    *,
    game_id: str = "t-1",
    ruleset: str | None = None,
    teams: bool = False,
    meta: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> EventDict:
    """A ``game_started``: ``players`` as names, or a count of :data:`NAMES`; with ``teams``,
    seat ``s`` plays in team ``s % 2``."""
    names = NAMES[:players] if isinstance(players, int) else players
    event: EventDict = {"type": "game_started", "format": "rummy-ledger/1", "game_id": game_id, "variant": variant}
    if ruleset is not None:
        event["ruleset"] = ruleset
    event["players"] = [{"seat": s, "name": n} | ({"team": s % 2} if teams else {}) for s, n in enumerate(names)]
    if meta is not None:
        event["meta"] = meta
    if options:
        event["options"] = options
    return event


def burraco_started(
    players: int = 2,
    ruleset: str = "fibur",
    options: dict[str, Any] | None = None,
    *,
    teams: bool | None = None,
    game_id: str = "t",
    meta: dict[str, Any] | None = None,
) -> EventDict:
    """A Burraco ``game_started`` for ``players`` of :data:`NAMES`, in partnerships with 4
    players unless ``teams`` says otherwise."""
    partners = players == 4 if teams is None else teams
    return game_started(
        "burraco", players, game_id=game_id, ruleset=ruleset, teams=partners, meta=meta, options=options
    )


def hand_dealt(
    hands: Sequence[Cards], *, up: Cards, hand: int = 1, dealer: int = 1, stock: Cards | None = None
) -> EventDict:
    """A ``hand_dealt`` of exactly these hands, discard pile ``up`` and (when given) stock, top first."""
    event: EventDict = {
        "type": "hand_dealt",
        "hand": hand,
        "dealer": dealer,
        "hands": [card_list(h) for h in hands],
        "discard": card_list(up),
    }
    if stock is not None:
        event["stock"] = card_list(stock)
    return event


def draw(seat: int, card: str) -> EventDict:
    """``card_drawn``: ``seat`` draws ``card`` from the stock."""
    return {"type": "card_drawn", "seat": seat, "card": card}


def take(seat: int, cards: Cards) -> EventDict:
    """``discard_taken``: ``seat`` takes ``cards`` from the discard pile."""
    return {"type": "discard_taken", "seat": seat, "cards": card_list(cards)}


def discard(seat: int, card: str) -> EventDict:
    """``card_discarded``."""
    return {"type": "card_discarded", "seat": seat, "card": card}


def meld(seat: int, meld_id: str, cards: Cards) -> EventDict:
    """``meld_laid``: a new meld ``meld_id``."""
    return {"type": "meld_laid", "seat": seat, "meld": meld_id, "cards": card_list(cards)}


def extend(seat: int, meld_id: str, cards: Cards, result: Cards | None = None) -> EventDict:
    """``meld_extended`` (a lay off), with the meld's new order ``result`` when given."""
    event: EventDict = {"type": "meld_extended", "seat": seat, "meld": meld_id, "cards": card_list(cards)}
    if result is not None:
        event["result"] = card_list(result)
    return event


def swap(seat: int, meld_id: str, card: str, joker: str = "JK") -> EventDict:
    """``joker_swapped``: ``card`` replaces the wild ``joker`` in meld ``meld_id``."""
    return {"type": "joker_swapped", "seat": seat, "meld": meld_id, "card": card, "joker": joker}


def pozzetto(seat: int, index: int, **fields: Any) -> EventDict:
    """``pozzetto_taken`` (Burraco), with any further ``fields``."""
    return {"type": "pozzetto_taken", "seat": seat, "pozzetto": index, **fields}


def upcard_passed(seat: int) -> EventDict:
    """``upcard_passed`` (Gin)."""
    return {"type": "upcard_passed", "seat": seat}


def knocked(seat: int, card: str, melds: list[dict[str, Any]], deadwood: Cards) -> EventDict:
    """``knocked`` (Gin): discarding ``card``, with the declared melds and deadwood."""
    return {"type": "knocked", "seat": seat, "discard": card, "melds": melds, "deadwood": card_list(deadwood)}


def penalty(seat: int | None, points: int, rule: str, **fields: Any) -> EventDict:
    """``penalty_assessed``: the referee's ``points`` to ``seat`` citing ``rule`` (with
    ``note``, ``finding``, ``team`` ... as ``fields``)."""
    event: EventDict = {"type": "penalty_assessed"}
    if seat is not None:
        event["seat"] = seat
    return event | {"points": points, "rule": rule, **fields}


def restored(target: int, reason: str) -> EventDict:
    """``position_restored``: the referee puts the table back to position ``target``."""
    return {"type": "position_restored", "target": target, "reason": reason}


def claims(*points: int) -> list[dict[str, int]]:
    """Claimed scores, seat by seat: ``claims(0, 68)`` -> ``[{"seat": 0, "points": 0}, ...]``."""
    return [{"seat": s, "points": p} for s, p in enumerate(points)]


def hand_ended(reason: str, seat: int | None = None, claimed: list[dict[str, int]] | None = None) -> EventDict:
    """``hand_ended`` for ``reason``, naming ``seat`` and the ``claimed`` scores when given."""
    event: EventDict = {"type": "hand_ended", "reason": reason}
    if seat is not None:
        event["seat"] = seat
    if claimed is not None:
        event["claimed"] = claimed
    return event


def went_out(seat: int, claimed: list[dict[str, int]] | None = None) -> EventDict:
    """``hand_ended`` with reason ``went_out``."""
    return hand_ended("went_out", seat, claimed)


def game_ended(reason: str, claimed: list[dict[str, int]] | None = None) -> EventDict:
    """``game_ended`` for ``reason``, with the ``claimed`` totals when given."""
    event: EventDict = {"type": "game_ended", "reason": reason}
    if claimed is not None:
        event["claimed"] = claimed
    return event


# --- stacked deals -------------------------------------------------------------------------------


def stacked_deal(
    hands: Sequence[Cards],
    *,
    hand: int = 1,
    dealer: int | None = None,
    up: Cards = (),
    pozzetti: Sequence[Cards] | None = None,
    stock_top: Cards = (),
    decks: int = 2,
    jokers: int = 4,
    seed: int = 1,
    size: int = 11,
    list_pozzetti: bool = True,
) -> EventDict:
    """A complete ``hand_dealt`` (Burraco's 2 decks by default): the named cards where given,
    the rest of the deck shuffled with ``seed``; hands and pozzetti are filled up to ``size``
    cards from it, an empty discard pile gets one card, and the stock is ``stock_top`` followed
    by what is left. ``dealer`` defaults to the last seat; ``list_pozzetti`` False leaves the
    pozzetti out of the event. Raises AssertionError when the named cards exceed the deck."""
    given = [card_list(h) for h in hands]
    pile = card_list(up)
    wells = [card_list(p) for p in (pozzetti or [[], []])]
    top = card_list(stock_top)
    rest = deck_counter(decks, jokers)
    named: Counter[str] = Counter()
    for part in [*given, pile, *wells, top]:
        named.update(part)
    too_many = {c: k for c, k in named.items() if k > rest[c]}
    assert not too_many, f"hand {hand}: more copies than the deck holds: {too_many}"
    rest.subtract(named)
    pool = sorted(rest.elements())
    random.Random(seed).shuffle(pool)
    for part in given:
        part += [pool.pop() for _ in range(size - len(part))]
    if not pile:
        pile = [pool.pop()]
    for part in wells:
        part += [pool.pop() for _ in range(size - len(part))]
    event: EventDict = {
        "type": "hand_dealt",
        "hand": hand,
        "dealer": len(given) - 1 if dealer is None else dealer,
        "hands": given,
        "discard": pile,
        "stock": top + pool,
    }
    if list_pozzetti:
        event["pozzetti"] = wells
    return event


def filled_deal(*hands: str, up: str = "10C", dealer: int | None = None, hand: int = 1, fill: bool = True) -> EventDict:
    """A ``hand_dealt`` for :func:`scenario_lines`, which fills each hand (``fill``) up to the
    hand size and gives the dealer (the last seat by default, so seat 0 starts); a hand
    written ``"-"`` stays empty."""
    return {
        "type": "hand_dealt",
        "hand": hand,
        "dealer": dealer,
        "hands": [h.split() for h in hands],
        "discard": [up],
        "_fill": fill,
    }


def scenario_lines(
    events: Sequence[EventDict],
    *,
    players: int = 2,
    size: int = 13,
    variant: str = "scala40",
    ruleset: str | None = None,
    options: dict[str, Any] | None = None,
    game_id: str = "t",
) -> list[str]:
    """The JSON lines of a scenario's record (``game_started`` first): each deal of
    :func:`filled_deal` gets the missing hands and dealer, and its hands filled up to ``size``
    with faces named nowhere in that hand's events (two copies each at most, so the filler
    never meets the story and the deck is never exceeded). Deterministic."""
    out = [game_started(variant, players, game_id=game_id, ruleset=ruleset, options=options)]
    spare: list[str] = []
    for i, given in enumerate(events):
        event = dict(given)
        if event["type"] == "hand_dealt":
            nxt = next((j for j in range(i + 1, len(events)) if events[j]["type"] == "hand_dealt"), len(events))
            named = set(re.findall(r'"((?:A|[2-9]|10|J|Q|K)[CDHS])"', json.dumps(events[i:nxt])))
            spare = [c for c in FACES if c not in named] * 2
            event["hands"] = event["hands"] + [[] for _ in range(players - len(event["hands"]))]
            if event["dealer"] is None:
                event["dealer"] = players - 1
        if event.pop("_fill", False):
            event["hands"] = [
                [] if h == ["-"] else h + [spare.pop() for _ in range(size - len(h))] for h in event["hands"]
            ]
        out.append(event)
    return [json.dumps(e, ensure_ascii=False) for e in out]


def play(events: Sequence[EventDict], **scenario: Any) -> TableState:
    """Replay a scenario (keywords as :func:`scenario_lines`); the final state."""
    return validate(read_record("\n".join(scenario_lines(events, **scenario)).encode()))


# --- the fixed classic-Ramino deal ---------------------------------------------------------------

#: a fixed two-player Ramino deal: Anna (seat 0) and Bruno (seat 1), dealer Bruno
RAMINO_HANDS = [
    ["3H", "4H", "5H", "9C", "9D", "9S", "KS", "2D", "7C", "QH"],
    ["AS", "6D", "7D", "8D", "10C", "JC", "QC", "4S", "5S", "8H"],
]
RAMINO_UPCARD = ["6C"]


def ramino_stock() -> list[str]:
    """The rest of the 52-card deck after :data:`RAMINO_HANDS`, in a fixed order (top first): 6H, 7H, KD, …"""
    used = {c for h in RAMINO_HANDS for c in h} | set(RAMINO_UPCARD)
    rest = [c for c in standard_deck() if c not in used]
    first = ["6H", "7H", "KD", "2C", "3C"]
    return first + [c for c in rest if c not in first]


def ramino_deal(hand: int = 1, dealer: int = 1, with_stock: bool = True) -> EventDict:
    """The ``hand_dealt`` of the fixed deal."""
    return hand_dealt(
        RAMINO_HANDS, up=RAMINO_UPCARD, hand=hand, dealer=dealer, stock=ramino_stock() if with_stock else None
    )


def ramino_game(*events: EventDict, with_stock: bool = True) -> bytes:
    """A Ramino record: game_started, the fixed deal, then ``events``."""
    return lines(game_started(), ramino_deal(with_stock=with_stock), *events)
