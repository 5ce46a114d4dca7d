"""Every rule id's message(s) (issue 23): the one table of what each
RULES.md rule says when it is broken, as msgids (:mod:`ledger.texts`).

:data:`RULE_MESSAGES` maps a rule id to the msgids of its findings (the
``ALL-``/variant ids: what :meth:`ledger.variants.core.TableRules.flag` is
given) or of its refusals (the ``REC-`` ids: a :class:`ledger.errors.RecordError`'s
message). :data:`PIECES` are the msgids nested in those sentences (a meld's
fault, what a seat did, a clause). tests/test_rule_table.py walks both: each
rule of RULES.md has its messages here, each msgid the rules mark is here,
each has its Italian in the catalog, and a finding of each rule reads
differently in Italian. A new rule: its entry here, its check, its tests,
its Italian msgstr.
"""

from __future__ import annotations

from ledger.texts import N_

#: rule id -> the msgids its findings (or refusals) are worded with
RULE_MESSAGES: dict[str, tuple[str, ...]] = {
    "REC-FORMAT": (
        N_("%(type)s is a %(game)s event, not %(variant)s"),
        N_("%(variant)s has no pozzetti"),
        N_("bad card string %(text)s (expected e.g. 10H, AS, JK)"),
        N_("field %(name)s written twice"),
        N_("hand_ended went_out must name the seat that went out"),
        N_("cards_shown is an event of partial records only (game_started %(knowledge)s)"),
        N_("an unknown card ?? is allowed only in a partial record (game_started %(knowledge)s)"),
        N_("no events to append"),
        N_("no events: a record starts with game_started"),
        N_("not UTF-8 text (%(reason)s)"),
        N_("score sheet: no hand lines"),
    ),
    "REC-DECK": (
        N_("a copy of %(card)s too many: the deck holds %(num)s"),
        N_("the deal holds %(dealt)s cards; the deck has %(total)s"),
        N_("the deal holds more than the deck's %(total)s cards"),
    ),
    "REC-WHERE": (
        N_("%(who)s (seat %(seat)s) does not hold %(card)s"),
        N_("%(who)s drew %(card)s from an empty stock"),
        N_("meld %(meld)s holds no %(joker)s"),
        N_("nothing to restock: the discard pile holds only its top card"),
        N_("pozzetto %(num)s became the stock"),
        N_("pozzetto %(num)s was already taken by %(who)s"),
        N_("the discard pile is empty"),
        N_("the top of the stock is %(top)s, not %(card)s"),
    ),
    "REC-REF": (
        N_("%(num)s hands dealt for %(seats)s seats"),
        N_("%(num)s players: %(variant)s is played by %(allowed)s"),
        N_("%(num)s pozzetti (Burraco has 2)"),
        N_("finding %(finding)s is not an earlier position (this ruling is position %(pos)s)"),
        N_("game_started names game %(game)s, not %(other)s"),
        N_("meld id %(meld)s is already used in hand %(hand)s"),
        N_("no meld %(meld)s on the table in hand %(hand)s"),
        N_("position %(pos)s carries no finding to rule on"),
        N_("target %(target)s is not a position of the current line of play in hand %(hand)s"),
        N_("unknown rule id %(rule)s: a penalty cites a RULES.md rule"),
        N_("unknown seat %(seat)s (the table has seats 0–%(last)s)"),
        N_("unknown team %(team)s"),
    ),
    "REC-ORDER": (
        N_("%(type)s after game_ended"),
        N_("%(type)s after hand_ended (hand %(hand)s)"),
        N_("%(type)s before the first hand_dealt"),
        N_("%(type)s while hand %(hand)s has not ended"),
        N_("a record starts with game_started, not %(type)s"),
        N_("a second game_started"),
        N_("hand_ended reason knocked, but nobody knocked in this hand"),
        N_("stock_restocked while the stock still holds %(num)s cards"),
    ),
    "ALL-TURN-1": (
        N_("%(who)s discarded after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
        N_("%(who)s drew after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
        N_("%(who)s passed the upcard out of turn: it was %(due)s's turn"),
        N_("%(who)s played out of turn: it was %(due)s's turn"),
    ),
    "ALL-TURN-2": (
        N_("%(who)s discarded before drawing"),
        N_("%(who)s drew a second time in the same turn (%(event)s)"),
        N_("%(who)s melded or laid off before drawing"),
    ),
    "ALL-TURN-3": (N_("%(who)s's turn ended without a discard: %(next)s acted next"),),
    "ALL-MELD-1": (
        N_("meld %(meld)s %(cards)s: %(fault)s"),
        N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
        N_(
            "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it moved; a joker never "
            "moves once laid (the card it stands for takes its place only by a joker swap)"
        ),
        N_(
            "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it now stands for %(now)s; "
            "a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
        ),
    ),
    "ALL-MELD-2": (
        N_("meld %(meld)s %(cards)s: %(fault)s"),
        N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
    ),
    "ALL-DEAL-1": (
        N_("%(who)s dealt hand %(hand)s; the rotation called for %(due)s"),
        N_("%(who)s was dealt %(n)s cards instead of %(want)s"),
        N_("pozzetto %(pozzetto)s holds %(n)s cards instead of %(want)s"),
    ),
    "ALL-SCORE-1": (
        N_(
            "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference %(difference)s)%(explain)s"
        ),
    ),
    "ALL-SCORE-2": (
        N_(
            "hand %(hand)s cannot be scored: the count of %(sides)s depends on unknown cards and no points were claimed"
        ),
    ),
    "BUR-TURN-1": (
        N_("%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds"),
    ),
    "BUR-MELD-1": (
        N_("meld %(meld)s %(cards)s: %(fault)s"),
        N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
    ),
    "BUR-MELD-2": (N_("%(side)s holds two sets of the same rank (%(melds)s)"),),
    "BUR-MELD-3": (
        N_(
            "%(who)s took the wild %(joker)s back into the hand from meld %(meld)s (put in %(card)s): in Burraco a "
            "wild never leaves the table"
        ),
    ),
    "BUR-PILE-1": (N_("%(who)s discarded %(card)s, the single card just taken from the discard pile"),),
    "BUR-POZZ-1": (N_("%(who)s took pozzetto %(pozzetto)s, but %(faults)s"),),
    "BUR-POZZ-2": (N_("%(who)s played %(cards)s from the pozzetto taken with the discard before its next turn"),),
    "BUR-CLOSE-1": (N_("%(who)s went out without %(side)s's pozzetto"),),
    "BUR-CLOSE-2": (
        N_("%(who)s went out without a burraco for %(side)s"),
        N_("%(who)s went out without a clean burraco for %(side)s"),
        N_("%(who)s went out without a clean or semi-clean burraco for %(side)s"),
    ),
    "BUR-CLOSE-3": (
        N_("%(who)s went out by discarding a wild (%(card)s)"),
        N_("%(who)s went out by melding the last card instead of discarding it"),
    ),
    "BUR-STOCK-1": (
        N_(
            "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
            "last two stock cards): play after it does not count"
        ),
        N_("%(who)s drew %(card)s from the last two stock cards, which are never drawn"),
    ),
    "S40-OPEN-1": (N_("%(who)s opened with %(total)s points: %(items)s; %(need)s"),),
    "S40-OPEN-2": (
        N_("%(who)s laid off %(cards)s on meld %(meld)s before opening"),
        N_("%(who)s swapped the %(joker)s in meld %(meld)s before opening"),
    ),
    "S40-PILE-1": (N_("%(who)s took %(card)s from the discard pile without having opened and did not open with it"),),
    "S40-PILE-2": (
        N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),
        N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),
    ),
    "S40-MELD-1": (
        N_("meld %(meld)s %(cards)s: %(fault)s"),
        N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
    ),
    "S40-SWAP-1": (N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s"),),
    "S40-SWAP-2": (N_("%(who)s took a joker from a meld and did not meld it in the same turn"),),
    "S40-DISC-1": (N_("%(who)s discarded %(card)s, which could be laid off on meld %(meld)s (%(cards)s)"),),
    "S40-OUT-1": (
        N_("%(who)s went out without a discard"),
        N_("%(who)s went out without a discard: the last card went into a meld"),
    ),
    "R51-PILE-1": (N_("%(who)s took %(cards)s from the discard pile in its first turn"),),
    "R51-PILE-2": (N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),),
    "R51-OPEN-1": (N_("%(who)s melded in its first turn"),),
    "R51-OPEN-2": (N_("%(who)s opened with %(total)s points: %(items)s; %(need)s"),),
    "R51-OPEN-3": (
        N_("%(who)s laid off %(cards)s on meld %(meld)s before opening"),
        N_("%(who)s laid off %(cards)s on meld %(meld)s in its opening turn (only a joker swap is allowed)"),
        N_("%(who)s swapped the %(joker)s in meld %(meld)s before opening"),
    ),
    "R51-MELD-1": (
        N_("meld %(meld)s %(cards)s: %(fault)s"),
        N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
    ),
    "R51-SWAP-1": (N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s"),),
    "RAM-DISC-1": (N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),),
    "RAM-MELD-1": (N_("%(who)s laid %(n)s new melds in one turn; at most %(limit)s allowed"),),
    "RAM-OUT-1": (
        N_("%(who)s went out without a discard (preset %(preset)s requires one)"),
        N_("%(who)s went out without a discard (preset %(preset)s requires one): the last card went into a meld"),
    ),
    "GIN-KNOCK-1": (N_("%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s"),),
    "GIN-KNOCK-2": (
        N_("%(who)s's knock %(part)s: melds and deadwood must be exactly the ten cards held"),
        N_("declared meld %(meld)s %(cards)s: %(fault)s"),
    ),
    "GIN-LAY-1": (
        N_("%(who)s laid %(cards)s after knocking: the knocker's melds are those declared with the knock"),
        N_("%(who)s laid off %(cards)s on meld %(meld)s after %(knocker)s went gin"),
        N_("%(who)s laid off %(cards)s on meld %(meld)s: the knocker does not lay off"),
    ),
    "GIN-DISC-1": (N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),),
    "GIN-WALL-1": (
        N_(
            "%(play)s instead of knocking with the upcard taken at the wall: at the wall the upcard is taken only to "
            "knock; the hand is a 0–0 draw and later play does not count"
        ),
        N_(
            "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
            "(0–0); later play does not count"
        ),
        N_(
            "%(play)s past the wall: the discard at position %(position)s left two stock cards, where only taking "
            "the upcard to knock, or passing, is allowed; the hand is a 0–0 draw and later play does not count"
        ),
        N_(
            "%(who)s drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and later "
            "play does not count"
        ),
        N_(
            "%(who)s took the upcard at the wall without knocking with it: at the wall the upcard is taken only to "
            "knock; the hand is a 0–0 draw"
        ),
    ),
    "GIN-STALL-1": (
        N_(
            "%(play)s after the hand was over by OpenSpiel's repeated-move rule (the discards at positions %(first)s "
            "and %(second)s each gave back the upcard just taken): the hand is a 0–0 draw and later play does not "
            "count"
        ),
        N_(
            "%(play)s, the %(n)sth upcard draw after the first turn: OpenSpiel ends the hand before that draw; the "
            "hand is a 0–0 draw and later play does not count"
        ),
    ),
}

