"""The append path: events added to a stored game, checked by the fold, with their journal rows and seals (layer 2).

One transaction per call (CONTRACT-append.md): the events, one
``rummy_journal`` row each (who appended, when) and their seals
(:func:`ledger.sealing.witness.seal_batch`, FORMAT.md "Seal"). The import
path (:mod:`ledger.store.importing`) stores through the same
:meth:`GameAppends.rows_for`, so a game has the same bytes, authors and
seals whichever way it was stored.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError

from ledger import replay as _replay
from ledger.errors import ConcurrentAppendError, GameConflictError, GameNotFoundError, RecordError
from ledger.events import Event, GameStarted, encode_event
from ledger.game_summary import first_at as first_at_of
from ledger.records import Record
from ledger.sealing.witness import seal_batch
from ledger.state import Finding, TableState
from ledger.store.journal import JournalRow, os_user, received_now
from ledger.store.reads import UNKNOWN_AT, GameReads
from ledger.stored.persistence import EncodedGameEvent, GameEvent, StoredEventError, game_uuid
from ledger.texts import N_, Message


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of :meth:`LedgerApp.append_events` (CONTRACT-append.md).

    Attributes:
        game_id: the game appended to.
        first: position of the first event appended (FORMAT.md "File").
        length: events stored in the game after the append (its next position).
        findings: findings raised by the appended events only, by position
            (``{position, hand, seat, rule, message}``, RULES.md ids).
        hand_over: the table state says the current hand is over
            (:attr:`ledger.state.TableState.hand_over`).
        game_over: ``game_ended`` is stored, or the variant's end condition
            holds (:attr:`ledger.state.TableState.game_over`).
    """

    game_id: str
    first: int
    length: int
    findings: tuple[Finding, ...]
    hand_over: bool
    game_over: bool


