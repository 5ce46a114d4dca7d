"""Readable text of a table state, for ``rummy-ledger show GAME --at N``.

Pure rendering over :func:`ledger.views.state_view`: each seat's hand, the
melds per side (with the variant's marks, e.g. burraco kind), the top of the
discard pile (the whole pile in Burraco), the stock count and whose turn it is.

Every function takes ``tr``, a gettext translations object (``gettext`` and
``ngettext``; English, the msgids, when None): the CLI passes
:func:`ledger.i18n.translations` of its language. Rule ids, card faces,
meld ids and score components' keys in English output stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from gettext import NullTranslations

from ledger.cards import pretty, pretty_list
from ledger.notation import GAME_END_REASONS, reason_words
from ledger.scoring import ScoreSheet, SheetHand
from ledger.state import TableState
from ledger.texts import N_, Message, render
from ledger.views import COMPONENTS, PHASES, MeldView, SeatView, StateView, sorted_view, state_view

_ENGLISH = NullTranslations()


#: the game endings (FORMAT.md ``game_ended``) without a result: a game so ended names no winner and
#: the score sheet says why, as the viewer's games list does (issue 26)
NO_RESULT_REASONS = frozenset({"abandoned", "time_out"})

#: meld kinds (melds.py) and burraco kinds (variants/burraco/)
KINDS = {"set": N_("set"), "sequence": N_("sequence"), "invalid": N_("invalid")}
_BURRACO_KINDS = (N_("clean"), N_("semi-clean"), N_("dirty"))


def side_text(state: TableState, side: int, tr: NullTranslations | None = None) -> str:
    """A side's label (:meth:`~ledger.state.TableState.side_label`) in the
    language of ``tr``: a seat alone is its player's name, a team
    ``team 0 (Anna & Carla)`` (Italian ``coppia 0 (Anna & Carla)``)."""
    return side_name(side, [state.name(s) for s in state.seats_of(side)], tr)


def side_name(side: int, names: Sequence[str], tr: NullTranslations | None = None) -> str:
    """Side ``side`` of the players ``names`` (its seats' names, in seat
    order) in the language of ``tr``: the name of a seat alone, else the team.

    >>> side_name(1, ["Bruno"]), side_name(0, ["Anna", "Carla"])
    ('Bruno', 'team 0 (Anna & Carla)')
    """
    if len(names) == 1:
        return names[0]
    return (tr or _ENGLISH).gettext("team %(team)s (%(names)s)") % {"team": side, "names": " & ".join(names)}


def note_text(note: Message, tr: NullTranslations | None = None) -> str:
    """A variant's note line (a message of :mod:`ledger.variants.presentation`) in the language of ``tr``.

    >>> note_text(Message("%(who)s: pozzetto not taken yet", who="Anna"))
    'Anna: pozzetto not taken yet'
    """
    return render(note, tr)


def reason_text(reason: str, tr: NullTranslations | None = None) -> str:
    """``"hands_played"`` -> ``"hands played"`` (Italian: ``"smazzate giocate"``)."""
    return render(reason_words(reason), tr)


def component_text(key: str, tr: NullTranslations | None = None) -> str:
    """A score component's name: the key itself in English, its words in Italian (the key is its
    msgid: :data:`ledger.views.COMPONENTS`)."""
    return (tr or _ENGLISH).gettext(key) if key in COMPONENTS else key


def _cards(count: int, tr: NullTranslations) -> str:
    return tr.ngettext("%(num)s card", "%(num)s cards", count) % {"num": count}


def _meld_line(m: MeldView, tr: NullTranslations) -> str:
    _ = tr.gettext
    marks = []
    if m.burraco:
        marks.append(_("burraco %(kind)s") % {"kind": _(m.burraco)})
    if not m.valid:
        marks.append(_("INVALID"))
    wilds = [f"{pretty(c)}={pretty(s) if len(s) > 1 else s}" for c, s in zip(m.cards, m.stands_for) if s]
    if wilds:
        marks.append(_("wild %(wilds)s") % {"wilds": ", ".join(wilds)})
    tail = f"  ({'; '.join(marks)})" if marks else ""
    kind = _(KINDS[m.kind]) if m.kind in KINDS else m.kind
    width = max(len(_(k)) for k in KINDS.values())  # the kinds line up in every language
    return f"    [{m.id}] {kind:<{width}} {pretty_list(m.cards)}{tail}"


def render_state(
    state: TableState, pov: int | str | None = None, tr: NullTranslations | None = None, order: str = "suit"
) -> str:
    """Multi-line text of the table at ``state.position`` (``pov``: redacted
    to one seat, or ``"spectator"``, by :func:`ledger.views.state_view`;
    ``tr``: the language, English when None; ``order``: the hands by suit
    and rank, as the viewer and the report show them, or ``dealt``)."""
    tr = tr or _ENGLISH
    _ = tr.gettext
    v = state_view(state, pov)
    if order == "suit":
        v = sorted_view(v)
    lines = _heading_lines(state, v, tr)
    lines.append("")
    lines.extend(_seat_line(s, v.dealer, tr) for s in v.seats)
    sides = sorted({m.side for m in v.melds})
    if sides:
        lines.append("")
        lines.append(_("melds:"))
        for side in sides:
            lines.append(_meld_heading(state, side, tr))
            lines.extend(_meld_line(m, tr) for m in v.melds if m.side == side)
    lines.append("")
    lines.append(_pile_line(state, v, tr))
    lines.append(_("stock: %(cards)s") % {"cards": _cards(v.stock_count, tr)})
    for p in v.pozzetti:
        taken = _("taken by %(who)s") % {"who": state.name(p.taken_by)} if p.taken_by is not None else _("not taken")
        lines.append(_("pozzetto %(n)s: %(taken)s") % {"n": p.index, "taken": taken})
    lines.extend(
        note_text(n, tr) for n in getattr(v.variant_notes, "notes", ())
    )  # a variant's note lines (Gin: best deadwood per seat)
    if v.totals and any(v.totals):
        lines.append(
            _("totals: %(totals)s")
            % {"totals": ", ".join(f"{side_text(state, i, tr)} {t}" for i, t in enumerate(v.totals))}
        )
    if v.findings:
        lines.append(_("findings so far: %(n)s") % {"n": v.findings})
    return "\n".join(lines)


def _heading_lines(state: TableState, v: StateView, tr: NullTranslations) -> list[str]:
    """:func:`render_state`'s first two lines: the game and position, then whose turn (or the game's end)."""
    _ = tr.gettext
    lines = [
        _("%(game)s — %(variant)s (%(ruleset)s) — position %(position)s, hand %(hand)s")
        % {
            "game": v.game_id,
            "variant": v.variant,
            "ruleset": v.ruleset,
            "position": v.position,
            "hand": v.hand,
        }
    ]
    phase = _(PHASES[v.phase]) if v.phase in PHASES else v.phase
    if v.ended:
        lines.append(_("game over: %(reason)s") % {"reason": reason_text(v.ended, tr)})
    elif v.turn is not None:
        lines.append(
            _("turn: %(who)s (seat %(seat)s), %(phase)s") % {"who": state.name(v.turn), "seat": v.turn, "phase": phase}
        )
    else:
        lines.append(phase)
    return lines


def _seat_line(s: SeatView, dealer_seat: int | None, tr: NullTranslations) -> str:
    """One seat of :func:`render_state` (``s``: a seat of :func:`ledger.views.state_view`)."""
    _ = tr.gettext
    team = _(", team %(team)s") % {"team": s.team} if s.team is not None else ""
    dealer = _(" (dealer)") if s.seat == dealer_seat else ""
    cards = pretty_list(s.cards) if s.cards is not None else _("hidden")
    if s.cards is None and s.seen:
        cards += _(" (seen: %(cards)s)") % {"cards": pretty_list(s.seen)}
    flag = _(" — out") if s.eliminated else ""
    return _("  seat %(seat)s %(name)s%(team)s%(dealer)s: %(count)s: %(cards)s%(flag)s") % {
        "seat": s.seat,
        "name": s.name,
        "team": team,
        "dealer": dealer,
        "count": _cards(s.count, tr),
        "cards": cards,
        "flag": flag,
    }


def _meld_heading(state: TableState, side: int, tr: NullTranslations) -> str:
    """``  side 0 (Anna):`` above a side's melds; a team's ``  side 0 (team 0 (Anna & Carla)):``
    (Italian: ``  coppia 0 (Anna & Carla):``, the team named once)."""
    _ = tr.gettext
    seats = state.seats_of(side)
    if len(seats) == 1:
        return _("  side %(side)s (%(who)s):") % {"side": side, "who": state.name(seats[0])}
    names = " & ".join(state.name(s) for s in seats)
    return _("  side %(side)s (team %(side)s (%(names)s)):") % {"side": side, "names": names}


def _pile_line(state: TableState, v: StateView, tr: NullTranslations) -> str:
    """:func:`render_state`'s discard pile: every card where the whole pile is taken, else its top card."""
    _ = tr.gettext
    pile = v.discard
    if state.rules.pile_take_count(state) is None:
        return _("discard pile (%(count)s): %(cards)s") % {"count": len(pile), "cards": pretty_list(pile) or _("empty")}
    hidden = v.discard_hidden
    if hidden:
        return _("discard pile: face down on top (%(cards)s)") % {"cards": _cards(len(pile) + hidden, tr)}
    return _("discard pile: %(top)s on top (%(cards)s)") % {
        "top": pretty(pile[-1]) if pile else _("empty"),
        "cards": _cards(len(pile), tr),
    }


