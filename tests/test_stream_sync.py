"""The live stream's fold (:class:`replay_web.stream.Feed`) costs one step per
event, whatever the length of the hand.

A finding a spectator may not see yet (BUR-PILE-1 waits for the end of its
hand) used to make every later event ask :func:`ledger.redaction.sight`,
which walks the hand from its deal: a hand of 4,000 referee penalties took
34 s before the stream's first byte. Counted here in Python calls (the same
on a loaded machine), and checked against ``sight`` on every fixture.
"""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

import pytest

from ledger.record_files import read_record
from ledger.records import parse_line
from ledger.redaction import SPECTATOR, finding_visible, sight
from ledger.replay import evolve
from ledger.store.application import open_app
from ledger.testing.live import serve
from replay_web import access, create_app, stream
from replay_web.marks import Marks
from replay_web.stream import SYNC_CHECK, Feed

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
PENALTY = b'{"type":"penalty_assessed","seat":0,"points":-1,"rule":"ALL-TURN-1"}'
FIXTURES = sorted(p for p in (REPO / "fixtures").glob("*/*.jsonl") if not p.name.startswith("rejected"))


def _long_hand(n: int) -> list[bytes]:
    """The dispute's first 16 lines (BUR-PILE-1 at position 5 waits for the
    end of the hand) and ``n`` penalties in the same hand."""
    return DISPUTE.read_bytes().splitlines()[:16] + [PENALTY] * n


def _sync_calls(tmp_path: Path, n: int) -> tuple[int, Feed]:
    ledger = open_app(str(tmp_path / f"long-{n}.db"))
    try:
        events = [parse_line(line, i + 1) for i, line in enumerate(_long_hand(n))]
        ledger.append_events("bur-dispute", events, expected=0, appended_by="test")
        feed = Feed("bur-dispute")
        calls = 0

        def count(frame, event, arg):  # type: ignore[no-untyped-def]
            nonlocal calls
            if event in ("call", "c_call"):
                calls += 1

        sys.setprofile(count)
        try:
            feed.sync(ledger)
        finally:
            sys.setprofile(None)
        return calls, feed
    finally:
        ledger.close()


def test_sync_is_linear_in_the_events_of_one_hand(tmp_path: Path) -> None:
    small, feed = _sync_calls(tmp_path, 300)
    large, big = _sync_calls(tmp_path, 1200)
    assert (len(feed.items), len(big.items)) == (316, 1216)
    # 4x the events: about 4x the calls when linear, about 16x when each event walks the hand
    assert large < 6 * small, (small, large)
    assert big.marks.steps <= len(big.items)
    # BUR-PILE-1 (position 5) is the spectator's only once the hand ends, which it has not
    assert [f.rule for f in big.pending] == ["BUR-PILE-1"]
    assert [i.position for i in big.items if i.spectator_findings] == [4, 7, 8, 15]


def test_marks_are_those_of_sight_on_every_fixture() -> None:
    checked = knocks = ends = 0
    for path in [*FIXTURES, DISPUTE]:
        marks = Marks()
        state = None
        for event in read_record(path).events:
            state = evolve(state, event)
            full = sight(state, SPECTATOR)
            mine = marks.sight(state)
            assert (mine.ends, mine.knocks) == (full.ends, full.knocks), (path.name, state.position)
            for f in state.findings:
                assert finding_visible(f, state, SPECTATOR, mine) == finding_visible(f, state, SPECTATOR, full)
            checked += 1
            knocks += bool(full.knocks)
            ends += bool(full.ends)
    assert checked > 800 and knocks > 0 and ends > 0


def _store(tmp_path: Path, n: int) -> str:
    db = str(tmp_path / f"long-{n}.db")
    ledger = open_app(db)
    events = [parse_line(line, i + 1) for i, line in enumerate(_long_hand(n))]
    ledger.append_events("bur-dispute", events, expected=0, appended_by="test")
    ledger.close()
    return db


def test_a_sync_told_to_stop_publishes_nothing_and_the_next_starts_over(tmp_path: Path) -> None:
    ledger = open_app(_store(tmp_path, 1000))
    try:
        feed, asked = Feed("bur-dispute"), []

        def stop() -> bool:
            asked.append(True)
            return len(asked) == 2  # the second look: after SYNC_CHECK events

        assert feed.sync(ledger, stop) is False
        assert (len(asked), feed.items, feed.state, feed.pending) == (2, [], None, [])
        looks = []
        assert feed.sync(ledger, lambda: looks.append(True) or False) is True
        assert len(looks) == 4  # 1,016 events: a look at events 0, 256, 512 and 768
        whole = Feed("bur-dispute")
        assert whole.sync(ledger) is True
        for view in (
            access.SPECTATOR_ACCESS,
            access.Access(omniscient=True, upto=1015, finished=False, view="referee", delay=0),
        ):
            assert [i.data(view) for i in feed.items] == [i.data(view) for i in whole.items]
    finally:
        ledger.close()


def test_a_reader_who_goes_away_stops_the_fold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that leaves while its feed is folded: the fold stops at the
    next look (every SYNC_CHECK events) and its stream slot is free again."""
    db = _store(tmp_path, 3000)
    folded = []

    def slow(state, event):  # type: ignore[no-untyped-def]
        folded.append(1)
        time.sleep(0.001)  # 3,016 events: over 3 s
        return evolve(state, event)

    monkeypatch.setattr(stream, "evolve", slow)
    app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0})
    with serve(app) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as conn:
            conn.sendall(b"GET /api/games/bur-dispute/events HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.05)
        hub = stream.hub_of(app)
        assert hub is not None
        deadline = time.monotonic() + 20
        while (hub.streams or not folded) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the fold stopped: nothing more is folded
        assert hub.streams == 0 and hub.feeds == {}
        assert len(folded) <= 3 * SYNC_CHECK, len(folded)
        hub.stop()
