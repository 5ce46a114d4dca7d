"""The CLI's and the viewer's error messages from the store, the seal checks,
the report and the rulings, in the reader's language, made at display time.

The store (:mod:`ledger.store`), the rule folds (:mod:`ledger.variants`)
and the report (:mod:`replay_web.report_data`, :mod:`replay_web.pdf`) write
their messages in English (what ``--json``, the HTTP API and the logs keep).
For human output in another language, :func:`message_text` reads an English
message back against :data:`MESSAGES`: a regular expression over the whole
English text and the gettext msgid of the same sentence (marked :func:`N_`,
the CLI's catalog ``ledger/translations``, domain ``ledger``), whose
``%(name)s`` placeholders are the expression's named groups, filled with the
English text's own pieces (ids, positions, seals, paths, event types and
field names stay as they are). A message no entry knows comes back as it is
(English), like :func:`ledger.finding_texts.finding_text`; so do the record
refusals' other ``REC-…`` reasons. Pure: no I/O.

>>> from ledger.i18n import translations
>>> message_text("position 14 carries no finding to rule on", translations("it"))
'la posizione 14 non ha irregolarità su cui decidere'
>>> message_text("position 14 carries no finding to rule on", translations("en"))
'position 14 carries no finding to rule on'
>>> message_text("something new", translations("it"))
'something new'
"""

from __future__ import annotations

import re
from typing import Any

from ledger.i18n import N_

_ID = r"(?P<game>'[^']*'|\"[^\"]*\")"
_SEAL = r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}"

