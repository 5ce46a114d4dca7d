"""The CLI's refusals in Italian: bad whole numbers, a ruling's usage errors
and refusals (REC-REF), the report's position and file errors and a missing
Chromium, the store's conflicts (append, import), ``verify`` on a tampered
store and against a checkpoint, ``import-openspiel``'s error line. English
stays as it was. Real SQLite stores, the bundled Burraco dispute and Ramino."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from ledger.stored.persistence import game_uuid
from tests.conftest import NO_LOCALE, REPO

DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"
RAMINO = REPO / "fixtures" / "ramino" / "in-mano.jsonl"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "club.db"


@pytest.fixture
def run(cli_invoker: Callable[..., Callable[..., Result]], db: Path) -> Callable[..., Result]:
    return cli_invoker(db, NO_LOCALE)


def lines(path: Path, n: int | None = None) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)[:n]


def test_usage_errors_of_show_rule_and_report(run: Callable[..., Result]) -> None:
    cases = [
        (
            ("show", str(DISPUTE), "--at", "abc"),
            "Invalid value for '--at': 'abc' non è un numero intero (cifre ASCII 0-9)",
        ),
        (("rule", "g", "--penalty", "0", "-20"), "--penalty richiede --rule ID (la regola di RULES.md che applica)"),
        (
            ("rule", "g", "--penalty", "0", "-20", "--rule", "ALL-TURN-1", "--restore", "3"),
            "indica una sola decisione: --penalty SEAT|team:T POINTS --rule ID, oppure --restore TARGET --reason TEXT",
        ),
        (
            ("rule", "g", "--penalty", "0", "x", "--rule", "ALL-TURN-1"),
            "Invalid value for --penalty: 'x' non è un numero intero di punti",
        ),
        (
            ("report", str(DISPUTE), "--finding", "14", "-o", "x.pdf"),
            "Invalid value for --finding: nessuna irregolarità alla posizione 14 (le irregolarità sono alle "
            "posizioni 4, 5, 7, 8, 15, 17)",
        ),
        (
            ("report", str(DISPUTE), "-o", "x.docx"),
            "Invalid value for -o: x.docx: il verbale si scrive in .pdf o .html",
        ),
    ]
    for args, italian in cases:
        shown = run("--lang", "it", *args)
        assert (shown.exit_code, shown.stderr.splitlines()[-1]) == (2, f"Error: {italian}"), args
    assert run("show", str(DISPUTE), "--at", "abc").stderr.endswith(
        "Error: Invalid value for '--at': 'abc' is not a whole number (ASCII digits 0-9)\n"
    )
    assert run("report", str(DISPUTE), "-o", "x.docx").stderr.endswith(
        "Error: Invalid value for -o: x.docx: the report is written as .pdf or .html\n"
    )


_POV_CASES = [
    (
        ("show", str(DISPUTE), "--at", "3", "--pov", "7"),
        "nessun posto 7 a questo tavolo (posti 0–1, oppure 'spectator')",
        "no seat 7 at this table (seats 0–1, or 'spectator')",
    ),
    (
        ("show", str(DISPUTE), "--at", "3", "--pov", "north"),
        "'north' non è né un numero di posto né 'spectator'",
        "'north' is neither a seat number nor 'spectator'",
    ),
    (
        ("show", str(DISPUTE), "--pov", "1"),
        "--pov richiede --at N (ciò che un posto vede del tavolo a una posizione)",
        "--pov needs --at N (a seat's view of the table at a position)",
    ),
    (
        ("export", str(DISPUTE), "--format", "text", "--pov", "2"),
        "nessun posto 2 a questo tavolo (posti 0–1, oppure 'spectator')",
        "no seat 2 at this table (seats 0–1, or 'spectator')",
    ),
    (
        ("export", str(DISPUTE), "--format", "text", "--pov", "-1"),
        "nessun posto -1 a questo tavolo (posti 0–1, oppure 'spectator')",
        "no seat -1 at this table (seats 0–1, or 'spectator')",
    ),
]


@pytest.mark.parametrize(("args", "italian", "english"), _POV_CASES, ids=[" ".join(c[0][2:]) for c in _POV_CASES])
def test_a_bad_pov_of_show_and_export_in_italian(
    run: Callable[..., Result], args: tuple[str, ...], italian: str, english: str
) -> None:
    """``show --pov`` and ``export --format text --pov``: the refusal is a msgid and its params (issue 29)."""
    shown = run("--lang", "it", *args)
    assert (shown.exit_code, shown.stdout, shown.stderr.splitlines()[-1]) == (
        2,
        "",
        f"Error: Invalid value for --pov: {italian}",
    )
    assert run(*args).stderr.splitlines()[-1] == f"Error: Invalid value for --pov: {english}"


def test_a_refused_ruling_in_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    part = tmp_path / "part.jsonl"
    part.write_text("".join(lines(DISPUTE, 17)), encoding="utf-8")
    assert run("import", "--no-analytics", str(part)).exit_code == 0
    args = ("rule", "bur-dispute", "--penalty", "0", "-20", "--rule", "ALL-TURN-1", "--finding", "14")
    refused = run("--lang", "it", *args)
    assert (refused.exit_code, refused.stderr) == (
        2,
        "bur-dispute: posizione 17: finding: REC-REF: la posizione 14 non ha irregolarità su cui decidere\n",
    )
    assert (
        run(*args).stderr == "bur-dispute: position 17: finding: REC-REF: position 14 carries no finding to rule on\n"
    )
    restore = run("--lang", "it", "rule", "bur-dispute", "--restore", "0", "--reason", "x")
    assert restore.stderr == (
        "bur-dispute: posizione 17: target: REC-REF: la posizione 0 non fa parte della linea di gioco attuale "
        "della smazzata 1\n"
    )


def test_the_stores_conflicts_in_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    assert run("import", "--no-analytics", str(RAMINO), str(DISPUTE)).exit_code == 0
    head = tmp_path / "r1.jsonl"
    head.write_text("".join(lines(RAMINO, 4)), encoding="utf-8")
    again = run("--lang", "it", "append", "ramino-1", str(head))
    assert (again.exit_code, again.stderr) == (
        2,
        "rummy-ledger: errore: la partita 'ramino-1' esiste già (eventi registrati: 9); "
        "game_started apre solo una partita nuova\n",
    )
    assert run("append", "ramino-1", str(head)).stderr == (
        "rummy-ledger: error: game 'ramino-1' already exists (9 events stored); game_started opens a new game only\n"
    )
    changed = tmp_path / "changed.jsonl"
    events = lines(DISPUTE)
    events[10] = events[10].replace('"points":-50', '"points":-40')
    changed.write_text("".join(events), encoding="utf-8")
    imported = run("--lang", "it", "import", "--no-analytics", str(changed))
    assert imported.exit_code == 1
    assert imported.stderr.splitlines()[0] == (
        f"{changed}: la partita 'bur-dispute' è già registrata con eventi diversi (eventi registrati: 19, in questo "
        "file: 19; prima differenza alla posizione 10, riga 11); rifiutato"
    )


def test_verify_a_tampered_store_in_italian(run: Callable[..., Result], db: Path, tmp_path: Path) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    cp = tmp_path / "cp.json"
    assert run("checkpoint", "-o", str(cp)).exit_code == 0
    con = sqlite3.connect(db, isolation_level=None)
    oid = game_uuid("bur-dispute").hex
    (state,) = con.execute(
        "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 11", (oid,)
    ).fetchone()
    con.execute(
        "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 11",
        (bytes(state).replace(b'"points":-50', b'"points":-5'), oid),
    )
    con.close()
    english = run("verify").stdout.splitlines()[0]
    italian = run("--lang", "it", "verify").stdout.splitlines()[0]
    assert english.startswith("bur-dispute: position 10: event bytes differ from those sealed (stored seal ")
    stored, given = english.removesuffix(")").split("stored seal ")[1].split(", the bytes give ")
    assert italian == (
        f"bur-dispute: posizione 10: i byte dell'evento differiscono da quelli sigillati (sigillo registrato {stored}, "
        f"i byte danno {given})"
    )
    rewritten = tmp_path / "rewritten.jsonl"
    events = lines(DISPUTE)
    events[10] = events[10].replace('"points":-50', '"points":-5')
    rewritten.write_text("".join(events), encoding="utf-8")
    other = tmp_path / "other.db"
    assert run("import", "--no-analytics", str(rewritten), store=str(other)).exit_code == 0
    checked = run("--lang", "it", "verify", "--checkpoint", str(cp), store=str(other))
    seals = json.loads(cp.read_text(encoding="utf-8"))
    assert checked.exit_code == 1 and checked.stderr.startswith(f"{cp}: bur-dispute: il sigillo alla posizione 18 è ")
    assert checked.stderr.endswith(": la partita è stata riscritta dopo il checkpoint\n"), (checked.stderr, seals)


def test_a_missing_chromium_and_import_openspiel_in_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    made = run(
        "--lang",
        "it",
        "report",
        str(DISPUTE),
        "-o",
        str(tmp_path / "x.pdf"),
        env={"RUMMY_LEDGER_CHROMIUM": "/nonexistent/chromium"},
    )
    assert made.exit_code == 2
    assert made.stderr.startswith("rummy-ledger: errore: impossibile avviare Chromium (/nonexistent/chromium): ")
    assert made.stderr.endswith(
        "; installa il pacchetto chromium di Debian o indica in RUMMY_LEDGER_CHROMIUM un eseguibile di Chromium; "
        "-o FILE.html scrive la pagina stampabile anche senza\n"
    )
    bad = run("--lang", "it", "import-openspiel", "-", input="garbage\n")
    assert (bad.exit_code, bad.stderr.split(": ", 2)[:2]) == (2, ["rummy-ledger", "errore"])
    assert run("import-openspiel", "-", input="garbage\n").stderr.startswith(
        "rummy-ledger: error: import-openspiel -: "
    )


TEAMS = REPO / "fixtures" / "burraco" / "four_player_partnership.jsonl"


def test_a_burraco_team_is_a_coppia_in_italian(run: Callable[..., Result]) -> None:
    score = run("--lang", "it", "score", str(TEAMS)).stdout.splitlines()
    assert score[2].split("   ")[0] == "  coppia 0 (Anna & Carla)"
    assert score[4:6] == [
        "totali: coppia 0 (Anna & Carla) 770, coppia 1 (Bruno & Dario) -170",
        "vincitore: coppia 0 (Anna & Carla)",
    ]
    shown = run("--lang", "it", "show", str(TEAMS), "--at", "20").stdout.splitlines()
    assert [line for line in shown if "coppia" in line or "team " in line or "lato" in line] == [
        "  posto 0 Anna, coppia 0: 0 carte: ",
        "  posto 1 Bruno, coppia 1: 8 carte: 9♥ 3♣ 8♣ 10♣ J♣ K♣ 7♦ 8♦",
        "  posto 2 Carla, coppia 0: 5 carte: 10♠ J♠ Q♠ K♠ 4♦",
        "  posto 3 Dario, coppia 1 (mazziere): 7 carte: 3♠ 4♠ 7♠ 8♠ 2♥ 10♦ J♦",
        "  coppia 0 (Anna & Carla):",
        "  coppia 1 (Bruno & Dario):",
        "coppia 0 (Anna & Carla): pozzetto non ancora preso",
        "coppia 1 (Bruno & Dario): pozzetto non ancora preso",
    ]
    english = run("show", str(TEAMS), "--at", "20").stdout
    assert "\n  side 0 (team 0 (Anna & Carla)):\n" in english
    assert "\nteam 1 (Bruno & Dario): pozzetto not taken yet\n" in english
    assert run("score", str(TEAMS)).stdout.splitlines()[4] == (
        "totals: team 0 (Anna & Carla) 770, team 1 (Bruno & Dario) -170"
    )


def test_clicks_own_words_on_a_help_page_in_italian(run: Callable[..., Result]) -> None:
    """``Usage:``, the headings, the help and version options and an option's extras come from the CLI's
    catalog under ``--lang it``; English is click's text."""
    group = run("--lang", "it", "--help").stdout
    assert group.startswith("Uso: cli [OPZIONI] COMANDO [ARGOMENTI]...\n")
    assert "\nOpzioni:\n" in group and "\nComandi:\n" in group
    assert "  --version       Mostra la versione ed esce.\n" in group
    assert "  -h, --help      Mostra questo messaggio ed esce.\n" in group
    serve = " ".join(run("--lang", "it", "serve", "--help").stdout.split())
    assert "--port INTEGER Porta TCP su cui restare in ascolto. [predefinito: 5000]" in serve
    simulate = " ".join(run("--lang", "it", "simulate", "--help").stdout.split())
    assert "--games INTEGER Quante partite complete scrivere. [obbligatorio]" in simulate
    export = run("--lang", "it", "export", "--help").stdout
    assert "  --since DATA " in export and "  --until DATA " in export
    english = run("--help").stdout
    assert english.startswith("Usage: cli [OPTIONS] COMMAND [ARGS]...\n")
    assert "  -h, --help      Show this message and exit.\n" in english and "\nCommands:\n" in english
    assert "  --since DATE " in run("export", "--help").stdout
    assert "[default: 5000]" in run("serve", "--help").stdout


