"""The ``rummy-ledger`` command line: click's CliRunner for each command, and the
installed console script in a real subprocess. Stores are real SQLite files
(and PostgreSQL for one import/list/export run)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from rich.console import Console
from rich.progress import Progress, TaskID

from ledger.cli import importing as cli_importing
from ledger.sealing import chain as _seal
from ledger.store import streamed
from ledger.store.importing import GameImports
from ledger.synthetic import long_game_lines

MakeRecord = Callable[..., bytes]
WriteRecord = Callable[..., Path]


def summary_row(output: str, name: str) -> list[str]:
    """The cells of one row of the import summary table."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if cells and cells[0] == name:
            return cells[1:]
    raise AssertionError(f"no row {name!r} in:\n{output}")


@pytest.fixture
def folder(write_record_file: WriteRecord, make_record: MakeRecord) -> Path:
    """Three good records and one with an unknown field on line 5."""
    for i in range(3):
        write_record_file(f"game-{i}", hands=2, turns=3, seed=i)
    lines = make_record("bad-1").splitlines()
    lines[4] = lines[4].replace(b'{"type":"card_drawn",', b'{"type":"card_drawn","colour":"red",')
    return write_record_file("bad-1", b"\n".join(lines) + b"\n").parent


def test_import_reports_rejects_and_stores_the_rest(run: Callable[..., Result], folder: Path) -> None:
    result = run("import", str(folder))
    assert result.exit_code == 1
    rejected, analytics = result.stderr.splitlines()
    assert rejected == f"{folder / 'bad-1.jsonl'}:5: colour: REC-FORMAT: unknown field 'colour'"
    assert analytics.startswith("analytics view ") and analytics.endswith(
        ": 3 games updated (54 events applied in 1 transaction)"
    )
    assert summary_row(result.stdout, "stored") == ["3", "3", "54"]
    assert summary_row(result.stdout, "already stored") == ["0", "0", "0"]
    assert summary_row(result.stdout, "rejected") == ["1", "-", "-"]
    listed = run("list", "--json")
    assert [json.loads(line)["game_id"] for line in listed.stdout.splitlines()] == ["game-0", "game-1", "game-2"]


class _SeenProgress(Progress):
    """rich's progress display, keeping what the import tells it:
    ``(label, completed, total)`` after each update and advance."""

    seen: list[tuple[str, float, float | None]]

    def update(self, task_id: TaskID, **kw: Any) -> None:
        super().update(task_id, **kw)
        self._saw(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._saw(task_id)

    def _saw(self, task_id: TaskID) -> None:
        task = self._tasks[task_id]
        self.seen.append((task.description, task.completed, task.total))


@pytest.fixture
def progress_seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float, float | None]]:
    """What the import's progress display is told (:class:`_SeenProgress`);
    files are imported as they are read from 50 kB (4 MiB in use), in chunks
    of 500 events."""
    seen: list[tuple[str, float, float | None]] = []
    monkeypatch.setattr(cli_importing, "Progress", type("Seen", (_SeenProgress,), {"seen": seen}))
    monkeypatch.setattr(streamed, "CHUNK_EVENTS", 500)
    original = GameImports.import_records
    monkeypatch.setattr(
        GameImports, "import_records", lambda self, sources, **kw: original(self, sources, stream_bytes=50_000, **kw)
    )
    return seen


def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The import's stderr console says it is a terminal (the bars are drawn)."""
    plain = cli_importing.console

    def console(stderr: bool = False) -> Console:
        if not stderr:
            return plain()
        return Console(stderr=True, force_terminal=True, width=120, highlight=False, markup=False, emoji=False)

    monkeypatch.setattr(cli_importing, "console", console)


