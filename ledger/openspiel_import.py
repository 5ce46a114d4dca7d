"""Convert an OpenSpiel ``gin_rummy`` game into a ``rummy-ledger/1`` record.

Input: the game's action history, as a list of ints, the text of
``state.serialize()`` (one action per line), the text of
``pyspiel.serialize_game_and_state`` (its ``[Game]`` line gives the game's
parameters, its ``[State]`` section the history), or ints separated by
spaces or commas. Output: a record under ``variant: gin``, ``ruleset:
openspiel``. The conversion is pure Python (it does not need ``pyspiel``):
it follows OpenSpiel's state machine (``gin_rummy.cc``) phase by phase.

Parameters (:func:`record_options`): ``knock_card``, ``gin_bonus``,
``undercut_bonus`` and ``oklahoma`` become the record's ``options`` (only
those that differ from the preset, so a default game's record has none);
``hand_size``, ``num_ranks`` and ``num_suits`` cannot be represented (the
ledger's Gin deals 10 cards each from 52) and any value but the default is
refused, naming the parameter; so is an unknown parameter. The history and
``serialize()`` forms carry no parameters: the caller passes them
(``import-openspiel --param key=value``).

An incomplete history (one that stops before OpenSpiel's terminal state) is
refused, saying where it stops; ``partial=True`` (``--partial``) converts
what it holds, without ``hand_ended`` / ``game_ended``, once the deal is
complete.

Action ids (OpenSpiel ``gin_rummy.h``)::

    0..51   a card: suit-major in the order s c d h, ace low:
            id = 13 * suit + (rank - 1); 0 = AS, 12 = KS, 13 = AC, 51 = KH.
            Chance: the deal (10 to player 0, 10 to player 1, then the
            upcard) and every stock draw; player: a discard, the knocker's
            face-down discard, or a lay-off by the defender.
    52      draw the upcard                 -> discard_taken
    53      draw from the stock             -> card_drawn (the card is the
                                               next chance action)
    54      pass: first-turn upcard offer   -> upcard_passed
                  end of the knocker's melds -> knocked
                  end of lay-offs / of the defender's melds
                  at the wall               -> hand_ended stock_exhausted
    55      knock                           -> knocked (at the wall: the
                                               upcard is taken first,
                                               discard_taken + knocked)
    56..240 lay a meld: index = id - 56 (:func:`meld_cards`): 0..64 sets
            (5 per rank, ace first: the four 3-card sets ordered by the
            missing suit s c d h, then the 4-card set), 65..108 sequences
            of 3, 109..148 of 4, 149..184 of 5, each ordered by suit
            (s c d h) then by lowest rank.

Seats: OpenSpiel's player 0 always acts first, so seat 0 is the non-dealer
and seat 1 the dealer. The stock order is not known beyond the cards drawn,
so ``hand_dealt`` omits ``stock``. The knocker's melds get ids ``k1``,
``k2`` …, the defender's ``d1`` …; each lay-off is one ``meld_extended`` of
one card onto the knocker's meld it fits (chosen so every later lay-off
fits too). Endings: knock or gin -> ``hand_ended`` ``knocked``; pass at the
wall -> ``stock_exhausted``; the repeated-move rule and the 50th upcard draw
-> ``stalled`` (that draw is not recorded); then ``game_ended``
``hands_played``.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from ledger.events import (
    CardDiscarded,
    CardDrawn,
    DeclaredMeld,
    DiscardTaken,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    Knocked,
    MeldExtended,
    MeldLaid,
    OptionValue,
    Player,
    UpcardPassed,
)
from ledger.melds import MeldRules, layoff_candidates
from ledger.variants.gin_deadwood import deadwood_value

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
NUM_MELDS = 185
MAX_UPCARD_DRAWS = 50
WALL = 2
_SUITS = "SCDH"  # OpenSpiel's suit order s c d h
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RULES = MeldRules(max_wilds=0, ace_high=False, max_set=4, max_sequence=13)


def card(action: int) -> str:
    """The canonical card of an OpenSpiel card id.

    >>> card(0), card(12), card(13), card(51)
    ('AS', 'KS', 'AC', 'KH')
    """
    if not 0 <= action < 52:
        raise ValueError(f"{action} is not an OpenSpiel card id (0..51)")
    return _RANKS[action % 13] + _SUITS[action // 13]


def meld_cards(index: int) -> tuple[str, ...]:
    """The cards of OpenSpiel meld ``index`` (0..184; action ``56 + index``),
    sets in suit order s c d h, sequences ascending.

    >>> meld_cards(0), meld_cards(4), meld_cards(184)
    (('AC', 'AD', 'AH'), ('AS', 'AC', 'AD', 'AH'), ('9H', '10H', 'JH', 'QH', 'KH'))
    """
    if not 0 <= index < NUM_MELDS:
        raise ValueError(f"{index} is not an OpenSpiel meld index (0..184)")
    if index < 65:
        rank, k = divmod(index, 5)
        suits = [s for i, s in enumerate(_SUITS) if i != k]
        return tuple(_RANKS[rank] + s for s in suits)
    index -= 65
    for size, count in ((3, 11), (4, 10), (5, 9)):
        if index < 4 * count:
            suit, low = divmod(index, count)
            return tuple(_RANKS[low + i] + _SUITS[suit] for i in range(size))
        index -= 4 * count
    raise AssertionError("unreachable")


#: OpenSpiel's gin_rummy parameters and their defaults (``gin_rummy.cc``)
DEFAULT_PARAMS: dict[str, bool | int] = {
    "oklahoma": False,
    "knock_card": 10,
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "num_ranks": 13,
    "num_suits": 4,
    "hand_size": 10,
}
#: the parameters that become record options (same names, RULES.md "Gin Rummy")
MAPPED_PARAMS = ("knock_card", "gin_bonus", "undercut_bonus", "oklahoma")

Params = dict[str, "bool | int"]


def param_value(key: str, text: str) -> bool | int:
    """The value of OpenSpiel parameter ``key`` written as ``text``
    (``True``/``False``/``true``/``false`` for ``oklahoma``, an integer
    otherwise). Raises :class:`ValueError` naming the parameter.

    >>> param_value("oklahoma", "True"), param_value("knock_card", "8")
    (True, 8)
    """
    if key not in DEFAULT_PARAMS:
        raise ValueError(f"unknown gin_rummy parameter {key!r} (known: {', '.join(sorted(DEFAULT_PARAMS))})")
    text = text.strip()
    if isinstance(DEFAULT_PARAMS[key], bool):
        if text.lower() in ("true", "1"):
            return True
        if text.lower() in ("false", "0"):
            return False
        raise ValueError(f"parameter {key} must be true or false, not {text!r}")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"parameter {key} must be an integer, not {text!r}") from None


def parse_game(spec: str) -> Params:
    """The parameters of an OpenSpiel game string ``gin_rummy(k=v,...)``
    (the ``[Game]`` line). Raises :class:`ValueError` for another game.

    >>> parse_game("gin_rummy()"), parse_game("gin_rummy(gin_bonus=20,oklahoma=True)")
    ({}, {'gin_bonus': 20, 'oklahoma': True})
    """
    m = re.fullmatch(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", spec)
    if not m or m.group(1) != "gin_rummy":
        raise ValueError(f"only OpenSpiel's gin_rummy can be converted, not {spec.strip() or 'an unnamed game'}")
    params: Params = {}
    for item in filter(None, (m.group(2) or "").split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"gin_rummy parameter {item.strip()!r} has no value")
        params[key.strip()] = param_value(key.strip(), value)
    return params


def parse_input(text: str) -> tuple[list[int], Params]:
    """Action ids and the game's parameters from ``serialize()`` text,
    ``serialize_game_and_state`` text or ints separated by spaces/commas
    (parameters only in the second form). Raises :class:`ValueError`.

    >>> parse_input("[Game]\\ngin_rummy(knock_card=5)\\n[State]\\n1\\n")
    ([1], {'knock_card': 5})
    """
    params: Params = {}
    if "[State]" in text:
        game = re.search(r"\[Game\]\s*\n([^\n]*)", text)
        params = parse_game(game.group(1) if game else "")
        text = text.split("[State]", 1)[1]
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    tokens = re.split(r"[\s,\[\]]+", "\n".join(lines).strip())
    try:
        return [int(t) for t in tokens if t], params
    except ValueError:
        raise ValueError("an OpenSpiel history is a list of integer action ids") from None


def parse_history(text: str) -> list[int]:
    """The action ids of :func:`parse_input` (the parameters are checked, not returned).

    >>> parse_history("8\\n37\\n")
    [8, 37]
    >>> parse_history("[Game]\\nbackgammon()\\n[State]\\n1\\n")
    Traceback (most recent call last):
    ...
    ValueError: only OpenSpiel's gin_rummy can be converted, not backgammon()
    """
    history, params = parse_input(text)
    record_options(params)
    return history


def merge_params(game: Params, given: Params) -> Params:
    """The game text's parameters with those given by the caller
    (``--param``); raises :class:`ValueError` when one contradicts the other.

    >>> merge_params({"knock_card": 8}, {"gin_bonus": 20})
    {'knock_card': 8, 'gin_bonus': 20}
    """
    out = dict(game)
    for key, value in given.items():
        if key in game and game[key] != value:
            raise ValueError(f"--param {key}={_text(value)} contradicts the game's {key}={_text(game[key])}")
        out[key] = value
    return out


def record_options(params: Params) -> dict[str, OptionValue]:
    """The record's ``options`` for OpenSpiel ``params``: the mapped
    parameters that differ from the defaults. Raises :class:`ValueError`
    naming a parameter that cannot be represented, is unknown or out of
    OpenSpiel's range.

    >>> record_options({"knock_card": 7, "gin_bonus": 25, "oklahoma": True})
    {'knock_card': 7, 'oklahoma': True}
    >>> record_options({"hand_size": 7})
    Traceback (most recent call last):
    ...
    ValueError: OpenSpiel parameter hand_size=7 cannot be represented: rummy-ledger's Gin deals 10 cards each from 52 (hand_size=10, num_ranks=13, num_suits=4 only)
    """  # noqa: E501 (a doctest's output line)
    options: dict[str, OptionValue] = {}
    for key, value in sorted(params.items()):
        if key not in DEFAULT_PARAMS:
            raise ValueError(f"unknown gin_rummy parameter {key!r} (known: {', '.join(sorted(DEFAULT_PARAMS))})")
        default = DEFAULT_PARAMS[key]
        if type(value) is not type(default):
            raise ValueError(
                f"parameter {key} must be {'true or false' if isinstance(default, bool) else 'an integer'}, not "
                f"{value!r}"
            )
        if key not in MAPPED_PARAMS:
            if value != default:
                raise ValueError(
                    f"OpenSpiel parameter {key}={value} cannot be represented: rummy-ledger's Gin deals 10 cards "
                    "each from 52 "
                    "(hand_size=10, num_ranks=13, num_suits=4 only)"
                )
            continue
        if key == "knock_card" and not 0 <= int(value) <= 10:
            raise ValueError(f"parameter knock_card={value} is outside OpenSpiel's range 0..10")
        if value != default:
            options[key] = value
    return options


def _text(value: bool | int) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def place_layoffs(melds: dict[str, tuple[str, ...]], layoffs: Sequence[str]) -> list[str]:
    """The meld id each lay-off card goes onto, in order, so that every one
    fits (depth-first). Raises :class:`ValueError` when none does.

    >>> place_layoffs({"k1": ("5C", "5D", "5S"), "k2": ("6H", "7H", "8H")}, ["5H", "4H"])
    ['k2', 'k2']
    """
    ids = list(melds)

    def search(i: int, current: dict[str, tuple[str, ...]]) -> list[str] | None:
        if i == len(layoffs):
            return []
        for mid in ids:
            options = layoff_candidates(current[mid], (layoffs[i],), _RULES)
            if options:
                rest = search(i + 1, {**current, mid: options[0]})
                if rest is not None:
                    return [mid] + rest
        return None

    found = search(0, dict(melds))
    if found is None:
        raise ValueError(f"the lay-offs {layoffs} fit no arrangement of the knocker's melds")
    return found


class _Hand:
    """OpenSpiel's gin_rummy state machine, emitting ledger events."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.hands: list[list[str]] = [[], []]
        self.upcard: str | None = None
        self.prev_upcard: str | None = None
        self.phase = "deal"
        self.cur = 0
        self.passed = [False, False]
        self.stock = 52
        self.repeated = False
        self.upcard_draws = 0
        self.knocker: int | None = None
        self.knock_discard: str | None = None
        self.knock_melds: list[tuple[str, ...]] = []
        self.layoffs: list[str] = []
        self.defender_melds: list[tuple[str, ...]] = []
        self.finished_layoffs = False
        self.ending: str | None = None
        self.seen: set[str] = set()

    def chance(self, i: int, a: int) -> str:
        c = card(a)
        if c in self.seen:
            raise ValueError(f"action {i}: {c} dealt twice")
        self.seen.add(c)
        self.stock -= 1
        return c

    def take(self, seat: int, c: str, i: int) -> None:
        if c not in self.hands[seat]:
            raise ValueError(f"action {i}: player {seat} does not hold {c}")
        self.hands[seat].remove(c)

    def step(self, i: int, a: int) -> None:
        p = self.phase
        if p == "deal":
            c = self.chance(i, a)
            if i < 10:
                self.hands[0].append(c)
            elif i < 20:
                self.hands[1].append(c)
            else:
                self.upcard = c
                self.events.append(
                    HandDealt(hand=1, dealer=1, hands=(tuple(self.hands[0]), tuple(self.hands[1])), discard=(c,))
                )
                self.phase = "first"
        elif p == "stock":
            c = self.chance(i, a)
            self.hands[self.cur].append(c)
            self.events.append(CardDrawn(seat=self.cur, card=c))
            self.phase = "discard"
        elif p in ("first", "draw"):
            if a == DRAW_UPCARD:
                if p == "draw":
                    self.upcard_draws += 1
                    if self.upcard_draws == MAX_UPCARD_DRAWS:
                        self.ending = "stalled"
                        return
                assert self.upcard is not None
                self.events.append(DiscardTaken(seat=self.cur, cards=(self.upcard,)))
                self.hands[self.cur].append(self.upcard)
                self.prev_upcard, self.upcard = self.upcard, None
                self.phase = "discard"
            elif a == DRAW_STOCK and (p == "draw" or all(self.passed)):
                self.prev_upcard, self.upcard = self.upcard, None
                self.phase = "stock"
            elif a == PASS and p == "first" and not all(self.passed):
                self.events.append(UpcardPassed(seat=self.cur))
                self.passed[self.cur] = True
                self.cur = 1 - self.cur
            else:
                raise ValueError(f"action {i}: {a} is not a legal draw")
        elif p == "discard":
            if a == KNOCK:
                self.knocker, self.phase = self.cur, "knock"
                return
            c = card(a)
            self.take(self.cur, c, i)
            self.events.append(CardDiscarded(seat=self.cur, card=c))
            self.upcard = c
            self.cur = 1 - self.cur
            if c == self.prev_upcard:
                if self.repeated:
                    self.ending = "stalled"
                    return
                self.repeated = True
            else:
                self.repeated = False
            self.phase = "wall" if self.stock == WALL else "draw"
        elif p == "wall":
            if a == PASS:
                self.ending = "stock_exhausted"
            elif a == KNOCK:
                assert self.upcard is not None
                self.events.append(DiscardTaken(seat=self.cur, cards=(self.upcard,)))
                self.hands[self.cur].append(self.upcard)
                self.upcard = None
                self.knocker, self.phase = self.cur, "knock"
            else:
                raise ValueError(f"action {i}: {a} is not legal at the wall")
        elif p == "knock":
            self.knock_step(i, a)
        elif p == "layoff":
            self.layoff_step(i, a)
        else:
            raise ValueError(f"action {i}: the game is over")

    def knock_step(self, i: int, a: int) -> None:
        k = self.knocker
        assert k is not None
        if self.knock_discard is None:
            c = card(a)
            self.take(k, c, i)
            self.knock_discard = c
        elif a >= MELD_BASE:
            cards = meld_cards(a - MELD_BASE)
            for c in cards:
                self.take(k, c, i)
            self.knock_melds.append(cards)
        elif a == PASS:
            melds = tuple(DeclaredMeld(meld=f"k{n + 1}", cards=m) for n, m in enumerate(self.knock_melds))
            self.events.append(Knocked(seat=k, discard=self.knock_discard, melds=melds, deadwood=tuple(self.hands[k])))
            self.finished_layoffs = deadwood_value(self.hands[k]) == 0
            self.cur, self.phase = 1 - k, "layoff"
        else:
            raise ValueError(f"action {i}: {a} is not legal in a knock")

    def layoff_step(self, i: int, a: int) -> None:
        d = self.cur
        if not self.finished_layoffs and a < 52:
            c = card(a)
            self.take(d, c, i)
            self.layoffs.append(c)
        elif a >= MELD_BASE and self.finished_layoffs:
            cards = meld_cards(a - MELD_BASE)
            for c in cards:
                self.take(d, c, i)
            self.defender_melds.append(cards)
        elif a == PASS and not self.finished_layoffs:
            self.finished_layoffs = True
        elif a == PASS:
            knocker_melds = {f"k{n + 1}": m for n, m in enumerate(self.knock_melds)}
            for mid, c in zip(place_layoffs(knocker_melds, self.layoffs), self.layoffs):
                self.events.append(MeldExtended(seat=d, meld=mid, cards=(c,)))
            for n, m in enumerate(self.defender_melds):
                self.events.append(MeldLaid(seat=d, meld=f"d{n + 1}", cards=m))
            self.ending = "knocked"
        else:
            raise ValueError(f"action {i}: {a} is not legal after the knock")


