"""The tournament checker: TOUR-… findings on a recorded tournament (TOURNAMENT.md, "Rule ids (tournament)").

Independent of the proposer (:mod:`ledger.tournament.pairing`): it checks
properties of each recorded round, never that the round is the proposal.

- TOUR-PAIR-2: an entrant at two places of one round, or a withdrawn entrant paired;
- TOUR-PAIR-1: the pairing breaks its movement: an active entrant neither
  paired nor the bye, a bye with an even number of entrants, a second bye
  while another entrant has none (standings-based movements), a Mitchell
  table out of rotation or a round-robin table off the circle (unless both
  entrants are stranded), danese pairs that are not consecutive in the
  standings after the round before, a rematch of the previous round's
  opponent in ``danese_modificato`` (but in the last round) or of any
  earlier opponent in ``swiss``;
- TOUR-GAME-1: a round's game whose players, ``meta.tournament``/``round``/``table``,
  variant or number of hands is not its pairing's;
- TOUR-GAME-2: a round closed with a game unfinished (or not stored) and no ``vp_adjusted`` for the round;
- TOUR-WARN-1: a warning (``vp_adjusted`` of 0 VP);
- TOUR-WARN-2: a second warning of an entrant with no ``vp_adjusted`` TOUR-WARN-2 (1 VP off) after it.

Findings are ordered by position. Pure: the games' results are an input.
"""

from __future__ import annotations

from collections.abc import Mapping

from ledger.i18n import N_
from ledger.tournament.findings import TourFinding
from ledger.tournament.history import circle_opponent, entry_order, history, mitchell_opponent, roster
from ledger.tournament.results import GameResult
from ledger.tournament.standings import standings
from ledger.tournament.state import Round, TournamentState


def check(state: TournamentState, results: Mapping[str, GameResult]) -> list[TourFinding]:
    """Every TOUR-… finding of the tournament at ``state``, by position."""
    found: list[TourFinding] = []
    for rnd in sorted(state.rounds):
        found += check_round(state, rnd, results)
        found += check_games(state, rnd, results)
    found += check_warnings(state)
    return sorted(found, key=lambda f: f.position)


def check_round(state: TournamentState, rnd: int, results: Mapping[str, GameResult]) -> list[TourFinding]:
    """TOUR-PAIR-1 and TOUR-PAIR-2 on round ``rnd`` as recorded."""
    info = state.rounds[rnd]
    pos = info.paired_at
    active = state.active(pos)
    found = _twice_or_withdrawn(state, info)
    placed = [e for t in info.tables for e in t.entrants] + ([info.bye] if info.bye else [])
    for e in active:
        if e not in placed:
            found.append(
                _f(pos, "TOUR-PAIR-1", N_("round %(round)s: %(entrant)s is neither paired nor the bye"), rnd, e)
            )
    if info.bye is not None and len(active) % 2 == 0:
        found.append(
            _f(
                pos,
                "TOUR-PAIR-1",
                N_("round %(round)s: a bye for %(entrant)s with an even number of entrants"),
                rnd,
                info.bye,
            )
        )
    movement = state.started.movement
    if movement in ("mitchell", "italiana"):
        return found + _scheduled(state, info, set(active))
    return found + _standings_based(state, info, active, results)


def _f(pos: int, rule: str, msgid: str, rnd: int, entrant: str, **more: object) -> TourFinding:
    return TourFinding(pos, rule, msgid, {"round": rnd, "entrant": entrant, **more})


def _twice_or_withdrawn(state: TournamentState, info: Round) -> list[TourFinding]:
    pos, rnd = info.paired_at, info.round
    found: list[TourFinding] = []
    seen: set[str] = set()
    places = [e for t in info.tables for e in t.entrants] + ([info.bye] if info.bye else [])
    for e in places:
        if e in seen:
            found.append(_f(pos, "TOUR-PAIR-2", N_("round %(round)s: %(entrant)s is paired twice"), rnd, e))
        seen.add(e)
    for e in dict.fromkeys(places):
        w = state.entrants[e].withdrawn_at
        if w is not None and w < pos:
            found.append(_f(pos, "TOUR-PAIR-2", N_("round %(round)s: %(entrant)s withdrew and is paired"), rnd, e))
    return found


