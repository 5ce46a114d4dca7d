"""The words digest: one SHA-256 over everything a person or a program reads
of every fixture, to prove a change of the message machinery (issue 23)
changed no byte.

For every record under ``fixtures/`` (``**/*.jsonl``) it renders, through the
real CLI (click's runner, in process) and the real viewer (Flask's test
client over the records in memory):

* ``audit`` and ``audit --json``, ``score`` and ``score --json``, in English and Italian;
* ``show --at N`` at every position, without ``--pov`` and for every seat and
  ``spectator``, in English and Italian;
* the findings of simulated games with injected violations (as
  tests/test_finding_texts.py makes them), as ``audit`` words them, in English and Italian;
* the viewer's game page (``/games/<id>?at=N&pov=…``) at the last position and
  at every position with a finding, for every pov, in English and Italian,
  the API's audit and score, and the dispute report's HTML (en, it).

The report links each rule id to ``docs/rules.md`` by a ``file://`` URL of the
checkout (:func:`replay_web.report.rules_url`); that URL is written
``file://CHECKOUT`` in what is hashed, so every checkout of a tree has one digest.

Usage::

    .venv/bin/python tools/texts_digest.py            # prints the digest
    .venv/bin/python tools/texts_digest.py -o dump.txt  # and writes what it hashed (to diff two runs)

The digest recorded for the tree (the one every step of issue 23 must keep) is
:data:`EXPECTED`.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from click.testing import CliRunner

from ledger.cli import cli
from ledger.cli.findings import finding_line
from ledger.errors import RecordError
from ledger.i18n import translations
from ledger.record_files import read_record
from ledger.replay import replay
from ledger.simulate import STRATEGIES, simulate_game
from replay_web import create_app
from replay_web.store import RecordStore

ROOT = Path(__file__).resolve().parent.parent

#: the digest of main at bcc0692. It was 81960e37… at 55d75f9 (before issue 23's changes); the
#: commits since that say what they changed (hands sorted by suit 28244ba, the score chart in the
#: viewer and the report 62a66fa, seals only after the chain check 5e4c1ae, the report's findings
#: summary bc6aecc, the rule links 9f17502, new fixtures, …) moved it without recording it, and the
#: rule links made it depend on the checkout's path (now written ``file://CHECKOUT``). Since:
#: ``/api/games/<id>/score`` carries ``seal`` and ``chain_verified`` as ``score --json`` does (e6a5b4a,
#: issue 26; the only change: 4683a1e4… at bcc0692).
#: Then 8c448da8… at 018ebb3 → 27403117… (386c1c8): the score chart's legend on an Italian page names a
#: team "coppia 0 (Anna & Carla)" where it said "team 0 (…)" (issue 23: sides named from data).
#: And → 04decc13… on its own (db7d7c1): an abandoned game's score sheet (``score``, the report) says
#: "no winner (abandoned)" where it said "no winner (tie or no result)" (issue 26; the four abandoned
#: fixtures, en and it: 16 outputs, the only change). Both together: 8f6964fd… at 1f2d90f.
#: Then → 3b0e0484…: ``/api/games/<id>/audit`` is the ``audit --json`` object, built by the same
#: function (issue 26): each finding gains ``"ruling"``, the object ``seal``, ``length`` and
#: ``chain_verified`` (the 18 readable fixtures' API audits, the only change).
EXPECTED = "3b0e048480c0210d62b5e01d7acd2477f60c4a5ff51255877e2b9d8fa3ec803d"

#: what the checkout's own ``file://`` URL is written as in the hashed text
CHECKOUT = "file://CHECKOUT"


def _cli(runner: CliRunner, args: list[str]) -> str:
    res = runner.invoke(cli, args, catch_exceptions=False, env={"RUMMY_LEDGER_DB": "/nonexistent/texts-digest.db"})
    return f"$ {' '.join(args)}\n[exit {res.exit_code}]\n{res.stdout}{res.stderr}"


def cli_texts(path: Path, out: list[str]) -> None:
    runner = CliRunner()
    rel = str(path.relative_to(ROOT))
    try:
        events = read_record(path).events
    except RecordError:  # a refused record (fixtures/*/rejected_*): its refusal is what a reader sees
        events = ()
    for lang in ("en", "it"):
        for args in (["audit", rel], ["audit", "--json", rel], ["score", rel], ["score", "--json", rel], ["show", rel]):
            out.append(_cli(runner, ["--lang", lang, *args]))
        seats = len(events[0].players) if events else 0
        for at in range(len(events)):
            for pov in (None, *map(str, range(seats)), "spectator"):
                args = ["--lang", lang, "show", rel, "--at", str(at)] + (["--pov", pov] if pov else [])
                out.append(_cli(runner, args))


def simulated_texts(out: list[str]) -> None:
    """The findings of simulated games with injected violations (as tests/test_finding_texts.py
    makes them), as ``audit`` words them, in English and Italian."""
    for variant in sorted(STRATEGIES):
        for seed in range(3):
            events, _ = simulate_game(variant, None, 2, seed=seed, violations=0.3)
            for f in replay(events).findings:
                out.append(f"{variant}/{seed} {f.position} {f.hand} {f.seat} {f.rule} {f.message}")
                out.extend(finding_line(f, translations(lang)) for lang in ("en", "it"))


def web_texts(paths: list[Path], out: list[str]) -> None:
    records = []
    for p in paths:
        try:
            records.append(list(read_record(p).events))
        except RecordError:
            continue
    app = create_app({"TESTING": True, "LEDGER_STORE": RecordStore(records=records)})
    client = app.test_client()
    for events in records:
        gid = events[0].game_id
        seats = len(events[0].players)
        audit = client.get(f"/api/games/{gid}/audit")
        out.append(f"GET api audit {gid}\n{audit.status}\n{audit.get_data(as_text=True)}")
        score = client.get(f"/api/games/{gid}/score")
        out.append(f"GET api score {gid}\n{score.status}\n{score.get_data(as_text=True)}")
        found = sorted({f["position"] for f in audit.get_json().get("findings", [])})
        for lang in ("en", "it"):
            rep = client.get(f"/games/{gid}/report?lang={lang}")
            out.append(f"GET report {gid} {lang}\n{rep.status}\n{rep.get_data(as_text=True)}")
            for at in sorted({len(events) - 1, *found}):
                for pov in ("", *map(str, range(seats)), "spectator"):
                    url = f"/games/{gid}?at={at}&lang={lang}" + (f"&pov={pov}" if pov else "")
                    page = client.get(url)
                    out.append(f"GET {url}\n{page.status}\n{page.get_data(as_text=True)}")


def texts(web: bool = True) -> tuple[int, list[str]]:
    """``(records, outputs)``: the number of fixture records and every text rendered
    (the module's list; without the viewer's when not ``web``), the checkout's URL
    written :data:`CHECKOUT`."""
    paths = sorted(ROOT.glob("fixtures/**/*.jsonl"))
    out: list[str] = []
    for path in paths:
        cli_texts(path, out)
    simulated_texts(out)
    if web:
        web_texts(paths, out)
    return len(paths), [normalised(t) for t in out]


def normalised(text: str) -> str:
    """``text`` with the checkout's ``file://`` URL written :data:`CHECKOUT`."""
    return text.replace(ROOT.as_uri(), CHECKOUT)


def digest_of(text: str) -> str:
    """The SHA-256 (hex) of ``text``'s UTF-8 bytes."""
    return hashlib.sha256(text.encode()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", help="also write the text that was hashed to this file")
    ap.add_argument("--no-web", action="store_true", help="the CLI's texts only")
    args = ap.parse_args()
    records, out = texts(web=not args.no_web)
    text = "\n".join(out)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    digest = digest_of(text)
    print(f"{digest}  ({records} records, {len(out)} outputs, {len(text)} characters)")
    if EXPECTED and digest != EXPECTED:
        print(f"differs from EXPECTED {EXPECTED}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