#: where a history can stop, in words (the phases of :class:`_Hand`)
_PHASES = {
    "deal": "during the deal (the hands and the upcard take 21 chance actions)",
    "first": "at the first-turn upcard offer",
    "draw": "before a draw",
    "stock": "before the card of a stock draw",
    "discard": "before a discard or knock",
    "wall": "at the wall (pass or knock)",
    "knock": "during the knocker's declaration",
    "layoff": "during the defender's lay-offs and melds",
}


def convert_actions(
    actions: Iterable[int],
    game_id: str = "openspiel-gin",
    names: tuple[str, str] = ("Player 0", "Player 1"),
    params: Params | None = None,
    partial: bool = False,
) -> list[Event]:
    """The record events of one OpenSpiel ``gin_rummy`` game given its
    action history and its parameters (``params``, see :func:`record_options`;
    none: the defaults).

    Returns ``game_started`` (with the mapped options), the hand,
    ``hand_ended`` and ``game_ended``. Raises :class:`ValueError` naming the
    action index for a history OpenSpiel would not accept (an illegal action
    in its phase, a card not held, actions after the end), naming the
    parameter that cannot be represented, and for a history that stops
    before the end of the game, unless ``partial`` (then the events so far,
    without an ending, provided the deal is complete).
    """
    options = record_options(dict(params or {}))
    players = (Player(seat=0, name=names[0]), Player(seat=1, name=names[1]))
    events: list[Event] = [
        GameStarted(game_id=game_id, variant="gin", ruleset="openspiel", options=options or None, players=players)
    ]
    hand = _Hand()
    n = 0
    for i, a in enumerate(actions):
        if hand.ending is not None:
            raise ValueError(f"action {i}: {a} after the end of the game")
        hand.step(i, int(a))
        n = i + 1
    events.extend(hand.events)
    if hand.ending is None:
        where = _PHASES.get(hand.phase, hand.phase)
        if not partial:
            raise ValueError(
                f"the history stops after {n} action{'s' if n != 1 else ''}, {where}: it is not a finished game "
                "(--partial converts what it holds)"
            )
        if hand.phase == "deal":
            raise ValueError(f"the history stops after {n} action{'s' if n != 1 else ''}, {where}: nothing to convert")
        return events
    seat = hand.knocker if hand.ending == "knocked" else None
    events.append(HandEnded(reason=hand.ending, seat=seat))  # type: ignore[arg-type]  # hand.ending is a HandEndReason once the hand is over
    events.append(GameEnded(reason="hands_played"))
    return events


