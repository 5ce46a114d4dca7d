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
as hidden evidence) are written to the test output and asserted non-trivial.

Views are compared at every position of a fixture and every 9th position of a
simulated game, without ``position`` (shifted by the inserted events),
``findings`` (a count of visible findings: the findings are compared above) and
the variant's English ``notes`` lines (they name positions); a seat holding no
card is shown alike whether as its own empty hand or as a count of 0.

Gin's games are cut a second time with each knock's face-down discard as
``??`` (as a scorer writing at the table gives it): the same findings and
scores, and the same views but for that card, a back where the full record
turns it up.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ledger.cards import UNKNOWN
from ledger.errors import RecordError
from ledger.events import ClaimedScore, Event, HandDealt, HandEnded, Knocked
from ledger.partial import Redacted, redact
from ledger.record_files import read_record
from ledger.records import encode_record
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
#: (variant, ruleset, players) simulated: every variant's default preset, Burraco also with four
#: (partnerships) and ``seed`` (a pozzetto becomes the stock), Gin also ``openspiel``
TABLES = (
    ("burraco", None, 2),
    ("burraco", None, 4),
    ("burraco", "seed", 2),
    ("scala40", None, 2),
    ("ramino51", None, 3),
    ("ramino", None, 2),
    ("gin", None, 2),
    ("gin", "openspiel", 2),
)
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


def knock_unseen(cut: Redacted, seat: int | None, full: TableState | None = None) -> Redacted:
    """``cut`` as a scorer writing at the table would have it: a Gin knock's
    face-down discard ``??`` (FORMAT.md "Partial records"), unless ``seat``
    is the knocker (its own app knows the card). With ``full`` (the full
    record's final state), the ``hand_ended`` after such a knock also carries
    the score sheet's points, the full record's, where it claims none: a gin
    whose ``??`` discard could make it big gin is scored as claimed."""
    events = [
        msgspec.structs.replace(e, discard=UNKNOWN) if type(e) is Knocked and e.seat != seat else e for e in cut.events
    ]
    if full is not None:
        points = {cut.positions[r.position]: r.scores for r in full.results}
        hidden = False
        for i, e in enumerate(events):
            if type(e) is Knocked and e.seat != seat:
                hidden = True
            elif type(e) is HandEnded:
                if hidden and e.claimed is None and i in points:
                    claim = tuple(ClaimedScore(seat=s.side, points=s.points) for s in points[i])
                    events[i] = msgspec.structs.replace(e, claimed=claim)
                hidden = False
    return Redacted(tuple(events), cut.positions)


def check(events: Sequence[Event], seat: int | None, step: int, unseen_knock: bool = False) -> None:
    """The oracle for one record cut for ``seat`` (None: the scorer); with
    ``unseen_knock`` a Gin knock's discard is ``??`` in the cut (:func:`knock_unseen`)."""
    full = Replayer(events)
    cut = redact(events, seat)
    if unseen_knock:
        cut = knock_unseen(cut, seat, full.final)
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
    got_hands, want_hands = score_sheet(part.final).to_json()["hands"], score_sheet(full.final).to_json()["hands"]
    if unseen_knock:  # a gin that the ?? discard could make big gin: as claimed, the full record's points
        want_hands = [as_claimed(g, w) for g, w in zip(got_hands, want_hands, strict=True)]
    assert got_hands == want_hands
    assert part.final.totals == full.final.totals
    n = full.final.n_seats
    unseen = {e.discard for e in events if type(e) is Knocked and e.seat != seat} if unseen_knock else set()
    for i in range(1, len(events), step):
        before, after = full.state_at(i), part.state_at(moved[i])
        spectator = view(before, SPECTATOR)
        for pov in (SPECTATOR, *(k for k in range(n) if k != seat)):
            got = view(after, pov)
            assert got == backs_for(spectator, got, unseen), (i, pov)
        if seat is not None:
            got = view(after, seat)
            assert got == backs_for(view(before, seat), got, unseen), (i, seat)


