"""A variant's options as a typed, frozen struct, and its presets as instances.

Each variant declares one :class:`Options` subclass: a field per option of
RULES.md (the variant's "Options" and "Presets"), typed ``bool``, ``int``
(with ``Meta`` bounds where RULES.md gives them) or a ``Literal`` of the
allowed words. A field marked :data:`FIXED` is set by the preset only: a
record's ``game_started.options`` may not change it (``REC-FORMAT`` "unknown
option"). The rules object (:class:`ledger.variants.base.Rules`) reads the
record's ruleset and options through :func:`option_specs` and
:func:`preset_values`, so the error messages are generated from the struct.

>>> from typing import Literal
>>> class Demo(Options):
...     target: int = 100
...     going_out: Literal["discard", "any"] = "discard"
...     jokers: Annotated[int, FIXED] = 0
>>> option_specs(Demo)
{'target': (<class 'int'>,), 'going_out': ('discard', 'any')}
>>> preset_values(Demo(target=50))
{'target': 50, 'going_out': 'discard', 'jokers': 0}
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta

#: an option's allowed values: the types, or the allowed words
OptionSpec = tuple[type, ...] | tuple[str, ...]

#: marks a field the preset sets and a record may not: ``jokers: Annotated[int, FIXED]``
FIXED = Meta(extra={"fixed": True})

#: how an empty stock is renewed (Ramino's ``restock`` option; the other games
#: shuffle): the discard pile less its top card ``shuffle``d or ``turn_over``ed
#: into the new stock, or ``end_hand``: the hand ends
RestockMode = Literal["shuffle", "turn_over", "end_hand"]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every variant's options struct (frozen; one field per option)."""


def _spec(hint: Any) -> tuple[OptionSpec, bool]:
    """``(allowed, fixed)`` of one field's annotation."""
    fixed = False
    if get_origin(hint) is Annotated:
        hint, *metas = get_args(hint)
        fixed = any(isinstance(m, Meta) and (m.extra or {}).get("fixed") for m in metas)
    if get_origin(hint) in (Union, types.UnionType):  # ``int | None``: an option the preset leaves unset
        hint = next(a for a in get_args(hint) if a is not type(None))
        if get_origin(hint) is Annotated:
            hint = get_args(hint)[0]
    if get_origin(hint) is Literal:
        return tuple(get_args(hint)), fixed
    return (hint,), fixed


def option_specs(cls: type[Options]) -> dict[str, OptionSpec]:
    """Option name -> allowed types or words, for the options a record may set
    (every field not :data:`FIXED`), in field order."""
    hints = get_type_hints(cls, include_extras=True)
    specs: dict[str, OptionSpec] = {}
    for name in cls.__struct_fields__:
        spec, fixed = _spec(hints[name])
        if not fixed:
            specs[name] = spec
    return specs


def preset_values(preset: Options) -> dict[str, Any]:
    """A preset's option values as a dict (an option it leaves unset, None, is left out)."""
    return {k: v for k, v in msgspec.structs.asdict(preset).items() if v is not None}


__all__ = ["FIXED", "OptionSpec", "Options", "RestockMode", "option_specs", "preset_values"]
