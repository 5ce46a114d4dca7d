"""Issue 26, "The front door": the smaller items a newcomer meets first."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

REPO = Path(__file__).resolve().parents[1]
#: 19, 16 and 13 events: with --batch 25 the second game is cut by the first transaction's end
THREE = [
    REPO / "fixtures" / "burraco" / "dispute.jsonl",
    REPO / "fixtures" / "scala40" / "jolly_swap.jsonl",
    REPO / "examples" / "live" / "club-live.jsonl",
]


def test_analytics_update_counts_each_game_once_however_the_batches_cut_it(run: Callable[..., Result]) -> None:
    """A game whose events fall into two transactions is one game updated (it was counted per transaction:
    "166 games updated" for a store of 150)."""
    assert run("import", "--no-analytics", *map(str, THREE)).exit_code == 0
    cut = run("analytics", "update", "--batch", "25")
    assert cut.exit_code == 0, cut.output
    assert cut.stdout.split(": ", 1)[1] == "3 games updated (48 events applied in 2 transactions)\n"
    # the twin: one transaction, the same three games
    whole = run("analytics", "update", "--rebuild")
    rebuilt = "3 games updated (48 events applied in 1 transaction) (rebuilt from scratch)\n"
    assert whole.stdout.split(": ", 1)[1] == rebuilt
    assert run("query", "--no-update", "--csv", "SELECT count(*) AS n FROM games").stdout == "n\n3\n"


NOT_JSON_LINES = "not a JSON Lines record: one event per line (this line only opens a pretty-printed JSON value)"
NON_JSON_LINES = (
    "non è un registro JSON Lines: un evento per riga "
    "(questa riga apre soltanto un valore JSON formattato su più righe)"
)


def test_a_pretty_printed_json_file_is_not_json_lines_en_it(run: Callable[..., Result], tmp_path: Path) -> None:
    """It said "malformed JSON (Input data was truncated)"; nothing is stored."""
    events = [json.loads(line) for line in (REPO / "examples" / "live" / "club-live.jsonl").read_text().splitlines()]
    one = tmp_path / "pretty.jsonl"
    one.write_text(json.dumps(events[0], indent=2))
    many = tmp_path / "pretty-list.jsonl"
    many.write_text(json.dumps(events, indent=1))
    result = run("import", "--no-analytics", str(one), str(many))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{one}:1: REC-FORMAT: {NOT_JSON_LINES}",
        f"{many}:1: REC-FORMAT: {NOT_JSON_LINES}",
    ]
    result = run("--lang", "it", "import", "--no-analytics", str(one))
    assert result.stderr.splitlines() == [f"{one}:1: REC-FORMAT: {NON_JSON_LINES}"]
    assert run("export", "club-live").exit_code == 2  # nothing stored
    # the twins: the same events one a line are stored; a line cut short is still malformed JSON
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert run("import", "--no-analytics", str(lines)).exit_code == 0
    cut = tmp_path / "cut.jsonl"
    cut.write_text(
        '{"type":"game_sta\n'
    )  # cut inside a value (a first line that stops after a comma opens a pretty-printed event)
    assert run("import", "--no-analytics", str(cut)).stderr.splitlines() == [
        f"{cut}:1: REC-FORMAT: malformed JSON (Input data was truncated)"
    ]


def test_query_on_an_unknown_table_names_the_views_tables_en_it(run: Callable[..., Result]) -> None:
    """DuckDB suggested its own catalog ("Did you mean "pg_sequences"?") for a name like none of the view's."""
    assert run("import", str(THREE[0])).exit_code == 0
    tables = "games, players, hands, events, melds, scores, findings"
    result = run("query", "--no-update", "SELECT * FROM nosuch")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:2] == [
        "Error: query failed: Catalog Error: Table with name nosuch does not exist!",
        f"the view's tables are {tables}",
    ]
    result = run("--lang", "it", "query", "--no-update", "SELECT * FROM nosuch")
    assert result.stderr.splitlines()[:2] == [
        "Error: query non riuscita: Catalog Error: Table with name nosuch does not exist!",
        f"le tabelle della vista sono {tables}",
    ]
    # the twin: a suggestion that is one of the view's tables stays DuckDB's
    result = run("query", "--no-update", "SELECT * FROM game")
    assert (result.exit_code, result.stderr.splitlines()[1]) == (2, 'Did you mean "games"?')
