"""The viewer's and the report's words: move notation, phases, reasons and
score components in the page's language (:mod:`replay_web.lang`).

:func:`move_words` is the one notation (:mod:`ledger.notation`) in the
page's language, redacted for a seat or a spectator as every reader's is.
No rule is evaluated here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger import catalog
from ledger import i18n as ledger_i18n
from ledger.events import Event
from ledger.i18n import N_
from ledger.notation import GAME_END_REASONS, HAND_END_REASONS, notation
from ledger.render import side_name
from ledger.state import Finding, TableState
from ledger.texts import Message, render
from ledger.views import COMPONENTS, PHASES, StateView
from replay_web.lang import current_lang, viewer_translations

Gettext = Callable[[str], str]

#: variant id -> the game's name (from the variant catalog)
VARIANT_NAMES = catalog.LABELS

META_LABELS = {
    "tournament": N_("tournament"),
    "round": N_("round"),
    "table": N_("table"),
    "date": N_("date"),
    "referee": N_("referee"),
    "site": N_("site"),
}


def signed(n: int) -> str:
    """``+70``, ``−50`` (a true minus sign), ``0``.

    >>> signed(70), signed(-50), signed(0)
    ('+70', '−50', '0')
    """
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def _gettext() -> Gettext:
    return viewer_translations(current_lang()).gettext


def move_words(event: Event, state: TableState | None, pov: Any) -> str:
    """The move as the viewer's page shows it (its move list and board):
    :func:`ledger.notation.notation` for ``pov`` in the page's language."""
    return notation(event, state, pov, ledger_i18n.translations(current_lang()))


def turn_line(view: StateView, english: str) -> str:
    """Whose turn and what to do (``view``: :func:`ledger.views.state_view`),
    in the page's language: ``english`` (the viewer's own line) on an
    English page, else ``"Bruno (posto 1) deve pescare"``."""
    lang = current_lang()
    if lang == "en":
        return english
    _ = viewer_translations(lang).gettext
    if view.ended:
        return _("game over: %(reason)s") % {
            "reason": _(GAME_END_REASONS.get(view.ended, view.ended.replace("_", " ")))
        }
    if view.turn is not None:
        return _("%(who)s (seat %(seat)s) %(phase)s") % {
            "who": view.seats[view.turn].name,
            "seat": view.turn,
            "phase": _(PHASES.get(view.phase, view.phase)),
        }
    return _(PHASES.get(view.phase, view.phase))


def component(key: str) -> str:
    """A score component (README, "breakdown components") as the viewer's
    score panel names it: the key itself on an English page (``no
    pozzetto``), the report's term in another language (``pozzetto non preso``)."""
    if current_lang() == "en":
        return key.replace("_", " ")
    return _gettext()(COMPONENTS.get(key, key.replace("_", " ")))


def hand_reason(reason: str) -> str:
    """Why a hand ended (``went_out`` or the scoreboard's ``went out``), in the page's language."""
    key = reason.replace(" ", "_")
    return _gettext()(HAND_END_REASONS.get(key, reason.replace("_", " ")))


def result_side(result: dict[str, Any], side: int) -> str:
    """Side ``side`` of a games-list ``result`` (:func:`ledger.game_summary.game_result`)
    in the page's language, named from its ``players`` (:func:`ledger.render.side_name`);
    a line stored before results carried ``players`` shows its stored label."""
    total = result["totals"][side]
    players = total.get("players")
    if players is None:
        return str(total["side"])
    return side_name(side, players, viewer_translations(current_lang()))


def result_winner(result: dict[str, Any]) -> str | None:
    """The winner of a games-list ``result`` in the page's language (None: no winner);
    a line stored before results carried ``winner_side`` shows its stored label."""
    side = result.get("winner_side", -1)
    if side == -1:
        return None if result["winner"] is None else str(result["winner"])
    return None if side is None else result_side(result, side)


#: meld kinds and the variants' meld labels (:func:`ledger.views.state_view`), for the catalog
MELD_WORDS = (N_("set"), N_("sequence"), N_("burraco"), N_("points"), N_("clean"), N_("semi-clean"), N_("dirty"))


