"""Which games changed, and when: the store's notification log for live readers.

The viewer's streams (``replay_web.stream``, ``replay_web.tournament_stream``)
follow the store through :class:`Changes` (``LedgerApp.changes``) and never
the ``eventsourcing`` recorder itself (issue 23, "typed reads"). Every stored
event has a notification id, increasing in the order of storing; a reader
remembers the newest id it has seen and asks what came after it.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Subscription


class Changes:
    """The notification log of one store: ``newest``, ``after``, ``subscribe``."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        self._recorder = recorder

    def newest(self) -> int:
        """The id of the newest stored event's notification (0 for an empty store)."""
        return self._recorder.max_notification_id() or 0

    def after(self, last: int, limit: int) -> list[tuple[int, UUID]]:
        """Up to ``limit`` notifications after id ``last``, oldest first, as
        ``(notification id, the changed game's originator id)``."""
        page = self._recorder.select_notifications(last, limit, inclusive_of_start=False)
        return [(n.id, _uuid(n.originator_id)) for n in page]

    def subscribe(self, last: int) -> Subscription[ApplicationRecorder] | None:
        """A live subscription to the notifications after ``last`` (PostgreSQL's
        LISTEN/NOTIFY: a context manager yielding notifications as they are
        stored), or None where the store has none (SQLite: poll :meth:`after`)."""
        try:
            return self._recorder.subscribe(gt=last)
        except NotImplementedError:
            return None


def _uuid(originator_id: UUID | str) -> UUID:
    return originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id))
