"""What a ruling does to a tournament (issue 25; TOURNAMENT.md "The record"): MP, VP, places, band edges.

:func:`ruling_impact` takes the tournament's state, the results of the
stored games, and one game's :class:`~ledger.tournament.results.GameResult`
before and after a ruling (any ``penalty_assessed`` or ``position_restored``:
during the game or after ``game_ended``, FORMAT.md "Rulings after the
game"), and says

- the game's totals as adjudicated before and after (its MP, side 0 = A),
- the round's VP of both entrants before and after (None while the game is
  playing: an unfinished game counts for nothing),
- each entrant whose place in the standings changed (the standings after
  the last round paired, :func:`~ledger.tournament.standings.standings`),
- the *band edges*: for each entrant, when ``step`` MP more for it
  (default 5, Burraco's scoring step) would give the round other VP
  ("5 MP more for p3 would be 12–8, not 11–9").

:meth:`RulingImpact.messages` gives it as :class:`Message` (msgid and
parameters: English is ``msgid % params``; :meth:`Message.text` renders it in
the language of a gettext translations object, places as ordinals of that
language: 3rd, 3°). Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from gettext import NullTranslations
from typing import Any

from ledger.errors import RecordError
from ledger.events import Event, GameStarted, PenaltyAssessed
from ledger.i18n import C_, N_
from ledger.replay import replay
from ledger.state import TableState
from ledger.tournament.results import GameResult, result_of
from ledger.tournament.standings import standings
from ledger.tournament.state import TournamentState
from ledger.tournament.vp import Number, score_round

#: the smallest change of a Burraco score (MP come in steps of 5)
STEP = 5

_ORDINALS = {1: N_("%(n)sst"), 2: N_("%(n)snd"), 3: N_("%(n)srd")}

#: a place with its preposition ("from 3rd"; Italian "dal 3°"): the param of
#: :class:`Message` it renders, with its msgid; the Italian with an elided
#: article ("dall'8°") is the msgid in the context :data:`ELIDED`
FROM_PLACE = N_("from %(place)s")
TO_PLACE = N_("to %(place)s")
#: the gettext context of a place whose Italian reading starts with a vowel
ELIDED = "place read with a vowel"
#: :data:`FROM_PLACE` and :data:`TO_PLACE` in the context :data:`ELIDED`, for the catalog
ELIDED_PLACES = (C_("place read with a vowel", "from %(place)s"), C_("place read with a vowel", "to %(place)s"))


def ordinal(n: int, tr: NullTranslations | None = None) -> str:
    """``n`` as an ordinal of ``tr``'s language: ``1st``, ``12th``, ``23rd`` (English), ``3°`` (Italian)."""
    last = n % 10 if n % 100 not in (11, 12, 13) else 0
    msgid = _ORDINALS.get(last, N_("%(n)sth"))
    return (tr.gettext(msgid) if tr is not None else msgid) % {"n": n}


def read_with_a_vowel(n: int) -> bool:
    """True when the Italian reading of ordinal ``n`` (n ≥ 1) starts with a vowel,
    so that an article before it elides: 8 (ottavo), 11 (undicesimo), 80–89
    (ottantesimo…), 800–899 (ottocentesimo…), and the same at the head of the
    thousands (8000 ottomillesimo, 11000 undicimillesimo); 1 (primo), 18
    (diciottesimo) and 1000 (millesimo) do not."""
    while n >= 1000:
        n //= 1000
    return n == 8 or n == 11 or 80 <= n <= 89 or 800 <= n <= 899


def place(n: int, phrase: str, tr: NullTranslations | None = None) -> str:
    """Place ``n`` with its preposition ``phrase`` (:data:`FROM_PLACE`,
    :data:`TO_PLACE`) in ``tr``'s language: ``from 8th``; Italian ``dal 5°``,
    ``dall'8°``, ``all'11°`` (the elided form from the context :data:`ELIDED`)."""
    shown = ordinal(n, tr)
    if tr is None:
        return phrase % {"place": shown}
    words = tr.pgettext(ELIDED, phrase) if read_with_a_vowel(n) else tr.gettext(phrase)
    return words % {"place": shown}


