"""The append path (LedgerApp.append_events, the journal, import of a longer
file, export --with-journal): every test runs on a real SQLite file and on the
PostgreSQL server (fixture ``store_env``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ledger.errors import ConcurrentAppendError, GameConflictError, GameNotFoundError, RecordError
from ledger.events import CardDiscarded, CardDrawn, Event, GameEnded, GameStarted, PenaltyAssessed, Player, encode_event
from ledger.record_files import read_record
from ledger.records import encode_record
from ledger.sealing.chain import seals as chain_seals
from ledger.state import Finding
from ledger.store.append import AppendResult
from ledger.store.application import LedgerApp
from ledger.store.importing import ImportResult
from ledger.store.journal import JOURNAL_TABLE, JournalEntry, os_user
from ledger.stored.persistence import game_uuid

REPO = Path(__file__).resolve().parent.parent
MakeRecord = Callable[..., bytes]
RECEIVED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def everything(app: LedgerApp) -> list[tuple]:
    """Every stored event row (to compare the whole store before and after)."""
    rows = app.recorder.select_notifications(None, 1_000_000)
    return [(n.originator_id, n.originator_version, n.topic, bytes(n.state)) for n in rows]


def events_of(make_record: MakeRecord, game_id: str, **kw: int) -> list[Event]:
    return list(read_record(make_record(game_id, **kw)).events)


def test_append_events_creates_a_game_and_appends_with_journal_rows(app: LedgerApp, make_record: MakeRecord) -> None:
    events = events_of(make_record, "live-a", turns=3)  # 0 started, 1 dealt, 2..7 play, 8 hand_ended, 9 game_ended
    created = app.append_events("live-a", events[:2], expected=0, appended_by="Mario Rossi")
    assert created == AppendResult(game_id="live-a", first=0, length=2, findings=(), hand_over=False, game_over=False)
    more = app.append_events("live-a", events[2:9], expected=2, appended_by="cli:anna")
    assert more == AppendResult(game_id="live-a", first=2, length=9, findings=(), hand_over=True, game_over=False)
    last = app.append_events("live-a", events[9:], appended_by="cli:anna")
    assert (last.first, last.length, last.hand_over, last.game_over) == (9, 10, True, True)
    assert app.export_record("live-a") == encode_record(events)
    journal = app.journal("live-a")
    seals = [
        h.hex() for h in chain_seals(encode_event(e) for e in events)
    ]  # FORMAT.md "Seal", stored by the append path
    assert [(j.position, j.appended_by, j.seal) for j in journal] == (
        [(0, "Mario Rossi", seals[0]), (1, "Mario Rossi", seals[1])] + [(p, "cli:anna", seals[p]) for p in range(2, 10)]
    )
    assert all(RECEIVED.match(j.received_at) for j in journal)
    assert app.journal("live-a", after=7) == journal[8:]  # a live reader's new rows only
    assert app.journal("live-a", after=9) == []
    # one receive time per call, in call order
    assert (
        journal[0].received_at
        == journal[1].received_at
        <= journal[2].received_at
        == journal[8].received_at
        <= journal[9].received_at
    )


def test_findings_are_those_of_the_appended_events_only(app: LedgerApp, make_record: MakeRecord) -> None:
    events = events_of(make_record, "live-f", turns=2)
    app.append_events("live-f", events[:4], appended_by="t")  # started, dealt, Bruno draws and discards
    # Bruno draws again, on Anna's turn: ALL-TURN-1 at position 4, recorded as it happened
    result = app.append_events("live-f", [CardDrawn(seat=1, card=events[4].card)], expected=4, appended_by="t")  # type: ignore[attr-defined]
    assert result.findings == (Finding(4, 1, 1, "ALL-TURN-1", "Bruno played out of turn: it was Anna's turn"),)
    ruling = PenaltyAssessed(seat=1, points=-10, rule="ALL-TURN-1", finding=4, referee="Carla")
    again = app.append_events("live-f", [ruling], expected=5, appended_by="ref")
    assert (again.first, again.findings) == (5, ())
    assert app.get_events("live-f")[5] == ruling
    assert app.export_record("live-f").splitlines()[5] == (
        b'{"type":"penalty_assessed","seat":1,"points":-10,"rule":"ALL-TURN-1","finding":4,"referee":"Carla"}'
    )


def test_a_refused_call_stores_nothing_and_the_game_stays_appendable(
    open_store: Callable[[], LedgerApp], make_record: MakeRecord
) -> None:
    app = open_store()
    events = events_of(make_record, "live-r", turns=3)
    app.append_events("live-r", events[:4], appended_by="t")
    before, journal_before = everything(app), app.journal("live-r")
    # the second event of the batch is impossible: nothing of the batch is stored
    with pytest.raises(RecordError) as info:
        app.append_events("live-r", [events[4], CardDiscarded(seat=0, card="JK")], expected=4, appended_by="t")
    assert (info.value.rule, info.value.position, info.value.field) == ("REC-WHERE", 5, "card")
    assert str(info.value) == "position 5: card: REC-WHERE: Anna (seat 0) does not hold JK"
    with pytest.raises(RecordError, match="no events to append"):
        app.append_events("live-r", [], appended_by="t")
    assert everything(app) == before and app.journal("live-r") == journal_before
    # another process's view agrees, and the game goes on at position 4
    other = open_store()
    assert other.append_events("live-r", events[4:], expected=4, appended_by="t").length == len(events)


def test_a_stale_cached_state_never_hides_another_writers_events(
    open_store: Callable[[], LedgerApp], make_record: MakeRecord
) -> None:
    """Each app keeps the state after its own last append (no length query
    when the writer expects exactly that position): a position taken by
    another app meanwhile is still a conflict, and the true length then
    continues from the stored events, not from the stale cache."""
    events = events_of(make_record, "live-s", turns=3)
    mine, other = open_store(), open_store()
    mine.append_events("live-s", events[:4], expected=0, appended_by="a")
    other.append_events("live-s", events[4:5], expected=4, appended_by="b")  # behind mine's back
    with pytest.raises(ConcurrentAppendError) as info:
        mine.append_events("live-s", events[4:5], expected=4, appended_by="a")
    assert info.value.length == 5
    assert mine.append_events("live-s", events[5:7], expected=5, appended_by="a").length == 7
    assert mine.export_record("live-s") == encode_record(events[:7])
    assert [j.appended_by for j in mine.journal("live-s")] == ["a"] * 4 + ["b", "a", "a"]


def test_refusals_unknown_game_existing_game_stale_position_after_game_ended(
    app: LedgerApp, make_record: MakeRecord
) -> None:
    events = events_of(make_record, "live-x", turns=1)
    with pytest.raises(GameNotFoundError, match="no game 'live-x' in the store"):
        app.append_events("live-x", events[1:2], appended_by="t")
    with pytest.raises(GameNotFoundError):
        app.append_events("live-x", events[:1], expected=3, appended_by="t")
    with pytest.raises(RecordError) as wrong:
        app.append_events("live-y", events[:1], appended_by="t")
    assert (wrong.value.rule, wrong.value.field, wrong.value.position) == ("REC-REF", "game_id", 0)
    app.append_events("live-x", events, expected=0, appended_by="t")
    with pytest.raises(
        GameConflictError, match=r"game 'live-x' already exists \(6 events stored\); game_started opens a new game only"
    ):
        app.append_events("live-x", events[:1], appended_by="t")
    with pytest.raises(ConcurrentAppendError) as stale:
        app.append_events("live-x", [GameEnded(reason="abandoned")], expected=4, appended_by="t")
    assert (stale.value.position, stale.value.length) == (4, 6)
    assert (
        str(stale.value)
        == "game 'live-x': position 4 was written by another writer first (the game has 6 events); reload and retry"
    )
    with pytest.raises(ConcurrentAppendError, match="position 9 is not the next one: the game has 6 events"):
        app.append_events("live-x", [GameEnded(reason="abandoned")], expected=9, appended_by="t")
    with pytest.raises(RecordError) as after:
        app.append_events("live-x", [GameEnded(reason="abandoned")], expected=6, appended_by="t")
    assert (after.value.rule, after.value.position, str(after.value)) == (
        "REC-ORDER",
        6,
        "position 6: type: REC-ORDER: game_ended after game_ended",
    )
    # a referee's penalty may follow game_ended (FORMAT.md "Rulings after the game"); nothing else may
    ruled = app.append_events(
        "live-x", [PenaltyAssessed(seat=0, points=-5, rule="ALL-TURN-1")], expected=6, appended_by="t"
    )
    assert (ruled.first, ruled.length, ruled.game_over) == (6, 7, True)
    assert app.game_length("live-x") == 7 and app.game_length("nope") == 0
    with pytest.raises(GameNotFoundError):
        app.journal("nope")


def test_append_event_is_a_thin_wrapper(app: LedgerApp, make_record: MakeRecord) -> None:
    events = events_of(make_record, "live-w", turns=1)
    assert [app.append_event("live-w", e, expected_position=i) for i, e in enumerate(events)] == list(
        range(len(events))
    )
    assert {j.appended_by for j in app.journal("live-w")} == {f"library:{os_user()}"}


def test_threads_racing_for_one_position_exactly_one_wins(
    open_store: Callable[[], LedgerApp], make_record: MakeRecord
) -> None:
    events = events_of(make_record, "race-t", turns=2)
    open_store().append_events("race-t", events[:4], appended_by="setup")
    writers = [open_store() for _ in range(6)]
    barrier = threading.Barrier(len(writers))
    outcome: dict[int, object] = {}

    def write(i: int) -> None:
        barrier.wait()
        try:
            outcome[i] = writers[i].append_events("race-t", [events[4]], expected=4, appended_by=f"writer-{i}")
        except Exception as exc:  # noqa: BLE001 - anything but a conflict fails the test below
            outcome[i] = exc

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(writers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    won = [i for i, r in outcome.items() if isinstance(r, AppendResult)]
    lost = [r for r in outcome.values() if isinstance(r, ConcurrentAppendError)]
    assert len(won) == 1 and len(lost) == len(writers) - 1, outcome
    assert {(e.position, e.length) for e in lost} == {(4, 5)}
    reader = open_store()
    assert reader.get_events("race-t") == events[:5]
    assert [(j.position, j.appended_by) for j in reader.journal("race-t")][-1] == (4, f"writer-{won[0]}")
    assert len(reader.journal("race-t")) == 5


WRITER = r"""
import json, os, sys, time
from ledger.store.application import LedgerApp
from ledger.errors import ConcurrentAppendError
from ledger.events import PenaltyAssessed
env, name, count, start = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
app = LedgerApp(env=env)
while not os.path.exists(start):
    time.sleep(0.005)
