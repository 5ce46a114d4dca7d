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
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click
from eventsourcing.domain import EventSourcingError
from eventsourcing.utils import TopicError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ledger import __version__
from ledger.analytics_cli import register, update_after_import
from ledger.audit import report as audit_report
from ledger.cli_write import register as register_write
from ledger.errors import GameConflictError, GameNotFoundError, LedgerError, RecordError, RuleViolationError
from ledger.events import Event
from ledger.finding_texts import finding_text
from ledger.i18n import LANGUAGES, env_lang, translations
from ledger.params import ASCII_INT, AsciiInt, VariantChoice, ascii_int
from ledger.records import encode_record, find_record_files, read_record
from ledger.redaction import visible_findings
from ledger.render import render_score, render_state
from ledger.replay import Replayer, replay, validate
from ledger.rule_texts import rule_text
from ledger.rulings import Ruling, by_finding, rewound_by
from ledger.scoring import score_sheet
from ledger.seal_cli import register as register_seal
from ledger.seal_cli import seal_list, short_or_missing
from ledger.store.application import DB_ENV_VAR, ImportResult, LedgerApp, describe_store, open_app, store_env
from ledger.store.probe import REASONS as STORE_REASONS
from ledger.store.probe import StoreMissingError, StoreUnreachableError
from ledger.token_cli import register as register_tokens
from ledger.views import move_text

PROGRESS_MIN_FILES = 10

try:  # psycopg is a dependency, but keep the CLI importable without it
    import psycopg

    _DB_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, psycopg.Error)
except ImportError:  # pragma: no cover
    _DB_ERRORS = (sqlite3.Error,)
#: the store's errors: reported naming the store, never as a traceback
_STORE_ERRORS: tuple[type[BaseException], ...] = (EventSourcingError, TopicError, *_DB_ERRORS)


def _console(stderr: bool = False) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    # names, ids and paths are the user's: printed as they are (no [markup], no :emoji:)
    return Console(stderr=stderr, width=None if stream.isatty() else 160, highlight=False, markup=False, emoji=False)


def _fail(message: str, tr: Any = None) -> None:
    prefix = tr.gettext("rummy-ledger: error: %(message)s") if tr is not None else "rummy-ledger: error: %(message)s"
    click.echo(prefix % {"message": message}, err=True)


def _tr(ctx: click.Context | None = None) -> Any:
    """The translations of this invocation (``--lang``, else the locale variables)."""
    ctx = ctx or click.get_current_context(silent=True)
    state = ctx.find_object(_State) if ctx is not None else None
    return state.tr if state is not None else translations(env_lang())


def not_found_text(exc: GameNotFoundError, tr: Any) -> str:
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


class _Guarded(click.Group):
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
            _fail(_tr(ctx).gettext("interrupted"), _tr(ctx))
            ctx.exit(130)
        except GameNotFoundError as exc:
            if exc.store is None and isinstance(ctx.obj, _State) and ctx.obj.opened:
                exc = ctx.obj.app().not_found(exc.game_id)  # raised without the store's names (e.g. by sealstore)
            _fail(not_found_text(exc, _tr(ctx)), _tr(ctx))
        except StoreMissingError as exc:
            tr = _tr(ctx)
            _fail(
                tr.gettext("no store at %(path)s (import a record first: rummy-ledger import FILE)")
                % {"path": exc.path},
                tr,
            )
        except StoreUnreachableError as exc:
            _fail(_tr(ctx).gettext(STORE_REASONS[exc.kind]) % exc.params, _tr(ctx))
        except (LedgerError, ValueError) as exc:
            _fail(str(exc), _tr(ctx))
        except OSError as exc:
            _fail(exc.strerror and exc.filename and f"{exc.filename}: {exc.strerror}" or str(exc))
        except _STORE_ERRORS as exc:
            store = ctx.obj.store if isinstance(ctx.obj, _State) else "the store"
            _fail(f"store {store}: {type(exc).__name__}: {exc}".strip())
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            _fail(f"internal error ({type(exc).__name__}: {exc}); please report it")
        ctx.exit(2)


