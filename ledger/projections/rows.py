"""A game's analytics rows, from the one fold (pure: no DuckDB, no store).

:func:`game_rows` replays a game's events with :func:`ledger.replay.states`
and reads every number from the fold's consumers: the score sheet
(:func:`ledger.scoring.score_sheet`, adjudicated and as played), the audit
(:func:`ledger.audit.report`), the melds of the table state with the
variant's presentation (``meld_extras``), and :func:`ledger.notation.notation` for the move
text. Nothing here scores or judges a move its own way.

:class:`~ledger.projections.game_builder.GameRowsBuilder` gives the same
rows event by event, for a game too long to hold (issue 17).

>>> from ledger.synthetic import two_player_record
>>> from ledger.events import encode_event
>>> events = two_player_record("g1", hands=1, turns=2, seed=1)
>>> rows = game_rows("00" * 16, [(e, encode_event(e).decode()) for e in events])
>>> {t: len(r) for t, r in rows.items()}
{'games': 1, 'players': 2, 'hands': 1, 'events': 8, 'melds': 0, 'scores': 4, 'findings': 0}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import msgspec

from ledger.audit import report
from ledger.errors import LedgerError
from ledger.events import Event, GameStarted, Knocked, MeldExtended, MeldLaid, Player, PositionRestored, at_moment
from ledger.game_summary import game_date
from ledger.notation import notation
from ledger.projections.tables import TABLES
from ledger.replay import states
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import Finding, TableState
from ledger.variants.gin.rules import GinRules
from ledger.variants.gin.state import GinExtra
from ledger.variants.presentation import presentation

Rows = dict[str, list[tuple[object, ...]]]

#: errors that make a game unreplayable with this build (recorded in ``games.error``)
REPLAY_ERRORS: tuple[type[BaseException], ...] = (
    LedgerError,
    ValueError,
    LookupError,
    ImportError,
    NotImplementedError,
)


def empty_rows() -> Rows:
    """``{table: []}`` for every table."""
    return {t: [] for t in TABLES}


def parse_at(at: str | None) -> datetime | None:
    """An ``at`` string as an aware UTC datetime (naive times are taken as UTC).

    >>> parse_at("2026-11-29T20:15:00+01:00")
    datetime.datetime(2026, 11, 29, 19, 15, tzinfo=datetime.timezone.utc)
    """
    if not at:
        return None
    return at_moment(at).astimezone(UTC)


def event_cards(e: Any) -> list[str] | None:
    """The cards an event moves (the ``events.cards`` column; see tables.py)."""
    t = e.type
    if t in ("card_drawn", "card_discarded"):
        return [e.card]
    if t in ("discard_taken", "meld_laid", "meld_extended"):
        return list(e.cards)
    if t == "joker_swapped":
        return [e.card, e.joker]
    if t == "hand_dealt":
        return list(e.discard)
    if t == "knocked":
        return [c for m in e.melds for c in m.cards] + list(e.deadwood) + [e.discard]
    if t in ("pozzetto_taken", "stock_restocked"):
        return list(e.cards) if e.cards is not None else None
    return None


def undone_positions(events: Sequence[Event]) -> set[int]:
    """Positions that a later ``position_restored`` rewound past (FORMAT.md:
    "later events stay in the record but no longer count").

    >>> from ledger.events import CardDrawn, PositionRestored
    >>> sorted(undone_positions([CardDrawn(seat=0, card="2C")] * 4 + [PositionRestored(target=1, reason="r")]))
    [2, 3]
    """
    # the union of the rewound ranges target+1..pos-1, in one sweep (a set
    # update per restoration would cost the square of a long game)
    depth = [0] * (len(events) + 1)
    for pos, e in enumerate(events):
        if isinstance(e, PositionRestored) and e.target + 1 < pos:
            depth[e.target + 1] += 1
            depth[pos] -= 1
    undone: set[int] = set()
    open_ranges = 0
    for pos in range(len(events)):
        open_ranges += depth[pos]
        if open_ranges > 0:
            undone.add(pos)
    return undone


def _meta_date(first: GameStarted, started_at: datetime | None) -> date | None:
    """``games.date``: :func:`ledger.game_summary.game_date`, the games list's rule."""
    return game_date(first.meta.date if first.meta else None, started_at)


