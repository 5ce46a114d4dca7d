"""The ``rummy-ledger`` command line (click): a thin shell over the application.

``rummy-ledger [--db PATH|URL] [--lang it|en] COMMAND``; the store is chosen
as in :mod:`ledger.store.application` (``--db``, ``RUMMY_LEDGER_DB``, eventsourcing's
``PERSISTENCE_MODULE``, else ``./ledger.db``). Commands that only read open it
with ``create=False``: where no SQLite file exists they say "no store at PATH"
instead of creating one (:mod:`ledger.store.probe`). Human output is in the
language of ``--lang``, else of the locale variables (:mod:`ledger.i18n`);
``--json`` never is translated.

Exit status: 0 success; 1 something was rejected (``import``), findings
(``audit``) or a stale schema (``schema --check``); 2 an error (bad input to
``audit``/``score``, unknown game, unreadable file, store unreachable). No
traceback reaches the user: errors print one line on stderr.

This module is the group (its options, the guard that turns errors into that
line, :func:`main`); each command group is a module of its own, with
:mod:`ledger.cli.context` (the invocation's state, the ``GAME|FILE`` loader)
shared by them:

- :mod:`~ledger.cli.importing`: ``import``, ``import-openspiel``;
- :mod:`~ledger.cli.reading`: ``list``, ``show``, ``export GAME``, ``schema``;
- :mod:`~ledger.cli.checking`: ``audit``, ``score`` (their finding and
  ruling lines: :mod:`~ledger.cli.findings`);
- :mod:`~ledger.cli.writing`: ``append``, ``rule``;
- :mod:`~ledger.cli.analytics`: ``analytics``, ``query``, ``export --format``;
- :mod:`~ledger.cli.stats`: ``stats PLAYER`` (a player's statistics);
- :mod:`~ledger.cli.seal`: ``seal``, ``keygen``, ``checkpoint``, ``prove``;
  :mod:`~ledger.cli.verify`: ``verify``;
  :mod:`~ledger.cli.backfill`: ``seal-backfill``;
- :mod:`~ledger.cli.report`, :mod:`~ledger.cli.tokens`,
  :mod:`~ledger.cli.serve`, :mod:`~ledger.cli.simulate`: ``report``,
  ``token``, ``serve``, ``simulate``;
- :mod:`~ledger.cli.tournament`: ``tournament create|register|withdraw|adjust|pair|close|standings|report``.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
from typing import Any

import click
from eventsourcing.domain import EventSourcingError
from eventsourcing.utils import TopicError

from ledger import __version__
from ledger.cli.command_table import BEFORE, COMMANDS
from ledger.cli.context import CliState, Translated, TranslatedCommand, describe_error, tr_of
from ledger.errors import GameNotFoundError, LedgerError, RecordError
from ledger.i18n import LANGUAGES, N_
from ledger.sigint import deferred, interrupted
from ledger.store.probe import REASONS as STORE_REASONS
from ledger.store.probe import StoreMissingError, StoreUnreachableError, check_db
from ledger.texts import Translator


def _store_errors() -> tuple[type[BaseException], ...]:
    """The store's errors, reported naming the store, never as a traceback.
    psycopg's only when it is loaded: only a PostgreSQL store loads it (not
    imported here, so that a SQLite run does not carry it; an ``except``
    clause asks at the time an error reaches it)."""
    psycopg = sys.modules.get("psycopg")
    return (EventSourcingError, TopicError, sqlite3.Error, *((psycopg.Error,) if psycopg is not None else ()))


def _fail(message: str, tr: Any = None) -> None:
    prefix = tr.gettext("rummy-ledger: error: %(message)s") if tr is not None else "rummy-ledger: error: %(message)s"
    click.echo(prefix % {"message": message}, err=True)


def not_found_text(exc: GameNotFoundError, tr: Translator) -> str:
    """The unknown-game error in the language of ``tr`` (English: ``str(exc)``)."""
    _ = tr.gettext
    text = _("no game %(game)s in the store") % {"game": repr(exc.game_id)}
    if exc.store:
        text += f" ({exc.store})"
    if exc.suggestions:
        names = exc.suggestions
        either = (
            names[0]
            if len(names) == 1
            else _("%(first)s or %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
        )
        text += _("; did you mean %(names)s?") % {"names": either}
    return text


#: True in the console script's process (:mod:`ledger.console`): passed to
#: :data:`ledger.cli.query.HARD_EXIT` once a command loads that module (not imported before: DuckDB)
HARD_EXIT = False


class LazyGroup(click.Group):
    """A click group that imports a command's module only when the command is
    asked for (click's lazy-group pattern): ``rummy-ledger verify`` does not
    import the analytics commands (DuckDB, PyArrow, NumPy). The list of
    commands and their short help come from :data:`ledger.cli.command_table.COMMANDS`;
    a module is registered (its ``register(group)``) after the modules
    :data:`~ledger.cli.command_table.BEFORE` names, once per group."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS and not self._registered(COMMANDS[cmd_name][0]):
            self._register(COMMANDS[cmd_name][0])
        return self.commands.get(cmd_name)

    def _registered(self, module: str) -> bool:
        """Every command the table gives ``module`` is on this group (``export`` is
        on it once :mod:`ledger.cli.reading` is, but it is the analytics' command)."""
        return all(name in self.commands for name, (owner, _) in COMMANDS.items() if owner == module)

    def _register(self, module: str) -> None:
        for first in BEFORE.get(module, ()):
            if not self._registered(first):
                self._register(first)
        with deferred():  # a Ctrl-C during the import (DuckDB's) comes after it, as one line
            loaded = importlib.import_module(f"ledger.cli.{module}")
        loaded.register(self)
        query = sys.modules.get("ledger.cli.query")
        if HARD_EXIT and query is not None:
            query.__dict__["HARD_EXIT"] = True  # this process is the command's own: query --timeout may end it

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, each line from the table (a command not loaded is not imported)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name) or TranslatedCommand(name, help=COMMANDS[name][1])
            if not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])