#: the msgids nested in the rules' sentences: meld faults (ledger/melds.py FAULTS), the
#: event type of a second draw, what a seat did, clauses, a side's label, score pieces
PIECES: tuple[str, ...] = (
    N_(" (oklahoma: the first upcard %(card)s)"),
    N_("%(card)s is not a wild there"),
    N_("%(cards)s = %(n)s (not a meld)"),
    N_("%(first)s and %(second)s"),
    N_("%(first)s or %(second)s"),
    N_("%(side)s already had its pozzetto"),
    N_("%(who)s discarded %(card)s"),
    N_("%(who)s drew %(card)s"),
    N_("%(who)s drew from the stock"),
    N_("%(who)s knocked"),
    N_("%(who)s laid a meld"),
    N_("%(who)s laid off"),
    N_("%(who)s laid off %(cards)s on meld %(meld)s"),
    N_("%(who)s melded %(cards)s"),
    N_("%(who)s passed the upcard"),
    N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s"),
    N_("%(who)s still held %(n)s card(s) (%(cards)s)"),
    N_("%(who)s still held 1 card(s) (%(cards)s)"),
    N_("%(who)s swapped a joker"),
    N_("%(who)s took %(cards)s from the discard pile"),
    N_("%(who)s took pozzetto %(n)s"),
    N_("%(who)s took the discard pile (%(cards)s)"),
    N_("; computed as %(parts)s"),
    N_("a sequence round the corner (K-A-2)"),
    N_("a sequence with too many cards"),
    N_("a set of wild-rank cards (2s)"),
    N_("a set with a repeated suit"),
    N_("a set with too many cards"),
    N_("a wild inside a sequence (only at either end)"),
    N_("an ace high where only ace low is allowed"),
    N_("an ace low where only ace high is allowed"),
    N_("card_drawn"),
    N_("declares %(cards)s beyond the cards held"),
    N_("discard_taken"),
    N_("fewer than 3 cards"),
    N_("final totals"),
    N_("hand %(hand)s"),
    N_("hands"),
    N_("it stands for %(options)s"),
    N_("leaves out %(cards)s"),
    N_("more wild cards than allowed"),
    N_("neither a set nor a sequence"),
    N_("only wild cards"),
    N_("penalties"),
    N_("pozzetto_taken"),
    N_("team %(team)s (%(names)s)"),
    N_("the opening needs %(n)s"),
    N_("the opening needs a clean sequence (no joker)"),
    N_("the opening needs a clean sequence or set (no joker)"),
)

__all__ = ["PIECES", "RULE_MESSAGES"]
