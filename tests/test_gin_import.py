"""The OpenSpiel importer: input forms, the CLI body, rejections, and the deadwood module against OpenSpiel."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ledger.gin_deadwood import best_deadwood  # noqa: E402
from ledger.openspiel_import import card, convert_actions, convert_main, parse_history, play_gin  # noqa: E402
from ledger.records import read_record  # noqa: E402
from ledger.replay import validate  # noqa: E402


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


def test_partial_history_converts_without_an_ending() -> None:
    history, _ = play_gin(7)
    events = convert_actions(history[:25])
    assert events[-1].type != "hand_ended" and events[1].type == "hand_dealt"


def test_best_deadwood_equals_openspiel_min_deadwood_along_real_games() -> None:
    checked = 0
    for seed in range(8):
        history, _ = play_gin(seed)
        state = pyspiel.load_game("gin_rummy").new_initial_state()
        for a in history:
            state.apply_action(a)
            if state.is_terminal() or state.is_chance_node() or str(state.current_phase()).endswith(("KNOCK", "LAYOFF")):
                continue
            for p in (0, 1):
                assert best_deadwood([card(c) for c in state.hands()[p]]) == state.deadwood()[p]
                checked += 1
    assert checked > 400