def game_rows(stream: str, events: Sequence[tuple[Event, str]]) -> Rows:
    """Every analytics row of one game, in :data:`~ledger.projections.tables.TABLES` column order.

    ``stream`` is the store's sequence id (hex); ``events`` the game's
    ``(event, canonical JSON)`` pairs in position order, position 0 a
    ``game_started``. When the fold rejects the game (a record that this build
    cannot replay) the ``games`` row carries the error and only ``games``,
    ``players`` and ``events`` rows are given. Raises ``ValueError`` when the
    first event is not ``game_started``.
    """
    first = events[0][0] if events else None
    if not isinstance(first, GameStarted):
        raise ValueError(f"stream {stream}: the first event is not game_started")
    game = first.game_id
    rows = empty_rows()
    folded, error = _fold([e for e, _ in events])
    started_at = _event_rows(game, events, folded, rows["events"])
    final = folded[-1] if folded and error is None else None
    players = sorted(first.players, key=lambda p: p.seat)
    sides = final.sides if final is not None else tuple(p.seat for p in players)
    for p in players:
        rows["players"].append((game, p.seat, p.name, p.team, sides[p.seat] if p.seat < len(sides) else None))
    if final is None:
        rows["games"].append(game_row(first, stream, players, started_at, len(events), error=error))
        return rows
    findings = outcome_rows(first, stream, players, started_at, len(events), final, rows)
    _hand_rows(game, [e for e, _ in events], folded, findings, rows)
    return rows


def outcome_rows(
    first: GameStarted,
    stream: str,
    players: Sequence[Player],
    started_at: datetime | None,
    n_events: int,
    final: TableState,
    rows: Rows,
) -> Sequence[Finding]:
    """Add the ``games``, ``findings`` and ``scores`` rows of a game the fold
    got through (its ``final`` state) to ``rows``; return the audit's findings
    (the ``hands`` rows count them). Shared by :func:`game_rows` and the long
    game's builder (:mod:`ledger.projections.game_builder`)."""
    game = first.game_id
    adjudicated = score_sheet(final)
    as_played = score_sheet(final, adjudicated=False)
    audit = report(final)

    def side_names(side: int | None) -> list[str] | None:
        return None if side is None else [final.name(s) for s in final.seats_of(side)]

    rows["games"].append(
        game_row(
            first,
            stream,
            players,
            started_at,
            n_events,
            final=final,
            sheets=(adjudicated, as_played),
            winners=side_names(adjudicated.winner),
            findings=len(audit.findings),
        )
    )
    rows["findings"] = [(game, f.position, f.hand, f.seat, f.rule, f.message) for f in audit.findings]
    rows["scores"] = _score_rows(game, adjudicated, "adjudicated", side_names) + _score_rows(
        game, as_played, "as_played", side_names
    )
    return audit.findings


def game_row(
    first: GameStarted,
    stream: str,
    players: Sequence[Player],
    started_at: datetime | None,
    n_events: int,
    *,
    final: TableState | None = None,
    sheets: tuple[ScoreSheet, ScoreSheet] | None = None,
    winners: list[str] | None = None,
    findings: int = 0,
    error: str | None = None,
) -> tuple[object, ...]:
    """The ``games`` row of a game: from its ``game_started`` and, when the
    fold replayed it, its ``final`` state, its score ``sheets`` (adjudicated,
    as played), the names of the winning side and the number of findings;
    else the result columns are NULL and ``error`` says why.

    A tuple of the 22 columns of ``TABLES["games"]``
    (:mod:`ledger.projections.tables`), in their order: ``(game, stream,
    variant, ruleset, options, players, seats, unit, meta, tournament, date,
    started_at, events, hands, hands_scored, ended, winner, winner_names,
    totals, totals_as_played, findings, error)``; ``stream`` is the store's
    id of the game's sequence, ``started_at`` the ``game_started``'s time
    (UTC) or None, ``n_events`` the events count. Used by :func:`game_rows`
    and by :class:`~ledger.projections.game_builder.GameRowsBuilder`."""
    options = json.dumps(first.options, sort_keys=True) if first.options else None
    names = [p.name for p in players]
    meta = {k: v for k, v in msgspec.to_builtins(first.meta).items() if v is not None} if first.meta else None
    tournament = first.meta.tournament if first.meta else None
    when = (meta, tournament, _meta_date(first, started_at), started_at, n_events)
    if final is None or sheets is None:
        unknown = (None,) * 8  # hands … findings: the fold did not get through the game
        return (first.game_id, stream, first.variant, first.ruleset, options, names, len(players), None) + (
            when + unknown + (error,)
        )
    adjudicated, as_played = sheets
    return (
        (first.game_id, stream, first.variant, final.rules.ruleset, options, names, final.n_seats, adjudicated.unit)
        + when
        + (final.hand, len(final.results), final.ended, adjudicated.winner, winners)
        + (list(adjudicated.totals), list(as_played.totals), findings, None)
    )


