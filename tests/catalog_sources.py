"""The msgids the sources mark for the one catalog (``ledger/translations``):
what ``pybabel extract`` finds with the root ``babel.cfg`` and the keywords
of its first lines (``-k N_ -k C_:1c,2`` beside gettext's own)."""

from __future__ import annotations

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from tests.conftest import REPO

#: the keywords the commands at the top of babel.cfg extract: Babel's defaults used here and N_, C_
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "C_": ((1, "c"), 2),
}


def extracted() -> set[tuple[str, str | None]]:
    """``(msgid, msgctxt)`` of every string ``babel.cfg`` extracts (a plural by its singular)."""
    with (REPO / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    assert [(pattern, m) for pattern, m in method_map] == [
        ("ledger/**.py", "python"),
        ("replay_web/**.py", "python"),
        ("replay_web/templates/**.html", "jinja2"),
    ]
    found: set[tuple[str, str | None]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(REPO), method_map=method_map, options_map=options_map, keywords=KEYWORDS
    ):
        found.add((message[0] if isinstance(message, tuple) else message, context))
    return found
