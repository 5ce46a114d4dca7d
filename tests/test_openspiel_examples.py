"""The games the OpenSpiel walkthrough uses (examples/openspiel/; tests/test_docs.py runs docs/openspiel.md's
session), and the
warning when a plain history is converted under OpenSpiel's defaults because no parameter was given
(issue 26)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyspiel
from click.testing import Result

from ledger.openspiel.play import play_gin_state

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "openspiel"
WARNING = (
    "rummy-ledger: warning: import-openspiel {}: a plain history carries no game parameters and no --param was "
    "given: converted with OpenSpiel's defaults (knock_card=10, gin_bonus=25, undercut_bonus=25, oklahoma=false)\n"
)
AVVISO = (
    "rummy-ledger: attenzione: import-openspiel {}: una storia semplice non porta i parametri della partita e non "
    "è stato dato alcun --param: convertita con i valori predefiniti di OpenSpiel (knock_card=10, gin_bonus=25, "
    "undercut_bonus=25, oklahoma=false)\n"
)


def test_the_shipped_games_are_what_openspiel_writes() -> None:
    """tools/make_openspiel_examples.py: gin_rummy(gin_bonus=20), seed 14, in both of OpenSpiel's forms."""
    state = play_gin_state(14, knock="always", params={"gin_bonus": 20})
    assert list(state.returns()) == [-84.0, 84.0]
    game_text = (EXAMPLES / "g14.txt").read_text()
    assert game_text == pyspiel.serialize_game_and_state(state.get_game(), state)
    assert "\n[Game]\ngin_rummy(gin_bonus=20)\n[State]\n" in game_text
    assert (EXAMPLES / "g14-history.txt").read_text() == state.serialize()
    assert len(state.serialize().split()) == 49


def test_a_plain_history_without_parameters_warns_once_en_it(run: Callable[..., Result], tmp_path: Path) -> None:
    history = str(EXAMPLES / "g14-history.txt")
    out = tmp_path / "g.jsonl"
    result = run("import-openspiel", history, "-o", str(out))
    assert (result.exit_code, result.stderr) == (0, WARNING.format(history))
    assert b'"options"' not in out.read_bytes().split(b"\n")[0]  # the defaults: no options
    result = run("--lang", "it", "import-openspiel", history, "-o", str(out))
    assert (result.exit_code, result.stderr) == (0, AVVISO.format(history))
    # from standard input, plain integers
    ids = " ".join(history_ids := (EXAMPLES / "g14-history.txt").read_text().split())
    assert len(history_ids) == 49
    result = run("import-openspiel", "-", input=ids)
    assert (result.exit_code, result.stderr) == (0, WARNING.format("-"))


def test_no_warning_when_the_parameters_were_given_or_carried(run: Callable[..., Result], tmp_path: Path) -> None:
    """The twins: the same history with --param, and the serialize_game_and_state text (its [Game] line)."""
    out = tmp_path / "g.jsonl"
    given = run("import-openspiel", str(EXAMPLES / "g14-history.txt"), "--param", "gin_bonus=20", "-o", str(out))
    assert (given.exit_code, given.stderr) == (0, "")
    carried = run("import-openspiel", str(EXAMPLES / "g14.txt"), "-o", str(out))
    assert (carried.exit_code, carried.stderr) == (0, "")
    # even a parameter equal to OpenSpiel's default counts as given
    default = run("import-openspiel", str(EXAMPLES / "g14-history.txt"), "--param", "knock_card=10", "-o", str(out))
    assert (default.exit_code, default.stderr) == (0, "")