def test_a_long_file_shows_its_bytes_read_on_a_terminal_only(
    run: Callable[..., Result],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    progress_seen: list[tuple[str, float, float | None]],
) -> None:
    """One long file (imported as it is read): not on a terminal, no
    progress and the same output as ever; on a terminal, a bar of its bytes
    read, at its start, per chunk and at its end, out of the file's size."""
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"".join(long_game_lines("long-1", target_bytes=200_000)))
    size = big.stat().st_size
    plain = run("import", str(big))
    assert plain.exit_code == 0 and progress_seen == []
    assert plain.stderr.startswith("analytics view ") and len(plain.stderr.splitlines()) == 1
    assert summary_row(plain.stdout, "stored")[:2] == ["1", "1"]
    on_a_terminal(monkeypatch)
    again = run("import", str(big), "--no-analytics")
    assert again.exit_code == 0, again.stderr
    assert summary_row(again.stdout, "already stored")[:2] == ["1", "1"]
    n = summary_row(again.stdout, "already stored")[2]
    assert {label for label, _, _ in progress_seen} == {"reading big.jsonl"} and "reading big.jsonl" in again.stderr
    assert {total for _, _, total in progress_seen} == {size}
    done = [completed for _, completed, _ in progress_seen]
    assert done == sorted(done) and done[0] == 0 and done[-1] == size
    assert len(done) == int(n) // 500 + 2  # per chunk of events read, not per event


def test_a_folder_shows_files_done_and_a_long_file_s_bytes_in_italian(
    run: Callable[..., Result],
    write_record_file: WriteRecord,
    monkeypatch: pytest.MonkeyPatch,
    progress_seen: list[tuple[str, float, float | None]],
) -> None:
    """Ten small files and a long one in a folder, on a terminal, --lang it:
    the bar of files advances to 11; the long file's bar of bytes comes when
    it is read (after the five files before it) and goes with its outcome."""
    for i in range(10):
        write_record_file(f"g-{i}", hands=1, turns=2, seed=i)
    data = b"".join(long_game_lines("long-1", target_bytes=100_000))
    big = write_record_file("long-1", data, name="g-4x-long")
    on_a_terminal(monkeypatch)
    result = run("--lang", "it", "import", str(big.parent))
    assert result.exit_code == 0, result.stderr
    assert summary_row(result.stdout, "registrati")[:2] == ["11", "11"]
    files = [(done, total) for label, done, total in progress_seen if label == "importazione"]
    assert files == [(k, 11) for k in range(1, 12)]
    labels = [label for label, _, _ in progress_seen]
    first, last = (
        labels.index("lettura di g-4x-long.jsonl"),
        len(labels) - labels[::-1].index("lettura di g-4x-long.jsonl"),
    )
    assert labels[:first] == ["importazione"] * 5 and labels[last:] == ["importazione"] * 6
    assert progress_seen[last - 1][1:] == (len(data), len(data))


def test_reimport_says_already_stored(run: Callable[..., Result], write_record_file: WriteRecord) -> None:
    path = write_record_file("again")
    assert run("import", str(path)).exit_code == 0
    result = run("import", str(path))
    assert result.exit_code == 0
    assert summary_row(result.stdout, "already stored") == ["1", "1", "16"]
    assert summary_row(result.stdout, "stored") == ["0", "0", "0"]


def test_conflicting_game_id_is_rejected(run: Callable[..., Result], write_record_file: WriteRecord) -> None:
    run("import", str(write_record_file("same", seed=1)))
    other = write_record_file("same", name="same-other", seed=2)
    result = run("import", str(other))
    assert result.exit_code == 1
    assert result.stderr == (
        f"{other}: game 'same' is already stored with different events "
        "(16 events stored, 16 in this record, first difference at position 1, line 2); refused\n"
    )


def test_export_round_trips(run: Callable[..., Result], write_record_file: WriteRecord, tmp_path: Path) -> None:
    path = write_record_file("round", hands=2, turns=29)
    run("import", str(path))
    assert run("export", "round").stdout_bytes == path.read_bytes()
    out = tmp_path / "out.jsonl"
    result = run("export", "round", "-o", str(out))
    assert result.exit_code == 0
    assert result.stderr == f"wrote 122 events of round to {out}\n"
    assert out.read_bytes() == path.read_bytes()


def test_show_prints_the_record_from_the_store_or_a_file(
    run: Callable[..., Result], write_record_file: WriteRecord
) -> None:
    path = write_record_file("shown")
    run("import", str(path))
    assert run("show", "shown").stdout_bytes == path.read_bytes()
    assert run("show", str(path)).stdout_bytes == path.read_bytes()