@dataclass(frozen=True)
class Message:
    """A sentence as data: ``msgid`` % ``params``; the params named in
    ``places`` are places, rendered with the preposition msgid it maps them
    to (:func:`place`)."""

    msgid: str
    params: Mapping[str, Any]
    places: Mapping[str, str] = field(default_factory=dict)

    def text(self, tr: NullTranslations | None = None) -> str:
        """The sentence in ``tr``'s language (English without one)."""
        params = {k: (place(v, self.places[k], tr) if k in self.places else v) for k, v in self.params.items()}
        return (tr.gettext(self.msgid) if tr is not None else self.msgid) % params

    @property
    def english(self) -> str:
        return self.text(None)


@dataclass(frozen=True)
class Move:
    """An entrant whose place changed: ``before`` and ``after`` (1 = first)."""

    entrant: str
    before: int
    after: int


@dataclass(frozen=True)
class Edge:
    """``mp`` more MP for ``entrant`` would make the round ``vp`` (A's, B's) instead of ``now``."""

    entrant: str
    mp: int
    vp: tuple[Number, Number]
    now: tuple[Number, Number]


@dataclass(frozen=True)
class RulingImpact:
    """What one ruling in game ``game_id`` (round ``round``, table ``table``, entrants A, B) changed."""

    tournament_id: str
    game_id: str
    round: int
    table: int
    entrants: tuple[str, str]
    unit: str
    mp_before: tuple[int, int]
    mp_after: tuple[int, int]
    vp_before: tuple[Number, Number] | None
    vp_after: tuple[Number, Number] | None
    moves: tuple[Move, ...]
    edges: tuple[Edge, ...]

    def to_json(self) -> dict[str, Any]:
        """The impact as JSON: MP, VP (null while playing), moves and edges."""
        return {
            "tournament_id": self.tournament_id,
            "game_id": self.game_id,
            "round": self.round,
            "table": self.table,
            "entrants": list(self.entrants),
            "mp_before": list(self.mp_before),
            "mp_after": list(self.mp_after),
            "vp_before": None if self.vp_before is None else list(self.vp_before),
            "vp_after": None if self.vp_after is None else list(self.vp_after),
            "moves": [{"entrant": m.entrant, "before": m.before, "after": m.after} for m in self.moves],
            "edges": [{"entrant": e.entrant, "mp": e.mp, "vp": list(e.vp), "now": list(e.now)} for e in self.edges],
        }

    def messages(self) -> list[Message]:
        """The impact as sentences: totals, VP, each move (or that no place changed), each edge."""
        a, b = self.entrants
        base = {"tournament": self.tournament_id, "round": self.round, "table": self.table, "a": a, "b": b}
        out = [
            Message(
                N_("%(tournament)s round %(round)s, table %(table)s (%(a)s v %(b)s): MP %(before)s, now %(after)s"),
                {**base, "before": _pair(self.mp_before), "after": _pair(self.mp_after)},
            ),
            _vp_message(base, self.vp_before, self.vp_after),
        ]
        pair = self.unit == "pair"
        for m in self.moves:
            msgid = N_("Pair %(entrant)s %(before)s %(after)s")  # "from 3rd" "to 5th": place()
            if not pair:
                msgid = N_("Player %(entrant)s %(before)s %(after)s")
            out.append(
                Message(
                    msgid,
                    {"entrant": m.entrant, "before": m.before, "after": m.after},
                    {"before": FROM_PLACE, "after": TO_PLACE},
                )
            )
        if not self.moves:
            out.append(Message(N_("no place in the standings changed"), {}))
        for e in self.edges:
            out.append(
                Message(
                    N_("%(mp)s MP more for %(entrant)s would be %(vp)s, not %(now)s"),
                    {"mp": e.mp, "entrant": e.entrant, "vp": _pair(e.vp), "now": _pair(e.now)},
                )
            )
        return out


def _pair(values: tuple[Number, Number]) -> str:
    return "–".join(str(int(v)) if isinstance(v, float) and v.is_integer() else str(v) for v in values)


