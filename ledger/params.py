"""Whole-number parameters typed by a user: ``--at 3`` on the command line,
``?at=3`` in the viewer's URLs.

Python's ``int()`` reads far more than a position: ``int("٣")`` (Arabic-Indic
digits), ``int("３")`` (full-width), ``int("+3")`` and ``int("3_0")`` (30) all
succeed. A parameter here is ASCII digits with an optional leading minus,
at most 18 digits; anything else is refused.

>>> ascii_int("42"), ascii_int("-1")
(42, -1)
>>> ascii_int("3_0")
Traceback (most recent call last):
...
ValueError: '3_0' is not a whole number
"""

from __future__ import annotations

import re
from gettext import NullTranslations
from typing import Any

import click

from ledger import catalog
from ledger.i18n import N_, env_lang, translations

_WHOLE = re.compile(r"-?[0-9]{1,18}")


def ascii_int(text: str) -> int:
    """``text`` as an int when it is ``-?[0-9]{1,18}``; raises :class:`ValueError`
    (``'…' is not a whole number``) otherwise."""
    if not isinstance(text, str) or _WHOLE.fullmatch(text) is None:
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _tr(ctx: click.Context | None) -> NullTranslations:
    """The translations of the invocation's ``--lang`` (its state's, once
    the group has run; else the option read, else the locale variables)."""
    root = ctx.find_root() if ctx is not None else None
    tr: NullTranslations | None = getattr(root.obj, "tr", None) if root is not None else None
    if tr is not None:
        return tr
    lang = root.params.get("lang") if root is not None else None
    return translations(lang or env_lang())


class AsciiInt(click.ParamType[int]):
    """A click parameter type: :func:`ascii_int` (click's ``int`` takes ``٣`` and ``3_0``)."""

    name = "integer"

    def __init__(self, min: int | None = None, max: int | None = None) -> None:  # noqa: A002 - click.IntRange's names
        self.min, self.max = min, max

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value  # a default
        else:
            try:
                number = ascii_int(value)
            except ValueError:
                self.fail(
                    _tr(ctx).gettext(N_("%(value)s is not a whole number (ASCII digits 0-9)")) % {"value": repr(value)},
                    param,
                    ctx,
                )
        if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
            low = "" if self.min is None else f"{self.min}<="
            high = "" if self.max is None else f"<={self.max}"
            self.fail(f"{number} is not in the range {low}x{high}", param, ctx)
        return number


#: the type of every whole-number option of the CLI
ASCII_INT = AsciiInt()


class VariantChoice(click.Choice[str]):
    """A click ``--variant`` choice read from the variant catalog each time
    (:mod:`ledger.catalog`): a game registered at run time is accepted and
    listed by ``--help``. ``simulated=True``: only the games that have a
    simulator strategy."""

    def __init__(self, simulated: bool = False) -> None:
        self.simulated = simulated
        super().__init__((), case_sensitive=True)

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(e.id for e in catalog.CATALOG.values() if e.strategy is not None or not self.simulated)

    @choices.setter
    def choices(self, _value: object) -> None:
        """click's ``__init__`` sets the choices; the catalog gives them."""
