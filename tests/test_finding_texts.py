"""Finding messages in Italian (issue 16, as data since issue 23): a finding is a
msgid and its params (:mod:`ledger.texts`); English is ``msgid % params``,
Italian ``gettext(msgid) % params``, each nested piece (a meld's fault, a
side's label, what a seat did, a score breakdown, clauses joined by "and")
rendered in the same language.

The messages checked: every finding of every record under ``fixtures/``
that imports, every finding of simulated games with injected violations
(:mod:`ledger.simulate`), and :data:`SAMPLES`: one message per msgid the
rules mark (ledger/variants, ledger/melds.py FAULTS), each as the rules make
it, with its exact English and Italian (the English taken from the findings
the rule tests' records produce, tests/test_burraco*.py, test_scala40,
test_ramino51, test_ramino_rules, test_gin_rules, test_fold_common,
test_simulate...).
"""

from __future__ import annotations

import ast
import json
import re
from gettext import NullTranslations
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.i18n import translations
from ledger.record_files import read_record
from ledger.replay import replay, validate
from ledger.simulate import STRATEGIES, simulate_game
from ledger.state import Finding
from ledger.texts import Message, render

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
IT = translations("it")

#: (message, English, Italian): one message per msgid (and per piece: meld faults, what a seat did, ...)
SAMPLES: list[tuple[Message, str, str]] = [
    (
        Message(
            "hand %(hand)s cannot be scored: the count of %(sides)s depends on unknown cards"
            " and no points were claimed",
            hand=2,
            sides=(Message("team %(team)s (%(names)s)", team=1, names="Bruno & Dario"),),
        ),
        "hand 2 cannot be scored: the count of team 1 (Bruno & Dario) depends on unknown cards"
        " and no points were claimed",
        "la smazzata 2 non si può conteggiare: il conto di coppia 1 (Bruno & Dario) dipende da carte sconosciute"
        " e non è stato dichiarato alcun punteggio",
    ),
    (
        Message("%(who)s discarded %(card)s, the card just taken from the discard pile", who="Anna", card="2♣"),
        "Anna discarded 2♣, the card just taken from the discard pile",
        "Anna ha scartato 2♣, la carta appena presa dal pozzo",
    ),
    (
        Message("%(who)s discarded %(card)s, the single card just taken from the discard pile", who="Anna", card="3♣"),
        "Anna discarded 3♣, the single card just taken from the discard pile",
        "Anna ha scartato 3♣, l'unica carta appena presa dal pozzo",
    ),
    (
        Message(
            "%(who)s discarded %(card)s, which could be laid off on meld %(meld)s (%(cards)s)",
            who="Anna",
            card="4♥",
            meld="a",
            cards="A♥2♥3♥",
        ),
        "Anna discarded 4♥, which could be laid off on meld a (A♥2♥3♥)",
        "Anna ha scartato 4♥, che si poteva attaccare alla combinazione a (A♥2♥3♥)",
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message("%(who)s discarded %(card)s", who="Anna", card="5♥"),
            position=80,
        ),
        (
            "Anna discarded 5♥ after the hand had ended at the stock's end (the discard at position 80 left the last "
            "two stock cards): play after it does not count"
        ),
        (
            "Anna ha scartato 5♥ dopo che la smazzata era finita a tallone esaurito (lo scarto alla posizione 80 aveva "
            "lasciato le ultime due carte del tallone): il gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message("%(who)s drew %(card)s", who="Anna", card="5♥"),
            position=80,
        ),
        (
            "Anna drew 5♥ after the hand had ended at the stock's end (the discard at position 80 left the last two "
            "stock cards): play after it does not count"
        ),
        (
            "Anna ha pescato 5♥ dopo che la smazzata era finita a tallone esaurito (lo scarto alla posizione 80 aveva "
            "lasciato le ultime due carte del tallone): il gioco successivo non conta"
        ),
    ),
    (
        Message("%(who)s drew a second time in the same turn (%(event)s)", who="Anna", event=Message("card_drawn")),
        "Anna drew a second time in the same turn (card_drawn)",
        "Anna ha pescato una seconda volta nello stesso turno (dal tallone)",
    ),
    (
        Message("%(who)s drew a second time in the same turn (%(event)s)", who="Anna", event=Message("discard_taken")),
        "Anna drew a second time in the same turn (discard_taken)",
        "Anna ha pescato una seconda volta nello stesso turno (dal pozzo)",
    ),
    (
        Message("%(who)s drew a second time in the same turn (%(event)s)", who="Anna", event=Message("pozzetto_taken")),
        "Anna drew a second time in the same turn (pozzetto_taken)",
        "Anna ha pescato una seconda volta nello stesso turno (il pozzetto)",
    ),
    (
        Message(
            (
                "%(who)s drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and later "
                "play does not count"
            ),
            who="Anna",
        ),
        (
            "Anna drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and later play "
            "does not count"
        ),
        (
            "Anna ha pescato una delle ultime due carte del tallone, che non si pescano mai: la smazzata è patta 0–0 e "
            "il gioco successivo non conta"
        ),
    ),
    (
        Message("%(side)s holds two sets of the same rank (%(melds)s)", side="Anna", melds="a: 7♣ 7♦ 7♠; b: 7♥ 7♣ 2♦"),
        "Anna holds two sets of the same rank (a: 7♣ 7♦ 7♠; b: 7♥ 7♣ 2♦)",
        "Anna ha due tris dello stesso valore (a: 7♣ 7♦ 7♠; b: 7♥ 7♣ 2♦)",
    ),
    (
        Message(
            "%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s",
            who="Anna",
            n=12,
            cards="9♣ 3♦",
            limit=10,
            source=Message(" (oklahoma: the first upcard %(card)s)", card="K♦"),
        ),
        "Anna knocked with deadwood 12 (9♣ 3♦), above the knock card 10 (oklahoma: the first upcard K♦)",
        (
            "Anna ha bussato con 12 punti morti (9♣ 3♦), oltre il valore di bussata 10 (oklahoma: la prima carta "
            "scoperta K♦)"
        ),
    ),
    (
        Message(
            "%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s",
            who="Anna",
            n=2,
            cards="2♣",
            limit=1,
            source="",
        ),
        "Anna knocked with deadwood 2 (2♣), above the knock card 1",
        "Anna ha bussato con 2 punti morti (2♣), oltre il valore di bussata 1",
    ),
    (
        Message("%(who)s laid %(n)s new melds in one turn; at most %(limit)s allowed", who="Anna", n=2, limit=1),
        "Anna laid 2 new melds in one turn; at most 1 allowed",
        "Anna ha calato 2 combinazioni nuove in un turno; ne sono ammesse al massimo 1",
    ),
    (
        Message(
            "%(who)s laid %(cards)s after knocking: the knocker's melds are those declared with the knock",
            who="Anna",
            cards="7♥ 8♥ 9♥",
        ),
        "Anna laid 7♥ 8♥ 9♥ after knocking: the knocker's melds are those declared with the knock",
        "Anna ha calato 7♥ 8♥ 9♥ dopo aver bussato: le combinazioni di chi bussa sono quelle dichiarate con la bussata",
    ),
    (
        Message("%(who)s laid off %(cards)s on meld %(meld)s before opening", who="Anna", cards="2♠", meld="m3"),
        "Anna laid off 2♠ on meld m3 before opening",
        "Anna ha attaccato 2♠ alla combinazione m3 prima dell'apertura",
    ),
    (
        Message(
            "%(who)s laid off %(cards)s on meld %(meld)s: the knocker does not lay off",
            who="Anna",
            cards="4♠",
            meld="k1",
        ),
        "Anna laid off 4♠ on meld k1: the knocker does not lay off",
        "Anna ha attaccato 4♠ alla combinazione k1: chi bussa non attacca",
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message("%(who)s laid off %(cards)s on meld %(meld)s", who="Anna", cards="5♥", meld="m3"),
            position=80,
        ),
        (
            "Anna laid off 5♥ on meld m3 after the hand had ended at the stock's end (the discard at position 80 left "
            "the last two stock cards): play after it does not count"
        ),
        (
            "Anna ha attaccato 5♥ alla combinazione m3 dopo che la smazzata era finita a tallone esaurito (lo scarto "
            "alla posizione 80 aveva lasciato le ultime due carte del tallone): il gioco successivo non conta"
        ),
    ),
    (
        Message(
            "%(who)s laid off %(cards)s on meld %(meld)s in its opening turn (only a joker swap is allowed)",
            who="Anna",
            cards="9♥",
            meld="b",
        ),
        "Anna laid off 9♥ on meld b in its opening turn (only a joker swap is allowed)",
        "Anna ha attaccato 9♥ alla combinazione b nel turno di apertura (è ammesso solo lo scambio del jolly)",
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message("%(who)s melded %(cards)s", who="Anna", cards="7♥ 8♥ 9♥"),
            position=80,
        ),
        (
            "Anna melded 7♥ 8♥ 9♥ after the hand had ended at the stock's end (the discard at position 80 left the "
            "last two stock cards): play after it does not count"
        ),
        (
            "Anna ha calato 7♥ 8♥ 9♥ dopo che la smazzata era finita a tallone esaurito (lo scarto alla posizione 80 "
            "aveva lasciato le ultime due carte del tallone): il gioco successivo non conta"
        ),
    ),
    (
        Message("%(who)s melded in its first turn", who="Anna"),
        "Anna melded in its first turn",
        "Anna ha calato al suo primo turno",
    ),
    (
        Message("%(who)s melded or laid off before drawing", who="Anna"),
        "Anna melded or laid off before drawing",
        "Anna ha calato o attaccato prima di pescare",
    ),
    (
        Message(
            "%(who)s opened with %(total)s points: %(items)s; %(need)s",
            who="Anna",
            total=30,
            items=(
                Message("%(cards)s = %(n)s (not a meld)", cards="3♣6♥9♦", n=0),
                Message("%(cards)s = %(n)s", cards="Q♣Q♦Q♥", n=30),
            ),
            need=Message("the opening needs %(n)s", n=40),
        ),
        "Anna opened with 30 points: 3♣6♥9♦ = 0 (not a meld), Q♣Q♦Q♥ = 30; the opening needs 40",
        "Anna ha aperto con 30 punti: 3♣6♥9♦ = 0 (non è una combinazione), Q♣Q♦Q♥ = 30; l'apertura richiede 40 punti",
    ),
    (
        Message(
            "%(who)s opened with %(total)s points: %(items)s; %(need)s",
            who="Anna",
            total=33,
            items=(
                Message("%(cards)s = %(n)s", cards="7♦7♥7♠", n=21),
                Message("%(cards)s = %(n)s", cards="4♣4♦JK", n=12),
            ),
            need=Message(
                "%(first)s and %(second)s",
                first=Message("the opening needs %(n)s", n=51),
                second=Message("the opening needs a clean sequence or set (no joker)"),
            ),
        ),
        (
            "Anna opened with 33 points: 7♦7♥7♠ = 21, 4♣4♦JK = 12; the opening needs 51 and the opening needs a clean "
            "sequence or set (no joker)"
        ),
        (
            "Anna ha aperto con 33 punti: 7♦7♥7♠ = 21, 4♣4♦JK = 12; l'apertura richiede 51 punti e l'apertura richiede "
            "una scala o un tris puliti (senza jolly)"
        ),
    ),
    (
        Message(
            "%(who)s opened with %(total)s points: %(items)s; %(need)s",
            who="Anna",
            total=6,
            items=(Message("%(cards)s = %(n)s", cards="2♣2♥2♠", n=6),),
            need=Message("the opening needs %(n)s", n=51),
        ),
        "Anna opened with 6 points: 2♣2♥2♠ = 6; the opening needs 51",
        "Anna ha aperto con 6 punti: 2♣2♥2♠ = 6; l'apertura richiede 51 punti",
    ),
    (
        Message(
            "%(who)s opened with %(total)s points: %(items)s; %(need)s",
            who="Anna",
            total=60,
            items=(
                Message("%(cards)s = %(n)s", cards="7♦7♥7♠", n=21),
                Message("%(cards)s = %(n)s", cards="4♣5♣JK7♣", n=21),
                Message("%(cards)s = %(n)s", cards="Q♣Q♦Q♥", n=30),
            ),
            need=Message("the opening needs a clean sequence (no joker)"),
        ),
        (
            "Anna opened with 60 points: 7♦7♥7♠ = 21, 4♣5♣JK7♣ = 21, Q♣Q♦Q♥ = 30; the opening needs a clean sequence "
            "(no joker)"
        ),
        (
            "Anna ha aperto con 60 punti: 7♦7♥7♠ = 21, 4♣5♣JK7♣ = 21, Q♣Q♦Q♥ = 30; l'apertura richiede una scala "
            "pulita (senza jolly)"
        ),
    ),
    (
        Message(
            "%(who)s played %(cards)s from the pozzetto taken with the discard before its next turn",
            who="Anna",
            cards="5♦",
        ),
        "Anna played 5♦ from the pozzetto taken with the discard before its next turn",
        "Anna ha giocato 5♦ dal pozzetto preso con lo scarto prima del turno seguente",
    ),
    (
        Message("%(who)s played out of turn: it was %(due)s's turn", who="Anna", due="Bruno"),
        "Anna played out of turn: it was Bruno's turn",
        "Anna ha giocato fuori turno: era il turno di Bruno",
    ),
    (
        Message(
            "%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s",
            who="Anna",
            card="4♦",
            joker="2♦",
            meld="c",
            cards="2♦5♦6♦",
            why=Message("%(card)s is not a wild there", card="2♦"),
        ),
        "Anna put 4♦ in place of the 2♦ in meld c (2♦5♦6♦), but 2♦ is not a wild there",
        "Anna ha messo 4♦ al posto del 2♦ nella combinazione c (2♦5♦6♦), ma lì 2♦ non è una matta",
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message(
                "%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s",
                who="Anna",
                card="5♥",
                joker="JK",
                meld="m3",
            ),
            position=80,
        ),
        (
            "Anna put 5♥ in place of the JK in meld m3 after the hand had ended at the stock's end (the discard at "
            "position 80 left the last two stock cards): play after it does not count"
        ),
        (
            "Anna ha messo 5♥ al posto del JK nella combinazione m3 dopo che la smazzata era finita a tallone esaurito "
            "(lo scarto alla posizione 80 aveva lasciato le ultime due carte del tallone): il gioco successivo non "
            "conta"
        ),
    ),
    (
        Message(
            "%(who)s took %(card)s from the discard pile and did not meld it in the same turn", who="Anna", card="2♠"
        ),
        "Anna took 2♠ from the discard pile and did not meld it in the same turn",
        "Anna ha preso 2♠ dal pozzo e non l'ha calata nello stesso turno",
    ),
    (
        Message("%(who)s took %(cards)s from the discard pile in its first turn", who="Anna", cards="2♠"),
        "Anna took 2♠ from the discard pile in its first turn",
        "Anna ha preso 2♠ dal pozzo al suo primo turno",
    ),
    (
        Message(
            "%(who)s took %(card)s from the discard pile without having opened and did not open with it",
            who="Anna",
            card="2♠",
        ),
        "Anna took 2♠ from the discard pile without having opened and did not open with it",
        "Anna ha preso 2♠ dal pozzo senza aver aperto e non ha aperto con essa",
    ),
    (
        Message(
            (
                "%(play)s, the %(n)sth upcard draw after the first turn: OpenSpiel ends the hand before that draw; the "
                "hand is a 0–0 draw and later play does not count"
            ),
            play=Message("%(who)s took %(cards)s from the discard pile", who="Anna", cards="8♥"),
            n=50,
        ),
        (
            "Anna took 8♥ from the discard pile, the 50th upcard draw after the first turn: OpenSpiel ends the hand "
            "before that draw; the hand is a 0–0 draw and later play does not count"
        ),
        (
            "Anna ha preso 8♥ dal pozzo, la 50ª presa della carta scoperta dopo il primo turno: OpenSpiel chiude la "
            "smazzata prima di quella presa; la smazzata è patta 0–0 e il gioco successivo non conta"
        ),
    ),
    (
        Message(
            "%(who)s took pozzetto %(pozzetto)s, but %(faults)s",
            who="Anna",
            pozzetto=1,
            faults=Message(
                "%(first)s and %(second)s",
                first=Message(
                    "%(side)s already had its pozzetto",
                    side=Message("team %(team)s (%(names)s)", team=0, names="Anna & Carla"),
                ),
                second=Message("%(who)s still held %(n)s card(s) (%(cards)s)", who="Anna", n=2, cards="J♣ Q♣"),
            ),
        ),
        (
            "Anna took pozzetto 1, but team 0 (Anna & Carla) already had its pozzetto and Anna still held 2 card(s) "
            "(J♣ Q♣)"
        ),
        (
            "Anna ha preso il pozzetto 1, ma coppia 0 (Anna & Carla) aveva già preso il suo pozzetto e Anna aveva "
            "ancora in mano 2 carte (J♣ Q♣)"
        ),
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message("%(who)s took the discard pile (%(cards)s)", who="Anna", cards="5♥ 6♣"),
            position=80,
        ),
        (
            "Anna took the discard pile (5♥ 6♣) after the hand had ended at the stock's end (the discard at position "
            "80 left the last two stock cards): play after it does not count"
        ),
        (
            "Anna ha preso il pozzo (5♥ 6♣) dopo che la smazzata era finita a tallone esaurito (lo scarto alla "
            "posizione 80 aveva lasciato le ultime due carte del tallone): il gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(who)s took the wild %(joker)s back into the hand from meld %(meld)s (put in %(card)s): in Burraco a "
                "wild never leaves the table"
            ),
            who="Anna",
            joker="JK",
            meld="a",
            card="5♥",
        ),
        "Anna took the wild JK back into the hand from meld a (put in 5♥): in Burraco a wild never leaves the table",
        (
            "Anna ha ripreso in mano la matta JK dalla combinazione a (mettendo 5♥): nel Burraco una matta non lascia "
            "mai il tavolo"
        ),
    ),
    (
        Message("%(who)s was dealt %(n)s cards instead of %(want)s", who="Anna", n=9, want=10),
        "Anna was dealt 9 cards instead of 10",
        "Anna ha ricevuto 9 carte invece di 10",
    ),
    (
        Message("%(who)s went out by discarding a wild (%(card)s)", who="Anna", card="2♠"),
        "Anna went out by discarding a wild (2♠)",
        "Anna ha chiuso scartando una matta (2♠)",
    ),
    (
        Message("%(who)s went out by melding the last card instead of discarding it", who="Anna"),
        "Anna went out by melding the last card instead of discarding it",
        "Anna ha chiuso calando l'ultima carta invece di scartarla",
    ),
    (
        Message("%(who)s went out without %(side)s's pozzetto", who="Anna", side="Anna"),
        "Anna went out without Anna's pozzetto",
        "Anna ha chiuso senza il pozzetto di Anna",
    ),
    (
        Message("%(who)s went out without a burraco for %(side)s", who="Anna", side="Anna"),
        "Anna went out without a burraco for Anna",
        "Anna ha chiuso senza un burraco per Anna",
    ),
    (
        Message("%(who)s went out without a clean burraco for %(side)s", who="Anna", side="Anna"),
        "Anna went out without a clean burraco for Anna",
        "Anna ha chiuso senza un burraco pulito per Anna",
    ),
    (
        Message(
            "%(who)s went out without a clean or semi-clean burraco for %(side)s",
            who="Anna",
            side=Message("team %(team)s (%(names)s)", team=0, names="Anna & Carla"),
        ),
        "Anna went out without a clean or semi-clean burraco for team 0 (Anna & Carla)",
        "Anna ha chiuso senza un burraco pulito o semipulito per coppia 0 (Anna & Carla)",
    ),
    (
        Message("%(who)s went out without a discard", who="Anna"),
        "Anna went out without a discard",
        "Anna ha chiuso senza scarto",
    ),
    (
        Message(
            "%(who)s went out without a discard (preset %(preset)s requires one): the last card went into a meld",
            who="Anna",
            preset="casa",
        ),
        "Anna went out without a discard (preset casa requires one): the last card went into a meld",
        "Anna ha chiuso senza scarto (il preset casa lo richiede): l'ultima carta è andata in una combinazione",
    ),
    (
        Message("%(who)s went out without a discard: the last card went into a meld", who="Anna"),
        "Anna went out without a discard: the last card went into a meld",
        "Anna ha chiuso senza scarto: l'ultima carta è andata in una combinazione",
    ),
    (
        Message(
            "%(who)s went out without %(side)s's pozzetto",
            who="Anna",
            side=Message("team %(team)s (%(names)s)", team=0, names="Anna & Carla"),
        ),
        "Anna went out without team 0 (Anna & Carla)'s pozzetto",
        "Anna ha chiuso senza il pozzetto di coppia 0 (Anna & Carla)",
    ),
    (
        Message(
            "%(who)s's knock %(part)s: melds and deadwood must be exactly the ten cards held",
            who="Anna",
            part=Message(
                "%(first)s and %(second)s",
                first=Message("declares %(cards)s beyond the cards held", cards="5♥"),
                second=Message("leaves out %(cards)s", cards="6♣"),
            ),
        ),
        (
            "Anna's knock declares 5♥ beyond the cards held and leaves out 6♣: melds and deadwood must be exactly the "
            "ten cards held"
        ),
        (
            "la bussata di Anna dichiara 5♥ oltre alle carte in mano e tralascia 6♣: combinazioni e punti morti devono "
            "essere esattamente le dieci carte in mano"
        ),
    ),
    (
        Message(
            "%(who)s's knock %(part)s: melds and deadwood must be exactly the ten cards held",
            who="Anna",
            part=Message("leaves out %(cards)s", cards="2♣"),
        ),
        "Anna's knock leaves out 2♣: melds and deadwood must be exactly the ten cards held",
        "la bussata di Anna tralascia 2♣: combinazioni e punti morti devono essere esattamente le dieci carte in mano",
    ),
    (
        Message("%(who)s's turn ended without a discard: %(next)s acted next", who="Anna", next="Bruno"),
        "Anna's turn ended without a discard: Bruno acted next",
        "il turno di Anna è finito senza scarto: ha giocato Bruno",
    ),
    (
        Message("%(who)s dealt hand %(hand)s; the rotation called for %(due)s", who="Bruno", hand=2, due="Anna"),
        "Bruno dealt hand 2; the rotation called for Anna",
        "Bruno ha distribuito la smazzata 2; secondo la rotazione toccava a Anna",
    ),
    (
        Message(
            "%(who)s discarded after %(knocker)s knocked: only the defender's melds and lay-offs remain",
            who="Bruno",
            knocker="Anna",
        ),
        "Bruno discarded after Anna knocked: only the defender's melds and lay-offs remain",
        "Bruno ha scartato dopo che Anna ha bussato: restano solo le calate e gli attacchi dell'avversario",
    ),
    (
        Message(
            (
                "%(play)s instead of knocking with the upcard taken at the wall: at the wall the upcard is taken only "
                "to knock; the hand is a 0–0 draw and later play does not count"
            ),
            play=Message("%(who)s discarded %(card)s", who="Bruno", card="8♥"),
        ),
        (
            "Bruno discarded 8♥ instead of knocking with the upcard taken at the wall: at the wall the upcard is taken "
            "only to knock; the hand is a 0–0 draw and later play does not count"
        ),
        (
            "Bruno ha scartato 8♥ invece di bussare con la carta scoperta presa al muro: al muro la carta scoperta si "
            "prende solo per bussare; la smazzata è patta 0–0 e il gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s discarded %(card)s", who="Bruno", card="8♥"),
            position=40,
        ),
        (
            "Bruno discarded 8♥ past the wall: the discard at position 40 left two stock cards and ended the hand "
            "(0–0); later play does not count"
        ),
        (
            "Bruno ha scartato 8♥ oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel tallone e ha "
            "chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message("%(who)s discarded before drawing", who="Bruno"),
        "Bruno discarded before drawing",
        "Bruno ha scartato prima di pescare",
    ),
    (
        Message("%(who)s drew %(card)s from the last two stock cards, which are never drawn", who="Bruno", card="J♥"),
        "Bruno drew J♥ from the last two stock cards, which are never drawn",
        "Bruno ha pescato J♥ dalle ultime due carte del tallone, che non si pescano mai",
    ),
    (
        Message(
            "%(who)s drew after %(knocker)s knocked: only the defender's melds and lay-offs remain",
            who="Bruno",
            knocker="Anna",
        ),
        "Bruno drew after Anna knocked: only the defender's melds and lay-offs remain",
        "Bruno ha pescato dopo che Anna ha bussato: restano solo le calate e gli attacchi dell'avversario",
    ),
    (
        Message(
            (
                "%(play)s after the hand was over by OpenSpiel's repeated-move rule (the discards at positions "
                "%(first)s and %(second)s each gave back the upcard just taken): the hand is a 0–0 draw and later play "
                "does not count"
            ),
            play=Message("%(who)s drew from the stock", who="Bruno"),
            first=7,
            second=9,
        ),
        (
            "Bruno drew from the stock after the hand was over by OpenSpiel's repeated-move rule (the discards at "
            "positions 7 and 9 each gave back the upcard just taken): the hand is a 0–0 draw and later play does not "
            "count"
        ),
        (
            "Bruno ha pescato dal tallone dopo che la smazzata era finita per la regola della mossa ripetuta di "
            "OpenSpiel (gli scarti alle posizioni 7 e 9 hanno rimesso ciascuno la carta scoperta appena presa): la "
            "smazzata è patta 0–0 e il gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s drew from the stock", who="Bruno"),
            position=61,
        ),
        (
            "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards and ended the "
            "hand (0–0); later play does not count"
        ),
        (
            "Bruno ha pescato dal tallone oltre il muro: lo scarto alla posizione 61 ha lasciato due carte nel tallone "
            "e ha chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards, where only taking "
                "the upcard to knock, or passing, is allowed; the hand is a 0–0 draw and later play does not count"
            ),
            play=Message("%(who)s drew from the stock", who="Bruno"),
            position=61,
        ),
        (
            "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards, where only "
            "taking the upcard to knock, or passing, is allowed; the hand is a 0–0 draw and later play does not count"
        ),
        (
            "Bruno ha pescato dal tallone oltre il muro: lo scarto alla posizione 61 ha lasciato due carte nel "
            "tallone, dove si può solo prendere la carta scoperta per bussare, o passare; la smazzata è patta 0–0 e il "
            "gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s knocked", who="Bruno"),
            position=40,
        ),
        (
            "Bruno knocked past the wall: the discard at position 40 left two stock cards and ended the hand (0–0); "
            "later play does not count"
        ),
        (
            "Bruno ha bussato oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel tallone e ha chiuso "
            "la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s laid a meld", who="Bruno"),
            position=40,
        ),
        (
            "Bruno laid a meld past the wall: the discard at position 40 left two stock cards and ended the hand "
            "(0–0); later play does not count"
        ),
        (
            "Bruno ha calato una combinazione oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel "
            "tallone e ha chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message(
            "%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds",
            who="Bruno",
            cards="2♠",
            meld="a",
            side="Anna",
        ),
        "Bruno laid off 2♠ on meld a of Anna: lay-offs go only on one's own side's melds",
        (
            "Bruno ha attaccato 2♠ alla combinazione a di Anna: si attacca solo alle proprie combinazioni o a quelle "
            "del compagno"
        ),
    ),
    (
        Message(
            "%(who)s laid off %(cards)s on meld %(meld)s after %(knocker)s went gin",
            who="Bruno",
            cards="4♠",
            meld="k1",
            knocker="Anna",
        ),
        "Bruno laid off 4♠ on meld k1 after Anna went gin",
        "Bruno ha attaccato 4♠ alla combinazione k1 dopo il gin di Anna",
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s laid off", who="Bruno"),
            position=40,
        ),
        (
            "Bruno laid off past the wall: the discard at position 40 left two stock cards and ended the hand (0–0); "
            "later play does not count"
        ),
        (
            "Bruno ha attaccato oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel tallone e ha "
            "chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message("%(who)s passed the upcard out of turn: it was %(due)s's turn", who="Bruno", due="Anna"),
        "Bruno passed the upcard out of turn: it was Anna's turn",
        "Bruno ha passato la carta scoperta fuori turno: era il turno di Anna",
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s passed the upcard", who="Bruno"),
            position=40,
        ),
        (
            "Bruno passed the upcard past the wall: the discard at position 40 left two stock cards and ended the hand "
            "(0–0); later play does not count"
        ),
        (
            "Bruno ha passato la carta scoperta oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel "
            "tallone e ha chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message(
            "%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s",
            who="Bruno",
            card="8♦",
            joker="JK",
            meld="a",
            cards="7♥JK9♥",
            why=Message("it stands for %(options)s", options="8♥"),
        ),
        "Bruno put 8♦ in place of the JK in meld a (7♥JK9♥), but it stands for 8♥",
        "Bruno ha messo 8♦ al posto del JK nella combinazione a (7♥JK9♥), ma il jolly sostituisce 8♥",
    ),
    (
        Message(
            "%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s",
            who="Bruno",
            card="Q♠",
            joker="JK",
            meld="b",
            cards="Q♠Q♥JK",
            why=Message(
                "it stands for %(options)s", options=Message("%(first)s or %(second)s", first="Q♣", second="Q♦")
            ),
        ),
        "Bruno put Q♠ in place of the JK in meld b (Q♠Q♥JK), but it stands for Q♣ or Q♦",
        "Bruno ha messo Q♠ al posto del JK nella combinazione b (Q♠Q♥JK), ma il jolly sostituisce Q♣ o Q♦",
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s swapped a joker", who="Bruno"),
            position=40,
        ),
        (
            "Bruno swapped a joker past the wall: the discard at position 40 left two stock cards and ended the hand "
            "(0–0); later play does not count"
        ),
        (
            "Bruno ha scambiato un jolly oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel tallone "
            "e ha chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message("%(who)s swapped the %(joker)s in meld %(meld)s before opening", who="Bruno", joker="JK", meld="b"),
        "Bruno swapped the JK in meld b before opening",
        "Bruno ha scambiato il JK nella combinazione b prima dell'apertura",
    ),
    (
        Message(
            (
                "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the hand "
                "(0–0); later play does not count"
            ),
            play=Message("%(who)s took %(cards)s from the discard pile", who="Bruno", cards="8♥"),
            position=40,
        ),
        (
            "Bruno took 8♥ from the discard pile past the wall: the discard at position 40 left two stock cards and "
            "ended the hand (0–0); later play does not count"
        ),
        (
            "Bruno ha preso 8♥ dal pozzo oltre il muro: lo scarto alla posizione 40 ha lasciato due carte nel tallone "
            "e ha chiuso la smazzata (0–0); il gioco successivo non conta"
        ),
    ),
    (
        Message("%(who)s took a joker from a meld and did not meld it in the same turn", who="Bruno"),
        "Bruno took a joker from a meld and did not meld it in the same turn",
        "Bruno ha preso un jolly da una combinazione e non l'ha calato nello stesso turno",
    ),
    (
        Message(
            (
                "%(late)s after the hand had ended at the stock's end (the discard at position %(position)s left the "
                "last two stock cards): play after it does not count"
            ),
            late=Message("%(who)s took pozzetto %(n)s", who="Bruno", n=1),
            position=125,
        ),
        (
            "Bruno took pozzetto 1 after the hand had ended at the stock's end (the discard at position 125 left the "
            "last two stock cards): play after it does not count"
        ),
        (
            "Bruno ha preso il pozzetto 1 dopo che la smazzata era finita a tallone esaurito (lo scarto alla posizione "
            "125 aveva lasciato le ultime due carte del tallone): il gioco successivo non conta"
        ),
    ),
    (
        Message(
            "%(who)s took pozzetto %(pozzetto)s, but %(faults)s",
            who="Bruno",
            pozzetto=1,
            faults=Message(
                "%(who)s still held %(n)s card(s) (%(cards)s)",
                who="Bruno",
                n=11,
                cards="4♦ 9♠ 9♦ Q♥ 6♣ 6♦ Q♦ 4♣ J♥ 8♣ J♦",
            ),
        ),
        "Bruno took pozzetto 1, but Bruno still held 11 card(s) (4♦ 9♠ 9♦ Q♥ 6♣ 6♦ Q♦ 4♣ J♥ 8♣ J♦)",
        "Bruno ha preso il pozzetto 1, ma Bruno aveva ancora in mano 11 carte (4♦ 9♠ 9♦ Q♥ 6♣ 6♦ Q♦ 4♣ J♥ 8♣ J♦)",
    ),
    (
        Message(
            "%(who)s took pozzetto %(pozzetto)s, but %(faults)s",
            who="Bruno",
            pozzetto=0,
            faults=Message("%(who)s still held 1 card(s) (%(cards)s)", who="Bruno", cards="Q♥"),
        ),
        "Bruno took pozzetto 0, but Bruno still held 1 card(s) (Q♥)",
        "Bruno ha preso il pozzetto 0, ma Bruno aveva ancora in mano una carta (Q♥)",
    ),
    (
        Message(
            (
                "%(who)s took the upcard at the wall without knocking with it: at the wall the upcard is taken only to "
                "knock; the hand is a 0–0 draw"
            ),
            who="Bruno",
        ),
        (
            "Bruno took the upcard at the wall without knocking with it: at the wall the upcard is taken only to "
            "knock; the hand is a 0–0 draw"
        ),
        (
            "Bruno ha preso la carta scoperta al muro senza bussare con essa: al muro la carta scoperta si prende solo "
            "per bussare; la smazzata è patta 0–0"
        ),
    ),
    (
        Message("%(who)s went out without a discard (preset %(preset)s requires one)", who="Bruno", preset="casa"),
        "Bruno went out without a discard (preset casa requires one)",
        "Bruno ha chiuso senza scarto (il preset casa lo richiede)",
    ),
    (
        Message(
            "%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds",
            who="Dario",
            cards="6♥",
            meld="m4",
            side=Message("team %(team)s (%(names)s)", team=0, names="Anna & Carla"),
        ),
        "Dario laid off 6♥ on meld m4 of team 0 (Anna & Carla): lay-offs go only on one's own side's melds",
        (
            "Dario ha attaccato 6♥ alla combinazione m4 di coppia 0 (Anna & Carla): si attacca solo alle proprie "
            "combinazioni o a quelle del compagno"
        ),
    ),
    (
        Message(
            "declared meld %(meld)s %(cards)s: %(fault)s",
            meld="k2",
            cards="7♣ 7♦ 9♥",
            fault=Message("neither a set nor a sequence"),
        ),
        "declared meld k2 7♣ 7♦ 9♥: neither a set nor a sequence",
        "combinazione dichiarata k2 7♣ 7♦ 9♥: né un tris né una scala",
    ),
    (
        Message(
            (
                "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                "%(difference)s)%(explain)s"
            ),
            scored=Message("final totals"),
            claimed=2005,
            side="Anna",
            computed=2050,
            difference="-45",
            explain="",
        ),
        "final totals: claimed 2005 for Anna, computed 2050 (difference -45)",
        "totali finali: dichiarati 2005 per Anna, calcolati 2050 (differenza -45)",
    ),
    (
        Message(
            (
                "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                "%(difference)s)%(explain)s"
            ),
            scored=Message("final totals"),
            claimed=-185,
            side="Bruno",
            computed=-235,
            difference="+50",
            explain=Message(
                "; computed as %(parts)s",
                parts=(
                    Message("%(part)s %(points)s", part=Message("hands"), points="-185"),
                    Message("%(part)s %(points)s", part=Message("penalties"), points="-50"),
                ),
            ),
        ),
        "final totals: claimed -185 for Bruno, computed -235 (difference +50); computed as hands -185, penalties -50",
        (
            "totali finali: dichiarati -185 per Bruno, calcolati -235 (differenza +50); calcolo: smazzate -185, "
            "penalità -50"
        ),
    ),
    (
        Message(
            (
                "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                "%(difference)s)%(explain)s"
            ),
            scored=Message("hand %(hand)s", hand=1),
            claimed=0,
            side="Anna",
            computed="-70",
            difference="+70",
            explain=Message(
                "; computed as %(parts)s",
                parts=(
                    Message("%(part)s %(points)s", part=Message("melds"), points="+55"),
                    Message("%(part)s %(points)s", part=Message("hand"), points="-25"),
                    Message("%(part)s %(points)s", part=Message("no_pozzetto"), points="-100"),
                ),
            ),
        ),
        "hand 1: claimed 0 for Anna, computed -70 (difference +70); computed as melds +55, hand -25, no_pozzetto -100",
        (
            "smazzata 1: dichiarati 0 per Anna, calcolati -70 (differenza +70); calcolo: calate +55, carte in mano "
            "-25, senza pozzetto -100"
        ),
    ),
    (
        Message(
            (
                "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                "%(difference)s)%(explain)s"
            ),
            scored=Message("hand %(hand)s", hand=1),
            claimed=5,
            side="Anna",
            computed=0,
            difference="+5",
            explain="",
        ),
        "hand 1: claimed 5 for Anna, computed 0 (difference +5)",
        "smazzata 1: dichiarati 5 per Anna, calcolati 0 (differenza +5)",
    ),
    (
        Message(
            (
                "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                "%(difference)s)%(explain)s"
            ),
            scored=Message("hand %(hand)s", hand=2),
            claimed=120,
            side=Message("team %(team)s (%(names)s)", team=1, names="Bruno & Dario"),
            computed=95,
            difference="+25",
            explain=Message(
                "; computed as %(parts)s",
                parts=(
                    Message("%(part)s %(points)s", part=Message("melds"), points="+155"),
                    Message("%(part)s %(points)s", part=Message("burraco_clean"), points="+200"),
                    Message("%(part)s %(points)s", part=Message("closing"), points="+100"),
                    Message("%(part)s %(points)s", part=Message("hand"), points="-60"),
                    Message("%(part)s %(points)s", part=Message("penalty"), points="-300"),
                ),
            ),
        ),
        (
            "hand 2: claimed 120 for team 1 (Bruno & Dario), computed 95 (difference +25); computed as melds +155, "
            "burraco_clean +200, closing +100, hand -60, penalty -300"
        ),
        (
            "smazzata 2: dichiarati 120 per coppia 1 (Bruno & Dario), calcolati 95 (differenza +25); calcolo: calate "
            "+155, burraco pulito +200, chiusura +100, carte in mano -60, penalità -300"
        ),
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="2♥ 2♣ 2♠",
            fault=Message("a set of wild-rank cards (2s)"),
        ),
        "meld a 2♥ 2♣ 2♠: a set of wild-rank cards (2s)",
        "combinazione a 2♥ 2♣ 2♠: un tris di pinelle (i 2)",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥",
            fault=Message("a sequence with too many cards"),
        ),
        "meld a 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥: a sequence with too many cards",
        "combinazione a 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥: una scala con troppe carte",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="4♥ JK 6♥ JK",
            fault=Message("more wild cards than allowed"),
        ),
        "meld a 4♥ JK 6♥ JK: more wild cards than allowed",
        "combinazione a 4♥ JK 6♥ JK: più matte di quante ne siano ammesse",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="5♥ 5♣ 5♠ 5♦ 5♥",
            fault=Message("a set with too many cards"),
        ),
        "meld a 5♥ 5♣ 5♠ 5♦ 5♥: a set with too many cards",
        "combinazione a 5♥ 5♣ 5♠ 5♦ 5♥: un tris con troppe carte",
    ),
    (
        Message("meld %(meld)s %(cards)s: %(fault)s", meld="a", cards="7♥ 8♥", fault=Message("fewer than 3 cards")),
        "meld a 7♥ 8♥: fewer than 3 cards",
        "combinazione a 7♥ 8♥: meno di 3 carte",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="A♥ 2♥ 3♥",
            fault=Message("an ace low where only ace high is allowed"),
        ),
        "meld a A♥ 2♥ 3♥: an ace low where only ace high is allowed",
        "combinazione a A♥ 2♥ 3♥: un asso basso dove è ammesso solo l'asso alto",
    ),
    (
        Message("meld %(meld)s %(cards)s: %(fault)s", meld="a", cards="JK 2♣ JK", fault=Message("only wild cards")),
        "meld a JK 2♣ JK: only wild cards",
        "combinazione a JK 2♣ JK: solo matte",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="Q♥ K♥ A♥ 2♥",
            fault=Message("a sequence round the corner (K-A-2)"),
        ),
        "meld a Q♥ K♥ A♥ 2♥: a sequence round the corner (K-A-2)",
        "combinazione a Q♥ K♥ A♥ 2♥: una scala che gira dal re al 2 (K-A-2)",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="a",
            cards="Q♥ K♥ A♥",
            fault=Message("an ace high where only ace low is allowed"),
        ),
        "meld a Q♥ K♥ A♥: an ace high where only ace low is allowed",
        "combinazione a Q♥ K♥ A♥: un asso alto dove è ammesso solo l'asso basso",
    ),
    (
        Message(
            (
                "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it now stands for "
                "%(now)s; a joker never moves once laid (the card it stands for takes its place only by a joker swap)"
            ),
            meld="a",
            cards="7♥ 8♥ 9♥ JK",
            stood="8♥",
            now="10♥",
        ),
        (
            "meld a after the lay-off 7♥ 8♥ 9♥ JK: the joker stood for 8♥ and it now stands for 10♥; a joker never "
            "moves once laid (the card it stands for takes its place only by a joker swap)"
        ),
        (
            "combinazione a dopo l'attacco 7♥ 8♥ 9♥ JK: il jolly sostituiva 8♥ e ora sostituisce 10♥; un jolly calato "
            "non si sposta mai (la carta che sostituisce prende il suo posto solo con lo scambio del jolly)"
        ),
    ),
    (
        Message(
            "meld %(meld)s after the lay-off %(cards)s: %(fault)s",
            meld="a",
            cards="7♥ JK 9♥ 8♥",
            fault=Message("neither a set nor a sequence"),
        ),
        "meld a after the lay-off 7♥ JK 9♥ 8♥: neither a set nor a sequence",
        "combinazione a dopo l'attacco 7♥ JK 9♥ 8♥: né un tris né una scala",
    ),
    (
        Message(
            (
                "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it moved; a joker never "
                "moves once laid (the card it stands for takes its place only by a joker swap)"
            ),
            meld="b",
            cards="5♥ JK 7♥ 8♥ 9♥",
            stood="6♥",
        ),
        (
            "meld b after the lay-off 5♥ JK 7♥ 8♥ 9♥: the joker stood for 6♥ and it moved; a joker never moves once "
            "laid (the card it stands for takes its place only by a joker swap)"
        ),
        (
            "combinazione b dopo l'attacco 5♥ JK 7♥ 8♥ 9♥: il jolly sostituiva 6♥ e si è spostato; un jolly calato non "
            "si sposta mai (la carta che sostituisce prende il suo posto solo con lo scambio del jolly)"
        ),
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="c",
            cards="5♥ JK 7♥ 8♥",
            fault=Message("a wild inside a sequence (only at either end)"),
        ),
        "meld c 5♥ JK 7♥ 8♥: a wild inside a sequence (only at either end)",
        "combinazione c 5♥ JK 7♥ 8♥: una matta all'interno della scala (solo alle estremità)",
    ),
    (
        Message(
            "meld %(meld)s %(cards)s: %(fault)s",
            meld="c",
            cards="9♠ 9♥ 9♠",
            fault=Message("a set with a repeated suit"),
        ),
        "meld c 9♠ 9♥ 9♠: a set with a repeated suit",
        "combinazione c 9♠ 9♥ 9♠: un tris con un seme ripetuto",
    ),
    (
        Message("pozzetto %(pozzetto)s holds %(n)s cards instead of %(want)s", pozzetto=1, n=10, want=11),
        "pozzetto 1 holds 10 cards instead of 11",
        "il pozzetto 1 ha 10 carte invece di 11",
    ),
    (
        Message(
            "%(side)s holds two sets of the same rank (%(melds)s)",
            side=Message("team %(team)s (%(names)s)", team=1, names="Bruno & Dario"),
            melds="m3: K♦ K♠ K♥; m9: K♣ K♥ 2♠",
        ),
        "team 1 (Bruno & Dario) holds two sets of the same rank (m3: K♦ K♠ K♥; m9: K♣ K♥ 2♠)",
        "coppia 1 (Bruno & Dario) ha due tris dello stesso valore (m3: K♦ K♠ K♥; m9: K♣ K♥ 2♠)",
    ),
]


