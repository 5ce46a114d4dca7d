"""Tournament records in the event store: stored, appended, read and sealed as a game is (TOURNAMENT.md, layer 2).

A tournament is one sequence of the same store: originator id
:func:`~ledger.stored.persistence.game_uuid` of its ``tournament_id`` (a
tournament id is a game id: the two share one name space, so a tournament
and a game never take the same id), each event stored as its canonical JSON
(the stored bytes are the export), with the same journal rows and seal chain
(:meth:`ledger.store.append.GameAppends.rows_for`). A record is validated by
the fold (:mod:`ledger.tournament.state`) before anything is stored; an
import of a stored tournament appends the record's tail when the record
begins with the stored events (FORMAT.md "A record grows"), else it is a
:class:`~ledger.errors.GameConflictError`.

The games of a tournament are ordinary stored games:
:meth:`TournamentStore.tournament_results` reads each game the rounds name
(those stored) as a :class:`~ledger.tournament.results.GameResult`, the
standings' input. :func:`round_checkpoint` is ``round_closed.checkpoint``:
the RFC 6962 root over a round's games (FORMAT.md "Seal").
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError

from ledger.errors import ConcurrentAppendError, GameConflictError, GameNotFoundError, RecordError
from ledger.events import GameMeta, encode_event
from ledger.records import format_error, iter_lines
from ledger.sealing import chain as _seal
from ledger.store.import_result import ImportResult
from ledger.store.importing import GameImports
from ledger.store.journal import os_user
from ledger.store.settings import describe_store
from ledger.stored.persistence import TOURNAMENT_STARTED_TOPIC, game_uuid, naming_game
from ledger.texts import N_, Message, Text
from ledger.tournament.events import TournamentEvent, TournamentStarted, decode_tournament_event
from ledger.tournament.records import TournamentRecord, is_tournament_text, parse_tournament
from ledger.tournament.results import GameResult, result_of, result_of_line
from ledger.tournament.state import TournamentState, evolve, fold

_PAGE = 1000
#: game results a process keeps for the standings (:meth:`TournamentStore.tournament_results`)
RESULTS_KEPT = 4096


class TournamentNotFoundError(GameNotFoundError):
    """No tournament with that id is stored."""

    def __init__(self, tid: str, *, store: str | None = None) -> None:
        super().__init__(tid, store=store)
        self.args = (f"no tournament {tid!r} in the store" + (f" ({store})" if store else ""),)

    def __str__(self) -> str:
        return str(self.args[0])


class TournamentStore(GameImports):
    """The store of game records with tournaments: imports, appends and reads of tournament records."""

    def is_tournament(self, tid: str) -> bool:
        """True when the sequence ``tid`` is a stored tournament."""
        first = self.recorder.select_events(game_uuid(tid), limit=1)
        return bool(first) and first[0].topic == TOURNAMENT_STARTED_TOPIC

    def tournament_events(self, tid: str) -> list[TournamentEvent]:
        """The stored events of tournament ``tid``; raises :class:`TournamentNotFoundError`."""
        if not self.is_tournament(tid):
            raise TournamentNotFoundError(tid, store=describe_store(self.env))
        with naming_game(tid):
            events = self._events(game_uuid(tid))
        return [e for e in events if isinstance(e, TournamentEvent)]

    def tournament_state(self, tid: str, upto: int | None = None) -> TournamentState:
        """The tournament's state after its stored events (up to position ``upto``)."""
        return fold(self.tournament_events(tid), upto)

    def list_tournaments(self) -> list[TournamentStarted]:
        """Every stored tournament's ``tournament_started``, in the order first stored."""
        out: list[TournamentStarted] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(
                start, _PAGE, topics=[TOURNAMENT_STARTED_TOPIC], inclusive_of_start=False
            )
            out += [e for n in page if isinstance(e := self.mapper.decode_state(n), TournamentStarted)]
            if len(page) < _PAGE:
                return out
            start = page[-1].id

    def tournament_results(self, state: TournamentState) -> dict[str, GameResult]:
        """``{game_id: GameResult}`` of the stored games the rounds name (the standings' input).
        Each game's result is kept per process for its stored length (one length query a game
        when nothing changed; a game that grew, by a ruling say, is read again); a result not
        kept is read from the game's games-list line when that is current (no fold), else folded."""
        kept: dict[str, tuple[int, GameResult]] = self.__dict__.setdefault("_results", {})
        results: dict[str, GameResult] = {}
        for gid in state.games:
            length = self.game_length(gid)
            if not length:
                continue
            hit = kept.get(gid)
            if hit is not None and hit[0] == length:
                results[gid] = hit[1]
                continue
            made = self._result_of(gid, length)
            if made is None:
                continue
            results[gid] = made
            if len(kept) >= RESULTS_KEPT:
                kept.pop(next(iter(kept)))
            kept[gid] = (length, results[gid])
        return results

    def _result_of(self, gid: str, length: int) -> GameResult | None:
        """The result of stored game ``gid`` of ``length`` events: from its games-list line when
        that is of this length and tells (an ended game: :func:`result_of_line`), else by its
        fold; None when ``gid`` is a tournament."""
        line = self._summaries.get(game_uuid(gid))
        if line is not None and line[0] == length:
            made = result_of_line(self.game_started(gid), line[1])
            if made is not None:
                return made
        if self.is_tournament(gid):
            return None
        return result_of(self.game_started(gid), self.table_state(gid))

    def tournament_of_game(self, gid: str) -> TournamentState | None:
        """The state of the stored tournament whose rounds name game ``gid``: the one its
        ``meta.tournament`` names, else the first stored tournament whose ``round_paired``
        names it; None when no tournament names it (or the game is not stored)."""
        if not self.has_game(gid) or self.is_tournament(gid):
            return None
        meta = self.game_started(gid).meta
        named = getattr(meta, "tournament", None) if meta is not None else None
        ids = [named] if named else []
        ids += [t.tournament_id for t in self.list_tournaments() if t.tournament_id != named]
        for tid in ids:
            if self.is_tournament(tid):
                state = self.tournament_state(tid)
                if gid in state.games:
                    return state
        return None

    def pairing_meta(self, gid: str) -> GameMeta | None:
        """The ``meta`` a game of id ``gid`` takes from the stored tournament whose
        ``round_paired`` names it (``tournament``, ``round``, ``table``: what the
        checker compares, TOUR-GAME-1), or None when no stored tournament names it;
        for a game recorded from its table's paper sheet (``record-scores``)."""
        for t in self.list_tournaments():
            state = self.tournament_state(t.tournament_id)
            if gid in state.games:
                rnd, table = state.games[gid]
                return GameMeta(tournament=t.tournament_id, round=str(rnd), table=str(table))
        return None

    def import_tournament(self, record: TournamentRecord, *, appended_by: str | None = None) -> ImportResult:
        """Store a validated tournament record in one transaction, or append its
        tail to the stored tournament it begins with; ``"already_stored"`` when
        stored whole. Raises :class:`GameConflictError` when the stored events
        differ (naming the first differing position and line) or the id is a game's."""
        tid, by = record.tournament_id, appended_by or f"import:{os_user()}"
        oid = game_uuid(tid)
        stored = 0
        if self.recorder.select_events(oid, limit=1):
            if not self.is_tournament(tid):
                raise GameConflictError(tid, "a game", message=f"{tid!r} is a stored game, not a tournament; refused")
            stored = self._compare(record, tid)  # type: ignore[arg-type]  # a TournamentRecord has events and line_of
            if stored == len(record.events):
                return ImportResult(game_id=tid, events=stored, status="already_stored", path=record.path)
        self._store(tid, stored, record.events[stored:], by)
        status = "appended" if stored else "stored"
        return ImportResult(
            game_id=tid, events=len(record.events), status=status, path=record.path, previous=stored or None
        )

    def append_tournament(
        self, tid: str, events: Sequence[TournamentEvent], *, expected: int | None = None, appended_by: str
    ) -> TournamentState:
        """Append ``events`` to tournament ``tid`` (or open it with a
        ``tournament_started``), checked by the fold, in one transaction; returns
        the state after them. Raises :class:`RecordError` (REC-…, the position),
        :class:`ConcurrentAppendError` when ``expected`` is not the stored length."""
        stored = self.tournament_events(tid) if self.has_game(tid) else []
        if expected is not None and expected != len(stored):
            raise ConcurrentAppendError(tid, expected, length=len(stored))
        if not stored and events and isinstance(events[0], TournamentStarted) and events[0].tournament_id != tid:
            raise RecordError("REC-REF", f"tournament_started names {events[0].tournament_id!r}", position=0)
        state: TournamentState | None = fold(stored) if stored else None
        for i, event in enumerate(events):
            _checked(event, len(stored) + i)
            state = evolve(state, event, len(stored) + i)
        if state is None:
            raise RecordError("REC-FORMAT", "no events to append", position=len(stored))
        self._store(tid, len(stored), list(events), appended_by)
        return state

    def _store(self, tid: str, first: int, events: Sequence[TournamentEvent], by: str) -> None:
        oid = game_uuid(tid)
        domain_events, journal = self.rows_for(oid, first, events, by)
        try:
            self.events.put(domain_events, journal=journal)
        except IntegrityError:
            raise ConcurrentAppendError(tid, first, length=self._length(oid)) from None

    def game_seal(self, gid: str, length: int | None = None) -> tuple[int, str]:
        """``(length, seal hex)`` of a stored game at ``length`` events (default: all)."""
        lines = self.stored_lines(gid)
        n = len(lines) if length is None else length
        return n, _seal.seal_hex(lines[:n])