class _State:
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


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    metavar="PATH|URL",
    default=None,
    help=f"Store: SQLite file or postgresql:// URL (default: ${DB_ENV_VAR}, else eventsourcing's PERSISTENCE_MODULE "
    "settings, else ./ledger.db).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    help="Language of the human output: it or en (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG; else en). Never "
    "--json.",
)
@click.version_option(__version__, prog_name="rummy-ledger")
@click.pass_context
def cli(ctx: click.Context, db: str | None, lang: str | None) -> None:
    """Import, list, show, export and check rummy game records (rummy-ledger/1)."""
    state = _State(db, lang)
    ctx.obj = state
    ctx.call_on_close(state.close)


def error_line(err: RecordError, path: str | os.PathLike[str] | None = None) -> str:
    """``file:line: field: RULE: message`` (parts that are unknown are left out).

    >>> error_line(RecordError("REC-FORMAT", "unknown field 'colour'", line=3, field="colour"), "a.jsonl")
    "a.jsonl:3: colour: REC-FORMAT: unknown field 'colour'"
    """
    if err.path is None:
        err = err.with_location(path=str(path) if path is not None else "<record>")
    return err.describe()


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--no-analytics", is_flag=True, help="Do not bring the DuckDB analytics view up to date afterwards.")
@click.option(
    "--strict", is_flag=True, help="Refuse records that break a rule too (live play), not only impossible ones."
)
@click.pass_obj
def import_cmd(state: _State, paths: tuple[Path, ...], no_analytics: bool, strict: bool) -> None:
    """Import record files (folders are searched for *.jsonl).

    Each file is stored whole or not at all; a rejected file prints
    ``file:line: field: RULE: message`` and the others go on. Then the
    analytics view is brought up to date (unless --no-analytics). Exit 1 when
    any file was rejected.
    """
    files = find_record_files(paths)
    app = state.app(create=True)
    err = _console(stderr=True)
    tally = {k: [0, 0, 0] for k in ("stored", "appended", "already stored", "rejected")}  # files, games, events

    def one(path: Path, result: ImportResult | Exception) -> None:
        if isinstance(result, RecordError):
            problem = error_line(result, path)
        elif isinstance(result, RuleViolationError):
            problem = str(result)
        elif isinstance(result, GameConflictError):
            problem = f"{path}: {result}"
        elif isinstance(result, OSError):
            problem = f"{path}: cannot read: {result.strerror or result}"
        elif isinstance(result, Exception):
            raise result
        else:
            row = tally[result.status.replace("_", " ")]
            row[0] += 1
            row[1] += 1
            row[2] += result.appended if result.status == "appended" else result.events
            if result.status == "appended":
                n = result.appended
                text = state.tr.ngettext(
                    "%(game)s: %(num)s event appended (%(first)s → %(length)s)",
                    "%(game)s: %(num)s events appended (%(first)s → %(length)s)",
                    n,
                )
                _console().print(
                    text % {"game": result.game_id, "num": n, "first": result.previous, "length": result.events},
                    markup=False,
                    soft_wrap=True,
                )
            return
        tally["rejected"][0] += 1
        err.print(Text(problem), soft_wrap=True)

    if len(files) >= PROGRESS_MIN_FILES and err.is_terminal:
        columns = (TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as progress:
            task = progress.add_task("import", total=len(files))
            for path, result in app.import_records(files, strict=strict):
                one(path, result)  # type: ignore[arg-type]  # the CLI passes Paths: they come back as the sources
                progress.advance(task)
    else:
        for path, result in app.import_records(files, strict=strict):
            one(path, result)  # type: ignore[arg-type]  # the CLI passes Paths: they come back as the sources

    _ = state.tr.gettext
    table = Table(title=Text(_("import into %(store)s") % {"store": state.store}), title_justify="left")
    for name in ("", _("files"), _("games"), _("events")):
        table.add_column(name, justify="left" if not name else "right")
    rows = {
        "stored": _("stored"),
        "appended": _("appended"),
        "already stored": _("already stored"),
        "rejected": _("rejected"),
    }
    for name, (nfiles, games, events) in tally.items():
        table.add_row(
            rows[name],
            str(nfiles),
            str(games) if name != "rejected" else "-",
            str(events) if name != "rejected" else "-",
        )
    _console().print(table)
    if not files:
        click.echo(_("no record files found"), err=True)
    if not no_analytics and (tally["stored"][0] or tally["appended"][0]):
        update_after_import(app, state.db)
    if tally["rejected"][0]:
        sys.exit(1)


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game.")
@click.pass_obj
def list_cmd(state: _State, as_json: bool) -> None:
    """List stored games: id, variant, players, hands, events."""
    games = state.app().list_games()
    if as_json:
        for g in games:
            click.echo(json.dumps(g.to_json(), ensure_ascii=False))
        return
    _, ngettext = state.tr.gettext, state.tr.ngettext
    if not games:
        click.echo(_("no games in %(store)s") % {"store": state.store})
        return
    title = ngettext("%(num)s game in %(store)s", "%(num)s games in %(store)s", len(games)) % {
        "num": len(games),
        "store": state.store,
    }
    table = Table(title=Text(title), title_justify="left")
    table.add_column(_("game"), overflow="fold")
    table.add_column(_("variant"))
    table.add_column(_("players"), overflow="fold")
    table.add_column(_("hands"), justify="right")
    table.add_column(_("events"), justify="right")
    for g in games:
        table.add_row(
            Text(g.game_id),
            Text(g.variant + (f" ({g.ruleset})" if g.ruleset else "")),
            Text(", ".join(g.players)),
            str(g.hands),
            str(g.events),
        )
    _console().print(table)


def _load(state: _State, target: str) -> tuple[str, list[Event]]:
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


@cli.command("show")
@click.argument("game")
@click.option("--at", "at", type=ASCII_INT, default=None, help="Show the table state after event position N.")
@click.option(
    "--pov",
    default=None,
    metavar="SEAT|spectator",
    help="With --at: only what seat N (or a spectator, at no seat) could know then.",
)
@click.pass_obj
def show_cmd(state: _State, game: str, at: int | None, pov: str | None) -> None:
    """Print a game's record (GAME is a stored game id or a record file), or with
    --at N the table state after position N (and the moves a referee's
    position_restored rewound, which no longer count)."""
    if pov is not None and at is None:
        raise click.BadParameter("--pov needs --at N (a seat's view of the table at a position)", param_hint="--pov")
    seat: int | str | None = pov
    if pov is not None and pov.strip().lower() != "spectator":
        try:
            seat = ascii_int(pov)
        except ValueError:
            raise click.BadParameter(f"{pov!r} is neither a seat number nor 'spectator'", param_hint="--pov") from None
    elif pov is not None:
        seat = "spectator"
    _, events = _load(state, game)
    if at is None:
        sys.stdout.buffer.write(encode_record(events))
        sys.stdout.flush()
        return
    tr = state.tr
    _ = tr.gettext
    if not 0 <= at < len(events):
        raise click.BadParameter(
            _("position %(at)s is outside 0..%(last)s") % {"at": at, "last": len(events) - 1}, param_hint="--at"
        )
    table = Replayer(events).state_at(at)
    known = (
        events if seat is None else events[: at + 1]
    )  # a seat's view knows no later ruling (FORMAT.md "Per-seat views")
    every = rewound_by(known)
    try:
        header = move_lines(known, at, table, seat, state.lang, every)
        body = render_state(table, pov=seat, tr=tr)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--pov") from None
    click.echo("\n".join(header) + "\n")
    click.echo(body)
    if seat is None:  # a seal hashes hidden cards too: a seat's view shows none
        value = seal_list(state, game, events)[at]
        short = short_or_missing(value) if value else _("none stored (run rummy-ledger verify)")
        click.echo(
            "\n" + _("seal at position %(at)s: %(seal)s") % {"at": at, "seal": short} + (f" ({value})" if value else "")
        )
    if at in every:
        click.echo(
            _("move %(at)s is rewound by the referee at position %(by)s: it no longer counts")
            % {"at": at, "by": every[at]}
        )
    rewound = {p: by for p, by in every.items() if by <= at}
    if rewound:
        by: dict[int, list[int]] = {}
        for p, r in sorted(rewound.items()):
            by.setdefault(r, []).append(p)
        for r, moves in by.items():
            click.echo(
                _("rewound at position %(by)s: moves %(moves)s no longer count") % {"by": r, "moves": _ranges(moves)}
            )


def ruling_text(ruling: Ruling, state: Any, tr: Any) -> str:
    """:meth:`ledger.rulings.Ruling.status` in the language of ``tr``:
    ``ruled at position 16 by Carla Bianchi: penalty -20 to Anna (ALL-TURN-1)``."""
    _ = tr.gettext
    if ruling.kind == "penalty_assessed":
        who = state.name(ruling.seat) if ruling.seat is not None else _("team %(team)s") % {"team": ruling.team}
        what = _("penalty %(points)s to %(who)s (%(rule)s)") % {
            "points": f"{ruling.points:+d}",
            "who": who,
            "rule": ruling.rule,
        }
    else:
        what = _("table restored to move %(target)s") % {"target": ruling.target}
    if ruling.referee:
        return _("ruled at position %(at)s by %(referee)s: %(what)s") % {
            "at": ruling.position,
            "referee": ruling.referee,
            "what": what,
        }
    return _("ruled at position %(at)s: %(what)s") % {"at": ruling.position, "what": what}


def finding_status(
    position: int, index: dict[int, tuple[Ruling, ...]], rewound: dict[int, int], state: Any, tr: Any
) -> str:
    """``open``, ``ruled at position P by NAME: what``, then ``; move rewound
    by position R`` when the finding's move was rewound (as ``audit`` prints it)."""
    found = index.get(position)
    text = ruling_text(found[0], state, tr) if found else tr.gettext("open")
    if position in rewound:
        text += tr.gettext("; move rewound by position %(by)s") % {"by": rewound[position]}
    return text


def move_lines(
    events: list[Event], at: int, after: Any, pov: int | str | None, lang: str, rewound: dict[int, int]
) -> list[str]:
    """The head of ``show --at N``: the move at N in move notation (as
    ``pov`` may read it), its findings with their status and rule text
    (RULES.md, :mod:`ledger.rule_texts`), its note (not in a seat's view:
    free text may name any card) and its time (``at``) when recorded;
    ``after`` is the table after the move, ``lang`` the language."""
    tr = translations(lang)
    _ = tr.gettext
    event = events[at]
    lines = [_("move %(at)s: %(text)s") % {"at": at, "text": move_text(event, after, pov, tr)}]
    found = [f for f in (after.findings if pov is None else visible_findings(after, pov)) if f.position == at]
    index = by_finding(events)
    for f in found:
        status = finding_status(f.position, index, rewound, after, tr)
        lines.append(
            _("  finding %(rule)s: %(message)s  [%(status)s]")
            % {"rule": f.rule, "message": finding_text(f.message, tr), "status": status}
        )
        text = rule_text(f.rule, lang)
        if text:
            lines.append("    " + _("rule %(rule)s: %(text)s") % {"rule": f.rule, "text": text})
    if event.note and pov is None:
        lines.append(_("  note: %(note)s") % {"note": event.note})
    if event.at:
        lines.append(_("  at: %(at)s") % {"at": event.at})
    return lines


def _ranges(positions: list[int]) -> str:
    """``[7, 8, 9, 12]`` -> ``"7–9, 12"``."""
    out: list[str] = []
    start = prev = positions[0]
    for p in positions[1:] + [None]:
        if p is not None and p == prev + 1:
            prev = p
            continue
        out.append(str(start) if start == prev else f"{start}–{prev}")
        if p is not None:
            start = prev = p
    return ", ".join(out)


@cli.command("export")
@click.argument("game")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to FILE instead of stdout.",
)
@click.option(
    "--with-journal",
    is_flag=True,
    help="Precede each event with a // journal comment: who appended it and when (readers ignore it).",
)
@click.pass_obj
def export_cmd(state: _State, game: str, output: Path | None, with_journal: bool = False) -> None:
    """Write a stored game back as a canonical JSON Lines record (with
    --with-journal, plus // journal {"position","by","received_at"} comment lines)."""
    data = state.app().export_record(game, with_journal=with_journal)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        output.write_bytes(data)
        count = sum(1 for line in data.splitlines() if not line.startswith(b"//"))
        click.echo(f"wrote {count} events of {game} to {output}", err=True)


