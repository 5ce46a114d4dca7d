"""Finding messages in Italian (ledger/finding_texts.py, issue 16): every
message shape the rules make has its Italian sentence; English and unknown
messages come back unchanged; the catalog's sentence keeps the placeholders.

The messages checked: every finding of every record under ``fixtures/``
that imports, every finding of simulated games with injected violations
(:mod:`ledger.simulate`), and :data:`SAMPLES`: one message per shape, taken
from the findings the rule tests' records produce (tests/test_burraco*.py,
test_scala40, test_ramino51, test_ramino_rules, test_gin_rules,
test_fold_common, test_simulate...) and, for the shapes those records do not
reach, written from the rules' f-strings. (tests/test_rule_ids.py checks the
registry against the source and has no records of its own.)
"""

from __future__ import annotations

import ast
import json
import re
from gettext import NullTranslations
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.finding_texts import EVENT_TEXTS, FAULT_TEXTS, MESSAGES, finding_text, known
from ledger.i18n import translations
from ledger.record_files import read_record
from ledger.replay import replay, validate
from ledger.simulate import STRATEGIES, simulate_game

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
IT = translations("it")

#: message shapes known to stay English (none today; a shape added to the
#: rules without its entry in MESSAGES goes here, commented, until translated)
KNOWN_UNTRANSLATED: frozenset[str] = frozenset()

