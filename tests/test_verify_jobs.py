"""``rummy-ledger verify --jobs N`` (issue 28, target 2): worker processes check runs
of games over their own connections to the store, this process prints the results in
the games' order. The output (text, ``--json``, Italian, ``--deep``, named games) and
the exit status are those of ``--jobs 1``, byte for byte, on a store with good games,
a tampered event, a tampered journal seal, an edited seal, a stray sequence and a
games-list line of more events than stored (the attacks of tests/test_seal_store.py),
on SQLite and on PostgreSQL; Ctrl-C is one line and exit 130."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import ledger.cli.verify as verify_cli
from ledger.record_files import read_record
from ledger.sealing import verify_jobs
from ledger.stored.summaries import SUMMARY_TABLE
from tests.test_seal_store import Raw, _stray_key, store  # noqa: F401 - the fixture

#: the games added to the store fixture's two (g1, bur-dispute)
WIDE = [f"w{i:02d}" for i in range(10)]


@pytest.fixture
def wide(store: Any, make_record: Callable[..., bytes]) -> Any:  # noqa: F811 - the fixture
    """The store fixture with ten more games (12 in all: several chunks a worker)."""
    app, raw, run = store
    for i, game in enumerate(WIDE):
        app.import_record(read_record(make_record(game, seed=i)))
    return app, raw, run


def _tamper(raw: Raw) -> None:
    """A changed card (g1, position 5), an edited journal link (w03, its last
    call), an edited seal (w06, position 2), a row moved under a foreign id
    (bur-dispute, position 4) and a games-list line of more events than stored (w08)."""
    state = raw.state("g1", 5)
    i = state.index(b'"card":"') + 8
    raw.set_state("g1", 5, state[:i] + (b"Q" if state[i : i + 1] != b"Q" else b"K") + state[i + 1 :])
    raw.run(
        "UPDATE {journal} SET journal_seal = ? WHERE originator_id = ? AND journal_seal IS NOT NULL",
        bytes(32),
        raw.oid("w03"),
    )
    raw.run("UPDATE {journal} SET seal = ? WHERE originator_id = ? AND position = ?", bytes(32), raw.oid("w06"), 2)
    raw.run(
        "UPDATE {events} SET originator_id = ? WHERE originator_id = ? AND originator_version = 5",
        _stray_key(raw, 1),
        raw.oid("bur-dispute"),
    )
    raw.run(f"UPDATE {SUMMARY_TABLE} SET version = 400 WHERE originator_id = ?", raw.oid("w08"))


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worker counts of the runs that went through the workers."""
    calls: list[int] = []
    real = verify_cli.checked_in_order

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["jobs"])
        return real(*args, **kwargs)

    monkeypatch.setattr(verify_cli, "checked_in_order", spy)
    return calls


def _same(run: Callable[..., Result], calls: list[int], *args: str) -> Result:
    """``args`` run with ``--jobs 1``, 2 and 3: the same exit status, stdout and stderr; the one-job result."""
    one = run(*args, "--jobs", "1")
    assert calls == []
    for jobs in (2, 3):
        got = run(*args, "--jobs", str(jobs))
        assert (got.exit_code, got.stdout, got.stderr) == (one.exit_code, one.stdout, one.stderr), jobs
        assert calls.pop() > 1  # the workers did it
    return one


