"""Records coming in: ``rummy-ledger import PATH...`` (record files and
folders into the store, each file whole or not at all, then the analytics
view) and ``rummy-ledger import-openspiel SOURCE`` (an OpenSpiel gin_rummy
game converted into a record file).

Exit status of ``import``: 0 every file stored (or already stored), 1 a file
was rejected (``file:line: field: RULE: message`` on stderr, the others go on).
On a terminal, stderr shows the progress (:class:`_Progress`); elsewhere the
output is the same without it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from gettext import NullTranslations
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ledger.cli.analytics import update_after_import
from ledger.cli.context import CliState, TranslatedCommand, console, error_line, paragraphs, tr_of
from ledger.errors import GameConflictError, RecordError, RuleViolationError
from ledger.i18n import N_
from ledger.record_files import find_record_files
from ledger.store.import_result import ImportResult

#: a progress bar of files done is shown (on a terminal) from this many files
PROGRESS_MIN_FILES = 10
#: seconds between two redraws of the bars (each is drawn at once when it comes and when a file is read)
PROGRESS_REDRAW = 0.1
#: the rows of the summary table, in order (the ImportResult statuses, spaced, and "rejected")
_ROWS = ("stored", "appended", "already stored", "rejected")


def _problem(path: Path, result: Exception, tr: Any) -> str:
    """The line that says why the file at ``path`` was rejected; an
    unexpected exception is raised again (the group reports it)."""
    if isinstance(result, RecordError):
        return error_line(result, path, tr)
    if isinstance(result, RuleViolationError):
        return str(result)
    if isinstance(result, GameConflictError):
        return f"{path}: {result.text(tr)}"
    if isinstance(result, OSError):
        return f"{path}: cannot read: {result.strerror or result}"
    raise result


class _Tally:
    """Files, games and events per row of the summary; prints each
    appended game's line and each rejected file's problem as they come."""

    def __init__(self, tr: NullTranslations, err: Console) -> None:
        self.tr = tr
        self.err = err
        self.rows = {k: [0, 0, 0] for k in _ROWS}  # files, games, events

    def count(self, path: Path, result: ImportResult | Exception) -> None:
        if isinstance(result, Exception):
            problem = _problem(path, result, self.tr)
            self.rows["rejected"][0] += 1
            self.err.print(Text(problem), soft_wrap=True)
            return
        row = self.rows[result.status.replace("_", " ")]
        row[0] += 1
        row[1] += 1
        row[2] += result.appended if result.status == "appended" else result.events
        if result.status == "appended":
            n = result.appended
            text = self.tr.ngettext(
                "%(game)s: %(num)s event appended (%(first)s → %(length)s)",
                "%(game)s: %(num)s events appended (%(first)s → %(length)s)",
                n,
            )
            console().print(
                text % {"game": result.game_id, "num": n, "first": result.previous, "length": result.events},
                markup=False,
                soft_wrap=True,
            )

    def files(self, row: str) -> int:
        return self.rows[row][0]

    def title(self, store: str) -> str:
        """The summary's heading line (printed on its own line: a long path neither wraps nor pads)."""
        return self.tr.gettext("import into %(store)s") % {"store": store}

    def table(self) -> Table:
        """The summary: one row per outcome, files, games and events."""
        _ = self.tr.gettext
        table = Table()
        for name in ("", _("files"), _("games"), _("events")):
            table.add_column(name, justify="left" if not name else "right")
        names = {
            "stored": _("stored"),
            "appended": _("appended"),
            "already stored": _("already stored"),
            "rejected": _("rejected"),
        }
        for name, (nfiles, games, events) in self.rows.items():
            table.add_row(
                names[name],
                str(nfiles),
                str(games) if name != "rejected" else "-",
                str(events) if name != "rejected" else "-",
            )
        return table


class _DoneColumn(ProgressColumn):
    """How much of a bar is done: ``3/12`` files, or ``120.0/980.0 MiB`` of
    a file read (a task with the field ``bytes``)."""

    def __init__(self) -> None:
        super().__init__()
        self.files = MofNCompleteColumn()
        self.bytes = DownloadColumn(binary_units=True)

    def render(self, task: Task) -> Text:
        return (self.bytes if task.fields.get("bytes") else self.files).render(task)


