"""A spectator's requests read the journal once per game version (issue 27, defect 4).

Every anonymous request of an unfinished game (a 403 too) read the whole
journal to find what the spectator delay lets it see: 0.3–4.4 s for a game
of 100k events. The receive times are kept with the replayed game
(:class:`replay_web.cache.GameData`), for its version. The store's journal
reads are counted (the real store, its method wrapped to count calls).
"""

from __future__ import annotations

from pathlib import Path

from ledger.store.application import open_app
from replay_web import access, create_app
from tests.webgames import small_game


def test_the_journal_is_read_once_per_game_version(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    ledger = open_app(db)
    events = small_game("live-1")
    ledger.append_events("live-1", list(events[:5]), expected=0, appended_by="test")
    app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 30})
    store = access.ledger_app(app)
    reads: list[str] = []
    journal = store.journal

    def counted(game_id: str, after: int = -1):  # type: ignore[no-untyped-def]
        reads.append(game_id)
        return journal(game_id, after)

    store.journal = counted  # type: ignore[method-assign]
    client = app.test_client()
    answers = [
        client.get("/api/games/live-1").status_code,
        client.get("/api/games/live-1/state").status_code,
        client.get("/api/games/live-1/state?at=3").status_code,  # past the delay: 403
        client.get("/games/live-1").status_code,
        client.get("/api/games/live-1/audit").status_code,
    ]
    assert answers == [200, 200, 403, 200, 200]
    assert reads == ["live-1"]
    assert client.get("/api/games/live-1").get_json()["game"]["last"] == 0  # the delay holds as before
    ledger.append_events("live-1", [events[5]], expected=5, appended_by="test")
    assert client.get("/api/games/live-1/state").status_code == 200
    assert client.get("/api/games/live-1/state").status_code == 200
    assert reads == ["live-1", "live-1"]  # the new version's, once
    ledger.close()
