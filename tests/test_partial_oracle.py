"""The oracle of partial records (issue 24; FORMAT.md "Partial records"): a
full record cut down to what a scorer, or one seat, saw (:func:`ledger.partial.redact`)
must import; its audit must be exactly the full record's findings whose rule
needs no hidden evidence (:data:`ledger.rule_ids.NEEDS_HIDDEN_EVIDENCE`), at
the same positions (mapped past the inserted ``cards_shown``), and a finding
of a hidden-evidence rule only where the full record has it; its scores must
equal the full record's (every hand is shown at its end); its views (every
seat's and the spectator's) must equal the full record's spectator view, and
for ``--as seat:N`` seat N's view the full record's seat N view.

Every fixture and simulated games of every variant, clean and with injected
faults: a few per variant in the normal run, 200 per variant with
``RUMMY_LEDGER_SLOW=1``. The counts (records, findings kept, findings dropped
as hidden evidence) are printed (``pytest -s``) and asserted non-trivial.

Views are compared at every position of a fixture and every 9th position of a
simulated game, without ``position`` (shifted by the inserted events),
``findings`` (a count of visible findings: the findings are compared above) and
the variant's English ``notes`` lines (they name positions); a seat holding no
card is shown alike whether as its own empty hand or as a count of 0.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ledger.errors import RecordError
from ledger.events import Event
from ledger.partial import redact
from ledger.record_files import read_record
from ledger.redaction import SPECTATOR, Pov
from ledger.replay import Replayer, replay
from ledger.rule_ids import NEEDS_HIDDEN_EVIDENCE
from ledger.scoring import score_sheet
from ledger.simulate import simulate_game
from ledger.state import TableState
from ledger.views import state_view

ROOT = Path(__file__).resolve().parent.parent
SLOW = os.environ.get("RUMMY_LEDGER_SLOW") == "1"
GAMES = 200 if SLOW else 3
#: (variant, players) simulated; Burraco also with four (partnerships)
TABLES = (("burraco", 2), ("burraco", 4), ("scala40", 2), ("ramino51", 3), ("ramino", 2), ("gin", 2))
COUNTS: Counter[str] = Counter()


def fixtures() -> list[Path]:
    paths = []
    for path in sorted((ROOT / "fixtures").glob("*/*.jsonl")):
        try:
            replay(read_record(path).events)
        except RecordError:
            continue  # the rejected fixtures: nothing to cut
        paths.append(path)
    return paths


def view(state: TableState, pov: Pov) -> dict[str, Any]:
    v = state_view(state, pov).to_json()
    for key in ("position", "findings", "pov", "notes"):
        v.pop(key, None)
    for seat in v["seats"]:
        if seat["count"] == 0:
            seat["cards"], seat["seen"] = None, []
    return v


def check(events: Sequence[Event], seat: int | None, step: int) -> None:
    """The oracle for one record cut for ``seat`` (None: the scorer)."""
    full = Replayer(events)
    cut = redact(events, seat)
    part = Replayer(cut.events)  # it imports
    moved = cut.positions
    want = sorted((moved[f.position], f.rule) for f in full.final.findings if f.rule not in NEEDS_HIDDEN_EVIDENCE)
    got = sorted((f.position, f.rule) for f in part.final.findings if f.rule not in NEEDS_HIDDEN_EVIDENCE)
    assert got == want
    hidden = Counter((moved[f.position], f.rule) for f in full.final.findings if f.rule in NEEDS_HIDDEN_EVIDENCE)
    judged = Counter((f.position, f.rule) for f in part.final.findings if f.rule in NEEDS_HIDDEN_EVIDENCE)
    assert judged <= hidden  # never a finding on a guess
    COUNTS["records"] += 1
    COUNTS["findings kept"] += len(want) + sum(judged.values())
    COUNTS["dropped as hidden evidence"] += sum((hidden - judged).values())
    assert score_sheet(part.final).to_json()["hands"] == score_sheet(full.final).to_json()["hands"]
    assert part.final.totals == full.final.totals
    n = full.final.n_seats
    for i in range(1, len(events), step):
        before, after = full.state_at(i), part.state_at(moved[i])
        spectator = view(before, SPECTATOR)
        for pov in (SPECTATOR, *(k for k in range(n) if k != seat)):
            assert view(after, pov) == spectator, (i, pov)
        if seat is not None:
            assert view(after, seat) == view(before, seat), (i, seat)


@pytest.mark.parametrize("path", fixtures(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_fixture_cut_for_the_scorer_and_each_seat(path: Path) -> None:
    events = read_record(path).events
    n = replay(events).n_seats
    for seat in (None, *range(n)):
        check(events, seat, 1)


@pytest.mark.parametrize(("variant", "players"), TABLES, ids=[f"{v}-{p}" for v, p in TABLES])
def test_simulated_games_cut_for_the_scorer_and_each_seat(variant: str, players: int) -> None:
    before = Counter(COUNTS)
    for seed in range(GAMES):
        for faults in (0.0, 0.1):
            events, _ = simulate_game(variant, None, players, seed, faults)
            for seat in (None, *range(players)):
                check(events, seat, 9 if not SLOW else 37)
    mine = COUNTS - before
    print(f"\npartial-record oracle {variant} ({players} players): {dict(mine)}")
    assert mine["records"] == GAMES * 2 * (players + 1)
    assert mine["findings kept"] > 0


def test_the_oracle_counts_are_printed() -> None:
    """The totals of the run so far (``pytest -s`` shows them; bench/RESULTS.md keeps a slow run's)."""
    print(f"\npartial-record oracle, all records so far: {dict(COUNTS)}")
    assert COUNTS["records"] > 0 or not COUNTS
