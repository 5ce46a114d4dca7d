"""A rule's facts in one row (issue 23): the :class:`RuleEntry` of a rule
table, and the table of the shared families (``REC`` rejections, ``ALL``
rules of every game, :data:`SHARED_TABLE`).

Each variant family has one table, a tuple of entries in RULES.md order, in
its package (``ledger/variants/burraco/rule_table.py`` …), named by its
catalog entry (:attr:`ledger.catalog.VariantEntry.rule_table`). Everything
else about a rule derives from the tables and follows the catalog (games
registered at run time included): the ids (:mod:`ledger.rule_ids`:
``RULE_IDS``, ``RULES_BY_FAMILY``, ``NEEDS_HIDDEN_EVIDENCE``), the texts
(:mod:`ledger.rule_texts`), the msgids (:mod:`ledger.rule_messages`) and
what a per-seat view shows at once (:mod:`ledger.redaction`:
``PUBLIC_RULES``, ``PUBLIC_UNLESS_KNOCK``). A new rule is its entry in its
family's table, its check, its tests and its Italian msgstr.

>>> RULE = RuleEntry("ALL-TURN-1", en="Out of turn.", it="Fuori turno.", view="public", messages=("x",))
>>> RULE.family, RULE.text("it"), RULE.text("fr")
('ALL', 'Fuori turno.', 'Out of turn.')
>>> RuleEntry("ALL-TURN-1", en="Out of turn.", it="Fuori turno.", view="shown", messages=("x",))
Traceback (most recent call last):
...
ValueError: rule ALL-TURN-1: view 'shown' is not one of public, hidden, unless_knock
>>> [r.id for r in SHARED_TABLE][:6]
['REC-FORMAT', 'REC-DECK', 'REC-WHERE', 'REC-REF', 'REC-ORDER', 'ALL-TURN-1']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from ledger.texts import N_

#: how a per-seat view (FORMAT.md, "Per-seat views") may show a rule's finding:
#: ``public``: at once, to everyone (it depends only on what every seat saw face up,
#: on counts and on the order of play, and its message names only such cards);
#: ``hidden``: at once only to the seat it is about, to everyone once its hand has ended;
#: ``unless_knock``: public, but hidden at a knock, whose discard is face down (GIN-DISC-1)
View = Literal["public", "hidden", "unless_knock"]

#: a rule id: its family (``BUR``), then words and digits (``-PILE-1``; ``REC-FORMAT``)
_RULE_ID = re.compile(r"[A-Z][A-Z0-9]{1,7}-[A-Z0-9]+(?:-[0-9]+)?")


@dataclass(frozen=True)
class RuleEntry:
    """One rule of RULES.md, a row of its family's table.

    ``id``: the rule id (RULES.md); ``en``: RULES.md's text of it, verbatim;
    ``it``: its Italian; ``messages``: the msgids (marked ``N_``,
    :mod:`ledger.texts`) its findings are worded with, or its refusals for a
    ``REC-`` id; ``view``: how a per-seat view may show its finding
    (:data:`View`; ``hidden``, the safe one, when not said: a ``REC-`` rule
    refuses and has no finding); ``hidden_evidence``: why judging it can
    need hidden cards, None when what is face up decides it (FORMAT.md,
    "Partial records": in a partial record such a rule is judged only where
    the known cards decide it, never on a guess).

    Raises :class:`ValueError` for an id that is not a rule id, an empty
    text, no message, or a view not of :data:`View`.
    """

    id: str
    en: str
    it: str
    messages: tuple[str, ...]
    view: View = "hidden"
    hidden_evidence: str | None = None

    def __post_init__(self) -> None:
        if not _RULE_ID.fullmatch(self.id):
            raise ValueError(f"rule id {self.id!r} is not FAMILY-WORD(-N)")
        if not (self.en.strip() and self.it.strip()):
            raise ValueError(f"rule {self.id}: a text (en, it) is empty")
        if not self.messages:
            raise ValueError(f"rule {self.id}: no message")
        if self.view not in get_args(View):
            raise ValueError(f"rule {self.id}: view {self.view!r} is not one of {', '.join(get_args(View))}")
        if self.hidden_evidence is not None and not self.hidden_evidence.strip():
            raise ValueError(f"rule {self.id}: hidden_evidence says no why")

    @property
    def family(self) -> str:
        """The prefix of its id (``REC``, ``ALL``, ``BUR``, …)."""
        return self.id.split("-", 1)[0]

    def text(self, lang: str = "en") -> str:
        """Its text in ``lang`` (``"en"`` or ``"it"``; another language falls back to English)."""
        return self.it if lang == "it" else self.en


#: the rules no variant owns, in RULES.md order: the REC rejections, then the ALL rules
SHARED_TABLE: tuple[RuleEntry, ...] = (
    RuleEntry(
        "REC-FORMAT",
        en="Malformed JSON, unknown type or field, wrong field type, bad card string.",
        it="JSON malformato, tipo o campo sconosciuto, campo di tipo errato, carta scritta male.",
        messages=(
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
    ),
    RuleEntry(
        "REC-DECK",
        en="More copies of a card in play than the variant's deck holds; a deal whose total is not the deck (when "
        "the stock is given).",
        it="Più copie di una carta in gioco di quante ne contenga il mazzo della variante; una distribuzione il "
        "cui totale non è il mazzo (quando il tallone è dato).",
        messages=(
            N_("a copy of %(card)s too many: the deck holds %(num)s"),
            N_("the deal holds %(dealt)s cards; the deck has %(total)s"),
            N_("the deal holds more than the deck's %(total)s cards"),
        ),
    ),
    RuleEntry(
        "REC-WHERE",
        en="A card is not where the event takes it from (hand, known stock top, discard pile, meld).",
        it="Una carta non è dove l'evento la prende (mano, prima carta nota del tallone, pozzo, combinazione).",
        messages=(
            N_("%(who)s (seat %(seat)s) does not hold %(card)s"),
            N_("%(who)s drew %(card)s from an empty stock"),
            N_("meld %(meld)s holds no %(joker)s"),
            N_("nothing to restock: the discard pile holds only its top card"),
            N_("pozzetto %(num)s became the stock"),
            N_("pozzetto %(num)s was already taken by %(who)s"),
            N_("the discard pile is empty"),
            N_("the top of the stock is %(top)s, not %(card)s"),
        ),
    ),
    RuleEntry(
        "REC-REF",
        en="Unknown seat, team, meld id or position; duplicate meld id in a hand.",
        it="Posto, coppia, id di combinazione o posizione sconosciuti; id di combinazione ripetuto in una smazzata.",
        messages=(
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
    ),
    RuleEntry(
        "REC-ORDER",
        en="Play before `hand_dealt`, events after `game_ended`, play after `hand_ended` other than "
        "`penalty_assessed`, `position_restored` (which may reopen the last hand), the next `hand_dealt` or "
        "`game_ended`.",
        it="Gioco prima di `hand_dealt`, eventi dopo `game_ended`, gioco dopo `hand_ended` diverso da "
        "`penalty_assessed`, `position_restored` (che può riaprire l'ultima smazzata), il `hand_dealt` seguente "
        "o `game_ended`.",
        messages=(
            N_("%(type)s after game_ended"),
            N_("%(type)s after hand_ended (hand %(hand)s)"),
            N_("%(type)s before the first hand_dealt"),
            N_("%(type)s while hand %(hand)s has not ended"),
            N_("a record starts with game_started, not %(type)s"),
            N_("a second game_started"),
            N_("hand_ended reason knocked, but nobody knocked in this hand"),
            N_("stock_restocked while the stock still holds %(num)s cards"),
        ),
    ),
    RuleEntry(
        "ALL-TURN-1",
        en="Play out of turn: a seat acts when it is not its turn.",
        it="Gioco fuori turno: un posto agisce quando non è il suo turno.",
        view="public",
        messages=(
            N_("%(who)s discarded after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
            N_("%(who)s drew after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
            N_("%(who)s passed the upcard out of turn: it was %(due)s's turn"),
            N_("%(who)s played out of turn: it was %(due)s's turn"),
        ),
    ),
    RuleEntry(
        "ALL-TURN-2",
        en="More than one draw (stock card or discard pile) in a turn, or meld/lay-off/discard before drawing.",
        it="Più di una pescata (dal tallone o dal pozzo) nello stesso turno, oppure calata, attacco o scarto prima "
        "di pescare.",
        view="public",
        messages=(
            N_("%(who)s discarded before drawing"),
            N_("%(who)s drew a second time in the same turn (%(event)s)"),
            N_("%(who)s melded or laid off before drawing"),
        ),
    ),
    RuleEntry(
        "ALL-TURN-3",
        en="A turn ends without a discard where the variant requires one (the next seat acts first).",
        it="Un turno finisce senza scarto dove la variante lo richiede (il posto seguente gioca prima).",
        view="public",
        messages=(N_("%(who)s's turn ended without a discard: %(next)s acted next"),),
    ),
    RuleEntry(
        "ALL-MELD-1",
        en="A meld that is neither a valid set nor a valid sequence under the variant (after the lay-off, for "
        "`meld_extended`).",
        it="Una combinazione che non è né un tris né una scala validi per la variante (dopo l'attacco, per "
        "`meld_extended`).",
        view="public",
        messages=(
            N_("meld %(meld)s %(cards)s: %(fault)s"),
            N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
            N_(
                "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it moved; a joker never "
                "moves once laid (the card it stands for takes its place only by a joker swap)"
            ),
            N_(
                "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it now stands for "
                "%(now)s; a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
            ),
        ),
    ),
    RuleEntry(
        "ALL-MELD-2",
        en="More wild cards in a meld than the variant allows, or a wild where the variant forbids it.",
        it="Più matte in una combinazione di quante la variante ne ammetta, o una matta dove la variante la vieta.",
        view="public",
        messages=(
            N_("meld %(meld)s %(cards)s: %(fault)s"),
            N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
        ),
    ),
    RuleEntry(
        "ALL-DEAL-1",
        en="Wrong number of cards dealt to a seat, wrong pozzetto size, wrong dealer rotation.",
        it="Numero sbagliato di carte distribuite a un posto, pozzetto di misura sbagliata, rotazione del mazziere "
        "sbagliata.",
        view="public",
        messages=(
            N_("%(who)s dealt hand %(hand)s; the rotation called for %(due)s"),
            N_("%(who)s was dealt %(n)s cards instead of %(want)s"),
            N_("pozzetto %(pozzetto)s holds %(n)s cards instead of %(want)s"),
        ),
    ),
    RuleEntry(
        "ALL-SCORE-1",
        en="A `claimed` score differs from the computed one.",
        it="Un punteggio dichiarato (`claimed`) differisce da quello calcolato.",
        view="public",
        messages=(
            N_(
                "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                "%(difference)s)%(explain)s"
            ),
        ),
    ),
    RuleEntry(
        "ALL-SCORE-2",
        en="Partial records: a hand that cannot be scored (a side's count depends on unknown cards and no "
        "`claimed` points were recorded).",
        it="Registrazioni parziali: una smazzata che non si può conteggiare (il conto di una parte dipende da "
        "carte sconosciute e non è stato registrato alcun punteggio dichiarato, `claimed`).",
        view="hidden",
        messages=(
            N_(
                "hand %(hand)s cannot be scored: the count of %(sides)s depends on unknown cards and no points "
                "were claimed"
            ),
        ),
    ),
)

__all__ = ["SHARED_TABLE", "RuleEntry", "View"]
