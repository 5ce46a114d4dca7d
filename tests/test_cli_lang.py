"""The CLI in Italian and English (issue 16): ``--lang`` and the locale
variables, the frames of ``audit``, ``score``, ``show`` and ``list``, the
errors seen most; ``--json`` is never translated. ``show --at N`` starts with
the move at N: who did what, its findings with status and rule text, its note
and its time. And the CLI's gettext catalog is in step with the sources.
Real SQLite stores, the bundled Burraco dispute."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import Result

from ledger.i18n import po_path
from tests import catalog_sources
from tests.conftest import NO_LOCALE, REPO

DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "club.db"


@pytest.fixture
def run(cli_invoker: Callable[..., Callable[..., Result]], db: Path) -> Callable[..., Result]:
    return cli_invoker(db, NO_LOCALE)


@pytest.fixture
def timed(tmp_path: Path) -> Path:
    """The dispute with a time and a note on position 15 (Anna's draw out of turn)."""
    lines = DISPUTE.read_text(encoding="utf-8").splitlines()
    event = json.loads(lines[15])
    event.update(at="2026-11-29T20:15:00+01:00", note="Carla saw it from the next table")
    lines[15] = json.dumps(event)
    path = tmp_path / "timed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def head(out: str) -> list[str]:
    """The lines before the first blank one: ``show --at``'s move block."""
    return out.split("\n\n", 1)[0].splitlines()


def test_show_at_starts_with_the_move_its_findings_note_and_time(run: Callable[..., Result], timed: Path) -> None:
    shown = run("show", str(timed), "--at", "15")
    assert shown.exit_code == 0
    assert head(shown.stdout) == [
        "move 15: Anna draws Q♣ from the stock",
        "  finding ALL-TURN-1: Anna played out of turn: it was Bruno's turn  [open]",
        "    rule ALL-TURN-1: Play out of turn: a seat acts when it is not its turn.",
        "  note: Carla saw it from the next table",
        "  at: 2026-11-29T20:15:00+01:00",
    ]
    assert shown.stdout.split("\n\n")[1].splitlines()[0] == "bur-dispute — burraco (fibur) — position 15, hand 1"
    assert "\nseal at position 15: " in shown.stdout  # kept after the table
    # a seat's view: the other seat's draw unnamed, no free-text note, its own findings only
    seat = run("show", str(timed), "--at", "15", "--pov", "1")
    assert head(seat.stdout) == [
        "move 15: Anna draws a card from the stock",
        "  finding ALL-TURN-1: Anna played out of turn: it was Bruno's turn  [open]",
        "    rule ALL-TURN-1: Play out of turn: a seat acts when it is not its turn.",
        "  at: 2026-11-29T20:15:00+01:00",
    ]


def test_show_at_a_referee_move_and_a_rewound_move(run: Callable[..., Result]) -> None:
    assert head(run("show", str(DISPUTE), "--at", "10").stdout) == [
        "move 10: referee: penalty -50 to Bruno (BUR-TURN-1)",
        "  note: laid off on the opponents' meld",
    ]
    rewound = run("show", str(DISPUTE), "--at", "7").stdout
    assert head(rewound) == [
        "move 7: Bruno lays off 6♥ on [a]",
        "  finding BUR-TURN-1: Bruno laid off 6♥ on meld a of Anna: lay-offs go only on one's own side's melds "
        " [open; move rewound by position 11]",
        "    rule BUR-TURN-1: Lay-off onto a meld of the other side.",
    ]
    assert rewound.splitlines()[-1] == "move 7 is rewound by the referee at position 11: it no longer counts"
    # a seat's view at 7 knows nothing of the restore at 11
    seat = run("show", str(DISPUTE), "--at", "7", "--pov", "0").stdout
    assert head(seat) == [
        "move 7: Bruno lays off 6♥ on [a]",
        "  finding BUR-TURN-1: Bruno laid off 6♥ on meld a of Anna: lay-offs go only on one's own side's melds  [open]",
        "    rule BUR-TURN-1: Lay-off onto a meld of the other side.",
    ]
    assert "rewound" not in seat and "11" not in seat.split("\n\n", 1)[0]


def test_show_at_names_the_ruling_in_both_languages(run: Callable[..., Result], tmp_path: Path) -> None:
    part = tmp_path / "part.jsonl"
    part.write_text("".join(DISPUTE.read_text(encoding="utf-8").splitlines(keepends=True)[:17]), encoding="utf-8")
    assert run("import", "--no-analytics", str(part)).exit_code == 0
    ruled = run(
        "--lang",
        "it",
        "rule",
        "bur-dispute",
        "--penalty",
        "0",
        "-20",
        "--rule",
        "ALL-TURN-1",
        "--finding",
        "15",
        "--referee",
        "Carla Bianchi",
        "--note",
        "ha giocato fuori turno",
    )
    assert (ruled.exit_code, ruled.stdout) == (
        0,
        "bur-dispute: penalty_assessed registrato alla posizione 17\ntotali: Anna -20, Bruno -50\n",
    )
    assert head(run("show", "bur-dispute", "--at", "15").stdout)[1] == (
        "  finding ALL-TURN-1: Anna played out of turn: it was Bruno's turn  "
        "[ruled at position 17 by Carla Bianchi: penalty -20 to Anna (ALL-TURN-1)]"
    )
    assert head(run("--lang", "it", "show", "bur-dispute", "--at", "15").stdout) == [
        "mossa 15: Anna pesca Q♣ dal tallone",
        "  irregolarità ALL-TURN-1: Anna ha giocato fuori turno: era il turno di Bruno  "
        "[decisa alla posizione 17 da Carla Bianchi: penalità -20 a carico di Anna (ALL-TURN-1)]",
        "    regola ALL-TURN-1: Gioco fuori turno: un posto agisce quando non è il suo turno.",
    ]
    assert head(run("--lang", "it", "show", "bur-dispute", "--at", "17").stdout) == [
        "mossa 17: arbitro: penalità -20 a carico di Anna (ALL-TURN-1)",
        "  nota: ha giocato fuori turno",
    ]
    appended = run(
        "--lang",
        "it",
        "append",
        "bur-dispute",
        "-",
        input=DISPUTE.read_text(encoding="utf-8").splitlines(keepends=True)[17],
    )
    assert (appended.exit_code, appended.stderr) == (0, "")
    assert appended.stdout.splitlines()[0] == "bur-dispute: 1 evento aggiunto (18 → 19)"


IT_AUDIT = (
    "bur-dispute: 6 irregolarità\n"
    "  posizione 4 (smazzata 1, posto 0): ALL-MELD-1: combinazione k K♣ K♦ K♠ Q♠: né un tris né una scala  "
    "[aperta]\n"
    "      regola ALL-MELD-1: Una combinazione che non è né un tris né una scala validi per la variante (dopo "
    "l'attacco, per `meld_extended`).\n"
    "  posizione 5 (smazzata 1, posto 0): BUR-PILE-1: Anna ha scartato 9♣, l'unica carta appena presa dal pozzo  "
    "[aperta]\n"
    "      regola BUR-PILE-1: Il pozzo era di una sola carta e quella stessa carta è stata scartata nello stesso "
    "turno.\n"
    "  posizione 7 (smazzata 1, posto 1): BUR-TURN-1: Bruno ha attaccato 6♥ alla combinazione a di Anna: si "
    "attacca solo alle proprie combinazioni o a quelle del compagno  [aperta; mossa annullata dalla posizione 11]\n"
    "      regola BUR-TURN-1: Attacco su una combinazione della coppia avversaria.\n"
    "  posizione 8 (smazzata 1, posto 1): ALL-TURN-2: Bruno ha pescato una seconda volta nello stesso turno (dal "
    "tallone)  [aperta; mossa annullata dalla posizione 11]\n"
    "      regola ALL-TURN-2: Più di una pescata (dal tallone o dal pozzo) nello stesso turno, oppure calata, "
    "attacco o scarto prima di pescare.\n"
    "  posizione 15 (smazzata 1, posto 0): ALL-TURN-1: Anna ha giocato fuori turno: era il turno di Bruno  "
    "[aperta]\n"
    "      regola ALL-TURN-1: Gioco fuori turno: un posto agisce quando non è il suo turno.\n"
    "  posizione 17 (smazzata 1, posto 0): ALL-SCORE-1: smazzata 1: dichiarati 0 per Anna, calcolati -70 "
    "(differenza +70); calcolo: calate +55, carte in mano -25, senza pozzetto -100  [aperta]\n"
    "      regola ALL-SCORE-1: Un punteggio dichiarato (`claimed`) differisce da quello calcolato.\n"
)

IT_SCORE = """\
punteggio di bur-dispute — burraco (fibur), dopo le decisioni arbitrali
smazzata 1 (bloccata)
  Anna     -70   totale    -70   calate +55, carte in mano -25, senza pozzetto -100  [dichiarato 0: diverso]
  Bruno   -235   totale   -235   carte in mano -85, senza pozzetto -100, penalità -50
totali: Anna -70, Bruno -235
come giocato (senza penalità arbitrali): Anna -70, Bruno -185
vincitore: Anna
sigillo: 050b-3d21-0db6-36a0 (dopo 19 eventi)
"""

IT_SHOW_7 = (
    "mossa 7: Bruno attacca 6♥ a [a]\n"
    "  irregolarità BUR-TURN-1: Bruno ha attaccato 6♥ alla combinazione a di Anna: si attacca solo alle proprie "
    "combinazioni o a quelle del compagno  [aperta; mossa annullata dalla posizione 11]\n"
    "    regola BUR-TURN-1: Attacco su una combinazione della coppia avversaria.\n"
    "\n"
    "bur-dispute — burraco (fibur) — posizione 7, smazzata 1\n"
    "turno: Bruno (posto 1), deve calare, attaccare o scartare\n"
    "\n"
    "  posto 0 Anna: 4 carte: 7♠ 8♥ 4♣ 6♦\n"
    "  posto 1 Bruno (mazziere): 11 carte: 9♠ J♥ Q♥ 4♣ 6♣ 7♣ 4♦ 6♦ 9♦ J♦ Q♦\n"
    "\n"
    "calate:\n"
    "  lato 0 (Anna):\n"
    "    [a] scala      3♥ 4♥ 5♥ 6♥\n"
    "    [k] non valida K♣ K♦ K♠ Q♠  (NON VALIDA)\n"
    "\n"
    "pozzo (1): 9♣\n"
    "tallone: 62 carte\n"
    "pozzetto 0: non preso\n"
    "pozzetto 1: non preso\n"
    "Anna: pozzetto non ancora preso\n"
    "Bruno: pozzetto non ancora preso\n"
    "irregolarità finora: 3\n"
    "\n"
    "sigillo alla posizione 7: b34e-38e4-48bc-2068 "
    "(b34e38e448bc206891236d00e909b1edc5144aa0ad25cdf3c32f6aa2df40dd81)\n"
    "la mossa 7 è annullata dall'arbitro alla posizione 11: non conta più\n"
)


def test_italian_audit_score_and_show(run: Callable[..., Result]) -> None:
    audit = run("--lang", "it", "audit", str(DISPUTE))
    assert (audit.exit_code, audit.stdout) == (1, IT_AUDIT)
    assert run("--lang", "it", "score", str(DISPUTE)).stdout == IT_SCORE
    assert run("--lang", "it", "show", str(DISPUTE), "--at", "7").stdout == IT_SHOW_7


def test_italian_list_and_errors(run: Callable[..., Result], db: Path) -> None:
    missing = run("--lang", "it", "list")
    assert (missing.exit_code, missing.stderr) == (
        2,
        f"rummy-ledger: errore: nessun archivio in {db} (prima importa un file di partita: rummy-ledger import FILE)\n",
    )
    run("import", "--no-analytics", str(DISPUTE))
    listed = run("--lang", "it", "list").stdout
    title, table = listed.split("┏")
    assert "".join(title.split()) == "".join(
        f"1 partita in SQLite {db}".split()
    )  # rich folds a long title, even inside the path
    header = next(line for line in table.splitlines() if line.startswith("┃"))
    assert [c.strip() for c in header.strip("┃").split("┃")] == [
        "partita",
        "variante",
        "giocatori",
        "smazzate",
        "eventi",
    ]
    unknown = run("--lang", "it", "show", "Bur-Dispute")
    assert (unknown.exit_code, unknown.stderr) == (
        2,
        f"rummy-ledger: errore: nessuna partita 'Bur-Dispute' nell'archivio (SQLite {db}); forse bur-dispute?\n",
    )
    outside = run("--lang", "it", "show", "bur-dispute", "--at", "19")
    assert outside.exit_code == 2 and outside.stderr.endswith(
        "Error: Invalid value for --at: la posizione 19 è fuori dalle posizioni 0–18 di questa partita\n"
    )


@pytest.mark.parametrize(
    ("env", "first"),
    [
        ({"LANG": "it_IT.UTF-8"}, "punteggio di bur-dispute"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "en_GB.UTF-8"}, "punteggio di bur-dispute"),
        ({"LANGUAGE": "it:en", "LANG": "C.UTF-8"}, "punteggio di bur-dispute"),
        ({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}, "score of bur-dispute"),
        ({"LANG": "fr_FR.UTF-8"}, "score of bur-dispute"),
    ],
)
def test_the_language_comes_from_the_locale(run: Callable[..., Result], env: dict[str, str], first: str) -> None:
    assert run("score", str(DISPUTE), env=env).stdout.startswith(first)