def convert_main(
    source: str,
    output: str | None = None,
    game_id: str | None = None,
    params: Sequence[str] = (),
    partial: bool = False,
) -> int:
    """The body of ``rummy-ledger import-openspiel SOURCE [-o OUTPUT] [--game-id ID]
    [--param KEY=VALUE ...] [--partial]``.

    Reads a history (``-`` for stdin; see :func:`parse_input`), with the
    game's parameters from a ``serialize_game_and_state`` text and from
    ``params`` (``"key=value"`` strings; a contradiction is an error), writes
    the record to ``output`` (stdout when None). Returns the exit status: 0
    done, 2 the input is not a convertible OpenSpiel gin_rummy game (the
    reason on stderr). With ``partial``, an incomplete history is converted
    and a note on stderr says so.
    """
    from ledger.records import encode_record

    try:
        given: Params = {}
        for item in params:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"--param {item!r}: expected KEY=VALUE")
            given[key.strip()] = param_value(key.strip(), value)
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
        history, game_params = parse_input(text)
        merged = merge_params(game_params, given)
        digest = hashlib.sha1(",".join(map(str, history)).encode()).hexdigest()[:12]
        gid = game_id or (Path(source).stem if source != "-" else f"openspiel-{digest}")
        gid = re.sub(r"[^A-Za-z0-9._-]", "-", gid)[:64] or f"openspiel-{digest}"
        events = convert_actions(history, game_id=gid, params=merged, partial=partial)
        data = encode_record(events)
    except (OSError, ValueError) as err:
        print(f"rummy-ledger: error: import-openspiel {source}: {err}", file=sys.stderr)
        return 2
    if events[-1].type != "game_ended":
        print(
            f"rummy-ledger: note: import-openspiel {source}: partial game: {len(history)} actions converted into "
            f"{len(events)} events, "
            "without hand_ended or game_ended",
            file=sys.stderr,
        )
    if output is None:
        sys.stdout.write(data.decode())
    else:
        Path(output).write_bytes(data)
    return 0


