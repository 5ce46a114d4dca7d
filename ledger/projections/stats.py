"""Player statistics: SQL views on the analytics tables and their per-player aggregates (issue 29).

Two row-level views hold one row per player and game (:data:`PLAYER_GAMES`)
and per player and hand (:data:`PLAYER_HANDS`); every statistic is an SQL
aggregate over them (:data:`STATS`: key, label msgid, SQL, the variants it
applies to), grouped by player and variant. :func:`create_views` makes them
views of the analytics database (``player_games``, ``player_hands``,
``player_stats_<variant>``, ``player_findings``), so ``rummy-ledger query``
and notebooks read them; :func:`player_stats` computes them for one player
under filters (variant, ruleset, tournament, dates, opponent), and for the
field (every player of the same games) beside. docs/stats.md gives each
definition with its SQL (:func:`markdown`).

Nothing here scores: points, burraco kinds, turns, meld points and deadwood
come from the fold's rows (tables.py: ``scores``, ``melds``, ``events.turn``,
``events.points``).

>>> [s.key for s in STATS if "gin" in s.variants][:3]
['games', 'won', 'win_rate']
>>> "pozzetto_by_turn" in aggregate_sql("burraco", by_turn=8)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, NamedTuple

import duckdb
import msgspec

from ledger.i18n import N_

#: the variants with statistics of their own, in display order
VARIANTS = ("burraco", "scala40", "ramino51", "ramino", "gin")
ALL = VARIANTS
THRESHOLD = ("scala40", "ramino51")
#: ``pozzetto_by_turn``'s N in the views (``stats --by-turn N`` for another)
BY_TURN = 10

#: one row per player (seat) and game: the result of the player's side
PLAYER_GAMES = """
SELECT g.game, p.seat, p.name, p.side, g.variant, g.ruleset, g.tournament, g.date, g.started_at,
       g.ended, g.hands_scored AS hands,
       g.totals[p.side + 1] AS total,
       CASE WHEN g.ended IS NULL THEN NULL
            WHEN g.winner = p.side THEN 'won'
            WHEN g.winner IS NULL THEN 'tied'
            ELSE 'lost' END AS result,
       [o.name FOR o IN t.seats IF o.side IS DISTINCT FROM p.side] AS opponents
FROM games g JOIN players p USING (game)
JOIN (SELECT game, list({'name': name, 'side': side} ORDER BY seat) AS seats FROM players GROUP BY game) t USING (game)
WHERE g.error IS NULL
"""

#: one row per player (seat) and scored hand: what the seat did in it (events not undone)
PLAYER_HANDS = """
WITH seat_events AS (
    SELECT game, hand, seat,
           max(turn) AS turns,
           count(*) FILTER (WHERE type = 'discard_taken') AS pile_takes,
           coalesce(sum(len(cards)) FILTER (WHERE type = 'discard_taken'), 0) AS pile_cards,
           min(turn) FILTER (WHERE type = 'pozzetto_taken') AS pozzetto_turn,
           min(turn) FILTER (WHERE type = 'meld_laid') AS opening_turn,
           min(turn) FILTER (WHERE type = 'knocked') AS knock_turn,
           min(points) FILTER (WHERE type = 'knocked') AS knock_deadwood
    FROM events
    WHERE NOT undone AND seat IS NOT NULL AND hand IS NOT NULL
    GROUP BY game, hand, seat),
openings AS (
    SELECT e.game, e.hand, e.seat, sum(e.points) AS opening_points
    FROM events e JOIN seat_events s
      ON s.game = e.game AND s.hand = e.hand AND s.seat = e.seat AND e.turn = s.opening_turn
    WHERE e.type = 'meld_laid' AND NOT e.undone
    GROUP BY e.game, e.hand, e.seat),
laid AS (
    SELECT game, hand, seat,
           count(*) FILTER (WHERE burraco = 'clean') AS clean,
           count(*) FILTER (WHERE burraco = 'semi-clean') AS semi_clean,
           count(*) FILTER (WHERE burraco = 'dirty') AS dirty
    FROM melds GROUP BY game, hand, seat),
faults AS (
    SELECT game, hand, seat, count(*) AS findings FROM findings GROUP BY game, hand, seat),
undercuts AS (
    SELECT DISTINCT game, hand, side FROM scores
    WHERE view = 'as_played' AND coalesce(breakdown['undercut_bonus'], 0) > 0)