conflicts = 0
for k in range(count):
    event = PenaltyAssessed(seat=0, points=-1, rule="ALL-TURN-1", note=f"{name}/{k}")
    while True:
        expected = app.game_length("race-p")
        try:
            app.append_events("race-p", [event], expected=expected, appended_by=name)
            break
        except ConcurrentAppendError:
            conflicts += 1
print(conflicts)
app.close()
"""


def test_processes_appending_concurrently_lose_and_duplicate_nothing(
    store_env: dict[str, str], open_store: Callable[[], LedgerApp], make_record: MakeRecord, tmp_path: Path
) -> None:
    """Four processes each append 15 rulings to one game after its hand
    ended, retrying on conflicts: every ruling is stored exactly once, at
    contiguous positions, each with its writer's journal row."""
    events = events_of(make_record, "race-p", turns=1)[:-1]  # the hand has ended; no game_ended
    open_store().append_events("race-p", events, appended_by="setup")
    start = tmp_path / "go"
    procs = [
        subprocess.Popen(
            # the tables exist (created above): the writers race on appends, not on table creation
            [
                sys.executable,
                "-c",
                WRITER,
                json.dumps({**store_env, "CREATE_TABLE": "false", "SQLITE_LOCK_TIMEOUT": "30"}),
                f"w{i}",
                "15",
                str(start),
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    time.sleep(0.5)
    start.touch()
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [err for _, err in results]
    reader = open_store()
    stored = reader.get_events("race-p")
    tail = stored[len(events) :]
    assert len(tail) == 60
    assert sorted(e.note for e in tail) == sorted(f"w{i}/{k}" for i in range(4) for k in range(15))  # type: ignore[attr-defined]
    journal = reader.journal("race-p")
    assert [j.position for j in journal] == list(range(len(stored)))
    assert all(j.appended_by == tail[j.position - len(events)].note.split("/")[0] for j in journal[len(events) :])  # type: ignore[union-attr]
    # each writer's own rulings are in its own order
    for i in range(4):
        mine = [e.note for e in tail if e.note.startswith(f"w{i}/")]  # type: ignore[union-attr]
        assert mine == [f"w{i}/{k}" for k in range(15)]


def test_import_of_a_longer_file_appends_its_tail(app: LedgerApp, make_record: MakeRecord) -> None:
    data = make_record("club-t2", turns=6)  # 16 events
    lines = data.splitlines(keepends=True)
    assert app.import_record(read_record(b"".join(lines[:11]))) == ImportResult(
        game_id="club-t2", events=11, status="stored"
    )
    result = app.import_record(read_record(b"// the referee's copy\n" + data))
    assert result == ImportResult(game_id="club-t2", events=16, status="appended", previous=11)
    assert result.appended == 5
    assert app.export_record("club-t2") == data
    assert [(j.position, j.appended_by) for j in app.journal("club-t2")] == [
        (p, f"import:{os_user()}") for p in range(16)
    ]
    assert app.import_record(read_record(data)).status == "already_stored"


def test_import_refuses_a_file_that_differs_inside_the_stored_part(app: LedgerApp, make_record: MakeRecord) -> None:
    data = make_record("club-t3", turns=6)
    lines = data.splitlines(keepends=True)
    app.import_record(read_record(b"".join(lines[:11])))
    other = make_record("club-t3", turns=6, seed=9)  # another deal: differs from line 2
    before = everything(app)
    with pytest.raises(GameConflictError) as info:
        app.import_record(read_record(b"\n" + other))
    assert str(info.value) == (
        "game 'club-t3' is already stored with different events "
        "(11 events stored, 16 in this record, first difference at position 1, line 3); refused"
    )
    # a shorter file than the stored game is refused as before
    with pytest.raises(GameConflictError, match="first difference at position 5"):
        app.import_record(read_record(b"".join(lines[:5])))
    assert everything(app) == before


def test_export_with_journal_adds_comment_lines_the_reader_ignores(app: LedgerApp, make_record: MakeRecord) -> None:
    events = events_of(make_record, "exp-j", turns=1)
    app.append_events("exp-j", events[:2], appended_by="Mario Rossi")
    app.append_events("exp-j", events[2:], appended_by="cli:anna")
    plain = app.export_record("exp-j")
    assert plain == encode_record(events)
    annotated = app.export_record("exp-j", with_journal=True)
    lines = annotated.splitlines()
    assert len(lines) == 2 * len(events)
    journal = app.journal("exp-j")
    for position, entry in enumerate(journal):
        comment = lines[2 * position]
        assert (
            comment
            == b"// journal "
            + json.dumps(
                {"position": position, "by": entry.appended_by, "received_at": entry.received_at, "seal": entry.seal},
                separators=(",", ":"),
            ).encode()
        )
        assert lines[2 * position + 1] == encode_event(events[position])
    assert read_record(annotated).events == tuple(events)


def test_events_stored_before_the_journal_have_no_row(app: LedgerApp, make_record: MakeRecord) -> None:
    data = make_record("old-1", turns=1)
    app.import_record(read_record(data))
    _delete_journal(app)
    assert app.journal("old-1") == []
    assert app.export_record("old-1", with_journal=True) == data
    more = app.import_record(read_record(data + b""))
    assert more.status == "already_stored"


def _delete_journal(app: LedgerApp) -> None:
    datastore = app.recorder.datastore  # type: ignore[attr-defined]
    if hasattr(datastore, "schema"):
        from psycopg.sql import SQL, Identifier

        with datastore.transaction(commit=True) as curs:
            curs.execute(SQL("DELETE FROM {}.{}").format(Identifier(datastore.schema), Identifier(JOURNAL_TABLE)))
    else:
        with datastore.transaction(commit=True) as c:
            c.execute(f"DELETE FROM {JOURNAL_TABLE}")


def test_journal_table_columns(app: LedgerApp, make_record: MakeRecord) -> None:
    app.import_record(read_record(make_record("cols-1", turns=1)))
    datastore = app.recorder.datastore  # type: ignore[attr-defined]
    oid = game_uuid("cols-1")
    if hasattr(datastore, "schema"):
        with datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                " WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
                (datastore.schema, JOURNAL_TABLE),
            )
            columns = [(r["column_name"], r["data_type"], r["is_nullable"]) for r in curs.fetchall()]
            curs.execute(
                f'SELECT originator_id, position FROM "{datastore.schema}".{JOURNAL_TABLE} ORDER BY position LIMIT 1'
            )
            first = curs.fetchone()
        assert columns == [
            ("originator_id", "uuid", "NO"),
            ("position", "integer", "NO"),
            ("appended_by", "text", "NO"),
            ("received_at", "text", "NO"),
            ("seal", "bytea", "YES"),
            ("journal_seal", "bytea", "YES"),
        ]
        assert (first["originator_id"], first["position"]) == (oid, 0)
    else:
        with datastore.transaction(commit=False) as c:
            c.execute(f"PRAGMA table_info({JOURNAL_TABLE})")
            columns = [(r[1], r[2], r[3], r[5]) for r in c.fetchall()]
            c.execute(f"SELECT originator_id, position FROM {JOURNAL_TABLE} ORDER BY position LIMIT 1")
            first = tuple(c.fetchone())
        assert columns == [
            ("originator_id", "TEXT", 1, 1),
            ("position", "INTEGER", 1, 2),
            ("appended_by", "TEXT", 1, 0),
            ("received_at", "TEXT", 1, 0),
            ("seal", "BLOB", 0, 0),
            ("journal_seal", "BLOB", 0, 0),
        ]
        assert first == (oid.hex, 0)


def test_journal_entry_shape() -> None:
    entry = JournalEntry(position=3, appended_by="x", received_at="2026-12-01T08:15:02.123456Z")
    assert entry.seal is None


def test_game_started_in_a_batch_with_play(app: LedgerApp) -> None:
    started = GameStarted(game_id="solo", variant="gin", players=(Player(seat=0, name="A"), Player(seat=1, name="B")))
    result = app.append_events("solo", [started, GameEnded(reason="abandoned")], expected=0, appended_by="t")
    assert (result.first, result.length, result.game_over, result.hand_over) == (0, 2, True, True)


STARTER = r"""
import json, os, sys, time
from ledger.store.application import LedgerApp
from ledger.events import GameStarted, Player
env, name, start = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
while not os.path.exists(start):
    time.sleep(0.002)
app = LedgerApp(env=env)  # creates the tables (events, journal) if missing
started = GameStarted(game_id=name, variant="gin", players=(Player(seat=0, name="A"), Player(seat=1, name="B")))
print(app.append_events(name, [started], expected=0, appended_by=name).length)
app.close()
"""


def test_processes_starting_at_once_on_an_empty_store_create_the_tables_once(
    store_env: dict[str, str], open_store: Callable[[], LedgerApp], tmp_path: Path
) -> None:
    start = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                STARTER,
                json.dumps({**store_env, "SQLITE_LOCK_TIMEOUT": "30"}),
                f"g{i}",
                str(start),
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    time.sleep(0.5)
    start.touch()
    results = [p.communicate(timeout=300) for p in procs]
    assert [(p.returncode, out) for p, (out, _) in zip(procs, results)] == [(0, "1\n")] * 4, [err for _, err in results]
    reader = open_store()
    assert sorted(g.game_id for g in reader.list_games()) == ["g0", "g1", "g2", "g3"]
    assert [[(j.position, j.appended_by) for j in reader.journal(f"g{i}")] for i in range(4)] == [
        [(0, f"g{i}")] for i in range(4)
    ]