def play_gin(seed: int, knock: str = "always", epsilon: float = 0.15) -> tuple[list[int], list[float]]:
    """Play one OpenSpiel ``gin_rummy`` game (default parameters) with a
    fixed seed (needs ``pyspiel``; for the oracle test and the bench).
    Returns the action history and OpenSpiel's ``returns()``; the policy is
    :func:`play_gin_state`'s."""
    state = play_gin_state(seed, knock, epsilon)
    return list(state.history()), list(state.returns())


def play_gin_state(seed: int, knock: str = "always", epsilon: float = 0.15, params: Params | None = None):  # noqa: ANN201 - a pyspiel state
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

    from ledger.variants.gin_deadwood import best_arrangement, card_value

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
            pick = _CARD_ID[max(dead, key=card_value)] if dead else -1
            action = pick if pick in legal and rng.random() >= epsilon else rng.choice([a for a in legal if a != KNOCK])
        else:
            plays = [a for a in legal if a != PASS]
            action = (
                rng.choice(plays) if plays and rng.random() >= 0.15 else PASS if PASS in legal else rng.choice(legal)
            )
        state.apply_action(action)
    return state


_CARD_ID = {card(i): i for i in range(52)}

__all__ = [
    "DEFAULT_PARAMS",
    "MAPPED_PARAMS",
    "card",
    "convert_actions",
    "convert_main",
    "meld_cards",
    "merge_params",
    "param_value",
    "parse_game",
    "parse_history",
    "parse_input",
    "place_layoffs",
    "play_gin",
    "play_gin_state",
    "record_options",
]
