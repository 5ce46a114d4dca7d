"""The CLI's write path: ``import`` of a longer file, ``append``, ``rule``,
``export --with-journal`` (click's CliRunner on a real SQLite file; one run
on PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.store.application import LedgerApp
from ledger.store.journal import os_user

MakeRecord = Callable[..., bytes]
WriteRecord = Callable[..., Path]


def summary_row(output: str, name: str) -> list[str]:
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if cells and cells[0] == name:
            return cells[1:]
    raise AssertionError(f"no row {name!r} in:\n{output}")


def stored(db: str, game_id: str) -> tuple[bytes, list]:
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})
    try:
        return app.export_record(game_id), app.journal(game_id)
    finally:
        app.close()


def test_import_of_a_longer_file_appends_the_tail(
    run: Callable[..., Result], write_record_file: WriteRecord, make_record: MakeRecord, db: str
) -> None:
    data = make_record("club-t2", turns=6)  # 16 events
    lines = data.splitlines(keepends=True)
    first = write_record_file("club-t2", b"".join(lines[:11]), name="first")
    assert run("import", "--no-analytics", str(first)).exit_code == 0
    full = write_record_file("club-t2", data, name="full")
    result = run("import", "--no-analytics", str(full))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "club-t2: 5 events appended (11 → 16)"
    assert summary_row(result.stdout, "appended") == ["1", "1", "5"]
    assert summary_row(result.stdout, "stored") == ["0", "0", "0"]
    record, journal = stored(db, "club-t2")
    assert record == data
    assert [j.appended_by for j in journal] == [f"import:{os_user()}"] * 16


def test_import_of_a_file_differing_inside_the_stored_part_names_the_line(
    run: Callable[..., Result], write_record_file: WriteRecord, make_record: MakeRecord
) -> None:
    data = make_record("club-t3", turns=6)
    lines = data.splitlines(keepends=True)
    assert (
        run("import", "--no-analytics", str(write_record_file("club-t3", b"".join(lines[:11]), name="first"))).exit_code
        == 0
    )
    other = write_record_file("club-t3", make_record("club-t3", turns=6, seed=4), name="other")  # another deal
    result = run("import", "--no-analytics", str(other))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"{other}: game 'club-t3' is already stored with different events "
        "(11 events stored, 16 in this record, first difference at position 1, line 2); refused"
    )


DISPUTE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"


@pytest.fixture
def dispute(run: Callable[..., Result], tmp_path: Path) -> list[bytes]:
    """The Burraco dispute's first 12 events stored (imported); returns all 19 lines."""
    lines = DISPUTE.read_bytes().splitlines(keepends=True)
    first = tmp_path / "part.jsonl"
    first.write_bytes(b"".join(lines[:12]))
    assert run("import", "--no-analytics", str(first)).exit_code == 0
    return lines


def test_append_a_file_prints_what_was_stored_and_the_findings(
    run: Callable[..., Result], dispute: list[bytes], tmp_path: Path, db: str
) -> None:
    tail = tmp_path / "tail.jsonl"
    tail.write_bytes(b"".join(dispute[12:18]))
    result = run("append", "bur-dispute", str(tail))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "bur-dispute: 6 events appended (12 → 18)",
        "  position 15 (hand 1, seat 0): ALL-TURN-1: Anna played out of turn: it was Bruno's turn",
        "  position 17 (hand 1, seat 0): ALL-SCORE-1: hand 1: claimed 0 for Anna, computed -70 (difference +70); "
        "computed as melds +55, hand -25, no_pozzetto -100",
        "game over (hands_played): game_ended is next",
    ]
    ended = run("append", "bur-dispute", "-", input=dispute[18])
    assert ended.stdout.splitlines() == ["bur-dispute: 1 event appended (18 → 19)", "game ended (hands_played)"]
    record, journal = stored(db, "bur-dispute")
    assert record == encode_record(read_record(DISPUTE).events)
    assert [j.appended_by for j in journal] == [f"import:{os_user()}"] * 12 + [f"cli:{os_user()}"] * 7


