"""``verify``'s check of the games list's stored lines (:mod:`ledger.stored.summaries`; issue 27; layer 2).

The games list trusts a game's stored line (findings, finished, result,
first ``at``) whose version is the game's length: that is what keeps the
list off the fold. The triggers of the events table drop a game's line when
its event rows are edited behind the store, but the line itself is a row
anyone with database access can edit, and the list has no cheaper check of
it than the fold it saves (the store holds no key to sign it with). So
``verify``, which only reads, checks the lines of the games it verified:

- always (one query): a line of more events than the game has stored is
  one the product never writes (a line is written after its events are
  committed, and deleting an event row drops it);
- with ``--deep`` (a fold of every game whose line is current, several
  times the cost of the chains): the line must be what a fold of the
  game's stored events gives.

A finding is the game's (``differs``: ``summary``, no position), and
``verify`` exits 1. A stale line (of fewer events than stored, as a crash
between the commit and the line's write leaves one) is no finding: the
list folds that game and writes its line again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ledger.errors import RecordError
from ledger.game_summary import UNREADABLE, ListSummary, first_at, summarize
from ledger.replay import replay
from ledger.sealing.verify_rows import GameCheck
from ledger.stored.persistence import StoredEventError, game_uuid
from ledger.stored.summaries import SummaryTable
from ledger.texts import N_, Message

#: a line of more events than the game has
LINE_AHEAD = N_(
    "its line in the games list is of %(version)s events, %(num)s are stored: the line was written into the "
    "database directly"
)
#: a current line that is not the fold's (verify --deep)
LINE_DIFFERS = N_(
    "its line in the games list is not what a replay of its events gives (columns %(fields)s differ; findings "
    "%(stored)s, the replay's %(folded)s): the line was written into the database directly"
)

#: the fields of a line, in the order a finding names them
FIELDS = ("findings", "finished", "result", "first_at")


def lines_checked(
    app: Any,
    checks: Iterable[GameCheck],
    *,
    deep: bool = False,
    lines: Mapping[str, tuple[int, ListSummary]] | None = None,
) -> Iterator[GameCheck]:
    """Each of ``checks`` (:func:`ledger.sealing.verify.verify_games`) as it
    comes, a verified game's failed when its stored line is wrong (see the
    module). Reads the lines in one query first (:func:`stored_lines`), or
    takes ``lines`` read before (a worker of ``verify --jobs``: those of its
    games); writes nothing."""
    lines = stored_lines(app) if lines is None else lines
    for check in checks:
        line = lines.get(game_uuid(check.game_id).hex) if check.ok and lines else None
        if line is not None:
            problem = line_problem(app, check, *line, deep=deep)
            if problem is not None:
                check.fail(None, "summary", problem)
        yield check


def stored_lines(app: Any) -> dict[str, tuple[int, ListSummary]]:
    """Every stored line of the games list, by originator id hex: ``(version, line)``
    (:meth:`ledger.stored.summaries.SummaryTable.read`)."""
    return SummaryTable(app.recorder).read()


def line_problem(app: Any, check: GameCheck, version: int, line: ListSummary, *, deep: bool) -> Message | None:
    """What is wrong with a verified game's stored ``line`` of ``version``
    events, or None."""
    if version > check.length:
        return Message(LINE_AHEAD, version=version, num=check.length)
    if not deep or version != check.length:
        return None
    folded = fold_line(app, check.game_id)
    fields = [f for f in FIELDS if getattr(line, f) != getattr(folded, f)]
    if not fields:
        return None
    return Message(LINE_DIFFERS, fields=", ".join(fields), stored=_count(line.findings), folded=_count(folded.findings))


def _count(findings: int | None) -> int | str:
    """A line's findings as a finding prints them: ``-`` for a record that cannot be replayed."""
    return "-" if findings is None else findings


def fold_line(app: Any, game_id: str) -> ListSummary:
    """The line a fold of the game's stored events gives (the list's own
    fold: :meth:`replay_web.cache.ReplayCache.summary`)."""
    try:
        events = app.get_events(game_id)
        return summarize(replay(events), first_at(events))
    except (RecordError, StoredEventError):
        return UNREADABLE
