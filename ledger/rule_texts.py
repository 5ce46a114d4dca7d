"""The text of every RULES.md rule, in English (as RULES.md words it) and Italian.

Pure data for the dispute report (:mod:`replay_web.report`) and anything else
that shows a rule to a referee or a player. The texts are written in each
rule's table entry (:class:`ledger.rule_table.RuleEntry` ``en`` and ``it``);
this module is their view, following the catalog. The English text is
RULES.md's table cell, verbatim (back-quoted names included); the Italian one
uses the field's terms: *smazzata* (hand), *tallone* (stock), *pozzo* /
*monte degli scarti* (discard pile), *pozzetto*, *pinella* (a 2 used as a
wild), *matta* (wild), *calata* (a meld laid down), *attaccare* (lay off),
*chiusura* / *chiudere* (going out), *apertura* (opening), *arbitro*,
*penalità*.

``tests/test_rule_texts.py`` checks that every id of RULES.md has both texts
and that the English one is RULES.md's.

>>> rule_text("ALL-TURN-1", "it")
'Gioco fuori turno: un posto agisce quando non è il suo turno.'
>>> rule_text("ALL-TURN-1", "en")
'Play out of turn: a seat acts when it is not its turn.'
>>> rule_text("NOPE-1", "en") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping

from ledger.rule_ids import RULE_TABLE, RuleMap

#: the languages every rule has a text in
LANGUAGES: tuple[str, ...] = ("en", "it")

#: rule id -> {language: text}, in RULES.md order (from the rule tables)
RULE_TEXTS: Mapping[str, Mapping[str, str]] = RuleMap(lambda e: {"en": e.en, "it": e.it})


def rule_text(rule: str, lang: str = "en") -> str | None:
    """The text of ``rule`` (a RULES.md id) in ``lang`` (``"en"`` or
    ``"it"``; another language falls back to English); None for an id that
    RULES.md does not have."""
    entry = RULE_TABLE.get(rule)
    return None if entry is None else entry.text(lang)


__all__ = ["LANGUAGES", "RULE_TEXTS", "rule_text"]
