"""The small family of errors the ledger raises.

Every error derives from :class:`LedgerError` and from the matching builtin,
so callers may catch either. Messages name the rule id (RULES.md), the line or
position and the offending values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.texts import N_, Message, Translator, render

if TYPE_CHECKING:  # for the checker only: ledger.state imports ledger.cards, which imports this module
    from ledger.state import Finding


class LedgerError(Exception):
    """Base class of every error the ledger raises on purpose.

    ``msg`` is the message as data (:class:`ledger.texts.Message`) when the
    raiser gave one; :meth:`text` renders it in a reader's language at the
    edge (``str(error)`` is the English)."""

    msg: Message | None = None

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], Message):  # the message as data: str() is its English
            self.msg = args[0]
            args = (str(args[0]),)
        super().__init__(*args)

    def text(self, tr: Translator | None = None) -> str:
        """The message in the language of ``tr`` (English when None): ``msg``
        rendered, else ``str(self)``."""
        return render(self.msg, tr) if self.msg is not None else str(self)


class RecordError(LedgerError, ValueError):
    """A record that cannot be accepted (a ``REC-…`` rejection, FORMAT.md).

    Attributes:
        rule: the RULES.md id, e.g. ``"REC-WHERE"``.
        msg: the reason as data (:class:`ledger.texts.Message`: a msgid and
            its params; a plain string given is a msgid without params).
        message: the reason in plain English words (``msgid % params``).
        line: 1-based line number in the file, or ``None`` when not from a file.
        field: JSON path of the offending field (``"cards[2]"``), or ``""``.
        position: 0-based event position, or ``None``.
        path: file name, when known.
    """

    msg: Message

    def __init__(
        self,
        rule: str,
        message: str | Message,
        *,
        line: int | None = None,
        field: str = "",
        position: int | None = None,
        path: str | None = None,
    ) -> None:
        self.rule = rule
        self.msg = message if isinstance(message, Message) else Message.of(message, ())
        self.message = str(self.msg)
        self.line = line
        self.field = field
        self.position = position
        self.path = path
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line: ``file:line: field: RULE: message`` (unknown parts left out).

        >>> RecordError("REC-WHERE", "Anna (seat 0) does not hold AS", line=4, field="card", path="g.jsonl").describe()
        'g.jsonl:4: card: REC-WHERE: Anna (seat 0) does not hold AS'
        """
        if self.line is not None:
            where = f"{self.path}:{self.line}" if self.path else f"line {self.line}"
        elif self.position is not None:
            where = f"{self.path}: position {self.position}" if self.path else f"position {self.position}"
        else:
            where = self.path or ""
        return ": ".join(p for p in (where, self.field, self.rule, self.message) if p)

    def with_location(self, *, line: int | None = None, path: str | None = None) -> RecordError:
        """A copy of this error located at ``line`` of ``path``."""
        return RecordError(
            self.rule,
            self.msg,
            line=line if line is not None else self.line,
            field=self.field,
            position=self.position,
            path=path if path is not None else self.path,
        )

    def as_json(self) -> dict[str, object]:
        """The ``{"line", "field", "rule", "message"}`` object of FORMAT.md."""
        return {"line": self.line, "field": self.field, "rule": self.rule, "message": self.message}


class PovError(LedgerError, ValueError):
    """A reader (``--pov``, a seat's view) that is not a seat at the table,
    ``"spectator"`` or the referee (:func:`ledger.redaction.check_pov`); its
    ``msg`` is rendered in the reader's language at the edge."""