class _Guarded(Translated, LazyGroup):
    """Turns every expected failure into one line on stderr and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            sys.stderr.close()  # the reader went away (``| head``): stop quietly
            ctx.exit(0)
        except KeyboardInterrupt:
            _fail(tr_of(ctx).gettext("interrupted"), tr_of(ctx))
            ctx.exit(130)
        except GameNotFoundError as exc:
            if exc.store is None and isinstance(ctx.obj, CliState) and ctx.obj.opened:
                exc = ctx.obj.app().not_found(
                    exc.game_id
                )  # raised without the store's names (e.g. by ledger.sealing.tables)
            _fail(not_found_text(exc, tr_of(ctx)), tr_of(ctx))
        except StoreMissingError as exc:
            tr = tr_of(ctx)
            _fail(
                tr.gettext("no store at %(path)s (import a record first: rummy-ledger import FILE)")
                % {"path": exc.path},
                tr,
            )
        except StoreUnreachableError as exc:
            _fail(tr_of(ctx).gettext(STORE_REASONS[exc.kind]) % exc.params, tr_of(ctx))
        except RecordError as exc:
            _fail(describe_error(exc, tr_of(ctx)), tr_of(ctx))
        except (LedgerError, ValueError) as exc:
            _fail(exc.text(tr_of(ctx)) if isinstance(exc, LedgerError) else str(exc), tr_of(ctx))
        except OSError as exc:
            _fail(exc.strerror and exc.filename and f"{exc.filename}: {exc.strerror}" or str(exc), tr_of(ctx))
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            if interrupted():  # Ctrl-C turned into a library's own error (DuckDB's "Query interrupted")
                _fail(tr_of(ctx).gettext("interrupted"), tr_of(ctx))
                ctx.exit(130)
            if isinstance(exc, _store_errors()):
                store = ctx.obj.store if isinstance(ctx.obj, CliState) else "the store"
                _fail(f"store {store}: {type(exc).__name__}: {exc}".strip())
            else:
                _fail(f"internal error ({type(exc).__name__}: {exc}); please report it")
        ctx.exit(2)


@click.group(
    cls=_Guarded,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=N_("Import, list, show, export and check rummy game records (rummy-ledger/1)."),
)
@click.option(
    "--db",
    metavar="PATH|URL",
    default=None,
    help=N_(
        "Store: SQLite file or postgresql:// URL (default: $RUMMY_LEDGER_DB, else eventsourcing's "
        "PERSISTENCE_MODULE settings, else ./ledger.db)."
    ),
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    is_eager=True,  # read before a --help after it, which it translates
    help=N_(
        "Language of the human output: it or en (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG; else en). "
        "Never --json."
    ),
)
@click.version_option(__version__, prog_name="rummy-ledger")
@click.pass_context
def cli(ctx: click.Context, db: str | None, lang: str | None) -> None:
    """The ``rummy-ledger`` group: the invocation's :class:`CliState` (``--db``, ``--lang``) for its commands."""
    if db is not None:
        check_db(db)  # an empty --db or a folder: refused whatever the command
    state = CliState(db, lang)
    ctx.obj = state
    ctx.call_on_close(state.close)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point ``rummy-ledger``."""
    cli.main(args=argv, prog_name="rummy-ledger")


__all__ = ["LazyGroup", "cli", "main"]
