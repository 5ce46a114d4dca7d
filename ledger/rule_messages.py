"""Every rule id's message(s) (issue 23): what each RULES.md rule says
when it is broken, as msgids (:mod:`ledger.texts`).

:data:`RULE_MESSAGES` maps a rule id to the msgids of its findings (the
``ALL-``/variant ids: what :meth:`ledger.variants.core.TableRules.flag` is
given) or of its refusals (the ``REC-`` ids: a :class:`ledger.errors.RecordError`'s
message): the ``messages`` of each rule's table entry
(:class:`ledger.rule_table.RuleEntry`), following the catalog. :data:`PIECES`
are the msgids nested in those sentences (a meld's fault, what a seat did, a
clause), owned by no one rule. tests/test_rule_table.py walks both: each rule
of RULES.md has its messages, each msgid the rules mark is in a table or a
piece, each has its Italian in the catalog, and a finding of each rule reads
differently in Italian. A new rule: its entry in its family's rule table
(``messages``), its check, its tests, its Italian msgstr.
"""

from __future__ import annotations

from collections.abc import Mapping

from ledger.rule_ids import RuleMap
from ledger.texts import N_

#: rule id -> the msgids its findings (or refusals) are worded with (each rule table entry's ``messages``)
RULE_MESSAGES: Mapping[str, tuple[str, ...]] = RuleMap(lambda e: e.messages)

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
