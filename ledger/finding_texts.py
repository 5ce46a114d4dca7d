"""A finding's message in the reader's language, made at display time.

The rules (:mod:`ledger.variants`) write every finding's ``message`` in
English (FORMAT.md "Findings": what ``audit --json`` and the record's
readers see, unchanged). For human output in another language,
:func:`finding_text` reads the English message back against
:data:`MESSAGES`, one entry per message shape the rules make: a regular
expression over the English text and the gettext msgid of the same sentence
(marked with :func:`N_` for the CLI's catalog, ``ledger/translations``,
domain ``ledger``), whose ``%(name)s`` placeholders are the expression's
named groups.

What fills a placeholder is the English text's own, except:

* card faces (``6♥``, ``JK``), meld ids, positions and numbers stay as they are;
* player names stay as they are; a team's label (``team 0 (Anna & Carla)``)
  becomes ``coppia 0 (Anna & Carla)`` (group ``side``);
* the pieces the rules put together from words (a meld's fault, what a
  seat did, a score breakdown, the event type a draw was, the clauses
  joined by "and") are read against their own small tables below
  (:data:`SLOTS`) and translated too.

A message no entry knows, or with a piece no table knows, comes back as it
is (English): better the rule's own words than a half-translated sentence.
English (a ``NullTranslations``) is always the message unchanged. Pure: no
I/O; ``tr`` is a gettext translations object (:func:`ledger.i18n.translations`).

>>> from ledger.i18n import translations
>>> it = translations("it")
>>> finding_text("Anna played out of turn: it was Bruno's turn", it)
'Anna ha giocato fuori turno: era il turno di Bruno'
>>> finding_text("meld k K♣ K♦ K♠ Q♠: neither a set nor a sequence", it)
'combinazione k K♣ K♦ K♠ Q♠: né un tris né una scala'
>>> finding_text("something new", it), finding_text("Anna played out of turn: it was Bruno's turn", translations("en"))
('something new', "Anna played out of turn: it was Bruno's turn")
"""

from __future__ import annotations

import re
from collections.abc import Callable
from gettext import NullTranslations
from typing import Any

from ledger.i18n import N_
from ledger.melds import FAULTS

# --- pieces of the English text ----------------------------------------------------

#: one card face as :func:`ledger.cards.pretty` writes it
CARD = r"(?:(?:10|[2-9AJQK])[♥♦♣♠]|JK)"
#: cards separated by spaces (:func:`ledger.cards.pretty_list`)
CARDS = rf"(?:{CARD}(?: {CARD})*)"
#: cards run together (``7♥8♥9♥``, the threshold variants' ``compact``)
COMPACT = rf"(?:{CARD}+)"
#: a meld id of the record
MELD = r"(?:[^\s():;,]+)"
NUM = r"(?:-?\d+)"
#: a player's name, a side's label
WHO = r"(?:.+)"

_Table = tuple[tuple[re.Pattern[str], str], ...]


def _table(*rows: tuple[str, str]) -> _Table:
    return tuple((re.compile(_expand(rx)), msg) for rx, msg in rows)


def _bare(rx: str) -> str:
    """``rx`` without its group names (to be inlined in a larger expression)."""
    return re.sub(r"\(\?P<\w+>", "(?:", rx)


_TOKENS: dict[str, str] = {"<CARDS>": CARDS, "<COMPACT>": COMPACT, "<CARD>": CARD, "<MELD>": MELD, "<NUM>": NUM}


def _expand(rx: str) -> str:
    for token, part in _TOKENS.items():
        rx = rx.replace(token, part)
    return rx


def _alternation(rows: tuple[tuple[str, str], ...]) -> str:
    return "(?:" + "|".join(_bare(_expand(rx)) for rx, _ in rows) + ")"


# --- the small tables of the pieces (slots) ------------------------------------------