def fixture_findings() -> list[tuple[str, Finding]]:
    """``(fixture, finding)`` of every finding of every fixture record that imports."""
    out = []
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        try:
            state = validate(read_record(path))
        except RecordError:
            continue  # the rejected_* fixtures: no findings, an error
        out.extend((str(path.relative_to(FIXTURES)), f) for f in state.findings)
    return out


def simulated_findings() -> list[tuple[str, Finding]]:
    out = []
    for variant in sorted(STRATEGIES):
        for seed in range(3):
            events, _ = simulate_game(variant, None, 2, seed=seed, violations=0.3)
            out.extend((f"{variant}/{seed}", f) for f in replay(events).findings)
    return out


def test_every_fixture_finding_is_translated() -> None:
    found = fixture_findings()
    expected = [
        (str(p.relative_to(FIXTURES)).replace(".expected.json", ".jsonl"), f["rule"], f["message"])
        for p in sorted(FIXTURES.rglob("*.expected.json"))
        for f in json.loads(p.read_text()).get("audit", {}).get("findings", [])
    ]
    assert sorted((where, f.rule, f.message) for where, f in found) == sorted(expected) and len(found) == 13
    assert [(where, f.message) for where, f in found if f.text(IT) == f.message] == []


def test_every_simulated_finding_is_translated() -> None:
    found = simulated_findings()
    assert {f.rule for _, f in found} >= {
        "ALL-MELD-1",
        "BUR-PILE-1",
        "GIN-KNOCK-1",
        "S40-OPEN-1",
        "R51-OPEN-2",
        "RAM-DISC-1",
    }
    assert [(where, f.message) for where, f in found if f.text(IT) == f.message] == []


