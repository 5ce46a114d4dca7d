"""A per-process LRU cache of replayed games, keyed by game id and store version.

Every page and API call about a game starts with :meth:`ReplayCache.get`: one
cheap query for the game's stored version (its number of events), then, when
the cached :class:`GameData` has that version, no replay at all; the state at
any position comes from the :class:`~ledger.replay.Replayer`'s checkpoints
(at most ``every - 1`` events folded per request). A game that grew since
(live recording) has only its new events read and folded, from the cached
version's last state (records are append-only: :meth:`GameData.extended`,
issue 27). Each gunicorn worker keeps its own cache over the one shared store.

Everything here is a consumer of the fold: states from
:class:`~ledger.replay.Replayer`, findings from :func:`ledger.audit.report`,
scores from :func:`ledger.scoring.score_sheet`, notation from
:func:`ledger.notation.notation`. No rule is evaluated here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from ledger.audit import report
from ledger.errors import RecordError
from ledger.events import Event, GameStarted
from ledger.game_summary import UNREADABLE, ListSummary, first_at, summarize
from ledger.notation import notation
from ledger.replay import Replayer, replay
from ledger.rulings import by_finding
from ledger.scoring import ScoreSheet, score_sheet
from ledger.state import Finding, Log, TableState
from ledger.stored.persistence import StoredEventError
from replay_web.desk_lists import DeskLists
from replay_web.store import Store

#: a game's line of the games list: (findings or None, finished, result or None, first ``at`` or None)
Summary = tuple[int | None, bool, dict[str, Any] | None, str | None]


class GameData:
    """One replayed game and what every page derives from it (computed once).

    Raises :class:`~ledger.errors.RecordError` on construction when the
    stored record cannot be replayed.
    """

    def __init__(
        self,
        game_id: str,
        version: int,
        events: list[Event],
        every: int = 16,
        seals: list[str | None] | None = None,
        chain: Callable[[str, int], Any] | None = None,
    ) -> None:
        self.game_id = game_id
        self._chain = chain
        self.version = version
        self.replayer = Replayer(events, every=every)
        #: a :class:`~ledger.state.Log`: a newer version's seals share it (appended in place, issue 27)
        self._stored_seals: Log[str | None] | None = (
            Log(seals[: len(events)]) if seals is not None and len(seals) >= len(events) else None
        )
        first = self.replayer.events[0]
        assert isinstance(first, GameStarted)
        self.started: GameStarted = first
        #: the journal's receive times of this version, POSIX seconds (:func:`replay_web.access.game_access`
        #: reads them once per version: a spectator's every request read the whole journal, issue 27)
        self.received: Sequence[float | None] | None = None
        #: the receive times of an older version this one extends (:meth:`extended`): only the new ones are read
        self.received_before: Sequence[float | None] | None = None

    def extended(self, events: list[Event], seals: list[str | None] | None = None) -> GameData:
        """This game with ``events`` appended (a live game: a record only
        grows, so the new version is this one's events and then these): a new
        :class:`GameData` whose replayer folds only ``events``
        (:meth:`ledger.replay.Replayer.extended`), whose seals are these
        ones' and ``seals`` (those of the new positions; None: none read),
        and whose moves, deal positions and receive times, when computed
        here, are kept and only the new ones' computed, as are the page's
        desk lists (:class:`~replay_web.desk_lists.DeskLists`). Everything else
        (findings, sheets, the chain's check) is derived from the new final
        state again, as for a fresh replay. ``self`` is left unchanged
        (other threads may be reading it). Raises
        :class:`~ledger.errors.RecordError` as a replay does."""
        new = GameData.__new__(GameData)
        new.game_id = self.game_id
        new._chain = self._chain
        new.replayer = self.replayer.extended(events)
        new.version = len(new.replayer)
        new.started = self.started
        new.received = None
        new.received_before = self.received if self.received is not None else self.received_before
        new._stored_seals = (
            self._stored_seals + seals[: len(events)]
            if self._stored_seals is not None and seals is not None and len(seals) >= len(events)
            else None
        )
        known = self.__dict__
        first = len(self.replayer)
        if "moves" in known:
            names = new.final
            new.__dict__["moves"] = self.moves + [notation(e, names) for e in events]
        if "desk_lists" in known:
            new.__dict__["desk_lists"] = self.desk_lists.extended(new.events)
        if "hand_starts" in known:
            new.__dict__["hand_starts"] = self.hand_starts + [
                first + i for i, e in enumerate(events) if e.type == "hand_dealt"
            ]
        return new

    @property
    def events(self) -> tuple[Event, ...]:
        """The record's events, position order."""
        return self.replayer.events

    @property
    def last(self) -> int:
        """The last position (events - 1)."""
        return len(self.replayer) - 1

    @property
    def final(self) -> TableState:
        """The state after the last event."""
        return self.replayer.final

    def state_at(self, position: int) -> TableState:
        """The state just after ``position`` (checkpointed); ``IndexError`` outside."""
        return self.replayer.state_at(position)

    @property
    def seals_stored(self) -> bool:
        """The seals are the store's (read), not computed here from record files."""
        return self._stored_seals is not None

    @cached_property
    def seals(self) -> Sequence[str | None]:
        """The seal after each position (FORMAT.md "Seal"): the store's stored
        seals (None where none is stored), or for games served from record
        files the chain computed from their canonical lines."""
        if self._stored_seals is not None:
            return self._stored_seals
        from ledger.events import encode_event
        from ledger.sealing.chain import seals

        return [h.hex() for h in seals(encode_event(e) for e in self.events)]

    @cached_property
    def broken(self) -> dict[str, Any] | None:
        """The stored chain's first break, ``{"position", "message"}``, or None
        when it verifies (or the game is a record file's: nothing to check).
        Checked once per version (:func:`ledger.sealing.chain_check.chain_check`),
        before any seal is shown (issue 26)."""
        check = self.chain
        return None if check is None else {"position": check.position, "message": check.message}

    @cached_property
    def chain(self) -> Any:
        """The failed check of the stored chain (a
        :class:`~ledger.sealing.verify_rows.GameCheck`), or None when it verifies
        or the game is a record file's; once per version (issue 26)."""
        if self._chain is None or self._stored_seals is None:
            return None
        check = self._chain(self.game_id, len(self.events))
        return None if check.ok else check

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        """All findings of the game, by position."""
        return report(self.final).findings

    @cached_property
    def audit_json(self) -> dict[str, Any]:
        """The ``audit --json`` object's findings (FORMAT.md), each with its
        ``ruling`` (:func:`ledger.rulings.by_finding`), as the CLI gives them;
        the seal and chain fields are the caller's (:func:`replay_web.api.audit`)."""
        return report(self.final).to_json(by_finding(self.events))

    @cached_property
    def violation_positions(self) -> list[int]:
        """Sorted distinct positions that have at least one finding."""
        return sorted({f.position for f in self.findings})

    @cached_property
    def rules_at(self) -> dict[int, list[str]]:
        """Position -> rule ids flagged there."""
        out: dict[int, list[str]] = {}
        for f in self.findings:
            out.setdefault(f.position, []).append(f.rule)
        return out

    @cached_property
    def hand_starts(self) -> list[int]:
        """Positions of each ``hand_dealt``."""
        return self.replayer.hand_starts()

    @cached_property
    def sheet(self) -> ScoreSheet:
        """The score sheet as adjudicated (penalties applied)."""
        return score_sheet(self.final, adjudicated=True)

    @cached_property
    def sheet_as_played(self) -> ScoreSheet:
        """The score sheet as played (penalties left out)."""
        return score_sheet(self.final, adjudicated=False)

    @cached_property
    def desk_lists(self) -> DeskLists:
        """The game page's rulings by finding, moves rewound and move times of
        the whole game (:class:`replay_web.desk_lists.DeskLists`: those of a
        prefix by :meth:`~replay_web.desk_lists.DeskLists.upto`)."""
        return DeskLists.of(self.events)

    @cached_property
    def moves(self) -> Log[str]:
        """One line of move notation per event (the referee's, nothing hidden)."""
        names = self.final
        return Log(notation(e, names) for e in self.events)  # a newer version's share it (extended)


class ReplayCache:
    """LRU of :class:`GameData` keyed by game id, valid for one store version.

    ``size``: games kept per process; ``every``: checkpoint interval of each
    :class:`~ledger.replay.Replayer`. Thread-safe (the lock guards the dict;
    a replay runs outside it, so two threads may replay the same game once
    each the first time).
    """

    def __init__(self, store: Store, size: int = 32, every: int = 16) -> None:
        self.store = store
        self.size = size
        self.every = every
        self._lock = threading.Lock()
        self._games: OrderedDict[str, GameData] = OrderedDict()
        self._counts: dict[tuple[str, int], Summary] = {}
        self.hits = 0
        self.misses = 0
        #: games the games list replayed because the store had no current line of them (:meth:`summary`)
        self.folds = 0
        #: misses served by folding only a live game's new events (:meth:`_extend`)
        self.extended = 0

    def get(self, game_id: str) -> GameData:
        """The replayed game; raises ``GameNotFoundError`` or ``RecordError``."""
        version = self.store.version(game_id)
        with self._lock:
            data = self._games.get(game_id)
            if data is not None and data.version == version:
                self._games.move_to_end(game_id)
                self.hits += 1
                return data
            self.misses += 1
        if data is not None and data.version < version:
            grown = self._extend(data)
            if grown is not None:
                return self._keep(grown)
        events = self.store.events(game_id)
        stored_seals = getattr(self.store, "seals", None)
        data = GameData(
            game_id,
            len(events),
            events,
            every=self.every,
            seals=stored_seals(game_id) if stored_seals else None,
            chain=getattr(self.store, "chain", None),
        )
        return self._keep(data)

    def peek(self, game_id: str) -> GameData | None:
        """The cached game, whatever its version (no store query), or None."""
        with self._lock:
            return self._games.get(game_id)

    def _keep(self, data: GameData) -> GameData:
        with self._lock:
            old = self._games.get(data.game_id)
            if old is None or old.version <= data.version:
                self._games[data.game_id] = data
            self._games.move_to_end(data.game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return data

    def _extend(self, data: GameData) -> GameData | None:
        """``data``'s game at the store's newer version, folding only the
        events stored after ``data``'s (:meth:`GameData.extended`; records
        are append-only) and reading only their seals; counted in
        :attr:`extended`. None when the store cannot give the new events
        alone (record files) or they do not extend the game (the caller
        replays it whole, which says why)."""
        after = getattr(self.store, "events_after", None)
        if after is None:
            return None
        try:
            new = after(data.game_id, data.version)
            if not new:
                return None
            seals = None
            if data.seals_stored:
                seals = self.store.seals(data.game_id, start=data.version)  # type: ignore[attr-defined]  # a store with seals (LedgerStore)
            grown = data.extended(new, seals)
        except (RecordError, StoredEventError):
            return None
        with self._lock:
            self.extended += 1
        return grown

    def stored_summaries(self, game_ids: Iterable[str]) -> dict[str, tuple[int, ListSummary]]:
        """The store's games-list lines of ``game_ids``, ``{game_id: (version,
        line)}``, in one query (:meth:`ledger.store.reads.GameReads.list_summaries`);
        ``{}`` for a store that keeps none (record files)."""
        read = getattr(self.store, "summaries", None)
        return read(game_ids) if read is not None else {}

    def first_stored(self, game_ids: Iterable[str]) -> dict[str, str]:
        """When each of ``game_ids`` was first stored (the journal's
        ``received_at`` of position 0), in one query
        (:meth:`replay_web.store.LedgerStore.first_stored`); ``{}`` for a
        store without a journal (record files)."""
        read = getattr(self.store, "first_stored", None)
        return read(game_ids) if read is not None else {}

    def summary(
        self, game_id: str, version: int, stored: Mapping[str, tuple[int, ListSummary]] | None = None
    ) -> Summary:
        """``(findings, finished, result, first_at)`` of a game at a stored version, for
        the games list: the number of findings (None when the record cannot
        be replayed), whether the game is over (``game_ended`` stored or the
        table state says so; :func:`ledger.game_summary.finished`) and, when it
        is, its result (:func:`ledger.game_summary.game_result`; None while it
        goes on), and the first ``at`` of its events (None when none has one).

        From, first to last: this process's memo of the version; the
        store's line in ``stored`` (:meth:`stored_summaries`) when it is of
        ``version``; the game cached here at that version; else a fold of
        the game (counted in :attr:`folds`), whose line is then written to
        the store (:meth:`~replay_web.store.LedgerStore.put_summary`), so the
        next list does not fold it again. Kept apart from the LRU, so the
        list replays each game at most once per version and listing does not
        evict the games being viewed."""
        key = (game_id, version)
        with self._lock:
            if key in self._counts:
                return self._counts[key]
            cached = self._games.get(game_id)
        line = stored.get(game_id) if stored else None
        entry: Summary
        if line is not None and line[0] == version:
            entry = _entry(line[1])
        elif cached is not None and cached.version == version:
            made = summarize(cached.final, first_at(cached.events))
            entry = _entry(made)
            self._put_line(game_id, version, made)
        else:
            try:
                events = self.store.events(game_id)
                key = (game_id, len(events))
                with self._lock:
                    self.folds += 1
                made = summarize(replay(events), first_at(events))
                entry = _entry(made)
            except (RecordError, StoredEventError):  # not replayable, or a stored row damaged: listed, not counted
                entry = _entry(UNREADABLE)
            else:
                self._put_line(game_id, len(events), made)
        with self._lock:
            if len(self._counts) > 100_000:
                self._counts.clear()
            self._counts[key] = entry
        return entry

    def _put_line(self, game_id: str, version: int, line: ListSummary) -> None:
        """The games-list ``line`` of a game folded here, written to a store that keeps them."""
        put = getattr(self.store, "put_summary", None)
        if put is not None:
            put(game_id, version, line)

    def clear(self) -> None:
        """Forget every cached game."""
        with self._lock:
            self._games.clear()
            self._counts.clear()


def _entry(line: ListSummary) -> Summary:
    return line.findings, line.finished, line.result, line.first_at
