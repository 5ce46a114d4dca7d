"""The rule tables of the opening-threshold games (RULES.md, the S40 and R51
families): each rule's id, texts, view, evidence and msgids
(:class:`ledger.rule_table.RuleEntry`), named by the catalog's ``scala40``
and ``ramino51`` entries. Their checks are :mod:`.rules`,
:mod:`ledger.variants.threshold.scala40` and :mod:`ledger.variants.threshold.ramino51`."""

from __future__ import annotations

from ledger.rule_table import RuleEntry
from ledger.texts import N_

#: the S40 rules (Scala 40), in RULES.md order
S40_TABLE: tuple[RuleEntry, ...] = (
    RuleEntry(
        "S40-OPEN-1",
        en="First melds total under the opening threshold (not a chiusura in mano).",
        it="Le prime calate valgono meno della soglia di apertura (non è una chiusura in mano).",
        view="public",
        messages=(N_("%(who)s opened with %(total)s points: %(items)s; %(need)s"),),
    ),
    RuleEntry(
        "S40-OPEN-2",
        en="Lay-off or joker swap before opening.",
        it="Attacco o scambio del jolly prima dell'apertura.",
        view="public",
        messages=(
            N_("%(who)s laid off %(cards)s on meld %(meld)s before opening"),
            N_("%(who)s swapped the %(joker)s in meld %(meld)s before opening"),
        ),
    ),
    RuleEntry(
        "S40-PILE-1",
        en="Top discard taken by a seat that has not opened and does not open with it this turn.",
        it="Carta del pozzo presa da un posto che non ha aperto e non apre con essa in questo turno.",
        view="public",
        messages=(N_("%(who)s took %(card)s from the discard pile without having opened and did not open with it"),),
    ),
    RuleEntry(
        "S40-PILE-2",
        en="The card taken from the pile not used in a meld this turn, or discarded this turn.",
        it="La carta presa dal pozzo non usata in una combinazione in questo turno, o scartata in questo turno.",
        view="hidden",
        hidden_evidence="whether the seat held another copy of the card it took",
        messages=(
            N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),
            N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),
        ),
    ),
    RuleEntry(
        "S40-MELD-1",
        en="A set with a repeated suit, more than 4 cards, or more than one joker in a meld.",
        it="Un tris con un seme ripetuto o più di 4 carte, o più di un jolly in una combinazione.",
        view="public",
        messages=(
            N_("meld %(meld)s %(cards)s: %(fault)s"),
            N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
        ),
    ),
    RuleEntry(
        "S40-SWAP-1",
        en="A joker swapped with a card that is not the one it stands for.",
        it="Un jolly scambiato con una carta che non è quella che sostituisce.",
        view="public",
        messages=(N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s"),),
    ),
    RuleEntry(
        "S40-SWAP-2",
        en="With `freed_joker_must_be_melded` on, a freed joker not melded in the same turn.",
        it="Con `freed_joker_must_be_melded` attivo, un jolly liberato non calato nello stesso turno.",
        view="public",
        messages=(N_("%(who)s took a joker from a meld and did not meld it in the same turn"),),
    ),
    RuleEntry(
        "S40-DISC-1",
        en="An attachable card discarded while the option forbids it.",
        it="Scartata una carta attaccabile mentre l'opzione lo vieta.",
        view="public",
        messages=(N_("%(who)s discarded %(card)s, which could be laid off on meld %(meld)s (%(cards)s)"),),
    ),
    RuleEntry(
        "S40-OUT-1",
        en="Went out without a discard.",
        it="Chiusura senza scarto.",
        view="public",
        messages=(
            N_("%(who)s went out without a discard"),
            N_("%(who)s went out without a discard: the last card went into a meld"),
        ),
    ),
)

#: the R51 rules (Ramino 51), in RULES.md order
R51_TABLE: tuple[RuleEntry, ...] = (
    RuleEntry(
        "R51-PILE-1",
        en="Top discard taken in the seat's first turn.",
        it="Carta del pozzo presa al primo turno del posto.",
        view="public",
        messages=(N_("%(who)s took %(cards)s from the discard pile in its first turn"),),
    ),
    RuleEntry(
        "R51-PILE-2",
        en="Top discard taken and not melded in the same turn.",
        it="Carta del pozzo presa e non calata nello stesso turno.",
        view="public",
        messages=(N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),),
    ),
    RuleEntry(
        "R51-OPEN-1",
        en="Melding in the seat's first turn.",
        it="Calata al primo turno del posto.",
        view="public",
        messages=(N_("%(who)s melded in its first turn"),),
    ),
    RuleEntry(
        "R51-OPEN-2",
        en="Opening under 51 points or without a clean meld of the required kind.",
        it="Apertura sotto i 51 punti o senza una combinazione pulita del tipo richiesto.",
        view="public",
        messages=(N_("%(who)s opened with %(total)s points: %(items)s; %(need)s"),),
    ),
    RuleEntry(
        "R51-OPEN-3",
        en="Lay-off (other than a joker swap) in the opening turn, or lay-off/swap before opening.",
        it="Attacco (diverso da uno scambio del jolly) nel turno di apertura, o attacco/scambio prima dell'apertura.",
        view="public",
        messages=(
            N_("%(who)s laid off %(cards)s on meld %(meld)s before opening"),
            N_("%(who)s laid off %(cards)s on meld %(meld)s in its opening turn (only a joker swap is allowed)"),
            N_("%(who)s swapped the %(joker)s in meld %(meld)s before opening"),
        ),
    ),
    RuleEntry(
        "R51-MELD-1",
        en="A set with a repeated suit or more than 4 cards; a joker inside a sequence; more than one joker.",
        it="Un tris con un seme ripetuto o più di 4 carte; un jolly all'interno di una scala; più di un jolly.",
        view="public",
        messages=(
            N_("meld %(meld)s %(cards)s: %(fault)s"),
            N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
        ),
    ),
    RuleEntry(
        "R51-SWAP-1",
        en="A joker swapped with a card that is not the one it stands for.",
        it="Un jolly scambiato con una carta che non è quella che sostituisce.",
        view="public",
        messages=(N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s"),),
    ),
)

__all__ = ["R51_TABLE", "S40_TABLE"]