def _fold(events: Sequence[Event]) -> tuple[list[TableState], str | None]:
    """The table state after each event (:func:`ledger.replay.states`), as
    far as the fold goes, and the error that stopped it (``"Type: message"``,
    one of :data:`REPLAY_ERRORS`), or None."""
    folded: list[TableState] = []
    try:
        for after in states(events):
            folded.append(after)
    except REPLAY_ERRORS as exc:
        return folded, f"{type(exc).__name__}: {exc}"
    return folded, None


def _event_rows(
    game: str, events: Sequence[tuple[Event, str]], folded: Sequence[TableState], out: list[tuple[object, ...]]
) -> datetime | None:
    """Append the ``events`` rows of a game to ``out`` (the hand and the
    move text from the state after each event, when the fold got there);
    returns the game's start time (the first event's ``at``)."""
    undone = undone_positions([e for e, _ in events])
    started_at = None
    for pos, (e, raw) in enumerate(events):
        row = event_row(game, pos, e, raw, folded[pos] if pos < len(folded) else None, undone=pos in undone)
        started_at = started_at or row[7]
        out.append(row)
    return started_at


#: an ``events`` row (TABLES order): game, position, hand, seat, type, meld, cards, at, move text,
#: undone, json, turn, points
EventsRow = tuple[
    str,
    int,
    int | None,
    int | None,
    str,
    str | None,
    list[str] | None,
    datetime | None,
    str,
    bool,
    str,
    int | None,
    int | None,
]


def event_row(game: str, pos: int, e: Event, raw: str, state: TableState | None, *, undone: bool) -> EventsRow:
    """The ``events`` row of event ``e`` at ``pos`` (``raw`` its canonical JSON)
    in TABLES order: game, position, hand, seat, type, meld, cards, at (a
    ``datetime`` or None), move text, undone, json, turn, points; the hand,
    the move text, the turn and the points from ``state``, the state after
    the event (None when the fold did not get there)."""
    seat = getattr(e, "seat", None)
    return (
        game,
        pos,
        (state.hand or None) if state is not None else None,
        seat,
        e.type,
        getattr(e, "meld", None),
        event_cards(e),
        parse_at(e.at),
        notation(e, state),
        undone,
        raw,
        event_turn(state, seat),
        event_points(e, state),
    )


def event_turn(state: TableState | None, seat: int | None) -> int | None:
    """The ``events.turn`` column: ``seat``'s turns begun in the hand
    (``TableState.turns``) in ``state``; None without a seat, a state or a hand."""
    if state is None or seat is None or not state.hand or not 0 <= seat < len(state.turns):
        return None
    return state.turns[seat]


def event_points(e: Event, state: TableState | None) -> int | None:
    """The ``events.points`` column (tables.py): a laid or extended meld's
    points as the variant labels them in ``state`` (the state after ``e``),
    a Gin knocker's counted deadwood; else None."""
    if state is None or state.rules is None:
        return None
    if isinstance(e, (MeldLaid, MeldExtended)):
        meld = next((m for m in state.melds if m.id == e.meld), None)
        if meld is None:
            return None
        points = presentation(state.rules).meld_extras(meld).get("points")
        return points if isinstance(points, int) and not isinstance(points, bool) else None
    if isinstance(e, Knocked) and isinstance(state.rules, GinRules) and isinstance(state.extra, GinExtra):
        return state.rules.deadwood_of(state, e.seat)
    return None


def _score_rows(game: str, sheet: ScoreSheet, view: str, side_names: Any) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    team = sheet.unit == "team"
    for h in sheet.hands:
        for ln in h.lines:
            out.append(
                (
                    game,
                    h.hand,
                    view,
                    sheet.unit,
                    ln.side,
                    None if team else ln.side,
                    ln.side if team else None,
                    side_names(ln.side),
                    ln.points,
                    dict(ln.breakdown),
                    ln.claimed,
                )
            )
    return out


