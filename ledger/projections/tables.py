"""The analytics tables: one declaration gives the DuckDB DDL, the Arrow schema and the docs.

Each table is a tuple of :class:`Column` (name, DuckDB type, meaning with
unit). :data:`TABLES` is the whole read model, in export order; every table
has a ``game`` column (the record's ``game_id``), which is how a game's rows
are replaced when its events arrive.

>>> [t for t in TABLES][:3]
['games', 'players', 'hands']
>>> create_statement("findings").splitlines()[0]
'CREATE TABLE IF NOT EXISTS findings ('
>>> arrow_schema("findings").names
['game', 'position', 'hand', 'seat', 'rule', 'message']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import pyarrow as pa

#: bump when a table's columns change: an older view is rebuilt from scratch
SCHEMA_VERSION = 3  # 2: points and totals are BIGINT (penalties may sum past 2**31); 3: events.turn, events.points


class Column(NamedTuple):
    """A column: ``name``, DuckDB ``type`` and ``doc`` (meaning and unit)."""

    name: str
    type: str
    doc: str


_GAME = Column("game", "VARCHAR", "the record's `game_id`")

TABLES: dict[str, tuple[Column, ...]] = {
    "games": (
        _GAME,
        Column("stream", "VARCHAR", "the store's sequence id of the game (uuid5 of the game id, 32 hex digits)"),
        Column("variant", "VARCHAR", "`burraco`, `scala40`, `ramino`, `ramino51` or `gin`"),
        Column("ruleset", "VARCHAR", "preset in force (the variant's default when the record names none)"),
        Column("options", "VARCHAR", "the record's `options` as a JSON object (NULL when none)"),
        Column("players", "VARCHAR[]", "player names in seat order"),
        Column("seats", "INTEGER", "number of seats at the table"),
        Column("unit", "VARCHAR", "what a scoring side is: `seat` or `team`"),
        Column("meta", "MAP(VARCHAR, VARCHAR)", "the record's `meta` (tournament, round, table, date, referee, site)"),
        Column("tournament", "VARCHAR", "`meta.tournament`"),
        Column(
            "date",
            "DATE",
            "`meta.date` when it is an ISO date (YYYY-MM-DD), else the UTC day of the first `at`; NULL when "
            "neither (the games list's rule, `ledger.game_summary.game_date`)",
        ),
        Column("started_at", "TIMESTAMPTZ", "`at` of the first event that has one (UTC)"),
        Column("events", "INTEGER", "events in the record (positions 0..events-1)"),
        Column("hands", "INTEGER", "hands dealt"),
        Column("hands_scored", "INTEGER", "hands closed by `hand_ended` (scored)"),
        Column("ended", "VARCHAR", "`game_ended` reason; NULL while the game goes on"),
        Column(
            "winner", "INTEGER", "winning side (seat or team, see `unit`) once ended; NULL on a tie or while playing"
        ),
        Column("winner_names", "VARCHAR[]", "names of the winner's seats"),
        Column("totals", "BIGINT[]", "final points per side as adjudicated (referee penalties applied), side order"),
        Column("totals_as_played", "BIGINT[]", "final points per side without referee penalties"),
        Column("findings", "INTEGER", "number of rule violations found (rows in `findings`)"),
        Column(
            "error",
            "VARCHAR",
            "why the fold could not replay the game with this build (then only `games`, `players` and `events` "
            "rows exist); NULL normally",
        ),
    ),
    "players": (
        _GAME,
        Column("seat", "INTEGER", "0-based seat, clockwise"),
        Column("name", "VARCHAR", "player name"),
        Column("team", "INTEGER", "team in partnership games, else NULL"),
        Column("side", "INTEGER", "scoring side of the seat (the team in partnerships, else the seat)"),
    ),
    "hands": (
        _GAME,
        Column("hand", "INTEGER", "1-based hand number"),
        Column("dealer", "INTEGER", "dealer's seat"),
        Column("first_position", "INTEGER", "position of the `hand_dealt`"),
        Column(
            "last_position",
            "INTEGER",
            "position of the hand's last event: the one before the next `hand_dealt` (or before `game_ended`); "
            "penalties after `hand_ended` belong to the hand",
        ),
        Column("events", "INTEGER", "events from `hand_dealt` to `last_position` inclusive"),
        Column(
            "reason",
            "VARCHAR",
            "how it ended: `hand_ended` reason (`went_out`, `knocked`, `stock_exhausted`, ...); NULL while in play",
        ),
        Column("seat", "INTEGER", "who went out or knocked (`hand_ended.seat`), else NULL"),
        Column("player", "VARCHAR", "that seat's name"),
        Column("turns", "INTEGER", "turns begun in the hand, all seats (as the fold counts them, after restorations)"),
        Column("stock_left", "INTEGER", "cards left in the stock at the end (count)"),
        Column("restored", "INTEGER", "`position_restored` events in the hand"),
        Column("findings", "INTEGER", "rule violations found at positions of the hand"),
    ),
    "events": (
        _GAME,
        Column("position", "INTEGER", "0-based position in the record"),
        Column("hand", "INTEGER", "hand in play after the event (NULL before the first deal)"),
        Column("seat", "INTEGER", "the event's `seat` (NULL for events without one)"),
        Column("type", "VARCHAR", "event type (`card_drawn`, `discard_taken`, `meld_laid`, ...)"),
        Column("meld", "VARCHAR", "meld id of `meld_laid`/`meld_extended`/`joker_swapped`"),
        Column(
            "cards",
            "VARCHAR[]",
            "the cards the event moves (canonical strings): drawn, taken, laid, added, discarded; "
            "`joker_swapped`: [card put in, wild taken]; `knocked`: melded cards, deadwood, then the discard; "
            "`hand_dealt`: the upcard(s); `pozzetto_taken`/`stock_restocked`: the cards when recorded",
        ),
        Column(
            "at",
            "TIMESTAMPTZ",
            'the event\'s `at` (UTC), NULL when not recorded; `at` is an SQL keyword: write `"at"` in queries',
        ),
        Column("text", "VARCHAR", "one line of move notation (`ledger.notation.notation`)"),
        Column("undone", "BOOLEAN", "true when a later `position_restored` rewound past it (it no longer counts)"),
        Column("json", "VARCHAR", "the event as stored (canonical JSON, FORMAT.md)"),
        Column(
            "turn",
            "INTEGER",
            "the acting seat's turn number in the hand after the event (1 in its first turn; the fold's "
            "`turns`, after restorations); NULL for events without a seat or before the first deal",
        ),
        Column(
            "points",
            "INTEGER",
            "`meld_laid`/`meld_extended`: the meld's points right after the event as the variant labels them "
            "(Burraco: card values; Scala 40, Ramino 51: its opening value); `knocked` (Gin): the knocker's "
            "counted deadwood; NULL otherwise",
        ),
    ),
    "melds": (
        _GAME,
        Column("hand", "INTEGER", "hand number"),
        Column("meld", "VARCHAR", "meld id (unique within the hand)"),
        Column("seat", "INTEGER", "seat that laid it"),
        Column("side", "INTEGER", "that seat's side"),
        Column("kind", "VARCHAR", "`set`, `sequence` or `invalid`"),
        Column("cards", "VARCHAR[]", "cards in table order when the hand ended"),
        Column("size", "INTEGER", "number of cards"),
        Column("wilds", "INTEGER", "wild cards counting against the limit (a natural 2 in place is not one)"),
        Column("valid", "BOOLEAN", "the meld is legal as it stands"),
        Column("laid_at", "INTEGER", "position of its `meld_laid`"),
        Column(
            "burraco",
            "VARCHAR",
            "Burraco kind as the variant labels it: `clean`, `semi-clean` or `dirty`; NULL when the meld is not "
            "a burraco or the variant has none",
        ),
        Column(
            "points",
            "INTEGER",
            "card points of the meld as the variant labels them (Burraco: card values, without the burraco "
            "bonus); NULL when the variant gives none",
        ),
        Column("label", "VARCHAR", "the variant's whole meld label as JSON (NULL when none)"),
    ),
    "scores": (
        _GAME,
        Column("hand", "INTEGER", "hand number"),
        Column(
            "view", "VARCHAR", "`adjudicated` (referee penalties applied: what `score --json` prints) or `as_played`"
        ),
        Column("unit", "VARCHAR", "`seat` or `team`"),
        Column("side", "INTEGER", "the side: the seat, or the team in partnerships"),
        Column("seat", "INTEGER", "= side when unit is `seat`, else NULL"),
        Column("team", "INTEGER", "= side when unit is `team`, else NULL"),
        Column("names", "VARCHAR[]", "names of the side's seats"),
        Column("points", "BIGINT", "points of the side for the hand (game points)"),
        Column(
            "breakdown",
            "MAP(VARCHAR, BIGINT)",
            "every breakdown component of those points, name -> points (README, score components; `penalty` in "
            "the adjudicated view)",
        ),
        Column(
            "claimed", "BIGINT", "points the record's `hand_ended.claimed` sheet gave the side; NULL when not claimed"
        ),
    ),
    "findings": (
        _GAME,
        Column("position", "INTEGER", "position of the event that breaks the rule"),
        Column("hand", "INTEGER", "hand number (NULL outside a hand)"),
        Column("seat", "INTEGER", "seat at fault (NULL when none)"),
        Column("rule", "VARCHAR", "RULES.md rule id"),
        Column("message", "VARCHAR", "the finding in plain words"),
    ),
}

_ARROW: dict[str, pa.DataType] = {
    "VARCHAR": pa.string(),
    "INTEGER": pa.int32(),
    "BOOLEAN": pa.bool_(),
    "DATE": pa.date32(),
    "TIMESTAMPTZ": pa.timestamp("us", tz="UTC"),
    "VARCHAR[]": pa.list_(pa.string()),
    "INTEGER[]": pa.list_(pa.int32()),
    "BIGINT": pa.int64(),
    "BIGINT[]": pa.list_(pa.int64()),
    "MAP(VARCHAR, VARCHAR)": pa.map_(pa.string(), pa.string()),
    "MAP(VARCHAR, INTEGER)": pa.map_(pa.string(), pa.int32()),
    "MAP(VARCHAR, BIGINT)": pa.map_(pa.string(), pa.int64()),
}


def create_statement(table: str) -> str:
    """``CREATE TABLE IF NOT EXISTS`` for one table of :data:`TABLES`."""
    cols = ",\n".join(f'    "{c.name}" {c.type}' for c in TABLES[table])
    return f"CREATE TABLE IF NOT EXISTS {table} (\n{cols}\n)"


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema of one table (the column order of the DuckDB table)."""
    return pa.schema([pa.field(c.name, _ARROW[c.type]) for c in TABLES[table]])