class GameNotFoundError(LedgerError, LookupError):
    """No game with that id is stored.

    ``store`` names the store (``"SQLite ./ledger.db"``) and ``suggestions``
    holds stored ids close to ``game_id`` (best first), when the raiser
    knows them (:meth:`ledger.store.application.LedgerApp.not_found`).

    >>> str(GameNotFoundError("Bur-Dispute", store="SQLite ./ledger.db", suggestions=("bur-dispute",)))
    "no game 'Bur-Dispute' in the store (SQLite ./ledger.db); did you mean bur-dispute?"
    >>> str(GameNotFoundError("x"))
    "no game 'x' in the store"
    """

    def __init__(self, game_id: str, *, store: str | None = None, suggestions: tuple[str, ...] = ()) -> None:
        self.game_id = game_id
        self.store = store
        self.suggestions = tuple(suggestions)
        where = f" ({store})" if store else ""
        hint = f"; did you mean {_either(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"no game {game_id!r} in the store{where}{hint}")


def _either(names: tuple[str, ...]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


class GameConflictError(LedgerError, ValueError):
    """A different record with the same ``game_id`` is already stored, or a
    ``game_started`` names a game that exists (HTTP 409).

    ``message`` replaces the default wording ("already stored with different
    events") when given (a :class:`~ledger.texts.Message`, or English).
    """

    def __init__(self, game_id: str, detail: str, *, message: str | Message | None = None) -> None:
        self.game_id = game_id
        self.detail = detail
        if message is None:
            message = f"game {game_id!r} is already stored with different events ({detail}); refused"
        self.msg = message if isinstance(message, Message) else Message.of(message, ())
        super().__init__(str(self.msg))


def conflict_message(game_id: str, stored: int, mine: int, diff: int, line: int | None) -> Message:
    """A :class:`GameConflictError`'s words for a record that differs from the
    stored game: ``stored`` events stored, ``mine`` in the record, the first
    difference at position ``diff`` (file line ``line``, when known)."""
    if line is None:
        return Message(
            N_(
                "game %(game)s is already stored with different events (%(stored)s events stored, %(mine)s in "
                "this record, first difference at position %(pos)s); refused"
            ),
            game=repr(game_id),
            stored=stored,
            mine=mine,
            pos=diff,
        )
    return Message(
        N_(
            "game %(game)s is already stored with different events (%(stored)s events stored, %(mine)s in "
            "this record, first difference at position %(pos)s, line %(line)s); refused"
        ),
        game=repr(game_id),
        stored=stored,
        mine=mine,
        pos=diff,
        line=line,
    )


class PositionError(LedgerError, IndexError):
    """A position outside the game's events (:meth:`ledger.replay.Replayer.state_at`)."""


class ConcurrentAppendError(LedgerError, RuntimeError):
    """The writer's position is not the game's next one: another writer
    stored events first, or the writer's ``expected`` position is stale
    (live recording; HTTP 409).

    ``position`` is the position this writer tried to fill, ``length`` the
    number of events the game has now (its next position), when known.
    Re-read the game and retry at ``length``.
    """

    def __init__(self, game_id: str, position: int, *, length: int | None = None) -> None:
        self.game_id = game_id
        self.position = position
        self.length = length
        if length is not None and position >= length:
            text = (
                f"game {game_id!r}: position {position} is not the next one: the game has {length} "
                f"event{'s' if length != 1 else ''}; reload and retry"
            )
        else:
            now = f" (the game has {length} events)" if length is not None else ""
            text = f"game {game_id!r}: position {position} was written by another writer first{now}; reload and retry"
        super().__init__(text)


class RuleViolationError(LedgerError, ValueError):
    """A record refused under ``import --strict`` because it breaks a rule.

    ``finding`` is the first violation (a :class:`ledger.state.Finding`),
    ``count`` how many there are; ``line``/``path`` locate it in the file.
    """

    def __init__(self, finding: Finding, count: int, *, line: int | None = None, path: str | None = None) -> None:
        self.finding = finding
        self.count = count
        self.line = line
        self.path = path
        where = (
            f"{path}:{line}"
            if path and line is not None
            else (f"line {line}" if line is not None else f"position {finding.position}")
        )
        more = f" (and {count - 1} more)" if count > 1 else ""
        super().__init__(f"{where}: {finding.rule}: {finding.message}{more}; refused by --strict")