def as_claimed(got: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    """``want`` (a full record's hand on the score sheet) as a partial record
    scores it as claimed, when ``got`` (the cut's) is: the same points,
    each side marked ``as_claimed`` (FORMAT.md "Partial records")."""
    if not any(ln.get("as_claimed") for ln in got["scores"]):
        return want
    claimed = [{**ln, "breakdown": {"claimed": ln["points"]}, "as_claimed": True} for ln in want["scores"]]
    return {**want, "scores": claimed}


def backs_for(want: dict[str, Any], got: dict[str, Any], unseen: set[str]) -> dict[str, Any]:
    """``want`` with a knock's face-down discard (a card of ``unseen``) shown as a
    back where ``got`` shows one: a record that gave it as ``??`` never names it,
    even once the hand is over and the full record's views turn it up."""
    if not unseen:
        return want
    pairs = zip(want["discard"], got["discard"], strict=False)
    pile = [UNKNOWN if g == UNKNOWN and w in unseen else w for w, g in pairs]
    return {**want, "discard": pile + want["discard"][len(pile) :]}


@pytest.mark.parametrize("path", fixtures(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_fixture_cut_for_the_scorer_and_each_seat(path: Path) -> None:
    events = read_record(path).events
    n = replay(events).n_seats
    for seat in (None, *range(n)):
        check(events, seat, 1)
        if path.parent.name == "gin":
            check(events, seat, 1, unseen_knock=True)


@pytest.mark.parametrize(
    ("variant", "ruleset", "players"), TABLES, ids=[f"{v}-{r or 'default'}-{p}" for v, r, p in TABLES]
)
def test_simulated_games_cut_for_the_scorer_and_each_seat(
    variant: str, ruleset: str | None, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    before = Counter(COUNTS)
    for seed in range(GAMES):
        for faults in (0.0, 0.1):
            events, _ = simulate_game(variant, ruleset, players, seed, faults)
            for seat in (None, *range(players)):
                check(events, seat, 9 if not SLOW else 37)
                if variant == "gin":
                    check(events, seat, 9 if not SLOW else 37, unseen_knock=True)
    mine = COUNTS - before
    show(capsys, f"partial-record oracle {variant} {ruleset or 'default'} ({players} players): {dict(mine)}")
    assert mine["records"] == GAMES * 2 * (players + 1) * (2 if variant == "gin" else 1)
    assert mine["findings kept"] > 0


def show(capsys: pytest.CaptureFixture[str], line: str) -> None:
    """``line`` in the test output, whether output is captured or not."""
    with capsys.disabled():
        print(f"\n{line}")


def test_the_oracle_counts_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """The totals of the run so far, in the test output (bench/RESULTS.md keeps a slow run's)."""
    show(capsys, f"partial-record oracle, all records so far: {dict(COUNTS)}")
    assert COUNTS["records"] > 0 or not COUNTS


def test_twin_renaming_cards_nobody_saw_changes_nothing_shown() -> None:
    """Two full records that differ only in the faces of two stock cards never
    drawn cut to the same scorer's record, byte for byte (so the same audit,
    scores and views); a seat's cut too."""
    events, _ = simulate_game("burraco", None, 2, 0, 0.1)
    deal = events[1]
    assert isinstance(deal, HandDealt) and deal.stock is not None
    left = replay(events[: next(i for i, e in enumerate(events) if isinstance(e, HandEnded)) + 1]).stock_count
    stock = list(deal.stock)
    a, b = len(stock) - 1, next(i for i in range(len(stock) - 2, len(stock) - left - 1, -1) if stock[i] != stock[-1])
    stock[a], stock[b] = stock[b], stock[a]  # two cards still in the stock when the hand ended
    twin = [events[0], msgspec.structs.replace(deal, stock=tuple(stock)), *events[2:]]
    assert encode_record(twin) != encode_record(events)
    assert [f.rule for f in replay(twin).findings] == [f.rule for f in replay(events).findings]
    for seat in (None, 0, 1):
        assert encode_record(redact(twin, seat).events) == encode_record(redact(events, seat).events)


def test_twin_a_hidden_evidence_rule_is_judged_where_the_hand_is_known_and_silent_where_not() -> None:
    """RAM-DISC-1 (the card just taken discarded again) asks whether the seat
    held another copy: a seat's own record knows its hand and reports it
    wherever the full record does; the scorer's record, which knows no
    hand, never does."""
    events, _ = simulate_game("ramino", None, 2, 0, 0.1)
    full = [(f.position, f.seat) for f in replay(events).findings if f.rule == "RAM-DISC-1"]
    assert len(full) == 12
    cut = redact(events, 0)
    own = [(f.position, f.seat) for f in replay(cut.events).findings if f.rule == "RAM-DISC-1"]
    assert own == [(cut.positions[p], 0) for p, seat in full if seat == 0] and len(own) == 8
    assert [f for f in replay(redact(events, None).events).findings if f.rule == "RAM-DISC-1"] == []


def test_a_gin_whose_unseen_discard_could_make_big_gin_is_scored_as_claimed() -> None:
    """Gin seed 27, hand 3 (issue 24): seat 1 goes gin with 5555, 7-8-9♣,
    999 and discards 10♣ face down, which makes all eleven melds (big gin,
    22 + 31 = 53). Cut for the scorer with that discard ``??``, the bonus
    depends on the unknown card: the fold used to score a plain gin (22 + 25
    = 47) on a guess. Now, with no claim, the hand is unscored (0-0,
    ALL-SCORE-2 at each gin the ?? could make big); with the sheet's claim,
    it scores 53 as claimed (FORMAT.md "Partial records")."""
    events, _ = simulate_game("gin", None, 2, 27, 0.0)
    full = Replayer(events).final
    knock = [e for e in events if type(e) is Knocked][2]
    assert (knock.seat, knock.discard) == (1, "10C")
    assert score_sheet(full).to_json()["hands"][2]["scores"][1] == {
        "seat": 1,
        "points": 53,
        "breakdown": {"deadwood_difference": 22, "big_gin_bonus": 31},
    }
    unclaimed = Replayer(knock_unseen(redact(events, None), None).events).final
    assert score_sheet(unclaimed).to_json()["hands"][2]["scores"] == [
        {"seat": 0, "points": 0, "breakdown": {}, "unscored": True},
        {"seat": 1, "points": 0, "breakdown": {}, "unscored": True},
    ]
    assert [(f.position, f.rule) for f in unclaimed.findings if f.rule.startswith("ALL-SCORE")] == [
        (24, "ALL-SCORE-2"),
        (76, "ALL-SCORE-2"),
        (143, "ALL-SCORE-2"),
    ]
    assert unclaimed.totals == (28, 30)
    claimed = Replayer(knock_unseen(redact(events, None), None, full).events).final
    assert score_sheet(claimed).to_json()["hands"][2]["scores"] == [
        {"seat": 0, "points": 0, "breakdown": {"claimed": 0}, "as_claimed": True},
        {"seat": 1, "points": 53, "breakdown": {"claimed": 53}, "as_claimed": True},
    ]
    assert claimed.totals == full.totals == (140, 342)
    assert [f.rule for f in claimed.findings if f.rule.startswith("ALL-SCORE")] == []