def to_arrow(table: str, rows: Sequence[tuple[object, ...]]) -> pa.Table:
    """Rows (tuples in column order) as an Arrow table of :func:`arrow_schema`;
    ``MAP`` values are given as dicts.

    The buffers come from Arrow's system (malloc) pool, not its default
    mimalloc pool: these tables live for one insert, and mimalloc kept the
    freed pages (an update's peak RSS about 16 MB higher, bench/RESULTS.md)."""
    schema = arrow_schema(table)
    columns = list(zip(*rows)) if rows else [()] * len(schema)
    pool = pa.system_memory_pool()
    arrays = []
    for field, values in zip(schema, columns):
        if pa.types.is_map(field.type):
            items = [list(v.items()) if v is not None else None for v in values]
            arrays.append(pa.array(items, type=field.type, memory_pool=pool))
        else:
            arrays.append(pa.array(values, type=field.type, memory_pool=pool))
    return pa.Table.from_arrays(arrays, schema=schema)


def markdown() -> str:
    """The tables as Markdown (the README section's column lists)."""
    out = []
    for table, cols in TABLES.items():
        out.append(f"#### `{table}`\n\n| column | type | meaning (unit) |\n| --- | --- | --- |")
        out += [f"| `{c.name}` | `{c.type}` | {c.doc} |" for c in cols]
        out.append("")
    return "\n".join(out)
