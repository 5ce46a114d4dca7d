"""A long record file is imported as it is read (issue 17): in chunks, in
one transaction, with the outcome, stored bytes, journal and seals of the
whole read; a rejected file stores nothing; memory does not grow with the
file. SQLite and PostgreSQL (the store_env fixture)."""

from __future__ import annotations

import contextlib
import importlib
import itertools
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger.errors import RecordError
from ledger.sealing.verify import game_keys, verify_games
from ledger.store import importing, streamed
from ledger.store.application import LedgerApp
from ledger.store.importing import ImportResult
from ledger.synthetic import long_game_lines
from ledger.testing.games import turn_spam
from tests.costkit import run_child
from tests.test_bulk_import import folder, one_by_one, outcome, store_contents, two_envs  # noqa: F401 (a fixture)


def long_file(path: Path, megabytes: float, game_id: str = "long-1") -> int:
    """Write one long legal game of about ``megabytes`` MB; its number of events."""
    n = 0
    with open(path, "wb") as fh:
        for line in long_game_lines(game_id, target_bytes=int(megabytes * 1e6)):
            fh.write(line)
            n += 1
    return n


@pytest.mark.parametrize("chunk", [1, 7, 10_000])
def test_streamed_import_stores_exactly_what_a_whole_read_stores(
    two_envs: tuple[dict[str, str], dict[str, str]],  # noqa: F811 (the fixture)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chunk: int,
) -> None:
    """Every fixture and the folder of the bulk-import test (rejections,
    conflicts, a game twice, a record that grows), each file streamed
    (``stream_bytes=0``): the same outcomes, rows, journal and seals."""
    monkeypatch.setattr(streamed, "CHUNK_EVENTS", chunk)
    paths = folder(tmp_path)
    a, b = (LedgerApp(env=e) for e in two_envs)
    try:
        expected = one_by_one(a, paths)
        got = [(src, outcome(r)) for src, r in b.import_records(paths, stream_bytes=0)]
        assert [src for src, _ in got] == paths
        assert [o for _, o in got] == expected
        assert store_contents(b) == store_contents(a)
    finally:
        a.close()
        b.close()
    assert {o[1] for o in expected if o[0] == "ok"} == {"stored", "appended", "already_stored"}
    assert {o[0] for o in expected} == {"ok", "RecordError", "GameConflictError"}


def _errors() -> dict[str, bytes]:
    """Records whose rejection depends on reading all of them: which error wins."""
    lines = b"".join(long_game_lines("e-1", target_bytes=40_000, turns=60)).splitlines(keepends=True)
    bad_line = b'{"type":"card_drawn","seat":0,"card":"1H"}\n'  # not an event: REC-FORMAT
    last = next(i for i in range(len(lines) - 1, 0, -1) if b"card_discarded" in lines[i])
    early = next(i for i in range(5, len(lines)) if b"card_discarded" in lines[i])
    return {
        "late-bad-line": b"".join([*lines[:-3], bad_line, *lines[-2:]]),
        "late-impossible": b"".join([*lines[:last], _discard(lines[last], "JK"), *lines[last + 1 :]]),
        "early-impossible-then-bad-line": b"".join(
            [*lines[:early], _discard(lines[early], "JK"), *lines[early + 1 : -3], bad_line]
        ),
        "only-comments": b"// nothing\n\n",
        "not-utf8": lines[0] + b'{"type":"card_drawn","seat":0,"card":"\xff"}\n',
        "not-game-started": b"".join(lines[1:]),
        "spam-strict": turn_spam(3000, game_id="e-1"),
    }


def _discard(line: bytes, card: str) -> bytes:
    """A ``card_discarded`` line with ``card`` instead of its own (a card no one holds: rejected)."""
    own = line.split(b'"card":"')[1].split(b'"')[0]
    return line.replace(b'"card":"' + own + b'"', b'"card":"' + card.encode() + b'"')


