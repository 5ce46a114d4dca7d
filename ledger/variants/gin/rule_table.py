"""Gin Rummy's rule table (RULES.md, the GIN family): each rule's id, texts,
view, evidence and msgids (:class:`ledger.rule_table.RuleEntry`), named by
the catalog's ``gin`` entry. Its checks are :mod:`.rules` and :mod:`.endings`."""

from __future__ import annotations

from ledger.rule_table import RuleEntry
from ledger.texts import N_

#: the GIN rules, in RULES.md order
GIN_TABLE: tuple[RuleEntry, ...] = (
    RuleEntry(
        "GIN-KNOCK-1",
        en="Knocked with declared deadwood above the knock card.",
        it="Bussata con punti morti dichiarati sopra il valore di bussata.",
        view="public",
        messages=(N_("%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s"),),
    ),
    RuleEntry(
        "GIN-KNOCK-2",
        en="Declared melds that are invalid, or melds plus deadwood that are not exactly the cards held after the "
        "face-down discard.",
        it="Combinazioni dichiarate non valide, o combinazioni più punti morti che non sono esattamente le carte "
        "in mano dopo lo scarto coperto.",
        view="public",
        messages=(
            N_("%(who)s's knock %(part)s: melds and deadwood must be exactly the ten cards held"),
            N_("declared meld %(meld)s %(cards)s: %(fault)s"),
        ),
    ),
    RuleEntry(
        "GIN-LAY-1",
        en="Lay-off onto the knocker's melds after gin, or by the knocker.",
        it="Attacco sulle combinazioni di chi ha bussato dopo un gin, o da parte di chi ha bussato.",
        view="public",
        messages=(
            N_("%(who)s laid %(cards)s after knocking: the knocker's melds are those declared with the knock"),
            N_("%(who)s laid off %(cards)s on meld %(meld)s after %(knocker)s went gin"),
            N_("%(who)s laid off %(cards)s on meld %(meld)s: the knocker does not lay off"),
        ),
    ),
    RuleEntry(
        "GIN-DISC-1",
        en="Discarded the card just taken from the discard pile (preset `standard`).",
        it="Scartata la carta appena presa dal pozzo (preset `standard`).",
        view="unless_knock",
        hidden_evidence="whether the seat held another copy of the card it took (and a knock's discard is face down)",
        messages=(N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),),
    ),
    RuleEntry(
        "GIN-WALL-1",
        en="Play past the wall (two stock cards left). Preset `standard`: any draw after the discard that left two "
        "stock cards (the hand is a 0–0 draw there, and the later play does not count). Preset `openspiel`: a "
        "draw from the stock, or taking the upcard without knocking with it.",
        it="Gioco oltre il muro (due carte rimaste nel tallone). Preset `standard`: qualsiasi pescata dopo lo "
        "scarto che ha lasciato due carte nel tallone (lì la smazzata è patta 0–0 e il gioco seguente non "
        "conta). Preset `openspiel`: una pescata dal tallone, o la carta scoperta presa senza bussare con essa.",
        view="hidden",
        messages=(
            N_(
                "%(play)s instead of knocking with the upcard taken at the wall: at the wall the upcard is taken only "
                "to knock; the hand is a 0–0 draw and later play does not count"
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
    ),
    RuleEntry(
        "GIN-STALL-1",
        en="Preset `openspiel`: play after the hand was over by OpenSpiel's rules (the 50th upcard draw after the "
        "first turn, or the repeated-move rule); reported once, at the first such event, and that play does not "
        "count (the hand scores 0–0).",
        it="Preset `openspiel`: gioco dopo che la smazzata era finita secondo le regole di OpenSpiel (la 50ª presa "
        "della carta scoperta dopo il primo turno, o la regola della mossa ripetuta); segnalato una volta, al "
        "primo evento di questo tipo, e quel gioco non conta (la smazzata finisce 0–0).",
        view="hidden",
        messages=(
            N_(
                "%(play)s after the hand was over by OpenSpiel's repeated-move rule (the discards at positions "
                "%(first)s and %(second)s each gave back the upcard just taken): the hand is a 0–0 draw and later play "
                "does not count"
            ),
            N_(
                "%(play)s, the %(n)sth upcard draw after the first turn: OpenSpiel ends the hand before that draw; the "
                "hand is a 0–0 draw and later play does not count"
            ),
        ),
    ),
)

__all__ = ["GIN_TABLE"]
