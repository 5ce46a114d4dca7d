"""The seal chain in real stores, and attacks on it: SQLite files and PostgreSQL
schemas edited behind the product's back (sqlite3 / psycopg directly), then
``rummy-ledger verify`` through click's runner. Every attack is named by game
and position; none crashes (exit 1, never 2 or a traceback)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ledger.cli import cli
from ledger.record_files import read_record
from ledger.sealing import chain as _seal
from ledger.store.application import LedgerApp
from ledger.stored.persistence import game_uuid

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


class Raw:
    """Direct SQL on the test's store, as an attacker with database access."""

    def __init__(self, env: dict[str, str], app: LedgerApp) -> None:
        self.sqlite = env["PERSISTENCE_MODULE"].endswith("sqlite")
        self.events = app.recorder.events_table_name
        if self.sqlite:
            self.con: Any = sqlite3.connect(env["SQLITE_DBNAME"], isolation_level=None)
        else:
            import psycopg

            self.con = psycopg.connect(
                host=env["POSTGRES_HOST"],
                port=env["POSTGRES_PORT"],
                user=env["POSTGRES_USER"],
                password=env["POSTGRES_PASSWORD"] or None,
                dbname=env["POSTGRES_DBNAME"],
                autocommit=True,
            )
            self.con.execute(f'SET search_path TO "{env["POSTGRES_SCHEMA"]}"')

    def oid(self, game_id: str) -> Any:
        u = game_uuid(game_id)
        return u.hex if self.sqlite else u

    def run(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        sql = sql.format(events=self.events, journal="rummy_journal")
        if not self.sqlite:
            sql = sql.replace("?", "%s")
        cur = self.con.execute(sql, params)
        try:
            return [tuple(r) for r in cur.fetchall()]
        except Exception:  # noqa: BLE001 - statements without rows
            return []

    def state(self, game_id: str, position: int) -> bytes:
        return bytes(
            self.run(
                "SELECT state FROM {events} WHERE originator_id = ? AND originator_version = ?",
                self.oid(game_id),
                position + 1,
            )[0][0]
        )

    def set_state(self, game_id: str, position: int, state: bytes) -> None:
        self.run(
            "UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = ?",
            state,
            self.oid(game_id),
            position + 1,
        )


@pytest.fixture
def store(
    store_env: dict[str, str], make_record: Callable[..., bytes]
) -> Iterator[tuple[LedgerApp, Raw, Callable[..., Result]]]:
    """Two games stored through the product (``g1``: 16 events, ``bur-dispute``:
    19 with a penalty), the raw database and a ``verify`` runner."""
    app = LedgerApp(env=store_env)
    app.import_record(read_record(make_record("g1")))
    app.import_record(read_record(DISPUTE))
    raw = Raw(store_env, app)
    runner = CliRunner(env={**store_env, "RUMMY_LEDGER_DB": None})

    def run(*args: str) -> Result:
        return runner.invoke(cli, list(args), catch_exceptions=False)

    yield app, raw, run
    raw.con.close()
    app.close()


def _broken(result: Result) -> list[str]:
    assert result.exit_code == 1, result.output
    return result.stdout.splitlines()


def test_an_untouched_store_verifies(store) -> None:  # noqa: ANN001
    app, _raw, run = store
    result = run("verify")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "2 of 2 games verified (35 events)\n", "")
    out = run("verify", "--json", "g1")
    assert json.loads(out.stdout) == {
        "game_id": "g1",
        "ok": True,
        "length": 16,
        "seal": _seal.seal_hex(app.export_record("g1").splitlines()),
    }


def test_the_stored_seal_is_the_chain_of_the_export(store) -> None:  # noqa: ANN001
    app, raw, run = store
    for game in ("g1", "bur-dispute"):
        lines = app.export_record(game).splitlines()
        stored = [
            bytes(r[0])
            for r in raw.run("SELECT seal FROM {journal} WHERE originator_id = ? ORDER BY position", raw.oid(game))
        ]
        assert stored == list(_seal.seals(lines))  # the raw 32 bytes of each seal
        result = run("seal", game, "--json")
        assert json.loads(result.stdout)["seal"] == stored[-1].hex()


