"""The variant catalog (issue 11): a sixth game added from a test, a rules
class, a rule table and a catalog entry and nothing else, is importable,
auditable, listed by ``--help``, simulated and shown in the viewer; and what
derives from the catalog follows it, its rule's texts, messages, view and
evidence included (issue 23: one rule table per variant).

The toy game is classic Ramino (preset ``seed``) with one rule of its own,
``TOY-DISC-1``: the king of spades may not be discarded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from ledger import catalog, schema
from ledger.audit import audit
from ledger.cards import pretty
from ledger.catalog import VariantEntry
from ledger.cli import cli
from ledger.errors import RecordError
from ledger.events import decode_event
from ledger.record_files import read_record, write_record
from ledger.redaction import PUBLIC_RULES, PUBLIC_UNLESS_KNOCK, visible_findings
from ledger.replay import replay
from ledger.rule_ids import NEEDS_HIDDEN_EVIDENCE, RULE_IDS, RULE_TABLE, RULES_BY_FAMILY
from ledger.rule_messages import RULE_MESSAGES
from ledger.rule_table import RuleEntry
from ledger.rule_texts import RULE_TEXTS, rule_text
from ledger.simulate import STRATEGIES, simulate_game
from ledger.simulate.ramino import RaminoStrategy
from ledger.state import TableState
from ledger.testing.records import game_started, lines, ramino_deal
from ledger.texts import N_
from ledger.variants import REGISTRY, find_variant
from ledger.variants.ramino.rules import RaminoRules

#: the toy rule's one message
HOUSE_CARD = N_("%(who)s discarded %(card)s, the card of the house")

#: the toy game's rule table: its one rule, shown at once to every seat
TOY_TABLE = (
    RuleEntry(
        "TOY-DISC-1",
        en="The king of spades discarded.",
        it="Scartato il re di picche.",
        view="public",
        messages=(HOUSE_CARD,),
    ),
)


class ToyRules(RaminoRules):
    """Classic Ramino in which discarding the king of spades is ``TOY-DISC-1``."""

    variant = "toy"
    default_ruleset = "casa"
    presets = {"casa": RaminoRules.presets["seed"]}

    def check_discard(self, state: TableState, pos: int, seat: int, card: str) -> TableState:
        state = super().check_discard(state, pos, seat, card)
        if card == "KS":
            state = self.flag(state, pos, seat, "TOY-DISC-1", HOUSE_CARD, who=state.name(seat), card=pretty(card))
        return state


class ToyStrategy(RaminoStrategy):
    """The Ramino player at the toy game's table."""

    variant = "toy"


TOY = VariantEntry("toy", "Toy Rummy", ToyRules, "TOY", TOY_TABLE, ToyStrategy)


@pytest.fixture
def toy() -> Iterator[VariantEntry]:
    catalog.register(TOY)
    yield TOY
    catalog.unregister("toy")


def toy_record(game_id: str = "toy-1") -> bytes:
    """Anna (seat 0) draws 6H and discards the king of spades (position 3); the game is abandoned."""
    return lines(
        game_started("toy", game_id=game_id),
        ramino_deal(),
        {"type": "card_drawn", "seat": 0, "card": "6H"},
        {"type": "card_discarded", "seat": 0, "card": "KS"},
        {"type": "hand_ended", "reason": "abandoned"},
        {"type": "game_ended", "reason": "abandoned"},
    )


def cli_run(*args: str) -> Any:
    return CliRunner(env={"RUMMY_LEDGER_DB": None, "PERSISTENCE_MODULE": None}).invoke(
        cli, list(args), catch_exceptions=False
    )


def test_the_builtin_catalog() -> None:
    assert catalog.ids() == ("burraco", "scala40", "ramino51", "ramino", "gin")
    assert [catalog.entry(v).label for v in catalog.ids()] == [
        "Burraco",
        "Scala 40",
        "Ramino 51",
        "Ramino",
        "Gin Rummy",
    ]
    assert {v: find_variant(v).variant for v in REGISTRY} == {v: v for v in catalog.ids()}
    assert list(STRATEGIES) == list(catalog.ids())
    assert list(RULES_BY_FAMILY) == ["REC", "ALL", "BUR", "S40", "R51", "RAM", "GIN"]