SELECT h.game, h.hand, p.seat, p.name, p.side, g.variant, g.ruleset, g.tournament, g.date,
       a.points, s.points AS points_as_played, s.breakdown,
       coalesce(h.reason IN ('went_out', 'knocked') AND h.seat = p.seat, false) AS went_out,
       coalesce(h.reason = 'went_out' AND h.seat = p.seat AND s.breakdown['closing'] = 0, false) AS irregular_closing,
       coalesce(e.turns, 0) AS turns,
       coalesce(e.pile_takes, 0) AS pile_takes,
       coalesce(e.pile_cards, 0) AS pile_cards,
       e.pozzetto_turn, e.opening_turn, o.opening_points, e.knock_turn, e.knock_deadwood,
       e.knock_turn IS NOT NULL AND u.side IS NOT NULL AND u.side <> p.side AS undercut,
       coalesce(s.breakdown['undercut_bonus'], 0) > 0 AS undercut_made,
       coalesce(l.clean, 0) AS clean, coalesce(l.semi_clean, 0) AS semi_clean, coalesce(l.dirty, 0) AS dirty,
       coalesce(f.findings, 0) AS findings
FROM hands h
JOIN games g USING (game)
JOIN players p ON p.game = h.game
JOIN scores a ON a.game = h.game AND a.hand = h.hand AND a.side = p.side AND a.view = 'adjudicated'
JOIN scores s ON s.game = h.game AND s.hand = h.hand AND s.side = p.side AND s.view = 'as_played'
LEFT JOIN seat_events e ON e.game = h.game AND e.hand = h.hand AND e.seat = p.seat
LEFT JOIN openings o ON o.game = h.game AND o.hand = h.hand AND o.seat = p.seat
LEFT JOIN laid l ON l.game = h.game AND l.hand = h.hand AND l.seat = p.seat
LEFT JOIN faults f ON f.game = h.game AND f.hand = h.hand AND f.seat = p.seat
LEFT JOIN undercuts u ON u.game = h.game AND u.hand = h.hand AND u.side <> p.side
"""

#: findings at a player's seat per rule, per 100 of the player's turns (in the same variant)
PLAYER_FINDINGS = """
SELECT h.name, h.variant, f.rule, count(*) AS findings,
       100.0 * count(*) / (SELECT nullif(sum(t.turns), 0) FROM player_hands t
                           WHERE t.name = h.name AND t.variant = h.variant) AS per_100_turns
