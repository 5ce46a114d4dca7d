"""What Gin Rummy shows (RULES.md "Gin Rummy"): every visible seat's best
deadwood (:mod:`ledger.variants.gin.deadwood`) and whether it could knock;
after a knock, each seat's counted deadwood."""

from __future__ import annotations

import msgspec

from ledger.cards import UNKNOWN, pretty
from ledger.state import TableState
from ledger.texts import N_, Message, Param
from ledger.variants.gin.deadwood import best_after_discard, best_arrangement
from ledger.variants.gin.rules import GinRules
from ledger.variants.gin.state import GinExtra
from ledger.variants.presentation import TableNotes, VariantPresentation

DEADWOOD = N_("%(who)s: deadwood %(n)s")
KNOCKED = N_("%(who)s: deadwood %(n)s (knocked)")
COULD_KNOCK = N_("%(who)s: best deadwood %(n)s, could knock")
COULD_KNOCK_DISCARDING = N_("%(who)s: best deadwood %(n)s, could knock (discarding %(card)s)")
COULD_NOT_KNOCK = N_("%(who)s: best deadwood %(n)s, could not knock")


class DeadwoodRow(msgspec.Struct, frozen=True):
    """One seat's deadwood: ``best`` the least it can reach (after a knock:
    the counted deadwood), ``could_knock`` (None after a knock), ``discard``
    the discard that reaches it (11 cards held), ``melds`` the arrangement."""

    seat: int
    best: int
    could_knock: bool | None
    discard: str | None
    melds: list[list[str]]


class DeadwoodNotes(TableNotes, frozen=True):
    """``deadwood``: a row per visible seat; ``notes``: the same as messages
    (:mod:`ledger.texts`; English lines in the JSON view)."""

    deadwood: list[DeadwoodRow]
    notes: list[Message]


class GinPresentation(VariantPresentation):
    """Gin Rummy's additions to the views."""

    rules: GinRules

    def table_notes(self, state: TableState, pov: int | None) -> DeadwoodNotes:
        """Every visible seat's best deadwood; after a knock each seat's counted deadwood instead."""
        x = state.extra if isinstance(state.extra, GinExtra) else None
        rows: list[DeadwoodRow] = []
        notes: list[Message] = []
        if x is None or state.phase in ("setup",):
            return DeadwoodNotes(rows, notes)
        limit = self.rules.knock_limit(state)
        for seat in range(state.n_seats):
            hand = state.hands[seat]
            if (pov is not None and pov != seat) or UNKNOWN in hand:  # partial records: an unknown hand has no notes
                continue
            if x.knocker is not None:
                dw = self.rules.deadwood_of(state, seat)
                rows.append(DeadwoodRow(seat, dw, None, None, []))
                notes.append(Message(KNOCKED if seat == x.knocker else DEADWOOD, who=state.name(seat), n=dw))
                continue
            discard = None
            if len(hand) > 10:
                choice = best_after_discard(hand)
                arr, discard = choice.arrangement, choice.discard
            else:
                arr = best_arrangement(hand)
            could = arr.deadwood_value <= limit
            rows.append(DeadwoodRow(seat, arr.deadwood_value, could, discard, [list(m) for m in arr.melds]))
            best: dict[str, Param] = {"who": state.name(seat), "n": arr.deadwood_value}
            if discard and could:
                notes.append(Message(COULD_KNOCK_DISCARDING, **best, card=pretty(discard)))
            else:
                notes.append(Message(COULD_KNOCK if could else COULD_NOT_KNOCK, **best))
        return DeadwoodNotes(rows, notes)
