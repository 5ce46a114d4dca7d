"""Score-only games: a table's paper score sheet as a partial record
(FORMAT.md, "Partial records": the smallest partial record).

Each hand is a ``hand_dealt`` of unknown cards (``??``, as many as the
variant deals) and a ``hand_ended`` whose ``claimed`` points are the sheet's
line; the game ends with ``game_ended`` once the variant's end condition
holds, or after the last line (``hands_played``). The hands score *as
claimed* (:mod:`ledger.scoring`). Sides are the seats, or in a partnership
game (Burraco with four players) the teams 0 (seats 0 and 2) and 1.

The sheet's text (:func:`parse_sheet`) is CSV: one line per hand, one
integer per side; blank lines and lines starting with ``#`` are ignored, and
a first line that is not numbers is a header.

>>> rows = parse_sheet("Anna,Bruno\\n120,-40\\n300,95\\n")
>>> rows
[(120, -40), (300, 95)]
>>> events = score_only_game("club-1", "burraco", ["Anna", "Bruno"], rows)
>>> [e.type for e in events]
['game_started', 'hand_dealt', 'hand_ended', 'hand_dealt', 'hand_ended', 'game_ended']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import msgspec

from ledger.cards import UNKNOWN
from ledger.errors import RecordError
from ledger.events import ClaimedScore, Event, GameEnded, GameMeta, GameStarted, HandDealt, HandEnded, Player
from ledger.replay import replay, start
from ledger.texts import N_, Message

#: the most hands one sheet may hold (a game is rarely over 30)
MAX_HANDS = 1000


def parse_sheet(text: str) -> list[tuple[int, ...]]:
    """The hand lines of a CSV score sheet (see the module docstring).

    Raises :class:`RecordError` (``REC-FORMAT``, with the 1-based ``line``)
    for a cell that is not an integer, a line whose number of cells differs
    from the first's, or more than :data:`MAX_HANDS` lines.
    """
    rows: list[tuple[int, ...]] = []
    width = None
    for number, cells in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in cells]
        if not cells or not any(cells) or cells[0].startswith("#"):
            continue
        if not rows and width is None and not _is_int(cells[0]):
            width = len(cells)  # a header: the sides' names
            continue
        bad = next((c for c in cells if not _is_int(c)), None)
        if bad is not None:
            msg = N_("score sheet: %(cell)s is not a number of points")
            raise RecordError("REC-FORMAT", Message(msg, cell=repr(bad)), line=number, field="points")
        if width is not None and len(cells) != width:
            msg = N_("score sheet: %(got)s scores on this line, %(want)s on the first")
            raise RecordError("REC-FORMAT", Message(msg, got=len(cells), want=width), line=number, field="points")
        width = len(cells)
        if len(rows) >= MAX_HANDS:
            msg = N_("score sheet: more than %(most)s hands")
            raise RecordError("REC-FORMAT", Message(msg, most=MAX_HANDS), line=number, field="points")
        rows.append(tuple(int(c) for c in cells))
    return rows


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
