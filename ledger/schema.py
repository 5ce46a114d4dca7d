"""JSON Schema (2020-12) of the record format, generated from the msgspec structs.

FORMAT.md is the prose contract, :mod:`ledger.events` its implementation and
``schemas/`` the generated, committed schema:

- ``schemas/rummy-ledger-1.schema.json``: one line of a record (any event,
  discriminated by ``type``);
- ``schemas/events/<type>.schema.json``: one file per event type;
- ``schemas/rummy-ledger-1-tournament.schema.json`` and
  ``schemas/tournament/<type>.schema.json``: the same for a tournament
  record's events (:mod:`ledger.tournament.events`, TOURNAMENT.md).

Every object forbids unknown properties (FORMAT.md: unknown fields are an
error). Regenerate with ``python -m ledger.schema`` (or ``rummy-ledger
schema``); ``--check`` exits 1 when the committed files differ.

>>> schema = event_schema()
>>> schema["$schema"], schema["$defs"]["CardDrawn"]["additionalProperties"]
('https://json-schema.org/draft/2020-12/schema', False)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from ledger import FORMAT, catalog
from ledger.events import EVENT_TYPES, EventUnion

DIALECT = "https://json-schema.org/draft/2020-12/schema"
UNION_FILE = "rummy-ledger-1.schema.json"
TOURNAMENT_FILE = "rummy-ledger-1-tournament.schema.json"
REPO_ROOT = Path(__file__).resolve().parent.parent


def default_dir() -> Path:
    """``schemas/`` of the source checkout, or ``./schemas`` for an installed package."""
    if (REPO_ROOT / "pyproject.toml").is_file():
        return REPO_ROOT / "schemas"
    return Path("schemas")


def _close_objects(schema: dict[str, Any]) -> dict[str, Any]:
    """Forbid unknown fields everywhere, and require ``game_started.format``
    (the struct gives it a default for code that builds events, but a record
    must carry it: FORMAT.md, "Events"), and give ``game_started.variant``
    the catalog's names as its ``enum`` (:mod:`ledger.catalog`; the struct
    types it ``str`` so that the catalog can grow)."""
    for name, definition in schema.get("$defs", {}).items():
        if definition.get("type") == "object":
            definition["additionalProperties"] = False
        if name in ("GameStarted", "TournamentStarted") and "variant" in definition.get("properties", {}):
            definition["properties"]["variant"] = {"enum": sorted(catalog.CATALOG)}
        if name == "GameStarted" and "format" not in definition.get("required", []):
            required = definition.setdefault("required", [])
            required.insert(1 if required[:1] == ["type"] else 0, "format")
    return schema


def event_schema() -> dict[str, Any]:
    """The schema of one record line: any event of the ``rummy-ledger/1`` format."""
    body = _close_objects(msgspec.json.schema(EventUnion))
    return {
        "$schema": DIALECT,
        "$id": "urn:rummy-ledger:schema:1",
        "title": f"{FORMAT} event",
        "description": (
            f"One line of a {FORMAT} record (UTF-8 JSON Lines, one game per file; "
            "line 1 is game_started). Generated from ledger/events.py; see FORMAT.md."
        ),
        **body,
    }


def tournament_schema() -> dict[str, Any]:
    """The schema of one line of a tournament record (TOURNAMENT.md, "The record")."""
    from ledger.tournament.events import TournamentEventUnion

    body = _close_objects(msgspec.json.schema(TournamentEventUnion))
    return {
        "$schema": DIALECT,
        "$id": "urn:rummy-ledger:schema:1:tournament",
        "title": f"{FORMAT} tournament event",
        "description": (
            f"One line of a {FORMAT} tournament record (UTF-8 JSON Lines; line 1 is tournament_started). "
            "Generated from ledger/tournament/events.py; see TOURNAMENT.md."
        ),
        **body,
    }


def type_schema(cls: type) -> dict[str, Any]:
    """The schema of one event type (``cls`` from :data:`ledger.events.EVENT_TYPES`)."""
    tag = cls.__struct_config__.tag  # type: ignore[attr-defined]  # cls is an event class (msgspec Struct)
    body = _close_objects(msgspec.json.schema(cls))
    return {
        "$schema": DIALECT,
        "$id": f"urn:rummy-ledger:schema:1:{tag}",
        "title": f"{FORMAT} {tag}",
        **body,
    }


def _dump(schema: dict[str, Any]) -> bytes:
    return (json.dumps(schema, indent=2, ensure_ascii=False) + "\n").encode()


def schema_files() -> dict[str, bytes]:
    """``{relative path: file bytes}`` of every generated schema file."""
    files = {UNION_FILE: _dump(event_schema())}
    for cls in EVENT_TYPES:
        files[f"events/{cls.__struct_config__.tag}.schema.json"] = _dump(type_schema(cls))
    from ledger.tournament.events import TOURNAMENT_EVENT_TYPES

    files[TOURNAMENT_FILE] = _dump(tournament_schema())
    for tcls in TOURNAMENT_EVENT_TYPES:
        files[f"tournament/{tcls.__struct_config__.tag}.schema.json"] = _dump(type_schema(tcls))
    return files


def write_schemas(directory: Path | None = None) -> list[Path]:
    """Write every schema file under ``directory`` (default :func:`default_dir`);
    remove stale ``events/*.schema.json``; return the paths written."""
    directory = Path(directory) if directory else default_dir()
    files = schema_files()
    written = []
    for name, data in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    for stale in _stale(directory, files):
        stale.unlink()
    return written


def _stale(directory: Path, files: dict[str, bytes]) -> list[Path]:
    stale: list[Path] = []
    for sub in ("events", "tournament"):
        folder = directory / sub
        if folder.is_dir():
            stale += sorted(p for p in folder.glob("*.schema.json") if f"{sub}/{p.name}" not in files)
    return stale


def check_schemas(directory: Path | None = None) -> list[str]:
    """Relative paths under ``directory`` that are missing, differ from the
    generated schema, or are stale; empty when the committed schema is current."""
    directory = Path(directory) if directory else default_dir()
    files = schema_files()
    bad = [
        name
        for name, data in files.items()
        if not (directory / name).is_file() or (directory / name).read_bytes() != data
    ]
    bad += [f"{p.parent.name}/{p.name}" for p in _stale(directory, files)]
    return bad


def main(argv: list[str] | None = None) -> int:
    """``python -m ledger.schema [--check] [--out DIR]``; exit 1 when ``--check`` finds a difference."""
    parser = argparse.ArgumentParser(
        prog="python -m ledger.schema", description="Generate the JSON Schema files of the record format."
    )
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when the files differ")
    parser.add_argument("--out", type=Path, default=None, help="target folder (default: the checkout's schemas/)")
    args = parser.parse_args(argv)
    directory = args.out or default_dir()
    if args.check:
        bad = check_schemas(directory)
        for name in bad:
            print(f"{directory / name}: differs from the schema generated from ledger/events.py", file=sys.stderr)
        if bad:
            print("run `python -m ledger.schema` to regenerate", file=sys.stderr)
            return 1
        print(f"{directory}: schema is current ({len(schema_files())} files)")
        return 0
    written = write_schemas(directory)
    print(f"wrote {len(written)} schema files to {directory}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