@pytest.mark.parametrize(("message", "english", "italian"), SAMPLES)
def test_every_sample_in_english_and_italian(message: Message, english: str, italian: str) -> None:
    assert str(message) == render(message) == english
    assert render(message, IT) == italian != english
    # the cards named stay, in their order; no number appears that the English does not have
    card = r"(?:10|[2-9AJQK])[♥♦♣♠]|JK"
    assert re.findall(card, italian) == re.findall(card, english)
    assert set(re.findall(r"\d+", re.sub(card, "", italian))) <= set(re.findall(r"\d+", re.sub(card, "", english)))


def _msgids(value: object) -> set[str]:
    if isinstance(value, Message):
        return {value.msgid}.union(*(_msgids(a) for a in value.args))
    if isinstance(value, tuple):
        return set().union(*(_msgids(a) for a in value))
    return set()


def test_every_msgid_the_rules_mark_has_a_sample() -> None:
    """Each ``N_("...")`` of the rules (ledger/variants but its presentation modules,
    ledger/melds.py) is in a sample, so a reworded or new message without its Italian sentence
    fails here. (The refusals' msgids, in a
    ``reject(...)``/``RecordError(...)`` call or the helpers that word them, are not findings.)"""
    marked, refusals = set(), set()
    root = Path(__file__).resolve().parent.parent / "ledger"
    rules = (p for p in sorted((root / "variants").rglob("*.py")) if p.name != "presentation.py")
    for path in [*rules, root / "melds.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                marked.add(node.args[0].value)  # type: ignore[attr-defined]
            refusing = isinstance(node, ast.Call) and (
                getattr(node.func, "attr", None) == "reject" or getattr(node.func, "id", None) == "RecordError"
            )
            refusing = refusing or (
                isinstance(node, ast.FunctionDef) and node.name in ("after_game_ended", "meld_id_used")
            )
            if refusing:
                refusals |= {
                    n.args[0].value  # type: ignore[attr-defined]
                    for n in ast.walk(node)
                    if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "N_"
                }
    marked -= refusals
    assert len(marked) > 80 and len(refusals) > 20
    assert sorted(marked - set().union(*(_msgids(m) for m, _, _ in SAMPLES))) == []


def test_english_is_the_message_itself() -> None:
    english = NullTranslations()
    for message, text, _ in SAMPLES:
        assert render(message, english) == text
        assert render(message, translations("en")) == text
        assert message.render() == text
    assert render(Message("something the rules do not say"), IT) == "something the rules do not say"
    # a piece the catalog does not know stays English; the sentence around it is translated
    assert (
        render(Message("meld %(meld)s %(cards)s: %(fault)s", meld="k", cards="K♣ Q♠", fault=Message("a new fault")), IT)
        == "combinazione k K♣ Q♠: a new fault"
    )


@pytest.mark.parametrize(
    ("message", "english", "italian"),
    [
        (
            Message(
                "meld %(meld)s %(cards)s: %(fault)s",
                meld="k",
                cards="K♣ K♦ K♠ Q♠",
                fault=Message("neither a set nor a sequence"),
            ),
            "meld k K♣ K♦ K♠ Q♠: neither a set nor a sequence",
            "combinazione k K♣ K♦ K♠ Q♠: né un tris né una scala",
        ),
        (
            Message(
                (
                    "meld %(meld)s after the lay-off %(cards)s: the joker stood for %(stood)s and it now stands for "
                    "%(now)s; a joker never moves once laid (the card it stands for takes its place only by a joker "
                    "swap)"
                ),
                meld="a",
                cards="7♥ 8♥ 9♥ JK",
                stood="8♥",
                now="10♥",
            ),
            (
                "meld a after the lay-off 7♥ 8♥ 9♥ JK: the joker stood for 8♥ and it now stands for 10♥; a joker never "
                "moves once laid (the card it stands for takes its place only by a joker swap)"
            ),
            (
                "combinazione a dopo l'attacco 7♥ 8♥ 9♥ JK: il jolly sostituiva 8♥ e ora sostituisce 10♥; un jolly "
                "calato non si sposta mai (la carta che sostituisce prende il suo posto solo con lo scambio del jolly)"
            ),
        ),
        (
            Message(
                "%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds",
                who="Bruno",
                cards="6♥",
                meld="a",
                side="Anna",
            ),
            "Bruno laid off 6♥ on meld a of Anna: lay-offs go only on one's own side's melds",
            (
                "Bruno ha attaccato 6♥ alla combinazione a di Anna: si attacca solo alle proprie combinazioni o a "
                "quelle del compagno"
            ),
        ),
        (
            Message(
                "%(who)s laid off %(cards)s on meld %(meld)s of %(side)s: lay-offs go only on one's own side's melds",
                who="Dario",
                cards="6♥",
                meld="m4",
                side=Message("team %(team)s (%(names)s)", team=0, names="Anna & Carla"),
            ),
            "Dario laid off 6♥ on meld m4 of team 0 (Anna & Carla): lay-offs go only on one's own side's melds",
            (
                "Dario ha attaccato 6♥ alla combinazione m4 di coppia 0 (Anna & Carla): si attacca solo alle proprie "
                "combinazioni o a quelle del compagno"
            ),
        ),
        (
            Message(
                (
                    "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                    "%(difference)s)%(explain)s"
                ),
                scored=Message("hand %(hand)s", hand=1),
                claimed=0,
                side="Anna",
                computed="-70",
                difference="+70",
                explain=Message(
                    "; computed as %(parts)s",
                    parts=(
                        Message("%(part)s %(points)s", part=Message("melds"), points="+55"),
                        Message("%(part)s %(points)s", part=Message("hand"), points="-25"),
                        Message("%(part)s %(points)s", part=Message("no_pozzetto"), points="-100"),
                    ),
                ),
            ),
            (
                "hand 1: claimed 0 for Anna, computed -70 (difference +70); computed as melds +55, hand -25, "
                "no_pozzetto -100"
            ),
            (
                "smazzata 1: dichiarati 0 per Anna, calcolati -70 (differenza +70); calcolo: calate +55, carte in mano "
                "-25, senza pozzetto -100"
            ),
        ),
        (
            Message(
                (
                    "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference "
                    "%(difference)s)%(explain)s"
                ),
                scored=Message("final totals"),
                claimed=2005,
                side="Anna",
                computed=2050,
                difference="-45",
                explain="",
            ),
            "final totals: claimed 2005 for Anna, computed 2050 (difference -45)",
            "totali finali: dichiarati 2005 per Anna, calcolati 2050 (differenza -45)",
        ),
        (
            Message("%(who)s played out of turn: it was %(due)s's turn", who="Anna", due="Bruno"),
            "Anna played out of turn: it was Bruno's turn",
            "Anna ha giocato fuori turno: era il turno di Bruno",
        ),
        (
            Message(
                "%(who)s drew a second time in the same turn (%(event)s)", who="Bruno", event=Message("card_drawn")
            ),
            "Bruno drew a second time in the same turn (card_drawn)",
            "Bruno ha pescato una seconda volta nello stesso turno (dal tallone)",
        ),
        (
            Message(
                "%(who)s took pozzetto %(pozzetto)s, but %(faults)s",
                who="Anna",
                pozzetto=1,
                faults=Message(
                    "%(first)s and %(second)s",
                    first=Message(
                        "%(side)s already had its pozzetto",
                        side=Message("team %(team)s (%(names)s)", team=0, names="Anna & Carla"),
                    ),
                    second=Message("%(who)s still held %(n)s card(s) (%(cards)s)", who="Anna", n=2, cards="J♣ Q♣"),
                ),
            ),
            (
                "Anna took pozzetto 1, but team 0 (Anna & Carla) already had its pozzetto and Anna still held 2 "
                "card(s) (J♣ Q♣)"
            ),
            (
                "Anna ha preso il pozzetto 1, ma coppia 0 (Anna & Carla) aveva già preso il suo pozzetto e Anna aveva "
                "ancora in mano 2 carte (J♣ Q♣)"
            ),
        ),
        (
            Message(
                "%(who)s took pozzetto %(pozzetto)s, but %(faults)s",
                who="Bruno",
                pozzetto=0,
                faults=Message("%(who)s still held 1 card(s) (%(cards)s)", who="Bruno", cards="Q♥"),
            ),
            "Bruno took pozzetto 0, but Bruno still held 1 card(s) (Q♥)",
            "Bruno ha preso il pozzetto 0, ma Bruno aveva ancora in mano una carta (Q♥)",
        ),
        (
            Message(
                "%(who)s knocked with deadwood %(n)s (%(cards)s), above the knock card %(limit)s%(source)s",
                who="Anna",
                n=12,
                cards="9♣ 3♦",
                limit=10,
                source=Message(" (oklahoma: the first upcard %(card)s)", card="K♦"),
            ),
            "Anna knocked with deadwood 12 (9♣ 3♦), above the knock card 10 (oklahoma: the first upcard K♦)",
            (
                "Anna ha bussato con 12 punti morti (9♣ 3♦), oltre il valore di bussata 10 (oklahoma: la prima carta "
                "scoperta K♦)"
            ),
        ),
        (
            Message(
                (
                    "%(play)s past the wall: the discard at position %(position)s left two stock cards and ended the "
                    "hand (0–0); later play does not count"
                ),
                play=Message("%(who)s drew from the stock", who="Bruno"),
                position=61,
            ),
            (
                "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards and ended "
                "the hand (0–0); later play does not count"
            ),
            (
                "Bruno ha pescato dal tallone oltre il muro: lo scarto alla posizione 61 ha lasciato due carte nel "
                "tallone e ha chiuso la smazzata (0–0); il gioco successivo non conta"
            ),
        ),
        (
            Message(
                "%(who)s opened with %(total)s points: %(items)s; %(need)s",
                who="Anna",
                total=39,
                items=(
                    Message("%(cards)s = %(n)s", cards="7♥8♥9♥", n=24),
                    Message("%(cards)s = %(n)s", cards="5♣5♦5♠", n=15),
                ),
                need=Message("the opening needs %(n)s", n=40),
            ),
            "Anna opened with 39 points: 7♥8♥9♥ = 24, 5♣5♦5♠ = 15; the opening needs 40",
            "Anna ha aperto con 39 punti: 7♥8♥9♥ = 24, 5♣5♦5♠ = 15; l'apertura richiede 40 punti",
        ),
        (
            Message(
                "%(who)s put %(card)s in place of the %(joker)s in meld %(meld)s (%(cards)s), but %(why)s",
                who="Bruno",
                card="Q♠",
                joker="JK",
                meld="b",
                cards="Q♠Q♥JK",
                why=Message(
                    "it stands for %(options)s", options=Message("%(first)s or %(second)s", first="Q♣", second="Q♦")
                ),
            ),
            "Bruno put Q♠ in place of the JK in meld b (Q♠Q♥JK), but it stands for Q♣ or Q♦",
            "Bruno ha messo Q♠ al posto del JK nella combinazione b (Q♠Q♥JK), ma il jolly sostituisce Q♣ o Q♦",
        ),
        (
            Message(
                "%(who)s opened with %(total)s points: %(items)s; %(need)s",
                who="Anna",
                total=33,
                items=(
                    Message("%(cards)s = %(n)s", cards="7♦7♥7♠", n=21),
                    Message("%(cards)s = %(n)s", cards="4♣4♦JK", n=12),
                ),
                need=Message(
                    "%(first)s and %(second)s",
                    first=Message("the opening needs %(n)s", n=51),
                    second=Message("the opening needs a clean sequence or set (no joker)"),
                ),
            ),
            (
                "Anna opened with 33 points: 7♦7♥7♠ = 21, 4♣4♦JK = 12; the opening needs 51 and the opening needs a "
                "clean sequence or set (no joker)"
            ),
            (
                "Anna ha aperto con 33 punti: 7♦7♥7♠ = 21, 4♣4♦JK = 12; l'apertura richiede 51 punti e l'apertura "
                "richiede una scala o un tris puliti (senza jolly)"
            ),
        ),
    ],
)
def test_representative_messages_in_italian(message: Message, english: str, italian: str) -> None:
    assert str(message) == english
    assert render(message, IT) == italian


