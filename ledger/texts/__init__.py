"""The ledger's words as data (issue 23): a :class:`Message` is a gettext
msgid and its parameters; English is ``msgid % params``, another language is
``gettext(msgid) % params`` rendered where the text is shown (the CLI, the
viewer, the report, the stream), with the translations object it passes in.

A parameter is a plain value (a name, a card face, a number, shown as
``str()`` gives it), a nested :class:`Message` (a piece that is itself words:
a meld's fault, a side's label, a clause), rendered in the same language, or
a tuple of parameters, rendered each and joined by ``", "``.

>>> m = Message(N_("%(who)s played out of turn: it was %(due)s's turn"), who="Anna", due="Bruno")
>>> str(m), m.params
("Anna played out of turn: it was Bruno's turn", {'who': 'Anna', 'due': 'Bruno'})
>>> side = Message(N_("team %(team)s (%(names)s)"), team=0, names="Anna & Carla")
>>> render(Message(N_("%(who)s went out without %(side)s's pozzetto"), who="Anna", side=side))
"Anna went out without team 0 (Anna & Carla)'s pozzetto"
>>> render(and_(Message("x %(n)s", n=1), "y")), render(("7♥", 3))
('x 1 and y', '7♥, 3')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol, Union

from ledger.i18n import N_


class Translator(Protocol):
    """A gettext translations object (``gettext.NullTranslations`` or Babel's)."""

    def gettext(self, message: str, /) -> str: ...


_PLACEHOLDER = re.compile(r"%\((\w+)\)")
_NAMES: dict[str, tuple[str, ...]] = {}


def placeholders(msgid: str) -> tuple[str, ...]:
    """The names of ``msgid``'s ``%(name)s`` placeholders, each once, in
    order of first appearance (cached: msgids are few)."""
    names = _NAMES.get(msgid)
    if names is None:
        names = _NAMES[msgid] = tuple(dict.fromkeys(_PLACEHOLDER.findall(msgid)))
    return names


#: what a parameter may be: a plain value, a nested message, or a tuple of parameters
Param = Union[str, int, "Message", tuple[Any, ...]]


class Message:
    """A sentence as data: ``Message(msgid, **params)``.

    ``msgid`` is the English text with ``%(name)s`` placeholders (marked with
    :func:`N_`); ``params`` fill them, exactly the msgid's names (a missing
    one is ``KeyError``, an extra one ``TypeError``). They are kept as the
    tuple :attr:`args`, in the order of :func:`placeholders` (compact: one
    tuple, no dict, per message). ``str(m)`` is the English; :func:`render`
    is any language. Equal when msgid and args are.
    """

    __slots__ = ("args", "msgid")

    def __init__(self, msgid: str, /, **params: Param) -> None:
        names = placeholders(msgid)
        if len(params) != len(names):
            extra = sorted(set(params) - set(names))
            if extra:
                raise TypeError(f"{msgid!r} has no placeholder {', '.join(extra)}")
        self.msgid = msgid
        self.args: tuple[Param, ...] = tuple(params[n] for n in names)

    @classmethod
    def of(cls, msgid: str, args: tuple[Param, ...]) -> Message:
        """The message of ``msgid`` with ``args`` already in placeholder order."""
        m = object.__new__(cls)
        m.msgid = msgid
        m.args = args
        return m

    @property
    def params(self) -> dict[str, Param]:
        """The parameters by name."""
        return dict(zip(placeholders(self.msgid), self.args, strict=True))

    def render(self, tr: Translator | None = None) -> str:
        """This message in the language of ``tr`` (English when None)."""
        return text(self.msgid, self.args, tr)

    def __str__(self) -> str:
        return text(self.msgid, self.args, None)

    def __repr__(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Message({self.msgid!r}{params})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Message):
            return self.msgid == other.msgid and self.args == other.args
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.msgid, self.args))


class Text(str):
    """English text that keeps its :class:`Message` (``.msg``): a ``str``
    (the English, ``msgid % params``: compares, joins and encodes to JSON as
    that string) for the places that hold plain strings (a list of problems,
    a ``message`` field), rendered in another language by :func:`render`.

    >>> t = Text.of(Message("position %(pos)s carries no finding to rule on", pos=4))
    >>> t == "position 4 carries no finding to rule on", t.msg.params
    (True, {'pos': 4})
    """

    msg: Message

    @classmethod
    def of(cls, msg: Message) -> Text:
        t = cls(str(msg))
        t.msg = msg
        return t


def render(value: Param | None, tr: Translator | None = None) -> str:
    """``value`` in the language of ``tr`` (English when None): a
    :class:`Message` (or a :class:`Text`'s) rendered, a tuple rendered item
    by item and joined by ``", "``, anything else as ``str()`` gives it."""
    if isinstance(value, Message):
        return text(value.msgid, value.args, tr)
    if isinstance(value, Text):
        return text(value.msg.msgid, value.msg.args, tr)
    if isinstance(value, tuple):
        return ", ".join(render(v, tr) for v in value)
    return str(value)


def text(msgid: str, args: tuple[Param, ...], tr: Translator | None = None) -> str:
    """``gettext(msgid) % params`` (``msgid % params`` in English), each
    parameter rendered by :func:`render` in the same language."""
    out = msgid if tr is None else tr.gettext(msgid)
    if not args:
        return out
    names = placeholders(msgid)
    return out % {n: v if type(v) is str else render(v, tr) for n, v in zip(names, args, strict=True)}


#: two clauses joined by "and" (or two options by "or"), as the rules join them
AND = N_("%(first)s and %(second)s")
OR = N_("%(first)s or %(second)s")


def and_(*parts: Param) -> Param:
    """``parts`` joined by "and" (one part: itself); a nested message."""
    return _joined(AND, parts)


def or_(*parts: Param) -> Param:
    """``parts`` joined by "or" (one part: itself); a nested message."""
    return _joined(OR, parts)


def _joined(msgid: str, parts: Iterable[Param]) -> Param:
    items = list(parts)
    out = items[0]
    for part in items[1:]:
        out = Message.of(msgid, (out, part))
    return out


__all__ = [
    "AND",
    "OR",
    "Message",
    "N_",
    "Param",
    "Text",
    "Translator",
    "and_",
    "or_",
    "placeholders",
    "render",
    "text",
]
