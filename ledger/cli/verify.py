"""``rummy-ledger verify``: the stored seal chains, a checkpoint or an inclusion proof checked (FORMAT.md "Seal").

``verify [GAME...] [--json] [--deep] [--jobs N]``: every stored chain
recomputed and compared with the stored seals and journal (with ``--jobs``,
or in a store of 50,000 events or more, by worker processes:
:mod:`ledger.sealing.verify_jobs`; the same output); ``verify --checkpoint FILE
[--key PUBKEY]``: the store against a checkpoint; ``verify --proof FILE
[--key PUBKEY] [--record FILE]``: a proof, without the store.

Exit status: 0 all verify, 1 something does not (one line per broken game
or reason), 2 the store or a file cannot be read, or a GAME named is not
stored ("no game …; did you mean …?", as every command says).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from functools import partial
from gettext import NullTranslations
from itertools import islice
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ledger.cli.context import TranslatedCommand, paragraphs, tr_of
from ledger.cli.tournament import verify_targets
from ledger.i18n import N_
from ledger.sealing import chain as _seal
from ledger.sealing import checkpoint as _cp
from ledger.sealing.verify import check_checkpoint, game_keys, verify_games
from ledger.sealing.verify_jobs import checked_in_order, verify_jobs
from ledger.sealing.verify_lines import lines_checked
from ledger.sealing.verify_rows import GameCheck
from ledger.texts import Message, render

#: verify shows a progress bar (on a terminal) from this many games
PROGRESS_MIN_GAMES = 20
#: --record's refusals: the record file is shorter, or has another seal at the proven position
_SHORTER = N_("%(file)s has %(num)s events, the proof is for %(length)s")
_OTHER_SEAL = N_("%(file)s: seal at position %(pos)s is %(got)s, the proof's is %(seal)s")


def _state(ctx: click.Context) -> Any:
    return ctx.obj


def _progress(total: int, enabled: bool) -> Progress | None:
    console = Console(stderr=True, highlight=False)
    if not (enabled and console.is_terminal and total >= PROGRESS_MIN_GAMES):
        return None
    return Progress(
        TextColumn("verifying"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


@click.command(
    "verify",
    cls=TranslatedCommand,
    help=paragraphs(
        N_(
            "Verify the stored games' seal chains (default: every stored game): each chain is "
            "recomputed from the stored events and compared with the stored seals and journal. Exit 0 "
            "all verify, 1 one line per broken game (the first position that no longer matches and what "
            "differs), 2 the store cannot be read or a GAME is not stored."
        ),
        N_(
            "With --checkpoint FILE: the file's root and signature check out and every game it lists "
            "still begins with the same events under the same seal. With --proof FILE: the inclusion "
            "proof checks out (no store is opened)."
        ),
    ),
)
@click.argument("games", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON object per game (or for the checkpoint / proof)."))
@click.option(
    "--checkpoint",
    "cp_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help=N_("Check the store against this checkpoint."),
)
@click.option(
    "--proof",
    "proof_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help=N_("Check an inclusion proof (no store needed)."),
)
@click.option(
    "--key",
    "key_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help=N_("The public key the checkpoint or proof must be signed by."),
)
@click.option(
    "--deep",
    is_flag=True,
    help=N_(
        "Also decode every stored event (the chain already proves they are the bytes appended) and replay "
        "each game to check its line in the games list."
    ),
)
@click.option(
    "--record",
    "record_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help=N_("With --proof: also check this record file has the proven seal."),
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help=N_(
        "Worker processes that check the stored games, a run of games each, while this one prints the "
        "results in order (default: one per usable core, or this process alone for a store of fewer than "
        "50,000 events; 1: this process alone)."
    ),
)
@click.pass_context
def verify_cmd(
    ctx: click.Context,
    games: tuple[str, ...],
    as_json: bool,
    cp_file: Path | None,
    proof_file: Path | None,
    key_file: Path | None,
    deep: bool,
    record_file: Path | None,
    jobs: int | None,
) -> None:
    tr = tr_of(ctx)
    if sum(x is not None for x in (cp_file, proof_file)) + (1 if games else 0) > 1:
        raise click.UsageError(tr.gettext("give GAME ids, --checkpoint FILE or --proof FILE, not several"))
    if record_file is not None and proof_file is None:
        raise click.UsageError(tr.gettext("--record goes with --proof"))
    if key_file is not None and cp_file is None and proof_file is None:
        raise click.UsageError(tr.gettext("--key goes with --checkpoint or --proof"))
    public = _cp.load_public_key(key_file) if key_file else None
    if proof_file is not None:
        sys.exit(_verify_proof(proof_file, public, record_file, as_json, tr))
    if cp_file is not None:
        sys.exit(_verify_checkpoint(ctx, cp_file, public, as_json))
    sys.exit(_verify_store(ctx, games, as_json, deep, jobs))


def _say(as_json: bool, ok: bool, text: str, obj: dict[str, Any]) -> None:
    if as_json:
        click.echo(json.dumps(obj, ensure_ascii=False))
    else:
        click.echo(text, err=not ok)


def _verify_proof(path: Path, public: Any, record_file: Path | None, as_json: bool, tr: NullTranslations) -> int:
    try:
        entry, signer = _cp.check_proof(_cp.load(path, _cp.PROOF_FORMAT), public)
        if record_file is not None:
            from ledger.events import encode_event
            from ledger.record_files import read_record

            lines = [encode_event(e) for e in read_record(record_file).events]
            if len(lines) < entry.length:
                raise _cp.CheckpointError(Message(_SHORTER, file=str(record_file), num=len(lines), length=entry.length))
            got = _seal.seal_hex(lines, at=entry.length - 1)
            if got != entry.seal:
                raise _cp.CheckpointError(
                    Message(
                        _OTHER_SEAL,
                        file=str(record_file),
                        pos=entry.length - 1,
                        got=_seal.short_form(got),
                        seal=_seal.short_form(entry.seal),
                    )
                )
    except _cp.CheckpointError as exc:
        _say(
            as_json,
            False,
            tr.gettext("%(file)s: proof does not verify: %(reason)s") % {"file": path, "reason": exc.text(tr)},
            {"ok": False, "proof": str(path), "reason": str(exc)},
        )
        return 1
    also = tr.gettext("; %(file)s has that seal") % {"file": record_file} if record_file else ""
    text = tr.ngettext(
        "%(file)s: %(game)s (%(num)s event, seal %(seal)s) is in the checkpoint; %(signer)s",
        "%(file)s: %(game)s (%(num)s events, seal %(seal)s) is in the checkpoint; %(signer)s",
        entry.length,
    )
    _say(
        as_json,
        True,
        text
        % {
            "file": path,
            "game": entry.game_id,
            "num": entry.length,
            "seal": _seal.short_form(entry.seal),
            "signer": render(signer, tr),
        }
        + also,
        {
            "ok": True,
            "proof": str(path),
            "game_id": entry.game_id,
            "length": entry.length,
            "seal": entry.seal,
            "signature": signer,
        },
    )
    return 0


def _verify_checkpoint(ctx: click.Context, path: Path, public: Any, as_json: bool) -> int:
    tr = tr_of(ctx)
    try:
        entries, signer = _cp.check_checkpoint(_cp.load(path), public)
    except _cp.CheckpointError as exc:
        _say(
            as_json,
            False,
            tr.gettext("%(file)s: checkpoint does not verify: %(reason)s") % {"file": path, "reason": exc.text(tr)},
            {"ok": False, "checkpoint": str(path), "reason": str(exc)},
        )
        return 1
    problems = check_checkpoint(_state(ctx).app(), entries)
    if problems:
        for p in problems:
            text = f"{path}: {render(p, tr_of(ctx))}"
            _say(as_json, False, text, {"ok": False, "checkpoint": str(path), "reason": p})
        return 1
    n = len(entries)
    text = tr_of(ctx).ngettext(
        "%(file)s: the store is consistent with the checkpoint (%(num)s game, root verified); %(signer)s",
        "%(file)s: the store is consistent with the checkpoint (%(num)s games, root verified); %(signer)s",
        n,
    )
    _say(
        as_json,
        True,
        text % {"file": path, "num": n, "signer": render(signer, tr)},
        {"ok": True, "checkpoint": str(path), "games": n, "signature": signer},
    )
    return 0


def _checks(state: Any, targets: list[tuple[Any, str | None]], deep: bool, jobs: int | None) -> Iterator[GameCheck]:
    """The checks of ``targets`` in order: in this process, or with ``jobs``
    (:func:`ledger.sealing.verify_jobs.verify_jobs`) in worker processes that
    open the same store (:func:`ledger.sealing.verify_jobs.checked_in_order`)."""
    app = state.app()
    workers = verify_jobs(jobs, len(targets), app.recorder.max_notification_id() if jobs is None else 0)
    if workers == 1:
        return lines_checked(app, verify_games(app, targets, deep=deep), deep=deep)
    from ledger.store.application import open_app

    # the store's settings as this process resolved them: a worker from a fork server does not
    # share this process's environment as it is now
    opener = partial(open_app, state.db, env=dict(app.env), create=False)
    return checked_in_order(app, opener, targets, deep=deep, jobs=workers)


def _verify_store(ctx: click.Context, games: tuple[str, ...], as_json: bool, deep: bool, jobs: int | None) -> int:
    app = _state(ctx).app()
    # a tournament: its games too, its rounds' checkpoints
    named, problems = verify_targets(app, games, as_json, tr_of(ctx))
    targets = game_keys(app, named or None)
    bar = _progress(len(targets), not as_json)
    checks = _checks(_state(ctx), targets, deep, jobs)
    results: list[GameCheck] = []
    if bar is None:
        results = list(checks)
    else:
        results = list(islice(checks, 1))  # any workers forked before the bar's refresh thread starts
        with bar:
            task = bar.add_task("verify", total=len(targets), completed=len(results))
            for r in checks:
                results.append(r)
                bar.advance(task)
    broken = [r for r in results if not r.ok]
    for r in results:
        if as_json:
            click.echo(json.dumps(r.to_json(), ensure_ascii=False))
        elif not r.ok:
            click.echo(r.line(tr_of(ctx)))
    if not as_json:
        tr = tr_of(ctx)
        events = sum(r.length for r in results)
        summary = tr.ngettext(
            "%(ok)s of %(num)s game verified (%(events)s events)",
            "%(ok)s of %(num)s games verified (%(events)s events)",
            len(results),
        )
        click.echo(
            summary % {"ok": len(results) - len(broken), "num": len(results), "events": events}
            + (tr.gettext("; %(num)s broken") % {"num": len(broken)} if broken else ""),
            err=bool(broken),
        )
    return 1 if broken or problems else 0


def register(cli_group: click.Group) -> None:
    """Add ``verify``."""
    cli_group.add_command(verify_cmd)


__all__ = ["PROGRESS_MIN_GAMES", "register"]
