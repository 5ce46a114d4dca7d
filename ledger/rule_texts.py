"""The text of every RULES.md rule, in English (as RULES.md words it) and Italian.

Pure data for the dispute report (:mod:`replay_web.report`) and anything else
that shows a rule to a referee or a player. The English text is RULES.md's
table cell, verbatim (back-quoted names included); the Italian one uses the
field's terms: *smazzata* (hand), *tallone* (stock), *pozzo* / *monte degli
scarti* (discard pile), *pozzetto*, *pinella* (a 2 used as a wild), *matta*
(wild), *calata* (a meld laid down), *attaccare* (lay off), *chiusura* /
*chiudere* (going out), *apertura* (opening), *arbitro*, *penalità*.

``tests/test_rule_texts.py`` checks that every id of RULES.md has both texts
and that the English one is RULES.md's.

>>> rule_text("ALL-TURN-1", "it")
'Gioco fuori turno: un posto agisce quando non è il suo turno.'
>>> rule_text("ALL-TURN-1", "en")
'Play out of turn: a seat acts when it is not its turn.'
>>> rule_text("NOPE-1", "en") is None
True
"""

from __future__ import annotations

#: the languages every rule has a text in
LANGUAGES: tuple[str, ...] = ("en", "it")

#: rule id -> {language: text}, in RULES.md order
RULE_TEXTS: dict[str, dict[str, str]] = {
    "REC-FORMAT": {
        "en": "Malformed JSON, unknown type or field, wrong field type, bad card string.",
        "it": "JSON malformato, tipo o campo sconosciuto, campo di tipo errato, carta scritta male.",
    },
    "REC-DECK": {
        "en": "More copies of a card in play than the variant's deck holds; a deal whose total is not the deck (when "
        "the stock is given).",
        "it": "Più copie di una carta in gioco di quante ne contenga il mazzo della variante; una distribuzione il "
        "cui totale non è il mazzo (quando il tallone è dato).",
    },
    "REC-WHERE": {
        "en": "A card is not where the event takes it from (hand, known stock top, discard pile, meld).",
        "it": "Una carta non è dove l'evento la prende (mano, prima carta nota del tallone, pozzo, combinazione).",
    },
    "REC-REF": {
        "en": "Unknown seat, team, meld id or position; duplicate meld id in a hand.",
        "it": "Posto, coppia, id di combinazione o posizione sconosciuti; id di combinazione ripetuto in una smazzata.",
    },
    "REC-ORDER": {
        "en": "Play before `hand_dealt`, events after `game_ended`, play after `hand_ended` other than "
        "`penalty_assessed`, `position_restored` (which may reopen the last hand), the next `hand_dealt` or "
        "`game_ended`.",
        "it": "Gioco prima di `hand_dealt`, eventi dopo `game_ended`, gioco dopo `hand_ended` diverso da "
        "`penalty_assessed`, `position_restored` (che può riaprire l'ultima smazzata), il `hand_dealt` seguente "
        "o `game_ended`.",
    },
    "ALL-TURN-1": {
        "en": "Play out of turn: a seat acts when it is not its turn.",
        "it": "Gioco fuori turno: un posto agisce quando non è il suo turno.",
    },
    "ALL-TURN-2": {
        "en": "More than one draw (stock card or discard pile) in a turn, or meld/lay-off/discard before drawing.",
        "it": "Più di una pescata (dal tallone o dal pozzo) nello stesso turno, oppure calata, attacco o scarto prima "
        "di pescare.",
    },
    "ALL-TURN-3": {
        "en": "A turn ends without a discard where the variant requires one (the next seat acts first).",
        "it": "Un turno finisce senza scarto dove la variante lo richiede (il posto seguente gioca prima).",
    },
    "ALL-MELD-1": {
        "en": "A meld that is neither a valid set nor a valid sequence under the variant (after the lay-off, for "
        "`meld_extended`).",
        "it": "Una combinazione che non è né un tris né una scala validi per la variante (dopo l'attacco, per "
        "`meld_extended`).",
    },
    "ALL-MELD-2": {
        "en": "More wild cards in a meld than the variant allows, or a wild where the variant forbids it.",
        "it": "Più matte in una combinazione di quante la variante ne ammetta, o una matta dove la variante la vieta.",
    },
    "ALL-DEAL-1": {
        "en": "Wrong number of cards dealt to a seat, wrong pozzetto size, wrong dealer rotation.",
        "it": "Numero sbagliato di carte distribuite a un posto, pozzetto di misura sbagliata, rotazione del mazziere "
        "sbagliata.",
    },
    "ALL-SCORE-1": {
        "en": "A `claimed` score differs from the computed one.",
        "it": "Un punteggio dichiarato (`claimed`) differisce da quello calcolato.",
    },
    "ALL-SCORE-2": {
        "en": "Partial records: a hand that cannot be scored (a side's count depends on unknown cards and no "
        "`claimed` points were recorded).",
        "it": "Registrazioni parziali: una smazzata che non si può conteggiare (il conto di una parte dipende da "
        "carte sconosciute e non è stato registrato alcun punteggio dichiarato, `claimed`).",
    },
    "BUR-TURN-1": {
        "en": "Lay-off onto a meld of the other side.",
        "it": "Attacco su una combinazione della coppia avversaria.",
    },
    "BUR-MELD-1": {
        "en": "Set of 2s, meld of wilds only, set longer than 9 or sequence longer than 14.",
        "it": "Tris di 2 (pinelle), combinazione di sole matte, tris di più di 9 carte o scala di più di 14.",
    },
    "BUR-MELD-2": {
        "en": "A side holds two sets of the same rank.",
        "it": "Una coppia ha due tris dello stesso valore.",
    },
    "BUR-MELD-3": {
        "en": "A wild taken back into the hand (`joker_swapped` is never legal in Burraco).",
        "it": "Una matta ripresa in mano (`joker_swapped` non è mai lecito nel Burraco).",
    },
    "BUR-PILE-1": {
        "en": "The discard pile was a single card and that same card was discarded in the same turn.",
        "it": "Il pozzo era di una sola carta e quella stessa carta è stata scartata nello stesso turno.",
    },
    "BUR-POZZ-1": {
        "en": "A pozzetto taken by a side that already had one, before the hand was empty, or by the wrong seat.",
        "it": "Un pozzetto preso da una coppia che ne aveva già uno, prima di aver finito le carte in mano, o dal "
        "posto sbagliato.",
    },
    "BUR-POZZ-2": {
        "en": "Play from a pozzetto taken with the discard before the next turn.",
        "it": "Gioco dal pozzetto preso con lo scarto prima del turno seguente.",
    },
    "BUR-CLOSE-1": {
        "en": "Went out without the side's pozzetto.",
        "it": "Chiusura senza aver preso il pozzetto della coppia.",
    },
    "BUR-CLOSE-2": {
        "en": "Went out without a burraco of the required kind.",
        "it": "Chiusura senza un burraco del tipo richiesto.",
    },
    "BUR-CLOSE-3": {
        "en": "Went out by melding the last card, or by discarding a wild.",
        "it": "Chiusura calando l'ultima carta, o scartando una matta.",
    },
    "BUR-STOCK-1": {
        "en": "A draw from the last two stock cards, or any play after the discard that ends the hand at stock "
        "exhaustion (preset `fibur`).",
        "it": "Una pescata dalle ultime due carte del tallone, o qualsiasi gioco dopo lo scarto che chiude la "
        "smazzata a tallone esaurito (preset `fibur`).",
    },
    "S40-OPEN-1": {
        "en": "First melds total under the opening threshold (not a chiusura in mano).",
        "it": "Le prime calate valgono meno della soglia di apertura (non è una chiusura in mano).",
    },
    "S40-OPEN-2": {
        "en": "Lay-off or joker swap before opening.",
        "it": "Attacco o scambio del jolly prima dell'apertura.",
    },
    "S40-PILE-1": {
        "en": "Top discard taken by a seat that has not opened and does not open with it this turn.",
        "it": "Carta del pozzo presa da un posto che non ha aperto e non apre con essa in questo turno.",
    },
    "S40-PILE-2": {
        "en": "The card taken from the pile not used in a meld this turn, or discarded this turn.",
        "it": "La carta presa dal pozzo non usata in una combinazione in questo turno, o scartata in questo turno.",
    },
    "S40-MELD-1": {
        "en": "A set with a repeated suit, more than 4 cards, or more than one joker in a meld.",
        "it": "Un tris con un seme ripetuto o più di 4 carte, o più di un jolly in una combinazione.",
    },
    "S40-SWAP-1": {
        "en": "A joker swapped with a card that is not the one it stands for.",
        "it": "Un jolly scambiato con una carta che non è quella che sostituisce.",
    },
    "S40-SWAP-2": {
        "en": "With `freed_joker_must_be_melded` on, a freed joker not melded in the same turn.",
        "it": "Con `freed_joker_must_be_melded` attivo, un jolly liberato non calato nello stesso turno.",
    },
    "S40-DISC-1": {
        "en": "An attachable card discarded while the option forbids it.",
        "it": "Scartata una carta attaccabile mentre l'opzione lo vieta.",
    },
    "S40-OUT-1": {
        "en": "Went out without a discard.",
        "it": "Chiusura senza scarto.",
    },
    "R51-PILE-1": {
        "en": "Top discard taken in the seat's first turn.",
        "it": "Carta del pozzo presa al primo turno del posto.",
    },
    "R51-PILE-2": {
        "en": "Top discard taken and not melded in the same turn.",
        "it": "Carta del pozzo presa e non calata nello stesso turno.",
    },
    "R51-OPEN-1": {
        "en": "Melding in the seat's first turn.",
        "it": "Calata al primo turno del posto.",
    },
    "R51-OPEN-2": {
        "en": "Opening under 51 points or without a clean meld of the required kind.",
        "it": "Apertura sotto i 51 punti o senza una combinazione pulita del tipo richiesto.",
    },
    "R51-OPEN-3": {
        "en": "Lay-off (other than a joker swap) in the opening turn, or lay-off/swap before opening.",
        "it": "Attacco (diverso da uno scambio del jolly) nel turno di apertura, o attacco/scambio prima "
        "dell'apertura.",
    },
    "R51-MELD-1": {
        "en": "A set with a repeated suit or more than 4 cards; a joker inside a sequence; more than one joker.",
        "it": "Un tris con un seme ripetuto o più di 4 carte; un jolly all'interno di una scala; più di un jolly.",
    },
    "R51-SWAP-1": {
        "en": "A joker swapped with a card that is not the one it stands for.",
        "it": "Un jolly scambiato con una carta che non è quella che sostituisce.",
    },
    "RAM-DISC-1": {
        "en": "Discarded the card just taken from the discard pile.",
        "it": "Scartata la carta appena presa dal pozzo.",
    },
    "RAM-MELD-1": {
        "en": "More new melds in a turn than allowed.",
        "it": "Più calate nuove in un turno di quante ammesse.",
    },
    "RAM-OUT-1": {
        "en": "Went out without a discard where the preset requires one.",
        "it": "Chiusura senza scarto dove il preset lo richiede.",
    },
    "GIN-KNOCK-1": {
        "en": "Knocked with declared deadwood above the knock card.",
        "it": "Bussata con punti morti dichiarati sopra il valore di bussata.",
    },
    "GIN-KNOCK-2": {
        "en": "Declared melds that are invalid, or melds plus deadwood that are not exactly the cards held after the "
        "face-down discard.",
        "it": "Combinazioni dichiarate non valide, o combinazioni più punti morti che non sono esattamente le carte "
        "in mano dopo lo scarto coperto.",
    },
    "GIN-LAY-1": {
        "en": "Lay-off onto the knocker's melds after gin, or by the knocker.",
        "it": "Attacco sulle combinazioni di chi ha bussato dopo un gin, o da parte di chi ha bussato.",
    },
    "GIN-DISC-1": {
        "en": "Discarded the card just taken from the discard pile (preset `standard`).",
        "it": "Scartata la carta appena presa dal pozzo (preset `standard`).",
    },
    "GIN-WALL-1": {
        "en": "Play past the wall (two stock cards left). Preset `standard`: any draw after the discard that left two "
        "stock cards (the hand is a 0–0 draw there, and the later play does not count). Preset `openspiel`: a "
        "draw from the stock, or taking the upcard without knocking with it.",
        "it": "Gioco oltre il muro (due carte rimaste nel tallone). Preset `standard`: qualsiasi pescata dopo lo "
        "scarto che ha lasciato due carte nel tallone (lì la smazzata è patta 0–0 e il gioco seguente non "
        "conta). Preset `openspiel`: una pescata dal tallone, o la carta scoperta presa senza bussare con essa.",
    },
    "GIN-STALL-1": {
        "en": "Preset `openspiel`: play after the hand was over by OpenSpiel's rules (the 50th upcard draw after the "
        "first turn, or the repeated-move rule); reported once, at the first such event, and that play does not "
        "count (the hand scores 0–0).",
        "it": "Preset `openspiel`: gioco dopo che la smazzata era finita secondo le regole di OpenSpiel (la 50ª presa "
        "della carta scoperta dopo il primo turno, o la regola della mossa ripetuta); segnalato una volta, al "
        "primo evento di questo tipo, e quel gioco non conta (la smazzata finisce 0–0).",
    },
}


def rule_text(rule: str, lang: str = "en") -> str | None:
    """The text of ``rule`` (a RULES.md id) in ``lang`` (``"en"`` or
    ``"it"``; another language falls back to English); None for an id that
    RULES.md does not have."""
    texts = RULE_TEXTS.get(rule)
    if texts is None:
        return None
    return texts.get(lang) or texts["en"]