def test_an_unknown_variant_is_refused_as_before() -> None:
    line = (
        b'{"type":"game_started","format":"rummy-ledger/1","game_id":"g","variant":"toy","players":[{"seat":0,'
        b'"name":"A"}]}'
    )
    with pytest.raises(msgspec.ValidationError, match=r"^Invalid enum value 'toy' - at `\$.variant`$"):
        decode_event(line)
    with pytest.raises(RecordError) as info:
        read_record(line + b"\n")
    assert (info.value.rule, info.value.line, info.value.field, info.value.message) == (
        "REC-FORMAT",
        1,
        "variant",
        "unknown value 'toy'",
    )


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        # the unknown variant before the bad key: reported first, as when it was a Literal
        ('"variant":"poker","players":[{"seat":0}]', "variant", "unknown value 'poker'"),
        ('"variant":"poker","x":1,"players":[{"seat":0,"name":"A"}]', "variant", "unknown value 'poker'"),
        # after it: the bad key first
        ('"x":1,"variant":"poker","players":[{"seat":0,"name":"A"}]', "x", "unknown field 'x'"),
        # missing fields and __post_init__ checks are found once the object is read: the variant first
        ('"variant":"poker"', "variant", "unknown value 'poker'"),
        ('"at":"2026","variant":"poker","players":[{"seat":0,"name":"A"}]', "variant", "unknown value 'poker'"),
        ('"variant":7,"players":[{"seat":0,"name":"A"}]', "variant", "Expected `str`, got `int`"),
    ],
)
def test_which_of_two_faults_is_reported(line: str, field: str, message: str) -> None:
    data = ('{"type":"game_started","format":"rummy-ledger/1","game_id":"g",' + line + "}\n").encode()
    with pytest.raises(RecordError) as info:
        read_record(data)
    assert (info.value.field, info.value.message) == (field, message)


def test_register_refuses_a_taken_id_or_family(toy: VariantEntry) -> None:
    with pytest.raises(ValueError, match="already in the catalog"):
        catalog.register(toy)
    with pytest.raises(ValueError, match="family 'RAM' is already taken"):
        catalog.register(VariantEntry("toy2", "Toy 2", ToyRules, "RAM", ()))
    with pytest.raises(ValueError, match="built-in"):
        catalog.unregister("gin")
    with pytest.raises(ValueError, match="is not TOY-WORD-N"):
        VariantEntry("toy3", "Toy 3", ToyRules, "TOY", (replace(TOY_TABLE[0], id="RAM-DISC-1"),))


def test_a_registered_variant_joins_everything_derived(toy: VariantEntry) -> None:
    assert find_variant("toy") is ToyRules
    assert STRATEGIES["toy"] is ToyStrategy
    assert RULES_BY_FAMILY["TOY"] == ("TOY-DISC-1",)
    assert "TOY-DISC-1" in RULE_IDS
    assert schema.event_schema()["$defs"]["GameStarted"]["properties"]["variant"] == {
        "enum": ["burraco", "gin", "ramino", "ramino51", "scala40", "toy"]
    }


def test_a_registered_rule_brings_its_facts_through_its_one_table(toy: VariantEntry) -> None:
    """TOY-DISC-1's texts, messages, view and evidence come from TOY_TABLE alone, and go with its entry."""
    assert RULE_TABLE["TOY-DISC-1"] is TOY_TABLE[0] and toy.rule_ids == ("TOY-DISC-1",)
    assert list(RULE_TEXTS)[-1] == "TOY-DISC-1" and RULE_TEXTS["TOY-DISC-1"] == {
        "en": "The king of spades discarded.",
        "it": "Scartato il re di picche.",
    }
    assert rule_text("TOY-DISC-1", "it") == "Scartato il re di picche."
    assert RULE_MESSAGES["TOY-DISC-1"] == (HOUSE_CARD,)
    assert "TOY-DISC-1" in PUBLIC_RULES and "TOY-DISC-1" not in PUBLIC_UNLESS_KNOCK
    assert "TOY-DISC-1" not in NEEDS_HIDDEN_EVIDENCE
    # public: the other seat sees the finding at once, in the hand
    state = replay(read_record(toy_record()).events, 3)
    assert [f.rule for f in visible_findings(state, 1)] == ["TOY-DISC-1"]
    catalog.unregister("toy")
    try:
        assert rule_text("TOY-DISC-1", "it") is None
        assert "TOY-DISC-1" not in RULE_MESSAGES and "TOY-DISC-1" not in PUBLIC_RULES
    finally:
        catalog.register(toy)