def _scheduled(state: TournamentState, info: Round, live: set[str]) -> list[TourFinding]:
    """Mitchell rotation or the circle: each table on the schedule unless both are stranded."""
    line, rnd, pos = roster(state), info.round, info.paired_at
    mitchell = state.started.movement == "mitchell"

    def scheduled(e: str) -> str | None:
        if e not in line:
            return None
        if mitchell:
            got = mitchell_opponent(line, e, rnd)
            return got[0] if got else None
        return circle_opponent(line, e, rnd)

    def stranded(e: str) -> bool:
        opp = scheduled(e)
        return opp is None or opp not in live

    found: list[TourFinding] = []
    for t in info.tables:
        a, b = t.entrants
        if scheduled(a) == b and not _mitchell_table_off(line, t.table, a, rnd, mitchell):
            continue
        if stranded(a) and stranded(b):
            continue
        msgid = (
            N_("round %(round)s, table %(table)s: %(entrant)s v %(other)s is out of the Mitchell rotation")
            if mitchell
            else N_("round %(round)s, table %(table)s: %(entrant)s v %(other)s is not the round robin's table")
        )
        found.append(_f(pos, "TOUR-PAIR-1", msgid, rnd, a, table=t.table, other=b))
    if info.bye is not None and not stranded(info.bye):
        found.append(
            _f(
                pos,
                "TOUR-PAIR-1",
                N_("round %(round)s: %(entrant)s has an opponent on the schedule, not a bye"),
                rnd,
                info.bye,
            )
        )
    return found


def _mitchell_table_off(line: list[str], table: int, a: str, rnd: int, mitchell: bool) -> bool:
    """A Mitchell table whose A is not the North–South entrant at its home table."""
    if not mitchell:
        return False
    got = mitchell_opponent(line, a, rnd)
    return got is None or not got[2] or got[1] != table


def _standings_based(
    state: TournamentState, info: Round, active: list[str], results: Mapping[str, GameResult]
) -> list[TourFinding]:
    rnd, pos, movement = info.round, info.paired_at, state.started.movement
    h = history(state, rnd)
    found: list[TourFinding] = []
    if info.bye is not None and h.byes.get(info.bye, 0) > min(h.byes.get(e, 0) for e in active):
        found.append(_f(pos, "TOUR-PAIR-1", N_("round %(round)s: a second bye for %(entrant)s"), rnd, info.bye))
    last_round = state.started.rounds is not None and rnd == state.started.rounds
    for t in info.tables:
        a, b = t.entrants
        if movement == "swiss" and h.has_met(a, b):
            found.append(
                _f(pos, "TOUR-PAIR-1", N_("round %(round)s: %(entrant)s meets %(other)s again"), rnd, a, other=b)
            )
        if movement == "danese_modificato" and not last_round and h.last.get(a) == b:
            found.append(
                _f(
                    pos,
                    "TOUR-PAIR-1",
                    N_("round %(round)s: %(entrant)s meets %(other)s of the previous round again"),
                    rnd,
                    a,
                    other=b,
                )
            )
    if movement == "danese":
        found += _danese_order(state, info, active, results)
    return found


def _danese_order(
    state: TournamentState, info: Round, active: list[str], results: Mapping[str, GameResult]
) -> list[TourFinding]:
    """Danese puro: each table pairs two neighbours of the order (standings after the round before)."""
    rnd, pos = info.round, info.paired_at
    live = set(active)
    if rnd == 1:
        order = entry_order(state, pos, info.seed)
    else:
        order = [e for e in standings(state, results, rnd - 1).order() if e in live]
    order = [e for e in order if e != info.bye]
    partner = {}
    for i in range(0, len(order) - 1, 2):
        partner[order[i]], partner[order[i + 1]] = order[i + 1], order[i]
    found = []
    for t in info.tables:
        a, b = t.entrants
        if partner.get(a) != b:
            found.append(
                _f(
                    pos,
                    "TOUR-PAIR-1",
                    N_(
                        "round %(round)s: %(entrant)s v %(other)s are not neighbours in the order "
                        "(danese pairs 1st v 2nd, 3rd v 4th)"
                    ),
                    rnd,
                    a,
                    other=b,
                )
            )
    return found