def _vp_message(
    base: dict[str, Any], before: tuple[Number, Number] | None, after: tuple[Number, Number] | None
) -> Message:
    if after is None:
        return Message(N_("the game is playing: it gives no VP yet"), base)
    if before is None:
        return Message(N_("VP %(a)s v %(b)s: %(after)s (the game was playing)"), {**base, "after": _pair(after)})
    if before == after:
        return Message(N_("VP %(a)s v %(b)s: %(after)s, unchanged"), {**base, "after": _pair(after)})
    return Message(
        N_("VP %(a)s v %(b)s: %(before)s, now %(after)s"), {**base, "before": _pair(before), "after": _pair(after)}
    )


def band_edges(
    state: TournamentState, entrants: tuple[str, str], game: GameResult, step: int = STEP
) -> tuple[Edge, ...]:
    """For each entrant (A, B), an :class:`Edge` when ``step`` MP more for it would change
    the round's VP (points under ``match`` scoring); none for a game not finished."""
    if not game.finished:
        return ()
    mp_a, mp_b = game.mp
    scoring = state.started.scoring
    now = score_round(scoring, mp_a, mp_b)
    out = []
    for side, entrant in enumerate(entrants):
        other = score_round(scoring, mp_a + (step if side == 0 else 0), mp_b + (step if side == 1 else 0))
        if other != now:
            out.append(Edge(entrant, step, other, now))
    return tuple(out)


def ruling_impact(
    state: TournamentState,
    results: Mapping[str, GameResult],
    before: GameResult,
    after: GameResult,
    step: int = STEP,
) -> RulingImpact | None:
    """What the ruling that made ``before`` into ``after`` (one game's results) does to the
    tournament; None when no round of ``state`` names the game. ``results``: the other
    stored games (``{game_id: GameResult}``; the game's own entry is replaced)."""
    where = state.games.get(after.game_id)
    if where is None:
        return None
    rnd, number = where
    table = next(t for t in state.rounds[rnd].tables if t.table == number)
    a, b = table.entrants
    old = standings(state, {**results, after.game_id: before})
    new = standings(state, {**results, after.game_id: after})
    moves = tuple(
        Move(ln.entrant, p, ln.place) for ln in new.lines if (p := old.place_of(ln.entrant)) not in (None, ln.place)
    )
    pairs = any(len(e.players) == 2 for e in state.entrants.values())
    return RulingImpact(
        tournament_id=state.tournament_id,
        game_id=after.game_id,
        round=rnd,
        table=number,
        entrants=(a, b),
        unit="pair" if pairs else "player",
        mp_before=before.mp,
        mp_after=after.mp,
        vp_before=score_round(state.started.scoring, *before.mp) if before.finished else None,
        vp_after=score_round(state.started.scoring, *after.mp) if after.finished else None,
        moves=tuple(sorted(moves, key=lambda m: (m.before, m.entrant))),
        edges=band_edges(state, (a, b), after, step),
    )


def without(events: Sequence[Event], position: int) -> TableState | None:
    """The game's final table had the ruling at ``position`` not been made: the record
    replayed without that event (None when the rest does not replay, e.g. a rewind's)."""
    try:
        return replay([e for i, e in enumerate(events) if i != position])
    except RecordError:
        return None


def game_impacts(
    state: TournamentState, results: Mapping[str, GameResult], events: Sequence[Event], step: int = STEP
) -> list[tuple[int, RulingImpact]]:
    """``(position, impact)`` of each ``penalty_assessed`` of a game of ``state`` (during the
    game or after ``game_ended``): the game's final result against the same record without
    that ruling, the other games as in ``results``. Empty for a game of no round."""
    first = events[0] if events else None
    if not isinstance(first, GameStarted) or first.game_id not in state.games:
        return []
    final = result_of(first, replay(events))
    out = []
    for pos, e in enumerate(events):
        if not isinstance(e, PenaltyAssessed):
            continue
        other = without(events, pos)
        impact = None if other is None else ruling_impact(state, results, result_of(first, other), final, step)
        if impact is not None:
            out.append((pos, impact))
    return out


__all__ = [
    "game_impacts",
    "without",
    "STEP",
    "Edge",
    "Message",
    "Move",
    "RulingImpact",
    "band_edges",
    "ordinal",
    "place",
    "read_with_a_vowel",
    "ruling_impact",
]