def _checked(event: TournamentEvent, position: int) -> None:
    """Refuse (REC-FORMAT, naming the field) an event built in code that its line would not decode as:
    a struct made in Python is not checked against its constraints until it is decoded."""
    line = encode_event(event)
    try:
        decode_tournament_event(line)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        err = format_error(exc, line)
        raise RecordError(err.rule, err.message, field=err.field, position=position) from None


def is_tournament_file(path: str | os.PathLike[str]) -> bool:
    """Whether the record file at ``path`` is a tournament record: its first event line is
    ``tournament_started`` (TOURNAMENT.md, "Machine-readable outputs"); False when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            for _number, raw in iter_lines(fh):
                return is_tournament_text(raw)
    except (OSError, UnicodeDecodeError):
        return False
    return False


def import_tournament_file(app: TournamentStore, path: str | os.PathLike[str]) -> ImportResult | Exception:
    """Read, validate and store the tournament record at ``path``; the outcome, or the
    :class:`RecordError` / :class:`GameConflictError` / ``OSError`` that refused it (nothing stored)."""
    try:
        with open(path, "rb") as fh:
            record = parse_tournament(fh, os.fspath(path))
        return app.import_tournament(record)
    except (RecordError, GameConflictError, ConcurrentAppendError, OSError) as exc:
        return exc


def round_checkpoint(app: Any, state: TournamentState, rnd: int) -> str:
    """The RFC 6962 root (64 hex) over round ``rnd``'s stored games at their stored
    length (leaves in game id order, FORMAT.md "Seal"); a game not stored is left out."""
    leaves = []
    for t in sorted(state.rounds[rnd].tables, key=lambda t: t.game_id):
        if app.has_game(t.game_id):
            length, seal = app.game_seal(t.game_id)
            leaves.append(_seal.leaf_data(t.game_id, length, seal))
    return _seal.merkle_root(leaves).hex()


def checkpoint_holds(app: Any, state: TournamentState, rnd: int, checkpoint: str, limit: int = 4096) -> bool:
    """Whether ``checkpoint`` is the root over round ``rnd``'s games at some
    length each game had since its end: its stored length, or any length from its
    ``game_ended`` on (a ruling after the game appends to it, FORMAT.md "Rulings
    after the game"); at most ``limit`` combinations are tried."""
    choices: list[list[bytes]] = []
    for t in sorted(state.rounds[rnd].tables, key=lambda t: t.game_id):
        if not app.has_game(t.game_id):
            continue
        lines = app.stored_lines(t.game_id)
        ended = next((i for i, ln in enumerate(lines) if ln.startswith(b'{"type":"game_ended"')), len(lines) - 1)
        seals = list(_seal.seals(lines))
        choices.append(
            [_seal.leaf_data(t.game_id, n, seals[n - 1].hex()) for n in range(len(lines), ended, -1) if n >= 1]
        )
    return _search(choices, bytes.fromhex(checkpoint), limit)


#: ``verify T``: a closed round whose checkpoint is not the root over its stored games
ROUND_NOT_ROOT = N_(
    "%(tournament)s: round %(round)s: the checkpoint %(checkpoint)s is not the root over the round's stored games"
)


def tournament_targets(app: Any, ids: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(ids to verify, problems)`` for ``verify ID…``: each stored tournament among
    ``ids`` is followed by its stored games, and each of its closed rounds'
    checkpoints is checked (:func:`checkpoint_holds`); a problem is
    ``"T: round R: …"``, a :class:`~ledger.texts.Text` (its English, as
    ``verify --json``'s ``reason``, keeping its msgid: rendered in another
    language by ``verify``, :data:`ROUND_NOT_ROOT`)."""
    out: list[str] = []
    problems: list[str] = []
    for tid in ids:
        out.append(tid)
        if not app.is_tournament(tid):
            continue
        state = app.tournament_state(tid)
        out += [g for g in state.games if app.has_game(g) and g not in out]
        for rnd, info in sorted(state.rounds.items()):
            if info.checkpoint is not None and not checkpoint_holds(app, state, rnd, info.checkpoint):
                found = Message(ROUND_NOT_ROOT, tournament=tid, round=rnd, checkpoint=info.checkpoint[:16])
                problems.append(Text.of(found))
    return out, problems


def _search(choices: list[list[bytes]], root: bytes, limit: int) -> bool:
    combos = [[]]  # type: list[list[bytes]]
    for options in choices:
        combos = [c + [o] for c in combos for o in options][:limit]
    return any(_seal.merkle_root(c) == root for c in combos)


__all__ = [
    "ROUND_NOT_ROOT",
    "TournamentNotFoundError",
    "TournamentStore",
    "checkpoint_holds",
    "import_tournament_file",
    "is_tournament_file",
    "round_checkpoint",
    "tournament_targets",
]
