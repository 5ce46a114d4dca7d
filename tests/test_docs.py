"""docs/ ships with the code (issue 26, "Docs that ship"): the format and rules pages agree with the
contracts in ../shared/ (FORMAT.md, RULES.md, TOURNAMENT.md: the source the tests follow), the CLI
reference is every command's ``--help``, and the pages build as a site with no broken link."""

from __future__ import annotations

import re
import shutil
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


MKDOCS = Path(sys.executable).with_name("mkdocs")


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MKDOCS), "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_docs_build_as_a_site_with_no_broken_link(tmp_path: Path) -> None:
    """``mkdocs build --strict`` (mkdocs.yml: a broken link or anchor is a warning, so an error)."""
    built = _build(REPO / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stderr
    assert [line for line in built.stderr.splitlines() if "WARNING" in line] == []
    rules = (tmp_path / "site" / "rules.html").read_text(encoding="utf-8")
    assert '<a id="BUR-MELD-1"></a>BUR-MELD-1' in rules
    assert (tmp_path / "site" / "img" / "viewer.png").stat().st_size > 10_000
    pages = sorted(p.name for p in (tmp_path / "site").glob("*.html") if p.name not in ("404.html", "search.html"))
    assert pages == sorted(p.with_suffix(".html").name for p in DOCS.glob("*.md"))


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    """The twin: the same site with one dead link and one dead anchor added is refused, naming both."""
    (tmp_path / "mkdocs.yml").write_text(_read(REPO / "mkdocs.yml"))
    shutil.copytree(DOCS, tmp_path / "docs")
    with (tmp_path / "docs" / "simulation.md").open("a") as f:
        f.write("\n[gone](nothere.md) and [no such rule](rules.md#BUR-NOPE-9)\n")
    built = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 1
    warnings = [line.split("-  ", 1)[1] for line in built.stderr.splitlines() if line.startswith("WARNING")]
    assert warnings == [
        "Doc file 'simulation.md' contains a link 'nothere.md', but the target is not found among documentation files.",
        "Doc file 'simulation.md' contains a link 'rules.md#BUR-NOPE-9', but the doc 'rules.md' does not contain an "
        "anchor '#BUR-NOPE-9'.",
    ]


def test_the_readme_is_a_five_minute_read_whose_links_resolve() -> None:
    readme = _read(REPO / "README.md")
    assert len(readme.splitlines()) < 300
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if "://" not in t]
    assert "docs/img/viewer.png" in local and "docs/format.md" in local and "docs/rules.md" in local
    assert [t for t in local if not (REPO / t).is_file()] == []
    # the references and every walkthrough moved out of the README (issue 26) are linked from it
    moved = ["dispute", "command-line", "recording", "record-files", "games", "openspiel", "viewer", "live-http"]
    moved += ["report", "analytics", "seals", "simulation", "benchmarks", "architecture"]
    pages = [f"docs/{name}.md" for name in ["format", "rules", "cli", "api", *moved]]
    assert [page for page in pages if page not in local] == []


def test_the_report_links_each_cited_rule_to_its_anchor_in_the_rules_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dispute report's "Rules cited" (issue 26): each id links to docs/rules.md#ID, an anchor the page has."""
    from replay_web.report import RULES_URL_ENV, render_html
    from replay_web.report_data import build_report
    from tests.test_report import dispute_events

    monkeypatch.delenv(RULES_URL_ENV, raising=False)
    page = render_html(build_report(dispute_events(), lang="en"))
    links = re.findall(r'<dt class="rule-id" id="rule-([^"]+)"><a href="([^"#]+)#([^"]+)">([^<]+)</a></dt>', page)
    assert [(i, a, t) for i, _, a, t in links] == [
        (r, r, r) for r in ["ALL-MELD-1", "BUR-PILE-1", "BUR-TURN-1", "ALL-TURN-2", "ALL-TURN-1", "ALL-SCORE-1"]
    ]
    assert {url for _, url, _, _ in links} == {(DOCS / "rules.md").as_uri()}
    rules = _read(DOCS / "rules.md")
    assert [a for _, _, a, _ in links if f'<a id="{a}"></a>' not in rules] == []
    # a club that hosts the docs site names its rules page
    monkeypatch.setenv(RULES_URL_ENV, "https://club.example/docs/rules.html")
    page = render_html(build_report(dispute_events(), lang="it"))
    assert '<a href="https://club.example/docs/rules.html#BUR-PILE-1">BUR-PILE-1</a>' in page


def console_session(text: str, after: str) -> list[tuple[list[str], list[str]]]:
    """The first ``console`` block after the heading ``after``: each ``$ command`` and the lines it prints."""
    block = re.search(re.escape(after) + r".*?```console\n(.*?)```", text, re.S)
    assert block, after
    steps: list[tuple[list[str], list[str]]] = []
    for line in block.group(1).rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:].split(), []))
        else:
            steps[-1][1].append(line)
    return steps


def test_the_readme_referee_session_prints_what_it_says(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """README "A referee's session": every command run on a store of the two fixtures it names, every line compared
    (as ./run.sh leaves it: imported with the analytics view, in English)."""
    fixtures = [REPO / "fixtures" / "burraco" / "dispute.jsonl", REPO / "fixtures" / "scala40" / "jolly_swap.jsonl"]
    assert run("import", *map(str, fixtures)).exit_code == 0
    steps = console_session(_read(REPO / "README.md"), "## A referee's session")
    assert [args[:2] for args, _ in steps] == [
        ["rummy-ledger", "audit"],
        ["rummy-ledger", "score"],
        ["rummy-ledger", "show"],
    ]
    for args, expected in steps:
        result = run(*args[1:], env={"LANGUAGE": "en", "LANG": "C"})
        assert result.exit_code in (0, 1), result.output
        while expected and expected[-1] == "":
            expected.pop()
        assert result.stdout.rstrip("\n").split("\n") == expected, " ".join(args)
