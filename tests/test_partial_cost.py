"""Hostile partial records cost no more than full ones (issue 24): 100,000
events of a partial Scala 40 record whose every hand is unknown (``??``), both
seats drawing unknown cards and playing them (each discard comes from an
unknown card, so it is checked against the deck), audited by the real CLI in
a child process, against the same game as a full record; the shape a tester
measured (issue 24): four seats, each discarding a random card of a hand of
unknown cards, folded in this process and audited by the CLI against its full
twin (``ledger.testing.games.unknown_hands_pair``); and an all-``??``
score-only game of 1,000 hands."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from ledger.cards import standard_deck
from ledger.record_files import read_record
from ledger.replay import replay
from ledger.testing.games import unknown_hands_pair
from tests.costkit import rummy

UNKNOWN = "??"


def scala40_pair(events: int) -> tuple[bytes, bytes]:
    """``(full, partial)``: one two-seat Scala 40 game of about ``events``
    events, in turn: draw, discard the card drawn; the stock (order never
    given) restocked from the pile when empty. The partial record writes
    every hand, every draw and every restock as ``??``; the discards stay named."""
    rng = random.Random(24)
    deck = standard_deck(decks=2, jokers=4)
    rng.shuffle(deck)
    hands, upcard, stock = [deck[:13], deck[13:26]], deck[26], deck[27:]
    players = [{"seat": 0, "name": "Anna"}, {"seat": 1, "name": "Bruno"}]
    start = {"type": "game_started", "format": "rummy-ledger/1", "game_id": "hostile-partial", "variant": "scala40"}
    full = [
        {**start, "players": players},
        {"type": "hand_dealt", "hand": 1, "dealer": 1, "hands": hands, "discard": [upcard]},
    ]
    part = [
        {**start, "players": players, "knowledge": "partial"},
        {"type": "hand_dealt", "hand": 1, "dealer": 1, "hands": [[UNKNOWN] * 13] * 2, "discard": [upcard]},
    ]
    pile, seat = [upcard], 0
    while len(full) < events:
        if not stock:
            stock, pile = pile[:-1], pile[-1:]
            rng.shuffle(stock)
            full.append({"type": "stock_restocked"})
            part.append({"type": "stock_restocked", "cards": [UNKNOWN] * len(stock)})
            continue
        card = stock.pop(0)
        full.append({"type": "card_drawn", "seat": seat, "card": card})
        part.append({"type": "card_drawn", "seat": seat, "card": UNKNOWN})
        full.append({"type": "card_discarded", "seat": seat, "card": card})
        part.append({"type": "card_discarded", "seat": seat, "card": card})
        pile.append(card)
        seat = 1 - seat

    def text(rows: list[dict[str, object]]) -> bytes:
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows).encode()

    return text(full), text(part)


def test_a_100k_event_partial_record_of_unknown_cards_costs_no_more_than_the_full_one(tmp_path: Path) -> None:
    full, part = scala40_pair(100_000)
    (tmp_path / "full.jsonl").write_bytes(full)
    (tmp_path / "part.jsonl").write_bytes(part)
    a = rummy("audit", "--json", "full.jsonl", cwd=tmp_path)
    b = rummy("audit", "--json", "part.jsonl", cwd=tmp_path)
    assert (a.returncode, b.returncode) == (0, 0), (a.stderr, b.stderr)
    assert json.loads(a.stdout)["findings"] == json.loads(b.stdout)["findings"] == []
    print(f"\naudit of 100,000 events: full {a!r}, partial {b!r}")
    assert b.cpu_s <= a.cpu_s * 1.3 + 0.5
    assert b.rss_mb <= a.rss_mb * 1.2 + 20


def test_four_seats_playing_named_cards_from_unknown_hands_fold_within_1_3x_of_the_full_record() -> None:
    """The fold alone, by this process's CPU time (``time.process_time``:
    the machine is shared), best of three passes of each record in turn so
    both see the same load: every discard of the partial record is a card
    played from an unknown one and checked against the deck (it was 2x
    the full record before the fused paths took partial records)."""
    full, part = (read_record(text).events for text in unknown_hands_pair(100_000))
    best = {"full": float("inf"), "part": float("inf")}
    for _ in range(3):
        for name, events in (("full", full), ("part", part)):
            start = time.process_time()
            state = replay(events)
            best[name] = min(best[name], time.process_time() - start)
            assert (state.position, len(state.findings)) == (99_999, 0)
            del state  # its 100,000 states are freed here, not in the next pass's time
    print(f"\nfold of 100,000 events, 4 seats: full {best['full']:.2f} s, partial {best['part']:.2f} s CPU")
    assert replay(part).discard == replay(full).discard
    assert best["part"] <= best["full"] * 1.3


def test_a_4_seat_partial_record_of_unknown_hands_audits_within_1_3x_of_the_full_one(tmp_path: Path) -> None:
    full, part = unknown_hands_pair(100_000)
    (tmp_path / "full.jsonl").write_bytes(full)
    (tmp_path / "part.jsonl").write_bytes(part)
    # two alternating pairs, the least CPU of each: one child's CPU time swells when the
    # machine's other work shares its core (seen in CI: 6.8 s against 4.3 s once)
    runs = [rummy("audit", "--json", name, cwd=tmp_path) for _ in range(2) for name in ("full.jsonl", "part.jsonl")]
    fulls, parts = runs[0::2], runs[1::2]
    assert [r.returncode for r in runs] == [0, 0, 0, 0], [r.stderr for r in runs]
    assert json.loads(fulls[0].stdout)["findings"] == json.loads(parts[0].stdout)["findings"] == []
    a, b = min(fulls, key=lambda r: r.cpu_s), min(parts, key=lambda r: r.cpu_s)
    print(f"\naudit of 100,000 events, 4 seats: full {a!r}, partial {b!r}")
    assert b.cpu_s <= a.cpu_s * 1.3 + 0.5
    assert b.rss_mb <= a.rss_mb * 1.2 + 20


def test_an_all_unknown_score_only_game_of_1000_hands_is_cheap(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("".join(f"{i % 97},{-(i % 13)}\n" for i in range(1000)))
    stored = rummy(
        "--db",
        "l.db",
        "record-scores",
        "long-sheet",
        "--players",
        "A,B",
        "--variant",
        "scala40",
        "--csv",
        "sheet.csv",
        cwd=tmp_path,
    )
    assert (stored.returncode, stored.stdout) == (0, "long-sheet: stored, 1000 hands (score-only)\n"), stored.stderr
    scored = rummy("--db", "l.db", "score", "--json", "long-sheet", cwd=tmp_path)
    totals = json.loads(scored.stdout)["totals"]
    assert totals == [
        {"seat": 0, "points": sum(i % 97 for i in range(1000))},
        {"seat": 1, "points": -sum(i % 13 for i in range(1000))},
    ]
    assert stored.cpu_s < 30 and scored.cpu_s < 20 and stored.rss_mb < 400