@cli.command("schema")
@click.option("--check", is_flag=True, help="Exit 1 when the files differ from the generated schema.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder (default: the checkout's schemas/).",
)
def schema_cmd(check: bool, out: Path | None) -> None:
    """Generate the JSON Schema (2020-12) files of the record format."""
    from ledger import schema

    sys.exit(schema.main((["--check"] if check else []) + (["--out", str(out)] if out else [])))


def _targets(state: _State, targets: tuple[str, ...]) -> list[str]:
    """Stored game ids and record files; folders expand to their ``*.jsonl``
    files; no target means every stored game."""
    if not targets:
        return [g.game_id for g in state.app().list_games()]
    found: list[str] = []
    for t in targets:
        found.extend(str(f) for f in find_record_files([t])) if Path(t).is_dir() else found.append(t)
    return found


@cli.command("audit")
@click.argument("targets", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (FORMAT.md).")
@click.pass_obj
def audit_cmd(state: _State, targets: tuple[str, ...], as_json: bool) -> None:
    """Audit games (stored ids or record files; default: every stored game).
    Exit 0 no findings, 1 findings, 2 a record rejected."""
    status = 0
    for target in _targets(state, targets):
        try:
            game_id, events = _load(state, target)
            final = replay(events)
            index = by_finding(events)
            report = audit_report(final).to_json(index)
        except RecordError as exc:
            status = 2
            if as_json:
                click.echo(json.dumps({"error": exc.as_json()}, ensure_ascii=False))
            else:
                click.echo(error_line(exc, target), err=True)
            continue
        report.setdefault("game_id", game_id)
        seals = seal_list(state, target, events)
        report["seal"], report["length"] = seals[-1], len(seals)
        findings = report.get("findings", [])
        status = max(status, 1 if findings else 0)
        if as_json:
            click.echo(json.dumps(report, ensure_ascii=False))
            continue
        _, ngettext = state.tr.gettext, state.tr.ngettext
        click.echo(
            ngettext("%(game)s: %(num)s finding", "%(game)s: %(num)s findings", len(findings))
            % {"game": report["game_id"], "num": len(findings)}
        )
        rewound = rewound_by(events)
        for f in findings:
            parts = (
                f.get("hand") is not None and _("hand %(hand)s") % {"hand": f["hand"]},
                f.get("seat") is not None and _("seat %(seat)s") % {"seat": f["seat"]},
            )
            who = ", ".join(p for p in parts if p)
            ruled = finding_status(f["position"], index, rewound, final, state.tr)
            where = _("position %(at)s") % {"at": f["position"]} + (f" ({who})" if who else "")
            click.echo(f"  {where}: {f['rule']}: {finding_text(f['message'], state.tr)}  [{ruled}]")
            if state.lang != "en" and rule_text(
                f["rule"], state.lang
            ):  # beside the message, the rule in the reader's words
                click.echo(
                    "      "
                    + _("rule %(rule)s: %(text)s") % {"rule": f["rule"], "text": rule_text(f["rule"], state.lang)}
                )
    sys.exit(status)


@cli.command("score")
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help="The score sheet as JSON (FORMAT.md).")
@click.pass_obj
def score_cmd(state: _State, target: str, as_json: bool) -> None:
    """Score a game (stored id or record file): each hand with the breakdown,
    claimed points that differ, running totals and the winner. Exit 2 when the
    record is rejected."""
    try:
        game_id, events = _load(state, target)
        final = replay(events)
    except RecordError as exc:
        if as_json:
            click.echo(json.dumps({"error": exc.as_json()}, ensure_ascii=False))
        else:
            click.echo(error_line(exc, target), err=True)
        sys.exit(2)
    sheet = score_sheet(final)
    seals = seal_list(state, target, events)
    if as_json:
        click.echo(json.dumps({**sheet.to_json(), "seal": seals[-1]}, ensure_ascii=False))
        return
    _ = state.tr.gettext
    click.echo(render_score(sheet, final, played=score_sheet(final, adjudicated=False), tr=state.tr))
    short = short_or_missing(seals[-1]) if seals[-1] else _("none stored (run rummy-ledger verify)")
    click.echo(
        state.tr.ngettext("seal: %(seal)s (after %(num)s event)", "seal: %(seal)s (after %(num)s events)", len(seals))
        % {"seal": short, "num": len(seals)}
    )


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=ASCII_INT)
@click.pass_obj
def serve_cmd(state: _State, host: str, port: int) -> None:
    """Serve the replay viewer, the write API and the live stream (replay_web) on the store.

    Werkzeug's threaded server, for one machine; in production use gunicorn
    with threads (each open stream holds one):
    gunicorn -k gthread -w 2 --threads 64 'replay_web:create_app()'."""
    from replay_web import create_app

    if state.db:
        os.environ[DB_ENV_VAR] = state.db  # for anything else that opens the store
    click.echo(f"serving {state.store} on http://{host}:{port}/ (Ctrl-C stops)", err=True)
    create_app({"LEDGER_DB": state.db} if state.db else None).run(host=host, port=port, threaded=True)


