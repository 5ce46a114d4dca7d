"""How hands and games end: scoring, claimed scores, referees' rulings.

:class:`OutcomeRules`, the fourth layer of :class:`~ledger.variants.base.Rules`
(on :class:`~ledger.variants.melding.MeldingRules`, whose helpers it uses as
its own: ``reject``, ``flag``, ``check_seat``, ``in_hand``, ``end_turn``),
applies ``hand_ended`` (``went_out`` checks, the variant's ``score_hand``,
``ALL-SCORE-1`` against a claimed sheet), ``penalty_assessed``,
``position_restored`` and ``game_ended``, says when a hand and the game are
over (``hand_over``, ``game_end_reason``) and decides the winner.
"""

from __future__ import annotations

from typing import ClassVar

from ledger.cards import UNKNOWN, pretty_list
from ledger.events import ClaimedScore, GameEnded, HandEnded, PenaltyAssessed, PositionRestored
from ledger.rule_ids import RULE_IDS
from ledger.state import HandResult, Penalty, SideScore, TableState, replace
from ledger.texts import N_, Message
from ledger.variants.melding import MeldingRules


class OutcomeRules(MeldingRules):
    """Hand ends, scores, claims, penalties, restorations, game end: the
    layer of :class:`~ledger.variants.base.Rules` between
    :class:`~ledger.variants.melding.MeldingRules` and the dispatch."""

    #: the variant's hands may end with ``hand_ended`` reason ``knocked`` (Gin)
    knocking: ClassVar[bool] = False

    def on_hand_ended(self, state: TableState, e: HandEnded, pos: int) -> TableState:
        self.in_hand(state, e, pos)
        if e.reason == "knocked" and not self.knocking:
            raise self.reject(
                "REC-FORMAT", f"a {self.variant} hand does not end by a knock (that is Gin)", pos, "reason"
            )
        if e.seat is not None:
            self.check_seat(state, e.seat, pos)
        if e.reason == "went_out":
            self.check_went_out(state, e, pos)
        if state.phase == "play":
            state = self.end_turn(state, pos)
        if self.partial and e.reason == "went_out" and e.seat is not None and state.hands[e.seat]:
            # a named seat that went out holds nothing (its unknown cards were played unrecorded):
            # its count is known (check_went_out let only unknown cards stand there)
            state = replace(state, hands=tuple(() if s == e.seat else h for s, h in enumerate(state.hands)))
        claimed = None
        if e.claimed is not None:
            claimed = tuple((self.claim_side(state, c, pos), c.points) for c in e.claimed)
        unknown = self.unknown_sides(state, e) if self.partial else frozenset()
        if unknown:
            state, scores = self.scores_as_claimed(state, e, pos, claimed, unknown)
        else:
            scores = self.score_hand(state, e, pos)
        result = HandResult(state.hand, pos, e.reason, e.seat, scores, claimed)
        totals = list(state.totals)
        for s in scores:
            totals[s.side] += s.points
        state = replace(state, results=state.results.appended(result), phase="over", turn=None, totals=tuple(totals))
        # a side scored as claimed has no ALL-SCORE-1 (FORMAT.md, "Partial records"); the others are checked
        checked = tuple((side, points) for side, points in claimed or () if side not in unknown)
        if checked:
            state = self.check_claim(
                state, pos, checked, self.hand_points(state, state.hand), Message(N_("hand %(hand)s"), hand=state.hand)
            )
        return self.after_hand(state, pos)

    def unknown_sides(self, state: TableState, e: HandEnded) -> frozenset[int]:
        """Partial records: the sides whose count for the hand ``e`` ends
        depends on an unknown card (``??``); they score as claimed, every
        other side is computed (FORMAT.md, "Partial records").

        Default, for a variant where each side's count is its own (Burraco):
        the sides one of whose :meth:`counted_hands` holds ``??`` (a named
        seat that went out holds none: :meth:`on_hand_ended` empties its
        hand). When the hand went out and the record does not say who did
        (no ``seat``, as in a score-only game), any side's count may hang on
        them, so every side is affected as soon as one counted hand holds
        ``??``. A variant whose count of one side
        reads another's hand, or reads no hand at all, overrides this."""
        hands = self.counted_hands(state)
        sides = frozenset(state.sides[seat] for seat, held in enumerate(hands) if UNKNOWN in held)
        if sides and going_out_unseen(e):
            return frozenset(range(state.n_sides))
        return sides

    def counted_hands(self, state: TableState) -> tuple[tuple[str, ...], ...]:
        """The hands the hand's scoring counts (Burraco: as they stood at the stock's end)."""
        return state.hands

    def without_hands(self, state: TableState, seats: frozenset[int]) -> TableState:
        """``state`` with the :meth:`counted_hands` of ``seats`` emptied:
        what :meth:`score_hand` reads to compute the sides whose count is
        known while others' hands hold unknown cards (partial records)."""
        return replace(state, hands=tuple(() if s in seats else h for s, h in enumerate(state.hands)))

    def scores_as_claimed(
        self,
        state: TableState,
        e: HandEnded,
        pos: int,
        claimed: tuple[tuple[int, int], ...] | None,
        unknown: frozenset[int],
    ) -> tuple[TableState, tuple[SideScore, ...]]:
        """Partial records, a hand where the count of the ``unknown`` sides
        depends on unknown cards: each of them scores its ``claimed`` points
        (``as_claimed``; the claim includes the side's penalties assessed in
        the hand so far, as in a full record: :func:`as_claimed`); one with
        no claim scores nothing (``unscored``) and the hand is
        ``ALL-SCORE-2``, naming those sides only (FORMAT.md, "Partial
        records"; RULES.md ALL-SCORE-2). Every other side is computed by
        :meth:`score_hand`, with the hands holding unknown cards emptied
        (:meth:`without_hands`: by :meth:`unknown_sides`, no other side's
        count reads them)."""
        points = dict(claimed or ())
        # a claim counts the side's penalties assessed in the hand so far (as check_claim reads a
        # claim against hand_points): the hand's own points are the claim less them
        assessed: dict[int, int] = {}
        for p in reversed(state.penalties):
            if p.hand < state.hand:
                break
            if p.hand == state.hand:
                assessed[p.side] = assessed.get(p.side, 0) + p.points
        missing = [side for side in sorted(unknown) if side not in points]
        if missing:
            who = tuple(state.side_message(side) for side in missing)
            msg = N_(
                "hand %(hand)s cannot be scored: the count of %(sides)s depends on unknown cards"
                " and no points were claimed"
            )
            state = self.flag(state, pos, None, "ALL-SCORE-2", msg, hand=state.hand, sides=who)
        computed: dict[int, SideScore] = {}
        if len(unknown) < state.n_sides:
            hidden = frozenset(seat for seat, held in enumerate(self.counted_hands(state)) if UNKNOWN in held)
            computed = {s.side: s for s in self.score_hand(self.without_hands(state, hidden), e, pos)}
        scores = tuple(
            computed[side]
            if side not in unknown
            else as_claimed(side, points[side], assessed.get(side, 0))
            if side in points
            else SideScore(side, 0, {}, unscored=True)
            for side in range(state.n_sides)
        )
        return state, scores

    def check_went_out(self, state: TableState, e: HandEnded, pos: int) -> None:
        """A ``went_out`` must name the seat, and that seat's hand must be
        empty: anything else cannot have happened (``REC-FORMAT``,
        ``REC-WHERE``). In a partial record the seat may be unknown, and a
        hand of unknown cards (play not recorded) may go out."""
        if e.seat is None and self.partial:
            return
        if e.seat is None:
            raise self.reject("REC-FORMAT", N_("hand_ended went_out must name the seat that went out"), pos, "seat")
        held = state.hands[e.seat]
        if held and not (self.partial and all(c == UNKNOWN for c in held)):
            raise self.reject(
                "REC-WHERE",
                f"{state.name(e.seat)} cannot have gone out holding {len(held)} cards ({pretty_list(held)})",
                pos,
                "seat",
            )

    def after_hand(self, state: TableState, pos: int) -> TableState:
        """Hook after a hand is scored (elimination)."""
        return state

    def score_hand(self, state: TableState, e: HandEnded, pos: int) -> tuple[SideScore, ...]:
        """Each side's points for the hand that ends, as played, with the breakdown."""
        raise NotImplementedError

    def team_side(self, state: TableState, team: int, pos: int, field: str) -> int:
        """The side of a ``team`` named by a claim or a penalty; raises
        ``REC-REF`` unless the game has partnerships (or its players name
        teams) and the team is one of its sides."""
        partnerships = state.n_sides < state.n_seats or any(p.team is not None for p in state.players)
        if not partnerships or team not in state.sides:
            raise self.reject("REC-REF", Message(N_("unknown team %(team)s"), team=team), pos, field)
        return team

    def claim_side(self, state: TableState, c: ClaimedScore, pos: int) -> int:
        """The side a claimed line names; raises ``REC-REF``."""
        if c.team is not None:
            return self.team_side(state, c.team, pos, "claimed")
        assert c.seat is not None
        self.check_seat(state, c.seat, pos, "claimed")
        return state.sides[c.seat]

    def hand_points(self, state: TableState, hand: int) -> dict[int, int]:
        """Adjudicated points per side in ``hand`` (penalties so far included).

        Results and penalties are in hand order, so only the log's tail is
        read (a game of many hands costs no more per hand)."""
        points: dict[int, int] = {}
        for r in reversed(state.results):
            if r.hand < hand:
                break
            if r.hand == hand:
                for s in r.scores:
                    points[s.side] = points.get(s.side, 0) + s.points
        for p in reversed(state.penalties):
            if p.hand < hand:
                break
            if p.hand == hand:
                points[p.side] = points.get(p.side, 0) + p.points
        return points

    def compute_totals(self, state: TableState) -> tuple[int, ...]:
        """Running totals per side: all hands' points plus all penalties (the
        fold keeps ``state.totals`` equal to this, step by step)."""
        totals = [0] * state.n_sides
        for r in state.results:
            for s in r.scores:
                totals[s.side] += s.points
        for p in state.penalties:
            totals[p.side] += p.points
        return tuple(totals)

    def check_claim(
        self,
        state: TableState,
        pos: int,
        claimed: tuple[tuple[int, int], ...],
        computed: dict[int, int],
        what: Message,
        final: bool = False,
    ) -> TableState:
        """``ALL-SCORE-1`` for each claimed line that differs from the
        computation (``final``: the game's totals, explained by
        :meth:`explain_total`, else a hand's, by :meth:`explain`)."""
        for side, points in claimed:
            mine = computed.get(side, 0)
            if mine != points:
                seat = side if state.n_sides == state.n_seats else None
                state = self.flag(
                    state,
                    pos,
                    seat,
                    "ALL-SCORE-1",
                    N_(
                        "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                        "%(difference)s)%(explain)s"
                    ),
                    scored=what,
                    claimed=points,
                    side=state.side_message(side),
                    computed=mine,
                    difference=f"{points - mine:+d}",
                    explain=self.explain_total(state, side) if final else self.explain(state, side),
                )
        return state

    def explain(self, state: TableState, side: int) -> str | Message:
        """The computed breakdown of ``side``'s last hand, for a score message:
        ``; computed as melds +55, hand -25`` (each component's name a
        message: its key in English, its words in Italian), or ``""``."""
        if not state.results:
            return ""
        for s in state.results[-1].scores:
            if s.side == side and s.breakdown:
                parts = tuple(
                    Message("%(part)s %(points)s", part=Message(k), points=f"{v:+d}")
                    for k, v in s.breakdown.items()
                    if v
                )
                return Message(N_("; computed as %(parts)s"), parts=parts) if parts else ""
        return ""

    def explain_total(self, state: TableState, side: int) -> str | Message:
        """The computed final total of ``side``, for the final totals'
        message: ``; computed as hands +250, penalties -50`` when penalties
        count in it, else ``""`` (the total is then the sum of its hands'
        points, as the score sheet lists them; not the last hand's breakdown)."""
        pen = sum(p.points for p in state.penalties if p.side == side)
        if not pen:
            return ""
        parts = (
            Message("%(part)s %(points)s", part=Message(N_("hands")), points=f"{state.totals[side] - pen:+d}"),
            Message("%(part)s %(points)s", part=Message(N_("penalties")), points=f"{pen:+d}"),
        )
        return Message(N_("; computed as %(parts)s"), parts=parts)

    def check_finding(self, state: TableState, finding: int | None, pos: int) -> None:
        """A ruling's ``finding`` must name an earlier position that carries
        a finding (``REC-REF``: an unknown position, FORMAT.md "Events")."""
        if finding is None:
            return
        if finding >= pos:
            raise self.reject(
                "REC-REF",
                Message(
                    N_("finding %(finding)s is not an earlier position (this ruling is position %(pos)s)"),
                    finding=finding,
                    pos=pos,
                ),
                pos,
                "finding",
            )
        if not any(f.position == finding for f in state.findings):
            raise self.reject(
                "REC-REF", Message(N_("position %(pos)s carries no finding to rule on"), pos=finding), pos, "finding"
            )

    def on_penalty_assessed(self, state: TableState, e: PenaltyAssessed, pos: int) -> TableState:
        self.check_finding(state, e.finding, pos)
        if e.rule not in RULE_IDS:
            raise self.reject(
                "REC-REF",
                Message(N_("unknown rule id %(rule)s: a penalty cites a RULES.md rule"), rule=repr(e.rule)),
                pos,
                "rule",
            )
        if e.seat is not None:
            self.check_seat(state, e.seat, pos)
            side = state.sides[e.seat]
        else:
            assert e.team is not None
            side = self.team_side(state, e.team, pos, "team")
        pen = Penalty(pos, state.hand, side, e.points, e.rule)
        totals = list(state.totals)
        totals[side] += e.points
        return replace(state, penalties=state.penalties.appended(pen), totals=tuple(totals))

    def on_position_restored(self, state: TableState, e: PositionRestored, pos: int) -> TableState:
        if state.phase == "setup":
            raise self.reject("REC-ORDER", "position_restored before the first hand_dealt", pos, "type")
        self.check_finding(state, e.finding, pos)
        target = state.history
        while target is not None and target.position > e.target:
            target = target.history
        if target is None or target.position != e.target or target.hand != state.hand:
            raise self.reject(
                "REC-REF",
                Message(
                    N_("target %(target)s is not a position of the current line of play in hand %(hand)s"),
                    target=e.target,
                    hand=state.hand,
                ),
                pos,
                "target",
            )
        # the totals: every penalty stays, a hand scored after the target no longer counts
        totals = list(state.totals)
        for r in state.results[len(target.results) :]:
            for s in r.scores:
                totals[s.side] -= s.points
        return replace(
            target,
            position=pos,
            findings=state.findings,
            penalties=state.penalties,
            history=target,
            totals=tuple(totals),
        )

    def on_game_ended(self, state: TableState, e: GameEnded, pos: int) -> TableState:
        if state.phase in ("draw", "play"):
            raise self.reject(
                "REC-ORDER",
                Message(N_("%(type)s while hand %(hand)s has not ended"), type="game_ended", hand=state.hand),
                pos,
                "type",
            )
        state = replace(state, phase="ended", ended=e.reason, turn=None)
        if e.claimed is not None:
            claimed = tuple((self.claim_side(state, c, pos), c.points) for c in e.claimed)
            # a side with an unscored hand (ALL-SCORE-2, partial records) has no computed total to compare
            unscored = {s.side for r in state.results for s in r.scores if s.unscored}
            checked = tuple((side, points) for side, points in claimed if side not in unscored)
            totals = dict(enumerate(state.totals))
            state = self.check_claim(state, pos, checked, totals, Message(N_("final totals")), final=True)
        return state

    # --- the end of a hand, the end of a game --------------------------------------
    def hand_over(self, state: TableState) -> bool:
        """True when the current hand is over: ``hand_ended`` or ``game_ended``
        applied (phase ``over`` / ``ended``). A variant whose hand can end by
        its rules before the record says so overrides this."""
        return state.phase in ("over", "ended")

    def game_end_reason(self, state: TableState) -> str | None:
        """The ``game_ended`` reason the variant's end condition calls for at
        ``state``, or None while the game goes on. Judged only between hands
        (phase ``over``: after ``hand_ended``, penalties included) and after
        ``game_ended`` (the stored reason). Default: none; each variant
        says between hands (phase ``over``) when its game is over (for a
        target of points: :func:`target_reached`)."""
        if state.phase == "ended":
            return state.ended
        return None

    def game_over(self, state: TableState) -> bool:
        """True once the game is over at ``state`` (:meth:`game_end_reason`)."""
        return self.game_end_reason(state) is not None

    # --- the end of a game -------------------------------------------------------
    def winner(self, state: TableState) -> int | None:
        """The winning side once the game has ended (highest total by default)."""
        if not state.totals or state.ended is None:
            return None
        best = max(state.totals)
        leaders = [i for i, t in enumerate(state.totals) if t == best]
        return leaders[0] if len(leaders) == 1 else None


