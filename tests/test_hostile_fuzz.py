"""A seeded mutation fuzzer over real records (issue 13): every mutated record
goes through the reader and ``import``; the only outcomes allowed are "stored"
(or "already stored") and a documented rejection that names the line, the
field and a ``REC-`` rule id, with nothing of the rejected file stored.

2,000 records a run (a few seconds); ``RUMMY_LEDGER_ATTACKS=1`` (CI) runs 20,000,
``RUMMY_LEDGER_SLOW=1`` 50,000 (:mod:`tests.attacks`).
``RUMMY_LEDGER_FUZZ_SEED`` picks another seed (the default is fixed, so a
failure reproduces)."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

from ledger.errors import GameConflictError, RecordError
from ledger.record_files import read_record
from ledger.store.application import LedgerApp
from tests.attacks import scale

ROOT = Path(__file__).resolve().parent.parent
RUNS = scale(2_000, 20_000, 50_000)
SEED = int(os.environ.get("RUMMY_LEDGER_FUZZ_SEED", "13"))

#: rejections about a whole line, which has no field to name
LINE_LEVEL = (
    "malformed JSON",
    "not a JSON Lines record",
    "not UTF-8 text",
    "the line is longer than",
    "an event is a JSON object",
    "no events",
)

CARDS = ["AS", "10H", "KD", "2C", "JK", "7S", "QH", "1H", "11C", "AX", "", "10h", "JK ", "\u0663H"]
VALUES: list[object] = [
    0,
    1,
    -1,
    15,
    16,
    2**31,
    -(2**63),
    10**30,
    1.5,
    True,
    None,
    "",
    "x" * 70,
    [],
    {},
    "AS",
    "0001-01-01T00:00:00Z",
    "2026-11-29T20:00:00+01:00",
    "2026-11-29",
    "[b]x :100:",
    "..",
    ".",
]


def base_records() -> list[list[bytes]]:
    """The fixtures' accepted records, as lists of lines."""
    out = []
    for path in sorted((ROOT / "fixtures").rglob("*.jsonl")):
        if path.name.startswith("rejected"):
            continue
        lines = [ln for ln in path.read_bytes().splitlines() if ln.strip() and not ln.startswith(b"//")]
        out.append(lines)
    return out


def _walk(value: object, rng: random.Random) -> object:
    """``value`` with one thing inside it changed."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        choice = rng.random()
        if choice < 0.15:
            return {k: v for k, v in value.items() if k != key}
        if choice < 0.25:
            return {**value, rng.choice(["colour", "seat", "card", "Type", ""]): rng.choice(VALUES)}
        return {**value, key: _walk(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.7:
        i = rng.randrange(len(value))
        choice = rng.random()
        if choice < 0.2:
            return value[:i] + value[i + 1 :]
        if choice < 0.35:
            return value + [value[i]] * rng.choice([1, 2, 200])
        return value[:i] + [_walk(value[i], rng)] + value[i + 1 :]
    if isinstance(value, str) and len(value) <= 3 and rng.random() < 0.5:
        return rng.choice(CARDS)
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-1, 1, 2, 100, -100])
    return rng.choice(VALUES)


def mutate(lines: list[bytes], rng: random.Random, game_id: str) -> bytes:
    """One mutated record (the game id made unique first, so that nothing
    else in the store can answer for it)."""
    lines = list(lines)
    try:
        first = json.loads(lines[0])
        first["game_id"] = game_id
        lines[0] = json.dumps(first, separators=(",", ":")).encode()
    except ValueError:
        pass
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        i = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.55:
            try:
                event = json.loads(lines[i])
            except ValueError:
                continue
            lines[i] = json.dumps(_walk(event, rng), separators=(",", ":"), ensure_ascii=rng.random() < 0.5).encode()
        elif kind < 0.62:
            del lines[i]
            if not lines:
                lines = [b"{}"]
        elif kind < 0.69:
            lines.insert(i, lines[i])
        elif kind < 0.76:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind < 0.82:
            cut = rng.randrange(max(len(lines[i]), 1))
            lines[i] = lines[i][:cut]
        elif kind < 0.88:
            pos = rng.randrange(max(len(lines[i]), 1))
            lines[i] = lines[i][:pos] + bytes([rng.randrange(256)]) + lines[i][pos:]
        elif kind < 0.94:  # a key written twice
            lines[i] = (
                lines[i].replace(b'"seat":', b'"seat":0,"seat":', 1)
                if rng.random() < 0.5
                else lines[i].replace(b'"card":', b'"card":"AS","card":', 1)
            )
        else:
            lines.insert(
                i, rng.choice([b"", b"// comment", b"[]", b"null", b'{"type":"card_drawn"}', b"\xef\xbb\xbf{}"])
            )
    return b"\n".join(lines) + b"\n"


def stored_events(app: LedgerApp, game_id: str) -> int:
    return len(app._stored(game_id))  # noqa: SLF001 - the raw rows, whatever they hold


def test_mutated_records_are_stored_or_rejected_cleanly(tmp_path: Path) -> None:
    bases = base_records()
    assert len(bases) >= 15
    rng = random.Random(SEED)
    app = LedgerApp(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "fuzz.db")})
    outcomes: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    try:
        for n in range(RUNS):
            game_id = f"fz-{n}"
            data = mutate(rng.choice(bases), rng, game_id)
            try:
                record = read_record(data)
                claimed = record.game_id
                result = app.import_record(record)
            except RecordError as err:
                outcomes["rejected"] += 1
                rules[err.rule] += 1
                where = f"record {n}: {err} in\n{data[:2000]!r}"
                assert err.rule.startswith("REC-") and err.line is not None and err.line >= 1, where
                assert err.field or err.message.startswith(LINE_LEVEL), where
                assert stored_events(app, game_id) == 0, where
                continue
            except GameConflictError:
                outcomes["conflict"] += 1  # a mutated game_id that names another fuzzed game
                continue
            outcomes[result.status] += 1
            assert result.status in ("stored", "already stored"), result
            assert stored_events(app, claimed or game_id) == len(record.events)
    finally:
        app.close()
    assert sum(outcomes.values()) == RUNS
    # the mutations reach deep enough: most are rejected, some stored, many rules seen
    assert outcomes["rejected"] > RUNS // 2 and outcomes["stored"] > RUNS // 50, outcomes
    assert {"REC-FORMAT", "REC-WHERE", "REC-REF", "REC-ORDER"} <= set(rules), rules
