"""The standings and the rounds as a tournament director reads them: plain text columns (TOURNAMENT.md).

Pure functions of the standings and the state, in the language of ``tr``
(a gettext translations object; English by default): Italian uses the
federation's words (classifica, turno, tavolo, coppia, punti vittoria, PV).
Columns are padded to their widest cell, so the text is the same on any
terminal (the worked example of docs/tournaments.md prints it as it is).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from gettext import NullTranslations

from ledger.tournament.findings import TourFinding
from ledger.tournament.results import GameResult
from ledger.tournament.standings import Standings, round_lines
from ledger.tournament.state import TournamentState
from ledger.tournament.vp import Number

_EN = NullTranslations()


def number(value: Number) -> str:
    """A VP figure: ``13``, ``12.5`` (a whole float without its ``.0``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def columns(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    """``rows`` as lines of columns two spaces apart, each padded to its widest cell."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.rjust(w) if right[i] else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
        for r in rows
    ]


def _unit(state: TournamentState, tr: NullTranslations) -> str:
    pairs = any(len(e.players) == 2 for e in state.entrants.values())
    return tr.gettext("pair") if pairs else tr.gettext("player")


def render_standings(state: TournamentState, s: Standings, tr: NullTranslations = _EN) -> str:
    """The standings table: place, entrant, players, VP, MP difference, MP, rounds
    counted; a ``*`` marks an entrant with a game still playing; ``withdrawn`` notes a withdrawal."""
    _ = tr.gettext
    head = _("standings of %(tournament)s after round %(round)s") % {
        "tournament": state.tournament_id,
        "round": s.after_round,
    }
    rows = [[_("place"), _unit(state, tr), _("players"), _("VP"), _("MP diff"), _("MP"), _("rounds")]]
    playing = False
    for ln in s.lines:
        busy = any(r.playing for r in ln.rounds)
        playing = playing or busy
        note = (" " + _("(withdrawn)")) if ln.withdrawn else ""
        rows.append(
            [
                str(ln.place),
                ln.entrant + ("*" if busy else ""),
                " & ".join(ln.players) + note,
                number(ln.vp),
                f"{ln.mp_diff:+d}",
                str(ln.mp),
                str(sum(1 for r in ln.rounds if not r.playing)),
            ]
        )
    out = [head, *columns(rows, [True, False, False, True, True, True, True])]
    if playing:
        out.append(_("* a game of this entrant is still playing: it counts once finished"))
    return "\n".join(out) + "\n"


def render_round(
    state: TournamentState, rnd: int, results: Mapping[str, GameResult], tr: NullTranslations = _EN
) -> str:
    """Round ``rnd``: each table's entrants, MP and VP (or *playing*), the bye, closed or not."""
    _ = tr.gettext
    info = state.rounds[rnd]
    closed = _("closed") if info.closed_at is not None else _("not closed")
    out = [_("round %(round)s (%(state)s)") % {"round": rnd, "state": closed}]
    lines = dict(round_lines(state, results, rnd))
    rows = []
    for t in sorted(info.tables, key=lambda t: t.table):
        a, b = t.entrants
        la, lb = lines[a], lines[b]
        if la.playing:
            score, vp = _("playing"), ""
        else:
            score, vp = f"{la.mp}–{lb.mp}", f"{number(la.vp)}–{number(lb.vp)}"
        rows.append([_("table %(table)s") % {"table": t.table}, f"{a} v {b}", score, vp, t.game_id])
    if info.bye is not None:
        rows.append([_("bye"), info.bye, "", number(state.started.bye_score), ""])
    if rows:
        out += ["  " + r for r in columns(rows, [False, False, True, True, False])]
    return "\n".join(out) + "\n"


def render_findings(findings: Sequence[TourFinding], tr: NullTranslations = _EN) -> str:
    """One line per finding: ``position N: RULE: message`` (or that there are none)."""
    _ = tr.gettext
    if not findings:
        return _("no findings") + "\n"
    return "".join(_("position %(at)s") % {"at": f.position} + f": {f.rule}: {f.text(tr)}\n" for f in findings)
