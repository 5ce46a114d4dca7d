"""Live standings: ``GET /api/tournaments/<id>/standings/stream`` as Server-Sent Events (issue 25).

The stream sends the standings (the ``GET /api/tournaments/<id>/standings``
object: TOURNAMENT.md "Machine-readable outputs") as one message::

    id: 1
    event: standings
    data: {"tournament_id": "cup", "after_round": 4, "standings": [...]}

at once, then again whenever the tournament record or one of its linked
games is stored to (a game's last event, a ruling during or after the game)
and the standings differ from the last ones sent. A game not finished is
*playing* and counts for nothing (the read rules of FORMAT.md: it shows no
score before its end). The standings after one round stay as asked with
``?after_round=R``.

How changes are found, in every process on its own, as
:mod:`replay_web.stream` does on SQLite: the stream looks at the store's
notification log every ``STREAM_POLL`` seconds (one ``max_notification_id``
query when nothing was stored) and recomputes the standings only when a
notification names the tournament or one of its games. The limits are
:mod:`replay_web.stream`'s and shared with its streams: ``STREAM_MAX`` open
streams per process (503 with ``Retry-After`` above), ``STREAM_MAX_SECONDS``
lifetime (then ``event: timeout``; the client reconnects), and a
``: keep-alive`` comment every ``STREAM_HEARTBEAT`` seconds on a fixed clock
(from the stream's start, whatever was sent in between). A client that
closed its connection ends the stream at the next look.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from uuid import UUID

from flask import Blueprint, Response, current_app, request
from flask.typing import ResponseReturnValue

from ledger.stored.persistence import game_uuid
from ledger.tournament.standings import standings
from replay_web.stream import client_gone, hub_of, setting
from replay_web.tournaments import after_round_arg, load_tournament

if TYPE_CHECKING:
    from ledger.store.application import LedgerApp
    from ledger.store.changes import Changes

bp = Blueprint("tournament_stream", __name__)
_PAGE = 500


def _changed(changes: Changes, last: int, watched: set[UUID]) -> tuple[int, bool]:
    """``(newest notification id, whether one after ``last`` names a watched originator)``."""
    newest = changes.newest()
    hit = False
    while last < newest:
        page = changes.after(last, _PAGE)
        if not page:
            break
        hit = hit or any(oid in watched for _, oid in page)
        last = page[-1][0]
    return max(last, newest), hit


class _Standings:
    """The tournament's standings JSON, recomputed when its record or a linked game changed."""

    def __init__(self, ledger: LedgerApp, tid: str, after: int | None) -> None:
        self.ledger, self.tid, self.after = ledger, tid, after
        self.last = ledger.changes.newest()
        self.watched: set[UUID] = set()
        self.text = ""

    def compute(self) -> str:
        state = self.ledger.tournament_state(self.tid)
        self.watched = {game_uuid(self.tid), *(game_uuid(g) for g in state.games)}
        doc = standings(state, self.ledger.tournament_results(state), self.after).to_json()
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))

    def fresh(self) -> str | None:
        """The standings JSON when it differs from the last one returned, else None."""
        if self.text:
            self.last, hit = _changed(self.ledger.changes, self.last, self.watched)
            if not hit:
                return None
        text = self.compute()
        if text == self.text:
            return None
        self.text = text
        return text


@bp.get("/api/tournaments/<tournament_id>/standings/stream")
def standings_stream(tournament_id: str) -> ResponseReturnValue:
    """The live standings of a stored tournament (module docstring); 404 for an unknown
    tournament or a server of record files, 400 for a bad ``after_round``, 503 when
    ``STREAM_MAX`` streams are open."""
    after = after_round_arg()
    ledger, _state, _results = load_tournament(tournament_id)
    hub = hub_of(current_app)
    assert hub is not None  # load_tournament answered 404 for a server of record files
    limit = int(setting(current_app, "STREAM_MAX"))
    with hub.lock:
        if hub.streams >= limit:
            from replay_web.write import ApiError

            raise ApiError(
                503, f"too many open streams on this server ({limit}); retry shortly", headers={"Retry-After": "5"}
            )
        hub.streams += 1
    released = threading.Event()

    def release() -> None:
        if not released.is_set():
            released.set()
            with hub.lock:
                hub.streams -= 1

    source = _Standings(ledger, tournament_id, after)
    clock = {key: setting(current_app, key) for key in ("STREAM_MAX_SECONDS", "STREAM_HEARTBEAT", "STREAM_POLL")}
    gone = client_gone(request.environ)

    def generate() -> Iterator[str]:
        try:
            yield from _serve(source, clock, gone)
        finally:
            release()

    response = Response(generate(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(release)
    return response


def _serve(source: _Standings, clock: dict[str, float], gone: Callable[[], bool]) -> Iterator[str]:
    start = time.monotonic()
    deadline = start + clock["STREAM_MAX_SECONDS"]
    beat, poll = clock["STREAM_HEARTBEAT"], max(clock["STREAM_POLL"], 0.01)
    next_beat = start + beat
    sent = 0
    yield f"retry: 2000\n: standings of tournament {source.tid}\n\n"
    while True:
        text = source.fresh()
        if text is not None:
            sent += 1
            yield f"id: {sent}\nevent: standings\ndata: {text}\n\n"
        now = time.monotonic()
        if now >= next_beat:
            yield ": keep-alive\n\n"
            next_beat += beat * (1 + int((now - next_beat) // beat))
        if now >= deadline:
            yield "event: timeout\ndata: {}\n\n"
            return
        if gone():
            return
        time.sleep(min(poll, max(deadline - now, 0.0), max(next_beat - now, 0.0)) or 0.001)


def init_app(app: Any) -> None:
    """Register the live standings and the pages that follow them (:mod:`replay_web.tournament_screen`)."""
    from replay_web import tournament_screen

    app.register_blueprint(bp)
    app.register_blueprint(tournament_screen.bp)


__all__ = ["bp", "init_app", "standings_stream"]