FROM findings f JOIN player_hands h ON h.game = f.game AND h.hand = f.hand AND h.seat = f.seat
GROUP BY h.name, h.variant, f.rule
"""


class Stat(NamedTuple):
    """One statistic: ``key`` (JSON name), ``label`` (English msgid),
    ``sql`` (an aggregate over ``player_games`` when ``source`` is
    ``"games"``, else ``player_hands``), the ``variants`` it is given for, and
    ``kind`` (``count``, ``mean``, ``rate``: a share 0..1) for display."""

    key: str
    label: str
    sql: str
    variants: tuple[str, ...]
    source: str = "hands"
    kind: str = "mean"


STATS: tuple[Stat, ...] = (
    Stat("games", N_("games"), "count(*)", ALL, "games", "count"),
    Stat("won", N_("games won"), "count(*) FILTER (WHERE result = 'won')", ALL, "games", "count"),
    Stat("win_rate", N_("win rate (finished games)"), "avg((result = 'won')::INTEGER)", ALL, "games", "rate"),
    Stat("game_points", N_("points per game (side total)"), "avg(total)", ALL, "games"),
    Stat("hands", N_("hands"), "count(*)", ALL, kind="count"),
    Stat("hand_points", N_("points per hand (adjudicated)"), "avg(points)", ALL),
    Stat("went_out_rate", N_("hands closed by the player"), "avg(went_out::INTEGER)", ALL, kind="rate"),
    Stat("turns", N_("turns played"), "sum(turns)", ALL, kind="count"),
    Stat("pile_takes", N_("discard-pile pick-ups"), "sum(pile_takes)", ALL, kind="count"),
    Stat("pile_takes_per_hand", N_("discard-pile pick-ups per hand"), "avg(pile_takes)", ALL),
    Stat(
        "findings_per_100_turns",
        N_("rule findings per 100 turns"),
        "100.0 * sum(findings) / nullif(sum(turns), 0)",
        ALL,
    ),
    # Burraco
    Stat("pozzetti", N_("pozzetti taken"), "count(pozzetto_turn)", ("burraco",), kind="count"),
    Stat("pozzetto_turn", N_("turn of the pozzetto (mean)"), "avg(pozzetto_turn)", ("burraco",)),
    Stat(
        "pozzetto_by_turn",
        N_("hands with the pozzetto taken by turn %(turn)s"),
        "avg(coalesce(pozzetto_turn <= {by_turn}, false)::INTEGER)",
        ("burraco",),
        kind="rate",
    ),
    Stat("clean_per_hand", N_("clean burracos per hand"), "avg(clean)", ("burraco",)),
    Stat("semi_clean_per_hand", N_("semi-clean burracos per hand"), "avg(semi_clean)", ("burraco",)),
    Stat("dirty_per_hand", N_("dirty burracos per hand"), "avg(dirty)", ("burraco",)),
    Stat("pile_size", N_("cards per discard-pile pick-up"), "sum(pile_cards) / nullif(sum(pile_takes), 0)", ALL),
    Stat("closings", N_("closings"), "count(*) FILTER (WHERE went_out)", ("burraco",), kind="count"),
    Stat(
        "irregular_closings",
        N_("irregular closings (no closing bonus)"),
        "count(*) FILTER (WHERE irregular_closing)",
        ("burraco",),
        kind="count",
    ),
    # Scala 40, Ramino 51
    Stat("opened_rate", N_("hands opened"), "avg((opening_turn IS NOT NULL)::INTEGER)", THRESHOLD, kind="rate"),
    Stat("opening_turn", N_("opening turn (mean)"), "avg(opening_turn)", THRESHOLD),
    Stat("opening_points", N_("opening points (mean)"), "avg(opening_points)", THRESHOLD),
    Stat(
        "points_left",
        N_("points charged for the hand left (mean, hands not closed)"),
        "avg(points_as_played) FILTER (WHERE NOT went_out)",
        THRESHOLD,
    ),
    # Gin
    Stat("knocks", N_("knocks (gin included)"), "count(knock_turn)", ("gin",), kind="count"),
    Stat("knock_deadwood", N_("deadwood at the knock (mean)"), "avg(knock_deadwood)", ("gin",)),
    Stat("gin_rate", N_("gin rate (of knocks)"), "avg((knock_deadwood = 0)::INTEGER)", ("gin",), kind="rate"),
    Stat(
        "undercut_rate",
        N_("undercut rate (of knocks)"),
        "avg(undercut::INTEGER) FILTER (WHERE knock_turn IS NOT NULL)",
        ("gin",),
        kind="rate",
    ),
    Stat(
        "undercuts_made",
        N_("undercuts made (as defender)"),
        "count(*) FILTER (WHERE undercut_made)",
        ("gin",),
        kind="count",
    ),
    Stat("turns_to_knock", N_("turns to knock (mean)"), "avg(knock_turn)", ("gin",)),
)


def stats_of(variant: str) -> list[Stat]:
    """The statistics given for ``variant``, in :data:`STATS` order."""
    return [s for s in STATS if variant in s.variants]


def aggregate_sql(variant: str, *, by_turn: int = BY_TURN, group: str = "name") -> str:
    """The statistics of ``variant`` as one query over ``player_games`` and
    ``player_hands``: a row per ``group`` (``name``: per player; ``'field'``
    or another constant: one row), columns ``who`` then each stat's key.
    ``by_turn``: N of ``pozzetto_by_turn`` (an int, written into the SQL)."""
    wanted = stats_of(variant)
    turn = int(by_turn)

    def part(source: str) -> str:
        cols = ", ".join(f"{s.sql.format(by_turn=turn)} AS {s.key}" for s in wanted if s.source == source)
        table = "player_games" if source == "games" else "player_hands"
        return f"SELECT {group} AS who, {cols} FROM {table} WHERE variant = '{variant}' GROUP BY ALL"

    keys = ", ".join(s.key for s in wanted)
    return f"SELECT who, {keys} FROM ({part('games')}) FULL JOIN ({part('hands')}) USING (who)"


VIEWS: dict[str, str] = {
    "player_games": PLAYER_GAMES,
    "player_hands": PLAYER_HANDS,
    **{f"player_stats_{v}": aggregate_sql(v) for v in VARIANTS},
    "player_findings": PLAYER_FINDINGS,
}


def create_views(con: duckdb.DuckDBPyConnection) -> None:
    """Create (or replace) :data:`VIEWS` in the analytics database of ``con``."""
    for name, sql in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")


class Filters(msgspec.Struct, frozen=True, kw_only=True):
    """Which games count: every filter given applies (AND); an empty one is no filter.

    ``variants``, ``rulesets``, ``tournaments`` (``meta.tournament``): any of
    them; ``since``/``until``: ``games.date`` within the range (inclusive);
    ``opponents``: a player of that name sat on another side (any of them).
    """

    variants: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    tournaments: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None
    opponents: tuple[str, ...] = ()
    #: only games that have ended (the viewer's player page: a finished game is public)
    finished: bool = False

    def where(self, player: str | None) -> tuple[str, list[object]]:
        """The SQL condition on a ``player_games``/``player_hands`` row and its
        parameters; ``player``: that player's rows and the others' in the same games."""
        parts: list[str] = []
        params: list[object] = []
        for column, values in (("variant", self.variants), ("ruleset", self.rulesets)):
            if values:
                parts.append(f"{column} IN (SELECT unnest(?))")
                params.append(list(values))
        if self.tournaments:
            parts.append("tournament IN (SELECT unnest(?))")
            params.append(list(self.tournaments))
        if self.since is not None:
            parts.append("date >= ?")
            params.append(self.since)
        if self.until is not None:
            parts.append("date <= ?")
            params.append(self.until)
        if self.finished:
            parts.append("game IN (SELECT game FROM main.games WHERE ended IS NOT NULL)")
        if player is not None:
            mine = "SELECT game FROM main.player_games WHERE name = ?"
            params.append(player)
            if self.opponents:
                mine += " AND list_has_any(opponents, ?)"
                params.append(list(self.opponents))
            parts.append(f"game IN ({mine})")
        return (" AND ".join(parts) if parts else "TRUE"), params


class VariantStats(msgspec.Struct, frozen=True, kw_only=True):
    """One variant's statistics of a player (``player``) and of the field
    (``field``: every player of the same games, the player included), by key;
    ``findings``: ``[{rule, findings, per_100_turns}]`` at the player's seat."""

    variant: str
    player: dict[str, Any]
    field: dict[str, Any]
    findings: list[dict[str, Any]]


def player_stats(
    con: duckdb.DuckDBPyConnection, player: str, filters: Filters | None = None, *, by_turn: int = BY_TURN
) -> list[VariantStats]:
    """``player``'s statistics per variant they played in the chosen games
    (:class:`Filters`), with the field's beside (:class:`VariantStats`; empty
    list: no such game). Numbers are as DuckDB gives them (ints; floats for
    means and rates; None where nothing was counted). ``con``: the analytics
    view (with :func:`create_views` done)."""
    filters = filters or Filters()
    cond, params = filters.where(player)
    # the chosen games' rows copied once into temporary tables of the same names (a read-only view
    # allows them; unqualified names find the temporary schema first), then the row views and the
    # aggregates over those: the view's other games are read once, by the copy's scan
    temp = ["_chosen", *_BASE, "player_games", "player_hands"]
    try:
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE _chosen AS SELECT DISTINCT game FROM main.player_games WHERE {cond}", params
        )
        for table, columns in _BASE.items():
            con.execute(
                f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT {columns} FROM main.{table} "
                "WHERE game IN (SELECT game FROM temp._chosen)"
            )
        con.execute(f"CREATE OR REPLACE TEMP TABLE player_games AS {PLAYER_GAMES}")
        con.execute(f"CREATE OR REPLACE TEMP TABLE player_hands AS {PLAYER_HANDS}")
        return _variant_stats(con, player, by_turn)
    finally:
        for table in temp:
            con.execute(f"DROP TABLE IF EXISTS temp.{table}")


#: the tables the row views read, and the columns they need (``events.json`` and ``text`` are most of the view)
_BASE = {
    "games": "*",
    "players": "*",
    "hands": "*",
    "events": "game, hand, seat, type, cards, undone, turn, points",
    "melds": "game, hand, seat, burraco",
    "scores": "*",
    "findings": "game, hand, seat, rule",
}


