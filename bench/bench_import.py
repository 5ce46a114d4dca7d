"""Import benchmark: events/s storing generated records into SQLite with our
msgspec mapper, next to eventsourcing's default JSON mapper on the same rows,
measured in the same run.

    .venv/bin/python bench/bench_import.py [--games 200] [--hands 4] [--repeat 3] [--dir DIR]

Both paths store each game in one transaction (one ``insert_events`` call, as
``import`` does) into a fresh SQLite file, one row per record event, one topic
per event type; only the mapper differs:

- ``msgspec``: :class:`ledger.stored.persistence.MsgspecMapper` (state = the canonical
  JSON of the record event);
- ``json``: eventsourcing's ``Mapper`` + ``JSONTranscoder`` (with the
  application's default transcodings) over domain event objects holding the
  same fields as plain values, as an application without a custom mapper
  would store them.

Validation (the fold) is left out: it is the same for both. Printed: events/s
of each (best of ``--repeat``), the ratio, and the mapping alone (no SQLite).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import ApplicationRecorder, Mapper

from ledger.events import EVENT_TYPES, Event
from ledger.store.application import LedgerApp
from ledger.stored.persistence import GameEvent, ensure_topic_index, game_uuid
from ledger.synthetic import two_player_record


class JsonRecordEvent:
    """A record event as a plain domain event object (for the default mapper)."""

    originator_id: UUID
    originator_version: int


#: one subclass per event type, so that both stores have one topic per type
JSON_CLASSES: dict[type[Event], type[JsonRecordEvent]] = {}
for _cls in EVENT_TYPES:
    JSON_CLASSES[_cls] = type(
        _cls.__name__, (JsonRecordEvent,), {"__module__": __name__, "__qualname__": _cls.__name__}
    )
    globals()[_cls.__name__] = JSON_CLASSES[_cls]


def as_json_event(oid: UUID, version: int, event: Event) -> JsonRecordEvent:
    obj = object.__new__(JSON_CLASSES[type(event)])
    obj.__dict__.update(originator_id=oid, originator_version=version, **msgspec.to_builtins(event))
    return obj


def as_msgspec_event(oid: UUID, version: int, event: Event) -> GameEvent:
    return GameEvent(originator_id=oid, originator_version=version, event=event)


class JsonApp(Application[UUID]):
    """The same store with eventsourcing's default mapper and JSON transcoder."""

    name = "JsonApp"

    def construct_mapper(self) -> Mapper[UUID]:
        return Mapper(transcoder=self.construct_transcoder())

    def construct_recorder(self) -> ApplicationRecorder:
        recorder = super().construct_recorder()
        ensure_topic_index(recorder)  # the same table and indexes as LedgerApp
        return recorder


def games(n: int, hands: int) -> list[tuple[UUID, list[Event]]]:
    return [(game_uuid(f"bench-{i}"), two_player_record(f"bench-{i}", hands=hands, turns=29, seed=i)) for i in range(n)]


def store_all(app: Application[Any], data: list[tuple[UUID, list[Event]]], wrap: Any) -> float:
    """Seconds to store every game, one transaction per game."""
    start = time.perf_counter()
    for oid, events in data:
        app.events.put([wrap(oid, i + 1, e) for i, e in enumerate(events)])
    return time.perf_counter() - start


def map_all(mapper: Mapper[UUID], data: list[tuple[UUID, list[Event]]], wrap: Any) -> float:
    start = time.perf_counter()
    for oid, events in data:
        for i, e in enumerate(events):
            mapper.to_stored_event(wrap(oid, i + 1, e))
    return time.perf_counter() - start


def run(n_games: int, hands: int, repeat: int, directory: Path) -> dict[str, float]:
    data = games(n_games, hands)
    n_events = sum(len(events) for _, events in data)
    best = {"msgspec": float("inf"), "json": float("inf"), "msgspec map": float("inf"), "json map": float("inf")}
    sizes: dict[str, int] = {}
    for r in range(repeat):
        for name, cls, wrap in (("msgspec", LedgerApp, as_msgspec_event), ("json", JsonApp, as_json_event)):
            db = directory / f"bench-{name}-{r}.db"
            db.unlink(missing_ok=True)
            app = cls(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
            try:
                best[name] = min(best[name], store_all(app, data, wrap))
                best[f"{name} map"] = min(best[f"{name} map"], map_all(app.mapper, data, wrap))
                rows = app.recorder.select_notifications(None, n_events + 1)
                assert len(rows) == n_events, (name, len(rows), n_events)
                sizes[name] = sum(len(row.state) for row in rows)
            finally:
                app.close()
                db.unlink(missing_ok=True)
    rates = {k: n_events / v for k, v in best.items()}
    print(
        f"rummy-ledger import benchmark: {n_games} games, {n_events:,} events, SQLite in {directory}, best of {repeat}"
    )
    print(
        f"  store, msgspec mapper (ours)      {rates['msgspec']:>12,.0f} events/s   ({sizes['msgspec']:,} "
        "bytes of state)"
    )
    print(f"  store, eventsourcing JSON mapper  {rates['json']:>12,.0f} events/s   ({sizes['json']:,} bytes of state)")
    print(f"  ratio msgspec / JSON              {rates['msgspec'] / rates['json']:>12.2f}x")
    print(f"  mapping only, msgspec             {rates['msgspec map']:>12,.0f} events/s")
    print(f"  mapping only, JSON                {rates['json map']:>12,.0f} events/s")
    print(f"  ratio msgspec / JSON (mapping)    {rates['msgspec map'] / rates['json map']:>12.2f}x")
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--dir", type=Path, default=None, help="folder for the SQLite files (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
        run(args.games, args.hands, args.repeat, args.dir)
    else:
        with tempfile.TemporaryDirectory(prefix="rummy-bench-") as tmp:
            run(args.games, args.hands, args.repeat, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