def test_one_changed_byte_in_a_card(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    state = raw.state("g1", 5)
    assert state.startswith(b'{"type":"card_drawn"') or state.startswith(b'{"type":"card_discarded"')
    i = state.index(b'"card":"') + 8
    raw.set_state("g1", 5, state[:i] + (b"Q" if state[i : i + 1] != b"Q" else b"K") + state[i + 1 :])
    (line,) = _broken(run("verify"))
    assert line.startswith("g1: position 5: event bytes differ from those sealed (stored seal ")
    assert run("verify", "bur-dispute").exit_code == 0


def test_a_changed_penalty(store) -> None:  # noqa: ANN001
    app, raw, run = store
    lines = app.export_record("bur-dispute").splitlines()
    p = next(i for i, line in enumerate(lines) if b'"penalty_assessed"' in line)
    raw.set_state("bur-dispute", p, lines[p].replace(b'"points":-50', b'"points":-5'))
    (line,) = _broken(run("verify"))
    assert line.startswith(f"bur-dispute: position {p}: event bytes differ from those sealed")


def test_a_deleted_event(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.run("DELETE FROM {events} WHERE originator_id = ? AND originator_version = ?", raw.oid("g1"), 8)
    assert _broken(run("verify", "g1")) == [
        "g1: position 7: event missing (deleted: the next stored event is at position 8)"
    ]


def test_a_swapped_pair_of_events(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    a, b = raw.state("g1", 3), raw.state("g1", 4)
    raw.run(
        "UPDATE {events} SET originator_version = -1 WHERE originator_id = ? AND originator_version = ?",
        raw.oid("g1"),
        4,
    )
    raw.run(
        "UPDATE {events} SET originator_version = 4 WHERE originator_id = ? AND originator_version = ?",
        raw.oid("g1"),
        5,
    )
    raw.run(
        "UPDATE {events} SET originator_version = 5 WHERE originator_id = ? AND originator_version = ?",
        raw.oid("g1"),
        -1,
    )
    assert (raw.state("g1", 3), raw.state("g1", 4)) == (b, a)
    (line,) = _broken(run("verify"))
    assert line.startswith("g1: position 3: event bytes differ from those sealed")


def test_an_event_appended_directly_in_the_database(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    topic = raw.run("SELECT topic FROM {events} WHERE originator_id = ? AND originator_version = ?", raw.oid("g1"), 15)[
        0
    ][0]
    raw.run(
        "INSERT INTO {events} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
        raw.oid("g1"),
        17,
        topic,
        raw.state("g1", 14),
    )
    assert _broken(run("verify", "g1")) == [
        "g1: position 16: no stored seal: the event was not appended through rummy-ledger (written into the "
        "database directly?)"
    ]


def test_an_edited_journal_entry(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.run(
        "UPDATE {journal} SET appended_by = 'cli:mallory' WHERE originator_id = ? AND position = ?", raw.oid("g1"), 9
    )
    (line,) = _broken(run("verify"))
    assert line.startswith("g1: position 9: journal entry (by 'cli:mallory', received ")
    assert line.endswith(") differs from the one sealed")


def test_an_edited_seal(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.run("UPDATE {journal} SET seal = ? WHERE originator_id = ? AND position = ?", bytes(32), raw.oid("g1"), 6)
    (line,) = _broken(run("verify"))
    assert line.startswith(
        "g1: position 6: stored seal 0000-0000-0000-0000 differs from the chain of the stored events ("
    )
    assert line.endswith("): the seal was edited")


def test_a_seal_stored_as_hex_text_instead_of_bytes(store) -> None:  # noqa: ANN001
    app, raw, run = store
    if not raw.sqlite:
        pytest.skip("a bytea column holds bytes only")
    good = app.journal("g1")[6].seal
    raw.run("UPDATE {journal} SET seal = ? WHERE originator_id = ? AND position = ?", good, raw.oid("g1"), 6)
    assert _broken(run("verify")) == ["g1: position 6: stored seal: stored as str, not bytes"]


#: bytes that are not UTF-8, stored as TEXT
X_FFFE = "CAST(X'FFFE' AS TEXT)"
#: ``(table, column, new value, row, finding)``: a row's TEXT value made of bytes that are not UTF-8
#: (sqlite3's default read raised for the whole query: every command on the store failed); value
#: ``None``: the column's stored bytes made text
NOT_UTF8 = [
    ("{journal}", "seal", None, 7, "stored seal: stored as str, not bytes"),
    ("{events}", "state", X_FFFE, 8, "event bytes: stored as str, not bytes"),
    ("{events}", "topic", X_FFFE, 8, "stored topic '\\\\xff\\\\xfe' is not the type of the event bytes"),
    (
        "{journal}",
        "appended_by",
        X_FFFE,
        7,
        "journal entry (by '\\\\xff\\\\xfe', received {at}) differs from the one sealed",
    ),
    (
        "{journal}",
        "received_at",
        "CAST(X'1B5B33316DFFFE' AS TEXT)",  # an escape sequence for the terminal, then bytes that are not UTF-8
        7,
        "journal entry (by '{by}', received \\x1b[31m\\xff\\xfe) differs from the one sealed",
    ),
]


@pytest.mark.parametrize(("table", "column", "value", "row", "finding"), NOT_UTF8, ids=[c[1] for c in NOT_UTF8])
def test_a_value_stored_as_text_that_is_not_utf8(store, table, column, value, row, finding) -> None:  # noqa: ANN001
    """The finding names the game and position; the other game still verifies;
    the game's reads fail as for any undecodable row, or not at all; nothing is
    printed raw (trial finding)."""
    app, raw, run = store
    if not raw.sqlite:
        pytest.skip("a PostgreSQL text column holds valid UTF-8 only, and bytea bytes only")
    entry = app.journal("bur-dispute")[7]
    key = "originator_version" if table == "{events}" else "position"
    raw.run(
        f"UPDATE {table} SET {column} = {value or f'CAST({column} AS TEXT)'} WHERE originator_id = ? AND {key} = ?",
        raw.oid("bur-dispute"),
        row,
    )
    result = run("verify")
    assert _broken(result) == ["bur-dispute: position 7: " + finding.format(at=entry.received_at, by=entry.appended_by)]
    assert result.stderr == "1 of 2 games verified (35 events); 1 broken\n"
    assert run("verify", "--deep", "g1").exit_code == 0
    undecodable = (
        "rummy-ledger: error: game 'bur-dispute' position 7: the stored event is str, not bytes: the row was "
        "changed outside rummy-ledger\n"
    )
    for args in (["score", "bur-dispute"], ["show", "bur-dispute", "--at", "7"], ["export", "bur-dispute"]):
        got = run(*args)
        if column == "state":
            assert (got.exit_code, got.stderr) == (2, undecodable), args
        elif column == "topic" and args[0] != "export":  # the export writes the stored bytes
            assert got.exit_code == 2 and got.stderr.startswith(
                "rummy-ledger: error: game 'bur-dispute' position 7: the stored event (\\xff\\xfe) does not decode: "
            ), args
        elif args[0] != "export":  # the chain is checked before a seal is printed (issue 26): no seal, exit 1
            assert got.exit_code == 1 and got.stderr.startswith(
                "rummy-ledger: warning: the stored chain of bur-dispute does not verify from position 7 ("
            ), args
            assert "NOT VALID: the stored chain is broken at position 7" in got.stdout, args
        else:
            assert (got.exit_code, got.stderr) == (0, ""), args
        assert "Error:" not in got.stderr and all(c.isprintable() or c == "\n" for c in got.output), args
    checkpoint = run("checkpoint", "-o", str(raw_path(raw).with_name("cp.json")))
    assert checkpoint.exit_code == 0, checkpoint.output
    from replay_web import create_app
    from replay_web.store import LedgerStore
    from replay_web.stream import hub_of

    web = create_app({"TESTING": True, "LEDGER_STORE": LedgerStore(app=app), "SPECTATOR_DELAY": 0})
    client = web.test_client()
    try:
        listed = client.get("/api/games")  # one damaged game never breaks the list
        assert listed.status_code == 200
        findings = {g["game_id"]: g["findings"] for g in listed.get_json()["games"]}
        readable = column in ("seal", "appended_by", "received_at")
        assert (findings["bur-dispute"] is None, findings["g1"]) == (not readable, 0)
        for url in ("/games/bur-dispute", "/api/games/bur-dispute/score", "/api/games/bur-dispute/events"):
            got = client.get(url)
            got.close()  # a live stream's generator ends here, in this context
            if readable:  # the viewer reads the game (the seal it shows is the last one)
                assert got.status_code == 200, url
            else:  # a clear 422 naming the position, not a 500
                assert got.status_code == 422, url
                message = got.get_json()["error"]["message"] if got.is_json else got.get_data(as_text=True)
                assert "position 7: the stored event" in message and "rummy-ledger verify" in message, url
    finally:
        hub = hub_of(web)  # the live stream's thread, started by /events
        if hub is not None:
            hub.stop()


def raw_path(raw: Raw) -> Path:
    """The SQLite file of ``raw``'s connection."""
    return Path(raw.run("PRAGMA database_list")[0][2])


def test_an_edited_journal_link(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.run(
        "UPDATE {journal} SET journal_seal = ? WHERE originator_id = ? AND position = ?", bytes(32), raw.oid("g1"), 15
    )
    (line,) = _broken(run("verify"))
    assert line.startswith("g1: position 0: journal entry (by 'import:")
    assert line.endswith(") differs from the one sealed")


def test_a_moved_append_call_boundary(store) -> None:  # noqa: ANN001
    """The link of a call moved to another row (or a second one added): the
    calls' positions are in the links, so the chain breaks."""
    _app, raw, run = store
    (link,) = raw.run("SELECT journal_seal FROM {journal} WHERE originator_id = ? AND position = ?", raw.oid("g1"), 15)[
        0
    ]
    raw.run("UPDATE {journal} SET journal_seal = NULL WHERE originator_id = ? AND position = ?", raw.oid("g1"), 15)
    raw.run("UPDATE {journal} SET journal_seal = ? WHERE originator_id = ? AND position = ?", link, raw.oid("g1"), 9)
    (line,) = _broken(run("verify"))
    assert line.startswith("g1: position 0: journal entry (by 'import:")


def test_a_row_stored_as_text_instead_of_bytes(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    if raw.sqlite:
        raw.run(
            "UPDATE {events} SET state = CAST(state AS TEXT) WHERE originator_id = ? AND originator_version = ?",
            raw.oid("g1"),
            3,
        )
        expected = "g1: position 2: event bytes: stored as str, not bytes"
    else:  # bytea holds bytes only: the text form of the bytes ('\\x7b22...') stored instead
        raw.run(
            "UPDATE {events} SET state = convert_to('\\x' || encode(state, 'hex'), 'UTF8') WHERE originator_id "
            "= ? AND originator_version = ?",
            raw.oid("g1"),
            3,
        )
        assert raw.state("g1", 2).startswith(b"\\x7b2274797065")
        expected = "g1: position 2: event bytes differ from those sealed"
    (line,) = _broken(run("verify"))
    assert line.startswith(expected)


def test_a_truncated_game(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.run("DELETE FROM {events} WHERE originator_id = ? AND originator_version > ?", raw.oid("g1"), 12)
    assert _broken(run("verify")) == [
        "g1: position 12: event missing (truncated: the journal records events up to position 15)"
    ]


def test_a_changed_topic_no_longer_decodes(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.run(
        "UPDATE {events} SET topic = 'ledger.events:GameEnded' WHERE originator_id = ? AND originator_version = ?",
        raw.oid("g1"),
        4,
    )
    assert _broken(run("verify")) == [
        "g1: position 3: stored topic 'ledger.events:GameEnded' is not the type of the event bytes"
    ]


def test_several_broken_games_one_line_each(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    raw.set_state("g1", 1, raw.state("g1", 1) + b" ")
    raw.run("DELETE FROM {journal} WHERE originator_id = ? AND position = ?", raw.oid("bur-dispute"), 0)
    result = run("verify")
    lines = {line.split(":", 1)[0]: line for line in _broken(result)}
    assert (
        lines["bur-dispute"]
        == "bur-dispute: position 0: no stored seal: the event was not appended through rummy-ledger (written "
        "into the database directly?)"
    )
    assert lines["g1"].startswith("g1: position 1: event bytes differ from those sealed")
    order = sorted(["g1", "bur-dispute"], key=lambda g: game_uuid(g).hex)
    assert list(lines) == order
    assert result.stderr == "0 of 2 games verified (35 events); 2 broken\n"
    out = [json.loads(line) for line in run("verify", "--json").stdout.splitlines()]
    assert sorted((o["game_id"], o["ok"], o["position"], o["differs"]) for o in out) == [
        ("bur-dispute", False, 0, "seal"),
        ("g1", False, 1, "event"),
    ]


def test_an_unknown_game_is_bad_input_with_suggestions(store, store_env) -> None:  # noqa: ANN001
    """Issue 26, "Trust": ``verify nosuch`` follows the contract of the
    other commands (no game …; did you mean …?, exit 2), and nothing is verified."""
    _app, _raw, run = store
    result = run("verify", "nope")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("rummy-ledger: error: no game 'nope' in the store (")
    result = run("verify", "g1", "bur-disput")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("rummy-ledger: error: no game 'bur-disput' in the store (")
    assert result.stderr.endswith("); did you mean bur-dispute?\n")
    assert run("--lang", "it", "verify", "bur-disput").stderr.endswith("); forse bur-dispute?\n")


def _stray_key(raw: Raw, number: int) -> Any:
    from uuid import UUID

    u = UUID(int=number)
    return u.hex if raw.sqlite else u


def test_a_row_moved_under_a_foreign_id_is_a_stray_sequence(store) -> None:  # noqa: ANN001
    """Issue 27, defect 6: one event's ``originator_id`` altered: the game
    it left is named at the gap, and the stray sequence by its id, which
    matches no game (it was named as a game of its own with a gap at 0)."""
    _app, raw, run = store
    raw.run(
        "UPDATE {events} SET originator_id = ? WHERE originator_id = ? AND originator_version = 5",
        _stray_key(raw, 1),
        raw.oid("bur-dispute"),
    )
    result = run("verify")
    assert sorted(_broken(result)) == [
        "bur-dispute: position 4: event missing (deleted: the next stored event is at position 5)",
        "sequence 00000000-0000-0000-0000-000000000001: its id matches no game: no game_started at position 0 "
        "(stored events: 1, from position 4; an originator_id edited?)",
    ]
    assert result.stderr == "1 of 3 games verified (35 events); 2 broken\n"
    out = {o["game_id"]: o for o in map(json.loads, run("verify", "--json").stdout.splitlines())}
    assert out["sequence 00000000-0000-0000-0000-000000000001"]["differs"] == "stray"
    italian = run("--lang", "it", "verify").stdout
    assert (
        "sequence 00000000-0000-0000-0000-000000000001: il suo id non è quello di nessuna partita: nessun "
        "game_started alla posizione 0 (eventi memorizzati: 1, dalla posizione 4; un originator_id modificato?)"
    ) in italian


def test_rows_copied_under_a_foreign_id_blame_no_game(store) -> None:  # noqa: ANN001
    """Issue 27, defect 6: a game's events and journal rows copied under a
    foreign id: the game verifies, the copy is named by its id (``verify``
    blamed bur-dispute for it: "the first event is not this game's
    game_started")."""
    _app, raw, run = store
    key = _stray_key(raw, 0xABCD)
    raw.run(
        "INSERT INTO {events} (originator_id, originator_version, topic, state) "
        "SELECT ?, originator_version, topic, state FROM {events} WHERE originator_id = ?",
        key,
        raw.oid("bur-dispute"),
    )
    raw.run(
        "INSERT INTO {journal} SELECT ?, position, appended_by, received_at, seal, journal_seal FROM {journal} "
        "WHERE originator_id = ?",
        key,
        raw.oid("bur-dispute"),
    )
    result = run("verify")
    assert _broken(result) == [
        "sequence 00000000-0000-0000-0000-00000000abcd: its id matches no game: its first event is the "
        "game_started of 'bur-dispute', stored under another id (stored events: 19; rows copied?)"
    ]
    assert result.stderr == "2 of 3 games verified (54 events); 1 broken\n"
    assert run("verify", "bur-dispute").exit_code == 0
    # its journal rows alone: still no game blamed
    raw.run("DELETE FROM {events} WHERE originator_id = ?", key)
    assert _broken(run("verify")) == [
        "sequence 00000000-0000-0000-0000-00000000abcd: its id matches no game: journal rows and no event "
        "(journal rows: 19)"
    ]


def test_appends_continue_the_stored_chain(store) -> None:  # noqa: ANN001
    app, raw, run = store
    record = read_record(_record_of_ramino("live"))
    app.append_events("live", list(record.events[:1]), expected=0, appended_by="cli:test")
    app.append_events("live", list(record.events[1:3]), appended_by="cli:test")
    app.append_events("live", list(record.events[3:5]), expected=3, appended_by="api:token-1")
    lines = app.export_record("live").splitlines()
    stored = [
        bytes(r[0])
        for r in raw.run("SELECT seal FROM {journal} WHERE originator_id = ? ORDER BY position", raw.oid("live"))
    ]
    assert stored == list(_seal.seals(lines))
    assert run("verify", "live").exit_code == 0
    journal = raw.run(
        "SELECT position, appended_by FROM {journal} WHERE originator_id = ? ORDER BY position", raw.oid("live")
    )
    assert journal == [(0, "cli:test"), (1, "cli:test"), (2, "cli:test"), (3, "api:token-1"), (4, "api:token-1")]
    assert run("verify", "--deep", "live").exit_code == 0  # the row-by-row check of a game of three append calls
    # either row of the last call (positions 3 and 4) edited: the other row and the call's link name it
    for position in (3, 4):
        raw.run(
            "UPDATE {journal} SET appended_by = 'cli:mallory' WHERE originator_id = ? AND position = ?",
            raw.oid("live"),
            position,
        )
        for deep in ((), ("--deep",)):
            (line,) = _broken(run("verify", *deep, "live"))
            assert line.startswith(f"live: position {position}: journal entry (by 'cli:mallory', received ")
        raw.run(
            "UPDATE {journal} SET appended_by = 'api:token-1' WHERE originator_id = ? AND position = ?",
            raw.oid("live"),
            position,
        )
    assert run("verify", "live").exit_code == 0


# --- verify's fast read (one row per game and table) agrees with the row-by-row check ---


def _fast(app: LedgerApp, games: list[str]) -> dict[str, Any]:
    from ledger.sealing.tables import tables
    from ledger.sealing.verify_fast import fast_batch

    t = tables(app)
    got = fast_batch(t, [t.key(game_uuid(g)) for g in games], {game_uuid(g).hex: None for g in games})
    return {g: got.get(game_uuid(g).hex) for g in games}


def _slow(app: LedgerApp, game: str) -> Any:
    from ledger.sealing.tables import tables
    from ledger.sealing.verify_rows import check_game

    t = tables(app)
    key = t.key(game_uuid(game))
    rows, journal = t.batch([key])
    return check_game(None, game_uuid(game).hex, rows[game_uuid(game).hex], journal[game_uuid(game).hex])


def test_an_intact_store_is_verified_by_the_fast_read(store, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """Imported games (one author and time each) and a live game (several
    authors, one of them with a quote, an accent, a percent sign and a
    newline in its name) are verified without the row-by-row check, with
    the same game, length and seal."""
    app, _raw, run = store
    record = read_record(_record_of_ramino("live"))
    app.append_events("live", list(record.events[:1]), expected=0, appended_by="cli:test")
    app.append_events("live", list(record.events[1:3]), appended_by='api:zoë "%d"\n\\x')
    app.append_events("live", list(record.events[3:5]), expected=3, appended_by="api:token-1")
    games = ["g1", "bur-dispute", "live"]
    fast = _fast(app, games)
    for game in games:
        slow = _slow(app, game)
        assert slow.ok and fast[game] is not None
        assert (fast[game].ok, fast[game].game_id, fast[game].length, fast[game].seal) == (
            True,
            game,
            slow.length,
            slow.seal,
        )
    assert [fast[g].length for g in games] == [16, 19, 5]
    assert run("verify").stdout == "3 of 3 games verified (40 events)\n"
    from ledger.sealing import verify

    monkeypatch.setattr(verify, "FAST_BATCH", 1)  # one game per batch
    checks = [(c.game_id, c.ok, c.seal) for c in verify.verify_games(app, verify.game_keys(app, None))]
    assert sorted(checks) == sorted((g, True, fast[g].seal) for g in games)


def test_deep_verify_reads_row_by_row_and_decodes_every_event(store) -> None:  # noqa: ANN001
    _app, raw, run = store
    assert (run("verify", "--deep").exit_code, run("verify", "--deep").stdout) == (
        0,
        "2 of 2 games verified (35 events)\n",
    )
    raw.set_state("g1", 4, raw.state("g1", 4)[:-1] + b',"seat":"x"}')
    (line,) = _broken(run("verify", "--deep", "g1"))
    assert line.startswith("g1: position 4: event bytes differ from those sealed")


def test_the_fast_read_gives_no_verdict_on_a_broken_game(store) -> None:  # noqa: ANN001
    """Every journal entry of a game rewritten to one other author (the
    fast read's one-author case) and two versions swapped: the fast read
    leaves both to the row-by-row check, which names the position."""
    app, raw, run = store
    raw.run("UPDATE {journal} SET appended_by = 'cli:mallory' WHERE originator_id = ?", raw.oid("g1"))
    a, b = raw.state("bur-dispute", 3), raw.state("bur-dispute", 4)
    raw.run(
        "UPDATE {events} SET originator_version = -1 WHERE originator_id = ? AND originator_version = ?",
        raw.oid("bur-dispute"),
        4,
    )
    raw.run(
        "UPDATE {events} SET originator_version = 4 WHERE originator_id = ? AND originator_version = ?",
        raw.oid("bur-dispute"),
        5,
    )
    raw.run(
        "UPDATE {events} SET originator_version = 5 WHERE originator_id = ? AND originator_version = ?",
        raw.oid("bur-dispute"),
        -1,
    )
    assert (raw.state("bur-dispute", 3), raw.state("bur-dispute", 4)) == (b, a)
    assert _fast(app, ["g1", "bur-dispute"]) == {"g1": None, "bur-dispute": None}
    lines = _broken(run("verify"))
    assert sorted(line.split(": ", 2)[1] for line in lines) == ["position 0", "position 3"]
    assert next(x for x in lines if x.startswith("g1:")).startswith(
        "g1: position 0: journal entry (by 'cli:mallory', received "
    )


def _record_of_ramino(game_id: str) -> bytes:
    from tests.conftest import record_bytes

    return record_bytes(game_id)


def test_the_store_cannot_be_read_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "not.db").write_bytes(b"this is not a database" * 100)
    result = CliRunner(env={"RUMMY_LEDGER_DB": None, "PERSISTENCE_MODULE": None}).invoke(
        cli, ["--db", str(tmp_path / "not.db"), "verify"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("rummy-ledger: error: store SQLite ")


# --- a store from before the seal chain: sealed only when asked (seal-backfill), never by a read ---

_NO_SEAL = "no stored seal: the event was not appended through rummy-ledger (written into the database directly?)"


def _bytes_of(store_env: dict[str, str]) -> bytes | None:
    """The SQLite file's bytes (None on PostgreSQL)."""
    if not store_env["PERSISTENCE_MODULE"].endswith("sqlite"):
        return None
    return Path(store_env["SQLITE_DBNAME"]).read_bytes()


def test_a_store_from_before_the_chain_is_sealed_only_when_asked(
    store_env: dict[str, str], make_record: Callable[..., bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    app = LedgerApp(env=store_env)
    app.import_record(read_record(make_record("old-1")))
    app.import_record(read_record(make_record("old-2", seed=3)))
    raw = Raw(store_env, app)
    # as a version before the chain left it: events, no journal rows, no marker
    raw.run("DELETE FROM {journal}")
    raw.run("DELETE FROM rummy_seal_state")
    app.close()
    capsys.readouterr()
    runner = CliRunner(env={**store_env, "RUMMY_LEDGER_DB": None})
    before = _bytes_of(store_env)
    result = runner.invoke(cli, ["verify"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        f"old-1: position 0: {_NO_SEAL}\nold-2: position 0: {_NO_SEAL}\n",
        "0 of 2 games verified (32 events); 2 broken\n",
    )
    assert _bytes_of(store_env) == before  # verify wrote nothing
    assert raw.run("SELECT COUNT(*) FROM {journal}") == [(0,)]
    result = runner.invoke(cli, ["seal-backfill"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert sorted(lines[:2]) == ["sealed old-1: 16 events", "sealed old-2: 16 events"]
    assert lines[2].startswith("sealed 32 events of 2 games stored before the seal chain, journal entry backfill:")
    assert lines[2].endswith("; rummy-ledger verify checks them") and len(lines) == 3
    again = LedgerApp(env=store_env)
    for game in ("old-1", "old-2"):
        exported = again.export_record(game).splitlines()
        assert [j.seal for j in again.journal(game)] == [h.hex() for h in _seal.seals(exported)]
        assert {j.appended_by.split(":")[0] for j in again.journal(game)} == {"backfill"}
    assert runner.invoke(cli, ["verify"]).exit_code == 0
    (marker,) = raw.run("SELECT value FROM rummy_seal_state WHERE key = 'backfilled'")
    assert marker[0].endswith(": 32 events of 2 games") and " by backfill:" in marker[0]
    # once: a later event written into the database directly is not sealed, by a read or by seal-backfill
    raw.run(
        "INSERT INTO {events} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
        raw.oid("old-1"),
        17,
        "ledger.events:GameEnded",
        b'{"type":"game_ended","reason":"abandoned"}',
    )
    assert runner.invoke(cli, ["verify", "old-1"]).stdout == f"old-1: position 16: {_NO_SEAL}\n"
    refused = runner.invoke(cli, ["seal-backfill"])
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == (
        f"refused: this store's events were sealed once already ({marker[0]}); an event without a seal now was "
        "written into the database directly, and rummy-ledger verify names it\n"
    )
    assert runner.invoke(cli, ["verify", "old-1"]).exit_code == 1
    again.close()
    raw.con.close()


def test_two_statements_no_longer_launder_an_edit(
    store_env: dict[str, str], make_record: Callable[..., bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27, defect 1: an edited event, then every seal and journal link
    set to NULL and the marker deleted: ``verify`` reports every game
    broken, writes nothing (the SQLite file byte for byte), and
    ``seal-backfill`` refuses (the journal holds rows)."""
    app = LedgerApp(env=store_env)
    app.import_record(read_record(make_record("g1")))
    app.import_record(read_record(DISPUTE))
    raw = Raw(store_env, app)
    app.close()
    state = raw.state("bur-dispute", 17)
    raw.set_state("bur-dispute", 17, state.replace(b'"points":0}', b'"points":-999}'))
    raw.run("UPDATE {journal} SET seal=NULL, journal_seal=NULL")
    raw.run("DELETE FROM rummy_seal_state")
    runner = CliRunner(env={**store_env, "RUMMY_LEDGER_DB": None})
    before = _bytes_of(store_env)
    for _ in range(2):
        result = runner.invoke(cli, ["verify"])
        assert (result.exit_code, sorted(result.stdout.splitlines()), result.stderr) == (
            1,
            [f"bur-dispute: position 0: {_NO_SEAL}", f"g1: position 0: {_NO_SEAL}"],
            "0 of 2 games verified (35 events); 2 broken\n",
        )
        assert capsys.readouterr().err == ""
    assert _bytes_of(store_env) == before
    assert raw.run("SELECT COUNT(*) FROM {journal} WHERE seal IS NOT NULL") == [(0,)]
    refused = runner.invoke(cli, ["seal-backfill"])
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr.startswith("refused: the journal holds 35 rows, so this store's events were stored by ")
    assert runner.invoke(cli, ["verify"]).exit_code == 1
    # the other way: the journal rows deleted with the marker; a read still seals nothing
    raw.run("DELETE FROM {journal}")
    before = _bytes_of(store_env)
    assert runner.invoke(cli, ["verify"]).exit_code == 1
    for command in (["list"], ["show", "g1"], ["score", "g1"], ["audit", "g1"], ["seal", "g1"]):
        runner.invoke(cli, command)
    assert _bytes_of(store_env) == before
    assert raw.run("SELECT COUNT(*) FROM {journal}") == [(0,)]
    # sealing them is a command of its own, and it leaves a journal entry that shows it happened
    assert runner.invoke(cli, ["seal-backfill"]).exit_code == 0
    again = LedgerApp(env=store_env)
    assert {j.appended_by.split(":")[0] for j in again.journal("bur-dispute")} == {"backfill"}
    again.close()
    raw.con.close()


def test_seals_missing_for_some_events_are_reported(
    store_env: dict[str, str], make_record: Callable[..., bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    """Journal rows deleted for the last events, an event edited and the
    marker deleted: nothing is sealed anew, and ``verify`` names the first
    event without a seal (trial finding)."""
    app = LedgerApp(env=store_env)
    app.import_record(read_record(make_record("g1")))
    app.import_record(read_record(DISPUTE))
    raw = Raw(store_env, app)
    app.close()
    runner = CliRunner(env={**store_env, "RUMMY_LEDGER_DB": None})
    assert runner.invoke(cli, ["verify", "--deep"]).exit_code == 0
    raw.run(
        "DELETE FROM {journal} WHERE originator_id = ? AND position IN (17, 18)",
        raw.oid("bur-dispute"),
    )
    state = raw.state("bur-dispute", 17)
    assert b'"points":0}' in state
    raw.set_state("bur-dispute", 17, state.replace(b'"points":0}', b'"points":-999}'))
    raw.run("DELETE FROM rummy_seal_state")
    capsys.readouterr()
    LedgerApp(env=store_env).close()
    assert capsys.readouterr().err == ""
    assert raw.run(
        "SELECT COUNT(*) FROM {journal} WHERE originator_id = ? AND position >= 17", raw.oid("bur-dispute")
    ) == [(0,)]
    for deep in ([], ["--deep"]):
        result = runner.invoke(cli, ["verify", *deep])
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            f"bur-dispute: position 17: {_NO_SEAL}\n",
            "1 of 2 games verified (35 events); 1 broken\n",
        )
    raw.con.close()


def test_the_journal_table_of_the_append_path_gets_its_column(
    store_env: dict[str, str], make_record: Callable[..., bytes]
) -> None:
    app = LedgerApp(env=store_env)
    app.import_record(read_record(make_record("c-1")))
    raw = Raw(store_env, app)
    app.close()
    raw.run("DROP TABLE {journal}")
    raw.run(
        "CREATE TABLE rummy_journal (originator_id TEXT NOT NULL, position INTEGER NOT NULL, appended_by TEXT "
        "NOT NULL, "
        "received_at TEXT NOT NULL, seal TEXT, PRIMARY KEY (originator_id, position))"
        if raw.sqlite
        else "CREATE TABLE rummy_journal (originator_id uuid NOT NULL, position integer NOT NULL, appended_by text "
        "NOT NULL, "
        "received_at text NOT NULL, seal text, PRIMARY KEY (originator_id, position))"
    )
    raw.run("DELETE FROM rummy_seal_state")
    again = LedgerApp(env=store_env)
    runner = CliRunner(env={**store_env, "RUMMY_LEDGER_DB": None})
    assert runner.invoke(cli, ["verify"]).stdout == f"c-1: position 0: {_NO_SEAL}\n"
    assert runner.invoke(cli, ["seal-backfill"]).stdout.startswith("sealed c-1: 16 events\n")
    assert runner.invoke(cli, ["verify"]).exit_code == 0
    again.close()
    raw.con.close()


# --- a store of the previous layout (hex seals, a journal link per event): converted once ---

V1_PREFIX = b"rummy-ledger/journal/1\n"


def _old_layout(raw: Raw, rows: list[tuple[Any, int, str, str, str]]) -> None:
    """The journal table as the previous version wrote it: ``seal`` and
    ``journal_seal`` as 64-digit hex text, ``jN = SHA-256(jN-1 + hN + {"position":N,"by":…,"received_at":…})``
    on every row (computed here from its definition, not by the product);
    ``rows``: ``(originator_id, position, by, received_at, seal hex)`` in game and position order."""
    import hashlib

    raw.run("DROP TABLE {journal}")
    raw.run(
        "CREATE TABLE rummy_journal (originator_id TEXT NOT NULL, position INTEGER NOT NULL, "
        "appended_by TEXT NOT NULL, received_at TEXT NOT NULL, seal TEXT, journal_seal TEXT, "
        "PRIMARY KEY (originator_id, position)) WITHOUT ROWID"
        if raw.sqlite
        else "CREATE TABLE rummy_journal (originator_id uuid NOT NULL, position integer NOT NULL, "
        "appended_by text NOT NULL, received_at text NOT NULL, seal text, journal_seal text, "
        "PRIMARY KEY (originator_id, position))"
    )
    j = V1_PREFIX
    for oid, p, by, at, seal in rows:
        line = json.dumps({"position": p, "by": by, "received_at": at}, separators=(",", ":")).encode()
        j = hashlib.sha256((V1_PREFIX if p == 0 else j) + bytes.fromhex(seal) + line).digest()
        raw.run("INSERT INTO {journal} VALUES (?, ?, ?, ?, ?, ?)", oid, p, by, at, seal, j.hex())


def test_a_store_of_the_previous_layout_is_converted_once(
    store_env: dict[str, str], make_record: Callable[..., bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    app = LedgerApp(env=store_env)
    app.import_record(read_record(make_record("g1")))
    app.import_record(read_record(DISPUTE))
    live = read_record(_record_of_ramino("live"))
    app.append_events("live", list(live.events[:1]), expected=0, appended_by="cli:test")
    app.append_events("live", list(live.events[1:3]), appended_by="cli:test")
    app.append_events("live", list(live.events[3:5]), expected=3, appended_by="api:token-1")
    games = ("bur-dispute", "g1", "live")
    before = {g: app.journal(g) for g in games}
    seals_before = {g: [j.seal for j in before[g]] for g in games}
    raw = Raw(store_env, app)
    app.close()
    _old_layout(
        raw,
        [
            (raw.oid(g), j.position, j.appended_by, j.received_at, j.seal)
            for g in sorted(games, key=lambda g: game_uuid(g).hex)
            for j in before[g]
        ],
    )
    # two attacks on the old store, which the previous verify named: they must survive the conversion
    raw.run(
        "UPDATE {journal} SET appended_by = 'cli:mallory' WHERE originator_id = ? AND position = ?", raw.oid("g1"), 9
    )
    raw.run(
        "UPDATE {journal} SET seal = ? WHERE originator_id = ? AND position = ?", "0" * 64, raw.oid("bur-dispute"), 6
    )
    capsys.readouterr()
    again = LedgerApp(env=store_env)
    assert capsys.readouterr().err == (
        "rummy-ledger: converted the journal of 40 events of 3 games to this version's layout (seals as bytes, "
        "one journal link per append call; once, from the stored seals)\n"
    )
    kind = raw.run(
        "SELECT typeof(seal), typeof(journal_seal) FROM {journal} WHERE originator_id = ? AND position = 4"
        if raw.sqlite
        else "SELECT pg_typeof(seal)::text, pg_typeof(journal_seal)::text FROM {journal} WHERE originator_id = ? "
        "AND position = 4",
        raw.oid("live"),
    )
    assert kind == [("blob", "blob") if raw.sqlite else ("bytea", "bytea")]
    # the seals are the same: FORMAT.md's chain does not change
    assert {g: [j.seal for j in again.journal(g)] for g in ("g1", "live")} == {
        g: seals_before[g] for g in ("g1", "live")
    }
    links = raw.run(
        "SELECT position FROM {journal} WHERE originator_id = ? AND journal_seal IS NOT NULL ORDER BY position",
        raw.oid("live"),
    )
    assert links == [(0,), (2,), (4,)]  # one link per append call
    runner = CliRunner(env={**store_env, "RUMMY_LEDGER_DB": None})
    result = runner.invoke(cli, ["verify"])
    assert result.exit_code == 1
    lines = {line.split(":", 1)[0]: line for line in result.stdout.splitlines()}
    assert lines["g1"].startswith("g1: position 9: journal entry (by 'cli:mallory', received ")
    assert lines["g1"].endswith(") differs from the one sealed")
    assert lines["bur-dispute"].startswith(
        "bur-dispute: position 6: stored seal 0000-0000-0000-0000 differs from the chain of the stored events ("
    )
    assert lines["bur-dispute"].endswith("): the seal was edited")
    assert "live" not in lines and result.stderr == "1 of 3 games verified (40 events); 2 broken\n"
    seal = runner.invoke(cli, ["seal", "live", "--json"])
    assert json.loads(seal.stdout)["seal"] == seals_before["live"][-1]
    # the chain continues after the conversion
    again.append_events("live", list(live.events[5:7]), expected=5, appended_by="cli:test")
    assert runner.invoke(cli, ["verify", "live"]).exit_code == 0
    assert [j.seal for j in again.journal("live")] == [
        h.hex() for h in _seal.seals(again.export_record("live").splitlines())
    ]
    again.close()
    third = LedgerApp(env=store_env)  # once
    assert capsys.readouterr().err == ""
    third.close()
    raw.con.close()


# --- checkpoints against the store ---


@pytest.fixture
def signed(store, tmp_path: Path):  # noqa: ANN001, ANN201
    """A signed checkpoint of the store's two games, and the key."""
    _app, _raw, run = store
    assert run("keygen", str(tmp_path / "club.key")).exit_code == 0
    result = run("checkpoint", "-o", str(tmp_path / "cp.json"), "--sign", str(tmp_path / "club.key"))
    assert result.exit_code == 0, result.output
    return tmp_path / "cp.json", tmp_path / "club.key.pub"


def test_a_signed_checkpoint_verifies_and_the_store_may_grow(store, signed, make_record: Callable[..., bytes]) -> None:  # noqa: ANN001
    app, _raw, run = store
    cp_file, pub = signed
    doc = json.loads(cp_file.read_text())
    assert [(g["game_id"], g["length"]) for g in doc["games"]] == [("bur-dispute", 19), ("g1", 16)]
    assert [g["seal"] for g in doc["games"]] == [
        _seal.seal_hex(app.export_record(g).splitlines()) for g in ("bur-dispute", "g1")
    ]
    key_id = doc["signature"]["key_id"]
    ok = run("verify", "--checkpoint", str(cp_file), "--key", str(pub))
    assert (ok.exit_code, ok.stdout) == (
        0,
        f"{cp_file}: the store is consistent with the checkpoint (2 games, root verified); signed by key {key_id}\n",
    )
    # a live game checkpointed half-way, then grown; and a game added later: still consistent
    live = read_record(make_record("live")).events
    app.append_events("live", list(live[:5]), expected=0, appended_by="cli:test")
    assert run("checkpoint", "-o", str(cp_file), "--sign", str(pub.with_suffix(""))).exit_code == 0
    app.append_events("live", list(live[5:]), expected=5, appended_by="cli:test")
    app.import_record(read_record(make_record("g2")))
    assert [(g["game_id"], g["length"]) for g in json.loads(cp_file.read_text())["games"]] == [
        ("bur-dispute", 19),
        ("g1", 16),
        ("live", 5),
    ]
    ok = run("verify", "--checkpoint", str(cp_file), "--key", str(pub))
    assert (ok.exit_code, ok.stdout) == (
        0,
        f"{cp_file}: the store is consistent with the checkpoint (3 games, root verified); signed by key {key_id}\n",
    )


def test_a_checkpoint_edited_by_one_byte_fails(store, signed) -> None:  # noqa: ANN001
    _app, _raw, run = store
    cp_file, pub = signed
    text = cp_file.read_text()
    i = text.index('"length": 16') + len('"length": 1')
    cp_file.write_text(text[:i] + "7" + text[i + 1 :])
    result = run("verify", "--checkpoint", str(cp_file), "--key", str(pub))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{cp_file}: checkpoint does not verify: root ")
    assert result.stderr.endswith("…): the file was edited\n")


def test_a_checkpoint_signed_by_another_key_fails(store, signed, tmp_path: Path) -> None:  # noqa: ANN001
    _app, _raw, run = store
    cp_file, pub = signed
    run("keygen", str(tmp_path / "other.key"))
    run("checkpoint", "-o", str(tmp_path / "other.json"), "--sign", str(tmp_path / "other.key"))
    from ledger.sealing import checkpoint as cp

    mine, theirs = cp.key_id(cp.load_public_key(pub)), cp.key_id(cp.load_public_key(tmp_path / "other.key.pub"))
    result = run("verify", "--checkpoint", str(tmp_path / "other.json"), "--key", str(pub))
    assert (result.exit_code, result.stderr) == (
        1,
        f"{tmp_path / 'other.json'}: checkpoint does not verify: signed by key {theirs}, not by the given key {mine}\n",
    )


def test_a_game_rewritten_since_the_checkpoint_fails(store, signed, make_record: Callable[..., bytes]) -> None:  # noqa: ANN001
    """The attacker rewrites g1 completely through the product (both chains
    recomputed, so the store verifies on its own); the checkpoint catches it."""
    app, raw, run = store
    cp_file, pub = signed
    doc = json.loads(cp_file.read_text())
    raw.run("DELETE FROM {events} WHERE originator_id = ?", raw.oid("g1"))
    raw.run("DELETE FROM {journal} WHERE originator_id = ?", raw.oid("g1"))
    app.import_record(read_record(make_record("g1", seed=9)))
    assert run("verify").exit_code == 0
    result = run("verify", "--checkpoint", str(cp_file), "--key", str(pub))
    new = _seal.seal_hex(app.export_record("g1").splitlines())
    g1 = next(g for g in doc["games"] if g["game_id"] == "g1")
    assert (result.exit_code, result.stderr) == (
        1,
        (
            f"{cp_file}: g1: seal at position 15 is {_seal.short_form(new)} from the stored events, "
            f"the checkpoint's is {_seal.short_form(g1['seal'])}: the game was rewritten since the checkpoint\n"
        ),
    )


def test_a_game_truncated_with_its_journal_is_caught_by_the_checkpoint(store, signed) -> None:  # noqa: ANN001
    _app, raw, run = store
    cp_file, pub = signed
    raw.run("DELETE FROM {events} WHERE originator_id = ? AND originator_version > 10", raw.oid("bur-dispute"))
    raw.run("DELETE FROM {journal} WHERE originator_id = ? AND position >= 10", raw.oid("bur-dispute"))
    # the append call that stored positions 0..18 has lost its journal link, on position 18
    assert _broken(run("verify")) == [
        "bur-dispute: position 10: event missing (truncated: the append call from position 0 has no journal seal)"
    ]
    result = run("verify", "--checkpoint", str(cp_file))
    assert (result.exit_code, result.stderr) == (
        1,
        f"{cp_file}: bur-dispute: 10 events stored, the checkpoint lists 19: the game was truncated\n",
    )


def test_prove_a_stored_game_and_check_it_with_the_export(store, signed, tmp_path: Path) -> None:  # noqa: ANN001
    app, _raw, run = store
    cp_file, pub = signed
    proof = tmp_path / "g1.proof.json"
    assert run("prove", "g1", "--checkpoint", str(cp_file), "-o", str(proof)).exit_code == 0
    exported = tmp_path / "g1.jsonl"
    exported.write_bytes(app.export_record("g1"))
    result = run("verify", "--proof", str(proof), "--key", str(pub), "--record", str(exported))
    assert result.exit_code == 0
    assert result.stdout.endswith(f"; {exported} has that seal\n")


def test_checkpoint_of_one_tournament(store, tmp_path: Path) -> None:  # noqa: ANN001
    _app, _raw, run = store
    result = run("checkpoint", "-o", str(tmp_path / "t.json"), "--tournament", "fixtures")
    doc = json.loads((tmp_path / "t.json").read_text())
    assert (doc["tournament"], [g["game_id"] for g in doc["games"]], "signature" in doc) == (
        "fixtures",
        ["bur-dispute"],
        False,
    )
    assert result.stdout == f"wrote checkpoint {tmp_path / 't.json'}: 1 game, root {doc['root'][:16]}…\n"


def test_all_games_lists_every_stored_id_as_distinct_would(store) -> None:  # noqa: ANN001
    """Issue 28, target 3: ``verify``'s list of games (``SealTables.all_games``)
    is the ids ``SELECT DISTINCT … UNION SELECT DISTINCT …`` gives, a journal
    row's own id, a NULL and a blob id included (SQLite); on SQLite it seeks
    once per game instead of visiting each row: 2,000 more rows of one game
    cost it no more SQLite steps."""
    from uuid import UUID

    from ledger.sealing import tables as seal_tables

    app, raw, _run = store
    t = seal_tables.tables(app)
    raw.run(
        "INSERT INTO {journal} (originator_id, position, appended_by, received_at) VALUES (?, 0, 'x', 'y')",
        _stray_key(raw, 7),
    )
    if raw.sqlite:
        for odd in ("NULL", "X'ABCD'"):
            raw.run(f"INSERT INTO {{events}} VALUES ({odd}, 1, 't', X'00')")
    distinct = raw.run("SELECT DISTINCT originator_id FROM {events} UNION SELECT DISTINCT originator_id FROM {journal}")
    expected = sorted((r[0] for r in distinct), key=str)
    assert t.all_games() == expected
    games = [game_uuid("g1"), game_uuid("bur-dispute"), UUID(int=7)]
    assert {UUID(hex=x) if isinstance(x, str) else x for x in expected} >= set(games)
    assert len(expected) == (5 if raw.sqlite else 3)
    if not raw.sqlite:
        return

    def steps(sql: str) -> int:
        count = [0]

        def tick() -> int:
            count[0] += 1
            return 0

        raw.con.set_progress_handler(tick, 10)
        try:
            raw.run(sql)
        finally:
            raw.con.set_progress_handler(None, 10)
        return count[0]

    walk = seal_tables._SQLITE_IDS
    before = steps(walk)
    raw.run(
        "WITH RECURSIVE n(v) AS (SELECT 100 UNION ALL SELECT v + 1 FROM n WHERE v < 2099) "
        "INSERT INTO {events} SELECT ?, v, 't', X'00' FROM n",
        raw.oid("g1"),
    )
    assert steps(walk) <= before + 2
    assert steps("SELECT DISTINCT originator_id FROM {events}") > 200