def render_score(
    sheet: ScoreSheet, state: TableState, played: ScoreSheet | None = None, tr: NullTranslations | None = None
) -> str:
    """Multi-line text of a score sheet: each hand with how it ended, each
    side's points and breakdown, claimed points where they differ, the
    running totals, and the winner (``played``: the as-played sheet, shown
    when its totals differ from the adjudicated ones; ``tr``: the language)."""
    tr = tr or _ENGLISH
    _ = tr.gettext
    rules = state.rules
    kind = _("as adjudicated") if sheet.adjudicated else _("as played")
    lines = [
        _("score of %(game)s — %(variant)s (%(ruleset)s), %(kind)s")
        % {"game": sheet.game_id, "variant": rules.variant, "ruleset": rules.ruleset, "kind": kind}
    ]
    running = [0] * state.n_sides
    for h in sheet.hands:
        by = f", {state.name(h.seat)}" if h.seat is not None else ""
        lines.append(
            _("hand %(hand)s (%(reason)s%(by)s)") % {"hand": h.hand, "reason": reason_text(h.reason, tr), "by": by}
        )
        lines.extend(score_lines(h, state, running, tr))
    lines.extend(score_tail(sheet, state, played, tr))
    return "\n".join(lines)


def score_lines(
    hand: SheetHand, state: TableState, running: list[int], tr: NullTranslations | None = None
) -> list[str]:
    """One scored hand's lines of :func:`render_score`, one per side:
    label, points, running total (``running``, per side, is added to),
    breakdown, and a claim that differs (``tr``: the language)."""
    tr = tr or _ENGLISH
    _ = tr.gettext
    label = {i: side_text(state, i, tr) for i in range(state.n_sides)}
    width = max((len(v) for v in label.values()), default=4)
    total = _("total")
    lines = []
    for ln in hand.lines:
        running[ln.side] += ln.points
        parts = ", ".join(f"{component_text(k, tr)} {v:+d}" for k, v in ln.breakdown.items() if v)
        claim = "  [" + _("claimed %(n)s: differs") % {"n": ln.claimed} + "]" if ln.claim_differs else ""
        if ln.as_claimed:  # partial records (FORMAT.md): the points are the claimed ones
            claim += "  [" + _("as claimed: the count depends on unknown cards") + "]"
        if ln.unscored:  # partial records: ALL-SCORE-2, no points and no claim
            claim += "  [" + _("unscored: the count depends on unknown cards and nothing was claimed") + "]"
        lines.append(
            f"  {label[ln.side]:<{width}} {ln.points:>6}   {total} {running[ln.side]:>6}   {parts}{claim}".rstrip()
        )
    return lines