def going_out_unseen(e: HandEnded) -> bool:
    """A ``went_out`` that does not say who went out (no ``seat``: a
    score-only game), so the winner is unknown. A named seat went out with
    an empty hand, whatever unknown cards the record left it (its play was
    not recorded: :meth:`OutcomeRules.on_hand_ended` empties it).

    >>> [going_out_unseen(HandEnded(reason="went_out", seat=k)) for k in (None, 0, 1)]
    [True, False, False]
    >>> going_out_unseen(HandEnded(reason="stock_exhausted"))
    False
    """
    return e.reason == "went_out" and e.seat is None


def as_claimed(side: int, claim: int, assessed: int) -> SideScore:
    """A side's hand scored as claimed (partial records): the ``claim``
    includes the penalties ``assessed`` to the side in the hand so far (a
    claim in a full record is read so: ALL-SCORE-1 compares it with the
    hand's points plus those penalties), so the hand's own points are the
    claim less them, and the breakdown says so (``penalty_in_claim``); with
    the penalties the side's total for the hand is its claim.

    >>> as_claimed(1, -235, -50)
    SideScore(side=1, points=-185, breakdown={'claimed': -235, 'penalty_in_claim': 50}, as_claimed=True, unscored=False)
    >>> as_claimed(0, 68, 0).breakdown
    {'claimed': 68}
    """
    breakdown = {"claimed": claim}
    if assessed:
        breakdown["penalty_in_claim"] = -assessed
    return SideScore(side, claim - assessed, breakdown, as_claimed=True)


def target_reached(state: TableState, target: int) -> str | None:
    """``"target_reached"`` when a side's total is at or above ``target``
    (0: no target), else None: the end condition of a game played to a
    number of points (RULES.md: Ramino, Gin).

    >>> from ledger.variants.ramino.rules import RaminoRules
    >>> s = TableState(rules=RaminoRules(), game_id="g", players=(), sides=(), totals=(40, 100))
    >>> target_reached(s, 100), target_reached(s, 101), target_reached(s, 0)
    ('target_reached', None, None)
    """
    if target and state.totals and max(state.totals) >= target:
        return "target_reached"
    return None