class _Progress:
    """The progress of an import, on a terminal's stderr (rich bars, cleared
    at the end): a bar of files done, from :data:`PROGRESS_MIN_FILES` files;
    and, while a long file is imported as it is read
    (:func:`ledger.store.streamed.import_streamed`, files of
    :data:`~ledger.store.streamed.STREAM_MIN_BYTES` or more), a bar of its
    bytes read out of its size, under the first. Nothing is drawn until a
    bar is needed; the labels are in the CLI's language (``tr``)."""

    def __init__(self, files: int, err: Console, tr: Any) -> None:
        self.err, self.tr = err, tr
        self.bar: Progress | None = None
        self.files: TaskID | None = None
        self.reading: tuple[object, TaskID] | None = None  # the file being read, its bar
        self.drawn = 0.0  # time.monotonic() of the last redraw
        if files >= PROGRESS_MIN_FILES:
            self.files = self._bar().add_task(tr.gettext("importing"), total=files)

    def _bar(self) -> Progress:
        if self.bar is None:
            columns = (
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                _DoneColumn(),
                TimeRemainingColumn(),
            )
            # stdout's lines (a game appended) go above the bars only when stdout is this terminal too
            # drawn by this thread only (no refresh thread): the import's workers are forked
            # while the bars are up, and a fork copies no thread, only the locks it held
            self.bar = Progress(
                *columns,
                console=self.err,
                transient=True,
                redirect_stdout=sys.stdout.isatty(),
                auto_refresh=False,
            )
            self.bar.start()
        return self.bar

    def _draw(self, now: bool = False) -> None:
        """Redraw the bars, at most every :data:`PROGRESS_REDRAW` seconds unless ``now``."""
        t = time.monotonic()
        if self.bar is not None and (now or t - self.drawn >= PROGRESS_REDRAW):
            self.bar.refresh()
            self.drawn = t

    def read(self, source: object, done: int, total: int) -> None:
        """``done`` bytes of ``total`` read of the file ``source``
        (:meth:`ledger.store.importing.GameImports.import_records`'s ``progress``)."""
        bar = self._bar()
        reading, new = self.reading, False
        if reading is None or reading[0] is not source:
            self._read_over()
            name = Path(source).name if isinstance(source, (str, Path)) else str(source)
            label = self.tr.gettext("reading %(file)s") % {"file": name}
            reading = self.reading = (source, bar.add_task(label, total=total, bytes=True))
            new = True
        bar.update(reading[1], completed=done, total=total)
        # drawn at once when the bar comes and when the file is read (storing its last chunk may take a while)
        self._draw(now=new or done >= total)

    def file_done(self) -> None:
        """One more file's outcome: the files bar advances, a file's bytes bar goes."""
        self._read_over()
        if self.bar is not None and self.files is not None:
            self.bar.advance(self.files)
        self._draw()

    def _read_over(self) -> None:
        if self.bar is not None and self.reading is not None:
            self.bar.remove_task(self.reading[1])
        self.reading = None

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@contextmanager
def _progress(files: int, err: Console, tr: Any) -> Iterator[_Progress | None]:
    """The :class:`_Progress` of an import of ``files`` files when stderr is
    a terminal, else None (nothing is shown, no progress is followed)."""
    if not err.is_terminal:
        yield None
        return
    shown = _Progress(files, err, tr)
    try:
        yield shown
    finally:
        shown.close()


