"""Melds, lay-offs and joker swaps: the third layer of the rules object.

:class:`MeldingRules` applies ``meld_laid``, ``meld_extended`` and
``joker_swapped`` (the cards leave the hand, ``REC-WHERE``; a new meld id,
``REC-REF``; a lay-off without ``result`` must have one legal order,
``REC-FORMAT``) and judges the melds (``ALL-MELD-1/2``, or the variant's own
ids for a fault, :meth:`MeldingRules.meld_rule_ids`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from ledger.cards import pretty_list
from ledger.events import JokerSwapped, MeldExtended, MeldLaid
from ledger.melds import FAULTS, MeldInfo, analyze, layoff_candidates
from ledger.state import Meld, TableState, replace
from ledger.texts import N_, Message, Param, placeholders
from ledger.variants.core import meld_id_used
from ledger.variants.turns import TurnRules


class MeldingRules(TurnRules):
    """Meld handling and its hooks (``check_meld``, ``check_layoff``,
    ``check_swap``, ``after_meld``), between
    :class:`~ledger.variants.turns.TurnRules` and
    :class:`~ledger.variants.outcome.OutcomeRules`."""

    # --- meld hooks -----------------------------------------------------------------
    def meld_rule_ids(self) -> dict[str, str]:
        """Fault code -> rule id. Default: wild faults ``ALL-MELD-2``, the rest ``ALL-MELD-1``."""
        return {"too_many_wilds": "ALL-MELD-2", "wild_inside": "ALL-MELD-2"}

    def meld_findings(
        self, state: TableState, pos: int, seat: int, info: MeldInfo, msgid: str, **params: Param
    ) -> TableState:
        """Flag each fault of a meld once, by the variant's rule id for it;
        ``msgid`` words it with any of ``%(cards)s`` (the meld's cards),
        ``%(fault)s`` (:data:`~ledger.melds.FAULTS`) and ``params``
        (``meld=`` the meld's id)."""
        names = placeholders(msgid)
        if not info.faults:
            return state
        ids = self.meld_rule_ids()
        rules = [ids.get(fault, "ALL-MELD-1") for fault in info.faults]
        own = any(
            not r.startswith("ALL-") for r in rules
        )  # RULES.md: the variant's id instead of ALL-MELD-1/2, never both
        seen: set[str] = set()
        for fault, rule in zip(info.faults, rules):
            if rule in seen or (own and rule.startswith("ALL-")):
                continue
            seen.add(rule)
            words = {"cards": pretty_list(info.cards), "fault": Message(FAULTS[fault]), **params}
            state = self.flag(state, pos, seat, rule, msgid, **{k: v for k, v in words.items() if k in names})
        return state

    def check_meld(self, state: TableState, pos: int, seat: int, meld: Meld, event: MeldLaid) -> TableState:
        """Hook after a new meld is on the table: validity findings by default."""
        return self.meld_findings(state, pos, seat, meld.info, N_("meld %(meld)s %(cards)s: %(fault)s"), meld=meld.id)

    def layoff_options(self, meld: Meld, cards: Sequence[str]) -> list[tuple[str, ...]]:
        """The legal card orders of ``meld`` after laying off ``cards``
        (:func:`~ledger.melds.layoff_candidates`); a variant whose wilds never
        move drops the orders that move one. Used to place a lay-off whose
        ``result`` the record does not give, and to judge whether a card could
        be laid off."""
        return layoff_candidates(meld.cards, tuple(cards), self._meld_rules)

    def check_layoff(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: MeldExtended
    ) -> TableState:
        """Hook after a lay-off: validity of the meld afterwards by default."""
        return self.meld_findings(
            state, pos, seat, after.info, N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"), meld=after.id
        )

    def check_swap(
        self, before: Meld, after: Meld, state: TableState, pos: int, seat: int, event: JokerSwapped
    ) -> TableState:
        """Hook after a joker swap (none in the base)."""
        return state

    # --- the fused paths of melds and lay-offs (``Rules._fast``; see ``TurnRules.fast_card_drawn``) ---
    #: the fused meld and lay-off paths stand for this class's ``on_meld_laid``, ``on_meld_extended``
    #: and ``act``: a class that overrides one of them says so again when, for the seat due in its
    #: play phase, its override adds nothing to the base's (Burraco's early play, Gin's knock)
    _meld_fused: ClassVar[bool] = True

    def fast_meld_laid(self, state: TableState, e: MeldLaid, pos: int) -> TableState | None:
        """``meld_laid`` by the seat due in its play phase: :meth:`on_meld_laid`'s
        work on the state before the event, the dispatch's copy folded into its
        first ``replace`` (the hooks run as there); None for the general handler."""
        if e.seat != state.turn or state.phase != "play":
            return None
        return self.lay_meld(state, e, pos, {"position": pos, "history": state})

    def fast_meld_extended(self, state: TableState, e: MeldExtended, pos: int) -> TableState | None:
        """``meld_extended`` by the seat due in its play phase, as :meth:`fast_meld_laid`."""
        if e.seat != state.turn or state.phase != "play":
            return None
        return self.lay_off(state, e, pos, {"position": pos, "history": state})

    def on_meld_laid(self, state: TableState, e: MeldLaid, pos: int) -> TableState:
        return self.lay_meld(self.act(state, e.seat, pos, "play", e), e, pos, {})

    def lay_meld(self, state: TableState, e: MeldLaid, pos: int, fresh: dict[str, Any]) -> TableState:
        """The meld ``e`` laid on ``state`` (the turn checked), ``fresh`` (the
        position and history of a fused path, or nothing) set with the cards' move."""
        if state.meld(e.meld) is not None:
            raise self.reject("REC-REF", meld_id_used(e.meld, state.hand), pos, "meld")
        hand = self.remove_from_hand(state, e.seat, e.cards, pos, "cards")
        info = analyze(e.cards, self._meld_rules)
        meld = Meld(e.meld, e.seat, state.sides[e.seat], tuple(e.cards), info, pos)
        before = state
        hands = list(state.hands)
        hands[e.seat] = hand
        state = replace(
            state, hands=tuple(hands), melds=state.melds + (meld,), turn_melds=state.turn_melds + (e.meld,), **fresh
        )
        state = self.check_meld(state, pos, e.seat, meld, e)
        if not state.opened[e.seat]:
            opened = list(state.opened)
            opened[e.seat] = True
            state = replace(state, opened=tuple(opened))
        return self.after_meld(before, state, pos, e.seat)

    def after_meld(self, before: TableState, state: TableState, pos: int, seat: int) -> TableState:
        """Hook after any meld or lay-off changed the seat's hand (pozzetto al volo)."""
        return state

    def find_meld(self, state: TableState, meld_id: str, pos: int) -> Meld:
        """The meld with that id in this hand; raises ``REC-REF``."""
        meld = state.meld(meld_id)
        if meld is None:
            raise self.reject(
                "REC-REF",
                Message(N_("no meld %(meld)s on the table in hand %(hand)s"), meld=repr(meld_id), hand=state.hand),
                pos,
                "meld",
            )
        return meld

    def replace_meld(self, state: TableState, meld: Meld) -> TableState:
        """``state`` with ``meld`` in place of the meld with its id."""
        return replace(state, melds=tuple(meld if m.id == meld.id else m for m in state.melds))

    def check_result(self, result: Sequence[str], expected: Counter[str], pos: int) -> None:
        """Raise ``REC-WHERE`` when ``result`` is not exactly the expected cards."""
        if Counter(result) != expected:
            raise self.reject(
                "REC-WHERE",
                f"result {pretty_list(result)} is not the meld's cards ({pretty_list(sorted(expected.elements()))})",
                pos,
                "result",
            )

    def on_meld_extended(self, state: TableState, e: MeldExtended, pos: int) -> TableState:
        return self.lay_off(self.act(state, e.seat, pos, "play", e), e, pos, {})

    def lay_off(self, state: TableState, e: MeldExtended, pos: int, fresh: dict[str, Any]) -> TableState:
        """The lay-off ``e`` on ``state`` (the turn checked), as :meth:`lay_meld`."""
        meld = self.find_meld(state, e.meld, pos)
        hand = self.remove_from_hand(state, e.seat, e.cards, pos, "cards")
        if e.result is not None:
            self.check_result(e.result, Counter(meld.cards) + Counter(e.cards), pos)
            cards = tuple(e.result)
        else:
            options = self.layoff_options(meld, e.cards)
            if len(options) > 1:
                shown = " or ".join(pretty_list(o) for o in options[:3])
                raise self.reject(
                    "REC-FORMAT",
                    f"ambiguous lay-off of {pretty_list(e.cards)} on meld {e.meld}: the record must give "
                    f"`result` ({shown})",
                    pos,
                    "result",
                )
            cards = options[0] if options else meld.cards + tuple(e.cards)
        after = replace(meld, cards=cards, info=analyze(cards, self._meld_rules))
        before = state
        hands = list(state.hands)
        hands[e.seat] = hand
        melds = state.melds
        i = melds.index(meld)  # meld ids are unique in a hand (on_meld_laid): as replace_meld
        melds = melds[:i] + (after,) + melds[i + 1 :]
        state = replace(state, hands=tuple(hands), melds=melds, turn_melds=state.turn_melds + (e.meld,), **fresh)
        state = self.check_layoff(meld, after, state, pos, e.seat, e)
        return self.after_meld(before, state, pos, e.seat)

    def on_joker_swapped(self, state: TableState, e: JokerSwapped, pos: int) -> TableState:
        state = self.act(state, e.seat, pos, "play", e)
        meld = self.find_meld(state, e.meld, pos)
        hand = self.remove_from_hand(state, e.seat, (e.card,), pos, "card")
        if e.joker not in meld.cards:
            raise self.reject(
                "REC-WHERE", Message(N_("meld %(meld)s holds no %(joker)s"), meld=e.meld, joker=e.joker), pos, "joker"
            )
        if e.result is not None:
            self.check_result(e.result, Counter(meld.cards) - Counter((e.joker,)) + Counter((e.card,)), pos)
            cards = tuple(e.result)
        else:
            i = meld.cards.index(e.joker)
            cards = meld.cards[:i] + (e.card,) + meld.cards[i + 1 :]
        after = replace(meld, cards=cards, info=analyze(cards, self._meld_rules))
        before = state
        state = self.set_hand(state, e.seat, hand + (e.joker,))
        state = self.replace_meld(state, after)
        state = replace(state, turn_melds=state.turn_melds + (e.meld,))
        state = self.check_swap(meld, after, state, pos, e.seat, e)
        return self.after_meld(before, state, pos, e.seat)