@cli.command("simulate")
@click.option("--variant", required=True, type=VariantChoice(simulated=True), help="Variant to play.")
@click.option("--ruleset", default=None, help="Preset (default: the variant's).")
@click.option("--players", type=AsciiInt(2, 6), default=2, show_default=True, help="Seats at the table.")
@click.option("--games", type=AsciiInt(min=1), required=True, help="How many complete games to write.")
@click.option("--seed", type=ASCII_INT, required=True, help="Random seed: the same seed writes the same games.")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder for the .jsonl records."
)
@click.option(
    "--violations",
    type=click.FloatRange(0.0, 1.0),
    default=0.0,
    show_default=True,
    help="Per-turn rate of injected rule violations (written beside each record as NAME.injected.json).",
)
def simulate_cmd(
    variant: str, ruleset: str | None, players: int, games: int, seed: int, out: Path, violations: float
) -> None:
    """Write simulated complete games played by simple heuristic players.

    Every record has the full deal and stock order; with --violations the
    injected rule ids and positions are written beside each record.
    """
    from ledger.simulate import simulate_main
    from ledger.variants import find_variant

    rules = find_variant(variant)
    if ruleset is not None and ruleset not in rules.presets:
        raise click.BadParameter(
            f"{ruleset!r} is not a {variant} preset (known: {', '.join(sorted(rules.presets))})", param_hint="--ruleset"
        )
    if players not in rules.players_allowed:
        allowed = ", ".join(str(n) for n in rules.players_allowed)
        raise click.BadParameter(f"{variant} is played by {allowed} players", param_hint="--players")
    paths = simulate_main(variant, ruleset, players, games, seed, out, violations)
    click.echo(f"{len(paths)} games written to {out}")


