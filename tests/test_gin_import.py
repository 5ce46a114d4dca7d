"""The OpenSpiel importer: input forms, the CLI body, rejections, and the deadwood module against OpenSpiel."""

from __future__ import annotations

import pyspiel  # OpenSpiel comes with the test extra: missing, these tests fail, not skip
import pytest

from ledger.openspiel.actions import card
from ledger.openspiel.command import convert_main
from ledger.openspiel.convert import convert_actions
from ledger.openspiel.params import parse_history
from ledger.openspiel.play import play_gin, play_gin_state
from ledger.record_files import read_record
from ledger.replay import validate
from ledger.variants.gin.deadwood import best_deadwood


def _state(history):
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


def test_serialize_and_serialize_game_and_state_texts_give_the_history() -> None:
    history, _ = play_gin(5)
    state = _state(history)
    assert parse_history(state.serialize()) == history
    assert parse_history(pyspiel.serialize_game_and_state(state.get_game(), state)) == history
    assert parse_history(", ".join(map(str, history))) == history


def test_convert_main_writes_a_valid_record(tmp_path) -> None:
    history, returns = play_gin(6)
    src = tmp_path / "game 6.txt"
    src.write_text(_state(history).serialize())
    out = tmp_path / "g.jsonl"
    assert convert_main(str(src), str(out)) == 0
    state = validate(read_record(out))
    assert state.game_id == "game-6" and state.totals[0] - state.totals[1] == returns[0]


def test_convert_main_rejects_an_illegal_history(tmp_path, capsys) -> None:
    src = tmp_path / "bad.txt"
    src.write_text("\n".join(str(a) for a in list(range(21)) + [53]))  # a stock draw before both passed
    assert convert_main(str(src), str(tmp_path / "x.jsonl")) == 2
    assert "action 21: 53 is not a legal draw" in capsys.readouterr().err


def test_partial_history_is_refused_unless_partial() -> None:
    history, _ = play_gin(7)
    with pytest.raises(ValueError) as info:
        convert_actions(history[:25])
    assert (
        str(info.value)
        == "the history stops after 25 actions, before a draw: it is not a finished game (--partial converts what "
        "it holds)"
    )
    events = convert_actions(history[:25], partial=True)
    assert [e.type for e in events] == [
        "game_started",
        "hand_dealt",
        "discard_taken",
        "card_discarded",
        "discard_taken",
        "card_discarded",
    ]


def test_gin_bonus_20_game_from_serialize_game_and_state_text(tmp_path) -> None:
    # OpenSpiel: seat 1 goes gin against 64 deadwood with gin_bonus=20: returns [-84, 84]
    state = play_gin_state(14, knock="gin", params={"gin_bonus": 20})
    assert list(state.returns()) == [-84.0, 84.0]
    src = tmp_path / "g14.txt"
    src.write_text(pyspiel.serialize_game_and_state(state.get_game(), state))
    out = tmp_path / "g14.jsonl"
    assert convert_main(str(src), str(out)) == 0
    record = read_record(out)
    assert record.events[0].options == {"gin_bonus": 20}
    replayed = validate(record)
    assert replayed.results[0].scores[1].breakdown == {"deadwood_difference": 64, "gin_bonus": 20}
    assert replayed.totals == (0, 84)


def test_gin_bonus_20_history_needs_the_param(tmp_path, capsys) -> None:
    # the same game as a plain history (serialize()): it carries no parameters, --param gives them;
    # without it the record is the default game's (gin bonus 25), as the history alone says
    state = play_gin_state(14, knock="gin", params={"gin_bonus": 20})
    src = tmp_path / "g14.txt"
    src.write_text(state.serialize())
    assert convert_main(str(src), str(tmp_path / "a.jsonl"), params=["gin_bonus=20"]) == 0
    assert validate(read_record(tmp_path / "a.jsonl")).totals == (0, 84)
    assert convert_main(str(src), str(tmp_path / "b.jsonl")) == 0
    assert validate(read_record(tmp_path / "b.jsonl")).totals == (0, 89)
    assert capsys.readouterr().err == (  # and says so (issue 26)
        f"rummy-ledger: warning: import-openspiel {src}: a plain history carries no game parameters and no --param "
        "was given: converted with OpenSpiel's defaults (knock_card=10, gin_bonus=25, undercut_bonus=25, "
        "oklahoma=false)\n"
    )
    # a --param that contradicts the text's parameters is refused
    src.write_text(pyspiel.serialize_game_and_state(state.get_game(), state))
    assert convert_main(str(src), str(tmp_path / "c.jsonl"), params=["gin_bonus=25"]) == 2
    assert (
        capsys.readouterr().err
        == f"rummy-ledger: error: import-openspiel {src}: --param gin_bonus=25 contradicts the game's gin_bonus=20\n"
    )
    assert not (tmp_path / "c.jsonl").exists()


@pytest.mark.parametrize(("key", "value"), [("hand_size", 7), ("num_ranks", 10), ("num_suits", 3)])
def test_unrepresentable_parameters_are_refused_by_name(tmp_path, capsys, key, value) -> None:
    game = pyspiel.load_game("gin_rummy", {key: value})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[-1])
    src = tmp_path / "small.txt"
    src.write_text(pyspiel.serialize_game_and_state(game, state))
    assert convert_main(str(src), str(tmp_path / "x.jsonl")) == 2
    assert capsys.readouterr().err == (
        f"rummy-ledger: error: import-openspiel {src}: OpenSpiel parameter {key}={value} cannot be represented: "
        "rummy-ledger's Gin deals 10 cards each from 52 (hand_size=10, num_ranks=13, num_suits=4 only)\n"
    )


def test_best_deadwood_equals_openspiel_min_deadwood_along_real_games() -> None:
    checked = 0
    for seed in range(8):
        history, _ = play_gin(seed)
        state = pyspiel.load_game("gin_rummy").new_initial_state()
        for a in history:
            state.apply_action(a)
            if (
                state.is_terminal()
                or state.is_chance_node()
                or str(state.current_phase()).endswith(("KNOCK", "LAYOFF"))
            ):
                continue
            for p in (0, 1):
                assert best_deadwood([card(c) for c in state.hands()[p]]) == state.deadwood()[p]
                checked += 1
    assert checked > 400