#: a meld's fault (ledger/melds.py FAULTS) -> its msgid (the same words: FAULTS are its keys)
FAULT_TEXTS: dict[str, str] = {
    FAULTS["invalid"]: N_("neither a set nor a sequence"),
    FAULTS["too_short"]: N_("fewer than 3 cards"),
    FAULTS["too_many_wilds"]: N_("more wild cards than allowed"),
    FAULTS["wilds_only"]: N_("only wild cards"),
    FAULTS["set_of_wild_rank"]: N_("a set of wild-rank cards (2s)"),
    FAULTS["set_repeated_suit"]: N_("a set with a repeated suit"),
    FAULTS["set_too_long"]: N_("a set with too many cards"),
    FAULTS["sequence_too_long"]: N_("a sequence with too many cards"),
    FAULTS["wild_inside"]: N_("a wild inside a sequence (only at either end)"),
    FAULTS["wraps"]: N_("a sequence round the corner (K-A-2)"),
    FAULTS["ace_high_forbidden"]: N_("an ace high where only ace low is allowed"),
    FAULTS["ace_low_forbidden"]: N_("an ace low where only ace high is allowed"),
}

#: the event type a second draw was (``ALL-TURN-2``: "... in the same turn (card_drawn)")
EVENT_TEXTS: dict[str, str] = {
    "card_drawn": N_("from the stock"),
    "discard_taken": N_("from the discard pile"),
    "pozzetto_taken": N_("the pozzetto"),
}

#: what an ``ALL-SCORE-1`` claim was about
_SCORED = (
    (r"hand (?P<hand>\d+)", N_("hand %(hand)s")),
    (r"final totals", N_("final totals")),
)

#: a side's label (:meth:`ledger.state.TableState.side_label`)
_SIDE = ((r"team (?P<team>\d+) \((?P<names>.+)\)", N_("team %(team)s (%(names)s)")),)

#: what a seat did, as Gin's endings say it (gin_endings.py ``act_text``), with the seat's name
_GIN_ACT = (
    (r"(?P<who>.+) drew from the stock", N_("%(who)s drew from the stock")),
    (r"(?P<who>.+) took (?P<cards><CARDS>) from the discard pile", N_("%(who)s took %(cards)s from the discard pile")),
    (r"(?P<who>.+) discarded (?P<card><CARD>)", N_("%(who)s discarded %(card)s")),
    (r"(?P<who>.+) knocked", N_("%(who)s knocked")),
    (r"(?P<who>.+) laid a meld", N_("%(who)s laid a meld")),
    (r"(?P<who>.+) laid off", N_("%(who)s laid off")),
    (r"(?P<who>.+) passed the upcard", N_("%(who)s passed the upcard")),
    (r"(?P<who>.+) swapped a joker", N_("%(who)s swapped a joker")),
)

#: what a seat did after a Burraco hand had ended at the stock's end (burraco.py ``late_play_text``)
_LATE_PLAY = (
    (r"(?P<who>.+) drew (?P<card><CARD>)", N_("%(who)s drew %(card)s")),
    (r"(?P<who>.+) took the discard pile \((?P<cards><CARDS>)\)", N_("%(who)s took the discard pile (%(cards)s)")),
    (r"(?P<who>.+) melded (?P<cards><CARDS>)", N_("%(who)s melded %(cards)s")),
    (
        r"(?P<who>.+) laid off (?P<cards><CARDS>) on meld (?P<meld><MELD>)",
        N_("%(who)s laid off %(cards)s on meld %(meld)s"),
    ),
    (
        r"(?P<who>.+) put (?P<card><CARD>) in place of the (?P<joker><CARD>) in meld (?P<meld><MELD>)",
        N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s"),
    ),
    (r"(?P<who>.+) discarded (?P<card><CARD>)", N_("%(who)s discarded %(card)s")),
    (r"(?P<who>.+) took pozzetto (?P<n>\d+)", N_("%(who)s took pozzetto %(n)s")),
)