def test_streamed_rejections_are_the_whole_reads(tmp_path: Path, store_env: dict[str, str]) -> None:
    """Each rejection, and --strict's violation, named as a whole read names
    it (the bad line further down beats an earlier impossible event), and
    nothing stored."""
    records = _errors()
    paths = []
    for name, data in records.items():
        (tmp_path / f"{name}.jsonl").write_bytes(data)
        paths.append(tmp_path / f"{name}.jsonl")
    for strict in (False, True):
        whole = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        app = LedgerApp(env=store_env) if not strict else LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        try:
            expected = [outcome(r) for _, r in whole.import_records(paths, strict=strict, stream_bytes=1 << 60)]
            got = [outcome(r) for _, r in app.import_records(paths, strict=strict, stream_bytes=0)]
            assert got == expected
        finally:
            whole.close()
            app.close()
    kinds = dict(zip(records, expected))
    assert kinds["late-bad-line"][0] == "RecordError" and "REC-FORMAT" in kinds["late-bad-line"][1]
    assert "REC-FORMAT" in kinds["early-impossible-then-bad-line"][1]  # the bad line, not the earlier event
    assert kinds["late-impossible"][0] == "RecordError"
    assert kinds["spam-strict"][0] == "RuleViolationError"


def test_a_bad_event_near_the_end_of_a_large_file_stores_nothing(
    tmp_path: Path, store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over the streaming threshold (1 MB here; 14 chunks inserted
    before the bad event is read) whose last hand discards a card no one
    holds: rejected, naming its line; not one row stored; the store takes the
    good file next, with one seal chain across the chunks."""
    monkeypatch.setattr(streamed, "CHUNK_EVENTS", 2_000)
    threshold = 1_000_000
    big = tmp_path / "big.jsonl"
    n = long_file(big, 1.2)
    data = big.read_bytes()
    lines = data.splitlines(keepends=True)
    at = next(i for i in range(len(lines) - 1, 0, -1) if b"card_discarded" in lines[i])
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"".join([*lines[:at], _discard(lines[at], "JK"), *lines[at + 1 :]]))
    assert bad.stat().st_size >= threshold and n > 14 * streamed.CHUNK_EVENTS
    app = LedgerApp(env=store_env)
    try:
        [(_, result)] = list(app.import_records([bad], stream_bytes=threshold))
        assert isinstance(result, RecordError), result
        assert result.line == at + 1 and result.path == str(bad)
        assert not app.has_game("long-1")
        assert app.recorder.select_notifications(None, 10) == []
        [(_, good)] = list(app.import_records([big], stream_bytes=threshold))
        assert isinstance(good, ImportResult) and (good.status, good.events) == ("stored", n)
        assert app.game_length("long-1") == n
        assert app.export_record("long-1") == data
        (check,) = verify_games(app, game_keys(app, ["long-1"]))
        assert check.ok and check.length == n, check  # one seal chain across the chunks
    finally:
        app.close()
    if store_env["PERSISTENCE_MODULE"].endswith("sqlite"):
        con = sqlite3.connect(store_env["SQLITE_DBNAME"])
        try:
            assert con.execute("SELECT COUNT(*) FROM rummy_journal").fetchone()[0] == n
        finally:
            con.close()


def test_a_game_stored_meanwhile_is_compared_again(
    open_store: Callable[[], LedgerApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer stores the game between the streamed import's check
    and its first insert: the insert fails on the taken position, nothing of
    it is stored, and the file is read again: "already stored"."""
    app, other = open_store(), open_store()
    path = tmp_path / "g.jsonl"
    long_file(path, 0.2, "race-1")
    original = app.recorder.insert_chunks
    raced = []

    @contextlib.contextmanager
    def racing() -> Iterator:
        if not raced:
            raced.append(list(other.import_records([path])))
        with original() as insert:
            yield insert

    monkeypatch.setattr(app.recorder, "insert_chunks", racing)
    [(_, result)] = list(app.import_records([path], stream_bytes=0))
    assert isinstance(result, ImportResult) and result.status == "already_stored", result
    assert raced and [r.status for _, r in raced[0]] == ["stored"]  # type: ignore[union-attr]
    (check,) = verify_games(app, game_keys(app, ["race-1"]))
    assert check.ok, check


_IMPORT = """
import sys
from ledger.store.application import LedgerApp
app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": sys.argv[2]})
[(_, result)] = app.import_records([sys.argv[1]], stream_bytes=1_000_000)
assert result.status == "stored", result
"""


def test_import_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """Peak RSS of an import (a child process, the path ``rummy-ledger
    import`` takes, streamed from 1 MB) of one game of 1.5 MB and one of
    6 MB: the same within a margin (the SQLite page cache grows with the
    store, up to 32 MiB). Before: the whole record and all its rows were
    held (417 MiB at 10 MB, 1.2 GiB at 40 MB; here about +150 MiB)."""
    runs = []
    for mb in (1.5, 6):
        path = tmp_path / f"g{mb}.jsonl"
        long_file(path, mb, f"g-{mb}")
        child = run_child([sys.executable, "-c", _IMPORT, str(path), str(tmp_path / f"g{mb}.db")], cwd=tmp_path)
        assert child.returncode == 0, child.stderr
        runs.append(child)
    assert runs[1].rss_mb < runs[0].rss_mb + 50, runs
    assert runs[1].cpu_s < 6 * runs[0].cpu_s + 2, runs  # linear (4x the events), room for a loaded machine


def test_a_streamed_import_holds_one_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app: LedgerApp) -> None:
    """The structure behind the figure: the file is never read whole, and
    rows are made for at most one chunk of events at a time."""
    monkeypatch.setattr(streamed, "CHUNK_EVENTS", 500)
    path = tmp_path / "g.jsonl"
    n = long_file(path, 0.3)
    sizes: list[int] = []
    rows_for = app.rows_for

    def counted(oid: Any, first: int, events: Any, *args: Any) -> Any:
        sizes.append(len(events))
        return rows_for(oid, first, events, *args)

    def whole(*_args: Any) -> None:
        raise AssertionError("a streamed file is never read whole")

    monkeypatch.setattr(app, "rows_for", counted)
    monkeypatch.setattr(importing, "read_record", whole)
    [(_, result)] = list(app.import_records([path], stream_bytes=0))
    assert isinstance(result, ImportResult) and result.events == n
    assert max(sizes) == 500 and sum(sizes) == n and len(sizes) == -(-n // 500)


def test_bench_big_file_runs_small_sizes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench_big_file = importlib.import_module("bench.bench_big_file")
    assert bench_big_file.main(["--sizes", "0.1,0.3", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| file | events | import: peak RSS") and len(out) == 6
    assert out[2].startswith("| 0.") and " MB | " in out[2] and "x (CPU per event" in out[-1]
    assert not list(tmp_path.iterdir())  # records and stores deleted


def test_the_reading_is_reported_per_chunk_up_to_the_file_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app: LedgerApp, make_record: Callable[..., bytes]
) -> None:
    """``progress(source, bytes read, file size)`` of a streamed file: at
    its start (0), after every CHUNK_EVENTS events (the bytes of exactly
    those lines), and at its end (the file's size); never per event. A small
    file of the same folder (read whole, in a batch) reports nothing."""
    monkeypatch.setattr(streamed, "CHUNK_EVENTS", 500)
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    small.write_bytes(make_record("short-1"))
    n = long_file(big, 0.3)
    size = big.stat().st_size
    calls: list[tuple[Any, int, int]] = []
    results = list(app.import_records([small, big], stream_bytes=100_000, progress=lambda *call: calls.append(call)))
    assert [r.status for _, r in results] == ["stored", "stored"]  # type: ignore[union-attr]
    ends = list(itertools.accumulate(len(line) for line in big.read_bytes().splitlines(keepends=True)))
    assert len(ends) == n and n > 4 * 500
    assert [(src, total) for src, _, total in calls] == [(big, size)] * len(calls)
    assert [done for _, done, _ in calls] == [0, *ends[499::500], size]