def test_append_refusals_exit_2_and_store_nothing(
    run: Callable[..., Result], dispute: list[bytes], tmp_path: Path, db: str
) -> None:
    before = stored(db, "bur-dispute")
    # the second event of the two is impossible: the first is not stored either
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(dispute[12] + b"// a comment\n" + b'{"type":"card_discarded","seat":1,"card":"JK"}\n')
    result = run("append", "bur-dispute", str(bad))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{bad}:3: card: REC-WHERE: Bruno (seat 1) does not hold JK\n"
    malformed = run("append", "bur-dispute", "-", input=b'{"type":"card_drawn","seat":1}\n')
    assert (malformed.exit_code, malformed.stderr) == (
        2,
        "<stdin>:1: card: REC-FORMAT: missing required field 'card'\n",
    )
    empty = run("append", "bur-dispute", "-", input=b"\n// nothing\n")
    assert (empty.exit_code, empty.stderr) == (2, "<stdin>: REC-FORMAT: no events to append\n")
    nothing_for_unknown = run("append", "nope", "-", input=b"")
    assert (nothing_for_unknown.exit_code, nothing_for_unknown.stderr) == (
        2,
        f"rummy-ledger: error: no game 'nope' in the store (SQLite {db})\n",
    )
    in_italian = run("--lang", "it", "append", "nope", "-", input=b"// nothing\n")
    assert (in_italian.exit_code, in_italian.stderr) == (
        2,
        f"rummy-ledger: errore: nessuna partita 'nope' nell'archivio (SQLite {db})\n",
    )
    unknown = run("append", "nope", "-", input=dispute[12])
    assert (unknown.exit_code, unknown.stderr) == (
        2,
        f"rummy-ledger: error: no game 'nope' in the store (SQLite {db})\n",
    )
    again = run("append", "bur-dispute", "-", input=dispute[0])
    assert (again.exit_code, again.stderr) == (
        2,
        "rummy-ledger: error: game 'bur-dispute' already exists (12 events stored); game_started opens a new "
        "game only\n",
    )
    missing = run("append", "bur-dispute", str(tmp_path / "missing.jsonl"))
    assert missing.exit_code == 2 and "missing.jsonl" in missing.stderr
    assert stored(db, "bur-dispute") == before
    # after game_ended: REC-ORDER, but for a referee's penalty (FORMAT.md "Rulings after the game")
    assert run("append", "bur-dispute", "-", input=b"".join(dispute[12:])).exit_code == 0
    late = run("append", "bur-dispute", "-", input=b'{"type":"card_drawn","seat":0,"card":"5C"}\n')
    assert (late.exit_code, late.stderr) == (2, "<stdin>:1: type: REC-ORDER: card_drawn after game_ended\n")
    assert stored(db, "bur-dispute")[0].count(b"\n") == 19


def test_rule_penalty_citing_a_finding(run: Callable[..., Result], dispute: list[bytes], db: str) -> None:
    result = run(
        "rule",
        "bur-dispute",
        "--penalty",
        "1",
        "-50",
        "--rule",
        "BUR-PILE-1",
        "--finding",
        "5",
        "--referee",
        "Carla Bianchi",
        "--note",
        "kept the card taken",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "bur-dispute: penalty_assessed stored at position 12",
        "totals: Anna 0, Bruno -100",
    ]
    team = run("rule", "bur-dispute", "--penalty", "seat:0", "+20", "--rule", "ALL-MELD-1")
    assert team.stdout.splitlines() == [
        "bur-dispute: penalty_assessed stored at position 13",
        "totals: Anna 20, Bruno -100",
    ]
    record, journal = stored(db, "bur-dispute")
    assert record.splitlines()[12:] == [
        b'{"type":"penalty_assessed","note":"kept the card '
        b'taken","seat":1,"points":-50,"rule":"BUR-PILE-1","finding":5,"referee":"Carla Bianchi"}',
        b'{"type":"penalty_assessed","seat":0,"points":20,"rule":"ALL-MELD-1"}',
    ]
    assert [j.appended_by for j in journal[12:]] == [f"cli:{os_user()}"] * 2