def test_a_refused_records_reasons_in_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    """The usual REC-… reasons of import, audit and show in Italian; English as the record's rules write them."""
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(lines(DISPUTE)[4], encoding="utf-8")
    held = REPO / "fixtures" / "burraco" / "rejected_card_not_in_hand.jsonl"
    card = REPO / "fixtures" / "burraco" / "rejected_bad_card.jsonl"
    imported = run("--lang", "it", "import", "--no-analytics", str(wrong), str(held), str(card))
    assert imported.exit_code == 1
    assert imported.stderr.splitlines()[:3] == [
        f"{wrong}:1: type: REC-ORDER: un registro inizia con game_started, non con meld_laid",
        f"{held}:5: card: REC-WHERE: Anna (posto 0) non ha in mano 5S",
        f"{card}:4: card: REC-FORMAT: carta non valida '11H' (attesa ad esempio 10H, AS, JK)",
    ]
    assert run("import", "--no-analytics", str(held)).stderr.splitlines()[0] == (
        f"{held}:5: card: REC-WHERE: Anna (seat 0) does not hold 5S"
    )
    audit = run("--lang", "it", "audit", str(wrong))
    assert (audit.exit_code, audit.stderr) == (
        2,
        f"{wrong}:1: type: REC-ORDER: un registro inizia con game_started, non con meld_laid\n",
    )
    shown = run("--lang", "it", "show", str(wrong))
    assert (shown.exit_code, shown.stderr) == (
        2,
        f"rummy-ledger: errore: {wrong}:1: type: REC-ORDER: un registro inizia con game_started, non con meld_laid\n",
    )
    assert run("show", str(wrong)).stderr == (
        f"rummy-ledger: error: {wrong}:1: type: REC-ORDER: a record starts with game_started, not meld_laid\n"
    )