#: one message per shape (and per piece: meld faults, what a seat did, ...)
SAMPLES = [
    "Anna discarded 2♣, the card just taken from the discard pile",
    "Anna discarded 3♣, the single card just taken from the discard pile",
    "Anna discarded 4♥, which could be laid off on meld a (A♥2♥3♥)",
    "Anna discarded 5♥ after the hand had ended at the stock's end (the discard at position 80 left the last "
    "two stock cards): play after it does not count",
    "Anna drew 5♥ after the hand had ended at the stock's end (the discard at position 80 left the last two "
    "stock cards): play after it does not count",
    "Anna drew a second time in the same turn (card_drawn)",
    "Anna drew a second time in the same turn (discard_taken)",
    "Anna drew a second time in the same turn (pozzetto_taken)",
    "Anna drew one of the last two stock cards, which are never drawn: the hand is a 0–0 draw and later play "
    "does not count",
    "Anna holds two sets of the same rank (a: 7♣ 7♦ 7♠; b: 7♥ 7♣ 2♦)",
    "Anna knocked with deadwood 12 (9♣ 3♦), above the knock card 10 (oklahoma: the first upcard K♦)",
    "Anna knocked with deadwood 2 (2♣), above the knock card 1",
    "Anna laid 2 new melds in one turn; at most 1 allowed",
    "Anna laid 7♥ 8♥ 9♥ after knocking: the knocker's melds are those declared with the knock",
    "Anna laid off 2♠ on meld m3 before opening",
    "Anna laid off 4♠ on meld k1: the knocker does not lay off",
    "Anna laid off 5♥ on meld m3 after the hand had ended at the stock's end (the discard at position 80 left "
    "the last two stock cards): play after it does not count",
    "Anna laid off 9♥ on meld b in its opening turn (only a joker swap is allowed)",
    "Anna melded 7♥ 8♥ 9♥ after the hand had ended at the stock's end (the discard at position 80 left the "
    "last two stock cards): play after it does not count",
    "Anna melded in its first turn",
    "Anna melded or laid off before drawing",
    "Anna opened with 30 points: 3♣6♥9♦ = 0 (not a meld), Q♣Q♦Q♥ = 30; the opening needs 40",
    "Anna opened with 33 points: 7♦7♥7♠ = 21, 4♣4♦JK = 12; the opening needs 51 and the opening needs a clean "
    "sequence or set (no joker)",
    "Anna opened with 6 points: 2♣2♥2♠ = 6; the opening needs 51",
    "Anna opened with 60 points: 7♦7♥7♠ = 21, 4♣5♣JK7♣ = 21, Q♣Q♦Q♥ = 30; the opening needs a clean sequence "
    "(no joker)",
    "Anna played 5♦ from the pozzetto taken with the discard before its next turn",
    "Anna played out of turn: it was Bruno's turn",
    "Anna put 4♦ in place of the 2♦ in meld c (2♦5♦6♦), but 2♦ is not a wild there",
    "Anna put 5♥ in place of the JK in meld m3 after the hand had ended at the stock's end (the discard at "
    "position 80 left the last two stock cards): play after it does not count",
    "Anna took 2♠ from the discard pile and did not meld it in the same turn",
    "Anna took 2♠ from the discard pile in its first turn",
    "Anna took 2♠ from the discard pile without having opened and did not open with it",
    "Anna took 8♥ from the discard pile, the 50th upcard draw after the first turn: OpenSpiel ends the hand "
    "before that draw; the hand is a 0–0 draw and later play does not count",
    "Anna took pozzetto 1, but team 0 (Anna & Carla) already had its pozzetto and Anna still held 2 card(s) (J♣ Q♣)",
    "Anna took the discard pile (5♥ 6♣) after the hand had ended at the stock's end (the discard at position "
    "80 left the last two stock cards): play after it does not count",
    "Anna took the wild JK back into the hand from meld a (put in 5♥): in Burraco a wild never leaves the table",
    "Anna was dealt 9 cards instead of 10",
    "Anna went out by discarding a wild (2♠)",
    "Anna went out by melding the last card instead of discarding it",
    "Anna went out without Anna's pozzetto",
    "Anna went out without a burraco for Anna",
    "Anna went out without a clean burraco for Anna",
    "Anna went out without a clean or semi-clean burraco for team 0 (Anna & Carla)",
    "Anna went out without a discard",
    "Anna went out without a discard (preset casa requires one): the last card went into a meld",
    "Anna went out without a discard: the last card went into a meld",
    "Anna went out without team 0 (Anna & Carla)'s pozzetto",
    "Anna's knock declares 5♥ beyond the cards held and leaves out 6♣: melds and deadwood must be exactly the "
    "ten cards held",
    "Anna's knock leaves out 2♣: melds and deadwood must be exactly the ten cards held",
    "Anna's turn ended without a discard: Bruno acted next",
    "Bruno dealt hand 2; the rotation called for Anna",
    "Bruno discarded after Anna knocked: only the defender's melds and lay-offs remain",
    "Bruno discarded 8♥ instead of knocking with the upcard taken at the wall: at the wall the upcard is taken "
    "only to knock; the hand is a 0–0 draw and later play does not count",
    "Bruno discarded 8♥ past the wall: the discard at position 40 left two stock cards and ended the hand "
    "(0–0); later play does not count",
    "Bruno discarded before drawing",
    "Bruno drew J♥ from the last two stock cards, which are never drawn",
    "Bruno drew after Anna knocked: only the defender's melds and lay-offs remain",
    "Bruno drew from the stock after the hand was over by OpenSpiel's repeated-move rule (the discards at "
    "positions 7 and 9 each gave back the upcard just taken): the hand is a 0–0 draw and later play does not count",
    "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards and ended the "
    "hand (0–0); later play does not count",
    "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards, where only "
    "taking the upcard to knock, or passing, is allowed; the hand is a 0–0 draw and later play does not count",
    "Bruno knocked past the wall: the discard at position 40 left two stock cards and ended the hand (0–0); "
    "later play does not count",
    "Bruno laid a meld past the wall: the discard at position 40 left two stock cards and ended the hand "
    "(0–0); later play does not count",
    "Bruno laid off 2♠ on meld a of Anna: lay-offs go only on one's own side's melds",
    "Bruno laid off 4♠ on meld k1 after Anna went gin",
    "Bruno laid off past the wall: the discard at position 40 left two stock cards and ended the hand (0–0); "
    "later play does not count",
    "Bruno passed the upcard out of turn: it was Anna's turn",
    "Bruno passed the upcard past the wall: the discard at position 40 left two stock cards and ended the hand "
    "(0–0); later play does not count",
    "Bruno put 8♦ in place of the JK in meld a (7♥JK9♥), but it stands for 8♥",
    "Bruno put Q♠ in place of the JK in meld b (Q♠Q♥JK), but it stands for Q♣ or Q♦",
    "Bruno swapped a joker past the wall: the discard at position 40 left two stock cards and ended the hand "
    "(0–0); later play does not count",
    "Bruno swapped the JK in meld b before opening",
    "Bruno took 8♥ from the discard pile past the wall: the discard at position 40 left two stock cards and "
    "ended the hand (0–0); later play does not count",
    "Bruno took a joker from a meld and did not meld it in the same turn",
    "Bruno took pozzetto 1 after the hand had ended at the stock's end (the discard at position 125 left the "
    "last two stock cards): play after it does not count",
    "Bruno took pozzetto 1, but Bruno still held 11 card(s) (4♦ 9♠ 9♦ Q♥ 6♣ 6♦ Q♦ 4♣ J♥ 8♣ J♦)",
    "Bruno took pozzetto 0, but Bruno still held 1 card(s) (Q♥)",
    "Bruno took the upcard at the wall without knocking with it: at the wall the upcard is taken only to "
    "knock; the hand is a 0–0 draw",
    "Bruno went out without a discard (preset casa requires one)",
    "Dario laid off 6♥ on meld m4 of team 0 (Anna & Carla): lay-offs go only on one's own side's melds",
    "declared meld k2 7♣ 7♦ 9♥: neither a set nor a sequence",
    "final totals: claimed 2005 for Anna, computed 2050 (difference -45)",
    "hand 1: claimed 0 for Anna, computed -70 (difference +70); computed as melds +55, hand -25, no_pozzetto -100",
    "hand 1: claimed 5 for Anna, computed 0 (difference +5)",
    "hand 2: claimed 120 for team 1 (Bruno & Dario), computed 95 (difference +25); computed as melds +155, "
    "burraco_clean +200, closing +100, hand -60, penalty -300",
    "meld a 2♥ 2♣ 2♠: a set of wild-rank cards (2s)",
    "meld a 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥: a sequence with too many cards",
    "meld a 4♥ JK 6♥ JK: more wild cards than allowed",
    "meld a 5♥ 5♣ 5♠ 5♦ 5♥: a set with too many cards",
    "meld a 7♥ 8♥: fewer than 3 cards",
    "meld a A♥ 2♥ 3♥: an ace low where only ace high is allowed",
    "meld a JK 2♣ JK: only wild cards",
    "meld a Q♥ K♥ A♥ 2♥: a sequence round the corner (K-A-2)",
    "meld a Q♥ K♥ A♥: an ace high where only ace low is allowed",
    "meld a after the lay-off 7♥ 8♥ 9♥ JK: the joker stood for 8♥ and it now stands for 10♥; a joker never "
    "moves once laid (the card it stands for takes its place only by a joker swap)",
    "meld a after the lay-off 7♥ JK 9♥ 8♥: neither a set nor a sequence",
    "meld b after the lay-off 5♥ JK 7♥ 8♥ 9♥: the joker stood for 6♥ and it moved; a joker never moves once "
    "laid (the card it stands for takes its place only by a joker swap)",
    "meld c 5♥ JK 7♥ 8♥: a wild inside a sequence (only at either end)",
    "meld c 9♠ 9♥ 9♠: a set with a repeated suit",
    "pozzetto 1 holds 10 cards instead of 11",
    "team 1 (Bruno & Dario) holds two sets of the same rank (m3: K♦ K♠ K♥; m9: K♣ K♥ 2♠)",
]