def score_tail(
    sheet: ScoreSheet, state: TableState, played: ScoreSheet | None = None, tr: NullTranslations | None = None
) -> list[str]:
    """The last lines of :func:`render_score`: the totals, the as-played
    totals when they differ, the winner (or that the game is not over)."""
    tr = tr or _ENGLISH
    _ = tr.gettext
    label = {i: side_text(state, i, tr) for i in range(state.n_sides)}
    lines = [_("totals: %(totals)s") % {"totals": ", ".join(f"{label[i]} {t}" for i, t in enumerate(sheet.totals))}]
    if played is not None and played.totals != sheet.totals:
        lines.append(
            _("as played (no referee penalties): %(totals)s")
            % {"totals": ", ".join(f"{label[i]} {t}" for i, t in enumerate(played.totals))}
        )
    if sheet.ended is None:
        lines.append(_("game not over"))
    elif sheet.winner is not None:
        lines.append(_("winner: %(who)s") % {"who": label[sheet.winner]})
    elif sheet.ended in NO_RESULT_REASONS:  # the game ended without a result: say how, as the games list does
        lines.append(_("no winner (%(reason)s)") % {"reason": _(GAME_END_REASONS[sheet.ended])})
    else:
        lines.append(_("no winner (tie or no result)"))
    return lines