def test_the_append_summary_line_speaks_italian() -> None:
    """``append``/``rule`` print each new finding as ``audit`` does (ledger/cli/findings.py)."""
    from ledger.cli.findings import finding_line

    m = Message(
        "%(scored)s: claimed %(claimed)s for %(side)s, computed %(computed)s (difference %(difference)s)%(explain)s",
        scored=Message("hand %(hand)s", hand=1),
        claimed=0,
        side="Anna",
        computed="-90",
        difference="+90",
        explain=Message(
            "; computed as %(parts)s",
            parts=(
                Message("%(part)s %(points)s", part=Message("melds"), points="+55"),
                Message("%(part)s %(points)s", part=Message("hand"), points="-25"),
                Message("%(part)s %(points)s", part=Message("no_pozzetto"), points="-100"),
            ),
        ),
    )
    f = Finding(18, 1, 0, "ALL-SCORE-1", m.msgid, m.args)
    assert f.message == (
        "hand 1: claimed 0 for Anna, computed -90 (difference +90); computed as melds +55, hand -25, no_pozzetto -100"
    )
    assert finding_line(f, IT) == (
        "  posizione 18 (smazzata 1, posto 0): ALL-SCORE-1: smazzata 1: dichiarati 0 per Anna, calcolati -90 "
        "(differenza +90); calcolo: calate +55, carte in mano -25, senza pozzetto -100"
    )
    assert finding_line(f) == (
        "  position 18 (hand 1, seat 0): ALL-SCORE-1: hand 1: claimed 0 for Anna, computed -90 (difference +90); "
        "computed as melds +55, hand -25, no_pozzetto -100"
    )


_TURN = Message("%(who)s played out of turn: it was %(due)s's turn", who="Anna", due="Bruno")
_HIDDEN = Message("(shown to referees, and to everyone when the game is over)")


@pytest.mark.parametrize(
    ("lang", "message", "shown"),
    [
        ("it", _TURN, "Anna ha giocato fuori turno: era il turno di Bruno"),
        ("en", _TURN, "Anna played out of turn: it was Bruno's turn"),
        ("it", _HIDDEN, "(visibile all'arbitro, e a tutti a partita finita)"),
        ("en", _HIDDEN, "(shown to referees, and to everyone when the game is over)"),
    ],
)
def test_the_viewers_filter_follows_the_page_language(lang: str, message: Message, shown: str) -> None:
    """``finding_message`` (replay_web/words.py): the ledger catalog for the rules' messages, the
    viewer's for the spectator's placeholder."""
    from flask import Flask, g

    from replay_web.words import finding_message

    with Flask("t").test_request_context():
        g.lang = lang
        assert finding_message(Finding(3, 1, 0, "ALL-TURN-1", message.msgid, message.args)) == shown
