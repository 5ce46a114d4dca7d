"""What every command of the ``rummy-ledger`` CLI shares: the invocation's
state (``--db``, ``--lang``, the lazily opened store), its translations, the
commands whose ``--help`` is translated (:class:`Translated`), the console,
the ``file:line: field: RULE: message`` error line and the one loader of
``GAME|FILE`` arguments.

The group (:mod:`ledger.cli`) makes one :class:`CliState` per invocation and
passes it to the commands as click's ``obj``.
"""

from __future__ import annotations

import copy
import errno
import os
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ledger.errors import RecordError
from ledger.events import Event
from ledger.i18n import env_lang, translations
from ledger.message_texts import message_text
from ledger.record_files import read_record
from ledger.replay import validate
from ledger.store.application import LedgerApp, open_app
from ledger.store.settings import describe_store, store_env


class CliState:
    """Per-invocation state: the ``--db`` option and the lazily opened store."""

    def __init__(self, db: str | None, lang: str | None = None) -> None:
        self.db = db
        #: the language of human output (``--lang``, else the locale variables): ``en`` or ``it``
        self.lang = lang or env_lang()
        #: its gettext translations (:mod:`ledger.i18n`)
        self.tr = translations(self.lang)
        self._app: LedgerApp | None = None

    @property
    def store(self) -> str:
        try:
            return describe_store(store_env(self.db))
        except ValueError:
            return str(self.db)

    def app(self, create: bool = False) -> LedgerApp:
        """The store, opened on first use. Commands that only read leave
        ``create`` False: where no SQLite file exists they fail with
        :class:`~ledger.store.probe.StoreMissingError` instead of creating an
        empty store; writes (import, append, rule, token create) pass True."""
        if self._app is None:
            self._app = open_app(self.db, create=create)
        return self._app

    @property
    def opened(self) -> bool:
        """True once the store has been opened."""
        return self._app is not None

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
            self._app = None


def console(stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr) that prints the user's names, ids
    and paths as they are (no ``[markup]``, no ``:emoji:``); 160 columns when
    not on a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else 160, highlight=False, markup=False, emoji=False)


def tr_of(ctx: click.Context | None = None) -> Any:
    """The translations of this invocation (``--lang``, else the locale
    variables). Before the group's callback has run (``rummy-ledger --lang it
    --help``), the ``--lang`` the group has read (an eager option, read
    before ``--help`` when it comes first)."""
    ctx = ctx or click.get_current_context(silent=True)
    state = ctx.find_object(CliState) if ctx is not None else None
    if state is not None:
        return state.tr
    lang = ctx.find_root().params.get("lang") if ctx is not None else None
    return translations(lang or env_lang())


def paragraphs(*texts: str) -> str:
    """A command's help of several paragraphs, each its own msgid (marked
    :func:`ledger.i18n.N_`; a block of command lines, ``\b`` first, is not
    one and stays as it is), as :class:`Translated` translates them."""
    return "\n\n".join(texts)


def _translated(text: str, tr: Any) -> str:
    """``text`` (a help: :func:`paragraphs`) translated paragraph by paragraph."""
    return "\n\n".join(tr.gettext(part) for part in text.split("\n\n"))


class Translated:
    """Help in the invocation's language (:func:`tr_of`), for a click command
    or group: its ``help`` (each paragraph: :func:`paragraphs`) and its
    options' ``help`` are msgids of the CLI's catalog (marked
    :func:`ledger.i18n.N_`), translated when the help is shown (``--help``,
    the group's list of commands). Click's own words (``Usage:``,
    ``Options:``, ``[default: …]``) stay click's."""

    help: str | None
    params: list[click.Parameter]

    def _shown(self, ctx: click.Context | None) -> Any:
        """A copy of this command with its help and its options' help translated."""
        tr = tr_of(ctx)
        shown = copy.copy(self)
        shown.help = _translated(self.help, tr) if self.help else self.help
        shown.params = []
        for param in self.params:
            text = getattr(param, "help", None)
            if text:
                param = copy.copy(param)
                param.help = tr.gettext(text)  # an Option's
            shown.params.append(param)
        return shown

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super(Translated, self._shown(ctx)).format_help(ctx, formatter)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        return str(super(Translated, self._shown(None)).get_short_help_str(limit))  # type: ignore[misc]


class TranslatedCommand(Translated, click.Command):
    """A click command whose help is shown in the invocation's language (:class:`Translated`)."""


class TranslatedGroup(Translated, click.Group):
    """A click group whose help, and its commands' help, is shown in the invocation's language."""

    command_class = TranslatedCommand
    group_class = type  # a group made by this one is of its class


def error_line(err: RecordError, path: str | os.PathLike[str] | None = None, tr: Any = None) -> str:
    """``file:line: field: RULE: message`` (parts that are unknown are left out),
    in the language of ``tr`` (the words around the ids and the messages
    :func:`ledger.message_texts.message_text` knows; English when None).

    >>> error_line(RecordError("REC-FORMAT", "unknown field 'colour'", line=3, field="colour"), "a.jsonl")
    "a.jsonl:3: colour: REC-FORMAT: unknown field 'colour'"
    """
    if err.path is None:
        err = err.with_location(path=str(path) if path is not None else "<record>")
    if tr is None:
        return err.describe()
    _ = tr.gettext
    if err.line is not None:
        where = f"{err.path}:{err.line}" if err.path else _("line %(line)s") % {"line": err.line}
    elif err.position is not None:
        at = _("position %(pos)s") % {"pos": err.position}
        where = f"{err.path}: {at}" if err.path else at
    else:
        where = err.path or ""
    return ": ".join(p for p in (where, err.field, err.rule, message_text(err.message, tr)) if p)


def load(state: CliState, target: str) -> tuple[str, list[Event]]:
    """Events of a record file (validated) or of a stored game id.

    Raises :class:`FileNotFoundError` for a path that does not exist (a
    target with a ``/`` or ending ``.jsonl`` cannot be a game id),
    :class:`GameNotFoundError` for an unknown id.
    """
    path = Path(target)
    if path.is_file():
        record = read_record(path)
        validate(record)
        return record.game_id or target, list(record.events)
    if "/" in target or os.sep in target or target.endswith(".jsonl"):
        raise FileNotFoundError(errno.ENOENT, "no such record file (nor a stored game id)", target)
    return target, state.app().get_events(target)