def fixture_findings() -> list[tuple[str, str, str]]:
    """``(fixture, rule, message)`` of every finding of every fixture record that imports."""
    out = []
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        try:
            state = validate(read_record(path))
        except RecordError:
            continue  # the rejected_* fixtures: no findings, an error
        out.extend((str(path.relative_to(FIXTURES)), f.rule, f.message) for f in state.findings)
    return out


def simulated_findings() -> list[tuple[str, str, str]]:
    out = []
    for variant in sorted(STRATEGIES):
        for seed in range(3):
            events, _ = simulate_game(variant, None, 2, seed=seed, violations=0.3)
            out.extend((f"{variant}/{seed}", f.rule, f.message) for f in replay(events).findings)
    return out


def test_every_fixture_finding_is_translated() -> None:
    found = fixture_findings()
    expected = [
        (str(p.relative_to(FIXTURES)).replace(".expected.json", ".jsonl"), f["rule"], f["message"])
        for p in sorted(FIXTURES.rglob("*.expected.json"))
        for f in json.loads(p.read_text()).get("audit", {}).get("findings", [])
    ]
    assert sorted(found) == sorted(expected) and len(found) == 13  # the fixtures' expected audits, all of them
    left = [
        (where, rule, msg)
        for where, rule, msg in found
        if finding_text(msg, IT) == msg and msg not in KNOWN_UNTRANSLATED
    ]
    assert left == []


