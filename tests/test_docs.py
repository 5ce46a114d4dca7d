"""docs/ ships with the code (issue 26, "Docs that ship"): the format and rules pages agree with the
contracts in ../shared/ (FORMAT.md, RULES.md, TOURNAMENT.md: the source the tests follow), the CLI
reference is every command's ``--help``, and the pages build as a site with no broken link."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_seal_cli import readme_script
from tools import make_cli_docs, make_docs

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DOCS = REPO / "docs"
# The contracts live beside the project's folder (../shared), not in the repository: a clone elsewhere
# has none, so the three tests that compare docs/ with them say so and skip (as test_rule_ids does).
needs_contracts = pytest.mark.skipif(
    not all((SHARED / name).exists() for name in ("FORMAT.md", "RULES.md", "TOURNAMENT.md")),
    reason="the contracts ../shared/FORMAT.md, RULES.md, TOURNAMENT.md are not beside this checkout",
)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@needs_contracts
def test_every_rule_id_of_the_contracts_has_its_anchor_in_the_rules_page() -> None:
    page = _read(DOCS / "rules.md")
    ids = make_docs.rule_ids(_read(SHARED / "RULES.md")) + make_docs.rule_ids(_read(SHARED / "TOURNAMENT.md"))
    # 13 common, 11 Burraco, 9 Scala 40, 7 Ramino 51, 3 Ramino, 6 Gin, 6 tournament
    assert len(ids) == 55 and len(set(ids)) == 55
    assert [i for i in ids if f'<a id="{i}"></a>{i}' not in page] == []
    assert sorted(re.findall(r'<a id="([^"]+)"></a>', page)) == sorted(ids)


@needs_contracts
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


@needs_contracts
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
    moved += ["report", "analytics", "hand-histories", "seals", "simulation", "benchmarks", "architecture"]
    pages = [f"docs/{name}.md" for name in ["format", "rules", "cli", "api", *moved]]
    assert [page for page in pages if page not in local] == []


def test_the_readmes_mkdocs_command_comes_with_what_it_names() -> None:
    """README: ``.venv/bin/mkdocs serve`` works after the install it names. ``./run.sh``
    installs the ``pdf`` extra only, so the README names the extra that adds mkdocs
    (``docs``), and ``./test.sh``'s ``test`` extra has it too (issue 26, a fresh clone's check)."""
    import tomllib

    readme = " ".join(_read(REPO / "README.md").split())
    extras = tomllib.loads(_read(REPO / "pyproject.toml"))["project"]["optional-dependencies"]
    assert "`.venv/bin/mkdocs serve`" in readme
    assert "after `./run.sh` alone, `.venv/bin/pip install -e '.[docs]'` adds it" in readme
    has_mkdocs = {name for name, reqs in extras.items() if any(r.startswith("mkdocs") for r in reqs)}
    assert has_mkdocs == {"docs", "test"}
    assert "-e '.[pdf]'" in _read(REPO / "run.sh") and "-e '.[test]'" in _read(REPO / "test.sh")


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


# --- the walkthroughs moved out of the README (issue 26): their sessions run, every line compared ---------------

_STEP = "@@rummy-ledger-docs-step@@"


def console_blocks(text: str) -> list[str]:
    return re.findall(r"```console\n(.*?)```", text, re.S)


def _same(expected: list[str], got: list[str]) -> bool:
    """Line by line; an ellipsis ``…`` in an expected line that differs stands for any text (a receive time)."""
    if len(expected) != len(got):
        return False
    for want, line in zip(expected, got):
        if want != line and ("…" not in want or not re.fullmatch(".+?".join(map(re.escape, want.split("…"))), line)):
            return False
    return True


def run_console(block: str, folder: Path) -> list[tuple[str, list[str], list[str]]]:
    """Every ``$ command`` of ``block`` run in order by one bash in ``folder`` (an ``export`` holds for the
    commands after it), with stderr in its place among stdout: ``(command, expected lines, printed lines)``."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    # each step: a marker, the previous step's status restored (for `echo $?`), the command, its status kept
    script = "status=0\n" + "".join(
        f"printf '%s\\n' '{_STEP}'\n(exit $status)\n{{ {cmd}\n}} 2>&1\nstatus=$?\n" for cmd, _ in steps
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "RUMMY_LEDGER", "LC_"))}
    env.update(PATH=f"{Path(sys.executable).parent}:/usr/bin:/bin", LANGUAGE="en", LANG="C", COLUMNS="200")
    for name in ("fixtures", "examples"):
        (folder / name).symlink_to(REPO / name)
    done = subprocess.run(["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    printed = done.stdout.split(_STEP + "\n")[1:]
    assert len(printed) == len(steps), done.stderr
    out = []
    for (cmd, expected), got in zip(steps, printed):
        while expected and expected[-1] == "":
            expected.pop()
        out.append((cmd, expected, got.rstrip("\n").split("\n") if got.strip() else []))
    return out


WALKTHROUGHS = [
    ("dispute.md", 0),
    ("dispute.md", 1),
    ("recording.md", 0),
    ("openspiel.md", 0),
    ("seals.md", 0),
    ("hand-histories.md", 0),
]


@pytest.mark.parametrize(("page", "block"), WALKTHROUGHS, ids=[f"{p}-{b}" for p, b in WALKTHROUGHS])
def test_a_walkthrough_prints_what_it_says(page: str, block: int, tmp_path: Path) -> None:
    """Run in an empty folder beside the checkout's fixtures/ and examples/, as the page says (the seals
    session beside its own seal.py, the page's script, and with Debian's sqlite3 for its edit)."""
    if page == "seals.md":
        if shutil.which("sqlite3") is None and os.environ.get("CI") != "true":
            pytest.skip("the seals walkthrough edits the store with sqlite3 (Debian's sqlite3)")
        (tmp_path / "seal.py").write_text(readme_script())
    steps = run_console(console_blocks(_read(DOCS / page))[block], tmp_path)
    assert len(steps) >= 8
    differ = [(cmd, expected, got) for cmd, expected, got in steps if not _same(expected, got)]
    assert differ == []


def test_the_api_reference_names_every_route_of_the_app() -> None:
    """docs/api.md lists each route and method that replay_web serves (``<id>`` for ``<game_id>``)."""
    from replay_web import create_app

    page = _read(DOCS / "api.md")
    app = create_app({"LEDGER_RECORDS": [str(REPO / "examples" / "live" / "club-live.jsonl")]})
    routes = sorted(
        f"{method} {rule.rule.replace('<game_id>', '<id>')}"
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    )
    assert (
        len(routes) == 31
        and "GET /tournaments/<tournament_id>/standings.svg" in routes
        and "POST /api/games/<id>/events" in routes
    )
    assert [r for r in routes if not re.search("`" + re.escape(r) + r"[?`]", page)] == []


def test_the_readme_query_from_several_processes_prints_what_it_says(tmp_path: Path) -> None:
    """README "A corpus past one machine" (issue 29): its script, run as a process of its own beside the
    Hive-partitioned export of every fixture, starts two worker processes and prints the README's rows; the
    script and its output are those of docs/stats.md "A query from several processes"."""
    readme = _read(REPO / "README.md")
    found = re.search(r"<!-- several-processes[^>]*-->\n```python\n(.*?)```\n.*?\n```\n(.*?)```\n", readme, re.S)
    assert found, "README.md has no several-processes block"
    script, printed = found.groups()
    assert "ProcessPoolExecutor(max_workers=2)" in script and "hive_partitioning = true" in script
    stats = _read(DOCS / "stats.md")
    assert script in stats and f"```\n{printed}```" in stats
    bin_dir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "RUMMY_LEDGER", "LC_"))}
    env.update(PATH=f"{bin_dir}:/usr/bin:/bin", LANGUAGE="en", LANG="C")
    fixtures = sorted(str(p) for p in (REPO / "fixtures").glob("*/*.jsonl"))
    imported = subprocess.run(["rummy-ledger", "import", *fixtures], cwd=tmp_path, env=env, capture_output=True)
    assert imported.returncode == 1 and b"rejected       \xe2\x94\x82     2" in imported.stdout  # the rejected_* two
    subprocess.run(
        ["rummy-ledger", "export", "--all", "--partition", "variant,month", "--out", "ds"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    (tmp_path / "points.py").write_text(script, encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "points.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout == printed
