"""The body of ``rummy-ledger import-openspiel``: a history read from a file or stdin, its record written out."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ledger.openspiel.convert import convert_actions
from ledger.openspiel.params import Params, merge_params, param_value, parse_input

#: the line on stderr when a plain history is converted under OpenSpiel's defaults (none given)
DEFAULTS_WARNING = (
    "rummy-ledger: warning: import-openspiel %(source)s: a plain history carries no game parameters and no --param "
    "was given: converted with OpenSpiel's defaults (knock_card=10, gin_bonus=25, undercut_bonus=25, oklahoma=false)"
)


def convert_main(
    source: str,
    output: str | None = None,
    game_id: str | None = None,
    params: Sequence[str] = (),
    partial: bool = False,
    error: str = "rummy-ledger: error: %(message)s",
    defaults_warning: str = DEFAULTS_WARNING,
) -> int:
    """The body of ``rummy-ledger import-openspiel SOURCE [-o OUTPUT] [--game-id ID]
    [--param KEY=VALUE ...] [--partial]``.

    Reads a history (``-`` for stdin; see :func:`~ledger.openspiel.params.parse_input`), with the
    game's parameters from a ``serialize_game_and_state`` text and from
    ``params`` (``"key=value"`` strings; a contradiction is an error), writes
    the record to ``output`` (stdout when None). Returns the exit status: 0
    done, 2 the input is not a convertible OpenSpiel gin_rummy game (the
    reason on stderr, in the line ``error``: the CLI's, in its language).
    With ``partial``, an incomplete history is converted and a note on
    stderr says so. A plain history (integers or ``serialize()`` text, which
    carry no parameters) converted with no ``params`` is converted under
    OpenSpiel's default parameters, and one line on stderr says so
    (``defaults_warning``, the CLI's in its language, with ``%(source)s``).
    """
    from ledger.records import encode_record

    try:
        given: Params = {}
        for item in params:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"--param {item!r}: expected KEY=VALUE")
            given[key.strip()] = param_value(key.strip(), value)
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
        history, game_params = parse_input(text)
        merged = merge_params(game_params, given)
        plain = "[State]" not in text
        digest = hashlib.sha1(",".join(map(str, history)).encode()).hexdigest()[:12]
        gid = game_id or (Path(source).stem if source != "-" else f"openspiel-{digest}")
        gid = re.sub(r"[^A-Za-z0-9._-]", "-", gid)[:64] or f"openspiel-{digest}"
        events = convert_actions(history, game_id=gid, params=merged, partial=partial)
        data = encode_record(events)
    except (OSError, ValueError) as err:
        print(error % {"message": f"import-openspiel {source}: {err}"}, file=sys.stderr)
        return 2
    if plain and not given:
        print(defaults_warning % {"source": source}, file=sys.stderr)
    if events[-1].type != "game_ended":
        print(
            f"rummy-ledger: note: import-openspiel {source}: partial game: {len(history)} actions converted into "
            f"{len(events)} events, "
            "without hand_ended or game_ended",
            file=sys.stderr,
        )
    if output is None:
        sys.stdout.write(data.decode())
    else:
        Path(output).write_bytes(data)
    return 0