def test_every_simulated_finding_is_translated() -> None:
    found = simulated_findings()
    assert {rule for _, rule, _ in found} >= {
        "ALL-MELD-1",
        "BUR-PILE-1",
        "GIN-KNOCK-1",
        "S40-OPEN-1",
        "R51-OPEN-2",
        "RAM-DISC-1",
    }
    left = [
        (where, rule, msg)
        for where, rule, msg in found
        if finding_text(msg, IT) == msg and msg not in KNOWN_UNTRANSLATED
    ]
    assert left == []


@pytest.mark.parametrize("message", SAMPLES)
def test_every_sample_shape_is_translated(message: str) -> None:
    italian = finding_text(message, IT)
    assert italian != message and known(message)
    # the cards named stay, in their order; no number appears that the English does not have
    card = r"(?:10|[2-9AJQK])[♥♦♣♠]|JK"
    assert re.findall(card, italian) == re.findall(card, message)
    assert set(re.findall(r"\d+", re.sub(card, "", italian))) <= set(re.findall(r"\d+", re.sub(card, "", message)))


def test_every_entry_of_the_table_has_a_sample_and_its_placeholders() -> None:
    for rx, msgid in MESSAGES:
        groups = {re.sub(r"_\d+$", "", g) for g in rx.groupindex}
        assert groups == set(re.findall(r"%\((\w+)\)s", msgid)), msgid
        assert any(rx.fullmatch(s) for s in SAMPLES), msgid
    pieces = " ".join(SAMPLES)
    assert [f for f in FAULT_TEXTS if f not in pieces] == []
    assert [e for e in EVENT_TEXTS if f"({e})" not in pieces] == []


def test_english_is_the_message_itself_and_unknown_messages_stay() -> None:
    english = NullTranslations()
    for message in SAMPLES:
        assert finding_text(message, english) == message
        assert finding_text(message, translations("en")) == message
        assert finding_text(message) == message
    assert finding_text("something the rules do not say", IT) == "something the rules do not say"
    # a known shape with a piece no table knows stays English as a whole, not half translated
    assert finding_text("meld k K♣ K♦ K♠ Q♠: a brand-new fault", IT) == "meld k K♣ K♦ K♠ Q♠: a brand-new fault"
    assert (
        finding_text("Anna drew a second time in the same turn (meld_laid)", IT)
        == "Anna drew a second time in the same turn (meld_laid)"
    )


