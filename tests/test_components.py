"""Score breakdown components (issue 23): one table, ledger.views.COMPONENTS, for the command
line's words (the key, translated as its own msgid) and the viewer's and report's words (the
table's value); both outputs as they were."""

from __future__ import annotations

from ledger.i18n import translations
from ledger.render import component_text
from ledger.views import COMPONENTS
from replay_web import report_data, words


def test_one_table_for_the_command_line_and_the_report() -> None:
    assert not hasattr(words, "BREAKDOWN") and report_data.COMPONENTS is COMPONENTS
    assert words.COMPONENTS is COMPONENTS
    assert len(COMPONENTS) == 24


def test_each_side_keeps_its_words() -> None:
    it = translations("it")
    cli = {k: component_text(k, it) for k in ("closing", "no_pozzetto", "rummy_double", "big_gin_bonus", "claimed")}
    assert cli == {
        "closing": "chiusura",
        "no_pozzetto": "senza pozzetto",
        "rummy_double": "ramino doppio",
        "big_gin_bonus": "big_gin_bonus",  # no command-line msgid: its key, as before
        "claimed": "dichiarato",
    }
    assert component_text("no_pozzetto") == "no_pozzetto"  # English: the key, as score --json has it
    shown = {k: it.gettext(COMPONENTS[k]) for k in ("closing", "no_pozzetto", "rummy_double", "big_gin_bonus")}
    assert shown == {
        "closing": "chiusura",
        "no_pozzetto": "pozzetto non preso",
        "rummy_double": "raddoppio (chiusura in mano)",
        "big_gin_bonus": "premio big gin",
    }
    assert (COMPONENTS["closing"], COMPONENTS["hand"]) == ("going out", "cards in hand")
