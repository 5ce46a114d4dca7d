"""``verify``'s findings as data (issue 23, "A message is data"): each kind of
finding of :func:`ledger.sealing.verify_rows.check_game` is a msgid and its
parameters, its English byte-identical to before (``verify``, ``verify
--json``'s ``message``, ``chain_broken``) and its Italian rendered where it
is shown (``--lang it``). One test per kind, on the tampered stores of
tests/test_seal_store.py and on a stored game's rows edited in memory."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import Result

from ledger.i18n import translations
from ledger.record_files import read_record
from ledger.sealing import verify_rows
from ledger.sealing.chain import short_form
from ledger.sealing.tables import tables
from ledger.sealing.verify_rows import GameCheck, check_game
from ledger.store.application import LedgerApp
from ledger.stored.persistence import decode_stored, game_uuid
from ledger.texts import Message, Text, placeholders
from tests.test_seal_store import store  # noqa: F401 - the fixture

IT = translations("it")
G1 = game_uuid("g1").hex


@pytest.fixture
def g1_rows(sqlite_env: dict[str, str], make_record: Callable[..., bytes]) -> Iterator[list[tuple[Any, ...]]]:
    """The stored rows of a 16-event game ``g1`` (:meth:`ledger.sealing.tables.SealTables.batch`)."""
    app = LedgerApp(env=sqlite_env)
    app.import_record(read_record(make_record("g1")))
    t = tables(app)
    rows, _journal = t.batch([t.key(game_uuid("g1"))])
    yield rows[G1]
    app.close()


def _said(check: GameCheck) -> tuple[str, str]:
    """``check``'s line in English and in Italian, after checking its message is data."""
    assert isinstance(check.message, Text) and isinstance(check.message.msg, Message)
    assert check.message == str(check.message.msg)
    assert check.line() == check.line(None)
    return check.line(), check.line(IT)


def _edited(rows: list[tuple[Any, ...]], at: int, **new: Any) -> list[tuple[Any, ...]]:
    """``rows`` with row ``at``'s columns replaced (by name), its seal recomputed
    when its state changed and the rows after it dropped."""
    names = ("version", "topic", "state", "by", "received_at", "seal", "journal")
    row = dict(zip(names, rows[at], strict=True)) | new
    if "state" in new and isinstance(new["state"], bytes):
        row["seal"] = hashlib.sha256(rows[at - 1][5] + new["state"]).digest()
    return [*rows[:at], tuple(row[n] for n in names)]


# --- on the rows: each finding of check_game, English and Italian -------------------------------


def test_a_game_not_stored() -> None:
    check = check_game("nosuch", game_uuid("nosuch").hex, [])
    assert (check.kind, check.position) == ("missing", None)
    assert _said(check) == ("nosuch: no such game in the store", "nosuch: la partita non è in archivio")


def test_a_row_stored_as_another_type(g1_rows: list[tuple[Any, ...]]) -> None:
    event = check_game("g1", G1, _edited(g1_rows, 4, state=123))
    assert (event.kind, event.position) == ("event", 4)
    assert _said(event) == (
        "g1: position 4: event bytes: stored as int, not bytes",
        "g1: posizione 4: byte dell'evento: registrati come int, non in byte",
    )
    seal = check_game("g1", G1, _edited(g1_rows, 4, seal="ab" * 32))
    assert (seal.kind, seal.position) == ("seal", 4)
    assert _said(seal) == (
        "g1: position 4: stored seal: stored as str, not bytes",
        "g1: posizione 4: sigillo registrato: memorizzato come str, non in byte",
    )


def test_a_row_without_a_seal(g1_rows: list[tuple[Any, ...]]) -> None:
    check = check_game("g1", G1, _edited(g1_rows, 4, seal=None))
    assert _said(check) == (
        "g1: position 4: no stored seal: the event was not appended through rummy-ledger (written into the "
        "database directly?)",
        "g1: posizione 4: nessun sigillo registrato: l'evento non è stato aggiunto tramite rummy-ledger (scritto "
        "direttamente nel database?)",
    )