def test_lang_option_beats_the_locale_and_json_is_never_translated(run: Callable[..., Result]) -> None:
    italian = {"LANG": "it_IT.UTF-8"}
    assert run("--lang", "en", "score", str(DISPUTE), env=italian).stdout.startswith(
        "score of bur-dispute — burraco (fibur), as adjudicated\n"
    )
    for args in (["audit", "--json"], ["score", "--json"]):
        assert run(*args, str(DISPUTE), env=italian).stdout == run("--lang", "en", *args, str(DISPUTE)).stdout
    assert (
        json.loads(run("--lang", "it", "audit", "--json", str(DISPUTE)).stdout)["findings"][0]["rule"] == "ALL-MELD-1"
    )
    bad = run("--lang", "fr", "list")
    assert bad.exit_code == 2 and "Invalid value for '--lang': 'fr' is not one of 'en', 'it'." in bad.stderr


def test_the_catalog_is_in_step_with_the_sources_and_complete() -> None:
    with po_path("it").open("rb") as fp:
        catalog = read_po(fp, locale="it", domain="ledger")
    ids = {(m.id[0] if isinstance(m.id, tuple) else m.id, m.context) for m in catalog if m.id}
    assert ids == catalog_sources.extracted()
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        source = m.id[0] if isinstance(m.id, tuple) else m.id
        assert all(strings) and "fuzzy" not in m.flags, source
        for s in strings:  # the same placeholders, or the text would fail at run time
            assert set(re.findall(r"%\((\w+)\)s", s)) == set(re.findall(r"%\((\w+)\)s", source)), (source, s)