def check_games(state: TournamentState, rnd: int, results: Mapping[str, GameResult]) -> list[TourFinding]:
    """TOUR-GAME-1 on each stored game of round ``rnd``; TOUR-GAME-2 when the round is closed."""
    info = state.rounds[rnd]
    found: list[TourFinding] = []
    for t in info.tables:
        game = results.get(t.game_id)
        if game is not None:
            found += _game_mismatch(state, info, t.table, t.entrants, game)
    if info.closed_at is None:
        return found
    ruled = {a.entrant for a in state.adjustments if a.round == rnd and a.position <= state.position}
    for t in info.tables:
        game = results.get(t.game_id)
        if (game is None or not game.finished) and not ruled & set(t.entrants):
            found.append(
                TourFinding(
                    info.closed_at,
                    "TOUR-GAME-2",
                    N_("round %(round)s closed with game %(game)s at table %(table)s unfinished and no vp_adjusted"),
                    {"round": rnd, "game": t.game_id, "table": t.table},
                )
            )
    return found


def _game_mismatch(
    state: TournamentState, info: Round, table: int, entrants: tuple[str, ...], game: GameResult
) -> list[TourFinding]:
    started, rnd = state.started, info.round
    params: dict[str, object] = {"round": rnd, "table": table, "game": game.game_id}
    problems: list[tuple[str, dict[str, object]]] = []
    if game.variant != started.variant:
        problems.append(
            (
                N_("round %(round)s, table %(table)s: game %(game)s is %(found)s, the tournament plays %(wanted)s"),
                {"found": game.variant, "wanted": started.variant},
            )
        )
    for side, entrant in enumerate(entrants):
        names = sorted(game.sides[side]) if side < len(game.sides) else []
        if names != sorted(state.entrants[entrant].players):
            problems.append(
                (
                    N_(
                        "round %(round)s, table %(table)s: game %(game)s seats %(found)s on side %(side)s, "
                        "not %(entrant)s (%(wanted)s)"
                    ),
                    {
                        "found": " & ".join(names) or "-",
                        "side": side,
                        "entrant": entrant,
                        "wanted": " & ".join(state.entrants[entrant].players),
                    },
                )
            )
    for key, wanted in (("tournament", state.tournament_id), ("round", str(rnd)), ("table", str(table))):
        if game.meta.get(key) != wanted:
            problems.append(
                (
                    N_("round %(round)s, table %(table)s: game %(game)s has meta.%(key)s %(found)s, not %(wanted)s"),
                    {"key": key, "found": repr(game.meta.get(key)), "wanted": repr(wanted)},
                )
            )
    hands = game.options.get("hands")
    if (hands is not None and hands != started.hands_per_match) or (
        hands is None and game.finished and game.hands != started.hands_per_match
    ):
        problems.append(
            (
                N_(
                    "round %(round)s, table %(table)s: game %(game)s has %(found)s hands, "
                    "the tournament plays %(wanted)s"
                ),
                {"found": hands if hands is not None else game.hands, "wanted": started.hands_per_match},
            )
        )
    return [TourFinding(info.paired_at, "TOUR-GAME-1", msgid, {**params, **more}) for msgid, more in problems]


def check_warnings(state: TournamentState) -> list[TourFinding]:
    """TOUR-WARN-1 at each warning; TOUR-WARN-2 at an entrant's second (fourth…) warning
    when no ``vp_adjusted`` TOUR-WARN-2 takes the VP off after it."""
    found: list[TourFinding] = []
    warnings: dict[str, list[int]] = {}
    for adj in state.adjustments:
        if adj.vp == 0:
            found.append(
                TourFinding(
                    adj.position,
                    "TOUR-WARN-1",
                    N_("warning to %(entrant)s: %(note)s"),
                    {"entrant": adj.entrant, "note": adj.note or adj.rule},
                )
            )
            warnings.setdefault(adj.entrant, []).append(adj.position)
    for entrant, at in warnings.items():
        penalties = [
            a.position for a in state.adjustments if a.entrant == entrant and a.rule == "TOUR-WARN-2" and a.vp == -1
        ]
        for k in range(1, len(at), 2):
            if sum(1 for p in penalties if p > at[k]) < (k + 1) // 2:
                found.append(
                    TourFinding(
                        at[k],
                        "TOUR-WARN-2",
                        N_(
                            "second warning to %(entrant)s: 1 VP off (art. 20), and no vp_adjusted TOUR-WARN-2 takes it"
                        ),
                        {"entrant": entrant},
                    )
                )
    return found