def test_a_registered_hidden_rule_waits_and_needs_evidence() -> None:
    """The same game with its rule hidden and needing hidden evidence: one table entry says both."""
    hidden = (replace(TOY_TABLE[0], view="hidden", hidden_evidence="which king the seat held"),)
    catalog.register(replace(TOY, rule_table=hidden))
    try:
        assert "TOY-DISC-1" not in PUBLIC_RULES
        assert NEEDS_HIDDEN_EVIDENCE["TOY-DISC-1"] == "which king the seat held"
        events = read_record(toy_record()).events
        state = replay(events, 3)
        assert [f.rule for f in visible_findings(state, 1)] == []  # waits for the end of the hand
        assert [f.rule for f in visible_findings(state, 0)] == ["TOY-DISC-1"]  # the seat it is about
        assert [f.rule for f in visible_findings(replay(events, 4), 1)] == ["TOY-DISC-1"]
    finally:
        catalog.unregister("toy")
    assert "TOY-DISC-1" not in NEEDS_HIDDEN_EVIDENCE


def test_the_toy_variant_imports_into_a_sqlite_store(toy: VariantEntry, tmp_path: Path) -> None:
    (tmp_path / "toy-1.jsonl").write_bytes(toy_record())
    db = str(tmp_path / "toy.db")
    imported = cli_run("--db", db, "import", str(tmp_path / "toy-1.jsonl"))
    assert imported.exit_code == 0, imported.output
    listed = cli_run("--db", db, "list", "--json")
    assert [(g["game_id"], g["variant"], g["events"]) for g in map(json.loads, listed.stdout.splitlines())] == [
        ("toy-1", "toy", 6)
    ]


def test_the_toy_variant_is_audited_by_its_rule_ids(toy: VariantEntry, tmp_path: Path) -> None:
    report = audit(read_record(toy_record()).events)
    assert [(f.position, f.seat, f.rule, f.message) for f in report.findings] == [
        (3, 0, "TOY-DISC-1", "Anna discarded K♠, the card of the house")
    ]
    (tmp_path / "toy-1.jsonl").write_bytes(toy_record())
    result = cli_run("audit", "--json", str(tmp_path / "toy-1.jsonl"))
    assert [f["rule"] for f in json.loads(result.stdout)["findings"]] == ["TOY-DISC-1"]


@pytest.mark.parametrize("command", [("simulate",), ("export",), ("analytics", "export")])
def test_the_toy_variant_is_listed_by_help(toy: VariantEntry, command: tuple[str, ...]) -> None:
    result = cli_run(*command, "--help")
    assert "[burraco|scala40|ramino51|ramino|gin|toy]" in " ".join(result.output.split())


def test_the_toy_variant_is_simulated(toy: VariantEntry, tmp_path: Path) -> None:
    events, injected = simulate_game("toy", None, 2, seed=3)
    assert (events[0].type, events[0].variant, events[-1].type, injected) == ("game_started", "toy", "game_ended", [])
    write_record(events, tmp_path / "sim.jsonl")
    assert audit(read_record(tmp_path / "sim.jsonl").events).findings == ()
    result = cli_run("simulate", "--variant", "toy", "--games", "1", "--seed", "3", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "sim-toy-casa-2p-3.jsonl").read_bytes() == (tmp_path / "sim.jsonl").read_bytes()


def test_the_toy_variant_is_shown_in_the_viewer(records_app, toy: VariantEntry) -> None:

    app = records_app(read_record(toy_record()).events)
    page = app.test_client().get("/games/toy-1?at=3")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Anna discards K" in text and "TOY-DISC-1" in text
    report = app.test_client().get("/games/toy-1/report")
    assert report.status_code == 200
    assert "game toy-1 starts: Toy Rummy (casa), Anna, Bruno" in report.get_data(as_text=True)


def test_without_the_entry_the_variant_is_unknown_again(toy: VariantEntry) -> None:
    catalog.unregister("toy")
    try:
        with pytest.raises(KeyError, match="unknown variant 'toy'"):
            find_variant("toy")
        with pytest.raises(RecordError, match="unknown value 'toy'"):
            read_record(toy_record())
    finally:
        catalog.register(toy)