def _hand_rows(game: str, events: list[Event], folded: list[TableState], findings: Sequence[Any], rows: Rows) -> None:
    """``hands`` and ``melds`` rows: each hand's last state (before the next deal)."""
    starts = [pos for pos, e in enumerate(events) if e.type == "hand_dealt"]
    final = folded[-1]
    label = presentation(final.rules).meld_extras if final.rules is not None else None
    spans: list[HandSpan] = []
    for i, first_pos in enumerate(starts):
        last_pos = (starts[i + 1] - 1) if i + 1 < len(starts) else len(events) - 1
        if last_pos > first_pos and events[last_pos].type == "game_ended":
            last_pos -= 1
        end = folded[last_pos]
        hand = folded[first_pos].hand
        restored = sum(1 for p in range(first_pos, last_pos + 1) if events[p].type == "position_restored")
        spans.append((hand, folded[first_pos].dealer, first_pos, last_pos, restored, sum(end.turns), end.stock_count))
        for m in end.melds:
            rows["melds"].append(meld_row(game, hand, m, label))
    rows["hands"] = hand_rows(game, final, spans, findings)


#: one hand as the fold saw it: (hand, dealer, first position, last position, positions restored,
#: turns taken, cards left in the stock): the ``hands`` columns that the hand's own states give
HandSpan = tuple[int, int | None, int, int, int, int, int]


def hand_rows(
    game: str, final: TableState, spans: Sequence[HandSpan], findings: Sequence[Any]
) -> list[tuple[object, ...]]:
    """The ``hands`` rows of ``game`` (each the 13 columns of ``TABLES["hands"]``,
    :mod:`ledger.projections.tables`, in their order): each hand's :data:`HandSpan` with the
    columns the final state and its audit give (the hand's result: reason, seat, player; its
    number of ``findings``). The one definition, used by :func:`game_rows` and
    :class:`~ledger.projections.game_builder.GameRowsBuilder`."""
    per_hand: dict[int | None, int] = {}
    for f in findings:
        per_hand[f.hand] = per_hand.get(f.hand, 0) + 1
    results = {r.hand: r for r in final.results}
    out: list[tuple[object, ...]] = []
    for hand, dealer, first_pos, last_pos, restored, turns, stock_left in spans:
        result = results.get(hand)
        seat = result.seat if result is not None else None
        out.append(
            (
                game,
                hand,
                dealer,
                first_pos,
                last_pos,
                last_pos - first_pos + 1,
                result.reason if result is not None else None,
                seat,
                final.name(seat) if seat is not None else None,
                turns,
                stock_left,
                restored,
                per_hand.get(hand, 0),
            )
        )
    return out


def meld_row(game: str, hand: int | None, m: Any, label: Any) -> tuple[object, ...]:
    """The ``melds`` row of meld ``m`` (a :class:`ledger.state.Meld`) as hand
    ``hand`` of ``game`` ended; ``label`` is the variant presentation's
    ``meld_extras`` (:meth:`ledger.variants.presentation.VariantPresentation.meld_extras`:
    meld -> its badges, e.g. ``{"burraco": "clean", "points": 200}``) or None.

    A tuple of the 14 columns of ``TABLES["melds"]``
    (:mod:`ledger.projections.tables`), in their order: ``(game, hand, meld,
    seat, side, kind, cards, size, wilds, valid, laid_at, burraco, points,
    label)``; ``burraco`` and ``points`` are None unless the badges give a
    string and an int, ``label`` is the badges as sorted-key JSON or None. Used by :func:`game_rows` and by
    :class:`~ledger.projections.game_builder.GameRowsBuilder`."""
    lab = dict(label(m)) if label is not None else None
    burraco = lab.get("burraco") if lab else None
    points = lab.get("points") if lab else None
    return (
        game,
        hand,
        m.id,
        m.seat,
        m.side,
        m.info.kind,
        list(m.cards),
        len(m.cards),
        m.info.wild_count,
        m.info.valid,
        m.laid_at,
        burraco if isinstance(burraco, str) else None,
        points if isinstance(points, int) and not isinstance(points, bool) else None,
        json.dumps(lab, sort_keys=True, default=str) if lab else None,
    )
