"""The ``rummy-ledger`` group's table of commands: each command's module and the first
paragraph of its help (a msgid, :func:`ledger.i18n.N_`), so that the group's ``--help``
lists every command with its short help without importing the command's module
(:class:`ledger.cli.LazyGroup`; ``tests/test_cli_lazy.py`` checks each text against the command's own)."""

from __future__ import annotations

from ledger.i18n import N_

#: command name -> (module of :mod:`ledger.cli` whose ``register`` adds it, first paragraph of its help)
COMMANDS: dict[str, tuple[str, str]] = {
    "analytics": (
        "analytics",
        N_("The DuckDB analytics view: update, export, query."),
    ),
    "append": (
        "writing",
        N_(
            "Append JSON Lines events (FILE, or - for standard input) to the stored game GAME, checked "
            "against its table as it stands; a first event game_started for GAME creates it."
        ),
    ),
    "audit": (
        "checking",
        N_(
            "Audit games (stored ids or record files; default: every stored game). Exit 0 no findings, 1 "
            "findings, 2 a record rejected."
        ),
    ),
    "checkpoint": (
        "seal",
        N_(
            "Write a checkpoint: (game_id, length, seal) of every stored game (or one tournament's), their "
            "RFC 6962 Merkle root and the UTC time, signed with --sign KEYFILE. Check it later with `verify "
            "--checkpoint FILE`."
        ),
    ),
    "export": (
        "analytics",
        N_(
            "Export a game's record (GAME [-o FILE]), or with --format/--out/--all the analytics tables, one"
            " file per table:"
        ),
    ),
    "import": (
        "importing",
        N_("Import record files (folders are searched for *.jsonl)."),
    ),
    "import-openspiel": (
        "importing",
        N_("Convert an OpenSpiel gin_rummy game into a rummy-ledger/1 record (preset openspiel)."),
    ),
    "keygen": (
        "seal",
        N_(
            "Make an Ed25519 key pair for signing checkpoints: KEYFILE (private, mode 0600, never "
            "overwritten) and KEYFILE.pub (public)."
        ),
    ),
    "list": (
        "reading",
        N_("List stored games: id, variant, players, hands, events."),
    ),
    "prove": (
        "seal",
        N_(
            "Print the inclusion proof of GAME in a checkpoint (the RFC 6962 audit path, with the "
            "checkpoint's signed head). Needs only the checkpoint file; check the proof anywhere with "
            "`verify --proof FILE`."
        ),
    ),
    "query": (
        "analytics",
        N_("Run SQL against the analytics view and print a table (or --csv/--json)."),
    ),
    "record-scores": (
        "partial",
        N_(
            "Store a score-only game from a paper score sheet: one line per hand, one score per side (seats,"
            " or teams 0 and 1 with four Burraco players), from --csv FILE ('-': stdin) or, on a terminal, "
            "asked hand by hand (an empty line ends). A game a stored tournament's pairing names (a table's "
            "sheet) takes its meta (tournament, round, table) from that pairing. Exit 2 for a bad sheet."
        ),
    ),
    "redact": (
        "partial",
        N_(
            "Cut a full record (stored id or record file) down to what a scorer (face-up cards only) or one "
            "seat saw: a partial record with ?? for every card not seen and cards_shown at each hand's end. "
            "Writes the record to stdout (or -o FILE). Exit 2 when the record is rejected."
        ),
    ),
    "report": (
        "report",
        N_(
            "Write the dispute report of a game (stored id or record file): the game, the table at the "
            "position in dispute, the moves around it, the findings with their rules, the rulings, the score"
            " sheet (claimed against computed), the seal and lines for the signatures."
        ),
    ),
    "rule": (
        "writing",
        N_("Append a referee's ruling to GAME (a penalty or a rewind)."),
    ),
    "schema": (
        "reading",
        N_("Generate the JSON Schema (2020-12) files of the record format."),
    ),
    "score": (
        "checking",
        N_(
            "Score a game (stored id or record file): each hand with the breakdown, claimed points that "
            "differ, running totals and the winner. Exit 2 when the record is rejected."
        ),
    ),
    "seal": (
        "seal",
        N_(
            "Print the seal of a game: the stored seal of a stored game, or the seal computed from a record "
            "file, after position N (default: the last event), in full (64 hex digits) and short form "
            '(FORMAT.md "Seal").'
        ),
    ),
    "seal-backfill": (
        "backfill",
        N_(
            "Seal the events of a store written before the seal chain existed: every event gets its seal, "
            "computed from its stored bytes, and a journal row naming backfill:<os user> at this time. "
            "Refused where the journal holds any row or the store was sealed before: there an event without "
            "a seal was written into the database directly. No other command ever seals a stored event."
        ),
    ),
    "serve": (
        "serve",
        N_("Serve the replay viewer, the write API and the live stream (replay_web) on the store."),
    ),
    "show": (
        "reading",
        N_(
            "Print a game's record (GAME is a stored game id or a record file), or with --at N the table "
            "state after position N (and the moves a referee's position_restored rewound, which no longer "
            "count)."
        ),
    ),
    "simulate": (
        "simulate",
        N_("Write simulated complete games played by simple heuristic players."),
    ),
    "stats": (
        "stats",
        N_("A player's statistics per variant, beside the field's (every player of the same games)."),
    ),
    "token": (
        "tokens",
        N_("Bearer tokens of the HTTP write API (stored hashed in the store)."),
    ),
    "tournament": (
        "tournament",
        N_("Tournaments: entrants, rounds, tables, victory points and standings, recorded as events (TOURNAMENT.md)."),
    ),
    "verify": (
        "verify",
        N_(
            "Verify the stored games' seal chains (default: every stored game): each chain is recomputed "
            "from the stored events and compared with the stored seals and journal. Exit 0 all verify, 1 one"
            " line per broken game (the first position that no longer matches and what differs), 2 the store"
            " cannot be read or a GAME is not stored."
        ),
    ),
}

#: modules registered before a module that reads what they registered (the merged
#: ``export`` of :mod:`ledger.cli.analytics` keeps :mod:`ledger.cli.reading`'s record export)
BEFORE: dict[str, tuple[str, ...]] = {"analytics": ("reading",)}

__all__ = ["BEFORE", "COMMANDS"]
