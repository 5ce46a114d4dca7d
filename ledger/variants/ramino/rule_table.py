"""Classic Ramino's rule table (RULES.md, the RAM family): each rule's id,
texts, view, evidence and msgids (:class:`ledger.rule_table.RuleEntry`),
named by the catalog's ``ramino`` entry. Its checks are
:mod:`ledger.variants.ramino.rules`."""

from __future__ import annotations

from ledger.rule_table import RuleEntry
from ledger.texts import N_

#: the RAM rules, in RULES.md order
RAM_TABLE: tuple[RuleEntry, ...] = (
    RuleEntry(
        "RAM-DISC-1",
        en="Discarded the card just taken from the discard pile.",
        it="Scartata la carta appena presa dal pozzo.",
        view="public",
        hidden_evidence="whether the seat held another copy of the card it took",
        messages=(N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),),
    ),
    RuleEntry(
        "RAM-MELD-1",
        en="More new melds in a turn than allowed.",
        it="Più calate nuove in un turno di quante ammesse.",
        view="public",
        messages=(N_("%(who)s laid %(n)s new melds in one turn; at most %(limit)s allowed"),),
    ),
    RuleEntry(
        "RAM-OUT-1",
        en="Went out without a discard where the preset requires one.",
        it="Chiusura senza scarto dove il preset lo richiede.",
        view="public",
        messages=(
            N_("%(who)s went out without a discard (preset %(preset)s requires one)"),
            N_("%(who)s went out without a discard (preset %(preset)s requires one): the last card went into a meld"),
        ),
    ),
)

__all__ = ["RAM_TABLE"]
