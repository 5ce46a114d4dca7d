"""A live game's new version is folded from the cached one's, not replayed (issue 27, defect 4).

A game that grows (live recording) was replayed whole after each append by
the first reader: a 100k-event game cost 6 s per append and reader kind.
Records only grow, so the new version is the cached one's events and then
the new ones: :meth:`replay_web.cache.ReplayCache.get` folds only those
(:meth:`ledger.replay.Replayer.extended`), reads only their seals and
journal times, and checks only their part of the chain
(:func:`ledger.sealing.chain_check.chain_check`). Everything derived equals
a fresh replay of the whole game, rulings included (a ``position_restored``
that rewinds within a hand, a ``penalty_assessed`` after findings).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ledger.replay
import ledger.sealing.chain_check
from ledger.events import CardDiscarded, Event, PenaltyAssessed, PositionRestored
from ledger.replay import Replayer
from ledger.store.application import open_app
from replay_web import access, cache_of, create_app
from replay_web.cache import GameData, ReplayCache
from replay_web.store import LedgerStore
from tests.webgames import small_game


def live_record() -> list[Event]:
    """:func:`small_game` without its ``game_ended``, with a rewind of Bruno's
    discard of the card he took (position 7, back to position 5) and his
    other discard, and the penalty ruling on the finding at 6 (position 15)."""
    ev = small_game("live-i")[:-1]
    restore = PositionRestored(target=5, reason="Bruno discarded the card he took", finding=6, referee="Carla")
    penalty = PenaltyAssessed(seat=1, points=-10, rule="RAM-DISC-1", finding=6)
    return [*ev[:7], restore, CardDiscarded(seat=1, card="10C"), *ev[7:13], penalty, *ev[14:]]


#: the append calls: positions 0–5, the finding at 6, the rewind and the new discard, the hand,
#: the penalty after the findings, the second hand
BATCHES = [(0, 6), (6, 7), (7, 9), (9, 15), (15, 16), (16, 20)]


def derived(game: GameData) -> dict[str, Any]:
    """Everything a page derives from a replayed game."""
    return {
        "version": game.version,
        "final": game.final,
        "findings": game.findings,
        "audit": game.audit_json,
        "moves": game.moves,
        "sheet": game.sheet,
        "sheet_as_played": game.sheet_as_played,
        "hand_starts": game.hand_starts,
        "violations": game.violation_positions,
        "rules_at": game.rules_at,
        "seals": game.seals,
        "broken": game.broken,
        "states": [game.state_at(p) for p in range(game.version)],
    }


def test_each_append_is_folded_alone_and_gives_a_fresh_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = live_record()
    db = str(tmp_path / "live.db")
    ledger_app = open_app(db)
    store = LedgerStore(app=ledger_app)
    cache = ReplayCache(store, every=4)
    evolved: list[int] = []
    evolve = ledger.replay.evolve

    def counted(state: Any, event: Event) -> Any:
        evolved.append(1)
        return evolve(state, event)

    full_checks: list[str] = []
    verify_games = ledger.sealing.chain_check.verify_games

    def counted_checks(app: Any, targets: Any, **kw: Any) -> Any:
        full_checks.append("whole game")
        return verify_games(app, targets, **kw)

    monkeypatch.setattr(ledger.sealing.chain_check, "verify_games", counted_checks)
    folded = []
    for first, end in BATCHES:
        ledger_app.append_events("live-i", record[first:end], expected=first, appended_by="test")
        monkeypatch.setattr(ledger.replay, "evolve", counted)
        evolved.clear()
        game = cache.get("live-i")
        folded.append((len(evolved), game.replayer.steps))
        monkeypatch.setattr(ledger.replay, "evolve", evolve)
        fresh = GameData("live-i", end, record[:end], every=4, seals=store.seals("live-i"), chain=store.chain)
        assert derived(game) == derived(fresh)
    assert folded == [(6, 6), (1, 1), (2, 2), (6, 6), (1, 1), (4, 4)]  # only the new events, each once
    assert (cache.misses, cache.extended) == (6, 5)
    assert full_checks == ["whole game"]  # the chain checked whole once, then only its new rows
    final = cache.get("live-i")
    assert [(f.position, f.rule) for f in final.findings] == [
        (6, "RAM-DISC-1"),
        (14, "ALL-SCORE-1"),
        (17, "ALL-TURN-1"),
    ]
    assert (final.final.totals, final.final.position, final.hand_starts, final.broken) == ((66, -10), 19, [1, 16], None)
    assert final.moves[7:9] == (
        "referee restores the table to move 5: Bruno discarded the card he took",
        "Bruno discards 10♣",
    )
    ledger_app.close()


def test_a_break_in_the_new_rows_is_named_as_a_whole_check_names_it(tmp_path: Path) -> None:
    record = live_record()
    db = str(tmp_path / "live.db")
    ledger_app = open_app(db)
    store = LedgerStore(app=ledger_app)
    cache = ReplayCache(store)
    ledger_app.append_events("live-i", record[:9], expected=0, appended_by="test")
    assert cache.get("live-i").broken is None
    ledger_app.append_events("live-i", record[9:12], expected=9, appended_by="test")
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rummy_journal SET seal = zeroblob(32) WHERE position = 10")
    grown = cache.get("live-i")
    assert cache.extended == 1
    assert grown.broken is not None and grown.broken["position"] == 10
    fresh = open_app(db)
    whole = ledger.sealing.chain_check.chain_check(fresh, "live-i", 12)
    assert (whole.position, whole.kind, whole.message) == (grown.chain.position, grown.chain.kind, grown.chain.message)
    fresh.close()
    ledger_app.close()


def test_the_replayer_extended_is_a_replay_of_the_whole() -> None:
    record = live_record()
    old = Replayer(record[:7], every=3)
    new = old.extended(record[7:])
    whole = Replayer(record, every=3)
    assert (old.steps, len(old), new.steps, len(new)) == (7, 7, 13, 20)
    assert [new.state_at(p) for p in range(20)] == [whole.state_at(p) for p in range(20)]
    assert (new._checkpoints, old._checkpoints) == (whole._checkpoints, [0, 3, 6])
    assert old.final == whole.state_at(6)  # the old one is left as it was


def test_a_spectator_reads_only_the_new_journal_rows(tmp_path: Path) -> None:
    record = live_record()
    db = str(tmp_path / "live.db")
    ledger_app = open_app(db)
    ledger_app.append_events("live-i", record[:6], expected=0, appended_by="test")
    app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 30})
    store = access.ledger_app(app)
    assert store is not None
    reads: list[tuple[str, int]] = []
    journal = store.journal

    def counted(game_id: str, after: int = -1) -> Any:
        reads.append((game_id, after))
        return journal(game_id, after)

    store.journal = counted  # type: ignore[method-assign]
    client = app.test_client()
    assert client.get("/api/games/live-i/state").status_code == 200
    ledger_app.append_events("live-i", record[6:9], expected=6, appended_by="test")
    assert client.get("/api/games/live-i/state").status_code == 200
    ledger_app.append_events("live-i", record[9:10], expected=9, appended_by="test")
    assert client.get("/api/games/live-i").get_json()["game"]["last"] == 0  # the delay holds as before
    assert reads == [("live-i", -1), ("live-i", 5), ("live-i", 8)]
    assert cache_of(app).extended == 2
    ledger_app.close()


def test_a_seat_view_refused_to_a_spectator_does_not_load_the_game(tmp_path: Path) -> None:
    """``?pov=<seat>`` of an unfinished game by a reader without a referee's
    token is a 403 decided from the game's first event and its stored
    games-list line: the game is not replayed (issue 27)."""
    from ledger.tokens import TokenStore

    record = live_record()
    db = str(tmp_path / "live.db")
    ledger_app = open_app(db)
    ledger_app.append_events("live-i", record[:9], expected=0, appended_by="test")
    referee = TokenStore(ledger_app).create("Carla", "referee")[0]
    app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0})
    cache = cache_of(app)
    client = app.test_client()
    seat_urls = ["/api/games/live-i/state?pov=0", "/api/games/live-i?pov=1", "/games/live-i?pov=0"]
    seat_urls += ["/games/live-i/board?pov=1", "/api/games/live-i/audit?pov=0", "/api/games/live-i/score?pov=0"]
    assert [client.get(u).status_code for u in seat_urls] == [403] * 6
    assert client.get("/api/games/live-i/state?pov=0").get_json()["error"]["message"] == (
        "a seat's view of an unfinished game needs a referee token; spectators see no hand"
    )
    assert cache.misses == 0 and cache.peek("live-i") is None  # refused before any replay
    assert client.get("/api/games/live-i/state?pov=2").status_code == 400  # no such seat: the usual path
    assert client.get("/api/games/x?pov=0").status_code == 404
    auth = {"Authorization": f"Bearer {referee}"}
    assert client.get("/api/games", headers=auth).status_code == 200
    assert cache.misses == 1  # the 400 loaded it; a referee's list does not
    ledger_app.append_events("live-i", record[9:10], expected=9, appended_by="test")
    assert client.get("/api/games", headers=auth).get_json()["games"][0]["events"] == 10
    assert cache.misses == 1  # its row as stored: the game not loaded
    assert client.get("/api/games/live-i/state?pov=0", headers=auth).status_code == 200
    assert client.get("/api/games/live-i/state?pov=0").status_code == 403
    assert (cache.misses, cache.extended) == (2, 1)
    ledger_app.close()


def _first_chunk(client: Any, path: str) -> bytes:
    resp = client.get(path, buffered=False)
    try:
        return bytes(next(iter(resp.response)))
    finally:
        resp.close()


@pytest.mark.parametrize(("idle", "folded"), [(2, [9, 1, 2]), (0, [9, 10, 12])])
def test_a_stream_opened_again_after_an_append_folds_the_new_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, idle: int, folded: list[int]
) -> None:
    """The feed of a game whose last reader left is kept (``STREAM_IDLE_FEEDS``,
    2 by default), so the next stream after an append folds only the new
    events: a 100k-event game's stream waited 7 s for its first byte after
    each append (issue 27). Its items are those of a fresh fold."""
    from replay_web import stream

    record = live_record()
    db = str(tmp_path / "live.db")
    ledger_app = open_app(db)
    ledger_app.append_events("live-i", record[:9], expected=0, appended_by="test")
    app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0, "STREAM_IDLE_FEEDS": idle})
    client = app.test_client()
    steps: list[int] = []
    evolve = stream.evolve

    def counted(state: Any, event: Event) -> Any:
        steps[-1] += 1
        return evolve(state, event)

    monkeypatch.setattr(stream, "evolve", counted)
    for first, end in ((0, 9), (9, 10), (10, 12)):
        if first:
            ledger_app.append_events("live-i", record[first:end], expected=first, appended_by="test")
        steps.append(0)
        assert _first_chunk(client, "/api/games/live-i/events").startswith(b"retry: 2000\n: game live-i")
    assert steps == folded
    hub = stream.hub_of(app)
    assert hub is not None and hub.feeds == {}
    assert list(hub.idle) == ([stream.game_uuid("live-i")] if idle else [])
    if idle:
        kept, fresh = hub.idle[stream.game_uuid("live-i")], stream.Feed("live-i")
        fresh.sync(ledger_app)
        assert [(i.position, i.data(access.SPECTATOR_ACCESS)) for i in kept.items] == [
            (i.position, i.data(access.SPECTATOR_ACCESS)) for i in fresh.items
        ]
        assert (kept.state, kept.pending) == (fresh.state, fresh.pending)
    hub.stop()
    ledger_app.close()


def test_every_answer_after_each_append_is_a_fresh_servers(tmp_path: Path) -> None:
    """The pages and the API of a server that followed the game append by
    append are byte for byte those of a server started after the last
    append (a fresh replay), for a referee and for a spectator."""
    from ledger.tokens import TokenStore

    record = live_record()
    db = str(tmp_path / "live.db")
    ledger_app = open_app(db)
    referee = TokenStore(ledger_app).create("Carla", "referee")[0]
    auth = {"Authorization": f"Bearer {referee}"}
    config = {"LEDGER_DB": db, "SPECTATOR_DELAY": 0}
    following = create_app(config)
    urls = ["/games/live-i", "/games/live-i?at=8", "/games/live-i?at=3", "/games/live-i/board?at=6"]
    urls += ["/api/games/live-i", "/api/games/live-i/audit", "/api/games/live-i/score", "/api/games", "/games"]
    urls += ["/api/games/live-i/state?pov=1", "/games/live-i?pov=0"]
    for first, end in BATCHES:
        ledger_app.append_events("live-i", record[first:end], expected=first, appended_by="test")
        fresh = create_app(config).test_client()
        client = following.test_client()
        for headers in (auth, {}):
            for url in urls:
                got, want = client.get(url, headers=headers), fresh.get(url, headers=headers)
                assert (url, got.status_code, got.data) == (url, want.status_code, want.data)
    assert cache_of(following).extended == 5
    ledger_app.close()


def test_the_desk_lists_of_a_prefix_and_extended_are_those_of_the_events() -> None:
    import msgspec

    from ledger.rulings import by_finding, rewound_by
    from replay_web.desk_lists import DeskLists
    from replay_web.tempo import move_seconds, tempo_text

    record = [
        msgspec.structs.replace(e, at=f"2026-12-03T20:{i:02d}:{(7 * i) % 60:02d}Z") if i % 3 else e
        for i, e in enumerate(live_record())
    ]
    whole = DeskLists.of(record)
    for h in range(len(record)):
        events = record[: h + 1]
        want = (by_finding(events), rewound_by(events), [tempo_text(t) for t in move_seconds(events)])
        index, rewound, tempo = whole.upto(h)
        assert (index, rewound, list(tempo)) == want
        grown = DeskLists.of(events).extended(record)
        assert (grown.index, grown.rewound, grown.tempo) == (whole.index, whole.rewound, whole.tempo)
    assert whole.rewound == {6: 7} and list(whole.index) == [6]
    assert [r.position for r in whole.index[6]] == [7, 15]
    assert whole.tempo[:6] == ("", "", "+1:07", "", "+2:14", "+1:07")


def test_a_score_sheet_reuses_the_hands_of_the_same_results_and_is_a_fresh_one() -> None:
    import ledger.scoring
    from ledger.replay import states
    from ledger.scoring import score_sheet

    all_states = list(states(live_record()))
    for adjudicated in (True, False):
        kept = [score_sheet(s, adjudicated) for s in all_states]
        fresh = []
        for s in all_states:
            ledger.scoring._HANDS.clear()
            fresh.append(score_sheet(s, adjudicated))
        assert kept == fresh
    a, b = score_sheet(all_states[16]), score_sheet(all_states[18])  # in hand 2: no hand scored, no penalty since
    assert a.hands is b.hands and len(a.hands) == 1 and a.totals == b.totals == (66, -10)
    assert score_sheet(all_states[15]).hands[0].lines != score_sheet(all_states[14]).hands[0].lines  # the penalty
