"""OpenSpiel ``gin_rummy`` parameters and the input texts a history comes in (FORMAT.md "File": ``options``).

Parameters (:func:`record_options`): ``knock_card``, ``gin_bonus``,
``undercut_bonus`` and ``oklahoma`` become the record's ``options`` (only
those that differ from the preset, so a default game's record has none);
``hand_size``, ``num_ranks`` and ``num_suits`` cannot be represented (the
ledger's Gin deals 10 cards each from 52) and any value but the default is
refused, naming the parameter; so is an unknown parameter. The history and
``serialize()`` forms carry no parameters: the caller passes them
(``import-openspiel --param key=value``).
"""

from __future__ import annotations

import re

from ledger.events import OptionValue

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
