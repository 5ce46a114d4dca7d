"""Simulated games at scale (issue 8): every variant and preset.

For each configuration, 100 simulated games are written as record files,
imported into a SQLite store, read back, replayed and audited (zero
findings), scored (every hand's points as RULES.md says, recomputed here
from the table at the end of the hand), and checked for card conservation
at every position where the stock is known. Games with injected violations
audit to exactly the findings written beside them (``NAME.injected.json``).
No timing assertions: the speed is the benchmarks' business (bench/).
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ledger.audit import report
from ledger.record_files import read_record
from ledger.replay import states
from ledger.scoring import score_sheet
from ledger.simulate import simulate_game, simulate_main, write_game
from ledger.store.application import LedgerApp
from tests.simulate_checks import HAND_CHECKS, conservation_problem

GAMES = 100

#: (variant, ruleset, players): every preset, plus partnership Burraco and larger tables
CONFIGS = [
    ("ramino", "seed", 2),
    ("ramino", "pagat", 4),
    ("burraco", "fibur", 2),
    ("burraco", "seed", 2),
    ("burraco", "fibur", 4),
    ("scala40", "fisca", 2),
    ("scala40", "seed", 4),
    ("ramino51", "clubdelgioco", 3),
    ("gin", "standard", 2),
    ("gin", "openspiel", 2),
]


def _ids(c: tuple[str, str, int]) -> str:
    return f"{c[0]}-{c[1]}-{c[2]}p"


def check_game(events, expected_findings=()):  # noqa: ANN001, ANN201
    """Replay ``events`` and check conservation at every position, every
    hand's scores, and the audit; returns the final state."""
    prev = None
    state = None
    for i, state in enumerate(states(events)):
        problem = conservation_problem(state)
        assert problem is None, f"position {i}: {problem}"
        if events[i].type == "hand_ended":
            HAND_CHECKS[state.rules.variant](prev, state, events)
        prev = state
    assert state is not None
    got = [(f.position, f.hand, f.seat, f.rule) for f in report(state).findings]
    assert got == list(expected_findings)
    sheet = score_sheet(state).to_json()
    assert [h["hand"] for h in sheet["hands"]] == list(range(1, len(sheet["hands"]) + 1))
    assert state.ended in ("target_reached", "hands_played", "elimination")
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_simulated_games_import_replay_audit_clean(config, tmp_path: Path) -> None:  # noqa: ANN001
    variant, ruleset, players = config
    out = tmp_path / "records"
    paths = simulate_main(variant, ruleset, players, GAMES, seed=1000, out=out, progress=lambda k: None)
    assert len(paths) == GAMES and not list(out.glob("*.injected.json"))
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "sim.db")})
    hands = Counter()
    for path in paths:
        record = read_record(path)
        assert app.import_record(record).status == "stored"
        events = app.get_events(record.game_id)
        assert events == list(record.events)
        final = check_game(events)
        hands[final.ended] += 1
        hands["hands"] += final.hand
    assert hands["hands"] >= GAMES


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_injected_violations_audit_exactly(config, tmp_path: Path) -> None:  # noqa: ANN001
    variant, ruleset, players = config
    rules = Counter()
    paths = simulate_main(
        variant, ruleset, players, 30, seed=7000, out=tmp_path, violations=0.1, progress=lambda k: None
    )
    for path in paths:
        record = read_record(path)
        doc = json.loads(path.with_name(path.name.replace(".jsonl", ".injected.json")).read_text())
        assert doc["game_id"] == record.game_id
        want = [(d["position"], d["hand"], d["seat"], d["rule"]) for d in doc["findings"]]
        check_game(list(record.events), want)
        rules.update(d["rule"] for d in doc["findings"])
    assert sum(rules.values()) >= 10, rules
    assert "ALL-TURN-1" in rules


def test_simulation_is_deterministic_for_a_seed() -> None:
    a = simulate_game("ramino", "seed", 3, seed=5, violations=0.2)
    b = simulate_game("ramino", "seed", 3, seed=5, violations=0.2)
    c = simulate_game("ramino", "seed", 3, seed=6, violations=0.2)
    assert a == b
    assert a[0] != c[0]


def test_records_are_omniscient_and_complete() -> None:
    events, injected = simulate_game("ramino", "pagat", 2, seed=3)
    assert injected == []
    assert events[0].type == "game_started" and events[-1].type == "game_ended"
    deals = [e for e in events if e.type == "hand_dealt"]
    assert deals and all(d.stock is not None for d in deals)
    assert sum(1 for e in events if e.type == "hand_ended") == len(deals)


def test_write_game_writes_the_expectation_beside_the_record(tmp_path: Path) -> None:
    events, injected = simulate_game("ramino", "seed", 2, seed=11, violations=0.3)
    assert injected, "a rate of 0.3 injects something in a whole game"
    path = write_game(tmp_path, events, injected)
    doc = json.loads((tmp_path / f"{events[0].game_id}.injected.json").read_text())
    assert path.name == f"{events[0].game_id}.jsonl"
    assert doc == {"game_id": events[0].game_id, "findings": injected}
    assert set(doc["findings"][0]) == {"position", "hand", "seat", "rule"}


def test_RAM_DISC_1_injected_retake_is_the_only_finding() -> None:
    # scan seeds for a game whose injections include RAM-DISC-1 and check the
    # finding sits on a card_discarded of the card just taken
    for seed in range(50):
        events, injected = simulate_game("ramino", "seed", 2, seed=seed, violations=0.2)
        hits = [d for d in injected if d["rule"] == "RAM-DISC-1"]
        if hits:
            pos = hits[0]["position"]
            assert events[pos].type == "card_discarded"
            assert events[pos - 1].type == "discard_taken" and events[pos - 1].cards == (events[pos].card,)
            return
    pytest.fail("no RAM-DISC-1 injected in 50 games")


def test_unknown_variant_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="no simulator"):
        simulate_game("poker", None, 2, seed=1)


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path: Path) -> None:
    """As export's: stderr to a file or pipe gets no bar (it got one, escape codes and all); a terminal gets it."""
    args = [sys.executable, "-m", "ledger.cli", "simulate", "--variant", "gin", "--games", "2", "--seed", "3"]
    piped = subprocess.run([*args, "--out", str(tmp_path / "a")], capture_output=True, text=True, timeout=120)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, f"2 games written to {tmp_path / 'a'}\n", "")
    main, tty = pty.openpty()
    try:
        done = subprocess.run([*args, "--out", str(tmp_path / "b")], stderr=tty, stdout=subprocess.PIPE, timeout=120)
        os.close(tty)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other end is closed: all read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(main)
    assert done.returncode == 0 and b"simulate" in shown and b"2/2" in shown
