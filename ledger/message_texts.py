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
field names stay as they are), and the refused records' usual ``REC-…``
reasons (:data:`RECORD_REASONS`). A message no entry knows comes back as it
is (English), like :func:`ledger.finding_texts.finding_text` (a schema
error's own words, for one). Pure: no I/O.

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

_Q = r"'[^']*'|\"[^\"]*\""  # a repr()'d id

#: a refused record's other REC-… reasons (ledger.records, ledger.replay, ledger.variants)
RECORD_REASONS: tuple[tuple[str, str], ...] = (
    (r"no events: a record starts with game_started", N_("no events: a record starts with game_started")),
    (r"no events to append", N_("no events to append")),
    (r"not a JSON Lines record: one event per line", N_("not a JSON Lines record: one event per line")),
    (r"a record starts with game_started, not (?P<type>\w+)", N_("a record starts with game_started, not %(type)s")),
    (r"a second game_started", N_("a second game_started")),
    (r"(?P<type>\w+) before the first hand_dealt", N_("%(type)s before the first hand_dealt")),
    (r"(?P<type>\w+) after hand_ended \(hand (?P<hand>\d+)\)", N_("%(type)s after hand_ended (hand %(hand)s)")),
    (r"(?P<type>\w+) while hand (?P<hand>\d+) has not ended", N_("%(type)s while hand %(hand)s has not ended")),
    (
        r"stock_restocked while the stock still holds (?P<num>\d+) cards",
        N_("stock_restocked while the stock still holds %(num)s cards"),
    ),
    (
        r"hand_ended reason knocked, but nobody knocked in this hand",
        N_("hand_ended reason knocked, but nobody knocked in this hand"),
    ),
    (
        r"hand_ended went_out must name the seat that went out",
        N_("hand_ended went_out must name the seat that went out"),
    ),
    (rf"field (?P<name>{_Q}) written twice", N_("field %(name)s written twice")),
    (
        rf"bad card string (?P<text>{_Q}) \(expected e\.g\. 10H, AS, JK\)",
        N_("bad card string %(text)s (expected e.g. 10H, AS, JK)"),
    ),
    (r"not UTF-8 text \((?P<reason>.+)\)", N_("not UTF-8 text (%(reason)s)")),
    (
        r"(?P<type>\w+) is a (?P<game>Gin|Burraco) event, not (?P<variant>\w+)",
        N_("%(type)s is a %(game)s event, not %(variant)s"),
    ),
    (r"(?P<variant>\w+) has no pozzetti", N_("%(variant)s has no pozzetti")),
    (r"(?P<num>\d+) pozzetti \(Burraco has 2\)", N_("%(num)s pozzetti (Burraco has 2)")),
    (
        rf"game_started names game (?P<game>{_Q}), not (?P<other>{_Q})",
        N_("game_started names game %(game)s, not %(other)s"),
    ),
    (
        r"(?P<num>\d+) players: (?P<variant>\w+) is played by (?P<allowed>\d+(?:, \d+)*)",
        N_("%(num)s players: %(variant)s is played by %(allowed)s"),
    ),
    (r"(?P<num>\d+) hands dealt for (?P<seats>\d+) seats", N_("%(num)s hands dealt for %(seats)s seats")),
    (
        r"unknown seat (?P<seat>-?\d+) \(the table has seats 0–(?P<last>\d+)\)",
        N_("unknown seat %(seat)s (the table has seats 0–%(last)s)"),
    ),
    (
        rf"meld id (?P<meld>{_Q}) is already used in hand (?P<hand>\d+)",
        N_("meld id %(meld)s is already used in hand %(hand)s"),
    ),
    (
        rf"no meld (?P<meld>{_Q}) on the table in hand (?P<hand>\d+)",
        N_("no meld %(meld)s on the table in hand %(hand)s"),
    ),
    (
        r"(?P<who>.+) \(seat (?P<seat>\d+)\) does not hold (?P<card>\S+)",
        N_("%(who)s (seat %(seat)s) does not hold %(card)s"),
    ),
    (r"(?P<who>.+) drew (?P<card>\S+) from an empty stock", N_("%(who)s drew %(card)s from an empty stock")),
    (r"the top of the stock is (?P<top>\S+), not (?P<card>\S+)", N_("the top of the stock is %(top)s, not %(card)s")),
    (r"the discard pile is empty", N_("the discard pile is empty")),
    (
        r"nothing to restock: the discard pile holds only its top card",
        N_("nothing to restock: the discard pile holds only its top card"),
    ),
    (r"meld (?P<meld>\S+) holds no (?P<joker>\S+)", N_("meld %(meld)s holds no %(joker)s")),
    (r"pozzetto (?P<num>\d+) became the stock", N_("pozzetto %(num)s became the stock")),
    (r"pozzetto (?P<num>\d+) was already taken by (?P<who>.+)", N_("pozzetto %(num)s was already taken by %(who)s")),
    (
        r"a copy of (?P<card>\S+) too many: the deck holds (?P<num>\d+)",
        N_("a copy of %(card)s too many: the deck holds %(num)s"),
    ),
    (
        r"the deal holds more than the deck's (?P<total>\d+) cards",
        N_("the deal holds more than the deck's %(total)s cards"),
    ),
    (
        r"the deal holds (?P<dealt>\d+) cards; the deck has (?P<total>\d+)",
        N_("the deal holds %(dealt)s cards; the deck has %(total)s"),
    ),
)


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
) + tuple((re.compile(rx), msg) for rx, msg in RECORD_REASONS)


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
