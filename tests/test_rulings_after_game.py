"""Rulings after the game (FORMAT.md "Rulings after the game", issue 26): a
referee's ``penalty_assessed`` may follow ``game_ended`` (points 0 records
"the score stands"); nothing else may (``REC-ORDER``). It changes the totals
as adjudicated, never the record as played; ``game_ended.claimed`` stays and
the game stays finished.

The fold of each variant's dispatch (Burraco's and Gin's own ``apply`` too),
the file import (a whole file, and a file extending a stored ended game) and
the CLI's ``rule``; the viewer's forms are in tests/test_desk.py and the
HTTP write API in tests/test_live_api.py.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from ledger.errors import RecordError
from ledger.record_files import read_record
from ledger.scoring import score_sheet
from ledger.testing.games import gin_stock_hog
from ledger.testing.records import claims, draw, game_ended, hand_ended, lines, penalty, ramino_game, replayed, restored

DISPUTE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"
#: Burraco: ``bur-dispute`` (19 events, ends hands_played; totals Anna -70, Bruno -235; ALL-SCORE-1 at 17)
BURRACO = DISPUTE.read_bytes()
#: classic Ramino: the fixed deal, abandoned at once, final totals claimed 5 / 0 (ALL-SCORE-1 at 3)
#: Scala 40: ``scala40-jolly-swap``, abandoned at 0 / 0 (S40-SWAP-1 at 10, S40-PILE-2 at 13)
JOLLY_SWAP = (DISPUTE.parent.parent / "scala40" / "jolly_swap.jsonl").read_bytes()
RAMINO = ramino_game(hand_ended("abandoned"), game_ended("abandoned", claims(5, 0)))


def with_tail(record: bytes, *events: dict) -> bytes:
    return record + lines(*events)


@pytest.mark.parametrize("record", [BURRACO, RAMINO, gin_stock_hog()], ids=["burraco", "ramino", "gin"])
def test_a_penalty_after_game_ended_changes_the_adjudicated_totals_only(record: bytes) -> None:
    before = replayed(record)
    after = replayed(with_tail(record, penalty(1, -30, "ALL-TURN-1")))
    assert after.ended == before.ended is not None and after.phase == "ended"
    assert after.totals[1] == before.totals[1] - 30 and after.totals[0] == before.totals[0]
    assert [p.points for p in after.penalties][-1] == -30
    played = score_sheet(after, adjudicated=False)
    assert played.totals == score_sheet(before, adjudicated=False).totals
    assert after.findings == before.findings  # the record as played: the same findings


@pytest.mark.parametrize("record", [BURRACO, RAMINO, gin_stock_hog()], ids=["burraco", "ramino", "gin"])
@pytest.mark.parametrize(
    ("event", "kind"),
    [
        (draw(0, "5C"), "card_drawn"),
        (restored(1, "undo"), "position_restored"),
        (game_ended("abandoned"), "game_ended"),
        (hand_ended("abandoned"), "hand_ended"),
    ],
)
def test_anything_else_after_game_ended_is_rec_order(record: bytes, event: dict, kind: str) -> None:
    n = record.count(b"\n")
    with pytest.raises(RecordError) as info:
        replayed(with_tail(record, penalty(0, 0, "ALL-TURN-1"), event))
    assert info.value.as_json() == {
        "line": n + 2,
        "field": "type",
        "rule": "REC-ORDER",
        "message": f"{kind} after game_ended",
    }


def test_the_claimed_final_totals_stay_what_the_table_claimed() -> None:
    """The ALL-SCORE-1 of ``game_ended.claimed`` is the table's claim against the
    totals then; a later ruling (0: the score stands) neither removes nor moves it."""
    state = replayed(with_tail(RAMINO, penalty(0, 0, "ALL-SCORE-1", finding=3, note="the score stands")))
    assert [(f.position, f.rule, f.message) for f in state.findings] == [
        (3, "ALL-SCORE-1", "final totals: claimed 5 for Anna, computed 0 (difference +5)")
    ]
    assert state.totals == replayed(RAMINO).totals == (0, 0)
    assert [(p.position, p.points, p.rule) for p in state.penalties] == [(4, 0, "ALL-SCORE-1")]


def test_a_ruling_after_the_game_still_names_a_finding_that_exists() -> None:
    with pytest.raises(RecordError) as info:
        replayed(with_tail(RAMINO, penalty(0, 0, "ALL-SCORE-1", finding=2)))
    assert (info.value.rule, info.value.field, info.value.message) == (
        "REC-REF",
        "finding",
        "position 2 carries no finding to rule on",
    )


def test_import_and_extension_of_a_file_ruled_after_the_game(
    run: Callable[..., Result], tmp_path: Path, db: str
) -> None:
    ruled = tmp_path / "ruled.jsonl"
    ruled.write_bytes(with_tail(BURRACO, penalty(0, -200, "ALL-SCORE-1", finding=17)))
    first = run("import", "--no-analytics", str(ruled))
    assert first.exit_code == 0, first.output
    assert run("seal", "bur-dispute").stdout.startswith("bur-dispute at position 19 (20 events): ")
    score = json.loads(run("score", "--json", "bur-dispute").stdout)
    assert (score["totals"], score["winner"]) == ([{"seat": 0, "points": -270}, {"seat": 1, "points": -235}], 1)
    longer = tmp_path / "longer.jsonl"
    longer.write_bytes(ruled.read_bytes() + lines(penalty(0, 200, "ALL-SCORE-1", finding=17, note="on appeal")))
    second = run("import", "--no-analytics", str(longer))
    assert second.exit_code == 0, second.output
    assert second.stdout.splitlines()[0] == "bur-dispute: 1 event appended (20 → 21)"
    assert json.loads(run("score", "--json", "bur-dispute").stdout)["winner"] == 0


def test_cli_rule_on_an_ended_game(run: Callable[..., Result], db: str) -> None:
    assert run("import", "--no-analytics", str(DISPUTE)).exit_code == 0
    stands = run("rule", "bur-dispute", "--penalty", "0", "0", "--rule", "ALL-SCORE-1", "--finding", "17")
    assert (stands.exit_code, stands.stdout.splitlines()) == (
        0,
        ["bur-dispute: penalty_assessed stored at position 19", "totals: Anna -70, Bruno -235"],
    )
    undo = run("rule", "bur-dispute", "--restore", "14", "--reason", "undo", "--finding", "15")
    assert (undo.exit_code, undo.stderr) == (
        2,
        "bur-dispute: position 20: type: REC-ORDER: position_restored after game_ended\n",
    )
    audit = run("audit", "bur-dispute")
    assert "[ruled at position 19: penalty +0 to Anna (ALL-SCORE-1)]" in audit.stdout


def test_an_abandoned_game_has_no_winner_after_a_ruling(
    run: Callable[..., Result], tmp_path: Path, db: str, records_app: Callable[..., Any]
) -> None:
    """``scala40-jolly-swap`` ends ``abandoned`` at 0 / 0; a penalty of +10 to
    Bruno after it leaves Anna the lower total, but an abandoned game names no
    winner (the list says why), in the sheet, ``score`` and the games list."""
    ruled = tmp_path / "ruled.jsonl"
    ruled.write_bytes(with_tail(JOLLY_SWAP, penalty(1, 10, "S40-SWAP-1", finding=10)))
    state = replayed(ruled.read_bytes())
    assert (state.ended, state.totals, score_sheet(state).winner) == ("abandoned", (0, 10), None)
    assert run("import", "--no-analytics", str(ruled)).exit_code == 0
    score = json.loads(run("score", "--json", "scala40-jolly-swap").stdout)
    assert (score["totals"], score["winner"], score["winner_kind"]) == (
        [{"seat": 0, "points": 0}, {"seat": 1, "points": 10}],
        None,
        None,
    )
    text = run("score", "scala40-jolly-swap").stdout.splitlines()
    assert text[-4:-1] == [
        "totals: Anna 0, Bruno 10",
        "as played (no referee penalties): Anna 0, Bruno 0",
        "no winner (abandoned)",  # the game_ended reason, as the games list gives it (issue 26)
    ]
    assert (
        run("--lang", "it", "score", "scala40-jolly-swap").stdout.splitlines()[-2] == "nessun vincitore (abbandonata)"
    )
    client = records_app(list(read_record(ruled).events)).test_client()
    page = client.get("/games").get_data(as_text=True)
    row = page[page.index('data-game="scala40-jolly-swap"') :]
    result = re.search(r'<td class="result">(.*?)</td>', row, re.S)
    assert result is not None
    assert re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", result.group(1)))).strip() == (
        "no winner (abandoned) Anna 0 · Bruno 10"
    )
    api = {g["game_id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert api["scala40-jolly-swap"]["result"]["winner"] is None
    for lang, words in (("en", "<p>No winner (abandoned).</p>"), ("it", "<p>Nessun vincitore (abbandonata).</p>")):
        assert words in client.get(f"/games/scala40-jolly-swap/report?lang={lang}").get_data(as_text=True)