#: (English message as a regular expression, its msgid): every message of the
#: store's conflicts, the seal checks, the report and the rulings' REC-REF/REC-ORDER refusals
MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rx), msg)
    for rx, msg in (
        # the store (ledger.store.append, ledger.store.importing, ledger.store.streamed)
        (
            rf"game {_ID} already exists \((?P<num>\d+) events? stored\); game_started opens a new game only",
            N_("game %(game)s already exists (%(num)s events stored); game_started opens a new game only"),
        ),
        (
            rf"game {_ID} is already stored with different events \((?P<stored>\d+) events stored, (?P<mine>\d+) "
            r"in this record, first difference at position (?P<pos>\d+), line (?P<line>\d+)\); refused",
            N_(
                "game %(game)s is already stored with different events (%(stored)s events stored, %(mine)s in "
                "this record, first difference at position %(pos)s, line %(line)s); refused"
            ),
        ),
        (
            rf"game {_ID} is already stored with different events \((?P<stored>\d+) events stored, (?P<mine>\d+) "
            r"in this record, first difference at position (?P<pos>\d+)\); refused",
            N_(
                "game %(game)s is already stored with different events (%(stored)s events stored, %(mine)s in "
                "this record, first difference at position %(pos)s); refused"
            ),
        ),
        # the seal checks (ledger.store.verify_rows, ledger.store.verify)
        (
            rf"event bytes differ from those sealed \(stored seal (?P<stored>{_SEAL}), the bytes give "
            rf"(?P<given>{_SEAL})\)",
            N_("event bytes differ from those sealed (stored seal %(stored)s, the bytes give %(given)s)"),
        ),
        (
            rf"stored seal (?P<stored>{_SEAL}) differs from the chain of the stored events \((?P<given>{_SEAL})\): "
            r"the seal was edited",
            N_("stored seal %(stored)s differs from the chain of the stored events (%(given)s): the seal was edited"),
        ),
        (
            rf"(?P<game>.+): seal at position (?P<pos>\d+) is (?P<now>{_SEAL}) from the stored events, the "
            rf"checkpoint's is (?P<then>{_SEAL}): the game was rewritten since the checkpoint",
            N_(
                "%(game)s: seal at position %(pos)s is %(now)s from the stored events, the checkpoint's is "
                "%(then)s: the game was rewritten since the checkpoint"
            ),
        ),
        (
            r"(?P<game>.+): position (?P<pos>\d+): stored event missing or not bytes: the game was rewritten "
            r"since the checkpoint",
            N_(
                "%(game)s: position %(pos)s: stored event missing or not bytes: the game was rewritten since the "
                "checkpoint"
            ),
        ),
        (
            r"(?P<game>.+): (?P<stored>\d+) events stored, the checkpoint lists (?P<listed>\d+): the game was "
            r"truncated",
            N_("%(game)s: %(stored)s events stored, the checkpoint lists %(listed)s: the game was truncated"),
        ),
        (
            r"(?P<game>.+): listed in the checkpoint \((?P<num>\d+) events\) but not in the store",
            N_("%(game)s: listed in the checkpoint (%(num)s events) but not in the store"),
        ),
        (
            rf"(?P<game>.+): stored seal at position (?P<pos>\d+) differs from the checkpoint's (?P<seal>{_SEAL})",
            N_("%(game)s: stored seal at position %(pos)s differs from the checkpoint's %(seal)s"),
        ),
        # the report (replay_web.report_data, replay_web.pdf)
        (
            r"no finding at position (?P<pos>\d+) \(findings are at: (?P<where>\d+(?:, \d+)*)\)",
            N_("no finding at position %(pos)s (findings are at: %(where)s)"),
        ),
        (
            r"no finding at position (?P<pos>\d+) \(findings are at: none\)",
            N_("no finding at position %(pos)s (findings are at: none)"),
        ),
        (
            r"cannot start Chromium \((?P<exe>.+?)\): (?P<why>.+); install Debian's chromium or set (?P<env>\w+) "
            r"to a Chromium binary; -o FILE\.html writes the printable page without it",
            N_(
                "cannot start Chromium (%(exe)s): %(why)s; install Debian's chromium or set %(env)s to a Chromium "
                "binary; -o FILE.html writes the printable page without it"
            ),
        ),
        (
            r"PDF output needs Playwright: pip install (?P<pip>'[^']*') and Debian's chromium "
            r"\((?P<apt>apt-get [^)]*)\); -o FILE\.html writes the printable page without them",
            N_(
                "PDF output needs Playwright: pip install %(pip)s and Debian's chromium (%(apt)s); -o FILE.html "
                "writes the printable page without them"
            ),
        ),
        # a ruling's refusals (ledger.variants.outcome, ledger.variants.base)
        (
            r"position (?P<pos>\d+) carries no finding to rule on",
            N_("position %(pos)s carries no finding to rule on"),
        ),
        (
            r"finding (?P<finding>\d+) is not an earlier position \(this ruling is position (?P<pos>\d+)\)",
            N_("finding %(finding)s is not an earlier position (this ruling is position %(pos)s)"),
        ),
        (
            r"target (?P<target>\d+) is not a position of the current line of play in hand (?P<hand>\d+)",
            N_("target %(target)s is not a position of the current line of play in hand %(hand)s"),
        ),
        (
            r"unknown rule id (?P<rule>'[^']*'|\"[^\"]*\"): a penalty cites a RULES\.md rule",
            N_("unknown rule id %(rule)s: a penalty cites a RULES.md rule"),
        ),
        (r"unknown team (?P<team>-?\d+)", N_("unknown team %(team)s")),
        (r"(?P<type>[a-z_]+) after game_ended", N_("%(type)s after game_ended")),
    )
)


def message_text(message: str, tr: Any) -> str:
    """``message`` (English, as the store, the seal checks, the report or a
    ruling's refusal wrote it) in the language of ``tr`` (gettext
    translations); unchanged when no entry of :data:`MESSAGES` matches it
    whole, or when ``tr`` is English."""
    for rx, msgid in MESSAGES:
        m = rx.fullmatch(message)
        if m is not None:
            text = str(tr.gettext(msgid))
            return message if text == msgid else text % m.groupdict()
    return message


__all__ = ["MESSAGES", "message_text"]
