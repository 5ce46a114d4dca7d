"""Score-only games: a table's paper score sheet as a partial record
(FORMAT.md, "Partial records": the smallest partial record).

Each hand is a ``hand_dealt`` of unknown cards (``??``, as many as the
variant deals) and a ``hand_ended`` whose ``claimed`` points are the sheet's
line; the game ends with ``game_ended`` once the variant's end condition
holds, or after the last line (``hands_played``). The hands score *as
claimed* (:mod:`ledger.scoring`). Sides are the seats, or in a partnership
game (Burraco with four players) the teams 0 (seats 0 and 2) and 1.

The sheet's text (:func:`parse_sheet`) is CSV: one line per hand, one
integer per side, separated by commas; blank lines and lines starting with
``#`` are ignored. A first line is a header only when it is one: the
players' names, or names (words, not numbers) one per side. Anything else is
a hand line and must be numbers: ``420;-35`` is refused on its line as
scores not separated by commas, not skipped as a header. A typed line (the
CLI's ``--ask``) is one hand's line (:func:`parse_line`), never a header.

>>> sides = side_count("burraco", ["Anna", "Bruno"])
>>> rows = parse_sheet("Anna,Bruno\\n120,-40\\n300,95\\n", sides=sides)
>>> rows
[(120, -40), (300, 95)]
>>> try:
...     parse_sheet("420;-35\\n", sides=2)
... except RecordError as err:
...     print(err.line, err.text())
1 score sheet: '420;-35' is not one number: the scores on a line are separated by commas (420,-35)
>>> parse_line("10 -20", 1, sides=2)
(10, -20)
>>> events = score_only_game("club-1", "burraco", ["Anna", "Bruno"], rows)
>>> [e.type for e in events]
['game_started', 'hand_dealt', 'hand_ended', 'hand_dealt', 'hand_ended', 'game_ended']
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

import msgspec

from ledger.cards import UNKNOWN
from ledger.errors import RecordError
from ledger.events import ClaimedScore, Event, GameEnded, GameMeta, GameStarted, HandDealt, HandEnded, Player
from ledger.replay import replay, start
from ledger.texts import N_, Message

#: the most hands one sheet may hold (a game is rarely over 30)
MAX_HANDS = 1000


def side_count(variant: str, players: Sequence[str], ruleset: str | None = None) -> int:
    """How many scores a hand line of this table holds: its sides (the seats,
    or the two teams of a partnership game). Raises :class:`RecordError` for
    names, a variant or a ruleset the fold refuses (as
    :func:`score_only_game` would), before any line is read or typed."""
    seated = tuple(Player(seat=i, name=name) for i, name in enumerate(players))
    first = GameStarted(game_id="score-sheet", variant=variant, ruleset=ruleset, players=seated, knowledge="partial")
    return start(first).n_sides


def parse_sheet(text: str, *, sides: int, names: Sequence[str] = ()) -> list[tuple[int, ...]]:
    """The hand lines of a CSV score sheet of a table with ``sides`` sides
    and players ``names`` (see the module docstring).

    Raises :class:`RecordError` (``REC-FORMAT``, with the 1-based ``line``)
    for a cell that is not an integer (saying so when the line's scores are
    separated by something else than commas), a line without one score per
    side, more than :data:`MAX_HANDS` lines, or no hand line at all.
    """
    rows: list[tuple[int, ...]] = []
    first = True
    for number, cells in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in cells]
        if not cells or not any(cells) or cells[0].startswith("#"):
            continue
        if first and all(_is_name(c) for c in cells):
            if not _is_header(cells, sides, names):
                msg = N_(
                    "score sheet: this first line is not numbers, nor a header: one name per side (%(want)s) "
                    "or the players' names, separated by commas"
                )
                raise RecordError("REC-FORMAT", Message(msg, want=sides), line=number, field="points")
            first = False
            continue
        first = False
        if len(rows) >= MAX_HANDS:
            msg = N_("score sheet: more than %(most)s hands")
            raise RecordError("REC-FORMAT", Message(msg, most=MAX_HANDS), line=number, field="points")
        rows.append(_row(cells, number, sides))
    if not rows:
        raise RecordError("REC-FORMAT", Message(N_("score sheet: no hand lines")), field="points")
    return rows


def parse_line(text: str, hand: int, *, sides: int) -> tuple[int, ...]:
    """One typed hand line (``--ask``): ``sides`` integers separated by
    commas or spaces. Raises :class:`RecordError` (``REC-FORMAT``, ``line``
    ``hand``) as :func:`parse_sheet` does for a line; a line of names is not
    a header here but a line that is not numbers."""
    cells = [c for c in re.split(r"[,\s]+", text.strip()) if c]
    return _row(cells, hand, sides)


def _row(cells: Sequence[str], number: int, sides: int) -> tuple[int, ...]:
    bad = next((c for c in cells if not _is_int(c)), None)
    if bad is not None:
        parts = [p for p in _OTHER_SEPARATORS.split(bad) if p]
        if len(parts) > 1 and all(_is_int(p) for p in parts):
            msg = N_(
                "score sheet: %(cell)s is not one number: the scores on a line are separated by commas (%(fixed)s)"
            )
            message = Message(msg, cell=repr(bad), fixed=",".join(parts))
        else:
            message = Message(N_("score sheet: %(cell)s is not a number of points"), cell=repr(bad))
        raise RecordError("REC-FORMAT", message, line=number, field="points")
    if len(cells) != sides:
        msg = N_("score sheet: one score per side, %(want)s on a line; this line has %(got)s")
        raise RecordError("REC-FORMAT", Message(msg, want=sides, got=len(cells)), line=number, field="points")
    return tuple(int(c) for c in cells)


#: what a spreadsheet or a hurried hand may put between scores instead of a comma
_OTHER_SEPARATORS = re.compile(r"[;\t |/]+")


def _is_header(cells: Sequence[str], sides: int, names: Sequence[str]) -> bool:
    """A first line of names (:func:`_is_name`) is a header when it names the
    players or has one name per side."""
    return len(cells) == sides or [c.casefold() for c in cells] == [n.strip().casefold() for n in names]


def _is_name(cell: str) -> bool:
    """A name has a letter and is not a score (``420;-35`` is a hand line typed wrong)."""
    return any(ch.isalpha() for ch in cell) and not _is_int(cell)


def _is_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit() and body.isascii() and len(body) <= 7


def score_only_game(
    game_id: str,
    variant: str,
    players: Sequence[str],
    rows: Sequence[Sequence[int]],
    ruleset: str | None = None,
    meta: GameMeta | None = None,
) -> list[Event]:
    """The score-only record of ``rows`` (one per hand, one score per side);
    ``meta`` its ``game_started.meta`` (a tournament's table: its
    ``tournament``, ``round`` and ``table``, TOURNAMENT.md "The record").

    Raises :class:`RecordError` when the names, variant or ruleset cannot
    make a record (as the fold refuses them) or a row's number of scores is
    not the number of sides (``REC-REF``, ``field`` ``points``, ``line`` the
    row's 1-based index).
    """
    seated = tuple(Player(seat=i, name=name) for i, name in enumerate(players))
    first = GameStarted(
        game_id=game_id, variant=variant, ruleset=ruleset, players=seated, knowledge="partial", meta=meta
    )
    table = start(first)
    sides = table.sides
    partnership = table.n_sides < table.n_seats
    if partnership:
        seated = tuple(Player(seat=p.seat, name=p.name, team=sides[p.seat]) for p in seated)
        first = msgspec.structs.replace(first, players=seated)
    rules = table.rules
    n = len(seated)
    events: list[Event] = [first]
    for hand, row in enumerate(rows, start=1):
        if len(row) != table.n_sides:
            msg = N_("hand %(hand)s has %(got)s scores; this table has %(want)s sides")
            raise RecordError(
                "REC-REF", Message(msg, hand=hand, got=len(row), want=table.n_sides), line=hand, field="points"
            )
        dealer = (hand - 1) % n
        pozzetti = tuple((UNKNOWN,) * rules.pozzetto_size() for _ in range(2)) if rules.pozzetto_size() else None
        events.append(
            HandDealt(
                hand=hand,
                dealer=dealer,
                hands=tuple((UNKNOWN,) * rules.hand_size(n, seat, dealer) for seat in range(n)),
                discard=(UNKNOWN,),
                pozzetti=pozzetti,
            )
        )
        claimed = tuple(
            ClaimedScore(team=side, points=p) if partnership else ClaimedScore(seat=side, points=p)
            for side, p in enumerate(row)
        )
        events.append(HandEnded(reason="went_out", claimed=claimed))
    reason = replay(events).game_end_reason or "hands_played"
    events.append(GameEnded(reason=reason))  # type: ignore[arg-type]  # a GameEndReason from the rules
    return events