@click.command(
    "import",
    cls=TranslatedCommand,
    help=paragraphs(
        N_("Import record files (folders are searched for *.jsonl)."),
        N_("A file whose line 1 is tournament_started is a tournament record; its games may come before or after it."),
        N_(
            "Each file is stored whole or not at all; a rejected file prints 'file:line: field: RULE: "
            "message' and the others go on. Then the analytics view is brought up to date (unless "
            "--no-analytics). Exit 1 when any file was rejected."
        ),
        N_(
            "On a terminal, stderr shows the progress: files done (from 10 files), and the bytes read "
            "of a long file (4 MiB or more) out of its size."
        ),
    ),
)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--no-analytics", is_flag=True, help=N_("Do not bring the DuckDB analytics view up to date afterwards."))
@click.option(
    "--strict", is_flag=True, help=N_("Refuse records that break a rule too (live play), not only impossible ones.")
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help=N_(
        "Worker processes that read and check the files while this one stores them, in order "
        "(default: one per usable core, or this process alone for less than 1 MiB of records; "
        "1: this process alone)."
    ),
)
@click.pass_obj
def import_cmd(state: CliState, paths: tuple[Path, ...], no_analytics: bool, strict: bool, jobs: int | None) -> None:
    from ledger.store.parallel import import_jobs
    from ledger.store.tournaments import import_tournament_file, is_tournament_file

    files = find_record_files(paths)
    tournaments = [f for f in files if is_tournament_file(f)]  # line 1 is tournament_started (TOURNAMENT.md)
    app = state.app(create=True)
    err = console(stderr=True)
    tally = _Tally(state.tr, err)
    with _progress(len(files), err, state.tr) as shown:
        games = [f for f in files if f not in set(tournaments)]
        read = shown.read if shown else None
        workers = import_jobs(jobs, games)  # the update of the view after it folds with as many
        for path, result in app.import_records(games, strict=strict, progress=read, jobs=workers):
            tally.count(path, result)  # type: ignore[arg-type]  # the CLI passes Paths: they come back as the sources
            if shown is not None:
                shown.file_done()
        for path in tournaments:
            tally.count(path, import_tournament_file(app, path))
            if shown is not None:
                shown.file_done()
    click.echo(tally.title(state.store))
    console().print(tally.table())
    if not files:
        click.echo(state.tr.gettext("no record files found"), err=True)
    if not no_analytics and (tally.files("stored") or tally.files("appended")):
        update_after_import(app, state.db, jobs=workers)
    if tally.files("rejected"):
        sys.exit(1)


@click.command(
    "import-openspiel",
    cls=TranslatedCommand,
    help=paragraphs(
        N_("Convert an OpenSpiel gin_rummy game into a rummy-ledger/1 record (preset openspiel)."),
        N_(
            "SOURCE is a file (or - for standard input) holding the action history as integers, the "
            "text of OpenSpiel's serialize(), or the text of serialize_game_and_state (whose parameters "
            "become the record's options). An incomplete history is refused unless --partial. Import "
            "the result with `rummy-ledger import FILE`."
        ),
    ),
)
@click.argument("source")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help=N_("Write the record here (default: standard output)."),
)
@click.option(
    "--game-id",
    default=None,
    help=N_(
        "game_id of the record (default: the file's name; from standard input, openspiel- and a digest of the history)."
    ),
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help=N_(
        "A gin_rummy parameter of the game (knock_card, gin_bonus, undercut_bonus, oklahoma; repeatable). "
        "For a history or serialize() text, which carry none; must agree with a serialize_game_and_state text's."
    ),
)
@click.option(
    "--partial",
    is_flag=True,
    help=N_("Convert a history that stops before the end of the game (the record then has no hand_ended)."),
)
def import_openspiel_cmd(
    source: str, output: str | None, game_id: str | None, params: tuple[str, ...], partial: bool
) -> None:
    from ledger.openspiel.command import convert_main

    tr = tr_of()
    error = tr.gettext("rummy-ledger: error: %(message)s")  # the group's error line, in the CLI's language
    warning = tr.gettext(
        "rummy-ledger: warning: import-openspiel %(source)s: a plain history carries no game parameters and no "
        "--param was given: converted with OpenSpiel's defaults (knock_card=10, gin_bonus=25, undercut_bonus=25, "
        "oklahoma=false)"
    )
    sys.exit(convert_main(source, output, game_id, params, partial, error=error, defaults_warning=warning))


def register(cli_group: click.Group) -> None:
    """Add ``import`` and ``import-openspiel`` to the ``rummy-ledger`` group."""
    cli_group.add_command(import_cmd)
    cli_group.add_command(import_openspiel_cmd)
