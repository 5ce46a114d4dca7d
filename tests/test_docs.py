"""docs/ ships with the code (issue 26, "Docs that ship"): the format and rules pages agree with the
contracts in ../shared/ (FORMAT.md, RULES.md, TOURNAMENT.md: the source the tests follow), the CLI
reference is every command's ``--help``, and the pages build as a site with no broken link."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools import make_cli_docs, make_docs

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DOCS = REPO / "docs"


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_every_rule_id_of_the_contracts_has_its_anchor_in_the_rules_page() -> None:
    page = _read(DOCS / "rules.md")
    ids = make_docs.rule_ids(_read(SHARED / "RULES.md")) + make_docs.rule_ids(_read(SHARED / "TOURNAMENT.md"))
    # 13 common, 11 Burraco, 9 Scala 40, 7 Ramino 51, 3 Ramino, 6 Gin, 6 tournament
    assert len(ids) == 55 and len(set(ids)) == 55
    assert [i for i in ids if f'<a id="{i}"></a>{i}' not in page] == []
    assert sorted(re.findall(r'<a id="([^"]+)"></a>', page)) == sorted(ids)


def test_every_event_type_of_the_contracts_is_in_the_format_page() -> None:
    page = _read(DOCS / "format.md")
    types = make_docs.event_types(_read(SHARED / "FORMAT.md"))
    assert len(types) == 17 and types[0] == "game_started" and types[-1] == "game_ended"
    tour = make_docs.event_types(_read(SHARED / "TOURNAMENT.md"))
    assert tour == [
        "tournament_started",
        "entrant_registered",
        "entrant_withdrawn",
        "round_paired",
        "vp_adjusted",
        "round_closed",
        "tournament_ended",
    ]
    assert [t for t in types + tour if f"| `{t}` |" not in page] == []
    for part in ("## Partial records", "## Rulings after the game", "## Who may read what", "## Tournaments"):
        assert part in page


def test_the_format_and_rules_pages_are_what_the_contracts_make() -> None:
    """Run ``python tools/make_docs.py`` after a contract changes."""
    for name, text in make_docs.pages(SHARED).items():
        assert _read(REPO / name) == text, f"{name} differs from ../shared: run python tools/make_docs.py"


def test_the_cli_reference_is_every_commands_help() -> None:
    """Run ``python tools/make_cli_docs.py`` after a command or an option changes."""
    page = _read(DOCS / "cli.md")
    lines = list(make_cli_docs.commands())
    assert ("import",) in lines and ("analytics", "update") in lines and ("token", "create") in lines
    for args in [(), *lines]:
        heading = "## `" + " ".join(("rummy-ledger", *args)) + "`"
        assert f"{heading}\n\n```text\n{make_cli_docs.help_text(args)}```\n" in page, heading
    assert page == make_cli_docs.page(), "docs/cli.md is stale: run python tools/make_cli_docs.py"


def test_the_cli_reference_matches_the_installed_command() -> None:
    """The real console script's ``--help`` (another process, another terminal) says what the page says."""
    out = subprocess.run(
        [str(Path(sys.executable).with_name("rummy-ledger")), "import", "--help"],
        capture_output=True,
        text=True,
        env={"COLUMNS": "120", "LANG": "C", "PATH": "/usr/bin:/bin"},
        check=True,
    ).stdout
    assert out == make_cli_docs.help_text(("import",))
    assert out in _read(DOCS / "cli.md")


@pytest.mark.parametrize("name", ["format.md", "rules.md", "api.md", "cli.md"])
def test_the_references_are_in_docs(name: str) -> None:
    assert (DOCS / name).stat().st_size > 2000