class GameAppends(GameReads):
    """The store of game records, appending (:class:`~ledger.store.reads.GameReads`
    plus the append path); the base of the import path."""

    def append_events(
        self,
        game_id: str,
        events: Sequence[Event] | Record,
        *,
        expected: int | None = None,
        appended_by: str,
    ) -> AppendResult:
        """Append events to a stored game (or create it), checked by the fold,
        all in one transaction with their journal rows (CONTRACT-append.md).

        ``expected`` is the position the writer expects its first event to
        take (the game's current length; 0 to create a game), None for no
        check. ``appended_by`` names the writer in the journal (a token's
        name, ``"cli:<os user>"``, ...). ``events`` may be a
        :class:`~ledger.records.Record` (events read from a file): errors then
        name its file and line.

        Returns an :class:`AppendResult`. Raises (nothing stored, the game
        stays appendable at the same position):

        - :class:`RecordError` (``REC-…``, ``position``, ``field``) for an
          impossible event (``REC-ORDER`` after ``game_ended`` but a penalty), or no events;
        - :class:`ConcurrentAppendError` (``.length`` = the game's length) when
          ``expected`` is not the game's length, or another writer stored
          events at these positions first (of two writers racing for a
          position exactly one wins; this holds across threads and processes);
        - :class:`GameNotFoundError` for an unknown game, unless the first
          event is ``game_started`` for ``game_id`` and ``expected`` is None or 0;
        - :class:`GameConflictError` for a ``game_started`` when the game exists.
        """
        record = events if isinstance(events, Record) else None
        batch = tuple(events.events if isinstance(events, Record) else events)
        if not appended_by:
            raise ValueError("appended_by must name who appends (journal)")
        oid = game_uuid(game_id)
        length = self._append_length(game_id, oid, batch, expected)
        if not batch:
            raise RecordError(
                "REC-FORMAT", N_("no events to append"), position=length, path=record.path if record else None
            )
        self._check_head(game_id, batch[0], length, expected, record)
        if expected is not None and expected != length:
            raise ConcurrentAppendError(game_id, expected, length=length)
        state = self._live_state(game_id, length)
        try:
            for event in batch:
                state = _replay.evolve(state, event)
        except RecordError as err:
            raise self._located(err, record, length) from None
        assert state is not None
        self._put(game_id, oid, length, batch, state, appended_by)
        return AppendResult(
            game_id=game_id,
            first=length,
            length=length + len(batch),
            findings=_findings_from(state, length),
            hand_over=state.hand_over,
            game_over=state.game_over,
        )

    def _append_length(self, game_id: str, oid: UUID, batch: Sequence[Event], expected: int | None) -> int:
        """The game's length for :meth:`append_events`: ``expected`` itself
        when the writer expects what this process stored last (no length
        query: a position taken meanwhile by another process fails the insert
        on the store's unique (game, position) key: ConcurrentAppendError),
        else the stored length."""
        cached = self._live.get(game_id)
        if (
            cached is not None
            and expected is not None
            and expected == cached.position + 1
            and batch
            and not isinstance(batch[0], GameStarted)
        ):
            return expected
        return self._length(oid)

    def _check_head(self, game_id: str, head: Event, length: int, expected: int | None, record: Record | None) -> None:
        """The checks of :meth:`append_events` on its first event: only a
        ``game_started`` for ``game_id`` (with ``expected`` None or 0) opens a
        game (else :class:`GameNotFoundError`, or ``REC-REF`` for another id),
        and never one that exists (:class:`GameConflictError`)."""
        if length == 0:
            if not isinstance(head, GameStarted) or expected not in (None, 0):
                raise self.not_found(game_id)
            if head.game_id != game_id:
                err = RecordError(
                    "REC-REF",
                    Message(
                        N_("game_started names game %(game)s, not %(other)s"),
                        game=repr(head.game_id),
                        other=repr(game_id),
                    ),
                    field="game_id",
                    position=0,
                )
                raise self._located(err, record, 0)
        elif isinstance(head, GameStarted):
            raise GameConflictError(
                game_id,
                f"{length} events stored",
                message=Message(
                    N_("game %(game)s already exists (%(num)s events stored); game_started opens a new game only")
                    if length != 1
                    else N_("game %(game)s already exists (%(num)s event stored); game_started opens a new game only"),
                    game=repr(game_id),
                    num=length,
                ),
            )

    @staticmethod
    def _located(err: RecordError, record: Record | None, first: int) -> RecordError:
        """``err`` located at the file line of its event when the events came from a file."""
        if record is None or err.position is None:
            return err
        return err.with_location(line=record.line_of(err.position - first), path=record.path)

    def append_event(
        self, game_id: str, event: Event, *, expected_position: int | None = None, appended_by: str | None = None
    ) -> int:
        """Record one more event of a live game; returns its position.

        A thin wrapper of :meth:`append_events` (same errors); the journal
        names ``appended_by`` (default ``"library:<os user>"``).
        """
        by = appended_by or f"library:{os_user()}"
        return self.append_events(game_id, [event], expected=expected_position, appended_by=by).first

    def _put(
        self,
        game_id: str,
        oid: UUID,
        first: int,
        events: Sequence[Event],
        state: TableState,
        appended_by: str,
        first_at: str | None | Any = UNKNOWN_AT,
    ) -> None:
        """Store ``events`` at positions ``first``… with their journal rows in
        one transaction; ``state`` is the table after them (kept for the next
        append). Each journal row carries the event's seal, the call's last
        row also the call's journal link
        (:func:`ledger.sealing.witness.seal_batch`: FORMAT.md "Seal", continued from
        the previous event's stored seal). Raises
        :class:`ConcurrentAppendError` when a position is taken and
        :class:`~ledger.sealing.witness.SealError` when the previous event has no
        stored seal.

        Then the game's games-list line (:mod:`ledger.stored.summaries`) from
        ``state``, the fold that checked the events; ``first_at`` is the
        game's first ``at`` when the caller knows it (a whole record), else
        :meth:`_first_at` finds it."""
        domain_events, journal = self.rows_for(oid, first, events, appended_by)
        try:
            self.events.put(domain_events, journal=journal)
        except IntegrityError:
            self._live.pop(game_id, None)
            raise ConcurrentAppendError(game_id, first, length=self._length(oid)) from None
        self.remember_state(game_id, state)
        if first_at is UNKNOWN_AT:
            first_at = self._first_at(game_id, oid, first, events)
        self.write_summary(game_id, first + len(events), state, first_at)

    def _first_at(self, game_id: str, oid: UUID, first: int, events: Sequence[Event]) -> str | None | Any:
        """The first ``at`` of the game once ``events`` are stored at
        ``first``…: theirs for a new game; else the stored line's of the
        version before them (or theirs when it has none), else the stored
        ``game_started``'s; :data:`~ledger.store.reads.UNKNOWN_AT` when none
        of these tells (no line is written then; the list folds the game once)."""
        if first == 0:
            return first_at_of(events)
        line = self._summaries.get(oid)
        if line is not None and line[0] == first:
            return line[1].first_at or first_at_of(events)
        with contextlib.suppress(GameNotFoundError, StoredEventError):
            head = self.game_started(game_id).at
            if head:
                return head
        return UNKNOWN_AT

    def rows_for(
        self,
        oid: UUID,
        first: int,
        events: Sequence[Event],
        appended_by: str,
        received: str | None = None,
        previous: tuple[bytes | None, bytes | None] | None = None,
    ) -> tuple[list[GameEvent], list[JournalRow]]:
        """The domain events and journal rows (with seals) that store ``events`` at
        positions ``first``… (one path for appends, imports and bulk imports:
        the same bytes, authors and seals whichever way a game is stored).
        ``received`` is the journal's time (default: now); ``previous`` the
        seals of position ``first - 1`` when not stored yet
        (:func:`~ledger.sealing.witness.seal_batch`)."""
        received = received or received_now()
        lines = [encode_event(e) for e in events]
        seals, link = seal_batch(self, oid, first, lines, appended_by, received, previous)
        journal = [
            JournalRow(position=first + i, appended_by=appended_by, received_at=received, seal=seal)
            for i, seal in enumerate(seals)
        ]
        if journal:  # the call's journal link, on its last row
            journal[-1] = msgspec.structs.replace(journal[-1], journal_seal=link)
        domain_events: list[GameEvent] = [
            EncodedGameEvent(originator_id=oid, originator_version=first + i + 1, event=e, line=line)
            for i, (e, line) in enumerate(zip(events, lines))
        ]
        return domain_events, journal


def _findings_from(state: TableState, first: int) -> tuple[Finding, ...]:
    """The findings at positions ``first``… (those the appended events raised:
    a finding is reported at the position of the event that raises it)."""
    found: list[Finding] = []
    for f in reversed(state.findings):
        if f.position < first:
            break
        found.append(f)
    return tuple(reversed(found))
