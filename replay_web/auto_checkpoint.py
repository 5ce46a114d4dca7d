"""Automatic signed checkpoints (issue 27, defect 1): opt-in, the live server
writes a checkpoint of the whole store (:mod:`ledger.sealing.checkpoint`, as
``rummy-ledger checkpoint`` writes it) into a folder outside the store each
time a ``game_ended`` is stored through it (the write API, the score-sheet
form).

Settings (Flask config, else the environment):

- ``CHECKPOINT_DIR`` (``RUMMY_LEDGER_CHECKPOINT_DIR``): the folder; unset,
  nothing is written. Created when missing.
- ``CHECKPOINT_KEY`` (``RUMMY_LEDGER_CHECKPOINT_KEY``): the private key file
  of ``rummy-ledger keygen``; each checkpoint is signed with it. Optional; a
  key that cannot be read stops the server at start
  (:class:`~ledger.sealing.checkpoint.CheckpointError`), not at the first game's end.

Each file is ``checkpoint-<UTC YYYYmmddTHHMMSSZ>-<first 12 hex of the
root>.json``, written to a temporary name and renamed (a reader never sees
half a file), never overwriting one. The game is stored before the
checkpoint is written: a checkpoint that cannot be written is logged as an
error (the app's logger) and the append still answers 201.

The chain alone shows that the store agrees with itself; a checkpoint kept
elsewhere shows that nothing was rewritten wholesale since (docs/seals.md).
Copy the folder off the machine (``rsync``, mail) for that to hold.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from flask import current_app, has_app_context

from ledger.errors import LedgerError
from ledger.events import Event
from ledger.sealing import checkpoint as _cp

DIR_ENV = "RUMMY_LEDGER_CHECKPOINT_DIR"
KEY_ENV = "RUMMY_LEDGER_CHECKPOINT_KEY"


def init_app(app: Any) -> None:
    """Read the settings once: ``app.extensions["auto_checkpoint"]`` is
    ``(folder, key or None)``, or None when no folder is set. Raises
    :class:`~ledger.sealing.checkpoint.CheckpointError` for an unreadable key."""
    folder = app.config.get("CHECKPOINT_DIR") or os.environ.get(DIR_ENV) or None
    keyfile = app.config.get("CHECKPOINT_KEY") or os.environ.get(KEY_ENV) or None
    if folder is None:
        app.extensions["auto_checkpoint"] = None
        return
    key = _cp.load_private_key(Path(keyfile)) if keyfile else None
    Path(folder).mkdir(parents=True, exist_ok=True)
    app.extensions["auto_checkpoint"] = (Path(folder), key)


def after_append(ledger: Any, events: Iterable[Event]) -> Path | None:
    """When ``events`` (just stored) hold a ``game_ended`` and the app has a
    checkpoint folder: write the store's checkpoint there and return its
    path; else None (and outside a Flask app, which sets no folder: the
    in-process bench). An error writing it is logged, not raised."""
    setting = current_app.extensions.get("auto_checkpoint") if has_app_context() else None
    if setting is None or not any(e.type == "game_ended" for e in events):
        return None
    folder, key = setting
    try:
        return write_checkpoint(ledger, folder, key)
    except (OSError, LedgerError) as err:  # a folder gone, a disk full, a game stored without seals
        current_app.logger.error("rummy-ledger: the automatic checkpoint was not written to %s: %s", folder, err)
        return None


def write_checkpoint(ledger: Any, folder: Path, key: Any = None) -> Path:
    """The checkpoint of every stored game (``rummy-ledger checkpoint``'s)
    written into ``folder``; returns its path. ``OSError`` when it cannot be
    written."""
    from ledger.sealing.tables import head

    entries = [_cp.Entry(g.game_id, *head(ledger, g.game_id)) for g in ledger.list_games()]
    doc = _cp.build(entries, key=key)
    stamp = doc["created_at"].replace("-", "").replace(":", "")
    final = folder / f"checkpoint-{stamp}-{doc['root'][:12]}.json"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".checkpoint-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(_cp.dumps(doc))
        if final.exists():  # the same store in the same second: the same root, the file is there
            os.unlink(tmp)
            return final
        os.replace(tmp, final)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return final