def test_good_games_the_same_with_workers(wide: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _app, _raw, run = wide
    calls = _spied(monkeypatch)
    one = _same(run, calls, "verify")
    assert (one.exit_code, one.stderr) == (0, "")
    assert one.stdout.startswith("12 of 12 games verified (")
    out = [json.loads(line) for line in _same(run, calls, "verify", "--json").stdout.splitlines()]
    assert len(out) == 12 and all(o["ok"] for o in out)
    assert _same(run, calls, "verify", "--deep").exit_code == 0


STRAY = "sequence 00000000-0000-0000-0000-000000000001"
#: the broken games' lines in the games' order (the journal entry's author and time as ``<entry>``)
BROKEN = {
    "en": [
        f"{STRAY}: its id matches no game: no game_started at position 0 (stored events: 1, from position 4; an "
        "originator_id edited?)",
        "w03: position 0: journal entry (<entry>) differs from the one sealed",
        "bur-dispute: position 4: event missing (deleted: the next stored event is at position 5)",
        "w08: its line in the games list is of 400 events, 16 are stored: the line was written into the database "
        "directly",
        "g1: position 5: event bytes differ from those sealed (stored seal 245d-820f-1e09-7f27, the bytes give "
        "cba6-afb8-2352-cc8a)",
        "w06: position 2: stored seal 0000-0000-0000-0000 differs from the chain of the stored events "
        "(828c-c515-fd71-e9a3): the seal was edited",
    ],
    "it": [
        f"{STRAY}: il suo id non è quello di nessuna partita: nessun game_started alla posizione 0 (eventi "
        "memorizzati: 1, dalla posizione 4; un originator_id modificato?)",
        "w03: posizione 0: la voce del giornale (<entry>) differisce da quella sigillata",
        "bur-dispute: posizione 4: evento mancante (cancellato: il successivo evento registrato è alla posizione 5)",
        "w08: la sua riga nell'elenco delle partite è di 400 eventi, ne sono memorizzati 16: la riga è stata "
        "scritta direttamente nel database",
        "g1: posizione 5: i byte dell'evento differiscono da quelli sigillati (sigillo registrato "
        "245d-820f-1e09-7f27, i byte danno cba6-afb8-2352-cc8a)",
        "w06: posizione 2: il sigillo registrato 0000-0000-0000-0000 differisce dalla catena degli eventi "
        "registrati (828c-c515-fd71-e9a3): il sigillo è stato modificato",
    ],
}
#: ``--json``: (game_id, ok, position, differs) in the games' order
OBJECTS = [
    (STRAY, False, None, "stray"),
    ("w07", True, None, None),
    ("w04", True, None, None),
    ("w03", False, 0, "journal"),
    ("w00", True, None, None),
    ("bur-dispute", False, 4, "missing"),
    ("w08", False, None, "summary"),
    ("w09", True, None, None),
    ("g1", False, 5, "event"),
    ("w06", False, 2, "seal"),
    ("w05", True, None, None),
    ("w02", True, None, None),
    ("w01", True, None, None),
]


def _entries(text: str) -> str:
    """``text`` with each journal entry's author and time as ``<entry>`` (they are the run's; English or Italian)."""
    return re.sub(r"\((?:by|di) '[^']*', (?:received|ricevuta) [^)]*\)", "(<entry>)", text)


@pytest.mark.parametrize("deep", [(), ("--deep",)], ids=["chains", "deep"])
def test_broken_games_the_same_with_workers(wide: Any, monkeypatch: pytest.MonkeyPatch, deep: tuple[str, ...]) -> None:
    _app, raw, run = wide
    _tamper(raw)
    calls = _spied(monkeypatch)
    text = _same(run, calls, "verify", *deep)
    assert (text.exit_code, _entries(text.stdout).splitlines()) == (1, BROKEN["en"])
    assert text.stderr == "7 of 13 games verified (195 events); 6 broken\n"
    out = [json.loads(line) for line in _same(run, calls, "verify", "--json", *deep).stdout.splitlines()]
    assert [(o["game_id"], o["ok"], o.get("position"), o.get("differs")) for o in out] == OBJECTS
    italian = _same(run, calls, "--lang", "it", "verify", *deep)
    assert (italian.exit_code, _entries(italian.stdout).splitlines()) == (1, BROKEN["it"])
    assert italian.stderr == "partite verificate: 7 su 13 (195 eventi); alterate: 6\n"


def test_named_games_the_same_with_workers(wide: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _app, raw, run = wide
    _tamper(raw)
    calls = _spied(monkeypatch)
    named = _same(run, calls, "verify", "w08", "g1", "w03", "w01", "w06")
    assert (named.exit_code, _entries(named.stdout).splitlines()) == (1, [BROKEN["en"][i] for i in (3, 4, 1, 5)])
    assert named.stderr == "1 of 5 games verified (80 events); 4 broken\n"
    alone = _same(run, calls, "verify", "w01", "w02", "--json")
    assert [json.loads(line)["game_id"] for line in alone.stdout.splitlines()] == ["w01", "w02"]
    assert alone.exit_code == 0
    missing = run("verify", "w01", "nosuch", "--jobs", "2")
    assert (missing.exit_code, missing.stdout) == (2, "")


def test_the_default_runs_small_stores_alone() -> None:
    """``--jobs`` absent: this process alone under PARALLEL_MIN_EVENTS events or
    PARALLEL_MIN_GAMES games, else the usable cores; never more workers than games."""
    from ledger.workers import usable_cores

    big, games = verify_jobs.PARALLEL_MIN_EVENTS, verify_jobs.PARALLEL_MIN_GAMES
    assert verify_jobs.verify_jobs(None, games, big - 1) == 1
    assert verify_jobs.verify_jobs(None, games - 1, big) == 1
    assert verify_jobs.verify_jobs(None, games, big) == min(usable_cores(), games)
    assert verify_jobs.verify_jobs(4, 3, 0) == 3
    assert verify_jobs.verify_jobs(1, 10**6, 10**9) == 1


def test_chunks_are_contiguous_and_cover_every_game() -> None:
    for n in (0, 1, 7, 8, 199, 1000, 5001):
        for jobs in (2, 3):
            parts = verify_jobs.chunks(list(range(n)), jobs)
            assert [x for c in parts for x in c] == list(range(n))
            assert all(0 < len(c) <= verify_jobs.CHUNK for c in parts)


def test_ctrl_c_with_workers_is_one_line_and_exit_130(tmp_path: Path, make_record: Callable[..., bytes]) -> None:
    import os
    import signal
    import time

    from ledger.store.application import LedgerApp

    db = tmp_path / "v.db"
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    try:
        for _source, outcome in app.import_records(
            [read_record(make_record(f"c{i:03d}", hands=3, turns=40, seed=i)) for i in range(120)]
        ):
            assert not isinstance(outcome, Exception), outcome
    finally:
        app.close()
    child = subprocess.Popen(
        [sys.executable, "-c", "from ledger.console import main; main()", "--db", str(db)]
        + ["verify", "--deep", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the signal reaches the workers too, as Ctrl-C does
    )
    kids = Path(f"/proc/{child.pid}/task/{child.pid}/children")
    deadline = time.monotonic() + 60
    while child.poll() is None and time.monotonic() < deadline:
        if kids.exists() and len(kids.read_text().split()) >= 2:  # the workers are up
            break
        time.sleep(0.01)
    assert child.poll() is None, "verify ended before its workers were seen"
    os.killpg(child.pid, signal.SIGINT)
    _out, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (130, "rummy-ledger: error: interrupted\n")


def test_workers_that_open_sqlite_come_from_a_fork_server_when_this_process_has_threads() -> None:
    """A fork copies the locks other threads hold (SQLite's mutexes among them):
    with a second thread alive, ``fresh_if_threaded`` pools start their
    workers from a fork server; import's and the view's pools still fork."""
    import threading

    from ledger.workers import fork_pool, threads

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert threads() >= 2
        fresh, forked = fork_pool(1, fresh_if_threaded=True), fork_pool(1)
        try:
            assert fresh._mp_context.get_start_method() == "forkserver"
            assert forked._mp_context.get_start_method() == "fork"
            assert fresh.submit(sum, [1, 2, 3]).result(timeout=60) == 6
        finally:
            fresh.shutdown()
            forked.shutdown()
    finally:
        stop.set()
        other.join()