def test_list(run: Callable[..., Result], write_record_file: WriteRecord) -> None:
    empty = run("list")  # no store at the path: nothing is created (issue 16)
    assert (empty.exit_code, empty.stdout) == (2, "")
    run("import", str(write_record_file("listed", hands=3, turns=1)))
    result = run("list", "--json")
    assert json.loads(result.stdout) == {
        "game_id": "listed", "variant": "ramino", "ruleset": "seed", "players": ["Anna", "Bruno"],
        "hands": 3, "events": 14, "meta": {},
    }  # fmt: skip
    table = run("list").stdout
    assert "listed" in table and "Anna, Bruno" in table and "1 game in SQLite" in table


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "nope"], "rummy-ledger: error: no game 'nope' in the store (SQLite {db})\n"),
        (["show", "nope"], "rummy-ledger: error: no game 'nope' in the store (SQLite {db})\n"),
        (["import", "/no/such/dir"], "rummy-ledger: error: no such file or folder: /no/such/dir\n"),
    ],
)
def test_errors_are_one_line_with_status_2(
    run: Callable[..., Result], db: str, write_record_file: WriteRecord, args: list[str], message: str
) -> None:
    run("import", "--no-analytics", str(write_record_file("stored-one")))
    result = run(*args)
    assert (result.exit_code, result.stderr) == (2, message.format(db=db))


def test_unopenable_store_is_one_line(
    run: Callable[..., Result], tmp_path: Path, write_record_file: WriteRecord
) -> None:
    result = run("list", store=str(tmp_path / "missing-dir" / "x.db"))
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"rummy-ledger: error: no store at {tmp_path}/missing-dir/x.db (import a record first: rummy-ledger "
        "import FILE)\n"
    )
    result = run(
        "import", "--no-analytics", str(write_record_file("one")), store=str(tmp_path / "missing-dir" / "x.db")
    )
    assert (result.exit_code, result.stderr) == (
        2,
        f"rummy-ledger: error: store SQLite {tmp_path}/missing-dir/x.db: InterfaceError: unable to open "
        "database file\n",
    )


def test_unsupported_store_url(run: Callable[..., Result]) -> None:
    result = run("list", store="mysql://db/x")
    assert result.exit_code == 2
    assert "unsupported store URL 'mysql://db/x'" in result.stderr


def test_show_at_outside_the_game(run: Callable[..., Result], write_record_file: WriteRecord) -> None:
    run("import", str(write_record_file("short", turns=0)))
    result = run("show", "short", "--at", "9")
    assert result.exit_code == 2
    assert "position 9 is outside this game's positions 0–3" in result.stderr
    # a seat's (or a spectator's) view, as in the viewer: past the last position, without naming it
    for pov in ("0", "spectator"):
        seat = run("show", "short", "--at", "9", "--pov", pov)
        assert (seat.exit_code, seat.stderr.splitlines()[-1]) == (
            2,
            "Error: Invalid value for --at: position 9 is not recorded (yet)",
        )
    italian = run("--lang", "it", "show", "short", "--at", "4", "--pov", "1")
    assert (italian.exit_code, italian.stderr.splitlines()[-1]) == (
        2,
        "Error: Invalid value for --at: la posizione 4 non è (ancora) registrata",
    )
    assert run("show", "short", "--at", "3", "--pov", "1").exit_code == 0


def test_schema_check(run: Callable[..., Result], tmp_path: Path) -> None:
    assert run("schema", "--check").exit_code == 0
    assert run("schema", "--check", "--out", str(tmp_path / "s")).exit_code == 1
    # 18 files of the game record, 8 of the tournament record (TOURNAMENT.md)
    written = run("schema", "--out", str(tmp_path / "s"))
    assert (written.exit_code, written.stdout) == (0, f"wrote 26 schema files to {tmp_path / 's'}\n")
    assert run("schema", "--check", "--out", str(tmp_path / "s")).exit_code == 0


def test_audit_json_of_a_clean_game_and_a_rejected_file(
    run: Callable[..., Result], write_record_file: WriteRecord, make_record: MakeRecord
) -> None:
    run("import", str(write_record_file("clean")))
    result = run("audit", "--json", "clean")
    seal = _seal.seal_hex(make_record("clean").splitlines())
    assert (result.exit_code, json.loads(result.stdout)) == (
        0,
        {"game_id": "clean", "findings": [], "seal": seal, "length": 16, "chain_verified": True},
    )
    lines = make_record("bad").splitlines()
    bad = write_record_file("bad", b"\n".join([*lines[:3], lines[3].replace(b'"card":"', b'"card":"X')]) + b"\n")
    result = run("audit", "--json", str(bad))
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["line"] == 4
    assert json.loads(result.stdout)["error"]["rule"] == "REC-FORMAT"


# --- the installed console script, in a real process ---