@pytest.mark.parametrize(
    ("message", "italian"),
    [
        (
            "meld k K♣ K♦ K♠ Q♠: neither a set nor a sequence",  # ALL-MELD-1
            "combinazione k K♣ K♦ K♠ Q♠: né un tris né una scala",
        ),
        (  # ALL-MELD-1 (Scala 40)
            "meld a after the lay-off 7♥ 8♥ 9♥ JK: the joker stood for 8♥ and it now stands for 10♥; "
            "a joker never moves once laid (the card it stands for takes its place only by a joker swap)",
            "combinazione a dopo l'attacco 7♥ 8♥ 9♥ JK: il jolly sostituiva 8♥ e ora sostituisce 10♥; "
            "un jolly calato non si sposta mai (la carta che sostituisce prende il suo posto solo con lo "
            "scambio del jolly)",
        ),
        (
            "Bruno laid off 6♥ on meld a of Anna: lay-offs go only on one's own side's melds",  # BUR-TURN-1
            "Bruno ha attaccato 6♥ alla combinazione a di Anna: si attacca solo alle proprie combinazioni o a "
            "quelle del compagno",
        ),
        (  # BUR-TURN-1, a team
            "Dario laid off 6♥ on meld m4 of team 0 (Anna & Carla): lay-offs go only on one's own side's melds",
            "Dario ha attaccato 6♥ alla combinazione m4 di coppia 0 (Anna & Carla): si attacca solo alle "
            "proprie combinazioni o a quelle del compagno",
        ),
        (
            "hand 1: claimed 0 for Anna, computed -70 (difference +70); computed as melds +55, hand -25, "
            "no_pozzetto -100",  # ALL-SCORE-1
            "smazzata 1: dichiarati 0 per Anna, calcolati -70 (differenza +70); calcolo: calate +55, carte in "
            "mano -25, senza pozzetto -100",
        ),
        (
            "final totals: claimed 2005 for Anna, computed 2050 (difference -45)",  # ALL-SCORE-1 at game_ended
            "totali finali: dichiarati 2005 per Anna, calcolati 2050 (differenza -45)",
        ),
        (
            "Anna played out of turn: it was Bruno's turn",  # ALL-TURN-1
            "Anna ha giocato fuori turno: era il turno di Bruno",
        ),
        (
            "Bruno drew a second time in the same turn (card_drawn)",  # ALL-TURN-2
            "Bruno ha pescato una seconda volta nello stesso turno (dal tallone)",
        ),
        (
            "Anna took pozzetto 1, but team 0 (Anna & Carla) already had its pozzetto and Anna still held 2 "
            "card(s) (J♣ Q♣)",  # BUR-POZZ-1
            "Anna ha preso il pozzetto 1, ma coppia 0 (Anna & Carla) aveva già preso il suo pozzetto e Anna "
            "aveva ancora in mano 2 carte (J♣ Q♣)",
        ),
        (
            "Bruno took pozzetto 0, but Bruno still held 1 card(s) (Q♥)",  # BUR-POZZ-1, one card
            "Bruno ha preso il pozzetto 0, ma Bruno aveva ancora in mano una carta (Q♥)",
        ),
        (  # GIN-KNOCK-1
            "Anna knocked with deadwood 12 (9♣ 3♦), above the knock card 10 (oklahoma: the first upcard K♦)",
            "Anna ha bussato con 12 punti morti (9♣ 3♦), oltre il valore di bussata 10 (oklahoma: la prima "
            "carta scoperta K♦)",
        ),
        (
            "Bruno drew from the stock past the wall: the discard at position 61 left two stock cards and "
            "ended the hand (0–0); later play does not count",  # GIN-WALL-1
            "Bruno ha pescato dal tallone oltre il muro: lo scarto alla posizione 61 ha lasciato due carte nel "
            "tallone e ha chiuso la smazzata (0–0); "
            "il gioco successivo non conta",
        ),
        (
            "Anna opened with 39 points: 7♥8♥9♥ = 24, 5♣5♦5♠ = 15; the opening needs 40",  # S40-OPEN-1
            "Anna ha aperto con 39 punti: 7♥8♥9♥ = 24, 5♣5♦5♠ = 15; l'apertura richiede 40 punti",
        ),
        (
            "Bruno put Q♠ in place of the JK in meld b (Q♠Q♥JK), but it stands for Q♣ or Q♦",  # S40-SWAP-1
            "Bruno ha messo Q♠ al posto del JK nella combinazione b (Q♠Q♥JK), ma il jolly sostituisce Q♣ o Q♦",
        ),
        (
            "Anna opened with 33 points: 7♦7♥7♠ = 21, 4♣4♦JK = 12; the opening needs 51 and the opening needs "
            "a clean sequence or set (no joker)",  # R51-OPEN-2
            "Anna ha aperto con 33 punti: 7♦7♥7♠ = 21, 4♣4♦JK = 12; l'apertura richiede 51 punti e l'apertura "
            "richiede una scala o un tris puliti (senza jolly)",
        ),
    ],
)
def test_representative_messages_in_italian(message: str, italian: str) -> None:
    assert finding_text(message, IT) == italian


