"""Burraco's rule table (RULES.md, the BUR family): each rule's id, texts,
view, evidence and msgids (:class:`ledger.rule_table.RuleEntry`), named by
the catalog's ``burraco`` entry. Its checks are :mod:`.rules`, :mod:`.table`
and :mod:`.pozzetto`."""

from __future__ import annotations

from ledger.rule_table import RuleEntry
from ledger.texts import N_

#: the BUR rules, in RULES.md order
BUR_TABLE: tuple[RuleEntry, ...] = (
    RuleEntry(
        "BUR-TURN-1",
        en="Lay-off onto a meld of the other side.",
        it="Attacco su una combinazione della coppia avversaria.",
        view="public",
        messages=(
            N_("%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds"),
        ),
    ),
    RuleEntry(
        "BUR-MELD-1",
        en="Set of 2s, meld of wilds only, set longer than 9 or sequence longer than 14.",
        it="Tris di 2 (pinelle), combinazione di sole matte, tris di più di 9 carte o scala di più di 14.",
        view="public",
        messages=(
            N_("meld %(meld)s %(cards)s: %(fault)s"),
            N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
        ),
    ),
    RuleEntry(
        "BUR-MELD-2",
        en="A side holds two sets of the same rank.",
        it="Una coppia ha due tris dello stesso valore.",
        view="public",
        messages=(N_("%(side)s holds two sets of the same rank (%(melds)s)"),),
    ),
    RuleEntry(
        "BUR-MELD-3",
        en="A wild taken back into the hand (`joker_swapped` is never legal in Burraco).",
        it="Una matta ripresa in mano (`joker_swapped` non è mai lecito nel Burraco).",
        view="public",
        messages=(
            N_(
                "%(who)s took the wild %(joker)s back into the hand from meld %(meld)s (put in %(card)s): in Burraco a "
                "wild never leaves the table"
            ),
        ),
    ),
    RuleEntry(
        "BUR-PILE-1",
        en="The discard pile was a single card and that same card was discarded in the same turn.",
        it="Il pozzo era di una sola carta e quella stessa carta è stata scartata nello stesso turno.",
        view="hidden",
        hidden_evidence="whether the seat held another copy of the card it took",
        messages=(N_("%(who)s discarded %(card)s, the single card just taken from the discard pile"),),
    ),
    RuleEntry(
        "BUR-POZZ-1",
        en="A pozzetto taken by a side that already had one, before the hand was empty, or by the wrong seat.",
        it="Un pozzetto preso da una coppia che ne aveva già uno, prima di aver finito le carte in mano, o dal "
        "posto sbagliato.",
        view="hidden",
        messages=(N_("%(who)s took pozzetto %(pozzetto)s, but %(faults)s"),),
    ),
    RuleEntry(
        "BUR-POZZ-2",
        en="Play from a pozzetto taken with the discard before the next turn.",
        it="Gioco dal pozzetto preso con lo scarto prima del turno seguente.",
        view="hidden",
        messages=(N_("%(who)s played %(cards)s from the pozzetto taken with the discard before its next turn"),),
    ),
    RuleEntry(
        "BUR-CLOSE-1",
        en="Went out without the side's pozzetto.",
        it="Chiusura senza aver preso il pozzetto della coppia.",
        view="public",
        messages=(N_("%(who)s went out without %(side)s's pozzetto"),),
    ),
    RuleEntry(
        "BUR-CLOSE-2",
        en="Went out without a burraco of the required kind.",
        it="Chiusura senza un burraco del tipo richiesto.",
        view="public",
        messages=(
            N_("%(who)s went out without a burraco for %(side)s"),
            N_("%(who)s went out without a clean burraco for %(side)s"),
            N_("%(who)s went out without a clean or semi-clean burraco for %(side)s"),
        ),
    ),
    RuleEntry(
        "BUR-CLOSE-3",
        en="Went out by melding the last card, or by discarding a wild.",
        it="Chiusura calando l'ultima carta, o scartando una matta.",
        view="public",
        messages=(
            N_("%(who)s went out by discarding a wild (%(card)s)"),
            N_("%(who)s went out by melding the last card instead of discarding it"),
        ),
    ),
    RuleEntry(
        "BUR-STOCK-1",
        en="A draw from the last two stock cards, or any play after the discard that ends the hand at stock "
        "exhaustion (preset `fibur`).",
        it="Una pescata dalle ultime due carte del tallone, o qualsiasi gioco dopo lo scarto che chiude la "
        "smazzata a tallone esaurito (preset `fibur`).",
        view="public",
        messages=(
            N_(
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            N_("%(who)s drew %(card)s from the last two stock cards, which are never drawn"),
        ),
    ),
)

__all__ = ["BUR_TABLE"]