def test_a_topic_that_is_not_the_bytes_type(g1_rows: list[tuple[Any, ...]]) -> None:
    check = check_game("g1", G1, _edited(g1_rows, 3, topic="ledger.events:GameEnded"))
    assert _said(check) == (
        "g1: position 3: stored topic 'ledger.events:GameEnded' is not the type of the event bytes",
        "g1: posizione 3: il topic registrato 'ledger.events:GameEnded' non è il tipo dei byte dell'evento",
    )


def test_bytes_that_do_not_decode(g1_rows: list[tuple[Any, ...]]) -> None:
    """Sealed bytes of the right type that do not decode: ``--deep`` decodes every event."""
    _, topic, state, *_ = g1_rows[3]
    i = state.index(b'"seat":') + 7
    bad = state[:i] + b'"x"' + state[i + 1 :]
    with pytest.raises(Exception) as exc:  # noqa: PT011 - whatever the decoder says is the finding
        decode_stored(bad, topic)
    rows = _edited(g1_rows, 3, state=bad)
    assert check_game("g1", G1, rows).kind == "missing"  # not decoded: only the rows cut short are found
    check = check_game("g1", G1, rows, deep=True)
    assert (check.kind, check.position) == ("event", 3)
    assert _said(check) == (
        f"g1: position 3: event bytes do not decode as {topic}: {exc.value}",
        f"g1: posizione 3: i byte dell'evento non si decodificano come {topic}: {exc.value}",
    )


def test_a_first_event_of_another_game(g1_rows: list[tuple[Any, ...]]) -> None:
    check = check_game("other", game_uuid("other").hex, g1_rows)
    assert (check.kind, check.position) == ("event", 0)
    assert _said(check) == (
        "other: position 0: the first event is not this game's game_started",
        "other: posizione 0: il primo evento non è il game_started di questa partita",
    )


def test_journal_entries_that_are_not_text_or_not_one_an_event(g1_rows: list[tuple[Any, ...]]) -> None:
    not_text = check_game("g1", G1, _edited(g1_rows, 4, by=7))
    assert (not_text.kind, not_text.position) == ("journal", 4)
    assert _said(not_text) == (
        "g1: position 4: journal entry is not text",
        "g1: posizione 4: la voce del giornale non è testo",
    )
    count = check_game("g1", G1, g1_rows, (17, 15))
    assert (count.kind, count.position) == ("journal", 15)
    assert _said(count) == (
        "g1: position 15: 17 journal entries for 16 events",
        "g1: posizione 15: voci del giornale: 17 per 16 eventi",
    )


def test_an_edited_journal_entry_on_the_rows(g1_rows: list[tuple[Any, ...]]) -> None:
    at = g1_rows[9][4]
    rows = [*g1_rows[:9], (*g1_rows[9][:3], "cli:mallory", *g1_rows[9][4:]), *g1_rows[10:]]
    check = check_game("g1", G1, rows, (16, 15))
    assert (check.kind, check.position) == ("journal", 9)
    assert _said(check) == (
        f"g1: position 9: journal entry (by 'cli:mallory', received {at}) differs from the one sealed",
        f"g1: posizione 9: la voce del giornale (di 'cli:mallory', ricevuta {at}) differisce da quella sigillata",
    )


def test_missing_events_on_the_rows(g1_rows: list[tuple[Any, ...]]) -> None:
    deleted = check_game("g1", G1, [*g1_rows[:7], *g1_rows[8:]], (16, 15))
    truncated = check_game("g1", G1, g1_rows[:12], (16, 15))
    open_call = check_game("g1", G1, g1_rows[:12], (12, 11))
    assert [(c.kind, c.position) for c in (deleted, truncated, open_call)] == [
        ("missing", 7),
        ("missing", 12),
        ("missing", 12),
    ]
    assert [_said(c) for c in (deleted, truncated, open_call)] == [
        (
            "g1: position 7: event missing (deleted: the next stored event is at position 8)",
            "g1: posizione 7: evento mancante (cancellato: il successivo evento registrato è alla posizione 8)",
        ),
        (
            "g1: position 12: event missing (truncated: the journal records events up to position 15)",
            "g1: posizione 12: evento mancante (partita troncata: il giornale registra eventi fino alla posizione 15)",
        ),
        (
            "g1: position 12: event missing (truncated: the append call from position 0 has no journal seal)",
            "g1: posizione 12: evento mancante (partita troncata: l'aggiunta dalla posizione 0 non ha il sigillo "
            "del giornale)",
        ),
    ]


