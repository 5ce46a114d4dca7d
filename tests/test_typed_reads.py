"""The web's typed reads on the application (issue 23, "typed reads"):
``events_after``, ``game_length`` and ``changes`` (:mod:`ledger.store.changes`),
and no module of ``replay_web`` reaching under them to the recorder or mapper."""

from __future__ import annotations

import re
from pathlib import Path
from uuid import UUID

from ledger.records import parse_line
from ledger.store.application import open_app
from ledger.stored.persistence import game_uuid

REPO = Path(__file__).resolve().parents[1]
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


def _events(path: Path) -> list:
    return [parse_line(line, i + 1) for i, line in enumerate(path.read_text().splitlines())]


def test_events_after_gives_the_events_from_position_n(tmp_path: Path) -> None:
    events = _events(DISPUTE)
    app = open_app(str(tmp_path / "s.db"))
    try:
        app.append_events("bur-dispute", events, expected=0, appended_by="test")
        assert app.game_length("bur-dispute") == len(events) == 19
        assert app.events_after("bur-dispute", 0) == events
        assert app.events_after("bur-dispute", 16) == events[16:]
        assert [e.type for e in app.events_after("bur-dispute", 17)] == ["hand_ended", "game_ended"]
        assert app.events_after("bur-dispute", 19) == []
        assert app.events_after("nosuch", 0) == []
        assert app.game_length("nosuch") == 0
    finally:
        app.close()


def test_changes_name_the_games_stored_after_a_notification_id(tmp_path: Path) -> None:
    events = _events(DISPUTE)
    app = open_app(str(tmp_path / "s.db"))
    try:
        assert app.changes.newest() == 0
        app.append_events("bur-dispute", events[:10], expected=0, appended_by="test")
        first = app.changes.newest()
        assert first == 10
        app.append_events("bur-dispute", events[10:12], expected=10, appended_by="test")
        page = app.changes.after(first, 500)
        assert page == [(11, game_uuid("bur-dispute")), (12, game_uuid("bur-dispute"))]
        assert all(isinstance(oid, UUID) for _, oid in page)
        assert app.changes.after(first, 1) == page[:1]
        assert app.changes.after(app.changes.newest(), 500) == []
        assert app.changes.subscribe(0) is None  # SQLite has no subscription: the hub polls
    finally:
        app.close()


def test_the_web_never_reaches_the_recorder_or_the_mapper() -> None:
    under = re.compile(r"\.(recorder|mapper)\b(?!\s*token)")
    found = [
        f"{p.relative_to(REPO)}:{n}: {line.strip()}"
        for p in sorted((REPO / "replay_web").rglob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if under.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []
