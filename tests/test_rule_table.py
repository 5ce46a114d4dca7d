"""The rule tables walked (issue 23): every rule id of RULES.md has its
message(s) in its table entry (``ledger/rule_table.py``, each variant's
``rule_table`` module; ``ledger.rule_messages.RULE_MESSAGES``), every msgid
the rules mark is in a table (or a piece), each has a non-empty Italian
msgstr, and a finding (or refusal) worded by each reads differently in
Italian than in English. The variants' note msgids (the CLI's and the
viewer's) have their Italian too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ledger import catalog, i18n
from ledger.rule_ids import RULE_IDS, RULE_TABLE, RULES_BY_FAMILY, SHARED_RULES
from ledger.rule_messages import PIECES, RULE_MESSAGES
from ledger.rule_table import SHARED_TABLE
from ledger.state import Finding
from ledger.texts import placeholders
from replay_web.words import NOTE_MSGIDS

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT.parent / "shared" / "RULES.md"
IT = i18n.translations("it")


def _catalog(path: Path) -> dict[str, str]:
    with path.open("rb") as fp:
        return {m.id: m.string for m in read_po(fp, locale="it") if m.id and isinstance(m.id, str) and not m.context}


def _marked(paths: list[Path]) -> tuple[set[str], set[str]]:
    """``(msgids, refusal msgids)`` marked with ``N_`` in ``paths`` (a refusal: inside a
    ``reject(...)``/``RecordError(...)`` call, or the helpers that word one)."""
    marked, refusals = set(), set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                marked.add(node.args[0].value)  # type: ignore[attr-defined]
            if (
                isinstance(node, ast.Call)
                and (getattr(node.func, "attr", None) == "reject" or getattr(node.func, "id", None) == "RecordError")
            ) or (isinstance(node, ast.FunctionDef) and node.name in ("after_game_ended", "meld_id_used")):
                refusals |= {
                    n.args[0].value  # type: ignore[attr-defined]
                    for n in ast.walk(node)
                    if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "N_"
                }
    return marked, refusals


def test_every_rule_id_has_its_messages() -> None:
    assert set(RULE_MESSAGES) == set(RULE_IDS)
    assert all(RULE_MESSAGES.values())
    if RULES_MD.exists():  # the registry is RULES.md's (tests/test_rule_ids.py); every registered id is there
        ids = set(re.findall(r"^\| ([A-Z][A-Z0-9]+-[A-Z0-9-]+) \|", RULES_MD.read_text(), re.M))
        assert set(RULE_MESSAGES) <= ids


def test_each_table_holds_its_own_family() -> None:
    """The shared table holds the shared families, each catalog entry's table its family's ids,
    and the derived views are the tables' columns."""
    assert [r.family for r in SHARED_TABLE] == sorted(
        (r.family for r in SHARED_TABLE), key=catalog.SHARED_FAMILIES.index
    )
    assert set(SHARED_RULES) == set(catalog.SHARED_FAMILIES) == {r.family for r in SHARED_TABLE}
    for game in catalog.CATALOG.values():
        assert {r.family for r in game.table()} == {game.family}
        assert RULES_BY_FAMILY[game.family] == game.rule_ids
    assert list(RULE_TABLE) == list(RULE_IDS) == list(RULE_MESSAGES)


def test_the_table_is_the_code() -> None:
    """Each msgid the rules mark (ledger/variants but its presentation and rule-table modules, melds.py)
    is in a table (a rule's sentence or a piece), and each of the tables' is marked in the code; each
    REC refusal's too."""
    rules = (
        p
        for p in sorted((ROOT / "ledger" / "variants").rglob("*.py"))
        if p.name != "presentation.py" and not p.name.endswith("rule_table.py")
    )
    variants = [*rules, ROOT / "ledger" / "melds.py"]
    marked, refusals = _marked(variants)
    findings = set().union(*(v for k, v in RULE_MESSAGES.items() if not k.startswith("REC-")))
    assert (
        sorted(
            (marked - refusals)
            ^ (findings | set(PIECES))
            - {"team %(team)s (%(names)s)", "%(first)s and %(second)s", "%(first)s or %(second)s"}
        )
        == []
    )
    _, everywhere = _marked(sorted((ROOT / "ledger").rglob("*.py")))
    refused = set().union(*(v for k, v in RULE_MESSAGES.items() if k.startswith("REC-")))
    assert sorted(everywhere - refused) == []
    assert len(findings) >= 60 and len(refused) > 30


@pytest.mark.parametrize(("rule", "msgid"), [(rule, msgid) for rule, ids in RULE_MESSAGES.items() for msgid in ids])
def test_every_rule_message_reads_differently_in_italian(rule: str, msgid: str) -> None:
    assert _catalog(i18n.po_path("it")).get(msgid), msgid
    f = Finding(12, 1, 0, rule, msgid, tuple(f"<{name}>" for name in placeholders(msgid)))
    assert f.text(IT) != f.message
    shown = sorted(re.findall(r"<\w+>", f.text(IT)))
    assert shown == sorted(re.findall(r"<\w+>", f.message)) == sorted(f"<{n}>" for n in placeholders(msgid))


@pytest.mark.parametrize("msgid", PIECES)
def test_every_piece_has_its_italian(msgid: str) -> None:
    italian = _catalog(i18n.po_path("it")).get(msgid)
    assert italian and IT.gettext(msgid) == italian


def test_every_note_has_its_italian() -> None:
    """The variants' board notes (each ledger/variants/*/presentation.py)
    have their Italian in the one catalog, which the CLI and the viewer read (replay_web/words.py
    NOTE_MSGIDS names them)."""
    notes = (ROOT / "ledger" / "variants").glob("*/presentation.py")
    marked, _ = _marked(sorted(notes))
    assert len(marked) == 11 and marked | {"team %(team)s (%(names)s)"} == set(NOTE_MSGIDS)
    cli, web = _catalog(i18n.po_path("it")), i18n.translations("it")
    assert [m for m in NOTE_MSGIDS if not cli.get(m) or web.gettext(m) in ("", m)] == []