def test_a_verified_game_in_both_languages(g1_rows: list[tuple[Any, ...]]) -> None:
    check = check_game("g1", G1, g1_rows, (16, 15))
    short = short_form(check.seal)
    assert (check.line(), check.line(IT)) == (
        f"g1: verified (16 events, seal {short})",
        f"g1: verificata (eventi: 16, sigillo {short})",
    )
    assert (GameCheck("g", 0).line(), GameCheck("g", 0).line(IT)) == ("g: verified", "g: verificata")


def test_every_msgid_of_verify_rows_has_its_italian() -> None:
    """The msgids :mod:`ledger.sealing.verify_rows` names (each finding above)
    read differently in Italian, with the same placeholders."""
    msgids = [v.msgid if isinstance(v, Message) else v for k, v in vars(verify_rows).items() if k.isupper()]
    msgids = [m for m in msgids if isinstance(m, str)]  # not TAG_TOPIC, TYPE_PREFIX
    assert len(msgids) == 21
    for msgid in msgids:
        italian = IT.gettext(msgid)
        assert italian != msgid, msgid
        assert sorted(placeholders(italian)) == sorted(placeholders(msgid)), msgid


# --- through the command line, on a tampered store ---------------------------------------------


def _lines(result: Result) -> list[str]:
    assert result.exit_code == 1, result.output
    return result.stdout.splitlines()


@pytest.mark.parametrize(
    ("sql", "english", "italian"),
    [
        (
            "DELETE FROM {events} WHERE originator_id = ? AND originator_version > 12",
            "g1: position 12: event missing (truncated: the journal records events up to position 15)",
            "g1: posizione 12: evento mancante (partita troncata: il giornale registra eventi fino alla posizione 15)",
        ),
        (
            "UPDATE {events} SET topic = 'ledger.events:GameEnded' WHERE originator_id = ? AND originator_version = 4",
            "g1: position 3: stored topic 'ledger.events:GameEnded' is not the type of the event bytes",
            "g1: posizione 3: il topic registrato 'ledger.events:GameEnded' non è il tipo dei byte dell'evento",
        ),
        (
            "DELETE FROM {journal} WHERE originator_id = ? AND position = 0",
            "g1: position 0: no stored seal: the event was not appended through rummy-ledger (written into the "
            "database directly?)",
            "g1: posizione 0: nessun sigillo registrato: l'evento non è stato aggiunto tramite rummy-ledger "
            "(scritto direttamente nel database?)",
        ),
    ],
    ids=["truncated", "topic", "no-seal"],
)
def test_verify_says_it_in_italian(store, sql: str, english: str, italian: str) -> None:  # noqa: ANN001, F811
    """``verify`` and ``verify --lang it`` on the same tampered store: the
    English line as before, the Italian one through the catalog, the JSON
    ``message`` English in both."""
    _app, raw, run = store
    raw.run(sql, raw.oid("g1"))
    assert _lines(run("verify", "g1")) == [english]
    assert _lines(run("--lang", "it", "verify", "g1")) == [italian]
    for args in (("verify", "--json", "g1"), ("--lang", "it", "verify", "--json", "g1")):
        (out,) = [json.loads(line) for line in run(*args).stdout.splitlines()]
        assert out["message"] == english.split(": ", 2)[2]


def test_the_warning_of_score_says_it_in_italian(store) -> None:  # noqa: ANN001, F811
    """``score --lang it`` of a game with a deleted event: its warning renders
    the finding in Italian; ``score --json``'s ``chain_broken`` stays English."""
    _app, raw, run = store
    raw.run("DELETE FROM {events} WHERE originator_id = ? AND originator_version = 8", raw.oid("g1"))
    got = run("--lang", "it", "score", "g1")
    assert got.exit_code == 1
    assert "(evento mancante (cancellato: il successivo evento registrato è alla posizione 8))" in got.stderr
    as_json = json.loads(run("--lang", "it", "score", "--json", "g1").stdout)
    assert as_json["chain_broken"] == {
        "position": 7,
        "differs": "missing",
        "message": "event missing (deleted: the next stored event is at position 8)",
    }
