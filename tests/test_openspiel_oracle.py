"""The Gin scoring checked against an engine no one here wrote: OpenSpiel's ``gin_rummy``.

400 hands with fixed seeds (most knock whenever they may; some wait for gin;
one in ten never knocks, so it reaches the wall or stalls) are played by
OpenSpiel, converted by :mod:`ledger.openspiel_import`, replayed through the
fold, audited and scored. The ledger's hand score must equal OpenSpiel's
``returns()`` for every hand (zero-sum there, winner-only here: the
difference of the two seats' points), with no findings.
"""

from __future__ import annotations

from collections import Counter

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ledger.audit import report  # noqa: E402
from ledger.events import GameStarted  # noqa: E402
from ledger.openspiel_import import card, convert_actions, meld_cards, play_gin  # noqa: E402
from ledger.replay import replay  # noqa: E402
from ledger.scoring import score_sheet  # noqa: E402

HANDS = 400


def mode(seed: int) -> str:
    return "never" if seed % 10 == 0 else "gin" if seed % 10 in (1, 2) else "always"


@pytest.fixture(scope="module")
def games() -> list[tuple[int, list[int], list[float]]]:
    return [(seed, *play_gin(seed, knock=mode(seed))) for seed in range(HANDS)]


def test_ledger_scores_equal_openspiel_returns_for_every_hand(games) -> None:
    disagreements = []
    endings: Counter[str] = Counter()
    components: Counter[str] = Counter()
    for seed, history, returns in games:
        events = convert_actions(history, game_id=f"openspiel-{seed}")
        state = replay(events)
        sheet = score_sheet(state).to_json()
        points = {line["seat"]: line["points"] for line in sheet["hands"][0]["scores"]}
        mine = [points[0] - points[1], points[1] - points[0]]
        findings = report(state).to_json()["findings"]
        if mine != [int(r) for r in returns] or findings:
            disagreements.append((seed, mine, returns, findings[:2]))
        endings[state.results[0].reason] += 1
        for line in sheet["hands"][0]["scores"]:
            components.update(k for k, v in line["breakdown"].items())
        components["lay-off"] += sum(e.type == "meld_extended" for e in events)
    assert disagreements == []
    assert len(games) >= 300
    # the sample covers every kind of ending and score
    assert endings["knocked"] >= 250 and endings["stock_exhausted"] >= 20 and endings["stalled"] >= 1
    assert components["gin_bonus"] >= 1 and components["undercut_bonus"] >= 1 and components["lay-off"] >= 50


def test_records_are_openspiel_preset_single_hand(games) -> None:
    seed, history, _ = games[3]
    events = convert_actions(history)
    first = events[0]
    assert isinstance(first, GameStarted) and (first.variant, first.ruleset) == ("gin", "openspiel")
    assert [e.type for e in events][-2:] == ["hand_ended", "game_ended"]
    assert events[1].dealer == 1 and events[1].stock is None  # order of the stock unknown


def test_card_and_meld_ids_match_openspiel_action_strings() -> None:
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    ranks = {"T": "10"}
    for a in range(52):
        text = state.action_to_string(-1, a).split(": ")[1]
        assert card(a) == ranks.get(text[0], text[0]) + text[1].upper()
    for i in range(185):
        text = state.action_to_string(0, 56 + i).split("Action: ")[1]
        faces = [ranks.get(text[j], text[j]) + text[j + 1].upper() for j in range(0, len(text), 2)]
        assert sorted(meld_cards(i)) == sorted(faces), i