#: why a pozzetto was taken wrongly (``BUR-POZZ-1``), joined by "and"
_POZZ_FAULT = (
    (r"(?P<side>.+) already had its pozzetto", N_("%(side)s already had its pozzetto")),
    (r"(?P<who>.+) still held 1 card\(s\) \((?P<cards><CARD>)\)", N_("%(who)s still held 1 card (%(cards)s)")),
    (
        r"(?P<who>.+) still held (?P<n>\d+) card\(s\) \((?P<cards><CARDS>)\)",
        N_("%(who)s still held %(n)s cards (%(cards)s)"),
    ),
)

#: what is wrong with a Gin knock's cards (``GIN-KNOCK-2``), joined by "and"
_KNOCK_PART = (
    (r"declares (?P<cards><CARDS>) beyond the cards held", N_("declares %(cards)s beyond the cards held")),
    (r"leaves out (?P<cards><CARDS>)", N_("leaves out %(cards)s")),
)

#: what an opening lacks (``S40-OPEN-1``, ``R51-OPEN-2`` with ``opening_clean``
#: ``run_or_set`` / ``run``), joined by "and"
_OPENING_NEED = (
    (r"the opening needs (?P<n>\d+)", N_("the opening needs %(n)s")),
    (
        r"the opening needs a clean sequence or set \(no joker\)",
        N_("the opening needs a clean sequence or set (no joker)"),
    ),
    (r"the opening needs a clean sequence \(no joker\)", N_("the opening needs a clean sequence (no joker)")),
)

#: an opening's itemised value (threshold.py ``opening_summary``): ``7♥8♥9♥ = 24, Q♠Q♥JK = 30 (not a meld)``
_OPENING_ITEM = (
    (r"(?P<cards><COMPACT>) = (?P<n>\d+) \(not a meld\)", N_("%(cards)s = %(n)s (not a meld)")),
    (r"(?P<cards><COMPACT>) = (?P<n>\d+)", "%(cards)s = %(n)s"),
)

#: why a joker swap was wrong (``S40-SWAP-1``, ``R51-SWAP-1``)
_SWAP_WHY = (
    (r"it stands for (?P<options><CARD>(?: or <CARD>)*)", N_("it stands for %(options)s")),
    (r"(?P<card><CARD>) is not a wild there", N_("%(card)s is not a wild there")),
)

#: where Gin's knock limit came from (gin.py ``_limit_source``)
_LIMIT_SOURCE = ((r" \(oklahoma: the first upcard (?P<card><CARD>)\)", N_(" (oklahoma: the first upcard %(card)s)")),)

#: clauses joined by "and" (or cards by "or"), as the rules join them
AND = N_("%(first)s and %(second)s")
OR = N_("%(first)s or %(second)s")

_SCORED_T, _SIDE_T, _GIN_ACT_T, _LATE_PLAY_T = _table(*_SCORED), _table(*_SIDE), _table(*_GIN_ACT), _table(*_LATE_PLAY)
_POZZ_FAULT_T, _KNOCK_PART_T, _OPENING_NEED_T = _table(*_POZZ_FAULT), _table(*_KNOCK_PART), _table(*_OPENING_NEED)
_OPENING_ITEM_T, _SWAP_WHY_T, _LIMIT_SOURCE_T = _table(*_OPENING_ITEM), _table(*_SWAP_WHY), _table(*_LIMIT_SOURCE)

_TOKENS.update(
    {
        "<FAULT>": "(?:" + "|".join(re.escape(f) for f in FAULT_TEXTS) + ")",
        "<EVENT>": "(?:" + "|".join(EVENT_TEXTS) + ")",
        "<SCORED>": _alternation(_SCORED),
        "<GIN_ACT>": _alternation(_GIN_ACT),
        "<LATE_PLAY>": _alternation(_LATE_PLAY),
        "<POZZ_FAULT>": _alternation(_POZZ_FAULT),
        "<KNOCK_PART>": _alternation(_KNOCK_PART),
        "<OPENING_NEED>": _alternation(_OPENING_NEED),
        "<OPENING_ITEM>": _alternation(_OPENING_ITEM),
        "<SWAP_WHY>": _alternation(_SWAP_WHY),
        "<LIMIT_SOURCE>": _alternation(_LIMIT_SOURCE),
        "<EXPLAIN>": r"(?:; computed as \w+ [+-]\d+(?:, \w+ [+-]\d+)*)",
    }
)