def test_the_global_lang_chooses_the_report_language(run: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "verbale.html"
    made = run("--lang", "it", "report", str(DISPUTE), "--finding", "15", "-o", str(out))
    assert (made.exit_code, made.stderr) == (0, f"scritto il verbale di bur-dispute alla posizione 15 (it) in {out}\n")
    assert "Verbale di contestazione" in out.read_text(encoding="utf-8")
    english = run(
        "--lang", "it", "report", str(DISPUTE), "--lang", "en", "-o", str(out)
    )  # the report's own --lang wins
    assert english.stderr == f"scritto il verbale di bur-dispute alla posizione 4 (en) in {out}\n"
    assert "Dispute report" in out.read_text(encoding="utf-8")


def test_seal_verify_and_checkpoint_speak_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    """The seal commands' human lines (issue 15) in Italian; the seal itself and --json never change."""
    run("import", "--no-analytics", str(DISPUTE))
    assert run("--lang", "it", "verify").stdout == "partite verificate: 1 su 1 (19 eventi)\n"
    assert run("--lang", "it", "seal", "bur-dispute").stdout == (
        "bur-dispute alla posizione 18 (19 eventi): 050b-3d21-0db6-36a0\n"
        "050b3d210db636a005cd643e343458cd0ba0057ae1cbe79e389e9193f6d950ed\n"
    )
    assert json.loads(run("--lang", "it", "seal", "bur-dispute", "--json").stdout)["short"] == "050b-3d21-0db6-36a0"
    key, cp = tmp_path / "k", tmp_path / "c.json"
    made = run("--lang", "it", "keygen", str(key)).stdout
    assert made.startswith(
        f"scritta la chiave privata {key} (modo 0600) e la chiave pubblica {key}.pub; id della chiave "
    )
    kid = made.rsplit(" ", 1)[1].strip()
    assert run("--lang", "it", "checkpoint", "-o", str(cp), "--sign", str(key)).stdout.endswith(
        f"…, firmato con la chiave {kid}\n"
    )
    checked = run("--lang", "it", "verify", "--checkpoint", str(cp), "--key", f"{key}.pub")
    assert (checked.exit_code, checked.stdout) == (
        0,
        f"{cp}: l'archivio è coerente con il checkpoint (1 partita, radice verificata); firmato con la chiave {kid}\n",
    )
    assert run("verify", "--checkpoint", str(cp)).stdout == (
        f"{cp}: the store is consistent with the checkpoint (1 game, root verified);"
        f" signed by key {kid} (key not pinned: pass --key to check who signed)\n"
    )


@pytest.mark.parametrize(
    ("args", "italian"),
    [
        (("analytics", "--help"), "La vista analitica DuckDB: aggiornamento, esportazione, query."),
        (("analytics", "update", "--help"), "--rebuild Cancella la vista e la ricostruisce dal primo evento."),
        (("analytics", "tables", "--help"), "Stampa le tabelle e le loro colonne (Markdown)."),
        (("query", "--help"), "--timeout SECONDS Ferma la query e il suo output dopo questi secondi (0: nessun"),
        (("token", "--help"), "I token (bearer) dell'API di scrittura HTTP (nell'archivio ne resta solo l'hash)."),
        (("token", "create", "--help"), "--game TEXT Solo la partita con questo id."),
        (("token", "list", "--help"), "Elenca i token (id, nomi, ruoli, ambiti; mai i token stessi)."),
        (
            ("export", "--help"),
            "-o, --output FILE Esportazione del registro: scrive in FILE invece che sullo standard output.",
        ),
        (("serve", "--help"), "--port INTEGER Porta TCP su cui restare in ascolto. [predefinito: 5000]"),
        (
            ("simulate", "--help"),
            "--seed INTEGER Seme casuale: lo stesso seme scrive le stesse partite. [obbligatorio]",
        ),
        (
            ("--help",),
            "Importa, elenca, mostra, esporta e controlla i registri delle partite di ramino (rummy-ledger/1).",
        ),
        (("list", "--help"), "Elenca le partite in archivio: id, variante, giocatori, smazzate, eventi."),
        (("show", "--help"), "--at N Mostra il tavolo dopo l'evento alla posizione N."),
        (("audit", "--help"), "Uscita 0 nessuna irregolarità, 1 irregolarità, 2 un registro rifiutato."),
        (("rule", "--help"), "--reason TEXT Con --restore: il motivo (obbligatorio)."),
        (("report", "--help"), "--finding POS Posizione dell'irregolarità contestata (evidenziata)."),
        (("verify", "--help"), "--proof FILE Controlla una prova di inclusione (senza archivio)."),
    ],
)
def test_the_help_of_every_command_in_italian(run: Callable[..., Result], args: tuple[str, ...], italian: str) -> None:
    """``--lang it`` (before ``--help``, or the locale) translates a command's help, its options' too; English
    stays English."""
    for shown in (run("--lang", "it", *args), run(*args, env={"LANG": "it_IT.UTF-8"})):
        assert shown.exit_code == 0, shown.output
        assert italian in " ".join(shown.stdout.split())
    assert italian not in " ".join(run(*args).stdout.split())


def test_the_list_of_commands_shows_their_italian_help(run: Callable[..., Result]) -> None:
    rows = {
        line.split(None, 1)[0]: line.split(None, 1)[1]
        for line in run("--lang", "it", "--help").stdout.split("\nComandi:\n", 1)[1].splitlines()
    }
    assert rows["analytics"].startswith("La vista analitica DuckDB: aggiornamento,")  # cut to the terminal's width
    assert rows["token"].startswith("I token (bearer) dell'API di scrittura HTTP")
    assert rows["list"].startswith("Elenca le partite in archivio:")


def test_token_commands_speak_italian(run: Callable[..., Result]) -> None:
    made = run("--lang", "it", "token", "create", "--name", "Rita Arbitro", "--role", "referee", "--game", "g1")
    assert made.exit_code == 0, made.output
    tid = made.stdout.split(".")[0]
    assert made.stderr == f"token {tid}: referee 'Rita Arbitro', partita g1; mostrato una volta sola, tienilo segreto\n"
    listed = run("--lang", "it", "token", "list").stdout
    assert re.fullmatch(rf"{tid}  referee   Rita Arbitro  \(partita g1\)  creato \S+  attivo\n", listed), listed
    revoked = run("--lang", "it", "token", "revoke", tid).stdout
    assert re.fullmatch(rf"token {tid} \(Rita Arbitro\) revocato il \S+\n", revoked), revoked
    assert re.search(r"  revocato \S+\n\Z", run("--lang", "it", "token", "list").stdout)
    unknown = run("--lang", "it", "token", "revoke", "000000000000")
    assert (unknown.exit_code, unknown.stderr) == (
        2,
        "rummy-ledger: errore: nessun token '000000000000' (vedi rummy-ledger token list)\n",
    )
    blank = run("--lang", "it", "token", "create", "--name", " ", "--role", "referee")
    assert (blank.exit_code, blank.stderr) == (
        2,
        "rummy-ledger: errore: un token richiede --name (la persona o il dispositivo che lo usa)\n",
    )
    assert run("token", "revoke", "000000000000").stderr == (
        "rummy-ledger: error: no token '000000000000' (see rummy-ledger token list)\n"
    )


def test_export_analytics_and_query_speak_italian(run: Callable[..., Result], db: Path, tmp_path: Path) -> None:
    from ledger.projections import analytics_path

    view = analytics_path(str(db))
    imported = run("--lang", "it", "import", str(DISPUTE))
    assert (
        imported.stderr
        == f"vista analitica {view}: aggiornamento di 1 partita (19 eventi applicati in 1 transazione)\n"
    )
    assert run("--lang", "it", "analytics", "update").stdout == f"la vista analitica {view} è aggiornata (evento 19)\n"
    record = tmp_path / "r.jsonl"
    assert run("--lang", "it", "export", "bur-dispute", "-o", str(record)).stderr == (
        f"scritti 19 eventi di bur-dispute in {record}\n"
    )
    tables = run("--lang", "it", "export", "--all", "--format", "csv", "--out", str(tmp_path / "out"))
    assert tables.stderr.startswith(f"esportata 1 partita in {tmp_path / 'out'}: games.csv 1, players.csv 2,")
    usage = run("--lang", "it", "export", "--format", "csv", "--out", str(tmp_path / "out"))
    assert usage.exit_code == 2 and usage.stderr.endswith("Error: indica le partite da esportare, oppure --all\n")
    assert run("--lang", "it", "query", "SELECT game FROM games").stdout.endswith("\n1 riga\n")
    assert run("--lang", "it", "query", "--max-rows", "1", "SELECT * FROM range(3)").stdout.endswith(
        "\n3 righe (mostrate le prime 1)\n"
    )
    failed = run("--lang", "it", "query", "SELECT nope")
    assert failed.exit_code == 2 and failed.stderr.startswith("Error: query non riuscita: Binder Error")
    both = run("--lang", "it", "query", "--csv", "--json", "SELECT 1")
    assert both.stderr.endswith("Error: scegli uno solo fra --csv e --json\n")


def test_simulate_speaks_italian(run: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "sim"
    made = run("--lang", "it", "simulate", "--variant", "gin", "--games", "1", "--seed", "3", "--out", str(out))
    assert (made.exit_code, made.stdout) == (0, f"1 partita scritta in {out}\n")
    preset = run(
        "--lang",
        "it",
        "simulate",
        "--variant",
        "burraco",
        "--ruleset",
        "nope",
        "--games",
        "1",
        "--seed",
        "3",
        "--out",
        str(out),
    )
    assert preset.exit_code == 2 and preset.stderr.endswith(
        "Error: Invalid value for --ruleset: 'nope' non è un preset di burraco (noti: fibur, seed)\n"
    )
    seats = run(
        "--lang",
        "it",
        "simulate",
        "--variant",
        "gin",
        "--players",
        "3",
        "--games",
        "1",
        "--seed",
        "3",
        "--out",
        str(out),
    )
    assert seats.exit_code == 2 and seats.stderr.endswith(
        "Error: Invalid value for --players: gin si gioca con 2 giocatori\n"
    )
