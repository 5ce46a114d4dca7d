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
from gettext import NullTranslations
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ledger.errors import RecordError
from ledger.events import Event
from ledger.i18n import N_, env_lang, translations
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


def tr_of(ctx: click.Context | None = None) -> NullTranslations:
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


#: click's own words on a help page (click's gettext domain has no Italian), msgids of the CLI's
#: catalog: the usage line, the section headings, the help and version options, an option's extras
CLICK_WORDS = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("[OPTIONS]"),
    N_("COMMAND [ARGS]..."),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("default: %(default)s"),
    N_("(dynamic)"),
    N_("env var: %(var)s"),
    N_("required"),
)
#: the metavars of options translated on a help page (``--since DATE``: ``DATA``)
METAVARS = (N_("DATE"),)


class TranslatedFormatter(click.HelpFormatter):
    """click's help formatter with click's words (the usage line's
    ``Usage:``, the headings ``Options``, ``Commands``) in the language of
    ``tr``; the same text as click's in English."""

    def __init__(self, tr: Any, width: int | None = None) -> None:
        super().__init__(width=width)
        self.tr = tr

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, self.tr.gettext("Usage:") + " " if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        super().write_heading(self.tr.gettext(heading))


def _help_record(param: click.Parameter, ctx: click.Context, tr: Any) -> tuple[str, str] | None:
    """An option's line on a help page (click's :meth:`click.Option.get_help_record`)
    with its help and click's extras (``[default: …]``, ``[required]``) in the language of ``tr``."""
    if type(tr) is NullTranslations or not isinstance(param, click.Option):
        return param.get_help_record(ctx)
    if param.hidden:
        return None
    _ = tr.gettext
    extra = param.get_help_extra(ctx)
    items = [_("env var: %(var)s") % {"var": ", ".join(extra["envvars"])}] if "envvars" in extra else []
    if "default" in extra:
        shown = extra["default"]
        items.append(_("default: %(default)s") % {"default": _("(dynamic)") if shown == "(dynamic)" else shown})
    if "range" in extra:
        items.append(extra["range"])
    if "required" in extra:
        items.append(_("required"))
    text = _(param.help) if param.help else ""
    if items:
        text = f"{text}  [{'; '.join(items)}]" if text else f"[{'; '.join(items)}]"
    return param.get_help_spec(ctx), text


class Translated:
    """Help in the invocation's language (:func:`tr_of`), for a click command
    or group: its ``help`` (each paragraph: :func:`paragraphs`) and its
    options' ``help`` are msgids of the catalog (marked
    :func:`ledger.i18n.N_`), translated when the help is shown (``--help``,
    the group's list of commands), and so are click's own words on the page
    (:data:`CLICK_WORDS`: ``Usage:``, ``Options:``, ``[default: …]``…;
    :class:`TranslatedFormatter`). A usage error's lines stay click's."""

    help: str | None
    params: list[click.Parameter]
    options_metavar: str | None

    def _shown(self, ctx: click.Context | None) -> Any:
        """A copy of this command with its help, its options' help and metavars translated."""
        tr = tr_of(ctx)
        shown = copy.copy(self)
        shown.help = _translated(self.help, tr) if self.help else self.help
        if self.options_metavar:
            shown.options_metavar = tr.gettext(self.options_metavar)
        if isinstance(shown, click.Group) and shown.subcommand_metavar:
            shown.subcommand_metavar = tr.gettext(shown.subcommand_metavar)
        shown.params = []
        for param in self.params:
            text = getattr(param, "help", None)
            if text or param.metavar in METAVARS:
                param = copy.copy(param)
                if text:
                    param.help = tr.gettext(text)  # an Option's, an Argument's
                if param.metavar in METAVARS:
                    param.metavar = tr.gettext(param.metavar)
            shown.params.append(param)
        return shown

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        page = TranslatedFormatter(tr_of(ctx), width=formatter.width)
        super(Translated, self._shown(ctx)).format_help(ctx, page)  # type: ignore[misc]
        formatter.write(page.getvalue())

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's :meth:`click.Command.format_options` (and a group's list
        of commands after), each option's line by :func:`_help_record`."""
        tr = tr_of(ctx)
        params = [p for p in self.get_params(ctx) if not isinstance(p, click.Argument)]  # type: ignore[attr-defined]
        opts = [rv for rv in (_help_record(p, ctx, tr) for p in params) if rv is not None]
        if opts:
            with formatter.section("Options"):  # the heading: TranslatedFormatter's
                formatter.write_dl(opts)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)

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
    :meth:`~ledger.errors.RecordError.text`; English when None).

    >>> error_line(RecordError("REC-FORMAT", "unknown field 'colour'", line=3, field="colour"), "a.jsonl")
    "a.jsonl:3: colour: REC-FORMAT: unknown field 'colour'"
    """
    if err.path is None:
        err = err.with_location(path=str(path) if path is not None else "<record>")
    return describe_error(err, tr)


def describe_error(err: RecordError, tr: Any = None) -> str:
    """:meth:`RecordError.describe` in the language of ``tr`` (English when None)."""
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
    return ": ".join(p for p in (where, err.field, err.rule, err.text(tr)) if p)


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