TAIL = "the hand is a 0–0 draw and later play does not count"

#: every finding message shape the rules make: (English, as a regular expression) -> msgid.
#: Tried in order; the first that matches the whole message wins.
MESSAGES: _Table = _table(
    # --- meld validity (melding.py meld_findings, threshold.py, gin.py) ---
    (
        r"meld (?P<meld><MELD>) after the lay-off (?P<cards><CARDS>): the joker stood for (?P<stood><CARD>) and "
        r"it now stands for (?P<now><CARD>); "
        r"a joker never moves once laid \(the card it stands for takes its place only by a joker swap\)",
        N_(
            "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it now stands for %(now)s; "
            "a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
        ),
    ),
    (
        r"meld (?P<meld><MELD>) after the lay-off (?P<cards><CARDS>): the joker stood for (?P<stood><CARD>) and "
        r"it moved; "
        r"a joker never moves once laid \(the card it stands for takes its place only by a joker swap\)",
        N_(
            "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it moved; "
            "a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
        ),
    ),
    (
        r"meld (?P<meld><MELD>) after the lay-off (?P<cards><CARDS>): (?P<fault><FAULT>)",
        N_("meld %(meld)s after the lay-off %(cards)s: %(fault)s"),
    ),
    (r"meld (?P<meld><MELD>) (?P<cards><CARDS>): (?P<fault><FAULT>)", N_("meld %(meld)s %(cards)s: %(fault)s")),
    (
        r"declared meld (?P<meld><MELD>) (?P<cards><CARDS>): (?P<fault><FAULT>)",
        N_("declared meld %(meld)s %(cards)s: %(fault)s"),
    ),
    # --- scores (outcome.py check_claim) ---
    (
        r"(?P<scored><SCORED>): claimed (?P<claimed><NUM>) for (?P<side>.+), computed (?P<computed><NUM>) "
        r"\(difference (?P<difference>[+-]\d+)\)(?P<explain><EXPLAIN>)?",
        N_(
            "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference %(difference)s)%(explain)s"
        ),
    ),
    # --- turns (turns.py act, gin.py) ---
    (
        r"(?P<who>.+)'s turn ended without a discard: (?P<next>.+) acted next",
        N_("%(who)s's turn ended without a discard: %(next)s acted next"),
    ),
    (
        r"(?P<who>.+) passed the upcard out of turn: it was (?P<due>.+)'s turn",
        N_("%(who)s passed the upcard out of turn: it was %(due)s's turn"),
    ),
    (
        r"(?P<who>.+) played out of turn: it was (?P<due>.+)'s turn",
        N_("%(who)s played out of turn: it was %(due)s's turn"),
    ),
    (
        r"(?P<who>.+) drew a second time in the same turn \((?P<event><EVENT>)\)",
        N_("%(who)s drew a second time in the same turn (%(event)s)"),
    ),
    (r"(?P<who>.+) melded or laid off before drawing", N_("%(who)s melded or laid off before drawing")),
    (r"(?P<who>.+) discarded before drawing", N_("%(who)s discarded before drawing")),
    (
        r"(?P<who>.+) drew after (?P<knocker>.+) knocked: only the defender's melds and lay-offs remain",
        N_("%(who)s drew after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
    ),
    (
        r"(?P<who>.+) discarded after (?P<knocker>.+) knocked: only the defender's melds and lay-offs remain",
        N_("%(who)s discarded after %(knocker)s knocked: only the defender's melds and lay-offs remain"),
    ),
    # --- the deal (turns.py on_hand_dealt, burraco.py) ---
    (
        r"(?P<who>.+) was dealt (?P<n>\d+) cards instead of (?P<want>\d+)",
        N_("%(who)s was dealt %(n)s cards instead of %(want)s"),
    ),
    (
        r"pozzetto (?P<pozzetto>\d+) holds (?P<n>\d+) cards instead of (?P<want>\d+)",
        N_("pozzetto %(pozzetto)s holds %(n)s cards instead of %(want)s"),
    ),
    (
        r"(?P<who>.+) dealt hand (?P<hand>\d+); the rotation called for (?P<due>.+)",
        N_("%(who)s dealt hand %(hand)s; the rotation called for %(due)s"),
    ),
    # --- Burraco ---
    (
        r"(?P<who>.+) laid off (?P<cards><CARDS>) on meld (?P<meld><MELD>) of (?P<side>.+): lay-offs go only on "
        r"one's own side's melds",
        N_("%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds"),
    ),
    (
        r"(?P<side>.+) holds two sets of the same rank \((?P<melds>.+)\)",
        N_("%(side)s holds two sets of the same rank (%(melds)s)"),
    ),
    (
        r"(?P<who>.+) took the wild (?P<joker><CARD>) back into the hand from meld (?P<meld><MELD>) \(put in "
        r"(?P<card><CARD>)\): in Burraco a wild never leaves the table",
        N_(
            "%(who)s took the wild %(joker)s back into the hand from meld %(meld)s (put in %(card)s): in "
            "Burraco a wild never leaves the table"
        ),
    ),
    (r"(?P<who>.+) went out without a burraco for (?P<side>.+)", N_("%(who)s went out without a burraco for %(side)s")),
    (
        r"(?P<who>.+) went out without a clean burraco for (?P<side>.+)",
        N_("%(who)s went out without a clean burraco for %(side)s"),
    ),
    (
        r"(?P<who>.+) went out without a clean or semi-clean burraco for (?P<side>.+)",
        N_("%(who)s went out without a clean or semi-clean burraco for %(side)s"),
    ),
    (r"(?P<who>.+) went out without (?P<side>.+)'s pozzetto", N_("%(who)s went out without %(side)s's pozzetto")),
    (
        r"(?P<who>.+) went out by melding the last card instead of discarding it",
        N_("%(who)s went out by melding the last card instead of discarding it"),
    ),
    (
        r"(?P<who>.+) went out by discarding a wild \((?P<card><CARD>)\)",
        N_("%(who)s went out by discarding a wild (%(card)s)"),
    ),
    (
        r"(?P<who>.+) took pozzetto (?P<pozzetto>\d+), but (?P<faults_1><POZZ_FAULT>)(?: and "
        r"(?P<faults_2><POZZ_FAULT>))?",
        N_("%(who)s took pozzetto %(pozzetto)s, but %(faults)s"),
    ),
    (
        r"(?P<who>.+) played (?P<cards><CARDS>) from the pozzetto taken with the discard before its next turn",
        N_("%(who)s played %(cards)s from the pozzetto taken with the discard before its next turn"),
    ),
    (
        r"(?P<who>.+) discarded (?P<card><CARD>), the single card just taken from the discard pile",
        N_("%(who)s discarded %(card)s, the single card just taken from the discard pile"),
    ),
    (
        r"(?P<who>.+) drew (?P<card><CARD>) from the last two stock cards, which are never drawn",
        N_("%(who)s drew %(card)s from the last two stock cards, which are never drawn"),
    ),
    (
        r"(?P<late><LATE_PLAY>) after the hand had ended at the stock's end \(the discard at position "
        r"(?P<position>\d+) left the last two stock cards\): "
        r"play after it does not count",
        N_(
            "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left "
            "the last two stock cards): "
            "play after it does not count"
        ),
    ),
    # --- Gin ---
    (
        r"(?P<who>.+) discarded (?P<card><CARD>), the card just taken from the discard pile",
        N_("%(who)s discarded %(card)s, the card just taken from the discard pile"),
    ),
    (
        r"(?P<who>.+) knocked with deadwood (?P<n>\d+) \((?P<cards>(?:<CARDS>)?)\), above the knock card "
        r"(?P<limit>\d+)(?P<source><LIMIT_SOURCE>)?",
        N_("%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s"),
    ),
    (
        r"(?P<who>.+)'s knock (?P<part_1><KNOCK_PART>)(?: and (?P<part_2><KNOCK_PART>))?: melds and deadwood "
        r"must be exactly the ten cards held",
        N_("%(who)s's knock %(part)s: melds and deadwood must be exactly the ten cards held"),
    ),
    (
        r"(?P<who>.+) laid (?P<cards><CARDS>) after knocking: the knocker's melds are those declared with the knock",
        N_("%(who)s laid %(cards)s after knocking: the knocker's melds are those declared with the knock"),
    ),
    (
        r"(?P<who>.+) laid off (?P<cards><CARDS>) on meld (?P<meld><MELD>): the knocker does not lay off",
        N_("%(who)s laid off %(cards)s on meld %(meld)s: the knocker does not lay off"),
    ),
    (
        r"(?P<who>.+) laid off (?P<cards><CARDS>) on meld (?P<meld><MELD>) after (?P<knocker>.+) went gin",
        N_("%(who)s laid off %(cards)s on meld %(meld)s after %(knocker)s went gin"),
    ),
    (
        r"(?P<who>.+) took the upcard at the wall without knocking with it: at the wall the upcard is taken only "
        r"to knock; the hand is a 0–0 draw",
        N_(
            "%(who)s took the upcard at the wall without knocking with it: at the wall the upcard is taken only "
            "to knock; the hand is a 0–0 draw"
        ),
    ),
    (
        r"(?P<play><GIN_ACT>) after the hand was over by OpenSpiel's repeated-move rule \(the discards at "
        r"positions (?P<first>\d+) and (?P<second>\d+) "
        rf"each gave back the upcard just taken\): {TAIL}",
        N_(
            "%(play)s after the hand was over by OpenSpiel's repeated-move rule (the discards at positions "
            "%(first)s and %(second)s "
            "each gave back the upcard just taken): the hand is a 0–0 draw and later play does not count"
        ),
    ),
    (
        r"(?P<play><GIN_ACT>), the (?P<n>\d+)th upcard draw after the first turn: OpenSpiel ends the hand before "
        rf"that draw; {TAIL}",
        N_(
            "%(play)s, the %(n)sth upcard draw after the first turn: OpenSpiel ends the hand before that draw; "
            "the hand is a 0–0 draw and later play does not count"
        ),
    ),
    (
        r"(?P<play><GIN_ACT>) instead of knocking with the upcard taken at the wall: at the wall the upcard is "
        rf"taken only to knock; {TAIL}",
        N_(
            "%(play)s instead of knocking with the upcard taken at the wall: at the wall the upcard is taken "
            "only to knock; "
            "the hand is a 0–0 draw and later play does not count"
        ),
    ),
    (
        rf"(?P<who>.+) drew one of the last two stock cards, which are never drawn: {TAIL}",
        N_(
            "%(who)s drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and "
            "later play does not count"
        ),
    ),
    (
        r"(?P<play><GIN_ACT>) past the wall: the discard at position (?P<position>\d+) left two stock cards, "
        r"where only taking the upcard to knock, "
        rf"or passing, is allowed; {TAIL}",
        N_(
            "%(play)s past the wall: the discard at position %(position)s left two stock cards, where only "
            "taking the upcard to knock, "
            "or passing, is allowed; the hand is a 0–0 draw and later play does not count"
        ),
    ),
    (
        r"(?P<play><GIN_ACT>) past the wall: the discard at position (?P<position>\d+) left two stock cards and "
        r"ended the hand \(0–0\); later play does not count",
        N_(
            "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the "
            "hand (0–0); later play does not count"
        ),
    ),
    # --- Ramino ---
    (
        r"(?P<who>.+) laid (?P<n>\d+) new melds in one turn; at most (?P<limit>\d+) allowed",
        N_("%(who)s laid %(n)s new melds in one turn; at most %(limit)s allowed"),
    ),
    (
        r"(?P<who>.+) went out without a discard \(preset (?P<preset>\S+) requires one\): the last card went "
        r"into a meld",
        N_("%(who)s went out without a discard (preset %(preset)s requires one): the last card went into a meld"),
    ),
    (
        r"(?P<who>.+) went out without a discard \(preset (?P<preset>\S+) requires one\)",
        N_("%(who)s went out without a discard (preset %(preset)s requires one)"),
    ),
    # --- Scala 40, Ramino 51 (threshold.py, scala40.py, ramino51.py) ---
    (
        r"(?P<who>.+) went out without a discard: the last card went into a meld",
        N_("%(who)s went out without a discard: the last card went into a meld"),
    ),
    (r"(?P<who>.+) went out without a discard", N_("%(who)s went out without a discard")),
    (
        r"(?P<who>.+) laid off (?P<cards><COMPACT>) on meld (?P<meld><MELD>) before opening",
        N_("%(who)s laid off %(cards)s on meld %(meld)s before opening"),
    ),
    (
        r"(?P<who>.+) laid off (?P<cards><COMPACT>) on meld (?P<meld><MELD>) in its opening turn \(only a joker "
        r"swap is allowed\)",
        N_("%(who)s laid off %(cards)s on meld %(meld)s in its opening turn (only a joker swap is allowed)"),
    ),
    (
        r"(?P<who>.+) swapped the (?P<joker><CARD>) in meld (?P<meld><MELD>) before opening",
        N_("%(who)s swapped the %(joker)s in meld %(meld)s before opening"),
    ),
    (
        r"(?P<who>.+) put (?P<card><CARD>) in place of the (?P<joker><CARD>) in meld (?P<meld><MELD>) "
        r"\((?P<cards><COMPACT>)\), but (?P<why><SWAP_WHY>)",
        N_("%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s"),
    ),
    (
        r"(?P<who>.+) opened with (?P<total>\d+) points: (?P<items>(?:<OPENING_ITEM>(?:, <OPENING_ITEM>)*)?); "
        r"(?P<need_1><OPENING_NEED>)(?: and (?P<need_2><OPENING_NEED>))?",
        N_("%(who)s opened with %(total)s points: %(items)s; %(need)s"),
    ),
    (
        r"(?P<who>.+) took (?P<cards><COMPACT>) from the discard pile in its first turn",
        N_("%(who)s took %(cards)s from the discard pile in its first turn"),
    ),
    (r"(?P<who>.+) melded in its first turn", N_("%(who)s melded in its first turn")),
    (
        r"(?P<who>.+) took (?P<card><CARD>) from the discard pile and did not meld it in the same turn",
        N_("%(who)s took %(card)s from the discard pile and did not meld it in the same turn"),
    ),
    (
        r"(?P<who>.+) took (?P<card><CARD>) from the discard pile without having opened and did not open with it",
        N_("%(who)s took %(card)s from the discard pile without having opened and did not open with it"),
    ),
    (
        r"(?P<who>.+) took a joker from a meld and did not meld it in the same turn",
        N_("%(who)s took a joker from a meld and did not meld it in the same turn"),
    ),
    (
        r"(?P<who>.+) discarded (?P<card><CARD>), which could be laid off on meld (?P<meld><MELD>) "
        r"\((?P<cards><COMPACT>)\)",
        N_("%(who)s discarded %(card)s, which could be laid off on meld %(meld)s (%(cards)s)"),
    ),
)


# --- translating -------------------------------------------------------------------

Gettext = Any  # a gettext translations object: .gettext(str) -> str


def _from(table: _Table, text: str, tr: Gettext) -> str | None:
    """``text`` by the first row of ``table`` that matches it whole, its
    groups translated in turn; None when no row does, or a group cannot be."""
    for rx, msgid in table:
        m = rx.fullmatch(text)
        if m is None:
            continue
        values: dict[str, str] = {}
        for name, value in m.groupdict().items():
            base = re.sub(r"_\d+$", "", name)
            if value is None:
                values.setdefault(base, "")
                continue
            done = _slot(base, value, tr)
            if done is None:
                return None
            if name != base and values.get(base):  # the second of two clauses joined by "and"
                done = tr.gettext(AND) % {"first": values[base], "second": done}
            values[base] = done
        return tr.gettext(msgid) % values
    return None


def _breakdown(text: str, tr: Gettext) -> str:
    from ledger.render import component_text

    parts = re.findall(r"(\w+) ([+-]\d+)", text)
    shown = ", ".join(f"{component_text(k, tr)} {v}" for k, v in parts)
    return tr.gettext(N_("; computed as %(parts)s")) % {"parts": shown}


def _items(text: str, tr: Gettext) -> str | None:
    items = re.findall(_expand(r"<COMPACT> = \d+(?: \(not a meld\))?"), text)
    done = [_from(_OPENING_ITEM_T, item, tr) for item in items]
    return None if any(d is None for d in done) else ", ".join(d for d in done if d is not None)


def _cards_or(text: str, tr: Gettext) -> str:
    cards = text.split(" or ")
    out = cards[0]
    for card in cards[1:]:
        out = tr.gettext(OR) % {"first": out, "second": card}
    return out


#: a group's name -> how its text is translated (None: it cannot be); groups not named here stay as they are
SLOTS: dict[str, Callable[[str, Gettext], str | None]] = {
    "side": lambda v, tr: _from(_SIDE_T, v, tr) or v,
    "fault": lambda v, tr: tr.gettext(FAULT_TEXTS[v]) if v in FAULT_TEXTS else None,
    "event": lambda v, tr: tr.gettext(EVENT_TEXTS[v]) if v in EVENT_TEXTS else None,
    "scored": lambda v, tr: _from(_SCORED_T, v, tr),
    "explain": _breakdown,
    "play": lambda v, tr: _from(_GIN_ACT_T, v, tr),
    "late": lambda v, tr: _from(_LATE_PLAY_T, v, tr),
    "faults": lambda v, tr: _from(_POZZ_FAULT_T, v, tr),
    "part": lambda v, tr: _from(_KNOCK_PART_T, v, tr),
    "need": lambda v, tr: _from(_OPENING_NEED_T, v, tr),
    "items": _items,
    "options": _cards_or,
    "why": lambda v, tr: _from(_SWAP_WHY_T, v, tr),
    "source": lambda v, tr: _from(_LIMIT_SOURCE_T, v, tr),
}


def _slot(name: str, value: str, tr: Gettext) -> str | None:
    how = SLOTS.get(name)
    return value if how is None else how(value, tr)


def finding_text(message: str, tr: Gettext | None = None) -> str:
    """``message`` (a finding's English text, FORMAT.md) in the language of
    ``tr``; unchanged in English (``tr`` None or a ``NullTranslations``)
    and when no entry of :data:`MESSAGES` knows it."""
    if tr is None or type(tr) is NullTranslations:
        return message
    done = _from(MESSAGES, message, tr)
    return message if done is None else done


def known(message: str) -> bool:
    """True when :data:`MESSAGES` knows ``message``'s shape (its pieces included)."""
    return _from(MESSAGES, message, NullTranslations()) is not None


__all__ = ["MESSAGES", "N_", "finding_text", "known"]