def test_rule_restore(run: Callable[..., Result], dispute: list[bytes], tmp_path: Path, db: str) -> None:
    tail = tmp_path / "tail.jsonl"
    tail.write_bytes(b"".join(dispute[12:16]))  # through Anna's out-of-turn discard at 15
    assert run("append", "bur-dispute", str(tail)).exit_code == 0
    result = run(
        "rule",
        "bur-dispute",
        "--restore",
        "14",
        "--reason",
        "Anna played out of turn",
        "--finding",
        "15",
        "--referee",
        "Carla",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "bur-dispute: position_restored stored at position 16",
        "totals: Anna 0, Bruno -50",
    ]
    record, _ = stored(db, "bur-dispute")
    assert record.splitlines()[16] == (
        b'{"type":"position_restored","target":14,"reason":"Anna played out of turn","finding":15,"referee":"Carla"}'
    )


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (
            ["--penalty", "1", "-50", "--rule", "BUR-PILE-1", "--finding", "6"],
            "bur-dispute: position 12: finding: REC-REF: position 6 carries no finding to rule on",
        ),
        (
            ["--penalty", "1", "-50", "--rule", "BUR-PILE-1", "--finding", "12"],
            "bur-dispute: position 12: finding: REC-REF: finding 12 is not an earlier position (this ruling is "
            "position 12)",
        ),
        (
            ["--penalty", "team:1", "10", "--rule", "BUR-PILE-1"],
            "bur-dispute: position 12: team: REC-REF: unknown team 1",
        ),
        (
            ["--penalty", "7", "10", "--rule", "BUR-PILE-1"],
            "bur-dispute: position 12: seat: REC-REF: unknown seat 7 (the table has seats 0–1)",
        ),
        (
            ["--penalty", "1", "10", "--rule", "NOPE-1"],
            "bur-dispute: position 12: rule: REC-REF: unknown rule id 'NOPE-1': a penalty cites a RULES.md rule",
        ),
        (
            ["--penalty", "1", "10", "--rule", "bad id"],
            "bur-dispute: position 12: rule: REC-FORMAT: value 'bad id' does not match the pattern "
            "'^[A-Z0-9]+-[A-Z0-9-]+$'",
        ),
        (
            ["--penalty", "1", "2000000", "--rule", "BUR-PILE-1"],
            "bur-dispute: position 12: points: REC-FORMAT: Expected `int` <= 1000000",
        ),
        (
            ["--restore", "99", "--reason", "x"],
            "bur-dispute: position 12: target: REC-REF: target 99 is not a position of the current line of "
            "play in hand 1",
        ),
    ],
)
def test_rule_refusals_name_the_rule_and_store_nothing(
    run: Callable[..., Result], dispute: list[bytes], db: str, args: list[str], stderr: str
) -> None:
    before = stored(db, "bur-dispute")
    result = run("rule", "bur-dispute", *args)
    assert (result.exit_code, result.stderr.strip()) == (2, stderr)
    assert stored(db, "bur-dispute") == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "Error: give one ruling: --penalty SEAT|team:T POINTS --rule ID, or --restore TARGET --reason TEXT"),
        (["--penalty", "1", "5", "--restore", "3", "--reason", "x", "--rule", "ALL-TURN-1"], "Error: give one ruling"),
        (["--penalty", "1", "5"], "Error: --penalty needs --rule ID (the RULES.md rule it applies)"),
        (
            ["--penalty", "x", "5", "--rule", "ALL-TURN-1"],
            "Error: Invalid value for --penalty: 'x': give a seat number (0, 1, ...) or team:T",
        ),
        (
            ["--penalty", "1", "five", "--rule", "ALL-TURN-1"],
            "Error: Invalid value for --penalty: 'five' is not a whole number of points",
        ),
        (
            ["--penalty", "1", "5", "--rule", "ALL-TURN-1", "--reason", "x"],
            "Error: --reason goes with --restore; a penalty's words go in --note",
        ),
        (["--restore", "3"], "Error: --restore needs --reason TEXT"),
        (["--restore", "3", "--reason", "x", "--rule", "ALL-TURN-1"], "Error: --rule goes with --penalty"),
    ],
)
def test_rule_usage_errors(run: Callable[..., Result], dispute: list[bytes], args: list[str], message: str) -> None:
    result = run("rule", "bur-dispute", *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith(message)


def test_rule_on_an_unknown_game(run: Callable[..., Result], db: str) -> None:
    result = run("rule", "nope", "--penalty", "1", "5", "--rule", "ALL-TURN-1")
    assert (result.exit_code, result.stderr) == (2, f"rummy-ledger: error: no game 'nope' in the store (SQLite {db})\n")


def test_export_with_journal(run: Callable[..., Result], dispute: list[bytes], tmp_path: Path, db: str) -> None:
    assert run("rule", "bur-dispute", "--penalty", "1", "-50", "--rule", "BUR-PILE-1", "--finding", "5").exit_code == 0
    plain = run("export", "bur-dispute")
    record, journal = stored(db, "bur-dispute")
    assert plain.stdout_bytes == record
    annotated = run("export", "bur-dispute", "--with-journal")
    lines = annotated.stdout_bytes.splitlines()
    assert (
        lines[0]
        == b"// journal "
        + json.dumps(
            {
                "position": 0,
                "by": f"import:{os_user()}",
                "received_at": journal[0].received_at,
                "seal": journal[0].seal,
            },
            separators=(",", ":"),
        ).encode()
    )
    assert (
        lines[24]
        == b"// journal "
        + json.dumps(
            {
                "position": 12,
                "by": f"cli:{os_user()}",
                "received_at": journal[12].received_at,
                "seal": journal[12].seal,
            },
            separators=(",", ":"),
        ).encode()
    )
    assert [line for line in lines if not line.startswith(b"//")] == record.splitlines()
    out = tmp_path / "annotated.jsonl"
    written = run("export", "bur-dispute", "--with-journal", "-o", str(out))
    assert written.stderr == f"wrote 13 events of bur-dispute to {out}\n"
    # the annotated file reads as the same record: importing it is "already stored"
    again = run("import", "--no-analytics", str(out))
    assert summary_row(again.stdout, "already stored") == ["1", "1", "13"]
    tables = run("export", "bur-dispute", "--with-journal", "--format", "csv", "--out", str(tmp_path / "t"))
    assert tables.exit_code == 2 and "--with-journal are for a record export" in tables.stderr


@pytest.mark.postgres
def test_append_and_rule_on_postgresql(run: Callable[..., Result], pg_url: str, tmp_path: Path) -> None:
    lines = DISPUTE.read_bytes().splitlines(keepends=True)
    created = run("append", "bur-dispute", "-", input=b"".join(lines[:12]), store=pg_url)
    assert created.stdout.splitlines()[0] == "bur-dispute: 12 events appended (0 → 12)"
    assert [line.split(":")[0] for line in created.stdout.splitlines()[1:]] == [
        "  position 4 (hand 1, seat 0)",
        "  position 5 (hand 1, seat 0)",
        "  position 7 (hand 1, seat 1)",
        "  position 8 (hand 1, seat 1)",
    ]
    ruled = run("rule", "bur-dispute", "--penalty", "1", "-50", "--rule", "BUR-PILE-1", "--finding", "5", store=pg_url)
    assert ruled.stdout.splitlines() == [
        "bur-dispute: penalty_assessed stored at position 12",
        "totals: Anna 0, Bruno -100",
    ]
    refused = run(
        "rule", "bur-dispute", "--penalty", "1", "-50", "--rule", "BUR-PILE-1", "--finding", "6", store=pg_url
    )
    assert (refused.exit_code, refused.stderr.strip()) == (
        2,
        "bur-dispute: position 13: finding: REC-REF: position 6 carries no finding to rule on",
    )
    exported = run("export", "bur-dispute", "--with-journal", store=pg_url).stdout_bytes.splitlines()
    assert len(exported) == 26
    assert json.loads(exported[24][len(b"// journal ") :])["by"] == f"cli:{os_user()}"


def test_append_says_when_the_hand_is_over_before_hand_ended(run: Callable[..., Result], tmp_path: Path) -> None:
    events = read_record(Path(__file__).resolve().parent.parent / "fixtures" / "gin" / "standard-game.jsonl").events
    lines = encode_record(events).splitlines(keepends=True)
    head = run("append", "gin-standard-1", "-", input=b"".join(lines[:78]))  # through position 77, in hand 3
    assert head.stdout.splitlines()[0] == "gin-standard-1: 78 events appended (0 → 78)"
    assert "over" not in head.stdout
    wall = run("append", "gin-standard-1", "-", input=lines[78])
    assert wall.stdout.splitlines() == [
        "gin-standard-1: 1 event appended (78 → 79)",
        "hand 3 is over by the rules: hand_ended is next",
    ]
    ended = run("append", "gin-standard-1", "-", input=lines[79])
    assert ended.stdout.splitlines() == ["gin-standard-1: 1 event appended (79 → 80)", "hand 3 over"]


def test_a_penalty_after_the_hand_is_no_claim_difference(run: Callable[..., Result], tmp_path: Path) -> None:
    """The README's live session: Anna's claim differs (ALL-SCORE-1), and the
    referee's later penalty on Bruno, whose claim of 0 was right as played,
    does not make his claim look wrong (``SheetLine.claim_differs``)."""
    hand = Path(__file__).resolve().parent.parent / "examples" / "live" / "club-live.jsonl"
    assert run("import", "--no-analytics", str(hand)).exit_code == 0
    penalty = (
        b'{"type":"penalty_assessed","seat":1,"points":-10,"rule":"RAM-DISC-1","finding":6,"referee":"Rita Arbitro"}\n'
    )
    assert run("append", "club-live", "-", input=penalty).exit_code == 0
    lines = run("score", "club-live").output.splitlines()
    assert lines[2:5] == [
        "  Anna      66   total     66   hands_collected +66  [claimed 70: differs]",
        "  Bruno    -10   total    -10   penalty -10",
        "totals: Anna 66, Bruno -10",
    ]


def test_a_malformed_ruling_on_an_unknown_game_names_the_game(run: Callable[..., Result], db: str) -> None:
    """The unknown game first, as for a well-formed ruling (not the payload's REC-FORMAT)."""
    result = run("rule", "nope", "--penalty", "1", "5", "--rule", "not-a-rule")
    assert (result.exit_code, result.stderr) == (2, f"rummy-ledger: error: no game 'nope' in the store (SQLite {db})\n")