def console_script() -> str:
    found = shutil.which("rummy-ledger", path=str(Path(sys.executable).parent)) or shutil.which("rummy-ledger")
    if not found:
        pytest.fail("the console script rummy-ledger is not installed: run `pip install -e .` (./test.sh does)")
    return found


def test_console_script_imports_lists_and_exports(folder: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("RUMMY_LEDGER_DB", "PERSISTENCE_MODULE")}
    exe = console_script()
    done = subprocess.run(
        [exe, "import", "--no-analytics", str(folder)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr == f"{folder / 'bad-1.jsonl'}:5: colour: REC-FORMAT: unknown field 'colour'\n"
    assert not (tmp_path / "ledger.analytics.duckdb").exists()
    assert (tmp_path / "ledger.db").is_file()  # the default store
    listed = subprocess.run([exe, "list", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert [json.loads(line)["game_id"] for line in listed.stdout.splitlines()] == ["game-0", "game-1", "game-2"]
    exported = subprocess.run([exe, "export", "game-1"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    assert exported.stdout == (folder / "game-1.jsonl").read_bytes()


def test_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "RUMMY_LEDGER_DB": str(tmp_path / "no" / "such" / "dir.db")}
    done = subprocess.run([console_script(), "list"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert (
        done.stderr
        == f"rummy-ledger: error: no store at {tmp_path}/no/such/dir.db (import a record first: rummy-ledger "
        "import FILE)\n"
    )


@pytest.mark.postgres
def test_console_script_on_postgres(pg_url: str, folder: Path) -> None:
    exe = console_script()
    done = subprocess.run(
        [exe, "--db", pg_url, "import", str(folder)], cwd=folder, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert [p.name.endswith(".analytics.duckdb") for p in folder.iterdir() if p.suffix == ".duckdb"] == [True]
    exported = subprocess.run([exe, "--db", pg_url, "export", "game-2"], capture_output=True, timeout=120)
    assert exported.stdout == (folder / "game-2.jsonl").read_bytes()


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_score_text_shows_breakdown_claims_penalties_and_winner(run: Callable[..., Result]) -> None:
    result = run("score", str(FIXTURES / "burraco" / "dispute.jsonl"))
    assert result.exit_code == 0
    assert result.stdout == (
        "score of bur-dispute — burraco (fibur), as adjudicated\n"
        "hand 1 (stalled)\n"
        "  Anna     -70   total    -70   melds +55, hand -25, no_pozzetto -100  [claimed 0: differs]\n"
        "  Bruno   -235   total   -235   hand -85, no_pozzetto -100, penalty -50\n"
        "totals: Anna -70, Bruno -235\n"
        "as played (no referee penalties): Anna -70, Bruno -185\n"
        "winner: Anna\n"
        "seal: 050b-3d21-0db6-36a0 (after 19 events)\n"
    )
    as_json = json.loads(run("score", "--json", str(FIXTURES / "burraco" / "dispute.jsonl")).stdout)
    assert as_json["seal"] == "050b3d210db636a005cd643e343458cd0ba0057ae1cbe79e389e9193f6d950ed"


def test_audit_text_lists_findings_by_position(run: Callable[..., Result]) -> None:
    result = run("audit", str(FIXTURES / "ramino51" / "violations.jsonl"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "ramino51-violations: 4 findings"
    assert [ln.split(": ")[1] for ln in lines[1:]] == ["R51-PILE-1", "R51-OPEN-1", "R51-MELD-1", "R51-SWAP-1"]


def test_import_strict_refuses_rule_violations_and_stores_clean_games(run: Callable[..., Result]) -> None:
    result = run("import", "--strict", "--no-analytics", str(FIXTURES / "ramino51"))
    assert result.exit_code == 1
    assert result.stderr == (
        f"{FIXTURES / 'ramino51' / 'violations.jsonl'}:3: R51-PILE-1: Anna took 10♣ from the discard pile in "
        "its first turn"
        " (and 3 more); refused by --strict\n"
    )
    assert summary_row(result.stdout, "stored") == ["1", "1", "42"]
    listed = run("list", "--json")
    assert [json.loads(line)["game_id"] for line in listed.stdout.splitlines()] == ["ramino51-elimination"]
    # without --strict the same record is stored and flagged
    assert run("import", "--no-analytics", str(FIXTURES / "ramino51" / "violations.jsonl")).exit_code == 0