def _variant_stats(con: duckdb.DuckDBPyConnection, player: str, by_turn: int) -> list[VariantStats]:
    """:func:`player_stats` over the chosen rows (the temporary tables)."""
    found = con.execute("SELECT DISTINCT variant FROM temp.player_games WHERE name = ?", [player]).fetchall()
    out = []
    for variant in sorted((r[0] for r in found), key=lambda v: VARIANTS.index(v) if v in VARIANTS else len(VARIANTS)):
        keys = [s.key for s in stats_of(variant)]
        sql = aggregate_sql(variant, by_turn=by_turn, group="CASE WHEN name = ? THEN 'player' ELSE 'other' END")
        mine = _row(con, sql, [player, player], keys)
        field = _row(con, aggregate_sql(variant, by_turn=by_turn, group="'field'"), [], keys)
        rules = con.execute(
            "SELECT rule, findings, per_100_turns FROM (" + PLAYER_FINDINGS + ") "
            "WHERE name = ? AND variant = ? ORDER BY findings DESC, rule",
            [player, variant],
        ).fetchall()
        out.append(
            VariantStats(
                variant=variant,
                player=mine.get("player", {}),
                field=field.get("field", {}),
                findings=[{"rule": r, "findings": n, "per_100_turns": p} for r, n, p in rules],
            )
        )
    return out


class Series(msgspec.Struct, frozen=True, kw_only=True):
    """What the player page plots for one variant: ``hand_points`` (the
    player's side's adjudicated points of each hand) and ``games`` (each
    game's ``[date or None, total, result]`` in date order, then start time
    and id)."""

    variant: str
    hand_points: list[int]
    games: list[tuple[date | None, int | None, str | None]]


def player_series(con: duckdb.DuckDBPyConnection, player: str, filters: Filters | None = None) -> dict[str, Series]:
    """``{variant: Series}`` of ``player`` in the chosen games (see :func:`player_stats`)."""
    cond, params = (filters or Filters()).where(player)
    hands = con.execute(
        f"SELECT variant, list(points ORDER BY game, hand) FROM main.player_hands WHERE {cond} AND name = ? "
        "GROUP BY variant",
        [*params, player],
    ).fetchall()
    games = con.execute(
        f"SELECT variant, list([date::VARCHAR, total::VARCHAR, result] ORDER BY date NULLS LAST, started_at, game) "
        f"FROM main.player_games WHERE {cond} AND name = ? GROUP BY variant",
        [*params, player],
    ).fetchall()
    by_variant = {
        v: [(date.fromisoformat(d) if d else None, int(t) if t else None, r) for d, t, r in g] for v, g in games
    }
    return {v: Series(variant=v, hand_points=[int(p) for p in h], games=by_variant.get(v, [])) for v, h in hands}


def _row(
    con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[object], keys: list[str]
) -> dict[str, dict[str, object]]:
    """``{who: {key: value}}`` of an :func:`aggregate_sql` result."""
    return {r[0]: dict(zip(keys, (_plain(v) for v in r[1:]))) for r in con.execute(sql, list(params)).fetchall()}


def _plain(value: Any) -> Any:
    """A DuckDB number as a JSON-ready one (a HUGEINT sum or DECIMAL as int/float)."""
    if value is None or isinstance(value, (int, float)):
        return value
    return float(value)


def cell(stat: Stat, value: Any) -> str:
    """A statistic's value as the table shows it: counts as ints, rates in
    per cent with one decimal, means with two; ``-`` for none."""
    if value is None:
        return "-"
    if stat.kind == "rate":
        return f"{100 * value:.1f} %"
    if stat.kind == "count":
        return str(int(value))
    return f"{value:.2f}"


def stat_label(tr: Any, stat: Stat, by_turn: int) -> str:
    """The statistic's label in the language of ``tr``."""
    text: str = tr.gettext(stat.label)
    return text % {"turn": by_turn} if "%(turn)s" in stat.label else text


def markdown() -> str:
    """The statistics as Markdown: key, meaning, variants and SQL (docs/stats.md)."""
    out = ["| key | statistic | variants | from | SQL |", "| --- | --- | --- | --- | --- |"]
    for s in STATS:
        where = "all" if s.variants == ALL else ", ".join(s.variants)
        label = s.label % {"turn": "N"} if "%(turn)s" in s.label else s.label
        sql = s.sql.replace("|", "\\|")
        out.append(f"| `{s.key}` | {label} | {where} | `player_{s.source}` | `{sql}` |")
    return "\n".join(out) + "\n"