@cli.command("import-openspiel")
@click.argument("source")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the record here (default: standard output).",
)
@click.option(
    "--game-id",
    default=None,
    help="game_id of the record (default: the file's name; from standard input, openspiel- and a digest of the "
    "history).",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="A gin_rummy parameter of the game (knock_card, gin_bonus, undercut_bonus, oklahoma; repeatable). "
    "For a history or serialize() text, which carry none; must agree with a serialize_game_and_state text's.",
)
@click.option(
    "--partial",
    is_flag=True,
    help="Convert a history that stops before the end of the game (the record then has no hand_ended).",
)
def import_openspiel_cmd(
    source: str, output: str | None, game_id: str | None, params: tuple[str, ...], partial: bool
) -> None:
    """Convert an OpenSpiel gin_rummy game into a rummy-ledger/1 record (preset openspiel).

    SOURCE is a file (or - for standard input) holding the action history as
    integers, the text of OpenSpiel's serialize(), or the text of
    serialize_game_and_state (whose parameters become the record's options).
    An incomplete history is refused unless --partial. Import the result with
    `rummy-ledger import FILE`.
    """
    from ledger.openspiel_import import convert_main

    sys.exit(convert_main(source, output, game_id, params, partial))


register(cli)
register_seal(cli)
register_write(cli)
register_tokens(cli)

from ledger.report_cli import register as _register_report  # noqa: E402

_register_report(cli, _load)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point ``rummy-ledger``."""
    cli.main(args=argv, prog_name="rummy-ledger")


__all__ = ["cli", "main", "error_line"]
if __name__ == "__main__":  # pragma: no cover - python -m ledger.cli
    main()