def test_the_append_summary_line_speaks_italian() -> None:
    """``append``/``rule`` print each new finding as ``audit`` does (ledger/cli/findings.py)."""
    from ledger.cli.findings import finding_line
    from ledger.state import Finding

    f = Finding(
        18,
        1,
        0,
        "ALL-SCORE-1",
        "hand 1: claimed 0 for Anna, computed -90 (difference +90); computed as melds +55, hand -25, no_pozzetto -100",
    )
    assert finding_line(f, IT) == (
        "  posizione 18 (smazzata 1, posto 0): ALL-SCORE-1: smazzata 1: dichiarati 0 per Anna, calcolati -90 "
        "(differenza +90); calcolo: calate +55, carte in mano -25, senza pozzetto -100"
    )
    assert finding_line(f) == (
        "  position 18 (hand 1, seat 0): ALL-SCORE-1: hand 1: claimed 0 for Anna, computed -90 (difference +90); "
        "computed as melds +55, hand -25, no_pozzetto -100"
    )


@pytest.mark.parametrize(
    ("lang", "message", "shown"),
    [
        ("it", "Anna played out of turn: it was Bruno's turn", "Anna ha giocato fuori turno: era il turno di Bruno"),
        ("en", "Anna played out of turn: it was Bruno's turn", "Anna played out of turn: it was Bruno's turn"),
        (
            "it",
            "(shown to referees, and to everyone when the game is over)",
            "(visibile all'arbitro, e a tutti a partita finita)",
        ),
        (
            "en",
            "(shown to referees, and to everyone when the game is over)",
            "(shown to referees, and to everyone when the game is over)",
        ),
    ],
)
def test_the_viewers_filter_follows_the_page_language(lang: str, message: str, shown: str) -> None:
    """``finding_message`` (replay_web/words.py): the ledger catalog for the rules' messages, the
    viewer's for the spectator's placeholder."""
    from flask import Flask, g

    from replay_web.words import finding_message

    with Flask("t").test_request_context():
        g.lang = lang
        assert finding_message(message) == shown


def _shape(node: ast.expr) -> str:
    """A regex of what an f-string message can be: its literal text, anything for each ``{...}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_shape(v) if isinstance(v, ast.Constant) else "(?:.*)" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _shape(node.left) + _shape(node.right)
    return "(?:.*)"


def test_every_flag_call_with_its_own_words_has_a_sample() -> None:
    """Each ``flag(..., f"...")`` of the rules (ledger/variants) written out in place has a
    sample of its shape in SAMPLES, so a reworded message fails here, not silently in English.
    (Messages built elsewhere and passed by name are covered through the fixtures, the
    simulated games and the samples above.)"""
    calls = []
    for path in sorted((Path(__file__).resolve().parent.parent / "ledger" / "variants").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "flag"
                and len(node.args) == 5
                and isinstance(node.args[4], (ast.JoinedStr, ast.BinOp))
            ):
                calls.append((f"{path.name}:{node.lineno}", _shape(node.args[4])))
    assert len(calls) > 40
    assert [where for where, rx in calls if not any(re.fullmatch(rx, s) for s in SAMPLES)] == []