#: card names for a face's title (``present.face``), for the catalog
RANK_WORDS = {"A": N_("ace"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
SUIT_WORDS = {"H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs"), "S": N_("spades")}


def card_title(code: str, english: str, lang: str | None = None) -> str:
    """A card face's title in ``lang`` (default: the page's): ``english``
    (``"ace of hearts"``) in English, else ``"asso di cuori"``, ``"jolly"``.

    >>> (card_title("AH", "ace of hearts", "it"), card_title("10S", "10 of spades", "it"),
    ...  card_title("JK", "joker", "en"))
    ('asso di cuori', '10 di picche', 'joker')
    """
    lang = lang or current_lang()
    if lang == "en":
        return english
    _ = viewer_translations(lang).gettext
    if code == "JK":
        return _("joker")
    rank, suit = code[:-1], code[-1]
    return _("%(rank)s of %(suit)s") % {
        "rank": _(RANK_WORDS[rank]) if rank in RANK_WORDS else rank,
        "suit": _(SUIT_WORDS.get(suit, suit)),
    }


#: the msgids of the variants' board notes (ledger/variants/*/presentation.py: Burraco's pozzetti, Gin's
#: deadwood, the elimination threshold) and of a team's label inside them, as the viewer shows
#: them (:func:`variant_note`); tests/test_rule_table.py keeps them equal to the presentation's
NOTE_MSGIDS = (
    N_("%(who)s: pozzetto taken"),
    N_("%(who)s: pozzetto not taken yet"),
    N_("pozzetto %(n)s became the stock"),
    N_("the hand ended at the stock's end after position %(n)s: later play does not count"),
    N_("%(who)s: deadwood %(n)s"),
    N_("%(who)s: deadwood %(n)s (knocked)"),
    N_("%(who)s: best deadwood %(n)s, could knock"),
    N_("%(who)s: best deadwood %(n)s, could knock (discarding %(card)s)"),
    N_("%(who)s: best deadwood %(n)s, could not knock"),
    N_("a seat reaching %(n)s points is out; out: %(who)s"),
    N_("a seat reaching %(n)s points is out"),
    N_("team %(team)s (%(names)s)"),
)


def variant_note(note: Message) -> str:
    """A variant's board note (a message of :mod:`ledger.variants.presentation`:
    ``"Anna: pozzetto not taken yet"``) in the page's language.

    >>> from flask import Flask, g
    >>> from ledger.texts import Message
    >>> side = Message("team %(team)s (%(names)s)", team=1, names="Bruno & Dario")
    >>> with Flask("t").test_request_context():
    ...     g.lang = "it"
    ...     variant_note(Message("%(who)s: pozzetto not taken yet", who=side))
    'coppia 1 (Bruno & Dario): pozzetto non ancora preso'
    """
    return render(note, viewer_translations(current_lang()))


#: :data:`replay_web.access.HIDDEN_MESSAGE`, the finding message a spectator sees, for the catalog
HIDDEN_FINDING = N_("(shown to referees, and to everyone when the game is over)")


def finding_message(finding: Finding) -> str:
    """A finding's message as the page shows it, in the page's language:
    ``gettext(msgid) % params`` with the command line's layer of the catalog
    (the audit's words, as ``audit`` shows them); the spectator's placeholder
    with the viewer's layer.

    >>> from flask import Flask, g
    >>> from ledger.state import Finding
    >>> f = Finding(3, 1, 0, "ALL-TURN-1", "%(who)s played out of turn: it was %(due)s's turn", ("Anna", "Bruno"))
    >>> with Flask("t").test_request_context():
    ...     g.lang = "it"
    ...     finding_message(f)
    'Anna ha giocato fuori turno: era il turno di Bruno'
    """
    if finding.msgid == HIDDEN_FINDING:
        return _gettext()(finding.msgid)
    return finding.text(ledger_i18n.translations(current_lang()))


def code_markup(text: str) -> Any:
    """RULES.md's back-quoted names as ``<code>`` (the text escaped first).

    >>> str(code_markup("a `meld_extended` <b>"))
    'a <code>meld_extended</code> &lt;b&gt;'
    """
    from markupsafe import Markup, escape

    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts)))


def init_app(app: Any) -> None:
    """The templates' word globals and filters on ``app`` (after
    :func:`replay_web.lang.init_app`, which chooses the page's language)."""
    from ledger.rule_texts import rule_text

    app.jinja_env.globals.update(
        turn_words=turn_line,
        card_title=card_title,
        result_side=result_side,
        result_winner=result_winner,
        rule_text=lambda rule: rule_text(rule, current_lang()) or "",
    )
    app.jinja_env.filters.update(
        component=component,
        hand_reason=hand_reason,
        variant_note=variant_note,
        finding_message=finding_message,
        code=code_markup,
    )
