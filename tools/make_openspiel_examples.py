"""Write examples/openspiel/g14.txt and g14-history.txt: one game of OpenSpiel's gin_rummy, twice.

Usage: ``python tools/make_openspiel_examples.py`` (needs ``open_spiel``, in the test extra).

The game is OpenSpiel's own: ``gin_rummy(gin_bonus=20)`` played by :func:`ledger.openspiel.play.play_gin_state`
with seed 14 (its policy knocks whenever it may). ``g14.txt`` is ``pyspiel.serialize_game_and_state``
(a ``[Game]`` line with the parameters, then the actions); ``g14-history.txt`` is the same game's
``state.serialize()``, the action ids alone, one a line, which carry no parameter (so
``import-openspiel`` needs ``--param gin_bonus=20`` for it). docs/openspiel.md walks through both.
"""

from __future__ import annotations

from pathlib import Path

import pyspiel

from ledger.openspiel.play import play_gin_state

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "examples" / "openspiel"
SEED = 14
PARAMS = {"gin_bonus": 20}


def main() -> int:
    state = play_gin_state(SEED, knock="always", params=PARAMS)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "g14.txt").write_text(pyspiel.serialize_game_and_state(state.get_game(), state))
    (OUT / "g14-history.txt").write_text(state.serialize())
    print(f"wrote {OUT.relative_to(REPO)}/g14.txt and g14-history.txt: returns {list(state.returns())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
