"""Property: for random records (ledger.synthetic, ledger.simulate), the seal
from the store, from the exported file and from docs/seals.md's stand-alone
script agree, and any single-byte change of any stored event is detected at
its position. One real SQLite store for all examples."""

from __future__ import annotations

import contextlib
import io
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.records import Record
from ledger.sealing import chain as _seal
from ledger.sealing.tables import stored_seals
from ledger.sealing.verify import game_keys, verify_games
from ledger.simulate import simulate_game
from ledger.store.application import LedgerApp
from ledger.stored.persistence import game_uuid
from ledger.synthetic import two_player_record
from tests.test_seal_cli import readme_script

SCRIPT = compile(readme_script(), "docs/seals.md seal script", "exec")


def script_seal(path: Path) -> str:
    """The docs/seals.md script run on ``path`` (in this process: same code, no interpreter start-up)."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = ["seal.py", str(path)]
    try:
        with contextlib.redirect_stdout(out):
            exec(SCRIPT, {"__name__": "__main__"})  # noqa: S102 - docs/seals.md's own script
    finally:
        sys.argv = argv
    return out.getvalue().split()[0]


records = st.one_of(
    st.builds(
        lambda v, h, t, s: ("syn", v, h, t, s),
        st.sampled_from(["ramino", "gin"]),
        st.integers(1, 3),
        st.integers(0, 40),
        st.integers(0, 10_000),
    ),
    st.builds(
        lambda v, s: ("sim", v, 0, 0, s),
        st.sampled_from(["ramino", "ramino51", "gin", "scala40", "burraco"]),
        st.integers(0, 10_000),
    ),
)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    path = tmp_path_factory.mktemp("prop") / "p.db"
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
    yield app, sqlite3.connect(path, isolation_level=None), path.parent
    app.close()


counter = iter(range(10**9))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    spec=records,
    where=st.floats(0, 1, exclude_max=True),
    byte_at=st.floats(0, 1, exclude_max=True),
    delta=st.integers(1, 255),
)
def test_store_export_and_script_agree_and_any_byte_change_is_caught(
    shared, spec, where: float, byte_at: float, delta: int
) -> None:  # noqa: ANN001
    app, con, folder = shared
    kind, variant, hands, turns, seed = spec
    game_id = f"p{next(counter)}"
    if kind == "syn":
        events = two_player_record(game_id, variant=variant, hands=hands, turns=turns, seed=seed)
    else:
        events = simulate_game(variant, None, 2, seed=seed, game_id=game_id)[0]
    app.import_record(Record(events=tuple(events), lines=tuple(range(1, len(events) + 1))))
    exported = folder / f"{game_id}.jsonl"
    exported.write_bytes(app.export_record(game_id))
    length, stored = stored_seals(app, game_id)
    assert length == len(events)
    assert stored[-1] == _seal.seal_hex(_seal.canonical_lines(exported.read_bytes())) == script_seal(exported)

    position = int(where * length)
    oid = game_uuid(game_id).hex
    (state,) = con.execute(
        "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?", (oid, position + 1)
    ).fetchone()
    i = int(byte_at * len(state))
    edited = state[:i] + bytes([(state[i] + delta) % 256]) + state[i + 1 :]
    con.execute(
        "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
        (edited, oid, position + 1),
    )
    try:
        (check,) = verify_games(app, game_keys(app, [game_id]))
        assert (check.ok, check.position, check.kind) == (False, position, "event")
    finally:
        con.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state, oid, position + 1),
        )
    (check,) = verify_games(app, game_keys(app, [game_id]))
    assert check.ok and check.seal == stored[-1]


@given(by=st.text(max_size=40), at=st.text(max_size=30), first=st.integers(0, 10**8), n=st.integers(1, 10**4))
def test_the_journal_line_is_the_same_json_either_way(by: str, at: str, first: int, n: int) -> None:
    """ledger.sealing.chain defines an append call's journal line with json; verify encodes it with msgspec:
    the same bytes."""
    import msgspec

    assert _seal.journal_line(first, first + n - 1, by, at) == msgspec.json.encode(
        {"first": first, "last": first + n - 1, "by": by, "received_at": at}
    )
